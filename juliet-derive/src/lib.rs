//! # juliet-derive
//!
//! `#[derive(Entity)]` and `#[derive(Codec)]` for Juliet-rs. Game code uses them through
//! `juliet-entities` (`use juliet_entities::{Codec, Entity};`); the generated code calls
//! the runtime in `juliet_core` through the path `::juliet_entities::juliet_core`
//! unless `#[jasset(crate = path)]` says otherwise. `#[derive(Construct)]` and
//! `#[construct]` are used through `juliet-constructs`
//! (`use juliet_constructs::{construct, Construct};`), whose items their generated code
//! names as `::juliet_constructs`.
//!
//! The derive writes what a hand-written class would need (docs/design.md, sections 3
//! and 4): the class descriptor, the property table, the default-init stub, one symmetric
//! save/load pair and the migration call. See [`Entity`] and [`Codec`] for every
//! attribute.
//!
//! ```
//! use juliet_entities::juliet_core::Reflect;
//! use juliet_entities::{Codec, Entity};
//!
//! #[derive(Codec, Clone, Default)]
//! struct Stats { hp: f32, armor: f32 }
//!
//! #[derive(Entity)]
//! #[jasset(version = 2)]
//! struct Guard {
//!     #[jasset(default = 3.5)]
//!     walk_speed: f32,
//!     stats: Stats,
//! }
//!
//! // One property a leaf, a composite's leaves by their path.
//! let keys: Vec<&str> = Guard::CLASS.properties().iter().map(|p| p.key).collect();
//! assert_eq!(keys, ["WalkSpeed", "Stats.Hp", "Stats.Armor"]);
//! assert_eq!(Guard::CLASS.version(), 2);
//! ```
//!
//! The crate is split as parse (`attr`, `ast`) -> validate (`validate`) -> expand
//! (`entity`; `codec` with `composite`, `record`, `data_enum` and `variant_leaves` for
//! composites and enums; `construct` for the construct macros), the key rules from
//! `juliet-key` (`key`), with every error collected in one context (`ctxt`) and
//! reported at once, next to a stub impl so that one mistake does not cascade.
#![forbid(unsafe_code)]

mod ast;
mod attr;
mod codec;
mod composite;
mod construct;
mod ctxt;
mod data_enum;
mod entity;
mod key;
mod record;
mod validate;
mod variant_leaves;

#[cfg(test)]
mod tests;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives `juliet_core::Reflect` for a struct with named fields: its `Class`
/// descriptor, property table, default-init stub, save and load, and registers the
/// class with the class registry.
///
/// ```
/// use juliet_entities::Entity;
///
/// #[derive(Entity)]
/// struct Inert {
///     mesh_asset: String,                // key `MeshAsset`
///     #[jasset(default = u32::MAX)]
///     mesh_instance: u32,                // `u32::MAX` when the file has no `MeshInstance`
///     #[jasset(rename = "Mass", alias = "Weight")]
///     mass_kg: f32,                      // written `Mass`, also read from `Weight`
///     #[jasset(skip)]
///     frames_alive: u64,                 // never written nor read
/// }
/// ```
///
/// # What is generated
///
/// - `Reflect::CLASS`, a `&'static Class`: the class name (the type name unless
///   renamed) and its CRC-32, the `version`, `size_of`, `align_of`, the property table
///   and the deprecated keys, and type-erased operations (default-init in place, drop,
///   clone, save, load) for the runtime's per-kind storage.
/// - The property table: one `PropertyDescriptor` per field that is not `skip`, in
///   declaration order: the key (the PascalCase field name unless renamed) and its CRC
///   computed at compile time, the aliases, the field's byte offset
///   (`core::mem::offset_of!`), its `PropertyType` and size.
/// - `Reflect::default_value`, the default-init stub: each field
///   set to its `default = expr`, else to `Default::default()`. A missing key keeps
///   that value when loading.
/// - `Reflect::clone_value`: written field by field (no property table, no indirect
///   call): the properties cloned, `skip` fields at their defaults.
/// - `Reflect::copy_properties`: field by field too: each property whose bit is set in
///   the given set (property `i` is bit `i % 64` of word `i / 64`) clone-assigned from
///   the source (what a template's `PropertyDelta` does to a new instance).
/// - `Reflect::save`: `ClassVersion`, then every property in declaration order.
/// - `Reflect::load`: one walk over the file's properties in file order
///   (`juliet_core::Properties`: each bound to a field by exact key, keys and aliases;
///   a file as `save` writes it read straight from its text), one `match` arm a field;
///   then the class version (a file without `ClassVersion` is at the current version)
///   and, when the file's version is older and `migrate` is given, the migration. Keys
///   the class does not know (deprecated keys included) are left unconsumed for the
///   migration and the caller's audit (they are reported and kept by the runtime).
/// - A registration with `juliet_core::Registry::global()` (through `inventory`), so
///   the runtime finds the class by name or name CRC.
///
/// Every field type must have a codec (`juliet_core::Codec`: numbers, `bool`, `char`,
/// `String`, the `glam` vectors and quaternions, `[T; N]`, `Vec<T>`, `Option<T>`, maps
/// and sets, unit enums deriving [`Codec`], and game types with a hand-written codec),
/// be a composite or an enum with data deriving [`Codec`] (one property per leaf), or
/// name a codec module (`with = path`), unless the field is `skip`.
///
/// # Struct attributes
///
/// `version = N` (default 1, never 0) is the class version, written as
/// `ClassVersion`. `deprecated = "Key"` (repeatable) names a key that is only read by
/// the migration: never written, never reported as unknown. `migrate = path` names a
/// `fn(&mut Self, from_version: u32, &mut Archive<'_>) -> Result<(), Error>` called
/// after the load when the file's `ClassVersion` is older than `version` (so it needs
/// `version = 2` or more); it reads deprecated values with `ar.read_deprecated::<T>(key)`.
/// Here v1 `Speed` became v2 `VelocityX`:
///
/// ```
/// use juliet_entities::juliet_core::{Archive, Error};
/// use juliet_entities::Entity;
///
/// #[derive(Entity)]
/// #[jasset(version = 2, deprecated = "Speed", migrate = LegacyWeapon::migrate)]
/// struct LegacyWeapon {
///     velocity_x: f32,
///     velocity_y: f32,
/// }
///
/// impl LegacyWeapon {
///     fn migrate(&mut self, from: u32, ar: &mut Archive<'_>) -> Result<(), Error> {
///         if from < 2 {
///             if let Some(speed) = ar.read_deprecated::<f32>("Speed")? {
///                 self.velocity_x = speed;
///                 self.velocity_y = 0.0;
///             }
///         }
///         Ok(())
///     }
/// }
/// ```
///
/// `name = "Kind"` sets the class name written under `Kind` (default: the type name):
///
/// ```
/// # use juliet_entities::Entity;
/// #[derive(Entity)]
/// #[jasset(name = "Rock")]
/// struct RockEntity {
///     radius: f32,
/// }
/// ```
///
/// `alias = "OldKind"` (repeatable) keeps a former class name: files whose `Kind` is
/// the alias load as this class, and save under the new name, so renaming a class does
/// not break old levels. An alias that is the class name again, or another alias, is a
/// compile error (names match ignoring ASCII case and `_`):
///
/// ```
/// # use juliet_entities::Entity;
/// #[derive(Entity)]
/// #[jasset(name = "Monster2", alias = "Monster")]
/// struct Monster {
///     health: i32,
/// }
/// ```
///
/// `crate = path` is the path of `juliet_core` in the generated code, for crates that
/// reach it another way than through `juliet_entities` (default
/// `::juliet_entities::juliet_core`):
///
/// ```
/// # use juliet_entities::{juliet_core, Entity};
/// #[derive(Entity)]
/// #[jasset(crate = juliet_core)]
/// struct Pickup {
///     amount: i32,
/// }
/// ```
///
/// `default` (no value) makes the default-init stub the type's own `Default` impl, for
/// structs that implement `Default` by hand; field `default = expr` is refused then:
///
/// ```
/// # use juliet_entities::Entity;
/// #[derive(Entity)]
/// #[jasset(default)]
/// struct Lamp {
///     intensity: f32,
/// }
///
/// impl Default for Lamp {
///     fn default() -> Lamp {
///         Lamp { intensity: 800.0 }
///     }
/// }
/// ```
///
/// # Field attributes
///
/// `rename = "Key"` sets the written key (default: the field name in PascalCase);
/// `alias = "OldKey"` (repeatable) is another key read as this field, never written;
/// `default = expr` is the field's default value (default: `Default::default()`);
/// `skip` leaves the field out of the property table and the file (its type needs no
/// codec; it is set to its default when the value is created or cloned):
///
/// ```
/// # use juliet_entities::Entity;
/// #[derive(Entity)]
/// struct Monster {
///     #[jasset(rename = "HP", alias = "Health", alias = "HitPoints", default = 100)]
///     hit_points: i32,
///     #[jasset(skip, default = std::time::Duration::from_secs(3))]
///     respawn: std::time::Duration,
/// }
/// ```
///
/// # Compile errors
///
/// All reported at once, each at the offending span: not a struct with named fields;
/// generic parameters; a field type with no codec (at the type, naming the trait);
/// two keys (field keys, renames, aliases, deprecated keys, the reserved
/// `ClassVersion`) that are the same once ASCII case and `_` are ignored, or whose
/// CRC-32 collide (naming both); a key or class name that is not an ASCII identifier;
/// `version = 0`; a deprecated key equal to a live key; `migrate` on a class at
/// version 1; an unknown or duplicated attribute.
///
/// ```compile_fail
/// # use juliet_entities::Entity;
/// #[derive(Entity)]
/// struct Clash {
///     mesh_instance: u32,
///     #[jasset(rename = "meshinstance")] // the same key as `MeshInstance`
///     other: u32,
/// }
/// ```
#[proc_macro_derive(Entity, attributes(jasset))]
pub fn derive_entity(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    entity::derive(&input).into()
}

/// Makes a type a property type, in one of three shapes:
///
/// - a **unit enum** gets `juliet_core::Codec`: written as the variant name, read
///   ignoring ASCII case, reported as `PropertyType::Enum` with the variant names. It
///   must also implement `Clone` and `PartialEq` (derive them).
/// - a **struct** (named or tuple fields) is a *composite*: as a field, each of its
///   fields is a property of its own keyed by its path (`Stats.Hp`); in a `Vec`, a map
///   or an `Option`, a record of `Key: value` lines. It must implement `Clone` and
///   `Default`, and `PartialEq` to sit in a container.
/// - an **enum with data** is, as a field, its variant (keyed by the field) and one
///   property per field of the variant in use (`Trigger.Radius`); in an `Option`, the
///   variant's name then `Field: value` lines. It must implement `Clone` and
///   `Default`.
///
/// docs/guide.md ("Field types") has the written forms and examples.
///
/// ```
/// use juliet_entities::{Codec, Entity};
///
/// #[derive(Codec, Clone, Copy, PartialEq, Debug, Default)]
/// enum Team {
///     #[default]
///     Neutral,
///     Red,
///     #[jasset(rename = "Blu")] // written `Blu`
///     Blue,
/// }
///
/// #[derive(Entity)]
/// struct Flag {
///     #[jasset(default = Team::Red)]
///     team: Team,
/// }
/// ```
///
/// Attributes: `crate = path` on the type (as for [`Entity`]); `rename = "Name"` on a
/// variant or a field, `skip` on a composite's field. Refused: unions, enums without
/// variants, unit structs, generic types, two variants whose names differ only in
/// ASCII case, two fields with one key.
#[proc_macro_derive(Codec, attributes(jasset))]
pub fn derive_codec(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    codec::derive(&input).into()
}

/// Derives the parts of a construct (`juliet_constructs::ConstructParts`):
/// its `Owned<..>` children and `ConstructView<..>`s, in declaration order: the direct
/// fields whose type's path ends in those names, and the fields marked `#[part(owned)]`
/// or `#[part(view)]` (a type alias of one of them, which the derive cannot see
/// through, needs the mark; `#[part(plain)]` makes a field plain state whatever its
/// type's name). Pair it with [`macro@construct`] on the type's impl block. Named,
/// tuple and unit structs.
///
/// ```
/// use juliet_constructs::{construct, Construct, ConstructView, Owned};
/// use juliet_entities::kinds::Inert;
///
/// #[derive(Construct, Default)]
/// struct Ammo;
/// #[construct]
/// impl Ammo {}
///
/// #[derive(Construct, Default)]
/// struct Turret {
///     body: ConstructView<Inert>, // a view: its entity goes with the turret
///     ammo: Owned<Ammo>,          // a child: initialized and ticked after the turret
///     heat: f32,                  // plain state
/// }
/// #[construct]
/// impl Turret {}
///
/// type Magazine = Owned<Ammo>;
///
/// #[derive(Construct, Default)]
/// struct Gun {
///     #[part(owned)] // an alias: marked
///     magazine: Magazine,
/// }
/// #[construct]
/// impl Gun {}
/// ```
#[proc_macro_derive(Construct, attributes(part))]
pub fn derive_construct(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    construct::derive(&input).into()
}

/// Implements `juliet_constructs::Construct` for the type of an inherent impl
/// block, from the hooks it finds there by name (`pre_input`, `physics_step`,
/// `scalar_update`, `initialize_views`, `on_world_teardown`, `on_world_initialized`;
/// see the trait for their signatures). A hook that is not written gets no tick entry
/// and no call; a hook with a wrong signature is a compile error at the method.
///
/// Arguments: `lifetime = Level | World | Session | Persistent` (default `Level`);
/// `group = PreInput | Default | PostDefault | Camera | Late` and `order = i16`
/// (default `Default`, 0) for every tick hook. `#[tick(group = .., order = ..)]` on a
/// tick hook sets its own.
///
/// ```
/// use juliet_constructs::{construct, Construct, SimFloat, TickContext};
///
/// #[derive(Construct, Default)]
/// struct Follower {
///     x: SimFloat,
/// }
///
/// #[construct(lifetime = World)]
/// impl Follower {
///     fn physics_step(&mut self, dt: SimFloat) {
///         self.x += dt;
///     }
///     #[tick(group = Camera, order = -1)]
///     fn scalar_update(&mut self, _cx: &mut TickContext<'_>, _dt: SimFloat) {}
///     fn helper(&self) {} // not a hook: left alone
/// }
/// ```
///
/// ```compile_fail
/// # use juliet_constructs::{construct, Construct};
/// #[derive(Construct)]
/// struct Bad;
/// #[construct]
/// impl Bad {
///     fn physics_step(&mut self, dt: f32) {} // `dt` must be a `SimFloat`
/// }
/// ```
#[proc_macro_attribute]
pub fn construct(args: TokenStream, item: TokenStream) -> TokenStream {
    construct::attribute(args.into(), item.into()).into()
}
