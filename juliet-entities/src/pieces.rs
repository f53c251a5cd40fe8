//! Cutting a large `.jasset` text into pieces that tokenize as the whole does, so that
//! a file of a million properties is read with the tokenizer's arrays of a piece
//! (docs/reliability.md, section 6).

/// About how many lines [`pieces`] puts in a piece (65 536).
pub const PIECE_LINES: usize = 1 << 16;

/// `text` cut at line starts into pieces of about [`PIECE_LINES`] lines, where a cut
/// changes nothing the tokenizer makes of the properties (docs/jasset-format.md,
/// section 3): before a header line (`;` after leading blanks), which opens a property
/// whatever came before, or before any line while no block is open (no header yet, or
/// the last one was `; Key: value`). Never before a line that starts with a byte-order
/// mark, which the tokenizer skips at the start of a text only. A block longer than a
/// piece makes a longer piece. The pieces, joined, are `text`. Tokenizing piece by
/// piece ([`juliet_core::TokenBuffer::tokenize`]) reads a file of a million properties
/// with the tokenizer's arrays of one piece.
///
/// ```
/// use juliet_entities::load::{pieces, PIECE_LINES};
///
/// let text = "; Mass\n1\n".repeat(PIECE_LINES);
/// let cut: Vec<&[u8]> = pieces(text.as_bytes()).collect();
/// assert_eq!(cut.len(), 2);
/// assert!(cut[1].starts_with(b"; Mass\n"));
/// assert_eq!(cut.concat(), text.as_bytes());
/// ```
pub fn pieces(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut lines = 0;
        let mut open = false;
        let mut at = 0;
        while at < rest.len() {
            let end = (rest[at..].iter())
                .position(|&b| b == b'\n')
                .map_or(rest.len(), |i| at + i + 1);
            let line = &rest[at..end];
            // Trimmed as the tokenizer trims: spaces and tabs only.
            let lead = (line.iter())
                .position(|&b| b != b' ' && b != b'\t')
                .unwrap_or(line.len());
            let header = line.get(lead) == Some(&b';');
            if lines >= PIECE_LINES && (header || !open) && !line.starts_with(b"\xEF\xBB\xBF") {
                break;
            }
            if header {
                // `; Key` opens a block; `; Key: value` is a whole property.
                open = !line.contains(&b':');
            }
            at = end;
            lines += 1;
        }
        let (piece, tail) = rest.split_at(at);
        rest = tail;
        Some(piece)
    })
}
