//! A class property may not be keyed like a base key (`Position`, `EntityID`/`id`,
//! `Kind`, ...): the base tier would take that property's value on load and the writer
//! would write the key twice. `#[derive(Entity)]` refuses such a field at compile time
//! (the `reserved_base_key` case of the workspace's compile-fail tests); a field renamed
//! away from the base key is an ordinary property, kept apart from the base value.

use std::fs;
use std::path::Path;

use glam::Vec3;
use juliet_entities::{Entity, LoadOptions, World};

/// A struct with a `position` field given another key: an ordinary kind.
#[derive(Entity)]
struct Trolley {
    #[jasset(rename = "TrackPosition")]
    position: Vec3,
    speed: f32,
}

/// Writes `text` as `Entities/<name>`.
fn entity_file(root: &Path, name: &str, text: &str) {
    let dir = root.join("Entities");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(name), text).unwrap();
}

#[test]
fn a_renamed_field_keeps_its_value_apart_from_the_base_position() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    entity_file(
        root,
        "b.jasset",
        "; EntityID\n0x0000000000000002\n; Kind\nTrolley\n; Position\n1 2 3\n\
         ; TrackPosition\n5 6 7\n; Speed\n4\n",
    );
    let (world, report) = World::load(root, &LoadOptions::default()).unwrap();
    assert_eq!((report.files, report.loaded), (1, 1), "{report:?}");
    let id = juliet_entities::EntityId(2);
    let entity = world.manager().entity(id).unwrap();
    assert_eq!(entity.position(), Vec3::new(1.0, 2.0, 3.0));
    let trolley = world.manager().get::<Trolley>(id).unwrap();
    assert_eq!(trolley.position, Vec3::new(5.0, 6.0, 7.0));
    assert_eq!(trolley.speed, 4.0);
}
