//! The archive's serialization tests (tokenization, default retention, migration),
//! through `#[derive(Entity)]` instead of
//! hand-written serialize functions, plus the class descriptor, registration,
//! aliases, unknown keys and errors of derived classes.

use std::path::Path;

use glam::Vec3;
use juliet_core::{
    key_crc, Archive, Class, Error, ErrorKind, PropertyType, Reflect, Registry, TokenBuffer,
    WarningKind,
};
use juliet_entities::Entity;

/// A vehicle, its initial values as `default = ...`.
#[derive(Entity, Debug, PartialEq)]
struct DummyVehicle {
    #[jasset(default = 120.0)]
    max_speed: f32,
    #[jasset(default = 6)]
    gear_count: i32,
    #[jasset(default = 0xABCD_EF01_2345_6789)]
    chassis_uuid: u64,
    #[jasset(default = true)]
    turbo: bool,
    #[jasset(default = Vec3::new(10.0, 20.0, 30.0))]
    spawn_position: Vec3,
}

/// A weapon with a history: v1 had a scalar `Speed`, v2 has `VelocityX`/`VelocityY`.
#[derive(Entity, Debug, PartialEq)]
#[jasset(version = 2, deprecated = "Speed", migrate = LegacyWeapon::migrate)]
struct LegacyWeapon {
    velocity_x: f32,
    velocity_y: f32,
}

impl LegacyWeapon {
    fn migrate(&mut self, from: u32, ar: &mut Archive<'_>) -> Result<(), Error> {
        assert_eq!(from, 1, "only v1 files are older than v2");
        if let Some(speed) = ar.read_deprecated::<f32>("Speed")? {
            self.velocity_x = speed;
            self.velocity_y = 0.0;
        }
        Ok(())
    }
}

/// Loads `text` into `value`, returning the archive's unknown keys and warnings.
fn load_into<T: Reflect>(
    value: &mut T,
    text: &str,
) -> Result<(Vec<String>, Vec<WarningKind>), Error> {
    let mut buffer = TokenBuffer::new();
    let doc = buffer.tokenize(text.as_bytes(), Path::new("test.jasset"))?;
    let mut ar = Archive::loading(doc);
    value.load(&mut ar)?;
    let unknown = ar
        .audit_unconsumed()
        .iter()
        .map(|u| u.key().to_owned())
        .collect();
    let warnings = ar.take_warnings().into_iter().map(|w| w.kind).collect();
    Ok((unknown, warnings))
}

fn save<T: Reflect>(value: &T) -> String {
    let mut out = String::new();
    value.save(&mut Archive::saving(&mut out));
    out
}

/// Missing properties keep the struct's declared defaults (docs/design.md, section 2.6).
#[test]
fn dummy_vehicle_keeps_defaults_for_missing_keys() {
    let mut vehicle = DummyVehicle::default_value();
    assert_eq!(
        vehicle,
        DummyVehicle {
            max_speed: 120.0,
            gear_count: 6,
            chassis_uuid: 0xABCD_EF01_2345_6789,
            turbo: true,
            spawn_position: Vec3::new(10.0, 20.0, 30.0),
        }
    );
    let (unknown, warnings) = load_into(&mut vehicle, "; MaxSpeed\n180.0\n").unwrap();
    assert_eq!(vehicle.max_speed, 180.0); // overwritten by the archive
    assert_eq!(vehicle.gear_count, 6); // preserved defaults
    assert!(vehicle.turbo);
    assert_eq!(vehicle.spawn_position.x, 10.0);
    assert_eq!(vehicle.chassis_uuid, 0xABCD_EF01_2345_6789);
    assert!(unknown.is_empty() && warnings.is_empty());
}

/// Other spellings (`ChassisUUID`, a `%f` float) and snake_case keys
/// read as the derived keys; the writer emits the PascalCase form.
#[test]
fn dummy_vehicle_reads_any_key_spelling_and_saves_canonically() {
    let mut vehicle = DummyVehicle::default_value();
    let text = "; ChassisUUID\n0x0000000000000042\n; gear_count\n4\n; TURBO\n0\n\
                ; SpawnPosition\n1.000000 2.5 -3\n";
    load_into(&mut vehicle, text).unwrap();
    assert_eq!(vehicle.chassis_uuid, 0x42);
    assert_eq!(vehicle.gear_count, 4);
    assert!(!vehicle.turbo);
    assert_eq!(vehicle.spawn_position, Vec3::new(1.0, 2.5, -3.0));
    assert_eq!(
        save(&vehicle),
        "; ClassVersion\n1\n; MaxSpeed\n120.0\n; GearCount\n4\n; ChassisUuid\n\
         0x0000000000000042\n; Turbo\nfalse\n; SpawnPosition\n1.0 2.5 -3.0\n"
    );
}

/// Migration (docs/design.md, section 4.4): a v1 file's `Speed 75.5` loads as
/// `VelocityX 75.5`, and saving
/// writes `ClassVersion 2` and no `Speed`.
#[test]
fn legacy_weapon_migrates_speed_to_velocity_x() {
    let mut weapon = LegacyWeapon::default_value();
    let (unknown, warnings) =
        load_into(&mut weapon, "; ClassVersion\n1\n; Speed\n75.500000\n").unwrap();
    assert_eq!(weapon.velocity_x, 75.5);
    assert_eq!(weapon.velocity_y, 0.0);
    assert!(
        unknown.is_empty(),
        "a deprecated key is not unknown: {unknown:?}"
    );
    assert!(warnings.is_empty());
    let text = save(&weapon);
    assert_eq!(
        text,
        "; ClassVersion\n2\n; VelocityX\n75.5\n; VelocityY\n0.0\n"
    );
    assert!(!text.contains("Speed"));
}

/// A file at the current version loads its properties directly; the migration is not
/// called (it would panic on `from == 2`), and a stray deprecated key, which no
/// migration read, is kept as an unknown key.
#[test]
fn legacy_weapon_current_version_needs_no_migration() {
    let mut weapon = LegacyWeapon::default_value();
    let text = "; ClassVersion\n2\n; VelocityX\n3.0\n; VelocityY\n-4.0\n; Speed\n9.0\n";
    let (unknown, _) = load_into(&mut weapon, text).unwrap();
    assert_eq!((weapon.velocity_x, weapon.velocity_y), (3.0, -4.0));
    assert_eq!(unknown, ["Speed"]);
    // No ClassVersion: the file is read as the current version.
    let mut weapon = LegacyWeapon::default_value();
    load_into(&mut weapon, "; VelocityY\n1.0\n").unwrap();
    assert_eq!((weapon.velocity_x, weapon.velocity_y), (0.0, 1.0));
}

/// A v1 file without `Speed` keeps the defaults (the migration finds nothing to read).
#[test]
fn legacy_weapon_v1_without_speed_keeps_defaults() {
    let mut weapon = LegacyWeapon {
        velocity_x: 5.0,
        velocity_y: 6.0,
    };
    load_into(&mut weapon, "; ClassVersion\n1\n").unwrap();
    assert_eq!((weapon.velocity_x, weapon.velocity_y), (5.0, 6.0));
}

#[test]
fn newer_class_version_loads_with_a_warning() {
    let mut weapon = LegacyWeapon::default_value();
    let (_, warnings) = load_into(&mut weapon, "; ClassVersion\n3\n; VelocityX\n1.5\n").unwrap();
    assert_eq!(weapon.velocity_x, 1.5);
    assert_eq!(
        warnings,
        vec![WarningKind::NewerClassVersion { file: 3, code: 2 }]
    );
}

/// Keys the class does not know stay unconsumed for the caller's audit, in file order.
#[test]
fn unknown_keys_are_left_for_the_audit() {
    let mut vehicle = DummyVehicle::default_value();
    let text = "Horn: loud\n; Wheels\n4\n; MaxSpeed\n90.0\n";
    let (unknown, warnings) = load_into(&mut vehicle, text).unwrap();
    assert_eq!(vehicle.max_speed, 90.0);
    assert_eq!(unknown, vec!["Horn".to_owned(), "Wheels".to_owned()]);
    assert_eq!(warnings.len(), 2);
}

/// A value that does not parse is an error at its line and column, naming the key.
#[test]
fn bad_value_is_a_located_error() {
    let mut vehicle = DummyVehicle::default_value();
    let err = load_into(&mut vehicle, "; MaxSpeed\n90.0\n; GearCount\n  six\n").unwrap_err();
    assert_eq!((err.location.line, err.location.column), (4, 3));
    assert_eq!(err.key.as_deref(), Some("GearCount"));
    assert!(matches!(err.kind, ErrorKind::BadValue { .. }), "{err}");
}

/// `rename` and `alias`: the renamed key is written, every alias is read.
#[derive(Entity, Debug, PartialEq)]
#[jasset(name = "Crate")]
struct SupplyCrate {
    #[jasset(rename = "Mass", alias = "Weight", alias = "mass_kg", default = 25.0)]
    mass: f32,
    #[jasset(skip, default = 7)]
    open_count: u32,
}

#[test]
fn aliases_are_read_and_the_rename_is_written() {
    for text in ["; Weight\n3.5\n", "; MASS_KG\n3.5\n", "; mass\n3.5\n"] {
        let mut c = SupplyCrate::default_value();
        load_into(&mut c, text).unwrap();
        assert_eq!(c.mass, 3.5, "{text:?}");
    }
    let c = SupplyCrate {
        mass: 1.0,
        open_count: 99,
    };
    assert_eq!(save(&c), "; ClassVersion\n1\n; Mass\n1.0\n");
}

/// A `skip` field is not a property: not in the table, not written, not read, and at
/// its default in a new or cloned value.
#[test]
fn skipped_field_is_never_serialized() {
    let mut c = SupplyCrate::default_value();
    assert_eq!(c.open_count, 7);
    c.open_count = 3;
    let (unknown, _) = load_into(&mut c, "; OpenCount\n12\n").unwrap();
    assert_eq!(c.open_count, 3);
    assert_eq!(unknown, vec!["OpenCount".to_owned()]);
    assert_eq!(
        c.clone_value(),
        SupplyCrate {
            mass: 25.0,
            open_count: 7
        }
    );
    assert_eq!(SupplyCrate::CLASS.properties().len(), 1);
}

/// A struct-level `Default` whose skipped field is not the type's own default, to tell
/// where a clone's skipped field comes from.
#[derive(Entity, Debug, PartialEq)]
#[jasset(default)]
struct Banner {
    text: String,
    tags: Vec<String>,
    #[jasset(skip)]
    cache: Option<String>,
}

impl Default for Banner {
    fn default() -> Banner {
        Banner {
            text: "untitled".to_owned(),
            tags: vec!["new".to_owned()],
            cache: Some("from Default".to_owned()),
        }
    }
}

/// `clone_value` clones every property (heap-typed ones too) and gives a skipped field
/// the value `default_value` gives it: its declared default, or the struct-level
/// `Default`'s value of that field.
#[test]
fn clone_value_clones_properties_and_defaults_skipped_fields() {
    let c = SupplyCrate {
        mass: 4.5,
        open_count: 99,
    };
    assert_eq!(
        c.clone_value(),
        SupplyCrate {
            mass: 4.5,
            open_count: 7
        }
    );
    let b = Banner {
        text: "Welcome".to_owned(),
        tags: vec!["a".to_owned(), "b".to_owned()],
        cache: None,
    };
    let copy = b.clone_value();
    assert_eq!(copy.text, "Welcome");
    assert_eq!(copy.tags, ["a", "b"]);
    assert_eq!(copy.cache.as_deref(), Some("from Default"));
    assert_eq!(b.cache, None, "the source is unchanged");
}

/// The class descriptor: name and CRC, version, layout, table in declaration order with
/// keys, CRCs, offsets, types, aliases; deprecated keys.
#[test]
fn class_descriptor_matches_the_struct() {
    let class: &Class = DummyVehicle::CLASS;
    assert_eq!(class.name(), "DummyVehicle");
    assert_eq!(class.crc(), key_crc("DummyVehicle"));
    assert_eq!(class.version(), 1);
    assert_eq!(class.size(), std::mem::size_of::<DummyVehicle>());
    assert_eq!(class.align(), std::mem::align_of::<DummyVehicle>());
    assert!(class.is::<DummyVehicle>());
    assert!(class.type_name().ends_with("DummyVehicle"));
    let table: Vec<_> = class
        .properties()
        .iter()
        .map(|p| (p.key, p.field, p.offset, p.size, p.property_type))
        .collect();
    assert_eq!(
        table,
        vec![
            (
                "MaxSpeed",
                "max_speed",
                std::mem::offset_of!(DummyVehicle, max_speed),
                4,
                PropertyType::F32
            ),
            (
                "GearCount",
                "gear_count",
                std::mem::offset_of!(DummyVehicle, gear_count),
                4,
                PropertyType::I32
            ),
            (
                "ChassisUuid",
                "chassis_uuid",
                std::mem::offset_of!(DummyVehicle, chassis_uuid),
                8,
                PropertyType::U64
            ),
            (
                "Turbo",
                "turbo",
                std::mem::offset_of!(DummyVehicle, turbo),
                1,
                PropertyType::Bool
            ),
            (
                "SpawnPosition",
                "spawn_position",
                std::mem::offset_of!(DummyVehicle, spawn_position),
                12,
                PropertyType::Floats(3)
            ),
        ]
    );
    for p in class.properties() {
        assert_eq!(p.crc, key_crc(p.key));
    }
    assert_eq!(class.property("chassis_uuid").unwrap().key, "ChassisUuid");

    let weapon = LegacyWeapon::CLASS;
    assert_eq!(weapon.version(), 2);
    assert!(weapon.is_deprecated(key_crc("speed"), "speed"));
    assert!(weapon.property("Speed").is_none());

    let supply = SupplyCrate::CLASS;
    assert_eq!(supply.name(), "Crate");
    assert_eq!(supply.crc(), key_crc("crate"));
    let mass = supply.property("weight").unwrap();
    assert_eq!(mass.key, "Mass");
    let aliases: Vec<_> = mass.aliases.iter().map(|k| k.name).collect();
    assert_eq!(aliases, ["Weight", "mass_kg"]);
}

/// The property table drives reflection: read, compare and copy a field by key.
#[test]
fn property_table_reads_and_writes_fields() {
    let mut a = DummyVehicle::default_value();
    let b = DummyVehicle {
        gear_count: 2,
        ..DummyVehicle::default_value()
    };
    let gears = DummyVehicle::CLASS.property("GearCount").unwrap();
    let mut text = String::new();
    gears.encode(&b, &mut text);
    assert_eq!(text, "2");
    assert!(!gears.same_value(&a, &b));
    gears.copy_value(&mut a, &b);
    assert_eq!(a.gear_count, 2);
    gears
        .decode_into(&mut a, juliet_core::Value::from_text("5"))
        .unwrap();
    assert_eq!(a.gear_count, 5);
}

/// Every derived class of this test binary registers itself; the runtime finds each
/// by name (any spelling) and by CRC, without a hand-kept list.
#[test]
fn derived_classes_register_themselves() {
    let registry = Registry::global().unwrap();
    for class in [DummyVehicle::CLASS, LegacyWeapon::CLASS, SupplyCrate::CLASS] {
        assert!(std::ptr::eq(
            registry.find_by_name(class.name()).unwrap(),
            class
        ));
        assert!(std::ptr::eq(
            registry.find_by_crc(class.crc()).unwrap(),
            class
        ));
    }
    assert!(std::ptr::eq(
        registry.find_by_name("dummy_vehicle").unwrap(),
        DummyVehicle::CLASS
    ));
    let ours = registry
        .classes()
        .iter()
        .filter(|c| c.type_name().starts_with("derive_archive::"))
        .count();
    assert_eq!(ours, 6, "the six classes of this file, each once");
}

/// A class without properties still writes and reads its version.
#[derive(Entity, Debug, PartialEq)]
struct Marker {}

/// A raw-identifier field: its key is the name without `r#`.
#[derive(Entity, Debug, PartialEq)]
struct Tagged {
    r#type: u8,
}

#[test]
fn empty_class_and_raw_identifier_field() {
    assert_eq!(save(&Marker {}), "; ClassVersion\n1\n");
    let (unknown, _) = load_into(&mut Marker {}, "; ClassVersion\n1\n; Extra\n2\n").unwrap();
    assert_eq!(unknown, vec!["Extra".to_owned()]);

    let mut tagged = Tagged::default_value();
    load_into(&mut tagged, "; type\n7\n").unwrap();
    assert_eq!(tagged.r#type, 7);
    assert_eq!(save(&tagged), "; ClassVersion\n1\n; Type\n7\n");
    assert_eq!(Tagged::CLASS.properties()[0].field, "type");
}
