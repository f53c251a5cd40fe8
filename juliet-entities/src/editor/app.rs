//! [`EditorApp`]: the world editor's state and its operations, each recorded in the
//! undo [`History`]. Drawing is in [`EditorApp::ui`] (and the panel modules); the
//! window, the file watcher and the event loop belong to the caller (`jasset edit`
//! uses eframe and notify; tests drive [`EditorApp::ui`] through egui_kittest).

use std::path::{Path, PathBuf};

use glam::Vec3;
use juliet_core::{Class, Error};

use super::inspector::{apply_edit, Edit};
use super::undo::{Change, History, Step};
use crate::entity::EntityId;
use crate::template::TEMPLATES_DIR;
use crate::world::create_template_from_entity;
use crate::world::{PropertyState, SavePlan, World};

/// How the outliner groups entities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupBy {
    /// By kind (class name).
    Kind,
    /// By template (file stem; "no template" for standalone entities).
    Template,
}

/// What a save will do to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PendingFile {
    /// The file will be written.
    Write(PathBuf),
    /// The file will be deleted.
    Delete(PathBuf),
}

/// A file changed or deleted on disk while its entity has unsaved edits, or changed
/// while its entity's Delete is unsaved: the editor asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The entity.
    pub id: EntityId,
    /// Its file.
    pub path: PathBuf,
    /// Whether the file was deleted (else it changed).
    pub deleted: bool,
    /// Whether the entity was deleted in the editor, the file not yet deleted by a save
    /// (the unsaved edit is the Delete).
    pub removed: bool,
}

/// The world editor: a world, its undo history and what the panels show.
#[derive(Debug)]
pub struct EditorApp {
    pub(super) world: World,
    pub(super) history: History,
    pub(super) selected: Option<EntityId>,
    pub(super) filter: String,
    pub(super) group_by: GroupBy,
    /// Template paths (project-relative) found under `Assets/Templates`.
    pub(super) template_paths: Vec<String>,
    pub(super) browser_selected: Option<String>,
    pub(super) spawn_position: [f32; 3],
    /// The name being typed for "Create template from entity", while the prompt is open.
    pub(super) create_prompt: Option<String>,
    pub(super) add_kind: Option<&'static Class>,
    pub(super) save_dialog: bool,
    pub(super) conflict: Option<Conflict>,
    pub(super) status: String,
    pub(super) title: String,
    pub(super) kinds: Vec<&'static Class>,
    /// What the next save does ([`World::save_plan`]), worked out again after a change.
    plan: Option<SavePlan>,
    /// Text typed in the inspector and not committed yet (as of the last frame).
    pub(super) pending_text: Option<Edit>,
}

impl EditorApp {
    /// An editor over `world`. The kinds "Add entity" offers are the world's registry's.
    /// Unless the world has an id prefix already (loaded with
    /// [`LoadOptions::id_prefix`](crate::LoadOptions::id_prefix), which also gives files
    /// without `EntityID` ids of it), it draws a random one
    /// ([`World::use_random_id_prefix`]): entities added in this session get ids that
    /// another person's session never draws.
    pub fn new(mut world: World) -> EditorApp {
        if world.manager().id_prefix() == 0 {
            world.use_random_id_prefix();
        }
        let mut kinds: Vec<&'static Class> = world
            .manager()
            .registry()
            .map(|r| r.classes().to_vec())
            .unwrap_or_default();
        kinds.sort_by_key(|c| c.name);
        let mut app = EditorApp {
            world,
            history: History::new(),
            selected: None,
            filter: String::new(),
            group_by: GroupBy::Kind,
            template_paths: Vec::new(),
            browser_selected: None,
            spawn_position: [0.0; 3],
            create_prompt: None,
            add_kind: kinds.first().copied(),
            save_dialog: false,
            conflict: None,
            status: String::new(),
            title: String::new(),
            kinds,
            plan: None,
            pending_text: None,
        };
        app.refresh_templates();
        app
    }

    /// The world.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, mutably (changes made here are not in the undo history).
    pub fn world_mut(&mut self) -> &mut World {
        self.plan = None;
        &mut self.world
    }

    /// The selected entity.
    pub fn selected(&self) -> Option<EntityId> {
        self.selected
    }

    /// Selects entity `id` (or nothing). Text typed in the inspector and not committed
    /// yet (a `u64` or a game codec's field being typed in) is committed first, as one
    /// undo step.
    pub fn select(&mut self, id: Option<EntityId>) {
        if self.selected != id {
            self.commit_pending_text();
        }
        self.selected = id;
    }

    /// Commits the text typed in the inspector and not committed yet, if any.
    pub fn commit_pending_text(&mut self) {
        if let Some(edit) = self.pending_text.take() {
            if self.world.manager().contains(edit.entity()) {
                self.perform(&edit);
                self.close_step();
            }
        }
    }

    /// The last message (what an operation did, or why it failed).
    pub fn status(&self) -> &str {
        &self.status
    }

    /// The file-changed question, while one is open.
    pub fn conflict(&self) -> Option<&Conflict> {
        self.conflict.as_ref()
    }

    /// The window title: the world's folder name, with `*` while anything is unsaved.
    pub fn title(&mut self) -> String {
        let name = self.world.root().file_name().map_or_else(
            || self.world.root().display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let mark = if self.is_unsaved() { "* " } else { "" };
        format!("{mark}{name} - jasset edit")
    }

    /// Whether a save would write or delete anything.
    pub fn is_unsaved(&mut self) -> bool {
        !self.save_plan().is_empty()
    }

    /// What the next save does: [`World::save_plan`], kept until the next change.
    pub fn save_plan(&mut self) -> &SavePlan {
        self.plan.get_or_insert_with(|| self.world.save_plan())
    }

    /// Forgets the plan: the next look at it works it out again.
    pub(super) fn invalidate_plan(&mut self) {
        self.plan = None;
    }

    /// The files the next save writes (changed and new entities, under the names they
    /// will get) and deletes (removed entities): [`World::save_plan`]'s, so exactly what
    /// [`EditorApp::save`] then writes and deletes.
    pub fn pending_files(&mut self) -> Vec<PendingFile> {
        let plan = self.save_plan();
        let written = plan.written().map(|p| PendingFile::Write(p.to_path_buf()));
        let deleted = plan.deleted().iter().cloned().map(PendingFile::Delete);
        written.chain(deleted).collect()
    }

    /// Re-reads the list of templates under `Assets/Templates`.
    pub fn refresh_templates(&mut self) {
        let dir = self.world.project_root().join(TEMPLATES_DIR);
        let mut paths = Vec::new();
        collect_templates(&dir, TEMPLATES_DIR, &mut paths);
        paths.sort();
        self.template_paths = paths;
    }

    /// The project-relative paths of the templates the browser lists.
    pub fn template_paths(&self) -> &[String] {
        &self.template_paths
    }

    fn report<T>(&mut self, what: &str, result: Result<T, Error>) -> Option<T> {
        self.plan = None;
        match result {
            Ok(value) => {
                self.status = what.to_owned();
                Some(value)
            }
            Err(e) => {
                self.status = format!("{what} failed: {e}");
                None
            }
        }
    }

    /// The states of properties `keys` of entity `id` (keys it lacks are left out).
    fn states(&self, id: EntityId, keys: &[String]) -> Vec<(String, PropertyState)> {
        keys.iter()
            .filter_map(|k| Some((k.clone(), self.world.property_state(id, k).ok()?)))
            .collect()
    }

    /// The property changes between `before` and the states now.
    fn changes_since(&self, id: EntityId, before: Vec<(String, PropertyState)>) -> Vec<Change> {
        before
            .into_iter()
            .filter_map(|(key, before)| {
                let after = self.world.property_state(id, &key).ok()?;
                (after != before).then_some(Change::Property {
                    id,
                    key,
                    before,
                    after,
                })
            })
            .collect()
    }

    /// Every key of entity `id`'s class.
    fn all_keys(&self, id: EntityId) -> Vec<String> {
        self.world
            .manager()
            .entity(id)
            .map(|e| {
                e.class()
                    .properties
                    .iter()
                    .map(|p| p.key.to_owned())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Makes an inspector edit, recorded in the history.
    pub fn perform(&mut self, edit: &Edit) {
        let id = edit.entity();
        match edit {
            Edit::Set { key, .. } => {
                let Ok(before) = self.world.property_state(id, key) else {
                    return;
                };
                let result = apply_edit(&mut self.world, edit);
                if self.report(&format!("Set {key}"), result).is_some() {
                    if let Ok(after) = self.world.property_state(id, key) {
                        self.history.push_property(id, key, before, after);
                    }
                }
            }
            Edit::Revert { key, .. } => {
                let before = self.states(id, std::slice::from_ref(key));
                let result = apply_edit(&mut self.world, edit);
                if self.report(&format!("Revert {key}"), result).is_some() {
                    let changes = self.changes_since(id, before);
                    self.push(format!("Revert {key}"), changes);
                }
            }
            Edit::RevertAll { .. } => {
                let before = self.states(id, &self.all_keys(id));
                let result = apply_edit(&mut self.world, edit);
                if self.report("Revert all to template", result).is_some() {
                    let changes = self.changes_since(id, before);
                    self.push("Revert all to template".into(), changes);
                }
            }
            Edit::Apply { keys, template, .. } => {
                let before = self.states(id, keys);
                let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
                let result = self.world.apply_to_template(id, &keys, template);
                self.plan = None;
                let what = format!("Apply to {template}");
                if let Some(report) = self.report(&what, result) {
                    let mut changes = vec![Change::Template {
                        path: report.template,
                        before: Some(report.previous),
                        after: Some(report.written),
                    }];
                    changes.extend(self.changes_since(id, before));
                    self.push(what, changes);
                }
            }
        }
    }

    fn push(&mut self, name: String, changes: Vec<Change>) {
        if !changes.is_empty() {
            self.history.push(Step { name, changes });
        }
    }

    /// Ends the current property step (the next edit of the same property is a new undo
    /// step): called when no field is being dragged or typed in.
    pub fn close_step(&mut self) {
        self.history.close();
    }

    /// Records a new entity `id` as one step named `name`, and selects it.
    fn created(&mut self, name: String, id: EntityId) {
        self.plan = None;
        match self.world.snapshot_entity(id) {
            Ok(after) => self.push(
                name.clone(),
                vec![Change::Entity {
                    id,
                    before: None,
                    after: Some(after),
                }],
            ),
            Err(e) => {
                self.select(Some(id));
                self.status = format!("{name}: {e}");
                return;
            }
        }
        self.select(Some(id));
        self.status = format!("{name}: {id}");
    }

    /// "Spawn instance": a new instance of the template at project-relative `path`, at
    /// `position`. Returns its id.
    pub fn spawn(&mut self, path: &str, position: Vec3) -> Option<EntityId> {
        let delta = format!("Position: {}, {}, {}\n", position.x, position.y, position.z);
        let result = self.world.instantiate(path, delta.as_str());
        let id = self.report("Spawn instance", result)?;
        self.created(
            format!("Spawn {}", super::inspector::template_name(path)),
            id,
        );
        Some(id)
    }

    /// "Add entity": a new standalone entity of `class` at the origin. Returns its id.
    pub fn add_entity(&mut self, class: &'static Class) -> EntityId {
        let id = self.world.manager_mut().allocate_entity(class);
        if let Some(e) = self.world.manager_mut().entity_mut(id) {
            e.mark_dirty();
        }
        self.created(format!("Add {}", class.name), id);
        id
    }

    /// "Delete": removes entity `id`; its file goes at the next save.
    pub fn delete(&mut self, id: EntityId) {
        let snapshot = self.world.snapshot_entity(id);
        let Some(before) = self.report("Delete", snapshot) else {
            return;
        };
        let removed = self.world.remove_world_entity(id);
        if self.report(&format!("Delete {id}"), removed).is_some() {
            self.push(
                format!("Delete {id}"),
                vec![Change::Entity {
                    id,
                    before: Some(before),
                    after: None,
                }],
            );
            if self.selected == Some(id) {
                self.selected = None;
            }
        }
    }

    /// "Create template from entity": writes `Assets/Templates/<name>.jasset` from entity
    /// `id` (position at the origin) and makes the entity an instance of it. Returns the
    /// template's path.
    pub fn create_template(&mut self, id: EntityId, name: &str) -> Option<String> {
        let snapshot = self.world.snapshot_entity(id);
        let before = self.report("Create template", snapshot)?;
        let result = create_template_from_entity(&mut self.world, id, name);
        self.report(&format!("Create template {name}"), result)?;
        let path = format!("{TEMPLATES_DIR}/{name}.jasset");
        let full = self.world.project_root().join(&path);
        let read = std::fs::read(&full).map_err(|e| Error::io(&full, e));
        let bytes = self.report(&format!("Create template {name}"), read)?;
        let after = self.world.snapshot_entity(id).ok();
        // The template first: a redo writes the file before the entity refers to it, an
        // undo (in reverse) detaches the entity before the file goes.
        self.push(
            format!("Create template {name}"),
            vec![
                Change::Template {
                    path: path.clone(),
                    before: None,
                    after: Some(bytes),
                },
                Change::Entity {
                    id,
                    before: Some(before),
                    after,
                },
            ],
        );
        self.refresh_templates();
        self.browser_selected = Some(path.clone());
        Some(path)
    }

    /// Undoes the last step.
    pub fn undo(&mut self) {
        // The world changes under the inspector: what was typed is stale.
        self.pending_text = None;
        let result = self.history.undo(&mut self.world);
        self.plan = None;
        if let Some(Some(name)) = self.report("Undo", result) {
            self.status = format!("Undo {name}");
        }
        self.after_history();
    }

    /// Redoes the last undone step.
    pub fn redo(&mut self) {
        self.pending_text = None;
        let result = self.history.redo(&mut self.world);
        self.plan = None;
        if let Some(Some(name)) = self.report("Redo", result) {
            self.status = format!("Redo {name}");
        }
        self.after_history();
    }

    fn after_history(&mut self) {
        if self
            .selected
            .is_some_and(|id| !self.world.manager().contains(id))
        {
            self.selected = None;
        }
        self.refresh_templates();
    }

    /// Saves the world: writes the changed entities, deletes the removed ones' files.
    /// Returns the files written and deleted.
    pub fn save(&mut self) -> Option<Vec<PendingFile>> {
        self.commit_pending_text();
        let saved = self.world.save_world();
        let report = self.report("Save", saved)?;
        let mut files: Vec<PendingFile> = report
            .written
            .iter()
            .cloned()
            .map(PendingFile::Write)
            .collect();
        files.extend(report.deleted.iter().cloned().map(PendingFile::Delete));
        self.status = format!(
            "Saved: {} written, {} deleted{}",
            report.written.len(),
            report.deleted.len(),
            if report.skipped.is_empty() {
                String::new()
            } else {
                format!(
                    ", {} skipped (changed on disk or read-only)",
                    report.skipped.len()
                )
            }
        );
        Some(files)
    }

    /// Files changed, added or deleted on disk (from a file watcher). A template is
    /// reloaded (its instances follow) and the template list read again. A changed
    /// entity file is read again, an added one (under `Entities/`) loads as a new
    /// entity, and a deleted one's entity leaves the world (its undo steps with it),
    /// unless the entity has unsaved edits: then [`EditorApp::conflict`] asks; so it
    /// does when the file of an entity deleted in the editor (not saved since) changes.
    /// Files the world itself wrote (same bytes) change nothing.
    pub fn files_changed(&mut self, paths: &[PathBuf]) {
        self.plan = None;
        let root = self.world.project_root().to_path_buf();
        for path in paths {
            if path.extension().is_none_or(|e| e != "jasset") {
                continue;
            }
            if let Some(rel) = template_path(&root, path) {
                self.refresh_templates();
                if path.exists() && self.world.templates().get(&rel).is_some() {
                    let result = self.world.reload_template(&rel);
                    self.plan = None;
                    if let Some(report) = self.report(&format!("Reloaded {rel}"), result) {
                        if !report.updated.is_empty() {
                            self.status = format!(
                                "Reloaded {rel}: {} updated",
                                crate::plural::count(report.updated.len(), "instance")
                            );
                        }
                    }
                }
                continue;
            }
            let Some(id) = self.entity_of_file(path) else {
                if let Some(id) = self.removed_entity_of_file(path) {
                    // A file deleted on disk agrees with the Delete: nothing to ask.
                    if path.is_file() {
                        self.removed_file_changed(id, path);
                    }
                } else if path.is_file() && self.is_entity_file(path) {
                    let result = self.world.load_added_file(path);
                    let what = format!("Loaded {}", path.display());
                    if let Some(id) = self.report(&what, result) {
                        self.status = format!("{what}: {id}");
                    }
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
        if let Some(loaded) = self.report(&format!("Reloaded {} from disk", path.display()), result)
        {
            self.history.forget_entity(id);
            self.history.forget_entity(loaded);
            self.select(Some(loaded));
            self.status = format!("Reloaded {loaded} from disk: the Delete is undone");
        }
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
    /// steps that change the entity are dropped ([`History::forget_entity`]); the
    /// others stay.
    pub fn reload_entity(&mut self, id: EntityId) {
        let result = self.world.reload_entity(id);
        if let Some(true) = self.report(&format!("Reloaded {id} from disk"), result) {
            self.history.forget_entity(id);
        }
    }

    /// Answers the open conflict: `reload` reads the file, else the edits are kept (the
    /// next save reports the file as changed on disk and does not overwrite it).
    /// For a deleted file, `reload` takes the entity out of the world, else it stays
    /// and the next save writes its file again. For an entity deleted in the editor,
    /// `reload` loads its file as it is now (the Delete is undone, and its undo step
    /// dropped), else the Delete stays and the next save deletes the file.
    pub fn resolve_conflict(&mut self, reload: bool) {
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

    fn entity_of_file(&self, path: &Path) -> Option<EntityId> {
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
fn normal(path: &Path) -> PathBuf {
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

/// Appends the `.jasset` files under `dir` (project-relative `rel`) to `out`.
fn collect_templates(dir: &Path, rel: &str, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if path.is_dir() {
            collect_templates(&path, &format!("{rel}/{name}"), out);
        } else if name.ends_with(".jasset") {
            out.push(format!("{rel}/{name}"));
        }
    }
}
