//! Terminal output shared by the subcommands: colours (only on a terminal, never with
//! `NO_COLOR`), the progress bar of large trees, and the problem lines.

use std::io::{self, IsTerminal};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::project::Progress;

/// Trees with at least this many files get a progress bar (when stderr is a terminal).
pub const PROGRESS_THRESHOLD: usize = 500;

/// ANSI styles, or nothing when colour is off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    on: bool,
}

impl Style {
    /// Colours when stdout is a terminal and `NO_COLOR` is unset or empty.
    pub fn for_stdout() -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Style {
            on: io::stdout().is_terminal() && !no_color,
        }
    }

    /// No colours.
    #[cfg(test)]
    pub fn plain() -> Style {
        Style { on: false }
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    /// Bold.
    pub fn bold(self, text: &str) -> String {
        self.paint("1", text)
    }

    /// Dimmed (inherited values).
    pub fn dim(self, text: &str) -> String {
        self.paint("2", text)
    }

    /// Yellow (overrides, warnings).
    pub fn yellow(self, text: &str) -> String {
        self.paint("33", text)
    }

    /// Red (errors, removed lines).
    pub fn red(self, text: &str) -> String {
        self.paint("31", text)
    }

    /// Green (added lines, success).
    pub fn green(self, text: &str) -> String {
        self.paint("32", text)
    }

    /// Cyan (headings).
    pub fn cyan(self, text: &str) -> String {
        self.paint("36", text)
    }
}

/// A progress bar on stderr for `total` files when that is at least
/// [`PROGRESS_THRESHOLD`] and stderr is a terminal; a hidden one otherwise.
pub fn progress_bar(total: usize) -> ProgressBar {
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

/// A callback for [`super::project::Session::load`] that moves `bar`.
pub fn tick(bar: &ProgressBar) -> impl FnMut(Progress<'_>) + '_ {
    move |p: Progress<'_>| {
        bar.set_position(p.done as u64);
        bar.set_message(p.current.display().to_string());
    }
}

/// `path` as printed in messages: its control characters escaped (`\n`, `\u{1b}`), so
/// that a file name cannot start a line that looks like another message, nor colour
/// the terminal.
pub fn escape_path(path: &std::path::Path) -> String {
    juliet_core::escape_controls(&path.display().to_string()).into_owned()
}

/// `n` and the noun, plural when `n != 1` (`1 file`, `2 files`).
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_style_adds_nothing() {
        let s = Style::plain();
        assert_eq!(s.red("x"), "x");
        assert_eq!(Style { on: true }.red("x"), "\x1b[31mx\x1b[0m");
    }

    #[test]
    fn counts_are_pluralized() {
        assert_eq!(count(1, "file"), "1 file");
        assert_eq!(count(0, "error"), "0 errors");
    }
}
