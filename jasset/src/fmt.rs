//! `jasset fmt PATH... [--check]`: rewrites files to canonical form (load, then the
//! canonical writer of docs/design.md, section 2.6: keys in canonical order and spelling, values
//! in canonical form, comments dropped, unknown keys kept at the end).
//!
//! Idempotent: the canonical text of a canonical file is the file itself, so a second
//! run changes nothing. A file that does not load (a bad value, an unknown kind, a
//! duplicate id) is reported and never rewritten.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::output::{count, escape_path, note_unknown_kind};
use super::project::{pause_after_load, read, Session};
use super::tree::TreeArgs;
use super::{CliResult, Status};
use juliet_entities::fsio::{ReplaceOutcome, SkipReason, Skipped};

/// Arguments of `jasset fmt`.
#[derive(Debug, Clone, Args)]
pub(crate) struct FmtArgs {
    /// The files and folders to format, and the project root.
    #[command(flatten)]
    pub tree: TreeArgs,
    /// Write nothing: list the files that would change, and exit with 1 if any would.
    #[arg(long)]
    pub check: bool,
}

/// What formatting did to a set of files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct FmtReport {
    /// Files whose text changed (or would change, with `--check`).
    pub changed: Vec<PathBuf>,
    /// Files already canonical.
    pub unchanged: usize,
    /// Files not formatted, with the reason (one line each).
    pub failed: Vec<String>,
    /// Files left as they are: written by a newer build, changed on disk since they
    /// were loaded, or read-only.
    pub skipped: Vec<Skipped>,
}

/// Runs `jasset fmt`.
///
/// # Errors
/// A usage error when a PATH does not exist or `--root` is not a folder; write errors.
pub(crate) fn run(args: &FmtArgs, out: &mut dyn Write) -> CliResult {
    let (collected, mut session) = args.tree.load(!args.check)?;
    let mut report = format_session(&mut session, !args.check);
    report
        .failed
        .splice(0..0, collected.errors.iter().map(|e| e.to_string()));
    for w in &collected.warnings {
        writeln!(out, "{w}")?;
    }

    for line in &report.failed {
        writeln!(out, "{line}")?;
    }
    note_unknown_kind(&session.errors, session.root.as_deref());
    for skipped in &report.skipped {
        writeln!(out, "{skipped}")?;
    }
    for path in &report.changed {
        if args.check {
            writeln!(out, "{}", escape_path(path))?;
        } else {
            writeln!(out, "formatted {}", escape_path(path))?;
        }
    }
    // A file of a newer build is left alone by design; the others are failures.
    let refused = report
        .skipped
        .iter()
        .filter(|s| s.reason != SkipReason::NewerVersion)
        .count();
    eprintln!(
        "{} {}, {} already canonical, {} not formatted",
        count(report.changed.len(), "file"),
        if args.check {
            "would change"
        } else {
            "formatted"
        },
        report.unchanged,
        report.failed.len() + report.skipped.len()
    );
    let problems =
        !report.failed.is_empty() || refused > 0 || (args.check && !report.changed.is_empty());
    Ok(Status::from_problems(problems))
}

/// Formats the loaded files of `session` (writing them when `write`): the canonical text
/// of each file that loaded, compared with its bytes on disk. A file written by a newer
/// build, changed on disk since it was loaded, or read-only is left as it is and
/// reported (see [`Session::replace_file`]).
pub(crate) fn format_session(session: &mut Session, write: bool) -> FmtReport {
    let mut report = FmtReport::default();
    for e in &session.errors {
        report.failed.push(format!("{e} (not formatted)"));
    }
    if write {
        pause_after_load();
    }
    for i in 0..session.files.len() {
        let Some(text) = session.canonical_text(i) else {
            continue;
        };
        let path = session.files[i].path.clone();
        let result = text.and_then(|text| {
            if write {
                return session.replace_file(i, text.as_bytes());
            }
            if session.is_newer(i) {
                return Ok(ReplaceOutcome::Skipped(SkipReason::NewerVersion));
            }
            let old = read(&path, session.root.as_deref())?;
            Ok(if old == text.as_bytes() {
                ReplaceOutcome::Same
            } else {
                ReplaceOutcome::Written
            })
        });
        match result {
            Ok(ReplaceOutcome::Written) => report.changed.push(path),
            Ok(ReplaceOutcome::Same) => report.unchanged += 1,
            Ok(ReplaceOutcome::Skipped(reason)) => report.skipped.push(Skipped { path, reason }),
            Err(e) => report.failed.push(format!("{e} (not formatted)")),
        }
    }
    report
}
