//! [`Appender`]: a batch of clones of one source value appended to a [`KindStorage`]
//! in one loop (the storage's side of [`crate::template::instantiate_many`]), with the
//! kinds, the limits and the room checked once per batch.
//!
//! Part of the storage module (its `unsafe` and its Miri-tested tests,
//! `storage::tests::an_appender_*`).

use std::any::TypeId;
use std::marker::PhantomData;

use juliet_core::Reflect;

use super::{clone_into, KindStorage};

/// The marker type of an [`Appender`] that clones through the class's type-erased
/// clone ([`juliet_core::ClassOps::clone_in_place`]).
#[derive(Debug)]
pub(crate) enum Erased {}

/// The value an [`Appender`] clones.
pub(crate) enum Source<'a, T> {
    /// The value in a slot of another storage of the kind (a template's archetype).
    Slot(&'a KindStorage, usize),
    /// A value of the kind's type `T` (an archetype with a delta applied).
    Value(&'a T),
}

/// A batch of appends of one source value's clones to a [`KindStorage`], made by
/// [`KindStorage::appender`] (which checked the kinds and reserved the room), written
/// by [`Appender::fill`].
pub(crate) struct Appender<'a, T> {
    storage: &'a mut KindStorage,
    /// The live value cloned: a slot of another storage of the kind, or a `T` outside
    /// any storage, borrowed shared for `'a`.
    source: *const u8,
    /// The storage's length when the batch started.
    start: usize,
    /// The storage's length when the batch is complete (`start` + the count).
    end: usize,
    /// The source's borrow, and the type of the values (`fn() -> T`: no ownership).
    _source: PhantomData<&'a KindStorage>,
    _type: PhantomData<fn() -> T>,
}

impl KindStorage {
    /// Starts a batch of `count` appends of clones of `source`: the kinds, the source
    /// slot, the `u32` limit and the room (`reserve(count)`) are checked once here, so
    /// that [`Appender::fill`] is a loop of clones. `T` is the kind's Rust type (`T`'s
    /// own clone, [`Reflect::clone_value`]) or [`Erased`] (the class's type-erased
    /// clone, from a [`Source::Slot`] only). `None` (nothing done) when the source is
    /// of another kind than this storage, or `T` is neither [`Erased`] nor the kind's
    /// type.
    ///
    /// Panics when a source slot is out of bounds, or when the kind would hold more
    /// than `u32::MAX - 1` entities after the batch (nothing is appended then).
    pub(crate) fn appender<'a, T: 'static>(
        &'a mut self,
        source: Source<'a, T>,
        count: usize,
    ) -> Option<Appender<'a, T>> {
        let erased = TypeId::of::<T>() == TypeId::of::<Erased>();
        let source = match source {
            Source::Slot(src, slot) if (erased || self.holds::<T>()) && self.key == src.key => {
                src.as_ptr(slot)
            }
            Source::Value(value) if self.holds::<T>() => (value as *const T).cast::<u8>(),
            _ => return None,
        };
        let end = self.len.checked_add(count);
        assert!(
            end.is_some_and(|end| end <= u32::MAX as usize),
            "more than u32::MAX - 1 entities of one kind"
        );
        self.reserve(count);
        Some(Appender {
            start: self.len,
            end: self.len + count,
            storage: self,
            source,
            _source: PhantomData,
            _type: PhantomData,
        })
    }
}

/// Links the slots appended since `linked` to consecutive base indices from `base`,
/// when dropped: at the end of [`Appender::fill_by`], and if a clone unwinds.
struct Link<'s> {
    storage: &'s mut KindStorage,
    /// The first slot of this fill (its base index is `base`).
    first: usize,
    base: u32,
}

impl Drop for Link<'_> {
    fn drop(&mut self) {
        let (first, base) = (self.first, self.base);
        let (from, to) = (self.storage.bases.len(), self.storage.len);
        // Within the reserved room: no reallocation. Below `u32::MAX`: `appender`
        // checked the batch's end, and the caller's bases are below the limit too.
        self.storage
            .bases
            .extend((from..to).map(|slot| base + (slot - first) as u32));
    }
}

impl<T> Appender<'_, T> {
    /// The slot of the batch's first value.
    pub(crate) fn first_slot(&self) -> u32 {
        // Below `u32::MAX`: `appender` checked the batch's end against the limit.
        self.start as u32
    }

    /// Number of values appended so far (all of them after [`Appender::fill`], fewer
    /// when a clone unwound).
    pub(crate) fn appended(&self) -> usize {
        self.storage.len - self.start
    }

    /// Runs `append_one` on the storage until the batch's room is used up; each call
    /// must write a live value (a clone of the source, given) to slot `len` and count
    /// it in `len`. The appended slots are then linked to consecutive base indices from
    /// `first_base` (the ones before this fill, if any, keep theirs), also when a call
    /// unwinds, so that the storage stays consistent.
    #[inline(always)]
    fn fill_by(
        &mut self,
        first_base: u32,
        mut append_one: impl FnMut(&mut KindStorage, *const u8),
    ) {
        let link = Link {
            first: self.storage.len,
            base: first_base,
            storage: &mut *self.storage,
        };
        while link.storage.len < self.end {
            append_one(&mut *link.storage, self.source);
        }
    }
}

impl Appender<'_, Erased> {
    /// Appends the batch's clones of the source (the class's clone, as
    /// [`KindStorage::push_clone`]), the `i`th linked to base record `first_base + i`.
    /// When a clone panics the values appended before it stay, each linked.
    #[inline(always)]
    pub(crate) fn fill(&mut self, first_base: u32) {
        self.fill_by(first_base, |storage, source| {
            // SAFETY: `appender` checked that the source is a live value of this kind
            // (its storage's type is ours, the slot in bounds), kept alive and unchanged
            // by the shared borrow for `'a`; it lies in another storage (a `&` and a
            // `&mut` cannot name one object), so the destination does not overlap it.
            // The destination is slot `len`, below `end`, within the room `appender`
            // reserved (only this appender can change the storage while it lives),
            // aligned, and holds no live value.
            unsafe {
                storage
                    .class
                    .ops()
                    .clone_in_place(source, storage.slot_ptr(storage.len))
            };
            storage.len += 1;
        });
    }
}

impl<T: Reflect> Appender<'_, T> {
    /// Appends the batch's clones of the source (`T`'s clone, [`Reflect::clone_value`],
    /// as [`KindStorage::push_clone_with`]), the `i`th linked to base record
    /// `first_base + i`. When a clone panics the values appended before it stay, each
    /// linked.
    #[inline(always)]
    pub(crate) fn fill(&mut self, first_base: u32) {
        self.fill_by(first_base, |storage, source| {
            let dst = storage.data.as_ptr().cast::<T>().wrapping_add(storage.len);
            // SAFETY: `appender` checked that our storage holds `T`s (`T` is not
            // `Erased`, which no storage holds) and that the source is a live `T`
            // (a slot of a storage of `T`s, or a `&T`), borrowed shared for `'a`, so
            // outside our storage (which is borrowed `&mut`) and not overlapping `dst`.
            // `dst` is slot `len` (the stride is `size_of::<T>()`), below `end`, within
            // the reserved room (see `fill` of `Erased`), aligned for `T`, holding no
            // live value.
            unsafe { clone_into(&*source.cast::<T>(), dst) };
            storage.len += 1;
        });
    }
}
