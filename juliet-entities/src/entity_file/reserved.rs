//! The base tier's keys are reserved in entity files (docs/design.md, section 2.4).
//!
//! An entity file is one flat list of keys: `AssetType`, `BaseVersion`, `EntityID`,
//! `Kind`, `Template` and `Position` (with their aliases: `version`,
//! `id`, `class`, `entity_type`) belong to the base tier, everything after
//! `ClassVersion` to the class. A class with a property keyed like one of them (a field
//! `position`, `id` or `kind`, or such an alias or deprecated key) cannot be told apart
//! from the base tier: the loader would give its value to the base record and the
//! writer would write the key twice, so the file would no longer load. Such a class is
//! refused wherever it meets an entity file, with [`ErrorKind::ReservedKey`] naming the
//! field's key and the base key, before anything is read or written.

use juliet_core::{Class, ErrorKind, Key, PropertyDescriptor};

use crate::entity_file::keys;

/// Every spelling the base tier reads, with the canonical key it stands for.
const BASE_KEYS: [(Key, &str); 10] = [
    (keys::ASSET_TYPE, keys::ASSET_TYPE.name),
    (keys::BASE_VERSION, keys::BASE_VERSION.name),
    (keys::BASE_VERSION_ALIASES[0], keys::BASE_VERSION.name),
    (keys::ENTITY_ID, keys::ENTITY_ID.name),
    (keys::ENTITY_ID_ALIASES[0], keys::ENTITY_ID.name),
    (keys::KIND, keys::KIND.name),
    (keys::KIND_ALIASES[0], keys::KIND.name),
    (keys::KIND_ALIASES[1], keys::KIND.name),
    (keys::TEMPLATE, keys::TEMPLATE.name),
    (keys::POSITION, keys::POSITION.name),
];

/// The base key (canonical: `AssetType`, `BaseVersion`, `EntityID`, `Kind`, `Template`,
/// `Position`) that key `text` of an entity file spells, in any spelling the loader
/// reads (case, `_`, the aliases `version`, `id`, `class`, `entity_type`); `None` for a
/// key of the class. `crc` is `text`'s [`juliet_core::key_crc`] (what the tokenizer
/// gives each key).
///
/// ```
/// use juliet_entities::juliet_core::key_crc;
/// use juliet_entities::load::base_key;
///
/// assert_eq!(base_key(key_crc("entity_type"), "entity_type"), Some("Kind"));
/// assert_eq!(base_key(key_crc("ID"), "ID"), Some("EntityID"));
/// assert_eq!(base_key(key_crc("Mass"), "Mass"), None);
/// ```
pub fn base_key(crc: u32, text: &str) -> Option<&'static str> {
    BASE_KEYS
        .iter()
        .find(|(key, _)| key.matches(crc, text))
        .map(|&(_, canonical)| canonical)
}

/// Checks that no property key, property alias or deprecated key of `class` is one of
/// the base tier's keys (compared as keys are: case- and `_`-insensitively, by CRC).
///
/// # Errors
/// [`ErrorKind::ReservedKey`] for the first such key, in property-table order (each
/// property's key, then its aliases), then the deprecated keys.
pub(crate) fn check_class(class: &'static Class) -> Result<(), ErrorKind> {
    check_keys(class.name(), class.properties(), class.deprecated())
}

/// [`check_class`] of the class named `class` with property table `properties` and
/// deprecated keys `deprecated`.
fn check_keys(
    class: &'static str,
    properties: &'static [PropertyDescriptor],
    deprecated: &'static [Key],
) -> Result<(), ErrorKind> {
    let refuse =
        |key: &'static str, base: &'static str| ErrorKind::ReservedKey { class, key, base };
    for property in properties {
        if let Some(base) = base_key(property.crc, property.key) {
            return Err(refuse(property.key, base));
        }
        for alias in property.aliases {
            if let Some(base) = base_key(alias.crc, alias.name) {
                return Err(refuse(alias.name, base));
            }
        }
    }
    for key in deprecated {
        if let Some(base) = base_key(key.crc, key.name) {
            return Err(refuse(key.name, base));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::{Collectible, Inert, Projectile};
    use juliet_core::{key_crc, Reflect};

    /// The derive refuses these keys at compile time, so the tables that hold them are
    /// made by hand here.
    /// A property keyed like the base tier's `Position`.
    const VEHICLE: &[PropertyDescriptor] = &[PropertyDescriptor::new::<glam::Vec3>(
        "Position",
        "position",
        0,
        &[],
    )];

    /// An alias that spells the base alias `id`.
    const ALIASED_ID: &[PropertyDescriptor] = &[PropertyDescriptor::new::<u32>(
        "Serial",
        "serial",
        0,
        &[Key::new("id")],
    )];

    /// A deprecated key spelled like `Kind`'s alias `entity_type`.
    const DEPRECATED_KIND: &[Key] = &[Key::new("EntityType")];

    /// The field renamed away from the base key.
    #[derive(crate::Entity)]
    struct Renamed {
        #[jasset(rename = "SpawnPosition")]
        position: glam::Vec3,
    }

    #[test]
    fn every_base_spelling_is_listed_with_its_canonical_key() {
        for (spelling, canonical) in [
            ("AssetType", "AssetType"),
            ("BaseVersion", "BaseVersion"),
            ("version", "BaseVersion"),
            ("EntityID", "EntityID"),
            ("id", "EntityID"),
            ("Kind", "Kind"),
            ("class", "Kind"),
            ("entity_type", "Kind"),
            ("Template", "Template"),
            ("Position", "Position"),
        ] {
            assert_eq!(
                base_key(key_crc(spelling), spelling),
                Some(canonical),
                "{spelling}"
            );
        }
        assert_eq!(base_key(key_crc("Mass"), "Mass"), None);
        assert_eq!(base_key(key_crc("ClassVersion"), "ClassVersion"), None);
    }

    #[test]
    fn the_stock_kinds_pass() {
        for class in [Inert::CLASS, Projectile::CLASS, Collectible::CLASS] {
            assert_eq!(check_class(class), Ok(()), "{}", class.name());
        }
        assert_eq!(check_class(Renamed::CLASS), Ok(()));
    }

    #[test]
    fn a_property_keyed_like_a_base_key_is_refused_with_both_keys() {
        assert_eq!(
            check_keys("Vehicle", VEHICLE, &[]),
            Err(ErrorKind::ReservedKey {
                class: "Vehicle",
                key: "Position",
                base: "Position",
            })
        );
    }

    #[test]
    fn an_alias_or_a_deprecated_key_spelled_like_a_base_alias_is_refused() {
        assert_eq!(
            check_keys("AliasedId", ALIASED_ID, &[]),
            Err(ErrorKind::ReservedKey {
                class: "AliasedId",
                key: "id",
                base: "EntityID",
            })
        );
        assert_eq!(
            check_keys("DeprecatedKind", &[], DEPRECATED_KIND),
            Err(ErrorKind::ReservedKey {
                class: "DeprecatedKind",
                key: "EntityType",
                base: "Kind",
            })
        );
    }
}
