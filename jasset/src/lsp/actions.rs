//! Code actions and formatting: the did-you-mean fix of a misspelt key (the suggestion
//! `check` prints), "revert to template" (the override's lines removed, as `jasset set
//! --unset` removes them: comments inside its block stay), "apply to template"
//! ([`super::apply`]), and "format file" / `textDocument/formatting`, the canonical text
//! `jasset fmt` writes.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Position, Range, TextEdit, Uri, WorkspaceEdit,
};

use juliet_core::Class;

use super::apply::apply_edit;
use super::diagnostics::{load, registry_of, Problem};
use super::documents::{class_of, end_of, entries, lines, template_of, Document, Documents, Entry};
use juliet_entities::world::is_newer_version;

/// The code actions for `range` of `doc`, whose problems are `problems`; the other
/// `open` buffers are the texts "apply to template" edits.
pub(super) fn actions(
    uri: &Uri,
    doc: &Document,
    open: &Documents,
    range: Range,
    problems: &[Problem],
) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    for problem in problems {
        let d = &problem.diagnostic;
        let Some(suggestion) = &problem.suggestion else {
            continue;
        };
        if d.range.start.line > range.end.line || d.range.end.line < range.start.line {
            continue;
        }
        let edit = TextEdit::new(d.range, suggestion.clone());
        let mut action = action(uri, format!("Change to `{suggestion}`"), vec![edit]);
        action.kind = Some(CodeActionKind::QUICKFIX);
        action.diagnostics = Some(vec![d.clone()]);
        action.is_preferred = Some(true);
        out.push(CodeActionOrCommand::CodeAction(action));
    }
    if let Some((entry, class)) = override_at(doc, range.start.line) {
        let edits = revert_edits(doc, &entry);
        let title = format!("Revert `{}` to template", entry.key);
        let mut revert = action(uri, title, edits);
        revert.kind = Some(CodeActionKind::REFACTOR);
        out.push(CodeActionOrCommand::CodeAction(revert));
        if let Some((template, edit)) = apply_edit(uri, doc, open, &entry, class) {
            let title = format!("Apply `{}` to {template}", entry.key);
            let mut apply = action(uri, title, Vec::new());
            apply.edit = Some(edit);
            apply.kind = Some(CodeActionKind::REFACTOR);
            out.push(CodeActionOrCommand::CodeAction(apply));
        }
    }
    if let Some(edits) = format_edits(doc, open) {
        let mut action = action(uri, "Format file".to_owned(), edits);
        action.kind = Some(CodeActionKind::SOURCE);
        out.push(CodeActionOrCommand::CodeAction(action));
    }
    out
}

fn action(uri: &Uri, title: String, edits: Vec<TextEdit>) -> CodeAction {
    CodeAction {
        title,
        edit: Some(WorkspaceEdit::new(HashMap::from([(uri.clone(), edits)]))),
        ..CodeAction::default()
    }
}

/// The property on line `line` of an instance (or a variant template) that it sets and
/// its kind has: what "revert to template" and "apply to template" act on. `None` when
/// the file has no `Template`, or the line is on no property of its kind.
pub(super) fn override_at(doc: &Document, line: u32) -> Option<(Entry, &'static Class)> {
    let found = entries(&doc.text);
    template_of(&found, &doc.text)?;
    let registry = registry_of(doc).ok()?;
    let class = class_of(&found, &doc.text, doc, registry)?;
    let entry = found.into_iter().find(|e| e.lines().contains(&line))?;
    class.property(&entry.key)?;
    Some((entry, class))
}

/// The edits that revert `entry` of `doc` to its template's value: its header and value
/// lines removed, comment and blank lines inside its block kept.
pub(super) fn revert_edits(doc: &Document, entry: &Entry) -> Vec<TextEdit> {
    let kept = |l: &str| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#') || t.starts_with("//")
    };
    lines(&doc.text)
        .enumerate()
        .skip(entry.line as usize)
        .take(entry.lines().len())
        .filter(|(n, l)| *n == entry.line as usize || !kept(l))
        .map(|(n, _)| {
            let n = n as u32;
            TextEdit::new(
                Range::new(Position::new(n, 0), Position::new(n + 1, 0)),
                String::new(),
            )
        })
        .collect()
}

/// The edit that gives `doc` its canonical text (what `jasset fmt` writes): `None` when
/// the buffer does not load or was written by a newer build (which `fmt` leaves as it
/// is), an empty list when it is canonical already.
pub(super) fn format_edits(doc: &Document, open: &Documents) -> Option<Vec<TextEdit>> {
    let registry = registry_of(doc).ok()?;
    let mut single = load(doc, open, registry).ok()?;
    if single.warnings.iter().any(is_newer_version) {
        return None;
    }
    let text = single.canonical_text().ok()?;
    if text == doc.text {
        return Some(Vec::new());
    }
    let whole = Range::new(Position::new(0, 0), end_of(&doc.text));
    Some(vec![TextEdit::new(whole, text)])
}
