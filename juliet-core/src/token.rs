//! The zero-copy tokenizer: `.jasset` bytes to [`PropertyNode`]s.
//!
//! docs/design.md, section 4.2, with the line forms of section 2.1. Nodes do not copy
//! text: they hold offsets into the source, and live in a
//! reusable [`TokenBuffer`], so tokenizing many files in a row allocates nothing once
//! the buffer has grown to the largest file. Comment and
//! blank lines between value lines are dropped, never folded into the value.

mod chain;
mod fast;
mod first;
mod lazy;
pub(crate) use lazy::{same_bytes, Canonical};
mod scan;
#[allow(unsafe_code)] // the tokenizer's byte masks
pub(crate) mod simd;
mod span;
pub use span::value_line_spans;

use std::collections::HashMap;
use std::path::Path;

use crate::crc::{Key, KeyCrcCache};
use crate::error::{shorten, Error, ErrorKind};
use crate::value::{Value, ValueSpan};

/// How a property was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineForm {
    /// `; Key` followed by value lines.
    Block,
    /// `; Key: value` on one line.
    Inline,
    /// `Key: value` on one line, outside any block.
    Compact,
}

/// One property of a tokenized file: key CRC, key text, value lines, position and the
/// consumed flag (docs/design.md, section 4.2). 32 bytes; no pointers, so a [`TokenBuffer`]
/// outlives the sources it tokenized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PropertyNode {
    /// CRC-32 of the normalized key (see [`crate::crc::key_crc`]).
    pub key_crc: u32,
    key_start: u32,
    key_len: u32,
    /// 1-based line of the key.
    pub line: u32,
    values_start: u32,
    /// 1-based column of the key, in characters.
    pub column: u32,
    values_len: u32,
    /// Whether a reader has used this property (the unconsumed-key audit reads it).
    pub consumed: bool,
    /// How the property was written.
    pub form: LineForm,
}

impl PropertyNode {
    /// Number of value lines (at least 1).
    pub fn value_count(&self) -> usize {
        (self.values_len & !LONG_BLOCK_FLAG) as usize
    }

    /// Whether the value lines are kept as one region of the text (a long block).
    #[inline(always)]
    fn is_long_block(&self) -> bool {
        self.values_len & LONG_BLOCK_FLAG != 0
    }
}

/// A block of more value lines than this keeps them as one region of the text (from
/// its first value line to its last) instead of a span each, so that a block of
/// millions of lines costs the tokenizer nothing per line; its lines are found again
/// when read ([`block_line`]).
pub(crate) const LONG_BLOCK: usize = 1024;

/// The bit of [`PropertyNode`]'s value count that marks a long block (a file under
/// 4 GiB has fewer than 2^31 lines).
const LONG_BLOCK_FLAG: u32 = 1 << 31;

/// One line of a long block as the tokenizer finds it: without its trailing blanks and
/// `\r` and its leading spaces and tabs; `None` for a blank or comment line. (Conflict
/// markers and headers end or fail a block while it is scanned, so a block holds none.)
#[inline]
pub(crate) fn block_line(line: &str) -> Option<&str> {
    value_line_range(line).map(|r| &line[r])
}

/// Where the value in `line` (one line of a block, without its `\n`) sits: the line
/// without its trailing blanks and `\r` and its leading spaces and tabs; `None` for a
/// blank or comment line.
#[inline]
pub(crate) fn value_line_range(line: &str) -> Option<std::ops::Range<usize>> {
    let end_trimmed = line.trim_end_matches([' ', '\t', '\r']);
    let l = end_trimmed.trim_start_matches([' ', '\t']);
    let start = end_trimmed.len() - l.len();
    (!(l.is_empty() || l.starts_with('#') || l.starts_with("//")))
        .then_some(start..end_trimmed.len())
}

/// Reusable storage for tokenized files. Keep one per thread and pass it to
/// [`TokenBuffer::tokenize`] for each file.
#[derive(Debug, Default)]
pub struct TokenBuffer {
    nodes: Vec<PropertyNode>,
    values: Vec<ValueSpan>,
    /// Key CRC -> index of the first node with that CRC (files of many keys only).
    seen: first::FirstOfCrc,
    /// Lines of the file being scanned (at most that many nodes).
    lines: usize,
    /// Normalized key -> line, for the keys whose CRC another, different key of the
    /// file shares (CRC-32 collisions: about a hundred in a million random keys).
    collided: HashMap<Vec<u8>, u32>,
    /// The CRCs of keys met in earlier files (world files repeat the same keys).
    keys: KeyCrcCache,
    /// Which low 10 bits of key CRCs the current file has used (duplicate pre-check).
    used: chain::SeenFilter,
    /// Scratch for the newline masks of the file, one word per 64 bytes.
    masks: Vec<u64>,
    /// Which `; Key` header follows which, in the files seen so far.
    chain: chain::KeyChain,
    /// The nodes the canonical reading bound without making them, with their value
    /// lines, to compare with the tokenizer's when it makes them.
    #[cfg(debug_assertions)]
    unmade: Vec<(PropertyNode, ValueSpan)>,
}

impl TokenBuffer {
    /// An empty buffer.
    pub fn new() -> TokenBuffer {
        TokenBuffer::default()
    }

    /// Tokenizes `bytes` (the whole file) into this buffer and returns the document.
    ///
    /// `path` only labels errors. An optional UTF-8 byte-order mark is skipped; `\n` and
    /// `\r\n` line endings are accepted.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidUtf8`], [`ErrorKind::NulByte`], [`ErrorKind::FileTooLarge`]
    /// (over 4 GiB), [`ErrorKind::InvalidKey`], [`ErrorKind::ValueWithoutProperty`],
    /// [`ErrorKind::HeaderWithoutValue`] and [`ErrorKind::DuplicateKey`], each with the
    /// path, line and column of the first problem.
    pub fn tokenize<'a>(
        &'a mut self,
        bytes: &'a [u8],
        path: &'a Path,
    ) -> Result<Document<'a>, Error> {
        self.begin_file();
        if bytes.len() >= u32::MAX as usize {
            return Err(Error::file(
                path,
                ErrorKind::FileTooLarge {
                    size: bytes.len() as u64,
                    limit: u32::MAX as u64 - 1,
                },
            ));
        }
        // The mark's length, or 0.
        let bom = if bytes.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        let bytes = &bytes[bom..];
        let src = match simd::scan_text(bytes, &mut self.masks) {
            Some(text) => text,
            // NUL or non-ASCII bytes: validated (and errors located) the slow way.
            None => scan::check_text(bytes, path)?,
        };
        self.scan_lines(src, path)?;
        Ok(Document {
            src,
            bom: bom != 0,
            path,
            buf: self,
            lazy: None,
            tokenized: true,
            version_node: u32::MAX,
            unmade: 0,
            keep_nodes: false,
        })
    }

    /// The document of `bytes` (the whole file), to be filled as a loader reads it (see
    /// [`Document`]): the text is checked and its newlines found in one pass here, and
    /// no node is made yet. A file the canonical reading cannot start on (a byte-order
    /// mark, bytes that are not UTF-8, a NUL byte) is tokenized at once, which reports
    /// or reads past them.
    ///
    /// `path` only labels errors.
    ///
    /// # Errors
    /// Those of [`TokenBuffer::tokenize`] for a file tokenized here; a document being
    /// filled reports the tokenizer's errors when it falls back to it
    /// ([`Document::complete`], [`Properties::next_property`](crate::Properties::next_property)).
    #[inline]
    pub fn document<'a>(
        &'a mut self,
        bytes: &'a [u8],
        path: &'a Path,
    ) -> Result<Document<'a>, Error> {
        let Some(src) = self.scan_canonical(bytes) else {
            return self.tokenize(bytes, path);
        };
        self.nodes.clear();
        self.values.clear();
        #[cfg(debug_assertions)]
        self.unmade.clear();
        let lazy = if src.is_empty() {
            None
        } else {
            lazy::Lazy::start(src, &self.masks)
        };
        Ok(Document {
            src,
            bom: false,
            path,
            buf: self,
            lazy,
            tokenized: false,
            version_node: u32::MAX,
            unmade: 0,
            keep_nodes: false,
        })
    }

    /// [`TokenBuffer::document`]'s check and scan: the text, with its newline masks in
    /// the scratch, or `None` for a file the canonical reading does not start on.
    #[inline]
    fn scan_canonical<'b>(&mut self, bytes: &'b [u8]) -> Option<&'b str> {
        if bytes.len() >= u32::MAX as usize {
            return None;
        }
        let src = match simd::scan_text(bytes, &mut self.masks) {
            Some(text) => text,
            None => lazy::utf8_without_nul(bytes)?,
        };
        (!src.starts_with('\u{FEFF}')).then_some(src)
    }

    /// Empties the buffer for the next file.
    #[inline(always)]
    fn begin_file(&mut self) {
        self.nodes.clear();
        self.values.clear();
        if !self.seen.is_empty() {
            self.seen.clear();
            self.collided.clear();
        }
        self.used.begin_file();
    }

    /// The lines of `src` into nodes, with the newline masks already in the scratch.
    #[inline(always)]
    fn scan_lines(&mut self, src: &str, path: &Path) -> Result<(), Error> {
        // A node and a value line take a line each at least: room for as many as the
        // file has lines, so a large file's arrays are not grown (and copied) a
        // dozen times over (the newline masks are the scan's).
        let lines = 1 + self
            .masks
            .iter()
            .map(|m| m.count_ones() as usize)
            .sum::<usize>();
        self.nodes.reserve(lines);
        self.values.reserve(lines);
        self.lines = lines;
        self.scan(src, path)?;
        if self.seen.is_large() {
            // Only the scan looks duplicates up: a large table is not kept beside the
            // document.
            self.seen.clear();
            self.collided.clear();
        }
        Ok(())
    }
}

impl TokenBuffer {
    /// Nodes (and twice as many value lines) a buffer keeps between files: what a file
    /// of this many properties needs, 2 MiB and 1 MiB.
    const KEEP_NODES: usize = 1 << 16;

    /// Gives back the memory a file of more than 65,536 properties made the buffer take,
    /// keeping what files of that size need (a buffer kept for a session of loads
    /// would otherwise hold about 40 bytes a property of its largest file). Loaders call
    /// it after such a file.
    pub fn release_large(&mut self) {
        if self.nodes.capacity() > Self::KEEP_NODES {
            self.nodes.clear();
            self.nodes.shrink_to(Self::KEEP_NODES);
        }
        if self.values.capacity() > 2 * Self::KEEP_NODES {
            self.values.clear();
            self.values.shrink_to(2 * Self::KEEP_NODES);
        }
        if self.masks.capacity() > Self::KEEP_NODES {
            self.masks.clear();
            self.masks.shrink_to(Self::KEEP_NODES);
        }
    }
}

/// The value spans of node `n` (one bounds check for the common single line); a long
/// block's one span is its region.
#[inline(always)]
fn node_spans<'v>(values: &'v [ValueSpan], n: &PropertyNode) -> &'v [ValueSpan] {
    let start = n.values_start as usize;
    if n.values_len == 1 || n.is_long_block() {
        std::slice::from_ref(&values[start])
    } else {
        &values[start..][..n.values_len as usize]
    }
}

/// Whether the value lines `spans` run from the start of `region` to its end (a
/// property the canonical reading bound, its lines as one span).
#[cfg(debug_assertions)]
fn same_region(spans: &[ValueSpan], region: &ValueSpan) -> bool {
    match (spans.first(), spans.last()) {
        (Some(first), Some(last)) => {
            first.start == region.start && last.start + last.len == region.start + region.len
        }
        _ => false,
    }
}

/// The value of node `n` of the text `src`.
#[inline(always)]
fn node_value<'v>(src: &'v str, values: &'v [ValueSpan], n: &PropertyNode) -> Value<'v> {
    let spans = node_spans(values, n);
    if n.values_len != 1 && n.is_long_block() {
        let region = spans[0];
        return Value::from_block(&src[region.start as usize..][..region.len as usize]);
    }
    Value::from_spans(src, spans)
}

/// A file's properties: the source text, its path and its property nodes, one per
/// property in file order, each with spans over the text (borrowed from a
/// [`TokenBuffer`]). docs/design.md, section 4.2.
///
/// A document from [`TokenBuffer::tokenize`] is complete: every node is made. One from
/// [`TokenBuffer::document`] fills itself as a loader reads it: while the file is in the
/// writer's canonical form or close to it (`; Key` and one value line, or `; Key: value`,
/// then blank lines or comments and the next header), each property a loader binds
/// ([`Properties`](crate::Properties)) is read
/// straight from the text and consumed, without a node (the keys left unconsumed, such
/// as `ClassVersion` and the base keys, become nodes); at the first other line the
/// tokenizer makes every node at once, those already read keeping their consumed
/// flags. The nodes are the same either way.
///
/// Two steps end the filling. [`Document::read_to_end`] reads the rest of the file
/// (the tokenizer's errors are then known, and [`Document::unconsumed`] lists what no
/// reader took); [`Document::complete`] also makes the nodes of the properties bound
/// without one. The methods that look at every node ([`Document::nodes`],
/// [`Document::find`], ...) need it complete; they panic otherwise.
#[derive(Debug)]
pub struct Document<'a> {
    src: &'a str,
    /// Whether the bytes given started with a byte-order mark, which `src` leaves out.
    bom: bool,
    path: &'a Path,
    buf: &'a mut TokenBuffer,
    /// Where the canonical reading is (`None`: complete).
    lazy: Option<lazy::Lazy>,
    /// Whether the tokenizer made the nodes (not the canonical reading alone).
    tokenized: bool,
    /// The node of `ClassVersion` when the canonical reading made it (`u32::MAX`: not):
    /// the one node of that key, which the tokenizer would make at the same index.
    version_node: u32,
    /// How many properties the canonical reading bound (consumed) without making their
    /// nodes: the ones right after the nodes made, which it makes no node after.
    unmade: u32,
    /// Whether the canonical reading makes a node of every property it binds
    /// ([`Document::keep_nodes`]).
    keep_nodes: bool,
}

impl<'a> Document<'a> {
    /// The file's path (as given to [`TokenBuffer::tokenize`]).
    #[inline]
    pub fn path(&self) -> &'a Path {
        self.path
    }

    /// The source text (after the byte-order mark).
    #[inline]
    pub fn source(&self) -> &'a str {
        self.src
    }

    /// The property nodes, in file order.
    ///
    /// # Panics
    /// When the document is not complete ([`Document::complete`]).
    #[inline]
    pub fn nodes(&self) -> &[PropertyNode] {
        self.assert_complete();
        &self.buf.nodes
    }

    /// Number of properties. Panics as [`Document::nodes`].
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes().len()
    }

    /// Whether the file has no property. Panics as [`Document::nodes`].
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.nodes().is_empty()
    }

    /// Whether every node of the file is made (see the [type docs](Document)).
    #[inline]
    pub fn is_complete(&self) -> bool {
        self.lazy.is_none() && self.unmade == 0
    }

    /// Whether the whole file is read ([`Document::read_to_end`]), its nodes made or
    /// not.
    #[inline]
    pub fn is_read_to_end(&self) -> bool {
        self.lazy.is_none()
    }

    /// Whether the tokenizer made the nodes: `false` for a file read whole in canonical
    /// form straight from its text, and for a document not complete yet.
    #[inline]
    pub fn tokenized(&self) -> bool {
        self.tokenized
    }

    /// Makes every node of the file (nothing to do when complete): the tokenizer reads
    /// the file, and the properties read so far keep their consumed flags.
    ///
    /// # Errors
    /// Those of [`TokenBuffer::tokenize`], located.
    #[inline]
    pub fn complete(&mut self) -> Result<(), Error> {
        if !self.is_complete() {
            self.tokenize_rest()?;
        }
        Ok(())
    }

    /// Reads the rest of the file (nothing to do when it is read to the end): the
    /// tokenizer reads it when it is not in canonical form. A file read whole in
    /// canonical form keeps the properties bound without a node that way: the cheap
    /// end of a load, after which the tokenizer's errors are known and
    /// [`Document::unconsumed`] lists what no reader took.
    ///
    /// # Errors
    /// Those of [`TokenBuffer::tokenize`], located.
    #[inline]
    pub fn read_to_end(&mut self) -> Result<(), Error> {
        if self.lazy.is_some() {
            self.tokenize_rest()?;
        }
        Ok(())
    }

    /// Makes the canonical reading make a node of every property it binds, for a
    /// reader that looks at the nodes after the walk (as [`Document::complete`] would,
    /// without tokenizing the file again).
    #[inline]
    pub fn keep_nodes(&mut self) {
        self.keep_nodes = true;
    }

    /// [`Document::complete`]'s work, out of line: the tokenizer makes every node, and
    /// those of the properties read so far are consumed as they were (the unmade ones
    /// consumed).
    #[cold]
    #[inline(never)]
    pub(crate) fn tokenize_rest(&mut self) -> Result<(), Error> {
        let made = self.buf.nodes.len();
        let unmade = self.unmade as usize;
        let consumed = lazy::consumed_flags(&self.buf.nodes);
        #[cfg(debug_assertions)]
        let before: Vec<PropertyNode> = self.buf.nodes.clone();
        self.buf.begin_file();
        // On a tokenizer error the document stays incomplete: asked again, it fails
        // again, and no reader sees a partial node list as the file's.
        self.buf.scan_lines(self.src, self.path)?;
        self.lazy = None;
        self.tokenized = true;
        self.unmade = 0;
        #[cfg(debug_assertions)]
        self.assert_same_nodes(&before);
        let made = made.min(self.buf.nodes.len());
        let nodes = &mut self.buf.nodes[..made];
        lazy::restore_consumed(nodes, consumed);
        let end = (made + unmade).min(self.buf.nodes.len());
        for n in &mut self.buf.nodes[made..end] {
            n.consumed = true;
        }
        Ok(())
    }

    /// Checks that the nodes the canonical reading made (`before`) and bound without
    /// making are the tokenizer's.
    #[cfg(debug_assertions)]
    fn assert_same_nodes(&mut self, before: &[PropertyNode]) {
        let unmade = std::mem::take(&mut self.buf.unmade);
        let plain = |n: &PropertyNode| PropertyNode {
            consumed: false,
            ..*n
        };
        let made = before.len();
        assert!(
            before
                .iter()
                .zip(&self.buf.nodes)
                .all(|(a, b)| plain(a) == plain(b)),
            "the canonical reading made other nodes than the tokenizer"
        );
        for (k, (node, span)) in unmade.iter().enumerate() {
            let i = made + k;
            let same = self.buf.nodes.get(i).is_some_and(|b| {
                plain(b)
                    == PropertyNode {
                        values_start: b.values_start,
                        ..plain(node)
                    }
                    && same_region(node_spans(&self.buf.values, b), span)
            });
            assert!(
                same,
                "the canonical reading bound another property than the tokenizer's node {i}"
            );
        }
    }

    #[inline(always)]
    fn assert_complete(&self) {
        assert!(
            self.is_complete(),
            "a whole-file read of a Document being filled: call Document::complete first"
        );
    }

    /// The node at `index` (panics when out of bounds, like slice indexing).
    #[inline]
    pub fn node(&self, index: usize) -> &PropertyNode {
        &self.buf.nodes[index]
    }

    /// The key of node `index` as written in the file.
    pub fn key(&self, index: usize) -> &'a str {
        let n = &self.buf.nodes[index];
        &self.src[n.key_start as usize..(n.key_start + n.key_len) as usize]
    }

    /// The value lines of node `index`.
    #[inline(always)]
    pub fn value(&self, index: usize) -> Value<'_> {
        node_value(self.src, &self.buf.values, &self.buf.nodes[index])
    }

    /// The value lines of node `index`, as slices of the source (they outlive the
    /// document, as [`Document::key`] does; where they are: [`Document::value_spans`]).
    pub fn value_lines(&self, index: usize) -> impl Iterator<Item = &'a str> + '_ {
        let src = self.src;
        self.value_spans(index).map(move |r| &src[r])
    }

    /// Index of the node whose key is `key`, marking it
    /// consumed. A linear scan: files hold few properties.
    ///
    /// Keys match exactly: the CRC is the first test and the normalized text the second,
    /// so a CRC-32 twin (`notebqpyaawg` for `health`) is another key.
    #[inline]
    pub fn find(&mut self, key: Key) -> Option<usize> {
        let index = self.peek(key)?;
        self.buf.nodes[index].consumed = true;
        Some(index)
    }

    /// Like [`Document::find`] but without marking the node consumed.
    #[inline]
    pub fn peek(&self, key: Key) -> Option<usize> {
        self.peek_text(key.crc, key.name)
    }

    /// [`Document::find`] of a key known at run time (typed by a user, read from a
    /// file): its CRC is computed here.
    #[inline]
    pub fn find_name(&mut self, name: &str) -> Option<usize> {
        let index = self.peek_name(name)?;
        self.buf.nodes[index].consumed = true;
        Some(index)
    }

    /// [`Document::peek`] of a key known at run time.
    #[inline]
    pub fn peek_name(&self, name: &str) -> Option<usize> {
        self.peek_text(crate::crc::key_crc_runtime(name.as_bytes()), name)
    }

    fn peek_text(&self, crc: u32, name: &str) -> Option<usize> {
        (0..self.len()).find(|&i| self.buf.nodes[i].key_crc == crc && self.key_is(i, name))
    }

    /// Whether node `index`'s key is `name` under any spelling (ASCII case and `_`
    /// ignored): the same text, byte for byte, or the same normalized text. Callers
    /// compare the CRC first; this is the test that tells CRC-32 twins apart.
    #[inline(always)]
    pub fn key_is(&self, index: usize, name: &str) -> bool {
        let key = self.key(index);
        key == name || crate::crc::keys_equal(key, name)
    }

    /// Marks node `index` consumed.
    #[inline]
    pub fn consume(&mut self, index: usize) {
        self.buf.nodes[index].consumed = true;
    }

    /// Decodes node `index` as a `T` into `place`, marking it consumed.
    ///
    /// # Errors
    /// [`ErrorKind::BadValue`] at the line and column of the offending text, naming the
    /// key, the expected type and the text found.
    #[inline(always)]
    pub fn decode_into<T: crate::Codec>(
        &mut self,
        index: usize,
        place: &mut T,
    ) -> Result<(), Error> {
        let n = &mut self.buf.nodes[index];
        n.consumed = true;
        let value = node_value(self.src, &self.buf.values, n);
        match place.decode_into(value) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.decode_error(index, &T::PROPERTY_TYPE, e)),
        }
    }

    /// Decodes node `index` as a new `T`, marking it consumed. Errors as
    /// [`Document::decode_into`].
    #[inline(always)]
    pub fn decode<T: crate::Codec>(&mut self, index: usize) -> Result<T, Error> {
        let n = &mut self.buf.nodes[index];
        n.consumed = true;
        let value = node_value(self.src, &self.buf.values, n);
        match T::decode(value) {
            Ok(v) => Ok(v),
            Err(e) => Err(self.decode_error(index, &T::PROPERTY_TYPE, e)),
        }
    }

    /// [`Document::value_error`] for a value expected as `expected`.
    #[cold]
    #[inline(never)]
    fn decode_error(
        &self,
        index: usize,
        expected: &crate::PropertyType,
        err: crate::ValueError<'_>,
    ) -> Error {
        self.value_error(index, &expected.to_string(), err)
    }

    /// Turns a codec's [`crate::ValueError`] on node `index` into a located [`Error`].
    pub fn value_error(&self, index: usize, expected: &str, err: crate::ValueError<'_>) -> Error {
        let n = &self.buf.nodes[index];
        let spans = node_spans(&self.buf.values, n);
        let at = (n.key_start, n.line);
        self.bad_value(spans, at, self.key(index), expected, err)
    }

    /// [`Document::value_error`] of a property with value lines `spans` (at least one)
    /// and key `key`, made a node or not; `at` is a byte of the source at or before
    /// the value lines and its 1-based line (the key's, or the value line's).
    pub(crate) fn bad_value(
        &self,
        spans: &[ValueSpan],
        at: (u32, u32),
        key: &str,
        expected: &str,
        err: crate::ValueError<'_>,
    ) -> Error {
        let (line, column) = self.locate(spans, at, err.found);
        Error::new(
            self.path,
            line,
            column,
            ErrorKind::BadValue {
                expected: expected.to_owned(),
                found: shorten(err.found),
                reason: err.kind,
            },
        )
        .with_key(key)
    }

    /// Line and column of `text` when it is a slice of the value lines `spans` (at
    /// least one); the first value line's start otherwise. The line is counted from
    /// `at` (a byte at or before the value lines, and its line): the lines of the
    /// property, not of the whole file.
    fn locate(&self, spans: &[ValueSpan], at: (u32, u32), text: &str) -> (u32, u32) {
        let inside =
            |offset: u32| (spans.iter()).any(|s| offset >= s.start && offset <= s.start + s.len);
        let offset = (self.offset_of(text).map(|o| o as u32))
            .filter(|&o| inside(o))
            .or_else(|| spans.first().map(|s| s.start));
        let Some(offset) = offset else {
            return (0, 0);
        };
        let (from, line) = at;
        let (from, offset) = (from.min(offset) as usize, offset as usize);
        let between = &self.src.as_bytes()[from..offset];
        let line = line + memchr::memchr_iter(b'\n', between).count() as u32;
        let line_start =
            memchr::memrchr(b'\n', &self.src.as_bytes()[..offset]).map_or(0, |i| i + 1);
        let column = self.src[line_start..offset].chars().count() as u32 + 1;
        (line, column)
    }

    /// The [`ErrorKind::DuplicateKey`] error for nodes `a` and `b`, two spellings of one
    /// key (a key and its alias): at the later of the two, naming the earlier's line.
    #[cold]
    pub fn duplicate_key(&self, a: usize, b: usize) -> Error {
        let (early, late) = if self.buf.nodes[a].line <= self.buf.nodes[b].line {
            (a, b)
        } else {
            (b, a)
        };
        let n = &self.buf.nodes[late];
        let first_line = self.buf.nodes[early].line;
        Error::new(
            self.path,
            n.line,
            n.column,
            ErrorKind::DuplicateKey { first_line },
        )
        .with_key(self.key(late))
    }

    /// Indices of the nodes no reader consumed, in file order.
    ///
    /// # Panics
    /// When the document is not read to the end ([`Document::read_to_end`]).
    pub fn unconsumed(&self) -> impl Iterator<Item = usize> + Clone + '_ {
        assert!(
            self.is_read_to_end(),
            "Document::unconsumed of a Document being filled: call Document::read_to_end first"
        );
        // The properties bound without a node come after the nodes made, consumed.
        self.buf
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| !n.consumed)
            .map(|(i, _)| i)
    }
}

#[cfg(test)]
mod tests;
