//! # juliet-key
//!
//! The rules of `.jasset` property keys (docs/design.md, section 2.2), written once for
//! the two crates that need them: `juliet-core` (which re-exports them) and the derive,
//! `juliet-derive` (a proc-macro crate, which cannot depend on `juliet-core`: the
//! runtime's own tests use the derive). What a key may be ([`is_identifier`],
//! [`key_problem`], a record line's [`is_record_key`]), how a field's name becomes one ([`pascal_case`]), when two
//! spellings are one key ([`keys_equal`], [`normalize_key`]), its CRC-32
//! ([`key_crc`]), and the keys a class may not use ([`CLASS_VERSION`], [`BASE_KEYS`]).
//! Standard library only.
//!
//! ```
//! use juliet_key::{normalize_key, pascal_case};
//!
//! // The key the writer emits for a field, and what matching compares.
//! assert_eq!(pascal_case("mesh_instance"), "MeshInstance");
//! assert_eq!(normalize_key("MeshInstance"), normalize_key("mesh_instance"));
//! assert_eq!(normalize_key("Mesh_Instance"), "meshinstance");
//! ```
#![forbid(unsafe_code)]

/// Converts a Rust field name (`snake_case`, possibly raw: `r#type`) to the PascalCase
/// key the writer emits: `mesh_instance` -> `MeshInstance`, `r#type` -> `Type`. Each
/// `_` is dropped and the character after it upper-cased (Unicode upper case); the
/// first character is upper-cased too, the others are kept. The result normalizes
/// ([`normalize_key`]) to the same key as the name without its `r#`.
pub fn pascal_case(name: &str) -> String {
    let name = name.strip_prefix("r#").unwrap_or(name);
    let mut out = String::with_capacity(name.len());
    let mut upper = true;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The normalized form of a key, what key matching compares: ASCII letters in lower
/// case and every `_` removed (`Mesh_Instance` -> `meshinstance`). Meant for keys,
/// which are ASCII: any other byte becomes the `char` of its value.
pub fn normalize_key(key: &str) -> String {
    key.bytes()
        .filter(|&b| b != b'_')
        .map(|b| b.to_ascii_lowercase() as char)
        .collect()
}

/// Whether two keys are the same key under the key normalization (ASCII case and `_`
/// ignored), usable in constants. Allocation-free.
///
/// ```
/// assert!(juliet_key::keys_equal("Mesh_Instance", "meshinstance"));
/// assert!(!juliet_key::keys_equal("Stats.Hp", "Stats.Hpx"));
/// ```
pub const fn keys_equal(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    loop {
        while i < a.len() && a[i] == b'_' {
            i += 1;
        }
        while j < b.len() && b[j] == b'_' {
            j += 1;
        }
        match (i < a.len(), j < b.len()) {
            (false, false) => return true,
            (true, true) if a[i].eq_ignore_ascii_case(&b[j]) => {
                i += 1;
                j += 1;
            }
            _ => return false,
        }
    }
}

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

/// CRC-32 (IEEE 802.3, reflected, polynomial `0xEDB88320`) of `bytes`, usable in
/// constants: `crc32(b"123456789") == 0xCBF43926`.
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
/// constants: the CRC a key is matched by. Equal to [`crc32`] of [`normalize_key`]'s
/// output.
///
/// ```
/// use juliet_key::{crc32, key_crc};
///
/// assert_eq!(key_crc("MeshInstance"), key_crc("mesh_instance"));
/// assert_eq!(key_crc("Mesh_Instance"), crc32(b"meshinstance"));
/// ```
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

/// Whether `name` (bytes of a key) is an ASCII identifier (`[A-Za-z_][A-Za-z0-9_]*`),
/// or a path of a composite's leaf: such identifiers joined by `.`, the segments after
/// the first also starting with a digit (`Stats.Hp`, `Range.0`). What every key of a
/// property table must be: the tokenizer reads such a key as one. For a constant key
/// the compiler folds the whole check away.
///
/// ```
/// assert!(juliet_key::is_identifier(b"Stats.Hp") && juliet_key::is_identifier(b"Range.0"));
/// assert!(!juliet_key::is_identifier(b"9lives") && !juliet_key::is_identifier(b"a..b"));
/// ```
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

/// Whether `key` is the key of a record line (a composite's leaf inside a list, a map
/// or an `Option`): segments of ASCII letters, digits and `_`, joined by `.` (a
/// field's key, a nested composite's `Stats.Hp`, a tuple struct's `0`, `1`, ...).
///
/// ```
/// assert!(juliet_key::is_record_key("Stats.Hp"));
/// assert!(juliet_key::is_record_key("0"));
/// assert!(!juliet_key::is_record_key("Stats..Hp"));
/// assert!(!juliet_key::is_record_key("max speed"));
/// ```
pub fn is_record_key(key: &str) -> bool {
    key.split('.').all(|segment| {
        !segment.is_empty()
            && segment
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

/// Why `key` cannot be the key of one field, if it cannot: such a key is an ASCII
/// identifier `[A-Za-z_][A-Za-z0-9_]*` with at least one character other than `_`
/// (which keys ignore). The derive's check of `rename` and of field names.
///
/// ```
/// assert_eq!(juliet_key::key_problem("MaxSpeed"), None);
/// assert!(juliet_key::key_problem("max speed").is_some());
/// ```
pub fn key_problem(key: &str) -> Option<&'static str> {
    let mut bytes = key.bytes();
    match bytes.next() {
        None => return Some("is empty"),
        Some(b) if !(b.is_ascii_alphabetic() || b == b'_') => {
            return Some("does not start with an ASCII letter or `_`")
        }
        Some(_) => {}
    }
    if !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Some("has a character other than ASCII letters, digits and `_`");
    }
    if key.bytes().all(|b| b == b'_') {
        return Some("has nothing but `_`, which keys ignore");
    }
    None
}

/// The key of the derived tier's class version in an entity file.
pub const CLASS_VERSION: &str = "ClassVersion";

/// The base tier's keys of an entity file, each with the other spellings it is read
/// under: a class property may not use any of them (the base record reads them first).
pub const BASE_KEYS: [(&str, &[&str]); 6] = [
    ("AssetType", &[]),
    ("BaseVersion", &["version"]),
    ("EntityID", &["id"]),
    ("Kind", &["class", "entity_type"]),
    ("Template", &[]),
    ("Position", &[]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pascal_case_of_field_names() {
        let cases = [
            ("mesh_instance", "MeshInstance"),
            ("is_visible", "IsVisible"),
            ("velocity_x", "VelocityX"),
            ("health", "Health"),
            ("r#type", "Type"),
            ("hp_2", "Hp2"),
        ];
        for (name, key) in cases {
            assert_eq!(pascal_case(name), key, "{name}");
        }
    }

    #[test]
    fn crc_is_ieee_over_the_normalized_key() {
        // The CRC-32 check value, and a classic collision pair.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(key_crc("Mesh_Instance"), key_crc("meshinstance"));
        assert_eq!(key_crc("plumless"), key_crc("buckeroo"));
        assert_ne!(normalize_key("plumless"), normalize_key("buckeroo"));
    }

    #[test]
    fn keys_compare_ignoring_ascii_case_and_underscores() {
        assert!(keys_equal("Stats.Hp", "stats.hp"));
        assert!(keys_equal("Max_Speed", "maxspeed"));
        assert!(keys_equal("__", ""));
        assert!(!keys_equal("Stats.Hp", "Stats.Hpx"));
        assert!(!keys_equal("Hp", "Stats.Hp"));
        assert!(!keys_equal("größe", "GRÖSSE"), "only ASCII folds");
    }

    #[test]
    fn key_problems() {
        assert_eq!(key_problem("MaxSpeed"), None);
        assert_eq!(key_problem("_private"), None);
        assert!(key_problem("").is_some());
        assert!(key_problem("9lives").is_some());
        assert!(key_problem("max speed").is_some());
        assert!(key_problem("größe").is_some());
        assert!(key_problem("__").is_some());
    }

    #[test]
    fn normalized_keys() {
        assert_eq!(normalize_key("Mesh_Instance"), "meshinstance");
        assert_eq!(normalize_key("__"), "");
        assert_eq!(normalize_key(&pascal_case("r#max_speed")), "maxspeed");
    }
}
