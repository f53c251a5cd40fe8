//! The scanner behind [`TokenBuffer::tokenize`]: lines found 64 bytes at a time, the
//! common lines (blank, comment, value, `; Key` / `; Key: value` / `Key: value` of a key
//! seen before) handled on a fast path, every other line on the general path that
//! reports errors.

use std::path::Path;

use super::{LineForm, PropertyNode, TokenBuffer};
use crate::error::{shorten, Error, ErrorKind};

/// Past this many properties in one file, duplicate keys are found through a hash map
/// instead of a linear scan (so a million-key file stays linear).
pub(super) const LINEAR_DUPLICATE_SCAN: usize = 32;

impl TokenBuffer {
    /// Splits `src` into lines at the newlines of `self.masks` (see [`simd::scan_text`]) and
    /// handles each: the common lines in [`TokenBuffer::fast_lines`], the others (and
    /// the last one) in [`TokenBuffer::line`].
    #[inline(always)]
    pub(super) fn scan(&mut self, src: &str, path: &Path) -> Result<(), Error> {
        let bytes = src.as_bytes();
        let mut at = ScanState {
            line_start: 0,
            line_no: 0,
            open: NO_BLOCK,
            mask: (0, self.masks.first().copied().unwrap_or(0)),
            want: self.chain.first(),
        };
        while let Some(end) = self.fast_lines(bytes, &mut at) {
            // The line ending at `end` (line `at.line_no`, from `at.line_start`) needs
            // more than the fast loop.
            if !self.predicted_line(bytes, end, &mut at) {
                let nodes = self.nodes.len();
                if !self.fast_other_line(bytes, at.line_start, end, at.line_no, &mut at.open) {
                    let line = Line::new(src, path, at.line_start, end, at.line_no);
                    self.line(&line, &mut at.open)?;
                }
                if self.nodes.len() != nodes {
                    self.relink(bytes, at.line_start, end, &mut at);
                }
            }
            at.line_start = end + 1;
        }
        at.line_no += 1;
        let last = Line::new(src, path, at.line_start, bytes.len(), at.line_no);
        self.line(&last, &mut at.open)?;
        if at.open != NO_BLOCK {
            self.close_block(src, at.open, path)?;
        }
        // Each node's value lines run up to the next node's.
        let mut next = self.values.len() as u32;
        for n in self.nodes.iter_mut().rev() {
            // A long block's count was kept as its lines were read.
            if !n.is_long_block() {
                n.values_len = next - n.values_start;
            }
            next = n.values_start;
        }
        Ok(())
    }

    /// Handles `line`; `open` is the number of value lines before the open block's
    /// (which is always the last node), or [`NO_BLOCK`].
    #[inline(always)]
    fn line(&mut self, line: &Line<'_>, open: &mut usize) -> Result<(), Error> {
        match line.text {
            [] => Ok(()),
            // The common line starts and ends with a visible character.
            [first, .., last] | [first @ last] if *first > b' ' && *last > b' ' => {
                self.trimmed_line(line, 0, open)
            }
            _ => self.untrimmed_line(line, open),
        }
    }

    /// [`TokenBuffer::line`] for a line with leading or trailing blanks (or `\r`).
    #[inline(never)]
    fn untrimmed_line(&mut self, line: &Line<'_>, open: &mut usize) -> Result<(), Error> {
        let mut text = line.text;
        while let [rest @ .., b' ' | b'\t' | b'\r'] = text {
            text = rest;
        }
        let s = skip_blanks(text, 0);
        if s == text.len() {
            return Ok(());
        }
        self.trimmed_line(&Line { text, ..*line }, s, open)
    }

    /// Handles a `line` trimmed at its end whose text is `line.text[s..]`
    /// (`line.text[s]` is its first visible character).
    #[inline(always)]
    fn trimmed_line(&mut self, line: &Line<'_>, s: usize, open: &mut usize) -> Result<(), Error> {
        let text = line.text;
        match text[s] {
            b';' => self.header(line, s, open),
            b'#' => Ok(()),
            b'/' if text.get(s + 1) == Some(&b'/') => Ok(()),
            b'<' | b'|' | b'=' | b'>' if crate::value::is_conflict_marker(&text[s..]) => {
                Err(Error::new(
                    line.path,
                    line.no,
                    s as u32 + 1,
                    ErrorKind::ConflictMarker {
                        marker: String::from_utf8_lossy(&text[s..s + 7]).into_owned(),
                    },
                ))
            }
            _ if *open != NO_BLOCK => {
                self.add_block_value(line.start, text, s, open);
                Ok(())
            }
            _ => self.compact(line, s),
        }
    }

    /// Handles a `line` outside any block that is not a header, its text from `s` on: a
    /// compact `Key: value` property, else an error.
    #[inline(never)]
    fn compact(&mut self, line: &Line<'_>, s: usize) -> Result<(), Error> {
        let (src, start, text) = (line.src, line.start, line.text);
        let key_end = ident_end(text, s);
        let after = skip_blanks(text, key_end);
        if key_end > s && text.get(after) == Some(&b':') {
            let crc = self.keys.crc(src.as_bytes(), start + s, key_end - s);
            let key = (start + s, start + key_end, crc);
            self.push_node(line, key, s as u32 + 1, LineForm::Compact)?;
            return self.one_line_value(line, after + 1);
        }
        Err(Error::new(
            line.path,
            line.no,
            s as u32 + 1,
            ErrorKind::ValueWithoutProperty {
                found: shorten(&src[start + s..start + text.len()]),
            },
        ))
    }

    /// Handles a `; Key` or `; Key: value` `line`, trimmed at its end; `semi` is the
    /// offset of its `;`.
    #[inline(always)]
    fn header(&mut self, line: &Line<'_>, semi: usize, open: &mut usize) -> Result<(), Error> {
        if *open != NO_BLOCK {
            self.close_block(line.src, *open, line.path)?;
            *open = NO_BLOCK;
        }
        let (start, text) = (line.start, line.text);
        // `; Key`: one space, then the key.
        let k = match text.get(semi + 1..semi + 3) {
            Some(&[b' ', b]) if b > b' ' => semi + 2,
            _ => skip_blanks(text, semi + 1),
        };
        // The common `; Key` line: a key seen before, up to the end of the line.
        let rest = text.len() - k;
        if rest > 0 {
            if let Some(crc) = self.keys.get(line.src.as_bytes(), start + k, rest) {
                let key = (start + k, start + text.len(), crc);
                self.push_node(line, key, k as u32 + 1, LineForm::Block)?;
                *open = self.values.len();
                return Ok(());
            }
        }
        self.new_header(line, k, open)
    }

    /// The rest of [`TokenBuffer::header`] for a key not in the cache or an inline
    /// property; `k` is the offset of the key in `line.text`.
    #[inline(never)]
    fn new_header(&mut self, line: &Line<'_>, k: usize, open: &mut usize) -> Result<(), Error> {
        let (start, text) = (line.start, line.text);
        let column = k as u32 + 1;
        let key_end = ident_end(text, k);
        if key_end == k {
            return Err(invalid_key(line, k));
        }
        let crc = self.keys.crc(line.src.as_bytes(), start + k, key_end - k);
        let key = (start + k, start + key_end, crc);
        let after = skip_blanks(text, key_end);
        match text.get(after) {
            None => {
                // Block header: value lines follow.
                self.push_node(line, key, column, LineForm::Block)?;
                *open = self.values.len();
                Ok(())
            }
            Some(b':') => {
                self.push_node(line, key, column, LineForm::Inline)?;
                self.one_line_value(line, after + 1)
            }
            Some(_) => Err(invalid_key(line, k)),
        }
    }

    /// Adds the value of an inline or compact property: `line.text[from..]`, trimmed.
    fn one_line_value(&mut self, line: &Line<'_>, from: usize) -> Result<(), Error> {
        let from = skip_blanks(line.text, from);
        if from == line.text.len() {
            return Err(header_without_value(line.src, line.path, self.nodes.last()));
        }
        self.add_value(line.start, line.text, from);
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

    /// Adds a node of `line` for the key `line.src[key.0..key.1]` whose CRC is `key.2`,
    /// at `column`.
    #[inline(always)]
    fn push_node(
        &mut self,
        line: &Line<'_>,
        key: (usize, usize, u32),
        column: u32,
        form: LineForm,
    ) -> Result<(), Error> {
        let (key_start, key_end, key_crc) = key;
        let text = (key_start, key_end);
        let src = line.src.as_bytes();
        if let Some(first_line) = self.find_duplicate(src, text, key_crc, line.no) {
            return Err(duplicate_key(line, key, column, first_line));
        }
        self.add_node(key_crc, (key_start, key_end), line.no, column, form);
        Ok(())
    }

    /// Returns the line of an earlier node with the same key as `src[key.0..key.1]`
    /// (under any spelling), whose CRC is `crc`, and records this one (on `line`). Two
    /// different keys that share a CRC are not duplicates.
    #[inline(always)]
    pub(super) fn find_duplicate(
        &mut self,
        src: &[u8],
        key: (usize, usize),
        crc: u32,
        line: u32,
    ) -> Option<u32> {
        let text = &src[key.0..key.1];
        let count = self.nodes.len();
        if count < LINEAR_DUPLICATE_SCAN {
            // A filter on the CRC's low 10 bits: most keys skip the scan.
            if !self.used.test_and_set(crc) {
                return None;
            }
            return self
                .nodes
                .iter()
                .find(|n| n.key_crc == crc && same_key(node_key(src, n), text))
                .map(|n| n.line);
        }
        if self.seen.is_empty() {
            // Past the linear scan: index the nodes so far (they hold no duplicate),
            // in a table sized for as many nodes as the file may hold (allocated
            // zeroed: the slots no key lands on cost nothing).
            self.seen.reserve(self.lines);
            for i in 0..count {
                let n = self.nodes[i];
                self.record(src, i as u32, n.key_crc, node_key(src, &n), n.line);
            }
        }
        self.record(src, count as u32, crc, text, line)
    }

    /// [`TokenBuffer::record`] for a key `text` (on `line`) whose CRC the earlier,
    /// different key of node `first` has.
    #[cold]
    #[inline(never)]
    fn record_collision(
        &mut self,
        first: PropertyNode,
        src: &[u8],
        text: &[u8],
        line: u32,
    ) -> Option<u32> {
        // Tell the keys of this CRC apart by their normalized text.
        self.collided
            .entry(normalized(node_key(src, &first)))
            .or_insert(first.line);
        match self.collided.entry(normalized(text)) {
            std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(line);
                None
            }
        }
    }

    /// Records node `index` (key `text` with CRC `crc`, on `line`) in the duplicate
    /// index; returns the line of an earlier node with the same key.
    #[inline(always)]
    fn record(&mut self, src: &[u8], index: u32, crc: u32, text: &[u8], line: u32) -> Option<u32> {
        let first = self.seen.first_or_insert(&self.nodes, crc, index);
        if first == index {
            return None;
        }
        let first = self.nodes[first as usize];
        if same_key(node_key(src, &first), text) {
            return Some(first.line);
        }
        self.record_collision(first, src, text, line)
    }
}

/// The key bytes of node `n` in `src`.
#[inline(always)]
fn node_key<'a>(src: &'a [u8], n: &PropertyNode) -> &'a [u8] {
    &src[n.key_start as usize..(n.key_start + n.key_len) as usize]
}

/// A key's bytes as matching sees them: ASCII lower case, without `_`.
fn letters(key: &[u8]) -> impl Iterator<Item = u8> + '_ {
    key.iter()
        .filter(|&&c| c != b'_')
        .map(u8::to_ascii_lowercase)
}

/// Whether two keys are one key: equal when ASCII case and `_` are ignored.
fn same_key(a: &[u8], b: &[u8]) -> bool {
    a == b || letters(a).eq(letters(b))
}

/// A key's normalized bytes (ASCII lower case, no `_`).
fn normalized(key: &[u8]) -> Vec<u8> {
    letters(key).collect()
}

/// A line the general path handles: `text` is the line's bytes, from byte `start` of
/// `src` (the file, named `path` in errors), without its `\n` (and, past
/// [`TokenBuffer::line`], trimmed at its end); `no` is its 1-based number.
#[derive(Clone, Copy)]
struct Line<'a> {
    src: &'a str,
    path: &'a Path,
    start: usize,
    text: &'a [u8],
    no: u32,
}

impl<'a> Line<'a> {
    /// Line `no`, `src[start..end]`.
    #[inline(always)]
    fn new(src: &'a str, path: &'a Path, start: usize, end: usize, no: u32) -> Line<'a> {
        let text = &src.as_bytes()[start..end];
        Line {
            src,
            path,
            start,
            text,
            no,
        }
    }
}

/// Where the scan is: the start of the next line, the number of lines done and the
/// open block (see [`TokenBuffer::line`]).
pub(super) struct ScanState {
    pub(super) line_start: usize,
    pub(super) line_no: u32,
    pub(super) open: usize,
    /// The mask word of the next newline, and its bits not yet done.
    pub(super) mask: (usize, u64),
    /// The [`super::chain::KeyChain`] entry predicted for the next block header.
    pub(super) want: u8,
}

/// The open block state when no block is open.
pub(super) const NO_BLOCK: usize = usize::MAX;

/// The open block state of a long block, whose value lines are one region (see
/// [`TokenBuffer::add_block_value`]); `>= LONG_OPEN` is "no block, or a long one".
pub(super) const LONG_OPEN: usize = usize::MAX - 1;

/// Offset of the first `:` at or after `from` in `line`.
#[inline(always)]
pub(super) fn find_colon(line: &[u8], from: usize) -> Option<usize> {
    let rest = line.get(from..)?;
    rest.iter().position(|&b| b == b':').map(|i| from + i)
}

/// First offset at or after `from` in `line` that is not a space or a tab.
#[inline(always)]
pub(super) fn skip_blanks(line: &[u8], mut from: usize) -> usize {
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

/// Whether each byte may continue a key: `[A-Za-z0-9_.]` (`.` joins a leaf's path).
static IDENT_BYTE: [bool; 256] = byte_table!(is_ident_byte);

/// Whether `b` may continue a key: `[A-Za-z0-9_.]` (`.` joins a leaf's path).
const fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.'
}

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

/// The error of a key `line.src[key.0..key.1]` met a second time, on `line` at
/// `column`.
#[cold]
fn duplicate_key(line: &Line<'_>, key: (usize, usize, u32), column: u32, first_line: u32) -> Error {
    Error::new(
        line.path,
        line.no,
        column,
        ErrorKind::DuplicateKey { first_line },
    )
    .with_key(&line.src[key.0..key.1])
}

/// The error of a `line` whose text from `k` on does not start with a key.
#[cold]
fn invalid_key(line: &Line<'_>, k: usize) -> Error {
    let (at, end) = (line.start + k, line.start + line.text.len());
    Error::new(
        line.path,
        line.no,
        char_column(line.src, line.start, at),
        ErrorKind::InvalidKey {
            found: shorten(&line.src[at..end]),
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

/// Checks that `bytes` are UTF-8 text without NUL bytes; the error is the first of
/// the two problems in the file.
pub(super) fn check_text<'a>(bytes: &'a [u8], path: &Path) -> Result<&'a str, Error> {
    if let Some(at) = memchr::memchr(0, bytes) {
        // Invalid UTF-8 before the NUL is the first problem.
        let before = std::str::from_utf8(&bytes[..at]).map_err(|e| e.valid_up_to());
        let (kind, at) = match before {
            Ok(_) => (ErrorKind::NulByte, at),
            Err(bad) => (ErrorKind::InvalidUtf8, bad),
        };
        let (line, column) = position_of(bytes, at);
        return Err(Error::new(path, line, column, kind));
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
