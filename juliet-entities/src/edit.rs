//! Saves that keep the designer's file: an entity's new text is written as edits of the
//! file it was loaded from (docs/design.md, section 3.6).
//!
//! Three texts meet here: the file as it is on disk (`original`), the canonical text of
//! the entity as it was loaded (`old`, what the canonical writer makes of the file) and
//! the canonical text of the entity now (`new`). A property whose canonical value is the
//! same in `old` and `new` keeps its lines, whatever their spelling, form or layout;
//! one whose value changed gets its value lines replaced (the key's spelling and the
//! line form kept); a property new in `new` is inserted in canonical block form after
//! its nearest preceding neighbour; one gone from `new` (a revert) loses its lines.
//! Comments, blank lines, unknown keys, the order and the line endings (LF or CRLF) are
//! kept.
//!
//! A file at an older `ClassVersion` or `BaseVersion` whose entity is written is brought
//! to the current versions in the same edit: the version lines change, the deprecated
//! keys the migration consumed go, and the properties the migration set are inserted.

use std::collections::HashMap;
use std::path::Path;

use juliet_core::{Error, TokenBuffer, CLASS_VERSION};

use crate::entity_file::keys;

/// How the keys of an entity file map to the canonical keys of the writer.
pub(crate) trait KeyMap {
    /// The canonical key (`Position`, `Mass`, `ClassVersion`...) that `key` (as written,
    /// whose CRC is `crc`) spells, or `None` for a key the class does not know.
    fn canonical(&self, crc: u32, key: &str) -> Option<&'static str>;

    /// Whether a property whose key is absent from the file reads as `lines` (canonical
    /// value lines): then a property that is absent and has that value needs no line.
    fn absent_means(&self, key: &str, lines: &[&str]) -> bool;
}

/// One property of a canonical text: its key and value lines.
type Properties<'a> = Vec<(&'a str, Vec<&'a str>)>;

fn properties<'a>(buffer: &'a mut TokenBuffer, text: &'a str) -> Result<Properties<'a>, Error> {
    let doc = buffer.tokenize(text.as_bytes(), Path::new(""))?;
    Ok((0..doc.len())
        .map(|i| (doc.key(i), doc.value(i).lines().collect()))
        .collect())
}

/// A node of the original file: where its lines are and what it is.
struct Node<'a> {
    /// The key as written.
    key: &'a str,
    /// The canonical key, or the key as written for a key the class does not know.
    canonical: &'a str,
    /// Byte range of the whole property: its header line through its last value line,
    /// line ending included.
    span: (usize, usize),
    /// Byte range of the value text: from the first value line's start to the last
    /// value line's end (without its line ending).
    values: (usize, usize),
    /// Whether the value sits on the header's line (`; Key: value`, `Key: value`).
    one_line: bool,
    /// Whether the property is a `Key: value` line (only where no block is open).
    compact: bool,
    value_lines: Vec<&'a str>,
}

/// The edited file: `original` with the changes from `old` to `new` made in place (see
/// the module documentation). `old` and `new` are canonical entity texts (what
/// `World::entity_text` writes); `path` labels errors.
///
/// # Errors
/// A tokenizer error in `original`, `old` or `new` (a file that loaded tokenizes again).
pub(crate) fn edit(
    original: &[u8],
    path: &Path,
    old: &str,
    new: &str,
    map: &dyn KeyMap,
) -> Result<Vec<u8>, Error> {
    let (mut old_buffer, mut new_buffer) = (TokenBuffer::new(), TokenBuffer::new());
    let old_props = properties(&mut old_buffer, old)?;
    let new_props = properties(&mut new_buffer, new)?;
    let mut buffer = TokenBuffer::new();
    let bom = if original.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let doc = buffer.tokenize(original, path)?;
    let src = doc.source();
    let base = src.as_ptr() as usize;
    let offset = |s: &str| s.as_ptr() as usize - base;
    let line_start = |at: usize| src[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = |at: usize| src[at..].find('\n').map_or(src.len(), |i| at + i + 1);
    let crlf = src.contains("\r\n");
    let eol = if crlf { "\r\n" } else { "\n" };

    let mut nodes = Vec::with_capacity(doc.len());
    for i in 0..doc.len() {
        let key = doc.key(i);
        let n = doc.node(i);
        let lines: Vec<&str> = doc.value(i).lines().collect();
        let first = offset(lines[0]);
        let last = lines[lines.len() - 1];
        let last_end = offset(last) + last.len();
        let header = line_start(offset(key));
        nodes.push(Node {
            key,
            canonical: map.canonical(n.key_crc, key).unwrap_or(key),
            span: (header, line_end(last_end)),
            values: (first, last_end),
            one_line: n.form != juliet_core::LineForm::Block,
            compact: n.form == juliet_core::LineForm::Compact,
            value_lines: lines,
        });
    }
    // The first property of each key, looked up once a key: a file of a million keys
    // is edited in linear time.
    let (old_index, new_index) = (first_of(&old_props), first_of(&new_props));
    let node_index = first_of_keys(nodes.iter().map(|n| n.canonical));
    let old_at = |key: &str| old_index.get(key).copied();
    let new_at = |key: &str| new_index.get(key).copied();
    let node_of = |key: &str| node_index.get(key).copied();

    // Migrating: a version line of the file differs from the new text's.
    let migrating = [keys::BASE_VERSION.name, CLASS_VERSION.name]
        .iter()
        .any(|&version| match (node_of(version), new_at(version)) {
            (Some(n), Some(p)) => nodes[n].value_lines != new_props[p].1,
            _ => false,
        });

    // Gone from the new text: a reverted override, or a deprecated key the migration
    // consumed (gone only when the file is brought to the new version).
    let deleted: Vec<bool> = nodes
        .iter()
        .map(|node| {
            new_at(node.canonical).is_none() && (migrating || old_at(node.canonical).is_some())
        })
        .collect();
    // Whether the first node that stays at or after byte `at` is a `Key: value` line,
    // which a block put before it would swallow (comments and blank lines between
    // change nothing).
    let next_kept = |at: usize| {
        // Nodes are in file order.
        let from = nodes.partition_point(|n| n.span.0 < at);
        (from..nodes.len())
            .find(|&j| !deleted[j])
            .map(|j| &nodes[j])
    };
    let compact_follows = |at: usize| next_kept(at).is_some_and(|n| n.compact);

    // (position, what to cut up to, replacement), applied in order.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut previous: Option<usize> = None;
    for (key, lines) in &new_props {
        let Some(n) = node_of(key) else {
            if !map.absent_means(key, lines) {
                let at = previous.map_or_else(
                    || nodes.first().map_or(src.len(), |n| n.span.0),
                    |p| nodes[p].span.1,
                );
                let mut text = match lines.as_slice() {
                    [line] if compact_follows(at) => format!("; {key}: {line}{eol}"),
                    _ => block(key, lines, eol),
                };
                if at > 0 && src.as_bytes()[at - 1] != b'\n' {
                    // After a last line without a line ending.
                    text.insert_str(0, eol);
                }
                edits.push((at, at, text));
            }
            continue;
        };
        // The insertion point of what follows: after the last, in the file, of the
        // properties before it in the writer's order.
        if previous.is_none_or(|p| nodes[p].span.1 < nodes[n].span.1) {
            previous = Some(n);
        }
        let node = &nodes[n];
        let unchanged = old_at(key).is_some_and(|o| old_props[o].1 == *lines);
        let is_version = *key == keys::BASE_VERSION.name || *key == CLASS_VERSION.name;
        if (unchanged && !(is_version && migrating)) || node.value_lines == *lines {
            continue;
        }
        match lines.as_slice() {
            [line] => edits.push((node.values.0, node.values.1, (*line).to_owned())),
            _ if !node.one_line => {
                let text = lines.join(eol);
                edits.push((node.values.0, node.values.1, text));
            }
            _ => {
                // Several lines cannot stand on a header's line: the property becomes a
                // block under its own spelling; a `Key: value` line right after it
                // becomes `; Key: value`, which no block can swallow.
                edits.push((node.span.0, node.span.1, block(node.key, lines, eol)));
                if let Some(next) = next_kept(node.span.1).filter(|m| m.compact) {
                    edits.push((next.span.0, next.span.0, "; ".to_owned()));
                }
            }
        }
    }
    for (i, node) in nodes.iter().enumerate() {
        if !deleted[i] {
            continue;
        }
        edits.push((node.span.0, node.span.1, String::new()));
        // A `Key: value` line that the deleted one kept out of the block before it
        // becomes `; Key: value`.
        let before = (0..i).rev().find(|&j| !deleted[j]);
        let after = (i + 1..nodes.len()).find(|&j| !deleted[j]);
        if let (Some(b), Some(a)) = (before, after) {
            if !nodes[b].one_line
                && nodes[a].compact
                && (b + 1..a).all(|j| deleted[j])
                && i == a - 1
            {
                edits.push((nodes[a].span.0, nodes[a].span.0, "; ".to_owned()));
            }
        }
    }

    let out = apply(src, edits);
    let mut bytes = Vec::with_capacity(bom + out.len());
    bytes.extend_from_slice(&original[..bom]);
    bytes.extend_from_slice(out.as_bytes());
    Ok(bytes)
}

/// The index of the first property of each key of `props`.
fn first_of<'a>(props: &Properties<'a>) -> HashMap<&'a str, usize> {
    first_of_keys(props.iter().map(|(k, _)| *k))
}

/// The index of the first occurrence of each of `keys`.
fn first_of_keys<'a>(keys: impl Iterator<Item = &'a str>) -> HashMap<&'a str, usize> {
    let mut index = HashMap::new();
    for (i, key) in keys.enumerate() {
        index.entry(key).or_insert(i);
    }
    index
}

/// `src` with `edits` made: each `(start, end, text)` replaces `src[start..end]` by
/// `text`. Sorted by position first (stably, so insertions at one point keep their
/// order, before a replacement that starts there); an edit that starts inside an
/// earlier one is dropped.
pub(crate) fn apply(src: &str, mut edits: Vec<(usize, usize, String)>) -> String {
    edits.sort_by_key(|e| (e.0, e.1));
    let mut out = String::with_capacity(src.len() + src.len() / 4);
    let mut at = 0;
    for (start, end, text) in &edits {
        if *start < at {
            continue;
        }
        out.push_str(&src[at..*start]);
        out.push_str(text);
        at = *end;
    }
    out.push_str(&src[at..]);
    out
}

/// `; key` and the value lines, each ended by `eol`.
pub(crate) fn block<S: AsRef<str>>(key: &str, lines: &[S], eol: &str) -> String {
    let mut text = format!("; {key}{eol}");
    for line in lines {
        text.push_str(line.as_ref());
        text.push_str(eol);
    }
    text
}

/// The canonical value lines of a default value of a class, by key (what an absent key
/// reads as in a standalone entity), for [`KeyMap::absent_means`].
pub(crate) type Defaults = HashMap<&'static str, Vec<String>>;
