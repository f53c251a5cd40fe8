//! An entity's file edited in place for a save or a migration, and checked to read back
//! as the entity (docs/design.md, section 6.2), without the file's kept unknown keys
//! where it can (docs/reliability.md, section 6: memory per file size).

use std::borrow::Cow;
use std::path::Path;

use juliet_core::{Class, Error, TokenBuffer, UnknownProperties, CLASS_VERSION};

use super::{Defaults, KeyMap, Reduced};
use crate::entity::EntityId;
use crate::load::{keys, load_entity_with_templates, save_entity};
use crate::manager::EntityManager;
use crate::patch;
use crate::template::{self, TemplateCache};

/// What [`edit_file`] makes of an entity's file.
pub(crate) enum InPlace {
    /// The file holds the entity as it is (a save has nothing to write).
    Unchanged,
    /// The file edited in place, which reads back as the entity.
    Edited(Vec<u8>),
    /// The canonical text is to be written: the file is canonical already, or the
    /// edit would not read back as the entity.
    Canonical,
}

impl InPlace {
    /// The bytes to write for the entity whose canonical text is `text`: the edited file,
    /// or `text` (the file holds the entity already, or the edit would not read back).
    pub(crate) fn or_text(self, text: String) -> Vec<u8> {
        match self {
            InPlace::Edited(bytes) => bytes,
            InPlace::Unchanged | InPlace::Canonical => text.into_bytes(),
        }
    }
}

/// One entity's file, as loaded, for [`edit_entity_file`]: the entity it holds and the
/// bytes it held.
#[derive(Debug, Clone, Copy)]
pub struct EntityFile<'a> {
    /// The manager that holds the entity (its registry loads the file).
    pub manager: &'a EntityManager,
    /// The entity.
    pub id: EntityId,
    /// Where the file is (for errors and the template chain).
    pub path: &'a Path,
    /// The file's bytes, as loaded or last saved.
    pub original: &'a [u8],
    /// The unknown keys the entity kept from the file.
    pub unknown: &'a UnknownProperties,
    /// A file without `EntityID` (a template's, a loose file's): its canonical text has
    /// none.
    pub without_id: bool,
}

/// What an edit in place ([`edit_entity_file`]) is for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct How {
    /// A migration: the file is brought to the entity's current versions and nothing
    /// else changes (the version lines, the deprecated keys the migration consumed and
    /// the properties it set). `false`, a save: the file is taken to hold the entity as
    /// loaded, and every property whose value differs from the new text changes.
    pub migrate: bool,
    /// The file is edited even when it holds the entity already (what
    /// [`crate::Entity::mark_dirty`] asks of a save): a file at an older version is
    /// then brought to the current one. `false`: such a file is returned as it is.
    pub forced: bool,
}

/// The bytes to write for `file` to hold `text`, the entity's canonical text
/// ([`crate::save_entity`], [`crate::template::save_instance`] for an instance, without
/// `EntityID` when [`EntityFile::without_id`]; what [`crate::World::entity_text`]
/// writes), keeping the file's lines as [`crate::World::save_world`] keeps them (see the
/// module documentation): `file.original` edited in place; `file.original` as it is when
/// it holds the entity already (unless [`How::forced`]); `text` itself when the edit
/// would not read back as the entity (a file whose mix of line forms defeats it).
/// `templates`
/// resolves the entity's template chain (the file is read again over it). Nothing is
/// written: the caller writes the bytes ([`crate::fsio::replace_if_unchanged`]).
///
/// # Errors
/// A tokenizer error in the file; the error of loading it.
///
/// # Example
/// ```
/// use std::path::Path;
/// use juliet_entities::patch::{edit_entity_file, EntityFile, How};
/// use juliet_entities::load::{load_entity, save_entity, without_entity_id};
/// use juliet_entities::{EntityManager, TemplateCache};
///
/// let path = Path::new("Assets/Templates/Rock.jasset");
/// let original = "# Heavy, so that it stays put.\n; Kind\nInert\n; Mass\n2\n";
/// let mut manager = EntityManager::new();
/// let loaded = load_entity(&mut manager, path, original.as_bytes())?;
/// manager.set_property(loaded.id, "Mass", "3")?;
/// let mut text = String::new();
/// save_entity(&manager, loaded.id, &loaded.data, &mut text)?;
/// // A template has no `EntityID`: its canonical text has none either.
/// let text = without_entity_id(&text, loaded.id);
/// let file = EntityFile {
///     manager: &manager,
///     id: loaded.id,
///     path,
///     original: original.as_bytes(),
///     unknown: &loaded.data.unknown,
///     without_id: true,
/// };
/// let mut templates = TemplateCache::new(".");
/// let bytes = edit_entity_file(&file, &mut templates, text, How::default())?;
/// // The comment and the lines stay; the new value is as its codec writes it.
/// assert_eq!(bytes, b"# Heavy, so that it stays put.\n; Kind\nInert\n; Mass\n3.0\n");
/// # Ok::<(), juliet_entities::juliet_core::Error>(())
/// ```
pub fn edit_entity_file(
    file: &EntityFile<'_>,
    templates: &mut TemplateCache,
    text: String,
    how: How,
) -> Result<Vec<u8>, Error> {
    Ok(
        match edit_file(file, templates, &text, how, &mut Vec::new())? {
            InPlace::Unchanged => file.original.to_vec(),
            edited => edited.or_text(text),
        },
    )
}

/// `file` edited in place to hold `text`, the entity's canonical text
/// ([`crate::World::entity_text`]; without `EntityID` for a file that has none), read with the
/// templates of `templates`.
///
/// The edit is worked out on the file without the inner properties of its runs of
/// kept unknown keys ([`patch::reduce`]), which `text` ends with and no edit changes;
/// the whole file is used only when that cannot be done. What the edit changes is what
/// differs between `text` and the entity the file is taken to hold: as loaded (a save),
/// or loaded at the current versions without its migration (a migration, or a save of a
/// file at an older version whose migration changed a property the file holds). The
/// edited file must read back as `text`, or [`InPlace::Canonical`] is returned.
///
/// # Errors
/// A tokenizer error in the file; the error of loading it.
pub(crate) fn edit_file(
    file: &EntityFile<'_>,
    templates: &mut TemplateCache,
    text: &str,
    how: How,
    defaults: &mut Vec<(&'static Class, Defaults)>,
) -> Result<InPlace, Error> {
    let map = EntityKeys::new(file.manager, file.id, defaults);
    let path = file.path;
    let known = known_part(text, file.unknown);
    let reduced = known.and_then(|_| patch::reduce(file.original, path, &map, file.unknown));
    let (bytes, new): (&[u8], Cow<str>) = match (&reduced, known) {
        (Some(r), Some(known)) => (&r.bytes, Cow::Owned(format!("{known}{}", r.tail))),
        _ => (file.original, Cow::Borrowed(text)),
    };
    let attempt = Attempt {
        file,
        map: &map,
        reduced: reduced.as_ref(),
        // The read-back is made the way the edit was: on the cut file or the whole one.
        known: known.filter(|_| reduced.is_some()),
        text,
        eol: patch::line_ending(file.original),
    };
    // The file at the current versions, loaded: what it holds without its migration. A
    // file that does not load that way (a value of an older type) is taken to hold the
    // entity as migrated.
    let unmigrated = |templates: &mut TemplateCache| {
        patch::with_versions_of(bytes, path, &new, &map)
            .ok()
            .flatten()
            .and_then(|at_current| file_text(file, templates, &at_current).ok())
    };
    if how.migrate {
        let before = unmigrated(templates);
        let before = before.as_deref().unwrap_or(&new);
        return attempt.edited(templates, bytes, before, &new);
    }
    // A file that no longer loads over the templates as they are now (an override of
    // a field of a variant the template has since left) has no lines to keep: the
    // entity is written whole, in canonical form.
    let Ok(old) = file_text(file, templates, bytes) else {
        return Ok(InPlace::Canonical);
    };
    if old == *new && !how.forced {
        return Ok(InPlace::Unchanged);
    }
    if bytes == old.as_bytes() && reduced.as_ref().is_none_or(Reduced::is_whole) {
        return Ok(InPlace::Canonical);
    }
    match attempt.edited(templates, bytes, &old, &new)? {
        InPlace::Canonical => {}
        edited => return Ok(edited),
    }
    // A file at an older version whose migration changed a property it holds: the
    // edit from the migrated values leaves that property's line as written.
    match unmigrated(templates) {
        Some(before) => attempt.edited(templates, bytes, &before, &new),
        None => Ok(InPlace::Canonical),
    }
}

/// What an in-place edit of one file checks its result against.
struct Attempt<'a> {
    file: &'a EntityFile<'a>,
    map: &'a EntityKeys<'a>,
    /// The file cut to its known part, when it was.
    reduced: Option<&'a Reduced>,
    /// The entity's canonical text without its unknown keys, when the file was cut.
    known: Option<&'a str>,
    /// The entity's canonical text.
    text: &'a str,
    /// How the lines the edit adds end: as most lines of the whole file do.
    eol: &'static str,
}

impl Attempt<'_> {
    /// `bytes` (the file, cut or whole), taken to hold `before`, edited to hold `new`,
    /// and mapped back onto the whole file: [`InPlace::Edited`] when the edited file
    /// reads back as the entity, [`InPlace::Canonical`] when the file's mix of line
    /// forms defeats the edit.
    fn edited(
        &self,
        templates: &mut TemplateCache,
        bytes: &[u8],
        before: &str,
        new: &str,
    ) -> Result<InPlace, Error> {
        let (file, map) = (self.file, self.map);
        let mut edits = patch::edits(bytes, file.path, before, new, map, self.eol)?;
        if let Some(reduced) = self.reduced {
            for edit in &mut edits {
                let range = &edit.range;
                edit.range = reduced.to_whole(range.start)..reduced.to_whole(range.end);
            }
        }
        // Edits that overlap, which the rules do not make, are an edit that does not
        // read back.
        let Ok(edited) = juliet_core::apply_edits(file.original, edits) else {
            return Ok(InPlace::Canonical);
        };
        let back = match self.known {
            Some(known) => patch::reduce(&edited, file.path, map, file.unknown).is_some_and(|r| {
                file_text(file, templates, &r.bytes).is_ok_and(|back| {
                    back.len() == known.len() + r.tail.len()
                        && back.starts_with(known)
                        && back.ends_with(&r.tail)
                })
            }),
            None => file_text(file, templates, &edited).is_ok_and(|back| back == self.text),
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

/// The canonical text of what `bytes` (the file of `file`, or an edit of it) holds: the
/// bytes loaded into a scratch manager of the entity's registry and written as
/// [`crate::World::entity_text`] writes the live entity (without `EntityID` when the file has
/// none).
fn file_text(
    file: &EntityFile<'_>,
    templates: &mut TemplateCache,
    bytes: &[u8],
) -> Result<String, Error> {
    let registry = file.manager.registry()?;
    let mut scratch = EntityManager::with_registry(registry);
    let mut buffer = TokenBuffer::new();
    let path = file.path;
    let loaded = load_entity_with_templates(&mut buffer, &mut scratch, templates, path, bytes)?;
    let mut out = String::new();
    let data = loaded.data;
    match scratch.entity(loaded.id).and_then(|e| e.template()) {
        Some(_) => template::save_instance(&mut scratch, templates, loaded.id, &data, &mut out)?,
        None => save_entity(&scratch, loaded.id, &data, &mut out)?,
    }
    if file.without_id {
        out = crate::entity_file::without_entity_id(&out, loaded.id);
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
        manager: &EntityManager,
        id: EntityId,
        cache: &'a mut Vec<(&'static Class, Defaults)>,
    ) -> EntityKeys<'a> {
        let entity = manager.entity(id).expect("live");
        let class = entity.class();
        let at = match cache.iter().position(|(c, _)| std::ptr::eq(*c, class)) {
            Some(at) => at,
            None => {
                cache.push((class, defaults_of(manager, class)));
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
fn defaults_of(manager: &EntityManager, class: &'static Class) -> Defaults {
    let mut out = Defaults::new();
    let Ok(registry) = manager.registry() else {
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
        (self.class.property_index(crc, key)).map(|i| self.class.properties()[i].key)
    }

    fn current_version(&self, key: &str) -> Option<u32> {
        match key {
            k if k == keys::BASE_VERSION.name => Some(crate::entity_file::ENTITY_BASE_VERSION),
            k if k == CLASS_VERSION.name => Some(self.class.version()),
            _ => None,
        }
    }

    fn is_alias(&self, crc: u32, key: &str) -> bool {
        (self.class.property_index(crc, key))
            .is_some_and(|i| !juliet_core::keys_equal(key, self.class.properties()[i].key))
    }

    fn holds_token_lists(&self, key: &str) -> bool {
        key == keys::POSITION.name
            || (self.class.property(key))
                .is_some_and(|p| patch::separators::holds_token_lists(&p.property_type))
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
