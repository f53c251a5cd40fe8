//! `Reflect::copy_properties` as the derive writes it (field by field) against the
//! definition (every property in the set clone-assigned through the property table),
//! for a class wider than one 64-bit word, heap-typed properties and a skipped field.

use juliet_core::Reflect;
use juliet_entities::Entity;
use proptest::prelude::*;

/// 66 properties (two words of the set) and a skipped field.
#[derive(Entity, Debug, Clone, PartialEq)]
#[jasset(crate = ::juliet_core)]
struct Wide {
    p0: u8,
    p1: u8,
    p2: u8,
    p3: u8,
    p4: u8,
    p5: u8,
    p6: u8,
    p7: u8,
    p8: u8,
    p9: u8,
    p10: u8,
    p11: u8,
    p12: u8,
    p13: u8,
    p14: u8,
    p15: u8,
    p16: u8,
    p17: u8,
    p18: u8,
    p19: u8,
    p20: u8,
    p21: u8,
    p22: u8,
    p23: u8,
    p24: u8,
    p25: u8,
    p26: u8,
    p27: u8,
    p28: u8,
    p29: u8,
    p30: u8,
    p31: u8,
    p32: u8,
    p33: u8,
    p34: u8,
    p35: u8,
    p36: u8,
    p37: u8,
    p38: u8,
    p39: u8,
    p40: u8,
    p41: u8,
    p42: u8,
    p43: u8,
    p44: u8,
    p45: u8,
    p46: u8,
    p47: u8,
    p48: u8,
    p49: u8,
    p50: u8,
    p51: u8,
    p52: u8,
    p53: u8,
    p54: u8,
    p55: u8,
    p56: u8,
    p57: u8,
    p58: u8,
    p59: u8,
    p60: u8,
    p61: u8,
    p62: u8,
    p63: u8,
    p64: u8,
    p65: u8,
    #[jasset(skip)]
    note: u32,
}

/// Heap-typed properties between plain ones, and a skipped field.
#[derive(Entity, Debug, Clone, PartialEq)]
#[jasset(crate = ::juliet_core)]
struct Mixed {
    name: String,
    mass: f32,
    tags: Vec<String>,
    #[jasset(skip)]
    cache: Option<String>,
    scale: glam::Vec3,
}

/// The definition: each index of `set` below the table's length, through the table.
fn by_table<T: Reflect>(dst: &mut T, src: &T, set: &[u64]) {
    for (w, &word) in set.iter().enumerate() {
        for bit in 0..64 {
            if word & (1 << bit) != 0 {
                if let Some(p) = T::CLASS.properties().get(w * 64 + bit) {
                    p.copy_value(dst, src);
                }
            }
        }
    }
}

fn wide(seed: u8) -> Wide {
    let mut w = Wide::default_value();
    for (i, p) in Wide::CLASS.properties().iter().enumerate() {
        p.decode_into(
            &mut w,
            juliet_core::Value::from_text(&(seed.wrapping_add(i as u8)).to_string()),
        )
        .unwrap();
    }
    w.note = u32::from(seed);
    w
}

proptest! {
    /// Any set of one, two or three words (bits past the 66 properties included).
    #[test]
    fn wide_copy_matches_the_table(set in proptest::collection::vec(any::<u64>(), 0..=3)) {
        let (src, base) = (wide(100), wide(1));
        let mut derived = base.clone();
        derived.copy_properties(&src, &set);
        let mut expected = base.clone();
        by_table(&mut expected, &src, &set);
        prop_assert_eq!(&derived, &expected);
        prop_assert_eq!(derived.note, 1, "a skipped field is not copied");
    }
}

#[test]
fn wide_copy_reaches_the_second_word() {
    let (src, mut dst) = (wide(100), wide(1));
    dst.copy_properties(&src, &[1 << 63, 0b10]);
    assert_eq!((dst.p63, dst.p65), (163, 165));
    assert_eq!((dst.p62, dst.p64), (63, 65));
}

#[test]
fn mixed_copy_clones_heap_values_and_leaves_the_rest() {
    let src = Mixed {
        name: "Rock".to_owned(),
        mass: 250.0,
        tags: vec!["big".to_owned(), "grey".to_owned()],
        cache: Some("src".to_owned()),
        scale: glam::Vec3::splat(2.0),
    };
    let base = Mixed {
        name: "Pebble".to_owned(),
        mass: 1.0,
        tags: vec![],
        cache: Some("dst".to_owned()),
        scale: glam::Vec3::ONE,
    };
    for set in 0u64..16 {
        let mut derived = base.clone();
        derived.copy_properties(&src, &[set]);
        let mut expected = base.clone();
        by_table(&mut expected, &src, &[set]);
        assert_eq!(derived, expected, "set {set:#b}");
        assert_eq!(derived.cache.as_deref(), Some("dst"));
    }
    let mut all = base.clone();
    all.copy_properties(&src, &[0b1111]);
    assert_eq!(
        (all.name.as_str(), all.mass, all.tags.len(), all.scale),
        ("Rock", 250.0, 2, glam::Vec3::splat(2.0))
    );
}

/// A hand-written `Reflect` keeps the provided `copy_properties` (the table walk).
#[derive(Debug, Clone, PartialEq, Default)]
struct Hand {
    a: f32,
    b: String,
    c: u32,
}

// SAFETY: the table describes `Hand`'s own fields (offset_of! each, with its type's operations).
unsafe impl Reflect for Hand {
    const CLASS: &'static juliet_core::Class = {
        const PROPS: &[juliet_core::PropertyDescriptor] = &[
            juliet_core::PropertyDescriptor::new::<f32>(
                "A",
                "a",
                std::mem::offset_of!(Hand, a),
                &[],
            ),
            juliet_core::PropertyDescriptor::new::<String>(
                "B",
                "b",
                std::mem::offset_of!(Hand, b),
                &[],
            ),
            juliet_core::PropertyDescriptor::new::<u32>(
                "C",
                "c",
                std::mem::offset_of!(Hand, c),
                &[],
            ),
        ];
        // SAFETY: as the impl's.
        &unsafe { juliet_core::Class::of::<Hand>("Hand", 1, PROPS, &[]) }
    };
    fn default_value() -> Hand {
        Hand::default()
    }
    fn clone_value(&self) -> Hand {
        self.clone()
    }
    fn save(&self, _: &mut juliet_core::Archive<'_>) {}
    fn load(&mut self, _: &mut juliet_core::Archive<'_>) -> Result<(), juliet_core::Error> {
        Ok(())
    }
}

#[test]
fn provided_copy_properties_walks_the_table() {
    let src = Hand {
        a: 2.5,
        b: "src".to_owned(),
        c: 9,
    };
    let base = Hand {
        a: 1.0,
        b: "dst".to_owned(),
        c: 1,
    };
    let mut h = base.clone();
    h.copy_properties(&src, &[]);
    assert_eq!(h, base, "an empty set copies nothing");
    h.copy_properties(&src, &[0b101, 1 << 6]);
    assert_eq!(
        h,
        Hand {
            a: 2.5,
            b: "dst".to_owned(),
            c: 9
        },
        "A and C copied, B kept, bit 70 (past the table) ignored"
    );
}
