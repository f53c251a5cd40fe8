//! Templates (prefabs) with sparse delta overrides: docs/design.md, section 7 (the
//! override rules are section 7.4).
//!
//! * A template is an ordinary entity `.jasset` file without `EntityID`, usually under
//!   `Assets/Templates/`, named by instances through a `Template` key holding its path
//!   relative to the project root ([`path`]: normalized and identified by its CRC-32).
//! * The [`TemplateCache`] reads and parses each template once and keeps its
//!   *archetype* (a value of its kind) in per-kind storage. A template may itself name
//!   a `Template` (a variant), to any depth; cycles are errors.
//! * [`instantiate_from_template`] copies the archetype straight into the instance's
//!   final slot and applies a [`Delta`]; a world loads instance files the same way, the
//!   file being the delta ([`crate::load_entity_with_templates`]).
//!   [`instantiate_many`] makes many instances of one template with one delta, its
//!   checks taken once per batch.
//! * Each instance keeps an [`OverrideSet`] (a bitset over its class's property table,
//!   beside the derived struct): the properties its file named, those set through the
//!   reflection API, and those found different from the template at a save. Saving
//!   writes only those ([`save_instance`]); [`overrides()`] lists them with both values
//!   (the inspector's diff); [`revert_property`] and [`revert_to_template`] clear them.
//! * [`World::reload_template`] re-reads a changed template and gives every instance
//!   (of it and of its variants) the new value of each property it does not override.
//! * [`crate::create_template_from_entity`] turns an entity into a new template and makes the
//!   entity an instance of it.
//!
//! ```
//! use juliet_entities::prelude::*;
//! use juliet_entities::kinds::Inert;
//!
//! let project = tempfile::tempdir()?;
//! let templates = project.path().join("Assets/Templates");
//! let entities = project.path().join("Assets/Worlds/Level01/Entities");
//! std::fs::create_dir_all(&templates)?;
//! std::fs::create_dir_all(&entities)?;
//! std::fs::write(
//!     templates.join("RockLarge.jasset"),
//!     "; entity_type: Inert\nMeshAsset: Assets/Meshes/Rock_01.obj\nMass: 250.0\nHealth: 100.0\n",
//! )?;
//! std::fs::write(
//!     entities.join("RockLarge_042.jasset"),
//!     "; template: Assets/Templates/RockLarge.jasset\n\
//!      EntityID: 0x0000000000000042\nPosition: 142.5, 12.0, -84.2\nHealth: 50.0\n",
//! )?;
//!
//! let world_dir = project.path().join("Assets/Worlds/Level01");
//! let (mut world, report) = World::load(&world_dir, &LoadOptions::default())?;
//! assert!(report.is_clean(), "{report:?}");
//! let rock = EntityId(0x42);
//! let inert = world.manager().get::<Inert>(rock).unwrap();
//! assert_eq!((inert.mass, inert.health), (250.0, 50.0)); // inherited, overridden
//!
//! // The inspector's view: one overridden property, with both values.
//! let diff = world.overrides(rock)?;
//! assert_eq!((diff[0].key, diff[0].instance.as_str(), diff[0].template.as_str()),
//!            ("Health", "50.0", "100.0"));
//! world.revert_property(rock, "Health")?;
//! assert_eq!(world.manager().get::<Inert>(rock).unwrap().health, 100.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod batch;
mod cache;
mod delta;
mod instance;
pub mod path;
mod project;
mod property_delta;

pub use crate::entity::overrides::OverrideSet;
pub use batch::instantiate_many;
pub use cache::{
    CachedTemplate, TemplateCache, TemplateChange, TemplateRef, DEFAULT_MAX_TEMPLATE_SIZE,
    MAX_TEMPLATE_DEPTH,
};
pub use delta::{instantiate_from_template, Delta, DeltaTarget};
pub use instance::{
    overrides, revert_property, revert_to_template, save_instance, PropertyOverride,
};
pub use path::{normalize_template_path, template_crc, INVALID_TEMPLATE_CRC};
pub use project::{ReloadReport, TEMPLATES_DIR};
pub use property_delta::PropertyDelta;

pub(crate) use instance::propagate;
pub(crate) use instance::{allocate_instance, mark_file_overrides, resolve_for_instance};
pub(crate) use project::{find_project_root, reload_if_invalidated};

#[cfg(doc)]
use crate::World;
