//! # juliet-constructs
//!
//! The gameplay layer of Juliet-rs, on top of the entity runtime (`juliet-entities`):
//! constructs, singular gameplay objects with bespoke logic beside the entities (a
//! horde member is an entity; a player, a turret, a camera, a match's rules are
//! constructs). A construct is a plain struct with `#[derive(Construct)]` and
//! `#[construct]` on its impl block; its bodies are entities in the
//! [`EntityManager`](juliet_entities::EntityManager), reached through
//! [`ConstructView`]s, and a [`FlowManager`] ticks every construct of a
//! [`World`](juliet_entities::World) at a fixed step in [`SimFloat`] fixed-point time.
//! The `physics` feature adds the `physics` module, a character controller and level
//! colliders on rapier3d. A game that only loads and saves entities depends on
//! `juliet-entities` alone and builds none of this. The design is docs/design.md,
//! section 9.
//!
//! ```
//! use juliet_constructs::{
//!     construct, Construct, ConstructView, FlowManager, Owned, SimFloat, TickContext,
//! };
//! use juliet_entities::glam::Vec3;
//! use juliet_entities::kinds::Inert;
//! use juliet_entities::World;
//!
//! /// A child with logic of its own and no body.
//! #[derive(Construct, Default)]
//! struct Targeting {
//!     scans: u32,
//! }
//! #[construct]
//! impl Targeting {
//!     fn physics_step(&mut self, _dt: SimFloat) {
//!         self.scans += 1;
//!     }
//! }
//!
//! /// A body in the entity storage, a child by value, and two hooks.
//! #[derive(Construct, Default)]
//! struct Turret {
//!     body: ConstructView<Inert>,
//!     targeting: Owned<Targeting>,
//!     yaw: SimFloat,
//! }
//! #[construct]
//! impl Turret {
//!     fn initialize_views(&mut self, world: &mut World) {
//!         self.body.initialize(world.manager_mut(), Vec3::new(0.0, 1.0, 0.0));
//!     }
//!     fn physics_step(&mut self, cx: &mut TickContext<'_>, dt: SimFloat) {
//!         self.yaw += SimFloat::from_int(90) * dt; // 90 degrees a second
//!         let body = self.body.entity_mut(cx.manager_mut()).unwrap();
//!         body.set_position(body.position() + Vec3::X * 0.5);
//!     }
//! }
//!
//! let mut flow = FlowManager::new(World::new("unused"));
//! let turret = flow.spawn(Turret::default());
//! flow.frame(SimFloat::ONE / SimFloat::from_int(64)); // one physics step
//! let t = flow.get(turret).unwrap();
//! assert_eq!(t.yaw, SimFloat::from_float(1.40625));
//! assert_eq!(t.targeting.scans, 1); // ticked after its parent
//! let body = t.body.entity(flow.world().manager()).unwrap();
//! assert_eq!(body.position(), Vec3::new(0.5, 1.0, 0.0));
//! ```
//!
//! The parts, one module each:
//! - [`Construct`], written by two macros: `#[derive(Construct)]` on the struct finds
//!   its [`Owned`] children and [`ConstructView`]s; [`construct`](macro@construct) on
//!   its impl block finds the tick hooks (`pre_input`, `physics_step`,
//!   `scalar_update`, ...) at compile time. A hook that is not written costs nothing.
//! - [`ConstructView`], a lens onto one entity the construct creates.
//! - [`Owned`], a child construct by value, with an optional compile-time [`Contract`].
//! - [`ConstructBatch`], the type-erased, non-virtual tick dispatch, sorted by
//!   [`TickGroup`] and order.
//! - [`FlowManager`], which runs frames (the [`FixedStep`] loop: physics at 64 Hz,
//!   scalar updates once a frame) and the [`ConstructLifetime`] transitions, and calls
//!   the [`GameMode`] as [`Soul`]s join and leave.
//! - [`SimFloat`], fixed-point numbers for deterministic simulation (a property type
//!   in `.jasset` files).

// `unsafe` only in the modules that allow it below, each block with its `// SAFETY:`.
#![deny(unsafe_code)]

// The derive's generated code names `::juliet_constructs`; this makes that path work
// inside this crate too (its tests derive `Construct`).
extern crate self as juliet_constructs;

#[allow(unsafe_code)] // disjoint borrows of a batch's constructs
mod batch;
mod clock;
mod context;
mod flow;
mod mode;
mod owned;
#[cfg(feature = "physics")]
pub mod physics;
mod sim_float;
mod traits;
mod view;

#[cfg(test)]
mod tests;

/// The user guide (`docs/guide.md`), whose Rust examples run as doctests here: this
/// crate sees both libraries the guide's examples use, `juliet_entities` (its
/// dependency) and `juliet_constructs`.
#[doc = include_str!("../../docs/guide.md")]
#[cfg(doctest)]
pub struct GuideDoctests;

pub use batch::{ConstructBatch, ConstructTickEntry, TickPhase};
pub use clock::{FixedStep, DEFAULT_MAX_STEPS_PER_FRAME, DEFAULT_PHYSICS_HZ};
pub use context::{Commands, ConstructId, ConstructKey, Resources, TickContext};
pub use flow::FlowManager;
pub use mode::{BeginRequest, GameMode, ModeContext, Soul, SoulId};
pub use owned::{Contract, Owned};
pub use sim_float::{ParseSimFloatError, SimFloat};
pub use traits::{Construct, ConstructLifetime, ConstructParts, TickGroup};
pub use view::ConstructView;

/// `#[derive(Construct)]` (the struct's parts) and `#[construct]` (the impl block's
/// hooks); see [`Construct`].
pub use juliet_derive::{construct, Construct};

/// What the macros' generated code names; not an API.
#[doc(hidden)]
pub mod __private {
    pub use super::owned::OwnedField;
    pub use super::traits::{DynConstruct, FieldPath, HookSet, Registrar, Then, TickSlot};
    pub use super::view::ViewHandle;
    pub use juliet_entities::World;
}
