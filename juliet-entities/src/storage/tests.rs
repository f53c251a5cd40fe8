//! Tests of [`KindStorage`](super::KindStorage); they run under Miri:
//! `cargo +nightly miri test -p juliet-entities --lib storage::`.

use super::*;
use crate::support::{drops, Aligned, Counted, Crate, Exploding, Marker, Sign, EXPLODE};
use juliet_core::{Reflect, TokenBuffer};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

fn filled<T: Reflect>(n: u32) -> KindStorage {
    let mut s = KindStorage::new(T::CLASS);
    for i in 0..n {
        assert_eq!(s.push_default(100 + i), i);
    }
    s
}

fn counted_values(s: &KindStorage) -> Vec<u32> {
    s.as_slice::<Counted>()
        .unwrap()
        .iter()
        .map(|c| c.value)
        .collect()
}

#[test]
fn push_default_writes_declared_defaults_and_links_bases() {
    let s = filled::<Crate>(3);
    assert_eq!(s.len(), 3);
    assert_eq!(s.bases(), &[100, 101, 102]);
    let all = s.as_slice::<Crate>().unwrap();
    assert!(all.iter().all(|c| *c == Crate::default()));
    assert_eq!(all[1].mesh_instance, u32::MAX);
}

#[test]
fn typed_access_refuses_other_types() {
    let mut s = filled::<Crate>(1);
    assert!(s.as_slice::<Sign>().is_none());
    assert!(s.get_mut::<u64>(0).is_none());
    assert!(s.get::<Crate>(1).is_none());
    s.get_mut::<Crate>(0).unwrap().health = 5;
    assert_eq!(s.get::<Crate>(0).unwrap().health, 5);
}

#[test]
fn growth_keeps_values_and_heap_fields() {
    let mut s = filled::<Sign>(0);
    for i in 0..40u32 {
        s.push_default(i);
        s.get_mut::<Sign>(i as usize).unwrap().text = format!("sign {i}");
    }
    assert!(s.capacity() >= 40);
    let texts: Vec<_> = s
        .as_slice::<Sign>()
        .unwrap()
        .iter()
        .map(|x| x.text.clone())
        .collect();
    assert_eq!(texts[0], "sign 0");
    assert_eq!(texts[39], "sign 39");
    s.reserve(100);
    assert!(s.capacity() >= 140);
    assert_eq!(s.get::<Sign>(17).unwrap().text, "sign 17");
}

#[test]
fn swap_remove_drops_the_removed_value_once_and_moves_the_last() {
    let before = drops();
    let mut s = filled::<Counted>(4);
    for (i, c) in s.as_mut_slice::<Counted>().unwrap().iter_mut().enumerate() {
        c.value = i as u32;
    }
    assert_eq!(s.swap_remove(1), Some(103));
    assert_eq!(drops() - before, 1);
    assert_eq!(counted_values(&s), vec![0, 3, 2]);
    assert_eq!(s.bases(), &[100, 103, 102]);
    assert_eq!(s.swap_remove(2), None);
    assert_eq!(drops() - before, 2);
    assert_eq!(s.bases(), &[100, 103]);
    drop(s);
    assert_eq!(drops() - before, 4);
}

#[test]
fn mutable_values_come_with_their_bases() {
    let mut s = filled::<Counted>(3);
    let (values, bases) = s.as_mut_slice_with_bases::<Counted>().unwrap();
    for (v, &b) in values.iter_mut().zip(bases) {
        v.value = b;
    }
    assert_eq!(counted_values(&s), vec![100, 101, 102]);
    assert!(s.as_mut_slice_with_bases::<Crate>().is_none());
}

#[test]
fn drop_of_the_storage_drops_every_value() {
    let before = drops();
    let s = filled::<Counted>(9);
    drop(s);
    assert_eq!(drops() - before, 9);
}

#[test]
fn zero_sized_kind_never_allocates() {
    let mut s = filled::<Marker>(1000);
    assert_eq!(s.capacity(), usize::MAX);
    assert_eq!(s.as_slice::<Marker>().unwrap().len(), 1000);
    assert_eq!(s.swap_remove(10), Some(100 + 999));
    assert_eq!(s.len(), 999);
    assert_eq!(s.as_ptr(0) as usize % std::mem::align_of::<Marker>(), 0);
}

#[test]
fn over_aligned_kind_slots_are_aligned() {
    let mut s = filled::<Aligned>(5);
    for slot in 0..5 {
        assert_eq!(s.as_ptr(slot) as usize % 64, 0);
    }
    s.get_mut::<Aligned>(4).unwrap().value = 44;
    s.swap_remove(0);
    assert_eq!(s.get::<Aligned>(0).unwrap().value, 44);
    assert_eq!(s.get::<Aligned>(1).unwrap(), &Aligned::default());
    for _ in 0..20 {
        s.push_default(0);
    }
    assert!(s
        .as_slice::<Aligned>()
        .unwrap()
        .iter()
        .all(|a| (a as *const Aligned as usize) % 64 == 0));
}

#[test]
fn panicking_drop_in_swap_remove_leaves_a_valid_storage() {
    let before = drops();
    let mut s = filled::<Exploding>(3);
    s.get_mut::<Exploding>(0).unwrap().value = EXPLODE;
    s.get_mut::<Exploding>(2).unwrap().value = 2;
    let result = catch_unwind(AssertUnwindSafe(|| s.swap_remove(0)));
    assert!(result.is_err());
    assert_eq!(drops() - before, 1);
    assert_eq!(s.len(), 2);
    assert_eq!(s.bases(), &[102, 101]);
    assert_eq!(s.get::<Exploding>(0).unwrap().value, 2);
    drop(s);
    assert_eq!(drops() - before, 3);
}

#[test]
fn panicking_drop_in_storage_drop_frees_memory_without_double_drop() {
    let before = drops();
    let mut s = filled::<Exploding>(3);
    s.get_mut::<Exploding>(1).unwrap().value = EXPLODE;
    // Keep the leaked value's heap memory out of Miri's leak check.
    let leaked_box: *mut u64 = &mut *s.get_mut::<Exploding>(2).unwrap().payload;
    assert!(catch_unwind(AssertUnwindSafe(move || drop(s))).is_err());
    // Slot 0 and the panicking slot 1 were dropped; slot 2 was leaked, not dropped.
    assert_eq!(drops() - before, 2);
    // SAFETY: (test) the leaked value's box is never freed; reclaim it.
    drop(unsafe { Box::from_raw(leaked_box) });
}

#[test]
fn load_and_save_go_through_the_class() {
    let mut s = filled::<Crate>(2);
    let mut buf = TokenBuffer::new();
    let doc = buf
        .tokenize(b"; Mass\n2.5\n; Scale: 2, 2, 2\n", Path::new("c.jasset"))
        .unwrap();
    let mut ar = Archive::loading(doc);
    s.load(1, &mut ar).unwrap();
    let c = s.get::<Crate>(1).unwrap();
    assert_eq!(
        (c.mass, c.scale, c.health),
        (2.5, glam::Vec3::splat(2.0), 100)
    );
    let mut out = String::new();
    s.save(1, &mut Archive::saving(&mut out));
    assert_eq!(
        out,
        "; ClassVersion\n2\n; MeshInstance\n4294967295\n; Mass\n2.5\n; Health\n100\n\
         ; IsVisible\ntrue\n; Scale\n2.0 2.0 2.0\n"
    );
}

#[test]
fn load_of_a_filled_document_goes_through_the_class_in_place() {
    let mut s = filled::<Crate>(2);
    let mut buf = TokenBuffer::new();
    let text = b"; ClassVersion\n2\n; Mass\n2.5\n; Scale\n2 2 2\n";
    let doc = buf
        .document(text, std::path::Path::new("c.jasset"))
        .unwrap();
    s.load(1, &mut Archive::loading(doc)).unwrap();
    let c = s.get::<Crate>(1).unwrap();
    assert_eq!((c.mass, c.scale), (2.5, glam::Vec3::splat(2.0)));
    let untouched = s.get::<Crate>(0).unwrap();
    assert_eq!(
        (untouched.mass, untouched.scale),
        (Crate::default_value().mass, Crate::default_value().scale)
    );
}

#[test]
fn push_clone_copies_an_archetype_from_another_storage() {
    let before = drops();
    let mut archetypes = filled::<Counted>(2);
    archetypes.get_mut::<Counted>(1).unwrap().value = 42;
    *archetypes.get_mut::<Counted>(1).unwrap().payload = 99;
    let mut s = filled::<Counted>(1);
    assert_eq!(s.push_clone(7, &archetypes, 1), 1);
    assert_eq!(s.push_clone(8, &archetypes, 1), 2);
    assert_eq!(s.bases(), &[100, 7, 8]);
    let copy = s.get::<Counted>(2).unwrap();
    assert_eq!((copy.value, *copy.payload), (42, 99));
    // A deep copy: changing the clone leaves the archetype alone.
    *s.get_mut::<Counted>(1).unwrap().payload = 5;
    assert_eq!(*archetypes.get::<Counted>(1).unwrap().payload, 99);
    drop(s);
    drop(archetypes);
    assert_eq!(drops() - before, 5);
}

#[test]
fn push_clone_of_survives_growth_of_its_own_storage() {
    let mut s = filled::<Sign>(0);
    s.push_default(0);
    s.get_mut::<Sign>(0).unwrap().text = "parent".into();
    // Each push may reallocate: the source pointer is taken after `reserve`.
    for i in 1..20u32 {
        assert_eq!(s.push_clone_of(i, 0), i);
    }
    assert!(s
        .as_slice::<Sign>()
        .unwrap()
        .iter()
        .all(|x| x.text == "parent"));
    let mut z = filled::<Marker>(1);
    assert_eq!(z.push_clone_of(5, 0), 1);
    assert_eq!(z.len(), 2);
}

#[test]
#[should_panic(expected = "storage of `TestSign` used as `TestCrate`")]
fn push_clone_refuses_another_kind() {
    let signs = filled::<Sign>(1);
    filled::<Crate>(0).push_clone(0, &signs, 0);
}

#[test]
fn push_with_writes_the_value_then_finishes_it_in_place() {
    let before = drops();
    let mut s = filled::<Counted>(1);
    let made = s.push_with(
        7,
        || Counted {
            value: 3,
            payload: Box::new(4),
        },
        |c: &mut Counted| *c.payload += 10,
    );
    assert_eq!(made, Some(1));
    assert_eq!(s.bases(), &[100, 7]);
    let c = s.get::<Counted>(1).unwrap();
    assert_eq!((c.value, *c.payload), (3, 14));
    // Another type: refused before either closure runs, nothing appended.
    let refused = s.push_with(8, || -> Crate { unreachable!() }, |_| unreachable!());
    assert_eq!((refused, s.len()), (None, 2));
    let mut z = filled::<Marker>(0);
    assert_eq!(z.push_with(1, || Marker, |_| {}), Some(0));
    assert_eq!(z.len(), 1);
    drop(s);
    assert_eq!(drops() - before, 2);
}

#[test]
fn push_clone_with_clones_across_storages_then_finishes_in_place() {
    let before = drops();
    let mut archetypes = filled::<Counted>(2);
    *archetypes.get_mut::<Counted>(1).unwrap().payload = 99;
    let mut s = filled::<Counted>(0);
    for i in 0..10 {
        let slot = s.push_clone_with(i, &archetypes, 1, |c: &mut Counted| c.value = i);
        assert_eq!(slot, Some(i));
    }
    assert!(s
        .as_slice::<Counted>()
        .unwrap()
        .iter()
        .enumerate()
        .all(|(i, c)| c.value == i as u32 && *c.payload == 99));
    // The clone is deep, and another type (on either side) is refused.
    *s.get_mut::<Counted>(0).unwrap().payload = 1;
    assert_eq!(*archetypes.get::<Counted>(1).unwrap().payload, 99);
    let signs = filled::<Sign>(1);
    assert_eq!(s.push_clone_with(0, &signs, 0, |_: &mut Counted| {}), None);
    assert_eq!(
        s.push_clone_with(0, &archetypes, 0, |_: &mut Sign| {}),
        None
    );
    assert_eq!(s.len(), 10);
    drop((s, archetypes));
    assert_eq!(drops() - before, 12);
}

#[test]
fn a_panicking_finish_drops_the_value_and_appends_nothing() {
    let before = drops();
    let archetypes = filled::<Counted>(1);
    let mut s = filled::<Counted>(2);
    let result = catch_unwind(AssertUnwindSafe(|| {
        s.push_clone_with(9, &archetypes, 0, |_: &mut Counted| panic!("finish"))
    }));
    assert!(result.is_err());
    assert_eq!((s.len(), s.bases()), (2, &[100, 101][..]));
    assert_eq!(drops() - before, 1, "the half-made value was dropped once");
    let result = catch_unwind(AssertUnwindSafe(|| {
        s.push_with(9, Counted::default, |_| panic!("finish"))
    }));
    assert!(result.is_err());
    assert_eq!(s.len(), 2);
    assert_eq!(drops() - before, 2);
    // Still usable: the next push takes the slot.
    assert_eq!(s.push_with(9, Counted::default, |_| {}), Some(2));
    drop((s, archetypes));
    assert_eq!(drops() - before, 6);
}

#[test]
fn property_access_through_the_types_own_table() {
    let mut s = filled::<Sign>(2);
    let other = filled::<Sign>(1);
    let text = Sign::CLASS
        .property_index(juliet_core::key_crc("Text"), "Text")
        .unwrap();
    let lines = Sign::CLASS
        .property_index(juliet_core::key_crc("Lines"), "Lines")
        .unwrap();
    s.decode_property(1, text, Value::from_text("\"a b\""))
        .unwrap();
    s.decode_property(1, lines, Value::from_text("x\ny"))
        .unwrap();
    let mut out = String::new();
    s.encode_property(1, text, &mut out);
    assert_eq!(out, "\"a b\"");
    assert!(!s.same_property(1, text, &other, 0));
    assert!(s.same_property(0, text, &other, 0));
    assert!(s.same_property(0, lines, &s, 0));
    // A bad value leaves the field as it was.
    let size = Sign::CLASS
        .property_index(juliet_core::key_crc("Size"), "Size")
        .unwrap();
    assert!(s.decode_property(1, size, Value::from_text("big")).is_err());
    assert_eq!(s.get::<Sign>(1).unwrap().size, 1.5);

    let mut t = filled::<Sign>(1);
    t.copy_property_from(0, text, &s, 1);
    t.copy_property_from(0, lines, &s, 1);
    assert_eq!(t.get::<Sign>(0).unwrap().text, "a b");
    assert_eq!(t.get::<Sign>(0).unwrap().lines, vec!["x", "y"]);
    s.copy_property_within(0, lines, 1);
    assert_eq!(s.get::<Sign>(0).unwrap().lines, vec!["x", "y"]);
    assert_eq!(s.get::<Sign>(0).unwrap().text, "Welcome");
}

#[test]
#[should_panic(expected = "has 3 properties, not 4")]
fn property_index_out_of_bounds_panics() {
    let s = filled::<Sign>(1);
    s.encode_property(0, 3, &mut String::new());
}

/// The template paths of the storage (clones and property access) on the awkward
/// layouts: an over-aligned kind, a zero-sized one and a drop-counted one with a heap
/// field, across reallocations; every value is dropped exactly once.
#[test]
fn clones_and_property_access_on_aligned_zero_sized_and_counted_kinds() {
    // Over-aligned: clones land in aligned slots, fields are reached at their offsets.
    let mut a = filled::<Aligned>(1);
    a.get_mut::<Aligned>(0).unwrap().value = 0x1234_5678_9ABC;
    let weight = Aligned::CLASS
        .property_index(juliet_core::key_crc("Weight"), "Weight")
        .unwrap();
    a.decode_property(0, weight, Value::from_text("-7.25"))
        .unwrap();
    for i in 1..40u32 {
        assert_eq!(a.push_clone_of(i, 0), i);
        assert_eq!(a.as_ptr(i as usize) as usize % 64, 0);
    }
    let other = filled::<Aligned>(1);
    assert_eq!(a.push_clone(99, &other, 0), 40);
    assert!(!a.same_property(39, weight, &a, 40));
    a.copy_property_within(40, weight, 39);
    assert!(a.same_property(39, weight, &a, 40));
    let mut out = String::new();
    a.encode_property(40, weight, &mut out);
    assert_eq!(out, "-7.25");
    assert!(a.as_slice::<Aligned>().unwrap()[..40]
        .iter()
        .all(|x| x.value == 0x1234_5678_9ABC && x.weight == -7.25));
    assert_eq!(a.get::<Aligned>(40).unwrap().value, 0xABCD);

    // Zero-sized: clones from another storage and from itself, never allocating.
    let mut z = filled::<Marker>(2);
    let src = filled::<Marker>(1);
    assert_eq!(z.push_clone(7, &src, 0), 2);
    assert_eq!(z.push_clone_of(8, 1), 3);
    assert_eq!(z.bases(), &[100, 101, 7, 8]);
    assert_eq!(z.swap_remove(0), Some(8));
    assert_eq!(z.len(), 3);

    // Drop-counted with a heap field: clones are deep, property copies replace the
    // old value, and every value is dropped once.
    let before = drops();
    let mut c = filled::<Counted>(1);
    *c.get_mut::<Counted>(0).unwrap().payload = 11;
    let value = Counted::CLASS
        .property_index(juliet_core::key_crc("Value"), "Value")
        .unwrap();
    c.decode_property(0, value, Value::from_text("5")).unwrap();
    for i in 1..10u32 {
        c.push_clone_of(i, 0);
    }
    let mut d = filled::<Counted>(3);
    d.copy_property_from(2, value, &c, 9);
    c.copy_property_within(3, value, 0);
    assert_eq!(counted_values(&c), vec![5; 10]);
    assert_eq!(d.get::<Counted>(2).unwrap().value, 5);
    assert_eq!(*c.get::<Counted>(9).unwrap().payload, 11);
    assert_eq!(c.swap_remove(4), Some(9));
    drop(c);
    drop(d);
    // 10 + 3 values, each dropped once.
    assert_eq!(drops() - before, 13);
}

#[test]
fn an_appender_clones_its_source_into_reserved_slots() {
    let before = drops();
    let mut archetypes = filled::<Counted>(2);
    *archetypes.get_mut::<Counted>(1).unwrap().payload = 7;
    let mut s = filled::<Counted>(1);
    {
        let mut typed = s
            .appender::<Counted>(Source::Slot(&archetypes, 1), 3)
            .unwrap();
        assert_eq!((typed.first_slot(), typed.appended()), (1, 0));
        typed.fill(200);
        assert_eq!(typed.appended(), 3);
        // The room is used up: a second fill appends nothing.
        typed.fill(900);
        assert_eq!(typed.appended(), 3);
    }
    {
        let mut erased = s
            .appender::<Erased>(Source::Slot(&archetypes, 1), 2)
            .unwrap();
        erased.fill(300);
        assert_eq!((erased.first_slot(), erased.appended()), (4, 2));
    }
    let prototype = Counted {
        value: 5,
        payload: Box::new(9),
    };
    s.appender(Source::Value(&prototype), 2).unwrap().fill(400);
    assert_eq!(s.bases(), &[100, 200, 201, 202, 300, 301, 400, 401]);
    let values = s.as_slice::<Counted>().unwrap();
    assert!(values[1..6].iter().all(|c| *c.payload == 7));
    assert!(values[6..].iter().all(|c| (c.value, *c.payload) == (5, 9)));
    // Deep clones: the sources are untouched by a change of an appended value.
    *s.get_mut::<Counted>(5).unwrap().payload = 1;
    *s.get_mut::<Counted>(7).unwrap().payload = 1;
    assert_eq!(*archetypes.get::<Counted>(1).unwrap().payload, 7);
    assert_eq!(*prototype.payload, 9);
    drop((s, archetypes, prototype));
    assert_eq!(drops() - before, 11);
}

#[test]
fn an_appender_refuses_other_kinds_and_survives_panics() {
    let before = drops();
    let archetypes = filled::<Counted>(1);
    let signs = filled::<Sign>(1);
    let mut s = filled::<Counted>(1);
    assert!(s.appender::<Counted>(Source::Slot(&signs, 0), 1).is_none());
    assert!(s.appender::<Erased>(Source::Slot(&signs, 0), 1).is_none());
    assert!(s
        .appender::<Sign>(Source::Slot(&archetypes, 0), 1)
        .is_none());
    let sign = Sign::default_value();
    assert!(s.appender(Source::Value(&sign), 1).is_none());
    assert_eq!((s.len(), s.bases()), (1, &[100][..]), "nothing appended");
    // The third clone of five panics: the two before it stay, linked.
    let mut a = s
        .appender::<Counted>(Source::Slot(&archetypes, 0), 5)
        .unwrap();
    crate::support::panic_after_clones(2);
    let result = catch_unwind(AssertUnwindSafe(|| a.fill(10)));
    assert!(result.is_err());
    assert_eq!(a.appended(), 2);
    // A later fill takes the slots again, from its own first base.
    a.fill(20);
    assert_eq!(a.appended(), 5);
    assert_eq!((s.len(), s.bases()), (6, &[100, 10, 11, 20, 21, 22][..]));
    // The same through the class's clone.
    let mut e = s
        .appender::<Erased>(Source::Slot(&archetypes, 0), 3)
        .unwrap();
    crate::support::panic_after_clones(1);
    assert!(catch_unwind(AssertUnwindSafe(|| e.fill(30))).is_err());
    assert_eq!((s.len(), &s.bases()[6..]), (7, &[30][..]));
    drop((s, archetypes, signs));
    assert_eq!(drops() - before, 7 + 1, "each value dropped once");
}

#[test]
fn an_appender_of_a_zero_sized_kind_writes_nothing() {
    let archetypes = filled::<Marker>(1);
    let mut s = filled::<Marker>(0);
    let mut a = s
        .appender::<Marker>(Source::Slot(&archetypes, 0), 3)
        .unwrap();
    a.fill(4);
    assert_eq!(a.appended(), 3);
    s.appender(Source::Value(&Marker), 2).unwrap().fill(7);
    assert_eq!((s.len(), s.bases()), (5, &[4, 5, 6, 7, 8][..]));
}

#[test]
fn a_storage_sent_to_another_thread_keeps_grows_and_drops_its_values() {
    let mut signs = filled::<Sign>(3);
    for (i, sign) in signs.as_mut_slice::<Sign>().unwrap().iter_mut().enumerate() {
        sign.text = format!("sign {i}");
    }
    let counted = filled::<Counted>(5);
    let here = drops();
    let (texts, dropped_there) = std::thread::spawn(move || {
        let before = drops();
        // Growth reallocates on this thread memory allocated on the other.
        signs.reserve(64);
        signs.push_default(7);
        assert_eq!(signs.swap_remove(0), Some(7));
        let texts: Vec<String> = signs
            .as_slice::<Sign>()
            .unwrap()
            .iter()
            .map(|s| s.text.clone())
            .collect();
        drop(counted);
        (texts, drops() - before)
    })
    .join()
    .unwrap();
    assert_eq!(texts, ["Welcome", "sign 1", "sign 2"]);
    // The values were dropped where the storage went, not here.
    assert_eq!(dropped_there, 5);
    assert_eq!(drops(), here);
}

#[test]
fn a_storage_shared_between_threads_is_read_by_each() {
    let mut s = filled::<Sign>(4);
    s.get_mut::<Sign>(2).unwrap().text = "shared".into();
    let text = Sign::CLASS
        .property_index(juliet_core::key_crc("Text"), "Text")
        .unwrap();
    let shared = &s;
    let seen: Vec<(String, bool)> = std::thread::scope(|scope| {
        let readers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(move || {
                    let mut out = String::new();
                    shared.encode_property(2, text, &mut out);
                    (out, shared.same_property(0, text, shared, 1))
                })
            })
            .collect();
        readers.into_iter().map(|r| r.join().unwrap()).collect()
    });
    assert_eq!(
        seen,
        [("shared".to_string(), true), ("shared".to_string(), true)]
    );
}

#[test]
fn an_exclusive_is_shared_without_sharing_its_value() {
    // `Cell` is not `Sync`; an `Exclusive` of one is, and still works through `&mut`.
    let mut cell = Exclusive::<std::cell::Cell<u32>>::default();
    let shared = &cell;
    std::thread::scope(|scope| {
        scope.spawn(move || assert_eq!(format!("{shared:?}"), "Exclusive(..)"));
    });
    cell.get_mut().set(3);
    assert_eq!(cell.get_mut().get(), 3);
}
