//! Entity references (`EntityRef<T>`, `EntityRef`, optional and listed): the file a save
//! writes, a load giving them back, `resolve`, and the warnings a world's load gives for
//! a reference to an id it has no entity for or to an entity of another kind, each at
//! the file, line and column of the value.

use std::fs;
use std::path::Path;

use glam::Vec3;
use juliet_core::WarningKind;
use juliet_entities::{Entity, EntityId, EntityRef, LoadOptions, World};

#[derive(Entity, Debug)]
struct Switch {
    on: bool,
}

#[derive(Entity, Debug)]
struct Door {
    opens_with: EntityRef<Switch>,
    alarm: Option<EntityRef>,
    also_opens: Vec<EntityRef<Switch>>,
}

fn write(root: &Path, name: &str, text: &str) {
    let dir = root.join("Entities");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(name), text).unwrap();
}

const SWITCH: &str = "EntityID: 0x0000000000000001\nKind: Switch\nOn: true\n";

#[test]
fn references_are_written_as_ids_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut world = World::new(dir.path());
    let manager = world.manager_mut();
    let switch = manager.make_entity::<Switch>(Vec3::ZERO);
    let other = manager.make_entity::<Switch>(Vec3::X);
    let door = manager.make_entity::<Door>(Vec3::Y);
    let d = manager.get_mut::<Door>(door).unwrap();
    d.opens_with = switch.into();
    d.alarm = Some(EntityRef::new(other));
    d.also_opens = vec![other.into(), switch.into()];
    world.save_world().unwrap();

    let text = fs::read_to_string(dir.path().join("Entities").join(door.file_name())).unwrap();
    let expected =
        format!("; OpensWith\n{switch}\n; Alarm\n{other}\n; AlsoOpens\n{other}\n{switch}\n");
    assert!(text.ends_with(&expected), "{text}");

    let (world, report) = World::load(dir.path(), &LoadOptions::default()).unwrap();
    assert!(report.is_clean(), "{:?}", report.warnings);
    let manager = world.manager();
    let d = manager.get::<Door>(door).unwrap();
    assert_eq!(d.opens_with.id(), switch);
    assert_eq!(d.alarm.map(EntityRef::id), Some(other));
    assert_eq!(
        d.also_opens,
        [EntityRef::new(other), EntityRef::new(switch)]
    );
    assert!(manager.resolve(d.opens_with).is_some());
    let alarm = d.alarm.unwrap();
    assert_eq!(manager.resolve_entity(alarm).map(|e| e.id()), Some(other));
}

#[test]
fn a_load_reports_dangling_and_wrong_kind_references_at_their_lines() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "switch.jasset", SWITCH);
    write(
        dir.path(),
        "rock.jasset",
        "EntityID: 0x0000000000000002\nKind: Inert\n",
    );
    write(
        dir.path(),
        "door.jasset",
        "EntityID: 0x0000000000000003\nKind: Door\n\
         OpensWith: 0x0000000000000002\n\
         ; Alarm: 0x0000000000000009\n\
         ; AlsoOpens\n0x0000000000000001\n  0x0000000000000007\n",
    );
    let (world, report) = World::load(dir.path(), &LoadOptions::default()).unwrap();
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let door = dir.path().join("Entities/door.jasset");
    let found: Vec<(String, u32, u32, String)> = (report.warnings.iter())
        .map(|w| {
            let at = &w.location;
            let key = w.key.clone().unwrap_or_default();
            assert_eq!(at.path, door, "{w}");
            (key, at.line, at.column, w.kind.to_string())
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "OpensWith".to_owned(),
                3,
                12,
                "refers to entity 0x0000000000000002 of kind `Inert`, not a `Switch`".to_owned()
            ),
            (
                "Alarm".to_owned(),
                4,
                10,
                "refers to entity 0x0000000000000009, which the world does not have".to_owned()
            ),
            (
                "AlsoOpens".to_owned(),
                7,
                3,
                "refers to entity 0x0000000000000007, which the world does not have".to_owned()
            ),
        ]
    );
    // The door still loaded with what its file says; a reference to nothing resolves
    // to nothing.
    let d = world.manager().get::<Door>(EntityId(3)).unwrap();
    assert!(world.manager().resolve(d.opens_with).is_none());
    assert!(matches!(
        report.warnings[1].kind,
        WarningKind::DanglingReference { id: 9 }
    ));
}

#[test]
fn a_removed_entity_leaves_the_references_to_it_reported() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "switch.jasset", SWITCH);
    write(
        dir.path(),
        "door.jasset",
        "EntityID: 0x0000000000000003\nKind: Door\nOpensWith: 0x0000000000000001\n",
    );
    let (mut world, report) = World::load(dir.path(), &LoadOptions::default()).unwrap();
    assert!(report.is_clean(), "{:?}", report.warnings);
    assert!(world.reference_warnings().is_empty());
    world.remove_world_entity(EntityId(1)).unwrap();
    let d = world.manager().get::<Door>(EntityId(3)).unwrap();
    assert!(world.manager().resolve(d.opens_with).is_none());
    let warnings = world.reference_warnings();
    assert_eq!(warnings.len(), 1);
    assert_eq!(
        (warnings[0].location.line, warnings[0].location.column),
        (3, 12)
    );
    assert!(matches!(
        warnings[0].kind,
        WarningKind::DanglingReference { id: 1 }
    ));
}

struct Mesh;

impl juliet_entities::AssetKind for Mesh {
    const EXTENSION: Option<&'static str> = Some("obj");
}

#[derive(Entity, Debug)]
struct Statue {
    mesh: juliet_entities::AssetPath<Mesh>,
    plaques: Vec<juliet_entities::AssetPath>,
}

#[test]
fn asset_paths_to_files_the_project_lacks_are_reported_at_their_lines() {
    let project = tempfile::tempdir().unwrap();
    fs::create_dir_all(project.path().join("Assets/Meshes")).unwrap();
    fs::write(
        project.path().join("Assets/Meshes/Statue.obj"),
        "o statue\n",
    )
    .unwrap();
    let world = project.path().join("Assets/Worlds/L");
    write(
        &world,
        "statue.jasset",
        "EntityID: 1\nKind: Statue\nMesh: Assets/Meshes/Statue.obj\n\
         ; Plaques\nAssets/Meshes/Statue.obj\n\"Assets/Text/Old Plaque.txt\"\n",
    );
    let (loaded, report) = World::load(&world, &LoadOptions::default()).unwrap();
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let found: Vec<String> = report.warnings.iter().map(ToString::to_string).collect();
    let file = world.join("Entities/statue.jasset");
    assert_eq!(
        found,
        [format!(
            "{}:6:1: warning: `Plaques`: names `Assets/Text/Old Plaque.txt`, which the project \
             does not have",
            file.display()
        )]
    );
    let statue = loaded.manager().get::<Statue>(EntityId(1)).unwrap();
    assert_eq!(statue.mesh.as_str(), "Assets/Meshes/Statue.obj");
    assert_eq!(statue.plaques.len(), 2);

    // A path of another extension than the field's, or one leaving the project, is a
    // bad value at its line.
    write(
        &world,
        "statue.jasset",
        "EntityID: 1\nKind: Statue\nMesh: Assets/Meshes/Statue.png\n",
    );
    let (_, report) = World::load(&world, &LoadOptions::default()).unwrap();
    let error = report.errors[0].to_string();
    assert!(
        error.contains(":3:7:") && error.contains("another extension"),
        "{error}"
    );
    write(
        &world,
        "statue.jasset",
        "EntityID: 1\nKind: Statue\n; Plaques\n../../../secret.txt\n",
    );
    let (_, report) = World::load(&world, &LoadOptions::default()).unwrap();
    let error = report.errors[0].to_string();
    assert!(
        error.contains(":4:1:") && error.contains("inside the project"),
        "{error}"
    );
}
