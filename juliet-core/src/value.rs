//! [`Value`], the value lines of one property as borrowed text, and [`ValueError`], what a
//! codec returns when the text does not parse.

use crate::error::ValueErrorKind;

/// Where one value line sits in the source: its byte range (8 bytes: a file of many
/// short value lines holds one per line). Its line and column are worked out from the
/// source when an error names them (`Document::bad_value`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct ValueSpan {
    pub(crate) start: u32,
    pub(crate) len: u32,
}

static_assertions::const_assert_eq!(std::mem::size_of::<ValueSpan>(), 8);

impl ValueSpan {
    /// The bit of `len` that marks the span of a block of several value lines read in
    /// canonical form (from the start of the first line to the end of the last; such a
    /// block is read that way only when shorter than 2 GiB).
    pub(crate) const SEVERAL_LINES: u32 = 1 << 31;

    /// The span without its [`ValueSpan::SEVERAL_LINES`] mark.
    #[inline]
    pub(crate) fn region(self) -> ValueSpan {
        ValueSpan {
            start: self.start,
            len: self.len & !Self::SEVERAL_LINES,
        }
    }
}

/// The value lines of one property, trimmed, without comment or blank lines. Borrowed
/// from the source: reading it copies nothing.
#[derive(Debug, Clone, Copy)]
pub struct Value<'a> {
    repr: Repr<'a>,
}

#[derive(Debug, Clone, Copy)]
enum Repr<'a> {
    Spans {
        src: &'a str,
        spans: &'a [ValueSpan],
    },
    Text(&'a str),
    /// The value lines of a long block, as the text from its first value line to its
    /// last: read with the tokenizer's line rules ([`crate::token::block_line`]).
    Block(&'a str),
    /// One value line, already trimmed and known not to be a comment (an element of a
    /// list, a token of a line): read with no scan. The line is `text[..len]`; `text`
    /// may run on past it (the lines after it), which number codecs may look at in
    /// whole words but never read as the value.
    Line {
        text: &'a str,
        len: usize,
    },
    /// The value lines of a block in the writer's canonical form (each line as it is,
    /// `\n` between them; none blank, a comment or trimmed by the tokenizer).
    Canonical(&'a str),
}

impl<'a> Value<'a> {
    #[inline]
    pub(crate) fn from_spans(src: &'a str, spans: &'a [ValueSpan]) -> Value<'a> {
        Value {
            repr: Repr::Spans { src, spans },
        }
    }

    /// The value lines of a long block: `region` runs from the start of its first value
    /// line to the end of its last (see [`crate::token::block_line`]).
    #[inline]
    pub(crate) fn from_block(region: &'a str) -> Value<'a> {
        Value {
            repr: Repr::Block(region),
        }
    }

    /// A value from free text, one value line per `\n`-separated line (lines are
    /// trimmed; blank and comment lines are skipped as in a file). Used by reflection
    /// calls such as `set_property(id, key, text)`.
    pub fn from_text(text: &'a str) -> Value<'a> {
        Value {
            repr: Repr::Text(text),
        }
    }

    /// One value line taken whole, as the text after a record's `Key: ` or a map
    /// entry's: already trimmed, and a `#` or `//` at its start is text, not a comment
    /// (`Color: #ff0000` holds `#ff0000`). The value the codecs read such a line as.
    ///
    /// ```
    /// use juliet_core::{Codec, Value};
    ///
    /// assert_eq!(String::decode(Value::from_line("#ff0000")).unwrap(), "#ff0000");
    /// assert!(String::decode(Value::from_text("#ff0000")).is_err()); // a comment line
    /// ```
    #[inline]
    pub fn from_line(line: &'a str) -> Value<'a> {
        Value::one_line(line)
    }

    /// One value line that is already trimmed and not a comment: an element line of a
    /// list or map, or one token of a line, as the container codecs hand it on.
    #[inline]
    pub(crate) fn one_line(line: &'a str) -> Value<'a> {
        Value::line_of(line, line.len())
    }

    /// The one value line `text[..len]` (as [`Value::one_line`]) of a text that runs on
    /// past it. `len` must be at a character boundary of `text`.
    #[inline]
    pub(crate) fn line_of(text: &'a str, len: usize) -> Value<'a> {
        debug_assert!(text.is_char_boundary(len));
        Value {
            repr: Repr::Line { text, len },
        }
    }

    /// The value lines of a block in canonical form: `region` runs from the start of its
    /// first value line to the end of its last, none of them blank, a comment, or with
    /// blanks or `\r` at either end.
    #[inline]
    pub(crate) fn from_canonical_block(region: &'a str) -> Value<'a> {
        Value {
            repr: Repr::Canonical(region),
        }
    }

    /// The value lines, in order.
    #[inline]
    pub fn lines(&self) -> impl Iterator<Item = &'a str> + 'a {
        Lines(match self.repr {
            Repr::Spans { src, spans } => LinesOf::Spans(src, spans.iter()),
            Repr::Text(text) => LinesOf::Text(text.split('\n')),
            Repr::Block(region) => LinesOf::Block(region.split('\n')),
            Repr::Line { text, len } => LinesOf::One(Some(&text[..len])),
            Repr::Canonical(region) => LinesOf::Canonical(Some(region)),
        })
    }

    /// Whether the value is the one line `line` (`[]`, `{}`, `~`: the markers of an
    /// empty list, an empty map and `None`).
    #[inline]
    pub(crate) fn is_only(&self, line: &str) -> bool {
        match self.repr {
            Repr::Spans { src, spans } => match spans {
                [one] => {
                    let start = one.start as usize;
                    src.as_bytes().get(start..start + one.len as usize) == Some(line.as_bytes())
                }
                _ => false,
            },
            Repr::Line { text, len } => text.as_bytes().get(..len) == Some(line.as_bytes()),
            // One line is the whole region (`line` has no `\n`).
            Repr::Canonical(region) => region == line,
            Repr::Text(_) | Repr::Block(_) => {
                let mut lines = self.lines();
                lines.next() == Some(line) && lines.next().is_none()
            }
        }
    }

    /// The value lines as the text that holds them, `\n` between them, when they are a
    /// block in the writer's canonical form (read straight from a canonical file);
    /// `None` otherwise.
    #[inline]
    pub(crate) fn canonical_text(&self) -> Option<&'a str> {
        match self.repr {
            Repr::Canonical(region) => Some(region),
            _ => None,
        }
    }

    /// Number of value lines.
    pub fn line_count(&self) -> usize {
        match self.repr {
            Repr::Spans { spans, .. } => spans.len(),
            Repr::Text(_) | Repr::Block(_) => self.lines().count(),
            Repr::Line { .. } => 1,
            Repr::Canonical(region) => 1 + region.bytes().filter(|&b| b == b'\n').count(),
        }
    }

    /// The one value line of a single-line type.
    ///
    /// # Errors
    /// [`ValueErrorKind::ExpectedOneLine`] when there are several lines (pointing at the
    /// second), or none.
    #[inline(always)]
    pub fn single(&self) -> Result<&'a str, ValueError<'a>> {
        // The common case: one value line of a tokenized file.
        match self.repr {
            Repr::Spans { src, spans: [one] } => {
                let start = one.start as usize;
                return Ok(&src[start..start + one.len as usize]);
            }
            Repr::Line { text, len } => return Ok(&text[..len]),
            _ => {}
        }
        self.single_slow()
    }

    /// [`Value::single`] as a place in the source: see [`SingleLine`].
    ///
    /// # Errors
    /// As [`Value::single`].
    #[inline(always)]
    pub(crate) fn single_line(&self) -> Result<SingleLine<'a>, ValueError<'a>> {
        match self.repr {
            Repr::Spans { src, spans: [one] } => {
                let start = one.start as usize;
                return Ok(SingleLine {
                    src,
                    start,
                    end: start + one.len as usize,
                });
            }
            Repr::Line { text, len } => {
                return Ok(SingleLine {
                    src: text,
                    start: 0,
                    end: len,
                });
            }
            _ => {}
        }
        let text = self.single_slow()?;
        Ok(SingleLine {
            src: text,
            start: 0,
            end: text.len(),
        })
    }

    /// [`Value::single`] for free text and for zero or several value lines.
    #[inline(never)]
    fn single_slow(self) -> Result<&'a str, ValueError<'a>> {
        let mut lines = self.lines();
        let first = lines.next().ok_or(ValueError {
            kind: ValueErrorKind::ExpectedOneLine(0),
            found: "",
        })?;
        match lines.next() {
            None => Ok(first),
            Some(second) => Err(ValueError {
                kind: ValueErrorKind::ExpectedOneLine(2 + lines.count()),
                found: second,
            }),
        }
    }
}

/// The value lines of a [`Value`] ([`Value::lines`]): one `match` a line on how the
/// value is held.
struct Lines<'a>(LinesOf<'a>);

enum LinesOf<'a> {
    /// The value lines' spans in the source.
    Spans(&'a str, std::slice::Iter<'a, ValueSpan>),
    /// Free text: each line trimmed, blank and comment lines left out.
    Text(std::str::Split<'a, char>),
    /// A long block, read with the tokenizer's line rules ([`crate::token::block_line`]).
    Block(std::str::Split<'a, char>),
    /// One line.
    One(Option<&'a str>),
    /// Lines as they are, `\n` between them (what is left of them; `None` when done).
    Canonical(Option<&'a str>),
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        match &mut self.0 {
            LinesOf::Spans(src, spans) => {
                let s = spans.next()?;
                Some(&src[s.start as usize..(s.start + s.len) as usize])
            }
            LinesOf::Text(split) => split
                .map(|l| l.trim_matches(|c| c == ' ' || c == '\t' || c == '\r'))
                .find(|l| !(l.is_empty() || l.starts_with('#') || l.starts_with("//"))),
            LinesOf::Block(split) => split.find_map(crate::token::block_line),
            LinesOf::One(line) => line.take(),
            LinesOf::Canonical(rest) => {
                let text = rest.take()?;
                // Value lines are short: a loop, not a search.
                match text.bytes().position(|b| b == b'\n') {
                    Some(i) => {
                        *rest = Some(&text[i + 1..]);
                        Some(&text[..i])
                    }
                    None => Some(text),
                }
            }
        }
    }
}

/// One value line where it sits in its source: `src[start..end]`, for codecs
/// that read its bytes and slice its text only when they need a `&str`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SingleLine<'a> {
    src: &'a str,
    start: usize,
    end: usize,
}

impl<'a> SingleLine<'a> {
    /// The line's text.
    #[inline]
    pub(crate) fn text(self) -> &'a str {
        &self.src[self.start..self.end]
    }

    /// The line's bytes, without the character-boundary checks of [`SingleLine::text`]
    /// (for codecs that read ASCII and take the text only for errors and slow paths).
    #[inline(always)]
    pub(crate) fn bytes(self) -> &'a [u8] {
        &self.src.as_bytes()[self.start..self.end]
    }

    /// A line of 1 to 8 bytes as the first 8 bytes of the source from the line's start,
    /// little-endian (the line's first byte lowest), with the line's length, when the
    /// source holds that many: the line's bytes and what follows them, for codecs that
    /// read a short line in one word and leave out the rest.
    #[inline(always)]
    pub(crate) fn word(self) -> Option<(u64, usize)> {
        let len = self.end.wrapping_sub(self.start);
        let bytes = self
            .src
            .as_bytes()
            .get(self.start..self.start.wrapping_add(8))?;
        let word = u64::from_le_bytes(bytes.try_into().ok()?);
        (len.wrapping_sub(1) < 8).then_some((word, len))
    }
}

/// A codec's parse failure: why, and the text at fault. When `found` is a slice of the
/// value's text (as the stock codecs always make it), the error is reported at that
/// text's exact line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueError<'a> {
    /// Why the text does not parse.
    pub kind: ValueErrorKind,
    /// The offending text, ideally borrowed from the [`Value`].
    pub found: &'a str,
}

impl<'a> ValueError<'a> {
    /// An error about `found`.
    pub fn new(kind: ValueErrorKind, found: &'a str) -> ValueError<'a> {
        ValueError { kind, found }
    }
}

/// Whether `line`, written alone on a line of a file, reads back as one value line with
/// that text: not empty, not starting or ending with a blank (the reader trims them),
/// no comment (`#`, `//`), no header (`;`), no merge conflict marker, no line break
/// (`\n`, or `\r` at the end, which a CRLF file's reader takes for one) and no NUL. A
/// codec that writes text of its own (not quoted, like the `String` codec's) checks its
/// lines with this, so that a value never turns into comments or properties of the file
/// it is saved to.
///
/// ```
/// assert!(juliet_core::reads_as_value_line("FF00FFFF"));
/// assert!(!juliet_core::reads_as_value_line("; Health: 5"));
/// assert!(!juliet_core::reads_as_value_line("<<<<<<< ours"));
/// assert!(!juliet_core::reads_as_value_line("# note"));
/// ```
pub fn reads_as_value_line(line: &str) -> bool {
    let blank = |c: char| c == ' ' || c == '\t';
    !(line.is_empty()
        || line.starts_with(blank)
        || line.ends_with(blank)
        || line.starts_with(['#', ';'])
        || line.starts_with("//")
        || line.contains(['\n', '\0'])
        || line.ends_with('\r')
        || is_conflict_marker(line.as_bytes()))
}

/// Whether the trimmed line `line` is a merge conflict marker: seven `<`, `|`, `=` or
/// `>` alone, or followed by a blank and a label (`<<<<<<< ours`), as git and
/// `jasset merge` write them.
#[inline]
pub(crate) fn is_conflict_marker(line: &[u8]) -> bool {
    match line {
        [c @ (b'<' | b'|' | b'=' | b'>'), ..] if line.len() >= 7 => {
            line[..7].iter().all(|b| b == c) && matches!(line.get(7), None | Some(b' ' | b'\t'))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_only_a_line_when_that_is_its_one_line_however_it_is_held() {
        let src = "; A\n~\n; B\n~\n~ \n";
        let one = [ValueSpan { start: 4, len: 1 }];
        let two = [
            ValueSpan { start: 4, len: 1 },
            ValueSpan { start: 11, len: 1 },
        ];
        let held = [
            (Value::from_spans(src, &one), true),
            (Value::from_spans(src, &two), false),
            (Value::from_spans(src, &[]), false),
            (Value::one_line("~"), true),
            (Value::line_of("~\n~", 1), true),
            (Value::line_of("~~\n", 2), false),
            (Value::from_canonical_block("~"), true),
            (Value::from_canonical_block("~\n~"), false),
            (Value::from_text("  ~  \n# a comment"), true),
            (Value::from_text("~\n~"), false),
            (Value::from_block("~\n\n"), true),
            (Value::from_block("[]"), false),
        ];
        for (i, (value, only)) in held.iter().enumerate() {
            assert_eq!(value.is_only("~"), *only, "case {i}");
            // The same answer as the value's lines give.
            let lines: Vec<&str> = value.lines().collect();
            assert_eq!(lines == ["~"], *only, "case {i}");
        }
    }
}
