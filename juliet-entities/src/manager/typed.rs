//! Typed access to the derived structs: an entity's as a `T` (by id, by base index, or
//! from its base record), and every `T` as one contiguous slice or an iterator with
//! the base records.

use juliet_core::{ClassKey, Reflect};

use super::EntityManager;
use crate::entity::{Entity, EntityId};
use crate::storage::KindStorage;

impl EntityManager {
    /// The derived struct of `id` as a `T` (`None` when `id` is not live or not a `T`).
    pub fn get<T: Reflect>(&self, id: EntityId) -> Option<&T> {
        self.downcast(self.entity(id)?)
    }

    /// The derived struct of `id` as a `&mut T`, and marks the entity dirty (the caller
    /// is about to change it; docs/design.md, section 6.2).
    pub fn get_mut<T: Reflect>(&mut self, id: EntityId) -> Option<&mut T> {
        let base = self.index_of(id)?;
        let e = &mut self.entities[base];
        let storage = &mut self.kinds[e.kind as usize];
        let value = storage.get_mut::<T>(e.slot as usize)?;
        e.dirty = true;
        Some(value)
    }

    /// The base record and the derived struct of `id` (`None` when not live or not a
    /// `T`).
    pub fn get_with_entity<T: Reflect>(&self, id: EntityId) -> Option<(&Entity, &T)> {
        let e = self.entity(id)?;
        Some((e, self.downcast(e)?))
    }

    /// The base record at base index `base` (a position in [`EntityManager::entities`],
    /// as [`EntityManager::index_of`] and [`EntityManager::bases_of`] give it) and its
    /// derived struct as a `T`, both mutable, and marks the entity dirty like
    /// [`EntityManager::get_mut`]. For code that keeps an entity's base index between
    /// accesses and checks it ([`Entity::id`] of `entities()[base]`) instead of looking
    /// the id up each time, as `juliet_constructs::ConstructView` does. `None` when
    /// `base` is out of bounds or the entity is not a `T`.
    pub fn get_with_entity_at_mut<T: Reflect>(
        &mut self,
        base: usize,
    ) -> Option<(&mut Entity, &mut T)> {
        let e = self.entities.get_mut(base)?;
        let value = self.kinds[e.kind as usize].get_mut::<T>(e.slot as usize)?;
        e.dirty = true;
        Some((e, value))
    }

    /// Downcasts a base record to its derived struct: `None`
    /// when it is not a `T` or not a record of this manager.
    pub fn downcast<T: Reflect>(&self, entity: &Entity) -> Option<&T> {
        let storage = self.kinds.get(entity.kind as usize)?;
        let value = storage.get::<T>(entity.slot as usize)?;
        // A record of another manager could alias a slot of this one: check the link.
        let base = storage.base_of(entity.slot as usize) as usize;
        (self.entities.get(base)?.id == entity.id).then_some(value)
    }

    /// The base record of the `T` in `slot` of `T`'s array (the slot's back-link).
    pub fn base_of<T: Reflect>(&self, slot: usize) -> Option<&Entity> {
        let storage = self.storage::<T>()?;
        let base = *storage.bases().get(slot)?;
        Some(&self.entities[base as usize])
    }

    fn storage<T: Reflect>(&self) -> Option<&KindStorage> {
        let k = *self.kind_by_type.get(&ClassKey::of::<T>())?;
        Some(&self.kinds[k as usize])
    }

    /// Every `T`, contiguous (its kind's storage); empty when none exists. Slot `i`
    /// belongs to base record `bases_of::<T>()[i]`.
    pub fn slice<T: Reflect>(&self) -> &[T] {
        self.storage::<T>()
            .and_then(KindStorage::as_slice::<T>)
            .unwrap_or(&[])
    }

    /// Every `T`, contiguous and mutable, for systems. Does not mark entities dirty:
    /// call [`Entity::mark_dirty`] for changes that must be saved.
    pub fn slice_mut<T: Reflect>(&mut self) -> &mut [T] {
        match self.kind_by_type.get(&ClassKey::of::<T>()) {
            Some(&k) => self.kinds[k as usize]
                .as_mut_slice::<T>()
                .unwrap_or(&mut []),
            None => &mut [],
        }
    }

    /// The base index of each `T` slot (parallel to [`EntityManager::slice`]).
    pub fn bases_of<T: Reflect>(&self) -> &[u32] {
        self.storage::<T>().map_or(&[], KindStorage::bases)
    }

    /// Every `T` with its base record, in slot order.
    pub fn iter<T: Reflect>(&self) -> impl Iterator<Item = (&Entity, &T)> + '_ {
        let bases = self.bases_of::<T>();
        self.slice::<T>()
            .iter()
            .zip(bases)
            .map(|(value, &b)| (&self.entities[b as usize], value))
    }

    /// Every `T`, mutably, with its base record (read-only), in slot order. Does not
    /// mark entities dirty.
    pub fn iter_mut<T: Reflect>(&mut self) -> impl Iterator<Item = (&Entity, &mut T)> + '_ {
        let entities = &self.entities;
        let (values, bases): (&mut [T], &[u32]) = match self.kind_by_type.get(&ClassKey::of::<T>())
        {
            Some(&k) => self.kinds[k as usize]
                .as_mut_slice_with_bases::<T>()
                .unwrap_or((&mut [], &[])),
            None => (&mut [], &[]),
        };
        values
            .iter_mut()
            .zip(bases)
            .map(move |(value, &b)| (&entities[b as usize], value))
    }
}
