//! Type-erased operations on classes and properties: function pointers over raw bytes,
//! made from generic functions at compile time.
//!
//! This is one of the two modules of the workspace that hold `unsafe` (the other is the
//! entity storage in `juliet-entities`): the runtime keeps entities of many kinds in
//! per-kind storage it only knows by [`crate::Class`], and reaches fields by offset
//! (seed 02 section 2, seed 04 section 4). Every function here is a thin monomorphic
//! wrapper whose safety contract is the pointer's validity; its tests run under Miri.

use std::any::TypeId;

use crate::archive::Archive;
use crate::class::{PropertyDescriptor, Reflect};
use crate::codec::Codec;
use crate::error::Error;
use crate::value::{Value, ValueError};

/// Operations on a whole value of a class, through raw pointers.
#[derive(Debug, Clone, Copy)]
pub struct ClassOps {
    default_in_place: unsafe fn(*mut u8),
    drop_in_place: unsafe fn(*mut u8),
    clone_in_place: unsafe fn(*const u8, *mut u8),
    save: unsafe fn(*const u8, &mut Archive<'_>),
    load: unsafe fn(*mut u8, &mut Archive<'_>) -> Result<(), Error>,
    /// The `TypeId` of the class's Rust type.
    pub type_id: fn() -> TypeId,
}

unsafe fn default_in_place<T: Reflect>(dst: *mut u8) {
    // SAFETY: the caller guarantees `dst` is valid for writes of a `T` and aligned.
    unsafe { dst.cast::<T>().write(T::default_value()) }
}

unsafe fn drop_in_place<T: Reflect>(ptr: *mut u8) {
    // SAFETY: the caller guarantees `ptr` holds a live `T` that is not used again.
    unsafe { ptr.cast::<T>().drop_in_place() }
}

unsafe fn clone_in_place<T: Reflect>(src: *const u8, dst: *mut u8) {
    // SAFETY: the caller guarantees `src` holds a live `T` and `dst` is valid for
    // writes of a `T`, aligned and not overlapping `src`.
    unsafe {
        let value = (*src.cast::<T>()).clone_value();
        dst.cast::<T>().write(value);
    }
}

unsafe fn save<T: Reflect>(ptr: *const u8, ar: &mut Archive<'_>) {
    // SAFETY: the caller guarantees `ptr` holds a live `T`.
    unsafe { (*ptr.cast::<T>()).save(ar) }
}

unsafe fn load<T: Reflect>(ptr: *mut u8, ar: &mut Archive<'_>) -> Result<(), Error> {
    // SAFETY: the caller guarantees `ptr` holds a live `T` with no other borrow.
    unsafe { (*ptr.cast::<T>()).load(ar) }
}

impl ClassOps {
    /// The operations of `T`.
    pub const fn of<T: Reflect>() -> ClassOps {
        ClassOps {
            default_in_place: default_in_place::<T>,
            drop_in_place: drop_in_place::<T>,
            clone_in_place: clone_in_place::<T>,
            save: save::<T>,
            load: load::<T>,
            type_id: TypeId::of::<T>,
        }
    }

    /// Writes the class's default value to `dst`.
    ///
    /// # Safety
    /// `dst` must be valid for writes of the class's size, aligned to its alignment;
    /// any value there is overwritten without being dropped.
    pub unsafe fn default_in_place(&self, dst: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { (self.default_in_place)(dst) }
    }

    /// Drops the value at `ptr` in place.
    ///
    /// # Safety
    /// `ptr` must hold a live value of the class, which is not used afterwards.
    pub unsafe fn drop_in_place(&self, ptr: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { (self.drop_in_place)(ptr) }
    }

    /// Writes a clone of the value at `src` to `dst`.
    ///
    /// # Safety
    /// `src` must hold a live value of the class; `dst` must be valid for writes of
    /// the class's size, aligned, and must not overlap `src`.
    pub unsafe fn clone_in_place(&self, src: *const u8, dst: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { (self.clone_in_place)(src, dst) }
    }

    /// Saves the value at `ptr` ([`Reflect::save`]).
    ///
    /// # Safety
    /// `ptr` must hold a live value of the class.
    pub unsafe fn save(&self, ptr: *const u8, ar: &mut Archive<'_>) {
        // SAFETY: forwarded contract.
        unsafe { (self.save)(ptr, ar) }
    }

    /// Loads into the value at `ptr` ([`Reflect::load`]).
    ///
    /// # Safety
    /// `ptr` must hold a live value of the class, not borrowed elsewhere.
    ///
    /// # Errors
    /// As [`Reflect::load`].
    pub unsafe fn load(&self, ptr: *mut u8, ar: &mut Archive<'_>) -> Result<(), Error> {
        // SAFETY: forwarded contract.
        unsafe { (self.load)(ptr, ar) }
    }
}

/// Operations on one field, through a pointer to the object and the field's offset.
#[derive(Debug, Clone, Copy)]
pub struct PropertyOps {
    encode: unsafe fn(*const u8, &mut String),
    decode_into: for<'a> unsafe fn(*mut u8, Value<'a>) -> Result<(), ValueError<'a>>,
    same_value: unsafe fn(*const u8, *const u8) -> bool,
    clone_from: unsafe fn(*mut u8, *const u8),
    /// The `TypeId` of the field's Rust type.
    pub type_id: fn() -> TypeId,
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
    pub unsafe fn decode_into<'a>(
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
    pub unsafe fn same_value(&self, a: *const u8, b: *const u8, offset: usize) -> bool {
        // SAFETY: forwarded contract.
        unsafe { (self.same_value)(a.add(offset), b.add(offset)) }
    }

    /// Clone-assigns the field from `src` to `dst`.
    ///
    /// # Safety
    /// Both must point to live values of the same class as in [`PropertyOps::encode`],
    /// and be different objects; `dst` not borrowed elsewhere.
    pub unsafe fn clone_from(&self, dst: *mut u8, src: *const u8, offset: usize) {
        // SAFETY: forwarded contract.
        unsafe { (self.clone_from)(dst.add(offset), src.add(offset)) }
    }
}

/// Typed, safe access to a property through its descriptor (the offset and the
/// operations above, checked against the owning class).
impl PropertyDescriptor {
    /// Panics unless this descriptor is one of `T`'s property table: using a descriptor
    /// with another type is a broken invariant.
    ///
    /// A descriptor taken from `T::CLASS.properties` is usually inside that slice, but
    /// Rust promises one address neither for a constant (each use of a `const` table
    /// may be a copy of its own) nor for a function. So a descriptor outside the slice
    /// is accepted when an entry of the table has its key, offset, size and field
    /// `TypeId`: its operations are then those of the very field type `T` has at that
    /// offset.
    fn check<T: Reflect>(&self) {
        let table = T::CLASS.properties;
        let me: *const PropertyDescriptor = self;
        if table.as_ptr_range().contains(&me) {
            return;
        }
        assert!(
            table.iter().any(|p| p.same_descriptor(self)),
            "property `{}` does not belong to class `{}`",
            self.key,
            T::CLASS.name
        );
    }

    /// Whether two descriptors describe the same field: same key, offset, size and
    /// field type.
    fn same_descriptor(&self, other: &PropertyDescriptor) -> bool {
        self.offset == other.offset
            && self.size == other.size
            && self.crc == other.crc
            && self.key == other.key
            && (self.ops.type_id)() == (other.ops.type_id)()
    }

    /// Appends the value of this property of `object` to `out` (its value lines).
    pub fn encode<T: Reflect>(&self, object: &T, out: &mut String) {
        self.check::<T>();
        // SAFETY: `check` proved this descriptor comes from `T`'s table, so `offset`
        // and `ops` describe a field of `T`, and `object` is a live `&T`.
        unsafe {
            self.ops
                .encode(object as *const T as *const u8, self.offset, out)
        }
    }

    /// Decodes `value` into this property of `object`.
    ///
    /// # Errors
    /// The codec's [`ValueError`]; the field is unchanged then.
    pub fn decode_into<'a, T: Reflect>(
        &self,
        object: &mut T,
        value: Value<'a>,
    ) -> Result<(), ValueError<'a>> {
        self.check::<T>();
        // SAFETY: as in `encode`, with a unique borrow of `object`.
        unsafe {
            self.ops
                .decode_into(object as *mut T as *mut u8, self.offset, value)
        }
    }

    /// Whether this property has the same value in `a` and `b` ([`Codec::same_value`]).
    pub fn same_value<T: Reflect>(&self, a: &T, b: &T) -> bool {
        self.check::<T>();
        // SAFETY: as in `encode`, for two live `&T`.
        unsafe {
            self.ops.same_value(
                a as *const T as *const u8,
                b as *const T as *const u8,
                self.offset,
            )
        }
    }

    /// Copies this property from `src` to `dst` (clone-assign).
    pub fn copy_value<T: Reflect>(&self, dst: &mut T, src: &T) {
        self.check::<T>();
        // SAFETY: as in `encode`; `dst` is unique and `src` shared, so they differ.
        unsafe {
            self.ops.clone_from(
                dst as *mut T as *mut u8,
                src as *const T as *const u8,
                self.offset,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    //! Hand-written `Reflect` impls (the derive's output shape) for a type with heap
    //! fields and a drop counter, a zero-sized type and a 64-byte-aligned type; the
    //! class and property operations run on raw memory from `std::alloc` with the
    //! class's layout. These tests run under Miri (`.ci/miri`).

    use std::alloc::{alloc, dealloc, Layout};
    use std::cell::Cell;
    use std::mem::offset_of;
    use std::path::Path;
    use std::ptr::NonNull;

    use glam::Vec3;

    use crate::archive::{write_header, Archive};
    use crate::class::{Class, PropertyDescriptor, Reflect};
    use crate::error::{Error, ErrorKind, ValueErrorKind};
    use crate::token::TokenBuffer;
    use crate::value::Value;
    use crate::write_property;

    thread_local! {
        static CREATED: Cell<usize> = const { Cell::new(0) };
        static DROPPED: Cell<usize> = const { Cell::new(0) };
    }

    /// (created, dropped) so far on this thread.
    fn counts() -> (usize, usize) {
        (CREATED.with(Cell::get), DROPPED.with(Cell::get))
    }

    /// A field that counts its creations and drops (not a property: it has no codec,
    /// like a `#[jasset(skip)]` field).
    #[derive(Debug)]
    struct Tracker;

    impl Tracker {
        fn new() -> Tracker {
            CREATED.with(|c| c.set(c.get() + 1));
            Tracker
        }
    }

    impl Drop for Tracker {
        fn drop(&mut self) {
            DROPPED.with(|c| c.set(c.get() + 1));
        }
    }

    /// Saves `ClassVersion` then every property through the typed descriptor methods.
    fn save_properties<T: Reflect>(value: &T, ar: &mut Archive<'_>) {
        let Some(out) = ar.output() else { return };
        write_property(out, "ClassVersion", &T::CLASS.version);
        for p in T::CLASS.properties {
            write_header(out, p.key);
            p.encode(value, out);
            out.push('\n');
        }
    }

    /// Loads every property present through the typed descriptor methods.
    fn load_properties<T: Reflect>(value: &mut T, ar: &mut Archive<'_>) -> Result<(), Error> {
        ar.resolve_class_version(T::CLASS.version)?;
        let Some(doc) = ar.document_mut() else {
            return Ok(());
        };
        for p in T::CLASS.properties {
            if let Some(index) = doc.find(p.crc) {
                let text = doc.value(index);
                p.decode_into(value, text)
                    .map_err(|e| doc.value_error(index, &p.property_type.to_string(), e))?;
            }
        }
        Ok(())
    }

    // --- a type with heap fields and a drop counter --------------------------------

    #[derive(Debug)]
    struct Crate {
        health: f32,
        name: String,
        tags: Vec<String>,
        position: Vec3,
        id: u64,
        _tracker: Tracker,
    }

    const CRATE_PROPERTIES: &[PropertyDescriptor] = &[
        PropertyDescriptor::new::<f32>("Health", "health", offset_of!(Crate, health), &[]),
        PropertyDescriptor::new::<String>("Name", "name", offset_of!(Crate, name), &[]),
        PropertyDescriptor::new::<Vec<String>>("Tags", "tags", offset_of!(Crate, tags), &[]),
        PropertyDescriptor::new::<Vec3>("Position", "position", offset_of!(Crate, position), &[]),
        PropertyDescriptor::new::<u64>("EntityID", "id", offset_of!(Crate, id), &[]),
    ];

    impl Reflect for Crate {
        const CLASS: &'static Class = &Class::of::<Crate>("Crate", 3, CRATE_PROPERTIES, &[]);

        fn default_value() -> Crate {
            Crate {
                health: 100.0,
                name: "crate".to_owned(),
                tags: vec!["wood".to_owned()],
                position: Vec3::new(1.0, 2.0, 3.0),
                id: 0x42,
                _tracker: Tracker::new(),
            }
        }

        fn clone_value(&self) -> Crate {
            Crate {
                health: self.health,
                name: self.name.clone(),
                tags: self.tags.clone(),
                position: self.position,
                id: self.id,
                _tracker: Tracker::new(),
            }
        }

        fn save(&self, ar: &mut Archive<'_>) {
            save_properties(self, ar);
        }

        fn load(&mut self, ar: &mut Archive<'_>) -> Result<(), Error> {
            load_properties(self, ar)
        }
    }

    // --- a zero-sized type whose drop is counted -----------------------------------

    #[derive(Debug)]
    struct Marker;

    impl Drop for Marker {
        fn drop(&mut self) {
            DROPPED.with(|c| c.set(c.get() + 1));
        }
    }

    impl Reflect for Marker {
        const CLASS: &'static Class = &Class::of::<Marker>("Marker", 1, &[], &[]);

        fn default_value() -> Marker {
            CREATED.with(|c| c.set(c.get() + 1));
            Marker
        }

        fn clone_value(&self) -> Marker {
            Marker::default_value()
        }

        fn save(&self, ar: &mut Archive<'_>) {
            save_properties(self, ar);
        }

        fn load(&mut self, ar: &mut Archive<'_>) -> Result<(), Error> {
            load_properties(self, ar)
        }
    }

    // --- an over-aligned type ------------------------------------------------------

    #[derive(Debug)]
    #[repr(align(64))]
    struct Aligned {
        flag: bool,
        mass: f64,
        small: i8,
        _tracker: Tracker,
    }

    const ALIGNED_PROPERTIES: &[PropertyDescriptor] = &[
        PropertyDescriptor::new::<bool>("Flag", "flag", offset_of!(Aligned, flag), &[]),
        PropertyDescriptor::new::<f64>("Mass", "mass", offset_of!(Aligned, mass), &[]),
        PropertyDescriptor::new::<i8>("Small", "small", offset_of!(Aligned, small), &[]),
    ];

    impl Reflect for Aligned {
        const CLASS: &'static Class = &Class::of::<Aligned>("Aligned", 1, ALIGNED_PROPERTIES, &[]);

        fn default_value() -> Aligned {
            Aligned {
                flag: true,
                mass: 250.0,
                small: -3,
                _tracker: Tracker::new(),
            }
        }

        fn clone_value(&self) -> Aligned {
            Aligned {
                flag: self.flag,
                mass: self.mass,
                small: self.small,
                _tracker: Tracker::new(),
            }
        }

        fn save(&self, ar: &mut Archive<'_>) {
            save_properties(self, ar);
        }

        fn load(&mut self, ar: &mut Archive<'_>) -> Result<(), Error> {
            load_properties(self, ar)
        }
    }

    // --- raw memory ----------------------------------------------------------------

    /// A block of raw memory with a class's layout (dangling and aligned for a
    /// zero-sized class, as `std::alloc` must not be asked for zero bytes).
    struct Block {
        ptr: *mut u8,
        layout: Layout,
    }

    impl Block {
        fn new(class: &Class) -> Block {
            let layout = Layout::from_size_align(class.size, class.align).unwrap();
            let ptr = if layout.size() == 0 {
                std::ptr::without_provenance_mut(layout.align())
            } else {
                // SAFETY: the layout has a non-zero size.
                let ptr = unsafe { alloc(layout) };
                assert!(!ptr.is_null(), "allocation failed");
                ptr
            };
            assert_eq!(ptr as usize % class.align, 0);
            Block { ptr, layout }
        }
    }

    impl Drop for Block {
        fn drop(&mut self) {
            if self.layout.size() != 0 {
                // SAFETY: allocated in `Block::new` with this layout.
                unsafe { dealloc(self.ptr, self.layout) }
            }
        }
    }

    fn tokenize_load<T: Reflect>(text: &str, place: *mut u8) -> Result<(), Error> {
        let mut buffer = TokenBuffer::new();
        let doc = buffer.tokenize(text.as_bytes(), Path::new("t.jasset"))?;
        let mut ar = Archive::loading(doc);
        // SAFETY: the callers pass a block holding a live `T`.
        unsafe { T::CLASS.ops.load(place, &mut ar) }
    }

    // --- tests ---------------------------------------------------------------------

    #[test]
    fn class_layout_is_the_types() {
        assert_eq!(Crate::CLASS.size, size_of::<Crate>());
        assert_eq!(Crate::CLASS.align, align_of::<Crate>());
        assert_eq!((Marker::CLASS.size, Marker::CLASS.align), (0, 1));
        assert_eq!((Aligned::CLASS.size, Aligned::CLASS.align), (64, 64));
        assert!(Crate::CLASS.is::<Crate>() && !Crate::CLASS.is::<Aligned>());
        assert_eq!(
            (Crate::CLASS.ops.type_id)(),
            std::any::TypeId::of::<Crate>()
        );
    }

    #[test]
    fn default_clone_and_drop_in_place_balance() {
        let before = counts();
        let class = Crate::CLASS;
        let a = Block::new(class);
        let b = Block::new(class);
        // SAFETY: both blocks have the class's layout; each value is written once,
        // read while live and dropped once.
        unsafe {
            class.ops.default_in_place(a.ptr);
            {
                let crate_a = &mut *a.ptr.cast::<Crate>();
                assert_eq!(crate_a.name, "crate");
                assert_eq!(crate_a.tags, ["wood"]);
                crate_a.name.push_str(" of apples");
                crate_a.tags.push("apples".to_owned());
            }
            class.ops.clone_in_place(a.ptr, b.ptr);
            // The clone owns its own heap data.
            (*a.ptr.cast::<Crate>()).name.clear();
            let crate_b = &*b.ptr.cast::<Crate>();
            assert_eq!(crate_b.name, "crate of apples");
            assert_eq!(crate_b.tags, ["wood", "apples"]);
            assert_eq!(crate_b.position, Vec3::new(1.0, 2.0, 3.0));
            assert_eq!(
                counts().0 - before.0,
                2,
                "default and clone made a tracker each"
            );
            assert_eq!(counts().1, before.1, "nothing dropped yet");
            class.ops.drop_in_place(a.ptr);
            class.ops.drop_in_place(b.ptr);
        }
        let after = counts();
        assert_eq!((after.0 - before.0, after.1 - before.1), (2, 2));
    }

    #[test]
    fn zero_sized_class_on_a_dangling_pointer() {
        let before = counts();
        let class = Marker::CLASS;
        let a = Block::new(class);
        let b = Block::new(class);
        let mut text = String::new();
        // SAFETY: a zero-sized value needs only an aligned non-null pointer.
        unsafe {
            class.ops.default_in_place(a.ptr);
            class.ops.clone_in_place(a.ptr, b.ptr);
            class.ops.save(a.ptr, &mut Archive::saving(&mut text));
            tokenize_load::<Marker>("; ClassVersion\n1\n", b.ptr).unwrap();
            class.ops.drop_in_place(a.ptr);
            class.ops.drop_in_place(b.ptr);
        }
        assert_eq!(text, "; ClassVersion\n1\n");
        let after = counts();
        assert_eq!((after.0 - before.0, after.1 - before.1), (2, 2));
    }

    #[test]
    fn over_aligned_class_round_trips_through_raw_memory() {
        let before = counts();
        let class = Aligned::CLASS;
        let a = Block::new(class);
        let b = Block::new(class);
        let mut text = String::new();
        // SAFETY: blocks with the class's layout (64-byte aligned); values written
        // once, dropped once.
        unsafe {
            class.ops.default_in_place(a.ptr);
            class.ops.default_in_place(b.ptr);
            {
                let value = &mut *a.ptr.cast::<Aligned>();
                value.flag = false;
                value.mass = -0.5;
                value.small = 127;
            }
            class.ops.save(a.ptr, &mut Archive::saving(&mut text));
            tokenize_load::<Aligned>(&text, b.ptr).unwrap();
            let loaded = &*b.ptr.cast::<Aligned>();
            assert_eq!((loaded.flag, loaded.mass, loaded.small), (false, -0.5, 127));
            class.ops.drop_in_place(a.ptr);
            class.ops.drop_in_place(b.ptr);
        }
        assert_eq!(
            text,
            "; ClassVersion\n1\n; Flag\nfalse\n; Mass\n-0.5\n; Small\n127\n"
        );
        let after = counts();
        assert_eq!((after.0 - before.0, after.1 - before.1), (2, 2));
    }

    #[test]
    fn save_and_load_through_class_ops() {
        let class = Crate::CLASS;
        let a = Block::new(class);
        let b = Block::new(class);
        let mut text = String::new();
        // SAFETY: blocks with the class's layout; values written once, dropped once.
        unsafe {
            class.ops.default_in_place(a.ptr);
            class.ops.default_in_place(b.ptr);
            {
                let value = &mut *a.ptr.cast::<Crate>();
                value.health = 12.5;
                value.name = "Grand \"Crate\"".to_owned();
                value.tags = Vec::new();
                value.id = 0xDEAD_BEEF;
            }
            class.ops.save(a.ptr, &mut Archive::saving(&mut text));
            tokenize_load::<Crate>(&text, b.ptr).unwrap();
            let loaded = &*b.ptr.cast::<Crate>();
            assert_eq!(loaded.health, 12.5);
            assert_eq!(loaded.name, "Grand \"Crate\"");
            assert!(loaded.tags.is_empty());
            assert_eq!(loaded.id, 0xDEAD_BEEF);
            class.ops.drop_in_place(a.ptr);
            class.ops.drop_in_place(b.ptr);
        }
        assert_eq!(
            text,
            "; ClassVersion\n3\n; Health\n12.5\n; Name\n\"Grand \\\"Crate\\\"\"\n; Tags\n[]\n\
             ; Position\n1.0 2.0 3.0\n; EntityID\n0x00000000DEADBEEF\n"
        );
    }

    #[test]
    fn failed_load_leaves_a_valid_value_and_drops_balance() {
        let before = counts();
        let class = Crate::CLASS;
        let a = Block::new(class);
        // SAFETY: a block with the class's layout; written once, dropped once.
        let err = unsafe {
            class.ops.default_in_place(a.ptr);
            let err =
                tokenize_load::<Crate>("; Health\n5.0\n; Name\n\"unterminated\n; Tags\nx\n", a.ptr)
                    .unwrap_err();
            let value = &*a.ptr.cast::<Crate>();
            assert_eq!(value.health, 5.0, "read before the bad value");
            assert_eq!(
                value.name, "crate",
                "the bad value left the field as it was"
            );
            assert_eq!(value.tags, ["wood"], "not reached");
            class.ops.drop_in_place(a.ptr);
            err
        };
        assert_eq!((err.line, err.column), (4, 1));
        assert!(matches!(
            err.kind,
            ErrorKind::BadValue {
                reason: ValueErrorKind::UnterminatedQuote,
                ..
            }
        ));
        let after = counts();
        assert_eq!((after.0 - before.0, after.1 - before.1), (1, 1));
    }

    #[test]
    fn property_descriptors_encode_and_decode_each_field() {
        let before = counts();
        {
            let mut value = Crate::default_value();
            let props = Crate::CLASS.properties;
            let text = |p: &PropertyDescriptor, v: &Crate| {
                let mut out = String::new();
                p.encode(v, &mut out);
                out
            };
            assert_eq!(text(&props[0], &value), "100.0");
            assert_eq!(text(&props[1], &value), "crate");
            assert_eq!(text(&props[2], &value), "wood");
            assert_eq!(text(&props[3], &value), "1.0 2.0 3.0");
            assert_eq!(text(&props[4], &value), "0x0000000000000042");

            props[0]
                .decode_into(&mut value, Value::from_text("-7.25"))
                .unwrap();
            props[1]
                .decode_into(&mut value, Value::from_text("\"a b\""))
                .unwrap();
            props[2]
                .decode_into(&mut value, Value::from_text("x\n\"y z\"\n"))
                .unwrap();
            props[3]
                .decode_into(&mut value, Value::from_text("4, 5, 6"))
                .unwrap();
            props[4]
                .decode_into(&mut value, Value::from_text("255"))
                .unwrap();
            assert_eq!(value.health, -7.25);
            assert_eq!(value.name, "a b");
            assert_eq!(value.tags, ["x", "y z"]);
            assert_eq!(value.position, Vec3::new(4.0, 5.0, 6.0));
            assert_eq!(value.id, 255);

            // A bad value leaves the field unchanged.
            let err = props[3]
                .decode_into(&mut value, Value::from_text("1 2"))
                .unwrap_err();
            assert_eq!(
                err.kind,
                ValueErrorKind::ComponentCount {
                    expected: 3,
                    found: 2
                }
            );
            assert_eq!(value.position, Vec3::new(4.0, 5.0, 6.0));
            assert!(props[1]
                .decode_into(&mut value, Value::from_text("\"bad \\q\""))
                .is_err());
            assert_eq!(value.name, "a b");
        }
        let after = counts();
        assert_eq!((after.0 - before.0, after.1 - before.1), (1, 1));
    }

    #[test]
    fn property_descriptors_compare_and_copy() {
        let before = counts();
        {
            let props = Crate::CLASS.properties;
            let mut a = Crate::default_value();
            let mut b = a.clone_value();
            for p in props {
                assert!(p.same_value(&a, &b), "{}", p.key);
            }
            // Floats compare by bits: NaN equals itself, -0.0 differs from 0.0.
            a.health = f32::NAN;
            b.health = f32::NAN;
            assert!(props[0].same_value(&a, &b));
            a.health = 0.0;
            b.health = -0.0;
            assert!(!props[0].same_value(&a, &b));

            b.name = "other".to_owned();
            b.tags = vec!["t1".to_owned(), "t2".to_owned()];
            assert!(!props[1].same_value(&a, &b));
            assert!(!props[2].same_value(&a, &b));
            props[1].copy_value(&mut a, &b);
            props[2].copy_value(&mut a, &b);
            assert!(props[1].same_value(&a, &b) && props[2].same_value(&a, &b));
            assert_eq!((a.name.as_str(), a.tags.len()), ("other", 2));
            // A copy, not a move: the source keeps its value.
            b.name.push('!');
            assert_eq!(a.name, "other");

            let mut c = Aligned::default_value();
            let d = Aligned {
                flag: false,
                mass: 1.5,
                small: 9,
                _tracker: Tracker::new(),
            };
            for p in Aligned::CLASS.properties {
                assert!(!p.same_value(&c, &d), "{}", p.key);
                p.copy_value(&mut c, &d);
                assert!(p.same_value(&c, &d), "{}", p.key);
            }
            assert_eq!((c.flag, c.mass, c.small), (false, 1.5, 9));
        }
        let after = counts();
        assert_eq!((after.0 - before.0, after.1 - before.1), (4, 4));
    }

    #[test]
    #[should_panic(expected = "does not belong to class")]
    fn a_descriptor_of_another_class_is_refused() {
        let value = Aligned::default_value();
        let mut out = String::new();
        Crate::CLASS.properties[0].encode(&value, &mut out);
    }

    #[test]
    fn a_copy_of_a_descriptor_of_the_class_is_accepted() {
        // Not inside `Crate::CLASS.properties`, but the same field: key, offset, size
        // and type.
        let copy =
            PropertyDescriptor::new::<f32>("Health", "health", offset_of!(Crate, health), &[]);
        let value = Crate::default_value();
        let mut out = String::new();
        copy.encode(&value, &mut out);
        assert_eq!(out, "100.0");
    }

    #[test]
    #[should_panic(expected = "does not belong to class")]
    fn a_descriptor_with_another_field_type_at_the_same_offset_is_refused() {
        // `u32` has the size of the `f32` at that offset, but it is not that field.
        let wrong =
            PropertyDescriptor::new::<u32>("Health", "health", offset_of!(Crate, health), &[]);
        let mut value = Crate::default_value();
        let _ = wrong.decode_into(&mut value, Value::from_text("1"));
    }

    #[test]
    #[should_panic(expected = "does not belong to class")]
    fn a_descriptor_at_another_offset_is_refused() {
        let wrong =
            PropertyDescriptor::new::<f32>("Health", "health", offset_of!(Crate, health) + 4, &[]);
        let value = Crate::default_value();
        let _ = wrong.same_value(&value, &value);
    }

    #[test]
    fn raw_property_ops_reach_fields_by_offset() {
        let class = Aligned::CLASS;
        let block = Block::new(class);
        let mut out = String::new();
        // SAFETY: a block with the class's layout holding a live `Aligned`; every
        // descriptor is from `Aligned`'s table.
        unsafe {
            class.ops.default_in_place(block.ptr);
            for p in class.properties {
                p.ops.encode(block.ptr, p.offset, &mut out);
                out.push('|');
            }
            let mass = &class.properties[1];
            mass.ops
                .decode_into(block.ptr, mass.offset, Value::from_text("inf"))
                .unwrap();
            assert_eq!((*block.ptr.cast::<Aligned>()).mass, f64::INFINITY);
            class.ops.drop_in_place(block.ptr);
        }
        assert_eq!(out, "true|250.0|-3|");
        assert!(NonNull::new(block.ptr).is_some());
    }
}
