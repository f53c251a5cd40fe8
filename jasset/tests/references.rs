//! `jasset check` on a world whose kinds refer to each other (the kinds from a
//! `jasset.schema`, as a game exports them): a reference to an id the world has no
//! entity for, and one to an entity of another kind, are warnings at their lines
//! (errors with `--strict`); a world whose references all hold is clean.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

const SCHEMA: &str = "; AssetType\nSchema\n\
    ; Switch\nversion 1\nproperty On bool false\n\
    ; Door\nversion 1\nproperty OpensWith ref(Switch) 0x0000000000000000\n\
    property Alarm option(ref(*)) ~\n";

fn check(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jasset"))
        .arg("check")
        .args(args)
        .arg("Assets")
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn project(door: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("jasset.schema"), SCHEMA).unwrap();
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    fs::create_dir_all(&entities).unwrap();
    let files = [
        ("switch.jasset", "EntityID: 1\nKind: Switch\nOn: true\n"),
        ("rock.jasset", "EntityID: 2\nKind: Inert\n"),
        ("door.jasset", door),
    ];
    for (name, text) in files {
        fs::write(entities.join(name), text).unwrap();
    }
    dir
}

#[test]
fn check_reports_references_that_do_not_hold_at_their_lines() {
    let dir = project("EntityID: 3\nKind: Door\nOpensWith: 0x0000000000000002\nAlarm: 9\n");
    let o = check(dir.path(), &[]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let door = "Assets/Worlds/L/Entities/door.jasset";
    assert!(
        out.contains(&format!(
            "{door}:3:12: warning: `OpensWith`: refers to entity 0x0000000000000002 of kind \
             `Inert`, not a `Switch`"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "{door}:4:8: warning: `Alarm`: refers to entity 0x0000000000000009, which the \
             world does not have"
        )),
        "{out}"
    );
    let summary = String::from_utf8_lossy(&o.stderr);
    assert!(summary.contains("0 errors, 2 warnings"), "{summary}");
    let o = check(dir.path(), &["--strict"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn a_world_whose_references_hold_is_clean() {
    let dir = project("EntityID: 3\nKind: Door\nOpensWith: 1\nAlarm: 2\n");
    let o = check(dir.path(), &["--strict"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.is_empty(), "{out}");
    let summary = String::from_utf8_lossy(&o.stderr);
    assert!(summary.contains("0 errors, 0 warnings"), "{summary}");
}
