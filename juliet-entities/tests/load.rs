//! In-place loading and the canonical writer of entity files (docs/design.md,
//! sections 5.5 and 2.4), with `check_invariants` after every operation.

mod support;

use std::path::Path;

use glam::Vec3;
use juliet_core::{crc32, ErrorKind, WarningKind};
use juliet_entities::{load_entity, EntityFileData, EntityId, EntityManager};
use support::{crate_file, saved, Crate, Sign};

fn check(m: &EntityManager) {
    m.check_invariants().unwrap();
}

/// In-place load (docs/design.md, section 5.5): make, save, load into a fresh
/// manager.
#[test]
fn saved_entity_loads_in_place_into_a_fresh_manager() {
    let mut m = EntityManager::new();
    let id = m.make_entity::<Crate>(Vec3::new(12.5, -44.0, 108.2));
    m.get_mut::<Crate>(id).unwrap().mesh_instance = 42;
    let text = saved(&m, id, &EntityFileData::default());

    let mut fresh = EntityManager::new();
    let loaded = load_entity(&mut fresh, Path::new("e.jasset"), text.as_bytes()).unwrap();
    check(&fresh);
    assert_eq!(loaded.id, id);
    assert!(
        fresh.next_id().get() > id.get(),
        "id counter advanced past the loaded id"
    );
    let e = fresh.entity(id).unwrap();
    assert_eq!(e.position(), Vec3::new(12.5, -44.0, 108.2));
    assert!(!e.is_dirty(), "loaded entities are clean");
    let c = fresh.get::<Crate>(id).unwrap();
    assert_eq!(c.mesh_instance, 42);
    assert_eq!(fresh.base_of::<Crate>(e.slot()).unwrap().id(), id);
    assert!(loaded.warnings.is_empty());
}

#[test]
fn canonical_file_round_trips_byte_for_byte() {
    let file = crate_file(0x42, 100.0, 250.5);
    let mut m = EntityManager::new();
    let loaded = load_entity(&mut m, Path::new("rock.jasset"), file.as_bytes()).unwrap();
    assert_eq!(m.get::<Crate>(loaded.id).unwrap().mass, 250.5);
    assert_eq!(saved(&m, loaded.id, &loaded.data), file);

    // With a template path and unknown keys (kept after the known keys, in order).
    let with_extras = file.replace(
        "; Position",
        "; Template\nAssets/Templates/Rock.jasset\n; Position",
    ) + "; FutureKey\na\nb\n; Other: 3\n";
    let mut m = EntityManager::new();
    let loaded = load_entity(&mut m, Path::new("rock.jasset"), with_extras.as_bytes()).unwrap();
    assert_eq!(
        loaded.data.template.as_deref(),
        Some("Assets/Templates/Rock.jasset")
    );
    assert_eq!(
        m.entity(loaded.id).unwrap().template(),
        Some(crc32(b"Assets/Templates/Rock.jasset"))
    );
    let keys: Vec<&str> = loaded.data.unknown.iter().map(|u| u.key()).collect();
    assert_eq!(keys, ["FutureKey", "Other"]);
    assert_eq!(loaded.warnings.len(), 2);
    assert!(matches!(&loaded.warnings[0].kind, WarningKind::UnknownKey(k) if k == "FutureKey"));
    assert_eq!(
        saved(&m, loaded.id, &loaded.data),
        with_extras.replace("; Other: 3\n", "; Other\n3\n")
    );
}

#[test]
fn a_snake_case_file_loads_through_aliases() {
    let file = "; asset_type\nentity_instance\n; id\n0x0100000000000042\n; class\nTestCrate\n\
                ; version\n1\n; class_version\n2\n; position\n0.43 0.32 1.56\n; mesh_instance\n12\n";
    let mut m = EntityManager::new();
    let loaded = load_entity(&mut m, Path::new("snake_case.jasset"), file.as_bytes()).unwrap();
    check(&m);
    assert_eq!(loaded.id, EntityId(0x0100_0000_0000_0042));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(m.get::<Crate>(loaded.id).unwrap().mesh_instance, 12);
    assert_eq!(
        m.entity(loaded.id).unwrap().position(),
        Vec3::new(0.43, 0.32, 1.56)
    );
    // `entity_type` is the third spelling of Kind; compact lines work too.
    let compact = "entity_type: TestSign\nid: 7\nText: \"Hello there\"\n";
    let loaded = load_entity(&mut m, Path::new("s.jasset"), compact.as_bytes()).unwrap();
    assert_eq!(m.get::<Sign>(loaded.id).unwrap().text, "Hello there");
    check(&m);
}

#[test]
fn missing_keys_keep_declared_defaults() {
    let mut m = EntityManager::new();
    let loaded = load_entity(&mut m, Path::new("a"), b"; Kind\nTestCrate\n; Mass\n1.5\n").unwrap();
    let c = m.get::<Crate>(loaded.id).unwrap();
    assert_eq!(c.mass, 1.5);
    assert_eq!(c.mesh_instance, u32::MAX);
    assert_eq!(c.scale, Vec3::ONE);
    assert_eq!(m.entity(loaded.id).unwrap().position(), Vec3::ZERO);
    // No EntityID: a fresh id, with a warning.
    assert!(matches!(loaded.warnings[0].kind, WarningKind::Other(_)));
    check(&m);
}

#[test]
fn newer_versions_load_with_warnings() {
    let file = "; BaseVersion\n9\n; Kind\nTestCrate\n; ClassVersion\n5\n; Mass\n2.0\n";
    let mut m = EntityManager::new();
    let loaded = load_entity(&mut m, Path::new("new.jasset"), file.as_bytes()).unwrap();
    let kinds: Vec<&WarningKind> = loaded.warnings.iter().map(|w| &w.kind).collect();
    assert!(kinds.contains(&&WarningKind::NewerBaseVersion { file: 9, code: 1 }));
    assert!(kinds.contains(&&WarningKind::NewerClassVersion { file: 5, code: 2 }));
    assert_eq!(m.get::<Crate>(loaded.id).unwrap().mass, 2.0);
}

/// Every failure: a located error, and nothing stays allocated.
#[test]
fn failures_are_located_and_roll_back() {
    let mut m = EntityManager::new();
    let keep = m.make_entity::<Sign>(Vec3::ZERO);
    let next = m.next_id();
    let cases: &[(&str, u32, u32, &str)] = &[
        // (file, line, column, key)
        ("; Kind\nTestCrate\n; Mass\n12kg\n", 4, 1, "Mass"),
        (
            "; EntityID\n0x10\n; Kind\nTestCrate\n; Position\n1 2\n",
            6,
            1,
            "Position",
        ),
        ("; Kind\nNoSuchKind\n", 1, 3, "Kind"),
        (
            "; AssetType\nTexture\n; Kind\nTestCrate\n",
            1,
            3,
            "AssetType",
        ),
        (
            "; id\n0x10\n; EntityID\n0x10\n; Kind\nTestCrate\n",
            3,
            3,
            "EntityID",
        ),
        ("; EntityID\n0\n; Kind\nTestCrate\n", 2, 1, "EntityID"),
        (
            "; Kind\nTestCrate\n; Mass\n1.0\n; mass\n2.0\n",
            5,
            3,
            "mass",
        ),
    ];
    for &(file, line, column, key) in cases {
        let err = load_entity(&mut m, Path::new("bad.jasset"), file.as_bytes()).unwrap_err();
        assert_eq!(
            (
                err.location.path.as_path(),
                err.location.line,
                err.location.column,
                err.key.as_deref()
            ),
            (Path::new("bad.jasset"), line, column, Some(key)),
            "{file:?}: {err}"
        );
        assert_eq!(m.len(), 1, "{file:?}: rolled back");
        check(&m);
    }
    assert!(m.contains(keep));
    assert_eq!(
        m.next_id(),
        next,
        "failed loads do not advance the id counter"
    );

    let err = load_entity(&mut m, Path::new("k.jasset"), b"; Kind\nNoSuchKind\n").unwrap_err();
    assert_eq!(err.kind, ErrorKind::UnknownKind("NoSuchKind".into()));
    let err = load_entity(&mut m, Path::new("k.jasset"), b"; Position\n1 2 3\n").unwrap_err();
    assert_eq!(err.kind, ErrorKind::MissingKey("Kind"));
    let err = load_entity(&mut m, Path::new("t.jasset"), b"; Template\nA/B.jasset\n").unwrap_err();
    assert!(matches!(err.kind, ErrorKind::Template { .. }));
    check(&m);
}

/// Every spelling of a base key is one key, whichever comes first in the file, and the
/// base keys are checked in the format's order (`AssetType`, `BaseVersion`, `EntityID`,
/// `Kind`, `Template`, `Position`): a file with several problems reports the first in
/// that order, wherever it is in the file.
#[test]
fn base_key_spellings_and_the_order_of_base_key_errors() {
    let mut m = EntityManager::new();
    let dup = |first_line| ErrorKind::DuplicateKey { first_line };
    let cases: Vec<(&str, ErrorKind, u32, &str)> = vec![
        // (file, error, line, key): an alias before the canonical spelling.
        (
            "version: 1\nBaseVersion: 1\nKind: TestCrate\n",
            dup(1),
            2,
            "BaseVersion",
        ),
        (
            "id: 5\nKind: TestCrate\nEntityID: 6\n",
            dup(1),
            3,
            "EntityID",
        ),
        ("Kind: TestCrate\nclass: TestCrate\n", dup(1), 2, "class"),
        (
            "entity_type: TestCrate\nKind: TestCrate\n",
            dup(1),
            2,
            "Kind",
        ),
        (
            "class: TestCrate\nentity_type: TestCrate\n",
            dup(1),
            2,
            "entity_type",
        ),
        // Three spellings: the pair met first in spelling order (`Kind`, `class`).
        (
            "entity_type: TestCrate\nclass: TestCrate\nKind: TestCrate\n",
            dup(2),
            3,
            "Kind",
        ),
        // Order of the checks: BaseVersion before a zero EntityID later in the file...
        (
            "EntityID: 0\nKind: TestCrate\nversion: 1\nBaseVersion: 2\n",
            dup(3),
            4,
            "BaseVersion",
        ),
        // ...the AssetType before an unknown Kind and a bad Position...
        (
            "Position: 1 2\nKind: NoSuchKind\nAssetType: Texture\n",
            ErrorKind::WrongAssetType {
                expected: "Entity",
                found: "Texture".into(),
            },
            3,
            "AssetType",
        ),
        // ...a duplicate Kind before a duplicate id is not reported, the id is.
        ("class: A\nKind: B\nEntityID: 1\nid: 2\n", dup(3), 4, "id"),
        // ...an unknown Kind before a bad Position.
        (
            "Position: 1 2\nKind: NoSuchKind\n",
            ErrorKind::UnknownKind("NoSuchKind".into()),
            2,
            "Kind",
        ),
    ];
    for (file, kind, line, key) in cases {
        let err = load_entity(&mut m, Path::new("b.jasset"), file.as_bytes()).unwrap_err();
        assert_eq!(
            (&err.kind, err.location.line, err.key.as_deref()),
            (&kind, line, Some(key)),
            "{file:?}: {err}"
        );
        assert!(m.is_empty(), "{file:?}: rolled back");
        check(&m);
    }
    // Each alias alone is read as its key.
    let file = "version: 1\nid: 0x33\nclass: TestCrate\nPosition: 1 2 3\n";
    let loaded = load_entity(&mut m, Path::new("a.jasset"), file.as_bytes()).unwrap();
    assert_eq!(loaded.id, EntityId(0x33));
    assert_eq!(
        m.entity(loaded.id).unwrap().position(),
        Vec3::new(1.0, 2.0, 3.0)
    );
    assert!(loaded.warnings.is_empty() && loaded.data.unknown.is_empty());
    check(&m);
}

#[test]
fn an_id_already_live_is_an_error_at_the_entity_id_key() {
    let mut m = EntityManager::new();
    let file = crate_file(0x42, 0.0, 1.0);
    load_entity(&mut m, Path::new("a.jasset"), file.as_bytes()).unwrap();
    let err = load_entity(&mut m, Path::new("b.jasset"), file.as_bytes()).unwrap_err();
    assert!(matches!(
        err.kind,
        ErrorKind::DuplicateEntityId { id: 0x42, .. }
    ));
    assert_eq!(
        (err.location.line, err.key.as_deref()),
        (5, Some("EntityID"))
    );
    assert_eq!(m.len(), 1);
    check(&m);
}

#[test]
fn heap_fields_and_lists_round_trip() {
    let mut m = EntityManager::new();
    let id = m.make_entity::<Sign>(Vec3::new(0.1, 1e-7, -3.0));
    {
        let s = m.get_mut::<Sign>(id).unwrap();
        s.text = "Two words; \"quoted\"".into();
        s.lines = vec!["first".into(), "second line".into()];
    }
    let text = saved(&m, id, &EntityFileData::default());
    let mut fresh = EntityManager::new();
    let loaded = load_entity(&mut fresh, Path::new("s"), text.as_bytes()).unwrap();
    assert_eq!(fresh.get::<Sign>(id), m.get::<Sign>(id));
    assert_eq!(
        fresh.entity(id).unwrap().position(),
        Vec3::new(0.1, 1e-7, -3.0)
    );
    assert_eq!(saved(&fresh, loaded.id, &loaded.data), text);
}
