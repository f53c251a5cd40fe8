//! The entity-file format in one place (docs/design.md, section 2.4): the base-tier keys
//! and versions, reading the header ([`read_header`]), writing it
//! ([`write_base_keys`]), and the reserved-key check ([`check_class`]). Loading
//! (`crate::load`), templates, saves and the tool build on it.
//!
//! ```text
//! ; AssetType          Entity (also read: `entity_instance`)
//! ; BaseVersion        ENTITY_BASE_VERSION (alias `version`)
//! ; EntityID           0x + 16 hex digits (alias `id`)
//! ; Kind               the class name (aliases `class`, `entity_type`)
//! ; Template           optional template path: the file is an instance
//! ; Position           3 floats
//! ; ClassVersion       then the derived properties, written by the class
//! ...                  then the unknown keys, in their original order
//! ```

use glam::Vec3;
use juliet_core::{
    write_header, write_property, Class, Document, Error, ErrorKind, UnknownProperties,
};

use crate::entity::EntityId;

mod header;
mod reserved;

pub(crate) use header::{base_key_left, missing_kind, read_header, Header};
pub use reserved::base_key;
pub(crate) use reserved::check_class;

/// The engine's base-tier version (docs/design.md, section 2.4), written as
/// `BaseVersion`: it versions the keys this module reads, independently of each class's
/// `ClassVersion`.
pub const ENTITY_BASE_VERSION: u32 = 1;

/// The `AssetType` of entity files.
pub const ENTITY_ASSET_TYPE: &str = "Entity";

/// The base-tier keys, in canonical order, with their aliases (docs/design.md, section 2.5).
pub mod keys {
    use juliet_core::Key;

    /// `AssetType`.
    pub const ASSET_TYPE: Key = Key::new("AssetType");
    /// `BaseVersion` (alias `version`).
    pub const BASE_VERSION: Key = Key::new("BaseVersion");
    /// `EntityID` (alias `id`).
    pub const ENTITY_ID: Key = Key::new("EntityID");
    /// `Kind` (aliases `class`, `entity_type`).
    pub const KIND: Key = Key::new("Kind");
    /// `Template`.
    pub const TEMPLATE: Key = Key::new("Template");
    /// `Position`.
    pub const POSITION: Key = Key::new("Position");

    /// The base keys, in canonical order (without their aliases).
    pub const BASE: [Key; 6] = [
        ASSET_TYPE,
        BASE_VERSION,
        ENTITY_ID,
        KIND,
        TEMPLATE,
        POSITION,
    ];

    /// Aliases of `BaseVersion`.
    pub const BASE_VERSION_ALIASES: &[Key] = &[Key::new("version")];
    /// Aliases of `EntityID`.
    pub const ENTITY_ID_ALIASES: &[Key] = &[Key::new("id")];
    /// Aliases of `Kind`.
    pub const KIND_ALIASES: &[Key] = &[Key::new("class"), Key::new("entity_type")];
}

/// What an entity file holds besides the entity's fields, kept to be written back: the
/// template path and the keys no reader knew.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntityFileData {
    /// The `Template` path as written, if any (resolved by the templates runtime).
    pub template: Option<String>,
    /// Unknown keys, in file order (docs/design.md, section 2.6: they survive a round trip).
    pub unknown: UnknownProperties,
}

/// The keys an entity file of `class` may hold (base keys, then the class's): what an
/// unknown key is compared with for a "did you mean".
pub(crate) fn known_keys(class: &Class) -> Vec<&'static str> {
    keys::BASE
        .iter()
        .map(|k| k.name)
        .chain(class.known_keys())
        .collect()
}

/// An error about node `i` of `doc`, at its key.
pub(crate) fn located(doc: &Document<'_>, i: usize, kind: ErrorKind) -> Error {
    let n = doc.node(i);
    Error::new(doc.path(), n.line, n.column, kind).with_key(doc.key(i))
}

/// Writes the base keys in canonical order (docs/design.md, section 2.4): `AssetType`,
/// `BaseVersion`, then `EntityID`, `Template` and `Position` when given (a template has
/// no id; a sparse instance may leave its position to its template), with `Kind`
/// between the id and the template.
///
/// # Errors
/// [`ErrorKind::ReservedKey`] (no path) when `class` has a property keyed like a base
/// key ([`check_class`]); `out` is left as it was.
pub(crate) fn write_base_keys(
    out: &mut String,
    id: Option<EntityId>,
    class: &'static Class,
    template: Option<&str>,
    position: Option<Vec3>,
) -> Result<(), Error> {
    check_class(class).map_err(|kind| Error::file("", kind))?;
    write_base_lines(out, id, class.name(), template, position);
    Ok(())
}

/// Writes the base keys of an entity file to `out`, in canonical order
/// (docs/design.md, section 2.4): `AssetType`, `BaseVersion`, then `EntityID`, `Kind`
/// (`kind`), `Template` and `Position` when given (a template has no id; a sparse
/// instance may leave its position to its template). What [`crate::save_entity`]
/// writes first, for a kind named `kind` whether or not this build has its class (a
/// generator writes kinds of a project's `jasset.schema` too); the class's properties
/// follow (`ClassVersion`, then the properties, [`juliet_core::write_property`]).
///
/// ```
/// use juliet_entities::glam::Vec3;
/// use juliet_entities::load::write_base_lines;
/// use juliet_entities::EntityId;
///
/// let mut out = String::new();
/// write_base_lines(&mut out, Some(EntityId(1)), "Inert", None, Some(Vec3::ZERO));
/// assert!(out.starts_with("; AssetType\nEntity\n"));
/// assert!(out.contains("; Kind\nInert\n"));
/// ```
pub fn write_base_lines(
    out: &mut String,
    id: Option<EntityId>,
    kind: &str,
    template: Option<&str>,
    position: Option<Vec3>,
) {
    write_header(out, keys::ASSET_TYPE.name);
    out.push_str(ENTITY_ASSET_TYPE);
    out.push('\n');
    write_property(out, keys::BASE_VERSION.name, &ENTITY_BASE_VERSION);
    if let Some(id) = id {
        write_property(out, keys::ENTITY_ID.name, &id);
    }
    write_header(out, keys::KIND.name);
    out.push_str(kind);
    out.push('\n');
    if let Some(template) = template {
        write_property(out, keys::TEMPLATE.name, &template.to_owned());
    }
    if let Some(position) = position {
        write_property(out, keys::POSITION.name, &position);
    }
}

/// `text`, an entity's canonical text ([`crate::save_entity`],
/// [`crate::World::entity_text`]) for entity `id`, without its `EntityID` property: the
/// canonical text of a file that has no id (a template's, or a file whose id the load
/// made up for the session).
///
/// ```
/// use juliet_entities::glam::Vec3;
/// use juliet_entities::kinds::Inert;
/// use juliet_entities::load::{save_entity, without_entity_id, EntityFileData};
/// use juliet_entities::EntityManager;
///
/// let mut manager = EntityManager::new();
/// let id = manager.make_entity::<Inert>(Vec3::ZERO);
/// let mut text = String::new();
/// save_entity(&manager, id, &EntityFileData::default(), &mut text)?;
/// assert!(text.contains("EntityID"));
/// assert!(!without_entity_id(&text, id).contains("EntityID"));
/// # Ok::<(), juliet_entities::juliet_core::Error>(())
/// ```
pub fn without_entity_id(text: &str, id: EntityId) -> String {
    let mut property = String::new();
    write_property(&mut property, keys::ENTITY_ID.name, &id);
    text.replacen(&property, "", 1)
}
