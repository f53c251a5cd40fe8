//! Where a [`Document`]'s properties sit in its text: byte ranges of
//! [`Document::source`] for a key, each value line and a whole property, so that a
//! program editing the file ([`TextEdit`](crate::TextEdit)) finds its lines without
//! reading them again.

use std::ops::Range;

use super::{node_spans, value_line_range, Document, ValueSpan};

/// The byte range of `span` in the source.
fn range(span: &ValueSpan) -> Range<usize> {
    span.start as usize..(span.start + span.len) as usize
}

/// The byte ranges in `region` of its value lines, `region` being the text of a block
/// from its first value line to its last: the lines the tokenizer reads as the block's
/// value lines, each without the blanks around it (spaces and tabs, and a `\r` at its
/// end), blank lines and `#` and `//` comments left out.
///
/// ```
/// let region = "1 0 0\r\n  # halfway\r\n\t2 0 0 \r\n\r\n3 0 0";
/// let lines: Vec<&str> = juliet_core::value_line_spans(region).map(|r| &region[r]).collect();
/// assert_eq!(lines, ["1 0 0", "2 0 0", "3 0 0"]);
/// ```
pub fn value_line_spans(region: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut next = 0;
    region.split('\n').filter_map(move |l| {
        let start = next;
        next += l.len() + 1;
        value_line_range(l).map(|r| start + r.start..start + r.end)
    })
}

impl<'a> Document<'a> {
    /// Where [`Document::source`] starts in the bytes given to
    /// [`TokenBuffer::tokenize`](super::TokenBuffer::tokenize): 3 after a UTF-8
    /// byte-order mark, else 0. Added to a span of this document, it gives the range of
    /// those bytes.
    #[inline]
    pub fn source_offset(&self) -> usize {
        if self.bom {
            3
        } else {
            0
        }
    }

    /// The byte range of the key of node `index` in [`Document::source`]: the key as
    /// written ([`Document::key`]), without the `;` before it or the `:` after it.
    ///
    /// Panics when `index` is out of bounds, like [`Document::key`].
    #[inline]
    pub fn key_span(&self, index: usize) -> Range<usize> {
        let n = &self.buf.nodes[index];
        n.key_start as usize..(n.key_start + n.key_len) as usize
    }

    /// The byte range of each value line of node `index` in [`Document::source`], in
    /// file order: the lines [`Document::value_lines`] gives (one at least), each
    /// without the blanks around it and its line ending; the comment and blank lines
    /// between them are in no range. The value of a `; Key: value` or `Key: value` line
    /// is the text after the `:` on that line.
    ///
    /// Panics when `index` is out of bounds, like [`Document::key`].
    pub fn value_spans(&self, index: usize) -> impl Iterator<Item = Range<usize>> + '_ {
        let n = &self.buf.nodes[index];
        let (spans, region) = match node_spans(&self.buf.values, n) {
            [region] if n.is_long_block() => (&[][..], range(region)),
            spans => (spans, 0..0),
        };
        let start = region.start;
        let lines = value_line_spans(&self.src[region]);
        (spans.iter().map(range)).chain(lines.map(move |r| start + r.start..start + r.end))
    }

    /// The byte range of the whole of node `index` in [`Document::source`]: from the
    /// start of the line that holds its key (the `; Key` or `Key: value` line, blanks
    /// before the `;` included) through the line ending of its last value line (the
    /// end of the text when that line has none). The comment and blank lines between
    /// its value lines are inside; those before its header and after its last value
    /// line are not.
    ///
    /// ```
    /// use std::path::Path;
    /// use juliet_core::TokenBuffer;
    ///
    /// let text = "# a path\n; Path\n1 0 0\n# halfway\n2 0 0\n\n; Mass: 2\n";
    /// let mut buffer = TokenBuffer::new();
    /// let doc = buffer.tokenize(text.as_bytes(), Path::new("e.jasset"))?;
    /// assert_eq!(&text[doc.key_span(0)], "Path");
    /// let lines: Vec<&str> = doc.value_spans(0).map(|r| &text[r]).collect();
    /// assert_eq!(lines, ["1 0 0", "2 0 0"]);
    /// assert_eq!(&text[doc.property_span(0)], "; Path\n1 0 0\n# halfway\n2 0 0\n");
    /// assert_eq!(&text[doc.value_spans(1).next().unwrap()], "2");
    /// assert_eq!(&text[doc.property_span(1)], "; Mass: 2\n");
    /// # Ok::<(), juliet_core::Error>(())
    /// ```
    ///
    /// Panics when `index` is out of bounds, like [`Document::key`].
    pub fn property_span(&self, index: usize) -> Range<usize> {
        let bytes = self.src.as_bytes();
        let key = self.key_span(index).start;
        let start = memchr::memrchr(b'\n', &bytes[..key]).map_or(0, |i| i + 1);
        let n = &self.buf.nodes[index];
        // A long block's region ends where its last value line does.
        let last = node_spans(&self.buf.values, n).last().map(range);
        let end = last.map_or(key, |r| r.end);
        let end = memchr::memchr(b'\n', &bytes[end..]).map_or(bytes.len(), |i| end + i + 1);
        start..end
    }

    /// The byte offset in [`Document::source`] of `text` when it is a slice of it (a
    /// codec's error points at the text it found), else `None`.
    pub(crate) fn offset_of(&self, text: &str) -> Option<usize> {
        let base = self.src.as_ptr() as usize;
        let found = text.as_ptr() as usize;
        (found >= base && found <= base + self.src.len()).then(|| found - base)
    }
}
