//! Replays, on stable, every fuzz finding saved under `tests/fuzz-regressions/<target>/`
//! through the same checks the fuzz targets run (`fuzz/src/checks.rs`), and runs those
//! checks over every `.jasset` file of the repository (the fuzzers' seed corpus).
//!
//! Each finding also has a test of its own, next to the code it fixed, that names the
//! behaviour; `docs/reliability.md` lists them.

#[path = "../../fuzz/src/checks.rs"]
// The fuzz crate's public checks, a private module here.
#[allow(dead_code, unreachable_pub)]
mod checks;

use std::fs;
use std::path::{Path, PathBuf};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

fn files_under(dir: &Path, filter: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, filter, out);
        } else if filter(&path) {
            out.push(path);
        }
    }
}

/// Runs `check` on every file of `tests/fuzz-regressions/<target>`; returns how many.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let mut inputs = Vec::new();
    let dir = repo().join("tests/fuzz-regressions").join(target);
    files_under(&dir, &|p| !p.ends_with("README.md"), &mut inputs);
    inputs.sort();
    for input in &inputs {
        let bytes = fs::read(input).unwrap();
        let outcome = std::panic::catch_unwind(|| check(&bytes));
        assert!(outcome.is_ok(), "{target}: {} fails again", input.display());
    }
    inputs.len()
}

#[test]
fn tokenize_findings_stay_fixed() {
    assert!(replay("tokenize", checks::tokenize) >= 1);
}

#[test]
fn load_entity_findings_stay_fixed() {
    replay("load_entity", checks::load_entity);
}

#[test]
fn load_instance_findings_stay_fixed() {
    replay("load_instance", checks::load_instance);
}

/// The seed corpus: every `.jasset` file of the repository passes both checks, the
/// entity check under each `Kind` prefix.
#[test]
fn every_repository_jasset_file_passes_the_fuzz_checks() {
    let mut files = Vec::new();
    for dir in ["tests/fixtures", "demo", "tests/hostile"] {
        files_under(
            &repo().join(dir),
            &|p| p.extension().is_some_and(|x| x == "jasset"),
            &mut files,
        );
    }
    assert!(files.len() >= 60, "found only {} files", files.len());
    for file in &files {
        let bytes = fs::read(file).unwrap();
        checks::tokenize(&bytes);
        checks::load_instance(&bytes);
        for selector in 0..checks::KIND_PREFIXES.len() as u8 {
            let mut input = vec![selector];
            input.extend_from_slice(&bytes);
            checks::load_entity(&input);
        }
    }
}

/// The checks do find what they look for: a writer that loses a value would fail them.
#[test]
fn the_checks_reject_a_broken_round_trip() {
    // A file whose error location is past its end is refused by `check_error`.
    let err = juliet_core::Error::new(checks::FUZZ_PATH, 9, 1, juliet_core::ErrorKind::NulByte);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        checks::check_error(&err, b"one line")
    }));
    assert!(caught.is_err());
    // An entity file whose first byte picks `Inert`.
    assert_eq!(
        checks::entity_file(b"\x00; Mass\n1.0\n"),
        b"; Kind\nInert\n; Mass\n1.0\n"
    );
    assert_eq!(
        checks::entity_file(b"\x04; Kind\nInert\n"),
        b"; Kind\nInert\n"
    );
}
