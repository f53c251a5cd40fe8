//! "Apply to template": an instance's value of one property written into its template
//! (the one its `Template` names), and the instance's override removed, so the value is
//! the template's for every instance that does not override it (docs/design.md, section
//! 7.9, as the editor applies it). One edit of two files: the template's text is its open
//! buffer when the editor has one, else the file.
//!
//! The value is written as the codec writes it (the property's lines in the instance's
//! canonical text). In the template, a property set on one line keeps its line form
//! (`; Key: value`, `Key: value`), one set in block form is replaced by a block, and a
//! property the template does not set is added at its end, as `; Key: value` (a header,
//! which reads the same after a block or after `Key: value` lines) or as a block.

use std::collections::HashMap;

use juliet_core::{Class, PropertyDescriptor};
use lsp_types::{Position, Range, TextEdit, Uri, WorkspaceEdit};

use super::super::values::{find, properties};
use super::actions::revert_edits;
use super::diagnostics::{load, registry_of};
use super::documents::{
    character_of, end_of, entries, line_at, template_of, uri_of, Document, Documents, Entry,
};
use juliet_entities::fsio::{read_project_file, DEFAULT_MAX_FILE_SIZE};
use juliet_entities::template::normalize_template_path;

/// The edit that applies `entry` (a property of `class` set by `doc`, whose URI is
/// `uri`) to the template `doc` names, and that template's path. `None` when the buffer
/// does not load or the template cannot be read.
pub(super) fn apply_edit(
    uri: &Uri,
    doc: &Document,
    open: &Documents,
    entry: &Entry,
    class: &'static Class,
) -> Option<(String, WorkspaceEdit)> {
    let p = class.property(&entry.key)?;
    let value = canonical_value(doc, open, p)?;
    let template = template_of(&entries(&doc.text), &doc.text)?;
    let rel = normalize_template_path(&template).ok()?;
    let file = doc.root.as_deref()?.join(&rel);
    let template_uri = uri_of(&file)?;
    let text = match open.get(&template_uri) {
        Some(buffer) => buffer.text.clone(),
        None => {
            let bytes = read_project_file(&file, doc.root.as_deref(), DEFAULT_MAX_FILE_SIZE);
            String::from_utf8(bytes.ok()?).ok()?
        }
    };
    // `Uri` hashes its text, which nothing changes; clippy sees its parser's cells.
    #[allow(clippy::mutable_key_type)]
    let changes = HashMap::from([
        (template_uri, vec![template_edit(&text, p, &value)]),
        (uri.clone(), revert_edits(doc, entry)),
    ]);
    Some((rel, WorkspaceEdit::new(changes)))
}

/// The value lines of `p` in the canonical text of the buffer (which sets it).
fn canonical_value(
    doc: &Document,
    open: &Documents,
    p: &PropertyDescriptor,
) -> Option<Vec<String>> {
    let registry = registry_of(doc).ok()?;
    let text = load(doc, open, registry).ok()?.canonical_text().ok()?;
    let props = properties(text.as_bytes(), &doc.path).ok()?;
    find(&props, p.key, &[]).map(<[String]>::to_vec)
}

/// The edit of the template text `text` that sets `p` to the value lines `value`.
fn template_edit(text: &str, p: &PropertyDescriptor, value: &[String]) -> TextEdit {
    let found = entries(text);
    let set = found
        .iter()
        .find(|e| e.is(p.key) || p.aliases.iter().any(|a| e.is(a.name)));
    let block = format!("; {}\n{}\n", p.key, value.join("\n"));
    match (set, value) {
        (Some(e), [one]) if e.inline.is_some() => {
            let line = line_at(text, e.line);
            let start = e.inline.as_ref().map_or(line.len(), |r| r.start);
            let at = |byte| Position::new(e.line, character_of(line, byte));
            TextEdit::new(Range::new(at(start), at(line.len())), format!(" {one}"))
        }
        (Some(e), _) => {
            let lines = e.lines();
            let range = Range::new(Position::new(lines.start, 0), Position::new(lines.end, 0));
            TextEdit::new(range, block)
        }
        (None, _) => {
            let end = end_of(text);
            let newline = if text.is_empty() || text.ends_with('\n') {
                ""
            } else {
                "\n"
            };
            let added = match value {
                [one] => format!("{newline}; {}: {one}\n", p.key),
                _ => format!("{newline}{block}"),
            };
            TextEdit::new(Range::new(end, end), added)
        }
    }
}
