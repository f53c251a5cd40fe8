//! Crash-safe saving (docs/design.md, section 6.2): a child process saves a world of 1,000
//! entities with edits (changes, removals, additions) and is killed with SIGKILL at a
//! random moment of the save; every entity file must then hold its old or its new
//! content, whole (or be absent where that is the old or the new state), and the world
//! must load, without any leftover temporary file loaded as an entity.
//!
//! The child is this test binary itself, re-run on the ignored test `crash_child` with
//! the world directory in `JULIET_CRASH_CHILD`.
#![cfg(unix)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use glam::Vec3;
use juliet_entities::kinds::{Collectible, Inert, Projectile};
use juliet_entities::{Durability, EntityId, LoadOptions, World};
use proptest::prelude::RngExt;
use proptest::test_runner::{RngAlgorithm, TestRng};

/// Entities in the world.
const ENTITIES: usize = 1_000;
/// Kill trials.
const TRIALS: usize = 100;
/// The environment variable that turns `crash_child` into the saving child.
const CHILD_ENV: &str = "JULIET_CRASH_CHILD";

/// Files of `<root>/Entities` by name, with their bytes.
type Files = BTreeMap<String, Vec<u8>>;

fn entities_dir(root: &Path) -> PathBuf {
    root.join("Entities")
}

fn read_files(root: &Path) -> Files {
    let mut files = Files::new();
    for entry in fs::read_dir(entities_dir(root)).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        files.insert(name, fs::read(&path).unwrap());
    }
    files
}

fn copy_world(from: &Files, root: &Path) {
    let dir = entities_dir(root);
    fs::create_dir_all(&dir).unwrap();
    for (name, bytes) in from {
        fs::write(dir.join(name), bytes).unwrap();
    }
}

/// Hard-links the files of `from` into `root` (cheap). Safe because a save never writes
/// into an existing file: it writes a new one and renames it over the name, so the
/// shared inodes keep the old content (which the checks compare against in memory).
fn link_world(from: &Path, root: &Path) {
    let dir = entities_dir(root);
    fs::create_dir_all(&dir).unwrap();
    for entry in fs::read_dir(entities_dir(from)).unwrap() {
        let path = entry.unwrap().path();
        fs::hard_link(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
}

/// A scratch directory, in memory (`/dev/shm`) where there is one: the property under
/// test (a killed process leaves each name on its old or new file) is the kernel's, the
/// same on every local file system, and a RAM file system keeps 100 trials fast.
fn scratch_dir() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        if let Ok(dir) = tempfile::tempdir_in(shm) {
            return dir;
        }
    }
    tempfile::tempdir().unwrap()
}

/// The old world: 1,000 entities of the three stock kinds, saved canonically.
fn old_world(root: &Path) {
    let mut world = World::new(root);
    world.set_durability(Durability::Fast);
    let m = world.manager_mut();
    for i in 0..ENTITIES {
        let at = Vec3::new(i as f32, 0.5, -(i as f32));
        match i % 3 {
            0 => {
                let id = m.make_entity::<Inert>(at);
                let rock = m.get_mut::<Inert>(id).unwrap();
                rock.mass = i as f32 * 1.5;
                rock.mesh_asset = format!("Assets/Meshes/Rock_{i:03}.obj");
            }
            1 => {
                let id = m.make_entity::<Collectible>(at);
                m.get_mut::<Collectible>(id).unwrap().value = i as u32;
            }
            _ => {
                let id = m.make_entity::<Projectile>(at);
                m.get_mut::<Projectile>(id).unwrap().velocity_x = i as f32;
            }
        }
    }
    world.save_world().unwrap();
}

/// The edits the child saves: every entity changed (a longer mesh path, so new files
/// differ in size too), every 25th removed, 60 new entities.
fn edit(world: &mut World) {
    let ids: Vec<EntityId> = world.manager().entities().iter().map(|e| e.id()).collect();
    for (n, id) in ids.into_iter().enumerate() {
        if n % 25 == 7 {
            world.remove_world_entity(id).unwrap();
            continue;
        }
        let m = world.manager_mut();
        if let Some(rock) = m.get_mut::<Inert>(id) {
            rock.mass += 1000.0;
            rock.mesh_asset = format!("{}/edited/by/the/child", rock.mesh_asset);
        } else if let Some(coin) = m.get_mut::<Collectible>(id) {
            coin.value += 1_000_000;
        } else if let Some(p) = m.get_mut::<Projectile>(id) {
            p.damage = -1.25;
        }
        let e = m.entity_mut(id).unwrap();
        e.set_position(e.position() + Vec3::Y);
    }
    for i in 0..60 {
        let id = world
            .manager_mut()
            .make_entity::<Inert>(Vec3::splat(i as f32));
        world.manager_mut().get_mut::<Inert>(id).unwrap().health = 7.0;
    }
}

/// Loads `root`, edits it and saves (the child's work, also done whole for the
/// expected new state). Calls `before_save` just before the save starts.
fn load_edit_save(root: &Path, before_save: impl FnOnce()) {
    let (mut world, report) = World::load(root, &LoadOptions::default()).unwrap();
    assert!(report.is_clean(), "{report:?}");
    world.set_durability(Durability::Fast);
    edit(&mut world);
    before_save();
    world.save_world().unwrap();
}

/// The child: load, edit, say "saving", save. Run only by `crash_safe_saves`.
#[test]
#[ignore = "the child process of crash_safe_saves (needs JULIET_CRASH_CHILD)"]
fn crash_child() {
    let Some(root) = std::env::var_os(CHILD_ENV) else {
        eprintln!("crash_child runs only as the child of crash_safe_saves");
        return;
    };
    load_edit_save(Path::new(&root), || {
        println!("saving");
    });
    println!("saved");
}

/// Starts the child on the world at `root` and waits until it says "saving".
fn spawn_child(exe: &Path, root: &Path) -> (Child, BufReader<ChildStdout>) {
    let mut child = Command::new(exe)
        .args(["--exact", "crash_child", "--ignored", "--nocapture"])
        .arg("--test-threads=1")
        .env(CHILD_ENV, root)
        .stdout(Stdio::piped())
        .stderr(fs::File::create(root.join("child.log")).unwrap())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    wait_for(&mut out, "saving", root);
    (child, out)
}

/// Reads the child's output up to a line that contains `word`.
fn wait_for(out: &mut BufReader<ChildStdout>, word: &str, root: &Path) {
    let mut line = String::new();
    while !line.contains(word) {
        line.clear();
        if out.read_line(&mut line).unwrap() == 0 {
            let log = fs::read_to_string(root.join("child.log")).unwrap_or_default();
            panic!("the child in {root:?} ended before {word:?}:\n{log}");
        }
    }
}

/// What state a killed save left.
#[derive(Debug, Default)]
struct Tally {
    all_old: usize,
    mixed: usize,
    all_new: usize,
    temp_files_left: usize,
    files_lost: usize,
}

#[test]
fn crash_safe_saves() {
    let scratch = scratch_dir();
    let old_root = scratch.path().join("old");
    old_world(&old_root);
    let old = read_files(&old_root);
    assert_eq!(old.len(), ENTITIES);

    // The whole save, in this process: the new state.
    let new_root = scratch.path().join("new");
    copy_world(&old, &new_root);
    load_edit_save(&new_root, || {});
    let new = read_files(&new_root);
    let names: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    assert!(
        new.len() > ENTITIES,
        "the edits add more files than they delete"
    );

    let exe = std::env::current_exe().unwrap();
    let mut tally = Tally::default();
    // One child left to finish: how long its save takes.
    let calibration = scratch.path().join("calibration");
    link_world(&old_root, &calibration);
    let (mut child, mut out) = spawn_child(&exe, &calibration);
    let started = Instant::now();
    wait_for(&mut out, "saved", &calibration);
    let save_time = started.elapsed();
    child.wait().unwrap();
    assert_eq!(
        read_files(&calibration),
        new,
        "an uncut child save gives the new state"
    );

    let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    for trial in 0..TRIALS {
        let root = scratch.path().join(format!("trial{trial}"));
        link_world(&old_root, &root);
        let (mut child, _out) = spawn_child(&exe, &root);
        // A random moment of the save: uniform over 1.2 times the calibrated save time
        // (so a few kills come after the end).
        let window = save_time.as_micros() as u64 * 6 / 5 + 1;
        std::thread::sleep(Duration::from_micros(rng.random_range(0..window)));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();

        // Every file is its old or its new content, whole (or absent where that is
        // the old or the new state).
        let now = read_files(&root);
        let (mut olds, mut news) = (0, 0);
        for name in &names {
            let (o, n, c) = (old.get(*name), new.get(*name), now.get(*name));
            if c == o {
                olds += 1;
            }
            if c == n {
                news += 1;
            }
            if c != o && c != n {
                tally.files_lost += 1;
                eprintln!("trial {trial}: {name} is neither old nor new: {c:?}");
            }
        }
        match (olds == names.len(), news == names.len()) {
            (true, _) => tally.all_old += 1,
            (_, true) => tally.all_new += 1,
            _ => tally.mixed += 1,
        }
        let temps: Vec<&String> = now.keys().filter(|n| !names.contains(n)).collect();
        for t in &temps {
            assert!(
                t.starts_with('.') && t.ends_with(".tmp") && t.contains(".jasset."),
                "trial {trial}: unexpected file {t}"
            );
        }
        tally.temp_files_left += temps.len();

        // The world loads; no temporary file is taken for an entity.
        let (world, report) = World::load(&root, &LoadOptions::default()).unwrap();
        let jasset = now.keys().filter(|n| n.ends_with(".jasset")).count();
        assert_eq!(
            report.files, jasset,
            "trial {trial}: only .jasset files count"
        );
        assert!(report.is_clean(), "trial {trial}: {report:?}");
        assert_eq!(world.manager().len(), jasset);
        world.manager().check_invariants().unwrap();
        for e in world.manager().entities() {
            let file = world.file_of(e.id()).unwrap();
            let name = file.file_name().unwrap().to_string_lossy();
            assert!(
                names.contains(&name.into_owned()),
                "trial {trial}: loaded {file:?}"
            );
        }
        // The load noted the temporary files; the next save deletes them and nothing
        // else (no entity is dirty after a load).
        assert_eq!(world.stale_temp_files().len(), temps.len());
        let mut world = world;
        world.set_durability(Durability::Fast);
        world.save_world().unwrap();
        let after: Files = read_files(&root);
        let mut expected = now.clone();
        expected.retain(|name, _| names.contains(name));
        assert_eq!(
            after, expected,
            "trial {trial}: the save removed the temporary files"
        );
        fs::remove_dir_all(&root).unwrap();
    }
    eprintln!(
        "crash_safe_saves: {TRIALS} trials of {} files (save {save_time:?}): {tally:?}",
        names.len()
    );
    assert_eq!(tally.files_lost, 0);
    assert!(
        tally.mixed >= TRIALS / 10,
        "too few kills landed inside the save to test anything: {tally:?}"
    );
}
