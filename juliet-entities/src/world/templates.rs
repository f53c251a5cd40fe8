//! The templates runtime on a [`World`]: the world's [`TemplateCache`], reflection
//! calls that need the template (inspector diff, revert), template reload with
//! propagation, and "Create Template from Entity" (docs/design.md, sections 7.5-7.8).

use std::fs;
use std::path::Path;

use glam::Vec3;
use juliet_core::{Archive, Error, ErrorKind};

use super::World;
use crate::entity::EntityId;
use crate::entity_file::write_base_keys;
use crate::template::{
    self, instantiate_from_template, Delta, PropertyOverride, ReloadReport, TemplateCache,
    TEMPLATES_DIR,
};

impl World {
    /// The project root `Template` paths are relative to: [`crate::LoadOptions`]'s
    /// `project_root`, else the nearest of the world directory and its ancestors that
    /// holds an `Assets` directory, else the world directory.
    pub fn project_root(&self) -> &Path {
        self.templates.project_root()
    }

    /// The world's template cache.
    pub fn templates(&self) -> &TemplateCache {
        &self.templates
    }

    /// The world's template cache, mutably (to load or add templates; reload through
    /// [`World::reload_template`] so that instances follow).
    pub fn templates_mut(&mut self) -> &mut TemplateCache {
        &mut self.templates
    }

    /// Spawns an instance of the template at project-relative `path` (docs/design.md,
    /// section 7.3), loading the template when needed: see [`instantiate_from_template`]. The
    /// new entity is saved (sparsely) at the next save.
    ///
    /// # Errors
    /// As [`TemplateCache::get_or_load`] and the delta's.
    pub fn instantiate<D: Delta + ?Sized>(
        &mut self,
        path: &str,
        delta: &D,
    ) -> Result<EntityId, Error> {
        let template = self.templates.get_or_load(path)?;
        instantiate_from_template(&mut self.manager, template, delta)
    }

    /// [`crate::EntityManager::set_property`] on the world's entity `id`: the property
    /// becomes an override (pinned, even when equal to the template's value).
    ///
    /// # Errors
    /// As [`crate::EntityManager::set_property`].
    pub fn set_property(&mut self, id: EntityId, key: &str, text: &str) -> Result<(), Error> {
        self.manager.set_property(id, key, text)
    }

    /// The overridden properties of instance `id` with the instance's and the
    /// template's values (see [`template::overrides`]).
    ///
    /// # Errors
    /// As [`template::overrides`].
    pub fn overrides(&self, id: EntityId) -> Result<Vec<PropertyOverride>, Error> {
        template::overrides(&self.manager, &self.templates, id)
    }

    /// Reverts property `key` of instance `id` to the template's value (see
    /// [`template::revert_property`]).
    ///
    /// # Errors
    /// As [`template::revert_property`].
    pub fn revert_property(&mut self, id: EntityId, key: &str) -> Result<(), Error> {
        template::revert_property(&mut self.manager, &self.templates, id, key)
    }

    /// Reverts instance `id` to its template, keeping its id and position (see
    /// [`template::revert_to_template`]).
    ///
    /// # Errors
    /// As [`template::revert_to_template`].
    pub fn revert_to_template(&mut self, id: EntityId) -> Result<(), Error> {
        template::revert_to_template(&mut self.manager, &self.templates, id)
    }

    /// Re-reads the changed template at project-relative `path` ([`TemplateCache::reload`])
    /// and gives every instance of it, and of its variants, the new value of each
    /// changed property that the instance does not override (docs/design.md, section 7.6), and
    /// the new default position when the instance's position is the template's. Their
    /// files, being sparse, hold only their overrides: they do not change, the instances
    /// are not marked dirty, and the next save leaves the files untouched. A property an
    /// instance changed directly since its last save keeps its value and becomes an
    /// override, which the next save writes.
    ///
    /// # Errors
    /// As [`TemplateCache::reload`]; nothing changes then.
    pub fn reload_template(&mut self, path: &str) -> Result<ReloadReport, Error> {
        let manager = &mut self.manager;
        let mut updated = Vec::new();
        let templates = self.templates.reload(path, |change| {
            updated.extend(template::propagate(manager, change));
        })?;
        Ok(ReloadReport { templates, updated })
    }
}

/// "Create Template from Entity" (docs/design.md, section 7.7): writes entity `id` as the
/// template `Assets/Templates/<name>.jasset` under the world's project root (kind,
/// position at the origin, every property's current value; no `EntityID`), loads it
/// into the world's cache, and turns the entity into an instance of it: its template
/// is the new one, it overrides nothing but its position, and it is dirty (the next
/// save writes it sparsely). Returns the template's CRC.
///
/// The new template stands alone: an entity that was an instance of another template
/// gives a template with all its values, not a variant.
///
/// # Errors
/// [`ErrorKind::NoSuchEntity`]; [`ErrorKind::Template`] for a name that is not a plain
/// file name (letters, digits, `_`, `-`, `.`, not starting with `.`) or a template
/// that exists already; [`ErrorKind::Io`] when the file cannot be written.
pub fn create_template_from_entity(
    world: &mut World,
    id: EntityId,
    name: &str,
) -> Result<u32, Error> {
    let path = format!("{TEMPLATES_DIR}/{name}.jasset");
    let refuse = |reason: &str| {
        Error::file(
            "",
            ErrorKind::Template {
                path: path.clone(),
                reason: reason.to_owned(),
            },
        )
    };
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !plain {
        return Err(refuse(
            "a template name is a file name: letters, digits, `_`, `-` and `.`, not starting with `.`",
        ));
    }
    let class = world
        .manager
        .entity(id)
        .ok_or_else(|| Error::file("", ErrorKind::NoSuchEntity(id.0)))?
        .class();
    let full = world.project_root().join(&path);
    if full.exists() || world.templates.get(&path).is_some() {
        return Err(refuse("a template with this name exists already"));
    }
    let mut text = String::new();
    write_base_keys(&mut text, None, class, None, Some(Vec3::ZERO))?;
    world
        .manager
        .save_derived(id, &mut Archive::saving(&mut text))?;
    let dir = full.parent().expect("a file in Assets/Templates");
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let sync = world.durability.sync();
    let outcome =
        crate::fsio::write_file(&full, crate::fsio::Expect::Absent, text.as_bytes(), sync)?;
    if let crate::fsio::ReplaceOutcome::Skipped(reason) = outcome {
        return Err(refuse(&reason.to_string()));
    }
    // Read back: the archetype is exactly what the file holds.
    let crc = world.templates.get_or_load(&path)?.crc();
    let entity = world.manager.entity_mut(id).expect("live");
    entity.set_template(Some(crc));
    entity.overrides.clear();
    entity.position_overridden = true;
    if let Some(record) = world.records.get_mut(&id) {
        record.data.template = Some(path);
    }
    Ok(crc)
}
