//! The patcher: saves that keep the designer's file. An entity's new text is written as
//! edits of the file it was loaded from (docs/design.md, section 6.2). [`crate::World::save_world`]
//! edits its entities' files so; [`edit_entity_file`] does it for one entity's file
//! loaded by any program (a template, a loose file), and the text edits it is made of
//! ([`apply_bytes`], [`line_for_line`], [`lines_between`], [`block`], [`ends_line_at`],
//! [`line_ending`]) serve programs that edit `.jasset` text themselves (a merge of
//! three versions of a file). An edit is `(start, end, text)`: the bytes
//! `start..end` of the source replaced by `text`.
//!
//! Three texts meet here: the file as it is on disk (`original`), the canonical text of
//! the entity as it was loaded (`old`, what the canonical writer makes of the file) and
//! the canonical text of the entity now (`new`). A property whose canonical value is
//! the same in `old` and `new` keeps its lines, whatever their spelling, form or
//! layout; one whose value changed gets its value lines replaced line for line (the
//! key's spelling, the line form and the comments between its value lines kept); a
//! property new in `new` is inserted after its nearest preceding neighbour (in the place
//! of a property that goes right after that neighbour, when there is one, after the
//! comments inside that one), in the line form of the one it replaces or of its
//! neighbours; one gone from `new` (a revert) loses its header and value lines, not the
//! comments inside it. Token lists (vectors, arrays) keep the file's separators
//! (`1, 2, 3`).
//! Comments, blank lines, unknown keys, the order and the line endings (LF or CRLF) are
//! kept. One line outside the changed properties may change: a `Key: value` line that a
//! block would come to stand right before (an inserted or rewritten block, or a block
//! whose following property goes) becomes `; Key: value`, the same property in the
//! one-line form no block can swallow.
//!
//! A file at an older `ClassVersion` or `BaseVersion` whose entity is written is brought
//! to the current versions in the same edit: the version lines change, the deprecated
//! keys the migration consumed go, and the properties the migration set are inserted.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use juliet_core::{keys_equal, Document, Error, TokenBuffer, CLASS_VERSION};

use crate::entity_file::keys;
use separators::{restyle, separator_of};

pub(crate) mod in_place;
mod reduce;
pub(crate) mod separators;

pub use in_place::{edit_entity_file, EntityFile, How};

pub(crate) use reduce::{reduce, Reduced};

/// How the keys of an entity file map to the canonical keys of the writer.
pub(crate) trait KeyMap {
    /// The canonical key (`Position`, `Mass`, `ClassVersion`...) that `key` (as written,
    /// whose CRC is `crc`) spells, or `None` for a key the class does not know.
    fn canonical(&self, crc: u32, key: &str) -> Option<&'static str>;

    /// Whether a property whose key is absent from the file reads as `lines` (canonical
    /// value lines): then a property that is absent and has that value needs no line.
    fn absent_means(&self, key: &str, lines: &[&str]) -> bool;

    /// The current value of version key `key` (`BaseVersion`, `ClassVersion`), when
    /// known: a file's version line that differs from it is outdated even where the new
    /// text has no version line (an instance that overrides nothing writes none).
    fn current_version(&self, _key: &str) -> Option<u32> {
        None
    }

    /// Whether the value lines of property `key` (canonical) are lists of tokens
    /// (vectors, arrays: [`separators::holds_token_lists`]), written in the file's
    /// separator style.
    fn holds_token_lists(&self, _key: &str) -> bool {
        false
    }

    /// Whether `key` (as written, whose CRC is `crc`) is an alias of a property of the
    /// class (`#[jasset(alias = "Old")]`): an edited file names the property by its
    /// current key instead.
    fn is_alias(&self, _crc: u32, _key: &str) -> bool {
        false
    }
}

/// A canonical text, tokenized, and the key of each of its properties (their value
/// lines are read from the document when needed: not kept for each of a million
/// properties).
fn properties<'a>(
    buffer: &'a mut TokenBuffer,
    text: &'a str,
) -> Result<(Document<'a>, Vec<&'a str>), Error> {
    let doc = buffer.tokenize(text.as_bytes(), Path::new(""))?;
    let keys = (0..doc.len()).map(|i| doc.key(i)).collect();
    Ok((doc, keys))
}

/// The value lines of property `i` of `doc`.
fn lines_of<'a>(doc: &Document<'a>, i: usize) -> Vec<&'a str> {
    doc.value_lines(i).collect()
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
    /// Whether the value sits on the header's line (`; Key: value`, `Key: value`).
    one_line: bool,
    /// Whether the property is a `Key: value` line (only where no block is open).
    compact: bool,
    /// Whether `key` is an alias of the property's current key, which an edit writes.
    alias: bool,
    /// Its index in the tokenized file (its value lines are read from there: not kept
    /// for each of a million properties).
    index: usize,
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
    let eol = line_ending(original);
    Ok(apply_bytes(
        original,
        edits(original, path, old, new, map, eol)?,
    ))
}

/// The edits [`edit`] makes, each `(start, end, text)` replacing the bytes
/// `original[start..end]` by `text`, for [`apply_bytes`]. The lines they add end with
/// `eol`: the [`line_ending`] of the whole file, of which `original` may be a cut
/// (`reduce`).
///
/// # Errors
/// As [`edit`].
pub(crate) fn edits(
    original: &[u8],
    path: &Path,
    old: &str,
    new: &str,
    map: &dyn KeyMap,
    eol: &str,
) -> Result<Vec<(usize, usize, String)>, Error> {
    let (mut old_buffer, mut new_buffer) = (TokenBuffer::new(), TokenBuffer::new());
    let (old_doc, old_props) = properties(&mut old_buffer, old)?;
    let (new_doc, new_props) = properties(&mut new_buffer, new)?;
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

    let mut nodes = Vec::with_capacity(doc.len());
    for i in 0..doc.len() {
        let key = doc.key(i);
        let n = doc.node(i);
        let last = doc.value(i).lines().last().unwrap_or_default();
        let last_end = offset(last) + last.len();
        let header = line_start(offset(key));
        nodes.push(Node {
            key,
            canonical: map.canonical(n.key_crc, key).unwrap_or(key),
            span: (header, line_end(last_end)),
            one_line: n.form != juliet_core::LineForm::Block,
            compact: n.form == juliet_core::LineForm::Compact,
            alias: map.is_alias(n.key_crc, key),
            index: i,
        });
    }
    // Whether node `i`'s value lines are `lines`.
    let same_lines = |i: usize, lines: &[&str]| doc.value(i).lines().eq(lines.iter().copied());
    // The first property of each key, found by a binary search: a file of a million
    // keys is not searched through for each of its keys.
    let (old_index, new_index) = (by_key(&old_props), by_key(&new_props));
    let node_index = by_key(&nodes);
    let old_at = |key: &str| first(&old_index, &old_props, key);
    let new_at = |key: &str| first(&new_index, &new_props, key);
    let node_of = |key: &str| first(&node_index, &nodes, key);

    // Migrating: a version line of the file differs from the new text's, or from the
    // current version where the new text has none (then it is set to that version).
    let migrating = [keys::BASE_VERSION.name, CLASS_VERSION.name]
        .iter()
        .any(|&version| match (node_of(version), new_at(version)) {
            (Some(n), Some(p)) => !same_lines(nodes[n].index, &lines_of(&new_doc, p)),
            (Some(n), None) => map
                .current_version(version)
                .is_some_and(|v| !same_lines(nodes[n].index, &[v.to_string().as_str()])),
            _ => false,
        });

    // Migrating, a version line the new text has none of (an instance that overrides
    // nothing) stays, at the current version (a revert of the last override takes
    // the line its first override added): `None` for other nodes.
    let version_now = |node: &Node<'_>| {
        (migrating && [keys::BASE_VERSION.name, CLASS_VERSION.name].contains(&node.canonical))
            .then(|| map.current_version(node.canonical))
            .flatten()
    };
    // Gone from the new text: a reverted override, or a deprecated key the migration
    // consumed (gone only when the file is brought to the new version).
    let deleted: Vec<bool> = nodes
        .iter()
        .map(|node| {
            new_at(node.canonical).is_none()
                && (migrating || old_at(node.canonical).is_some())
                && version_now(node).is_none()
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
    // The form of a property of one value line inserted at `at`, in the place of node
    // `place` (one that goes) or not: the form of the one it replaces, else of its
    // neighbours there. `Key: value` for a `Key: value` line where no block is open
    // before `at` (it would swallow the line), `; Key: value` for a line on one line or
    // before a `Key: value` line (which a block would swallow), a block otherwise
    // (`None`: no prefix).
    let one_line_form = |at: usize, place: Option<usize>| {
        let before = nodes.partition_point(|n| n.span.0 < at);
        let previous = (0..before).rev().find(|&j| !deleted[j]).map(|j| &nodes[j]);
        let next = next_kept(at);
        let neighbours = match place {
            Some(j) => [Some(&nodes[j]), None],
            None => [previous, next],
        };
        let neighbours = neighbours.iter().flatten();
        // A block before `at`: one now, or a one-line value that becomes one.
        let block_open = previous.is_some_and(|n| {
            !n.one_line || new_at(n.canonical).is_some_and(|p| new_doc.value_lines(p).count() > 1)
        });
        if neighbours.clone().any(|n| n.compact) {
            Some(if block_open { "; " } else { "" })
        } else {
            (neighbours.clone().any(|n| n.one_line) || next.is_some_and(|n| n.compact))
                .then_some("; ")
        }
    };

    // The separator of the token lists of node `n`, as written, when they are some.
    let separator = |n: &Node<'_>| {
        (map.holds_token_lists(n.canonical))
            .then(|| doc.value_lines(n.index).find_map(separator_of))
            .flatten()
    };
    // The file's (its first token list's), which a new token list takes: looked for
    // once, when one is added.
    let file_separator = std::cell::OnceCell::new();
    // The value lines `lines` of property `key` (at node `n` of the file, if any) as
    // written: token lists in the separator style of the property's own lines, or of
    // the file's for a new one.
    let styled = |key: &str, n: Option<usize>, lines: &[&str]| -> Vec<String> {
        let sep = match n {
            Some(n) => separator(&nodes[n]),
            None if map.holds_token_lists(key) => {
                *file_separator.get_or_init(|| nodes.iter().find_map(separator))
            }
            None => None,
        };
        lines.iter().map(|l| restyle(l, sep).into_owned()).collect()
    };

    // (position, what to cut up to, replacement), applied in order.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut previous: Option<usize> = None;
    for (p, key) in new_props.iter().enumerate() {
        let lines = &lines_of(&new_doc, p);
        let Some(n) = node_of(key) else {
            if !map.absent_means(key, lines) {
                let styled = styled(key, None, lines);
                let styled: Vec<&str> = styled.iter().map(String::as_str).collect();
                let after = previous.map_or_else(
                    || nodes.first().map_or(src.len(), |n| n.span.0),
                    |p| nodes[p].span.1,
                );
                // Right before a property that goes (a deprecated key the migration
                // replaced, a reverted override), it takes that one's place: after the
                // comments and blank lines before it and the ones inside it, which stay.
                let next = nodes.partition_point(|n| n.span.0 < after);
                let (at, took_place) = match nodes.get(next) {
                    Some(gone) if deleted[next] => (gone.span.1, true),
                    _ => (after, false),
                };
                let place = took_place.then_some(next);
                let (mut text, compact_after) = match (styled.as_slice(), one_line_form(at, place))
                {
                    ([line], Some(prefix)) => (format!("{prefix}{key}: {line}{eol}"), None),
                    // A `Key: value` line right after the block becomes `; Key: value`,
                    // which the block cannot swallow.
                    _ => (
                        block(key, &styled, eol),
                        next_kept(at).filter(|n| n.compact),
                    ),
                };
                if at > 0
                    && src.as_bytes()[at - 1] != b'\n'
                    && !took_place
                    && !edits.iter().any(|e| ends_line_at(src.as_bytes(), e, at))
                {
                    // After a last line without a line ending (a property whose place
                    // it takes goes with its lines, and what is kept of them ends one).
                    text.insert_str(0, eol);
                }
                // Pushed after the block: edits at one place apply in the order pushed.
                edits.push((at, at, text));
                if let Some(next) = compact_after {
                    edits.push((next.span.0, next.span.0, "; ".to_owned()));
                }
            }
            continue;
        };
        // The insertion point of what follows: after the last, in the file, of the
        // properties before it in the writer's order.
        if previous.is_none_or(|p| nodes[p].span.1 < nodes[n].span.1) {
            previous = Some(n);
        }
        let node = &nodes[n];
        let unchanged =
            old_at(key).is_some_and(|o| old_doc.value(o).lines().eq(lines.iter().copied()));
        let is_version = *key == keys::BASE_VERSION.name || *key == CLASS_VERSION.name;
        // A `Kind` that names the class by an alias (`#[jasset(name = "New", alias =
        // "Old")]`) gets the class's name; another spelling of the name stays.
        let kind_alias = *key == keys::KIND.name
            && !(doc.value_lines(node.index).count() == lines.len()
                && doc
                    .value_lines(node.index)
                    .zip(lines)
                    .all(|(a, b)| keys_equal(a, b)));
        if (unchanged && !(is_version && migrating) && !kind_alias) || same_lines(node.index, lines)
        {
            continue;
        }
        let styled = styled(key, Some(n), lines);
        let styled: Vec<&str> = styled.iter().map(String::as_str).collect();
        if lines.len() == 1 || !node.one_line {
            value_line_edits(&mut edits, &doc, node.index, &styled, eol);
        } else {
            // Several lines cannot stand on a header's line: the property becomes a
            // block under its own spelling; a `Key: value` line right after it
            // becomes `; Key: value`, which no block can swallow.
            let key = if node.alias { node.canonical } else { node.key };
            edits.push((node.span.0, node.span.1, block(key, &styled, eol)));
            if let Some(next) = next_kept(node.span.1).filter(|m| m.compact) {
                edits.push((next.span.0, next.span.0, "; ".to_owned()));
            }
        }
    }
    for node in &nodes {
        if let (None, Some(version)) = (new_at(node.canonical), version_now(node)) {
            let version = version.to_string();
            if !same_lines(node.index, &[version.as_str()]) {
                value_line_edits(&mut edits, &doc, node.index, &[version.as_str()], eol);
            }
        }
    }
    for (i, node) in nodes.iter().enumerate() {
        if !deleted[i] {
            continue;
        }
        // The comment and blank lines inside a block stay: only its header and value
        // lines go.
        let kept = if node.one_line {
            String::new()
        } else {
            let values: Vec<usize> = doc.value_lines(node.index).map(offset).collect();
            lines_between(src, offset(node.key), node.span.1, &values)
        };
        edits.push((node.span.0, node.span.1, kept));
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

    // A `; ` goes once before a `Key: value` line that stays as written: several rules
    // may ask for it, and a line whose lines are replaced gets none.
    let replaced: HashSet<usize> = (edits.iter()).filter(|e| e.1 > e.0).map(|e| e.0).collect();
    let mut prefixed = HashSet::new();
    edits.retain(|e| {
        !(e.0 == e.1 && e.2 == "; ") || (!replaced.contains(&e.0) && prefixed.insert(e.0))
    });
    // A property written under an alias of its key gets its current key: the key alone
    // changes (one whose lines are replaced as a whole has it already).
    for (i, node) in nodes.iter().enumerate() {
        let whole = |e: &(usize, usize, String)| (e.0, e.1) == node.span;
        if node.alias && !deleted[i] && !edits.iter().any(whole) {
            let at = offset(node.key);
            edits.push((at, at + node.key.len(), node.canonical.to_owned()));
        }
    }
    // Positions in `src`, which starts after the byte-order mark.
    for edit in &mut edits {
        edit.0 += bom;
        edit.1 += bom;
    }
    Ok(edits)
}

/// The edits that give property `index` of `doc` the value lines `lines`, line for
/// line ([`line_for_line`]).
fn value_line_edits(
    edits: &mut Vec<(usize, usize, String)>,
    doc: &Document<'_>,
    index: usize,
    lines: &[&str],
    eol: &str,
) {
    let src = doc.source();
    let base = src.as_ptr() as usize;
    let old: Vec<(usize, usize)> = (doc.value_lines(index))
        .map(|l| {
            (
                l.as_ptr() as usize - base,
                l.as_ptr() as usize - base + l.len(),
            )
        })
        .collect();
    line_for_line(edits, src, &old, lines, eol);
}

/// The edits of `src` that replace the value lines at `old` (byte ranges, line endings
/// excluded, in file order) by `lines`, line for line: the old lines take the new ones
/// in order, new lines beyond them go after the last (each after an `eol`), and old
/// lines beyond the new ones go with their line endings. The comment and blank lines
/// between value lines stay where they are. What a save does to a changed value.
///
/// ```
/// use juliet_entities::patch::{apply_bytes, line_for_line};
///
/// let src = "; Path\n1 0 0\n# halfway\n2 0 0\n";
/// let (first, second) = (src.find("1 0 0").unwrap(), src.find("2 0 0").unwrap());
/// let mut edits = Vec::new();
/// let old = [(first, first + 5), (second, second + 5)];
/// line_for_line(&mut edits, src, &old, &["1 1 0", "2 2 0", "3 3 0"], "\n");
/// let edited = apply_bytes(src.as_bytes(), edits);
/// assert_eq!(edited, b"; Path\n1 1 0\n# halfway\n2 2 0\n3 3 0\n");
/// ```
pub fn line_for_line(
    edits: &mut Vec<(usize, usize, String)>,
    src: &str,
    old: &[(usize, usize)],
    lines: &[&str],
    eol: &str,
) {
    for (&(start, end), line) in old.iter().zip(lines) {
        edits.push((start, end, (*line).to_owned()));
    }
    if let (Some(&(_, end)), Some(more)) = (old.last(), lines.get(old.len()..)) {
        let text: String = more.iter().map(|l| format!("{eol}{l}")).collect();
        if !text.is_empty() {
            edits.push((end, end, text));
        }
    }
    for &(start, end) in old.iter().skip(lines.len()) {
        let from = src[..start].rfind('\n').map_or(0, |i| i + 1);
        let to = src[end..].find('\n').map_or(src.len(), |i| end + i + 1);
        edits.push((from, to, String::new()));
    }
}

/// Whether edit `e` (`(start, end, text)` of `src`) ends at byte `at` with a line
/// ending before it: its text ends with one, or it removes text that follows one (the
/// last value line of a value that shrinks, at an unterminated end). A property
/// inserted at `at`, after a last line without a line ending, then needs none first.
///
/// ```
/// use juliet_entities::patch::ends_line_at;
///
/// let src = b"; A\n1";
/// assert!(ends_line_at(src, &(4, 5, "2\n".to_owned()), 5));
/// assert!(!ends_line_at(src, &(4, 5, "2".to_owned()), 5));
/// ```
pub fn ends_line_at(src: &[u8], e: &(usize, usize, String), at: usize) -> bool {
    e.1 == at && (e.2.ends_with('\n') || e.2.is_empty() && e.0 > 0 && src[e.0 - 1] == b'\n')
}

/// The comment and blank lines inside a block of `src`: the whole lines after its
/// header line (the line holding byte `header`) up to `end` (its last value line's end)
/// on which none of its value lines, starting at `values` (in file order), starts.
/// They stay when the block goes (a save's revert, a removal a merge takes).
///
/// ```
/// use juliet_entities::patch::lines_between;
///
/// let src = "; Path\n1 0 0\n# halfway\n2 0 0\n; Mass\n1\n";
/// let end = src.find("; Mass").unwrap();
/// let values = [src.find("1 0 0").unwrap(), src.find("2 0 0").unwrap()];
/// assert_eq!(lines_between(src, 0, end, &values), "# halfway\n");
/// ```
pub fn lines_between(src: &str, header: usize, end: usize, values: &[usize]) -> String {
    debug_assert!(values.is_sorted(), "value lines in file order");
    let line_end = |at: usize| src[at..].find('\n').map_or(src.len(), |i| at + i + 1);
    let mut kept = String::new();
    let mut at = line_end(header);
    // The value lines before `at`, passed once: one walk of both lists.
    let mut passed = 0;
    while at < end {
        let next = line_end(at);
        while values.get(passed).is_some_and(|&v| v < at) {
            passed += 1;
        }
        if values.get(passed).is_none_or(|&v| v >= next) {
            kept.push_str(&src[at..next]);
        }
        at = next;
    }
    kept
}

/// `original` (an entity file) with the values of its version lines (`BaseVersion`,
/// `ClassVersion`) replaced by those of the canonical text `new`, and nothing else: the
/// file read as if it were at the current versions, without its migration. Loaded, it
/// tells which properties a migration changed (the others keep their lines). `None`
/// when the file's version lines are `new`'s already.
///
/// # Errors
/// A tokenizer error in `original` or `new`.
pub(crate) fn with_versions_of(
    original: &[u8],
    path: &Path,
    new: &str,
    map: &dyn KeyMap,
) -> Result<Option<Vec<u8>>, Error> {
    let mut new_buffer = TokenBuffer::new();
    let (new_doc, new_props) = properties(&mut new_buffer, new)?;
    let mut buffer = TokenBuffer::new();
    let doc = buffer.tokenize(original, path)?;
    // Positions in the document's source, which starts after a byte-order mark.
    let bom = original.len() - doc.source().len();
    let base = doc.source().as_ptr() as usize;
    let mut edits = Vec::new();
    for i in 0..doc.len() {
        let Some(version) = map
            .canonical(doc.node(i).key_crc, doc.key(i))
            .filter(|k| *k == keys::BASE_VERSION.name || *k == CLASS_VERSION.name)
        else {
            continue;
        };
        let Some(p) = new_props.iter().position(|k| *k == version) else {
            continue;
        };
        let written = lines_of(&doc, i);
        let replacement = lines_of(&new_doc, p);
        let (Some(first), Some(last), [line]) =
            (written.first(), written.last(), replacement.as_slice())
        else {
            continue;
        };
        if written != [*line] {
            let offset = |s: &str| s.as_ptr() as usize - base + bom;
            edits.push((offset(first), offset(last) + last.len(), (*line).to_owned()));
        }
    }
    Ok((!edits.is_empty()).then(|| apply_bytes(original, edits)))
}

/// What [`by_key`] sorts by: a property's key, a node's canonical key.
trait Keyed {
    /// The key.
    fn sort_key(&self) -> &str;
}

impl Keyed for &str {
    fn sort_key(&self) -> &str {
        self
    }
}

impl Keyed for Node<'_> {
    fn sort_key(&self) -> &str {
        self.canonical
    }
}

/// The indices of `items` sorted by key, and by index among those of one key (4 bytes
/// an item, where a hash map takes about 50), for [`first`].
fn by_key<T: Keyed>(items: &[T]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..items.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| {
        let (x, y) = (items[a as usize].sort_key(), items[b as usize].sort_key());
        x.cmp(y).then(a.cmp(&b))
    });
    order
}

/// The index of the first of `items` whose key is `wanted`, with `order` their
/// [`by_key`] order.
fn first<T: Keyed>(order: &[u32], items: &[T], wanted: &str) -> Option<usize> {
    let at = order.partition_point(|&i| items[i as usize].sort_key() < wanted);
    let i = *order.get(at)? as usize;
    (items[i].sort_key() == wanted).then_some(i)
}

/// `src` (a file's bytes, which may start with a byte-order mark) with `edits` made:
/// each `(start, end, text)` replaces `src[start..end]` by `text`. Sorted by position
/// first (stably, so insertions at one point keep their order, before a replacement
/// that starts there); an edit that starts inside an earlier one is dropped.
///
/// ```
/// use juliet_entities::patch::apply_bytes;
///
/// let src = b"; Mass\n2\n";
/// let edits = vec![(7, 8, "3".to_owned()), (0, 0, "# heavy\n".to_owned())];
/// assert_eq!(apply_bytes(src, edits), b"# heavy\n; Mass\n3\n");
/// ```
pub fn apply_bytes(src: &[u8], mut edits: Vec<(usize, usize, String)>) -> Vec<u8> {
    edits.sort_by_key(|e| (e.0, e.1));
    let added: usize = edits.iter().map(|e| e.2.len()).sum();
    let mut out = Vec::with_capacity(src.len() + added);
    let mut at = 0;
    for (start, end, text) in &edits {
        if *start < at {
            continue;
        }
        out.extend_from_slice(&src[at..*start]);
        out.extend_from_slice(text.as_bytes());
        at = *end;
    }
    out.extend_from_slice(&src[at..]);
    out
}

/// The line ending of lines added to the file `text`: `\r\n` when more than half of
/// its line endings are `\r\n`, else `\n` (a last line without one has no say); so
/// one stray CRLF line does not make every added line CRLF, and a CRLF file whose last
/// line is unterminated stays CRLF.
///
/// ```
/// use juliet_entities::patch::line_ending;
///
/// assert_eq!(line_ending(b"; Mass\r\n2\r\n"), "\r\n");
/// assert_eq!(line_ending(b"; Mass\r\n2\n; Health\n10"), "\n");
/// assert_eq!(line_ending(b""), "\n");
/// ```
pub fn line_ending(text: &[u8]) -> &'static str {
    let (mut lines, mut crlf) = (0, 0);
    for (i, _) in text.iter().enumerate().filter(|(_, &b)| b == b'\n') {
        lines += 1;
        crlf += usize::from(i > 0 && text[i - 1] == b'\r');
    }
    if 2 * crlf > lines {
        "\r\n"
    } else {
        "\n"
    }
}

/// A property as a block: `; key` and the value lines, each ended by `eol`.
///
/// ```
/// use juliet_entities::patch::block;
///
/// assert_eq!(block("Tags", &["red", "blue"], "\n"), "; Tags\nred\nblue\n");
/// ```
pub fn block<S: AsRef<str>>(key: &str, lines: &[S], eol: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys of a class of `Mass`, `List` (several value lines) and `Health`; an
    /// absent key means nothing.
    struct Keys;

    impl KeyMap for Keys {
        fn canonical(&self, _crc: u32, key: &str) -> Option<&'static str> {
            ["Kind", "Mass", "List", "Health"]
                .into_iter()
                .find(|k| juliet_core::keys_equal(k, key))
        }

        fn absent_means(&self, _key: &str, _lines: &[&str]) -> bool {
            false
        }
    }

    /// `original` edited from `old` to `new` with the keys of [`Keys`].
    fn edited(original: &str, old: &str, new: &str) -> String {
        let bytes = edit(original.as_bytes(), Path::new("e"), old, new, &Keys).unwrap();
        String::from_utf8(bytes).unwrap()
    }

    /// A reverted one-line property between a block and a `Key: value` line, with a
    /// block inserted in its place: the `Key: value` line gets one `; `.
    #[test]
    fn a_line_two_rules_prefix_gets_one_prefix() {
        let original = "; Kind\nInert\n; Health: 5\nMass: 1\n";
        let old = "; Kind\nInert\n; Health\n5\n; Mass\n1\n";
        let new = "; Kind\nInert\n; List\na\nb\n; Mass\n1\n";
        assert_eq!(
            edited(original, old, new),
            "; Kind\nInert\n; List\na\nb\n; Mass: 1\n"
        );
    }

    /// A new property of several value lines inserted among `Key: value` lines is a
    /// block, and the `Key: value` line after it becomes `; Key: value`, which the
    /// block cannot swallow.
    #[test]
    fn a_block_inserted_before_a_compact_line_does_not_swallow_it() {
        let original = "Kind: Inert\nMass: 1\nHealth: 2\n";
        let old = "; Kind\nInert\n; Mass\n1\n; Health\n2\n";
        let new = "; Kind\nInert\n; Mass\n1\n; List\na\nb\n; Health\n2\n";
        assert_eq!(
            edited(original, old, new),
            "Kind: Inert\nMass: 1\n; List\na\nb\n; Health: 2\n"
        );
    }

    /// A value that loses its last line at an unterminated end, with a property added
    /// after it: the line before the one that goes ends the value, no blank line.
    #[test]
    fn a_property_added_after_a_shrunk_value_at_an_unterminated_end() {
        let original = "; Kind\nInert\n; List\nq\nr";
        let old = "; Kind\nInert\n; List\nq\nr\n";
        let new = "; Kind\nInert\n; List\nz\n; Mass\n1\n";
        assert_eq!(
            edited(original, old, new),
            "; Kind\nInert\n; List\nz\n; Mass\n1\n"
        );
    }

    /// Two properties added after an unterminated last line: one line ending goes
    /// before the first, none between them (LF and CRLF).
    #[test]
    fn properties_added_at_an_unterminated_end_are_not_split_by_a_blank_line() {
        for eol in ["\n", "\r\n"] {
            let original = format!("; Kind{eol}Inert{eol}; Mass{eol}5.0");
            let old = "; Kind\nInert\n; Mass\n5.0\n";
            let new = "; Kind\nInert\n; Mass\n5.0\n; List\na\nb\n; Health\n9\n";
            assert_eq!(
                edited(&original, old, new),
                format!("{original}{eol}; List{eol}a{eol}b{eol}; Health{eol}9{eol}")
            );
        }
    }

    /// A changed value of several lines is replaced line for line: the comments and
    /// blank lines between its value lines stay, lines beyond the old ones follow the
    /// last, and old lines beyond the new ones go (CRLF kept).
    #[test]
    fn value_lines_are_replaced_line_for_line_and_comments_between_stay() {
        let original = "; Kind\nInert\n; List\nalpha\n# keep me\n\nbeta\n; Mass\n1\n";
        let old = "; Kind\nInert\n; List\nalpha\nbeta\n; Mass\n1\n";
        let longer = "; Kind\nInert\n; List\nalpha\nbeta\ngamma\n; Mass\n1\n";
        assert_eq!(
            edited(original, old, longer),
            "; Kind\nInert\n; List\nalpha\n# keep me\n\nbeta\ngamma\n; Mass\n1\n"
        );
        let shorter = "; Kind\nInert\n; List\ndelta\n; Mass\n1\n";
        assert_eq!(
            edited(original, old, shorter),
            "; Kind\nInert\n; List\ndelta\n# keep me\n\n; Mass\n1\n"
        );
        let crlf = original.replace('\n', "\r\n");
        assert_eq!(
            edited(&crlf, old, longer),
            "; Kind\nInert\n; List\nalpha\n# keep me\n\nbeta\ngamma\n; Mass\n1\n"
                .replace('\n', "\r\n")
        );
    }

    /// Added lines end as most lines of the file do: one stray CRLF line in an LF file
    /// does not make them CRLF, and one LF line in a CRLF file does not make them LF.
    #[test]
    fn added_lines_take_the_line_ending_of_most_lines() {
        let old = "; Kind\nInert\n; Mass\n1\n";
        let new = "; Kind\nInert\n; Mass\n1\n; Health\n5\n";
        let mostly_lf = "; Kind\r\nInert\n; Mass\n1\n";
        assert_eq!(
            edited(mostly_lf, old, new),
            "; Kind\r\nInert\n; Mass\n1\n; Health\n5\n"
        );
        let mostly_crlf = "; Kind\r\nInert\r\n; Mass\r\n1\n";
        assert_eq!(
            edited(mostly_crlf, old, new),
            "; Kind\r\nInert\r\n; Mass\r\n1\n; Health\r\n5\r\n"
        );
        // Half is not most; a last line without a line ending has no say.
        assert_eq!(line_ending(b"a\r\nb\n"), "\n");
        assert_eq!(line_ending(b"a\r\nb\nc"), "\n");
        assert_eq!(line_ending(b"a\r\nb"), "\r\n");
        assert_eq!(line_ending(b"a\r\nb\r\nc"), "\r\n");
        assert_eq!(line_ending(b"a"), "\n");
        assert_eq!(line_ending(b""), "\n");
        // A CRLF file whose last line is unterminated gets CRLF lines.
        let unterminated = "; Kind\r\nInert\r\n; Mass\r\n1";
        assert_eq!(
            edited(unterminated, old, new),
            "; Kind\r\nInert\r\n; Mass\r\n1\r\n; Health\r\n5\r\n"
        );
    }
}
