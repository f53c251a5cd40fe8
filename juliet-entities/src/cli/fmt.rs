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

use super::output::{count, progress_bar, tick};
use super::project::{collect_files, read, require_paths, resolve_root, write_atomic, Session};
use super::{CliResult, Status};

/// Arguments of `jasset fmt`.
#[derive(Debug, Clone, Args)]
pub struct FmtArgs {
    /// Files and folders to format (folders are walked for `.jasset` files).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Write nothing: list the files that would change, and exit with 1 if any would.
    #[arg(long)]
    pub check: bool,
    /// The project root. Default: the nearest ancestor of the first PATH holding an
    /// `Assets/` folder.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// What formatting did to a set of files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FmtReport {
    /// Files whose text changed (or would change, with `--check`).
    pub changed: Vec<PathBuf>,
    /// Files already canonical.
    pub unchanged: usize,
    /// Files not formatted, with the reason (one line each).
    pub failed: Vec<String>,
}

/// Runs `jasset fmt`.
///
/// # Errors
/// A usage error when a PATH does not exist or `--root` is not a folder; write errors.
pub fn run(args: &FmtArgs, out: &mut dyn Write) -> CliResult {
    require_paths(&args.paths)?;
    let root = resolve_root(args.root.as_deref(), &args.paths)?;
    let (files, path_errors) = collect_files(&args.paths);
    let bar = progress_bar(files.len());
    let mut session = Session::load(root, &files, &mut tick(&bar));
    bar.finish_and_clear();
    let mut report = format_session(&mut session, !args.check);
    report
        .failed
        .splice(0..0, path_errors.iter().map(|e| e.to_string()));

    for line in &report.failed {
        writeln!(out, "{line}")?;
    }
    for path in &report.changed {
        if args.check {
            writeln!(out, "{}", path.display())?;
        } else {
            writeln!(out, "formatted {}", path.display())?;
        }
    }
    eprintln!(
        "{} {}, {} already canonical, {} not formatted",
        count(report.changed.len(), "file"),
        if args.check {
            "would change"
        } else {
            "formatted"
        },
        report.unchanged,
        report.failed.len()
    );
    let problems = !report.failed.is_empty() || (args.check && !report.changed.is_empty());
    Ok(Status::from_problems(problems))
}

/// Formats the loaded files of `session` (writing them when `write`): the canonical text
/// of each file that loaded, compared with its bytes on disk.
pub fn format_session(session: &mut Session, write: bool) -> FmtReport {
    let mut report = FmtReport::default();
    for e in &session.errors {
        report.failed.push(format!("{e} (not formatted)"));
    }
    for i in 0..session.files.len() {
        let Some(text) = session.canonical_text(i) else {
            continue;
        };
        let path = session.files[i].path.clone();
        let result = text.and_then(|text| {
            let old = read(&path)?;
            if old == text.as_bytes() {
                return Ok(false);
            }
            if write {
                write_atomic(&path, text.as_bytes())?;
            }
            Ok(true)
        });
        match result {
            Ok(true) => report.changed.push(path),
            Ok(false) => report.unchanged += 1,
            Err(e) => report.failed.push(format!("{e} (not formatted)")),
        }
    }
    report
}
