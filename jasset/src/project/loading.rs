//! What the tool loads through the templates runtime: worlds, one file alone (an
//! instance with its template chain, a template), templates reloaded, the canonical text
//! of one file and an instance's overrides.

use std::path::Path;

use juliet_core::{Error, Registry, TokenBuffer, Warning};
use juliet_entities::entity::EntityId;
use juliet_entities::fsio::Fingerprint;
use juliet_entities::load::{load_entity_with_templates, save_entity, EntityFileData};
use juliet_entities::manager::EntityManager;
use juliet_entities::patch::{edit_entity_file, EntityFile, How};
use juliet_entities::template::{overrides, save_instance, TemplateCache};
use juliet_entities::world::{is_newer_version, LoadOptions, LoadReport, World, WorldLoadError};

use super::*;

/// Loads the world at `dir` (its `Entities/` files) in the project at `root` (template
/// paths resolve against it; found from `dir` when `None`).
///
/// # Errors
/// As [`World::load`].
pub(crate) fn load_world_dir(
    root: Option<&Path>,
    dir: &Path,
) -> Result<(World, LoadReport), WorldLoadError> {
    load_world_in(root, dir, None)
}

/// [`load_world_dir`] with the classes of `registry` (`None`: [`Registry::global`]).
///
/// # Errors
/// As [`World::load`].
pub(super) fn load_world_in(
    root: Option<&Path>,
    dir: &Path,
    registry: Option<&'static Registry>,
) -> Result<(World, LoadReport), WorldLoadError> {
    let options = LoadOptions {
        project_root: root.map(Path::to_path_buf),
        registry,
        ..LoadOptions::default()
    };
    World::load(dir, &options)
}

/// One file loaded alone.
#[derive(Debug)]
pub(crate) struct SingleFile {
    /// The manager that holds it.
    pub manager: EntityManager,
    /// The templates of its chain.
    pub templates: TemplateCache,
    /// Its id (a session id for a file without `EntityID`, such as a template).
    pub id: EntityId,
    /// Whether the file holds an `EntityID`: its canonical text has none otherwise
    /// ([`single_text`]), so that no writer adds a session id to it.
    pub has_id: bool,
    /// Its template path and unknown keys.
    pub data: EntityFileData,
    /// Its warnings.
    pub warnings: Vec<Warning>,
    /// What the file held when it was read.
    pub fingerprint: Fingerprint,
    /// Whether its `ClassVersion` or `BaseVersion` is newer than this build's.
    pub newer: bool,
}

impl SingleFile {
    /// The file's canonical text ([`single_text`]; without `EntityID` when the file has
    /// none).
    ///
    /// # Errors
    /// As [`single_text`].
    pub(crate) fn canonical_text(&mut self) -> Result<String, Error> {
        let without_id = !self.has_id;
        single_text(
            &mut self.manager,
            &self.templates,
            self.id,
            &self.data,
            without_id,
        )
    }

    /// The file (at `path`, whose bytes are `original`) edited in place to hold `text`,
    /// its canonical text at the current versions ([`edit_entity_file`], for `how`), or
    /// `text` where the edit would not read back as the entity.
    ///
    /// # Errors
    /// A tokenizer error in the file; the error of loading it.
    pub(crate) fn edited(
        &mut self,
        path: &Path,
        original: &[u8],
        text: String,
        how: How,
    ) -> Result<Vec<u8>, Error> {
        let file = EntityFile {
            manager: &self.manager,
            id: self.id,
            path,
            original,
            unknown: &self.data.unknown,
            without_id: !self.has_id,
        };
        edit_entity_file(&file, &mut self.templates, text, how)
    }
}

/// Whether `w` is the load's warning that a file has no `EntityID` (its entity got one
/// for the session).
pub(super) fn is_session_id(w: &Warning) -> bool {
    w.location.line == 0 && w.key.as_deref() == Some("EntityID")
}

/// Loads one file alone with the classes of `registry`: a template (no `EntityID`
/// expected; a variant loads over its parent's archetype) or a loose entity file,
/// resolving templates against `root` (the file's folder when `None`).
///
/// # Errors
/// The file's first error (an error inside a template of its chain is reported at its
/// `Template` key).
pub(crate) fn load_single_file(
    root: Option<&Path>,
    path: &Path,
    is_template: bool,
    registry: &'static Registry,
) -> Result<SingleFile, Error> {
    let bytes = read(path, root)?;
    load_single_bytes(root, path, &bytes, is_template, registry)
}

/// [`load_single_file`] of `bytes`, the text of the file at `path` (an editor's buffer,
/// which may differ from the file on disk).
///
/// # Errors
/// As [`load_single_file`].
pub(super) fn load_single_bytes(
    root: Option<&Path>,
    path: &Path,
    bytes: &[u8],
    is_template: bool,
    registry: &'static Registry,
) -> Result<SingleFile, Error> {
    let templates = templates_for(root, path, registry);
    load_single_with(templates, path, bytes, is_template, registry)
}

/// An empty template cache for the file at `path` in the project at `root` (templates
/// resolve against the file's folder when `None`), with the classes of `registry`.
pub(crate) fn templates_for(
    root: Option<&Path>,
    path: &Path,
    registry: &'static Registry,
) -> TemplateCache {
    let project = root
        .map(Path::to_path_buf)
        .or_else(|| path.parent().map(Path::to_path_buf))
        .unwrap_or_default();
    TemplateCache::with_registry(project, registry)
}

/// [`load_single_bytes`] with the templates of `templates` (made by [`templates_for`]
/// with `registry`; it may hold templates given as text: an editor's unsaved buffers).
///
/// # Errors
/// As [`load_single_file`].
pub(crate) fn load_single_with(
    mut templates: TemplateCache,
    path: &Path,
    bytes: &[u8],
    is_template: bool,
    registry: &'static Registry,
) -> Result<SingleFile, Error> {
    let fingerprint = Fingerprint::of(bytes);
    let mut manager = EntityManager::with_registry(registry);
    let loaded = load_entity_with_templates(
        &mut TokenBuffer::new(),
        &mut manager,
        &mut templates,
        path,
        bytes,
    )?;
    let mut warnings = loaded.warnings;
    let has_id = !warnings.iter().any(is_session_id);
    if is_template {
        // Templates have no EntityID by design.
        warnings.retain(|w| !is_session_id(w));
    }
    Ok(SingleFile {
        manager,
        templates,
        id: loaded.id,
        has_id,
        data: loaded.data,
        newer: warnings.iter().any(is_newer_version),
        warnings,
        fingerprint,
    })
}

/// Loads the template at project-relative `rel` through a template cache (its chain
/// first), returning its warnings.
///
/// # Errors
/// The template's first error (including a broken chain or a cycle).
pub(crate) fn load_template(root: &Path, rel: &str) -> Result<Vec<Warning>, Error> {
    let mut cache = TemplateCache::new(root);
    let warnings = cache.get_or_load(rel)?.cached().warnings().to_vec();
    Ok(warnings)
}

/// Re-reads the template `rel` (project-relative) after its file changed, and gives every
/// instance of `world` the new value of each property it does not override (marking
/// those instances dirty). Returns how many instances changed.
///
/// # Errors
/// The template's error.
pub(crate) fn reload_template(world: &mut World, rel: &str) -> Result<usize, Error> {
    Ok(world.reload_template(rel)?.updated.len())
}

/// The canonical text of the entity `id` held by `manager`: an instance sparsely
/// (its overrides only), a standalone entity in full; without `EntityID` when
/// `without_id` (a file that has none, such as a template).
///
/// # Errors
/// As [`save_entity`] and [`save_instance`].
pub(crate) fn single_text(
    manager: &mut EntityManager,
    templates: &TemplateCache,
    id: EntityId,
    data: &EntityFileData,
    without_id: bool,
) -> Result<String, Error> {
    let mut out = String::new();
    if manager.entity(id).and_then(|e| e.template()).is_some() {
        save_instance(manager, templates, id, data, &mut out)?;
    } else {
        save_entity(manager, id, data, &mut out)?;
    }
    if without_id {
        out = juliet_entities::load::without_entity_id(&out, id);
    }
    Ok(out)
}

/// The keys an instance overrides (docs/design.md, section 7.4), in declaration order: the
/// recorded overrides and the properties whose value differs from the template's.
/// Empty for standalone entities.
pub(crate) fn overridden_keys(view: &EntityView<'_>) -> Vec<&'static str> {
    let is_instance = view
        .manager
        .entity(view.id)
        .is_some_and(|e| e.template().is_some());
    match (is_instance, view.templates) {
        (true, Some(templates)) => overrides(view.manager, templates, view.id)
            .map(|list| list.into_iter().map(|o| o.key).collect())
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}
