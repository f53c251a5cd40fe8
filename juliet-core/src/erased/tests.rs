//! Tests of `erased`: hand-written `Reflect` impls (the derive's output shape) for a
//! type with heap fields and a drop counter, a zero-sized type and a 64-byte-aligned
//! type; the class and property operations run on raw memory from `std::alloc` with
//! the class's layout. They run under Miri (`.ci/miri`:
//! `cargo +nightly miri test -p juliet-core --lib erased::`).

use std::alloc::{alloc, dealloc, Layout};
use std::cell::Cell;
use std::mem::offset_of;
use std::path::Path;
use std::ptr::NonNull;

use glam::Vec3;

use crate::archive::{write_header, Archive};
use crate::class::{Class, Reflect};
use crate::erased::{ClassKey, PropertyDescriptor};
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

/// (created, dropped) since `before`.
fn since(before: (usize, usize)) -> (usize, usize) {
    let now = counts();
    (now.0 - before.0, now.1 - before.1)
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
    write_property(out, "ClassVersion", &T::CLASS.version());
    for p in T::CLASS.properties() {
        write_header(out, p.key);
        p.encode(value, out);
        out.push('\n');
    }
}

/// Loads every property present through the typed descriptor methods.
fn load_properties<T: Reflect>(value: &mut T, ar: &mut Archive<'_>) -> Result<(), Error> {
    ar.resolve_class_version(T::CLASS.version())?;
    let Some(doc) = ar.document_mut() else {
        return Ok(());
    };
    for p in T::CLASS.properties() {
        if let Some(index) = doc.find_name(p.key) {
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

// SAFETY: the table describes `Crate`'s own fields (offset_of! each, with its type's operations).
unsafe impl Reflect for Crate {
    // SAFETY: as the impl's.
    const CLASS: &'static Class = &unsafe { Class::of::<Crate>("Crate", 3, CRATE_PROPERTIES, &[]) };

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

// SAFETY: the table describes `Marker`'s own fields (offset_of! each, with its type's operations).
unsafe impl Reflect for Marker {
    // SAFETY: as the impl's.
    const CLASS: &'static Class = &unsafe { Class::of::<Marker>("Marker", 1, &[], &[]) };

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

// SAFETY: the table describes `Aligned`'s own fields (offset_of! each, with its type's operations).
unsafe impl Reflect for Aligned {
    // SAFETY: as the impl's.
    const CLASS: &'static Class =
        &unsafe { Class::of::<Aligned>("Aligned", 1, ALIGNED_PROPERTIES, &[]) };

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
        let layout = Layout::from_size_align(class.size(), class.align()).unwrap();
        let ptr = if layout.size() == 0 {
            std::ptr::without_provenance_mut(layout.align())
        } else {
            // SAFETY: the layout has a non-zero size.
            let ptr = unsafe { alloc(layout) };
            assert!(!ptr.is_null(), "allocation failed");
            ptr
        };
        assert_eq!(ptr as usize % class.align(), 0);
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
    unsafe { T::CLASS.ops().load(place, &mut ar) }
}

// --- tests ---------------------------------------------------------------------

#[test]
fn class_layout_is_the_types() {
    assert_eq!(Crate::CLASS.size(), size_of::<Crate>());
    assert_eq!(Crate::CLASS.align(), align_of::<Crate>());
    assert_eq!((Marker::CLASS.size(), Marker::CLASS.align()), (0, 1));
    assert_eq!((Aligned::CLASS.size(), Aligned::CLASS.align()), (64, 64));
    assert!(Crate::CLASS.is::<Crate>() && !Crate::CLASS.is::<Aligned>());
    assert_eq!(Crate::CLASS.ops().key(), ClassKey::of::<Crate>());
    assert_ne!(Crate::CLASS.ops().key(), ClassKey::of::<Aligned>());
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
        class.ops().default_in_place(a.ptr);
        {
            let crate_a = &mut *a.ptr.cast::<Crate>();
            assert_eq!(crate_a.name, "crate");
            assert_eq!(crate_a.tags, ["wood"]);
            crate_a.name.push_str(" of apples");
            crate_a.tags.push("apples".to_owned());
        }
        class.ops().clone_in_place(a.ptr, b.ptr);
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
        class.ops().drop_in_place(a.ptr);
        class.ops().drop_in_place(b.ptr);
    }
    assert_eq!(since(before), (2, 2));
}

/// Through `ClassOps` on two raw blocks of `T`'s layout: writes the default into both,
/// applies `edit` to the first, saves it, loads the text into the second, hands that to
/// `check`, and drops both in place. Returns the saved text.
fn save_then_load<T: Reflect>(edit: impl FnOnce(&mut T), check: impl FnOnce(&T)) -> String {
    let class = T::CLASS;
    let a = Block::new(class);
    let b = Block::new(class);
    let mut text = String::new();
    // SAFETY: blocks with the class's layout (a dangling aligned pointer for a ZST);
    // each value is written once, used while live, dropped once.
    unsafe {
        class.ops().default_in_place(a.ptr);
        class.ops().default_in_place(b.ptr);
        edit(&mut *a.ptr.cast::<T>());
        class.ops().save(a.ptr, &mut Archive::saving(&mut text));
        tokenize_load::<T>(&text, b.ptr).unwrap();
        check(&*b.ptr.cast::<T>());
        class.ops().drop_in_place(a.ptr);
        class.ops().drop_in_place(b.ptr);
    }
    text
}

#[test]
fn zero_sized_class_on_a_dangling_pointer() {
    let before = counts();
    let text = save_then_load::<Marker>(|_| {}, |_| {});
    assert_eq!(text, "; ClassVersion\n1\n");
    assert_eq!(since(before), (2, 2));
    let class = Marker::CLASS;
    let a = Block::new(class);
    let b = Block::new(class);
    // SAFETY: a zero-sized value needs only an aligned non-null pointer.
    unsafe {
        class.ops().default_in_place(a.ptr);
        class.ops().clone_in_place(a.ptr, b.ptr);
        class.ops().drop_in_place(a.ptr);
        class.ops().drop_in_place(b.ptr);
    }
    assert_eq!(since(before), (4, 4));
}

#[test]
fn over_aligned_class_round_trips_through_raw_memory() {
    let before = counts();
    let text = save_then_load::<Aligned>(
        |value| {
            value.flag = false;
            value.mass = -0.5;
            value.small = 127;
        },
        |loaded| assert_eq!((loaded.flag, loaded.mass, loaded.small), (false, -0.5, 127)),
    );
    assert_eq!(
        text,
        "; ClassVersion\n1\n; Flag\nfalse\n; Mass\n-0.5\n; Small\n127\n"
    );
    assert_eq!(since(before), (2, 2));
}

#[test]
fn save_and_load_through_class_ops() {
    let text = save_then_load::<Crate>(
        |value| {
            value.health = 12.5;
            value.name = "Grand \"Crate\"".to_owned();
            value.tags = Vec::new();
            value.id = 0xDEAD_BEEF;
        },
        |loaded| {
            assert_eq!(loaded.health, 12.5);
            assert_eq!(loaded.name, "Grand \"Crate\"");
            assert!(loaded.tags.is_empty());
            assert_eq!(loaded.id, 0xDEAD_BEEF);
        },
    );
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
        class.ops().default_in_place(a.ptr);
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
        class.ops().drop_in_place(a.ptr);
        err
    };
    assert_eq!((err.location.line, err.location.column), (4, 1));
    assert!(matches!(
        err.kind,
        ErrorKind::BadValue {
            reason: ValueErrorKind::UnterminatedQuote,
            ..
        }
    ));
    assert_eq!(since(before), (1, 1));
}

#[test]
fn property_descriptors_encode_and_decode_each_field() {
    let before = counts();
    {
        let mut value = Crate::default_value();
        let props = Crate::CLASS.properties();
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
    assert_eq!(since(before), (1, 1));
}

#[test]
fn property_descriptors_compare_and_copy() {
    let before = counts();
    {
        let props = Crate::CLASS.properties();
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
        for p in Aligned::CLASS.properties() {
            assert!(!p.same_value(&c, &d), "{}", p.key);
            p.copy_value(&mut c, &d);
            assert!(p.same_value(&c, &d), "{}", p.key);
        }
        assert_eq!((c.flag, c.mass, c.small), (false, 1.5, 9));
    }
    assert_eq!(since(before), (4, 4));
}

#[test]
#[should_panic(expected = "does not belong to class")]
fn a_descriptor_of_another_class_is_refused() {
    let value = Aligned::default_value();
    let mut out = String::new();
    Crate::CLASS.properties()[0].encode(&value, &mut out);
}

#[test]
fn a_copy_of_a_descriptor_of_the_class_is_accepted() {
    // Not inside `Crate::CLASS.properties()`, but the same field: key, offset, size
    // and type.
    let copy = PropertyDescriptor::new::<f32>("Health", "health", offset_of!(Crate, health), &[]);
    let value = Crate::default_value();
    let mut out = String::new();
    copy.encode(&value, &mut out);
    assert_eq!(out, "100.0");
}

#[test]
#[should_panic(expected = "does not belong to class")]
fn a_descriptor_with_another_field_type_at_the_same_offset_is_refused() {
    // `u32` has the size of the `f32` at that offset, but it is not that field.
    let wrong = PropertyDescriptor::new::<u32>("Health", "health", offset_of!(Crate, health), &[]);
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
        class.ops().default_in_place(block.ptr);
        for p in class.properties() {
            p.ops.encode(block.ptr, p.offset, &mut out);
            out.push('|');
        }
        let mass = &class.properties()[1];
        mass.ops
            .decode_into(block.ptr, mass.offset, Value::from_text("inf"))
            .unwrap();
        assert_eq!((*block.ptr.cast::<Aligned>()).mass, f64::INFINITY);
        // The class's setter: the table's entry by index, through its operations.
        let value = Value::from_text("-128");
        class.ops().decode_property(block.ptr, 2, value).unwrap();
        assert_eq!((*block.ptr.cast::<Aligned>()).small, -128);
        assert!(class
            .ops()
            .decode_property(block.ptr, 2, Value::from_text("-129"))
            .is_err());
        assert_eq!((*block.ptr.cast::<Aligned>()).small, -128);
        // The class's comparison and copy: the entry by index, through its operations.
        let other = Block::new(class);
        class.ops().default_in_place(other.ptr);
        assert!(class.ops().same_property(block.ptr, other.ptr, 0));
        assert!(!class.ops().same_property(block.ptr, other.ptr, 2));
        class.ops().copy_property(other.ptr, block.ptr, 2);
        assert_eq!((*other.ptr.cast::<Aligned>()).small, -128);
        assert!(class.ops().same_property(block.ptr, other.ptr, 2));
        class.ops().drop_in_place(other.ptr);
        class.ops().drop_in_place(block.ptr);
    }
    assert_eq!(out, "true|250.0|-3|");
    assert!(NonNull::new(block.ptr).is_some());
}

#[test]
fn load_through_class_ops_reads_a_document_in_place() {
    let before = counts();
    let class = Crate::CLASS;
    let a = Block::new(class);
    let mut buffer = TokenBuffer::new();
    let path = std::path::Path::new("crate.jasset");
    // SAFETY: a block with the class's layout holding a live `Crate` from
    // `default_in_place` to `drop_in_place`, borrowed only through these calls.
    unsafe {
        class.ops().default_in_place(a.ptr);
        let text = b"; ClassVersion\n3\n; Health\n12.5\n; Name\n\"Big\"\n; EntityID\n0x10\n";
        let mut ar = Archive::loading(buffer.document(text, path).unwrap());
        class.ops().load(a.ptr, &mut ar).unwrap();
        {
            let value = &*a.ptr.cast::<Crate>();
            assert_eq!(
                (value.health, value.name.as_str(), value.id),
                (12.5, "Big", 0x10)
            );
            assert_eq!(value.tags, ["wood"], "absent: the default kept");
        }
        // A bad value after a good one: an error, the value live with the good one
        // written.
        let text = b"; Health\n7\n; Name\n\"x\n";
        let mut ar = Archive::loading(buffer.document(text, path).unwrap());
        assert!(class.ops().load(a.ptr, &mut ar).is_err());
        assert_eq!((*a.ptr.cast::<Crate>()).health, 7.0);
        class.ops().drop_in_place(a.ptr);
    }
    assert_eq!(since(before), (1, 1));
}
