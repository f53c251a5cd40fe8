//! Where templates live in a project: [`TEMPLATES_DIR`], the project root of a world,
//! and reading an instance's template back after an invalidation; and what a reload
//! changed ([`ReloadReport`]).

use std::path::{Path, PathBuf};

use juliet_core::Error;

use super::cache::TemplateCache;
use crate::entity::EntityId;
use crate::entity_file::EntityFileData;

/// Where [`crate::create_template_from_entity`] writes templates, relative to the project root.
pub const TEMPLATES_DIR: &str = "Assets/Templates";

/// What [`crate::World::reload_template`] changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReloadReport {
    /// CRCs of the templates whose archetype changed: the reloaded one and the variants
    /// that inherit a changed property, parents first.
    pub templates: Vec<u32>,
    /// Instances that took a new value, in the order they were updated (not marked
    /// dirty: their sparse files do not change).
    pub updated: Vec<EntityId>,
}

/// The project root of a world at `world_dir`: the nearest of it and its ancestors
/// that holds an `Assets` directory (`demo/Assets/Worlds/Level01` gives `demo`), else
/// `world_dir` itself.
pub(crate) fn find_project_root(world_dir: &Path) -> PathBuf {
    world_dir
        .ancestors()
        .find(|dir| dir.join("Assets").is_dir())
        .unwrap_or(world_dir)
        .to_path_buf()
}

/// Reads the template of an instance back into the cache when it is no longer there
/// (after [`TemplateCache::invalidate`]), from the path its file named.
///
/// # Errors
/// As [`TemplateCache::get_or_load`].
pub(crate) fn reload_if_invalidated(
    templates: &mut TemplateCache,
    crc: u32,
    data: &EntityFileData,
) -> Result<(), Error> {
    if templates.find(crc).is_none() {
        if let Some(path) = &data.template {
            templates.get_or_load(path)?;
        }
    }
    Ok(())
}
