//! A renamed class: `#[jasset(name = "Monster2", alias = "Monster")]` loads files of
//! the old name and writes the new one.

use juliet_core::{Reflect, Registry};
use juliet_entities::prelude::*;

/// The renamed kind.
#[derive(Entity, Debug)]
#[jasset(name = "Monster2", alias = "Monster", alias = "old_beast")]
pub struct Monster {
    /// Its hit points.
    #[jasset(default = 10)]
    pub health: i32,
}

#[test]
fn the_class_carries_its_aliases_and_the_registry_finds_it_by_them() {
    let aliases: Vec<&str> = Monster::CLASS.aliases().iter().map(|a| a.name).collect();
    assert_eq!(aliases, ["Monster", "old_beast"]);
    let registry = Registry::global().unwrap();
    for name in ["Monster2", "monster", "OldBeast"] {
        assert!(
            registry.find_by_name(name).unwrap().is::<Monster>(),
            "{name}"
        );
    }
}

#[test]
fn files_of_the_old_name_load_and_save_under_the_new_one() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("Entities");
    std::fs::create_dir_all(&dir).unwrap();
    for (id, kind) in [(1, "Monster"), (2, "OLD_BEAST"), (3, "Monster2")] {
        std::fs::write(
            dir.join(format!("m{id}.jasset")),
            format!("; EntityID\n{id}\n; Kind\n{kind}\n; Health\n{}\n", id * 7),
        )
        .unwrap();
    }
    let (mut world, report) = World::load(root.path(), &LoadOptions::default()).unwrap();
    assert!(report.is_clean(), "{report:?}");
    let mut health: Vec<i32> = world
        .manager()
        .slice::<Monster>()
        .iter()
        .map(|m| m.health)
        .collect();
    health.sort_unstable();
    assert_eq!(health, [7, 14, 21]);
    for id in 1..=3 {
        let mut text = String::new();
        world
            .entity_text(juliet_entities::EntityId(id), &mut text)
            .unwrap();
        assert!(text.contains("; Kind\nMonster2\n"), "{text}");
    }
}
