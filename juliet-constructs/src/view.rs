//! [`ConstructView`]: a construct's lens onto one entity that it creates in the
//! [`EntityManager`].
//!
//! ```
//! use glam::Vec3;
//! use juliet_constructs::ConstructView;
//! use juliet_entities::kinds::Inert;
//! use juliet_entities::EntityManager;
//!
//! let mut manager = EntityManager::new();
//! let mut body = ConstructView::<Inert>::new();
//! body.initialize(&mut manager, Vec3::new(0.0, 5.0, 0.0));
//! body.get_mut(&mut manager).unwrap().mass = 80.0;
//!
//! // Other entities come and go; the view still finds its own.
//! let other = manager.make_entity::<Inert>(Vec3::ZERO);
//! manager.destroy_entity(other)?;
//! assert_eq!(body.get(&manager).unwrap().mass, 80.0);
//! assert_eq!(body.entity(&manager).unwrap().position(), Vec3::new(0.0, 5.0, 0.0));
//!
//! assert!(body.destroy(&mut manager));
//! assert!(manager.is_empty());
//! # Ok::<(), juliet_entities::juliet_core::Error>(())
//! ```

use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

use glam::Vec3;
use juliet_core::Reflect;
use juliet_entities::{Entity, EntityId, EntityManager};

/// Where the entity was last found: its kind storage and slot.
#[derive(Debug, Clone, Copy)]
struct Location {
    kind: u16,
    slot: u32,
}

/// No location known yet.
const UNKNOWN: Location = Location {
    kind: u16::MAX,
    slot: u32::MAX,
};

/// A lens onto one entity of kind `T` (a type deriving `Entity`): typed access to its
/// derived struct ([`ConstructView::get`], [`ConstructView::get_mut`]) and to its base
/// record ([`ConstructView::entity`], for the position).
///
/// The view holds the entity's id and where it last found it (kind storage and slot),
/// never a pointer: each access passes the manager and checks in O(1) that the slot
/// still holds this entity (the slot's back-link names a base record with this id).
/// When the entity moved (a swap-and-pop destroy of another entity, a reload), it is
/// found again through the manager's id map, also O(1), and the new place is kept.
/// Storage growth moves no slot, so it needs nothing.
///
/// # Lifetime of the entity
/// [`ConstructView::destroy`] destroys the entity; [`ConstructView::release`] lets go
/// of it and leaves it in the manager. A construct's views are destroyed with the
/// construct and released when it survives a world reset (by the
/// [`FlowManager`](super::FlowManager)). Dropping a view that is still attached
/// leaves its entity in the manager (a view cannot reach the manager from `Drop`).
pub struct ConstructView<T: Reflect> {
    id: Option<EntityId>,
    /// Updated by shared accesses too: a cache of where `id` is, never trusted unchecked.
    at: Cell<Location>,
    kind: PhantomData<fn() -> T>,
}

impl<T: Reflect> Default for ConstructView<T> {
    fn default() -> Self {
        ConstructView::new()
    }
}

impl<T: Reflect> fmt::Debug for ConstructView<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConstructView")
            .field("kind", &T::CLASS.name())
            .field("id", &self.id)
            .finish()
    }
}

impl<T: Reflect> ConstructView<T> {
    /// A view with no entity yet (every access gives `None` until
    /// [`ConstructView::initialize`]).
    pub const fn new() -> ConstructView<T> {
        ConstructView {
            id: None,
            at: Cell::new(UNKNOWN),
            kind: PhantomData,
        }
    }

    /// Creates the backing entity, a `T` with its declared defaults at `position`, and
    /// attaches the view to it; returns its id. An entity the view was attached to
    /// before is destroyed first.
    pub fn initialize(&mut self, manager: &mut EntityManager, position: Vec3) -> EntityId {
        self.destroy(manager);
        let id = manager.make_entity::<T>(position);
        self.attach(id);
        id
    }

    /// Like [`ConstructView::initialize`] with the derived struct set to `value`.
    pub fn initialize_with(
        &mut self,
        manager: &mut EntityManager,
        position: Vec3,
        value: T,
    ) -> EntityId {
        let id = self.initialize(manager, position);
        if let Some(slot) = self.get_mut(manager) {
            *slot = value;
        }
        id
    }

    /// Attaches the view to an existing entity (one loaded from a world file, say),
    /// without creating one. Accesses give `None` while `id` is not a live `T`.
    pub fn attach(&mut self, id: EntityId) {
        self.id = Some(id);
        self.at.set(UNKNOWN);
    }

    /// The backing entity's id, while attached.
    pub fn id(&self) -> Option<EntityId> {
        self.id
    }

    /// Whether the view is attached to an entity (which may since have been destroyed
    /// by other code: then accesses give `None`).
    pub fn is_attached(&self) -> bool {
        self.id.is_some()
    }

    /// The kind storage, slot and base index of the entity: the cached place when it
    /// still holds the entity, else the place the id map gives (then cached).
    #[inline]
    fn locate(&self, manager: &EntityManager) -> Option<(usize, usize, usize)> {
        let id = self.id?;
        let at = self.at.get();
        if let Some(storage) = manager.kinds().get(usize::from(at.kind)) {
            let slot = at.slot as usize;
            if let Some(&base) = storage.bases().get(slot) {
                let base = base as usize;
                if manager.entities().get(base).is_some_and(|e| e.id() == id) {
                    return Some((usize::from(at.kind), slot, base));
                }
            }
        }
        self.relocate(manager, id)
    }

    /// [`ConstructView::locate`] past a stale cache.
    #[cold]
    fn relocate(&self, manager: &EntityManager, id: EntityId) -> Option<(usize, usize, usize)> {
        let base = manager.index_of(id)?;
        let e = &manager.entities()[base];
        let (kind, slot) = (e.kind_index(), e.slot());
        // The manager numbers its kinds and slots in `u16` and `u32`.
        self.at.set(Location {
            kind: kind as u16,
            slot: slot as u32,
        });
        Some((kind, slot, base))
    }

    /// The derived struct (`None` when not attached, or the entity is gone or not a `T`).
    #[inline]
    pub fn get<'m>(&self, manager: &'m EntityManager) -> Option<&'m T> {
        let (kind, slot, _) = self.locate(manager)?;
        manager.kinds()[kind].get::<T>(slot)
    }

    /// The derived struct, mutably; marks the entity dirty (like
    /// [`EntityManager::get_mut`]). `None` as for [`ConstructView::get`].
    #[inline]
    pub fn get_mut<'m>(&self, manager: &'m mut EntityManager) -> Option<&'m mut T> {
        self.parts_mut(manager).map(|(_, value)| value)
    }

    /// The base record (position, id, dirty flag). `None` as for [`ConstructView::get`].
    #[inline]
    pub fn entity<'m>(&self, manager: &'m EntityManager) -> Option<&'m Entity> {
        let (kind, slot, base) = self.locate(manager)?;
        manager.kinds()[kind].get::<T>(slot)?;
        manager.entities().get(base)
    }

    /// The base record, mutably (to move the entity). `None` as for [`ConstructView::get`].
    #[inline]
    pub fn entity_mut<'m>(&self, manager: &'m mut EntityManager) -> Option<&'m mut Entity> {
        self.parts_mut(manager).map(|(entity, _)| entity)
    }

    /// The base record and the derived struct, both mutable; marks the entity dirty.
    /// `None` as for [`ConstructView::get`].
    #[inline]
    pub fn parts_mut<'m>(
        &self,
        manager: &'m mut EntityManager,
    ) -> Option<(&'m mut Entity, &'m mut T)> {
        let (_, _, base) = self.locate(manager)?;
        manager.get_with_entity_at_mut::<T>(base)
    }

    /// Lets go of the entity, which stays in the manager; returns its id.
    pub fn release(&mut self) -> Option<EntityId> {
        self.at.set(UNKNOWN);
        self.id.take()
    }

    /// Destroys the entity (when it is still live) and detaches the view; returns
    /// whether an entity was destroyed.
    pub fn destroy(&mut self, manager: &mut EntityManager) -> bool {
        match self.release() {
            Some(id) => manager.destroy_entity(id).is_ok(),
            None => false,
        }
    }
}

/// A view as the lifecycle walks see it (implemented by every [`ConstructView`]).
#[doc(hidden)]
pub trait ViewHandle {
    /// [`ConstructView::release`].
    fn release(&mut self);
    /// [`ConstructView::destroy`].
    fn destroy(&mut self, manager: &mut EntityManager);
}

impl<T: Reflect> ViewHandle for ConstructView<T> {
    fn release(&mut self) {
        ConstructView::release(self);
    }

    fn destroy(&mut self, manager: &mut EntityManager) {
        ConstructView::destroy(self, manager);
    }
}
