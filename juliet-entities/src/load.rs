//! Entity files: in-place loading ([`load_entity`]) and the canonical writer
//! ([`save_entity`]).
//!
//! docs/design.md, section 5.5 (read the kind, allocate, stream the base and derived tiers
//! straight into the final slot, advance the id counter, clear the dirty flag) with the
//! entity file of section 2.4, whose base tier is read and written by
//! `crate::entity_file` (re-exported here: [`keys`], [`ENTITY_BASE_VERSION`],
//! [`ENTITY_ASSET_TYPE`], [`EntityFileData`], and for programs that read or write entity
//! files as text: [`base_key`], [`write_base_lines`], [`without_entity_id`], and
//! [`pieces`], which cuts a large file into pieces that tokenize as the whole does).

use std::cell::RefCell;
use std::path::Path;

use glam::Vec3;
use juliet_core::{
    Archive, Class, Document, Error, ErrorKind, Registry, TokenBuffer, UnknownProperties, Warning,
    WarningKind,
};

use crate::entity::EntityId;
use crate::manager::{EntityManager, Undo};
use crate::template::{self, TemplateCache, TemplateRef};

pub use crate::entity_file::{
    base_key, keys, without_entity_id, write_base_lines, EntityFileData, ENTITY_ASSET_TYPE,
    ENTITY_BASE_VERSION,
};
use crate::entity_file::{
    base_key_left, known_keys, missing_kind, read_header, write_base_keys, Header,
};
pub use crate::pieces::{pieces, PIECE_LINES};

#[cfg(test)]
mod canonical_tests;
mod problems;

/// The result of [`load_entity`].
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedEntity {
    /// The entity's id (the file's `EntityID`, or a fresh one when the file has none).
    pub id: EntityId,
    /// Template path and unknown keys, for [`save_entity`].
    pub data: EntityFileData,
    /// Unknown keys, newer versions, a missing `EntityID`: the load went on.
    pub warnings: Vec<Warning>,
    /// Whether the file was read whole in the writer's canonical form, straight from
    /// its text (see [`load_entity`]); `false`: the tokenizer made its nodes. Either way
    /// the entity and the other fields are the same.
    pub direct: bool,
}

thread_local! {
    /// One token buffer per thread: steady-state loading reuses its memory.
    static BUFFER: RefCell<TokenBuffer> = RefCell::new(TokenBuffer::new());
}

/// Loads the entity file `bytes` (read from `path`, which labels errors) into `manager`,
/// in place (docs/design.md, section 5.5): read the base keys, resolve `Kind` through
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
/// The file is read through one [`juliet_core::Document`]: a file in the writer's
/// canonical form (what [`save_entity`] writes: the base keys in order, the class's
/// properties one value line each), or close to it (comments, blank lines,
/// `; Key: value` lines, the properties in another order), is read straight from its
/// text, and any other from
/// the first line that is not canonical through the tokenizer, with the same result
/// ([`LoadedEntity::direct`] says which). An error met before the tokenizer has read the
/// whole file, or a base key after the properties, makes the loader read the file again
/// from its tokenized document, so errors come in the order the tokenizer gives them.
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
    mut templates: Option<&mut TemplateCache>,
    path: &Path,
    bytes: &[u8],
) -> Result<LoadedEntity, Error> {
    let registry = manager.registry().map_err(|e| e.with_path(path))?;
    let kinds = manager.kinds().len();
    let (read, again) = {
        let mut ar = Archive::loading(buffer.document(bytes, path)?);
        let tokenized_first = ar.document().expect("loading").tokenized();
        let read = read_entity(&mut ar, manager, registry, templates.as_deref_mut(), path);
        let doc = ar.document().expect("loading");
        // Read canonically to the end: no tokenizer error can come before this result.
        let canonical = doc.is_read_to_end() && !doc.tokenized();
        // Read again, from the tokenizer's nodes, when the tokenizer's errors must come
        // first (an error it finds before the allocation leaves no kind storage) or a
        // base key followed the properties.
        let again = match &read {
            Ok(Some(_)) => false,
            Err(_) => !(tokenized_first || canonical),
            Ok(None) => true,
        };
        (read, again)
    };
    if again {
        return read_again(buffer, manager, registry, templates, path, bytes, kinds);
    }
    // A file of very many keys does not leave its nodes in the buffer, which outlives
    // it (a world load keeps one per thread).
    buffer.release_large();
    read.map(|loaded| loaded.expect("a first reading that is not read again"))
}

#[cfg(test)]
thread_local! {
    /// Files read a second time ([`read_again`]), on this thread.
    pub(super) static READ_AGAIN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// [`load_impl`] once more, out of line, with the allocation of the first reading taken
/// back exactly (the kind storages it created removed): from the tokenized document.
#[cold]
#[inline(never)]
pub(super) fn read_again(
    buffer: &mut TokenBuffer,
    manager: &mut EntityManager,
    registry: &'static Registry,
    templates: Option<&mut TemplateCache>,
    path: &Path,
    bytes: &[u8],
    kinds: usize,
) -> Result<LoadedEntity, Error> {
    manager.forget_kinds_from(kinds);
    #[cfg(test)]
    READ_AGAIN.set(READ_AGAIN.get() + 1);
    let mut ar = Archive::loading(buffer.tokenize(bytes, path)?);
    let read = read_entity(&mut ar, manager, registry, templates, path);
    drop(ar);
    // A file of very many keys does not leave its nodes in the buffer, which outlives
    // it (a world load keeps one per thread).
    buffer.release_large();
    read.map(|loaded| loaded.expect("a tokenized document is read once"))
}

/// Reads the entity of `ar`'s document into `manager`: base keys, allocation, the class
/// loader, audit. `Ok(None)` (nothing allocated) when the base keys were read in order
/// from a document still being filled and the tokenizer then showed another base key:
/// the file must be read again from its complete document.
fn read_entity(
    ar: &mut Archive<'_>,
    manager: &mut EntityManager,
    registry: &'static Registry,
    templates: Option<&mut TemplateCache>,
    path: &Path,
) -> Result<Option<LoadedEntity>, Error> {
    let mut header = read_header(ar, registry)?;
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
    let class = entity_class(ar, &header, instance_of, path)?;
    let id = entity_id(ar, manager, &header, path)?;

    let base = match instance_of {
        Some(t) => template::allocate_instance(manager, t, id),
        None => manager.allocate_raw(class, id),
    } as usize;
    // Destroys the half-loaded entity on an error or a panic.
    let mut rollback = Undo::new(manager, move |m| {
        let _ = m.destroy_entity(id);
    });
    if instance_of.is_some() {
        // The instance's overrides are the keys of the file: its nodes, after the walk.
        ar.document_mut().expect("loading").keep_nodes();
    }
    load_class_properties(rollback.manager, base, ar)?;
    let doc = ar.document_mut().expect("loading");
    doc.read_to_end()?;
    if header.in_order && doc.tokenized() && base_key_left(doc) {
        return Ok(None);
    }
    let unknown = if doc.tokenized() {
        ar.audit_unconsumed_suggesting(&known_keys(class))
    } else {
        UnknownProperties::new()
    };
    let doc = ar.document().expect("loading");
    set_position_and_template(rollback.manager, base, &header, instance_of, doc);
    let entity = rollback.manager.entity_at_mut(base);
    entity.dirty = false;
    rollback.manager.note_id(id);
    rollback.disarm();
    let direct = !ar.document().expect("loading").tokenized();
    Ok(Some(LoadedEntity {
        id,
        data: EntityFileData {
            template: header.template.map(|(t, _)| t),
            unknown,
        },
        warnings: ar.take_warnings(),
        direct,
    }))
}

/// The entity's class: its template's for an instance, else the one `Kind` names.
///
/// # Errors
/// A file with neither: [`ErrorKind::Template`] when it has a `Template` but was read
/// without a template cache, else `Kind` missing.
fn entity_class(
    ar: &Archive<'_>,
    header: &Header,
    instance_of: Option<TemplateRef<'_>>,
    path: &Path,
) -> Result<&'static Class, Error> {
    match (instance_of, header.class) {
        (Some(t), _) => Ok(t.class()),
        (None, Some(class)) => Ok(class),
        (None, None) => Err(match &header.template {
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
        }),
    }
}

/// The entity's id: the file's `EntityID`, which must not be live in `manager`, or
/// without one the manager's next free id, with a warning.
///
/// # Errors
/// [`ErrorKind::DuplicateEntityId`] at the `EntityID` key.
fn entity_id(
    ar: &mut Archive<'_>,
    manager: &EntityManager,
    header: &Header,
    path: &Path,
) -> Result<EntityId, Error> {
    match header.id {
        Some((id, node)) => {
            if manager.contains(id) {
                let doc = ar.document().expect("loading");
                let n = doc.node(node);
                let err = crate::manager::duplicate_id(id);
                return Err(
                    Error::new(path, n.line, n.column, err.kind.clone()).with_key(doc.key(node))
                );
            }
            Ok(id)
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
            Ok(id)
        }
    }
}

/// The class loader run on the entity at `base` over `ar`'s document.
///
/// # Errors
/// The loader's error; when the file was read to its end, with the value errors of
/// the properties after it.
fn load_class_properties(
    manager: &mut EntityManager,
    base: usize,
    ar: &mut Archive<'_>,
) -> Result<(), Error> {
    let Err(err) = manager.load_derived(base, ar) else {
        return Ok(());
    };
    if !ar.document().expect("loading").is_read_to_end() {
        // The file is read again from its tokenized document, which finds them.
        return Err(err);
    }
    let (entity, storage) = manager.record_and_storage_mut(base);
    let slot = entity.slot();
    let doc = ar.document().expect("loading");
    Err(problems::with_further_value_errors(err, storage, slot, doc))
}

/// The loaded entity's position (the file's, else its template's, else the origin)
/// and template: an instance's overrides are the properties its file sets (and the
/// position when the file gives one); any other entity keeps the CRC of the
/// `Template` path it names, if any.
fn set_position_and_template(
    manager: &mut EntityManager,
    base: usize,
    header: &Header,
    instance_of: Option<TemplateRef<'_>>,
    doc: &Document<'_>,
) {
    let entity = manager.entity_at_mut(base);
    entity.position = header
        .position
        .or(instance_of.map(|t| t.position()))
        .unwrap_or(Vec3::ZERO);
    match instance_of {
        Some(t) => {
            template::mark_file_overrides(manager, base, t, doc, header.position.is_some());
        }
        None => {
            let crc = header.template.as_ref().map(|(t, _)| {
                template::path::normalize(t).map_or_else(
                    |_| template::template_crc(t),
                    |n| template::template_crc(&n),
                )
            });
            manager.entity_at_mut(base).set_template(crc);
        }
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
