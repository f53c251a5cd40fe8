//! The exact undo of an allocation: what the entity loader needs when it reads a file
//! again from the start ([`crate::load`]), and [`Undo`], the guard that takes back a
//! half-made entity on an error or a panic.

use super::EntityManager;

/// A manager borrowed through a change (a record allocated, then filled): dropped
/// before [`Undo::disarm`] (an error returned or a panic between the two), it runs
/// `undo` on the manager.
pub(crate) struct Undo<'m, F: FnOnce(&mut EntityManager)> {
    pub(crate) manager: &'m mut EntityManager,
    undo: Option<F>,
}

impl<'m, F: FnOnce(&mut EntityManager)> Undo<'m, F> {
    /// Guards `manager` with `undo`, armed.
    pub(crate) fn new(manager: &'m mut EntityManager, undo: F) -> Undo<'m, F> {
        Undo {
            manager,
            undo: Some(undo),
        }
    }

    /// The change is complete: nothing is undone at the drop.
    pub(crate) fn disarm(&mut self) {
        self.undo = None;
    }
}

impl<F: FnOnce(&mut EntityManager)> Drop for Undo<'_, F> {
    #[inline]
    fn drop(&mut self) {
        if let Some(undo) = self.undo.take() {
            undo(self.manager);
        }
    }
}

impl EntityManager {
    /// Removes the kind storages created after the first `count` (which must all be
    /// empty), so that an allocation taken back by `destroy_entity` leaves no trace: the
    /// manager's kinds are then what they were when it had `count` of them.
    pub(crate) fn forget_kinds_from(&mut self, count: usize) {
        while self.kinds.len() > count {
            let storage = self.kinds.pop().expect("a kind");
            assert!(storage.is_empty(), "a kind storage still in use");
            self.kind_by_type.remove(&storage.class().ops().key());
        }
        if self.last_kind.is_some_and(|(_, k)| usize::from(k) >= count) {
            self.last_kind = None;
        }
    }
}
