//! Entity files: in-place loading ([`load_entity`]) and the canonical writer
//! ([`save_entity`]).
//!
//! docs/design.md, section 5.5 (read the kind, allocate, stream the base and derived tiers
//! straight into the final slot, advance the id counter, clear the dirty flag) with the
//! entity file of section 2.4:
//!
//! ```text
//! ; AssetType          Entity (also read: `entity_instance`)
//! ; BaseVersion        ENTITY_BASE_VERSION (alias `version`)
//! ; EntityID           0x + 16 hex digits (alias `id`)
//! ; Kind               the class name (aliases `class`, `entity_type`)
//! ; Template           optional template path: the file is an instance
//!                      (see `load_entity_with_templates` and `crate::template`)
//! ; Position           3 floats
//! ; ClassVersion       then the derived properties, written by the class
//! ...                  then the unknown keys, in their original order
//! ```

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::path::Path;

use glam::Vec3;
use juliet_core::{
    keys_equal, write_header, write_property, Archive, Class, Codec, Document, Error, ErrorKind,
    Registry, TokenBuffer, UnknownProperties, ValueError, ValueErrorKind, Warning, WarningKind,
};

use crate::entity::EntityId;
use crate::manager::EntityManager;
use crate::reserved;
use crate::template::{self, TemplateCache};

mod direct;
#[cfg(test)]
mod direct_tests;
mod problems;

/// The engine's base-tier version (docs/design.md, section 2.4), written as
/// `BaseVersion`: it versions the keys this module reads, independently of each class's
/// `ClassVersion`.
pub const ENTITY_BASE_VERSION: u32 = 1;

/// The `AssetType` of entity files.
pub const ENTITY_ASSET_TYPE: &str = "Entity";

/// The base-tier keys, in canonical order, with their aliases (docs/design.md, section 2.5).
pub mod keys {
    use juliet_core::Key;

    /// `AssetType`.
    pub const ASSET_TYPE: Key = Key::new("AssetType");
    /// `BaseVersion` (alias `version`).
    pub const BASE_VERSION: Key = Key::new("BaseVersion");
    /// `EntityID` (alias `id`).
    pub const ENTITY_ID: Key = Key::new("EntityID");
    /// `Kind` (aliases `class`, `entity_type`).
    pub const KIND: Key = Key::new("Kind");
    /// `Template`.
    pub const TEMPLATE: Key = Key::new("Template");
    /// `Position`.
    pub const POSITION: Key = Key::new("Position");

    /// The base keys, in canonical order (without their aliases).
    pub const BASE: [Key; 6] = [
        ASSET_TYPE,
        BASE_VERSION,
        ENTITY_ID,
        KIND,
        TEMPLATE,
        POSITION,
    ];

    /// Aliases of `BaseVersion`.
    pub const BASE_VERSION_ALIASES: &[Key] = &[Key::new("version")];
    /// Aliases of `EntityID`.
    pub const ENTITY_ID_ALIASES: &[Key] = &[Key::new("id")];
    /// Aliases of `Kind`.
    pub const KIND_ALIASES: &[Key] = &[Key::new("class"), Key::new("entity_type")];
}

/// What an entity file holds besides the entity's fields, kept to be written back: the
/// template path and the keys no reader knew.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntityFileData {
    /// The `Template` path as written, if any (resolved by the templates runtime).
    pub template: Option<String>,
    /// Unknown keys, in file order (docs/design.md, section 2.6: they survive a round trip).
    pub unknown: UnknownProperties,
}

/// The result of [`load_entity`].
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedEntity {
    /// The entity's id (the file's `EntityID`, or a fresh one when the file has none).
    pub id: EntityId,
    /// Template path and unknown keys, for [`save_entity`].
    pub data: EntityFileData,
    /// Unknown keys, newer versions, a missing `EntityID`: the load went on.
    pub warnings: Vec<Warning>,
    /// Whether the direct path read the file (a plain entity in the writer's canonical
    /// form, see [`load_entity`]); `false`: the tokenizer and the [`Archive`]. Either
    /// way the entity and the other fields are the same.
    pub direct: bool,
}

thread_local! {
    /// One token buffer per thread: steady-state loading reuses its memory.
    static BUFFER: RefCell<TokenBuffer> = RefCell::new(TokenBuffer::new());
}

/// Loads the entity file `bytes` (read from `path`, which labels errors) into `manager`,
/// in place (docs/design.md, section 5.5): tokenize, read the base keys, resolve `Kind` through
/// the manager's registry, allocate (derived defaults written in the final slot), load
/// the derived properties into that slot in one pass, advance the id counter past the
/// id, clear the dirty flag.
///
/// Uses a per-thread [`TokenBuffer`], so loading many files allocates nothing per
/// entity for kinds without heap-typed fields (once the buffers have grown).
///
/// # Errors
/// Located at `path:line:column` with the key: a tokenizer error, a bad value,
/// [`ErrorKind::WrongAssetType`], [`ErrorKind::MissingKey`] (`Kind`),
/// [`ErrorKind::UnknownKind`], [`ErrorKind::DuplicateEntityId`] (the id is live),
/// [`ErrorKind::Template`] (a `Template` without `Kind`, which needs the templates
/// runtime) or the class loader's error. On error nothing stays allocated.
///
/// A plain entity file in the writer's canonical form (what [`save_entity`] writes: the
/// base keys in order, no `Template`, a free id, the class's properties one value line
/// each) is read straight from its text, without tokenizing it
/// ([`juliet_core::DirectCursor`]); every other file declines that path (nothing
/// changed) and is loaded the general way. Both give the same result
/// ([`LoadedEntity::direct`] says which ran).
pub fn load_entity(
    manager: &mut EntityManager,
    path: &Path,
    bytes: &[u8],
) -> Result<LoadedEntity, Error> {
    BUFFER.with(|buffer| match buffer.try_borrow_mut() {
        Ok(mut buffer) => load_entity_with(&mut buffer, manager, path, bytes),
        // Re-entered from a class loader: use a buffer of its own.
        Err(_) => load_entity_with(&mut TokenBuffer::new(), manager, path, bytes),
    })
}

/// [`load_entity`] with an explicit token buffer.
///
/// # Errors
/// As [`load_entity`].
pub fn load_entity_with(
    buffer: &mut TokenBuffer,
    manager: &mut EntityManager,
    path: &Path,
    bytes: &[u8],
) -> Result<LoadedEntity, Error> {
    load_impl(buffer, manager, None, path, bytes)
}

/// [`load_entity_with`] for a project with templates (docs/design.md, section 7.3): a file with
/// a `Template` key is an instance. Its template is found in (or loaded into) `templates`
/// ([`TemplateCache::get_or_load`]); the entity's derived struct is a clone of the
/// template's archetype written in its final slot, the position is the template's
/// unless the file gives one, and the file's properties are loaded over it as the
/// instance's delta. Every property key present in the file becomes an override (see
/// [`crate::Entity::overrides`]). `Kind` may be omitted; when given it must be the
/// template's.
///
/// # Errors
/// As [`load_entity`], and, located at the instance's `Template` (or `Kind`) key:
/// [`ErrorKind::Template`] for a template that cannot be loaded (unreadable file,
/// path outside the project, cycle, or an error inside the template file, which the
/// reason quotes with its own location) and [`ErrorKind::KindMismatch`] naming both
/// kinds. On error nothing stays allocated.
pub fn load_entity_with_templates(
    buffer: &mut TokenBuffer,
    manager: &mut EntityManager,
    templates: &mut TemplateCache,
    path: &Path,
    bytes: &[u8],
) -> Result<LoadedEntity, Error> {
    load_impl(buffer, manager, Some(templates), path, bytes)
}

fn load_impl(
    buffer: &mut TokenBuffer,
    manager: &mut EntityManager,
    templates: Option<&mut TemplateCache>,
    path: &Path,
    bytes: &[u8],
) -> Result<LoadedEntity, Error> {
    let registry = manager.registry().map_err(|e| e.with_path(path))?;
    match direct::try_load(buffer, manager, registry, bytes) {
        Some(loaded) => Ok(loaded),
        None => {
            let loaded = load_general(buffer, manager, registry, templates, path, bytes);
            // A file of very many keys does not leave its nodes in the buffer, which
            // outlives it (a world load keeps one per thread).
            buffer.release_large();
            loaded
        }
    }
}

/// [`load_impl`]'s general path: tokenizer, base keys, allocation, the class loader
/// over an [`Archive`], audit (the only path for every file the direct path declines).
#[inline(never)]
fn load_general(
    buffer: &mut TokenBuffer,
    manager: &mut EntityManager,
    registry: &'static Registry,
    templates: Option<&mut TemplateCache>,
    path: &Path,
    bytes: &[u8],
) -> Result<LoadedEntity, Error> {
    let doc = buffer.tokenize(bytes, path)?;
    let mut ar = Archive::loading(doc);
    let mut header = read_header(&mut ar, registry)?;
    ar.set_base_version(header.base_version);
    if let Some(warning) = header.newer_base.take() {
        ar.warn(warning);
    }
    let doc = ar.document().expect("loading");
    let instance_of = match (&header.template, templates) {
        (Some((text, node)), Some(cache)) => Some(template::resolve_for_instance(
            cache,
            doc,
            *node,
            text,
            header.class.zip(header.kind_node),
        )?),
        _ => None,
    };
    let class = match (instance_of, header.class) {
        (Some(t), _) => t.class(),
        (None, Some(class)) => class,
        (None, None) => {
            return Err(match &header.template {
                Some((t, _)) => Error::file(
                    path,
                    ErrorKind::Template {
                        path: t.clone(),
                        reason: "an instance without `Kind` takes its kind from the template, \
                                 which needs a template cache (load_entity_with_templates)"
                            .into(),
                    },
                ),
                None => missing_kind(ar.document().expect("loading"), path),
            });
        }
    };
    let id = match header.id {
        Some((id, node)) => {
            if manager.contains(id) {
                let doc = ar.document().expect("loading");
                let n = doc.node(node);
                let err = crate::manager::duplicate_id(id);
                return Err(
                    Error::new(path, n.line, n.column, err.kind.clone()).with_key(doc.key(node))
                );
            }
            id
        }
        None => {
            let id = manager.peek_free_id();
            ar.warn(Warning::new(
                path,
                0,
                0,
                Some(keys::ENTITY_ID.name),
                WarningKind::Other(format!(
                    "no EntityID: the entity gets {id} for this session (saved with it when changed)"
                )),
            ));
            id
        }
    };

    let base = match instance_of {
        Some(t) => template::allocate_instance(manager, t, id),
        None => manager.allocate_raw(class, id),
    } as usize;
    let mut rollback = Rollback {
        manager,
        id,
        armed: true,
    };
    if let Err(err) = rollback.manager.load_derived(base, &mut ar) {
        let (entity, storage) = rollback.manager.record_and_storage_mut(base);
        let slot = entity.slot();
        let doc = ar.document().expect("loading");
        return Err(problems::with_further_value_errors(err, storage, slot, doc));
    }
    let unknown = ar.audit_unconsumed_suggesting(&known_keys(class));
    let entity = rollback.manager.entity_at_mut(base);
    entity.position = header
        .position
        .or(instance_of.map(|t| t.position()))
        .unwrap_or(Vec3::ZERO);
    match instance_of {
        Some(t) => {
            let doc = ar.document().expect("loading");
            template::mark_file_overrides(
                rollback.manager,
                base,
                t,
                doc,
                header.position.is_some(),
            );
        }
        None => {
            let crc = header.template.as_ref().map(|(t, _)| {
                template::path::normalize(t).map_or_else(
                    |_| template::template_crc(t),
                    |n| template::template_crc(&n),
                )
            });
            rollback.manager.entity_at_mut(base).set_template(crc);
        }
    }
    let entity = rollback.manager.entity_at_mut(base);
    entity.dirty = false;
    rollback.manager.note_id(id);
    rollback.armed = false;
    Ok(LoadedEntity {
        id,
        data: EntityFileData {
            template: header.template.map(|(t, _)| t),
            unknown,
        },
        warnings: ar.take_warnings(),
        direct: false,
    })
}

/// Destroys the half-loaded entity unless disarmed (on an error or a panic).
struct Rollback<'m> {
    manager: &'m mut EntityManager,
    id: EntityId,
    armed: bool,
}

impl Drop for Rollback<'_> {
    fn drop(&mut self) {
        if self.armed {
            let _ = self.manager.destroy_entity(self.id);
        }
    }
}

/// The base tier of an entity (or template) file.
pub(crate) struct Header {
    /// The class named by `Kind`, if the file has one.
    pub(crate) class: Option<&'static Class>,
    /// The node `Kind` was read from.
    pub(crate) kind_node: Option<usize>,
    /// The id and the node it was read from.
    pub(crate) id: Option<(EntityId, usize)>,
    /// `Position`, if the file has one.
    pub(crate) position: Option<Vec3>,
    /// The `Template` path as written and its node.
    pub(crate) template: Option<(String, usize)>,
    /// The file's `BaseVersion` (the engine's when absent).
    pub(crate) base_version: u32,
    /// The warning for a `BaseVersion` newer than this build's.
    pub(crate) newer_base: Option<Warning>,
}

/// Reads (and consumes) the base keys. A missing `Kind` is left to the caller (an
/// instance takes its template's).
///
/// One pass over the nodes finds every spelling of the base keys ([`BaseNodes`]); the
/// keys are then checked in the order of the file format (`AssetType`, `BaseVersion`,
/// `EntityID`, `Kind`, `Template`, `Position`), so the first problem reported is the
/// same as when each key and alias was looked up on its own.
pub(crate) fn read_header(
    ar: &mut Archive<'_>,
    registry: &'static Registry,
) -> Result<Header, Error> {
    let doc = ar.document_mut().expect("loading archive");
    let path = doc.path();
    let nodes = BaseNodes::scan(doc);

    if let Some(i) = nodes.take(doc, BaseNodes::ASSET_TYPE)? {
        let text = text_value(doc, i)?;
        let expected = *text == *ENTITY_ASSET_TYPE // the canonical spelling, quickly
            || keys_equal(&text, ENTITY_ASSET_TYPE)
            || keys_equal(&text, "entity_instance");
        if !expected {
            return Err(located(
                doc,
                i,
                ErrorKind::WrongAssetType {
                    expected: ENTITY_ASSET_TYPE,
                    found: text.into_owned(),
                },
            ));
        }
    }

    let mut newer_base = None;
    let mut base_version = ENTITY_BASE_VERSION;
    if let Some(i) = nodes.take(doc, BaseNodes::BASE_VERSION)? {
        let version: u32 = doc.decode(i)?;
        if version > ENTITY_BASE_VERSION {
            let n = doc.node(i);
            newer_base = Some(Warning::new(
                path,
                n.line,
                n.column,
                Some(doc.key(i)),
                WarningKind::NewerBaseVersion {
                    file: version,
                    code: ENTITY_BASE_VERSION,
                },
            ));
        }
        base_version = version;
    }

    let mut id = None;
    if let Some(i) = nodes.take(doc, BaseNodes::ENTITY_ID)? {
        let raw: u64 = doc.decode(i)?;
        if raw == 0 {
            let text = doc.value(i).single().unwrap_or("0");
            return Err(doc.value_error(
                i,
                "a non-zero EntityID",
                ValueError::new(ValueErrorKind::Custom("0 means unassigned".into()), text),
            ));
        }
        id = Some((EntityId(raw), i));
    }

    let kind = nodes.take(doc, BaseNodes::KIND)?;

    let template = match nodes.take(doc, BaseNodes::TEMPLATE)? {
        Some(i) => Some((doc.decode::<String>(i)?, i)),
        None => None,
    };

    let class = match kind {
        Some(i) => {
            let name = text_value(doc, i)?;
            match find_class(registry, &name) {
                Some(Ok(class)) => Some(class),
                Some(Err(reserved)) => return Err(located(doc, i, reserved)),
                None => {
                    let names = registry.classes().iter().flat_map(|c| {
                        std::iter::once(c.name).chain(c.aliases.iter().map(|a| a.name))
                    });
                    let suggestion = juliet_core::did_you_mean(&name, names);
                    return Err(located(doc, i, ErrorKind::UnknownKind(name.into_owned()))
                        .with_suggestion(suggestion));
                }
            }
        }
        None => None,
    };

    let position = match nodes.take(doc, BaseNodes::POSITION)? {
        Some(i) => Some(doc.decode::<Vec3>(i)?),
        None => None,
    };
    Ok(Header {
        class,
        kind_node: kind,
        id,
        position,
        template,
        base_version,
        newer_base,
    })
}

/// Where the spellings of the base keys are in a document: for each spelling (a key or
/// one of its aliases, in [`keys`] order), the first node with its key CRC, as
/// [`Document::find`] finds it, or [`BaseNodes::ABSENT`].
struct BaseNodes {
    at: [u32; 10],
}

impl BaseNodes {
    /// No node has this spelling.
    const ABSENT: u32 = u32::MAX;
    /// The spellings of `AssetType`: indices into `at`.
    const ASSET_TYPE: std::ops::Range<usize> = 0..1;
    /// `BaseVersion`, `version`.
    const BASE_VERSION: std::ops::Range<usize> = 1..3;
    /// `EntityID`, `id`.
    const ENTITY_ID: std::ops::Range<usize> = 3..5;
    /// `Kind`, `class`, `entity_type`.
    const KIND: std::ops::Range<usize> = 5..8;
    /// `Template`.
    const TEMPLATE: std::ops::Range<usize> = 8..9;
    /// `Position`.
    const POSITION: std::ops::Range<usize> = 9..10;

    /// One pass over `doc`'s nodes, dispatching on the key CRC.
    fn scan(doc: &Document<'_>) -> BaseNodes {
        const ASSET_TYPE: u32 = keys::ASSET_TYPE.crc;
        const BASE_VERSION: u32 = keys::BASE_VERSION.crc;
        const VERSION: u32 = keys::BASE_VERSION_ALIASES[0].crc;
        const ENTITY_ID: u32 = keys::ENTITY_ID.crc;
        const ID: u32 = keys::ENTITY_ID_ALIASES[0].crc;
        const KIND: u32 = keys::KIND.crc;
        const CLASS: u32 = keys::KIND_ALIASES[0].crc;
        const ENTITY_TYPE: u32 = keys::KIND_ALIASES[1].crc;
        const TEMPLATE: u32 = keys::TEMPLATE.crc;
        const POSITION: u32 = keys::POSITION.crc;
        // The spellings above are every one of `keys` (a new alias needs a slot here).
        const _: () = assert!(
            keys::BASE_VERSION_ALIASES.len() == 1
                && keys::ENTITY_ID_ALIASES.len() == 1
                && keys::KIND_ALIASES.len() == 2
        );
        let mut at = [BaseNodes::ABSENT; 10];
        for (i, n) in doc.nodes().iter().enumerate() {
            let spelling = match n.key_crc {
                ASSET_TYPE => 0,
                BASE_VERSION => 1,
                VERSION => 2,
                ENTITY_ID => 3,
                ID => 4,
                KIND => 5,
                CLASS => 6,
                ENTITY_TYPE => 7,
                TEMPLATE => 8,
                POSITION => 9,
                _ => continue,
            };
            // The CRC picked the spelling; the text confirms it (a CRC-32 twin of a
            // base key is an unknown key).
            const SPELLINGS: [&str; 10] = [
                keys::ASSET_TYPE.name,
                keys::BASE_VERSION.name,
                keys::BASE_VERSION_ALIASES[0].name,
                keys::ENTITY_ID.name,
                keys::ENTITY_ID_ALIASES[0].name,
                keys::KIND.name,
                keys::KIND_ALIASES[0].name,
                keys::KIND_ALIASES[1].name,
                keys::TEMPLATE.name,
                keys::POSITION.name,
            ];
            if !doc.key_is(i, SPELLINGS[spelling]) {
                continue;
            }
            if at[spelling] == BaseNodes::ABSENT {
                at[spelling] = i as u32;
            }
        }
        BaseNodes { at }
    }

    /// The node of the key whose spellings are `spellings`, consumed; two spellings in
    /// one file are a [`ErrorKind::DuplicateKey`] error at the later one (the pair met
    /// first in spelling order, as looking each spelling up in turn finds it).
    fn take(
        &self,
        doc: &mut Document<'_>,
        spellings: std::ops::Range<usize>,
    ) -> Result<Option<usize>, Error> {
        let mut found: Option<usize> = None;
        for &at in &self.at[spellings] {
            if at == BaseNodes::ABSENT {
                continue;
            }
            let i = at as usize;
            doc.consume(i);
            if let Some(first) = found {
                let (early, late) = if first < i { (first, i) } else { (i, first) };
                let first_line = doc.node(early).line;
                return Err(located(doc, late, ErrorKind::DuplicateKey { first_line }));
            }
            found = Some(i);
        }
        Ok(found)
    }
}

thread_local! {
    /// The class [`find_class`] found last, and the registry it came from.
    static LAST_KIND: Cell<Option<(&'static Registry, &'static Class)>> =
        const { Cell::new(None) };
}

/// `Kind` is missing and so is `Template`: at the line of a key that looks like a
/// misspelling of either (`; templat: ...`), naming it; else about the whole file.
fn missing_kind(doc: &Document<'_>, path: &Path) -> Error {
    let wanted = [keys::TEMPLATE.name, keys::KIND.name];
    (0..doc.len())
        .find_map(|i| {
            let suggestion = juliet_core::did_you_mean(doc.key(i), wanted)?;
            Some(
                located(doc, i, ErrorKind::MissingKey(keys::KIND.name))
                    .with_suggestion(Some(suggestion)),
            )
        })
        .unwrap_or_else(|| Error::file(path, ErrorKind::MissingKey(keys::KIND.name)))
}

/// The keys an entity file of `class` may hold (base keys, then the class's): what an
/// unknown key is compared with for a "did you mean".
pub(crate) fn known_keys(class: &Class) -> Vec<&'static str> {
    keys::BASE
        .iter()
        .map(|k| k.name)
        .chain(class.known_keys())
        .collect()
}

/// `registry.find_by_name(name)`, checked with [`reserved::check_class`] (`Err` with
/// [`ErrorKind::ReservedKey`] for a class that cannot be an entity kind), remembering
/// the last class found that passed: the files of a world are mostly of a few kinds,
/// and a name spelled exactly as the class's skips the hash lookup and the check.
/// Registries behind a `&'static` are never changed, so the answer stays right.
fn find_class(
    registry: &'static Registry,
    name: &str,
) -> Option<Result<&'static Class, ErrorKind>> {
    if let Some((r, class)) = LAST_KIND.get() {
        if std::ptr::eq(r, registry) && class.name == name {
            return Some(Ok(class));
        }
    }
    let class = registry.find_by_name(name)?;
    Some(reserved::check_class(class).map(|()| {
        LAST_KIND.set(Some((registry, class)));
        class
    }))
}

/// An error about node `i` of `doc`, at its key.
pub(crate) fn located(doc: &Document<'_>, i: usize, kind: ErrorKind) -> Error {
    let n = doc.node(i);
    Error::new(doc.path(), n.line, n.column, kind).with_key(doc.key(i))
}

/// The one-line text value of node `i`: borrowed when bare, decoded when quoted.
fn text_value<'a>(doc: &Document<'a>, i: usize) -> Result<Cow<'a, str>, Error> {
    let value = doc.value(i);
    let line = value
        .single()
        .map_err(|e| doc.value_error(i, "a name", e))?;
    if line.starts_with('"') {
        String::decode(value)
            .map(Cow::Owned)
            .map_err(|e| doc.value_error(i, "a name", e))
    } else {
        Ok(Cow::Borrowed(line))
    }
}

/// Writes entity `id` of `manager` in canonical form (docs/design.md, section 2.4): the base
/// keys in order, `Template` when `data` has one, then `ClassVersion` and the derived
/// properties (written by the class), then `data`'s unknown keys in their original
/// order. Saving what [`load_entity`] just read from a canonical file gives the same
/// bytes.
///
/// # Errors
/// [`ErrorKind::NoSuchEntity`] when `id` is not live; [`ErrorKind::ReservedKey`] when
/// its class has a property keyed like a base key (nothing is written then).
pub fn save_entity(
    manager: &EntityManager,
    id: EntityId,
    data: &EntityFileData,
    out: &mut String,
) -> Result<(), Error> {
    let entity = manager
        .entity(id)
        .ok_or_else(|| Error::file("", ErrorKind::NoSuchEntity(id.0)))?;
    write_base_keys(
        out,
        Some(id),
        entity.class(),
        data.template.as_deref(),
        Some(entity.position()),
    )?;
    manager.save_derived(id, &mut Archive::saving(out))?;
    data.unknown.write(out);
    Ok(())
}

/// Writes the base keys in canonical order (docs/design.md, section 2.4): `AssetType`,
/// `BaseVersion`, then `EntityID`, `Template` and `Position` when given (a template has
/// no id; a sparse instance may leave its position to its template), with `Kind`
/// between the id and the template.
///
/// # Errors
/// [`ErrorKind::ReservedKey`] (no path) when `class` has a property keyed like a base
/// key ([`reserved::check_class`]); `out` is left as it was.
pub(crate) fn write_base_keys(
    out: &mut String,
    id: Option<EntityId>,
    class: &'static Class,
    template: Option<&str>,
    position: Option<Vec3>,
) -> Result<(), Error> {
    reserved::check_class(class).map_err(|kind| Error::file("", kind))?;
    write_header(out, keys::ASSET_TYPE.name);
    out.push_str(ENTITY_ASSET_TYPE);
    out.push('\n');
    write_property(out, keys::BASE_VERSION.name, &ENTITY_BASE_VERSION);
    if let Some(id) = id {
        write_property(out, keys::ENTITY_ID.name, &id);
    }
    write_header(out, keys::KIND.name);
    out.push_str(class.name);
    out.push('\n');
    if let Some(template) = template {
        write_property(out, keys::TEMPLATE.name, &template.to_owned());
    }
    if let Some(position) = position {
        write_property(out, keys::POSITION.name, &position);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::{Collectible, Inert};
    use juliet_core::Reflect;

    #[test]
    fn find_class_remembers_per_registry_and_spelling() {
        let both: &'static Registry = Box::leak(Box::new(
            Registry::new([Inert::CLASS, Collectible::CLASS]).unwrap(),
        ));
        let only_collectible: &'static Registry =
            Box::leak(Box::new(Registry::new([Collectible::CLASS]).unwrap()));
        let is = |found: Option<Result<&'static Class, ErrorKind>>, class: &'static Class| {
            found.is_some_and(|c| c.is_ok_and(|c| std::ptr::eq(c, class)))
        };
        assert!(is(find_class(both, "Inert"), Inert::CLASS));
        // The remembered class is not answered for another registry...
        assert!(find_class(only_collectible, "Inert").is_none());
        assert!(is(find_class(both, "Inert"), Inert::CLASS));
        // ...nor for another name, and other spellings still resolve.
        assert!(is(find_class(both, "Collectible"), Collectible::CLASS));
        assert!(is(find_class(both, "inert"), Inert::CLASS));
        assert!(is(find_class(both, "INERT"), Inert::CLASS));
        assert!(find_class(both, "Inertia").is_none());
        assert!(is(
            find_class(only_collectible, "collectible"),
            Collectible::CLASS
        ));
    }
}
