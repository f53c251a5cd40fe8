//! [`ConstructBatch`]: type-erased, non-virtual tick dispatch, and the set of spawned
//! constructs whose hooks the batches call.
//!
//! Each tick hook that a construct (or an `Owned` child of it, at any depth) wrote
//! becomes one [`ConstructTickEntry`] in the batch of its phase: the root construct's
//! address, a plain function pointer monomorphized for the hook (it finds the child
//! from the root through safe field accesses and calls the hook directly, so nothing
//! is virtual), a [`TickGroup`] and an `i16` order. A batch sorts its entries by
//! (group, order) only when entries were added since the last sort, with a stable
//! sort: registration order (spawn order, parents before their children) breaks
//! ties. Consecutive entries of one kind (same type, same place in the tree) then
//! make one run, dispatched by one call of their function, which loops over the run's
//! objects with the hook inlined: an indirect call per run, not per entry.
//!
//! ```
//! use juliet_constructs::{construct, Construct, FlowManager, SimFloat, TickPhase};
//! use juliet_entities::World;
//!
//! #[derive(Construct, Default)]
//! struct Camera;
//! #[construct(group = Camera)]
//! impl Camera {
//!     fn scalar_update(&mut self, _dt: SimFloat) {}
//! }
//!
//! #[derive(Construct, Default)]
//! struct Door;
//! #[construct]
//! impl Door {
//!     fn scalar_update(&mut self, _dt: SimFloat) {}
//! }
//!
//! let mut flow = FlowManager::new(World::new("unused"));
//! flow.spawn(Camera);
//! flow.spawn(Door);
//! let order: Vec<&str> = flow.batch(TickPhase::ScalarUpdate).entries().iter()
//!     .map(|e| e.type_name().rsplit("::").next().unwrap())
//!     .collect();
//! assert_eq!(order, ["Door", "Camera"]); // `Default` runs before `Camera`
//! assert!(flow.batch(TickPhase::PhysicsStep).is_empty()); // no hook, no entry
//! ```
//!
//! This module holds the `unsafe` of the construct layer (the constructs are kept
//! behind raw pointers so that the entries may point at them); its tests run under
//! Miri: `cargo +nightly miri test -p juliet-constructs --lib batch::`.

use std::any::TypeId;
use std::ptr::NonNull;

use super::context::{ConstructKey, TickContext};
use super::traits::{
    Construct, ConstructParts, DynConstruct, FieldPath, Here, Registrar, TickGroup, TickSlot,
};
use super::SimFloat;

/// The phases of a frame, each with its own batch, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TickPhase {
    /// `pre_input` hooks, once per frame.
    PreInput = 0,
    /// `physics_step` hooks, at the fixed rate.
    PhysicsStep = 1,
    /// `scalar_update` hooks, once per frame.
    ScalarUpdate = 2,
}

/// A type-erased hook call over a run of entries of one kind: the root constructs, the
/// frame's context, the step.
///
/// Safety: every pointer is a live, otherwise unborrowed root construct of the type
/// the function was monomorphized for.
type RunFn = unsafe fn(&[NonNull<u8>], &mut TickContext<'_>, SimFloat);

/// One tick hook of one construct in a [`ConstructBatch`].
#[derive(Clone, Copy, Debug)]
pub struct ConstructTickEntry {
    /// The root construct (the child, if any, is found from it by `func`).
    object: NonNull<u8>,
    func: RunFn,
    /// The (root type, path) the function is monomorphized for: consecutive entries
    /// of one kind are dispatched by one call of `func`.
    kind: TypeId,
    group: TickGroup,
    order: i16,
    owner: ConstructKey,
    name: &'static str,
}

impl ConstructTickEntry {
    /// The group the hook runs in.
    pub fn group(&self) -> TickGroup {
        self.group
    }

    /// The order within the group (lower runs first).
    pub fn order(&self) -> i16 {
        self.order
    }

    /// The Rust type name of the construct whose hook this is (a child's own type for
    /// an `Owned` child).
    pub fn type_name(&self) -> &'static str {
        self.name
    }

    /// The spawned (root) construct the hook belongs to.
    pub fn owner(&self) -> ConstructKey {
        self.owner
    }
}

/// The tick entries of one [`TickPhase`], dispatched in (group, order, registration)
/// order.
#[derive(Debug, Default)]
pub struct ConstructBatch {
    entries: Vec<ConstructTickEntry>,
    /// What dispatch reads of `entries` (rebuilt when they change): their objects in
    /// the same order, 8 bytes each ...
    objects: Vec<NonNull<u8>>,
    /// ... cut into runs of consecutive entries of one kind: the kind's function and
    /// the run's end in `objects`.
    runs: Vec<(RunFn, TypeId, usize)>,
    /// Entries were added since the last sort.
    unsorted: bool,
    sorts: u64,
}

impl ConstructBatch {
    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries, in dispatch order once sorted (the flow manager's
    /// [`batch`](super::FlowManager::batch) sorts before it returns a batch).
    pub fn entries(&self) -> &[ConstructTickEntry] {
        &self.entries
    }

    /// How many times the batch has sorted its entries (once per change at most).
    pub fn sort_count(&self) -> u64 {
        self.sorts
    }

    /// Sorts when entries were added since the last sort (stable: ties keep
    /// registration order). Removing entries keeps the order, so it never sorts.
    pub(crate) fn sort_if_changed(&mut self) {
        if self.unsorted {
            self.entries.sort_by_key(|e| (e.group, e.order));
            self.unsorted = false;
            self.sorts += 1;
            self.rebuild_calls();
        }
    }

    fn rebuild_calls(&mut self) {
        self.objects.clear();
        self.runs.clear();
        for e in &self.entries {
            self.objects.push(e.object);
            match self.runs.last_mut() {
                Some((_, kind, end)) if *kind == e.kind => *end += 1,
                _ => self.runs.push((e.func, e.kind, self.objects.len())),
            }
        }
    }

    fn push(&mut self, entry: ConstructTickEntry) {
        self.entries.push(entry);
        self.unsorted = true;
    }

    fn remove_owner(&mut self, owner: ConstructKey) {
        let before = self.entries.len();
        self.entries.retain(|e| e.owner != owner);
        if self.entries.len() != before && !self.unsorted {
            self.rebuild_calls();
        }
    }

    fn clear(&mut self) {
        self.entries.clear();
        self.objects.clear();
        self.runs.clear();
    }

    /// Calls every entry in order.
    ///
    /// # Safety
    /// Every entry's object is a live construct of the type its function expects that
    /// nothing else borrows during the call (the [`ConstructSet`] that registered them
    /// holds them and is borrowed mutably).
    #[inline]
    unsafe fn run(&mut self, cx: &mut TickContext<'_>, dt: SimFloat) {
        self.sort_if_changed();
        let mut start = 0;
        for &(func, _, end) in &self.runs {
            // SAFETY: the caller's contract (`objects` mirrors `entries`, and a run
            // holds entries of `func`'s kind only).
            unsafe { func(&self.objects[start..end], cx, dt) };
            start = end;
        }
    }
}

/// The hook of the phase `PHASE` (a [`TickPhase`] as `u8`) of the construct `P`
/// reaches from each root `R` of `roots`.
///
/// # Safety
/// As [`RunFn`].
unsafe fn hook_run<R: Construct, P: FieldPath<R>, const PHASE: u8>(
    roots: &[NonNull<u8>],
    cx: &mut TickContext<'_>,
    dt: SimFloat,
) {
    for root in roots {
        // SAFETY: `root` is a live `R` borrowed by nobody else (the `RunFn` contract),
        // and this borrow ends before the next one.
        let root = unsafe { &mut *root.cast::<R>().as_ptr() };
        let construct = P::get(root);
        match PHASE {
            PRE_INPUT => construct.__pre_input(cx),
            PHYSICS_STEP => construct.__physics_step(cx, dt),
            _ => construct.__scalar_update(cx, dt),
        }
    }
}

/// [`TickPhase::PreInput`] as the `PHASE` of [`hook_run`].
const PRE_INPUT: u8 = TickPhase::PreInput as u8;
/// [`TickPhase::PhysicsStep`] as the `PHASE` of [`hook_run`].
const PHYSICS_STEP: u8 = TickPhase::PhysicsStep as u8;
/// [`TickPhase::ScalarUpdate`] as the `PHASE` of [`hook_run`].
const SCALAR_UPDATE: u8 = TickPhase::ScalarUpdate as u8;

/// Registers the tick hooks of a root construct `R` and of its `Owned` children in the
/// three batches (the [`Registrar`] the derive's `__register_children` calls,
/// depth-first in declaration order).
struct BatchRegistrar<'a, R> {
    root: NonNull<R>,
    owner: ConstructKey,
    batches: &'a mut [ConstructBatch; 3],
}

impl<R: Construct> Registrar<R> for BatchRegistrar<'_, R> {
    fn owned<P: FieldPath<R>>(&mut self) {
        let hooks = <P::Target as Construct>::HOOKS;
        let shims: [(Option<TickSlot>, RunFn); 3] = [
            (hooks.pre_input, hook_run::<R, P, PRE_INPUT>),
            (hooks.physics_step, hook_run::<R, P, PHYSICS_STEP>),
            (hooks.scalar_update, hook_run::<R, P, SCALAR_UPDATE>),
        ];
        for (batch, (slot, func)) in self.batches.iter_mut().zip(shims) {
            if let Some(slot) = slot {
                batch.push(ConstructTickEntry {
                    object: self.root.cast(),
                    func,
                    kind: TypeId::of::<(R, P)>(),
                    group: slot.group,
                    order: slot.order,
                    owner: self.owner,
                    name: std::any::type_name::<P::Target>(),
                });
            }
        }
        <P::Target as ConstructParts>::__register_children::<R, P>(self);
    }
}

/// A spawned construct: the root of its `Owned` tree, on the heap.
#[derive(Debug)]
struct Root {
    key: ConstructKey,
    /// From `Box::into_raw`; freed only by [`ConstructSet::remove`] or the set's drop.
    ptr: NonNull<dyn DynConstruct>,
}

/// The spawned constructs and the three batches of their tick entries.
///
/// Each construct is boxed once (its `Owned` children live inside it) and kept as the
/// raw pointer of that box, so that the entries pointing at it stay valid whatever the
/// set does with its own vectors; all access goes through that pointer, while the set
/// is borrowed (shared for `get`, exclusively for everything else).
#[derive(Debug)]
pub(crate) struct ConstructSet {
    /// In key order (keys grow with spawn order).
    roots: Vec<Root>,
    batches: [ConstructBatch; 3],
}

impl ConstructSet {
    pub(crate) fn new() -> ConstructSet {
        ConstructSet {
            roots: Vec::new(),
            batches: Default::default(),
        }
    }

    /// The number of spawned constructs (children not counted).
    pub(crate) fn len(&self) -> usize {
        self.roots.len()
    }

    /// Whether the construct `key` is in the set.
    pub(crate) fn contains(&self, key: ConstructKey) -> bool {
        self.find(key).is_some()
    }

    /// Index of `key` in `roots`.
    fn find(&self, key: ConstructKey) -> Option<usize> {
        self.roots.binary_search_by_key(&key, |r| r.key).ok()
    }

    /// Takes `value` in under `key` (unused) and registers its tick hooks and its
    /// children's. Its views are not initialized here.
    pub(crate) fn insert<T: Construct>(&mut self, key: ConstructKey, value: T) {
        assert!(self.find(key).is_none(), "construct key {key:?} used twice");
        let raw: *mut T = Box::into_raw(Box::new(value));
        // SAFETY: `Box::into_raw` never returns null.
        let root = unsafe { NonNull::new_unchecked(raw) };
        let at = self.roots.partition_point(|r| r.key < key);
        self.roots.insert(
            at,
            Root {
                key,
                ptr: root as NonNull<dyn DynConstruct>,
            },
        );
        BatchRegistrar {
            root,
            owner: key,
            batches: &mut self.batches,
        }
        .owned::<Here>();
    }

    /// The construct `key` as a `T`.
    pub(crate) fn get<T: Construct>(&self, key: ConstructKey) -> Option<&T> {
        let root = &self.roots[self.find(key)?];
        // SAFETY: the box is live while in `roots`; `&self` excludes every `&mut`.
        let value = unsafe { root.ptr.as_ref() };
        value.as_any().downcast_ref()
    }

    /// The construct `key`, type-erased and mutable.
    pub(crate) fn get_dyn_mut(&mut self, key: ConstructKey) -> Option<&mut dyn DynConstruct> {
        let at = self.find(key)?;
        let mut ptr = self.roots[at].ptr;
        // SAFETY: the box is live while in `roots`; `&mut self` excludes every other
        // access for the returned borrow's life.
        Some(unsafe { ptr.as_mut() })
    }

    /// Calls `f` on every construct, in key order.
    pub(crate) fn for_each_mut(&mut self, mut f: impl FnMut(ConstructKey, &mut dyn DynConstruct)) {
        for root in &self.roots {
            let mut ptr = root.ptr;
            // SAFETY: as in `get_dyn_mut`; one construct borrowed at a time.
            f(root.key, unsafe { ptr.as_mut() });
        }
    }

    /// The keys of the constructs, in key order.
    pub(crate) fn keys(&self) -> Vec<ConstructKey> {
        self.roots.iter().map(|r| r.key).collect()
    }

    /// Takes the construct `key` out of the set (its entries removed), boxed again.
    pub(crate) fn remove(&mut self, key: ConstructKey) -> Option<Box<dyn DynConstruct>> {
        let at = self.find(key)?;
        for batch in &mut self.batches {
            batch.remove_owner(key);
        }
        let root = self.roots.remove(at);
        // SAFETY: from `Box::into_raw` in `insert`, removed from `roots` and no entry
        // points at it any more, so this is the only owner.
        Some(unsafe { Box::from_raw(root.ptr.as_ptr()) })
    }

    /// The batch of `phase`, sorted.
    pub(crate) fn batch(&mut self, phase: TickPhase) -> &ConstructBatch {
        let batch = &mut self.batches[phase as usize];
        batch.sort_if_changed();
        batch
    }

    /// Runs the hooks of `phase`.
    pub(crate) fn run(&mut self, phase: TickPhase, cx: &mut TickContext<'_>, dt: SimFloat) {
        // SAFETY: every entry points at a construct in `roots` (entries go with their
        // owner in `remove`), and `&mut self` borrows all of them exclusively; the
        // context reaches no construct (it holds the world, resources and commands).
        unsafe { self.batches[phase as usize].run(cx, dt) }
    }
}

impl Drop for ConstructSet {
    /// Drops the constructs in spawn order.
    fn drop(&mut self) {
        for batch in &mut self.batches {
            batch.clear();
        }
        for root in std::mem::take(&mut self.roots) {
            // SAFETY: as in `remove`: from `Box::into_raw`, no entry left.
            drop(unsafe { Box::from_raw(root.ptr.as_ptr()) });
        }
    }
}

#[cfg(test)]
mod tests;
