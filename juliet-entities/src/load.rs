//! Entity files: in-place loading ([`load_entity`]) and the canonical writer
//! ([`save_entity`]).
//!
//! docs/design.md, section 5.5 (read the kind, allocate, stream the base and derived tiers
//! straight into the final slot, advance the id counter, clear the dirty flag) with the
//! entity file of section 2.4, whose base tier is read and written by
//! `crate::entity_file` (re-exported here: [`keys`], [`ENTITY_BASE_VERSION`],
//! [`ENTITY_ASSET_TYPE`], [`EntityFileData`]).

use std::cell::RefCell;
use std::path::Path;

use glam::Vec3;
use juliet_core::{Archive, Error, ErrorKind, Registry, TokenBuffer, Warning, WarningKind};

use crate::entity::EntityId;
use crate::manager::EntityManager;
use crate::template::{self, TemplateCache};

pub use crate::entity_file::{keys, EntityFileData, ENTITY_ASSET_TYPE, ENTITY_BASE_VERSION};
use crate::entity_file::{known_keys, missing_kind, read_header, write_base_keys};

mod direct;
#[cfg(test)]
mod direct_tests;
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
