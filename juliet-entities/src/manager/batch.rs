//! Batch creation: many entities of one kind, each a clone of one source value, with
//! the kind lookup, the type checks, the limits and the room taken once per batch
//! (the manager's side of [`crate::template::instantiate_many`]).

use super::{fresh_id, EntityManager, NewRecord};
use crate::entity::EntityId;
use crate::storage::{Appender, KindStorage};
use juliet_core::Class;

impl EntityManager {
    /// Creates `count` entities of `class`, each a clone of the value in `src_slot` of
    /// `src` (a template's archetype) made by `push` through an [`Appender`] of `T`
    /// (the kind's Rust type, or [`crate::storage::Erased`] for the class's clone),
    /// with base records carrying `record`'s fields (dirty) and fresh ids, appended to
    /// `out` in creation order: per entity, what [`EntityManager::spawn_with`] makes.
    /// The ids are the ones successive single calls would take (taken ids skipped);
    /// when the id map can take them as one run (the usual case), each is one push.
    ///
    /// Returns `None` (nothing created) when `src` or `T` is not of `class`'s kind.
    /// Panics, before creating anything, when the manager or the kind would hold more
    /// than `u32::MAX - 1` entities. When `push` panics, the entities created before
    /// stay (each complete, its id in `out`) and the manager is consistent.
    #[inline(always)]
    pub(crate) fn spawn_clones<T: 'static>(
        &mut self,
        class: &'static Class,
        record: &NewRecord,
        (src, src_slot): (&KindStorage, usize),
        count: usize,
        out: &mut Vec<EntityId>,
        mut push: impl FnMut(&mut Appender<'_, T>, u32) -> u32,
    ) -> Option<()> {
        let kind = self.kind_index(class);
        let first_base = self.entities.len();
        assert!(
            first_base
                .checked_add(count)
                .is_some_and(|end| end <= u32::MAX as usize),
            "more than u32::MAX - 1 entities"
        );
        let mut appender = self.kinds[kind as usize].appender::<T>(src, src_slot, count)?;
        self.entities.reserve(count);
        out.reserve(count);
        let run = self.ids.start_run(self.next_id, count);
        for base in first_base as u32..(first_base + count) as u32 {
            let slot = push(&mut appender, base);
            let id = if run {
                self.ids.push_next(base);
                let id = EntityId(self.next_id);
                self.next_id += 1; // No overflow: `start_run` checked the run's end.
                id
            } else {
                fresh_id(
                    &mut self.ids,
                    &mut self.next_id,
                    &mut self.counter_wrapped,
                    base,
                )
            };
            let entity = record.clone().into_entity(id, class, slot, kind);
            self.entities.push(entity);
            out.push(id);
        }
        Some(())
    }

    /// The id counter and whether it wrapped (to restore them after taking back a
    /// failed batch).
    pub(crate) fn id_counter(&self) -> (u64, bool) {
        (self.next_id, self.counter_wrapped)
    }

    /// Restores the id counter saved by [`EntityManager::id_counter`]; the entities
    /// created since must have been destroyed.
    pub(crate) fn restore_id_counter(&mut self, (next_id, wrapped): (u64, bool)) {
        self.next_id = next_id;
        self.counter_wrapped = wrapped;
    }
}
