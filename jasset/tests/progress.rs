//! `gen` and `bench` draw progress on stderr only when it is a terminal: captured, as
//! here (a CI log, a pipe), stderr holds no progress (a debug build's `bench` warns
//! there that it is one) and stdout holds only the report.

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
    // Nothing but the warning a debug build gives.
    let stderr = String::from_utf8_lossy(&o.stderr);
    let warning = "jasset: warning: this jasset is a debug build";
    assert!(
        stderr.is_empty()
            || cfg!(debug_assertions) && stderr.lines().all(|l| l.starts_with(warning)),
        "{stderr}"
    );
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert!(
        stdout.contains("700 files") && stdout.contains("  load "),
        "{stdout}"
    );
    assert!(!stdout.contains('\x1b'), "{stdout:?}");
}
