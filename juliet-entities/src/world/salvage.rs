//! [`salvage_entity_id`]: the `EntityID` of a file that did not load (a bad value
//! elsewhere in it, an unknown `Kind`), so that the world reserves it (docs/design.md,
//! section 5.4: every `EntityID` found in a world's files is reserved, whether the file
//! loaded or not). Were it handed out, the designer's file would stop loading once
//! mended (a duplicate id).

use juliet_core::{keys_equal, Codec, Value};

use crate::entity::EntityId;
use crate::entity_file::keys;

/// The id written under the file's `EntityID` key (or its alias `id`), found by a
/// line scan that reads past any error elsewhere in the file: a block header
/// `; EntityID` and its first value line, an inline header `; EntityID: v` or a
/// compact line `EntityID: v`. `None` when there is no such key or its value is not
/// an id (zero, which means "unassigned", included).
pub(crate) fn salvage_entity_id(bytes: &[u8]) -> Option<EntityId> {
    let is_id_key = |key: &str| {
        let key = key.trim_matches([' ', '\t']);
        keys_equal(key, keys::ENTITY_ID.name)
            || keys::ENTITY_ID_ALIASES
                .iter()
                .any(|a| keys_equal(key, a.name))
    };
    // Whether a block is open (its value lines run to the next header: a `Key: value`
    // line in one is a value, not a property), and whether it is the id's.
    let mut in_block = false;
    let mut open_id_block = false;
    for line in bytes.split(|&b| b == b'\n') {
        let Ok(line) = std::str::from_utf8(line) else {
            open_id_block = false;
            continue;
        };
        let line = line
            .trim_start_matches('\u{feff}')
            .trim_matches([' ', '\t', '\r']);
        if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
            continue;
        }
        let value = if let Some(header) = line.strip_prefix(';') {
            match header.split_once(':') {
                Some((key, value)) => {
                    in_block = false;
                    is_id_key(key).then_some(value)
                }
                None => {
                    in_block = true;
                    open_id_block = is_id_key(header);
                    continue;
                }
            }
        } else if open_id_block {
            Some(line)
        } else if in_block {
            None
        } else {
            match line.split_once(':') {
                Some((key, value)) if is_id_key(key) => Some(value),
                _ => None,
            }
        };
        open_id_block = false;
        if let Some(value) = value {
            return u64::decode(Value::from_text(value.trim_matches([' ', '\t'])))
                .ok()
                .filter(|&id| id != 0)
                .map(EntityId);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_id_in_every_form_past_errors() {
        for (text, id) in [
            ("; EntityID\n0x2\n; Kind\nNoSuchKind\n", Some(2)),
            (
                "; Kind\nInert\n; Mass\nheavy\n; EntityID\n# c\n\n0x10\n",
                Some(16),
            ),
            ("; entity_id: 42\n", Some(42)),
            ("id: 0x0000000000000007\r\n", Some(7)),
            ("\u{feff}; Id\n 9 \n", Some(9)),
            ("; EntityID\n0x0\n", None),
            ("; EntityID\nnope\n", None),
            ("; Kind\nInert\n; Note\nEntityID: 5\n", None),
            ("; Kind: Inert\n", None),
        ] {
            assert_eq!(
                salvage_entity_id(text.as_bytes()),
                id.map(EntityId),
                "{text:?}"
            );
        }
    }
}
