//! [`KindStorage`]: one entity kind's derived structs in one contiguous, type-erased
//! array (docs/design.md, section 5.1), driven by the kind's
//! [`Class`].
//!
//! This module (with its submodules `append`, batch appends, and `exclusive`, a `Sync`
//! wrapper reached only through `&mut`) is the module of `juliet-entities` that holds
//! `unsafe`; the constructs' tick batches (`batch` in the `juliet-constructs` crate) are
//! the other `unsafe` module above `juliet-core`. This one is a small
//! "blob vector": element layout and type identity come from [`ClassOps::layout`] and
//! [`ClassOps::is`] (fixed when the class is made, by `Class::of` or the checked
//! `Class::runtime`; a `Class`'s fields are private), values are created with the class's default-init stub in their
//! final slot, moved only bitwise (by growth and by swap-and-pop) and dropped with the
//! class's drop. Zero-sized kinds never allocate; over-aligned kinds get memory of their
//! alignment. Each slot records the index of its base record (docs/design.md, section
//! 5.1: the back link, an index into the manager's base array). Its tests run under Miri:
//! `cargo +nightly miri test -p juliet-entities --lib storage::`.
//!
//! [`ClassOps::layout`]: juliet_core::ClassOps::layout
//! [`ClassOps::is`]: juliet_core::ClassOps::is

use std::alloc::{self, Layout};
use std::fmt;
use std::ptr::{self, NonNull};

use juliet_core::{
    Archive, Class, ClassKey, Error, PropertyDescriptor, Reflect, Value, ValueError,
};

mod append;
mod exclusive;
pub(crate) use append::{Appender, Erased, Source};
pub(crate) use exclusive::Exclusive;

/// The derived structs of one entity kind, contiguous, with the base index of each slot.
///
/// Typed access ([`KindStorage::as_slice`], [`KindStorage::get`], ...) checks the class
/// against `T` first and returns `None` for any other type. `Send` and `Sync`, as every
/// type that can be stored is ([`Reflect`] requires both).
pub struct KindStorage {
    class: &'static Class,
    /// The type of the values ([`ClassOps::key`], read once: typed access and kind
    /// checks compare it with no indirect call).
    ///
    /// [`ClassOps::key`]: juliet_core::ClassOps::key
    key: ClassKey,
    /// Layout of one element (size is a multiple of the alignment, as for every Rust type).
    elem: Layout,
    /// Start of the elements: a dangling pointer aligned to `elem.align()` while nothing
    /// is allocated (capacity 0, or a zero-sized kind).
    data: NonNull<u8>,
    /// Number of live elements, in slots `0..len`.
    len: usize,
    /// Number of slots allocated (`usize::MAX` for zero-sized kinds).
    cap: usize,
    /// `bases[slot]` is the base-record index of the entity in `slot`; `bases.len() == len`.
    bases: Vec<u32>,
}

/// Writes `T`'s clone of `src` ([`Reflect::clone_value`]) to `dst`; out of line, so
/// that the clone is built in place (an inlined one goes through the stack).
///
/// # Safety
/// `dst` is valid for writes of a `T`, aligned, holds no live value and does not
/// overlap `src`.
#[inline(never)]
unsafe fn clone_into<T: Reflect>(src: &T, dst: *mut T) {
    // SAFETY: the caller's contract.
    unsafe { dst.write(src.clone_value()) }
}

/// The layout of `n` elements of layout `elem`; `None` past `isize::MAX` bytes.
fn array_layout(elem: Layout, n: usize) -> Option<Layout> {
    Layout::from_size_align(elem.size().checked_mul(n)?, elem.align()).ok()
}

/// A non-null pointer aligned to `align`, with no provenance (never dereferenced for a
/// non-zero size).
fn dangling(align: usize) -> NonNull<u8> {
    NonNull::new(ptr::without_provenance_mut::<u8>(align)).expect("alignments are non-zero")
}

impl KindStorage {
    /// An empty storage for `class` (allocates nothing).
    pub(crate) fn new(class: &'static Class) -> KindStorage {
        let elem = class.ops().layout();
        KindStorage {
            class,
            key: class.ops().key(),
            elem,
            data: dangling(elem.align()),
            len: 0,
            cap: if elem.size() == 0 { usize::MAX } else { 0 },
            bases: Vec::new(),
        }
    }

    /// The kind's class.
    pub fn class(&self) -> &'static Class {
        self.class
    }

    /// Number of entities of this kind.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no entity of this kind.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of slots allocated (`usize::MAX` for a zero-sized kind).
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// The base-record index of each slot (`bases()[slot]`).
    pub fn bases(&self) -> &[u32] {
        &self.bases
    }

    /// The base-record index of `slot`. Panics when `slot >= len()`.
    pub fn base_of(&self, slot: usize) -> u32 {
        self.bases[slot]
    }

    /// Rewires `slot` to base record `base` (after the base array moved a record).
    /// Panics when `slot >= len()`.
    pub(crate) fn set_base(&mut self, slot: usize, base: u32) {
        self.bases[slot] = base;
    }

    /// Address of `slot` (may be one past the end); computing it is safe, using it is not.
    #[inline]
    fn slot_ptr(&self, slot: usize) -> *mut u8 {
        self.data
            .as_ptr()
            .wrapping_add(slot.wrapping_mul(self.elem.size()))
    }

    /// A raw pointer to the value in `slot`, for type-erased property access through
    /// [`juliet_core::PropertyOps`] (dereferencing it is the caller's `unsafe`). Valid
    /// until the storage is next changed. Panics when `slot >= len()`.
    #[inline]
    pub fn as_ptr(&self, slot: usize) -> *const u8 {
        assert!(slot < self.len, "slot {slot} out of bounds ({})", self.len);
        self.slot_ptr(slot)
    }

    /// Like [`KindStorage::as_ptr`], for writing; the `&mut self` borrow makes the
    /// pointer unique while it lasts.
    pub(crate) fn as_mut_ptr(&mut self, slot: usize) -> *mut u8 {
        assert!(slot < self.len, "slot {slot} out of bounds ({})", self.len);
        self.slot_ptr(slot)
    }

    /// Makes room for one more entity (and its base index): two compares when there is
    /// room already.
    #[inline]
    fn reserve_one(&mut self) {
        if self.len == self.cap || self.bases.len() == self.bases.capacity() {
            self.reserve(1);
        }
    }

    /// Whether the values are `T`s.
    #[inline]
    fn holds<T: 'static>(&self) -> bool {
        self.key == ClassKey::of::<T>()
    }

    /// Makes room for at least `additional` more entities without reallocating.
    ///
    /// Panics on capacity overflow (more than `isize::MAX` bytes); aborts through
    /// [`alloc::handle_alloc_error`] when the allocator fails.
    pub(crate) fn reserve(&mut self, additional: usize) {
        let needed = self.len.checked_add(additional).expect("capacity overflow");
        self.bases.reserve(additional);
        if needed <= self.cap {
            return;
        }
        // Not reached for zero-sized kinds (`cap == usize::MAX`), so `elem.size() > 0`
        // and `cap * elem.size() <= isize::MAX`: doubling cannot overflow `usize`.
        let new_cap = needed.max(self.cap * 2).max(4);
        let new_layout = array_layout(self.elem, new_cap).expect("capacity overflow");
        let new_ptr = if self.cap == 0 {
            // SAFETY: `new_layout` has a non-zero size (`elem.size() > 0`, `new_cap >= 4`).
            unsafe { alloc::alloc(new_layout) }
        } else {
            let old_layout = array_layout(self.elem, self.cap).expect("layout of current capacity");
            // SAFETY: `data` was allocated by the global allocator with `old_layout` (the
            // previous `reserve`); `new_layout.size()` is non-zero and, rounded up to the
            // alignment, does not overflow `isize` (checked by `Layout::from_size_align`).
            // The live values are moved bitwise, which is a valid move for every Rust type.
            unsafe { alloc::realloc(self.data.as_ptr(), old_layout, new_layout.size()) }
        };
        self.data = NonNull::new(new_ptr).unwrap_or_else(|| alloc::handle_alloc_error(new_layout));
        self.cap = new_cap;
    }

    /// Appends a value initialized by the class's default-init stub, written straight
    /// into its final slot (docs/design.md, section 5.3), linked to base record `base`. Returns
    /// the slot.
    ///
    /// Panics when the kind already holds `u32::MAX` entities, or when the default-init
    /// stub panics (nothing is appended then).
    pub(crate) fn push_default(&mut self, base: u32) -> u32 {
        let slot = self.next_slot();
        self.reserve_one();
        // SAFETY: `reserve_one()` made slot `len` allocated (or the kind is zero-sized and
        // `data` is aligned and non-null); it is aligned to `elem.align()` because `data`
        // is and `elem.size()` is a multiple of it; `elem` is the layout of the class's
        // type (`ClassOps::layout`, consistent with `ops` by construction). The slot
        // holds no live value, so nothing is overwritten without being dropped.
        unsafe { self.class.ops().default_in_place(self.slot_ptr(self.len)) };
        self.len += 1;
        // Cannot reallocate: `reserve_one()` made room in `bases` too.
        self.bases.push(base);
        slot
    }

    /// Appends the value `make` returns, written straight into its final slot and then
    /// changed in place by `finish`, linked to base record `base`; returns the slot, or
    /// `None` (nothing done, neither closure called) when `T` is not the kind's type.
    /// The typed form of [`KindStorage::push_clone`] and [`KindStorage::push_default`]:
    /// both closures are inlined (a typed template instantiation clones the archetype
    /// into the slot and copies its delta's values there, with no indirect call and no
    /// temporary copy of the value).
    ///
    /// Panics as [`KindStorage::push_default`]; when `make` or `finish` panics nothing
    /// is appended (a value `finish` was changing is dropped).
    #[inline(always)]
    pub(crate) fn push_with<T: 'static>(
        &mut self,
        base: u32,
        make: impl FnOnce() -> T,
        finish: impl FnOnce(&mut T),
    ) -> Option<u32> {
        if !self.holds::<T>() {
            return None;
        }
        let slot = self.next_slot();
        self.reserve_one();
        let dst = self.slot_ptr(self.len).cast::<T>();
        // SAFETY: `holds::<T>()` means the kind's type is `T`, so `elem` is
        // `Layout::new::<T>()`; `reserve_one()` made slot `len` allocated (or `T` is
        // zero-sized and `data` is aligned and non-null), and it is aligned for `T`
        // (`data` is, and the stride is `size_of::<T>()`). The slot holds no live value,
        // so nothing is overwritten without being dropped. The closures cannot reach the
        // storage (`&mut self` is held here), so `dst` stays valid while they run.
        unsafe { dst.write(make()) };
        self.finish_push(base, finish);
        Some(slot)
    }

    /// Like [`KindStorage::push_with`] with the value cloned from `src_slot` of `src`
    /// (`T::clone_value`, what the class's clone runs, as [`KindStorage::push_clone`]
    /// does), written straight into the slot, then changed in place by `finish`.
    /// `None` (nothing done) unless both storages hold `T`s. The clone is a direct call
    /// of an out-of-line function that writes into the slot: no indirect call, and no
    /// copy of the value through the stack (which an inlined clone makes, and which
    /// costs more time than the call).
    ///
    /// Panics when `src_slot` is out of bounds, or as [`KindStorage::push_default`];
    /// when the clone or `finish` panics nothing is appended (a value `finish` was
    /// changing is dropped).
    #[inline(always)]
    pub(crate) fn push_clone_with<T: Reflect>(
        &mut self,
        base: u32,
        src: &KindStorage,
        src_slot: usize,
        finish: impl FnOnce(&mut T),
    ) -> Option<u32> {
        if !self.holds::<T>() {
            return None;
        }
        let source = &src.as_slice::<T>()?[src_slot];
        let slot = self.next_slot();
        self.reserve_one();
        let dst = self.slot_ptr(self.len).cast::<T>();
        // SAFETY: `holds::<T>()` means the kind's type is `T`; `reserve_one()` made slot
        // `len` allocated (or `T` is zero-sized), aligned for `T`, and it holds no live
        // value. `source` is a value of another storage (a `&` and a `&mut` cannot name
        // one object), so the slot does not overlap it.
        unsafe { clone_into(source, dst) };
        self.finish_push(base, finish);
        Some(slot)
    }

    /// Clones slot `src_slot` of `src` into slot `len` through the class's clone,
    /// after reserving room for it, and returns the slot's number; the value is not
    /// yet counted in `len` nor linked to a base (the caller does both).
    ///
    /// Panics when `src_slot` is out of bounds or as [`KindStorage::push_default`];
    /// when the clone panics the slot stays empty.
    ///
    /// # Safety
    /// `src` holds the same kind as `self`.
    #[inline(always)]
    unsafe fn clone_to_end(&mut self, src: &KindStorage, src_slot: usize) -> u32 {
        let src_ptr = src.as_ptr(src_slot);
        let slot = self.next_slot();
        self.reserve_one();
        // SAFETY: `src_ptr` points to a live value of the kind (checked in bounds, same
        // type as ours by the caller's contract), kept alive and unchanged by the shared
        // borrow of `src`; `src` is another storage than `self` (a `&` and a `&mut` to one
        // object cannot coexist), so the destination does not overlap it. The
        // destination slot `len` is allocated by `reserve_one()` (or the kind is
        // zero-sized), aligned, and holds no live value.
        unsafe {
            self.class
                .ops()
                .clone_in_place(src_ptr, self.slot_ptr(self.len))
        };
        slot
    }

    /// The end of [`KindStorage::push_with`] and [`KindStorage::push_clone_with`]:
    /// runs `finish` on the live `T` just written to slot `len` (the storage holds
    /// `T`s, and room in `bases` is reserved), then counts it and links it to `base`.
    /// If `finish` unwinds, the value is dropped and not counted.
    #[inline(always)]
    fn finish_push<T: 'static>(&mut self, base: u32, finish: impl FnOnce(&mut T)) {
        debug_assert!(self.holds::<T>() && self.bases.len() < self.bases.capacity());
        let dst = self.slot_ptr(self.len).cast::<T>();
        /// Drops the value in the uncounted slot if `finish` unwinds.
        struct DropValue<T>(*mut T);
        impl<T> Drop for DropValue<T> {
            fn drop(&mut self) {
                // SAFETY: armed only while `finish` runs: the slot holds the live value
                // just written, outside `0..len`, so nothing else drops or reads it.
                unsafe { self.0.drop_in_place() }
            }
        }
        let guard = DropValue(dst);
        // SAFETY: the callers wrote a live `T` (the storage's type) to slot `len`, which
        // nothing else refers to (it is outside `0..len`, and `&mut self` is held).
        finish(unsafe { &mut *dst });
        std::mem::forget(guard);
        self.len += 1;
        // Cannot reallocate: the callers' `reserve_one()` made room in `bases` too.
        self.bases.push(base);
    }

    /// Removes the value in `slot` by swap-and-pop (docs/design.md, section 5.2): the last value
    /// moves into `slot` and the removed one is dropped with the class's drop. Returns
    /// the base index of the moved value (now in `slot`), `None` when `slot` was last.
    ///
    /// The storage is consistent before the value's `Drop` runs, so a panicking `Drop`
    /// leaves a valid storage (the panic then propagates). Panics when `slot >= len()`.
    pub(crate) fn swap_remove(&mut self, slot: usize) -> Option<u32> {
        assert!(slot < self.len, "slot {slot} out of bounds ({})", self.len);
        let last = self.len - 1;
        // From here on the value in `last` is outside `0..len`: owned by this function.
        self.len = last;
        self.bases.swap_remove(slot);
        let hole = self.slot_ptr(slot);
        if slot == last {
            // SAFETY: `hole` held a live value of the class and is now outside `0..len`,
            // so it is dropped exactly once and never read again.
            unsafe { self.class.ops().drop_in_place(hole) };
            return None;
        }
        /// Moves the former last value into the hole even when the drop unwinds.
        struct MoveLast {
            src: *const u8,
            dst: *mut u8,
            size: usize,
        }
        impl Drop for MoveLast {
            fn drop(&mut self) {
                // SAFETY: `src` (slot `last`) holds a live value and `dst` (slot `slot`)
                // holds a dropped one; both lie in the allocation, are distinct slots
                // (`slot != last`) and so do not overlap. After the copy `src` is outside
                // `0..len` and never read again: the value was moved.
                unsafe { ptr::copy_nonoverlapping(self.src, self.dst, self.size) }
            }
        }
        let guard = MoveLast {
            src: self.slot_ptr(last),
            dst: hole,
            size: self.elem.size(),
        };
        // SAFETY: `hole` holds a live value of the class that nothing else refers to
        // (`&mut self`); the guard then moves a live value over it, whether or not the
        // drop unwinds, so slot `slot` is live again before anyone can observe it.
        unsafe { self.class.ops().drop_in_place(hole) };
        drop(guard);
        Some(self.bases[slot])
    }

    /// Appends a clone of the value in `src_slot` of `src` (another storage of the same
    /// kind), written straight into its final slot and linked to base record `base`;
    /// returns the slot. Step 2 of docs/design.md, section 7.3 (copy the archetype into the
    /// instance's memory), through the class's clone ([`juliet_core::Reflect::clone_value`]).
    ///
    /// Panics when `src` holds another kind or `src_slot` is out of bounds (broken
    /// invariants), or as [`KindStorage::push_default`]; when the clone panics nothing is
    /// appended.
    #[inline(always)]
    pub(crate) fn push_clone(&mut self, base: u32, src: &KindStorage, src_slot: usize) -> u32 {
        self.assert_same_kind(src);
        // SAFETY: `assert_same_kind` checked that `src` holds our kind.
        let slot = unsafe { self.clone_to_end(src, src_slot) };
        self.len += 1;
        self.bases.push(base);
        slot
    }

    /// Like [`KindStorage::push_clone`] with the source in this storage (a variant
    /// template built from its parent's archetype). Panics when `src_slot >= len()`.
    pub(crate) fn push_clone_of(&mut self, base: u32, src_slot: usize) -> u32 {
        assert!(
            src_slot < self.len,
            "slot {src_slot} out of bounds ({})",
            self.len
        );
        let slot = self.next_slot();
        self.reserve_one();
        // SAFETY: after `reserve_one()` (which may move the values, so both pointers are
        // taken now) slot `src_slot < len` holds a live value of the class and slot `len`
        // is allocated, aligned and holds none; they are distinct slots of a type whose
        // size is their stride, so they do not overlap (for a zero-sized kind both are
        // the dangling aligned pointer and nothing is read or written).
        unsafe {
            self.class
                .ops()
                .clone_in_place(self.slot_ptr(src_slot), self.slot_ptr(self.len))
        };
        self.len += 1;
        self.bases.push(base);
        slot
    }

    /// The next slot index, checked against the `u32` limit.
    #[inline]
    fn next_slot(&self) -> u32 {
        u32::try_from(self.len)
            .ok()
            .filter(|&s| s < u32::MAX)
            .expect("more than u32::MAX - 1 entities of one kind")
    }

    /// Panics unless `other` stores the same type.
    #[inline]
    fn assert_same_kind(&self, other: &KindStorage) {
        assert!(
            self.key == other.key,
            "storage of `{}` used as `{}`",
            other.class.name(),
            self.class.name()
        );
    }

    /// The kind's property table ([`Class::properties`]), which the property methods
    /// below index.
    pub fn properties(&self) -> &'static [PropertyDescriptor] {
        self.class.properties()
    }

    /// Property `index` of the table; panics when out of bounds.
    fn property(&self, index: usize) -> &'static PropertyDescriptor {
        let table = self.properties();
        assert!(
            index < table.len(),
            "class `{}` has {} properties, not {}",
            self.class.name(),
            table.len(),
            index + 1
        );
        &table[index]
    }

    /// Appends the value text of property `index` of the value in `slot` to `out` (what
    /// an inspector shows, and the sparse writer writes). Panics when `slot` or `index`
    /// is out of bounds.
    pub fn encode_property(&self, slot: usize, index: usize, out: &mut String) {
        let p = self.property(index);
        let ptr = self.as_ptr(slot);
        // SAFETY: `ptr` is the live value in `slot` (checked), of the type whose table
        // `p` comes from (`Class::properties`), so `p.offset` and `p.ops` describe one
        // of its fields; the shared borrow keeps it unchanged.
        unsafe { p.ops.encode(ptr, p.offset, out) }
    }

    /// Decodes `value` into property `index` of the value in `slot` (the reflection
    /// table's setter, docs/design.md, section 3.1), through the kind's operations
    /// ([`juliet_core::ClassOps::decode_property`]: a class defined at run time reads
    /// it with its other values).
    ///
    /// # Errors
    /// The codec's [`ValueError`]; the value is unchanged then. Panics when `slot` or
    /// `index` is out of bounds.
    pub(crate) fn decode_property<'a>(
        &mut self,
        slot: usize,
        index: usize,
        value: Value<'a>,
    ) -> Result<(), ValueError<'a>> {
        // Checked here, so that the panic names the class.
        self.property(index);
        let ptr = self.as_mut_ptr(slot);
        // SAFETY: `ptr` is the live value in `slot` (checked), of the type of the kind's
        // operations; the unique borrow of `self` keeps it from being borrowed elsewhere.
        unsafe { self.class.ops().decode_property(ptr, index, value) }
    }

    /// Whether property `index` has the same value in `slot` and in `other_slot` of
    /// `other` (a storage of the same kind, or this one), by the kind's operations
    /// ([`juliet_core::ClassOps::same_property`]: the property's
    /// [`juliet_core::Codec::same_value`], or a class defined at run time's comparison).
    /// Panics on another kind or an out-of-bounds slot or index.
    pub fn same_property(
        &self,
        slot: usize,
        index: usize,
        other: &KindStorage,
        other_slot: usize,
    ) -> bool {
        self.assert_same_kind(other);
        self.property(index);
        let (a, b) = (self.as_ptr(slot), other.as_ptr(other_slot));
        // SAFETY: both are live values (checked in bounds) of the kind's class (checked
        // the same); both borrows are shared, so neither changes.
        unsafe { self.class.ops().same_property(a, b, index) }
    }

    /// Copies (clone-assigns) property `index` from `src_slot` of `src`, another storage
    /// of the same kind, into the value in `slot` (revert and template propagation, seed
    /// 04 sections 5.3-5.4), by the kind's operations
    /// ([`juliet_core::ClassOps::copy_property`]). Panics on another kind or an
    /// out-of-bounds slot or index.
    pub(crate) fn copy_property_from(
        &mut self,
        slot: usize,
        index: usize,
        src: &KindStorage,
        src_slot: usize,
    ) {
        self.assert_same_kind(src);
        self.property(index);
        let from = src.as_ptr(src_slot);
        let to = self.as_mut_ptr(slot);
        // SAFETY: both are live values (checked in bounds) of the kind's class (checked
        // the same); `src` and `self` are different storages (a `&` and a `&mut` cannot
        // name one object), so the objects differ, and the unique borrow of `self` keeps
        // the destination from being borrowed elsewhere.
        unsafe { self.class.ops().copy_property(to, from, index) }
    }

    /// Like [`KindStorage::copy_property_from`] within this storage, from `src_slot` to
    /// `dst_slot` (a variant template taking its parent's new value). Panics when the
    /// slots are equal or out of bounds, or `index` is.
    pub(crate) fn copy_property_within(&mut self, dst_slot: usize, index: usize, src_slot: usize) {
        assert_ne!(dst_slot, src_slot, "a property copied onto itself");
        self.property(index);
        let from = self.as_ptr(src_slot);
        let to = self.as_mut_ptr(dst_slot);
        // SAFETY: two distinct live slots (checked) of the kind's class: different
        // objects, not overlapping; the unique borrow of `self` keeps both from being
        // borrowed elsewhere.
        unsafe { self.class.ops().copy_property(to, from, index) }
    }

    /// The values as `&[T]`, or `None` when `T` is not the kind's type.
    pub fn as_slice<T: 'static>(&self) -> Option<&[T]> {
        if !self.holds::<T>() {
            return None;
        }
        // SAFETY: `holds::<T>()` means the kind's type is `T` (`key` is the private
        // `ClassOps::key` of the class, read at creation), so `elem` is
        // `Layout::new::<T>()`; `data` is non-null and aligned to `align_of::<T>()`; slots
        // `0..len` hold live `T`s laid out with stride `size_of::<T>()`, within one
        // allocation of at most `isize::MAX` bytes (or zero-sized). The shared borrow of
        // `self` keeps them from being changed while the slice lives.
        Some(unsafe { std::slice::from_raw_parts(self.data.as_ptr().cast::<T>(), self.len) })
    }

    /// The values as `&mut [T]`, or `None` when `T` is not the kind's type.
    pub(crate) fn as_mut_slice<T: 'static>(&mut self) -> Option<&mut [T]> {
        if !self.holds::<T>() {
            return None;
        }
        // SAFETY: as in `as_slice`; the unique borrow of `self` makes the slice unique.
        Some(unsafe { std::slice::from_raw_parts_mut(self.data.as_ptr().cast::<T>(), self.len) })
    }

    /// The values as `&mut [T]` together with their base indices (`None` when `T` is not
    /// the kind's type).
    pub(crate) fn as_mut_slice_with_bases<T: 'static>(&mut self) -> Option<(&mut [T], &[u32])> {
        if !self.holds::<T>() {
            return None;
        }
        // SAFETY: as in `as_mut_slice`; `bases` is a separate allocation, borrowed shared
        // from the same unique borrow of `self` and never reached through the slice.
        let values =
            unsafe { std::slice::from_raw_parts_mut(self.data.as_ptr().cast::<T>(), self.len) };
        Some((values, &self.bases))
    }

    /// The value in `slot` as a `T` (`None` for another type or an out-of-bounds slot).
    pub fn get<T: 'static>(&self, slot: usize) -> Option<&T> {
        self.as_slice::<T>()?.get(slot)
    }

    /// The value in `slot` as a `&mut T` (`None` for another type or out of bounds).
    pub(crate) fn get_mut<T: 'static>(&mut self, slot: usize) -> Option<&mut T> {
        self.as_mut_slice::<T>()?.get_mut(slot)
    }

    /// Loads the properties of `ar` into the value in `slot` through the class's
    /// loader ([`juliet_core::Reflect::load`]): missing keys keep the current values.
    ///
    /// # Errors
    /// The class loader's error (a bad value, a failed migration); the value is then
    /// partly loaded but valid. Panics when `slot >= len()`.
    pub(crate) fn load(&mut self, slot: usize, ar: &mut Archive<'_>) -> Result<(), Error> {
        let ptr = self.as_mut_ptr(slot);
        // SAFETY: `ptr` points to the live value in `slot` (checked in bounds), of the
        // class's type, and `&mut self` keeps it from being borrowed elsewhere.
        unsafe { self.class.ops().load(ptr, ar) }
    }

    /// Saves the value in `slot` through the class's writer (`ClassVersion`, then every
    /// property in declaration order). Panics when `slot >= len()`.
    pub fn save(&self, slot: usize, ar: &mut Archive<'_>) {
        let ptr = self.as_ptr(slot);
        // SAFETY: `ptr` points to the live value in `slot`, of the class's type; the
        // shared borrow of `self` keeps it alive and unchanged.
        unsafe { self.class.ops().save(ptr, ar) }
    }
}

impl Drop for KindStorage {
    /// Drops every value with the class's drop, then frees the memory. If a value's
    /// `Drop` panics, the values after it are leaked (never dropped twice) and the memory
    /// is still freed.
    fn drop(&mut self) {
        struct Free {
            ptr: *mut u8,
            layout: Option<Layout>,
        }
        impl Drop for Free {
            fn drop(&mut self) {
                if let Some(layout) = self.layout {
                    // SAFETY: `ptr` was allocated by the global allocator with `layout`
                    // (the storage's current capacity) and is not used afterwards.
                    unsafe { alloc::dealloc(self.ptr, layout) }
                }
            }
        }
        let allocated = self.elem.size() != 0 && self.cap != 0;
        let _free = Free {
            ptr: self.data.as_ptr(),
            layout: allocated.then(|| array_layout(self.elem, self.cap).expect("layout")),
        };
        let len = std::mem::replace(&mut self.len, 0);
        for slot in 0..len {
            // SAFETY: slots `0..len` hold live values of the class; `self.len` is 0, so
            // each is dropped exactly once (a panic leaks the rest instead).
            unsafe { self.class.ops().drop_in_place(self.slot_ptr(slot)) };
        }
    }
}

// SAFETY: a `KindStorage` owns its values (it allocates, moves and drops them; the raw
// `data` pointer is never shared with another owner), so sending it sends those values.
// Their type is the one `class.ops()` was made for, fixed when the class is made: a
// `T: Reflect` (`Class::of`, and `Reflect: Send`) or the `[R::Value; n]` of a
// `R: RuntimeClass` (`Class::runtime`, and `R::Value: Send`), so every value a storage
// can hold is `Send`. The other fields
// (`&'static Class`, whose fields are plain data and function pointers, `TypeId`,
// `Layout`, `Vec<u32>`) are `Send` on their own.
unsafe impl Send for KindStorage {}

// SAFETY: through `&KindStorage` other threads only read: every `&self` method reads the
// values (`as_slice`, `get`, `encode_property`, `same_property`, `save`, `as_ptr`, whose
// pointer is only read through by its `unsafe` callers) or the bookkeeping fields, and
// nothing in the storage has interior mutability. Sharing `&T` between threads needs
// `T: Sync`, which holds for every storable type as above (`Reflect: Sync`,
// `R::Value: Sync`).
unsafe impl Sync for KindStorage {}

static_assertions::assert_impl_all!(KindStorage: Send, Sync);

impl fmt::Debug for KindStorage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KindStorage")
            .field("class", &self.class.name())
            .field("len", &self.len)
            .field("capacity", &self.cap)
            .field("bases", &self.bases)
            .finish()
    }
}

#[cfg(test)]
mod tests;
