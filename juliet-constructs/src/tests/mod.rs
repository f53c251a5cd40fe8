//! Behaviour tests of the construct layer (the batch's own, Miri-run tests are in
//! `batch`).

mod determinism;
mod lifetime;
mod mode;
mod order;
mod owned;
mod property;
mod views;

use std::cell::RefCell;
use std::rc::Rc;

use juliet_entities::World;

/// A shared record of calls, in order.
pub(super) type Log = Rc<RefCell<Vec<String>>>;

/// Appends `what` to `log`.
pub(super) fn note(log: &Log, what: impl Into<String>) {
    log.borrow_mut().push(what.into());
}

/// A world that touches no file.
pub(super) fn world() -> World {
    World::with_project_root("w", "w")
}
