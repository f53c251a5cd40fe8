//! Working in a team, against real `git`: a project committed in a temporary repository,
//! two branches that edit it, and `jasset merge` / `jasset diff` configured as git's
//! merge driver, external diff and textconv (the guide's "Working in a team" set-up). Skipped,
//! with a printed reason, when `git` is not on PATH.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use glam::Vec3;
use juliet_entities::kinds::Inert;
use juliet_entities::{LoadOptions, World};

const TEMPLATE: &str = "# the shared rock\n; Kind\nInert\n; Mass\n250.0\n; Health\n100.0\n";
const INSTANCE: &str = "; EntityID\n0x0000000000000010\n; Template\nAssets/Templates/Rock.jasset\n; Position\n1.0 2.0 3.0\n; Health\n50.0\n";
const CRATE: &str =
    "# hand-written\n; EntityID\n0x0000000000000011\n; Kind\nInert\n; Mass\n10.0\n; IsVisible: true\n";

const TEMPLATE_PATH: &str = "Assets/Templates/Rock.jasset";
const INSTANCE_PATH: &str = "Assets/Worlds/Level/Entities/Rock_1.jasset";
const CRATE_PATH: &str = "Assets/Worlds/Level/Entities/Crate.jasset";

fn jasset_bin() -> &'static str {
    env!("CARGO_BIN_EXE_jasset")
}

/// Whether `git` runs; prints why the test is skipped when it does not.
fn have_git() -> bool {
    let ok = Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: `git` is not on PATH");
    }
    ok
}

/// A repository in a temporary folder, with git isolated from the user's configuration.
struct Repo {
    dir: tempfile::TempDir,
}

impl Repo {
    /// A repository holding the project (template, instance, crate) in one commit on
    /// `main`; with the jasset merge and diff drivers configured when `drivers`.
    fn new(drivers: bool) -> Repo {
        let repo = Repo {
            dir: tempfile::tempdir().unwrap(),
        };
        repo.git(&["init", "-q", "-b", "main"]);
        for (path, text) in [
            (TEMPLATE_PATH, TEMPLATE),
            (INSTANCE_PATH, INSTANCE),
            (CRATE_PATH, CRATE),
        ] {
            repo.write(path, text);
        }
        if drivers {
            repo.write(".gitattributes", "*.jasset merge=jasset diff=jasset\n");
            let bin = jasset_bin();
            repo.git(&["config", "merge.jasset.name", "jasset property merge"]);
            repo.git(&[
                "config",
                "merge.jasset.driver",
                &format!("{bin} merge %O %A %B %P"),
            ]);
            repo.git(&["config", "diff.jasset.command", &format!("{bin} diff")]);
            let textconv = format!("{bin} diff --textconv");
            repo.git(&["config", "diff.jasset.textconv", &textconv]);
        }
        repo.commit("project");
        repo
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn run_git(&self, args: &[&str]) -> Output {
        Command::new("git")
            .args(args)
            .current_dir(self.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("HOME", self.path())
            .env("GIT_AUTHOR_NAME", "Tester")
            .env("GIT_AUTHOR_EMAIL", "tester@example.com")
            .env("GIT_COMMITTER_NAME", "Tester")
            .env("GIT_COMMITTER_EMAIL", "tester@example.com")
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    }

    /// Runs git and expects success.
    fn git(&self, args: &[&str]) -> String {
        let out = self.run_git(args);
        assert!(out.status.success(), "git {args:?}: {}", text(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.path().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.path().join(rel)).unwrap()
    }

    fn commit(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
    }

    /// Branch `theirs` from main with `edit_theirs` committed, then `edit_ours` committed
    /// on main; returns the output of merging `theirs` into main.
    fn branches(&self, edit_ours: impl FnOnce(&Repo), edit_theirs: impl FnOnce(&Repo)) -> Output {
        self.git(&["checkout", "-q", "-b", "theirs"]);
        edit_theirs(self);
        self.commit("theirs");
        self.git(&["checkout", "-q", "main"]);
        edit_ours(self);
        self.commit("ours");
        self.run_git(&["merge", "--no-edit", "theirs"])
    }

    /// Replaces `from` by `to` in the file `rel` (which must hold `from`).
    fn edit(&self, rel: &str, from: &str, to: &str) {
        let old = self.read(rel);
        assert!(old.contains(from), "{rel} has no {from:?}");
        self.write(rel, &old.replacen(from, to, 1));
    }

    fn jasset(&self, args: &[&str]) -> Output {
        Command::new(jasset_bin())
            .args(args)
            .current_dir(self.path())
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    }
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// The 1-based line of the first line of `text` that is `line`.
fn line_of(text: &str, line: &str) -> usize {
    text.lines().position(|l| l == line).expect("the line") + 1
}

#[test]
fn different_properties_of_one_file_merge_with_the_driver_and_conflict_without() {
    if !have_git() {
        return;
    }
    // Adjacent lines: git's line merge cannot take both.
    let ours = |r: &Repo| r.edit(CRATE_PATH, "10.0", "12.0");
    let theirs = |r: &Repo| r.edit(CRATE_PATH, "; IsVisible: true", "; IsVisible: false");

    let plain = Repo::new(false);
    let out = plain.branches(ours, theirs);
    assert!(!out.status.success(), "git's own merge: {}", text(&out));
    assert!(plain.read(CRATE_PATH).contains("<<<<<<<"));
    // Its markers are what check reports, at their line.
    let check = plain.jasset(&["check", CRATE_PATH]);
    assert_eq!(check.status.code(), Some(1), "{}", text(&check));
    let at = line_of(&plain.read(CRATE_PATH), "<<<<<<< HEAD");
    assert!(
        text(&check).contains(&format!(
            "Crate.jasset:{at}:1: error: unresolved merge conflict"
        )),
        "{}",
        text(&check)
    );

    let repo = Repo::new(true);
    let out = repo.branches(ours, theirs);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        repo.read(CRATE_PATH),
        CRATE
            .replace("10.0", "12.0")
            .replace("IsVisible: true", "IsVisible: false")
    );
    let check = repo.jasset(&["check", "Assets"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
}

#[test]
fn one_property_changed_differently_is_a_conflict_check_reports_until_resolved() {
    if !have_git() {
        return;
    }
    let repo = Repo::new(true);
    let out = repo.branches(
        |r| r.edit(CRATE_PATH, "10.0", "12.0"),
        |r| r.edit(CRATE_PATH, "10.0", "14.0"),
    );
    assert!(!out.status.success(), "a conflict: {}", text(&out));
    let merged = repo.read(CRATE_PATH);
    assert!(
        merged.contains("<<<<<<< ours\n; Mass: 12.0\n=======\n; Mass: 14.0\n>>>>>>> theirs\n"),
        "{merged}"
    );
    // The driver (given git's `%P`) names the asset, not git's temporary file.
    let at = line_of(&merged, "<<<<<<< ours");
    assert!(
        text(&out).contains(&format!(
            "{CRATE_PATH}:{at}:1: conflict: `Mass`: ours 12.0, theirs 14.0"
        )),
        "{}",
        text(&out)
    );
    assert!(!text(&out).contains(".merge_file"), "{}", text(&out));
    assert!(
        merged.starts_with("# hand-written\n"),
        "comments kept: {merged}"
    );
    let check = repo.jasset(&["check", CRATE_PATH]);
    assert_eq!(check.status.code(), Some(1));
    assert!(
        text(&check).contains(&format!(
            "Crate.jasset:{at}:1: error: unresolved merge conflict"
        )),
        "{}",
        text(&check)
    );

    // Resolved in a text editor: their side kept, the markers deleted.
    let resolved = merged
        .replace("<<<<<<< ours\n; Mass: 12.0\n=======\n", "")
        .replace(">>>>>>> theirs\n", "");
    repo.write(CRATE_PATH, &resolved);
    let check = repo.jasset(&["check", CRATE_PATH]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
    repo.commit("resolved");
}

#[test]
fn entities_added_on_both_branches_merge_with_no_conflict() {
    if !have_git() {
        return;
    }
    let repo = Repo::new(true);
    let world = repo.path().join("Assets/Worlds/Level");
    let add = |r: &Repo| {
        let options = LoadOptions {
            project_root: Some(r.path().to_path_buf()),
            ..LoadOptions::default()
        };
        let (mut w, _) = World::load(&world, &options).unwrap();
        // What an editing session does (the editor, a tool).
        w.use_random_id_prefix();
        for x in [1.0, 2.0] {
            w.manager_mut().make_entity::<Inert>(Vec3::splat(x));
        }
        assert_eq!(w.save_world().unwrap().written.len(), 2);
    };
    let out = repo.branches(add, add);
    assert!(out.status.success(), "{}", text(&out));
    let files: Vec<PathBuf> = fs::read_dir(world.join("Entities"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 2 + 4, "{files:?}");
    let check = repo.jasset(&["check", "Assets"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
}

#[test]
fn templates_and_instances_merge_property_by_property() {
    if !have_git() {
        return;
    }
    let repo = Repo::new(true);
    let out = repo.branches(
        |r| {
            r.edit(TEMPLATE_PATH, "250.0", "300.0");
            r.edit(INSTANCE_PATH, "1.0 2.0 3.0", "5.0 2.0 3.0");
        },
        |r| {
            r.edit(TEMPLATE_PATH, "100.0", "120.0");
            r.edit(INSTANCE_PATH, "50.0", "60.0");
            // A new override of an instance (a sparse delta gains a key).
            let text = r.read(INSTANCE_PATH) + "; IsVisible\nfalse\n";
            r.write(INSTANCE_PATH, &text);
        },
    );
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        repo.read(TEMPLATE_PATH),
        TEMPLATE.replace("250.0", "300.0").replace("100.0", "120.0")
    );
    assert_eq!(
        repo.read(INSTANCE_PATH),
        INSTANCE
            .replace("1.0 2.0 3.0", "5.0 2.0 3.0")
            .replace("50.0", "60.0")
            + "; IsVisible\nfalse\n"
    );
    let check = repo.jasset(&["check", "Assets"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));

    // Both change the instance's Health, and the template's Kind, differently.
    repo.git(&["branch", "-q", "-D", "theirs"]);
    let out = repo.branches(
        |r| {
            r.edit(INSTANCE_PATH, "60.0", "70.0");
            r.edit(TEMPLATE_PATH, "Inert", "Collectible");
        },
        |r| {
            r.edit(INSTANCE_PATH, "60.0", "80.0");
            r.edit(TEMPLATE_PATH, "Inert", "Projectile");
        },
    );
    assert!(!out.status.success(), "{}", text(&out));
    let instance = repo.read(INSTANCE_PATH);
    assert!(
        instance.contains("<<<<<<< ours\n; Health: 70.0\n=======\n; Health: 80.0\n"),
        "{instance}"
    );
    assert!(repo
        .read(TEMPLATE_PATH)
        .contains("; Kind: Collectible\n=======\n; Kind: Projectile\n"));
    let check = repo.jasset(&["check", INSTANCE_PATH]);
    assert_eq!(check.status.code(), Some(1), "{}", text(&check));
}

#[test]
fn git_diff_shows_properties_through_the_external_diff() {
    if !have_git() {
        return;
    }
    let repo = Repo::new(true);
    repo.edit(CRATE_PATH, "10.0", "12.5");
    repo.edit(CRATE_PATH, "# hand-written\n", "# moved a comment\n");
    repo.edit(INSTANCE_PATH, "50.0", "50.00");
    let out = repo.git(&["diff", "--ext-diff"]);
    assert!(
        out.contains(&format!(
            "diff --jasset a/{CRATE_PATH} b/{CRATE_PATH}\n~ Mass: 10.0 -> 12.5\n"
        )),
        "{out}"
    );
    // A respelled value and a comment are no change.
    assert!(!out.contains("Health") && !out.contains("Rock_1"), "{out}");
    // `git log -p` (no external diff): git's line diff of the textconv texts.
    repo.commit("edits");
    let log = repo.git(&["log", "-p", "-1"]);
    assert!(log.contains("-Mass: 10.0\n+Mass: 12.5\n"), "{log}");
    assert!(!log.contains("Health") && !log.contains("comment"), "{log}");
    // A renamed file (git passes nine arguments).
    repo.git(&["mv", CRATE_PATH, "Assets/Worlds/Level/Entities/Box.jasset"]);
    repo.edit("Assets/Worlds/Level/Entities/Box.jasset", "12.5", "13.0");
    repo.git(&["add", "-A"]);
    let out = repo.git(&["diff", "--cached", "-M", "--ext-diff"]);
    assert!(out.contains("~ Mass: 12.5 -> 13.0\n"), "{out}");
    // A new file: every property added.
    repo.write("Assets/Worlds/Level/Entities/New.jasset", "; Kind\nInert\n");
    repo.git(&["add", "-A"]);
    let out = repo.git(&[
        "diff",
        "--cached",
        "--ext-diff",
        "--",
        "Assets/Worlds/Level/Entities/New.jasset",
    ]);
    assert!(out.contains("+ Kind: Inert"), "{out}");
}

/// A game's kind with a composite (`Stats { hp, armor }`), as its schema gives it to the
/// stock tool: each leaf a property of its own.
const GUARD_SCHEMA: &str = "; AssetType\nSchema\n; Guard\nversion 1\n\
    property Stats.Hp f32 0.0\nproperty Stats.Armor f32 0.0\nproperty Speed f32 1.0\n";
const GUARD: &str = "; EntityID\n0x0000000000000012\n; Kind\nGuard\n; Stats.Hp\n100.0\n\
    ; Stats.Armor\n5.0\n; Speed\n2.0\n";
const GUARD_PATH: &str = "Assets/Worlds/Level/Entities/Guard.jasset";

/// [`Repo::new`] with the drivers, the guard's schema and the guard committed.
fn guard_repo() -> Repo {
    let repo = Repo::new(true);
    repo.write("jasset.schema", GUARD_SCHEMA);
    repo.write(GUARD_PATH, GUARD);
    repo.commit("guard");
    repo
}

#[test]
fn two_branches_editing_different_leaves_of_one_composite_merge_cleanly() {
    if !have_git() {
        return;
    }
    let repo = guard_repo();
    let out = repo.branches(
        |r| r.edit(GUARD_PATH, "100.0", "80.0"),
        |r| r.edit(GUARD_PATH, "5.0", "7.5"),
    );
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        repo.read(GUARD_PATH),
        GUARD.replace("100.0", "80.0").replace("5.0", "7.5")
    );
    let check = repo.jasset(&["check", "Assets"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
}

#[test]
fn one_leaf_changed_differently_is_a_conflict_that_check_reports() {
    if !have_git() {
        return;
    }
    let repo = guard_repo();
    let out = repo.branches(
        |r| r.edit(GUARD_PATH, "100.0", "80.0"),
        |r| r.edit(GUARD_PATH, "100.0", "120.0"),
    );
    assert!(!out.status.success(), "a conflict: {}", text(&out));
    let merged = repo.read(GUARD_PATH);
    assert!(merged.contains("Stats.Hp"), "{merged}");
    assert!(
        merged.contains("80.0") && merged.contains("120.0"),
        "{merged}"
    );
    let check = repo.jasset(&["check", GUARD_PATH]);
    assert_eq!(check.status.code(), Some(1), "{}", text(&check));
    let at = line_of(&merged, "<<<<<<< ours");
    assert!(
        text(&check).contains(&format!(
            "Guard.jasset:{at}:1: error: unresolved merge conflict"
        )),
        "{}",
        text(&check)
    );
    // The other leaf was not part of the conflict.
    assert_eq!(merged.matches("5.0").count(), 1, "{merged}");
}
