//! `jasset check PATH... [--root DIR] [--strict]`: validates files and trees.
//!
//! One line per problem on stdout, in path order, `path:line:col: error|warning:
//! message` (the `Display` of [`juliet_core::Error`] and [`juliet_core::Warning`], which
//! editors and CI annotators parse; coloured on a terminal unless `NO_COLOR` is set),
//! then a one-line summary on stderr. Exit 0 when no
//! file has an error (warnings too with `--strict`), 1 otherwise.

use std::io::Write;

use clap::Args;

use super::output::{count, note_unknown_kind, problem_line, Paint, Style};
use super::project::sort_problems;
use super::tree::TreeArgs;
use super::{CliResult, Status};

/// Arguments of `jasset check`.
#[derive(Debug, Clone, Args)]
pub(crate) struct CheckArgs {
    /// The files and folders to check, and the project root.
    #[command(flatten)]
    pub tree: TreeArgs,
    /// Treat warnings (unknown keys, newer versions) as errors.
    #[arg(long)]
    pub strict: bool,
}

/// Runs `jasset check`.
///
/// # Errors
/// A usage error when a PATH does not exist or `--root` is not a folder; write errors.
pub(crate) fn run(args: &CheckArgs, out: &mut dyn Write) -> CliResult {
    let (collected, mut session) = args.tree.load(false)?;
    let mut errors = collected.errors;
    errors.append(&mut session.errors);
    let mut warnings = collected.warnings;
    warnings.append(&mut session.warnings);

    // Printed in path, line, column order, merging the two sorted lists as they are
    // printed: a file of a million unknown keys makes a million warnings, and a
    // formatted copy of each would double what `check` holds.
    sort_problems(&mut errors, &mut warnings);
    let style = Style::for_stdout();
    let mut errors_left = errors.iter().peekable();
    let mut warnings_left = warnings.iter().peekable();
    loop {
        let error_first = match (errors_left.peek(), warnings_left.peek()) {
            (Some(e), Some(w)) => e.location <= w.location,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        if error_first {
            let e = errors_left.next().expect("peeked");
            writeln!(out, "{}", problem_line(style, &e.to_string()))?;
        } else {
            let w = warnings_left.next().expect("peeked");
            writeln!(out, "{}", problem_line(style, &w.to_string()))?;
        }
    }

    note_unknown_kind(&errors, session.root.as_deref());
    let failed = !errors.is_empty() || (args.strict && !warnings.is_empty());
    let summary = Style::for_stderr();
    let paint = |n: usize, noun: &str, colour: Paint| {
        let text = count(n, noun);
        if n == 0 {
            text
        } else {
            summary.paint(colour, &text)
        }
    };
    eprintln!(
        "checked {}: {}, {}{}",
        count(collected.files.len(), "file"),
        paint(errors.len(), "error", Paint::Red),
        paint(warnings.len(), "warning", Paint::Yellow),
        if args.strict && !warnings.is_empty() {
            " (--strict: warnings fail)"
        } else {
            ""
        }
    );
    Ok(Status::from_problems(failed))
}
