//! The world operations an editor's undo and "Apply to template" use: property states,
//! entity snapshots, the template chain and applying overrides to a template.

use std::fs;
use std::path::Path;

use juliet_entities::kinds::Inert;
use juliet_entities::prelude::*;
use juliet_entities::Durability;

const ROCK: &str = "# The big rock.\n; entity_type: Inert\n\nMeshAsset: Assets/Meshes/Rock_01.obj\nMass: 250.0\nHealth: 100.0\n";
const MOSSY: &str = "; Template\nAssets/Templates/Rock.jasset\n\n; Health\n120.0\n";

fn instance(id: u64, template: &str, extra: &str) -> String {
    format!("; template: Assets/Templates/{template}.jasset\nEntityID: {id:#018x}\nPosition: 1.0, 2.0, 3.0\n{extra}")
}

/// A project with templates Rock and Mossy (a variant of Rock) and instances
/// 0x10 (Rock, Health 50), 0x11 (Rock), 0x12 (Mossy).
fn project() -> (tempfile::TempDir, World) {
    let dir = tempfile::tempdir().unwrap();
    let templates = dir.path().join("Assets/Templates");
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    fs::create_dir_all(&templates).unwrap();
    fs::create_dir_all(&entities).unwrap();
    fs::write(templates.join("Rock.jasset"), ROCK).unwrap();
    fs::write(templates.join("Mossy.jasset"), MOSSY).unwrap();
    fs::write(
        entities.join("a.jasset"),
        instance(0x10, "Rock", "Health: 50.0\n"),
    )
    .unwrap();
    fs::write(entities.join("b.jasset"), instance(0x11, "Rock", "")).unwrap();
    fs::write(entities.join("c.jasset"), instance(0x12, "Mossy", "")).unwrap();
    let (mut world, report) =
        World::load(dir.path().join("Assets/Worlds/L"), &LoadOptions::default()).unwrap();
    assert!(report.is_clean(), "{report:?}");
    world.set_durability(Durability::Fast);
    (dir, world)
}

fn health(world: &World, id: u64) -> f32 {
    world.manager().get::<Inert>(EntityId(id)).unwrap().health
}

#[test]
fn property_state_round_trip_restores_value_and_override_mark() {
    let (_dir, mut world) = project();
    let b = EntityId(0x11);
    let before = world.property_state(b, "Health").unwrap();
    assert_eq!((before.text.as_str(), before.overridden), ("100.0", false));
    world.set_property(b, "Health", "7.5").unwrap();
    let after = world.property_state(b, "Health").unwrap();
    assert_eq!((after.text.as_str(), after.overridden), ("7.5", true));
    world.restore_property(b, "Health", &before).unwrap();
    assert_eq!(health(&world, 0x11), 100.0);
    assert!(world.overrides(b).unwrap().is_empty());
    world.restore_property(b, "Health", &after).unwrap();
    assert_eq!(world.overrides(b).unwrap()[0].key, "Health");

    let pos = world.property_state(b, "Position").unwrap();
    assert!(pos.overridden, "the file gives a position");
}

#[test]
fn snapshot_brings_a_removed_entity_back_and_cancels_its_deletion() {
    let (_dir, mut world) = project();
    let a = EntityId(0x10);
    let snap = world.snapshot_entity(a).unwrap();
    let file = world.file_of(a).unwrap().to_path_buf();
    world.remove_world_entity(a).unwrap();
    assert!(!world.manager().contains(a));
    world.restore_entity(&snap).unwrap();
    assert!(world.pending_deletions().is_empty());
    assert_eq!(health(&world, 0x10), 50.0);
    assert_eq!(world.overrides(a).unwrap()[0].key, "Health");
    assert_eq!(world.file_of(a), Some(file.as_path()));
    let report = world.save_world().unwrap();
    assert!(report.deleted.is_empty(), "{report:?}");
    assert!(fs::read_to_string(&file).unwrap().contains("Health: 50.0"));
}

#[test]
fn snapshot_replaces_a_live_entity() {
    let (_dir, mut world) = project();
    let a = EntityId(0x10);
    let snap = world.snapshot_entity(a).unwrap();
    world.set_property(a, "Mass", "1.0").unwrap();
    world.restore_entity(&snap).unwrap();
    let rock = world.manager().get::<Inert>(a).unwrap();
    assert_eq!((rock.mass, rock.health), (250.0, 50.0));
    assert_eq!(world.manager().len(), 3);
}

#[test]
fn chain_and_value_source_name_the_template_that_sets_a_property() {
    let (_dir, world) = project();
    let c = EntityId(0x12);
    let chain: Vec<String> = world
        .template_chain(c)
        .iter()
        .map(|t| t.path().to_owned())
        .collect();
    assert_eq!(
        chain,
        [
            "Assets/Templates/Mossy.jasset",
            "Assets/Templates/Rock.jasset"
        ]
    );
    let class = world.manager().entity(c).unwrap().class();
    let index = |key: &str| {
        class
            .properties()
            .iter()
            .position(|p| p.key == key)
            .unwrap()
    };
    let source = |key: &str| {
        world
            .value_source(c, index(key))
            .map(|t| t.path().to_owned())
    };
    assert_eq!(
        source("Health").as_deref(),
        Some("Assets/Templates/Mossy.jasset")
    );
    assert_eq!(
        source("Mass").as_deref(),
        Some("Assets/Templates/Rock.jasset")
    );
    assert_eq!(source("IsVisible"), None);
}

#[test]
fn apply_to_template_edits_the_file_and_other_instances_follow() {
    let (dir, mut world) = project();
    let a = EntityId(0x10);
    let report = world
        .apply_to_template(a, &["Health"], "Assets/Templates/Rock.jasset")
        .unwrap();
    let path = dir.path().join("Assets/Templates/Rock.jasset");
    let text = fs::read_to_string(&path).unwrap();
    assert_eq!(text, ROCK.replace("Health: 100.0", "Health: 50.0"));
    assert_eq!(report.previous, ROCK.as_bytes());
    assert_eq!(report.cleared, ["Health"]);
    assert_eq!(health(&world, 0x11), 50.0, "b inherits the new value");
    assert_eq!(health(&world, 0x12), 120.0, "Mossy sets its own Health");
    assert!(world.overrides(a).unwrap().is_empty());

    // A key the template lacks is inserted in the class's order.
    world.set_property(a, "Scale", "2.0, 2.0, 2.0").unwrap();
    let second = world
        .apply_to_template(a, &["Scale"], "Assets/Templates/Rock.jasset")
        .unwrap();
    let text = fs::read_to_string(&path).unwrap();
    let (mesh, scale, mass) = (
        text.find("MeshAsset").unwrap(),
        text.find("Scale").unwrap(),
        text.find("Mass").unwrap(),
    );
    assert!(mesh < scale && scale < mass, "{text}");
    assert_eq!(
        world.manager().get::<Inert>(EntityId(0x11)).unwrap().scale,
        glam::Vec3::splat(2.0)
    );

    // Undo, the last apply first: the old bytes back, the instances follow again.
    world
        .write_template_file(
            "Assets/Templates/Rock.jasset",
            Some(&second.written),
            &second.previous,
        )
        .unwrap();
    world
        .write_template_file(
            "Assets/Templates/Rock.jasset",
            Some(&report.written),
            &report.previous,
        )
        .unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), ROCK);
    assert_eq!(health(&world, 0x11), 100.0);

    // A template edited on disk since is not overwritten by a stale undo.
    let by_hand = ROCK.replace("100.0", "120.0");
    fs::write(&path, &by_hand).unwrap();
    let err = world
        .write_template_file(
            "Assets/Templates/Rock.jasset",
            Some(&report.previous),
            &report.written,
        )
        .unwrap_err();
    assert!(err.to_string().contains("changed on disk"), "{err}");
    assert_eq!(fs::read_to_string(&path).unwrap(), by_hand);
}

#[test]
fn apply_to_an_ancestor_keeps_a_nearer_templates_value() {
    let (dir, mut world) = project();
    let c = EntityId(0x12);
    world.set_property(c, "Health", "30.0").unwrap();
    let report = world
        .apply_to_template(c, &["Health"], "Assets/Templates/Rock.jasset")
        .unwrap();
    assert!(report.cleared.is_empty(), "Mossy still says 120");
    assert_eq!(health(&world, 0x11), 30.0);
    assert_eq!(health(&world, 0x12), 30.0);
    assert!(
        fs::read_to_string(dir.path().join("Assets/Templates/Mossy.jasset"))
            .unwrap()
            .contains("120.0")
    );
}

#[test]
fn apply_refuses_a_template_outside_the_chain_and_unknown_keys() {
    let (dir, mut world) = project();
    let b = EntityId(0x11);
    assert!(world
        .apply_to_template(b, &["Health"], "Assets/Templates/Mossy.jasset")
        .is_err());
    assert!(world
        .apply_to_template(b, &["Nope"], "Assets/Templates/Rock.jasset")
        .is_err());
    let path: &Path = &dir.path().join("Assets/Templates/Rock.jasset");
    assert_eq!(fs::read_to_string(path).unwrap(), ROCK);
}

#[test]
fn reload_entity_reads_a_changed_file_and_ignores_an_unchanged_one() {
    let (_dir, mut world) = project();
    let b = EntityId(0x11);
    assert!(
        !world.reload_entity(b).unwrap(),
        "the file holds what was loaded"
    );
    let file = world.file_of(b).unwrap().to_path_buf();
    fs::write(&file, instance(0x11, "Rock", "Mass: 9.0\n")).unwrap();
    assert!(world.reload_entity(b).unwrap());
    assert_eq!(world.manager().get::<Inert>(b).unwrap().mass, 9.0);
    assert_eq!(world.overrides(b).unwrap()[0].key, "Mass");
    assert!(!world.manager().entity(b).unwrap().is_dirty());
    assert!(!world.reload_entity(b).unwrap(), "read once");

    // A file that no longer loads leaves the entity as it was.
    fs::write(&file, "EntityID: 0x11\nMass: heavy\n").unwrap();
    assert!(world.reload_entity(b).is_err());
    assert_eq!(world.manager().get::<Inert>(b).unwrap().mass, 9.0);
}

#[test]
fn save_plan_lists_what_the_save_then_writes_and_deletes() {
    let (_dir, mut world) = project();
    let entities = world.entities_dir();
    world.set_property(EntityId(0x10), "Mass", "1.0").unwrap();
    world.remove_world_entity(EntityId(0x12)).unwrap();
    // Destroyed through the manager: its file goes too.
    world.manager_mut().destroy_entity(EntityId(0x11)).unwrap();
    let new = world
        .manager_mut()
        .make_entity::<Inert>(juliet_entities::glam::Vec3::ZERO);
    // Its name is taken on disk (by a file that is no entity of this world).
    fs::write(entities.join(new.file_name()), "; not an entity\n").unwrap();

    let plan = world.save_plan();
    let written: Vec<_> = plan.written().map(Path::to_path_buf).collect();
    let stem = format!("{:016X}", new.0);
    assert_eq!(
        written,
        [
            entities.join("a.jasset"),
            entities.join(format!("{stem}-2.jasset"))
        ]
    );
    let mut deleted = plan.deleted().to_vec();
    deleted.sort();
    assert_eq!(
        deleted,
        [entities.join("b.jasset"), entities.join("c.jasset")]
    );
    assert!(plan.skipped().next().is_none() && plan.error().is_none());

    let report = world.save_world().unwrap();
    assert_eq!(report.written, written);
    let mut done = report.deleted.clone();
    done.sort();
    assert_eq!(done, deleted);
    assert!(world.save_plan().is_empty(), "nothing left to save");
}

#[test]
fn replan_brings_a_plan_up_to_date_after_edits_of_one_entity() {
    let (_dir, mut world) = project();
    let entities = world.entities_dir();
    let written = |plan: &juliet_entities::SavePlan| {
        plan.written().map(Path::to_path_buf).collect::<Vec<_>>()
    };
    let mut plan = world.save_plan();
    assert!(plan.is_empty());
    // An edit: the entity's file is listed, as a whole plan lists it.
    world.set_property(EntityId(0x11), "Mass", "9.0").unwrap();
    assert!(world.replan(&mut plan, &[EntityId(0x11)]));
    assert_eq!(written(&plan), [entities.join("b.jasset")]);
    assert_eq!(written(&plan), written(&world.save_plan()));
    // The value back as the file has it (0x11 follows its template): nothing to save.
    world.revert_property(EntityId(0x11), "Mass").unwrap();
    assert!(world.replan(&mut plan, &[EntityId(0x11)]));
    assert!(plan.is_empty(), "{:?}", written(&plan));
    assert!(world.save_plan().is_empty());
    // A new entity has no step to bring up to date: the whole world is planned again.
    let new = world
        .manager_mut()
        .make_entity::<Inert>(juliet_entities::glam::Vec3::ZERO);
    assert!(!world.replan(&mut plan, &[new]));
}
