//! The archive's three serialization tests (tokenization with CRLF and comments,
//! default retention with `DummyVehicle`, deprecation migration with `LegacyWeapon`),
//! with hand-written symmetric serialize functions over `juliet_core::Archive`
//! (docs/design.md, section 4.1). A save test checks that the migrated `Speed` is never
//! written.

use std::path::Path;

use glam::Vec3;
use juliet_core::{key, Archive, Error, TokenBuffer, UnknownProperties, CLASS_VERSION};

// ---------------------------------------------------------------------------------
// Test 1: tokenization with white space, comments and mixed line endings.
// ---------------------------------------------------------------------------------

/// The design's `testContent`, byte for byte (CRLF and LF mixed).
const TEST_CONTENT: &str = "# Header Comment\r\n\
                            // Secondary comment\n\
                            \n\
                            ; Health\r\n   100.500000   \r\n\
                            \n\
                            ; Name\n\"Paladin Hero\"\n\
                            \n\
                            ; Position\r\n1.0 2.0 3.0\r\n";

#[test]
fn parser_tokenization() {
    let mut buffer = TokenBuffer::new();
    let mut doc = buffer
        .tokenize(TEST_CONTENT.as_bytes(), Path::new("testContent"))
        .unwrap();
    assert_eq!(doc.len(), 3, "PropertyCount == 3");

    let health = doc.find_name("Health").expect("Health");
    assert_eq!(
        doc.value(health).lines().collect::<Vec<_>>(),
        ["100.500000"]
    );
    let name = doc.find_name("Name").expect("Name");
    assert_eq!(
        doc.value(name).lines().collect::<Vec<_>>(),
        ["\"Paladin Hero\""]
    );
    let position = doc.find_name("Position").expect("Position");
    assert_eq!(
        doc.value(position).lines().collect::<Vec<_>>(),
        ["1.0 2.0 3.0"]
    );

    // Lines are counted across both line endings; the keys sit after `; `.
    assert_eq!((doc.node(health).line, doc.node(health).column), (4, 3));
    assert_eq!((doc.node(name).line, doc.node(name).column), (7, 3));
    assert_eq!(
        (doc.node(position).line, doc.node(position).column),
        (10, 3)
    );

    // And the typed values (read through one serialize call per property).
    assert_eq!(doc.decode::<f32>(health).unwrap(), 100.5);
    assert_eq!(doc.decode::<String>(name).unwrap(), "Paladin Hero");
    assert_eq!(
        doc.decode::<Vec3>(position).unwrap(),
        Vec3::new(1.0, 2.0, 3.0)
    );
    assert_eq!(doc.unconsumed().count(), 0);
}

#[test]
fn lookup_by_crc_marks_only_the_found_node_consumed() {
    let mut buffer = TokenBuffer::new();
    let mut doc = buffer
        .tokenize(TEST_CONTENT.as_bytes(), Path::new("testContent"))
        .unwrap();
    assert_eq!(doc.find_name("Missing"), None);
    let name = doc.find_name("Name").unwrap();
    let consumed: Vec<bool> = doc.nodes().iter().map(|n| n.consumed).collect();
    let mut expected = vec![false; 3];
    expected[name] = true;
    assert_eq!(consumed, expected);
}

// ---------------------------------------------------------------------------------
// Test 2: missing properties keep their default values.
// ---------------------------------------------------------------------------------

/// The design's `DummyVehicle`, with its defaults.
#[derive(Debug, Clone, PartialEq)]
struct DummyVehicle {
    max_speed: f32,
    gear_count: i32,
    chassis_uuid: u64,
    turbo: bool,
    pos_x: f32,
    pos_y: f32,
    pos_z: f32,
}

impl Default for DummyVehicle {
    fn default() -> DummyVehicle {
        DummyVehicle {
            max_speed: 120.0,
            gear_count: 6,
            chassis_uuid: 0xABCD_EF01_2345_6789,
            turbo: true,
            pos_x: 10.0,
            pos_y: 20.0,
            pos_z: 30.0,
        }
    }
}

/// The design's `SerializeDummyVehicle`: one call per property serves both directions;
/// `Position` gathers the three scalar fields into one 3-float property.
fn serialize_dummy_vehicle(ar: &mut Archive<'_>, v: &mut DummyVehicle) -> Result<(), Error> {
    ar.serialize(key!("MaxSpeed"), &mut v.max_speed)?;
    ar.serialize(key!("GearCount"), &mut v.gear_count)?;
    ar.serialize(key!("ChassisUUID"), &mut v.chassis_uuid)?;
    ar.serialize(key!("Turbo"), &mut v.turbo)?;
    let mut position = [v.pos_x, v.pos_y, v.pos_z];
    if ar.serialize(key!("Position"), &mut position)? {
        [v.pos_x, v.pos_y, v.pos_z] = position;
    }
    Ok(())
}

#[test]
fn default_value_retention() {
    let incomplete = "; MaxSpeed\n180.0\n";
    let mut buffer = TokenBuffer::new();
    let doc = buffer
        .tokenize(incomplete.as_bytes(), Path::new("incompleteContent"))
        .unwrap();
    let mut ar = Archive::loading(doc);
    let mut vehicle = DummyVehicle::default();
    serialize_dummy_vehicle(&mut ar, &mut vehicle).unwrap();

    assert_eq!(vehicle.max_speed, 180.0, "overwritten by the archive");
    assert_eq!(vehicle.gear_count, 6, "default kept");
    assert!(vehicle.turbo, "default kept");
    assert_eq!(vehicle.pos_x, 10.0, "default kept");
    assert_eq!(vehicle.chassis_uuid, 0xABCD_EF01_2345_6789, "default kept");
    assert_eq!((vehicle.pos_y, vehicle.pos_z), (20.0, 30.0), "default kept");
    assert!(ar.audit_unconsumed().is_empty());
}

#[test]
fn missing_key_reports_false_and_present_key_true() {
    let mut buffer = TokenBuffer::new();
    let doc = buffer
        .tokenize(b"; GearCount\n4\n", Path::new("x"))
        .unwrap();
    let mut ar = Archive::loading(doc);
    let mut max_speed = 120.0f32;
    assert!(!ar.serialize(key!("MaxSpeed"), &mut max_speed).unwrap());
    assert_eq!(max_speed, 120.0);
    let mut gears = 6i32;
    assert!(ar.serialize(key!("GearCount"), &mut gears).unwrap());
    assert_eq!(gears, 4);
}

#[test]
fn dummy_vehicle_saves_the_value_table_forms_and_loads_back() {
    let mut vehicle = DummyVehicle {
        max_speed: 95.5,
        gear_count: -2,
        chassis_uuid: 0x42,
        turbo: false,
        pos_x: 0.1,
        pos_y: -1e-7,
        pos_z: 3.0,
    };
    let mut text = String::new();
    serialize_dummy_vehicle(&mut Archive::saving(&mut text), &mut vehicle).unwrap();
    // The written forms of docs/design.md, section 2.3: shortest float text with `.` or exponent,
    // decimal i32, `0x` + 16 upper-case hex digits, true/false, space-separated floats.
    assert_eq!(
        text,
        "; MaxSpeed\n95.5\n\
         ; GearCount\n-2\n\
         ; ChassisUUID\n0x0000000000000042\n\
         ; Turbo\nfalse\n\
         ; Position\n0.1 -1e-7 3.0\n"
    );
    let mut buffer = TokenBuffer::new();
    let doc = buffer.tokenize(text.as_bytes(), Path::new("v")).unwrap();
    let mut loaded = DummyVehicle::default();
    serialize_dummy_vehicle(&mut Archive::loading(doc), &mut loaded).unwrap();
    assert_eq!(loaded, vehicle);
}

// ---------------------------------------------------------------------------------
// Test 3: deprecation migration from v1 (`Speed`) to v2 (`VelocityX`).
// ---------------------------------------------------------------------------------

/// The design's `LegacyWeapon`, class version 2.
#[derive(Debug, Default, Clone, PartialEq)]
struct LegacyWeapon {
    velocity_x: f32,
    velocity_y: f32,
}

const LEGACY_WEAPON_VERSION: u32 = 2;

/// The design's `SerializeLegacyWeapon`: v1 files carry a scalar `Speed`, read through
/// `read_deprecated` (which never writes); v2 files carry `VelocityX` / `VelocityY`.
fn serialize_legacy_weapon(ar: &mut Archive<'_>, w: &mut LegacyWeapon) -> Result<(), Error> {
    // Loading: the file's ClassVersion (or the code's when absent); saving: the code's.
    let version = ar.resolve_class_version(LEGACY_WEAPON_VERSION)?;
    if ar.is_saving() {
        let mut written = version;
        ar.serialize(CLASS_VERSION, &mut written)?;
    }
    if version < 2 {
        if let Some(speed) = ar.read_deprecated::<f32>("Speed")? {
            w.velocity_x = speed;
            w.velocity_y = 0.0;
        }
    } else {
        ar.serialize(key!("VelocityX"), &mut w.velocity_x)?;
        ar.serialize(key!("VelocityY"), &mut w.velocity_y)?;
    }
    Ok(())
}

/// The design's `v1Content`.
const V1_CONTENT: &str = "; ClassVersion\n1\n; Speed\n75.500000\n";

/// What loading a weapon file gives: the weapon, the file's class version as resolved,
/// the unconsumed-key audit and the number of warnings.
struct Loaded {
    weapon: LegacyWeapon,
    class_version: Option<u32>,
    unknown: UnknownProperties,
    warnings: usize,
}

fn load_weapon(text: &str) -> Loaded {
    let mut buffer = TokenBuffer::new();
    let doc = buffer
        .tokenize(text.as_bytes(), Path::new("weapon"))
        .unwrap();
    let mut ar = Archive::loading(doc);
    let mut weapon = LegacyWeapon::default();
    serialize_legacy_weapon(&mut ar, &mut weapon).unwrap();
    let unknown = ar.audit_unconsumed();
    Loaded {
        weapon,
        class_version: ar.class_version(),
        warnings: ar.warnings().len() - unknown.len(),
        unknown,
    }
}

#[test]
fn deprecation_migration() {
    let loaded = load_weapon(V1_CONTENT);
    assert_eq!(loaded.class_version, Some(1));
    assert_eq!(loaded.weapon.velocity_x, 75.5);
    assert_eq!(loaded.weapon.velocity_y, 0.0);
    // `Speed` was consumed by the migration: it is not an unknown key to write back.
    assert!(loaded.unknown.is_empty());
    assert_eq!(loaded.warnings, 0);
}

#[test]
fn saving_a_migrated_weapon_writes_no_speed() {
    let mut weapon = load_weapon(V1_CONTENT).weapon;
    let mut text = String::new();
    serialize_legacy_weapon(&mut Archive::saving(&mut text), &mut weapon).unwrap();
    assert_eq!(
        text,
        "; ClassVersion\n2\n; VelocityX\n75.5\n; VelocityY\n0.0\n"
    );
    assert!(!text.contains("Speed"));
    // The saved v2 file loads back to the same weapon without the migration.
    let reloaded = load_weapon(&text);
    assert_eq!(reloaded.class_version, Some(2));
    assert_eq!(reloaded.weapon, weapon);
    assert!(reloaded.unknown.is_empty());
}

#[test]
fn read_deprecated_never_writes_even_when_called_while_saving() {
    // Forcing the v1 branch in a saving archive: read_deprecated reads nothing and
    // writes nothing, so the field is untouched and the output empty.
    let mut text = String::new();
    let mut ar = Archive::saving(&mut text);
    ar.set_class_version(1);
    let mut weapon = LegacyWeapon {
        velocity_x: 3.0,
        velocity_y: 4.0,
    };
    serialize_legacy_weapon(&mut ar, &mut weapon).unwrap();
    drop(ar);
    assert_eq!(text, "; ClassVersion\n1\n");
    assert_eq!((weapon.velocity_x, weapon.velocity_y), (3.0, 4.0));
}

#[test]
fn v2_file_is_not_migrated_and_a_stray_speed_is_reported() {
    let loaded =
        load_weapon("; ClassVersion\n2\n; Speed\n9.0\n; VelocityX\n1.5\n; VelocityY\n-2.0\n");
    assert_eq!(
        loaded.weapon,
        LegacyWeapon {
            velocity_x: 1.5,
            velocity_y: -2.0
        }
    );
    let unknown = loaded.unknown;
    assert_eq!(unknown.len(), 1);
    let speed = unknown.iter().next().unwrap();
    assert_eq!(speed.key(), "Speed");
    assert_eq!(speed.lines().collect::<Vec<_>>(), ["9.0"]);
}

#[test]
fn file_without_class_version_uses_the_code_version() {
    let loaded = load_weapon("; VelocityX\n7.0\n");
    assert_eq!(loaded.class_version, Some(LEGACY_WEAPON_VERSION));
    assert_eq!(loaded.weapon.velocity_x, 7.0);
}
