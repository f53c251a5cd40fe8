//! The zero-copy tokenizer: `.jasset` bytes to [`PropertyNode`]s.
//!
//! Seed 01 section 3 ("The In-Memory Zero-Copy Parser"), with the line forms of DESIGN.md
//! section 3. Nodes do not copy text: they hold offsets into the source, and live in a
//! reusable [`TokenBuffer`], so tokenizing many files in a row allocates nothing once
//! the buffer has grown to the largest file. Unlike the seed's tokenizer, comment and
//! blank lines between value lines are dropped, never folded into the value.

use std::collections::HashMap;
use std::path::Path;

use crate::crc::{key_crc_runtime, keys_equal, normalize_key};
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
    /// Key CRC -> index of the first node with that CRC (large files only).
    seen: HashMap<u32, u32>,
    /// Normalized key -> line, for the keys whose CRC another, different key of the
    /// file shares (CRC-32 collisions: about a hundred in a million random keys).
    collided: HashMap<String, u32>,
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
        self.collided.clear();
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
        self.scan(src, path)?;
        Ok(Document {
            src,
            path,
            nodes: &mut self.nodes,
            values: &self.values,
        })
    }

    fn scan(&mut self, src: &str, path: &Path) -> Result<(), Error> {
        let bytes = src.as_bytes();
        let mut line_no: u32 = 0;
        let mut start = 0usize;
        // The open block (index of its node), if any.
        let mut open: Option<usize> = None;
        while start <= bytes.len() {
            let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
            line_no += 1;
            self.line(src, start, end, line_no, &mut open, path)?;
            start = end + 1;
        }
        if let Some(node) = open {
            self.close_block(src, node, path)?;
        }
        Ok(())
    }

    /// Handles one line `src[start..end]` (without its `\n`).
    #[inline]
    fn line(
        &mut self,
        src: &str,
        start: usize,
        end: usize,
        line_no: u32,
        open: &mut Option<usize>,
        path: &Path,
    ) -> Result<(), Error> {
        let bytes = src.as_bytes();
        let mut s = start;
        let mut e = end;
        while e > s && matches!(bytes[e - 1], b' ' | b'\t' | b'\r') {
            e -= 1;
        }
        while s < e && matches!(bytes[s], b' ' | b'\t') {
            s += 1;
        }
        if s == e {
            return Ok(());
        }
        let first = bytes[s];
        if first == b'#' || (first == b'/' && s + 1 < e && bytes[s + 1] == b'/') {
            return Ok(());
        }
        let column = (s - start) as u32 + 1;
        if first == b';' {
            if let Some(node) = open.take() {
                self.close_block(src, node, path)?;
            }
            let mut k = s + 1;
            while k < e && matches!(bytes[k], b' ' | b'\t') {
                k += 1;
            }
            let key_end = ident_end(bytes, k, e);
            if key_end == k {
                return Err(invalid_key(src, path, line_no, start, k, e));
            }
            let mut after = key_end;
            while after < e && matches!(bytes[after], b' ' | b'\t') {
                after += 1;
            }
            if after == e {
                // Block header: value lines follow.
                self.push_node(
                    src,
                    path,
                    k,
                    key_end,
                    line_no,
                    (k - start) as u32 + 1,
                    LineForm::Block,
                )?;
                *open = Some(self.nodes.len() - 1);
                return Ok(());
            }
            if bytes[after] != b':' {
                return Err(invalid_key(src, path, line_no, start, k, e));
            }
            self.push_node(
                src,
                path,
                k,
                key_end,
                line_no,
                (k - start) as u32 + 1,
                LineForm::Inline,
            )?;
            return self.one_line_value(src, path, start, after + 1, e, line_no);
        }
        if let Some(node) = *open {
            self.values.push(ValueSpan {
                start: s as u32,
                len: (e - s) as u32,
                line: line_no,
                column,
            });
            self.nodes[node].values_len += 1;
            return Ok(());
        }
        // Compact `Key: value`, allowed only where no block is open.
        let key_end = ident_end(bytes, s, e);
        let mut after = key_end;
        while after < e && matches!(bytes[after], b' ' | b'\t') {
            after += 1;
        }
        if key_end > s && after < e && bytes[after] == b':' {
            self.push_node(src, path, s, key_end, line_no, column, LineForm::Compact)?;
            return self.one_line_value(src, path, start, after + 1, e, line_no);
        }
        Err(Error::new(
            path,
            line_no,
            column,
            ErrorKind::ValueWithoutProperty {
                found: shorten(&src[s..e]),
            },
        ))
    }

    /// Adds the value of an inline or compact property: `src[from..e]`, trimmed.
    fn one_line_value(
        &mut self,
        src: &str,
        path: &Path,
        line_start: usize,
        mut from: usize,
        e: usize,
        line_no: u32,
    ) -> Result<(), Error> {
        let bytes = src.as_bytes();
        while from < e && matches!(bytes[from], b' ' | b'\t') {
            from += 1;
        }
        let node = self.nodes.len() - 1;
        if from == e {
            let n = &self.nodes[node];
            return Err(
                Error::new(path, n.line, n.column, ErrorKind::HeaderWithoutValue)
                    .with_key(&src[n.key_start as usize..(n.key_start + n.key_len) as usize]),
            );
        }
        self.values.push(ValueSpan {
            start: from as u32,
            len: (e - from) as u32,
            line: line_no,
            column: char_column(src, line_start, from),
        });
        self.nodes[node].values_len = 1;
        Ok(())
    }

    fn close_block(&self, src: &str, node: usize, path: &Path) -> Result<(), Error> {
        let n = &self.nodes[node];
        if n.values_len == 0 {
            return Err(
                Error::new(path, n.line, n.column, ErrorKind::HeaderWithoutValue)
                    .with_key(&src[n.key_start as usize..(n.key_start + n.key_len) as usize]),
            );
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn push_node(
        &mut self,
        src: &str,
        path: &Path,
        key_start: usize,
        key_end: usize,
        line: u32,
        column: u32,
        form: LineForm,
    ) -> Result<(), Error> {
        let key_crc = key_crc_runtime(&src.as_bytes()[key_start..key_end]);
        if let Some(first_line) = self.find_duplicate(src, key_start, key_end, key_crc, line) {
            return Err(
                Error::new(path, line, column, ErrorKind::DuplicateKey { first_line })
                    .with_key(&src[key_start..key_end]),
            );
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

    /// Returns the line of an earlier node with the same key (under any spelling) as
    /// `src[key_start..key_end]`, whose CRC is `crc`, and records this one (on `line`).
    /// Two different keys that share a CRC are not duplicates.
    fn find_duplicate(
        &mut self,
        src: &str,
        key_start: usize,
        key_end: usize,
        crc: u32,
        line: u32,
    ) -> Option<u32> {
        let key = &src[key_start..key_end];
        let count = self.nodes.len();
        if count < LINEAR_DUPLICATE_SCAN {
            return self
                .nodes
                .iter()
                .find(|n| n.key_crc == crc && keys_equal(node_key(src, n), key))
                .map(|n| n.line);
        }
        if self.seen.is_empty() {
            // Past the linear scan: index the nodes so far (they hold no duplicate).
            for i in 0..count {
                let n = self.nodes[i];
                self.record(src, i as u32, n.key_crc, node_key(src, &n), n.line);
            }
        }
        self.record(src, count as u32, crc, key, line)
    }

    /// Records node `index` (key `key` with CRC `crc`, on `line`) in the duplicate
    /// index, returning the line of an earlier node with the same key.
    fn record(&mut self, src: &str, index: u32, crc: u32, key: &str, line: u32) -> Option<u32> {
        let first = *self.seen.entry(crc).or_insert(index);
        if first == index {
            return None;
        }
        let first = self.nodes[first as usize];
        let first_key = node_key(src, &first);
        if keys_equal(first_key, key) {
            return Some(first.line);
        }
        // A CRC collision: tell the keys with this CRC apart by their normalized text.
        self.collided
            .entry(normalize_key(first_key))
            .or_insert(first.line);
        match self.collided.entry(normalize_key(key)) {
            std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(line);
                None
            }
        }
    }
}

/// The key text of node `n` in `src`.
fn node_key<'a>(src: &'a str, n: &PropertyNode) -> &'a str {
    &src[n.key_start as usize..(n.key_start + n.key_len) as usize]
}

/// End of the identifier starting at `from` (equal to `from` when there is none).
#[inline]
fn ident_end(bytes: &[u8], from: usize, end: usize) -> usize {
    if from >= end || !(bytes[from].is_ascii_alphabetic() || bytes[from] == b'_') {
        return from;
    }
    let mut i = from + 1;
    while i < end && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
        i += 1;
    }
    i
}

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

/// Checks that `bytes` are UTF-8 text without NUL bytes; the error is the first of
/// the two problems in the file.
fn check_text<'a>(bytes: &'a [u8], path: &Path) -> Result<&'a str, Error> {
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

    /// `prop_vmaxkgcf` and `prop_hwpvvous` share a CRC-32 (as do about a hundred pairs
    /// in a million random keys); they are different keys, not duplicates, in small
    /// and large files, while a real duplicate of either is still found.
    #[test]
    fn keys_that_share_a_crc_are_not_duplicates() {
        assert_eq!(
            key_crc_runtime(b"prop_vmaxkgcf"),
            key_crc_runtime(b"prop_hwpvvous")
        );
        for filler in [0, 40] {
            let mut src = String::new();
            for i in 0..filler {
                src.push_str(&format!("K{i}: {i}\n"));
            }
            src.push_str("prop_vmaxkgcf: 1\nprop_hwpvvous: 2\n");
            let nodes = tok(&src).unwrap();
            assert_eq!(nodes.len(), filler + 2);
            for again in ["PropHwpvvous", "PROP_VMAXKGCF"] {
                let first_line = if again.starts_with("PropH") {
                    filler + 2
                } else {
                    filler + 1
                };
                let err = tok(&format!("{src}{again}: 3\n")).unwrap_err();
                assert_eq!(
                    err.kind,
                    ErrorKind::DuplicateKey {
                        first_line: first_line as u32
                    },
                    "{again} after {filler} keys"
                );
                assert_eq!(err.line as usize, filler + 3);
            }
        }
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
        let mut buf = TokenBuffer::new();
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
    fn empty_and_comment_only_files_have_no_nodes() {
        assert!(tok("").unwrap().is_empty());
        assert!(tok("# x\n\n// y").unwrap().is_empty());
    }
}
