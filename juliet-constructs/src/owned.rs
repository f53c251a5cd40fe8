//! [`Owned`]: a child construct kept by value inside its parent.
//!
//! ```
//! use juliet_constructs::{construct, contract, Construct, Owned, SimFloat};
//!
//! /// What a turret's barrel must be able to do.
//! pub trait Targetable {
//!     fn aim(&mut self, yaw: SimFloat);
//! }
//! contract!(Targetable);
//!
//! #[derive(Construct, Default)]
//! struct Barrel {
//!     yaw: SimFloat,
//! }
//! #[construct]
//! impl Barrel {}
//! impl Targetable for Barrel {
//!     fn aim(&mut self, yaw: SimFloat) {
//!         self.yaw = yaw;
//!     }
//! }
//!
//! #[derive(Construct, Default)]
//! struct Turret {
//!     barrel: Owned<Barrel, dyn Targetable>, // `Barrel` must implement `Targetable`
//! }
//! #[construct]
//! impl Turret {
//!     fn physics_step(&mut self, _dt: SimFloat) {
//!         self.barrel.aim(SimFloat::from_int(90)); // runs before the barrel's own tick
//!     }
//! }
//! # let _ = Turret::default();
//! ```

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

use super::traits::Construct;

/// A contract that an [`Owned`] child must meet, named by its second type parameter:
/// `Owned<T, C>` compiles only when `C: Contract<T>`. The default, `()`, accepts every
/// construct; [`contract!`](crate::contract) makes `dyn Trait` accept the constructs
/// that implement `Trait`. Checked at compile time only: an `Owned` is its child and
/// nothing more.
pub trait Contract<T: ?Sized> {}

impl<T: ?Sized> Contract<T> for () {}

/// Makes a (dyn-compatible) trait usable as the contract of an [`Owned`] child:
/// `contract!(Targetable);` lets `Owned<T, dyn Targetable>` name any `T: Targetable`
/// (and refuses, at compile time, a `T` that is not). A trait that is not
/// dyn-compatible can use a marker type instead: `struct Aims;` and
/// `impl<T: Aim> Contract<T> for Aims {}`.
#[macro_export]
macro_rules! contract {
    ($($trait:tt)+) => {
        impl<T: $($trait)+> $crate::Contract<T> for dyn $($trait)+ {}
    };
}

/// A child construct `T` stored by value inside its parent construct (no heap
/// allocation of its own), optionally required to meet the contract `C` (see
/// [`Contract`]). It dereferences to the `T`.
///
/// A parent that derives `Construct` walks its `Owned` fields (direct fields, in
/// declaration order):
/// - **init**: the parent's `initialize_views` first, then each child's (and its
///   children's, depth-first), in declaration order;
/// - **ticks**: a child's tick hooks are registered right after its parent's, so in
///   one group and order the parent ticks first, then the children in declaration
///   order (depth-first);
/// - **destruction**: the child goes with its parent, whatever its own
///   [`ConstructLifetime`](super::ConstructLifetime): the views' entities are destroyed
///   parent first, then children depth-first; then the value is dropped as Rust drops
///   a struct, the parent's `Drop` first, then its fields (children included) in
///   declaration order.
///
/// `T` must be a construct: `Owned<u32>` does not compile.
#[repr(transparent)]
pub struct Owned<T: Construct, C: ?Sized + Contract<T> = ()> {
    value: T,
    contract: PhantomData<fn(&C)>,
}

impl<T: Construct, C: ?Sized + Contract<T>> Owned<T, C> {
    /// Owns `value`.
    pub const fn new(value: T) -> Self {
        Owned {
            value,
            contract: PhantomData,
        }
    }

    /// The child, by value.
    pub fn into_inner(self) -> T {
        self.value
    }
}

impl<T: Construct, C: ?Sized + Contract<T>> Deref for Owned<T, C> {
    type Target = T;
    #[inline(always)]
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: Construct, C: ?Sized + Contract<T>> DerefMut for Owned<T, C> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

impl<T: Construct + Default, C: ?Sized + Contract<T>> Default for Owned<T, C> {
    fn default() -> Self {
        Owned::new(T::default())
    }
}

impl<T: Construct + fmt::Debug, C: ?Sized + Contract<T>> fmt::Debug for Owned<T, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Owned").field(&self.value).finish()
    }
}

impl<T: Construct, C: ?Sized + Contract<T>> From<T> for Owned<T, C> {
    fn from(value: T) -> Self {
        Owned::new(value)
    }
}

/// The child type of an `Owned` field, for the derive (which sees only the field's
/// type).
#[doc(hidden)]
pub trait OwnedField {
    /// The child construct.
    type Child: Construct;
    /// The child in the field.
    fn child(&mut self) -> &mut Self::Child;
}

impl<T: Construct, C: ?Sized + Contract<T>> OwnedField for Owned<T, C> {
    type Child = T;
    #[inline(always)]
    fn child(&mut self) -> &mut T {
        &mut self.value
    }
}
