//! CRC-32 twins: keys whose CRC equals another key's but whose text differs. Keys match
//! exactly (the CRC is the first test, the normalized text the second), so a twin is an
//! unknown key: kept, warned about, written back, never read as the key it collides with.
//!
//! The twins are found here, by a meet-in-the-middle search on the CRC state (CRC-32 is
//! invertible byte by byte), not taken from a list: a twin of any key can be checked.

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use juliet_core::{key_crc, keys_equal, WarningKind};
use juliet_entities::kinds::{Inert, Projectile};
use juliet_entities::{load_entity, save_entity, EntityManager};

/// The reflected CRC-32 (IEEE) table.
fn table() -> [u32; 256] {
    let mut table = [0u32; 256];
    for (i, slot) in table.iter_mut().enumerate() {
        let mut crc = i as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
        *slot = crc;
    }
    table
}

/// Every string of `len` lower-case letters, as bytes.
fn words(len: u32) -> impl Iterator<Item = Vec<u8>> {
    (0..26u32.pow(len)).map(move |mut n| {
        let mut w = vec![0u8; len as usize];
        for b in w.iter_mut().rev() {
            *b = b'a' + (n % 26) as u8;
            n /= 26;
        }
        w
    })
}

/// A key of 12 lower-case letters, starting `twin`, whose [`key_crc`] is `key`'s and
/// whose text is another key: `twin` + 4 letters hashed forwards, 4 letters undone
/// backwards from the target state, met in a table (about 50 meetings are expected
/// among 26^4 x 26^4 pairs).
fn twin_of(key: &str) -> String {
    let table = table();
    // The table's top bytes are distinct, so one CRC step can be undone.
    let mut by_top = [0u8; 256];
    for (i, t) in table.iter().enumerate() {
        by_top[(t >> 24) as usize] = i as u8;
    }
    let step = |crc: u32, b: u8| table[((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8);
    let unstep = |crc: u32, b: u8| {
        let i = by_top[(crc >> 24) as usize];
        ((crc ^ table[i as usize]) << 8) | u32::from(i ^ b)
    };
    let prefix = b"twin".iter().fold(!0u32, |c, &b| step(c, b));
    let mut forward = HashMap::with_capacity(26usize.pow(4));
    for w in words(4) {
        forward.insert(w.iter().fold(prefix, |c, &b| step(c, b)), w);
    }
    let target = !key_crc(key);
    for w in words(4) {
        let state = w.iter().rev().fold(target, |c, &b| unstep(c, b));
        if let Some(middle) = forward.get(&state) {
            let mut twin = b"twin".to_vec();
            twin.extend_from_slice(middle);
            twin.extend_from_slice(&w);
            let twin = String::from_utf8(twin).unwrap();
            assert_eq!(key_crc(&twin), key_crc(key), "the search is exact");
            if !keys_equal(&twin, key) {
                return twin;
            }
        }
    }
    panic!("no twin of {key} found");
}

fn entity(kind: &str, body: &str) -> String {
    format!("; EntityID\n0x0000000000000042\n; Kind\n{kind}\n{body}")
}

fn unknown_warnings(warnings: &[juliet_core::Warning]) -> Vec<String> {
    warnings
        .iter()
        .filter_map(|w| match &w.kind {
            WarningKind::UnknownKey(k) => Some(k.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_search_finds_twins_of_derived_and_base_keys() {
    for key in ["health", "Position", "ClassVersion", "Kind"] {
        let twin = twin_of(key);
        assert_eq!(key_crc(&twin), key_crc(key));
        assert!(!keys_equal(&twin, key));
        assert_eq!(twin.len(), 12);
    }
}

#[test]
fn a_twin_of_a_derived_key_is_an_unknown_key_kept_by_the_save() {
    let twin = twin_of("Health");
    let text = entity("Inert", &format!("; Health\n77.0\n; {twin}\n5.0\n"));
    let mut manager = EntityManager::new();
    let loaded = load_entity(&mut manager, Path::new("e.jasset"), text.as_bytes()).unwrap();
    assert_eq!(manager.get::<Inert>(loaded.id).unwrap().health, 77.0);
    assert_eq!(unknown_warnings(&loaded.warnings), vec![twin.clone()]);

    let mut saved = String::new();
    save_entity(&manager, loaded.id, &loaded.data, &mut saved).unwrap();
    assert!(saved.contains("; Health\n77.0\n"), "{saved}");
    assert!(saved.contains(&format!("; {twin}\n5.0\n")), "{saved}");
}

#[test]
fn a_twin_alone_leaves_the_property_at_its_default() {
    let twin = twin_of("Health");
    for body in [
        format!("; {twin}\n5.0\n"),
        format!("; {twin}: 5.0\n"),
        format!("; ClassVersion\n2\n; Mass\n1.0\n; {twin}\n5.0\n"),
    ] {
        let text = entity("Inert", &body);
        let mut manager = EntityManager::new();
        let loaded = load_entity(&mut manager, Path::new("e.jasset"), text.as_bytes()).unwrap();
        assert_eq!(
            manager.get::<Inert>(loaded.id).unwrap().health,
            100.0,
            "{body}"
        );
        assert_eq!(unknown_warnings(&loaded.warnings), vec![twin.clone()]);
        assert_eq!(loaded.data.unknown.iter().next().unwrap().key(), twin);
    }
}

#[test]
fn twins_of_base_keys_and_class_version_are_unknown_keys() {
    let position = twin_of("Position");
    let version = twin_of("ClassVersion");
    let text = entity(
        "Inert",
        &format!("; Position\n1.0 2.0 3.0\n; {position}\n9.0 9.0 9.0\n; {version}\n1\n"),
    );
    let mut manager = EntityManager::new();
    let loaded = load_entity(&mut manager, Path::new("e.jasset"), text.as_bytes()).unwrap();
    let e = manager.entity(loaded.id).unwrap();
    assert_eq!(e.position(), glam::Vec3::new(1.0, 2.0, 3.0));
    assert_eq!(
        unknown_warnings(&loaded.warnings),
        vec![position.clone(), version.clone()]
    );
}

#[test]
fn a_twin_of_a_deprecated_key_is_not_read_by_the_migration() {
    let twin = twin_of("Speed");
    let text = entity(
        "Projectile",
        &format!("; ClassVersion\n1\n; {twin}\n75.5\n"),
    );
    let mut manager = EntityManager::new();
    let loaded = load_entity(&mut manager, Path::new("e.jasset"), text.as_bytes()).unwrap();
    assert_eq!(
        manager.get::<Projectile>(loaded.id).unwrap().velocity_x,
        0.0
    );
    assert_eq!(unknown_warnings(&loaded.warnings), vec![twin]);
}

/// `jasset fmt` and `jasset migrate` keep a twin next to the key it collides with.
#[test]
fn fmt_and_migrate_keep_twins() {
    let health = twin_of("Health");
    let speed = twin_of("Speed");
    let dir = tempfile::tempdir().unwrap();
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    fs::create_dir_all(&entities).unwrap();
    let inert = entities.join("0000000000000042.jasset");
    fs::write(
        &inert,
        entity("Inert", &format!("; Health\n77.0\n; {health}\n5.0\n")),
    )
    .unwrap();
    let projectile = entities.join("0000000000000043.jasset");
    fs::write(
        &projectile,
        format!(
            "; EntityID\n0x0000000000000043\n; Kind\nProjectile\n; ClassVersion\n1\n; Speed\n3.0\n; {speed}\n4.0\n"
        ),
    )
    .unwrap();
    let jasset = env!("CARGO_BIN_EXE_jasset");
    for command in ["fmt", "migrate"] {
        let out = Command::new(jasset)
            .args([command, "Assets"])
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{command}: {stderr}");
        let text = fs::read_to_string(&inert).unwrap();
        assert!(text.contains("; Health\n77.0\n"), "{command}: {text}");
        assert!(
            text.contains(&format!("; {health}\n5.0\n")),
            "{command}: {text}"
        );
        let text = fs::read_to_string(&projectile).unwrap();
        assert!(
            text.contains(&format!("; {speed}\n4.0\n")),
            "{command}: {text}"
        );
    }
    // The migration read `Speed`, not its twin.
    let text = fs::read_to_string(&projectile).unwrap();
    assert!(text.contains("; VelocityX\n3.0\n"), "{text}");
    assert!(!text.contains("; Speed\n"), "{text}");
}
