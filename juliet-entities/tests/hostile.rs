//! Hostile input at the world level (the rules are in the `world` module documentation
//! and `docs/jasset-format.md`, "Hostile input"): entries that are not regular files,
//! files over the size limit, a million lines, a million keys, one key under several
//! spellings.

mod support;

use std::fs;
use std::path::{Path, PathBuf};

use juliet_core::{ErrorKind, WarningKind, UNKNOWN_KEY_WARNINGS};
use juliet_entities::{load_entity, EntityManager, LoadOptions, World};
use support::{crate_file, saved, Sign};

fn entities(root: &Path) -> PathBuf {
    let dir = root.join("Entities");
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The paths of the `Other` warnings of a report (skipped entries).
fn skipped(report: &juliet_entities::LoadReport) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = report
        .warnings
        .iter()
        .filter(|w| matches!(&w.kind, WarningKind::Other(m) if m.contains("not a regular file")))
        .map(|w| w.location.path.clone())
        .collect();
    paths.sort();
    paths
}

#[cfg(unix)]
#[test]
fn entity_symlinks_are_skipped_with_a_warning_and_never_written() {
    use std::os::unix::fs::symlink;
    let root = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let dir = entities(root.path());
    fs::write(dir.join("a.jasset"), crate_file(1, 0.0, 1.0)).unwrap();
    let secret = outside.path().join("secret.jasset");
    fs::write(&secret, crate_file(2, 0.0, 2.0)).unwrap();
    symlink(&secret, dir.join("b_outside.jasset")).unwrap();
    symlink(dir.join("a.jasset"), dir.join("c_inside.jasset")).unwrap();
    symlink(root.path().join("missing"), dir.join("d_dangling.jasset")).unwrap();
    symlink(outside.path(), dir.join("e_dir.jasset")).unwrap();

    let (mut world, report) = World::load(root.path(), &LoadOptions::default()).unwrap();
    assert_eq!((report.files, report.loaded), (1, 1), "{report:?}");
    assert!(report.errors.is_empty());
    let links: Vec<PathBuf> = ["b_outside", "c_inside", "d_dangling", "e_dir"]
        .iter()
        .map(|n| dir.join(format!("{n}.jasset")))
        .collect();
    assert_eq!(skipped(&report), links);
    for link in &links {
        assert!(world.untouched_files().contains(link));
    }

    // A save (an edit and a new entity) leaves every link a link, and the file
    // outside the world as it was.
    let a = world.manager().entities()[0].id();
    world.manager_mut().entity_mut(a).unwrap().mark_dirty();
    world
        .manager_mut()
        .make_entity::<support::Crate>(glam::Vec3::ZERO);
    world.save_world().unwrap();
    for link in &links {
        assert!(fs::symlink_metadata(link).unwrap().file_type().is_symlink());
    }
    assert_eq!(
        fs::read_to_string(&secret).unwrap(),
        crate_file(2, 0.0, 2.0)
    );

    // Strict mode turns the skip into a failed load.
    let strict = LoadOptions {
        strict: true,
        ..LoadOptions::default()
    };
    assert!(World::load(root.path(), &strict).is_err());
}

#[cfg(unix)]
#[test]
fn sockets_and_fifos_are_skipped_without_blocking() {
    let root = tempfile::tempdir().unwrap();
    let dir = entities(root.path());
    fs::write(dir.join("a.jasset"), crate_file(1, 0.0, 1.0)).unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(dir.join("socket.jasset")).unwrap();
    let mut expected = vec![dir.join("socket.jasset")];
    // Opening a FIFO for reading would block until a writer comes: it must not be
    // opened at all. (`mkfifo` is POSIX; skip that part where it is missing.)
    let fifo = dir.join("fifo.jasset");
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        expected.insert(0, fifo);
    }
    let (_, report) = World::load(root.path(), &LoadOptions::default()).unwrap();
    assert_eq!((report.files, report.loaded), (1, 1));
    assert_eq!(skipped(&report), expected);
}

#[test]
fn a_file_over_the_limit_is_refused_from_its_metadata() {
    let root = tempfile::tempdir().unwrap();
    let dir = entities(root.path());
    fs::write(dir.join("a.jasset"), crate_file(1, 0.0, 1.0)).unwrap();
    // A sparse 64 GiB file: reading it whole would exhaust memory; the size check
    // comes first.
    let huge = dir.join("huge.jasset");
    fs::File::create(&huge).unwrap().set_len(64 << 30).unwrap();
    let (world, report) = World::load(root.path(), &LoadOptions::default()).unwrap();
    assert_eq!(world.manager().len(), 1);
    assert_eq!(report.errors.len(), 1);
    let err = &report.errors[0];
    assert_eq!(err.location.path, huge);
    assert_eq!((err.location.line, err.location.column), (0, 0));
    assert_eq!(
        err.kind,
        ErrorKind::FileTooLarge {
            size: 64 << 30,
            limit: 16 << 20
        }
    );
    assert_eq!(world.untouched_files(), [huge]);
}

#[test]
fn the_size_limit_is_configurable_and_inclusive() {
    let root = tempfile::tempdir().unwrap();
    let dir = entities(root.path());
    let text = crate_file(1, 0.0, 1.0);
    let limit = text.len() as u64;
    fs::write(dir.join("at_limit.jasset"), &text).unwrap();
    let over = format!(
        "{}# one more\n",
        crate_file(2, 0.0, 1.0).replace("1.0 1.0", "1.0 1.00")
    );
    assert!(over.len() as u64 > limit);
    fs::write(dir.join("over_limit.jasset"), &over).unwrap();
    let options = LoadOptions {
        max_file_size: limit,
        ..LoadOptions::default()
    };
    let (world, report) = World::load(root.path(), &options).unwrap();
    assert_eq!(world.manager().len(), 1);
    assert_eq!(
        report.errors[0].kind,
        ErrorKind::FileTooLarge {
            size: over.len() as u64,
            limit
        }
    );
}

#[test]
fn a_million_line_file_loads() {
    // A list property of a million value lines, with comment and blank lines between.
    let mut text = String::from("; Kind\nTestSign\n; EntityID\n0x0000000000000001\n; Lines\n");
    for i in 0..1_000_000 {
        text.push_str(&format!("line {i}\n"));
        if i % 100_000 == 0 {
            text.push_str("# a comment between value lines\n\n");
        }
    }
    let mut m = EntityManager::new();
    let loaded = load_entity(&mut m, Path::new("big.jasset"), text.as_bytes()).unwrap();
    let sign = m.get::<Sign>(loaded.id).unwrap();
    assert_eq!(sign.lines.len(), 1_000_000);
    assert_eq!(sign.lines[999_999], "line 999999");
    // It saves and loads back the same.
    let again = saved(&m, loaded.id, &loaded.data);
    let mut m2 = EntityManager::new();
    let reloaded = load_entity(&mut m2, Path::new("big.jasset"), again.as_bytes()).unwrap();
    assert_eq!(m2.get::<Sign>(reloaded.id), Some(sign));
}

#[test]
fn a_million_key_file_keeps_every_unknown_key() {
    let mut text = String::from("Kind: TestCrate\nEntityID: 0x0000000000000001\n");
    for i in 0..1_000_000 {
        text.push_str(&format!("Key{i}: {i}\n"));
    }
    let mut m = EntityManager::new();
    let loaded = load_entity(&mut m, Path::new("keys.jasset"), text.as_bytes()).unwrap();
    assert_eq!(loaded.data.unknown.len(), 1_000_000);
    // The first keys are listed one warning each, the rest counted in one.
    assert_eq!(loaded.warnings.len(), UNKNOWN_KEY_WARNINGS + 1);
    assert!(matches!(
        &loaded.warnings[23].kind,
        WarningKind::UnknownKey(k) if k == "Key23"
    ));
    let last = &loaded.warnings[UNKNOWN_KEY_WARNINGS];
    assert_eq!(
        last.kind,
        WarningKind::UnknownKeysNotListed {
            count: 1_000_000 - UNKNOWN_KEY_WARNINGS
        }
    );
    assert_eq!(
        (last.location.line, last.location.column),
        (3 + UNKNOWN_KEY_WARNINGS as u32, 1),
        "at the first key not listed"
    );
    let last = loaded.data.unknown.iter().last().unwrap();
    assert_eq!(last.key(), "Key999999");
    assert_eq!(last.lines().collect::<Vec<_>>(), ["999999"]);
    // Written back after the known keys, in order, and read back the same.
    let again = saved(&m, loaded.id, &loaded.data);
    assert!(again.ends_with("; Key999998\n999998\n; Key999999\n999999\n"));
    let mut m2 = EntityManager::new();
    let reloaded = load_entity(&mut m2, Path::new("keys.jasset"), again.as_bytes()).unwrap();
    assert_eq!(reloaded.data.unknown, loaded.data.unknown);

    // One more spelling of a key at the end is found, however many keys come before.
    text.push_str("key_500000: again\n");
    let err = load_entity(
        &mut EntityManager::new(),
        Path::new("keys.jasset"),
        text.as_bytes(),
    )
    .unwrap_err();
    assert_eq!(
        err.kind,
        ErrorKind::DuplicateKey {
            first_line: 500_003
        }
    );
    assert_eq!(
        (err.location.line, err.key.as_deref()),
        (1_000_003, Some("key_500000"))
    );
}

#[test]
fn a_key_under_several_spellings_is_one_key() {
    let spellings = ["Mass", "mass", "MASS", "m_a_s_s", "_Mass_"];
    // Alone, each spelling is read as the property.
    for s in spellings {
        let text = format!("Kind: TestCrate\nEntityID: 0x01\n{s}: 42.5\n");
        let mut m = EntityManager::new();
        let loaded = load_entity(&mut m, Path::new("s.jasset"), text.as_bytes()).unwrap();
        assert_eq!(
            m.get::<support::Crate>(loaded.id).unwrap().mass,
            42.5,
            "{s}"
        );
        assert!(loaded.data.unknown.is_empty());
    }
    // Two spellings in one file are a duplicate, named at the second.
    for (a, b) in [("Mass", "mass"), ("MASS", "m_a_s_s"), ("_Mass_", "Mass")] {
        let text = format!("Kind: TestCrate\n{a}: 1.0\n\n{b}: 2.0\n");
        let err = load_entity(
            &mut EntityManager::new(),
            Path::new("s.jasset"),
            text.as_bytes(),
        )
        .unwrap_err();
        assert_eq!(err.kind, ErrorKind::DuplicateKey { first_line: 2 });
        assert_eq!(
            (err.location.line, err.location.column, err.key.as_deref()),
            (4, 1, Some(b))
        );
    }
    // A base key and its alias are one key too.
    let text = "; EntityID\n0x01\n; ID\n0x02\nKind: TestCrate\n";
    let err = load_entity(
        &mut EntityManager::new(),
        Path::new("s.jasset"),
        text.as_bytes(),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::DuplicateKey { first_line: 1 });
    assert_eq!(err.key.as_deref(), Some("ID"));
}
