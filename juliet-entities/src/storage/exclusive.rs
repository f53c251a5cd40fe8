//! [`Exclusive`]: a value that is reached only through `&mut`, so that a type holding a
//! `!Sync` value it never touches through `&self` (the template cache's `bumpalo`
//! scratch arena, whose allocation works through `&Bump`) can still be `Sync`.

/// A `T` with no shared access at all: [`Exclusive::get_mut`] is the only way in.
/// Because no `&T` can ever be made from an `&Exclusive<T>`, sharing one between threads
/// shares nothing, which is what makes it `Sync` for every `T` (the same reasoning as the
/// standard library's unstable `std::sync::Exclusive`).
#[derive(Default)]
pub(crate) struct Exclusive<T>(T);

impl<T> Exclusive<T> {
    /// The value, borrowed uniquely.
    pub(crate) fn get_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

// SAFETY: `Sync` means `&Exclusive<T>` may be used from several threads at once. Nothing
// can be done with a shared reference (no method takes `&self`, the field is private and
// `Debug` prints no part of it), so no `&T` is ever reachable from it, and `T`'s own
// `Sync`-ness is never relied on. `Send` is left to the auto trait (`T: Send`).
unsafe impl<T> Sync for Exclusive<T> {}

impl<T> std::fmt::Debug for Exclusive<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Exclusive(..)")
    }
}
