//! [`EntityManager`]: base records in one contiguous array, each kind's derived structs
//! in one contiguous array of their own type, linked both ways by index.
//!
//! docs/design.md, sections 5.1 (storage and links), 5.3 (allocation, default init,
//! wiring) and 5.2 (swap-and-pop destroy with link fix-up): every
//! entity of every kind is kept, links are indices that are fixed on every move, and
//! destroy finds its entity through an id map in O(1).

mod batch;
mod id_map;
mod invariants;
mod prefix;
mod reflect;
mod rollback;
mod typed;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::num::NonZeroU32;

use glam::Vec3;
use juliet_core::{Archive, Class, ClassKey, Error, ErrorKind, Reflect, Registry};

use crate::entity::OverrideSet;
use crate::entity::{Entity, EntityId};
use crate::storage::KindStorage;
use id_map::IdMap;
pub use invariants::InvariantViolation;
pub use prefix::draw_id_prefix;
pub(crate) use reflect::{no_such_property, set_at, set_by_key};
pub(crate) use rollback::Undo;

/// How [`EntityManager::push_record`] initializes a new derived struct.
pub(crate) enum SlotInit<'a> {
    /// The class's declared defaults (docs/design.md, section 5.3).
    Default,
    /// A clone of the value in a slot of another storage of the kind (a template's
    /// archetype, docs/design.md, section 7.3 step 2).
    Clone(&'a KindStorage, usize),
}

/// The fields of a new base record other than its id and links, as
/// [`EntityManager::spawn_with`] writes them.
#[derive(Debug, Default, Clone)]
pub(crate) struct NewRecord {
    /// World-space position.
    pub(crate) position: Vec3,
    /// The template reference (CRC-32 of the template's normalized path).
    pub(crate) template: Option<NonZeroU32>,
    /// The properties the entity overrides (empty for standalone entities).
    pub(crate) overrides: OverrideSet,
    /// Whether the position is the instance's own.
    pub(crate) position_overridden: bool,
}

impl NewRecord {
    /// The base record of a new entity (dirty) with these fields.
    #[inline(always)]
    pub(crate) fn into_entity(
        self,
        id: EntityId,
        class: &'static Class,
        slot: u32,
        kind: u16,
    ) -> Entity {
        Entity {
            id,
            class,
            position: self.position,
            slot,
            template: self.template,
            overrides: self.overrides,
            kind,
            dirty: true,
            write_requested: false,
            position_overridden: self.position_overridden,
        }
    }
}

/// How [`EntityManager::spawn_with`] makes a new derived struct.
pub(crate) enum TypedInit<'a, F> {
    /// The value the closure returns.
    Make(F),
    /// A clone of the value in a slot of another storage of the kind, through the
    /// class's clone ([`KindStorage::push_clone_with`]).
    Clone(&'a KindStorage, usize),
}

/// A multiplicative hasher for [`EntityId`] keys (one `u64` each): cheaper than SipHash
/// and well spread for sequential ids (multiplication by an odd constant permutes the
/// low bits, which pick the bucket).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct IdHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(SEED);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(SEED);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The entity manager: allocation, lookup, typed storage and destruction of entities.
///
/// ```
/// use glam::Vec3;
/// use juliet_entities::prelude::*;
/// use juliet_entities::kinds::Inert;
///
/// let mut manager = EntityManager::new();
/// let rock = manager.make_entity::<Inert>(Vec3::new(1.0, 2.0, 3.0));
/// manager.get_mut::<Inert>(rock).unwrap().health = 50.0;
/// assert_eq!(manager.slice::<Inert>().len(), 1);
/// assert_eq!(manager.entity(rock).unwrap().position(), Vec3::new(1.0, 2.0, 3.0));
/// manager.destroy_entity(rock)?;
/// assert!(manager.is_empty());
/// manager.check_invariants().unwrap();
/// # Ok::<(), juliet_entities::juliet_core::Error>(())
/// ```
#[derive(Debug)]
pub struct EntityManager {
    /// Base records.
    entities: Vec<Entity>,
    /// One storage per kind, in order of first allocation.
    kinds: Vec<KindStorage>,
    /// Kind index by the Rust type of the class (looked up on every allocation: the
    /// cheap id hasher rather than SipHash).
    kind_by_type: HashMap<ClassKey, u16, BuildHasherDefault<IdHasher>>,
    /// The class and kind index of the last [`EntityManager::kind_index`] lookup: spawning
    /// many entities of one kind skips the `ClassKey` hash lookup. A `&'static Class`
    /// cannot change, so its address always stands for the same kind.
    last_kind: Option<(&'static Class, u16)>,
    /// Base index by id (a window of consecutive ids, the others hashed).
    ids: IdMap,
    /// The next id to try for a new entity (per manager).
    next_id: u64,
    /// The high 32 bits of fresh ids, 0 for the plain counter (`prefix.rs`).
    id_prefix: u32,
    /// Whether a fresh id was taken at or past `u64::MAX`, so that the counter started
    /// again from 1 and may be behind loaded ids (fresh ids still skip taken ones).
    counter_wrapped: bool,
    /// Classes for resolving `Kind` when loading; `None` for the global registry.
    registry: Option<&'static Registry>,
}

impl Default for EntityManager {
    fn default() -> EntityManager {
        EntityManager::new()
    }
}

// A game loads a world on a background thread and hands it over, or shares it behind a
// lock: the kinds' storage is `Send` and `Sync` (see `crate::storage`), and so is the rest.
static_assertions::assert_impl_all!(EntityManager: Send, Sync);

impl EntityManager {
    /// An empty manager; loading resolves kinds through [`Registry::global`].
    pub fn new() -> EntityManager {
        EntityManager {
            entities: Vec::new(),
            kinds: Vec::new(),
            kind_by_type: HashMap::default(),
            last_kind: None,
            ids: IdMap::default(),
            next_id: 1,
            id_prefix: 0,
            counter_wrapped: false,
            registry: None,
        }
    }

    /// An empty manager that resolves kinds through `registry` when loading.
    pub fn with_registry(registry: &'static Registry) -> EntityManager {
        EntityManager {
            registry: Some(registry),
            ..EntityManager::new()
        }
    }

    /// The registry used to resolve `Kind` when loading.
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateClass`] when the global registry cannot be built.
    pub fn registry(&self) -> Result<&'static Registry, Error> {
        match self.registry {
            Some(r) => Ok(r),
            None => Registry::global(),
        }
    }

    /// Number of live entities.
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Whether there is no live entity.
    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }

    /// Whether `id` is a live entity.
    pub fn contains(&self, id: EntityId) -> bool {
        self.ids.contains(id)
    }

    /// The base records, contiguous, in allocation order up to swap-and-pop moves.
    pub fn entities(&self) -> &[Entity] {
        &self.entities
    }

    /// Calls `f` on every base record, mutably (to move entities or change dirty flags).
    pub fn for_each_entity_mut(&mut self, f: impl FnMut(&mut Entity)) {
        self.entities.iter_mut().for_each(f);
    }

    /// The id that the next [`EntityManager::allocate_entity`] tries first: always past
    /// every id this manager allocated or loaded (unless ids reached `u64::MAX`).
    pub fn next_id(&self) -> EntityId {
        EntityId(self.next_id)
    }

    /// The storages of the kinds allocated so far (with their classes and lengths).
    pub fn kinds(&self) -> &[KindStorage] {
        &self.kinds
    }

    /// The storage of `class`, if an entity of it was ever allocated.
    pub fn kind_storage(&self, class: &Class) -> Option<&KindStorage> {
        let kind = *self.kind_by_type.get(&class.ops().key())?;
        Some(&self.kinds[kind as usize])
    }

    /// Index of the storage of `class`, created on first use.
    #[inline]
    fn kind_index(&mut self, class: &'static Class) -> u16 {
        match self.last_kind {
            Some((last, k)) if std::ptr::eq(last, class) => k,
            _ => self.kind_index_slow(class),
        }
    }

    /// [`EntityManager::kind_index`] past the one-entry cache.
    #[cold]
    fn kind_index_slow(&mut self, class: &'static Class) -> u16 {
        let key = class.ops().key();
        let k = match self.kind_by_type.get(&key) {
            Some(&k) => k,
            None => {
                let k = u16::try_from(self.kinds.len()).expect("more than 65535 entity kinds");
                self.kinds.push(KindStorage::new(class));
                self.kind_by_type.insert(key, k);
                k
            }
        };
        self.last_kind = Some((class, k));
        k
    }

    /// Makes room for `additional` more entities of `class` (and base records) without
    /// reallocating.
    pub fn reserve(&mut self, class: &'static Class, additional: usize) {
        let k = self.kind_index(class);
        self.kinds[k as usize].reserve(additional);
        self.entities.reserve(additional);
        self.ids.reserve(additional);
    }

    /// The id the next new entity would get ([`EntityManager::make_entity`]): the id
    /// counter unless taken, then the next free id. Does not advance the counter: a
    /// program that gives an existing file a fresh id (and renames it after it) asks this
    /// without making an entity.
    ///
    /// ```
    /// use juliet_entities::glam::Vec3;
    /// use juliet_entities::kinds::Inert;
    /// use juliet_entities::EntityManager;
    ///
    /// let mut manager = EntityManager::new();
    /// let next = manager.peek_free_id();
    /// assert_eq!(manager.peek_free_id(), next);
    /// assert_eq!(manager.make_entity::<Inert>(Vec3::ZERO), next);
    /// assert_ne!(manager.peek_free_id(), next);
    /// ```
    pub fn peek_free_id(&self) -> EntityId {
        let mut candidate = self.next_id;
        while candidate == 0 || self.ids.contains(EntityId(candidate)) {
            candidate = candidate.wrapping_add(1);
        }
        EntityId(candidate)
    }

    /// Moves the id counter past `id` (docs/design.md, section 5.4), so new entities never reuse
    /// a loaded id.
    pub(crate) fn note_id(&mut self, id: EntityId) {
        if id.0 >= self.next_id && self.in_id_block(id) {
            self.next_id = id.0.checked_add(1).unwrap_or(self.next_id);
        }
    }

    /// Allocates an entity of `class` (docs/design.md, section 5.3) with a fresh id:
    /// a base record at the end of the base array (position zero, dirty) and the
    /// derived struct initialized with its declared defaults directly in its final slot
    /// of the kind's storage; both links wired, counts updated.
    ///
    /// The id is assigned here (every live entity has a unique non-zero
    /// id). Panics past `u32::MAX - 1` entities or 65535 kinds.
    pub fn allocate_entity(&mut self, class: &'static Class) -> EntityId {
        let base = self.push_record(class, EntityId(0), SlotInit::Default);
        self.register_fresh_id(base)
    }

    /// Like [`EntityManager::allocate_entity`] with a given id (the loaders use it).
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateEntityId`] when `id` is live, [`ErrorKind::NoSuchEntity`]
    /// for id 0 (which means "unassigned").
    pub fn allocate_entity_with_id(
        &mut self,
        class: &'static Class,
        id: EntityId,
    ) -> Result<EntityId, Error> {
        if id.0 == 0 {
            return Err(Error::file("", ErrorKind::NoSuchEntity(0)));
        }
        if self.ids.contains(id) {
            return Err(duplicate_id(id));
        }
        self.allocate_raw(class, id);
        self.note_id(id);
        Ok(id)
    }

    /// Allocates with `id` (free, non-zero); returns the base index.
    pub(crate) fn allocate_raw(&mut self, class: &'static Class, id: EntityId) -> u32 {
        debug_assert!(id.0 != 0 && !self.ids.contains(id));
        let base = self.push_record(class, id, SlotInit::Default);
        self.ids.insert(id, base);
        base
    }

    /// Steps 1 and 3 of docs/design.md, section 7.3 (and of allocation, section 5.3): a base
    /// record at the end of the base array (position zero, dirty, no overrides) and the
    /// derived struct written straight into its final slot of the kind's storage, by
    /// `init` (the declared defaults, or a clone of an archetype: step 2), both links
    /// wired. The id is *not* entered in the id map: [`EntityManager::register_id`] does
    /// that (docs/design.md, section 5.3), or [`EntityManager::discard_last`] takes the record back.
    // Always inlined: in `instantiate_from_template` the call boundaries cost more than
    // the work (this is the per-instance path of docs/design.md, section 7.3).
    #[inline(always)]
    pub(crate) fn push_record(
        &mut self,
        class: &'static Class,
        id: EntityId,
        init: SlotInit<'_>,
    ) -> u32 {
        let kind = self.kind_index(class);
        let base = self.next_base();
        // Reserve first, so that nothing can fail once the derived struct exists (the
        // id map's insertion cannot fail but by aborting on allocation failure).
        self.entities.reserve(1);
        let storage = &mut self.kinds[kind as usize];
        let slot = match init {
            SlotInit::Default => storage.push_default(base),
            SlotInit::Clone(src, src_slot) => storage.push_clone(base, src, src_slot),
        };
        self.entities.push(Entity {
            id,
            class,
            position: Vec3::ZERO,
            slot,
            template: None,
            overrides: OverrideSet::new(),
            kind,
            dirty: true,
            write_requested: false,
            position_overridden: false,
        });
        base
    }

    /// Enters the record at `base` (the last one pushed by
    /// [`EntityManager::push_record`]) in the id map under `id` (free, non-zero) and
    /// moves the id counter past it.
    pub(crate) fn register_id(&mut self, base: u32, id: EntityId) {
        debug_assert!(id.0 != 0 && !self.ids.contains(id));
        self.entities[base as usize].id = id;
        self.ids.insert(id, base);
        self.note_id(id);
    }

    /// Like [`EntityManager::register_id`] with a fresh id (the one
    /// [`EntityManager::peek_free_id`] gives: `next_id` unless taken, then the next free
    /// one), found and entered in the id map in one step per candidate (usually a push
    /// onto the map's window of consecutive ids); advances the counter past it and
    /// returns it.
    #[inline(always)]
    pub(crate) fn register_fresh_id(&mut self, base: u32) -> EntityId {
        let id = self.enter_fresh_id(base);
        self.entities[base as usize].id = id;
        id
    }

    /// Enters a fresh id (see [`EntityManager::register_fresh_id`]) for base index
    /// `base` in the id map and advances the counter past it; the record is not touched.
    #[inline(always)]
    fn enter_fresh_id(&mut self, base: u32) -> EntityId {
        fresh_id(
            &mut self.ids,
            &mut self.next_id,
            &mut self.counter_wrapped,
            base,
        )
    }

    /// Creates an entity of `class` whose derived struct, a `T`, is the value `make`
    /// returns, written straight into its final slot and then changed there by `finish`
    /// (docs/design.md, section 7.3, steps 1 to 5 in one, for a caller that knows the kind's
    /// Rust type; [`KindStorage::push_with`]): a base record with `record`'s fields at
    /// the end of the base array (dirty), both links wired, a fresh id. Returns `None`
    /// (nothing changed, no closure called) when `T` is not the type stored for `class`.
    ///
    /// When a closure panics nothing is created. Panics as
    /// [`EntityManager::allocate_entity`].
    #[inline(always)]
    pub(crate) fn spawn_with<T: Reflect>(
        &mut self,
        class: &'static Class,
        record: NewRecord,
        init: TypedInit<'_, impl FnOnce() -> T>,
        finish: impl FnOnce(&mut T),
    ) -> Option<EntityId> {
        let kind = self.kind_index(class);
        let base = self.next_base();
        if self.entities.len() == self.entities.capacity() {
            self.entities.reserve(1);
        }
        // The closures run inside: when one panics, only reserved capacity has changed.
        let storage = &mut self.kinds[kind as usize];
        let slot = match init {
            TypedInit::Make(make) => storage.push_with(base, make, finish),
            TypedInit::Clone(src, src_slot) => storage.push_clone_with(base, src, src_slot, finish),
        }?;
        // Neither can fail from here on: the id map's insertion aborts at worst (on
        // allocation failure) and the base array has room.
        let id = self.enter_fresh_id(base);
        self.entities
            .push(record.into_entity(id, class, slot, kind));
        Some(id)
    }

    /// The base index of the next record, checked against the `u32` limit.
    #[inline(always)]
    fn next_base(&self) -> u32 {
        u32::try_from(self.entities.len())
            .ok()
            .filter(|&b| b < u32::MAX)
            .expect("more than u32::MAX - 1 entities")
    }

    /// Takes back the record at `base`, which must be the last record pushed by
    /// [`EntityManager::push_record`] and not registered: pops it and drops its derived
    /// struct (the last of its kind's storage).
    pub(crate) fn discard_last(&mut self, base: u32) {
        assert_eq!(
            base as usize + 1,
            self.entities.len(),
            "not the last record"
        );
        let e = self.entities.pop().expect("a record");
        debug_assert!(self.ids.get(e.id) != Some(base));
        let storage = &mut self.kinds[e.kind as usize];
        assert_eq!(e.slot as usize + 1, storage.len(), "not the last slot");
        storage.swap_remove(e.slot as usize);
    }

    /// The base record at `base` with its kind's storage, both mutable (the slot is
    /// `entity.slot()`).
    #[inline]
    pub(crate) fn record_and_storage_mut(
        &mut self,
        base: usize,
    ) -> (&mut Entity, &mut KindStorage) {
        let e = &mut self.entities[base];
        let kind = e.kind as usize;
        (e, &mut self.kinds[kind])
    }

    /// Creates an entity of kind `T` at `position`: fresh
    /// id, declared defaults, dirty.
    pub fn make_entity<T: Reflect>(&mut self, position: Vec3) -> EntityId {
        let record = NewRecord {
            position,
            ..NewRecord::default()
        };
        // The typed path: `T`'s defaults inlined, no indirect call. It applies unless
        // `T::CLASS` was built for another Rust type than `T`.
        let init = TypedInit::Make(T::default_value);
        if let Some(id) = self.spawn_with(T::CLASS, record, init, |_| {}) {
            return id;
        }
        let id = self.allocate_entity(T::CLASS);
        let base = self.entities.len() - 1;
        self.entities[base].position = position;
        id
    }

    /// Destroys entity `id` (docs/design.md, section 5.2): found through the id map in
    /// O(1), removed by swap-and-pop from the base array and from its kind's storage,
    /// and the links of both moved records fixed up. The derived struct is dropped.
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchEntity`] when `id` is not live (nothing changes).
    pub fn destroy_entity(&mut self, id: EntityId) -> Result<(), Error> {
        let base = self
            .ids
            .remove(id)
            .ok_or_else(|| Error::file("", ErrorKind::NoSuchEntity(id.0)))?
            as usize;
        let (kind, slot) = (
            self.entities[base].kind as usize,
            self.entities[base].slot as usize,
        );
        // 1. Base array: the last record moves into `base`; its slot must point back.
        self.entities.swap_remove(base);
        if let Some(moved) = self.entities.get(base) {
            self.ids.set(moved.id, base as u32);
            self.kinds[moved.kind as usize].set_base(moved.slot as usize, base as u32);
        }
        // 2. Kind storage: the last slot moves into `slot`; its base must point to it.
        //    Fixed before the drop, so a panicking `Drop` leaves the links intact.
        let storage = &mut self.kinds[kind];
        let last_slot = storage.len() - 1;
        if slot != last_slot {
            let moved_base = storage.base_of(last_slot) as usize;
            self.entities[moved_base].slot = slot as u32;
        }
        self.kinds[kind].swap_remove(slot);
        Ok(())
    }

    /// Base index of `id` in [`EntityManager::entities`] (O(1), through the id map).
    pub fn index_of(&self, id: EntityId) -> Option<usize> {
        self.ids.get(id).map(|b| b as usize)
    }

    /// The base record at base index `base` (panics when out of bounds).
    pub(crate) fn entity_at_mut(&mut self, base: usize) -> &mut Entity {
        &mut self.entities[base]
    }

    /// The base record of `id`.
    pub fn entity(&self, id: EntityId) -> Option<&Entity> {
        Some(&self.entities[self.index_of(id)?])
    }

    /// The base record of `id`, mutably (to move it or set its dirty flag).
    pub fn entity_mut(&mut self, id: EntityId) -> Option<&mut Entity> {
        let base = self.index_of(id)?;
        Some(&mut self.entities[base])
    }

    /// Loads `ar` into the derived struct of the entity at base index `base` (the
    /// in-place load of docs/design.md, section 5.5).
    pub(crate) fn load_derived(&mut self, base: usize, ar: &mut Archive<'_>) -> Result<(), Error> {
        let e = &self.entities[base];
        self.kinds[e.kind as usize].load(e.slot as usize, ar)
    }

    /// Saves the derived struct of `id` (`ClassVersion` and its properties).
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchEntity`] when `id` is not live.
    pub fn save_derived(&self, id: EntityId, ar: &mut Archive<'_>) -> Result<(), Error> {
        let e = self
            .entity(id)
            .ok_or_else(|| Error::file("", ErrorKind::NoSuchEntity(id.0)))?;
        self.kinds[e.kind as usize].save(e.slot as usize, ar);
        Ok(())
    }

    /// The kind storage and slot of `id`, for type-erased access
    /// ([`KindStorage::as_ptr`]).
    pub fn storage_of(&self, id: EntityId) -> Option<(&KindStorage, usize)> {
        let e = self.entity(id)?;
        Some((&self.kinds[e.kind as usize], e.slot as usize))
    }
}

/// [`EntityManager::enter_fresh_id`] on the manager's id fields (the id map, the
/// counter and its wrap flag), so that a batch can call it while it holds a kind's
/// storage.
#[inline(always)]
fn fresh_id(ids: &mut IdMap, next_id: &mut u64, wrapped: &mut bool, base: u32) -> EntityId {
    let start = *next_id;
    let mut candidate = start;
    while !ids.insert_if_free(candidate, base) {
        candidate = candidate.wrapping_add(1);
    }
    *next_id = candidate.wrapping_add(1);
    // Not past `start`: the id was `u64::MAX`, or the search went round through 0.
    if *next_id <= start {
        wrap_counter(next_id, wrapped);
    }
    EntityId(candidate)
}

/// Notes that the id counter went round past `u64::MAX` (it restarts at 1 when it
/// overflowed): from now on it may be behind loaded ids.
#[cold]
#[inline(never)]
fn wrap_counter(next_id: &mut u64, wrapped: &mut bool) {
    *wrapped = true;
    *next_id = (*next_id).max(1);
}

/// The error for an id already live in the manager (the world names the other file).
pub(crate) fn duplicate_id(id: EntityId) -> Error {
    Error::file(
        "",
        ErrorKind::DuplicateEntityId {
            id: id.0,
            other: "a live entity".into(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::invariants::tests::three;
    use super::*;
    use crate::support::{Crate, Sign};

    /// A fresh id is the counter's unless taken (possible only once ids wrapped past
    /// `u64::MAX`), then the next free one, never 0; the counter moves past it.
    #[test]
    fn fresh_ids_skip_taken_ids_and_zero() {
        let (mut m, ids) = three();
        assert_eq!(ids.map(EntityId::get), [1, 2, 3]);
        m.allocate_entity_with_id(Crate::CLASS, EntityId(u64::MAX))
            .unwrap();
        m.next_id = 2;
        assert_eq!(m.allocate_entity(Sign::CLASS), EntityId(4));
        assert_eq!(m.next_id, 5);
        m.next_id = u64::MAX;
        assert_eq!(m.allocate_entity(Crate::CLASS), EntityId(5));
        assert_eq!(m.next_id, 6);
        assert_eq!(m.get::<Crate>(EntityId(5)), m.slice::<Crate>().last());
        m.check_invariants().unwrap();
    }

    /// `make_entity` (the typed path: `T::default_value` inlined) builds what
    /// `allocate_entity` (the class's type-erased default-init) does, at `position`.
    #[test]
    fn make_entity_agrees_with_allocate_entity() {
        let mut m = EntityManager::new();
        let typed = m.make_entity::<Crate>(Vec3::Y);
        let erased = m.allocate_entity(Crate::CLASS);
        assert_eq!(m.get::<Crate>(typed), m.get::<Crate>(erased));
        assert_eq!(m.get::<Crate>(typed), Some(&Crate::default()));
        let e = m.entity(typed).unwrap();
        assert_eq!(
            (e.position(), e.is_dirty(), e.template()),
            (Vec3::Y, true, None)
        );
        assert!(e.overrides().is_empty() && !e.is_position_overridden());
        assert_eq!((typed, erased), (EntityId(1), EntityId(2)));
        m.check_invariants().unwrap();
    }

    /// The one-entry kind cache gives each class its own storage when kinds alternate.
    #[test]
    fn kinds_alternating_keep_their_storages() {
        let mut m = EntityManager::new();
        for i in 0..6 {
            if i % 2 == 0 {
                m.make_entity::<Crate>(Vec3::ZERO);
            } else {
                m.make_entity::<Sign>(Vec3::ZERO);
            }
        }
        assert_eq!(m.kinds().len(), 2);
        assert_eq!((m.slice::<Crate>().len(), m.slice::<Sign>().len()), (3, 3));
        m.check_invariants().unwrap();
    }

    #[test]
    fn id_hasher_spreads_sequential_ids() {
        use std::hash::{BuildHasher, BuildHasherDefault};
        let build = BuildHasherDefault::<IdHasher>::default();
        let low_bits: std::collections::HashSet<u64> = (1..=1024u64)
            .map(|i| build.hash_one(EntityId(i)) & 1023)
            .collect();
        assert_eq!(low_bits.len(), 1024);
    }
}
