//! The [`Construct`] and [`ConstructParts`] traits, the [`ConstructLifetime`] tiers and
//! the [`TickGroup`]s.
//!
//! Neither trait is written by hand: `#[derive(Construct)]` on the struct implements
//! [`ConstructParts`] (its `Owned` children and `ConstructView`s) and `#[construct]` on
//! its impl block implements [`Construct`] (the hooks it found).
//!
//! ```
//! use juliet_constructs::{construct, Construct, ConstructLifetime, SimFloat};
//!
//! #[derive(Construct, Default)]
//! struct Clock {
//!     seconds: SimFloat,
//! }
//!
//! #[construct(lifetime = Session)]
//! impl Clock {
//!     fn scalar_update(&mut self, dt: SimFloat) {
//!         self.seconds += dt;
//!     }
//! }
//!
//! assert_eq!(Clock::LIFETIME, ConstructLifetime::Session);
//! ```

use std::any::Any;

use juliet_entities::{EntityManager, World};

use super::context::TickContext;
use super::view::ViewHandle;
use super::SimFloat;

/// Which transitions of the [`FlowManager`](super::FlowManager) a construct survives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum ConstructLifetime {
    /// Destroyed when the level unloads (and by everything below). The default.
    #[default]
    Level,
    /// Destroyed when the world resets (and when the session ends).
    World,
    /// Survives a world reset; destroyed when the session ends.
    Session,
    /// Survives everything; destroyed only explicitly.
    Persistent,
}

/// When, within one phase of a frame, a tick hook runs: groups run in this order, and
/// within a group by ascending order number, then in registration order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum TickGroup {
    /// Reads input state before anything reacts.
    PreInput = 0,
    /// Standard gameplay logic (most constructs). The default.
    #[default]
    Default = 1,
    /// Things that depend on `Default` having run.
    PostDefault = 2,
    /// Cameras, which resolve after gameplay.
    Camera = 3,
    /// Final adjustments: IK, procedural animation.
    Late = 4,
}

/// Where a tick hook sorts in its batch (the `#[construct]` macro's output).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TickSlot {
    /// The group.
    pub group: TickGroup,
    /// The order within the group.
    pub order: i16,
}

/// The tick hooks a construct wrote, with their slots (the `#[construct]` macro's
/// output; a hook that is `None` gets no batch entry).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookSet {
    /// `pre_input`.
    pub pre_input: Option<TickSlot>,
    /// `physics_step`.
    pub physics_step: Option<TickSlot>,
    /// `scalar_update`.
    pub scalar_update: Option<TickSlot>,
}

/// A singular gameplay object with bespoke logic (a horde member is an entity
/// instead), implemented by `#[construct]` on the type's impl block.
///
/// The macro looks for these methods (the hooks) in the block it is on (methods of
/// other impl blocks are not seen); a hook that is not written costs nothing (no batch
/// entry, no call). `cx` arguments are optional: a hook may take
/// `(&mut self, dt: SimFloat)` or `(&mut self, cx: &mut TickContext<'_>, dt: SimFloat)`.
///
/// | hook | signature | when |
/// | --- | --- | --- |
/// | `initialize_views` | `(&mut self, world: &mut World)` | when spawned, before its `Owned` children's |
/// | `pre_input` | `(&mut self[, cx])` | once per frame, first |
/// | `physics_step` | `(&mut self[, cx], dt: SimFloat)` | at the fixed rate (`dt` is the fixed step) |
/// | `scalar_update` | `(&mut self[, cx], dt: SimFloat)` | once per frame, last (`dt` is the frame's real time) |
/// | `on_world_teardown` | `(&mut self[, world: &mut World])` | before a world reset it survives; its views are released after it |
/// | `on_world_initialized` | `(&mut self, world: &mut World)` | after that reset; when not written, `initialize_views` runs again |
///
/// The attribute takes `lifetime = Level | World | Session | Persistent` (default
/// `Level`), `group = ` a [`TickGroup`] variant and `order = ` an `i16` (default
/// `Default`, 0) for every tick hook; `#[tick(group = .., order = ..)]` on a tick hook
/// sets its own.
///
/// The hidden items are the macro's output, not an API.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a construct",
    label = "not a construct",
    note = "a construct derives `Construct` on its struct and has one `#[construct]` impl block (which may be empty: `#[construct] impl {Self} {{}}`)"
)]
pub trait Construct: ConstructParts + Sized {
    /// The transitions the construct survives.
    const LIFETIME: ConstructLifetime;
    #[doc(hidden)]
    const HOOKS: HookSet;
    #[doc(hidden)]
    fn __pre_input(&mut self, _cx: &mut TickContext<'_>) {}
    #[doc(hidden)]
    fn __physics_step(&mut self, _cx: &mut TickContext<'_>, _dt: SimFloat) {}
    #[doc(hidden)]
    fn __scalar_update(&mut self, _cx: &mut TickContext<'_>, _dt: SimFloat) {}
    #[doc(hidden)]
    fn __initialize_views(&mut self, _world: &mut World) {}
    #[doc(hidden)]
    fn __on_world_teardown(&mut self, _world: &mut World) {}
    #[doc(hidden)]
    fn __on_world_initialized(&mut self, world: &mut World) {
        self.__initialize_views(world);
    }
}

/// The parts of a construct that the runtime walks: its `Owned` children and its
/// `ConstructView`s, direct fields, in declaration order. Implemented by
/// `#[derive(Construct)]`, which finds them by their type names (`Owned<..>`,
/// `ConstructView<..>`) or by a field's mark (`#[part(owned)]`, `#[part(view)]`, which a
/// type alias of them needs); a part kept elsewhere (in a `Vec`) is not walked.
///
/// The hidden items are the derive's output, not an API.
pub trait ConstructParts: 'static {
    #[doc(hidden)]
    fn __register_children<R: Construct, P: FieldPath<R, Target = Self>>(
        registrar: &mut impl Registrar<R>,
    );
    #[doc(hidden)]
    fn __for_each_child(&mut self, f: &mut dyn FnMut(&mut dyn DynConstruct));
    #[doc(hidden)]
    fn __for_each_view(&mut self, f: &mut dyn FnMut(&mut dyn ViewHandle));
}

/// What [`ConstructParts::__register_children`] reports the constructs of a root's
/// `Owned` tree to, one [`FieldPath`] each: the tick batches' registrar, which makes
/// their batch entries.
#[doc(hidden)]
pub trait Registrar<R> {
    /// Registers the hooks of the construct `P` reaches from the root, then its
    /// children's.
    fn owned<P: FieldPath<R>>(&mut self);
}

/// A way from a root construct `R` to one construct inside it (itself, or an `Owned`
/// child at any depth): what a child's tick entry calls to find its object from the
/// root's. Safe code: whatever it returns is a live part of the root.
#[doc(hidden)]
pub trait FieldPath<R>: 'static {
    /// The construct reached.
    type Target: Construct;
    /// The construct inside `root`.
    fn get(root: &mut R) -> &mut Self::Target;
}

/// The root itself.
#[doc(hidden)]
pub(crate) struct Here;

impl<R: Construct> FieldPath<R> for Here {
    type Target = R;
    #[inline(always)]
    fn get(root: &mut R) -> &mut R {
        root
    }
}

/// `P`, then field `F` of what `P` reaches.
#[doc(hidden)]
pub struct Then<P, F>(std::marker::PhantomData<fn() -> (P, F)>);

impl<R, P, F> FieldPath<R> for Then<P, F>
where
    P: FieldPath<R>,
    F: FieldPath<P::Target>,
{
    type Target = F::Target;
    #[inline(always)]
    fn get(root: &mut R) -> &mut F::Target {
        F::get(P::get(root))
    }
}

/// A construct behind a type-erased reference, for the lifecycle walks (spawn,
/// teardown, destroy), which are rare enough for dynamic dispatch. Implemented for
/// every [`Construct`].
#[doc(hidden)]
pub trait DynConstruct: Any {
    /// Views first (`initialize_views`), then the `Owned` children depth-first in
    /// declaration order.
    fn init(&mut self, world: &mut World);
    /// `on_world_teardown`, then its views released, then the children the same way.
    fn teardown(&mut self, world: &mut World);
    /// `on_world_initialized` (else `initialize_views`), then the children.
    fn world_initialized(&mut self, world: &mut World);
    /// Destroys the entities of its views and then of its children's, depth-first.
    fn destroy_views(&mut self, manager: &mut EntityManager);
    /// The construct's lifetime tier.
    fn lifetime(&self) -> ConstructLifetime;
    /// The Rust type name.
    fn type_name(&self) -> &'static str;
    /// For downcasting.
    fn as_any(&self) -> &dyn Any;
    /// For downcasting.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Construct> DynConstruct for T {
    fn init(&mut self, world: &mut World) {
        self.__initialize_views(world);
        self.__for_each_child(&mut |c| c.init(world));
    }

    fn teardown(&mut self, world: &mut World) {
        self.__on_world_teardown(world);
        self.__for_each_view(&mut |v| v.release());
        self.__for_each_child(&mut |c| c.teardown(world));
    }

    fn world_initialized(&mut self, world: &mut World) {
        self.__on_world_initialized(world);
        self.__for_each_child(&mut |c| c.world_initialized(world));
    }

    fn destroy_views(&mut self, manager: &mut EntityManager) {
        self.__for_each_view(&mut |v| v.destroy(manager));
        self.__for_each_child(&mut |c| c.destroy_views(manager));
    }

    fn lifetime(&self) -> ConstructLifetime {
        T::LIFETIME
    }

    fn type_name(&self) -> &'static str {
        std::any::type_name::<T>()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
