//! Worlds: one file per entity, parallel load, dirty-only save, pending deletions
//! (docs/design.md, section 6).

mod support;

use std::fs;
use std::path::{Path, PathBuf};

use glam::Vec3;
use juliet_core::{ErrorKind, WarningKind};
use juliet_entities::world::load_world;
use juliet_entities::{Durability, EntityId, LoadOptions, World, WorldLoadError};
use support::{crate_file, Crate, Sign};

fn entities_dir(root: &Path) -> PathBuf {
    let dir = root.join("Entities");
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A world of `n` canonical crate files named `rock_<i>.jasset`, ids 1..=n.
fn crate_world(n: u64) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let dir = entities_dir(root.path());
    for i in 1..=n {
        fs::write(
            dir.join(format!("rock_{i}.jasset")),
            crate_file(i, i as f32, 1.0),
        )
        .unwrap();
    }
    root
}

fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let bytes = fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    files.sort();
    files
}

fn load(root: &Path) -> World {
    let (world, report) = load_world(root).unwrap();
    assert!(report.is_clean(), "{report:?}");
    world.manager().check_invariants().unwrap();
    world
}

/// [`crate_world`] of `n` files, its `Entities` folder, the folder's files as written
/// ([`snapshot`]) and the world loaded from it.
fn loaded_crate_world(n: u64) -> (tempfile::TempDir, PathBuf, Vec<(PathBuf, Vec<u8>)>, World) {
    let root = crate_world(n);
    let dir = root.path().join("Entities");
    let before = snapshot(&dir);
    let world = load(root.path());
    (root, dir, before, world)
}

#[test]
fn load_world_loads_every_file_and_remembers_it() {
    let root = crate_world(300);
    let (world, report) = load_world(root.path()).unwrap();
    assert_eq!((report.files, report.loaded), (300, 300));
    assert!(report.is_clean());
    let m = world.manager();
    m.check_invariants().unwrap();
    assert_eq!(m.slice::<Crate>().len(), 300);
    for i in [1u64, 150, 300] {
        let id = EntityId(i);
        assert_eq!(m.entity(id).unwrap().position().x, i as f32);
        assert!(!m.entity(id).unwrap().is_dirty());
        assert_eq!(
            world.file_of(id).unwrap(),
            root.path()
                .join("Entities")
                .join(format!("rock_{i}.jasset"))
        );
    }
    assert!(m.next_id().get() > 300);
}

#[test]
fn a_dirty_mark_without_a_change_writes_nothing_nor_does_mark_dirty_of_identical_bytes() {
    let (_root, dir, before, mut world) = loaded_crate_world(3);
    // Taken for writing and left as it was: dirty, and the save finds no change.
    world.manager_mut().get_mut::<Crate>(EntityId(1)).unwrap();
    let e = world.manager().entity(EntityId(2)).unwrap().position();
    world
        .manager_mut()
        .entity_mut(EntityId(2))
        .unwrap()
        .set_position(e);
    assert!(world.manager().entity(EntityId(1)).unwrap().is_dirty());
    assert!(world.manager().entity(EntityId(2)).unwrap().is_dirty());
    let report = world.save_world().unwrap();
    assert!(report.written.is_empty(), "{report:?}");
    assert!(!world.manager().entity(EntityId(1)).unwrap().is_dirty());
    // `mark_dirty` asks for the write, but the file holds the bytes it would get: it
    // is left alone, and the mark is cleared.
    world
        .manager_mut()
        .entity_mut(EntityId(3))
        .unwrap()
        .mark_dirty();
    let report = world.save_world().unwrap();
    assert!(report.written.is_empty(), "{report:?}");
    assert!(!world.manager().entity(EntityId(3)).unwrap().is_dirty());
    assert_eq!(snapshot(&dir), before);
}

/// `mark_dirty` of a file that changed on disk since the load is a refused write, not
/// an unchanged file; one removed on disk and kept (`file_removed(id, true)`) is
/// written again though the entity's text is what it held.
#[test]
fn a_forced_save_reports_a_file_changed_on_disk_and_writes_a_kept_removed_one() {
    let (_root, dir, _, mut world) = loaded_crate_world(2);
    let changed = dir.join("rock_1.jasset");
    fs::write(&changed, "; Kind\nCrate\n; EntityID\n0x0000000000000001\n").unwrap();
    let removed = dir.join("rock_2.jasset");
    let held = fs::read(&removed).unwrap();
    fs::remove_file(&removed).unwrap();
    world.file_removed(EntityId(2), true).unwrap();
    let m = world.manager_mut();
    m.entity_mut(EntityId(1)).unwrap().mark_dirty();
    let report = world.save_world().unwrap();
    assert_eq!(report.written, vec![removed.clone()], "{report:?}");
    assert_eq!(fs::read(&removed).unwrap(), held);
    assert_eq!(report.skipped.len(), 1, "{report:?}");
    assert_eq!(report.skipped[0].path, changed);
}

#[test]
fn saving_a_just_loaded_world_writes_nothing_and_forced_saves_change_no_byte() {
    let (_root, dir, before, mut world) = loaded_crate_world(20);
    assert!(world.save_world().unwrap().written.is_empty());
    world.manager_mut().for_each_entity_mut(|e| e.mark_dirty());
    // Canonical files already hold what a forced save makes of them: none is written.
    let report = world.save_world().unwrap();
    assert!(report.written.is_empty(), "{report:?}");
    assert_eq!(
        snapshot(&dir),
        before,
        "rewriting canonical files changes no byte"
    );
}

#[test]
fn editing_one_entity_of_a_thousand_writes_one_file() {
    let (_root, dir, before, mut world) = loaded_crate_world(1000);
    world.set_durability(Durability::Fast);
    world
        .manager_mut()
        .get_mut::<Crate>(EntityId(500))
        .unwrap()
        .health = 1;
    let report = world.save_world().unwrap();
    let edited = dir.join("rock_500.jasset");
    assert_eq!(report.written, vec![edited.clone()]);
    assert!(report.deleted.is_empty());
    let after = snapshot(&dir);
    assert_eq!(after.len(), 1000, "no temporary file left behind");
    let changed: Vec<&PathBuf> = before
        .iter()
        .zip(&after)
        .filter(|(b, a)| b != a)
        .map(|(_, a)| &a.0)
        .collect();
    assert_eq!(changed, vec![&edited]);
    assert!(fs::read_to_string(&edited)
        .unwrap()
        .contains("; Health\n1\n"));
    assert!(!world.manager().entity(EntityId(500)).unwrap().is_dirty());
    assert!(
        world.save_world().unwrap().written.is_empty(),
        "clean after save"
    );
}

#[test]
fn new_entities_get_id_named_files_and_survive_a_reload() {
    let root = tempfile::tempdir().unwrap();
    let mut world = World::new(root.path());
    let a = world
        .manager_mut()
        .make_entity::<Crate>(Vec3::new(1.0, 2.0, 3.0));
    let s = world.manager_mut().make_entity::<Sign>(Vec3::ZERO);
    world.manager_mut().get_mut::<Sign>(s).unwrap().text = "hi there".into();
    let report = world.save_world().unwrap();
    let expected = root.path().join("Entities").join(a.file_name());
    assert_eq!(report.written[0], expected);
    assert_eq!(world.file_of(a), Some(expected.as_path()));
    assert!(expected.ends_with(format!("{:016X}.jasset", a.get())));

    let reloaded = load(root.path());
    assert_eq!(
        reloaded.manager().get::<Crate>(a),
        world.manager().get::<Crate>(a)
    );
    assert_eq!(reloaded.manager().get::<Sign>(s).unwrap().text, "hi there");
    assert_eq!(
        reloaded.manager().entity(a).unwrap().position(),
        Vec3::new(1.0, 2.0, 3.0)
    );
}

#[test]
fn a_new_entity_never_takes_another_entitys_file_name() {
    // The file named after id 2 holds entity 1.
    let root = tempfile::tempdir().unwrap();
    let dir = entities_dir(root.path());
    let squatter = dir.join(EntityId(2).file_name());
    fs::write(&squatter, crate_file(1, 0.0, 1.0)).unwrap();
    let mut world = load(root.path());
    let id = world.manager_mut().make_entity::<Crate>(Vec3::ZERO);
    assert_eq!(id, EntityId(2));
    let report = world.save_world().unwrap();
    assert_eq!(report.written, vec![dir.join("0000000000000002-2.jasset")]);
    assert_eq!(
        fs::read_to_string(&squatter).unwrap(),
        crate_file(1, 0.0, 1.0)
    );
}

#[test]
fn removed_entities_lose_their_files_only_at_save() {
    let root = crate_world(3);
    let dir = root.path().join("Entities");
    let mut world = load(root.path());
    world.remove_world_entity(EntityId(2)).unwrap();
    world.manager().check_invariants().unwrap();
    assert_eq!(world.manager().len(), 2);
    assert_eq!(world.pending_deletions()[0].id, EntityId(2));
    assert!(
        dir.join("rock_2.jasset").exists(),
        "not deleted before the save"
    );
    let report = world.save_world().unwrap();
    assert_eq!(report.deleted, vec![dir.join("rock_2.jasset")]);
    assert!(report.written.is_empty());
    assert!(!dir.join("rock_2.jasset").exists());
    assert!(world.pending_deletions().is_empty());
    let err = world.remove_world_entity(EntityId(2)).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NoSuchEntity(2));
    // A never-saved entity removed before any save leaves nothing behind.
    let new = world.manager_mut().make_entity::<Crate>(Vec3::ZERO);
    world.remove_world_entity(new).unwrap();
    assert_eq!(world.save_world().unwrap(), Default::default());
    assert_eq!(load(root.path()).manager().len(), 2);
}

#[test]
fn bad_files_are_reported_left_untouched_and_do_not_stop_the_load() {
    let root = crate_world(3);
    let dir = root.path().join("Entities");
    let unknown = "; Kind\nDragon\n; EntityID\n0x00000000000000AA\n; Wings\n4\n";
    fs::write(dir.join("dragon.jasset"), unknown).unwrap();
    fs::write(
        dir.join("broken.jasset"),
        "; Kind\nTestCrate\n; Mass\nheavy\n",
    )
    .unwrap();
    fs::write(dir.join("notes.txt"), "not an entity").unwrap();
    fs::write(dir.join(".rock_1.jasset.tmp"), "left by a crash").unwrap();
    fs::create_dir(dir.join("sub.jasset")).unwrap();

    let (mut world, report) = load_world(root.path()).unwrap();
    assert_eq!((report.files, report.loaded), (5, 3));
    assert_eq!(report.errors.len(), 2);
    let broken = &report.errors[0];
    assert_eq!(broken.location.path, dir.join("broken.jasset"));
    assert_eq!(
        (broken.location.line, broken.key.as_deref()),
        (4, Some("Mass"))
    );
    let dragon = &report.errors[1];
    assert_eq!(dragon.location.path, dir.join("dragon.jasset"));
    assert_eq!(dragon.kind, ErrorKind::UnknownKind("Dragon".into()));
    assert_eq!(world.untouched_files().len(), 2);

    // Saving everything (and a new entity) never writes or deletes the bad files.
    world.manager_mut().for_each_entity_mut(|e| e.mark_dirty());
    world.manager_mut().make_entity::<Crate>(Vec3::ZERO);
    world.save_world().unwrap();
    assert_eq!(
        fs::read_to_string(dir.join("dragon.jasset")).unwrap(),
        unknown
    );
    assert!(dir.join("broken.jasset").exists());
}

#[test]
fn an_entity_id_in_two_files_names_both() {
    let root = crate_world(2);
    let dir = root.path().join("Entities");
    fs::write(dir.join("rock_copy.jasset"), crate_file(1, 9.0, 1.0)).unwrap();
    let (world, report) = load_world(root.path()).unwrap();
    assert_eq!(report.loaded, 2);
    let err = &report.errors[0];
    assert_eq!(err.location.path, dir.join("rock_copy.jasset"));
    assert_eq!(err.key.as_deref(), Some("EntityID"));
    match &err.kind {
        ErrorKind::DuplicateEntityId { id: 1, other } => {
            assert_eq!(other, &dir.join("rock_1.jasset"))
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(
        err.to_string().contains("rock_1.jasset") && err.to_string().contains("rock_copy.jasset")
    );
    assert_eq!(
        world.manager().entity(EntityId(1)).unwrap().position().x,
        1.0
    );
}

#[test]
fn strict_mode_fails_on_any_error_or_warning() {
    let root = crate_world(2);
    let dir = root.path().join("Entities");
    fs::write(
        dir.join("extra.jasset"),
        crate_file(9, 0.0, 1.0) + "; Unknown\n1\n",
    )
    .unwrap();
    let strict = LoadOptions {
        strict: true,
        ..LoadOptions::default()
    };
    match World::load(root.path(), &strict) {
        Err(WorldLoadError::Strict(report)) => {
            assert_eq!(report.warnings.len(), 1);
            assert!(matches!(
                report.warnings[0].kind,
                WarningKind::UnknownKey(_)
            ));
        }
        other => panic!("expected a strict failure, got {other:?}"),
    }
    // Lenient: loads, keeps the unknown key and writes it back.
    let (mut world, report) = load_world(root.path()).unwrap();
    assert_eq!(report.warnings.len(), 1);
    assert_eq!(
        world
            .file_data(EntityId(9))
            .unwrap()
            .unknown
            .iter()
            .next()
            .unwrap()
            .key(),
        "Unknown"
    );
    world
        .manager_mut()
        .entity_mut(EntityId(9))
        .unwrap()
        .mark_dirty();
    world.save_world().unwrap();
    assert!(fs::read_to_string(dir.join("extra.jasset"))
        .unwrap()
        .ends_with("; Unknown\n1\n"));
}

#[test]
fn directories_and_limits() {
    // A world without an Entities directory is empty; a missing world is an error.
    let root = tempfile::tempdir().unwrap();
    let (world, report) = load_world(root.path()).unwrap();
    assert_eq!((world.manager().len(), report.files), (0, 0));
    assert!(matches!(
        load_world(root.path().join("missing")),
        Err(WorldLoadError::Directory(_))
    ));
    // Oversized files are reported, not read.
    let root = crate_world(1);
    let small = LoadOptions {
        max_file_size: 16,
        ..LoadOptions::default()
    };
    let (_, report) = World::load(root.path(), &small).unwrap();
    assert!(matches!(
        report.errors[0].kind,
        ErrorKind::FileTooLarge { limit: 16, .. }
    ));
}

#[test]
fn two_sessions_adding_entities_apart_draw_different_ids_and_file_names() {
    let root = crate_world(3);
    let (mut a, mut b) = (load(root.path()), load(root.path()));
    // By default the plain counter (deterministic runtime ids): both would take 4.
    assert_eq!(a.manager().next_id(), b.manager().next_id());
    assert_ne!(a.use_random_id_prefix(), b.use_random_id_prefix());
    let ia = a.manager_mut().make_entity::<Crate>(Vec3::ZERO);
    let ib = b.manager_mut().make_entity::<Crate>(Vec3::ZERO);
    assert_ne!(ia, ib);
    // The high 32 bits are the session's prefix, the low ones count from 1.
    assert_eq!(ia.get(), u64::from(a.manager().id_prefix()) << 32 | 1);
    let (wa, wb) = (a.save_world().unwrap(), b.save_world().unwrap());
    assert_ne!(wa.written, wb.written);
    a.manager().check_invariants().unwrap();
}
