//! The plan of a save's edits: the file's properties and the canonical texts before
//! and after, read once into a [`Plan`], and the edits the rules of the patcher
//! (`rules.rs`, listed in the module documentation of [`super`]) add to it, phase by
//! phase ([`edits`]).

use std::cell::OnceCell;
use std::ops::Range;
use std::path::Path;

use juliet_core::{Document, Error, LineForm, TextEdit, TokenBuffer};

use super::KeyMap;

/// The edits that make `original` (an entity's file) hold `new` where it held `old`
/// (canonical entity texts, as `World::entity_text` writes them), following the rules
/// of the module documentation of [`super`]; for [`juliet_core::apply_edits`]. Their
/// ranges are of `original` (its byte-order mark included). The lines they add end
/// with `eol`: the [`super::line_ending`] of the whole file, of which `original` may be
/// a cut (`reduce`). `path` labels errors.
///
/// # Errors
/// A tokenizer error in `original`, `old` or `new` (a file that loaded tokenizes again).
pub(crate) fn edits(
    original: &[u8],
    path: &Path,
    old: &str,
    new: &str,
    map: &dyn KeyMap,
    eol: &str,
) -> Result<Vec<TextEdit>, Error> {
    let mut file = TokenBuffer::new();
    let mut before = TokenBuffer::new();
    let mut after = TokenBuffer::new();
    let old = Canonical::read(&mut before, old)?;
    let new = Canonical::read(&mut after, new)?;
    let mut plan = Plan::new(file.tokenize(original, path)?, old, new, map, eol);
    plan.write_changes();
    plan.write_versions();
    plan.write_deletions();
    super::rules::prefix_once(&mut plan.edits);
    plan.rename_aliases();
    Ok(plan.into_edits())
}

/// A canonical entity text, tokenized, with the key of each property in the order of
/// their keys (their value lines are read from the document when needed: not kept for
/// each of a million properties).
pub(super) struct Canonical<'a> {
    /// The text, tokenized.
    pub(super) doc: Document<'a>,
    /// The key of each property, in text order.
    pub(super) keys: Vec<&'a str>,
    /// The indices of `keys` in [`by_key`] order.
    order: Vec<u32>,
}

impl<'a> Canonical<'a> {
    /// `text` read with `buffer`.
    ///
    /// # Errors
    /// The tokenizer's error.
    pub(super) fn read(buffer: &'a mut TokenBuffer, text: &'a str) -> Result<Self, Error> {
        let doc = buffer.tokenize(text.as_bytes(), Path::new(""))?;
        let keys: Vec<&str> = (0..doc.len()).map(|i| doc.key(i)).collect();
        let order = by_key(&keys);
        Ok(Canonical { doc, keys, order })
    }

    /// The index of the first property whose key is `key`.
    pub(super) fn at(&self, key: &str) -> Option<usize> {
        first(&self.order, &self.keys, key)
    }

    /// The value lines of property `i`.
    pub(super) fn lines(&self, i: usize) -> Vec<&'a str> {
        self.doc.value_lines(i).collect()
    }
}

/// A property of the file: where its lines are and what it is.
pub(super) struct Node<'a> {
    /// The key as written.
    pub(super) key: &'a str,
    /// The canonical key, or the key as written for a key the class does not know.
    pub(super) canonical: &'a str,
    /// The whole property in the file's text ([`Document::property_span`]).
    pub(super) span: Range<usize>,
    /// Whether the value sits on the header's line (`; Key: value`, `Key: value`).
    pub(super) one_line: bool,
    /// Whether the property is a `Key: value` line (only where no block is open).
    pub(super) compact: bool,
    /// Whether `key` is an alias of the property's current key, which an edit writes.
    pub(super) alias: bool,
    /// Its index in the tokenized file (its value lines are read from there: not kept
    /// for each of a million properties).
    pub(super) index: usize,
}

/// What the rules of a save's edit look at, and the edits they make.
pub(super) struct Plan<'a> {
    /// How the file's keys map to the writer's.
    pub(super) map: &'a dyn KeyMap,
    /// The line ending of added lines.
    pub(super) eol: &'a str,
    /// The file, tokenized: positions are of its text (after a byte-order mark).
    pub(super) doc: Document<'a>,
    /// The file's properties, in file order.
    pub(super) nodes: Vec<Node<'a>>,
    /// The indices of `nodes` in [`by_key`] order of their canonical keys.
    node_order: Vec<u32>,
    /// The entity as the file held it.
    pub(super) old: Canonical<'a>,
    /// The entity now.
    pub(super) new: Canonical<'a>,
    /// Whether the edit brings the file to the current versions ([`Plan::is_migrating`]).
    pub(super) migrating: bool,
    /// Which nodes go ([`Plan::is_gone`]).
    pub(super) deleted: Vec<bool>,
    /// The separator of the file's first token list, looked for once, when a new token
    /// list is added ([`Plan::styled`]).
    pub(super) file_separator: OnceCell<Option<&'a str>>,
    /// The edits made so far, positions of the file's text.
    pub(super) edits: Vec<TextEdit>,
}

impl<'a> Plan<'a> {
    /// The plan of the edit of the file `doc` from `old` to `new`, before any edit.
    pub(super) fn new(
        doc: Document<'a>,
        old: Canonical<'a>,
        new: Canonical<'a>,
        map: &'a dyn KeyMap,
        eol: &'a str,
    ) -> Plan<'a> {
        let nodes: Vec<Node<'a>> = (0..doc.len())
            .map(|i| {
                let (key, crc, form) = (doc.key(i), doc.node(i).key_crc, doc.node(i).form);
                Node {
                    key,
                    canonical: map.canonical(crc, key).unwrap_or(key),
                    span: doc.property_span(i),
                    one_line: form != LineForm::Block,
                    compact: form == LineForm::Compact,
                    alias: map.is_alias(crc, key),
                    index: i,
                }
            })
            .collect();
        let node_order = by_key(&nodes);
        let mut plan = Plan {
            map,
            eol,
            doc,
            nodes,
            node_order,
            old,
            new,
            migrating: false,
            deleted: Vec::new(),
            file_separator: OnceCell::new(),
            edits: Vec::new(),
        };
        plan.migrating = plan.is_migrating();
        plan.deleted = (plan.nodes.iter()).map(|n| plan.is_gone(n)).collect();
        plan
    }

    /// The file's text (after a byte-order mark).
    pub(super) fn src(&self) -> &'a str {
        self.doc.source()
    }

    /// The first node whose canonical key is `key` (a binary search: a file of a
    /// million keys is not searched through for each of its keys).
    pub(super) fn node_of(&self, key: &str) -> Option<usize> {
        first(&self.node_order, &self.nodes, key)
    }

    /// Whether node `i`'s value lines are `lines`.
    pub(super) fn same_lines(&self, i: usize, lines: &[&str]) -> bool {
        self.doc.value(i).lines().eq(lines.iter().copied())
    }

    /// The first phase: each property of the new text keeps its lines, gets its value
    /// replaced, or (new) is inserted after the last, in the file, of the properties
    /// before it in the writer's order.
    fn write_changes(&mut self) {
        let mut previous: Option<usize> = None;
        for p in 0..self.new.keys.len() {
            let key = self.new.keys[p];
            let lines = self.new.lines(p);
            let Some(n) = self.node_of(key) else {
                if !self.map.absent_means(key, &lines) {
                    self.insert(key, &lines, previous);
                }
                continue;
            };
            if previous.is_none_or(|q| self.nodes[q].span.end < self.nodes[n].span.end) {
                previous = Some(n);
            }
            if !self.keeps(n, key, &lines) {
                self.replace_value(n, key, &lines);
            }
        }
    }

    /// The second phase: a version line the new text has none of, kept while migrating
    /// ([`Plan::version_now`]), is set to the current version.
    fn write_versions(&mut self) {
        for i in 0..self.nodes.len() {
            let node = &self.nodes[i];
            if let (None, Some(version)) = (self.new.at(node.canonical), self.version_now(node)) {
                let (index, version) = (node.index, version.to_string());
                if !self.same_lines(index, &[version.as_str()]) {
                    self.value_line_edits(index, &[version.as_str()]);
                }
            }
        }
    }

    /// The third phase: the nodes that go ([`Plan::is_gone`]) are deleted.
    fn write_deletions(&mut self) {
        for i in 0..self.nodes.len() {
            if self.deleted[i] {
                self.delete(i);
            }
        }
    }

    /// The edits, their positions moved from the file's text to its bytes (past a
    /// byte-order mark).
    fn into_edits(self) -> Vec<TextEdit> {
        let offset = self.doc.source_offset();
        let mut edits = self.edits;
        for edit in &mut edits {
            edit.range = edit.range.start + offset..edit.range.end + offset;
        }
        edits
    }
}

/// What [`by_key`] sorts by: a property's key, a node's canonical key.
pub(super) trait Keyed {
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
