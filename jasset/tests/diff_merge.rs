//! `jasset diff`, `jasset merge` and `jasset renumber` end to end through the built
//! binary: exit codes, output, and what each writes (the git set-up is in `team.rs`).

mod common;
use common::jasset;

use std::fs;
use std::process::Output;

const TEMPLATE: &str = "; Kind: Inert\n; Mass: 250.0\n; Health: 100.0\n";

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("Assets/Templates")).unwrap();
    fs::create_dir_all(dir.path().join("Assets/Worlds/L/Entities")).unwrap();
    fs::write(dir.path().join("Assets/Templates/Rock.jasset"), TEMPLATE).unwrap();
    dir
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn text(o: &Output) -> String {
    stdout(o) + &String::from_utf8_lossy(&o.stderr)
}

#[test]
fn diff_exits_0_when_equal_1_when_different_2_on_bad_input() {
    let dir = project();
    let w = |name: &str, text: &str| fs::write(dir.path().join(name), text).unwrap();
    w(
        "a.jasset",
        "; EntityID\n0x0000000000000042\n; Kind\nInert\n; Mass\n0.50\n",
    );
    w(
        "b.jasset",
        "// respelled and moved\nmass: 0.5\nkind: Inert\nid: 66\n",
    );
    w(
        "c.jasset",
        "; EntityID: 0x42\n; Kind: Inert\n; Mass: 2\n; Tag: new\n",
    );
    w("bad.jasset", "; Kind\nInert\n<<<<<<< ours\n");
    let out = jasset(dir.path(), &["diff", "a.jasset", "b.jasset"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(stdout(&out), "");
    let out = jasset(dir.path(), &["diff", "a.jasset", "c.jasset"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(stdout(&out), "~ Mass: 0.5 -> 2.0\n+ Tag: new\n");
    let out = jasset(dir.path(), &["diff", "a.jasset", "bad.jasset"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("bad.jasset:3:1: error: unresolved merge conflict"));
    let out = jasset(dir.path(), &["diff", "a.jasset", "missing.jasset"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

#[test]
fn diff_says_when_a_side_that_does_not_load_is_compared_as_written() {
    let dir = project();
    let e = dir.path().join("Assets/Worlds/L/Entities");
    let head = "; EntityID: 0x10\n; Template: Assets/Templates/Gone.jasset\n";
    fs::write(e.join("a.jasset"), format!("{head}; Mass: 0.50\n")).unwrap();
    fs::write(e.join("b.jasset"), format!("{head}; Mass: 0.5\n")).unwrap();
    let (a, b) = (
        "Assets/Worlds/L/Entities/a.jasset",
        "Assets/Worlds/L/Entities/b.jasset",
    );
    // Without its template the class is unknown, so no codec reads the values.
    let out = jasset(dir.path(), &["diff", a, b]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(stdout(&out), "~ Mass: 0.50 -> 0.5\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    for side in [a, b] {
        let note = format!(
            "jasset: note: values compared as written, the entity does not load: {side}:2:"
        );
        assert!(stderr.contains(&note), "{stderr}");
    }
    assert!(stderr.contains("Gone.jasset"), "{stderr}");
    // A side that loads says nothing.
    fs::write(e.join("b.jasset"), "; EntityID: 0x10\n; Kind: Inert\n").unwrap();
    let out = jasset(dir.path(), &["diff", a, b]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("jasset: note:").count(), 1, "{stderr}");
}

#[test]
fn resolved_diff_compares_the_values_after_the_template_chain() {
    let dir = project();
    let e = dir.path().join("Assets/Worlds/L/Entities");
    let head = "; EntityID: 0x10\n; Template: Assets/Templates/Rock.jasset\n";
    fs::write(e.join("a.jasset"), format!("{head}; Mass: 250.0\n")).unwrap();
    fs::write(e.join("b.jasset"), head).unwrap();
    let (a, b) = (
        "Assets/Worlds/L/Entities/a.jasset",
        "Assets/Worlds/L/Entities/b.jasset",
    );
    // The pinned override is a property of the file...
    let out = jasset(dir.path(), &["diff", a, b]);
    assert_eq!(
        (out.status.code(), stdout(&out)),
        (Some(1), "- Mass: 250.0\n".into())
    );
    // ...but not a different value.
    let out = jasset(dir.path(), &["diff", "--resolved", a, b]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    fs::write(e.join("b.jasset"), format!("{head}; Health: 5\n")).unwrap();
    let out = jasset(dir.path(), &["diff", "--resolved", a, b]);
    assert_eq!(stdout(&out), "~ Health: 100.0 -> 5.0\n");
}

#[test]
fn merge_writes_ours_or_out_and_exits_1_on_a_conflict() {
    let dir = project();
    let w = |name: &str, text: &str| fs::write(dir.path().join(name), text).unwrap();
    w("base.jasset", "; Kind: Inert\n; Mass: 1.0\n; Health: 2.0\n");
    w("ours.jasset", "; Kind: Inert\n; Mass: 1.5\n; Health: 2.0\n");
    w(
        "theirs.jasset",
        "; Kind: Inert\n; Mass: 1.0\n; Health: 3.0\n",
    );
    let args = ["merge", "base.jasset", "ours.jasset", "theirs.jasset"];
    let out = jasset(dir.path(), &[&args[..], &["-o", "out.jasset"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let merged = fs::read_to_string(dir.path().join("out.jasset")).unwrap();
    assert_eq!(merged, "; Kind: Inert\n; Mass: 1.5\n; Health: 3.0\n");

    w(
        "theirs.jasset",
        "; Kind: Inert\n; Mass: 1.7\n; Health: 2.0\n",
    );
    let out = jasset(dir.path(), &args);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        stdout(&out).contains("ours.jasset:2:1: conflict: `Mass`: ours 1.5, theirs 1.7"),
        "{}",
        text(&out)
    );
    let written = fs::read_to_string(dir.path().join("ours.jasset")).unwrap();
    assert_eq!(
        written,
        "; Kind: Inert\n<<<<<<< ours\n; Mass: 1.5\n=======\n; Mass: 1.7\n>>>>>>> theirs\n; Health: 2.0\n"
    );
    // A file that still holds a conflict block is bad input.
    let out = jasset(dir.path(), &args);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

/// A result that cannot be written (a folder that does not exist, a read-only OURS) is
/// no conflict (exit 1, which git takes for one) but an error naming the file (exit
/// 2), and OURS stays as it was.
/// Given the asset's path (git's `%P`), merge names it in its conflicts and in the
/// problems of a version that does not read, with the version, instead of the files it
/// was given (git's temporary copies).
#[test]
fn merge_names_the_assets_path_when_given() {
    let dir = project();
    let w = |name: &str, text: &str| fs::write(dir.path().join(name), text).unwrap();
    w(".merge_file_a", "; Kind: Inert\nMass: 1.0\n");
    w(".merge_file_b", "; Kind: Inert\nMass: 2.0\n");
    w(".merge_file_c", "; Kind: Inert\nMass: 3.0\n");
    w(".merge_file_d", "; Kind: Inert\nheavy\n");
    let asset = "Assets/Worlds/L/Entities/rock.jasset";
    let files = [".merge_file_a", ".merge_file_b", ".merge_file_c", asset];
    let out = jasset(dir.path(), &[&["merge"][..], &files].concat());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(
        stdout(&out),
        format!("{asset}:2:1: conflict: `Mass`: ours 2.0, theirs 3.0\n")
    );
    let files = [".merge_file_a", ".merge_file_c", ".merge_file_d", asset];
    let out = jasset(dir.path(), &[&["merge"][..], &files].concat());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains(&format!("{asset}:2:1: error:"))
            && text(&out).contains("(in their version, THEIRS)")
            && !text(&out).contains(".merge_file"),
        "{}",
        text(&out)
    );
}

#[test]
fn a_result_that_cannot_be_written_exits_2_and_ours_stays() {
    let dir = project();
    let w = |name: &str, text: &str| fs::write(dir.path().join(name), text).unwrap();
    w("base.jasset", "; Kind: Inert\n; Mass: 1.0\n");
    w("ours.jasset", "; Kind: Inert\n; Mass: 1.0\n");
    w("theirs.jasset", "; Kind: Inert\n; Mass: 2.0\n");
    let out = jasset(
        dir.path(),
        &[
            "merge",
            "base.jasset",
            "ours.jasset",
            "theirs.jasset",
            "-o",
            "nodir/out.jasset",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("nodir/out.jasset"), "{}", text(&out));
    let ours = fs::read_to_string(dir.path().join("ours.jasset")).unwrap();
    assert_eq!(ours, "; Kind: Inert\n; Mass: 1.0\n");
    // A read-only OURS is not replaced either.
    let ours = dir.path().join("ours.jasset");
    let mut perms = fs::metadata(&ours).unwrap().permissions();
    perms.set_readonly(true);
    fs::set_permissions(&ours, perms).unwrap();
    let out = jasset(
        dir.path(),
        &["merge", "base.jasset", "ours.jasset", "theirs.jasset"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("ours.jasset: read-only: not written"),
        "{}",
        text(&out)
    );
    assert_eq!(
        fs::read_to_string(&ours).unwrap(),
        "; Kind: Inert\n; Mass: 1.0\n"
    );
}

/// `-o` to a device is written to, not replaced by a regular file.
#[cfg(unix)]
#[test]
fn merge_into_a_device_writes_to_it() {
    use std::os::unix::fs::FileTypeExt;
    let dir = project();
    for name in ["base.jasset", "ours.jasset", "theirs.jasset"] {
        fs::write(dir.path().join(name), "; Kind: Inert\n; Mass: 1.0\n").unwrap();
    }
    let args = [
        "merge",
        "base.jasset",
        "ours.jasset",
        "theirs.jasset",
        "-o",
        "/dev/null",
    ];
    let out = jasset(dir.path(), &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let null = fs::symlink_metadata("/dev/null").unwrap();
    assert!(null.file_type().is_char_device());
}

#[test]
fn renumber_changes_the_id_line_only_and_renames_id_named_files() {
    let dir = project();
    let e = dir.path().join("Assets/Worlds/L/Entities");
    let named = "# mine\r\nid: 66\r\nKind: Inert\r\n";
    let plain = "; EntityID\n0x0000000000000042\n; Kind\nInert\n";
    fs::write(e.join("Rock.jasset"), named).unwrap();
    fs::write(e.join("0000000000000042.jasset"), plain).unwrap();
    let out = jasset(
        dir.path(),
        &[
            "renumber",
            "Assets/Worlds/L/Entities/Rock.jasset",
            "Assets/Worlds/L/Entities/0000000000000042.jasset",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let rock = fs::read_to_string(e.join("Rock.jasset")).unwrap();
    let id = rock
        .lines()
        .nth(1)
        .unwrap()
        .trim_end()
        .strip_prefix("id: 0x")
        .unwrap()
        .to_owned();
    assert_eq!(rock, format!("# mine\r\nid: 0x{id}\r\nKind: Inert\r\n"));
    let (high, low) = id.split_at(8);
    assert_ne!(high, "00000000", "a drawn prefix");
    assert_eq!(low, "00000001");
    assert!(!e.join("0000000000000042.jasset").exists());
    let next = format!("{high}00000002");
    let moved = fs::read_to_string(e.join(format!("{next}.jasset"))).unwrap();
    assert_eq!(moved, plain.replace("0000000000000042", &next));
    let out = jasset(dir.path(), &["check", "Assets"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

#[test]
fn renumber_mends_a_duplicate_id_that_check_reports() {
    let dir = project();
    let e = dir.path().join("Assets/Worlds/L/Entities");
    let file =
        |mass: &str| format!("; EntityID\n0x0000000000000042\n; Kind\nInert\n; Mass\n{mass}\n");
    fs::write(e.join("a.jasset"), file("1.0")).unwrap();
    fs::write(e.join("b.jasset"), file("2.0")).unwrap();
    let out = jasset(dir.path(), &["check", "Assets"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out)
            .contains("b.jasset:1:3: error: `EntityID`: EntityID 0x0000000000000042 is also used"),
        "{}",
        text(&out)
    );
    let out = jasset(
        dir.path(),
        &["renumber", "Assets/Worlds/L/Entities/b.jasset"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let out = jasset(dir.path(), &["check", "Assets"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(fs::read_to_string(e.join("a.jasset")).unwrap(), file("1.0"));
}
