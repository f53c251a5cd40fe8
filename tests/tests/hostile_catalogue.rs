//! The hostile-input catalogue: every file under `tests/hostile/` is a broken entity
//! file that names, in a `# expect:` comment, the error it must give (kind, line,
//! column, key, the first line of a duplicate, words of the message), or in
//! `# expect-warning:` the warning it must give while loading. A directory is a project
//! (its `Entities/` files are the world, its `Assets/Templates/` the templates) for the
//! errors that need several files. Each is loaded through `World::load`, as a game
//! would, with a 4096-byte file size limit; every file without an expectation must
//! load (nothing else is lost).
//!
//! The catalogue is documented in `docs/jasset-format.md`, section "Hostile input".

use std::fs;
use std::path::{Path, PathBuf};

use juliet_core::{Error, ErrorKind, Warning};
use juliet_entities::{Codec, Entity, LoadOptions, World};

/// A team, for the `UnknownVariant` entry.
#[derive(Codec, Clone, Copy, PartialEq, Debug, Default)]
enum Team {
    #[default]
    Neutral,
    Red,
    Blue,
}

/// A kind with an enum field, for the `UnknownVariant` entry.
#[derive(Entity)]
struct HostileFlag {
    team: Team,
}

/// The file size limit of the catalogue's loads.
const LIMIT: u64 = 4096;

fn hostile_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("hostile")
}

/// One `# expect:` line.
#[derive(Debug, PartialEq)]
struct Expect {
    warning: bool,
    kind: String,
    line: u32,
    column: u32,
    key: Option<String>,
    first: Option<u32>,
    /// Words the message must contain (`_` for spaces in the file).
    says: Option<String>,
}

fn parse_expect(bytes: &[u8]) -> Option<Expect> {
    let text = String::from_utf8_lossy(bytes);
    let (warning, rest) = text.lines().find_map(|l| {
        let l = l.trim_start_matches('\u{feff}');
        if let Some(r) = l.strip_prefix("# expect: ") {
            Some((false, r.to_owned()))
        } else {
            l.strip_prefix("# expect-warning: ")
                .map(|r| (true, r.to_owned()))
        }
    })?;
    let mut words = rest.split_whitespace();
    let kind = words.next().unwrap().to_owned();
    let (line, column) = words.next().unwrap().split_once(':').unwrap();
    let mut expect = Expect {
        warning,
        kind,
        line: line.parse().unwrap(),
        column: column.parse().unwrap(),
        key: None,
        first: None,
        says: None,
    };
    for w in words {
        if let Some(k) = w.strip_prefix("key=") {
            expect.key = Some(k.to_owned());
        } else if let Some(f) = w.strip_prefix("first=") {
            expect.first = Some(f.parse().unwrap());
        } else if let Some(text) = w.strip_prefix("says=") {
            expect.says = Some(text.replace('_', " "));
        } else {
            panic!("unknown expectation {w}");
        }
    }
    Some(expect)
}

/// The variant name of a `Debug` rendering (`DuplicateKey { .. }` -> `DuplicateKey`).
fn variant(debug: String) -> String {
    debug
        .split(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap()
        .to_owned()
}

fn error_kind(err: &Error) -> String {
    match &err.kind {
        ErrorKind::BadValue { reason, .. } => {
            format!("BadValue/{}", variant(format!("{reason:?}")))
        }
        kind => variant(format!("{kind:?}")),
    }
}

fn check_error(file: &Path, expect: &Expect, errors: &[Error]) {
    let found: Vec<&Error> = errors.iter().filter(|e| e.location.path == file).collect();
    assert_eq!(found.len(), 1, "{}: errors {errors:?}", file.display());
    let err = found[0];
    let got = (
        error_kind(err),
        err.location.line,
        err.location.column,
        err.key.clone(),
    );
    let want = (
        expect.kind.clone(),
        expect.line,
        expect.column,
        expect.key.clone(),
    );
    assert_eq!(got, want, "{}: {err}", file.display());
    if let Some(first) = expect.first {
        assert_eq!(
            err.kind,
            ErrorKind::DuplicateKey { first_line: first },
            "{}",
            file.display()
        );
    }
    if let Some(words) = &expect.says {
        assert!(err.to_string().contains(words), "{}: {err}", file.display());
    }
    // The message renders with the location first, as editors read it.
    let prefix = format!(
        "{}:{}:{}: error: ",
        file.display(),
        err.location.line,
        err.location.column
    );
    assert!(err.to_string().starts_with(&prefix), "{err}");
}

fn check_warning(file: &Path, expect: &Expect, warnings: &[Warning]) {
    let found: Vec<&Warning> = warnings
        .iter()
        .filter(|w| w.location.path == file)
        .collect();
    assert_eq!(found.len(), 1, "{}: warnings {warnings:?}", file.display());
    let w = found[0];
    let got = (
        variant(format!("{:?}", w.kind)),
        w.location.line,
        w.location.column,
        w.key.clone(),
    );
    let want = (
        expect.kind.clone(),
        expect.line,
        expect.column,
        expect.key.clone(),
    );
    assert_eq!(got, want, "{}: {w}", file.display());
}

/// Copies the tree `from` into `to`.
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            fs::copy(&path, &target).unwrap();
        }
    }
}

/// Loads the project of catalogue entry `entry` (a file: the one entity file of an
/// empty project; a directory: the project) and checks each entity file's
/// expectation; returns the kinds checked.
fn run_entry(entry: &Path) -> Vec<String> {
    let root = tempfile::tempdir().unwrap();
    let entities = root.path().join("Entities");
    if entry.is_dir() {
        copy_tree(entry, root.path());
    } else {
        fs::create_dir_all(&entities).unwrap();
        fs::copy(entry, entities.join(entry.file_name().unwrap())).unwrap();
    }
    let options = LoadOptions {
        max_file_size: LIMIT,
        project_root: Some(root.path().to_owned()),
        ..LoadOptions::default()
    };
    let (world, report) = World::load(root.path(), &options).unwrap();
    world.manager().check_invariants().unwrap();
    let mut files: Vec<PathBuf> = fs::read_dir(&entities)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut kinds = Vec::new();
    let mut failing = 0;
    for copy in &files {
        match parse_expect(&fs::read(copy).unwrap()) {
            Some(e) if e.warning => {
                check_warning(copy, &e, &report.warnings);
                kinds.push(format!("warning {}", e.kind));
            }
            Some(e) => {
                check_error(copy, &e, &report.errors);
                failing += 1;
                kinds.push(e.kind);
            }
            None => assert!(
                report.errors.iter().all(|e| e.location.path != *copy),
                "{} has no expectation but fails: {report:?}",
                copy.display()
            ),
        }
    }
    // Nothing else is lost: every other file loaded.
    assert_eq!(report.errors.len(), failing, "{report:?}");
    assert_eq!(report.loaded, files.len() - failing);
    kinds
}

#[test]
fn every_hostile_file_gives_its_documented_error() {
    let mut entries: Vec<PathBuf> = fs::read_dir(hostile_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() || p.extension().is_some_and(|x| x == "jasset"))
        .collect();
    entries.sort();
    let mut kinds = Vec::new();
    for entry in &entries {
        let found = run_entry(entry);
        assert!(!found.is_empty(), "{} expects nothing", entry.display());
        kinds.extend(found);
    }
    let errors = kinds.iter().filter(|k| !k.starts_with("warning")).count();
    assert!(errors >= 30, "only {errors} broken files");
    kinds.sort();
    kinds.dedup();
    assert!(kinds.len() >= 26, "only {} kinds: {kinds:?}", kinds.len());
}

/// `docs/jasset-format.md` lists every catalogue file.
#[test]
fn the_format_doc_lists_every_catalogue_file() {
    let doc = fs::read_to_string(hostile_dir().join("../../docs/jasset-format.md")).unwrap();
    let section = &doc[doc.find("## 8. Hostile input").expect("the section")..];
    let mut stack = vec![hostile_dir()];
    let mut count = 0;
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if parse_expect(&fs::read(&path).unwrap()).is_some() {
                let name = path.strip_prefix(hostile_dir()).unwrap();
                let name = name.to_string_lossy().replace('\\', "/");
                assert!(
                    section.contains(&format!("| `{name}` |")),
                    "{name} is not listed"
                );
                count += 1;
            }
        }
    }
    assert!(count >= 50, "{count}");
}

/// The catalogue's own reader finds what the files say (so that a typo in an
/// expectation cannot make an entry check nothing).
#[test]
fn expectations_parse() {
    assert_eq!(
        parse_expect(b"\xEF\xBB\xBF# expect: DuplicateKey 3:5 key=health first=2\r\n"),
        Some(Expect {
            warning: false,
            kind: "DuplicateKey".into(),
            line: 3,
            column: 5,
            key: Some("health".into()),
            first: Some(2),
            says: None,
        })
    );
    assert_eq!(parse_expect(b"Kind: Inert\n"), None);
    assert_eq!(
        variant("DuplicateKey { first_line: 2 }".into()),
        "DuplicateKey"
    );
}
