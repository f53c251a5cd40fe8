//! Reflection access by key (docs/design.md, sections 3.1 and 7.4's `set_property`): a
//! property of an entity named by any spelling of its key, read and written as value
//! text. The setter is shared with template deltas ([`crate::template::DeltaTarget`]),
//! so a value set either way is decoded and recorded as an override the same way.

use glam::Vec3;
use juliet_core::{
    key_crc_runtime, Class, Codec, Error, ErrorKind, Value, ValueError, ValueErrorKind,
};

use super::EntityManager;
use crate::entity::{Entity, EntityId};
use crate::entity_file::keys;
use crate::storage::KindStorage;

impl EntityManager {
    /// Sets property `key` (any spelling; `Position` moves the entity) of entity `id`
    /// from value text (the file's value syntax; several lines separated by `\n` for a
    /// list) and marks the entity dirty. For a template instance the property becomes an
    /// override (the instance's own value, kept even when equal to its template's).
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchEntity`], [`ErrorKind::NoSuchProperty`], or
    /// [`ErrorKind::BadValue`] naming the key; nothing changes then.
    pub fn set_property(&mut self, id: EntityId, key: &str, text: &str) -> Result<(), Error> {
        let base = self
            .index_of(id)
            .ok_or_else(|| Error::file("", ErrorKind::NoSuchEntity(id.0)))?;
        let (entity, storage) = self.record_and_storage_mut(base);
        set_by_key(entity, storage, key, Value::from_text(text))?;
        if entity.template.is_none() {
            // Overrides mean nothing without a template: a standalone entity has none.
            entity.overrides.clear();
            entity.position_overridden = false;
        }
        entity.dirty = true;
        Ok(())
    }

    /// The value text of property `key` (any spelling; `Position` too) of entity `id`,
    /// as a file would hold it.
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchEntity`] or [`ErrorKind::NoSuchProperty`].
    pub fn property_text(&self, id: EntityId, key: &str) -> Result<String, Error> {
        let e = self
            .entity(id)
            .ok_or_else(|| Error::file("", ErrorKind::NoSuchEntity(id.0)))?;
        let mut out = String::new();
        let crc = key_crc_runtime(key.as_bytes());
        if keys::POSITION.matches(crc, key) {
            e.position.encode(&mut out);
            return Ok(out);
        }
        let index = e
            .class
            .property_index(crc, key)
            .ok_or_else(|| no_such_property(e.class, key))?;
        let (storage, slot) = self.storage_of(id).expect("live");
        storage.encode_property(slot, index, &mut out);
        Ok(out)
    }
}

/// Decodes `value` into property `key` (any spelling; `Position` sets the position) of
/// the entity whose record is `entity` and whose kind's storage is `storage`, and
/// records it as overridden.
///
/// # Errors
/// [`ErrorKind::NoSuchProperty`], or [`ErrorKind::BadValue`] naming the key (with no
/// file location: the value did not come from a file); nothing changes then.
pub(crate) fn set_by_key(
    entity: &mut Entity,
    storage: &mut KindStorage,
    key: &str,
    value: Value<'_>,
) -> Result<(), Error> {
    let crc = key_crc_runtime(key.as_bytes());
    if keys::POSITION.matches(crc, key) {
        let position = <Vec3 as Codec>::decode(value).map_err(|e| bad_value(key, "3 floats", e))?;
        entity.position = position;
        entity.position_overridden = true;
        return Ok(());
    }
    let index = entity
        .class
        .property_index(crc, key)
        .ok_or_else(|| no_such_property(entity.class, key))?;
    set_at(entity, storage, index, value).map_err(|e| {
        let expected = storage.properties()[index].property_type.to_string();
        bad_value(key, &expected, e)
    })
}

/// Decodes `value` into property `index` of the class's table and records it as
/// overridden. Panics when `index` is out of bounds.
///
/// # Errors
/// [`ValueErrorKind::ExpectedOneLine`] for a value without a value line (text of
/// comments alone, `#x`: a block without a value line is no property in a file either,
/// and a list would read it as empty); the codec's [`ValueError`]. The property is
/// unchanged then.
pub(crate) fn set_at<'v>(
    entity: &mut Entity,
    storage: &mut KindStorage,
    index: usize,
    value: Value<'v>,
) -> Result<(), ValueError<'v>> {
    if value.line_count() == 0 {
        return Err(ValueError::new(ValueErrorKind::ExpectedOneLine(0), ""));
    }
    storage.decode_property(entity.slot as usize, index, value)?;
    entity.overrides.insert(index);
    if let Some(variant) = crate::entity::overrides::variant_of(storage.properties(), index) {
        entity.overrides.insert(variant);
    }
    Ok(())
}

/// [`ErrorKind::NoSuchProperty`] for `key` of `class`, with no file location, and the
/// class's key (or leaf path) it is most likely a misspelling of.
pub(crate) fn no_such_property(class: &'static Class, key: &str) -> Error {
    let suggestion = juliet_core::did_you_mean(key, class.properties().iter().map(|p| p.key));
    Error::file(
        "",
        ErrorKind::NoSuchProperty {
            class: class.name(),
            key: key.to_owned(),
        },
    )
    .with_suggestion(suggestion)
}

/// [`ErrorKind::BadValue`] for `key`, the found text cut to 48 characters.
fn bad_value(key: &str, expected: &str, e: ValueError<'_>) -> Error {
    let found: String = if e.found.chars().count() > 48 {
        e.found.chars().take(48).chain("...".chars()).collect()
    } else {
        e.found.to_owned()
    };
    Error::file(
        "",
        ErrorKind::BadValue {
            expected: expected.to_owned(),
            found,
            reason: e.kind,
        },
    )
    .with_key(key)
}
