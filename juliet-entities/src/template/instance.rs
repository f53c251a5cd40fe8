//! Template instances: override tracking (docs/design.md, section 7.4), the reflection
//! setter, inspector diffing (section 7.8), revert (section 7.5), sparse saving and
//! propagation of template changes (section 7.6). Deltas and instantiation are in
//! `delta`.
//!
//! The override rules are docs/design.md, section 7.4's: a property is overridden when its key
//! was present in the instance's file, when it was set through the reflection API (a
//! delta, [`EntityManager::set_property`]), or when its value differs from the
//! template's at save time. An override that happens to equal the template's value is
//! therefore kept ("pinned"): it survives a later change of the template, and only a
//! revert clears it.

use std::num::NonZeroU32;

use juliet_core::{
    key_crc_runtime, write_header, write_property, Class, Document, Error, ErrorKind, CLASS_VERSION,
};

use super::cache::{
    file_properties, migrated_properties, Origin, TemplateCache, TemplateChange, TemplateRef,
};
use crate::entity::overrides::{enum_leaves, variant_of};
use crate::entity::EntityId;
use crate::entity_file::{keys, located, write_base_keys, EntityFileData};
use crate::manager::no_such_property;
use crate::manager::{EntityManager, SlotInit};

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
    let crc = (manager.entities()[base].template())
        .ok_or_else(|| Error::file("", ErrorKind::NotAnInstance(id.0)))?;
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
/// [`ErrorKind::NoSuchEntity`]; [`ErrorKind::NotAnInstance`] when `id` is no template's
/// instance; [`ErrorKind::Template`] when its template is not in `templates`.
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
        if instance.is_empty() {
            // An absent leaf (a field of a variant not in use): nothing to override.
            continue;
        }
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
/// [`ErrorKind::NoSuchProperty`] for a key the entity's class does not have (before
/// whether the entity is an instance), then as [`overrides`].
pub fn revert_property(
    manager: &mut EntityManager,
    templates: &TemplateCache,
    id: EntityId,
    key: &str,
) -> Result<(), Error> {
    let crc = key_crc_runtime(key.as_bytes());
    let position = keys::POSITION.matches(crc, key);
    // The key first: a key the class lacks is named so, whatever the entity is.
    let index = match manager.entity(id) {
        Some(e) if !position => Some(
            e.class()
                .property_index(crc, key)
                .ok_or_else(|| no_such_property(e.class(), key))?,
        ),
        _ => None,
    };
    let (base, template) = instance_of(manager, templates, id)?;
    let (entity, storage) = manager.record_and_storage_mut(base);
    if let Some(index) = index {
        let (archetypes, archetype) = template.archetype_storage();
        let slot = entity.slot as usize;
        let table = storage.properties();
        // A field of an enum's variant: the template's variant first (the whole enum
        // when the variants differ, nothing when they are the same).
        let variant = variant_of(table, index);
        if let Some(v) = variant {
            storage.copy_property_from(slot, v, archetypes, archetype);
        }
        storage.copy_property_from(slot, index, archetypes, archetype);
        entity.overrides.remove(index);
        // The enum's leaves that are the template's now stop being overrides; its
        // variant stays one while a field of it is.
        for leaf in enum_leaves(table, variant.unwrap_or(index)) {
            if storage.same_property(slot, leaf, archetypes, archetype) {
                entity.overrides.remove(leaf);
            }
        }
    } else {
        entity.position = template.position();
        entity.position_overridden = false;
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
        if e.location.path == doc.path() {
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
                found: class.name().into(),
                template: template.class().name().into(),
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

/// After an instance file was loaded over the archetype: its keys become overrides,
/// and, when the file held deprecated keys, the properties the migration sets from the
/// ones it read (`migrated_from`) and every property whose value differs from the
/// template's; the position is the instance's own when the file gave one.
pub(crate) fn mark_file_overrides(
    manager: &mut EntityManager,
    base: usize,
    template: TemplateRef<'_>,
    doc: &Document<'_>,
    position_in_file: bool,
) {
    let (entity, storage) = manager.record_and_storage_mut(base);
    let class = entity.class;
    entity.overrides = file_properties(class, doc);
    if migrated_properties(class, doc, &mut entity.overrides) {
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
/// [`ErrorKind::NoSuchEntity`]; [`ErrorKind::NotAnInstance`] when `id` is no template's
/// instance; [`ErrorKind::Template`] when its template is not in `templates`.
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
        write_property(out, CLASS_VERSION.name, &entity.class.version());
        for index in entity.overrides.iter() {
            let start = out.len();
            write_header(out, storage.properties()[index].key);
            let value = out.len();
            storage.encode_property(slot, index, out);
            if out.len() == value {
                // An absent leaf (a field of a variant not in use) writes nothing.
                out.truncate(start);
                continue;
            }
            out.push('\n');
        }
    }
    data.unknown.write(out);
    Ok(())
}

/// Gives every instance of a changed template the new value of each changed property
/// it does not override (docs/design.md, section 7.6), and the new default position when its
/// position is the template's. A value that was changed directly and differs from the
/// old template value is an unsaved override: it is recorded and kept. The ids of the
/// instances that took a new value are returned. They are not marked dirty: an inherited
/// value is not in an instance's (sparse) file, so the file does not change, and a save,
/// which compares texts, leaves it untouched; an override recorded here changes the text,
/// and the save writes it.
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
            updated.push(entity.id);
        }
    }
    updated
}
