//! A game's classes named like the stock kinds (ASCII case and `_` ignored) replace
//! them: files of `Kind: Projectile` load as the game's `Projectile`, `IN_ERT` takes
//! `Inert`'s files, and the stock `Collectible` still loads.

use juliet_core::Registry;
use juliet_entities::prelude::*;
use juliet_entities::{kinds, World};

/// The game's own projectile: none of the stock one's properties.
#[derive(Entity, Debug)]
pub struct Projectile {
    /// Damage on hit.
    #[jasset(default = 5.0)]
    pub damage: f32,
    /// Who fired it.
    pub owner: String,
}

/// A prop that takes the stock `Inert`'s files.
#[derive(Entity, Debug)]
#[jasset(name = "IN_ERT")]
pub struct Prop {
    /// Its mesh.
    pub mesh: String,
}

#[test]
fn the_registry_holds_the_game_classes_in_place_of_the_stock_ones() {
    let registry = Registry::global().unwrap();
    assert!(registry
        .find_by_name("projectile")
        .unwrap()
        .is::<Projectile>());
    assert!(registry.find_by_name("Inert").unwrap().is::<Prop>());
    assert!(registry
        .find_by_name("Collectible")
        .unwrap()
        .is::<kinds::Collectible>());
    assert!(!registry
        .classes()
        .iter()
        .any(|c| c.is::<kinds::Projectile>()));
    let mut replaced: Vec<_> = registry
        .replaced()
        .iter()
        .map(|r| (r.stock.name(), r.by.name()))
        .collect();
    replaced.sort_unstable();
    assert_eq!(
        replaced,
        [("Inert", "IN_ERT"), ("Projectile", "Projectile")]
    );
}

#[test]
fn files_of_a_replaced_kind_load_as_the_games_class() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("Entities");
    std::fs::create_dir_all(&dir).unwrap();
    let file = |id: u64, kind: &str, rest: &str| {
        std::fs::write(
            dir.join(format!("{id}.jasset")),
            format!("; EntityID\n{id}\n; Kind\n{kind}\n{rest}"),
        )
        .unwrap();
    };
    file(1, "Projectile", "; Damage\n12.5\n; Owner\nplayer\n");
    file(2, "projectile", "");
    file(3, "Inert", "; Mesh\nrock.obj\n");
    file(4, "Collectible", "; Value\n7\n");
    let (world, report) = World::load(root.path(), &LoadOptions::default()).unwrap();
    assert!(report.is_clean(), "{report:?}");
    assert_eq!(report.loaded, 4);
    let m = world.manager();
    let shots = m.slice::<Projectile>();
    assert_eq!(shots.len(), 2);
    assert!(shots
        .iter()
        .any(|p| p.damage == 12.5 && p.owner == "player"));
    assert!(shots.iter().any(|p| p.damage == 5.0 && p.owner.is_empty()));
    assert_eq!(m.slice::<Prop>()[0].mesh, "rock.obj");
    assert_eq!(m.slice::<kinds::Collectible>().len(), 1);
}
