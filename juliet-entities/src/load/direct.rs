//! The direct path of entity loading: an entity file exactly as [`super::save_entity`]
//! (and so `World::save_world`) writes a plain entity, read straight from its text with
//! a [`DirectCursor`], without tokenizing it (see [`juliet_core::direct`]).
//!
//! It reads the base keys in canonical order (`AssetType` spelled `Entity`,
//! `BaseVersion` equal to [`ENTITY_BASE_VERSION`], a non-zero `EntityID` not live in the
//! manager, a bare `Kind` naming a registered entity class, no `Template`, an optional
//! `Position`), allocates the entity, and runs the class's
//! [`juliet_core::Reflect::load_direct`] in its final slot; the whole file must then have
//! been read. Any other file declines before the allocation, or after it, when the
//! allocation is taken back exactly (the entity destroyed, a kind storage it created
//! removed): the caller then runs the general path from scratch. So a file read here
//! gives what the general path gives: such a file has no warning, no unknown key and no
//! error there. docs/design.md, sections 5.5 (the in-place load) and 4.3.

use glam::Vec3;
use juliet_core::{DirectCursor, Registry, TokenBuffer};

use super::{LoadedEntity, Rollback};
use crate::entity::EntityId;
use crate::entity_file::{
    find_class, keys, EntityFileData, ENTITY_ASSET_TYPE, ENTITY_BASE_VERSION,
};
use crate::manager::EntityManager;

#[cfg(test)]
thread_local! {
    /// Files declined after the allocation (taken back), on this thread.
    pub(super) static LATE_DECLINES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Loads `bytes` through the direct path into `manager`, or returns `None` with the
/// manager as it was (see the [module docs](self)). `registry` resolves `Kind`.
#[inline]
pub(super) fn try_load(
    buffer: &mut TokenBuffer,
    manager: &mut EntityManager,
    registry: &'static Registry,
    bytes: &[u8],
) -> Option<LoadedEntity> {
    let mut cursor = buffer.direct(bytes)?;
    let (class, id, position) = read_base(&mut cursor, manager, registry)?;
    let kinds = manager.kinds().len();
    let base = manager.allocate_raw(class, id) as usize;
    // Destroys the entity on a panic, or when the class part declines.
    let mut rollback = Rollback {
        manager: &mut *manager,
        id,
        armed: true,
    };
    if !(rollback.manager.load_derived_direct(base, &mut cursor) && cursor.is_done()) {
        // The general path reads this file: take the allocation back exactly.
        drop(rollback);
        manager.forget_kinds_from(kinds);
        #[cfg(test)]
        LATE_DECLINES.set(LATE_DECLINES.get() + 1);
        return None;
    }
    let entity = rollback.manager.entity_at_mut(base);
    entity.position = position;
    entity.set_template(None);
    entity.dirty = false;
    rollback.manager.note_id(id);
    rollback.armed = false;
    Some(LoadedEntity {
        id,
        data: EntityFileData::default(),
        warnings: Vec::new(),
        direct: true,
    })
}

/// The base keys in canonical form: the class, the id (free) and the position (zero
/// when absent, as the general path gives a plain entity without one), or `None`.
#[inline(always)]
fn read_base(
    cursor: &mut DirectCursor<'_>,
    manager: &EntityManager,
    registry: &'static Registry,
) -> Option<(&'static juliet_core::Class, EntityId, Vec3)> {
    if cursor.locate(keys::ASSET_TYPE)??.text() != ENTITY_ASSET_TYPE {
        return None;
    }
    let mut version = 0u32;
    if !cursor.property(keys::BASE_VERSION, &mut version)? || version != ENTITY_BASE_VERSION {
        return None;
    }
    let mut raw = 0u64;
    if !cursor.property(keys::ENTITY_ID, &mut raw)? || raw == 0 {
        return None;
    }
    let id = EntityId(raw);
    if manager.contains(id) {
        return None;
    }
    let name = cursor.locate(keys::KIND)??.text();
    if name.starts_with('"') {
        return None;
    }
    let class = find_class(registry, name)?.ok()?;
    if cursor.locate(keys::TEMPLATE)?.is_some() {
        return None;
    }
    let mut position = Vec3::ZERO;
    cursor.property(keys::POSITION, &mut position)?;
    Some((class, id, position))
}
