//! A file that names its class by an alias (`#[jasset(name = "Monster2", alias =
//! "Monster")]`, here through a game's `jasset.schema`) is written with the class's
//! current name when the stock tool edits it (`set`) or brings it to the current
//! versions (`migrate`): that line changes, and nothing else does.

mod common;
use common::{jasset, text};

use std::fs;

const SCHEMA: &str = "; AssetType\nSchema\n; Monster2\nversion 1\nalias Monster\n\
                      property Health i32 10\nproperty Mass f32 1.0\n";
const LEVEL: &str = "Assets/Worlds/L/Entities";

/// A project of the schema and the world files `files` (name, text).
fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("jasset.schema"), SCHEMA).unwrap();
    fs::create_dir_all(dir.path().join(LEVEL)).unwrap();
    fs::create_dir_all(dir.path().join("Assets/Templates")).unwrap();
    for (name, text) in files {
        fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

#[test]
fn set_writes_the_current_class_name_of_an_aliased_kind() {
    let orc = "# an orc\n; Kind: Monster\nEntityID: 0x0000000000000021\n\nHealth: 5\n";
    let file = "Assets/Worlds/L/Entities/orc.jasset";
    let dir = project(&[(file, orc)]);
    let out = jasset(dir.path(), &["set", file, "Health=6"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        fs::read_to_string(dir.path().join(file)).unwrap(),
        "# an orc\n; Kind: Monster2\nEntityID: 0x0000000000000021\n\nHealth: 6\n"
    );
}

#[test]
fn migrate_writes_the_current_class_name_and_changes_nothing_else() {
    let block = "; Kind\nmonster\n# keep\n; EntityID\n0x0000000000000022\n; Mass\n2.0\n";
    let template = "// an orc\n; Kind: Monster\nHealth: 50\n";
    // Another spelling of the current name is no alias: left as written.
    let current = "; Kind: monster2\nEntityID: 0x0000000000000023\n";
    let files = [
        ("Assets/Worlds/L/Entities/a.jasset", block),
        ("Assets/Templates/Orc.jasset", template),
        ("Assets/Worlds/L/Entities/b.jasset", current),
    ];
    let dir = project(&files);
    let out = jasset(dir.path(), &["migrate", "Assets"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("2 files migrated, 1 already current")
            && text(&out).contains("  Kind: monster -> Monster2\n")
            && text(&out).contains("  Kind: Monster -> Monster2\n"),
        "{}",
        text(&out)
    );
    let read = |name: &str| fs::read_to_string(dir.path().join(name)).unwrap();
    assert_eq!(read(files[0].0), block.replace("monster", "Monster2"));
    assert_eq!(read(files[1].0), template.replace("Monster", "Monster2"));
    assert_eq!(read(files[2].0), current);
    // Done: a second run finds every file current.
    let out = jasset(dir.path(), &["migrate", "Assets"]);
    assert!(
        text(&out).contains("0 files migrated, 3 already current"),
        "{}",
        text(&out)
    );
}
