//! Worlds across threads: a world loads on a background thread and is used, saved and
//! shared on others (`World` is `Send` and `Sync`).

mod support;

use std::collections::BTreeSet;
use std::fs;
use std::sync::{Arc, Mutex};

use glam::Vec3;
use juliet_entities::world::load_world;
use juliet_entities::{EntityId, World};
use support::{crate_file, Crate};

fn ids(world: &World) -> BTreeSet<u64> {
    world
        .manager()
        .entities()
        .iter()
        .map(|e| e.id().0)
        .collect()
}

#[test]
fn a_world_loaded_in_the_background_is_used_saved_and_shared_on_other_threads() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("Entities");
    fs::create_dir_all(&dir).unwrap();
    for i in 1..=20u64 {
        fs::write(
            dir.join(format!("rock_{i}.jasset")),
            crate_file(i, i as f32, 2.0),
        )
        .unwrap();
    }

    let path = root.path().to_path_buf();
    let loading = std::thread::spawn(move || {
        let (world, report) = load_world(&path).unwrap();
        assert!(report.is_clean(), "{report:?}");
        world
    });
    let mut world = loading.join().unwrap();
    world.manager().check_invariants().unwrap();
    assert_eq!(world.manager().slice::<Crate>().len(), 20);
    assert_eq!(world.manager().get::<Crate>(EntityId(7)).unwrap().mass, 2.0);

    // Readers on two threads at once see the same world.
    let masses: Vec<f32> = std::thread::scope(|scope| {
        let shared = &world;
        let readers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(move || {
                    shared
                        .manager()
                        .slice::<Crate>()
                        .iter()
                        .map(|c| c.mass)
                        .sum()
                })
            })
            .collect();
        readers.into_iter().map(|r| r.join().unwrap()).collect()
    });
    assert_eq!(masses, [40.0, 40.0]);

    // Behind a lock, another thread changes and saves it.
    let world = Arc::new(Mutex::new(std::mem::replace(
        &mut world,
        World::new(root.path()),
    )));
    let writer = Arc::clone(&world);
    let made = std::thread::spawn(move || {
        let mut world = writer.lock().unwrap();
        world.remove_world_entity(EntityId(3)).unwrap();
        let id = world
            .manager_mut()
            .make_entity::<Crate>(Vec3::new(1.0, 2.0, 3.0));
        let report = world.save_world().unwrap();
        assert_eq!(report.written.len(), 1, "{report:?}");
        id
    })
    .join()
    .unwrap();

    let (reloaded, report) = load_world(root.path()).unwrap();
    assert!(report.is_clean(), "{report:?}");
    let expected: BTreeSet<u64> = (1..=20).filter(|&i| i != 3).chain([made.0]).collect();
    assert_eq!(ids(&reloaded), expected);
    assert_eq!(ids(&world.lock().unwrap()), expected);
    assert_eq!(
        reloaded.manager().get::<Crate>(made).unwrap().mass,
        Crate::default().mass
    );
}
