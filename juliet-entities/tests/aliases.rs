//! A file that uses an alias, of its class (`#[jasset(name = "Monster2", alias =
//! "Monster")]`) or of a key (`#[jasset(alias = "Hp")]`), is written with the current
//! names when a save edits it: only the lines holding an alias change besides the edit,
//! so the aliases can be dropped once every file has been saved or migrated. A file
//! saved with nothing changed is not written.

use std::fs;

use juliet_entities::{Entity, EntityId, LoadOptions, World};

/// Renamed from `Monster`; its `Health` was `Hp`.
#[derive(Entity, Debug)]
#[jasset(name = "Monster2", alias = "Monster")]
struct Monster {
    #[jasset(alias = "Hp")]
    health: i32,
    mass: f32,
    #[jasset(alias = "Labels")]
    tags: Vec<String>,
}

/// `text` as the one entity file of a world, loaded; the world, its folder and the file.
fn world_of(text: &str) -> (World, tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let entities = dir.path().join("Entities");
    fs::create_dir_all(&entities).unwrap();
    let file = entities.join("orc.jasset");
    fs::write(&file, text).unwrap();
    let (world, report) = World::load(dir.path(), &LoadOptions::default()).unwrap();
    assert!(report.is_clean(), "{report:?}");
    (world, dir, file)
}

#[test]
fn a_save_writes_the_current_names_of_an_aliased_class_and_key() {
    let original = "# an orc\n; Kind: Monster\nEntityID: 0x0000000000000031\n\
                    // tough\nHp: 5\n; Mass\n80.0\n";
    let (mut world, _dir, file) = world_of(original);
    // Nothing changed: nothing written, aliases and all.
    assert!(world.save_world().unwrap().written.is_empty());
    assert_eq!(fs::read_to_string(&file).unwrap(), original);

    world
        .manager_mut()
        .get_mut::<Monster>(EntityId(0x31))
        .unwrap()
        .mass = 90.0;
    world.save_world().unwrap();
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "# an orc\n; Kind: Monster2\nEntityID: 0x0000000000000031\n\
         // tough\nHealth: 5\n; Mass\n90.0\n"
    );
}

/// The aliased property itself edited: its key and value change on its line; one that
/// becomes several lines is a block under the current key.
#[test]
fn an_edited_property_written_under_an_alias_gets_its_key() {
    let (mut world, _dir, file) =
        world_of("; Kind\nMonster2\n; EntityID\n0x0000000000000032\n; hp: 5\n");
    let id = EntityId(0x32);
    world.set_property(id, "Health", "7").unwrap();
    world.save_world().unwrap();
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "; Kind\nMonster2\n; EntityID\n0x0000000000000032\n; Health: 7\n"
    );
    let text = "; Kind: monster\nEntityID: 0x0000000000000033\nLabels: a\nHp: 1\n";
    let (mut world, _dir, file) = world_of(text);
    let id = EntityId(0x33);
    world.set_property(id, "Tags", "a\nb").unwrap();
    world.save_world().unwrap();
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "; Kind: Monster2\nEntityID: 0x0000000000000033\n; Tags\na\nb\n; Health: 1\n"
    );
}
