//! Terminal output shared by the subcommands: colours (only on a terminal, never with
//! `NO_COLOR`), the progress bar of large trees, and the problem lines.

use std::io::{self, IsTerminal};
use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use juliet_core::{Error, ErrorKind};

use super::project::Progress;

/// Trees with at least this many files get a progress bar (when stderr is a terminal).
pub(crate) const PROGRESS_THRESHOLD: usize = 500;

/// ANSI styles, or nothing when colour is off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Style {
    on: bool,
}

impl Style {
    /// Colours when stdout is a terminal and `NO_COLOR` is unset or empty.
    pub(crate) fn for_stdout() -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Style {
            on: io::stdout().is_terminal() && !no_color,
        }
    }

    /// Colours when stderr is a terminal and `NO_COLOR` is unset or empty (for what is
    /// printed there: `check`'s summary).
    pub(crate) fn for_stderr() -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Style {
            on: io::stderr().is_terminal() && !no_color,
        }
    }

    /// No colours.
    #[cfg(test)]
    pub(crate) fn plain() -> Style {
        Style { on: false }
    }

    /// `text` in `paint` when colours are on, else `text` unchanged.
    pub(crate) fn paint(self, paint: Paint, text: &str) -> String {
        if self.on {
            format!("\x1b[{}m{text}\x1b[0m", paint.sgr())
        } else {
            text.to_owned()
        }
    }
}

/// What [`Style::paint`] gives a text.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Paint {
    /// Bold (locations).
    Bold,
    /// Dimmed (inherited values).
    Dim,
    /// Yellow (overrides, warnings).
    Yellow,
    /// Red (errors, removed lines).
    Red,
    /// Green (added lines, success).
    Green,
    /// Cyan (headings).
    Cyan,
    /// Bold red (the word `error`).
    BoldRed,
    /// Bold yellow (the word `warning`).
    BoldYellow,
}

impl Paint {
    /// The ANSI select-graphic-rendition parameters.
    fn sgr(self) -> &'static str {
        match self {
            Paint::Bold => "1",
            Paint::Dim => "2",
            Paint::Yellow => "33",
            Paint::Red => "31",
            Paint::Green => "32",
            Paint::Cyan => "36",
            Paint::BoldRed => "1;31",
            Paint::BoldYellow => "1;33",
        }
    }
}

/// A problem line, `path:line:col: error|warning: message` (the `Display` of a
/// [`juliet_core::Error`] or [`juliet_core::Warning`]), coloured as compilers colour
/// theirs: the location bold, `error` red and `warning` yellow, both bold. The text is
/// unchanged when `style` is off.
pub(crate) fn problem_line(style: Style, line: &str) -> String {
    if !style.on {
        return line.to_owned();
    }
    let found = [("error", Paint::BoldRed), ("warning", Paint::BoldYellow)]
        .into_iter()
        .filter_map(|(word, code)| {
            let at = line
                .find(&format!(": {word}: "))
                .map(|i| (i, i + 2))
                .or_else(|| line.starts_with(&format!("{word}: ")).then_some((0, 0)))?;
            Some((at, word, code))
        })
        .min_by_key(|((i, _), ..)| *i);
    let Some(((location_end, word_start), word, code)) = found else {
        return line.to_owned();
    };
    let rest = &line[word_start + word.len()..];
    let location = &line[..location_end];
    let location = if location.is_empty() {
        String::new()
    } else {
        style.paint(Paint::Bold, location)
    };
    format!(
        "{location}{}{}{rest}",
        &line[location_end..word_start],
        style.paint(code, word)
    )
}

/// A progress bar on stderr for `total` files when that is at least
/// [`PROGRESS_THRESHOLD`] and stderr is a terminal; a hidden one otherwise.
pub(crate) fn progress_bar(total: usize) -> ProgressBar {
    if total < PROGRESS_THRESHOLD || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{spinner} [{bar:40}] {pos}/{len} files {wide_msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

/// A progress bar on stderr over `total` steps of a long command (`gen`'s files,
/// `bench`'s runs), its message naming the step, when `show` and stderr is a terminal;
/// a hidden one otherwise. Its spinner keeps turning during a long step, so a run of
/// tens of seconds is never silent.
pub(crate) fn steps_bar(total: u64, unit: &str, show: bool) -> ProgressBar {
    if !show || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let template = format!("{{spinner}} [{{bar:40}}] {{pos}}/{{len}} {unit} {{wide_msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

/// A callback for [`super::project::Session::load`] that moves `bar`.
pub(crate) fn tick(bar: &ProgressBar) -> impl FnMut(Progress<'_>) + '_ {
    move |p: Progress<'_>| {
        bar.set_position(p.done as u64);
        bar.set_message(p.current.display().to_string());
    }
}

/// `path` as printed in messages: its control characters escaped (`\n`, `\u{1b}`), so
/// that a file name cannot start a line that looks like another message, nor colour
/// the terminal.
pub(crate) fn escape_path(path: &std::path::Path) -> String {
    juliet_core::escape_controls(&path.display().to_string()).into_owned()
}

pub(crate) use juliet_core::quantity as count;

/// Where a game's kinds come from, said once on stderr when `errors` hold an unknown
/// kind: the game's own `jasset`, or `jasset.schema` (which that tool exports) in the
/// project at `root`, which the stock tool reads.
pub(crate) fn note_unknown_kind<'e>(
    errors: impl IntoIterator<Item = &'e Error>,
    root: Option<&Path>,
) {
    if let Some(note) = unknown_kind_note(errors, root) {
        eprintln!("{note}");
    }
}

/// The note of [`note_unknown_kind`], if any.
fn unknown_kind_note<'e>(
    errors: impl IntoIterator<Item = &'e Error>,
    root: Option<&Path>,
) -> Option<String> {
    let kind = errors.into_iter().find_map(|e| match &e.kind {
        ErrorKind::UnknownKind(kind) => Some(kind),
        _ => None,
    })?;
    let kind = juliet_core::escape_controls(kind);
    let schema = super::schema::SCHEMA_FILE;
    Some(match root.map(|r| r.join(schema)).filter(|s| s.is_file()) {
        Some(_) => format!(
            "note: `{kind}` is neither a kind of this jasset nor of {schema}: if the game \
             added it, export the schema again with the game's own jasset (`jasset schema \
             export`)"
        ),
        None => format!(
            "note: `{kind}` is no kind of this jasset. A game's kinds are known to its own \
             jasset (a three-line binary of the game: see the guide, \"Your game's own \
             `jasset`\"), which writes them to {schema} at the project root with `jasset \
             schema export`; this jasset then reads them from there"
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_kind_gets_a_note_on_where_kinds_come_from() {
        let unknown = Error::file("a.jasset", ErrorKind::UnknownKind("Torch".into()));
        let other = Error::file("b.jasset", ErrorKind::MissingKey("Kind"));
        assert_eq!(unknown_kind_note([&other], None), None);
        let note = unknown_kind_note([&other, &unknown], None).unwrap();
        assert!(
            note.starts_with("note: `Torch` is no kind of this jasset.")
                && note.contains("`jasset schema export`"),
            "{note}"
        );
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("jasset.schema"), "; AssetType\nSchema\n").unwrap();
        let note = unknown_kind_note([&unknown], Some(dir.path())).unwrap();
        assert!(note.contains("nor of jasset.schema"), "{note}");
    }

    #[test]
    fn plain_style_adds_nothing() {
        let s = Style::plain();
        assert_eq!(s.paint(Paint::Red, "x"), "x");
        assert_eq!(
            Style { on: true }.paint(Paint::Red, "x"),
            "\x1b[31mx\x1b[0m"
        );
    }

    #[test]
    fn problem_lines_are_coloured_only_when_colour_is_on() {
        let error = "a.jasset:3:7: error: `Mass`: expected f32";
        assert_eq!(problem_line(Style::plain(), error), error);
        assert_eq!(
            problem_line(Style { on: true }, error),
            "\x1b[1ma.jasset:3:7\x1b[0m: \x1b[1;31merror\x1b[0m: `Mass`: expected f32"
        );
        let warning = "b.jasset:1:1: warning: unknown key `error`: x";
        assert_eq!(
            problem_line(Style { on: true }, warning),
            "\x1b[1mb.jasset:1:1\x1b[0m: \x1b[1;33mwarning\x1b[0m: unknown key `error`: x"
        );
        assert_eq!(
            problem_line(Style { on: true }, "error: no file"),
            "\x1b[1;31merror\x1b[0m: no file"
        );
    }
}
