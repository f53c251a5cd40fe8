//! # juliet-entities
//!
//! The entity runtime of Juliet-rs: an [`EntityManager`] that keeps base records in one
//! contiguous array and each kind's derived structs in one contiguous array of their own
//! type, in-place loading of `.jasset` entity files, [`World`]s stored as one file
//! per entity with dirty-only saving, and [`template`]s (prefabs) with sparse delta
//! overrides.
//!
//! The design is docs/design.md, sections 5 (the entity runtime), 6 (worlds) and 7
//! (templates), with the file format of section 2.
//!
//! ```
//! use juliet_entities::glam::Vec3;
//! use juliet_entities::prelude::*;
//! use juliet_entities::kinds::Inert;
//!
//! /// A game's own kind: a plain struct and a derive.
//! #[derive(Entity)]
//! struct Lamp {
//!     #[jasset(default = 1.0)]
//!     intensity: f32,
//!     color: Vec3,
//! }
//!
//! let dir = tempfile::tempdir()?;
//! let mut world = World::new(dir.path());
//! let rock = world.manager_mut().make_entity::<Inert>(Vec3::new(1.0, 0.0, -2.0));
//! world.manager_mut().get_mut::<Inert>(rock).unwrap().mass = 250.0;
//! let lamp = world.manager_mut().make_entity::<Lamp>(Vec3::Y);
//! let report = world.save_world()?;
//! assert_eq!(report.written.len(), 2); // Entities/<id as 16 hex digits>.jasset each
//!
//! // Systems iterate one kind's contiguous array.
//! assert_eq!(world.manager().slice::<Lamp>()[0].intensity, 1.0);
//!
//! let (loaded, report) = World::load(dir.path(), &LoadOptions::default())?;
//! assert!(report.is_clean());
//! assert_eq!(loaded.manager().get::<Inert>(rock).unwrap().mass, 250.0);
//! assert_eq!(loaded.manager().entity(lamp).unwrap().position(), Vec3::Y);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
// `unsafe` only in the modules that allow it below, each block with its `// SAFETY:`.
#![deny(unsafe_code)]

// The derive's generated code names `::juliet_entities::juliet_core`; this makes that
// path work inside this crate too (its stock kinds derive `Entity`).
extern crate self as juliet_entities;

/// The `glam` the runtime and the vector codecs are built with: positions are
/// `glam::Vec3`, and `Vec2`/`Vec3`/`Vec4` fields have codecs only in this version. Use
/// it as `juliet_entities::glam` rather than a `glam` dependency of your own, whose
/// version could differ (a field of another `glam`'s `Vec3` has no codec).
pub use glam;
pub use juliet_core;
/// `#[derive(Entity)]` and `#[derive(Codec)]` (the derive macros share their names with
/// the [`Entity`](struct@Entity) record and the [`juliet_core::Codec`] trait, in the macro namespace).
pub use juliet_derive::{Codec, Entity};

mod asset;
pub mod entity;
mod entity_file;
pub mod fsio;
pub mod kinds;
pub mod load;
pub mod manager;
pub mod patch;
mod pieces;
mod reference;
#[allow(unsafe_code)] // per-kind contiguous storage
pub mod storage;
pub mod template;
pub mod world;

/// The workspace README, whose "derive your first entity" example runs as a doctest.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

#[cfg(test)]
#[allow(unsafe_code)] // hand-written `Reflect` impls, as a test's own kinds
#[path = "../tests/support/mod.rs"]
mod support;

pub use asset::{AnyAsset, AssetKind, AssetPath};
pub use entity::{Entity, EntityId};
pub use fsio::{replace_if_unchanged, Fingerprint, ReplaceOutcome, SkipReason, Skipped};
pub use load::{
    load_entity, load_entity_with, load_entity_with_templates, save_entity, EntityFileData,
    LoadedEntity, ENTITY_ASSET_TYPE, ENTITY_BASE_VERSION,
};
pub use manager::{draw_id_prefix, EntityManager, InvariantViolation};
pub use reference::{AnyKind, EntityRef, RefKind};
pub use storage::KindStorage;
pub use template::{
    instantiate_from_template, instantiate_many, CachedTemplate, PropertyDelta, TemplateCache,
};
pub use world::{
    create_template_from_entity, Durability, LoadOptions, LoadReport, SavePlan, SaveReport, World,
    WorldLoadError,
};

/// What game code needs: `use juliet_entities::prelude::*;`.
pub mod prelude {
    pub use crate::asset::AssetPath;
    pub use crate::entity::{Entity, EntityId};
    pub use crate::manager::EntityManager;
    pub use crate::reference::EntityRef;
    pub use crate::template::{
        instantiate_from_template, instantiate_many, PropertyDelta, TemplateCache,
    };
    pub use crate::world::{create_template_from_entity, LoadOptions, World};
    pub use juliet_core::Reflect;
    pub use juliet_derive::{Codec, Entity};
}
