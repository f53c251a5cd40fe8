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

#[test]
fn renumber_points_every_reference_at_the_new_ids_one_line_each() {
    let dir = project("EntityID: 3\nKind: Door\nOpensWith: 1\n");
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    // Ten doors in several hand-written forms, each pointing at the switch (id 1) and
    // some at the rock's id 2 too (an `Alarm` of any kind).
    let mut doors = Vec::new();
    for i in 0..10u64 {
        let alarm = match i % 3 {
            0 => "; Alarm\r\n0x0000000000000002\r\n".to_owned(),
            1 => "Alarm: ~\r\n".to_owned(),
            _ => "# no alarm\r\n".to_owned(),
        };
        let opens = if i % 2 == 0 {
            "; OpensWith: 0x0000000000000001"
        } else {
            "OpensWith: 1"
        };
        let text = format!("EntityID: {}\r\nKind: Door\r\n{opens}\r\n{alarm}", 100 + i);
        let name = format!("door{i}.jasset");
        fs::write(entities.join(&name), &text).unwrap();
        doors.push((name, text));
    }
    let o = Command::new(env!("CARGO_BIN_EXE_jasset"))
        .args(["renumber", "Assets/Worlds/L/Entities/switch.jasset"])
        .args(["Assets/Worlds/L/Entities/rock.jasset"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let new_id = |name: &str| {
        let line = out.lines().find(|l| l.contains(name)).unwrap();
        line.split(" -> ")
            .nth(1)
            .unwrap()
            .split(',')
            .next()
            .unwrap()
            .to_owned()
    };
    let (switch, rock) = (new_id("switch.jasset"), new_id("rock.jasset"));
    assert!(switch.starts_with("0x") && rock.starts_with("0x"), "{out}");
    for (name, before) in &doors {
        let after = fs::read_to_string(entities.join(name)).unwrap();
        let changed: Vec<(&str, &str)> = (before.split("\r\n").zip(after.split("\r\n")))
            .filter(|(a, b)| a != b)
            .collect();
        let mut expected = vec![if before.contains("; OpensWith:") {
            (
                "; OpensWith: 0x0000000000000001".to_owned(),
                format!("; OpensWith: {switch}"),
            )
        } else {
            ("OpensWith: 1".to_owned(), format!("OpensWith: {switch}"))
        }];
        if before.contains("; Alarm\r\n") {
            expected.push(("0x0000000000000002".to_owned(), rock.clone()));
        }
        let expected: Vec<(&str, &str)> = expected
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        assert_eq!(changed, expected, "{name}:\n{after}");
        assert_eq!(before.split("\r\n").count(), after.split("\r\n").count());
    }
    let o = check(dir.path(), &["--strict"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn a_generated_world_with_references_checks_clean_until_a_target_goes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p");
    let o = Command::new(env!("CARGO_BIN_EXE_jasset"))
        .args([
            "gen",
            "--entities",
            "300",
            "--templates",
            "5",
            "--references",
            "60",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let entities = out.join("Assets/Worlds/Gen/Entities");
    let beacons: Vec<String> = (fs::read_dir(&entities).unwrap())
        .map(|e| fs::read_to_string(e.unwrap().path()).unwrap())
        .filter(|t| t.contains("Beacon"))
        .collect();
    assert_eq!(beacons.len(), 60);
    let o = check(&out, &["--strict"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // The beacon the first one's `Next` names goes: each reference to it is reported.
    let next = beacons[0]
        .lines()
        .skip_while(|l| *l != "; Next")
        .nth(1)
        .unwrap()
        .to_owned();
    let hex = next.trim_start_matches("0x");
    fs::remove_file(entities.join(format!("{hex}.jasset"))).unwrap();
    let o = check(&out, &[]);
    let out_text = String::from_utf8_lossy(&o.stdout);
    let dangling = format!("refers to entity {next}, which the world does not have");
    assert!(out_text.lines().count() >= 1, "{out_text}");
    assert!(
        out_text.lines().all(|l| l.contains(&dangling)),
        "{out_text}"
    );
}

#[test]
fn renumbering_one_of_two_files_of_one_id_leaves_the_references_to_the_other() {
    let door = "EntityID: 3\nKind: Door\nOpensWith: 1\n";
    let dir = project(door);
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    // A merge brought a second file with the switch's id.
    fs::write(
        entities.join("switch2.jasset"),
        "EntityID: 1\nKind: Switch\n",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_jasset"))
        .args(["renumber", "Assets/Worlds/L/Entities/switch2.jasset"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(
        fs::read_to_string(entities.join("door.jasset")).unwrap(),
        door
    );
    let o = check(dir.path(), &["--strict"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}
