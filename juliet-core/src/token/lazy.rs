//! The canonical reading of a [`Document`]: while a file is in the writer's canonical
//! form (`; Key` exactly as [`crate::write_header`] writes it, then one value line, then
//! the next header or the end), each property a loader asks for becomes a node straight
//! from the text, with no tokenizing. A property is read this way only when the
//! tokenizer would make exactly that node of it (the same key, value line, line and
//! column), so the nodes of a document do not depend on how they were made; at the
//! first other line the tokenizer makes them all ([`Document::tokenize_rest`]).
//! docs/design.md, section 4.3.

use super::{Document, LineForm, PropertyNode};
use crate::crc::Key;
use crate::value::ValueSpan;

/// `ClassVersion` (the archive's `CLASS_VERSION`, named here so that the tokenizer does
/// not depend on the archive).
const CLASS_VERSION: Key = Key::new("ClassVersion");

/// Where the canonical reading of a document is: the start of the next property line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Lazy {
    /// Byte offset of the next line (at a `;`, or not canonical).
    pos: u32,
    /// Its 1-based line number.
    line: u32,
}

impl Lazy {
    /// The start of a file.
    pub(crate) fn start() -> Lazy {
        Lazy { pos: 0, line: 1 }
    }
}

/// One property in canonical form, found but not yet made a node.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Canonical<'a> {
    /// The key as written (after `; `).
    pub(crate) key: &'a [u8],
    /// Byte range of the value line.
    value_start: u32,
    value_len: u32,
    /// Offset of the line after the value (the file's length at the end).
    next: u32,
}

impl Canonical<'_> {
    /// The value line's span, at `line` (the header's line is the one before).
    #[inline(always)]
    pub(crate) fn value_span(&self, line: u32) -> ValueSpan {
        ValueSpan {
            start: self.value_start,
            len: self.value_len,
            line,
            column: 1,
        }
    }
}

impl<'a> Document<'a> {
    /// The next property when the document is being filled and that property is in
    /// canonical form; `None` when it is complete or the text there is not canonical
    /// (the caller then completes it through the tokenizer).
    #[inline(always)]
    pub(crate) fn canonical_next(&self) -> Option<Canonical<'a>> {
        let at = self.lazy?.pos as usize;
        let bytes = self.src.as_bytes();
        let rest = &bytes[at..];
        if rest.len() < 3 || rest[0] != b';' || rest[1] != b' ' {
            return None;
        }
        let key_end = self.line_end(at + 2);
        if key_end == at + 2 || key_end + 1 >= bytes.len() {
            return None;
        }
        self.canonical_value(at + 2, key_end)
    }

    /// The next property when the document is being filled and that property is the
    /// block `; {key}` in canonical form ([`Document::canonical_next`] for a known key:
    /// no scan of the header line).
    #[inline(always)]
    pub(crate) fn canonical_keyed(&self, key: &str) -> Option<Canonical<'a>> {
        let at = self.lazy?.pos as usize;
        let bytes = self.src.as_bytes();
        let rest = &bytes[at..];
        let n = key.len();
        if rest.len() < n + 4
            || rest[0] != b';'
            || rest[1] != b' '
            || rest[2 + n] != b'\n'
            || !same_bytes(&rest[2..2 + n], key.as_bytes())
        {
            return None;
        }
        self.canonical_value(at + 2, at + 2 + n)
    }

    /// The rest of [`Document::canonical_next`] once the header's key is known to span
    /// `key_start..key_end` (`key_end` at its `\n`).
    #[inline(always)]
    fn canonical_value(&self, key_start: usize, key_end: usize) -> Option<Canonical<'a>> {
        let bytes = self.src.as_bytes();
        let start = key_end + 1;
        let end = self.line_end(start);
        if end <= start
            || EDGE[usize::from(bytes[start])] & FIRST != 0
            || EDGE[usize::from(bytes[end - 1])] & LAST != 0
        {
            return None;
        }
        let next = end + 1;
        if bytes.get(next).is_some_and(|&b| b != b';') {
            return None;
        }
        Some(Canonical {
            key: &bytes[key_start..key_end],
            value_start: start as u32,
            value_len: (end - start) as u32,
            next: next.min(bytes.len()) as u32,
        })
    }

    /// Makes `found` (the [`Document::canonical_next`] property) the next node, keyed
    /// `crc` (the CRC of its key, which the caller matched), `consumed` or not, and
    /// returns its index. The
    /// document is complete once the last property is made.
    #[inline(always)]
    pub(crate) fn push_canonical(
        &mut self,
        found: Canonical<'a>,
        crc: u32,
        consumed: bool,
    ) -> usize {
        let Some(lazy) = &mut self.lazy else {
            unreachable!("push_canonical on a complete document");
        };
        let line = lazy.line;
        let key_start = found.value_start - 1 - found.key.len() as u32;
        let index = self.buf.nodes.len();
        self.buf.nodes.push(PropertyNode {
            key_crc: crc,
            key_start,
            key_len: found.key.len() as u32,
            line,
            values_start: self.buf.values.len() as u32,
            column: 3,
            values_len: 1,
            consumed,
            form: LineForm::Block,
        });
        self.buf.values.push(found.value_span(line + 1));
        if crc == CLASS_VERSION.crc && found.key == CLASS_VERSION.name.as_bytes() {
            self.version_node = index as u32;
        }
        if found.next as usize == self.src.len() {
            self.lazy = None;
        } else {
            *lazy = Lazy {
                pos: found.next,
                line: line + 2,
            };
        }
        index
    }

    /// When the document is being filled and its next property is `key` in canonical
    /// form (spelled exactly `key.name`), makes its node and returns its index (not
    /// consumed); `None` otherwise, changing nothing. What a loader reading keys in a
    /// known order asks first, before it looks at the whole file.
    ///
    /// `key.name` must be an ASCII identifier (as every base key and derived key is):
    /// another key is never taken, so that the node is the one the tokenizer makes.
    #[inline]
    pub fn take_canonical(&mut self, key: Key) -> Option<usize> {
        if !crate::crc::is_identifier(key.name.as_bytes()) {
            return None;
        }
        let found = self.canonical_keyed(key.name)?;
        Some(self.push_canonical(found, key.crc, false))
    }

    /// The line of the next property of the canonical reading (0 when complete).
    #[inline(always)]
    pub(crate) fn canonical_line(&self) -> u32 {
        self.lazy.map_or(0, |l| l.line)
    }

    /// The node of `ClassVersion` when the canonical reading made it.
    #[inline(always)]
    pub(crate) fn version_node(&self) -> Option<usize> {
        (self.version_node != u32::MAX).then_some(self.version_node as usize)
    }

    /// Whether nodes are still to be made (the document is being filled).
    #[inline(always)]
    pub(crate) fn is_filling(&self) -> bool {
        self.lazy.is_some()
    }

    /// How many nodes are made so far (all of them once complete).
    #[inline(always)]
    pub(crate) fn made(&self) -> usize {
        self.buf.nodes.len()
    }

    /// The key of node `index` as written, as bytes (no character-boundary checks).
    #[inline(always)]
    pub(crate) fn key_bytes(&self, index: usize) -> &'a [u8] {
        let n = &self.buf.nodes[index];
        let start = n.key_start as usize;
        &self.src.as_bytes()[start..start + n.key_len as usize]
    }

    /// The nodes made so far (all of them once complete).
    #[inline(always)]
    pub(crate) fn made_nodes(&self) -> &[PropertyNode] {
        &self.buf.nodes
    }

    /// Offset of the first `\n` at or after `from`, or the length of the text (the
    /// newline masks of the scan that checked the text: a bit scan per line).
    #[inline(always)]
    fn line_end(&self, from: usize) -> usize {
        let masks = &self.buf.masks;
        let mut word = from / 64;
        let mut bits = match masks.get(word) {
            Some(&w) => w >> (from % 64),
            None => return self.src.len(),
        };
        if bits != 0 {
            return from + bits.trailing_zeros() as usize;
        }
        loop {
            word += 1;
            bits = match masks.get(word) {
                Some(&w) => w,
                None => return self.src.len(),
            };
            if bits != 0 {
                return word * 64 + bits.trailing_zeros() as usize;
            }
        }
    }
}

/// Whether `a` and `b` (at most a few dozen bytes: keys) are equal: overlapping word
/// loads for the common lengths, no call.
#[inline(always)]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().expect("8"));
    let half = |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().expect("4"));
    match n {
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        0..=3 => a == b,
        _ => word(a, 0) == word(b, 0) && word(a, 8) == word(b, 8) && a[16..] == b[16..],
    }
}

/// The consumed flags of the nodes made so far, to put back on the tokenizer's nodes.
pub(super) fn consumed_flags(nodes: &[PropertyNode]) -> Vec<bool> {
    nodes.iter().map(|n| n.consumed).collect()
}

/// Puts [`consumed_flags`] back.
pub(super) fn restore_consumed(nodes: &mut [PropertyNode], flags: Vec<bool>) {
    for (n, consumed) in nodes.iter_mut().zip(flags) {
        n.consumed = consumed;
    }
}

/// `bytes` as text when it is UTF-8 without a NUL byte (the files with non-ASCII text).
#[inline(never)]
pub(super) fn utf8_without_nul(bytes: &[u8]) -> Option<&str> {
    if memchr::memchr(0, bytes).is_some() {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

/// [`EDGE`] bit: a value line cannot start with this byte (blank, comment, header).
const FIRST: u8 = 1;
/// [`EDGE`] bit: a value line cannot end with this byte (the tokenizer trims it).
const LAST: u8 = 2;

/// What each byte may not be at the edges of a value line read in canonical form.
static EDGE: [u8; 256] = {
    let mut table = [0u8; 256];
    table[b' ' as usize] = FIRST | LAST;
    table[b'\t' as usize] = FIRST | LAST;
    table[b'\r' as usize] = LAST;
    table[b'#' as usize] = FIRST;
    table[b';' as usize] = FIRST;
    table[b'/' as usize] = FIRST;
    // A merge conflict marker is an error only the tokenizer reports.
    table[b'<' as usize] = FIRST;
    table[b'|' as usize] = FIRST;
    table[b'=' as usize] = FIRST;
    table[b'>' as usize] = FIRST;
    table
};
