//! [`BlockHeader`]: a property's block header (`; Key\n`) made once, at compile time,
//! into what the canonical reading compares a line with: one masked compare of 16
//! bytes ([`Document::block_at_reading`]).

use super::lazy::{line_end, next_header, Lazy, EDGE, FIRST, LAST, UNCOUNTED};
use super::Document;

/// The block header `; Key\n` of one property, as the canonical reading compares a
/// line with it: its first 16 bytes and a mask of those that count. Made by the derive
/// in a constant for each property ([`BlockHeader::new`]), and given to
/// [`crate::Properties::next_block`].
#[derive(Debug, Clone, Copy)]
pub struct BlockHeader {
    /// `; `, the key and `\n`, little-endian, zero past the end (the first 16 bytes of a
    /// longer header).
    word: u128,
    /// Ones over the bytes of `word` that count.
    mask: u128,
    /// The key.
    key: &'static str,
    /// Its CRC ([`crate::key_crc`]).
    crc: u32,
}

/// Keys of at most this many bytes have their whole header in the 16-byte word.
const SHORT_KEY: usize = 13;

impl BlockHeader {
    /// The header of `key`, an ASCII identifier (as every derived key is; another key
    /// is never matched, and its property is read by the tokenizer).
    pub const fn new(key: &'static str) -> BlockHeader {
        let bytes = key.as_bytes();
        let mut header = [0u8; 16];
        header[0] = b';';
        header[1] = b' ';
        let mut i = 0;
        while i < bytes.len() && i < 14 {
            header[2 + i] = bytes[i];
            i += 1;
        }
        let counted = if bytes.len() <= SHORT_KEY {
            header[bytes.len() + 2] = b'\n';
            bytes.len() + 3
        } else {
            16
        };
        let mask = if counted == 16 {
            u128::MAX
        } else {
            (1u128 << (8 * counted)) - 1
        };
        BlockHeader {
            word: u128::from_le_bytes(header),
            mask,
            key,
            crc: crate::crc::key_crc(key),
        }
    }

    /// The key this header is of.
    pub fn key(&self) -> &'static str {
        self.key
    }

    /// Where the value line starts when the line at `at` of `bytes` is this header, as
    /// a block (`; Key\n`, `false`) or as an inline header (`; Key: value`, `true`).
    #[inline(always)]
    fn value_at(&self, bytes: &[u8], at: usize) -> Option<(usize, bool)> {
        let n = self.key.len();
        let Some(word) = bytes.get(at..at + 16) else {
            return header_at(bytes, at, self.key);
        };
        let word = u128::from_le_bytes(word.try_into().expect("16 bytes"));
        let diff = (word ^ self.word) & self.mask;
        if n <= SHORT_KEY {
            if diff == 0 {
                return Some((at + n + 3, false));
            }
            // `:` where the block header has its `\n`, then a space.
            let inline = u128::from(b'\n' ^ b':') << (8 * (n + 2));
            return (diff == inline && bytes.get(at + n + 3) == Some(&b' '))
                .then_some((at + n + 4, true));
        }
        let tail = bytes.get(at + 16..at + 2 + n)?;
        if diff != 0 || !super::same_bytes(tail, &self.key.as_bytes()[14..]) {
            return None;
        }
        after_key(bytes, at + 2 + n)
    }
}

/// [`BlockHeader::value_at`] near the end of the text, byte by byte.
#[inline(never)]
fn header_at(bytes: &[u8], at: usize, key: &str) -> Option<(usize, bool)> {
    let header = bytes.get(at..at + 2 + key.len())?;
    if header[..2] != *b"; " || !super::same_bytes(&header[2..], key.as_bytes()) {
        return None;
    }
    after_key(bytes, at + 2 + key.len())
}

/// The value line's start after a key that ends at `key_end`: a block when `\n`
/// follows, an inline header when `: ` does.
#[inline(always)]
fn after_key(bytes: &[u8], key_end: usize) -> Option<(usize, bool)> {
    match bytes.get(key_end) {
        Some(b'\n') => Some((key_end + 1, false)),
        Some(b':') if bytes.get(key_end + 1) == Some(&b' ') => Some((key_end + 2, true)),
        _ => None,
    }
}

impl Document<'_> {
    /// When the document is being filled and its next property is `header`'s key in
    /// canonical form (as a block or an inline header, followed by what the canonical
    /// reading takes, as [`Document::canonical_keyed`]), binds it, consumed, and
    /// returns its value line's start and length; `None` otherwise, changing nothing.
    /// The property is bound as [`Document::bind_canonical`] binds one. Lines are not
    /// counted: the reading's next line number is found again when it is asked for
    /// ([`Document::line_of`]).
    #[inline(always)]
    pub(crate) fn block_at_reading(&mut self, header: &BlockHeader) -> Option<(u32, u32)> {
        let pos = self.lazy?.pos;
        let bytes = self.src.as_bytes();
        let (start, inline) = header.value_at(bytes, pos as usize)?;
        let end = line_end(&self.buf.masks, bytes.len(), start);
        // Not empty, no blank, comment, header or conflict-marker first byte, no trimmed
        // last one: the line is the value the tokenizer reads.
        if end <= start {
            return None;
        }
        let (first, last) = (*bytes.get(start)?, *bytes.get(end - 1)?);
        if (EDGE[usize::from(first)] & FIRST) | (EDGE[usize::from(last)] & LAST) != 0 {
            return None;
        }
        let (next, _) = next_header(bytes, &self.buf.masks, end + 1, 0)?;
        let (start, len) = (start as u32, (end - start) as u32);
        if self.keep_nodes || cfg!(debug_assertions) {
            self.record_block(pos, start, len, inline, header.crc);
        } else {
            self.unmade += 1;
        }
        self.lazy = ((next as usize) < bytes.len()).then_some(Lazy {
            pos: next,
            line: UNCOUNTED,
        });
        Some((start, len))
    }
}
