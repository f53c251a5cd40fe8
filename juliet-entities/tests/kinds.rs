//! The stock kinds through the runtime: allocation and wiring, in-place load,
//! swap-and-pop destroy and dirty tracking with `Inert`, and the design's example
//! entity files (`tests/fixtures`) loaded as written.

mod support;

use std::path::{Path, PathBuf};

use glam::Vec3;
use juliet_core::{ErrorKind, Reflect, WarningKind};
use juliet_entities::kinds::{Collectible, Inert, Projectile};
use juliet_entities::{load_entity, EntityFileData, EntityId, EntityManager};
use support::saved;

fn fixture(name: &str) -> (PathBuf, Vec<u8>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name);
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

/// Allocation and wiring (docs/design.md, sections 5.1 and 5.3).
#[test]
fn entity_allocation_and_wiring() {
    let mut manager = EntityManager::new();
    let id = manager.allocate_entity(Inert::CLASS);
    manager.check_invariants().unwrap();
    // The seed leaves the id 0 until MakeEntity; here allocation assigns a fresh one.
    assert!(id.get() > 0);
    let base = manager.entity(id).unwrap();
    assert!(base.class() == Inert::CLASS);
    assert!(base.is_dirty());
    // Mutual links: base -> slot -> base.
    assert_eq!(manager.base_of::<Inert>(base.slot()).unwrap().id(), id);
    // DownCast, with the declared defaults in place.
    let inert = manager.downcast::<Inert>(base).unwrap();
    assert_eq!(inert.mesh_instance, u32::MAX);
    assert_eq!(inert.scale, Vec3::ONE);
    assert!(inert.is_visible);
    assert_eq!(inert.health, 100.0);
    // Typed array tracking.
    assert_eq!(manager.slice::<Inert>().len(), 1);
    assert!(std::ptr::eq(&manager.slice::<Inert>()[0], inert));
}

/// In-place load (docs/design.md, section 5.5).
#[test]
fn in_place_deserialization() {
    let mut manager = EntityManager::new();
    let id = manager.make_entity::<Inert>(Vec3::new(12.5, -44.0, 108.2));
    manager.get_mut::<Inert>(id).unwrap().mesh_instance = 42;
    let text = saved(&manager, id, &EntityFileData::default());

    let mut fresh = EntityManager::new();
    let loaded = load_entity(&mut fresh, Path::new("mem.jasset"), text.as_bytes()).unwrap();
    fresh.check_invariants().unwrap();
    assert_eq!(loaded.id, id);
    assert!(fresh.next_id().get() > id.get());
    let base = fresh.entity(id).unwrap();
    assert_eq!(base.position(), Vec3::new(12.5, -44.0, 108.2));
    assert!(!base.is_dirty());
    assert_eq!(fresh.downcast::<Inert>(base).unwrap().mesh_instance, 42);
}

/// Swap-and-pop destroy with link fix-up (docs/design.md, section 5.2).
#[test]
fn swap_and_pop_fix_up() {
    let mut manager = EntityManager::new();
    let e0 = manager.make_entity::<Inert>(Vec3::new(1.0, 0.0, 0.0));
    let e1 = manager.make_entity::<Inert>(Vec3::new(2.0, 0.0, 0.0));
    let e2 = manager.make_entity::<Inert>(Vec3::new(3.0, 0.0, 0.0));
    assert_eq!(manager.len(), 3);
    manager.destroy_entity(e1).unwrap();
    manager.check_invariants().unwrap();
    assert_eq!(manager.len(), 2);
    let remaining: Vec<EntityId> = manager.entities().iter().map(|e| e.id()).collect();
    assert_eq!(remaining, vec![e0, e2]);
    for (i, e) in manager.entities().iter().enumerate() {
        assert_eq!(manager.bases_of::<Inert>()[e.slot()] as usize, i);
    }
}

/// Dirty tracking (docs/design.md, section 6.2).
#[test]
fn dirty_tracking_lifecycle() {
    let mut manager = EntityManager::new();
    let id = manager.allocate_entity(Inert::CLASS);
    assert!(manager.entity(id).unwrap().is_dirty());
    manager.entity_mut(id).unwrap().clear_dirty();
    assert!(!manager.entity(id).unwrap().is_dirty());
    let e = manager.entity_mut(id).unwrap();
    e.set_position(e.position() + Vec3::X);
    assert!(manager.entity(id).unwrap().is_dirty());
}

#[test]
fn the_format_example_entity_file_loads_as_written() {
    let (path, bytes) = fixture("format/Entity_01.jasset");
    let mut m = EntityManager::new();
    let loaded = load_entity(&mut m, &path, &bytes).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.id, EntityId(0x42));
    assert_eq!(
        m.entity(loaded.id).unwrap().position(),
        Vec3::new(100.0, 25.5, -50.0)
    );
    let inert = m.get::<Inert>(loaded.id).unwrap();
    assert_eq!(inert.mesh_instance, 4);
    assert_eq!(inert.material_override, "Materials/M_Granite_Polished");
    assert!(inert.is_visible);
    assert_eq!(inert.health, 100.0, "missing keys keep their defaults");
}

#[test]
fn the_snake_case_entity_file_loads_as_written() {
    let (path, bytes) = fixture("snake_case/section4_1_entity.jasset");
    let mut m = EntityManager::new();
    let loaded = load_entity(&mut m, &path, &bytes).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.id, EntityId(0x0100_0000_0000_0042));
    assert_eq!(
        m.entity(loaded.id).unwrap().position(),
        Vec3::new(0.43, 0.32, 1.56)
    );
    assert_eq!(m.get::<Inert>(loaded.id).unwrap().mesh_instance, 12);
    // Saved in canonical form: PascalCase keys, the current class version.
    let text = saved(&m, loaded.id, &loaded.data);
    assert!(text.starts_with(
        "; AssetType\nEntity\n; BaseVersion\n1\n; EntityID\n0x0100000000000042\n; Kind\nInert\n"
    ));
    assert!(text.contains("; ClassVersion\n2\n; MeshInstance\n12\n"));
}

#[test]
fn template_file_loads_and_its_instance_needs_the_template() {
    let (path, bytes) = fixture("templates/RockLarge.jasset");
    let mut m = EntityManager::new();
    let loaded = load_entity(&mut m, &path, &bytes).unwrap();
    let inert = m.get::<Inert>(loaded.id).unwrap();
    assert_eq!(inert.mesh_asset, "Assets/Meshes/Rock_01.obj");
    assert_eq!(
        (inert.scale, inert.mass, inert.health),
        (Vec3::ONE, 250.0, 100.0)
    );
    assert!(inert.is_destructible);
    // A template has no EntityID: the entity gets one for the session, with a warning.
    assert!(matches!(loaded.warnings[0].kind, WarningKind::Other(_)));

    // The instance gives only `; template:` and overrides: its kind comes from the
    // template, which is the templates runtime's job; here a located error, no entity.
    let (path, bytes) = fixture("templates/RockLarge_042.jasset");
    let err = load_entity(&mut m, &path, &bytes).unwrap_err();
    assert!(
        matches!(&err.kind, ErrorKind::Template { path, .. } if path == "Assets/Templates/RockLarge.jasset")
    );
    assert_eq!(err.location.path, path);
    assert_eq!(m.len(), 1);
    m.check_invariants().unwrap();
}

#[test]
fn projectile_v1_speed_migrates_to_velocity_x() {
    let v1 =
        "; Kind\nProjectile\n; EntityID\n0x0000000000000007\n; ClassVersion\n1\n; Speed\n75.5\n";
    let mut m = EntityManager::new();
    let loaded = load_entity(&mut m, Path::new("p.jasset"), v1.as_bytes()).unwrap();
    assert!(
        loaded.warnings.is_empty(),
        "Speed is deprecated, not unknown: {:?}",
        loaded.warnings
    );
    let p = m.get::<Projectile>(loaded.id).unwrap();
    assert_eq!((p.velocity_x, p.velocity_y, p.damage), (75.5, 0.0, 50.0));
    let text = saved(&m, loaded.id, &loaded.data);
    assert!(
        text.contains("; ClassVersion\n2\n; VelocityX\n75.5\n; VelocityY\n0.0\n; Damage\n50.0\n")
    );
    assert!(!text.contains("Speed"));
}

#[test]
fn collectible_defaults_and_registry() {
    let mut m = EntityManager::new();
    let id = m.make_entity::<Collectible>(Vec3::ZERO);
    assert_eq!(m.get::<Collectible>(id).unwrap().value, 100);
    let registry = m.registry().unwrap();
    for class in [Inert::CLASS, Collectible::CLASS, Projectile::CLASS] {
        assert!(registry
            .find_by_name(class.name())
            .is_some_and(|c| c == class));
    }
    assert_eq!(Inert::CLASS.version(), 2);
    assert_eq!(Projectile::CLASS.version(), 2);
}

/// The bundled demo level through the runtime: every file loads, standalone entities and
/// template instances alike (instances through the world's template cache; their
/// inherited values are checked in `templates_rock_large.rs`).
#[test]
fn demo_level_loads_through_the_runtime() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo/Assets/Worlds/Level01");
    let (mut world, report) = juliet_entities::world::load_world(&root).unwrap();
    world.manager().check_invariants().unwrap();
    assert_eq!(report.files, 49);
    assert_eq!(report.loaded, 49, "{report:?}");
    assert!(report.is_clean(), "{report:?}");
    assert!(world.untouched_files().is_empty());

    let spawn = world
        .manager()
        .get::<Inert>(EntityId(0x0001_0000_0000_0001))
        .unwrap();
    assert_eq!(spawn.mesh_asset, "Assets/Meshes/Editor/SpawnMarker.obj");
    assert!(!spawn.is_visible);
    let cannonball = EntityId(0x0001_0000_0000_F003);
    let p = world.manager().get::<Projectile>(cannonball).unwrap();
    assert_eq!((p.velocity_x, p.velocity_y, p.damage), (75.5, 0.0, 40.0));
    assert!(world
        .file_of(cannonball)
        .unwrap()
        .ends_with("Cannonball_001.jasset"));

    // Nothing changed: a save writes and deletes nothing (the demo stays as it is).
    world.set_durability(juliet_entities::Durability::Fast);
    assert_eq!(world.save_world().unwrap(), Default::default());
}
