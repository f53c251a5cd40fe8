//! `jasset renumber` end to end: it writes through the write path of every writer (a
//! read-only file, a symbolic link refused like everywhere else, by every writer
//! alike), and a renumber killed half way leaves a state `check` reports and a second
//! run completes.

mod common;
use common::text;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const ENTITIES: &str = "Assets/Worlds/L/Entities";
const OLD: &str = "Assets/Worlds/L/Entities/0000000000000042.jasset";
const TEXT: &str = "# placed by hand\n; EntityID: 0x0000000000000042\n; Kind: Inert\nMass: 3.0\n";

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join(ENTITIES)).unwrap();
    fs::write(dir.path().join(OLD), TEXT).unwrap();
    dir
}

fn command(cwd: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_jasset"));
    c.args(args).current_dir(cwd).env("NO_COLOR", "1");
    c
}

fn jasset(cwd: &Path, args: &[&str]) -> Output {
    command(cwd, args).output().unwrap()
}

/// The names in the entities folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir.join(ENTITIES))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A read-only file named after its id was rewritten as a writable copy under a new
/// id and the original deleted: it is refused like every writer refuses it, and left.
#[cfg(unix)]
#[test]
fn renumber_refuses_a_read_only_file() {
    use std::os::unix::fs::PermissionsExt;
    let p = project();
    let old = p.path().join(OLD);
    fs::set_permissions(&old, fs::Permissions::from_mode(0o444)).unwrap();
    let o = jasset(p.path(), &["renumber", OLD]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("0000000000000042.jasset: read-only: not rewritten"),
        "{}",
        text(&o)
    );
    assert_eq!(names(p.path()), ["0000000000000042.jasset"]);
    assert_eq!(fs::read_to_string(&old).unwrap(), TEXT);
    let mode = fs::metadata(&old).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o444);
}

/// A symbolic link in `Entities` was written as a regular copy under a new id and the
/// link deleted, so the entity existed twice: it is refused, the link and its target
/// left as they are.
#[cfg(unix)]
#[test]
fn renumber_refuses_a_symbolic_link() {
    let p = project();
    let real = p.path().join(ENTITIES).join("real.jasset");
    fs::rename(p.path().join(OLD), &real).unwrap();
    std::os::unix::fs::symlink("real.jasset", p.path().join(OLD)).unwrap();
    let o = jasset(p.path(), &["renumber", OLD]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("0000000000000042.jasset: a symbolic link: not replaced"),
        "{}",
        text(&o)
    );
    assert_eq!(names(p.path()), ["0000000000000042.jasset", "real.jasset"]);
    assert!(fs::symlink_metadata(p.path().join(OLD))
        .unwrap()
        .is_symlink());
    assert_eq!(fs::read_to_string(&real).unwrap(), TEXT);
}

/// Killed between linking the new name and removing the old one: one id in two files,
/// which `check` reports; a second run on the old name completes the move.
#[cfg(unix)]
#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the pause hook is compiled into debug builds only"
)]
fn a_renumber_killed_half_way_is_reported_by_check_and_completed_by_a_second_run() {
    let p = project();
    let hook = tempfile::tempdir().unwrap();
    let mut child = command(p.path(), &["renumber", OLD])
        .env("JASSET_TEST_PAUSE_AFTER_LINK", hook.path())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !hook.path().join("linked").exists() {
        assert!(start.elapsed() < Duration::from_secs(60), "never linked");
        if let Some(status) = child.try_wait().unwrap() {
            panic!("renumber finished ({status}) without pausing after the link");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();

    let left = names(p.path());
    assert_eq!(left.len(), 2, "{left:?}");
    let new = left
        .iter()
        .find(|n| *n != "0000000000000042.jasset")
        .unwrap();
    let new_text = fs::read_to_string(p.path().join(ENTITIES).join(new)).unwrap();
    assert_eq!(fs::read_to_string(p.path().join(OLD)).unwrap(), new_text);
    let id = &new[..16];
    assert_eq!(new_text, TEXT.replace("0000000000000042", id));
    let o = jasset(p.path(), &["check", "Assets"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains(&format!("EntityID 0x{id} is also used by")),
        "{}",
        text(&o)
    );

    let o = jasset(p.path(), &["renumber", OLD]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("completed"), "{}", text(&o));
    assert_eq!(names(p.path()), std::slice::from_ref(new));
    assert_eq!(
        fs::read_to_string(p.path().join(ENTITIES).join(new)).unwrap(),
        new_text
    );
    let o = jasset(p.path(), &["check", "Assets"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// Every writer refuses a read-only file the same way: `FILE: read-only: not
/// rewritten`, exit 1, the file left as it is.
#[cfg(unix)]
#[test]
fn every_writer_refuses_a_read_only_file_alike() {
    use std::os::unix::fs::PermissionsExt;
    let p = project();
    // Outdated (`migrate` has a migration to write) and not canonical (`fmt` has a
    // text to write).
    let held = "EntityID: 0x42\nKind: Projectile\nClassVersion: 1\nSpeed: 75.5\n";
    let old = p.path().join(OLD);
    fs::write(&old, held).unwrap();
    fs::set_permissions(&old, fs::Permissions::from_mode(0o444)).unwrap();
    for args in [
        &["set", OLD, "Position=1,2,3"][..],
        &["fmt", OLD][..],
        &["migrate", OLD][..],
        &["renumber", OLD][..],
    ] {
        let o = jasset(p.path(), args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", text(&o));
        assert!(
            text(&o).contains("0000000000000042.jasset: read-only: not rewritten"),
            "{args:?}: {}",
            text(&o)
        );
        assert_eq!(fs::read_to_string(&old).unwrap(), held, "{args:?}");
        assert_eq!(names(p.path()), ["0000000000000042.jasset"], "{args:?}");
    }
}
