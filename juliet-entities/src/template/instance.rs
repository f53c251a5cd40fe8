//! Template instances: [`instantiate_from_template`] (docs/design.md, section 7.3), deltas,
//! override tracking (section 7.4), the reflection setter, inspector diffing (section 7.8), revert
//! (section 7.5), sparse saving and propagation of template changes (section 7.6).
//!
//! The override rules are docs/design.md, section 7.4's: a property is overridden when its key
//! was present in the instance's file, when it was set through the reflection API (a
//! delta, [`EntityManager::set_property`]), or when its value differs from the
//! template's at save time. An override that happens to equal the template's value is
//! therefore kept ("pinned"): it survives a later change of the template, and only a
//! revert clears it.

use std::cell::RefCell;
use std::num::NonZeroU32;
use std::path::Path;

use glam::Vec3;
use juliet_core::{
    key_crc_runtime, write_header, write_property, Class, Codec, Document, Error, ErrorKind,
    Reflect, TokenBuffer, Value, ValueError, CLASS_VERSION,
};

use super::batch::{instantiate_each, instantiate_many_plain};
use super::cache::{file_properties, Origin, TemplateCache, TemplateChange, TemplateRef};
use crate::entity::{Entity, EntityId};
use crate::load::{keys, located, write_base_keys, EntityFileData};
use crate::manager::{EntityManager, SlotInit};
use crate::storage::KindStorage;

/// The label of errors in a text delta (it has no file).
const DELTA_PATH: &str = "<delta>";

thread_local! {
    /// One token buffer per thread for text deltas: steady-state instantiation reuses it.
    static DELTA_BUFFER: RefCell<TokenBuffer> = RefCell::new(TokenBuffer::new());
}

/// What an instance changes relative to its template: step 4 of docs/design.md, section 7.3
/// ("overwrite only specified properties"). Every property a delta sets becomes an
/// override of the instance.
///
/// Implemented by `()` (no change), `str` (`.jasset` text such as
/// `"Position: 1, 2, 3\nHealth: 50.0"`, parsed through the reflection table) and
/// [`PropertyDelta`](super::PropertyDelta) (typed values, copied with no parsing).
pub trait Delta {
    /// Applies the delta to a freshly copied archetype.
    ///
    /// # Errors
    /// Whatever the delta finds wrong (an unknown key, a bad value); the instance is
    /// then not created.
    fn apply(&self, target: &mut DeltaTarget<'_>) -> Result<(), Error>;

    /// Creates an instance of `template` with this delta: what
    /// [`instantiate_from_template`] runs. The provided body copies the archetype
    /// through the class's type-erased clone, then calls [`Delta::apply`];
    /// [`PropertyDelta`] builds the value typed instead (clone and delta in one inlined
    /// step). Only this crate's deltas can replace it (its last parameter cannot be
    /// named elsewhere), so every instance is made by one of these two paths.
    ///
    /// # Errors
    /// As [`instantiate_from_template`].
    #[doc(hidden)]
    fn instantiate(
        &self,
        manager: &mut EntityManager,
        template: TemplateRef<'_>,
        _: sealed::Token,
    ) -> Result<EntityId, Error> {
        instantiate_erased(manager, template, self)
    }

    /// Creates `count` (at least 1) instances of `template` with this delta, their ids
    /// appended to `ids`: what [`super::instantiate_many`] runs. The provided body
    /// makes `count` single calls ([`Delta::instantiate`]), taking them all back on an
    /// error; `()` and [`PropertyDelta`] make the batch with their checks taken once.
    /// Sealed as [`Delta::instantiate`].
    ///
    /// # Errors
    /// As [`super::instantiate_many`].
    #[doc(hidden)]
    fn instantiate_many(
        &self,
        manager: &mut EntityManager,
        template: TemplateRef<'_>,
        count: usize,
        ids: &mut Vec<EntityId>,
        _: sealed::Token,
    ) -> Result<(), Error> {
        instantiate_each(manager, template, self, count, ids)
    }
}

pub(super) mod sealed {
    /// Makes [`super::Delta::instantiate`] replaceable in this crate only: outside it,
    /// this type cannot be named, so no impl can write the method's signature.
    #[derive(Debug)]
    pub struct Token(pub(in crate::template) ());
}

/// No delta: the instance is the template's archetype at the template's position.
impl Delta for () {
    fn apply(&self, _: &mut DeltaTarget<'_>) -> Result<(), Error> {
        Ok(())
    }

    /// The provided path without its rollback: with nothing to apply, nothing can fail
    /// between the record's creation and its id.
    #[inline]
    fn instantiate(
        &self,
        manager: &mut EntityManager,
        template: TemplateRef<'_>,
        _: sealed::Token,
    ) -> Result<EntityId, Error> {
        let (archetypes, slot) = template.archetype_storage();
        let init = SlotInit::Clone(archetypes, slot);
        let base = manager.push_record(template.class(), EntityId(0), init);
        let (entity, _) = manager.record_and_storage_mut(base as usize);
        entity.position = template.position();
        entity.template = NonZeroU32::new(template.crc());
        Ok(manager.register_fresh_id(base))
    }

    /// The batch through the class's clone, its checks taken once (nothing can fail).
    fn instantiate_many(
        &self,
        manager: &mut EntityManager,
        template: TemplateRef<'_>,
        count: usize,
        ids: &mut Vec<EntityId>,
        _: sealed::Token,
    ) -> Result<(), Error> {
        instantiate_many_plain(manager, template, count, ids);
        Ok(())
    }
}

/// A delta in `.jasset` text: `Position` and the class's properties, in any line form
/// (`Key: value` lines, `; Key` blocks). Uses a per-thread token buffer, so it
/// allocates nothing per instance once warm (for properties without heap types).
///
/// # Errors
/// A tokenizer error, [`ErrorKind::BadValue`], or [`ErrorKind::NoSuchProperty`] for any
/// other key (including `Kind` and `Template`), located in the text (path `<delta>`).
impl Delta for str {
    fn apply(&self, target: &mut DeltaTarget<'_>) -> Result<(), Error> {
        DELTA_BUFFER.with(|buffer| match buffer.try_borrow_mut() {
            Ok(mut buffer) => apply_text(&mut buffer, self, target),
            Err(_) => apply_text(&mut TokenBuffer::new(), self, target),
        })
    }
}

fn apply_text(
    buffer: &mut TokenBuffer,
    text: &str,
    target: &mut DeltaTarget<'_>,
) -> Result<(), Error> {
    let mut doc = buffer.tokenize(text.as_bytes(), Path::new(DELTA_PATH))?;
    for i in 0..doc.len() {
        let crc = doc.node(i).key_crc;
        if keys::POSITION.matches(crc, doc.key(i)) {
            let position: Vec3 = doc.decode(i)?;
            target.set_position(position);
            continue;
        }
        let Some(index) = target.class().property_index(crc, doc.key(i)) else {
            let kind = ErrorKind::NoSuchProperty {
                class: target.class().name,
                key: doc.key(i).to_owned(),
            };
            return Err(located(&doc, i, kind));
        };
        if let Err(e) = target.set_property_at(index, doc.value(i)) {
            let expected = target.storage.properties()[index].property_type.to_string();
            return Err(doc.value_error(i, &expected, e));
        }
    }
    Ok(())
}

/// The instance a [`Delta`] applies to: its base record and derived struct, with the
/// reflection setters that record overrides.
#[derive(Debug)]
pub struct DeltaTarget<'a> {
    pub(super) entity: &'a mut Entity,
    pub(super) storage: &'a mut KindStorage,
}

impl DeltaTarget<'_> {
    /// The instance's kind.
    pub fn class(&self) -> &'static Class {
        self.entity.class
    }

    /// The instance's position (the template's until a delta sets it).
    pub fn position(&self) -> Vec3 {
        self.entity.position
    }

    /// Sets the position, as an override of the template's.
    pub fn set_position(&mut self, position: Vec3) {
        self.entity.position = position;
        self.entity.position_overridden = true;
    }

    /// Decodes `value` into property `key` (any spelling; `Position` sets the position)
    /// and records it as overridden.
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchProperty`], or [`ErrorKind::BadValue`] naming the key (with no
    /// file location: the value did not come from a file).
    pub fn set_property(&mut self, key: &str, value: Value<'_>) -> Result<(), Error> {
        let crc = key_crc_runtime(key.as_bytes());
        if keys::POSITION.matches(crc, key) {
            let position =
                <Vec3 as Codec>::decode(value).map_err(|e| bad_value(key, "3 floats", e))?;
            self.set_position(position);
            return Ok(());
        }
        let index = self
            .class()
            .property_index(crc, key)
            .ok_or_else(|| no_such_property(self.class(), key))?;
        self.set_property_at(index, value).map_err(|e| {
            let expected = self.storage.properties()[index].property_type.to_string();
            bad_value(key, &expected, e)
        })
    }

    /// Decodes `value` into property `index` of the class's table and records it as
    /// overridden. Panics when `index` is out of bounds.
    ///
    /// # Errors
    /// The codec's [`ValueError`]; the property is unchanged then.
    pub fn set_property_at<'v>(
        &mut self,
        index: usize,
        value: Value<'v>,
    ) -> Result<(), ValueError<'v>> {
        self.storage
            .decode_property(self.entity.slot as usize, index, value)?;
        self.entity.overrides.insert(index);
        Ok(())
    }

    /// The derived struct as a `T` (`None` for another kind). Changes made through it
    /// are not recorded as overrides: call [`DeltaTarget::mark_overridden`].
    pub fn value_mut<T: Reflect>(&mut self) -> Option<&mut T> {
        self.storage.get_mut::<T>(self.entity.slot as usize)
    }

    /// Records property `index` of the class's table as overridden. Panics when out of
    /// bounds.
    pub fn mark_overridden(&mut self, index: usize) {
        assert!(
            index < self.storage.properties().len(),
            "no property {index}"
        );
        self.entity.overrides.insert(index);
    }
}

pub(super) fn no_such_property(class: &'static Class, key: &str) -> Error {
    Error::file(
        "",
        ErrorKind::NoSuchProperty {
            class: class.name,
            key: key.to_owned(),
        },
    )
}

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

/// Creates an instance of `template` in `manager` through docs/design.md, section 7.3's five
/// steps: (1) allocate a base record and a slot of the kind's storage, (2) copy the
/// archetype into that final slot ([`juliet_core::ClassOps::clone_in_place`], no
/// temporary) and the template's default position into the record, (3) wire the links
/// both ways (record to slot, slot to record), (4) apply `delta`, recording each
/// property it sets as an override, (5) assign a fresh id. The instance refers to the
/// template by CRC ([`Entity::template`]) and is dirty (new).
///
/// For kinds without heap-typed fields, with a `()`, text or [`PropertyDelta`](super::PropertyDelta) delta,
/// no heap allocation is made per instance once the manager has room
/// ([`EntityManager::reserve`]).
///
/// # Errors
/// The delta's error; nothing is allocated then and no id is used.
#[inline(always)]
pub fn instantiate_from_template<D: Delta + ?Sized>(
    manager: &mut EntityManager,
    template: TemplateRef<'_>,
    delta: &D,
) -> Result<EntityId, Error> {
    delta.instantiate(manager, template, sealed::Token(()))
}

/// [`instantiate_from_template`] through the class's type-erased clone and
/// [`Delta::apply`] (every delta but [`PropertyDelta`]).
fn instantiate_erased<D: Delta + ?Sized>(
    manager: &mut EntityManager,
    template: TemplateRef<'_>,
    delta: &D,
) -> Result<EntityId, Error> {
    let (archetypes, slot) = template.archetype_storage();
    // Steps 1-3: the record, the archetype cloned into the final slot, both links.
    let base = manager.push_record(
        template.class(),
        EntityId(0),
        SlotInit::Clone(archetypes, slot),
    );
    let mut guard = Discard {
        manager,
        base,
        armed: true,
    };
    let (entity, storage) = guard.manager.record_and_storage_mut(base as usize);
    entity.position = template.position();
    entity.template = NonZeroU32::new(template.crc());
    // Step 4: the delta.
    delta.apply(&mut DeltaTarget { entity, storage })?;
    // Step 5: the id.
    let id = guard.manager.register_fresh_id(base);
    guard.armed = false;
    Ok(id)
}

/// Takes back an unregistered record (a failed or panicking delta).
struct Discard<'m> {
    manager: &'m mut EntityManager,
    base: u32,
    armed: bool,
}

impl Drop for Discard<'_> {
    #[inline]
    fn drop(&mut self) {
        if self.armed {
            self.manager.discard_last(self.base);
        }
    }
}

/// Reflection access by key (docs/design.md, sections 3.1 and 7.4's
/// `set_property`).
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
        DeltaTarget {
            entity: &mut *entity,
            storage,
        }
        .set_property(key, Value::from_text(text))?;
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

/// One overridden property, as an inspector shows it (docs/design.md, section 7.8): the key,
/// the instance's and the template's values as text, and whether the override is
/// recorded (pinned) or only a difference not yet saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PropertyOverride {
    /// Index in the class's property table.
    pub index: usize,
    /// The property's key.
    pub key: &'static str,
    /// The instance's value text.
    pub instance: String,
    /// The template's value text.
    pub template: String,
    /// Whether the override is recorded (from the file, a delta or `set_property`, or
    /// a save); `false` for a value that differs from the template's but was changed
    /// directly and not yet saved (it is recorded at the next save).
    pub pinned: bool,
}

/// Entity `id`'s base index and template.
fn instance_of<'c>(
    manager: &EntityManager,
    templates: &'c TemplateCache,
    id: EntityId,
) -> Result<(usize, TemplateRef<'c>), Error> {
    let base = manager
        .index_of(id)
        .ok_or_else(|| Error::file("", ErrorKind::NoSuchEntity(id.0)))?;
    let crc = manager.entities()[base].template().ok_or_else(|| {
        Error::file(
            "",
            ErrorKind::Template {
                path: String::new(),
                reason: format!("entity {id} is not an instance of a template"),
            },
        )
    })?;
    let template = templates.find(crc).ok_or_else(|| {
        Error::file(
            "",
            ErrorKind::Template {
                path: format!("{crc:#010X}"),
                reason: "this template CRC is not in the template cache".into(),
            },
        )
    })?;
    Ok((base, template))
}

/// The overridden properties of instance `id` (docs/design.md, section 7.8, inspector
/// diffing), in declaration order: those recorded as overrides and those whose value
/// differs from the template's, each with both values as text.
///
/// # Errors
/// [`ErrorKind::NoSuchEntity`], or [`ErrorKind::Template`] when `id` is not an instance
/// of a template in `templates`.
pub fn overrides(
    manager: &EntityManager,
    templates: &TemplateCache,
    id: EntityId,
) -> Result<Vec<PropertyOverride>, Error> {
    let (base, template) = instance_of(manager, templates, id)?;
    let entity = &manager.entities()[base];
    let (storage, slot) = manager.storage_of(id).expect("live");
    let (archetypes, archetype) = template.archetype_storage();
    let mut list = Vec::new();
    for (index, property) in storage.properties().iter().enumerate() {
        let pinned = entity.overrides.contains(index);
        if !pinned && storage.same_property(slot, index, archetypes, archetype) {
            continue;
        }
        let mut instance = String::new();
        storage.encode_property(slot, index, &mut instance);
        list.push(PropertyOverride {
            index,
            key: property.key,
            instance,
            template: template.property_text(index),
            pinned,
        });
    }
    Ok(list)
}

/// Reverts property `key` of instance `id` to its template's value and clears its
/// override (docs/design.md, section 7.5); `Position` reverts the
/// position to the template's. Marks the entity dirty.
///
/// # Errors
/// As [`overrides`], and [`ErrorKind::NoSuchProperty`].
pub fn revert_property(
    manager: &mut EntityManager,
    templates: &TemplateCache,
    id: EntityId,
    key: &str,
) -> Result<(), Error> {
    let (base, template) = instance_of(manager, templates, id)?;
    let (entity, storage) = manager.record_and_storage_mut(base);
    let crc = key_crc_runtime(key.as_bytes());
    if keys::POSITION.matches(crc, key) {
        entity.position = template.position();
        entity.position_overridden = false;
    } else {
        let index = entity
            .class
            .property_index(crc, key)
            .ok_or_else(|| no_such_property(entity.class, key))?;
        let (archetypes, archetype) = template.archetype_storage();
        storage.copy_property_from(entity.slot as usize, index, archetypes, archetype);
        entity.overrides.remove(index);
    }
    entity.dirty = true;
    Ok(())
}

/// Reverts every property of instance `id` to its template's value and clears its
/// overrides (docs/design.md, section 7.5); the id, the position and
/// the links are kept. Fields outside the property table (`#[jasset(skip)]`, runtime
/// handles) are left alone. Marks the entity dirty.
///
/// # Errors
/// As [`overrides`].
pub fn revert_to_template(
    manager: &mut EntityManager,
    templates: &TemplateCache,
    id: EntityId,
) -> Result<(), Error> {
    let (base, template) = instance_of(manager, templates, id)?;
    let (entity, storage) = manager.record_and_storage_mut(base);
    let (archetypes, archetype) = template.archetype_storage();
    for index in 0..storage.properties().len() {
        storage.copy_property_from(entity.slot as usize, index, archetypes, archetype);
    }
    entity.overrides.clear();
    entity.dirty = true;
    Ok(())
}

/// Looks up the template an instance file names (in the cache, else from disk), with
/// errors located at the file's `Template` key, and checks the file's `Kind` (if any,
/// with its node) against it.
pub(crate) fn resolve_for_instance<'c>(
    cache: &'c mut TemplateCache,
    doc: &Document<'_>,
    node: usize,
    text: &str,
    kind: Option<(&'static Class, usize)>,
) -> Result<TemplateRef<'c>, Error> {
    let origin = Origin::of(doc, node);
    let template = cache.get_or_load_at(text, Some(origin)).map_err(|e| {
        if e.path == doc.path() {
            e
        } else {
            // An error inside the template file: the instance fails at its reference.
            located(
                doc,
                node,
                ErrorKind::Template {
                    path: text.to_owned(),
                    reason: e.to_string(),
                },
            )
        }
    })?;
    if let Some((class, kind_node)) = kind {
        if *class != *template.class() {
            let kind = ErrorKind::KindMismatch {
                found: class.name.into(),
                template: template.class().name.into(),
            };
            return Err(located(doc, kind_node, kind));
        }
    }
    Ok(template)
}

/// Allocates instance `id` of `template` (steps 1-3 of docs/design.md, section 7.3, the id
/// given by the file) and returns its base index.
pub(crate) fn allocate_instance(
    manager: &mut EntityManager,
    template: TemplateRef<'_>,
    id: EntityId,
) -> u32 {
    let (archetypes, slot) = template.archetype_storage();
    let base = manager.push_record(template.class(), id, SlotInit::Clone(archetypes, slot));
    manager.register_id(base, id);
    base
}

/// After an instance file was loaded over the archetype: its keys become overrides
/// (and, when a migration read deprecated keys, the properties it changed), and the
/// position is the instance's own when the file gave one.
pub(crate) fn mark_file_overrides(
    manager: &mut EntityManager,
    base: usize,
    template: TemplateRef<'_>,
    doc: &Document<'_>,
    position_in_file: bool,
) {
    let (entity, storage) = manager.record_and_storage_mut(base);
    entity.overrides = file_properties(entity.class, doc);
    if (0..doc.len()).any(|i| entity.class.is_deprecated(doc.node(i).key_crc, doc.key(i))) {
        let (archetypes, archetype) = template.archetype_storage();
        for index in 0..storage.properties().len() {
            if !storage.same_property(entity.slot as usize, index, archetypes, archetype) {
                entity.overrides.insert(index);
            }
        }
    }
    entity.position_overridden = position_in_file;
    entity.template = NonZeroU32::new(template.crc());
}

/// The save-time rule: every property (and the position) whose value differs from the
/// template's becomes an override of the instance at `base`.
fn pin_differences(manager: &mut EntityManager, base: usize, template: TemplateRef<'_>) {
    let (entity, storage) = manager.record_and_storage_mut(base);
    let (archetypes, archetype) = template.archetype_storage();
    for index in 0..storage.properties().len() {
        if !entity.overrides.contains(index)
            && !storage.same_property(entity.slot as usize, index, archetypes, archetype)
        {
            entity.overrides.insert(index);
        }
    }
    if entity.position != template.position() {
        entity.position_overridden = true;
    }
}

/// Writes instance `id` sparsely (docs/design.md, sections 7.3 and 7.4): the base
/// keys (`AssetType`, `BaseVersion`, `EntityID`, `Kind`, `Template`), `Position` when
/// it is the instance's own, then `ClassVersion` and the overridden properties in
/// declaration order (when there are any), then the unknown keys of `data`. Differences
/// from the template are recorded as overrides first.
///
/// # Errors
/// [`ErrorKind::NoSuchEntity`], or [`ErrorKind::Template`] when `id` is not an instance
/// of a template in `templates`.
pub fn save_instance(
    manager: &mut EntityManager,
    templates: &TemplateCache,
    id: EntityId,
    data: &EntityFileData,
    out: &mut String,
) -> Result<(), Error> {
    let (base, template) = instance_of(manager, templates, id)?;
    pin_differences(manager, base, template);
    let entity = &manager.entities()[base];
    let position = entity.position_overridden.then_some(entity.position);
    write_base_keys(out, Some(id), entity.class, Some(template.path()), position)?;
    if !entity.overrides.is_empty() {
        let (storage, slot) = manager.storage_of(id).expect("live");
        write_property(out, CLASS_VERSION.name, &entity.class.version);
        for index in entity.overrides.iter() {
            write_header(out, storage.properties()[index].key);
            storage.encode_property(slot, index, out);
            out.push('\n');
        }
    }
    data.unknown.write(out);
    Ok(())
}

/// Gives every instance of a changed template the new value of each changed property
/// it does not override (docs/design.md, section 7.6), and the new default position when its
/// position is the template's. A value that was changed directly and differs from the
/// old template value is an unsaved override: it is recorded and kept. Instances that
/// took a new value are marked dirty; their ids are returned.
pub(crate) fn propagate(manager: &mut EntityManager, change: &TemplateChange<'_>) -> Vec<EntityId> {
    let mut updated = Vec::new();
    let moved = change.old_position != change.new_position;
    for base in 0..manager.len() {
        if manager.entities()[base].template() != Some(change.crc) {
            continue;
        }
        let (entity, storage) = manager.record_and_storage_mut(base);
        let slot = entity.slot as usize;
        let mut took = false;
        for index in change.changed.iter() {
            if entity.overrides.contains(index) {
                continue;
            }
            if storage.same_property(slot, index, change.archetypes, change.old_slot) {
                storage.copy_property_from(slot, index, change.archetypes, change.new_slot);
                took = true;
            } else {
                entity.overrides.insert(index);
            }
        }
        if moved && !entity.position_overridden {
            if entity.position == change.old_position {
                entity.position = change.new_position;
                took = true;
            } else {
                entity.position_overridden = true;
            }
        }
        if took {
            entity.dirty = true;
            updated.push(entity.id);
        }
    }
    updated
}
