//! One pass over a file's bytes, 64 at a time, that finds its newlines (one bit mask
//! per 64-byte block) and tells whether the text is plain: ASCII without NUL bytes,
//! hence valid UTF-8 with no further check.
//!
//! On `x86_64` the blocks are compared 16 bytes at a time with SSE2 (`pcmpeqb`,
//! `pcmpgtb`, `pmovmskb`; SSE2 is part of the `x86_64` baseline, so no run-time
//! detection is needed); elsewhere a portable version gives the same masks. The only
//! `unsafe` of the tokenizer lives here, each block with its `// SAFETY:` argument, and
//! the tests below run under Miri (`.ci/miri`).

/// Bytes per mask word.
pub(crate) const BLOCK: usize = 64;

/// Fills `masks` (cleared first) with one word per 64-byte block of `bytes` (the last
/// block may be partial): bit `i` of word `w` is set when `bytes[64 * w + i]` is `\n`.
/// Returns `bytes` as text when every byte is ASCII and none is NUL; `None` otherwise
/// (the masks are filled either way).
pub(crate) fn scan_text<'a>(bytes: &'a [u8], masks: &mut Vec<u64>) -> Option<&'a str> {
    masks.clear();
    masks.reserve(bytes.len().div_ceil(BLOCK));
    let mut blocks = bytes.chunks_exact(BLOCK);
    let mut checker = Checker::new();
    // Written in place: no capacity check, and no call in the loop (which would send
    // the checker's vectors to the stack).
    let full = blocks.len();
    debug_assert!(masks.capacity() >= full);
    for (word, block) in masks.spare_capacity_mut().iter_mut().zip(&mut blocks) {
        word.write(checker.block(block.try_into().unwrap_or(&[b' '; BLOCK])));
    }
    // SAFETY: the capacity is at least `bytes.len().div_ceil(BLOCK)`, at least `full`
    // (the number of whole blocks), so the loop above ran `full` times and wrote the
    // first `full` words of the spare capacity (the length was 0 after `clear`).
    unsafe { masks.set_len(full) };
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let mask = match bytes.len().checked_sub(BLOCK) {
            // The last 64 bytes of the file (overlapping the block before): the bits
            // of the tail are the high ones.
            Some(last) => {
                let block = bytes[last..].try_into().unwrap_or(&[b' '; BLOCK]);
                checker.block(block) >> (BLOCK - tail.len())
            }
            // A file under 64 bytes, padded with spaces: neither a newline nor a NUL
            // or non-ASCII byte.
            None => {
                let mut padded = [b' '; BLOCK];
                padded[..tail.len()].copy_from_slice(tail);
                checker.block(&padded)
            }
        };
        masks.push(mask);
    }
    if !checker.plain() {
        return None;
    }
    // SAFETY: every byte of `bytes` is in `1..=0x7F` (checked by `Checker::block` on
    // each block, the padding of the last one aside), and a sequence of ASCII bytes is
    // valid UTF-8.
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// The newline mask of one 64-byte block, and whether all its bytes are in `1..=0x7F`.
#[cfg_attr(not(test), allow(dead_code))]
fn classify(block: &[u8; BLOCK]) -> (u64, bool) {
    let mut checker = Checker::new();
    let mask = checker.block(block);
    (mask, checker.plain())
}

/// Finds the newlines of 64-byte blocks and remembers whether every byte seen so far
/// is in `1..=0x7F`: the bitwise OR of all bytes (a high bit set: not ASCII) and their
/// unsigned minimum (0: a NUL), one vector each, tested once at the end.
#[cfg(target_arch = "x86_64")]
struct Checker {
    any: std::arch::x86_64::__m128i,
    min: std::arch::x86_64::__m128i,
}

#[cfg(target_arch = "x86_64")]
impl Checker {
    #[inline(always)]
    fn new() -> Checker {
        use std::arch::x86_64::{_mm_set1_epi8, _mm_setzero_si128};
        // SAFETY: SSE2 is enabled on every `x86_64` target (no memory is touched).
        unsafe {
            Checker {
                any: _mm_setzero_si128(),
                min: _mm_set1_epi8(-1),
            }
        }
    }

    /// The newline mask of `block` (bit `i` for `block[i] == b'\n'`).
    #[inline(always)]
    fn block(&mut self, block: &[u8; BLOCK]) -> u64 {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8,
            _mm_or_si128, _mm_set1_epi8,
        };
        // SAFETY: SSE2 is enabled on every `x86_64` target, so these intrinsics are
        // available; each `_mm_loadu_si128` reads 16 bytes at offset 0, 16, 32 or 48 of
        // the 64-byte array `block`, in bounds, and has no alignment requirement.
        unsafe {
            let newline = _mm_set1_epi8(b'\n' as i8);
            let at = |i: usize| _mm_loadu_si128(block.as_ptr().add(16 * i).cast::<__m128i>());
            let (a, b, c, d) = (at(0), at(1), at(2), at(3));
            let bits = |v: __m128i| _mm_movemask_epi8(_mm_cmpeq_epi8(v, newline)) as u16 as u64;
            self.any = _mm_or_si128(
                self.any,
                _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)),
            );
            self.min = _mm_min_epu8(
                self.min,
                _mm_min_epu8(_mm_min_epu8(a, b), _mm_min_epu8(c, d)),
            );
            bits(a) | bits(b) << 16 | bits(c) << 32 | bits(d) << 48
        }
    }

    /// Whether every byte of the blocks so far is in `1..=0x7F`.
    #[inline(always)]
    fn plain(&self) -> bool {
        use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_setzero_si128};
        // SAFETY: SSE2 is enabled on every `x86_64` target (no memory is touched).
        unsafe {
            let nul = _mm_cmpeq_epi8(self.min, _mm_setzero_si128());
            _mm_movemask_epi8(self.any) == 0 && _mm_movemask_epi8(nul) == 0
        }
    }
}

/// The portable [`Checker`]: one byte at a time.
#[cfg(not(target_arch = "x86_64"))]
struct Checker {
    plain: bool,
}

#[cfg(not(target_arch = "x86_64"))]
impl Checker {
    fn new() -> Checker {
        Checker { plain: true }
    }

    fn block(&mut self, block: &[u8; BLOCK]) -> u64 {
        let (mask, plain) = classify_scalar(block);
        self.plain &= plain;
        mask
    }

    fn plain(&self) -> bool {
        self.plain
    }
}

/// How many leading bytes (0 to 16) `window` and `head` (16 bytes, little-endian)
/// have in common: the key chain's test of a line start against its prediction.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn common_prefix(window: &[u8; 16], head: &u128) -> u32 {
    use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8};
    // SAFETY: SSE2 is enabled on every `x86_64` target; each `_mm_loadu_si128` reads the
    // 16 bytes of a reference to 16 bytes (`[u8; 16]`, `u128`), in bounds, with no
    // alignment requirement.
    let equal = unsafe {
        let a = _mm_loadu_si128(window.as_ptr().cast::<__m128i>());
        let b = _mm_loadu_si128(std::ptr::from_ref(head).cast::<__m128i>());
        _mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) as u32
    };
    // Bits 16 and up of `!equal` are set: at most 16.
    (!equal).trailing_zeros()
}

/// How many leading bytes (0 to 16) `window` and `head` (16 bytes, little-endian)
/// have in common: the key chain's test of a line start against its prediction.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn common_prefix(window: &[u8; 16], head: &u128) -> u32 {
    common_prefix_scalar(window, head)
}

/// The portable [`common_prefix`].
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn common_prefix_scalar(window: &[u8; 16], head: &u128) -> u32 {
    (u128::from_le_bytes(*window) ^ *head).trailing_zeros() / 8
}

/// The portable [`classify`]: one byte at a time.
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
fn classify_scalar(block: &[u8; BLOCK]) -> (u64, bool) {
    let mut mask = 0u64;
    let mut good = true;
    for (i, &b) in block.iter().enumerate() {
        mask |= u64::from(b == b'\n') << i;
        good &= (1..=0x7F).contains(&b);
    }
    (mask, good)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small xorshift generator.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// Random bytes, mostly text with many newlines, some NUL and non-ASCII bytes.
    fn random_bytes(rng: &mut Rng, len: usize, plain: bool) -> Vec<u8> {
        (0..len)
            .map(|_| match rng.below(if plain { 8 } else { 10 }) {
                0 | 1 => b'\n',
                2 => b' ',
                3..=7 => b'!' + rng.below(94) as u8,
                8 => 0,
                _ => 0x80 + rng.below(128) as u8,
            })
            .collect()
    }

    /// The masks and plainness by the obvious byte loop.
    fn expected(bytes: &[u8]) -> (Vec<u64>, bool) {
        let mut masks = vec![0u64; bytes.len().div_ceil(BLOCK)];
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                masks[i / BLOCK] |= 1 << (i % BLOCK);
            }
        }
        (masks, bytes.iter().all(|&b| (1..0x80).contains(&b)))
    }

    #[test]
    fn masks_and_plainness_match_a_byte_loop_at_every_length_and_offset() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut masks = Vec::new();
        // Small sizes keep the test quick under Miri.
        let lengths = if cfg!(miri) { 0..140 } else { 0..200 };
        for len in lengths {
            for plain in [true, false] {
                // Unaligned starts: the slice begins 0 to 3 bytes into the buffer.
                let skip = len % 4;
                let buffer = random_bytes(&mut rng, len + skip, plain);
                let bytes = &buffer[skip..];
                let text = scan_text(bytes, &mut masks);
                let (want_masks, want_plain) = expected(bytes);
                assert_eq!(masks, want_masks, "length {len}");
                assert_eq!(text.is_some(), want_plain, "length {len}");
                if let Some(text) = text {
                    assert_eq!(text.as_bytes(), bytes);
                }
            }
        }
    }

    #[test]
    fn every_byte_value_is_classified_like_the_scalar_version() {
        for b in 0..=255u8 {
            for at in [0, 15, 16, 33, 63] {
                let mut block = [b'a'; BLOCK];
                block[at] = b;
                assert_eq!(classify(&block), classify_scalar(&block), "{b:#x} at {at}");
            }
        }
    }

    #[test]
    fn common_prefix_counts_the_equal_leading_bytes() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..if cfg!(miri) { 200 } else { 20_000 } {
            let window: [u8; 16] = std::array::from_fn(|_| rng.below(256) as u8);
            let mut head = window;
            let equal = rng.below(17) as usize;
            for b in &mut head[equal..] {
                *b = b.wrapping_add(1 + rng.below(255) as u8);
            }
            if equal < 16 && rng.below(2) == 0 {
                // Bytes after the first difference equal again.
                head[equal + 1..].copy_from_slice(&window[equal + 1..]);
            }
            let head = u128::from_le_bytes(head);
            assert_eq!(common_prefix(&window, &head), equal as u32);
            assert_eq!(common_prefix_scalar(&window, &head), equal as u32);
        }
    }

    #[test]
    fn one_bad_byte_anywhere_is_seen() {
        // The checks accumulate over the blocks: a bad byte in any one block (first,
        // middle, last, overlapping tail) makes the whole text not plain.
        let mut masks = Vec::new();
        let lengths: &[usize] = if cfg!(miri) {
            &[1, 64, 150]
        } else {
            &[1, 63, 64, 65, 150, 256]
        };
        for &len in lengths {
            let text = vec![b'a'; len];
            assert!(scan_text(&text, &mut masks).is_some());
            for at in 0..len {
                for bad in [0, 0x80, 0xFF] {
                    let mut bytes = text.clone();
                    bytes[at] = bad;
                    assert!(
                        scan_text(&bytes, &mut masks).is_none(),
                        "{bad:#x} at {at} of {len}"
                    );
                }
            }
        }
    }

    #[test]
    fn nul_and_non_ascii_in_the_padded_tail_are_seen() {
        let mut masks = Vec::new();
        for bad in [&b"\0"[..], b"\xC3\xA9", b"\xFF"] {
            let mut bytes = b"; Key\nvalue".repeat(7);
            bytes.extend_from_slice(bad);
            assert!(scan_text(&bytes, &mut masks).is_none());
            bytes.truncate(bytes.len() - bad.len());
            assert!(scan_text(&bytes, &mut masks).is_some());
        }
        assert_eq!(scan_text(b"", &mut masks), Some(""));
        assert!(masks.is_empty());
    }
}
