//! The exact undo of an allocation: what the entity loader needs when it reads a file
//! again from the start ([`crate::load`]).

use super::EntityManager;

impl EntityManager {
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
