//! Keys as the derive sees them: PascalCase of field names and the normalization of
//! docs/design.md, section 2.2 (ASCII case and `_` ignored), both `juliet_key`'s (the
//! functions `juliet_core` re-exports), and the CRC-32 of the normalized key, computed
//! here too so that collisions are compile errors. The generated code still calls
//! `juliet_core::key_crc` in its constants, so the runtime's function stays the single
//! source of the CRCs that files are matched with.

pub(crate) use juliet_key::{normalize_key as normalize, pascal_case};

/// CRC-32 (IEEE) of the normalized key, as `juliet_core::key_crc` computes it.
pub(crate) fn key_crc(key: &str) -> u32 {
    crc32fast::hash(normalize(key).as_bytes())
}

/// Why `key` cannot be a `.jasset` key, if it cannot: keys are ASCII identifiers
/// `[A-Za-z_][A-Za-z0-9_]*` with at least one character other than `_`.
pub(crate) fn key_problem(key: &str) -> Option<&'static str> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_is_ieee_over_the_normalized_key() {
        // The CRC-32 check value, and the classic collision pair the UI suite uses.
        assert_eq!(crc32fast::hash(b"123456789"), 0xCBF4_3926);
        assert_eq!(key_crc("Mesh_Instance"), key_crc("meshinstance"));
        assert_eq!(key_crc("plumless"), key_crc("buckeroo"));
        assert_ne!(normalize("plumless"), normalize("buckeroo"));
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
}
