//! `gen` and `bench` draw progress on stderr only when it is a terminal: captured, as
//! here (a CI log, a pipe), stderr stays empty and stdout holds only the report.

use std::process::Command;

#[test]
fn gen_and_bench_of_a_large_tree_draw_no_progress_when_not_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big");
    let o = Command::new(env!("CARGO_BIN_EXE_jasset"))
        .args(["gen", "--entities", "700", "--templates", "5"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert!(
        stdout.starts_with("generated 5 templates and 700 entities"),
        "{stdout}"
    );

    let o = Command::new(env!("CARGO_BIN_EXE_jasset"))
        .args(["bench", "--iterations", "1"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert!(
        stdout.contains("700 files") && stdout.contains("  load "),
        "{stdout}"
    );
    assert!(!stdout.contains('\x1b'), "{stdout:?}");
}
