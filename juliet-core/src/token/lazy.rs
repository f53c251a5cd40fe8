//! The canonical reading of a [`Document`]: while a file is in the writer's canonical
//! form, or close to it, each property a loader asks for is read straight from the
//! text, with no tokenizing. The forms read so are:
//!
//! * the block `; Key` (exactly as [`crate::write_header`] writes it) with its value
//!   lines (up to [`LONG_BLOCK`] of them), and the inline header `; Key: value`;
//! * between properties, blank lines (`\n` alone) and comment lines (`#` or `//` first).
//!
//! A property is read this way only when the tokenizer would make exactly that node of
//! it (the same key, value lines, line, column and form), so the nodes of a document do
//! not depend on how they were made; at the first other line the tokenizer makes them
//! all ([`Document::tokenize_rest`]). docs/design.md, section 4.3.

use super::{Document, LineForm, PropertyNode, LONG_BLOCK};
use crate::crc::Key;
use crate::value::ValueSpan;

/// `ClassVersion` (the archive's `CLASS_VERSION`, named here so that the tokenizer does
/// not depend on the archive).
const CLASS_VERSION: Key = Key::new(juliet_key::CLASS_VERSION);

/// Where the canonical reading of a document is: the start of the next property line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Lazy {
    /// Byte offset of the next line (at a `;`, or not canonical).
    pos: u32,
    /// Its 1-based line number.
    line: u32,
}

impl Lazy {
    /// The start of the file `src`: its first line past blank lines and comments when
    /// a header follows them, else the first line (which the canonical reading then
    /// does not take); `None` for a file of blank lines and comments alone.
    pub(crate) fn start(src: &str, masks: &[u64]) -> Option<Lazy> {
        match next_header(src.as_bytes(), masks, 0, 1) {
            Some((pos, line)) => ((pos as usize) < src.len()).then_some(Lazy { pos, line }),
            None => Some(Lazy { pos: 0, line: 1 }),
        }
    }
}

/// One property in canonical form, found but not yet made a node.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Canonical<'a> {
    /// The key as written (after `; `).
    pub(crate) key: &'a [u8],
    /// Byte range of the value line (of all of them, `\n` between, for a block of
    /// several: then `value_len` is marked [`ValueSpan::SEVERAL_LINES`]).
    value_start: u32,
    value_len: u32,
    /// Offset of the next header (the file's length when none follows).
    next: u32,
    /// Its 1-based line.
    next_line: u32,
    /// The 1-based line of the header.
    line: u32,
    /// The 1-based line of the value.
    value_line: u32,
    /// Whether the property is an inline header (`; Key: value`), else a block.
    inline: bool,
}

impl Canonical<'_> {
    /// The 1-based line of the value line.
    #[inline(always)]
    pub(crate) fn value_line(&self) -> u32 {
        self.value_line
    }

    /// The value line's span: on the line after the header's for a block, after the
    /// `: ` of an inline header. For a block of several lines, from the start of the
    /// first to the end of the last, marked [`ValueSpan::SEVERAL_LINES`].
    #[inline(always)]
    pub(crate) fn value_span(&self) -> ValueSpan {
        ValueSpan {
            start: self.value_start,
            len: self.value_len,
        }
    }
}

impl<'a> Document<'a> {
    /// Where the canonical reading is: the offset and the 1-based line of the next
    /// property line, with the text's bytes; `None` when the document is complete.
    #[inline(always)]
    fn reading_at(&self) -> Option<(usize, u32, &'a [u8])> {
        let lazy = self.lazy?;
        Some((lazy.pos as usize, lazy.line, self.src.as_bytes()))
    }

    /// The next property when the document is being filled and that property is in
    /// canonical form; `None` when it is complete or the text there is not canonical
    /// (the caller then completes it through the tokenizer).
    #[inline(always)]
    pub(crate) fn canonical_next(&self) -> Option<Canonical<'a>> {
        let (at, line, bytes) = self.reading_at()?;
        if bytes.len() - at < 3 || bytes[at] != b';' || bytes[at + 1] != b' ' {
            return None;
        }
        let key_end = at
            + 2
            + bytes[at + 2..]
                .iter()
                .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'.'))?;
        if key_end == at + 2 || key_end + 1 >= bytes.len() {
            return None;
        }
        self.canonical_property(at + 2, key_end, line)
    }

    /// The next property when the document is being filled and that property is `key`
    /// in canonical form ([`Document::canonical_next`] for a known key: no scan of the
    /// header line).
    #[inline(always)]
    pub(crate) fn canonical_keyed(&self, key: &str) -> Option<Canonical<'a>> {
        let (at, line, bytes) = self.reading_at()?;
        let n = key.len();
        if bytes.len() - at < n + 4
            || bytes[at] != b';'
            || bytes[at + 1] != b' '
            || !same_bytes(&bytes[at + 2..at + 2 + n], key.as_bytes())
        {
            return None;
        }
        self.canonical_property(at + 2, at + 2 + n, line)
    }

    /// [`Document::canonical_keyed`] of the key of the block header `header` (`"; "`,
    /// a key, `"\n"`): one compare of the header for a block.
    #[inline(always)]
    pub(crate) fn canonical_header(&self, header: &str) -> Option<Canonical<'a>> {
        let (at, line, bytes) = self.reading_at()?;
        let n = header.len();
        if bytes.len() - at < n + 1 {
            return None;
        }
        if same_bytes(&bytes[at..at + n], header.as_bytes()) {
            return self.canonical_block(at + 2, at + n - 1, line);
        }
        // `; Key: value`, the inline header.
        if bytes[at + n - 1] != b':'
            || !same_bytes(&bytes[at..at + n - 1], &header.as_bytes()[..n - 1])
        {
            return None;
        }
        self.canonical_inline(at + 2, at + n - 1, line)
    }

    /// The rest of [`Document::canonical_next`] once the key is known to span
    /// `key_start..key_end` on line `line`, with a byte after it: a block when that
    /// byte is `\n`, an inline header when it starts `: `.
    #[inline(always)]
    fn canonical_property(
        &self,
        key_start: usize,
        key_end: usize,
        line: u32,
    ) -> Option<Canonical<'a>> {
        if self.src.as_bytes()[key_end] == b'\n' {
            self.canonical_block(key_start, key_end, line)
        } else {
            self.canonical_inline(key_start, key_end, line)
        }
    }

    /// [`Document::canonical_property`] of a block: `key_end` at the header's `\n`,
    /// which is not the text's last byte.
    #[inline(always)]
    fn canonical_block(
        &self,
        key_start: usize,
        key_end: usize,
        line: u32,
    ) -> Option<Canonical<'a>> {
        self.canonical_value(key_start, key_end, key_end + 1, line, false)
    }

    /// [`Document::canonical_property`] of an inline header: `key_end` at the byte
    /// after the key, which must start `: `.
    #[inline(always)]
    fn canonical_inline(
        &self,
        key_start: usize,
        key_end: usize,
        line: u32,
    ) -> Option<Canonical<'a>> {
        let bytes = self.src.as_bytes();
        if bytes[key_end] != b':' || bytes.get(key_end + 1) != Some(&b' ') {
            return None;
        }
        self.canonical_value(key_start, key_end, key_end + 2, line, true)
    }

    /// The property whose key spans `key_start..key_end` on line `line` and whose value
    /// line starts at `start` (on the same line when `inline`), when that line and what
    /// follows it are canonical.
    #[inline(always)]
    fn canonical_value(
        &self,
        key_start: usize,
        key_end: usize,
        start: usize,
        line: u32,
        inline: bool,
    ) -> Option<Canonical<'a>> {
        let bytes = self.src.as_bytes();
        let end = self.line_end(start);
        // An empty value line starts with its `\n` (or is past the end): refused as a
        // first byte, so `end - 1` is in the line when it is taken.
        let first = bytes.get(start).copied().unwrap_or(b'\n');
        let last = bytes[end - 1];
        if (EDGE[usize::from(first)] & FIRST) | (EDGE[usize::from(last)] & LAST) != 0 {
            return None;
        }
        let value_line = if inline { line } else { line + 1 };
        let (next, next_line, value_len) =
            match next_header(bytes, &self.buf.masks, end + 1, value_line + 1) {
                Some((next, next_line)) => (next, next_line, (end - start) as u32),
                None if !inline => {
                    more_value_lines(bytes, &self.buf.masks, start, end, value_line)?
                }
                None => return None,
            };
        Some(Canonical {
            key: &bytes[key_start..key_end],
            value_start: start as u32,
            value_len,
            next,
            next_line,
            line,
            value_line,
            inline,
        })
    }

    /// Makes `found` (the [`Document::canonical_next`] property) the next node, keyed
    /// `crc` (the CRC of its key, which the caller matched), not consumed, and returns
    /// its index. Only before any property bound without a node
    /// ([`Document::bind_canonical`]), so that node indices are the tokenizer's.
    #[inline(always)]
    pub(crate) fn push_canonical(&mut self, found: Canonical<'a>, crc: u32) -> usize {
        debug_assert_eq!(self.unmade, 0, "a node made after an unmade one");
        let index = self.buf.nodes.len();
        self.push_node(found, crc, false);
        if crc == CLASS_VERSION.crc && found.key == CLASS_VERSION.name.as_bytes() {
            self.version_node = index as u32;
        }
        self.advance(found);
        index
    }

    /// Pushes the node of `found` (keyed `crc`, `consumed` or not) and its value spans.
    #[inline(always)]
    fn push_node(&mut self, found: Canonical<'a>, crc: u32, consumed: bool) {
        let values = self.buf.values.len();
        let lines = line_count(self.src, found);
        let node = canonical_node(found, crc, values, consumed, lines);
        self.buf.nodes.push(node);
        push_value_spans(&mut self.buf.values, self.src, found);
    }

    /// Binds `found` (the [`Document::canonical_next`] property, keyed `crc`, the CRC
    /// of its key, which the caller matched): consumed, without a node (the tokenizer
    /// makes it if the document is completed) unless [`Document::keep_nodes`] asked for
    /// nodes. Its node, made or not, follows every node made so far.
    #[inline(always)]
    pub(crate) fn bind_canonical(&mut self, found: Canonical<'a>, crc: u32) {
        if self.keep_nodes {
            self.push_node(found, crc, true);
        } else {
            #[cfg(debug_assertions)]
            self.buf.unmade.push((
                canonical_node(found, crc, 0, true, line_count(self.src, found)),
                found.value_span().region(),
            ));
            self.unmade += 1;
        }
        self.advance(found);
    }

    /// How many properties are bound without a node (all of them consumed, right after
    /// the nodes made): the nodes of the file so far are `made() + unmade()`.
    #[inline(always)]
    pub(crate) fn unmade(&self) -> usize {
        self.unmade as usize
    }

    /// Moves the canonical reading past `found`: the document is read to the end once
    /// the last property is.
    #[inline(always)]
    fn advance(&mut self, found: Canonical<'a>) {
        self.lazy = ((found.next as usize) < self.src.len()).then_some(Lazy {
            pos: found.next,
            line: found.next_line,
        });
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
        if self.unmade > 0 || !crate::crc::is_identifier(key.name.as_bytes()) {
            return None;
        }
        let found = self.canonical_keyed(key.name)?;
        Some(self.push_canonical(found, key.crc))
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

    /// Offset of the first `\n` at or after `from`, or the length of the text.
    #[inline(always)]
    fn line_end(&self, from: usize) -> usize {
        line_end(&self.buf.masks, self.src.len(), from)
    }
}

/// Offset of the first `\n` at or after `from` in a text of `len` bytes whose newline
/// masks (of the scan that checked it) are `masks`, or `len`: a bit scan per line.
#[inline(always)]
fn line_end(masks: &[u64], len: usize, from: usize) -> usize {
    let mut word = from / 64;
    let mut bits = match masks.get(word) {
        Some(&w) => w >> (from % 64),
        None => return len,
    };
    if bits != 0 {
        return from + bits.trailing_zeros() as usize;
    }
    loop {
        word += 1;
        bits = match masks.get(word) {
            Some(&w) => w,
            None => return len,
        };
        if bits != 0 {
            return word * 64 + bits.trailing_zeros() as usize;
        }
    }
}

/// Where the next header is after a property that ends before `at`, with the line
/// number of `at` (`line`): past blank lines and comments, at a `;` (the file's length
/// when the file ends first); `None` when another line comes first (a second value
/// line, a compact property, ...: the tokenizer reads those).
#[inline(always)]
fn next_header(bytes: &[u8], masks: &[u64], at: usize, line: u32) -> Option<(u32, u32)> {
    match bytes.get(at) {
        Some(b';') => Some((at as u32, line)),
        None => Some((bytes.len() as u32, line)),
        Some(_) => past_ignored(bytes, masks, at, line),
    }
}

/// The value lines of a block after its first one (which starts at `start` and ends
/// at `end`, on line `line`), while each is in canonical form (not blank, no comment,
/// header or conflict marker, no blank or `\r` at either end): the next header past
/// them, its line, and the length of the block's lines from `start` marked
/// [`ValueSpan::SEVERAL_LINES`]. `None` when a line is not canonical, a value line
/// follows a blank or comment line (the tokenizer reads those), or the block has more
/// than [`LONG_BLOCK`] lines (the tokenizer keeps those as one region) or 2 GiB.
#[inline(never)]
fn more_value_lines(
    bytes: &[u8],
    masks: &[u64],
    start: usize,
    mut end: usize,
    mut line: u32,
) -> Option<(u32, u32, u32)> {
    let mut lines = 1;
    // The newlines after `end`, one mask word at a time, the ones passed cleared.
    let mut word = (end + 1) / 64;
    let mut newlines = masks
        .get(word)
        .map_or(0, |&w| w & (u64::MAX << ((end + 1) % 64)));
    loop {
        let at = end + 1;
        let first = bytes.get(at).copied().unwrap_or(b';');
        if EDGE[usize::from(first)] & FIRST != 0 {
            let (next, next_line) = next_header(bytes, masks, at, line + 1)?;
            let len = u32::try_from(end - start).ok()?;
            if lines == 1 || len & ValueSpan::SEVERAL_LINES != 0 {
                return None;
            }
            return Some((next, next_line, len | ValueSpan::SEVERAL_LINES));
        }
        // The line's end: its newline, or the text's end after the last one.
        let line_end = loop {
            if newlines != 0 {
                break word * 64 + newlines.trailing_zeros() as usize;
            }
            word += 1;
            match masks.get(word) {
                Some(&w) => newlines = w,
                None => break bytes.len(),
            }
        };
        newlines &= newlines.wrapping_sub(1);
        if EDGE[usize::from(bytes[line_end - 1])] & LAST != 0 || lines >= LONG_BLOCK {
            return None;
        }
        (end, line, lines) = (line_end, line + 1, lines + 1);
    }
}

/// How many value lines `found` has.
#[inline(always)]
fn line_count(src: &str, found: Canonical<'_>) -> u32 {
    if found.value_len & ValueSpan::SEVERAL_LINES == 0 {
        return 1;
    }
    block_line_count(src, found.value_span().region())
}

/// [`line_count`] of a block of several lines, `region` spanning them.
#[inline(never)]
fn block_line_count(src: &str, region: ValueSpan) -> u32 {
    let start = region.start as usize;
    let text = &src.as_bytes()[start..start + region.len as usize];
    1 + memchr::memchr_iter(b'\n', text).count() as u32
}

/// Pushes the span of each value line of `found` (in the text `src`) onto `values`.
#[inline(always)]
fn push_value_spans(values: &mut Vec<ValueSpan>, src: &str, found: Canonical<'_>) {
    if found.value_len & ValueSpan::SEVERAL_LINES == 0 {
        values.push(found.value_span());
    } else {
        push_block_spans(values, src, found.value_span().region());
    }
}

/// [`push_value_spans`] of a block of several lines, `region` spanning them all.
#[inline(never)]
fn push_block_spans(values: &mut Vec<ValueSpan>, src: &str, region: ValueSpan) {
    let mut start = region.start as usize;
    let end = start + region.len as usize;
    for line in src[start..end].split('\n') {
        values.push(ValueSpan {
            start: start as u32,
            len: line.len() as u32,
        });
        start += line.len() + 1;
    }
}

/// [`next_header`] past blank lines and comments, out of line.
#[inline(never)]
fn past_ignored(bytes: &[u8], masks: &[u64], mut at: usize, mut line: u32) -> Option<(u32, u32)> {
    loop {
        match bytes.get(at) {
            Some(b';') => return Some((at as u32, line)),
            None => return Some((bytes.len() as u32, line)),
            Some(b'\n' | b'#') => {}
            Some(b'/') if bytes.get(at + 1) == Some(&b'/') => {}
            Some(_) => return None,
        }
        at = line_end(masks, bytes.len(), at) + 1;
        line += 1;
    }
}

/// The node the tokenizer makes of `found`, a block keyed `crc`, its value line at
/// `values_start`.
#[inline(always)]
fn canonical_node(
    found: Canonical<'_>,
    crc: u32,
    values_start: usize,
    consumed: bool,
    lines: u32,
) -> PropertyNode {
    PropertyNode {
        key_crc: crc,
        // The value follows `\n` after a block's key, `: ` after an inline header's.
        key_start: found.value_start - 1 - u32::from(found.inline) - found.key.len() as u32,
        key_len: found.key.len() as u32,
        line: found.line,
        values_start: values_start as u32,
        column: 3,
        values_len: lines,
        consumed,
        form: if found.inline {
            LineForm::Inline
        } else {
            LineForm::Block
        },
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
        17..=24 => {
            word(a, 0) == word(b, 0) && word(a, 8) == word(b, 8) && word(a, n - 8) == word(b, n - 8)
        }
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

/// [`EDGE`] bit: a value line cannot start with this byte (empty, blank, comment,
/// header).
const FIRST: u8 = 1;
/// [`EDGE`] bit: a value line cannot end with this byte (the tokenizer trims it).
const LAST: u8 = 2;

/// What each byte may not be at the edges of a value line read in canonical form
/// ([`edge_class`]).
static EDGE: [u8; 256] = byte_table!(edge_class);

/// The [`EDGE`] bits of `b`.
const fn edge_class(b: u8) -> u8 {
    match b {
        b' ' | b'\t' => FIRST | LAST,
        b'\r' => LAST,
        b'\n' | b'#' | b';' | b'/' => FIRST,
        // A merge conflict marker is an error only the tokenizer reports.
        b'<' | b'|' | b'=' | b'>' => FIRST,
        _ => 0,
    }
}
