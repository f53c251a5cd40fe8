//! Edits of a file's bytes: [`TextEdit`], one byte range replaced by a text, and
//! [`apply_edits`], which makes a list of them. Every program that changes a `.jasset`
//! file in place writes its change as such a list: the format-preserving save, and the
//! `jasset` commands that edit files (`set`, `migrate`, `merge`, `renumber`, `mv`). The
//! ranges come from the spans of a tokenized [`Document`](crate::Document)
//! ([`Document::key_span`](crate::Document::key_span),
//! [`Document::value_spans`](crate::Document::value_spans),
//! [`Document::property_span`](crate::Document::property_span)).

use std::ops::Range;

/// One edit of a text: its bytes `range` replaced by `text`. An empty range inserts
/// `text` at `range.start`; an empty `text` removes the range.
///
/// ```
/// use juliet_core::{apply_edits, TextEdit};
///
/// let src = b"; Mass\n2\n";
/// let edits = vec![TextEdit::new(7..8, "3"), TextEdit::insert(0, "# heavy\n")];
/// assert_eq!(apply_edits(src, edits).unwrap(), b"# heavy\n; Mass\n3\n");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    /// The bytes replaced, as a range of the edited text (`start <= end`).
    pub range: Range<usize>,
    /// What they are replaced by.
    pub text: String,
}

impl TextEdit {
    /// The edit that replaces the bytes `range` by `text`.
    pub fn new(range: Range<usize>, text: impl Into<String>) -> TextEdit {
        TextEdit {
            range,
            text: text.into(),
        }
    }

    /// The edit that inserts `text` at byte `at`.
    pub fn insert(at: usize, text: impl Into<String>) -> TextEdit {
        TextEdit::new(at..at, text)
    }

    /// The edit that removes the bytes `range`.
    pub fn remove(range: Range<usize>) -> TextEdit {
        TextEdit::new(range, String::new())
    }

    /// Whether the edit inserts only (its range is empty).
    pub fn is_insertion(&self) -> bool {
        self.range.is_empty()
    }
}

/// Why [`apply_edits`] made no text: a list of edits that does not say one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// Two edits change the same bytes: `second` starts inside `first` (after sorting,
    /// see [`apply_edits`]).
    #[error("edits of bytes {}..{} and {}..{} overlap", first.start, first.end, second.start, second.end)]
    Overlap {
        /// The earlier edit's range.
        first: Range<usize>,
        /// The range of the edit that starts inside it.
        second: Range<usize>,
    },
    /// An edit's range is not a range of the text (`len` bytes): it ends past it, or it
    /// starts after its end.
    #[error("edit of bytes {}..{} outside a text of {len} bytes", range.start, range.end)]
    OutOfBounds {
        /// The edit's range.
        range: Range<usize>,
        /// The text's length.
        len: usize,
    },
}

/// `src` with `edits` made. The edits are sorted by range (stably: insertions at one
/// byte keep their order, and come before a replacement that starts there), then must
/// not overlap: each starts at or after the end of the one before it.
///
/// # Errors
/// [`EditError::Overlap`] for an edit that starts inside an earlier one,
/// [`EditError::OutOfBounds`] for a range that is not one of `src`; nothing is made
/// then.
///
/// ```
/// use juliet_core::{apply_edits, EditError, TextEdit};
///
/// let src = b"; Tags\nred\nblue\n";
/// let both = vec![TextEdit::new(11..15, "green"), TextEdit::insert(11, "pink\n")];
/// assert_eq!(apply_edits(src, both).unwrap(), b"; Tags\nred\npink\ngreen\n");
/// let overlapping = vec![TextEdit::remove(7..15), TextEdit::new(11..15, "green")];
/// assert_eq!(
///     apply_edits(src, overlapping),
///     Err(EditError::Overlap { first: 7..15, second: 11..15 })
/// );
/// ```
pub fn apply_edits(src: &[u8], mut edits: Vec<TextEdit>) -> Result<Vec<u8>, EditError> {
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    let mut at = 0..0;
    for e in &edits {
        if e.range.start > e.range.end || e.range.end > src.len() {
            return Err(EditError::OutOfBounds {
                range: e.range.clone(),
                len: src.len(),
            });
        }
        if e.range.start < at.end {
            return Err(EditError::Overlap {
                first: at,
                second: e.range.clone(),
            });
        }
        at = e.range.clone();
    }
    let added: usize = edits.iter().map(|e| e.text.len()).sum();
    let mut out = Vec::with_capacity(src.len() + added);
    let mut at = 0;
    for e in &edits {
        out.extend_from_slice(&src[at..e.range.start]);
        out.extend_from_slice(e.text.as_bytes());
        at = e.range.end;
    }
    out.extend_from_slice(&src[at..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insertions_at_one_byte_keep_their_order_before_a_replacement_there() {
        let edits = vec![
            TextEdit::new(1..2, "X"),
            TextEdit::insert(1, "a"),
            TextEdit::insert(1, "b"),
            TextEdit::insert(3, "c"),
        ];
        assert_eq!(apply_edits(b"0123", edits).unwrap(), b"0abX2c3");
    }

    #[test]
    fn an_edit_inside_another_is_refused_and_one_at_its_end_is_not() {
        let inside = vec![TextEdit::new(0..3, "x"), TextEdit::insert(2, "y")];
        assert_eq!(
            apply_edits(b"0123", inside),
            Err(EditError::Overlap {
                first: 0..3,
                second: 2..2
            })
        );
        let twice = vec![TextEdit::new(1..2, "x"), TextEdit::new(1..2, "y")];
        assert!(matches!(
            apply_edits(b"0123", twice),
            Err(EditError::Overlap { .. })
        ));
        let at_end = vec![TextEdit::new(0..3, "x"), TextEdit::insert(3, "y")];
        assert_eq!(apply_edits(b"0123", at_end).unwrap(), b"xy3");
    }

    #[test]
    fn a_range_outside_the_text_is_refused() {
        for range in [3..5, 5..5] {
            let edit = vec![TextEdit::remove(range.clone())];
            assert_eq!(
                apply_edits(b"0123", edit),
                Err(EditError::OutOfBounds { range, len: 4 })
            );
        }
        #[allow(clippy::reversed_empty_ranges)]
        let backwards = vec![TextEdit::remove(3..1)];
        assert!(matches!(
            apply_edits(b"0123", backwards),
            Err(EditError::OutOfBounds { .. })
        ));
    }
}
