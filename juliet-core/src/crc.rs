//! Property keys at run time: [`Key`] (a key with its CRC), the [`key!`](crate::key)
//! macro, and [`key_crc_runtime`], the CRC of keys read from files (through
//! `crc32fast`, with a cache of recent keys), equal to the `const` [`key_crc`] that
//! compile-time keys use. The rules themselves ([`key_crc`], [`keys_equal`],
//! [`is_identifier`], [`normalize_key`], [`pascal_case`]) are `juliet_key`'s, shared
//! with the derive (docs/design.md, section 2.2).

pub use juliet_key::{
    crc32, is_identifier, is_record_key, key_crc, keys_equal, normalize_key, pascal_case,
};

/// Run-time CRC-32 of the normalized key (see [`key_crc`]), hashing through `crc32fast`.
///
/// The key is normalized through a 64-byte stack buffer, so no heap allocation happens
/// for any key length.
pub fn key_crc_runtime(key: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    let mut buf = [0u8; 64];
    let mut len = 0;
    for &b in key {
        if b == b'_' {
            continue;
        }
        buf[len] = b.to_ascii_lowercase();
        len += 1;
        if len == buf.len() {
            hasher.update(&buf);
            len = 0;
        }
    }
    hasher.update(&buf[..len]);
    hasher.finalize()
}

/// Longest key (in bytes) a [`KeyCrcCache`] remembers; longer keys are always hashed.
pub(crate) const CACHED_KEY_MAX: usize = 32;

/// Number of slots of a [`KeyCrcCache`] (direct-mapped, a power of two).
const CACHE_SLOTS: usize = 256;

/// A memo of [`key_crc_runtime`] for the keys of recently tokenized files, kept by a
/// `TokenBuffer`: world files repeat the same few dozen keys, so most keys are looked up
/// (a masked 16-byte load and two compares) instead of normalized and hashed again.
///
/// Keys are stored as written (not normalized), up to [`CACHED_KEY_MAX`] bytes, as two
/// little-endian 16-byte halves padded with zero bytes; only keys the tokenizer
/// validated as identifiers are inserted, so a hit also proves that the text is a
/// valid key.
#[derive(Debug, Clone)]
pub(crate) struct KeyCrcCache {
    slots: Box<[CachedKey; CACHE_SLOTS]>,
}

#[derive(Debug, Clone, Copy, Default)]
struct CachedKey {
    /// The first 16 bytes of the key, zero-padded.
    head: u128,
    /// Bytes 16 to 31 of the key, zero-padded.
    tail: u128,
    /// Key length in bytes; 0 marks an empty slot (no key is empty).
    len: u32,
    crc: u32,
}

impl Default for KeyCrcCache {
    fn default() -> KeyCrcCache {
        KeyCrcCache {
            slots: Box::new([CachedKey::default(); CACHE_SLOTS]),
        }
    }
}

impl KeyCrcCache {
    /// The CRC of the key `bytes[start..start + len]` if it was inserted before (never
    /// for an empty key or one longer than [`CACHED_KEY_MAX`]). The range must be
    /// inside `bytes`.
    #[inline(always)]
    pub(crate) fn get(&self, bytes: &[u8], start: usize, len: usize) -> Option<u32> {
        if len > 16 {
            return self.get_long(bytes, start, len);
        }
        let head = half(bytes, start, len);
        let slot = &self.slots[slot_of(head, len)];
        (slot.head == head && slot.len as usize == len).then_some(slot.crc)
    }

    /// [`KeyCrcCache::get`] for keys of 17 bytes and more.
    fn get_long(&self, bytes: &[u8], start: usize, len: usize) -> Option<u32> {
        if len > CACHED_KEY_MAX {
            return None;
        }
        let head = half(bytes, start, 16);
        let tail = half(bytes, start + 16, len - 16);
        let slot = &self.slots[slot_of(head, len)];
        (slot.head == head && slot.tail == tail && slot.len as usize == len).then_some(slot.crc)
    }

    /// The CRC of the valid key `bytes[start..start + len]` (`len` at least 1), from the
    /// cache or computed through [`key_crc_runtime`] and remembered.
    pub(crate) fn crc(&mut self, bytes: &[u8], start: usize, len: usize) -> u32 {
        if let Some(crc) = self.get(bytes, start, len) {
            return crc;
        }
        let crc = key_crc_runtime(&bytes[start..start + len]);
        if (1..=CACHED_KEY_MAX).contains(&len) {
            let head = half(bytes, start, len.min(16));
            let tail = if len > 16 {
                half(bytes, start + 16, len - 16)
            } else {
                0
            };
            self.slots[slot_of(head, len)] = CachedKey {
                head,
                tail,
                len: len as u32,
                crc,
            };
        }
        crc
    }
}

/// `HALF_MASKS[n]` keeps the low `n` bytes of a `u128` (all of them from 16 on).
static HALF_MASKS: [u128; 32] = low_byte_masks();

/// A table whose entry `n` keeps the low `n` bytes of a little-endian `u128` (all 16
/// from `n = 16` on; `N` must be at least 16).
const fn low_byte_masks<const N: usize>() -> [u128; N] {
    let mut masks = [u128::MAX; N];
    masks[0] = 0;
    let mut n = 1;
    while n < 16 {
        masks[n] = u128::MAX >> (128 - 8 * n);
        n += 1;
    }
    masks
}

/// `bytes[start..start + len]` (`len <= 16`, inside `bytes`) as a little-endian `u128`
/// padded with zero bytes.
#[inline(always)]
fn half(bytes: &[u8], start: usize, len: usize) -> u128 {
    let window: [u8; 16] = match bytes.get(start..start + 16) {
        Some(window) => window.try_into().unwrap_or([0; 16]),
        None => padded(bytes, start, len),
    };
    u128::from_le_bytes(window) & HALF_MASKS[len & 31]
}

/// `bytes[start..start + len]` followed by zero bytes, for keys near the end of a file.
#[cold]
fn padded(bytes: &[u8], start: usize, len: usize) -> [u8; 16] {
    let mut padded = [0u8; 16];
    padded[..len].copy_from_slice(&bytes[start..start + len]);
    padded
}

#[inline(always)]
fn slot_of(head: u128, len: usize) -> usize {
    let mixed = (head as u64) ^ ((head >> 64) as u64).rotate_left(29) ^ len as u64;
    (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize & (CACHE_SLOTS - 1)
}

/// A property key with its normalized CRC, computed once (at compile time with
/// [`key!`](crate::key) or in a `const`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    /// The key as the writer emits it (PascalCase by convention).
    pub name: &'static str,
    /// [`key_crc`] of `name`.
    pub crc: u32,
}

impl Key {
    /// Makes a key, hashing `name` (in a `const` context the hash is compile-time).
    pub const fn new(name: &'static str) -> Key {
        Key {
            name,
            crc: key_crc(name),
        }
    }

    /// Whether `text`, whose [`key_crc`] is `crc`, is this key under any spelling: the
    /// CRC first, then the normalized text, so a CRC-32 twin is not this key.
    #[inline]
    pub fn matches(&self, crc: u32, text: &str) -> bool {
        self.crc == crc && (text == self.name || keys_equal(text, self.name))
    }
}

/// A [`Key`] whose CRC is computed at compile time: `key!("MaxSpeed")`.
#[macro_export]
macro_rules! key {
    ($name:expr) => {{
        const KEY: $crate::Key = $crate::Key::new($name);
        KEY
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_value_of_ieee_crc32() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32fast::hash(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn const_and_runtime_agree_on_normalized_keys() {
        for key in [
            "MeshInstance",
            "mesh_instance",
            "meshinstance",
            "MESH_INSTANCE",
            "_a_b_",
            "",
            "x",
            "A_very_long_key_name_that_goes_past_the_sixty_four_byte_stack_buffer_used",
        ] {
            assert_eq!(key_crc(key), key_crc_runtime(key.as_bytes()), "{key}");
            assert_eq!(key_crc(key), crc32(normalize_key(key).as_bytes()), "{key}");
        }
        assert_eq!(key_crc("MeshInstance"), key_crc("mesh_instance"));
        assert_eq!(key_crc("MeshInstance"), crc32(b"meshinstance"));
        assert_ne!(key_crc("MeshInstance"), key_crc("MeshInstances"));
    }

    #[test]
    fn key_cache_gives_the_runtime_crc_and_tells_keys_apart() {
        let mut cache = KeyCrcCache::default();
        let text =
            b"MeshInstance mesh_instance Mesh MeshInstances A_very_long_key_name_past_32_bytes x";
        // (start, len) of each space-separated key; the last one ends the input.
        let mut keys = Vec::new();
        let mut start = 0;
        for word in text.split(|&b| b == b' ') {
            keys.push((start, word.len()));
            start += word.len() + 1;
        }
        assert_eq!(keys.len(), 6);
        for &(start, len) in &keys {
            let key = &text[start..start + len];
            assert_eq!(cache.crc(text, start, len), key_crc_runtime(key));
        }
        // Hits (same text at another offset, end of input) and misses (prefixes).
        for (start, len) in keys {
            let key = &text[start..start + len];
            let expected = (len <= CACHED_KEY_MAX).then(|| key_crc_runtime(key));
            assert_eq!(cache.get(text, start, len), expected);
            assert_eq!(cache.get(key, 0, len), expected);
            assert_eq!(cache.crc(key, 0, len), key_crc_runtime(key));
        }
        assert_eq!(cache.get(text, 0, 11), None); // "MeshInstanc"
        assert_eq!(cache.get(b"Mesh", 0, 3), None);
    }

    #[test]
    fn key_macro_is_const() {
        const K: Key = key!("ClassVersion");
        assert_eq!(K.crc, crc32(b"classversion"));
        assert_eq!(K.name, "ClassVersion");
    }

    #[test]
    fn keys_equal_ignores_case_and_underscores() {
        assert!(keys_equal("MeshInstance", "mesh_instance"));
        assert!(keys_equal("entity_type", "EntityType"));
        assert!(!keys_equal("Mesh", "MeshInstance"));
        assert!(!keys_equal("abc", "abd"));
    }
}
