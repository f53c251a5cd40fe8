//! [`Entity`], the base record every entity has, and [`EntityId`].
//!
//! docs/design.md, section 5.1: id, kind, position and the dirty flag, in one small
//! record kept in one contiguous array by the [`crate::EntityManager`]. The link to the
//! derived struct is an index (the record's slot in its kind's storage), so it
//! can never dangle.

use std::fmt;
use std::num::NonZeroU32;

use glam::Vec3;
use juliet_core::{Class, Codec, PropertyType, Value, ValueError};

pub(crate) mod overrides;

pub(crate) use overrides::OverrideSet;

/// An entity's identifier: 64 bits, unique in a manager and stable across saves.
///
/// Written in files as `0x` + 16 upper-case hex digits (`0x0000000000000042`), decimal
/// accepted. 0 is never a live entity's id (0 means "unassigned").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct EntityId(pub u64);

impl EntityId {
    /// The raw value.
    pub const fn get(self) -> u64 {
        self.0
    }

    /// The file name a new entity is saved under in a world: 16 upper-case hex digits
    /// and `.jasset` (`0000000000000042.jasset`).
    pub fn file_name(self) -> String {
        format!("{:016X}.jasset", self.0)
    }
}

impl fmt::Display for EntityId {
    /// `0x` + 16 upper-case hex digits, as in files.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x{:016X}", self.0)
    }
}

impl From<u64> for EntityId {
    fn from(id: u64) -> EntityId {
        EntityId(id)
    }
}

/// An `EntityId` field is written like a `u64` (`0x` + 16 hex digits), so game structs
/// can refer to other entities.
impl Codec for EntityId {
    const PROPERTY_TYPE: PropertyType = PropertyType::U64;

    fn encode(&self, out: &mut String) {
        self.0.encode(out);
    }

    fn decode<'a>(value: Value<'a>) -> Result<EntityId, ValueError<'a>> {
        u64::decode(value).map(EntityId)
    }
}

/// The base record of an entity: id, class, the slot of its
/// derived struct in its kind's storage, position, dirty flag and template reference.
///
/// Records live in the manager's base array ([`crate::EntityManager::entities`]);
/// the link fields are private and the record is neither `Clone` nor constructible
/// outside this crate, so only the manager changes links. The position setter marks the
/// record dirty (docs/design.md, section 6.2).
#[derive(Debug)]
pub struct Entity {
    pub(crate) id: EntityId,
    pub(crate) class: &'static Class,
    pub(crate) position: Vec3,
    /// Slot of the derived struct in the kind's storage.
    pub(crate) slot: u32,
    /// CRC-32 of the normalized template path ([`crate::template::template_crc`]), if
    /// the entity is an instance of a template (0 means none).
    pub(crate) template: Option<NonZeroU32>,
    /// The properties this instance overrides (docs/design.md, section 7.4):
    /// a bitset over the class's property table, kept beside the derived struct rather
    /// than in wrapper field types. Empty for standalone entities.
    pub(crate) overrides: OverrideSet,
    /// Index of the kind's storage in the manager.
    pub(crate) kind: u16,
    pub(crate) dirty: bool,
    /// Whether [`Entity::mark_dirty`] asked the next save to write the entity even when
    /// its text is what its file holds.
    pub(crate) write_requested: bool,
    /// Whether the position is the instance's own (written in its file, or different
    /// from the template's at a save), rather than the template's default.
    pub(crate) position_overridden: bool,
}

// One cache line at most (docs/design.md, section 5.1).
static_assertions::const_assert!(std::mem::size_of::<Entity>() <= 64);

impl Entity {
    /// The entity's id.
    pub fn id(&self) -> EntityId {
        self.id
    }

    /// The entity's class (its kind).
    pub fn class(&self) -> &'static Class {
        self.class
    }

    /// Whether the entity is of kind `T`.
    pub fn is<T: 'static>(&self) -> bool {
        self.class.is::<T>()
    }

    /// The slot of the entity's derived struct in its kind's array
    /// (`manager.slice::<T>()[slot]`).
    pub fn slot(&self) -> usize {
        self.slot as usize
    }

    /// The index of the entity's kind storage in
    /// [`EntityManager::kinds`](crate::EntityManager::kinds): its derived struct is
    /// `manager.kinds()[kind_index]` at [`Entity::slot`]. A kind keeps its index for
    /// the manager's lifetime; a cached (kind index, slot) pair is still the entity's
    /// while that storage's [`bases`](crate::KindStorage::bases)`()[slot]` is this
    /// record's base index.
    pub fn kind_index(&self) -> usize {
        usize::from(self.kind)
    }

    /// World-space position.
    pub fn position(&self) -> Vec3 {
        self.position
    }

    /// Moves the entity and marks it dirty.
    pub fn set_position(&mut self, position: Vec3) {
        self.position = position;
        self.dirty = true;
    }

    /// Whether the entity changed since it was loaded or saved (docs/design.md, section 6.2):
    /// new entities are dirty, loaded and saved ones clean.
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// Marks the entity changed and asks the next world save to write it even when its
    /// text is what its file holds (a file at an older version is then brought to the
    /// current one in place; a file that holds the bytes the save would write is left
    /// alone). A save finds changed entities itself, by their text, so a
    /// change through `get_mut`, `slice_mut` or the reflection API needs no call.
    pub fn mark_dirty(&mut self) {
        self.dirty = true;
        self.write_requested = true;
    }

    /// Marks the entity as matching its file (what a successful save does), and drops
    /// a [`Entity::mark_dirty`] request.
    pub fn clear_dirty(&mut self) {
        self.dirty = false;
        self.write_requested = false;
    }

    /// Whether [`Entity::mark_dirty`] asked the next save to write the entity.
    pub(crate) fn write_requested(&self) -> bool {
        self.write_requested
    }

    /// CRC-32 of the entity's normalized template path, if it is a template instance
    /// (docs/design.md, section 7.1: the runtime refers to templates by this CRC; look it up with
    /// [`crate::TemplateCache::find`]).
    pub fn template(&self) -> Option<u32> {
        self.template.map(NonZeroU32::get)
    }

    /// Sets the template reference (CRC-32 of the normalized template path; `Some(0)`,
    /// means none) and marks the entity dirty. Override
    /// flags are kept: to turn an entity into an instance use
    /// [`crate::create_template_from_entity`] or instantiate it from the
    /// template.
    pub fn set_template(&mut self, template: Option<u32>) {
        self.template = template.and_then(NonZeroU32::new);
        self.dirty = true;
    }

    /// The properties this instance overrides: indices into its class's property table
    /// (docs/design.md, section 7.4). Empty for standalone entities. A value
    /// that differs from the template's joins the set at the next save of the entity.
    pub fn overrides(&self) -> &OverrideSet {
        &self.overrides
    }

    /// Whether the instance's position is its own (written in its file, set through the
    /// reflection API, or different from the template's at a save) rather than the
    /// template's default position.
    pub fn is_position_overridden(&self) -> bool {
        self.position_overridden
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_is_written_as_16_hex_digits() {
        assert_eq!(EntityId(0x42).to_string(), "0x0000000000000042");
        assert_eq!(EntityId(0xAB).file_name(), "00000000000000AB.jasset");
        let mut out = String::new();
        EntityId(0x0100_0000_0000_0042).encode(&mut out);
        assert_eq!(out, "0x0100000000000042");
        assert_eq!(
            EntityId::decode(Value::from_text("66")).unwrap(),
            EntityId(66)
        );
        assert!(EntityId::decode(Value::from_text("0xZZ")).is_err());
    }
}
