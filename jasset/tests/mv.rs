//! `jasset mv`: a template used by instances and by a variant, an asset file and a
//! folder of assets moved, every `Template` line and asset path that named them changed
//! (one line each, nothing else in those files), `check` clean afterwards; the refusals
//! change nothing; `--dry-run` lists the edits and changes nothing.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

const SCHEMA: &str = "; AssetType\nSchema\n\
    ; Statue\nversion 1\nproperty Mesh asset(obj) \"\"\nproperty Plaques list(asset(*)) []\n";

const ROCK: &str = "; Kind: Inert\nMass: 250.0\n";
const MOSSY: &str = "# moss on top\n; Template: Assets/Templates/Rock.jasset\nHealth: 40.0\n";
const STATUE: &str =
    "EntityID: 3\r\nKind: Statue\r\nMesh: Assets/Meshes/Statue.obj\r\n; Plaques\r\nAssets/Meshes/Plaque.obj\r\n";

fn jasset(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jasset"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let files = [
        ("jasset.schema", SCHEMA.to_owned()),
        ("Assets/Templates/Rock.jasset", ROCK.to_owned()),
        ("Assets/Templates/RockMossy.jasset", MOSSY.to_owned()),
        ("Assets/Meshes/Statue.obj", "o statue\n".to_owned()),
        ("Assets/Meshes/Plaque.obj", "o plaque\n".to_owned()),
        ("Assets/Worlds/L/Entities/statue.jasset", STATUE.to_owned()),
    ];
    for (path, text) in files {
        fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
        fs::write(root.join(path), text).unwrap();
    }
    for i in 0..3 {
        let text = format!(
            "EntityID: {}\n; Template\nAssets/Templates/{}.jasset\n; Mass\n{i}.0\n",
            10 + i,
            if i == 2 { "RockMossy" } else { "Rock" }
        );
        fs::write(
            root.join(format!("Assets/Worlds/L/Entities/rock{i}.jasset")),
            text,
        )
        .unwrap();
    }
    dir
}

fn read(root: &Path, path: &str) -> String {
    fs::read_to_string(root.join(path)).unwrap()
}

/// The lines that differ between `before` and `after` (of the same line count).
fn changed<'a>(before: &'a str, after: &'a str) -> Vec<(&'a str, &'a str)> {
    assert_eq!(before.lines().count(), after.lines().count(), "{after}");
    before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .collect()
}

fn assert_clean(root: &Path) {
    let o = jasset(root, &["check", "--strict", "Assets"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn moving_a_template_points_its_instances_and_variants_at_the_new_path() {
    let dir = project();
    let root = dir.path();
    assert_clean(root);
    let before: Vec<String> = (0..3)
        .map(|i| read(root, &format!("Assets/Worlds/L/Entities/rock{i}.jasset")))
        .collect();
    let o = jasset(
        root,
        &[
            "mv",
            "Assets/Templates/Rock.jasset",
            "Assets/Templates/Stone/Rock.jasset",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(!root.join("Assets/Templates/Rock.jasset").exists());
    assert_eq!(read(root, "Assets/Templates/Stone/Rock.jasset"), ROCK);
    for (i, before) in before.iter().enumerate().take(2) {
        let after = read(root, &format!("Assets/Worlds/L/Entities/rock{i}.jasset"));
        assert_eq!(
            changed(before, &after),
            [(
                "Assets/Templates/Rock.jasset",
                "Assets/Templates/Stone/Rock.jasset"
            )]
        );
    }
    // The variant's instance is untouched; the variant names the new path.
    assert_eq!(
        read(root, "Assets/Worlds/L/Entities/rock2.jasset"),
        before[2]
    );
    assert_eq!(
        changed(MOSSY, &read(root, "Assets/Templates/RockMossy.jasset")),
        [(
            "; Template: Assets/Templates/Rock.jasset",
            "; Template: Assets/Templates/Stone/Rock.jasset"
        )]
    );
    assert_clean(root);
}

#[test]
fn moving_an_asset_or_a_folder_changes_the_asset_paths_that_name_it() {
    let dir = project();
    let root = dir.path();
    let statue = "Assets/Worlds/L/Entities/statue.jasset";
    let o = jasset(
        root,
        &["mv", "Assets/Meshes/Statue.obj", "Assets/Meshes/Hero.obj"],
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let after = read(root, statue);
    assert_eq!(
        changed(STATUE, &after),
        [(
            "Mesh: Assets/Meshes/Statue.obj",
            "Mesh: Assets/Meshes/Hero.obj"
        )]
    );
    assert_clean(root);
    let o = jasset(root, &["mv", "Assets/Meshes", "Assets/Models"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(
        changed(&after, &read(root, statue)),
        [
            (
                "Mesh: Assets/Meshes/Hero.obj",
                "Mesh: Assets/Models/Hero.obj"
            ),
            ("Assets/Meshes/Plaque.obj", "Assets/Models/Plaque.obj")
        ]
    );
    assert!(root.join("Assets/Models/Plaque.obj").is_file());
    assert_clean(root);
}

#[test]
fn refusals_and_dry_runs_change_nothing() {
    let dir = project();
    let root = dir.path();
    let snapshot = || {
        let mut files: Vec<(String, String)> = Vec::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    files.push((p.display().to_string(), fs::read_to_string(&p).unwrap()));
                }
            }
        }
        files.sort();
        files
    };
    let start = snapshot();
    // NEW exists; OLD missing; a path outside the project.
    let o = jasset(
        root,
        &[
            "mv",
            "Assets/Templates/Rock.jasset",
            "Assets/Templates/RockMossy.jasset",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let o = jasset(
        root,
        &[
            "mv",
            "Assets/Templates/Nope.jasset",
            "Assets/Templates/New.jasset",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let o = jasset(
        root,
        &["mv", "Assets/Templates/Rock.jasset", "../Rock.jasset"],
    );
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    // The dry run lists each edit with its line.
    let o = jasset(
        root,
        &[
            "mv",
            "--dry-run",
            "Assets/Templates/Rock.jasset",
            "Assets/Templates/Stone.jasset",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("Assets/Worlds/L/Entities/rock0.jasset:3: Assets/Templates/Rock.jasset -> Assets/Templates/Stone.jasset"),
        "{out}"
    );
    assert!(
        out.contains("Assets/Templates/RockMossy.jasset:2:"),
        "{out}"
    );
    // A file of a newer build to edit: refused before anything is written.
    let newer = root.join("Assets/Worlds/L/Entities/newer.jasset");
    fs::write(
        &newer,
        "EntityID: 7\nKind: Statue\nClassVersion: 9\nMesh: Assets/Meshes/Statue.obj\n",
    )
    .unwrap();
    let o = jasset(
        root,
        &["mv", "Assets/Meshes/Statue.obj", "Assets/Meshes/Hero.obj"],
    );
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("newer than this build"),
        "{o:?}"
    );
    fs::remove_file(&newer).unwrap();
    assert_eq!(snapshot(), start);
    // A read-only file to edit: refused before anything is written.
    let mossy = root.join("Assets/Templates/RockMossy.jasset");
    let mut perms = fs::metadata(&mossy).unwrap().permissions();
    perms.set_readonly(true);
    fs::set_permissions(&mossy, perms.clone()).unwrap();
    let o = jasset(
        root,
        &[
            "mv",
            "Assets/Templates/Rock.jasset",
            "Assets/Templates/Stone.jasset",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("read-only"),
        "{o:?}"
    );
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    fs::set_permissions(&mossy, perms).unwrap();
    assert_eq!(snapshot(), start);
}

#[test]
fn a_mv_killed_at_any_moment_leaves_each_file_old_or_new_and_a_second_run_completes_it() {
    use std::time::Duration;
    for round in 0..16u64 {
        let dir = project();
        let root = dir.path();
        let entities = root.join("Assets/Worlds/L/Entities");
        let old_text = |i: usize| {
            format!(
                "EntityID: {}\n; Template: Assets/Templates/Rock.jasset\nMass: {i}.0\n",
                100 + i
            )
        };
        for i in 0..300 {
            fs::write(entities.join(format!("r{i:03}.jasset")), old_text(i)).unwrap();
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_jasset"))
            .args([
                "mv",
                "Assets/Templates/Rock.jasset",
                "Assets/Templates/Stone.jasset",
            ])
            .current_dir(root)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(round * 3));
        let _ = child.kill();
        let _ = child.wait();
        let moved = root.join("Assets/Templates/Stone.jasset").exists();
        assert_ne!(moved, root.join("Assets/Templates/Rock.jasset").exists());
        for i in 0..300 {
            let text = fs::read_to_string(entities.join(format!("r{i:03}.jasset"))).unwrap();
            let new_text = old_text(i).replace("Rock.jasset", "Stone.jasset");
            assert!(
                text == old_text(i) || text == new_text,
                "round {round}, file {i}: {text:?}"
            );
            assert!(
                !moved || text == new_text,
                "moved before every file was edited"
            );
        }
        if !moved {
            let o = jasset(
                root,
                &[
                    "mv",
                    "Assets/Templates/Rock.jasset",
                    "Assets/Templates/Stone.jasset",
                ],
            );
            assert_eq!(o.status.code(), Some(0), "{o:?}");
        }
        assert_clean(root);
    }
}
