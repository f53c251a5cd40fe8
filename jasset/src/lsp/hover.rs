//! Hover and go to definition: where a key's value comes from (its type and default,
//! the template of the chain that sets it, whether this file overrides it), and what a
//! `Template` line names (the template's kind and chain). The chain is
//! [`template_chain`](super::super::values::template_chain), as `jasset inspect` follows
//! it.

use juliet_core::{keys_equal, Class, PropertyDescriptor};
use lsp_types::{Hover, HoverContents, Location, MarkupContent, MarkupKind, Position, Range};

use super::super::schema::SchemaClass;
use super::super::values::{find, header, ChainLink};
use super::diagnostics::registry_of;
use super::documents::{
    byte_in_line, chain_of, character_of, class_of, entries, entry_at, line_at, template_of,
    uri_of, Document, Entry,
};
use super::entity_at::{entity_hover, id_of};
use juliet_entities::entity::EntityId;
use juliet_entities::fsio::{read_project_file, DEFAULT_MAX_FILE_SIZE};
use juliet_entities::load::keys;
use juliet_entities::template::normalize_template_path;

/// What the cursor is on.
enum Target<'e> {
    /// The key of a property.
    Key(&'e Entry),
    /// The value of the `Template` property.
    TemplatePath,
    /// An entity id in a value (`EntityID`, a reference).
    Id(EntityId),
}

/// What is at `position` of `entries`.
fn target_at<'e>(doc: &Document, entries: &'e [Entry], position: Position) -> Option<Target<'e>> {
    let entry = entry_at(entries, position.line)?;
    let line = line_at(&doc.text, position.line);
    let at = byte_in_line(line, position.character);
    let on_key = position.line == entry.line && at <= entry.key_bytes.end;
    if entry.is(keys::TEMPLATE.name) && !on_key {
        return Some(Target::TemplatePath);
    }
    if on_key {
        return Some(Target::Key(entry));
    }
    // The token under the cursor, when it is an id.
    let start = line[..at.min(line.len())]
        .rfind(|c: char| c.is_whitespace() || c == ':' || c == ',')
        .map_or(0, |i| i + 1);
    let end = line[start..]
        .find(|c: char| c.is_whitespace() || c == ',')
        .map_or(line.len(), |i| start + i);
    id_of(&line[start..end]).map(Target::Id)
}

/// The first template of `chain` whose file sets `p` (by its key or an alias).
pub(super) fn setter<'c>(chain: &'c [ChainLink], p: &PropertyDescriptor) -> Option<&'c ChainLink> {
    let aliases: Vec<&str> = p.aliases.iter().map(|a| a.name).collect();
    chain
        .iter()
        .find(|link| find(&link.properties, p.key, &aliases).is_some())
}

/// The hover of `position` in `doc`.
pub(super) fn hover(doc: &Document, position: Position) -> Option<Hover> {
    let entries = entries(&doc.text);
    let text = match target_at(doc, &entries, position)? {
        Target::Key(entry) => key_hover(doc, &entries, entry)?,
        Target::TemplatePath => template_hover(doc, &entries),
        Target::Id(id) => entity_hover(doc, id),
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: None,
    })
}

/// The hover of the key of `entry`: type, default, template value and its file, whether
/// this file overrides it, and the chain.
fn key_hover(doc: &Document, entries: &[Entry], entry: &Entry) -> Option<String> {
    let registry = registry_of(doc).ok()?;
    let class = class_of(entries, &doc.text, doc, registry)?;
    let Some(p) = class.property(&entry.key) else {
        let base = keys::BASE.iter().any(|k| entry.is(k.name));
        return Some(if base {
            format!("**{}**: a base key of every entity file", entry.key)
        } else {
            format!("**{}**: not a key of `{}`", entry.key, class.name())
        });
    };
    let (ty, default) = type_and_default(class, p.key);
    let mut text = format!(
        "**{}** `{ty}` of `{}`\n\ndefault: `{default}`",
        p.key,
        class.name()
    );
    match chain_of(entries, &doc.text, doc) {
        Some(Ok(chain)) => {
            match setter(&chain, p) {
                Some(link) => {
                    let aliases: Vec<&str> = p.aliases.iter().map(|a| a.name).collect();
                    let lines = find(&link.properties, p.key, &aliases).unwrap_or_default();
                    text.push_str(&format!(
                        "\n\ntemplate value: `{}` set by `{}`",
                        lines.join(" | "),
                        link.template
                    ));
                }
                None => text
                    .push_str("\n\ntemplate value: the default (no template of the chain sets it)"),
            }
            text.push_str("\n\nthis file overrides the template's value");
            text.push_str(&format!("\n\nchain: {}", chain_names(&chain)));
        }
        Some(Err(e)) => text.push_str(&format!("\n\ntemplate chain: {e}")),
        None => {}
    }
    Some(text)
}

/// The one-word type and the default text of property `key` of `class`, as
/// `jasset.schema` writes them.
fn type_and_default(class: &'static Class, key: &str) -> (String, String) {
    let schema = SchemaClass::of(class);
    schema
        .properties
        .into_iter()
        .find(|(k, _, _)| keys_equal(k, key))
        .map(|(_, ty, default)| (ty, default))
        .unwrap_or_default()
}

/// The templates of `chain`, nearest first: `A -> B`.
fn chain_names(chain: &[ChainLink]) -> String {
    let names: Vec<&str> = chain.iter().map(|l| l.template.as_str()).collect();
    names.join(" -> ")
}

/// The hover of a `Template` value: the template's kind and chain.
fn template_hover(doc: &Document, entries: &[Entry]) -> String {
    match chain_of(entries, &doc.text, doc) {
        Some(Ok(chain)) => {
            let kind = chain
                .iter()
                .find_map(|l| header(&l.properties).kind)
                .unwrap_or_else(|| "(none)".to_owned());
            format!(
                "template of kind `{kind}`\n\nchain: {}",
                chain_names(&chain)
            )
        }
        Some(Err(e)) => format!("template chain: {e}"),
        None => "no project root: the template cannot be found".to_owned(),
    }
}

/// Go to definition at `position`: a `Template` line opens the template file, a key the
/// line of the template that sets the value this file inherits.
pub(super) fn definition(doc: &Document, position: Position) -> Option<Location> {
    let entries = entries(&doc.text);
    match target_at(doc, &entries, position)? {
        Target::Id(_) => None,
        Target::TemplatePath => {
            let template = template_of(&entries, &doc.text)?;
            let rel = normalize_template_path(&template).ok()?;
            let file = doc.root.as_deref()?.join(rel);
            let start = Range::new(Position::new(0, 0), Position::new(0, 0));
            Some(Location::new(uri_of(&file)?, start))
        }
        Target::Key(entry) => {
            let registry = registry_of(doc).ok()?;
            let class = class_of(&entries, &doc.text, doc, registry)?;
            let p = class.property(&entry.key)?;
            let chain = chain_of(&entries, &doc.text, doc)?.ok()?;
            let link = setter(&chain, p)?;
            let root = doc.root.as_deref()?;
            let bytes = read_project_file(&link.file, Some(root), DEFAULT_MAX_FILE_SIZE).ok()?;
            let text = String::from_utf8(bytes).ok()?;
            let found = entries_key(&text, p)?;
            let line = line_at(&text, found.line);
            let range = Range::new(
                Position::new(found.line, character_of(line, found.key_bytes.start)),
                Position::new(found.line, character_of(line, found.key_bytes.end)),
            );
            Some(Location::new(uri_of(&link.file)?, range))
        }
    }
}

/// The entry of `text` that sets `p` (by its key or an alias).
fn entries_key(text: &str, p: &PropertyDescriptor) -> Option<Entry> {
    entries(text)
        .into_iter()
        .find(|e| e.is(p.key) || p.aliases.iter().any(|a| e.is(a.name)))
}
