//! An entity's file edited in place for a save or a migration, and checked to read back
//! as the entity (docs/design.md, section 6.2), without the file's kept unknown keys
//! where it can (docs/reliability.md, section 6: memory per file size).

use std::borrow::Cow;
use std::path::Path;

use juliet_core::{Class, Error, TokenBuffer, UnknownProperties, CLASS_VERSION};

use super::World;
use crate::edit::{self, Defaults, KeyMap, Reduced};
use crate::entity::EntityId;
use crate::load::{keys, load_entity_with_templates, save_entity};
use crate::manager::EntityManager;
use crate::template::{self, TemplateCache};

/// What [`World::edit_in_place`] makes of an entity's file.
pub(super) enum InPlace {
    /// The file holds the entity as it is (a save has nothing to write).
    Unchanged,
    /// The file edited in place, which reads back as the entity.
    Edited(Vec<u8>),
    /// The canonical text is to be written: the file is canonical already, or the
    /// edit would not read back as the entity.
    Canonical,
}

impl World {
    /// The file of entity `id` (at `path`, as loaded or last saved) edited in place to
    /// hold `text`, the entity's canonical text ([`World::entity_text`]). `migrate`:
    /// the file is brought to the entity's versions only (what `jasset migrate`
    /// writes; the file is taken to hold the entity otherwise). `forced`:
    /// [`crate::Entity::mark_dirty`] asked for a write, so a file that holds the entity is
    /// still edited.
    ///
    /// The edit is worked out on the file without the inner properties of its runs of
    /// kept unknown keys ([`edit::reduce`]), which `text` ends with and no edit changes;
    /// the whole file is used only when that cannot be done.
    ///
    /// # Errors
    /// A tokenizer error in the file; the error of loading it.
    pub(super) fn edit_in_place(
        &mut self,
        id: EntityId,
        path: &Path,
        text: &str,
        migrate: bool,
        forced: bool,
        defaults: &mut Vec<(&'static Class, Defaults)>,
    ) -> Result<InPlace, Error> {
        let map = EntityKeys::new(self, id, defaults);
        let World {
            manager,
            templates,
            records,
            ..
        } = self;
        let Some(record) = records.get(&id) else {
            return Ok(InPlace::Canonical);
        };
        let Some(original) = record.original.as_deref() else {
            return Ok(InPlace::Canonical);
        };
        let unknown = &record.data.unknown;
        let known = known_part(text, unknown);
        let reduced = known.and_then(|_| edit::reduce(original, path, &map, unknown));
        let (file, new): (&[u8], Cow<str>) = match (&reduced, known) {
            (Some(r), Some(known)) => (&r.bytes, Cow::Owned(format!("{known}{}", r.tail))),
            _ => (original, Cow::Borrowed(text)),
        };
        let old = match migrate {
            true => None,
            false => {
                Some(file_text(manager, templates, path, file).map_err(|e| e.with_path(path))?)
            }
        };
        if let Some(old) = &old {
            if *old == *new && !forced {
                return Ok(InPlace::Unchanged);
            }
            if file == old.as_bytes() && reduced.as_ref().is_none_or(Reduced::is_whole) {
                return Ok(InPlace::Canonical);
            }
        }
        // Migrating: the file as loaded without its migration, so that a property the
        // migration changed (not only the deprecated keys it consumed) gets its lines
        // edited; the others keep theirs. A file that does not load that way (a value of
        // an older type) is taken to hold the entity.
        let unmigrated = match migrate {
            true => edit::with_versions_of(file, path, &new, &map)
                .ok()
                .and_then(|bytes| file_text(manager, templates, path, &bytes).ok()),
            false => None,
        };
        let before = old.as_deref().or(unmigrated.as_deref()).unwrap_or(&new);
        let mut edits = edit::edits(file, path, before, &new, &map)?;
        if let Some(reduced) = &reduced {
            for edit in &mut edits {
                (edit.0, edit.1) = (reduced.to_whole(edit.0), reduced.to_whole(edit.1));
            }
        }
        // The read-back is made the way the edit was: on the cut file or the whole one.
        let known = known.filter(|_| reduced.is_some());
        drop((old, unmigrated, new, reduced));
        let edited = edit::apply_bytes(original, edits);
        // The edit must read back as the entity: where the file's mix of line forms
        // defeats it, the canonical text is written instead.
        let back = match known {
            Some(known) => edit::reduce(&edited, path, &map, unknown).is_some_and(|r| {
                file_text(manager, templates, path, &r.bytes).is_ok_and(|back| {
                    back.len() == known.len() + r.tail.len()
                        && back.starts_with(known)
                        && back.ends_with(&r.tail)
                })
            }),
            None => file_text(manager, templates, path, &edited).is_ok_and(|back| back == text),
        };
        Ok(if back {
            InPlace::Edited(edited)
        } else {
            InPlace::Canonical
        })
    }
}

/// `text` (an entity's canonical text) without the `unknown` keys it ends with, or
/// `None` when it does not end with them as the canonical writer writes them.
fn known_part<'t>(text: &'t str, unknown: &UnknownProperties) -> Option<&'t str> {
    let mut one = String::new();
    let written: usize = (unknown.iter())
        .map(|p| {
            one.clear();
            p.write(&mut one);
            one.len()
        })
        .sum();
    let at = text.len().checked_sub(written)?;
    let tail = text.as_bytes().get(at..)?;
    let mut rest = tail;
    for property in unknown.iter() {
        one.clear();
        property.write(&mut one);
        rest = rest.strip_prefix(one.as_bytes())?;
    }
    text.get(..at)
}

/// The canonical text of what `bytes` (an entity file read from `path`) holds: the file
/// loaded into a scratch manager of `manager`'s registry and written as
/// [`World::entity_text`] writes the live entity.
pub(super) fn file_text(
    manager: &EntityManager,
    templates: &mut TemplateCache,
    path: &Path,
    bytes: &[u8],
) -> Result<String, Error> {
    let registry = manager.registry()?;
    let mut scratch = EntityManager::with_registry(registry);
    let mut buffer = TokenBuffer::new();
    let loaded = load_entity_with_templates(&mut buffer, &mut scratch, templates, path, bytes)?;
    let mut out = String::new();
    let data = loaded.data;
    match scratch.entity(loaded.id).and_then(|e| e.template()) {
        Some(_) => template::save_instance(&mut scratch, templates, loaded.id, &data, &mut out)?,
        None => save_entity(&scratch, loaded.id, &data, &mut out)?,
    }
    Ok(out)
}

/// The [`KeyMap`] of one entity's file: the base keys and their aliases, `ClassVersion`,
/// the class's properties and aliases; what an absent key means for a standalone entity
/// (the class's defaults) or an instance (its template's value, which a sparse save
/// writes only as an override).
struct EntityKeys<'a> {
    class: &'static Class,
    instance: bool,
    defaults: &'a Defaults,
}

impl<'a> EntityKeys<'a> {
    fn new(
        world: &World,
        id: EntityId,
        cache: &'a mut Vec<(&'static Class, Defaults)>,
    ) -> EntityKeys<'a> {
        let entity = world.manager.entity(id).expect("live");
        let class = entity.class();
        let at = match cache.iter().position(|(c, _)| std::ptr::eq(*c, class)) {
            Some(at) => at,
            None => {
                cache.push((class, defaults_of(world, class)));
                cache.len() - 1
            }
        };
        EntityKeys {
            class,
            instance: entity.template().is_some(),
            defaults: &cache[at].1,
        }
    }
}

/// The canonical value lines of a default entity of `class`, by key.
fn defaults_of(world: &World, class: &'static Class) -> Defaults {
    let mut out = Defaults::new();
    let Ok(registry) = world.manager.registry() else {
        return out;
    };
    let mut scratch = EntityManager::with_registry(registry);
    let id = scratch.allocate_entity(class);
    let mut text = String::new();
    if scratch
        .save_derived(id, &mut juliet_core::Archive::saving(&mut text))
        .is_err()
    {
        return out;
    }
    let mut buffer = TokenBuffer::new();
    if let Ok(doc) = buffer.tokenize(text.as_bytes(), Path::new("")) {
        for i in 0..doc.len() {
            if let Some(p) = class.property(doc.key(i)) {
                out.insert(p.key, doc.value(i).lines().map(str::to_owned).collect());
            }
        }
    }
    out
}

impl KeyMap for EntityKeys<'_> {
    fn canonical(&self, crc: u32, key: &str) -> Option<&'static str> {
        if let Some(canonical) = crate::entity_file::base_key(crc, key) {
            return Some(canonical);
        }
        if CLASS_VERSION.matches(crc, key) {
            return Some(CLASS_VERSION.name);
        }
        (self.class.property_index(crc, key)).map(|i| self.class.properties[i].key)
    }

    fn absent_means(&self, key: &str, lines: &[&str]) -> bool {
        if [
            keys::ASSET_TYPE.name,
            keys::BASE_VERSION.name,
            keys::KIND.name,
            CLASS_VERSION.name,
        ]
        .contains(&key)
        {
            return true;
        }
        if self.instance {
            return false;
        }
        if key == keys::POSITION.name {
            return lines == ["0.0 0.0 0.0"];
        }
        self.defaults
            .get(key)
            .is_some_and(|d| d.iter().map(String::as_str).eq(lines.iter().copied()))
    }
}
