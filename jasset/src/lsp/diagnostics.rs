//! The problems of an open buffer: the buffer's text loaded as `jasset check` loads a
//! template or a loose file ([`load_single_with`]), so each error and warning is the
//! one `check` prints for that text, with the same message at the same line and column.
//! The templates of its chain are the editor's buffers where they are open
//! ([`overlay`]).
//!
//! A world entity file is loaded alone too: what only its whole world shows (an
//! `EntityID` another file of the world holds) is `check`'s to report.

use juliet_core::{Error, Registry, Warning};
use lsp_types::{Diagnostic, DiagnosticSeverity, Position, Range};

use super::super::project::{load_single_with, role_of, Role, SingleFile};
use super::super::schema_kinds::registry_for;
use super::documents::{byte_in_line, character_of, line_at, Document, Documents};
use super::overlay;

/// One problem of a buffer.
#[derive(Debug, Clone)]
pub(super) struct Problem {
    /// What the editor shows.
    pub diagnostic: Diagnostic,
    /// The likely intended spelling of a misspelt key, kind or template path.
    pub suggestion: Option<String>,
}

/// The classes the tool knows for the buffer's project (`registry_for` its root).
///
/// # Errors
/// A `jasset.schema` that does not load, as every command reports it.
pub(super) fn registry_of(doc: &Document) -> Result<&'static Registry, String> {
    registry_for(doc.root.as_deref()).map_err(|e| e.to_string())
}

/// The buffer's text loaded as `check` loads the file (a template through its chain),
/// with the templates of its chain that are `open` read from their buffers.
///
/// # Errors
/// The file's errors (every bad value: [`Error::into_all`]).
pub(super) fn load(
    doc: &Document,
    open: &Documents,
    registry: &'static Registry,
) -> Result<SingleFile, Error> {
    let is_template = role_of(&doc.path, doc.root.as_deref()) == Role::Template;
    let templates = overlay::templates(doc, open, registry);
    load_single_with(
        templates,
        &doc.path,
        doc.text.as_bytes(),
        is_template,
        registry,
    )
}

/// The problems of `doc` (its templates that are `open` read from their buffers), in
/// line order.
pub(super) fn problems(doc: &Document, open: &Documents) -> Vec<Problem> {
    let registry = match registry_of(doc) {
        Ok(registry) => registry,
        Err(message) => return vec![whole_file(message, DiagnosticSeverity::ERROR)],
    };
    let mut out = Vec::new();
    match load(doc, open, registry) {
        Ok(loaded) => out.extend(loaded.warnings.iter().map(|w| of_warning(doc, w))),
        Err(err) => out.extend(err.into_all().iter().map(|e| of_error(doc, e))),
    }
    out.sort_by_key(|p| {
        (
            p.diagnostic.range.start.line,
            p.diagnostic.range.start.character,
        )
    });
    out
}

/// A problem about the whole file, shown on its first line.
fn whole_file(message: String, severity: DiagnosticSeverity) -> Problem {
    Problem {
        diagnostic: Diagnostic {
            range: Range::new(Position::new(0, 0), Position::new(0, 0)),
            severity: Some(severity),
            source: Some("jasset".to_owned()),
            message,
            ..Diagnostic::default()
        },
        suggestion: None,
    }
}

fn of_error(doc: &Document, e: &Error) -> Problem {
    let shown = e.to_string();
    let location = &e.location;
    let mut problem = located(doc, &shown, location, DiagnosticSeverity::ERROR);
    problem.suggestion = e.suggestion.clone();
    problem
}

fn of_warning(doc: &Document, w: &Warning) -> Problem {
    let shown = w.to_string();
    let mut problem = located(doc, &shown, &w.location, DiagnosticSeverity::WARNING);
    problem.suggestion = w.suggestion.clone();
    problem
}

/// The problem `shown` (as `check` prints it: `path:line:col: level: message`) at
/// `location`: the message after the location and the level, over the word that starts
/// at the location. A location in another file, or in none, is the whole file's, with
/// the whole line as its message.
fn located(
    doc: &Document,
    shown: &str,
    location: &juliet_core::Location,
    severity: DiagnosticSeverity,
) -> Problem {
    let prefix = format!("{location}: ");
    let in_this_file = location.path == doc.path && location.line > 0;
    let message = match shown.strip_prefix(&prefix) {
        Some(rest) if in_this_file => rest
            .strip_prefix("error: ")
            .or_else(|| rest.strip_prefix("warning: "))
            .unwrap_or(rest),
        _ => shown,
    };
    let mut problem = whole_file(message.to_owned(), severity);
    if in_this_file {
        problem.diagnostic.range = word_at(&doc.text, location.line - 1, location.column);
    }
    problem
}

/// The range of the word (up to a blank, `,` or `:`) at 1-based character `column` of
/// 0-based line `line`; the rest of the line when no word starts there.
fn word_at(text: &str, line: u32, column: u32) -> Range {
    let content = line_at(text, line);
    let start = content
        .char_indices()
        .nth(column.saturating_sub(1) as usize)
        .map_or(content.len(), |(at, _)| at);
    let word = content[start..]
        .find([' ', '\t', ',', ':'])
        .map_or(content.len(), |len| start + len);
    let end = if word > start { word } else { content.len() };
    let start_char = character_of(content, start);
    debug_assert_eq!(byte_in_line(content, start_char), start);
    Range::new(
        Position::new(line, start_char),
        Position::new(line, character_of(content, end)),
    )
}
