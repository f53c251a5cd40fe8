//! The template runtime's four basic tests (directive parsing, the cache, the
//! instantiation pipeline, delta and revert), the design's `RockLarge.jasset` /
//! `RockLarge_042.jasset` pair (`tests/fixtures/templates`), and the bundled `demo/`
//! project loaded and saved through the templates runtime.

mod project;

use std::fs;
use std::path::{Path, PathBuf};

use glam::Vec3;
use juliet_core::{crc32, Reflect, TokenBuffer, WarningKind};
use juliet_entities::kinds::{Collectible, Inert, Projectile};
use juliet_entities::template::{instantiate_from_template, revert_to_template, TemplateCache};
use juliet_entities::{Durability, EntityId, EntityManager, LoadOptions, World};
use project::{keys_of, snapshot, sparse_keys, value_of, Project};

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/templates")
        .join(name);
    fs::read_to_string(path).unwrap()
}

/// Directive parsing: the design's sample tokenizes into its directive and
/// four `Key: value` pairs in order, with typed values.
#[test]
fn kv_parser() {
    let sample = fixture("TestKvParser.jasset");
    assert!(sample.starts_with("; entity_type: Inert\n# This is a comment\n"));
    let mut buffer = TokenBuffer::new();
    let mut doc = buffer
        .tokenize(sample.as_bytes(), Path::new("TestKvParser.jasset"))
        .unwrap();
    let keys: Vec<&str> = (0..doc.len()).map(|i| doc.key(i)).collect();
    assert_eq!(
        keys,
        ["entity_type", "Position", "Scale", "MeshAsset", "IsActive"]
    );
    assert_eq!(doc.value(0).single().unwrap(), "Inert");
    let position: Vec3 = doc.decode(1).unwrap();
    assert_eq!(position, Vec3::new(10.5, -20.0, 30.25));
    assert_eq!(doc.value(3).single().unwrap(), "Assets/Meshes/Cube.obj");
    assert!(doc.decode::<bool>(4).unwrap());

    // As a template: `IsActive` is no property of `Inert`, so a warning, not an error.
    let p = Project::new();
    p.template("Cube", &sample);
    let mut cache = TemplateCache::new(p.root());
    let cube = cache.get_or_load("Assets/Templates/Cube.jasset").unwrap();
    assert_eq!(cube.position(), Vec3::new(10.5, -20.0, 30.25));
    let inert = cube.archetype::<Inert>().unwrap();
    assert_eq!(
        (inert.scale, inert.mesh_asset.as_str()),
        (Vec3::splat(2.0), "Assets/Meshes/Cube.obj")
    );
    assert_eq!(
        cube.warnings()[0].kind,
        WarningKind::UnknownKey("IsActive".into())
    );
}

/// The template cache (docs/design.md, section 7.2): first load caches, the second returns the
/// same record without reading, and lookup by CRC finds it.
#[test]
fn template_cache() {
    let p = Project::new();
    let path = "Assets/Templates/TestRock.jasset";
    p.template("TestRock", "; Kind\nInert\n; Mass\n250.0\n");
    let mut cache = TemplateCache::new(p.root());
    let first = cache.get_or_load(path).unwrap();
    assert_eq!(first.crc(), crc32(path.as_bytes()));
    assert!(*first.class() == *Inert::CLASS);
    let first = first.cached() as *const _;
    let second = cache.get_or_load(path).unwrap();
    assert!(std::ptr::eq(second.cached(), first));
    let crc = second.crc();
    assert_eq!(cache.files_read(), 1);
    assert!(std::ptr::eq(cache.find(crc).unwrap().cached(), first));
}

/// Instantiation (docs/design.md, section 7.3): a synthetic template (base position
/// 1, 2, 3; `MeshInstance` 42) with a delta that sets only the position.
#[test]
fn instantiation_pipeline() {
    let mut cache = TemplateCache::new(".");
    let archetype = Inert {
        mesh_instance: 42,
        ..Inert::default_value()
    };
    let template = cache
        .insert_archetype(
            "Mock/0xABCD1234.jasset",
            archetype,
            Vec3::new(1.0, 2.0, 3.0),
        )
        .unwrap();
    let mut manager = EntityManager::new();
    manager.make_entity::<Inert>(Vec3::ZERO); // not alone in the arrays
    let id = instantiate_from_template(&mut manager, template, "Position: 100.0, 200.0, 300.0\n")
        .unwrap();

    let instance = manager.entity(id).unwrap();
    assert_eq!(instance.position(), Vec3::new(100.0, 200.0, 300.0));
    let inert = manager.get::<Inert>(id).unwrap();
    assert_eq!(inert.mesh_instance, 42, "retained from the template");
    // Step 3: both links: the record points at its slot, the slot back at the record.
    let slot = instance.slot();
    assert!(std::ptr::eq(&manager.slice::<Inert>()[slot], inert));
    assert_eq!(manager.base_of::<Inert>(slot).unwrap().id(), id);
    assert_eq!(instance.template(), Some(template.crc()));
    assert!(instance.is_position_overridden() && instance.overrides().is_empty());
    manager.check_invariants().unwrap();
}

/// Delta and revert (docs/design.md, section 7.5): the delta changes `MeshInstance`;
/// revert restores the template's value and keeps the position and the links.
#[test]
fn delta_override_and_revert() {
    let mut cache = TemplateCache::new(".");
    let archetype = Inert {
        mesh_instance: 100,
        ..Inert::default_value()
    };
    let crc = cache
        .insert_archetype("Mock/0x11223344.jasset", archetype, Vec3::ZERO)
        .unwrap()
        .crc();
    let mut manager = EntityManager::new();
    let template = cache.find(crc).unwrap();
    let id = instantiate_from_template(
        &mut manager,
        template,
        "MeshInstance: 999\nPosition: 5.0, 5.0, 5.0\n",
    )
    .unwrap();
    assert_eq!(manager.get::<Inert>(id).unwrap().mesh_instance, 999);

    revert_to_template(&mut manager, &cache, id).unwrap();
    assert_eq!(manager.get::<Inert>(id).unwrap().mesh_instance, 100);
    let instance = manager.entity(id).unwrap();
    assert_eq!(instance.position(), Vec3::splat(5.0));
    assert_eq!(manager.base_of::<Inert>(instance.slot()).unwrap().id(), id);
    manager.check_invariants().unwrap();
}

/// The design's template/instance pair: the instance inherits `MeshAsset`, `Mass` and
/// `IsDestructible`, and saves back as the same three overrides.
#[test]
fn rock_large_pair_inherits_and_saves_the_same_three_overrides() {
    let p = Project::new();
    p.template("RockLarge", &fixture("RockLarge.jasset"));
    p.entity("RockLarge_042", &fixture("RockLarge_042.jasset"));
    let (mut world, report) = p.load();
    assert!(report.errors.is_empty(), "{report:?}");
    // The design's instance has no EntityID: it gets one, with a warning (nothing else).
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    let id = world.manager().entities()[0].id();
    let rock = world.manager().get::<Inert>(id).unwrap();
    assert_eq!(rock.mesh_asset, "Assets/Meshes/Rock_01.obj");
    assert_eq!(rock.mass, 250.0);
    assert!(rock.is_destructible);
    assert_eq!((rock.scale, rock.health), (Vec3::splat(1.4), 50.0));
    let entity = world.manager().entity(id).unwrap();
    assert_eq!(entity.position(), Vec3::new(142.5, 12.0, -84.2));

    world.manager_mut().for_each_entity_mut(|e| e.mark_dirty());
    world.save_world().unwrap();
    let saved = p.read_entity("RockLarge_042");
    assert_eq!(keys_of(&saved), sparse_keys(true, &["Scale", "Health"]));
    // Saved in place: the designer's lines as they were, and the new `EntityID`.
    let original = fixture("RockLarge_042.jasset");
    let mut lines = saved.lines();
    for line in original.lines() {
        assert!(lines.any(|l| l == line), "{line:?} kept in order:\n{saved}");
    }
    assert!(
        saved.lines().count() <= original.lines().count() + 2,
        "{saved}"
    );
    assert_eq!(value_of(&saved, "EntityID"), Some(format!("{id}")));
    // And it reads back the same.
    let world = p.load_clean();
    let again = world.manager().get::<Inert>(id).unwrap();
    assert_eq!(
        (again.mass, again.scale, again.health),
        (250.0, Vec3::splat(1.4), 50.0)
    );
}

/// Copies the bundled `demo/` into a temporary folder.
fn demo_copy() -> (tempfile::TempDir, PathBuf) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo");
    let dir = tempfile::tempdir().unwrap();
    let mut stack = vec![source.clone()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let target = dir.path().join(path.strip_prefix(&source).unwrap());
            if path.is_dir() {
                fs::create_dir_all(&target).unwrap();
                stack.push(path);
            } else {
                fs::copy(&path, &target).unwrap();
            }
        }
    }
    let world = dir.path().join("Assets/Worlds/Level01");
    (dir, world)
}

#[test]
fn demo_loads_with_zero_errors_and_saves_back_unchanged() {
    let (project, world_dir) = demo_copy();
    let before = snapshot(project.path());
    let (mut world, report) = World::load(&world_dir, &LoadOptions::default()).unwrap();
    world.set_durability(Durability::Fast);
    assert!(report.is_clean(), "{report:#?}");
    assert_eq!((report.files, report.loaded), (49, 49));
    world.manager().check_invariants().unwrap();
    assert_eq!(world.project_root(), project.path());
    assert_eq!(world.templates().len(), 8);
    assert_eq!(world.templates().files_read(), 8);
    let m = world.manager();
    assert_eq!(
        (
            m.slice::<Inert>().len(),
            m.slice::<Collectible>().len(),
            m.slice::<Projectile>().len()
        ),
        (33, 13, 3)
    );

    // A variant's instance: RockLarge's mesh, RockLargeMossy's material, its own health.
    let mossy = m.get::<Inert>(EntityId(0x0001_0000_0000_1104)).unwrap();
    assert_eq!(mossy.mesh_asset, "Assets/Meshes/Rock_01.obj");
    assert_eq!(mossy.material_override, "Materials/M_Rock_Moss");
    assert_eq!((mossy.mass, mossy.health), (250.0, 80.0));
    // `Key: value` style, Kind from the template chain: CoinPickup -> CoinPickupGold.
    let gold = |id| m.get::<Collectible>(EntityId(id)).unwrap().value;
    assert_eq!(gold(0x0001_0000_0000_3C12), 750);
    assert_eq!(gold(0x0001_0000_0000_3C01), 100);
    // The v1 projectile migrates.
    let cannonball = m
        .get::<Projectile>(EntityId(0x0001_0000_0000_F003))
        .unwrap();
    assert_eq!(cannonball.velocity_x, 75.5);
    // Instance of Fireball with its own VelocityX and Damage.
    let volley = m
        .get::<Projectile>(EntityId(0x0001_0000_0000_F001))
        .unwrap();
    assert_eq!(
        (volley.velocity_x, volley.velocity_y, volley.damage),
        (-30.0, 0.0, 60.0)
    );

    // Nothing edited: nothing written, nothing deleted.
    assert_eq!(world.save_world().unwrap(), Default::default());
    assert_eq!(snapshot(project.path()), before);

    // One edit: one file, still sparse.
    world
        .set_property(EntityId(0x0001_0000_0000_1042), "Mass", "300.0")
        .unwrap();
    let report = world.save_world().unwrap();
    assert_eq!(report.written.len(), 1);
    assert!(report.written[0].ends_with("RockLarge_042.jasset"));
    let text = fs::read_to_string(&report.written[0]).unwrap();
    assert_eq!(
        keys_of(&text),
        sparse_keys(true, &["Scale", "Mass", "Health"])
    );
    let after = snapshot(project.path());
    let changed: Vec<&PathBuf> = before
        .iter()
        .zip(&after)
        .filter(|(b, a)| b != a)
        .map(|(_, a)| &a.0)
        .collect();
    assert_eq!(changed, vec![&report.written[0]]);
}
