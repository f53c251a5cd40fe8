//! CRC-32 (IEEE 802.3, reflected, polynomial `0xEDB88320`) for property keys and names.
//!
//! docs/design.md, section 2.2: the same function serves compile-time keys
//! ([`key_crc`] is a `const fn`, evaluated by the derive's generated constants) and
//! runtime keys read from files ([`key_crc_runtime`], through `crc32fast`). Both hash the
//! *normalized* key: ASCII letters folded to lower case and `_`
//! removed, so `MeshInstance`, `mesh_instance` and `meshinstance` have one CRC.
//! [`normalize_key`] and [`pascal_case`] are `juliet_key`'s, shared with the derive.

pub use juliet_key::{normalize_key, pascal_case};

/// The 256-entry lookup table of the reflected IEEE polynomial, built at compile time.
const TABLE: [u32; 256] = build_table();

const fn build_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut crc = i as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
            bit += 1;
        }
        table[i] = crc;
        i += 1;
    }
    table
}

/// CRC-32 (IEEE) of `bytes`, usable in constants. `crc32(b"123456789") == 0xCBF43926`.
///
/// For hashing at run time prefer [`crc32fast::hash`], which gives the same result faster.
pub const fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    let mut i = 0;
    while i < bytes.len() {
        crc = TABLE[((crc ^ bytes[i] as u32) & 0xFF) as usize] ^ (crc >> 8);
        i += 1;
    }
    !crc
}

/// CRC-32 of the normalized form of `key` (ASCII lower case, `_` skipped), usable in
/// constants: `key_crc("MeshInstance") == key_crc("mesh_instance")`.
///
/// Equal to [`key_crc_runtime`] for every input and to [`crc32`] of [`normalize_key`]'s
/// output.
pub const fn key_crc(key: &str) -> u32 {
    let bytes = key.as_bytes();
    let mut crc = !0u32;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b != b'_' {
            let b = b.to_ascii_lowercase();
            crc = TABLE[((crc ^ b as u32) & 0xFF) as usize] ^ (crc >> 8);
        }
        i += 1;
    }
    !crc
}

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

/// Whether two keys are the same key under the key normalization (ASCII case and
/// `_` ignored). Allocation-free.
pub fn keys_equal(a: &str, b: &str) -> bool {
    let mut a = a.bytes().filter(|&c| c != b'_');
    let mut b = b.bytes().filter(|&c| c != b'_');
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x.eq_ignore_ascii_case(&y) => {}
            _ => return false,
        }
    }
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

/// Whether `name` (bytes of a key) is an ASCII identifier (`[A-Za-z_][A-Za-z0-9_]*`),
/// or a path of a composite's leaf: such identifiers joined by `.`, the segments after
/// the first also starting with a digit (`Stats.Hp`, `Range.0`). What every key of a
/// property table must be: the tokenizer reads such a key as one, and the derive checks
/// its keys at compile time. For a constant key the compiler folds the whole check
/// away.
#[inline(always)]
pub const fn is_identifier(name: &[u8]) -> bool {
    if name.is_empty() || name[0].is_ascii_digit() {
        return false;
    }
    let mut i = 0;
    let mut segment_start = true;
    while i < name.len() {
        let b = name[i];
        if b == b'.' {
            if segment_start || i + 1 == name.len() {
                return false;
            }
            segment_start = true;
        } else if b.is_ascii_alphanumeric() || b == b'_' {
            segment_start = false;
        } else {
            return false;
        }
        i += 1;
    }
    true
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
