//! Nothing lost, nothing corrupted, through the runtime: `World::save_world` leaves a
//! file of a newer build, a file changed on disk since the load and a read-only file
//! as they are (and says so), and ids of files that did not load stay reserved.

use std::fs;

use glam::Vec3;
use juliet_entities::kinds::Inert;
use juliet_entities::{EntityId, SkipReason};

mod project;
use project::Project;

fn ent(id: u64, kind: &str, body: &str) -> String {
    format!("; EntityID\n0x{id:016X}\n; Kind\n{kind}\n{body}")
}

/// Loads the world, moves entity `id` (so it is dirty) and saves.
fn move_and_save(p: &Project, id: u64) -> juliet_entities::SaveReport {
    let (mut world, _) = p.load();
    let e = world.manager_mut().entity_mut(EntityId(id)).unwrap();
    e.set_position(Vec3::new(1.0, 2.0, 3.0));
    world.save_world().unwrap()
}

#[test]
fn a_save_never_rewrites_a_file_of_a_newer_build() {
    let p = Project::new();
    let texts = [
        ent(1, "Projectile", "; ClassVersion\n3\n; Speed\n75.5\n"),
        format!("; BaseVersion\n2\n{}", ent(2, "Inert", "")),
    ];
    p.entity("a", &texts[0]);
    p.entity("b", &texts[1]);
    for (id, name) in [(1, "a"), (2, "b")] {
        let report = move_and_save(&p, id);
        assert!(report.written.is_empty(), "{report:?}");
        assert_eq!(report.skipped.len(), 1, "{report:?}");
        assert_eq!(report.skipped[0].reason, SkipReason::NewerVersion);
        assert_eq!(p.read_entity(name), texts[id as usize - 1]);
    }
}

#[test]
fn a_save_leaves_a_file_changed_since_the_load() {
    let p = Project::new();
    p.entity("a", &ent(1, "Inert", ""));
    let (mut world, _) = p.load();
    world
        .manager_mut()
        .entity_mut(EntityId(1))
        .unwrap()
        .set_position(Vec3::ONE);
    let edited = ent(1, "Inert", "; Mass\n7.0\n");
    p.entity("a", &edited);
    let report = world.save_world().unwrap();
    assert_eq!(report.skipped.len(), 1, "{report:?}");
    assert_eq!(report.skipped[0].reason, SkipReason::ChangedOnDisk);
    assert_eq!(p.read_entity("a"), edited);
    // A file saved by the world itself is not "changed": the next save writes.
    let p2 = Project::new();
    p2.entity("a", &ent(1, "Inert", ""));
    let (mut world, _) = p2.load();
    for x in [1.0, 2.0] {
        let e = world.manager_mut().entity_mut(EntityId(1)).unwrap();
        e.set_position(Vec3::splat(x));
        let report = world.save_world().unwrap();
        assert_eq!(report.written.len(), 1, "{report:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_save_keeps_modes_and_leaves_read_only_files() {
    use std::os::unix::fs::PermissionsExt;
    let p = Project::new();
    let a = p.entity("a", &ent(1, "Inert", ""));
    let b = p.entity("b", &ent(2, "Inert", ""));
    fs::set_permissions(&a, fs::Permissions::from_mode(0o640)).unwrap();
    fs::set_permissions(&b, fs::Permissions::from_mode(0o444)).unwrap();
    let report = move_and_save(&p, 1);
    assert_eq!(report.written, std::slice::from_ref(&a));
    assert_eq!(
        fs::metadata(&a).unwrap().permissions().mode() & 0o7777,
        0o640
    );
    let report = move_and_save(&p, 2);
    assert_eq!(report.skipped.len(), 1, "{report:?}");
    assert_eq!(report.skipped[0].reason, SkipReason::ReadOnly);
    assert_eq!(p.read_entity("b"), ent(2, "Inert", ""));
}

#[test]
fn ids_of_files_that_did_not_load_are_reserved() {
    let p = Project::new();
    p.entity("a", &ent(1, "Inert", ""));
    p.entity("b", &ent(2, "Inert", "; Mass\nheavy\n"));
    p.entity("c", &ent(3, "NoSuchKind", ""));
    let (mut world, report) = p.load();
    assert_eq!(report.errors.len(), 2, "{report:?}");
    for _ in 0..3 {
        let id = world.manager_mut().make_entity::<Inert>(Vec3::ZERO);
        assert!(id.0 > 3, "{id:?} was handed out");
    }
}

#[test]
fn a_save_removes_stale_temporaries_and_says_so() {
    let p = Project::new();
    p.entity("a", &ent(1, "Inert", ""));
    let stale = p.entities_dir().join(".a.jasset.tmp");
    fs::write(&stale, "half").unwrap();
    let report = move_and_save(&p, 1);
    assert_eq!(report.removed_temps, std::slice::from_ref(&stale));
    assert!(!stale.exists());
}
