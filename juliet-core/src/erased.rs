//! Type-erased access to values and fields: the function tables [`ClassOps`] and
//! [`PropertyOps`] (function pointers over raw bytes, made from generic functions at
//! compile time) and the [`PropertyDescriptor`] (a field's key, offset and operations)
//! with its checked typed access.
//!
//! The runtime keeps entities of many kinds in per-kind storage it only knows by
//! [`crate::Class`], and reaches fields by offset (docs/design.md, section 3.6). Every
//! function here is a thin monomorphic wrapper whose safety contract is the pointer's
//! validity; the tests run under Miri. The other modules that hold `unsafe` are the
//! tokenizer's SSE2 scan (`token::simd`), the entity storage in `juliet-entities` and
//! the construct tick batches in `juliet-constructs`.
//!
//! This module does not depend on [`crate::class`]: it knows a class's Rust type only
//! through a crate-private trait that `class` implements for every
//! [`Reflect`](crate::Reflect) type. The `Reflect`-typed entry points (`ClassOps::of`,
//! behind the public [`crate::Class::of`], and [`PropertyDescriptor::encode`] and its
//! siblings) are defined in `class` and call the crate-private ones here.

use std::alloc::Layout;
use std::any::{Any, TypeId};

use crate::archive::Archive;
use crate::codec::{Codec, PropertyType};
use crate::crc::{key_crc, keys_equal, Key};
use crate::error::Error;
use crate::value::{Value, ValueError};

/// The Rust type of a class, as type-erased code sees it: the operations [`ClassOps`]
/// erases, and the table a typed property access checks descriptors against.
///
/// Implemented in [`crate::class`] for every [`Reflect`](crate::Reflect) type, each
/// item forwarding to the `Reflect` item its doc comment names, and for no other type.
pub(crate) trait ClassType: Sized + 'static {
    /// `Reflect::default_value`.
    fn default_value() -> Self;
    /// `Reflect::clone_value`.
    fn clone_value(&self) -> Self;
    /// `Reflect::save`.
    fn save(&self, ar: &mut Archive<'_>);
    /// `Reflect::load`.
    fn load(&mut self, ar: &mut Archive<'_>) -> Result<(), Error>;
    /// `Reflect::CLASS.properties()`: the table a typed access accepts descriptors of.
    fn class_properties() -> &'static [PropertyDescriptor];
    /// `Reflect::CLASS.name()`, for messages.
    fn class_name() -> &'static str;
}

/// What the operations of a class are made for, passed to each of them: nothing for a
/// Rust type (`&()`), the class's own description for a class defined at run time
/// ([`crate::Class::runtime`]).
type Context = &'static (dyn Any + Send + Sync);

/// Which type the values of a class are, as type-erased storage tells kinds apart and
/// checks typed access: a Rust type ([`ClassKey::of`]), or a class defined at run time
/// (a key of its own, which no Rust type has).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClassKey(KeyRepr);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum KeyRepr {
    Type(TypeId),
    Runtime(u64),
}

impl ClassKey {
    /// The key of the values of Rust type `T`.
    pub fn of<T: 'static>() -> ClassKey {
        ClassKey(KeyRepr::Type(TypeId::of::<T>()))
    }
}

/// How [`ClassOps`] finds its [`ClassKey`]: `TypeId::of` is not a `const fn`, so a Rust
/// type's is called when asked for.
#[derive(Debug, Clone, Copy)]
enum KeyOf {
    Type(fn() -> TypeId),
    Runtime(u64),
}

/// Operations on a whole value of a class, through raw pointers.
#[derive(Debug, Clone, Copy)]
pub struct ClassOps {
    default_in_place: unsafe fn(Context, *mut u8),
    drop_in_place: unsafe fn(Context, *mut u8),
    clone_in_place: unsafe fn(Context, *const u8, *mut u8),
    decode_property:
        for<'a> unsafe fn(Context, *mut u8, usize, Value<'a>) -> Result<(), ValueError<'a>>,
    same_property: unsafe fn(Context, *const u8, *const u8, usize) -> bool,
    copy_property: unsafe fn(Context, *mut u8, *const u8, usize),
    save: unsafe fn(Context, *const u8, &mut Archive<'_>),
    load: unsafe fn(Context, *mut u8, &mut Archive<'_>) -> Result<(), Error>,
    // Made by `ClassOps::with` (behind `ClassOps::of` and `ClassOps::runtime`), private, so
    // that no code outside this module can change them: type-erased storage
    // (`juliet-entities`) sizes, aligns and downcasts by these.
    context: Context,
    layout: Layout,
    key: KeyOf,
}

/// One family of class operations over raw pointers, each given the class's context:
/// those of a Rust type ([`Typed`]) and those of a class defined at run time
/// (`runtime::Dynamic`). [`ClassOps::with`] takes an implementation's functions as
/// pointers. Each function's safety contract is that of the [`ClassOps`] method of
/// the same name, for the values of the class the context belongs to.
trait Operations {
    unsafe fn default_in_place(cx: Context, dst: *mut u8);
    unsafe fn drop_in_place(cx: Context, ptr: *mut u8);
    unsafe fn clone_in_place(cx: Context, src: *const u8, dst: *mut u8);
    unsafe fn decode_property<'a>(cx: Context, at: *mut u8, i: usize, v: Value<'a>) -> Decoded<'a>;
    unsafe fn same_property(cx: Context, a: *const u8, b: *const u8, index: usize) -> bool;
    unsafe fn copy_property(cx: Context, dst: *mut u8, src: *const u8, index: usize);
    unsafe fn save(cx: Context, ptr: *const u8, ar: &mut Archive<'_>);
    unsafe fn load(cx: Context, ptr: *mut u8, ar: &mut Archive<'_>) -> Result<(), Error>;
}

/// What [`Operations::decode_property`] gives: the property's error, if any.
type Decoded<'a> = Result<(), ValueError<'a>>;

/// The operations of Rust type `T`, through its `Reflect` impl and its property table.
struct Typed<T>(std::marker::PhantomData<T>);

impl<T: ClassType> Operations for Typed<T> {
    unsafe fn default_in_place(_: Context, dst: *mut u8) {
        // SAFETY: the caller guarantees `dst` is valid for writes of a `T` and aligned.
        unsafe { dst.cast::<T>().write(T::default_value()) }
    }

    unsafe fn drop_in_place(_: Context, ptr: *mut u8) {
        // SAFETY: the caller guarantees `ptr` holds a live `T` that is not used again.
        unsafe { ptr.cast::<T>().drop_in_place() }
    }

    unsafe fn clone_in_place(_: Context, src: *const u8, dst: *mut u8) {
        // SAFETY: the caller guarantees `src` holds a live `T` and `dst` is valid for
        // writes of a `T`, aligned and not overlapping `src`.
        unsafe {
            let value = (*src.cast::<T>()).clone_value();
            dst.cast::<T>().write(value);
        }
    }

    unsafe fn decode_property<'a>(_: Context, at: *mut u8, i: usize, v: Value<'a>) -> Decoded<'a> {
        let p = &T::class_properties()[i];
        // SAFETY: the caller guarantees `at` holds a live `T` with no other borrow, and
        // `p` is an entry of `T`'s own table, so `p.offset` and `p.ops` describe its
        // field.
        unsafe { p.ops.decode_into(at, p.offset, v) }
    }

    unsafe fn same_property(_: Context, a: *const u8, b: *const u8, index: usize) -> bool {
        let p = &T::class_properties()[index];
        // SAFETY: the caller guarantees `a` and `b` hold live `T`s, and `p` is an entry
        // of `T`'s own table, so `p.offset` and `p.ops` describe one of its fields.
        unsafe { p.ops.same_value(a, b, p.offset) }
    }

    unsafe fn copy_property(_: Context, dst: *mut u8, src: *const u8, index: usize) {
        let p = &T::class_properties()[index];
        // SAFETY: the caller guarantees `dst` and `src` hold two different live `T`s,
        // `dst` borrowed nowhere else, and `p` is an entry of `T`'s own table.
        unsafe { p.ops.clone_from(dst, src, p.offset) }
    }

    unsafe fn save(_: Context, ptr: *const u8, ar: &mut Archive<'_>) {
        // SAFETY: the caller guarantees `ptr` holds a live `T`.
        unsafe { (*ptr.cast::<T>()).save(ar) }
    }

    unsafe fn load(_: Context, ptr: *mut u8, ar: &mut Archive<'_>) -> Result<(), Error> {
        // SAFETY: the caller guarantees `ptr` holds a live `T` with no other borrow.
        unsafe { (*ptr.cast::<T>()).load(ar) }
    }
}

impl ClassOps {
    /// The operations `O` over values of `layout`, told apart by `key`, each given
    /// `context`.
    const fn with<O: Operations>(context: Context, layout: Layout, key: KeyOf) -> ClassOps {
        ClassOps {
            default_in_place: O::default_in_place,
            drop_in_place: O::drop_in_place,
            clone_in_place: O::clone_in_place,
            decode_property: O::decode_property,
            same_property: O::same_property,
            copy_property: O::copy_property,
            save: O::save,
            load: O::load,
            context,
            layout,
            key,
        }
    }

    /// The operations of `T` (what `ClassOps::of` returns).
    pub(crate) const fn erase<T: ClassType>() -> ClassOps {
        let key = KeyOf::Type(TypeId::of::<T>);
        ClassOps::with::<Typed<T>>(&(), Layout::new::<T>(), key)
    }

    /// The layout (size and alignment) of the values these operations act on, fixed when
    /// the operations are made: type-erased storage allocates by it.
    pub const fn layout(&self) -> Layout {
        self.layout
    }

    /// Which type the values are. It cannot be changed after the operations are made,
    /// so a downcast may rely on it.
    pub fn key(&self) -> ClassKey {
        match self.key {
            KeyOf::Type(type_id) => ClassKey(KeyRepr::Type(type_id())),
            KeyOf::Runtime(n) => ClassKey(KeyRepr::Runtime(n)),
        }
    }

    /// Whether these are the operations of `T` (by [`ClassOps::key`]; never for a class
    /// defined at run time).
    pub fn is<T: 'static>(&self) -> bool {
        self.key() == ClassKey::of::<T>()
    }

    /// Writes the class's default value to `dst`.
    ///
    /// # Safety
    /// `dst` must be valid for writes of the class's size, aligned to its alignment;
    /// any value there is overwritten without being dropped.
    pub unsafe fn default_in_place(&self, dst: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { (self.default_in_place)(self.context, dst) }
    }

    /// Drops the value at `ptr` in place.
    ///
    /// # Safety
    /// `ptr` must hold a live value of the class, which is not used afterwards.
    pub unsafe fn drop_in_place(&self, ptr: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { (self.drop_in_place)(self.context, ptr) }
    }

    /// Writes a clone of the value at `src` to `dst`.
    ///
    /// # Safety
    /// `src` must hold a live value of the class; `dst` must be valid for writes of
    /// the class's size, aligned, and must not overlap `src`.
    pub unsafe fn clone_in_place(&self, src: *const u8, dst: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { (self.clone_in_place)(self.context, src, dst) }
    }

    /// Decodes `value` into property `index` ([`crate::Class::properties`]) of the value
    /// at `object` (the reflection table's setter): through the property's own
    /// operations for a Rust type, through [`RuntimeClass::decode_property`] for a class
    /// defined at run time, whose properties may hang together (the leaves of one enum).
    ///
    /// # Safety
    /// `object` must hold a live value of the class, not borrowed elsewhere.
    ///
    /// # Errors
    /// The property's [`ValueError`]; the value is unchanged then.
    ///
    /// # Panics
    /// When `index` is not an entry of the table.
    pub unsafe fn decode_property<'a>(
        &self,
        object: *mut u8,
        index: usize,
        value: Value<'a>,
    ) -> Result<(), ValueError<'a>> {
        // SAFETY: forwarded contract.
        unsafe { (self.decode_property)(self.context, object, index, value) }
    }

    /// Whether property `index` ([`crate::Class::properties`]) of the values at `a` and
    /// `b` is the same ([`crate::Codec::same_value`]; what makes a leaf an override of a
    /// template): through the property's own operations for a Rust type, through
    /// [`RuntimeClass::same_property`] for a class defined at run time.
    ///
    /// # Safety
    /// `a` and `b` must hold live values of the class, not changed during the call.
    ///
    /// # Panics
    /// When `index` is not an entry of the table.
    pub unsafe fn same_property(&self, a: *const u8, b: *const u8, index: usize) -> bool {
        // SAFETY: forwarded contract.
        unsafe { (self.same_property)(self.context, a, b, index) }
    }

    /// Copies (clone-assigns) property `index` of the value at `src` into the value at
    /// `dst` (revert, a template's change reaching its instances): through the property's
    /// own operations for a Rust type, through [`RuntimeClass::copy_property`] for a
    /// class defined at run time, whose properties may hang together.
    ///
    /// # Safety
    /// `dst` and `src` must hold two different live values of the class, `dst` not
    /// borrowed elsewhere.
    ///
    /// # Panics
    /// When `index` is not an entry of the table.
    pub unsafe fn copy_property(&self, dst: *mut u8, src: *const u8, index: usize) {
        // SAFETY: forwarded contract.
        unsafe { (self.copy_property)(self.context, dst, src, index) }
    }

    /// Saves the value at `ptr` ([`Reflect::save`](crate::Reflect::save)).
    ///
    /// # Safety
    /// `ptr` must hold a live value of the class.
    pub unsafe fn save(&self, ptr: *const u8, ar: &mut Archive<'_>) {
        // SAFETY: forwarded contract.
        unsafe { (self.save)(self.context, ptr, ar) }
    }

    /// Loads into the value at `ptr` ([`Reflect::load`](crate::Reflect::load)).
    ///
    /// # Safety
    /// `ptr` must hold a live value of the class, not borrowed elsewhere.
    ///
    /// # Errors
    /// As [`Reflect::load`](crate::Reflect::load).
    pub unsafe fn load(&self, ptr: *mut u8, ar: &mut Archive<'_>) -> Result<(), Error> {
        // SAFETY: forwarded contract.
        unsafe { (self.load)(self.context, ptr, ar) }
    }
}

/// Operations on one field, through a pointer to the object and the field's offset.
#[derive(Debug, Clone, Copy)]
pub struct PropertyOps {
    encode: unsafe fn(*const u8, &mut String),
    decode_into: for<'a> unsafe fn(*mut u8, Value<'a>) -> Result<(), ValueError<'a>>,
    same_value: unsafe fn(*const u8, *const u8) -> bool,
    clone_from: unsafe fn(*mut u8, *const u8),
    // Private, like the operations: a descriptor is checked against its class's table
    // by it, so no code outside this module may pair it with other operations.
    type_id: fn() -> TypeId,
}

unsafe fn field_encode<F: Codec>(field: *const u8, out: &mut String) {
    // SAFETY: the caller guarantees `field` points to a live `F`.
    unsafe { (*field.cast::<F>()).encode(out) }
}

unsafe fn field_decode_into<'a, F: Codec>(
    field: *mut u8,
    value: Value<'a>,
) -> Result<(), ValueError<'a>> {
    // SAFETY: the caller guarantees `field` points to a live `F`, not borrowed elsewhere.
    unsafe { (*field.cast::<F>()).decode_into(value) }
}

unsafe fn field_same_value<F: Codec>(a: *const u8, b: *const u8) -> bool {
    // SAFETY: the caller guarantees both point to live `F`s.
    unsafe { (*a.cast::<F>()).same_value(&*b.cast::<F>()) }
}

unsafe fn field_clone_from<F: Codec>(dst: *mut u8, src: *const u8) {
    // SAFETY: the caller guarantees both point to live `F`s in different objects.
    unsafe { (*dst.cast::<F>()).clone_from(&*src.cast::<F>()) }
}

impl PropertyOps {
    /// The `TypeId` of the field type these operations were made for.
    pub fn type_id(&self) -> TypeId {
        (self.type_id)()
    }

    /// The operations of a field of type `F`.
    pub const fn of<F: Codec>() -> PropertyOps {
        PropertyOps {
            encode: field_encode::<F>,
            decode_into: field_decode_into::<F>,
            same_value: field_same_value::<F>,
            clone_from: field_clone_from::<F>,
            type_id: TypeId::of::<F>,
        }
    }

    /// Appends the field's value text.
    ///
    /// # Safety
    /// `object` must point to a live value of a class whose field at `offset` has this
    /// descriptor's type.
    pub unsafe fn encode(&self, object: *const u8, offset: usize, out: &mut String) {
        // SAFETY: forwarded contract; `offset` is inside the object.
        unsafe { (self.encode)(object.add(offset), out) }
    }

    /// Decodes `value` into the field.
    ///
    /// # Safety
    /// As [`PropertyOps::encode`], and the object is not borrowed elsewhere.
    ///
    /// # Errors
    /// The codec's [`ValueError`].
    pub(crate) unsafe fn decode_into<'a>(
        &self,
        object: *mut u8,
        offset: usize,
        value: Value<'a>,
    ) -> Result<(), ValueError<'a>> {
        // SAFETY: forwarded contract.
        unsafe { (self.decode_into)(object.add(offset), value) }
    }

    /// Compares the field in two objects.
    ///
    /// # Safety
    /// Both must point to live values of the same class as in [`PropertyOps::encode`].
    pub(crate) unsafe fn same_value(&self, a: *const u8, b: *const u8, offset: usize) -> bool {
        // SAFETY: forwarded contract.
        unsafe { (self.same_value)(a.add(offset), b.add(offset)) }
    }

    /// Clone-assigns the field from `src` to `dst`.
    ///
    /// # Safety
    /// Both must point to live values of the same class as in [`PropertyOps::encode`],
    /// and be different objects; `dst` not borrowed elsewhere.
    pub(crate) unsafe fn clone_from(&self, dst: *mut u8, src: *const u8, offset: usize) {
        // SAFETY: forwarded contract.
        unsafe { (self.clone_from)(dst.add(offset), src.add(offset)) }
    }
}

/// One property of a class: key, CRC, aliases, field offset, type and the operations to
/// read, write, compare and copy it through the offset. A field of a composite type
/// (`#[derive(Codec)]` on a struct) has one descriptor per leaf, keyed by its path
/// (`Stats.Hp`) and placed at the leaf's offset in the class.
#[derive(Debug, Clone, Copy)]
pub struct PropertyDescriptor {
    /// The key the writer emits (PascalCase of the field name unless renamed).
    pub key: &'static str,
    /// [`key_crc`] of `key`.
    pub crc: u32,
    /// Other keys read as this property (never written).
    pub aliases: &'static [Key],
    /// The Rust field name.
    pub field: &'static str,
    /// Byte offset of the field in the struct (`core::mem::offset_of!`).
    pub offset: usize,
    /// `size_of` the field type, in bytes.
    pub size: usize,
    /// The field's type.
    pub property_type: PropertyType,
    /// Type-erased operations on the field.
    pub ops: PropertyOps,
    /// The deprecated keys of the class the migration sets this property from
    /// (`#[jasset(migrated_from = "Key")]`): an instance file that held one of them holds
    /// this property too, under its new key, so the property is an override of the
    /// instance even where its migrated value equals the template's.
    pub migrated_from: &'static [Key],
    /// The block header the writer writes (`"; "`, the key, `"\n"`) in tables the
    /// derive builds, which read their composites' leaves with it; empty otherwise.
    pub header: &'static str,
}

impl PropertyDescriptor {
    /// Whether `key`, whose [`crate::key_crc_runtime`] is `crc`, is this property's key
    /// or one of its aliases under any spelling: the CRC first, then the normalized
    /// text, so a CRC-32 twin is not.
    #[inline]
    pub fn matches(&self, crc: u32, key: &str) -> bool {
        (self.crc == crc && (key == self.key || keys_equal(key, self.key)))
            || self.aliases.iter().any(|a| a.matches(crc, key))
    }

    /// The descriptor of a field of type `F` at `offset` (used by the derive).
    pub const fn new<F: Codec>(
        key: &'static str,
        field: &'static str,
        offset: usize,
        aliases: &'static [Key],
    ) -> PropertyDescriptor {
        PropertyDescriptor {
            key,
            crc: key_crc(key),
            aliases,
            field,
            offset,
            size: std::mem::size_of::<F>(),
            property_type: F::PROPERTY_TYPE,
            ops: PropertyOps::of::<F>(),
            migrated_from: &[],
            header: "",
        }
    }

    /// This descriptor with the deprecated keys its migration sets it from
    /// ([`PropertyDescriptor::migrated_from`]; used by the derive).
    pub const fn with_migrated_from(mut self, keys: &'static [Key]) -> PropertyDescriptor {
        self.migrated_from = keys;
        self
    }
}

/// Typed, safe access to a property through its descriptor (the offset and the
/// operations above, checked against the owning class): what the public
/// `Reflect`-typed methods of [`crate::class`] ([`PropertyDescriptor::encode`] and its
/// siblings) call.
impl PropertyDescriptor {
    /// Panics unless this descriptor is one of `T`'s property table: using a descriptor
    /// with another type is a broken invariant.
    ///
    /// A descriptor taken from `T::CLASS.properties()` is usually inside that slice, but
    /// Rust promises one address neither for a constant (each use of a `const` table
    /// may be a copy of its own) nor for a function. So a descriptor outside the slice
    /// is accepted when an entry of the table has its key, offset, size and field
    /// `TypeId`: its operations are then those of the very field type `T` has at that
    /// offset.
    fn check<T: ClassType>(&self) {
        let table = T::class_properties();
        let me: *const PropertyDescriptor = self;
        if table.as_ptr_range().contains(&me) {
            return;
        }
        assert!(
            table.iter().any(|p| p.same_descriptor(self)),
            "property `{}` does not belong to class `{}`",
            self.key,
            T::class_name()
        );
    }

    /// Whether two descriptors describe the same field: same key, offset, size and
    /// field type.
    fn same_descriptor(&self, other: &PropertyDescriptor) -> bool {
        self.offset == other.offset
            && self.size == other.size
            && self.crc == other.crc
            && self.key == other.key
            && self.ops.type_id() == other.ops.type_id()
    }

    /// Appends the value of this property of `object` to `out` (its value lines).
    pub(crate) fn checked_encode<T: ClassType>(&self, object: &T, out: &mut String) {
        self.check::<T>();
        // SAFETY: `check` proved this descriptor comes from `T`'s table, so `offset`
        // and `ops` describe a field of `T`, and `object` is a live `&T`.
        unsafe { self.ops.encode(bytes_of(object), self.offset, out) }
    }

    /// Decodes `value` into this property of `object`.
    ///
    /// # Errors
    /// The codec's [`ValueError`]; the field is unchanged then.
    pub(crate) fn checked_decode_into<'a, T: ClassType>(
        &self,
        object: &mut T,
        value: Value<'a>,
    ) -> Result<(), ValueError<'a>> {
        self.check::<T>();
        // SAFETY: as in `checked_encode`, with a unique borrow of `object`.
        unsafe {
            self.ops
                .decode_into(bytes_of_mut(object), self.offset, value)
        }
    }

    /// Whether this property has the same value in `a` and `b` ([`Codec::same_value`]).
    pub(crate) fn checked_same_value<T: ClassType>(&self, a: &T, b: &T) -> bool {
        self.check::<T>();
        // SAFETY: as in `checked_encode`, for two live `&T`.
        unsafe { self.ops.same_value(bytes_of(a), bytes_of(b), self.offset) }
    }

    /// Copies this property from `src` to `dst` (clone-assign).
    pub(crate) fn checked_copy_value<T: ClassType>(&self, dst: &mut T, src: &T) {
        self.check::<T>();
        // SAFETY: as in `checked_encode`; `dst` is unique and `src` shared, so they
        // differ.
        unsafe {
            self.ops
                .clone_from(bytes_of_mut(dst), bytes_of(src), self.offset)
        }
    }
}

/// `object` as a pointer to its first byte, for the operations above.
fn bytes_of<T>(object: &T) -> *const u8 {
    std::ptr::from_ref(object).cast()
}

/// `object` as a pointer to its first byte, for writing through.
fn bytes_of_mut<T>(object: &mut T) -> *mut u8 {
    std::ptr::from_mut(object).cast()
}

mod runtime;

pub use runtime::RuntimeClass;

#[cfg(test)]
mod tests;
