//! A file with several bad values is reported with every one of them, each at its own
//! line and column, by `World::load` (docs/design.md, section 2.6).

use std::fs;

use juliet_core::ErrorKind;
use juliet_entities::{LoadOptions, World};

/// Three bad values, on lines 6, 8 and 12, with a good one between them.
const THREE_BAD: &str = "; EntityID\n0x0000000000000001\n; Kind\nInert\n; Mass\nheavy\n\
                         ; Scale\n1 2\n; Health\n50.0\n; IsVisible\nmaybe\n";

#[test]
fn three_bad_values_give_three_errors_in_the_load_report() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("Entities");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("rock.jasset"), THREE_BAD).unwrap();
    fs::write(
        dir.join("good.jasset"),
        "; EntityID\n0x0000000000000002\n; Kind\nInert\n; Mass\n1.0\n",
    )
    .unwrap();
    let (world, report) = World::load(root.path(), &LoadOptions::default()).unwrap();
    assert_eq!(report.loaded, 1, "the good file still loads");
    assert_eq!(world.manager().len(), 1);
    let found: Vec<(u32, u32, Option<&str>)> = report
        .errors
        .iter()
        .map(|e| (e.location.line, e.location.column, e.key.as_deref()))
        .collect();
    assert_eq!(
        found,
        [
            (6, 1, Some("Mass")),
            (8, 1, Some("Scale")),
            (12, 1, Some("IsVisible"))
        ],
        "{:#?}",
        report.errors
    );
    assert!(report
        .errors
        .iter()
        .all(|e| matches!(e.kind, ErrorKind::BadValue { .. })
            && e.location.path.ends_with("rock.jasset")));
    assert!(report.errors[2]
        .to_string()
        .contains("expected bool (true or false), found \"maybe\""));
    // The broken file is one failed file: left untouched, not half loaded.
    assert_eq!(world.untouched_files().len(), 1);
}

#[test]
fn a_file_with_one_bad_value_gives_one_error() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("Entities");
    fs::create_dir_all(&dir).unwrap();
    let one = THREE_BAD
        .replace("heavy", "2.0")
        .replace("1 2\n", "1 2 3\n");
    fs::write(dir.join("rock.jasset"), one).unwrap();
    let (_, report) = World::load(root.path(), &LoadOptions::default()).unwrap();
    assert_eq!(report.errors.len(), 1, "{:#?}", report.errors);
    assert_eq!(report.errors[0].location.line, 12);
}
