//! A `SimFloat` field is a property of a `#[derive(Entity)]` struct: saved, loaded
//! back bit-exactly, read in other spellings, and refused with a located error when
//! out of range.

use std::path::Path;

use glam::Vec3;
use juliet_entities::{load_entity, save_entity, Entity, EntityFileData, EntityManager};

use crate::SimFloat;

#[derive(Entity, Debug, Clone, PartialEq)]
struct Cart {
    speed: SimFloat,
    #[jasset(default = SimFloat::from_int(2))]
    mass: SimFloat,
}

#[test]
fn simfloat_fields_round_trip_through_an_entity_file() {
    let mut m = EntityManager::new();
    let id = m.make_entity::<Cart>(Vec3::ZERO);
    assert_eq!(m.get::<Cart>(id).unwrap().mass, SimFloat::from_int(2));
    m.get_mut::<Cart>(id).unwrap().speed = SimFloat::from_bits(-0x0123_4567_89AB_CDEF);
    let mut text = String::new();
    save_entity(&m, id, &EntityFileData::default(), &mut text).unwrap();
    assert!(text.contains("; Mass\n2.0\n"), "{text}");
    let mut other = EntityManager::new();
    let loaded = load_entity(&mut other, Path::new("cart.jasset"), text.as_bytes()).unwrap();
    assert_eq!(other.get::<Cart>(loaded.id), m.get::<Cart>(id));
}

#[test]
fn simfloat_fields_read_other_spellings_and_refuse_bad_values() {
    let file = "AssetType: Entity\nKind: Cart\nSpeed: 1e3\n; Mass\n-0.5\n";
    let mut m = EntityManager::new();
    let loaded = load_entity(&mut m, Path::new("a.jasset"), file.as_bytes()).unwrap();
    let cart = m.get::<Cart>(loaded.id).unwrap();
    assert_eq!(
        (cart.speed, cart.mass),
        (SimFloat::from_int(1000), SimFloat::from_float(-0.5))
    );

    let bad = "; AssetType\nEntity\n; Kind\nCart\n; Speed\n3000000000\n";
    let err = load_entity(&mut m, Path::new("b.jasset"), bad.as_bytes()).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("b.jasset:6"), "{message}");
    assert!(message.contains("SimFloat"), "{message}");
}
