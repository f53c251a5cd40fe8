//! `jasset set FILE Key=Value... [--unset Key]...` end to end: the built binary edits one
//! entity file in place, checks each value with the property's codec, and writes nothing
//! when anything is refused.

mod common;
use common::{jasset, text};

use std::fs;
use std::path::PathBuf;
use std::process::Command;

const ROCK: &str = "; Kind: Inert\nMass: 250.0\nHealth: 100.0\n";
const INSTANCE: &str = "# placed by hand\n; Template: Assets/Templates/Rock.jasset\nEntityID: 0x0000000000000010\n\n// tuned\nHealth: 40.0\n";
const PLAIN: &str = "; EntityID\r\n0x0000000000000011\r\n; Kind\r\nInert\r\n# heavy\r\n; Mass\r\n900.00\r\n; IsVisible: 1\r\n";

fn project() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let templates = dir.path().join("Assets/Templates");
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    fs::create_dir_all(&templates).unwrap();
    fs::create_dir_all(&entities).unwrap();
    fs::write(templates.join("Rock.jasset"), ROCK).unwrap();
    let instance = entities.join("rock.jasset");
    fs::write(&instance, INSTANCE).unwrap();
    let plain = entities.join("plain.jasset");
    fs::write(&plain, PLAIN).unwrap();
    (dir, instance, plain)
}

/// An added line ends as most lines of the whole file do, when those are in a run of
/// unknown keys that the edit is worked out without.
#[test]
fn an_added_line_ends_as_most_lines_of_the_whole_file_do() {
    let (dir, _, plain) = project();
    let head = "; EntityID: 0x0000000000000011\n; Kind: Inert\nMass: 2\n";
    let unknown = "Unk1: 1\r\nUnk2: 2\r\nUnk3: 3\r\nUnk4: 4\r\nUnk5: 5\r\n";
    fs::write(&plain, format!("{head}{unknown}")).unwrap();
    let file = "Assets/Worlds/L/Entities/plain.jasset";
    let out = jasset(dir.path(), &["set", file, "Health=7"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        fs::read_to_string(&plain).unwrap(),
        format!("{head}Health: 7.0\r\n{unknown}")
    );
}

/// A file that writes vectors with commas keeps them: the vector set, and a new one,
/// are written with the file's separator; a new property among `Key: value` lines is a
/// `Key: value` line.
#[test]
fn set_writes_the_files_separators_and_line_forms() {
    let (dir, _, plain) = project();
    let original = "; Kind: Inert\nEntityID: 0x0000000000000011\nPosition: 1, 2, 3\nHealth: 5.0\n";
    fs::write(&plain, original).unwrap();
    let file = "Assets/Worlds/L/Entities/plain.jasset";
    let out = jasset(
        dir.path(),
        &["set", file, "Position=4,5,6", "Scale=2 2 2", "Mass=300"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        fs::read_to_string(&plain).unwrap(),
        "; Kind: Inert\nEntityID: 0x0000000000000011\nPosition: 4.0, 5.0, 6.0\n\
         Scale: 2.0, 2.0, 2.0\nMass: 300.0\nHealth: 5.0\n"
    );
    // Commas without blanks stay so; a vector written with blanks keeps them.
    let tight =
        "; Kind\nInert\n; EntityID\n0x0000000000000011\n; Position\n1,2,3\n; Scale\n1 1 1\n";
    fs::write(&plain, tight).unwrap();
    let out = jasset(dir.path(), &["set", file, "Position=7 8 9", "Scale=3,3,3"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        fs::read_to_string(&plain).unwrap(),
        tight
            .replace("1,2,3", "7.0,8.0,9.0")
            .replace("1 1 1", "3.0 3.0 3.0")
    );
}

#[test]
fn set_changes_only_the_lines_of_the_set_values() {
    let (dir, _, plain) = project();
    let out = jasset(
        dir.path(),
        &[
            "set",
            "Assets/Worlds/L/Entities/plain.jasset",
            "Mass=300",
            "IsVisible=false",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        fs::read_to_string(&plain).unwrap(),
        "; EntityID\r\n0x0000000000000011\r\n; Kind\r\nInert\r\n# heavy\r\n; Mass\r\n300.0\r\n; IsVisible: false\r\n"
    );
    // The same value again: nothing to write.
    let out = jasset(
        dir.path(),
        &["set", "Assets/Worlds/L/Entities/plain.jasset", "Mass=300.0"],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out).contains("unchanged"), "{}", text(&out));
}

#[test]
fn set_adds_an_override_and_unset_reverts_it() {
    let (dir, instance, _) = project();
    let file = "Assets/Worlds/L/Entities/rock.jasset";
    let out = jasset(dir.path(), &["set", file, "Mass=300"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let edited = fs::read_to_string(&instance).unwrap();
    assert_eq!(
        edited.lines().count(),
        INSTANCE.lines().count() + 1,
        "{edited}"
    );
    assert!(edited.contains("Mass: 300.0\n"), "{edited}");
    for line in INSTANCE.lines() {
        assert!(edited.lines().any(|l| l == line), "{line:?} kept");
    }

    let out = jasset(
        dir.path(),
        &["set", file, "--unset", "Mass", "--unset", "health"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let reverted = fs::read_to_string(&instance).unwrap();
    assert_eq!(
        reverted,
        "# placed by hand\n; Template: Assets/Templates/Rock.jasset\nEntityID: 0x0000000000000010\n\n// tuned\n"
    );
}

#[test]
fn a_bad_value_or_key_is_reported_and_nothing_is_written() {
    let (dir, _, plain) = project();
    let file = "Assets/Worlds/L/Entities/plain.jasset";
    for (pair, expect) in [
        ("Mass=heavy", "Mass"),
        ("Mas=1.0", "Mas"),
        ("Mass=1e39", "Mass"),
    ] {
        let out = jasset(dir.path(), &["set", file, "Health=1.0", pair]);
        assert_eq!(out.status.code(), Some(1), "{pair}: {}", text(&out));
        let said = text(&out);
        assert!(
            said.contains("plain.jasset") && said.contains(expect),
            "{pair}: {said}"
        );
        assert_eq!(fs::read_to_string(&plain).unwrap(), PLAIN, "{pair}");
    }
    // A misspelt key is named with the key it most likely means.
    let out = jasset(dir.path(), &["set", file, "Mas=1.0"]);
    assert!(
        text(&out).contains("did you mean `Mass`?"),
        "{}",
        text(&out)
    );
    // A pair without `=`, or with a key that is no identifier, is a usage error.
    for args in [&["Mass"][..], &["Ma ss=5"], &["--unset", "9Lives"]] {
        let out = jasset(dir.path(), &[&["set", file][..], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert_eq!(fs::read_to_string(&plain).unwrap(), PLAIN, "{args:?}");
    }
    // A file that is neither in a world's Entities folder nor a template is refused.
    fs::write(dir.path().join("loose.jasset"), "; Kind: Inert\n").unwrap();
    let out = jasset(dir.path(), &["set", "loose.jasset", "Mass=1"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("not a world entity file or a template"),
        "{}",
        text(&out)
    );
}

/// `set` on a template edits its lines in place, and its instances take each new value
/// they do not override: `inspect` of an instance that overrides `Health` but not
/// `Mass` shows the template's new `Mass` and its own `Health`, and its file is as it
/// was.
#[test]
fn set_on_a_template_is_followed_by_its_instances() {
    let (dir, instance, _) = project();
    let template = "Assets/Templates/Rock.jasset";
    let out = jasset(dir.path(), &["set", template, "Mass=300", "Health=90"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(text(&out), format!("edited {template}\n"));
    assert_eq!(
        fs::read_to_string(dir.path().join(template)).unwrap(),
        "; Kind: Inert\nMass: 300.0\nHealth: 90.0\n"
    );
    assert_eq!(fs::read_to_string(&instance).unwrap(), INSTANCE);
    let rock = "Assets/Worlds/L/Entities/rock.jasset";
    let out = jasset(dir.path(), &["inspect", "--json", rock]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["properties"]["Mass"], 300.0, "{json}");
    assert_eq!(json["properties"]["Health"], 40.0, "{json}");

    // A misspelt key gets a did-you-mean, a bad value its key, and nothing is written.
    for (pair, said) in [
        (
            "Mas=1",
            "Rock.jasset:0:0: error: class `Inert` has no property `Mas` (did you mean `Mass`?)",
        ),
        ("Mass=heavy", "Rock.jasset:2:1: error:"),
    ] {
        let out = jasset(dir.path(), &["set", template, pair]);
        assert_eq!(out.status.code(), Some(1), "{pair}: {}", text(&out));
        assert!(text(&out).contains(said), "{pair}: {}", text(&out));
        assert!(
            text(&out).contains("nothing written"),
            "{pair}: {}",
            text(&out)
        );
    }
    assert_eq!(
        fs::read_to_string(dir.path().join(template)).unwrap(),
        "; Kind: Inert\nMass: 300.0\nHealth: 90.0\n"
    );
}

/// A template variant (a template with a `Template` line) reverts a property to its
/// parent's value with `--unset`; a template without a parent refuses, saying why. A
/// template outside `Assets/Templates` is set once a `Template` line names it.
#[test]
fn unset_on_a_template_variant_reverts_to_its_parent() {
    let (dir, _, _) = project();
    let variant = "Assets/Templates/RockHeavy.jasset";
    fs::write(
        dir.path().join(variant),
        "; Template: Assets/Templates/Rock.jasset\n# heavier\nMass: 900.0\n",
    )
    .unwrap();
    let out = jasset(dir.path(), &["set", variant, "--unset", "Mass", "Health=7"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        fs::read_to_string(dir.path().join(variant)).unwrap(),
        "; Template: Assets/Templates/Rock.jasset\n# heavier\nHealth: 7.0\n"
    );
    // A template elsewhere, named by a `Template` line, is a template too.
    let elsewhere = "Assets/Props/Crate.jasset";
    fs::create_dir_all(dir.path().join("Assets/Props")).unwrap();
    fs::write(dir.path().join(elsewhere), "; Kind: Inert\nMass: 5.0\n").unwrap();
    let out = jasset(dir.path(), &["set", elsewhere, "Mass=6"]);
    assert_eq!(out.status.code(), Some(2), "not named yet: {}", text(&out));
    fs::write(
        dir.path().join("Assets/Worlds/L/Entities/crate.jasset"),
        format!("; Template: {elsewhere}\nEntityID: 0x0000000000000020\n"),
    )
    .unwrap();
    let out = jasset(dir.path(), &["set", elsewhere, "Mass=6"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        fs::read_to_string(dir.path().join(elsewhere)).unwrap(),
        "; Kind: Inert\nMass: 6.0\n"
    );
    let root = "Assets/Templates/Rock.jasset";
    let out = jasset(dir.path(), &["set", root, "--unset", "Mass"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains(&format!(
            "Rock.jasset:2:1: error: template `{root}`: no `Template` line, so no parent \
             template to revert `Mass` to"
        )),
        "{}",
        text(&out)
    );
    assert_eq!(fs::read_to_string(dir.path().join(root)).unwrap(), ROCK);
}

/// A property named twice, in any spelling or as a set and an unset, is a usage error,
/// and nothing is written.
#[test]
fn a_property_named_twice_is_a_usage_error() {
    let (dir, instance, plain) = project();
    let file = "Assets/Worlds/L/Entities/plain.jasset";
    for pairs in [
        &["Mass=1", "Mass=2"][..],
        &["Mass=1", "mass=3"][..],
        &["IsVisible=true", "is_visible=false"][..],
        // A base key and its alias.
        &["EntityID=0x5", "id=0x6"][..],
    ] {
        let out = jasset(dir.path(), &[&["set", file][..], pairs].concat());
        assert_eq!(out.status.code(), Some(2), "{pairs:?}: {}", text(&out));
        let said = format!(
            "jasset: error: `{}`: the property is already named as `{}`; give each property once\n",
            pairs[1].split('=').next().unwrap(),
            pairs[0].split('=').next().unwrap()
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr), said, "{pairs:?}");
        assert_eq!(fs::read_to_string(&plain).unwrap(), PLAIN, "{pairs:?}");
    }
    let rock = "Assets/Worlds/L/Entities/rock.jasset";
    let out = jasset(dir.path(), &["set", rock, "Health=1", "--unset", "health"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert_eq!(fs::read_to_string(&instance).unwrap(), INSTANCE);
}

/// A value is trimmed of spaces and tabs only, as the file reader trims a value line: a
/// no-break space is part of the value.
#[test]
fn a_value_keeps_what_the_file_reader_keeps() {
    let (dir, _, plain) = project();
    let file = "Assets/Worlds/L/Entities/plain.jasset";
    let out = jasset(dir.path(), &["set", file, "Mass= \t300\t"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(fs::read_to_string(&plain)
        .unwrap()
        .contains("\r\n300.0\r\n"));
    let out = jasset(dir.path(), &["set", file, "Mass=\u{a0}5"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
}

/// A bad value or a refused revert is located at the key's line and column in the file
/// when the file sets the property, at the whole file (`:0:0`) when it does not. A
/// revert of a key the class does not have names the key, even on an entity that is no
/// instance.
#[test]
fn an_error_is_located_at_the_key_the_file_sets() {
    let (dir, _, _) = project();
    let file = "Assets/Worlds/L/Entities/plain.jasset";
    // `; Mass` is line 6, its key at column 3; `; IsVisible: 1` is line 8.
    for (pair, at) in [
        ("Mass=heavy", "plain.jasset:6:3: error: `Mass`"),
        ("is_visible=maybe", "plain.jasset:8:3: error:"),
        ("Health=lots", "plain.jasset:0:0: error:"),
        (
            "--unset=Mass",
            "plain.jasset:6:3: error: entity 0x0000000000000011 is not an instance",
        ),
        (
            "--unset=Bogus",
            "plain.jasset:0:0: error: class `Inert` has no property `Bogus`",
        ),
    ] {
        let out = jasset(dir.path(), &["set", file, pair]);
        assert_eq!(out.status.code(), Some(1), "{pair}: {}", text(&out));
        assert!(text(&out).contains(at), "{pair}: {}", text(&out));
    }
}

/// `KEY=` with no value and a FILE that is no `.jasset` file are usage errors; a
/// read-only FILE is named as given and said not written.
#[test]
fn an_empty_value_a_foreign_file_and_a_read_only_file_are_named() {
    let (dir, _, plain) = project();
    let file = "Assets/Worlds/L/Entities/plain.jasset";
    let out = jasset(dir.path(), &["set", file, "Mass= "]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("no value after `=`"), "{}", text(&out));
    let notes = dir.path().join("Assets/Worlds/L/Entities/notes.txt");
    fs::write(&notes, "; Mass: 1\n").unwrap();
    let out = jasset(
        dir.path(),
        &["set", "Assets/Worlds/L/Entities/notes.txt", "Mass=1"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("not a world entity file"),
        "{}",
        text(&out)
    );
    let mut permissions = fs::metadata(&plain).unwrap().permissions();
    permissions.set_readonly(true);
    fs::set_permissions(&plain, permissions).unwrap();
    let out = jasset(dir.path(), &["set", file, "Mass=5"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{file}: read-only: not rewritten\nnot written {file}\n")
    );
    assert_eq!(fs::read_to_string(&plain).unwrap(), PLAIN);
    // The value the file holds: nothing to write, so nothing refused.
    let out = jasset(dir.path(), &["set", file, "Mass=900"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("unchanged {file}\n")
    );
}

/// Setting a file at an older version to the values its migration gives still writes
/// it: the file is brought to the current version in place and shows the value set.
#[test]
fn set_on_an_older_file_writes_it_even_when_the_value_is_the_migrated_one() {
    let (dir, _, _) = project();
    let file = dir.path().join("Assets/Worlds/L/Entities/old.jasset");
    let head = "; EntityID\n0x0000000000000012\n; Kind\nProjectile\n";
    fs::write(
        &file,
        format!("{head}; ClassVersion\n1\n; Speed\n12.5\n# up\n; VelocityY\n2.0\n"),
    )
    .unwrap();
    let out = jasset(
        dir.path(),
        &["set", "Assets/Worlds/L/Entities/old.jasset", "VelocityY=0"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).starts_with("edited "), "{}", text(&out));
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        format!("{head}; ClassVersion\n2\n; VelocityX\n12.5\n# up\n; VelocityY\n0.0\n")
    );
}

/// A value set to what a current file holds already leaves the file alone: not
/// written again (its modification time stays), and said `unchanged`.
#[test]
fn set_to_the_value_a_current_file_holds_writes_nothing() {
    let (dir, _, plain) = project();
    // A day ago: a write now would move it on any file system's clock.
    let before = std::time::SystemTime::now() - std::time::Duration::from_secs(86_400);
    let handle = fs::File::options().write(true).open(&plain).unwrap();
    handle.set_modified(before).unwrap();
    drop(handle);
    let file = "Assets/Worlds/L/Entities/plain.jasset";
    let out = jasset(dir.path(), &["set", file, "Mass=900"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).starts_with("unchanged "), "{}", text(&out));
    assert_eq!(fs::read_to_string(&plain).unwrap(), PLAIN);
    assert_eq!(fs::metadata(&plain).unwrap().modified().unwrap(), before);
}

/// A key the file holds but the class does not know is located at its line, as the
/// warning `check` gives for it is.
#[test]
fn an_unknown_key_the_file_holds_is_located() {
    let (dir, _, plain) = project();
    fs::write(&plain, format!("{PLAIN}; GlowColour: red\r\n")).unwrap();
    let file = "Assets/Worlds/L/Entities/plain.jasset";
    let out = jasset(dir.path(), &["set", file, "glow_colour=blue"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("plain.jasset:9:3: error:"),
        "{}",
        text(&out)
    );
}

/// A symbolic link in `Entities`, which the world skips and never writes, is refused:
/// the target is what to name. So are a FIFO and a folder there, as what they are
/// (they were called no world entity file), without being opened; a FIFO elsewhere is
/// no world entity file.
#[cfg(unix)]
#[test]
fn a_link_a_fifo_or_a_folder_is_refused() {
    let (dir, _, plain) = project();
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    std::os::unix::fs::symlink("plain.jasset", entities.join("link.jasset")).unwrap();
    fs::create_dir(entities.join("folder.jasset")).unwrap();
    for fifo in [entities.join("pipe.jasset"), dir.path().join("pipe.jasset")] {
        assert!(Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
    }
    for (file, said) in [
        ("Assets/Worlds/L/Entities/link.jasset", "symbolic link"),
        (
            "Assets/Worlds/L/Entities/pipe.jasset",
            "Entities/pipe.jasset: not a regular file",
        ),
        (
            "Assets/Worlds/L/Entities/folder.jasset",
            "Entities/folder.jasset: not a regular file",
        ),
        ("pipe.jasset", "pipe.jasset: not a world entity file"),
    ] {
        let out = jasset(dir.path(), &["set", file, "Mass=1"]);
        // Refused by the write path as by every writer (exit 1); outside a world's
        // `Entities`, a usage error.
        let code = if file.starts_with("Assets") { 1 } else { 2 };
        assert_eq!(out.status.code(), Some(code), "{file}: {}", text(&out));
        assert!(text(&out).contains(said), "{file}: {}", text(&out));
    }
    assert_eq!(fs::read_to_string(&plain).unwrap(), PLAIN);
}

/// [`project`] with a schema kind `Gadget` of one property (`property` is its schema
/// line) and the world entity file `Entities/g.jasset` holding `text`; the file's path
/// from the project root.
fn gadget(property: &str, text: &str) -> (tempfile::TempDir, &'static str) {
    let (dir, _, _) = project();
    let schema = format!("; AssetType\nSchema\n; Gadget\nversion 1\n{property}\n");
    fs::write(dir.path().join("jasset.schema"), schema).unwrap();
    let file = "Assets/Worlds/L/Entities/g.jasset";
    fs::write(dir.path().join(file), text).unwrap();
    (dir, file)
}

/// A `custom` value of a schema kind is kept as its lines: a line that a file would read
/// as a header or a conflict marker is refused at the key, and the file is left as it
/// was (it became a property of its own, and the file was rewritten canonical).
#[test]
fn a_custom_value_with_a_header_line_is_refused() {
    let original = "# my notes\n; Kind: Gadget\nEntityID: 0x0001000000000001\n// more\nBlob: old\n";
    let (dir, file) = gadget("property Blob custom(Thing) abc", original);
    for value in ["Blob=a\n; Zzz: 5", "Blob=<<<<<<< x", "Blob=a\n=======\nb"] {
        let out = jasset(dir.path(), &["set", file, value]);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(1), "{value:?}: {said}");
        assert!(
            said.contains("g.jasset:5:1: error: `Blob`") && said.contains("value line"),
            "{value:?}: {said}"
        );
        assert_eq!(fs::read_to_string(dir.path().join(file)).unwrap(), original);
    }
    let out = jasset(dir.path(), &["set", file, "Blob=new: text"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        fs::read_to_string(dir.path().join(file)).unwrap(),
        original.replace("Blob: old", "Blob: new: text")
    );
}

/// A list set to other elements keeps the comments between its value lines: the
/// elements are replaced line for line.
#[test]
fn a_list_keeps_the_comments_between_its_elements() {
    let original = "; Kind: Gadget\nEntityID: 0x0001000000000001\n; Tags\nalpha\n# keep me\nbeta\n";
    let (dir, file) = gadget("property Tags list(string) []", original);
    let out = jasset(dir.path(), &["set", file, "Tags=alpha\nbeta\ngamma"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        fs::read_to_string(dir.path().join(file)).unwrap(),
        format!("{original}gamma\n")
    );
}

/// A FILE that does not load is named as given in its errors, and a `.jasset` name in
/// any case is an entity file, as the world loader reads it.
#[test]
fn a_file_that_does_not_load_is_named_as_given_and_any_case_of_the_extension_is_taken() {
    let (dir, _, _) = project();
    let inert = |rel: &str, id: u64| {
        let text = format!("; Kind: Inert\nEntityID: 0x{id:016X}\n");
        fs::write(dir.path().join(rel), text).unwrap();
        jasset(dir.path(), &["set", rel, "Mass=2"])
    };
    // The id of `plain.jasset`.
    let twin = "Assets/Worlds/L/Entities/twin.jasset";
    let out = inert(twin, 0x11);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let said = text(&out);
    assert!(said.starts_with(&format!("{twin}:2:1: error:")), "{said}");
    fs::remove_file(dir.path().join(twin)).unwrap();
    let upper = "Assets/Worlds/L/Entities/UP.JASSET";
    let out = inert(upper, 0x12);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let written = fs::read_to_string(dir.path().join(upper)).unwrap();
    assert!(written.contains("Mass"), "{written}");
}

/// A value of comment lines alone has no value line: refused for a list too (which
/// would read it as the empty list), as a block without a value line is in a file.
#[test]
fn a_value_of_comments_alone_is_refused_for_a_list_too() {
    let original = "; Kind: Gadget\nEntityID: 0x0001000000000001\nNums: 1\n";
    let (dir, file) = gadget("property Nums list(u32) []", original);
    for value in ["Nums=#x", "Nums=//x", "Nums=# a\n// b"] {
        let out = jasset(dir.path(), &["set", file, value]);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(1), "{value:?}: {said}");
        assert!(
            said.contains("g.jasset:3:1: error: `Nums`"),
            "{value:?}: {said}"
        );
        assert_eq!(fs::read_to_string(dir.path().join(file)).unwrap(), original);
    }
}

/// Run from inside the `Entities` folder, `set` names a file that does not load as it
/// was given.
#[test]
fn a_file_given_from_its_own_folder_is_named_so() {
    let (dir, _, _) = project();
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    fs::write(entities.join("bad.jasset"), "; Kind: Inert\nMass: heavy\n").unwrap();
    let out = jasset(&entities, &["set", "bad.jasset", "Health=1"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).starts_with("bad.jasset:2:7: error:"),
        "{}",
        text(&out)
    );
}

/// A file without `EntityID` is written with the id it gets for the session, drawn from
/// a random prefix (docs/design.md, section 5.4): the same file set on two branches
/// gets two different ids, neither of the plain counter's block, so the branches merge
/// without a duplicate id.
#[test]
fn a_file_without_an_id_gets_one_of_a_random_prefix() {
    let mut ids = Vec::new();
    for value in ["2", "3"] {
        let (dir, _, _) = project();
        let file = "Assets/Worlds/L/Entities/new.jasset";
        fs::write(dir.path().join(file), "Kind: Inert\nMass: 1\n").unwrap();
        let out = jasset(dir.path(), &["set", file, &format!("Mass={value}")]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        let written = fs::read_to_string(dir.path().join(file)).unwrap();
        let id = written
            .lines()
            .find_map(|l| l.strip_prefix("EntityID: 0x"))
            .unwrap_or_else(|| panic!("no EntityID line in {written:?}"));
        let id = u64::from_str_radix(id, 16).unwrap();
        assert_ne!(id >> 32, 0, "an id of the plain counter: {id:#x}");
        assert!(
            written.ends_with(&format!("Kind: Inert\nMass: {value}.0\n")),
            "{written}"
        );
        ids.push(id);
    }
    assert_ne!(ids[0], ids[1]);
}

/// `set` writes FILE alone: another file of the world without `EntityID` (which a save
/// of the whole world would give its session id) is left as it is, even a read-only one.
#[test]
fn set_writes_no_other_file_of_the_world() {
    let (dir, _, plain) = project();
    let other = dir.path().join("Assets/Worlds/L/Entities/other.jasset");
    let text_of_other = "; Kind: Inert\nMass: 1\n";
    fs::write(&other, text_of_other).unwrap();
    let file = "Assets/Worlds/L/Entities/plain.jasset";
    let out = jasset(dir.path(), &["set", file, "Mass=2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(fs::read_to_string(&other).unwrap(), text_of_other);
    assert!(fs::read_to_string(&plain).unwrap().contains("\r\n2.0\r\n"));
    let mut perms = fs::metadata(&other).unwrap().permissions();
    perms.set_readonly(true);
    fs::set_permissions(&other, perms).unwrap();
    let out = jasset(dir.path(), &["set", file, "Mass=3"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(!text(&out).contains("read-only"), "{}", text(&out));
    assert_eq!(fs::read_to_string(&other).unwrap(), text_of_other);
}

/// A composite's leaf is set by its path, as the class (here from a game's schema) keys
/// it; one line changes.
#[test]
fn a_leaf_is_set_by_its_path_and_a_misspelt_path_gets_a_did_you_mean() {
    let dir = tempfile::tempdir().unwrap();
    let schema = "; AssetType\nSchema\n; Guard\nversion 1\n\
                  property Stats.Hp f32 0.0\nproperty Stats.Armor f32 0.0\n";
    fs::write(dir.path().join("jasset.schema"), schema).unwrap();
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    fs::create_dir_all(&entities).unwrap();
    let guard =
        "; EntityID\n0x0000000000000012\n; Kind\nGuard\n; Stats.Hp\n100.0\n; Stats.Armor\n5.0\n";
    fs::write(entities.join("guard.jasset"), guard).unwrap();
    let file = "Assets/Worlds/L/Entities/guard.jasset";

    let out = jasset(dir.path(), &["set", file, "Stats.Armor=7.5"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let after = fs::read_to_string(entities.join("guard.jasset")).unwrap();
    assert_eq!(after, guard.replace("5.0", "7.5"));

    let out = jasset(dir.path(), &["set", file, "Stats.Hq=1"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("did you mean `Stats.Hp`?"),
        "{}",
        text(&out)
    );
    assert_eq!(
        fs::read_to_string(entities.join("guard.jasset")).unwrap(),
        after
    );
}

/// An element of a list or a map is set by `Key[index]` or `Key[map key]`, a leaf of a
/// record element by `Key[index].Leaf`: the line of that leaf alone changes, and a path
/// the property does not have is an error at its key with nothing written.
#[test]
fn an_element_and_a_leaf_of_a_record_element_are_set_by_their_paths() {
    let dir = tempfile::tempdir().unwrap();
    let schema = "; AssetType\nSchema\n; Patrol\nversion 1\n\
                  property Route list(record(Waypoint)) []\n\
                  property Weights map(string,f32) {}\n";
    fs::write(dir.path().join("jasset.schema"), schema).unwrap();
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    fs::create_dir_all(&entities).unwrap();
    let patrol = "; EntityID\n0x0000000000000012\n; Kind\nPatrol\n\
                  ; Route\n-\nWait: 1.0\nPos: 0.0 0.0 0.0\n-\nWait: 2.0\n\
                  ; Weights\nrock: 1.0\n";
    let path = entities.join("patrol.jasset");
    fs::write(&path, patrol).unwrap();
    let file = "Assets/Worlds/L/Entities/patrol.jasset";

    let out = jasset(dir.path(), &["set", file, "Route[1].Wait=3.5"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let after = fs::read_to_string(&path).unwrap();
    assert_eq!(after, patrol.replace("Wait: 2.0", "Wait: 3.5"));

    let out = jasset(dir.path(), &["set", file, "Weights[big tree]=0.25"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let after = fs::read_to_string(&path).unwrap();
    assert!(
        after.ends_with("; Weights\n\"big tree\": 0.25\nrock: 1.0\n"),
        "{after}"
    );

    // Each error is at its property's key: `Route` on line 5, `Weights` on line 11.
    for (key, says, at) in [
        ("Route[2].Wait=1", "the list has 2 elements", ":5:3:"),
        ("Route[0]=1", "Route[0].Leaf=value", ":5:3:"),
        ("Weights[rock].X=1", "no leaf `X`", ":11:3:"),
    ] {
        let out = jasset(dir.path(), &["set", file, key]);
        assert_eq!(out.status.code(), Some(1), "{key}: {}", text(&out));
        assert!(text(&out).contains(says), "{key}: {}", text(&out));
        assert!(text(&out).contains(at), "{key}: {}", text(&out));
    }
    let out = jasset(dir.path(), &["set", file, "Route[1.Wait=1"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert_eq!(fs::read_to_string(&path).unwrap(), after);
}
