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
    pub(crate) key: &'a str,
    /// Byte range of the value line.
    value_start: u32,
    value_len: u32,
    /// Offset of the line after the value (the file's length at the end).
    next: u32,
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
        let start = key_end + 1;
        if key_end == at + 2 || start >= bytes.len() {
            return None;
        }
        let end = self.line_end(start);
        // The value line exactly as the tokenizer trims it: not empty, nothing to trim
        // at either end, no comment or header (a value starting with `/` is left to the
        // tokenizer too, which tells `//` comments from text).
        if end <= start
            || EDGE[usize::from(bytes[start])] & FIRST != 0
            || EDGE[usize::from(bytes[end - 1])] & LAST != 0
        {
            return None;
        }
        // What follows must open the next property or end the file: a second value
        // line, a comment or a blank line leaves the file to the tokenizer.
        let next = end + 1;
        if bytes.get(next).is_some_and(|&b| b != b';') {
            return None;
        }
        Some(Canonical {
            // `at + 2` and `key_end` are at ASCII bytes (`' '` and `\n`).
            key: &self.src[at + 2..key_end],
            value_start: start as u32,
            value_len: (end - start) as u32,
            next: next.min(bytes.len()) as u32,
        })
    }

    /// Makes `found` (the [`Document::canonical_next`] property) the next node, keyed
    /// `crc` (the CRC of its key, which the caller matched), and returns its index. The
    /// document is complete once the last property is made.
    #[inline(always)]
    pub(crate) fn push_canonical(&mut self, found: Canonical<'a>, crc: u32) -> usize {
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
            consumed: false,
            form: LineForm::Block,
        });
        self.buf.values.push(ValueSpan {
            start: found.value_start,
            len: found.value_len,
            line: line + 1,
            column: 1,
        });
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
        let found = self.canonical_next()?;
        (found.key == key.name).then(|| self.push_canonical(found, key.crc))
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
