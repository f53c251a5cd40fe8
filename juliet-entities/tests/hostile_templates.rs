//! Hostile template references (docs/jasset-format.md, "Hostile input"): paths that
//! leave the project root, symbolic links, chains deeper than the limit, files that are
//! not regular files.

use std::fs;
use std::path::Path;

use juliet_core::{Error, ErrorKind};
use juliet_entities::template::{TemplateCache, MAX_TEMPLATE_DEPTH};
use juliet_entities::{LoadOptions, World};

/// A project with `Assets/Templates` and a world `Assets/Worlds/W/Entities`.
fn project() -> tempfile::TempDir {
    let p = tempfile::tempdir().unwrap();
    fs::create_dir_all(p.path().join("Assets/Templates")).unwrap();
    fs::create_dir_all(p.path().join("Assets/Worlds/W/Entities")).unwrap();
    p
}

fn reason(err: &Error) -> &str {
    match &err.kind {
        ErrorKind::Template { reason, .. } => reason,
        other => panic!("not a template error: {other:?} ({err})"),
    }
}

/// Writes the template chain `T0 <- T1 <- ... <- T{n-1}` (each names the one before as
/// its `Template`; `T0` is an `Inert`).
fn chain(root: &Path, n: usize) {
    let dir = root.join("Assets/Templates");
    fs::write(dir.join("T0.jasset"), "Kind: Inert\nMass: 1.0\n").unwrap();
    for i in 1..n {
        fs::write(
            dir.join(format!("T{i}.jasset")),
            format!(
                "Template: Assets/Templates/T{}.jasset\nHealth: {i}.0\n",
                i - 1
            ),
        )
        .unwrap();
    }
}

#[test]
fn template_paths_that_leave_the_project_root_are_refused() {
    let p = project();
    // A real file outside the project, which a path could reach.
    let outside = p.path().parent().unwrap().join(format!(
        "{}-outside.jasset",
        p.path().file_name().unwrap().to_string_lossy()
    ));
    fs::write(&outside, "Kind: Inert\n").unwrap();
    let name = outside.file_name().unwrap().to_string_lossy().into_owned();
    let mut cache = TemplateCache::new(p.path());
    for path in [
        format!("../{name}"),
        format!("Assets/../../{name}"),
        format!("Assets\\..\\..\\{name}"),
        outside.to_string_lossy().into_owned(),
        "/etc/passwd".to_owned(),
        "C:\\Windows\\win.ini".to_owned(),
        "c:/Windows/win.ini".to_owned(),
        "\\\\server\\share\\Rock.jasset".to_owned(),
        "Assets/..".to_owned(),
        "".to_owned(),
    ] {
        let err = cache.get_or_load(&path).unwrap_err();
        let why = reason(&err);
        assert!(
            why.contains("project root") || why.contains("absolute") || why.contains("empty"),
            "{path}: {err}"
        );
    }
    assert_eq!(cache.files_read(), 0, "no refused path was opened");
    fs::remove_file(outside).unwrap();

    // From an instance file: the error is at its `Template` key, and the rest of the
    // world loads.
    let entities = p.path().join("Assets/Worlds/W/Entities");
    fs::write(
        entities.join("a.jasset"),
        "EntityID: 0x01\n; Template\n../../../../etc/passwd\n",
    )
    .unwrap();
    fs::write(entities.join("b.jasset"), "EntityID: 0x02\nKind: Inert\n").unwrap();
    let (world, report) =
        World::load(p.path().join("Assets/Worlds/W"), &LoadOptions::default()).unwrap();
    assert_eq!(world.manager().len(), 1);
    let err = &report.errors[0];
    assert_eq!((err.location.line, err.location.column), (2, 3), "{err}");
    assert!(reason(err).contains("above the project root"), "{err}");
}

#[cfg(unix)]
#[test]
fn template_symlinks_are_followed_only_inside_the_project() {
    use std::os::unix::fs::symlink;
    let p = project();
    let outside = tempfile::tempdir().unwrap();
    let dir = p.path().join("Assets/Templates");
    fs::write(dir.join("Rock.jasset"), "Kind: Inert\nMass: 5.0\n").unwrap();
    fs::write(
        outside.path().join("Secret.jasset"),
        "Kind: Inert\nMass: 9.0\n",
    )
    .unwrap();
    symlink(dir.join("Rock.jasset"), dir.join("RockAlias.jasset")).unwrap();
    symlink(
        outside.path().join("Secret.jasset"),
        dir.join("Secret.jasset"),
    )
    .unwrap();
    symlink(outside.path(), dir.join("Elsewhere")).unwrap();

    let mut cache = TemplateCache::new(p.path());
    let alias = cache
        .get_or_load("Assets/Templates/RockAlias.jasset")
        .unwrap();
    assert_eq!(
        alias
            .archetype::<juliet_entities::kinds::Inert>()
            .unwrap()
            .mass,
        5.0
    );
    for path in [
        "Assets/Templates/Secret.jasset",
        "Assets/Templates/Elsewhere/Secret.jasset",
    ] {
        let err = cache.get_or_load(path).unwrap_err();
        assert!(reason(&err).contains("outside the project root"), "{err}");
    }
}

#[cfg(unix)]
#[test]
fn a_template_that_is_not_a_regular_file_is_refused_without_blocking() {
    let p = project();
    let dir = p.path().join("Assets/Templates");
    fs::create_dir_all(dir.join("Folder.jasset")).unwrap();
    let mut paths = vec!["Assets/Templates/Folder.jasset"];
    let fifo = dir.join("Fifo.jasset");
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        paths.push("Assets/Templates/Fifo.jasset");
    }
    let mut cache = TemplateCache::new(p.path());
    for path in paths {
        let err = cache.get_or_load(path).unwrap_err();
        assert!(reason(&err).contains("not a regular file"), "{err}");
    }
}

#[test]
fn a_chain_at_the_depth_limit_loads() {
    let p = project();
    chain(p.path(), MAX_TEMPLATE_DEPTH);
    let mut cache = TemplateCache::new(p.path());
    let last = format!("Assets/Templates/T{}.jasset", MAX_TEMPLATE_DEPTH - 1);
    let t = cache.get_or_load(&last).unwrap();
    let inert = t.archetype::<juliet_entities::kinds::Inert>().unwrap();
    assert_eq!(
        (inert.mass, inert.health),
        (1.0, (MAX_TEMPLATE_DEPTH - 1) as f32)
    );
    assert_eq!(cache.len(), MAX_TEMPLATE_DEPTH);
}

#[test]
fn a_chain_one_deeper_than_the_limit_is_an_error() {
    let p = project();
    chain(p.path(), MAX_TEMPLATE_DEPTH + 1);
    let last = format!("Assets/Templates/T{MAX_TEMPLATE_DEPTH}.jasset");
    // Loaded in one go...
    let mut cache = TemplateCache::new(p.path());
    let err = cache.get_or_load(&last).unwrap_err();
    assert!(reason(&err).contains("deeper than"), "{err}");
    // ...or onto a cached chain at the limit.
    let mut cache = TemplateCache::new(p.path());
    let below = format!("Assets/Templates/T{}.jasset", MAX_TEMPLATE_DEPTH - 1);
    cache.get_or_load(&below).unwrap();
    let err = cache.get_or_load(&last).unwrap_err();
    assert!(reason(&err).contains("deeper than"), "{err}");
}

/// Ten thousand templates in a chain: an error, not a stack overflow. Run on a thread
/// with a small stack (256 KiB), as a game's loading thread might have.
#[test]
fn a_very_long_chain_is_an_error_not_a_stack_overflow() {
    let p = project();
    chain(p.path(), 10_000);
    let root = p.path().to_owned();
    let err = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            let mut cache = TemplateCache::new(&root);
            cache
                .get_or_load("Assets/Templates/T9999.jasset")
                .unwrap_err()
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(reason(&err).contains("deeper than"), "{err}");
}

#[test]
fn the_template_size_limit_is_configurable_and_inclusive() {
    let p = project();
    let text = "Kind: Inert\nMass: 2.0\n";
    let size = text.len() as u64;
    fs::write(p.path().join("Assets/Templates/Rock.jasset"), text).unwrap();

    let mut cache = TemplateCache::new(p.path());
    assert_eq!(
        cache.max_file_size(),
        juliet_entities::template::DEFAULT_MAX_TEMPLATE_SIZE
    );
    cache.set_max_file_size(size - 1);
    let err = cache
        .get_or_load("Assets/Templates/Rock.jasset")
        .unwrap_err();
    assert!(
        reason(&err).contains(&format!(
            "{size} bytes, over the limit of {} bytes",
            size - 1
        )),
        "{err}"
    );
    assert_eq!(cache.len(), 0);

    // Exactly the limit loads.
    cache.set_max_file_size(size);
    let rock = cache.get_or_load("Assets/Templates/Rock.jasset").unwrap();
    assert_eq!(rock.class().name(), "Inert");
}

#[test]
fn world_load_applies_its_size_limit_to_templates() {
    let p = project();
    let template = format!("Kind: Inert\n# {}\nMass: 2.0\n", "x".repeat(400));
    fs::write(p.path().join("Assets/Templates/Big.jasset"), &template).unwrap();
    // The instance file is small: only the template is over the limit.
    let instance = "; EntityID\n0x0000000000000001\n; Template\nAssets/Templates/Big.jasset\n";
    assert!((instance.len() as u64) < 200 && template.len() > 200);
    let entities = p.path().join("Assets/Worlds/W/Entities");
    fs::write(entities.join("A.jasset"), instance).unwrap();

    let options = LoadOptions {
        max_file_size: 200,
        ..LoadOptions::default()
    };
    let (world, report) = World::load(p.path().join("Assets/Worlds/W"), &options).unwrap();
    assert_eq!(world.manager().len(), 0);
    assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
    let err = &report.errors[0];
    assert!(reason(err).contains("over the limit of 200 bytes"), "{err}");
    assert_eq!(
        (err.location.line, err.location.column, err.key.as_deref()),
        (3, 3, Some("Template"))
    );

    // With the default limit the same world loads.
    let (world, report) =
        World::load(p.path().join("Assets/Worlds/W"), &LoadOptions::default()).unwrap();
    assert!(report.is_clean(), "{:?}", report.errors);
    assert_eq!(world.manager().len(), 1);
}
