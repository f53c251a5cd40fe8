//! [`EditorApp`]: the world editor's state and its operations, each recorded in the
//! undo [`History`]. Drawing is in [`EditorApp::ui`] (and the panel modules); the
//! window, the file watcher and the event loop belong to the caller (`jasset edit`
//! uses eframe and notify; tests drive [`EditorApp::ui`] through egui_kittest).

use std::path::{Path, PathBuf};

use juliet_core::{Class, Error};
use juliet_entities::entity::EntityId;
use juliet_entities::glam::Vec3;
use juliet_entities::template::TEMPLATES_DIR;
use juliet_entities::world::create_template_from_entity;
use juliet_entities::world::{LoadReport, PropertyState, SavePlan, World};

use crate::inspector::{apply_edit, Edit};
use crate::outliner::Outliner;
use crate::problems::Problems;
use crate::top_down::TopDown;
use crate::undo::{Change, History, Step};

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
    pub(crate) world: World,
    pub(crate) history: History,
    pub(crate) selected: Option<EntityId>,
    pub(crate) filter: String,
    pub(crate) group_by: GroupBy,
    /// Template paths (project-relative) found under `Assets/Templates`.
    pub(crate) template_paths: Vec<String>,
    pub(crate) browser_selected: Option<String>,
    pub(crate) spawn_position: [f32; 3],
    /// The name being typed for "Create template from entity", while the prompt is open.
    pub(crate) create_prompt: Option<String>,
    pub(crate) add_kind: Option<&'static Class>,
    pub(crate) save_dialog: bool,
    pub(crate) conflict: Option<Conflict>,
    pub(crate) status: String,
    pub(crate) title: String,
    pub(crate) kinds: Vec<&'static Class>,
    /// What the next save does ([`World::save_plan`]), worked out again after a change.
    plan: Option<SavePlan>,
    /// The entities whose values changed since `plan` was made (an edit in the
    /// inspector, a marker dragged): only their steps are planned again.
    replan: Vec<EntityId>,
    /// Text typed in the inspector and not committed yet (as of the last frame).
    pub(crate) pending_text: Option<Edit>,
    /// The problems of the world's files, and the files that did not load.
    pub(crate) problems: Problems,
    /// The outliner's rows and folded groups.
    pub(crate) outliner: Outliner,
    /// The top-down view's zoom, pan and drag.
    pub(crate) top_down: TopDown,
}

impl EditorApp {
    /// An editor over `world`. The kinds "Add entity" offers are the world's registry's.
    /// Unless the world has an id prefix already (loaded with
    /// [`LoadOptions::id_prefix`](juliet_entities::LoadOptions::id_prefix), which also
    /// gives files without `EntityID` ids of it), it draws a random one
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
        kinds.sort_by_key(|c| c.name());
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
            replan: Vec::new(),
            pending_text: None,
            problems: Problems::default(),
            outliner: Outliner::default(),
            top_down: TopDown::default(),
        };
        app.refresh_templates();
        app
    }

    /// An editor over `world`, as [`EditorApp::new`], whose Problems panel lists the
    /// errors and warnings of `report` (the world's load) and whose outliner lists the
    /// files that did not load ([`World::untouched_files`]).
    pub fn with_load_report(world: World, report: &LoadReport) -> EditorApp {
        let mut app = EditorApp::new(world);
        app.problems = Problems::from_report(report, app.world.untouched_files());
        app
    }

    /// The world.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, mutably (changes made here are not in the undo history).
    pub fn world_mut(&mut self) -> &mut World {
        self.world_changed();
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

    /// Whether a save would write or delete anything. While an edit is under way (one
    /// drag or typing session, the history's step still open) it is, without the plan
    /// being worked out again at each frame (it costs what a save costs without the
    /// writes); the plan is worked out when the edit ends.
    pub fn is_unsaved(&mut self) -> bool {
        if self.plan.is_none() && self.history.is_open() {
            return true;
        }
        !self.save_plan().is_empty()
    }

    /// What the next save does: [`World::save_plan`], kept until the next change (and
    /// brought up to date entity by entity after edits of values, [`World::replan`]).
    pub fn save_plan(&mut self) -> &SavePlan {
        let changed = std::mem::take(&mut self.replan);
        if let Some(plan) = self.plan.as_mut() {
            if !changed.is_empty() && !self.world.replan(plan, &changed) {
                self.plan = None;
            }
        }
        self.plan.get_or_insert_with(|| self.world.save_plan())
    }

    /// The world changed: the save plan and the outliner's rows are worked out again
    /// when next needed.
    pub(crate) fn world_changed(&mut self) {
        self.plan = None;
        self.replan.clear();
        self.outliner.invalidate();
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

    pub(crate) fn report<T>(&mut self, what: &str, result: Result<T, Error>) -> Option<T> {
        // A value may have changed: the plan must be worked out again. (What the
        // outliner shows changes only with the operations calling `world_changed`.)
        self.plan = None;
        self.replan.clear();
        self.status_of(what, result)
    }

    /// [`EditorApp::report`] of an edit of entity `id`'s values only: the plan is
    /// brought up to date for that entity alone.
    fn report_values_of<T>(
        &mut self,
        id: EntityId,
        what: &str,
        result: Result<T, Error>,
    ) -> Option<T> {
        if self.plan.is_some() && !self.replan.contains(&id) {
            self.replan.push(id);
        }
        self.status_of(what, result)
    }

    /// Puts what happened (`what`, or its failure) in the status line.
    fn status_of<T>(&mut self, what: &str, result: Result<T, Error>) -> Option<T> {
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
                    .properties()
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
                if self
                    .report_values_of(id, &format!("Set {key}"), result)
                    .is_some()
                {
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
                self.world_changed();
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
        self.world_changed();
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
            format!("Spawn {}", crate::inspector::template_name(path)),
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
        self.created(format!("Add {}", class.name()), id);
        id
    }

    /// "Delete": removes entity `id`; its file goes at the next save.
    pub fn delete(&mut self, id: EntityId) {
        self.world_changed();
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
        self.world_changed();
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
        self.step_history("Undo", History::undo);
    }

    /// Redoes the last undone step.
    pub fn redo(&mut self) {
        self.step_history("Redo", History::redo);
    }

    /// Takes a step through the history with `step` ([`History::undo`] or
    /// [`History::redo`]), says so in the status line as `verb` and the step's name, and
    /// drops the selection when its entity is gone.
    fn step_history(
        &mut self,
        verb: &str,
        step: fn(&mut History, &mut World) -> Result<Option<String>, Error>,
    ) {
        // The world changes under the inspector: what was typed is stale.
        self.pending_text = None;
        let result = step(&mut self.history, &mut self.world);
        self.world_changed();
        if let Some(Some(name)) = self.report(verb, result) {
            self.status = format!("{verb} {name}");
        }
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
        self.world_changed();
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
