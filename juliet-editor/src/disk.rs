//! Files changed, added or deleted on disk while the editor runs (fed by the window's
//! file watcher, or by tests): [`EditorApp::files_changed`] reads them again, and asks
//! ([`EditorApp::conflict`]) before it drops unsaved edits.

use std::path::{Path, PathBuf};

use juliet_core::Error;
use juliet_entities::entity::EntityId;
use juliet_entities::template::TEMPLATES_DIR;

use crate::app::{Conflict, EditorApp};

impl EditorApp {
    /// Files changed, added or deleted on disk (from a file watcher). A template is
    /// reloaded (its instances follow) and the template list read again. A changed
    /// entity file is read again, an added one (under `Entities/`) loads as a new
    /// entity, and a deleted one's entity leaves the world (its undo steps with it),
    /// unless the entity has unsaved edits: then [`EditorApp::conflict`] asks; so it
    /// does when the file of an entity deleted in the editor (not saved since) changes.
    /// Files the world itself wrote (same bytes) change nothing.
    pub fn files_changed(&mut self, paths: &[PathBuf]) {
        self.world_changed();
        let root = self.world.project_root().to_path_buf();
        for path in paths {
            if path.extension().is_none_or(|e| e != "jasset") {
                continue;
            }
            if let Some(rel) = template_path(&root, path) {
                self.refresh_templates();
                if !path.exists() {
                    self.problems.file_gone(path);
                } else if self.world.templates().get(&rel).is_some() {
                    self.reload_template(&rel, path);
                }
                continue;
            }
            if !path.exists() {
                self.problems.file_gone(path);
            }
            let Some(id) = self.entity_of_file(path) else {
                if let Some(id) = self.removed_entity_of_file(path) {
                    // A file deleted on disk agrees with the Delete: nothing to ask.
                    if path.is_file() {
                        self.removed_file_changed(id, path);
                    }
                } else if path.is_file() && self.is_entity_file(path) {
                    self.load_added(path);
                }
                continue;
            };
            let deleted = !path.exists();
            let dirty = self
                .world
                .manager()
                .entity(id)
                .is_some_and(|e| e.is_dirty());
            if dirty {
                // Unsaved edits are never dropped without asking: one question at a
                // time, and a second changed file keeps its edits (a save then reports
                // it as changed on disk and leaves it alone; a deleted one is written
                // again).
                if self.conflict.is_none() {
                    self.select(Some(id));
                    self.conflict = Some(Conflict {
                        id,
                        path: path.clone(),
                        deleted,
                        removed: false,
                    });
                } else if deleted {
                    let kept = self.world.file_removed(id, true);
                    self.report(&format!("{id} deleted on disk: kept"), kept);
                } else {
                    self.status = format!("{id} changed on disk: kept its unsaved edits");
                }
            } else if deleted {
                self.remove_deleted(id);
            } else {
                self.reload_entity(id);
            }
        }
    }

    /// The file of entity `id`, deleted in the editor and not saved since, changed on
    /// disk: asks, as for unsaved edits; while another question is open, the Delete
    /// stays (the next save deletes the file).
    fn removed_file_changed(&mut self, id: EntityId, path: &Path) {
        if self.conflict.is_none() {
            self.conflict = Some(Conflict {
                id,
                path: path.to_path_buf(),
                deleted: false,
                removed: true,
            });
        } else {
            self.status = format!("{id} changed on disk: kept its unsaved Delete");
        }
    }

    /// Loads the file of entity `id`, deleted in the editor and not saved since, as it
    /// is on disk now (the answer "Reload" to a conflict): the Delete is undone by the
    /// file, and the undo steps of the entity (the Delete's among them) are dropped, as
    /// when a file is read again.
    fn reload_removed(&mut self, id: EntityId, path: &Path) {
        let result = self.world.load_added_file(path);
        let errors = match &result {
            Ok(_) => Vec::new(),
            Err(e) => e.clone().into_all(),
        };
        let loaded = result.is_ok();
        if let Some(loaded) = self.report(&format!("Reloaded {} from disk", path.display()), result)
        {
            self.history.forget_entity(id);
            self.history.forget_entity(loaded);
            self.select(Some(loaded));
            self.status = format!("Reloaded {loaded} from disk: the Delete is undone");
        }
        self.file_read(path, errors, loaded);
    }

    /// The entity deleted in the editor (not saved since) whose file is `path`.
    fn removed_entity_of_file(&self, path: &Path) -> Option<EntityId> {
        let target = normal(path);
        (self.world.pending_deletions().iter())
            .find(|p| p.file.as_deref().is_some_and(|f| normal(f) == target))
            .map(|p| p.id)
    }

    /// Takes entity `id`, whose file was deleted on disk, out of the world with its undo
    /// steps.
    fn remove_deleted(&mut self, id: EntityId) {
        if self.selected == Some(id) {
            self.pending_text = None;
            self.selected = None;
        }
        let result = self.world.file_removed(id, false);
        if self
            .report(&format!("{id} deleted on disk: removed"), result)
            .is_some()
        {
            self.history.forget_entity(id);
        }
    }

    /// Whether `path` is a place for one of the world's entity files (under
    /// `Entities/`, not a save's temporary file).
    fn is_entity_file(&self, path: &Path) -> bool {
        let temp = (path.file_name()).is_some_and(|n| n.to_string_lossy().starts_with('.'));
        !temp && normal(path).starts_with(normal(&self.world.entities_dir()))
    }

    /// Reads entity `id`'s file again (the answer "Reload" to a conflict). The undo
    /// steps that change the entity are dropped
    /// ([`History::forget_entity`](crate::History::forget_entity)); the others stay.
    pub fn reload_entity(&mut self, id: EntityId) {
        let path = self.world.file_of(id).map(Path::to_path_buf);
        let result = self.world.reload_entity(id);
        self.world_changed();
        let errors = match result {
            Ok(true) => {
                self.status = format!("Reloaded {id} from disk");
                self.history.forget_entity(id);
                Vec::new()
            }
            // The file holds what the world read or wrote (the editor's own save):
            // nothing happened.
            Ok(false) => return,
            Err(e) => {
                // The entity keeps what it held; the Problems panel shows why.
                self.status = format!("Reloading {id} from disk failed: {e}");
                e.into_all()
            }
        };
        if let Some(path) = path {
            self.file_read(&path, errors, true);
        }
    }

    /// Loads entity file `path`, added on disk or one that did not load and changed.
    fn load_added(&mut self, path: &Path) {
        let result = self.world.load_added_file(path);
        self.world_changed();
        match result {
            Ok(id) => {
                self.status = format!("Loaded {}: {id}", path.display());
                self.file_read(path, Vec::new(), true);
            }
            Err(e) => {
                self.status = format!("Loading {} failed: {e}", path.display());
                self.file_read(path, e.into_all(), false);
            }
        }
    }

    /// Records what reading file `path` again found: `errors`, the world's new
    /// warnings, and whether it `loaded`.
    fn file_read(&mut self, path: &Path, errors: Vec<Error>, loaded: bool) {
        let warnings = self.world.take_new_warnings();
        self.problems.file_read(path, &errors, &warnings, loaded);
    }

    /// Reads the template at project-relative `rel` again; its instances follow. The
    /// status says so only when the template's values changed (not after the editor
    /// wrote the file itself, by Apply or an undo).
    fn reload_template(&mut self, rel: &str, path: &Path) {
        let result = self.world.reload_template(rel);
        self.world_changed();
        let errors = match result {
            Ok(report) if report.templates.is_empty() => Vec::new(),
            Ok(report) => {
                let updated = juliet_core::quantity(report.updated.len(), "instance");
                self.status = format!("Reloaded {rel}: {updated} updated");
                Vec::new()
            }
            Err(e) => {
                // The previous version stays in use; the Problems panel shows why.
                self.status = format!("Reloading {rel} failed: {e}");
                e.into_all()
            }
        };
        self.file_read(path, errors, true);
    }

    /// Answers the open conflict: `reload` reads the file, else the edits are kept (the
    /// next save reports the file as changed on disk and does not overwrite it).
    /// For a deleted file, `reload` takes the entity out of the world, else it stays
    /// and the next save writes its file again. For an entity deleted in the editor,
    /// `reload` loads its file as it is now (the Delete is undone, and its undo step
    /// dropped), else the Delete stays and the next save deletes the file.
    pub fn resolve_conflict(&mut self, reload: bool) {
        self.world_changed();
        if let Some(conflict) = self.conflict.take() {
            if conflict.removed {
                if reload {
                    self.reload_removed(conflict.id, &conflict.path);
                } else {
                    self.status = format!("Kept the unsaved Delete of {}", conflict.id);
                }
                return;
            }
            match (reload, conflict.deleted) {
                (true, false) => self.reload_entity(conflict.id),
                (true, true) => self.remove_deleted(conflict.id),
                (false, deleted) => {
                    if deleted {
                        let kept = self.world.file_removed(conflict.id, true);
                        self.report("Keep", kept);
                    }
                    self.status = format!("Kept the unsaved edits of {}", conflict.id);
                }
            }
        }
    }

    pub(crate) fn entity_of_file(&self, path: &Path) -> Option<EntityId> {
        let target = normal(path);
        self.world
            .manager()
            .entities()
            .iter()
            .map(|e| e.id())
            .find(|&id| self.world.file_of(id).is_some_and(|f| normal(f) == target))
    }
}

/// `path` with links resolved, also when the file itself is gone (its folder is then
/// resolved), to compare paths that name one file differently.
pub(crate) fn normal(path: &Path) -> PathBuf {
    if let Ok(full) = std::fs::canonicalize(path) {
        return full;
    }
    match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => std::fs::canonicalize(dir)
            .map(|d| d.join(name))
            .unwrap_or_else(|_| path.to_path_buf()),
        _ => path.to_path_buf(),
    }
}

/// The project-relative path (with `/`) of `path` when it is a template file of the
/// project at `root`.
fn template_path(root: &Path, path: &Path) -> Option<String> {
    let root = normal(root);
    let full = normal(path);
    let rel = full.strip_prefix(&root).ok()?;
    let text: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let text = text.join("/");
    text.starts_with(&format!("{TEMPLATES_DIR}/"))
        .then_some(text)
}
