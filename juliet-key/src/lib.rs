//! # juliet-key
//!
//! The spelling of `.jasset` property keys (docs/design.md, section 2.2), written once
//! for the two crates that need it: `juliet-core` (which re-exports both functions) and
//! the derive, `juliet-derive` (a proc-macro crate, which cannot depend on
//! `juliet-core`: the runtime's own tests use the derive). Standard library only.
//!
//! ```
//! use juliet_key::{normalize_key, pascal_case};
//!
//! // The key the writer emits for a field, and what matching compares.
//! assert_eq!(pascal_case("mesh_instance"), "MeshInstance");
//! assert_eq!(normalize_key("MeshInstance"), normalize_key("mesh_instance"));
//! assert_eq!(normalize_key("Mesh_Instance"), "meshinstance");
//! ```
#![warn(missing_docs)]

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
    fn normalized_keys() {
        assert_eq!(normalize_key("Mesh_Instance"), "meshinstance");
        assert_eq!(normalize_key("__"), "");
        assert_eq!(normalize_key(&pascal_case("r#max_speed")), "maxspeed");
    }
}
