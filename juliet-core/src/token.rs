//! The zero-copy tokenizer: `.jasset` bytes to [`PropertyNode`]s.
//!
//! Seed 01 section 3 ("The In-Memory Zero-Copy Parser"), with the line forms of DESIGN.md
//! section 3. Nodes do not copy text: they hold offsets into the source, and live in a
//! reusable [`TokenBuffer`], so tokenizing many files in a row allocates nothing once
//! the buffer has grown to the largest file. Unlike the seed's tokenizer, comment and
//! blank lines between value lines are dropped, never folded into the value.

use std::collections::HashMap;
use std::path::Path;

use crate::crc::KeyCrcCache;
use crate::error::{shorten, Error, ErrorKind};
use crate::value::{Value, ValueSpan};

/// Past this many properties in one file, duplicate keys are found through a hash map
/// instead of a linear scan (so a million-key file stays linear).
const LINEAR_DUPLICATE_SCAN: usize = 32;

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
/// consumed flag of seed 01 section 3.1. 40 bytes; no pointers, so a [`TokenBuffer`]
/// outlives the sources it tokenized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PropertyNode {
    /// CRC-32 of the normalized key (see [`crate::crc::key_crc`]).
    pub key_crc: u32,
    key_start: u32,
    key_len: u32,
    /// 1-based line of the key.
    pub line: u32,
    /// 1-based column of the key, in characters.
    pub column: u32,
    values_start: u32,
    values_len: u32,
    /// Whether a reader has used this property (the unconsumed-key audit reads it).
    pub consumed: bool,
    /// How the property was written.
    pub form: LineForm,
}

impl PropertyNode {
    /// Number of value lines (at least 1).
    pub fn value_count(&self) -> usize {
        self.values_len as usize
    }
}

/// Reusable storage for tokenized files. Keep one per thread and pass it to
/// [`TokenBuffer::tokenize`] for each file.
#[derive(Debug, Default)]
pub struct TokenBuffer {
    nodes: Vec<PropertyNode>,
    values: Vec<ValueSpan>,
    seen: HashMap<u32, u32>,
    /// The CRCs of keys met in earlier files (world files repeat the same keys).
    keys: KeyCrcCache,
    /// Which low bytes of key CRCs the current file has used (duplicate pre-check).
    filter: [u64; 4],
    /// Scratch for the newline offsets of one window of the file.
    ends: Vec<u32>,
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
        self.nodes.clear();
        self.values.clear();
        self.seen.clear();
        self.filter = [0; 4];
        if bytes.len() >= u32::MAX as usize {
            return Err(Error::file(
                path,
                ErrorKind::FileTooLarge {
                    size: bytes.len() as u64,
                    limit: u32::MAX as u64 - 1,
                },
            ));
        }
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let src = check_text(bytes, path)?;
        let mut ends = std::mem::take(&mut self.ends);
        let scanned = self.scan(src, path, &mut ends);
        self.ends = ends;
        scanned?;
        Ok(Document {
            src,
            path,
            nodes: &mut self.nodes,
            values: &self.values,
        })
    }

    /// Splits `src` into lines and handles each.
    ///
    /// Two steps per window of [`WINDOW`] bytes: the offsets of its newlines are found
    /// eight bytes at a time without a data-dependent branch, then each line is handled.
    fn scan(&mut self, src: &str, path: &Path, ends: &mut Vec<u32>) -> Result<(), Error> {
        let bytes = src.as_bytes();
        if ends.len() < WINDOW + 64 {
            ends.resize(WINDOW + 64, 0);
        }
        let mut at = ScanState {
            line_start: 0,
            line_no: 0,
            open: NO_BLOCK,
        };
        for (index, window) in bytes.chunks(WINDOW).enumerate() {
            let count = newline_offsets(window, (index * WINDOW) as u32, ends);
            let mut done = 0;
            while let Some(skipped) = self.fast_lines(bytes, &ends[done..count], &mut at) {
                // Line `done + skipped` needs the general path.
                let end = ends[done + skipped] as usize;
                at.line_no += 1;
                self.line(src, at.line_start, end, at.line_no, &mut at.open, path)?;
                at.line_start = end + 1;
                done += skipped + 1;
            }
        }
        at.line_no += 1;
        self.line(
            src,
            at.line_start,
            bytes.len(),
            at.line_no,
            &mut at.open,
            path,
        )?;
        if at.open != NO_BLOCK {
            self.close_block(src, at.open, path)?;
        }
        // Each node's value lines run up to the next node's.
        let mut next = self.values.len() as u32;
        for n in self.nodes.iter_mut().rev() {
            n.values_len = next - n.values_start;
            next = n.values_start;
        }
        Ok(())
    }

    /// Handles the common lines of `ends` (offsets of their `\n`) quickly: blank lines,
    /// comments, value lines of an open block and `; Key` headers of keys in the cache
    /// that close a non-empty block and are not duplicates. Stops at the first other
    /// line, changing nothing for it, and returns its index; `None` when all are done.
    #[inline(never)]
    fn fast_lines(&mut self, bytes: &[u8], ends: &[u32], at: &mut ScanState) -> Option<usize> {
        for (i, &end) in ends.iter().enumerate() {
            let start = at.line_start;
            let line = bytes.get(start..end as usize)?;
            if let (Some(&first), Some(&last)) = (line.first(), line.last()) {
                if first <= b' ' || last <= b' ' {
                    return Some(i);
                }
                match first {
                    b'#' => {}
                    b'/' if line.get(1) == Some(&b'/') => {}
                    b';' => {
                        if !self.fast_header(bytes, start, line, at) {
                            return Some(i);
                        }
                    }
                    _ if at.open != NO_BLOCK => self.values.push(ValueSpan {
                        start: start as u32,
                        len: line.len() as u32,
                        line: at.line_no + 1,
                        column: 1,
                    }),
                    _ => return Some(i),
                }
            }
            at.line_no += 1;
            at.line_start = end as usize + 1;
        }
        None
    }

    /// The `; Key` header `line` (at byte `start`, trimmed) when its key is in the cache,
    /// the block it closes has a value and the key is new: adds its node and returns
    /// `true`. Otherwise changes nothing and returns `false`.
    #[inline(always)]
    fn fast_header(&mut self, bytes: &[u8], start: usize, line: &[u8], at: &mut ScanState) -> bool {
        if line.get(1) != Some(&b' ') || line.len() < 3 {
            return false;
        }
        let Some(key_crc) = self.keys.get(bytes, start + 2, line.len() - 2) else {
            return false;
        };
        if at.open == self.values.len() || self.find_duplicate(key_crc, at.line_no + 1).is_some() {
            return false;
        }
        self.nodes.push(PropertyNode {
            key_crc,
            key_start: start as u32 + 2,
            key_len: line.len() as u32 - 2,
            line: at.line_no + 1,
            column: 3,
            values_start: self.values.len() as u32,
            values_len: 0,
            consumed: false,
            form: LineForm::Block,
        });
        at.open = self.values.len();
        true
    }

    /// Handles line `line_no`, `src[start..end]` (without its `\n`); `open` is the
    /// number of value lines before the open block's (which is always the last node),
    /// or [`NO_BLOCK`].
    #[inline(always)]
    fn line(
        &mut self,
        src: &str,
        start: usize,
        end: usize,
        line_no: u32,
        open: &mut usize,
        path: &Path,
    ) -> Result<(), Error> {
        let line = &src.as_bytes()[start..end];
        match line {
            [] => Ok(()),
            // The common line starts and ends with a visible character.
            [first, .., last] | [first @ last] if *first > b' ' && *last > b' ' => {
                self.trimmed_line(src, start, line, 0, line_no, open, path)
            }
            _ => self.untrimmed_line(src, start, line, line_no, open, path),
        }
    }

    /// [`TokenBuffer::line`] for a line with leading or trailing blanks (or `\r`).
    #[inline(never)]
    fn untrimmed_line(
        &mut self,
        src: &str,
        start: usize,
        mut line: &[u8],
        line_no: u32,
        open: &mut usize,
        path: &Path,
    ) -> Result<(), Error> {
        while let [rest @ .., b' ' | b'\t' | b'\r'] = line {
            line = rest;
        }
        let s = skip_blanks(line, 0);
        if s == line.len() {
            return Ok(());
        }
        self.trimmed_line(src, start, line, s, line_no, open, path)
    }

    /// Handles a line whose text is `line[s..]`: `line` starts at byte `start` of `src`
    /// and is trimmed at its end, `line[s]` is its first visible character.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn trimmed_line(
        &mut self,
        src: &str,
        start: usize,
        line: &[u8],
        s: usize,
        line_no: u32,
        open: &mut usize,
        path: &Path,
    ) -> Result<(), Error> {
        match line[s] {
            b';' => self.header(src, start, line, s, line_no, open, path),
            b'#' => Ok(()),
            b'/' if line.get(s + 1) == Some(&b'/') => Ok(()),
            _ if *open != NO_BLOCK => {
                self.values.push(ValueSpan {
                    start: (start + s) as u32,
                    len: (line.len() - s) as u32,
                    line: line_no,
                    column: s as u32 + 1,
                });
                Ok(())
            }
            _ => self.compact(src, start, line, s, line_no, path),
        }
    }

    /// Handles a line outside any block that is not a header: a compact `Key: value`
    /// property, else an error.
    #[inline(never)]
    fn compact(
        &mut self,
        src: &str,
        start: usize,
        line: &[u8],
        s: usize,
        line_no: u32,
        path: &Path,
    ) -> Result<(), Error> {
        let key_end = ident_end(line, s);
        let after = skip_blanks(line, key_end);
        if key_end > s && line.get(after) == Some(&b':') {
            let crc = self.keys.crc(src.as_bytes(), start + s, key_end - s);
            self.push_node(
                src,
                path,
                (start + s, start + key_end, crc),
                line_no,
                s as u32 + 1,
                LineForm::Compact,
            )?;
            return self.one_line_value(src, path, start, line, after + 1, line_no);
        }
        Err(Error::new(
            path,
            line_no,
            s as u32 + 1,
            ErrorKind::ValueWithoutProperty {
                found: shorten(&src[start + s..start + line.len()]),
            },
        ))
    }

    /// Handles a `; Key` or `; Key: value` line; `line` is trimmed at its end and starts
    /// at byte `start` of `src`, `semi` is the offset of its `;`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn header(
        &mut self,
        src: &str,
        start: usize,
        line: &[u8],
        semi: usize,
        line_no: u32,
        open: &mut usize,
        path: &Path,
    ) -> Result<(), Error> {
        if *open != NO_BLOCK {
            self.close_block(src, *open, path)?;
            *open = NO_BLOCK;
        }
        // `; Key`: one space, then the key.
        let k = match line.get(semi + 1..semi + 3) {
            Some(&[b' ', b]) if b > b' ' => semi + 2,
            _ => skip_blanks(line, semi + 1),
        };
        // The common `; Key` line: a key seen before, up to the end of the line.
        let rest = line.len() - k;
        if rest > 0 {
            if let Some(crc) = self.keys.get(src.as_bytes(), start + k, rest) {
                self.push_node(
                    src,
                    path,
                    (start + k, start + line.len(), crc),
                    line_no,
                    k as u32 + 1,
                    LineForm::Block,
                )?;
                *open = self.values.len();
                return Ok(());
            }
        }
        self.new_header(src, start, line, k, line_no, open, path)
    }

    /// The rest of [`TokenBuffer::header`] for a key not in the cache or an inline
    /// property; `k` is the offset of the key in `line`.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn new_header(
        &mut self,
        src: &str,
        start: usize,
        line: &[u8],
        k: usize,
        line_no: u32,
        open: &mut usize,
        path: &Path,
    ) -> Result<(), Error> {
        let column = k as u32 + 1;
        let key_end = ident_end(line, k);
        if key_end == k {
            return Err(invalid_key(
                src,
                path,
                line_no,
                start,
                start + k,
                start + line.len(),
            ));
        }
        let crc = self.keys.crc(src.as_bytes(), start + k, key_end - k);
        let key = (start + k, start + key_end, crc);
        let after = skip_blanks(line, key_end);
        match line.get(after) {
            None => {
                // Block header: value lines follow.
                self.push_node(src, path, key, line_no, column, LineForm::Block)?;
                *open = self.values.len();
                Ok(())
            }
            Some(b':') => {
                self.push_node(src, path, key, line_no, column, LineForm::Inline)?;
                self.one_line_value(src, path, start, line, after + 1, line_no)
            }
            Some(_) => Err(invalid_key(
                src,
                path,
                line_no,
                start,
                start + k,
                start + line.len(),
            )),
        }
    }

    /// Adds the value of an inline or compact property: `line[from..]`, trimmed, where
    /// `line` starts at byte `line_start` of `src`.
    fn one_line_value(
        &mut self,
        src: &str,
        path: &Path,
        line_start: usize,
        line: &[u8],
        from: usize,
        line_no: u32,
    ) -> Result<(), Error> {
        let from = skip_blanks(line, from);
        if from == line.len() {
            return Err(header_without_value(src, path, self.nodes.last()));
        }
        // Everything before `from` is ASCII (blanks, `;`, the key, `:`), so the byte
        // offset is the character column.
        self.values.push(ValueSpan {
            start: (line_start + from) as u32,
            len: (line.len() - from) as u32,
            line: line_no,
            column: from as u32 + 1,
        });
        Ok(())
    }

    /// Ends the open block (the last node), which had `values_before` value lines
    /// before it: it must have at least one of its own.
    #[inline(always)]
    fn close_block(&self, src: &str, values_before: usize, path: &Path) -> Result<(), Error> {
        if self.values.len() == values_before {
            return Err(header_without_value(src, path, self.nodes.last()));
        }
        Ok(())
    }

    /// Adds a node for the key `src[key.0..key.1]` whose CRC is `key.2`.
    #[inline(always)]
    fn push_node(
        &mut self,
        src: &str,
        path: &Path,
        key: (usize, usize, u32),
        line: u32,
        column: u32,
        form: LineForm,
    ) -> Result<(), Error> {
        let (key_start, key_end, key_crc) = key;
        if let Some(first_line) = self.find_duplicate(key_crc, line) {
            return Err(duplicate_key(src, path, key, line, column, first_line));
        }
        self.nodes.push(PropertyNode {
            key_crc,
            key_start: key_start as u32,
            key_len: (key_end - key_start) as u32,
            line,
            column,
            values_start: self.values.len() as u32,
            values_len: 0,
            consumed: false,
            form,
        });
        Ok(())
    }

    /// Returns the line of an earlier node with `crc`, and records this one (on `line`).
    #[inline(always)]
    fn find_duplicate(&mut self, crc: u32, line: u32) -> Option<u32> {
        let count = self.nodes.len();
        if count < LINEAR_DUPLICATE_SCAN {
            // A 256-bit filter on the CRC's low byte: most keys skip the scan.
            let bit = (crc & 0xFF) as usize;
            let word = &mut self.filter[bit >> 6];
            let mask = 1u64 << (bit & 63);
            if *word & mask == 0 {
                *word |= mask;
                return None;
            }
            return self.nodes.iter().find(|n| n.key_crc == crc).map(|n| n.line);
        }
        if self.seen.is_empty() {
            for n in &self.nodes {
                self.seen.insert(n.key_crc, n.line);
            }
        }
        match self.seen.get(&crc) {
            Some(&first) => Some(first),
            None => {
                self.seen.insert(crc, line);
                None
            }
        }
    }
}

/// Where the scan is: the start of the next line, the number of lines done and the
/// open block (see [`TokenBuffer::line`]).
struct ScanState {
    line_start: usize,
    line_no: u32,
    open: usize,
}

/// The open block state when no block is open.
const NO_BLOCK: usize = usize::MAX;

/// Bytes per newline-search window (a multiple of 64).
const WINDOW: usize = 4096;

/// Writes the offsets (plus `base`) of the newlines of `window` (at most [`WINDOW`]
/// bytes) to the front of `ends` (at least `WINDOW + 64` long) and returns how many.
///
/// 64 bytes at a time: a bit mask of the newlines, then their offsets, written without
/// a data-dependent branch in the common case (at most 8 lines in 64 bytes).
#[inline]
fn newline_offsets(window: &[u8], base: u32, ends: &mut [u32]) -> usize {
    let mut count = 0;
    let mut at = base;
    let mut blocks = window.chunks_exact(64);
    for block in &mut blocks {
        // 1 for each newline byte (the compiler does this 16 bytes at a time), then
        // 8 flags to 8 bits with one multiplication.
        let mut flags = [0u8; 64];
        for (flag, &b) in flags.iter_mut().zip(block) {
            *flag = u8::from(b == b'\n');
        }
        let mut mask = 0u64;
        for (i, word) in flags.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
            mask |= (word.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * i);
        }
        count += flatten(mask, at, &mut ends[count..]);
        at += 64;
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        // Eight bytes at a time: a newline is a zero byte of `word ^ 0x0A..`.
        let mut mask = 0u64;
        let mut words = tail.chunks_exact(8);
        for (i, word) in (&mut words).enumerate() {
            let word = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
            let found = zero_bytes(word ^ 0x0A0A_0A0A_0A0A_0A0A);
            mask |= (found.wrapping_mul(0x0002_0408_1020_4081) >> 56) << (8 * i);
        }
        let done = tail.len() - words.remainder().len();
        for (i, &b) in words.remainder().iter().enumerate() {
            mask |= u64::from(b == b'\n') << (done + i);
        }
        count += flatten(mask, at, &mut ends[count..]);
    }
    count
}

/// Writes `at` plus the index of each set bit of `mask` to the front of `ends` (at
/// least 64 long) and returns how many: always 8 writes, then a loop for the rest.
#[inline(always)]
fn flatten(mut mask: u64, at: u32, ends: &mut [u32]) -> usize {
    let lines = mask.count_ones() as usize;
    for slot in &mut ends[..8] {
        *slot = at + mask.trailing_zeros();
        mask &= mask.wrapping_sub(1);
    }
    let mut next = 8;
    while mask != 0 {
        ends[next] = at + mask.trailing_zeros();
        mask &= mask - 1;
        next += 1;
    }
    lines
}

/// `0x80` in each byte of `word` that is zero, `0` in the others (exact: no false
/// positives).
#[inline(always)]
fn zero_bytes(word: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    !(((word & LOW7) + LOW7) | word | LOW7)
}

/// First offset at or after `from` in `line` that is not a space or a tab.
#[inline(always)]
fn skip_blanks(line: &[u8], mut from: usize) -> usize {
    while let Some(b' ' | b'\t') = line.get(from) {
        from += 1;
    }
    from
}

/// End of the identifier starting at `from` in `line` (equal to `from` when there is
/// none).
#[inline]
fn ident_end(line: &[u8], from: usize) -> usize {
    match line.get(from) {
        Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {}
        _ => return from,
    }
    let rest = line.get(from..).unwrap_or_default();
    rest.iter()
        .position(|&b| !IDENT_BYTE[usize::from(b)])
        .map_or(line.len(), |i| from + i)
}

/// Whether each byte may continue a key: `[A-Za-z0-9_]`.
static IDENT_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_';
        b += 1;
    }
    table
};

/// The error of a property with no value, at its key (`node` is `None` only if a
/// broken invariant left no node).
#[cold]
fn header_without_value(src: &str, path: &Path, node: Option<&PropertyNode>) -> Error {
    let Some(n) = node else {
        return Error::file(path, ErrorKind::HeaderWithoutValue);
    };
    Error::new(path, n.line, n.column, ErrorKind::HeaderWithoutValue)
        .with_key(&src[n.key_start as usize..(n.key_start + n.key_len) as usize])
}

/// The error of a key `src[key.0..key.1]` met a second time, on `line`.
#[cold]
fn duplicate_key(
    src: &str,
    path: &Path,
    key: (usize, usize, u32),
    line: u32,
    column: u32,
    first_line: u32,
) -> Error {
    Error::new(path, line, column, ErrorKind::DuplicateKey { first_line })
        .with_key(&src[key.0..key.1])
}

#[cold]
fn invalid_key(
    src: &str,
    path: &Path,
    line: u32,
    line_start: usize,
    at: usize,
    end: usize,
) -> Error {
    Error::new(
        path,
        line,
        char_column(src, line_start, at),
        ErrorKind::InvalidKey {
            found: shorten(&src[at..end]),
        },
    )
}

/// 1-based character column of byte `at` in the line starting at `line_start`.
pub(crate) fn char_column(src: &str, line_start: usize, at: usize) -> u32 {
    let prefix = &src.as_bytes()[line_start..at];
    if prefix.is_ascii() {
        prefix.len() as u32 + 1
    } else {
        src[line_start..at].chars().count() as u32 + 1
    }
}

/// Checks that `bytes` are UTF-8 text without NUL bytes.
fn check_text<'a>(bytes: &'a [u8], path: &Path) -> Result<&'a str, Error> {
    if let Some(at) = memchr::memchr(0, bytes) {
        let (line, column) = position_of(bytes, at);
        return Err(Error::new(path, line, column, ErrorKind::NulByte));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let (line, column) = position_of(bytes, e.valid_up_to());
        Error::new(path, line, column, ErrorKind::InvalidUtf8)
    })
}

/// 1-based line and character column of byte offset `at` (whose prefix is UTF-8).
fn position_of(bytes: &[u8], at: usize) -> (u32, u32) {
    let before = &bytes[..at];
    let line = memchr::memchr_iter(b'\n', before).count() as u32 + 1;
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&bytes[line_start..at])
        .chars()
        .count() as u32
        + 1;
    (line, column)
}

/// A tokenized file: the source text, its path and its property nodes (borrowed from a
/// [`TokenBuffer`]).
#[derive(Debug)]
pub struct Document<'a> {
    src: &'a str,
    path: &'a Path,
    nodes: &'a mut [PropertyNode],
    values: &'a [ValueSpan],
}

impl<'a> Document<'a> {
    /// The file's path (as given to [`TokenBuffer::tokenize`]).
    pub fn path(&self) -> &'a Path {
        self.path
    }

    /// The source text (after the byte-order mark).
    pub fn source(&self) -> &'a str {
        self.src
    }

    /// The property nodes, in file order.
    pub fn nodes(&self) -> &[PropertyNode] {
        self.nodes
    }

    /// Number of properties.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the file has no property.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node at `index` (panics when out of bounds, like slice indexing).
    pub fn node(&self, index: usize) -> &PropertyNode {
        &self.nodes[index]
    }

    /// The key of node `index` as written in the file.
    pub fn key(&self, index: usize) -> &'a str {
        let n = &self.nodes[index];
        &self.src[n.key_start as usize..(n.key_start + n.key_len) as usize]
    }

    /// The value lines of node `index`.
    #[inline]
    pub fn value(&self, index: usize) -> Value<'a> {
        let n = &self.nodes[index];
        let spans = &self.values[n.values_start as usize..(n.values_start + n.values_len) as usize];
        Value::from_spans(self.src, spans)
    }

    /// Index of the node with key CRC `crc` (seed 01's `FindProperty`), marking it
    /// consumed. A linear scan: files hold few properties.
    pub fn find(&mut self, crc: u32) -> Option<usize> {
        let index = self.nodes.iter().position(|n| n.key_crc == crc)?;
        self.nodes[index].consumed = true;
        Some(index)
    }

    /// Like [`Document::find`] but without marking the node consumed.
    pub fn peek(&self, crc: u32) -> Option<usize> {
        self.nodes.iter().position(|n| n.key_crc == crc)
    }

    /// Marks node `index` consumed.
    pub fn consume(&mut self, index: usize) {
        self.nodes[index].consumed = true;
    }

    /// Decodes node `index` as a `T` into `place`, marking it consumed.
    ///
    /// # Errors
    /// [`ErrorKind::BadValue`] at the line and column of the offending text, naming the
    /// key, the expected type and the text found.
    #[inline]
    pub fn decode_into<T: crate::Codec>(
        &mut self,
        index: usize,
        place: &mut T,
    ) -> Result<(), Error> {
        self.nodes[index].consumed = true;
        let value = self.value(index);
        place
            .decode_into(value)
            .map_err(|e| self.value_error(index, &T::PROPERTY_TYPE.to_string(), e))
    }

    /// Decodes node `index` as a new `T`, marking it consumed. Errors as
    /// [`Document::decode_into`].
    pub fn decode<T: crate::Codec>(&mut self, index: usize) -> Result<T, Error> {
        self.nodes[index].consumed = true;
        let value = self.value(index);
        T::decode(value).map_err(|e| self.value_error(index, &T::PROPERTY_TYPE.to_string(), e))
    }

    /// Turns a codec's [`crate::ValueError`] on node `index` into a located [`Error`].
    pub fn value_error(&self, index: usize, expected: &str, err: crate::ValueError<'_>) -> Error {
        let (line, column) = self.locate(index, err.found);
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
        .with_key(self.key(index))
    }

    /// Line and column of `text` when it is a slice of node `index`'s value lines; the
    /// first value line's start otherwise.
    fn locate(&self, index: usize, text: &str) -> (u32, u32) {
        let n = &self.nodes[index];
        let spans = &self.values[n.values_start as usize..(n.values_start + n.values_len) as usize];
        let base = self.src.as_ptr() as usize;
        let at = text.as_ptr() as usize;
        if at >= base && at <= base + self.src.len() {
            let offset = (at - base) as u32;
            for span in spans {
                if offset >= span.start && offset <= span.start + span.len {
                    let prefix = &self.src[span.start as usize..offset as usize];
                    return (span.line, span.column + prefix.chars().count() as u32);
                }
            }
        }
        spans
            .first()
            .map_or((n.line, n.column), |s| (s.line, s.column))
    }

    /// Indices of the nodes no reader consumed, in file order.
    pub fn unconsumed(&self) -> impl Iterator<Item = usize> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| !n.consumed)
            .map(|(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Key, value lines, line, column of each node.
    type Tokens = Vec<(String, Vec<String>, u32, u32)>;

    fn tok(src: &str) -> Result<Tokens, Error> {
        let mut buf = TokenBuffer::new();
        let doc = buf.tokenize(src.as_bytes(), Path::new("t.jasset"))?;
        Ok((0..doc.len())
            .map(|i| {
                let v = doc.value(i);
                (
                    doc.key(i).to_owned(),
                    v.lines().map(str::to_owned).collect(),
                    doc.node(i).line,
                    doc.node(i).column,
                )
            })
            .collect())
    }

    #[test]
    fn block_inline_and_compact_forms() {
        let nodes = tok("; A\n1\n; B: 2 3\nC: x y\n").unwrap();
        assert_eq!(nodes[0], ("A".into(), vec!["1".into()], 1, 3));
        assert_eq!(nodes[1], ("B".into(), vec!["2 3".into()], 3, 3));
        assert_eq!(nodes[2], ("C".into(), vec!["x y".into()], 4, 1));
    }

    #[test]
    fn comments_between_value_lines_are_not_values() {
        let nodes = tok("; List\n a\n # c\n\n // d\n b \n").unwrap();
        assert_eq!(nodes[0].1, vec!["a".to_owned(), "b".to_owned()]);
    }

    #[test]
    fn crlf_bom_and_tabs() {
        let nodes = tok("\u{FEFF}\t; Key\t\r\n\t value \t\r\n").unwrap();
        assert_eq!(nodes[0].0, "Key");
        assert_eq!(nodes[0].1, vec!["value".to_owned()]);
    }

    #[test]
    fn compact_line_inside_block_is_a_value_line() {
        let nodes = tok("; A\n1\nB: 2\n").unwrap();
        assert_eq!(nodes.len(), 1);
        assert_eq!(nodes[0].1.len(), 2);
    }

    #[test]
    fn value_without_property_is_an_error() {
        let err = tok("# c\n  42\n").unwrap_err();
        assert!(matches!(err.kind, ErrorKind::ValueWithoutProperty { .. }));
        assert_eq!((err.line, err.column), (2, 3));
    }

    #[test]
    fn header_without_value_is_an_error() {
        let err = tok("; A\n; B\n1\n").unwrap_err();
        assert_eq!(err.kind, ErrorKind::HeaderWithoutValue);
        assert_eq!((err.line, err.column), (1, 3));
        let err = tok("; A\n1\n; B\n# only a comment\n").unwrap_err();
        assert_eq!(
            (err.line, err.kind.clone()),
            (3, ErrorKind::HeaderWithoutValue)
        );
        let err = tok("; A:   \n").unwrap_err();
        assert_eq!(
            (err.line, err.kind.clone()),
            (1, ErrorKind::HeaderWithoutValue)
        );
        let err = tok("A:\n").unwrap_err();
        assert_eq!(
            (err.line, err.kind.clone()),
            (1, ErrorKind::HeaderWithoutValue)
        );
    }

    #[test]
    fn duplicate_key_names_both_lines() {
        let err = tok("; MeshInstance\n1\n\n; mesh_instance\n2\n").unwrap_err();
        assert_eq!(err.kind, ErrorKind::DuplicateKey { first_line: 1 });
        assert_eq!((err.line, err.column), (4, 3));
        assert_eq!(err.key.as_deref(), Some("mesh_instance"));
    }

    #[test]
    fn duplicate_key_in_a_large_file() {
        let mut src = String::new();
        for i in 0..100 {
            src.push_str(&format!("K{i}: {i}\n"));
        }
        src.push_str("k_50: again\n");
        let err = tok(&src).unwrap_err();
        assert_eq!(err.kind, ErrorKind::DuplicateKey { first_line: 51 });
        assert_eq!(err.line, 101);
    }

    #[test]
    fn invalid_key() {
        let err = tok("; 9lives\n1\n").unwrap_err();
        assert!(matches!(err.kind, ErrorKind::InvalidKey { .. }));
        assert_eq!((err.line, err.column), (1, 3));
        let err = tok("; Two Words\n1\n").unwrap_err();
        assert!(matches!(err.kind, ErrorKind::InvalidKey { .. }));
    }

    #[test]
    fn nul_and_invalid_utf8_are_located() {
        let err = tok("; A\nab\0c\n").unwrap_err();
        assert_eq!(
            (err.kind.clone(), err.line, err.column),
            (ErrorKind::NulByte, 2, 3)
        );
        // The NUL byte wins over an earlier problem of the file and over bad UTF-8.
        let err = tok("  42\n; A\n1\n\0").unwrap_err();
        assert_eq!(
            (err.kind.clone(), err.line, err.column),
            (ErrorKind::NulByte, 4, 1)
        );
        let mut buf = TokenBuffer::new();
        let err = buf
            .tokenize(b"\xFF; A\n\0", Path::new("u.jasset"))
            .unwrap_err();
        assert_eq!((err.kind.clone(), err.line), (ErrorKind::NulByte, 2));
        let err = buf
            .tokenize(b"; A\n\xC3\xA9\xFF\n", Path::new("u.jasset"))
            .unwrap_err();
        assert_eq!(
            (err.kind.clone(), err.line, err.column),
            (ErrorKind::InvalidUtf8, 2, 2)
        );
    }

    #[test]
    fn find_marks_consumed_and_unconsumed_lists_the_rest() {
        let mut buf = TokenBuffer::new();
        let mut doc = buf.tokenize(b"; A\n1\n; B\n2\n", Path::new("x")).unwrap();
        let i = doc.find(crate::key_crc("a")).unwrap();
        assert_eq!(doc.key(i), "A");
        assert_eq!(doc.unconsumed().collect::<Vec<_>>(), vec![1]);
    }

    #[test]
    fn lines_are_found_across_blocks_windows_and_tails() {
        // Known properties separated by runs of blank lines (more than 8 newlines in
        // 64 bytes), comments and long padded values (lines crossing the 64-byte
        // blocks and 4096-byte windows), with LF or CRLF; every prefix length of the
        // last property exercises the tail of the newline search.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let mut src = String::new();
        let mut line = 1u32;
        let mut expected = Vec::new();
        for i in 0..300 {
            let eol = if next(4) == 0 { "\r\n" } else { "\n" };
            for _ in 0..[0, 1, 2, 20, 70][next(5) as usize] {
                src.push_str(eol);
                line += 1;
            }
            src.push_str(&format!("; Key{i}{eol}"));
            let key_line = line;
            line += 1;
            let mut values = Vec::new();
            for j in 0..1 + next(3) {
                if next(3) == 0 {
                    src.push_str(&format!("  # comment {i}{eol}"));
                    line += 1;
                }
                let value = format!("v{i}.{j}{}x", "-".repeat(next(200) as usize));
                src.push_str(&format!("\t{value}  {eol}"));
                values.push((value, line));
                line += 1;
            }
            expected.push((format!("Key{i}"), key_line, values));
        }
        src.push_str("; Last: ");
        let mut buf = TokenBuffer::new();
        for extra in 1..80 {
            let mut file = src.clone();
            file.push_str(&"y".repeat(extra));
            file.push_str(["", "\n", "\n\n", "\r\n"][extra % 4]);
            let doc = buf.tokenize(file.as_bytes(), Path::new("t")).unwrap();
            assert_eq!(doc.len(), expected.len() + 1);
            for (i, (key, key_line, values)) in expected.iter().enumerate() {
                assert_eq!((doc.key(i), doc.node(i).line), (key.as_str(), *key_line));
                let got: Vec<&str> = doc.value(i).lines().collect();
                let want: Vec<&str> = values.iter().map(|(v, _)| v.as_str()).collect();
                assert_eq!(got, want, "{key}");
                for (k, (_, value_line)) in values.iter().enumerate() {
                    assert_eq!(
                        doc.values[doc.nodes[i].values_start as usize + k].line,
                        *value_line
                    );
                }
            }
            let last = doc.len() - 1;
            assert_eq!((doc.key(last), doc.node(last).line), ("Last", line));
            assert_eq!(doc.value(last).single().unwrap().len(), extra);
        }
    }

    #[test]
    fn empty_and_comment_only_files_have_no_nodes() {
        assert!(tok("").unwrap().is_empty());
        assert!(tok("# x\n\n// y").unwrap().is_empty());
    }
}
