//! `jasset check`'s report: every problem of a file (three bad values on three lines
//! give three lines), and no colour codes when the output is not a terminal.

use std::fs;
use std::process::{Command, Output};

fn check(dir: &std::path::Path, no_color: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_jasset"));
    cmd.args(["check", "Assets"]).current_dir(dir);
    match no_color {
        Some(v) => cmd.env("NO_COLOR", v),
        None => cmd.env_remove("NO_COLOR"),
    };
    cmd.output().unwrap()
}

/// A world with one file of three bad values (lines 6, 8, 12) and an unknown key.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    fs::create_dir_all(&entities).unwrap();
    fs::write(
        entities.join("rock.jasset"),
        "; EntityID\n1\n; Kind\nInert\n; Mass\nheavy\n; Scale\n1 2\n; Helth\n50.0\n\
         ; IsVisible\nmaybe\n",
    )
    .unwrap();
    fs::write(
        entities.join("ok.jasset"),
        "; EntityID\n2\n; Kind\nInert\n; Colour\nred\n",
    )
    .unwrap();
    dir
}

#[test]
fn check_reports_every_bad_value_of_a_file() {
    let dir = project();
    let o = check(dir.path(), Some("1"));
    assert_eq!(o.status.code(), Some(1));
    let stdout = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    let file = "Assets/Worlds/L/Entities/rock.jasset";
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(
        lines[0].starts_with("Assets/Worlds/L/Entities/ok.jasset:5:3: warning: `Colour`"),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with(&format!("{file}:6:1: error: `Mass`: expected f32")),
        "{stdout}"
    );
    assert!(
        lines[2].starts_with(&format!("{file}:8:1: error: `Scale`: expected 3 floats")),
        "{stdout}"
    );
    assert!(
        lines[3].starts_with(&format!("{file}:12:1: error: `IsVisible`: expected bool")),
        "{stdout}"
    );
    let stderr = String::from_utf8(o.stderr).unwrap();
    assert!(
        stderr.contains("checked 2 files: 3 errors, 1 warning"),
        "{stderr}"
    );
}

#[test]
fn check_writes_no_colour_codes_when_not_on_a_terminal() {
    let dir = project();
    // Not a terminal (captured) and NO_COLOR unset: plain text all the same.
    for no_color in [None, Some("1")] {
        let o = check(dir.path(), no_color);
        assert_eq!(o.status.code(), Some(1));
        for stream in [&o.stdout, &o.stderr] {
            let text = String::from_utf8_lossy(stream);
            assert!(text.contains("error"), "{text}");
            assert!(!text.contains('\x1b'), "{text:?}");
        }
    }
}

#[test]
fn a_reader_that_goes_away_is_not_an_error() {
    // `jasset check ... | head -1`: the report is longer than the pipe holds, and its
    // reader stops after one line.
    let dir = tempfile::tempdir().unwrap();
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    fs::create_dir_all(&entities).unwrap();
    for i in 0..3000 {
        let text = format!("; EntityID\n{}\n; Kind\nInert\n; Colour{i}\nred\n", i + 1);
        fs::write(entities.join(format!("e{i}.jasset")), text).unwrap();
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_jasset"))
        .args(["check", "Assets"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    use std::io::Read;
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The pipe is closed here: the rest of the report has nowhere to go.
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("error"), "{err}");
    assert_ne!(out.status.code(), Some(1), "{err}");
}
