//! What tick hooks and game-mode hooks see: [`TickContext`] (the world, the shared
//! [`Resources`], the frame counters) and the deferred spawns and destroys of
//! [`Commands`].
//!
//! ```
//! use juliet_constructs::{construct, Construct, FlowManager, SimFloat, TickContext};
//! use juliet_entities::World;
//!
//! /// A resource the game shares with its constructs.
//! struct Wind(SimFloat);
//!
//! #[derive(Construct, Default)]
//! struct Flag {
//!     angle: SimFloat,
//! }
//!
//! #[construct]
//! impl Flag {
//!     fn physics_step(&mut self, cx: &mut TickContext<'_>, dt: SimFloat) {
//!         let wind = cx.resource::<Wind>().map_or(SimFloat::ZERO, |w| w.0);
//!         self.angle += wind * dt;
//!     }
//! }
//!
//! let mut flow = FlowManager::new(World::new("unused"));
//! flow.resources_mut().insert(Wind(SimFloat::from_int(64)));
//! let flag = flow.spawn(Flag::default());
//! flow.step_physics();
//! assert_eq!(flow.get(flag).unwrap().angle, SimFloat::ONE);
//! ```
//!
//! This module depends on neither the constructs' traits nor their batches: the
//! generic [`Commands::spawn`] is defined in `flow`, beside the set of constructs its
//! spawns go to.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

use juliet_entities::{EntityManager, World};

/// The untyped id of a spawned construct (what a [`Soul`](super::Soul) records).
/// Ids are never reused by one [`FlowManager`](super::FlowManager).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConstructKey(pub(crate) u64);

impl ConstructKey {
    /// The number (spawn order: a later construct has a larger one).
    pub fn get(self) -> u64 {
        self.0
    }
}

/// The typed id of a spawned construct of type `T`.
pub struct ConstructId<T> {
    key: ConstructKey,
    kind: PhantomData<fn() -> T>,
}

impl<T> ConstructId<T> {
    pub(crate) fn new(key: ConstructKey) -> ConstructId<T> {
        ConstructId {
            key,
            kind: PhantomData,
        }
    }

    /// The untyped id.
    pub fn key(self) -> ConstructKey {
        self.key
    }
}

impl<T> Clone for ConstructId<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for ConstructId<T> {}
impl<T> PartialEq for ConstructId<T> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl<T> Eq for ConstructId<T> {}
impl<T> Hash for ConstructId<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}
impl<T> fmt::Debug for ConstructId<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ConstructId<{}>({})",
            std::any::type_name::<T>(),
            self.key.0
        )
    }
}
impl<T> From<ConstructId<T>> for ConstructKey {
    fn from(id: ConstructId<T>) -> ConstructKey {
        id.key
    }
}

/// Values of any type, one per type, that the game shares with its constructs (a
/// physics world, an input state): `cx.resource::<Physics>()`.
#[derive(Default)]
pub struct Resources {
    map: HashMap<TypeId, Box<dyn Any>>,
}

impl fmt::Debug for Resources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Resources")
            .field("len", &self.map.len())
            .finish()
    }
}

impl Resources {
    /// Adds `value`, replacing (and returning) the one of its type.
    pub fn insert<R: Any>(&mut self, value: R) -> Option<R> {
        self.map
            .insert(TypeId::of::<R>(), Box::new(value))
            .and_then(|old| old.downcast::<R>().ok())
            .map(|old| *old)
    }

    /// The value of type `R`.
    pub fn get<R: Any>(&self) -> Option<&R> {
        self.map.get(&TypeId::of::<R>())?.downcast_ref()
    }

    /// The value of type `R`, mutably.
    pub fn get_mut<R: Any>(&mut self) -> Option<&mut R> {
        self.map.get_mut(&TypeId::of::<R>())?.downcast_mut()
    }

    /// Takes out the value of type `R`.
    pub fn remove<R: Any>(&mut self) -> Option<R> {
        let old = self.map.remove(&TypeId::of::<R>())?;
        old.downcast::<R>().ok().map(|old| *old)
    }
}

/// A spawn waiting for the end of the current phase: inserts its construct, under the
/// key, into the flow manager's set of constructs, given as `dyn Any` since this module
/// does not know the set's type ([`Commands::spawn`] makes it).
pub(crate) type PendingSpawn = Box<dyn FnOnce(&mut dyn Any, ConstructKey)>;

/// Spawns and destroys asked for while constructs run (from a tick hook or a game-mode
/// hook), carried out in order when the current phase (or hook) ends. A spawned
/// construct's id is known at once; it ticks from the next phase on.
pub struct Commands {
    next_key: u64,
    spawns: Vec<(ConstructKey, PendingSpawn)>,
    destroys: Vec<ConstructKey>,
}

impl fmt::Debug for Commands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Commands")
            .field("spawns", &self.spawns.len())
            .field("destroys", &self.destroys)
            .finish()
    }
}

impl Commands {
    pub(crate) fn new() -> Commands {
        Commands {
            next_key: 1,
            spawns: Vec::new(),
            destroys: Vec::new(),
        }
    }

    /// A fresh key (never reused).
    pub(crate) fn next_key(&mut self) -> ConstructKey {
        let key = ConstructKey(self.next_key);
        self.next_key += 1;
        key
    }

    /// Queues `spawn` under `key` (from [`Commands::next_key`]).
    pub(crate) fn defer_spawn(&mut self, key: ConstructKey, spawn: PendingSpawn) {
        self.spawns.push((key, spawn));
    }

    /// Destroys the construct `key` when the current phase ends (after the spawns
    /// asked for before it). Unknown keys are ignored.
    pub fn destroy(&mut self, key: impl Into<ConstructKey>) {
        self.destroys.push(key.into());
    }

    /// Whether nothing waits.
    pub(crate) fn is_empty(&self) -> bool {
        self.spawns.is_empty() && self.destroys.is_empty()
    }

    /// The waiting spawns and destroys, emptied.
    pub(crate) fn take(&mut self) -> (Vec<(ConstructKey, PendingSpawn)>, Vec<ConstructKey>) {
        (
            std::mem::take(&mut self.spawns),
            std::mem::take(&mut self.destroys),
        )
    }
}

/// What a tick hook can reach besides its own construct: the world (and its entity
/// manager, for views), the shared [`Resources`], deferred [`Commands`], and the frame
/// counters. Other constructs are not reachable during a tick.
pub struct TickContext<'a> {
    pub(crate) world: &'a mut World,
    pub(crate) resources: &'a mut Resources,
    pub(crate) commands: &'a mut Commands,
    pub(crate) frame: u64,
    pub(crate) physics_tick: u64,
}

impl fmt::Debug for TickContext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TickContext")
            .field("frame", &self.frame)
            .field("physics_tick", &self.physics_tick)
            .finish_non_exhaustive()
    }
}

impl<'a> TickContext<'a> {
    /// The world.
    pub fn world(&self) -> &World {
        self.world
    }

    /// The world, mutably.
    pub fn world_mut(&mut self) -> &mut World {
        self.world
    }

    /// The world's entity manager (what views take).
    pub fn manager(&self) -> &EntityManager {
        self.world.manager()
    }

    /// The world's entity manager, mutably.
    pub fn manager_mut(&mut self) -> &mut EntityManager {
        self.world.manager_mut()
    }

    /// The shared resource of type `R`.
    pub fn resource<R: Any>(&self) -> Option<&R> {
        self.resources.get()
    }

    /// The shared resource of type `R`, mutably.
    pub fn resource_mut<R: Any>(&mut self) -> Option<&mut R> {
        self.resources.get_mut()
    }

    /// The entity manager and the resources at once (a physics resource and a view's
    /// entity in one statement).
    pub fn split_mut(&mut self) -> (&mut EntityManager, &mut Resources) {
        (self.world.manager_mut(), self.resources)
    }

    /// Deferred spawns and destroys (carried out when the current phase ends).
    pub fn commands(&mut self) -> &mut Commands {
        self.commands
    }

    /// The number of frames completed before this one.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// The number of physics steps completed before the current one (counting from
    /// the flow manager's creation).
    pub fn physics_tick(&self) -> u64 {
        self.physics_tick
    }
}
