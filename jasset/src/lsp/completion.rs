//! Completion: on a key, the keys of the file's kind it does not set yet (with type
//! and default); in a value, what the property's type reads: `Kind` names, `Template`
//! paths under `Assets/Templates`, `true` / `false`, the variants of a unit enum.

use std::path::Path;

use juliet_core::{keys_equal, PropertyType, Registry};
use lsp_types::{CompletionItem, CompletionItemKind, Position};

use super::super::listing::collect;
use super::super::project::{project_relative, TEMPLATES_DIR};
use super::super::schema::SchemaClass;
use super::diagnostics::registry_of;
use super::documents::{byte_in_line, class_of, entries, line_at, Document, Entry};
use juliet_entities::load::keys;

/// The completions at `position` of `doc`.
pub(super) fn complete(doc: &Document, position: Position) -> Vec<CompletionItem> {
    let Ok(registry) = registry_of(doc) else {
        return Vec::new();
    };
    let entries = entries(&doc.text);
    let line = line_at(&doc.text, position.line);
    let at = byte_in_line(line, position.character);
    match value_owner(&entries, line, position.line, at) {
        Some(owner) => value_items(doc, &entries, owner, registry),
        None => key_items(doc, &entries, registry),
    }
}

/// The property whose value the cursor is in, if it is in one: after the `:` of a
/// one-line property, or on a line under a block header (every line up to the next
/// header is the block's value, docs/design.md, section 2.1).
fn value_owner<'e>(entries: &'e [Entry], line: &str, n: u32, at: usize) -> Option<&'e Entry> {
    let last = entries.iter().rev().find(|e| e.line <= n)?;
    if last.line == n {
        return last.inline.as_ref().filter(|r| at >= r.start).map(|_| last);
    }
    let header = line.trim_start().starts_with(';');
    (last.inline.is_none() && !header).then_some(last)
}

/// The keys of the buffer's kind that it does not set.
fn key_items(doc: &Document, entries: &[Entry], registry: &Registry) -> Vec<CompletionItem> {
    let Some(class) = class_of(entries, &doc.text, doc, registry) else {
        return Vec::new();
    };
    // A key written under an alias or another spelling is set too.
    let set = |key: &str| {
        entries
            .iter()
            .any(|e| class.property(&e.key).is_some_and(|p| p.key == key))
    };
    let schema = SchemaClass::of(class);
    schema
        .properties
        .into_iter()
        .filter(|(key, _, _)| !set(key))
        .map(|(key, ty, default)| CompletionItem {
            label: key,
            kind: Some(CompletionItemKind::PROPERTY),
            detail: Some(format!("{ty} (default {default})")),
            ..CompletionItem::default()
        })
        .collect()
}

/// What the value of `owner` may be.
fn value_items(
    doc: &Document,
    entries: &[Entry],
    owner: &Entry,
    registry: &Registry,
) -> Vec<CompletionItem> {
    let kind_keys = std::iter::once(&keys::KIND).chain(keys::KIND_ALIASES);
    if kind_keys.clone().any(|k| owner.is(k.name)) {
        let names = registry.classes().iter().map(|c| c.name().to_owned());
        return items(names, CompletionItemKind::CLASS);
    }
    if owner.is(keys::TEMPLATE.name) {
        let paths = doc.root.as_deref().map(template_paths).unwrap_or_default();
        return items(paths, CompletionItemKind::FILE);
    }
    let Some(class) = class_of(entries, &doc.text, doc, registry) else {
        return Vec::new();
    };
    let Some(p) = class
        .properties()
        .iter()
        .find(|p| keys_equal(p.key, &owner.key))
    else {
        return Vec::new();
    };
    let words: Vec<String> = match &p.property_type {
        PropertyType::Bool => vec!["true".into(), "false".into()],
        PropertyType::Enum { variants, .. } => variants.iter().map(|v| v.to_string()).collect(),
        _ => Vec::new(),
    };
    items(words, CompletionItemKind::VALUE)
}

/// The `Template` paths of the project at `root`: its `.jasset` files under
/// `Assets/Templates`, relative to the root.
fn template_paths(root: &Path) -> Vec<String> {
    let found = collect(&[root.join(TEMPLATES_DIR)]);
    found
        .files
        .iter()
        .filter_map(|f| project_relative(f, root))
        .collect()
}

fn items(
    labels: impl IntoIterator<Item = String>,
    kind: CompletionItemKind,
) -> Vec<CompletionItem> {
    labels
        .into_iter()
        .map(|label| CompletionItem {
            label,
            kind: Some(kind),
            ..CompletionItem::default()
        })
        .collect()
}
