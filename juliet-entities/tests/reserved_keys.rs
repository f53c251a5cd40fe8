//! A class whose property is keyed like a base key (`Position`, `EntityID`/`id`, `Kind`,
//! ...) cannot be an entity kind: the base tier would take that property's value on
//! load and the writer would write the key twice. It is refused with
//! `ErrorKind::ReservedKey` wherever it meets an entity file (`reserved` module), and
//! nothing else is lost.

use std::fs;
use std::path::Path;

use glam::Vec3;
use juliet_core::ErrorKind;
use juliet_entities::kinds::Inert;
use juliet_entities::{create_template_from_entity, Entity, LoadOptions, World};

/// A vehicle with its own `position` field: the key `Position` is the base tier's.
#[derive(Entity)]
struct Dolly {
    position: Vec3,
    speed: f32,
}

/// The same struct with the field given another key: an ordinary kind.
#[derive(Entity)]
struct Trolley {
    #[jasset(rename = "TrackPosition")]
    position: Vec3,
    speed: f32,
}

fn reserved(kind: &ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::ReservedKey {
            class: "Dolly",
            key: "Position",
            base: "Position",
        }
    )
}

#[test]
fn saving_such_an_entity_fails_naming_its_file_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut world = World::new(dir.path());
    let rock = world.manager_mut().make_entity::<Inert>(Vec3::ONE);
    let dolly = world.manager_mut().make_entity::<Dolly>(Vec3::X);
    world
        .manager_mut()
        .get_mut::<Dolly>(dolly)
        .unwrap()
        .position = Vec3::new(7.0, 8.0, 9.0);

    let err = world.save_world().unwrap_err();
    assert!(reserved(&err.kind), "{err}");
    let file = dir
        .path()
        .join("Entities")
        .join(format!("{:016X}.jasset", dolly.0));
    assert_eq!(err.location.path, file, "{err}");
    assert!(!file.exists());
    // The refused entity stays dirty in memory with its value, for a fixed build to
    // save; the text is refused on its own too.
    assert!(world.manager().entity(dolly).unwrap().is_dirty());
    assert_eq!(
        world.manager().get::<Dolly>(dolly).unwrap().position,
        Vec3::new(7.0, 8.0, 9.0)
    );
    let mut text = String::new();
    let err = world.entity_text(dolly, &mut text).unwrap_err();
    assert!(reserved(&err.kind), "{err}");
    assert!(text.is_empty(), "nothing written: {text:?}");
    // An ordinary entity still saves.
    let mut text = String::new();
    world.entity_text(rock, &mut text).unwrap();
    assert!(text.contains("; Kind\nInert\n"), "{text}");
}

#[test]
fn making_a_template_of_such_an_entity_fails_and_writes_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut world = World::new(dir.path());
    let dolly = world.manager_mut().make_entity::<Dolly>(Vec3::X);
    let err = create_template_from_entity(&mut world, dolly, "DollyTemplate").unwrap_err();
    assert!(reserved(&err.kind), "{err}");
    assert!(!dir
        .path()
        .join("Assets/Templates/DollyTemplate.jasset")
        .exists());
    assert_eq!(world.manager().entity(dolly).unwrap().template(), None);
}

/// Writes `text` as `Entities/<name>`.
fn entity_file(root: &Path, name: &str, text: &str) {
    let dir = root.join("Entities");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(name), text).unwrap();
}

#[test]
fn loading_such_a_file_fails_at_its_kind_and_the_rest_of_the_world_loads() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    entity_file(
        root,
        "a.jasset",
        "; EntityID\n0x0000000000000001\n; Kind\nDolly\n; Position\n1 2 3\n; Speed\n4\n",
    );
    entity_file(
        root,
        "b.jasset",
        "; EntityID\n0x0000000000000002\n; Kind\nTrolley\n; Position\n1 2 3\n\
         ; TrackPosition\n5 6 7\n; Speed\n4\n",
    );
    let (world, report) = World::load(root, &LoadOptions::default()).unwrap();
    assert_eq!((report.files, report.loaded), (2, 1), "{report:?}");
    let err = &report.errors[0];
    assert!(reserved(&err.kind), "{err}");
    assert_eq!(err.location.path, root.join("Entities/a.jasset"));
    assert_eq!((err.location.line, err.location.column), (3, 3), "{err}");
    assert_eq!(err.key.as_deref(), Some("Kind"));

    // The renamed field keeps both values apart.
    let id = juliet_entities::EntityId(2);
    let entity = world.manager().entity(id).unwrap();
    assert_eq!(entity.position(), Vec3::new(1.0, 2.0, 3.0));
    let trolley = world.manager().get::<Trolley>(id).unwrap();
    assert_eq!(trolley.position, Vec3::new(5.0, 6.0, 7.0));
    assert_eq!(trolley.speed, 4.0);
}
