//! A derived struct with every supported field type: snapshots of its saved `.jasset`
//! text at defaults and with every field set, and a proptest round trip (random values
//! -> save -> load -> equal, floats bit-exact, NaN payloads aside).

use std::path::Path;

use glam::{Vec2, Vec3, Vec4};
use juliet_core::{
    Archive, Codec, ErrorKind, PropertyType, Reflect, TokenBuffer, Value, ValueError,
    ValueErrorKind,
};
use juliet_entities::{Codec, Entity};
use proptest::prelude::*;

#[path = "common/floats.rs"]
mod floats;
use floats::{any_f32, any_f64};

/// A unit enum property (`#[derive(Codec)]`).
#[derive(Codec, Clone, Copy, PartialEq, Eq, Debug, Default)]
enum Team {
    #[default]
    Neutral,
    Red,
    #[jasset(rename = "Blu")]
    Blue,
}

/// A game type with a hand-written codec: `RRGGBBAA` hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
struct Rgba(u32);

impl Codec for Rgba {
    const PROPERTY_TYPE: PropertyType = PropertyType::Custom("colour RRGGBBAA");
    fn encode(&self, out: &mut String) {
        out.push_str(&format!("{:08X}", self.0));
    }
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let line = value.single()?;
        u32::from_str_radix(line, 16)
            .map(Rgba)
            .map_err(|_| ValueError::new(ValueErrorKind::InvalidNumber, line))
    }
}

/// Every supported field type, plus a skipped field of a type without a codec.
#[derive(Entity, Debug, Clone, PartialEq)]
#[jasset(version = 4)]
struct Everything {
    flag: bool,
    tiny: i8,
    small: i16,
    medium: i32,
    large: i64,
    byte: u8,
    word: u16,
    #[jasset(default = u32::MAX)]
    mesh_instance: u32,
    entity_no: u64,
    single: f32,
    double: f64,
    uv: [f32; 2],
    bounds: [f32; 6],
    direction: Vec2,
    location: Vec3,
    rotation: Vec4,
    #[jasset(default = "Unnamed".to_owned())]
    name: String,
    team: Team,
    tint: Rgba,
    tags: Vec<String>,
    scores: Vec<i32>,
    waypoints: Vec<Vec3>,
    squad: Vec<Team>,
    #[jasset(skip)]
    scratch: std::collections::HashMap<u32, String>,
}

fn save(value: &Everything) -> String {
    let mut out = String::new();
    value.save(&mut Archive::saving(&mut out));
    out
}

fn load(text: &str) -> Result<Everything, juliet_core::Error> {
    let mut buffer = TokenBuffer::new();
    let doc = buffer.tokenize(text.as_bytes(), Path::new("everything.jasset"))?;
    let mut ar = Archive::loading(doc);
    let mut value = Everything::default_value();
    value.load(&mut ar)?;
    let unknown = ar.audit_unconsumed();
    assert!(
        unknown.is_empty(),
        "unknown keys after a round trip: {unknown:?}"
    );
    Ok(value)
}

/// Every field set to a value other than its default.
fn every_field_set() -> Everything {
    Everything {
        flag: true,
        tiny: -128,
        small: 32_000,
        medium: -7,
        large: i64::MIN,
        byte: 255,
        word: 4096,
        mesh_instance: 42,
        entity_no: 0x0000_0000_DEAD_BEEF,
        single: 0.1,
        double: -1e-300,
        uv: [0.0, 0.5],
        bounds: [-1.0, -2.0, -3.0, 1.0, 2.0, 3.0],
        direction: Vec2::new(1.0, -0.0),
        location: Vec3::new(142.5, 12.0, -84.2),
        rotation: Vec4::new(0.0, 0.0, 0.70710677, 0.70710677),
        name: "Grand Citadel \"Knight\"".to_owned(),
        team: Team::Blue,
        tint: Rgba(0xFF80_00FF),
        tags: vec!["boss".to_owned(), "has space".to_owned(), String::new()],
        scores: vec![3, -1, 0],
        waypoints: vec![Vec3::ZERO, Vec3::new(1.0, 2.0, 3.0)],
        squad: vec![Team::Red, Team::Neutral],
        scratch: [(1, "not saved".to_owned())].into_iter().collect(),
    }
}

#[test]
fn saved_text_at_defaults() {
    let value = Everything::default_value();
    assert_eq!(value.mesh_instance, u32::MAX);
    assert_eq!(value.name, "Unnamed");
    let text = save(&value);
    insta::assert_snapshot!(text);
    let mut back = load(&text).unwrap();
    back.scratch = value.scratch.clone();
    assert_eq!(back, value);
}

#[test]
fn saved_text_with_every_field_set() {
    let value = every_field_set();
    let text = save(&value);
    insta::assert_snapshot!(text);
    let back = load(&text).unwrap();
    assert!(back.scratch.is_empty(), "a skipped field is never loaded");
    assert_eq!(
        Everything {
            scratch: value.scratch.clone(),
            ..back
        },
        value
    );
    // Saving what was just loaded gives the same bytes.
    assert_eq!(save(&load(&text).unwrap()), text);
}

#[test]
fn property_types_of_the_table() {
    let types: Vec<_> = Everything::CLASS
        .properties()
        .iter()
        .map(|p| p.property_type)
        .collect();
    assert_eq!(types.len(), 23, "every field but the skipped one");
    assert_eq!(
        Everything::CLASS.property("team").unwrap().property_type,
        PropertyType::Enum {
            name: "Team",
            variants: &["Neutral", "Red", "Blu"]
        }
    );
    assert_eq!(
        Everything::CLASS.property("Squad").unwrap().property_type,
        PropertyType::List(&<Team as Codec>::PROPERTY_TYPE)
    );
    assert_eq!(
        Everything::CLASS.property("tint").unwrap().property_type,
        PropertyType::Custom("colour RRGGBBAA")
    );
}

/// Unit enums are written by (renamed) variant name and read ignoring ASCII case; an
/// unknown variant is a located error naming the variants.
#[test]
fn unit_enum_codec_reads_case_insensitively() {
    let value = load("; Team\nblu\n; Squad\nRED\nneutral\n").unwrap();
    assert_eq!(value.team, Team::Blue);
    assert_eq!(value.squad, vec![Team::Red, Team::Neutral]);
    let mut out = String::new();
    Team::Blue.encode(&mut out);
    assert_eq!(out, "Blu");
    assert!(
        Team::decode(Value::from_text("Blue")).is_err(),
        "the Rust name is not the written name"
    );

    let err = load("; Team\n  Purple\n").unwrap_err();
    assert_eq!((err.location.line, err.location.column), (2, 3));
    let ErrorKind::BadValue {
        expected,
        found,
        reason,
    } = &err.kind
    else {
        panic!("{err}");
    };
    assert_eq!(expected, "one of Neutral | Red | Blu");
    assert_eq!(found, "Purple");
    assert_eq!(reason, &ValueErrorKind::UnknownVariant);
}

fn team() -> impl Strategy<Value = Team> {
    prop_oneof![Just(Team::Neutral), Just(Team::Red), Just(Team::Blue)]
}

fn vec3() -> impl Strategy<Value = Vec3> {
    [any_f32(), any_f32(), any_f32()].prop_map(Vec3::from_array)
}

prop_compose! {
    fn numbers()(
        flag in any::<bool>(),
        tiny in any::<i8>(),
        small in any::<i16>(),
        medium in any::<i32>(),
        large in any::<i64>(),
        byte in any::<u8>(),
        word in any::<u16>(),
        mesh_instance in any::<u32>(),
        entity_no in any::<u64>(),
        single in any_f32(),
        double in any_f64(),
    ) -> (bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64) {
        (flag, tiny, small, medium, large, byte, word, mesh_instance, entity_no, single, double)
    }
}

prop_compose! {
    fn everything()(
        n in numbers(),
        uv in [any_f32(), any_f32()],
        bounds in [any_f32(), any_f32(), any_f32(), any_f32(), any_f32(), any_f32()],
        direction in [any_f32(), any_f32()].prop_map(Vec2::from_array),
        location in vec3(),
        rotation in [any_f32(), any_f32(), any_f32(), any_f32()].prop_map(Vec4::from_array),
        name in any::<String>(),
        team in team(),
        tint in any::<u32>().prop_map(Rgba),
        tags in prop::collection::vec(any::<String>(), 0..5),
        scores in prop::collection::vec(any::<i32>(), 0..5),
        waypoints in prop::collection::vec(vec3(), 0..4),
        squad in prop::collection::vec(team(), 0..4),
    ) -> Everything {
        let (flag, tiny, small, medium, large, byte, word, mesh_instance, entity_no, single, double) = n;
        Everything {
            flag, tiny, small, medium, large, byte, word, mesh_instance, entity_no, single,
            double, uv, bounds, direction, location, rotation, name, team, tint, tags, scores,
            waypoints, squad, scratch: Default::default(),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn every_field_type_round_trips(value in everything()) {
        let text = save(&value);
        let back = load(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        // Compared through the property table's `same_value`: bit patterns for floats,
        // so -0.0 != 0.0 and a changed NaN bit would fail.
        for p in Everything::CLASS.properties() {
            prop_assert!(p.same_value(&value, &back), "property {} differs after:\n{}", p.key, text);
        }
        prop_assert_eq!(save(&back), text);
    }
}
