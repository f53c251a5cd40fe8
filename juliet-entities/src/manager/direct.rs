//! The manager's side of the direct load path ([`crate::load`]): the in-place direct
//! read of a derived struct, and the exact undo of an allocation it declined.

use juliet_core::DirectCursor;

use super::EntityManager;

impl EntityManager {
    /// Runs the class's direct load path ([`juliet_core::Reflect::load_direct`]) on the
    /// derived struct of the entity at base index `base`: `true` when it read the rest
    /// of the file at `cursor`, `false` when the file must go through
    /// [`EntityManager::load_derived`] (the struct is then valid; the caller destroys it).
    pub(crate) fn load_derived_direct(
        &mut self,
        base: usize,
        cursor: &mut DirectCursor<'_>,
    ) -> bool {
        let e = &self.entities[base];
        self.kinds[e.kind as usize].load_direct(e.slot as usize, cursor)
    }

    /// Removes the kind storages created after the first `count` (which must all be
    /// empty), so that an allocation taken back by `destroy_entity` leaves no trace: the
    /// manager's kinds are then what they were when it had `count` of them.
    pub(crate) fn forget_kinds_from(&mut self, count: usize) {
        while self.kinds.len() > count {
            let storage = self.kinds.pop().expect("a kind");
            assert!(storage.is_empty(), "a kind storage still in use");
            self.kind_by_type
                .remove(&storage.class().ops.value_type_id());
        }
        if self.last_kind.is_some_and(|(_, k)| usize::from(k) >= count) {
            self.last_kind = None;
        }
    }
}
