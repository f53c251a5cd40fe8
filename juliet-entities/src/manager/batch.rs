//! Batch creation: many entities of one kind, each a clone of one source value, with
//! the kind lookup, the type checks, the limits and the room taken once per batch
//! (the manager's side of [`crate::template::instantiate_many`]).

use juliet_core::Class;

use super::{fresh_id, EntityManager, IdMap, NewRecord};
use crate::entity::OverrideSet;
use crate::entity::{Entity, EntityId};
use crate::storage::{Appender, Source};

impl EntityManager {
    /// Creates `count` entities of `class`, each a clone of `source` (a template's
    /// archetype, or an archetype with a delta applied) made by `fill` through an
    /// [`Appender`] of `T` (the kind's Rust type, or [`crate::storage::Erased`] for the
    /// class's clone), with base records carrying `record`'s fields (dirty) and fresh
    /// ids, appended to `out` in creation order: per entity, what
    /// [`EntityManager::spawn_with`] makes. The ids are the ones successive single calls
    /// would take (taken ids skipped).
    ///
    /// The values are cloned in one loop, then the records written in one pass: when
    /// the id map can take the ids as one run (the usual case), the ids, the records
    /// and `out` are each one bulk extension.
    ///
    /// Returns `None` (nothing created) when `source` or `T` is not of `class`'s kind.
    /// Panics, before creating anything, when the manager or the kind would hold more
    /// than `u32::MAX - 1` entities. When a clone panics, the entities created before
    /// it stay (each complete, its id in `out`) and the manager is consistent.
    #[inline(always)]
    pub(crate) fn spawn_clones<T: 'static>(
        &mut self,
        class: &'static Class,
        record: &NewRecord,
        source: Source<'_, T>,
        count: usize,
        out: &mut Vec<EntityId>,
        fill: impl FnOnce(&mut Appender<'_, T>, u32),
    ) -> Option<()> {
        let kind = self.kind_index(class);
        let first_base = self.entities.len();
        assert!(
            first_base
                .checked_add(count)
                .is_some_and(|end| end <= u32::MAX as usize),
            "more than u32::MAX - 1 entities"
        );
        let appender = self.kinds[kind as usize].appender::<T>(source, count)?;
        self.entities.reserve(count);
        out.reserve(count);
        let run = self.ids.start_run(self.next_id, count);
        let mut batch = Records {
            first_slot: appender.first_slot(),
            appender,
            entities: &mut self.entities,
            ids: &mut self.ids,
            next_id: &mut self.next_id,
            wrapped: &mut self.counter_wrapped,
            out,
            record,
            class,
            kind,
            first_base: first_base as u32,
            run,
        };
        // The records are written when `batch` drops: after the clones, or after the
        // ones made before a clone that panicked.
        fill(&mut batch.appender, first_base as u32);
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

/// The records of a batch of [`EntityManager::spawn_clones`]: written when dropped,
/// for the values its appender appended (all of them, or those made before a clone
/// panicked), so that each value has its record and id.
struct Records<'m, 'a, T> {
    appender: Appender<'a, T>,
    /// The slot of the batch's first value.
    first_slot: u32,
    entities: &'m mut Vec<Entity>,
    ids: &'m mut IdMap,
    next_id: &'m mut u64,
    wrapped: &'m mut bool,
    out: &'m mut Vec<EntityId>,
    record: &'m NewRecord,
    class: &'static Class,
    kind: u16,
    /// The base index of the batch's first record.
    first_base: u32,
    /// Whether the id map prepared a run of the batch's ids ([`IdMap::start_run`]).
    run: bool,
}

impl<T> Drop for Records<'_, '_, T> {
    #[inline(always)]
    fn drop(&mut self) {
        // Below `u32::MAX - first_base`: `spawn_clones` checked the batch's end.
        let made = self.appender.appended() as u32;
        let (class, kind, first_slot, first_base) =
            (self.class, self.kind, self.first_slot, self.first_base);
        let record = self.record;
        if self.run {
            // The run's ids: consecutive from `next_id` (no overflow: `start_run`
            // checked the run's end), each one push onto the id map's window.
            let first_id = *self.next_id;
            *self.next_id += u64::from(made);
            self.ids.push_run(first_base, made);
            // The record's fields as locals (through the reference, the compiler
            // reloads them for every record).
            let (position, template) = (record.position, record.template);
            let position_overridden = record.position_overridden;
            let entity = move |i: u32, overrides| {
                let record = NewRecord {
                    position,
                    template,
                    overrides,
                    position_overridden,
                };
                let id = EntityId(first_id + u64::from(i));
                record.into_entity(id, class, first_slot + i, kind)
            };
            // An inline override set (up to 64 properties) is copied as its word, with
            // the record's other fields, from locals: no per-record clone's check.
            match record.overrides.inline_word() {
                Some(word) => self
                    .entities
                    .extend((0..made).map(|i| entity(i, OverrideSet::from_word(word)))),
                None => self
                    .entities
                    .extend((0..made).map(|i| entity(i, record.overrides.clone()))),
            }
            self.out
                .extend((first_id..first_id + u64::from(made)).map(EntityId));
        } else {
            for i in 0..made {
                let id = fresh_id(self.ids, self.next_id, self.wrapped, first_base + i);
                let entity = record.clone().into_entity(id, class, first_slot + i, kind);
                self.entities.push(entity);
                self.out.push(id);
            }
        }
    }
}
