//! The editor's undo history: each step records only what its edit changed (property
//! states, one entity's snapshot, one template file's bytes), never a copy of the world
//! (docs/design.md, section 7.9).

use juliet_core::Error;
use juliet_entities::entity::EntityId;
use juliet_entities::world::{EntitySnapshot, PropertyState, World};

/// One change of a step, with what was there before and after.
#[derive(Debug, Clone)]
pub enum Change {
    /// A property's value and override mark.
    Property {
        /// The entity.
        id: EntityId,
        /// The canonical key (`Position` too).
        key: String,
        /// Before the edit.
        before: PropertyState,
        /// After the edit.
        after: PropertyState,
    },
    /// A whole entity: `None` when it did not exist (spawn) or no longer does (delete).
    Entity {
        /// The entity.
        id: EntityId,
        /// Before the edit.
        before: Option<EntitySnapshot>,
        /// After the edit.
        after: Option<EntitySnapshot>,
    },
    /// A template file's bytes: `None` when the file did not exist (a created template).
    Template {
        /// The project-relative path.
        path: String,
        /// Before the edit.
        before: Option<Vec<u8>>,
        /// After the edit.
        after: Option<Vec<u8>>,
    },
}

/// One undoable step: a name for the menu and its changes, in the order they were made.
#[derive(Debug, Clone)]
pub struct Step {
    /// What the step did ("Set Health", "Delete 0x...").
    pub name: String,
    /// The changes, in order.
    pub changes: Vec<Change>,
}

impl Step {
    /// The entities the step's property and entity changes are about.
    pub fn entities(&self) -> Vec<EntityId> {
        let mut ids: Vec<EntityId> = (self.changes.iter())
            .filter_map(|c| match c {
                Change::Property { id, .. } | Change::Entity { id, .. } => Some(*id),
                Change::Template { .. } => None,
            })
            .collect();
        ids.dedup();
        ids
    }
}

/// Puts one side (`after` when `forward`, else `before`) of `change` into `world`.
fn put(world: &mut World, change: &Change, forward: bool) -> Result<(), Error> {
    match change {
        Change::Property {
            id,
            key,
            before,
            after,
        } => world.restore_property(*id, key, if forward { after } else { before }),
        Change::Entity { id, before, after } => match if forward { after } else { before } {
            Some(snapshot) => world.restore_entity(snapshot),
            None if world.manager().contains(*id) => world.remove_world_entity(*id),
            None => Ok(()),
        },
        Change::Template {
            path,
            before,
            after,
        } => {
            let (on_disk, wanted) = if forward {
                (before, after)
            } else {
                (after, before)
            };
            match wanted {
                Some(bytes) => world
                    .write_template_file(path, on_disk.as_deref(), bytes)
                    .map(|_| ()),
                None => remove_template_file(world, path, on_disk.as_deref()),
            }
        }
    }
}

/// Deletes the template file at project-relative `path` (the undo of its creation),
/// only while it still holds `expected`: a file edited since is left alone.
fn remove_template_file(world: &World, path: &str, expected: Option<&[u8]>) -> Result<(), Error> {
    let full = world.project_root().join(path);
    match std::fs::read(&full) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(&full, e)),
        Ok(current) if expected.is_some_and(|b| b != current.as_slice()) => {
            let why = "changed on disk since it was written: not deleted";
            return Err(Error::io(&full, std::io::Error::other(why)));
        }
        Ok(_) => {}
    }
    std::fs::remove_file(&full).map_err(|e| Error::io(&full, e))
}

/// The undo and redo stacks.
#[derive(Debug, Default)]
pub struct History {
    done: Vec<Step>,
    undone: Vec<Step>,
    /// The entity and key of the last step while it may still absorb edits of the same
    /// property (one drag or one typing session is one step).
    open: Option<(EntityId, String)>,
}

impl History {
    /// An empty history.
    pub fn new() -> History {
        History::default()
    }

    /// Records a step that was just made; clears the redo stack.
    pub fn push(&mut self, step: Step) {
        self.open = None;
        self.done.push(step);
        self.undone.clear();
    }

    /// Records a property edit: merged into the last step when that step is the same
    /// property's and still open ([`History::close`] ends it), else a new step.
    pub fn push_property(
        &mut self,
        id: EntityId,
        key: &str,
        before: PropertyState,
        after: PropertyState,
    ) {
        let same = self
            .open
            .as_ref()
            .is_some_and(|(i, k)| *i == id && k == key);
        if same {
            if let Some(Change::Property { after: last, .. }) =
                self.done.last_mut().and_then(|s| s.changes.last_mut())
            {
                *last = after;
                return;
            }
        }
        self.push(Step {
            name: format!("Set {key}"),
            changes: vec![Change::Property {
                id,
                key: key.to_owned(),
                before,
                after,
            }],
        });
        self.open = Some((id, key.to_owned()));
    }

    /// Forgets every step (done or undone) that changes entity `id`: what it would put
    /// back no longer follows from the entity's state (its file was read again). Steps
    /// about other entities and templates stay. Returns how many were dropped.
    pub fn forget_entity(&mut self, id: EntityId) -> usize {
        let before = self.done.len() + self.undone.len();
        self.done.retain(|s| !s.entities().contains(&id));
        self.undone.retain(|s| !s.entities().contains(&id));
        if self.open.as_ref().is_some_and(|(i, _)| *i == id) {
            self.open = None;
        }
        before - self.done.len() - self.undone.len()
    }

    /// Whether the last step is a property step still open to the edits of one drag or
    /// typing session ([`History::close`] ends it).
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Ends the open property step: the next edit of the same property is a new step.
    pub fn close(&mut self) {
        self.open = None;
    }

    /// Whether there is a step to undo.
    pub fn can_undo(&self) -> bool {
        !self.done.is_empty()
    }

    /// Whether there is a step to redo.
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// The name of the step [`History::undo`] would undo.
    pub fn undo_name(&self) -> Option<&str> {
        self.done.last().map(|s| s.name.as_str())
    }

    /// The name of the step [`History::redo`] would redo.
    pub fn redo_name(&self) -> Option<&str> {
        self.undone.last().map(|s| s.name.as_str())
    }

    /// Undoes the last step (its changes in reverse order); returns its name, or
    /// `None` when there was none.
    ///
    /// # Errors
    /// The first change that could not be put back (the step stays undone).
    pub fn undo(&mut self, world: &mut World) -> Result<Option<String>, Error> {
        self.open = None;
        let Some(step) = self.done.pop() else {
            return Ok(None);
        };
        let name = step.name.clone();
        let result = step
            .changes
            .iter()
            .rev()
            .try_for_each(|c| put(world, c, false));
        self.undone.push(step);
        result.map(|()| Some(name))
    }

    /// Redoes the last undone step; returns its name, or `None` when there was none.
    ///
    /// # Errors
    /// The first change that could not be made again (the step stays done).
    pub fn redo(&mut self, world: &mut World) -> Result<Option<String>, Error> {
        self.open = None;
        let Some(step) = self.undone.pop() else {
            return Ok(None);
        };
        let name = step.name.clone();
        let result = step.changes.iter().try_for_each(|c| put(world, c, true));
        self.done.push(step);
        result.map(|()| Some(name))
    }
}
