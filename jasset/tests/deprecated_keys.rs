//! A deprecated key is read only by a migration. One that no migration read (the file is
//! already at the class's version, or has no `ClassVersion` and so is read as the
//! current version) is kept as an unknown key, with a warning that names it: a value
//! the migration did not move never vanishes from the file.

use std::fs;
use std::path::Path;
use std::process::Command;

use juliet_core::WarningKind;
use juliet_entities::kinds::Projectile;
use juliet_entities::{load_entity, save_entity, EntityManager};

fn projectile(body: &str) -> String {
    format!("; EntityID\n0x0000000000000042\n; Kind\nProjectile\n{body}")
}

#[test]
fn an_unread_deprecated_key_is_kept_and_named_in_a_warning() {
    for body in ["; Speed\n75.5\n", "; ClassVersion\n2\n; Speed\n75.5\n"] {
        let text = projectile(body);
        let mut manager = EntityManager::new();
        let loaded = load_entity(&mut manager, Path::new("p.jasset"), text.as_bytes()).unwrap();
        assert_eq!(
            manager.get::<Projectile>(loaded.id).unwrap().velocity_x,
            0.0
        );
        let named = loaded
            .warnings
            .iter()
            .any(|w| matches!(&w.kind, WarningKind::UnknownKey(k) if k == "Speed"));
        assert!(named, "{body}: {:?}", loaded.warnings);
        let mut saved = String::new();
        save_entity(&manager, loaded.id, &loaded.data, &mut saved).unwrap();
        assert!(saved.ends_with("; Speed\n75.5\n"), "{saved}");
    }
}

#[test]
fn a_migration_consumes_the_deprecated_key_it_reads() {
    let text = projectile("; ClassVersion\n1\n; Speed\n75.5\n");
    let mut manager = EntityManager::new();
    let loaded = load_entity(&mut manager, Path::new("p.jasset"), text.as_bytes()).unwrap();
    assert_eq!(
        manager.get::<Projectile>(loaded.id).unwrap().velocity_x,
        75.5
    );
    assert!(loaded.data.unknown.is_empty());
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
}

#[test]
fn fmt_and_migrate_keep_an_unread_deprecated_key() {
    let dir = tempfile::tempdir().unwrap();
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    fs::create_dir_all(&entities).unwrap();
    let file = entities.join("0000000000000042.jasset");
    let jasset = env!("CARGO_BIN_EXE_jasset");
    for args in [
        &["migrate", "--dry-run", "Assets"][..],
        &["migrate", "Assets"],
        &["fmt", "Assets"],
    ] {
        fs::write(&file, projectile("; ClassVersion\n2\n; Speed\n75.5\n")).unwrap();
        let out = Command::new(jasset)
            .args(args)
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{args:?}: {stdout}");
        assert!(
            !stdout.contains("consumed by the migration"),
            "{args:?}: {stdout}"
        );
        let text = fs::read_to_string(&file).unwrap();
        assert!(text.contains("; Speed\n75.5\n"), "{args:?}: {text}");
    }
}

/// The text of a project's one entity file, written as `text`, after `jasset migrate`.
fn migrated(text: &str) -> String {
    migrated_at("Assets/Worlds/L/Entities/0000000000000042.jasset", text)
}

/// The text of a project's one file, at `rel` and written as `text`, after
/// `jasset migrate`.
fn migrated_at(rel: &str, text: &str) -> String {
    migrate_one(rel, text).0
}

/// `jasset migrate` of a project whose one file, at `rel`, is written as `text`: the
/// file's text after it, and what the command printed (it must succeed).
fn migrate_one(rel: &str, text: &str) -> (String, String) {
    migrate_files(&[(rel, text)])
}

/// `jasset migrate` of a project of `files` (path under the project, text): the text of
/// the first after it, and what the command printed (it must succeed).
fn migrate_files(files: &[(&str, &str)]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let file = dir.path().join(rel);
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(&file, text).unwrap();
    }
    let file = dir.path().join(files[0].0);
    let out = Command::new(env!("CARGO_BIN_EXE_jasset"))
        .args(["migrate", "Assets"])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    (fs::read_to_string(&file).unwrap(), said)
}

/// `jasset migrate` edits in place: the version line and the migrated keys change,
/// nothing else (comments, spellings and other lines stay).
#[test]
fn migrate_edits_the_file_in_place() {
    let text = "# the old cannon\n; entity_id: 0x42\n; class: Projectile\n; ClassVersion\n1\n// fast\n; Speed\n75.5\n; damage: 60\n";
    // The new key where the deprecated one stood, under its comment: only the version
    // line and the replaced property's header change.
    assert_eq!(
        migrated(text),
        "# the old cannon\n; entity_id: 0x42\n; class: Projectile\n; ClassVersion\n2\n// fast\n; VelocityX\n75.5\n; damage: 60\n"
    );
}

/// A property the migration changes that the file also holds (the v1 `VelocityY`, which
/// the migration sets to 0) gets its value line edited; the comments, the blank line and
/// the unknown key around it stay.
#[test]
fn migrate_edits_the_line_of_a_held_key_the_migration_changes() {
    let body = "; ClassVersion\n1\n\n# keep me\n; VelocityY\n2.0\n; Speed\n5.0\n; Extra\nabc\n";
    let body_after =
        "; ClassVersion\n2\n; VelocityX\n5.0\n\n# keep me\n; VelocityY\n0.0\n; Extra\nabc\n";
    // VelocityX comes in next to its neighbour in the class's order (after the version
    // line, since the file holds no Position); Speed's lines go, VelocityY's value changes.
    assert_eq!(
        migrated(&format!("# banner\n{}", projectile(body))),
        format!("# banner\n{}", projectile(body_after))
    );
}

/// A template is migrated in place too: its comments, blank line, unknown key and CRLF
/// line endings stay, and no base key it leaves out (`EntityID`, `AssetType`) is added.
#[test]
fn migrate_edits_a_template_in_place() {
    let before = "# an old cannonball\r\n; Kind\r\nProjectile\r\n; ClassVersion\r\n1\r\n\r\n\
                  # keep me\r\n; VelocityY\r\n2.0\r\n; Speed\r\n5.0\r\n; Extra\r\nabc\r\n";
    let after = "# an old cannonball\r\n; Kind\r\nProjectile\r\n; ClassVersion\r\n2\r\n\
                 ; VelocityX\r\n5.0\r\n\r\n# keep me\r\n; VelocityY\r\n0.0\r\n; Extra\r\nabc\r\n";
    assert_eq!(
        migrated_at("Assets/Templates/OldBall.jasset", before),
        after
    );
}

/// A loose file without `EntityID` gets none from `migrate` (each loose file is loaded
/// alone, so the session id would be the same in every one), and a template that holds
/// one keeps it.
#[test]
fn migrate_adds_no_session_id_and_keeps_a_written_one() {
    let before = "; Kind\nProjectile\n; ClassVersion\n1\n; Speed\n3.0\n";
    let after = "; Kind\nProjectile\n; ClassVersion\n2\n; VelocityX\n3.0\n";
    assert_eq!(migrated_at("Assets/Loose/A.jasset", before), after);
    let with_id = |body: &str| format!("# t\n; EntityID\n0x000100000000FF01\n{body}");
    assert_eq!(
        migrated_at("Assets/Templates/WithId.jasset", &with_id(before)),
        with_id(after)
    );
}

/// A current loose file without `EntityID` is already current: `migrate` leaves it.
#[test]
fn migrate_leaves_a_current_file_without_an_id() {
    let text = "; Kind\nInert\n; Mass\n2\n";
    let (after, said) = migrate_one("Assets/Loose/C.jasset", text);
    assert!(
        said.contains("0 files migrated, 1 already current"),
        "{said}"
    );
    assert_eq!(after, text);
}

/// An instance that overrides nothing has no `ClassVersion` in its canonical text; its
/// outdated version line is brought to the current version all the same (only the
/// version line changes), and a second `migrate` finds it current.
#[test]
fn migrate_updates_the_version_line_of_an_instance_that_overrides_nothing() {
    let instance = "; Template: Assets/Templates/Ball.jasset\n; EntityID: 0x0001000000009017\n\
                    # placed by hand\n; ClassVersion: 1\n";
    let template = "; Kind\nProjectile\n; VelocityX\n30.0\n";
    let rel = "Assets/Worlds/L/Entities/ball.jasset";
    let files = [(rel, instance), ("Assets/Templates/Ball.jasset", template)];
    let (after, said) = migrate_files(&files);
    assert!(said.contains("1 file migrated"), "{said}");
    let expected = "; Template: Assets/Templates/Ball.jasset\n; EntityID: 0x0001000000009017\n\
                    # placed by hand\n; ClassVersion: 2\n";
    assert_eq!(after, expected);
    let (again, said) = migrate_files(&[(rel, expected), files[1]]);
    assert!(
        said.contains("0 files migrated, 2 already current"),
        "{said}"
    );
    assert_eq!(again, expected);
}

/// A property that takes the place of a consumed last line without a line ending
/// follows the lines before it, with no blank line between.
#[test]
fn a_migrated_key_at_the_end_of_a_file_without_a_final_newline() {
    let (after, _) = migrate_one(
        "Assets/Worlds/L/Entities/0000000000000042.jasset",
        &projectile("; ClassVersion\n1\n; Speed\n5"),
    );
    assert_eq!(after, projectile("; ClassVersion\n2\n; VelocityX\n5.0\n"));
}

/// An instance's `Speed` equal to its template's `VelocityX` is still the file's own
/// value: `migrate` writes it under its new keys where it stood, not nothing (the
/// instance would follow a later change of the template).
#[test]
fn migrate_keeps_an_instance_speed_equal_to_the_template_as_its_new_keys() {
    let instance = "; Template: Assets/Templates/Ball.jasset\n; EntityID: 0x0001000000009017\n\
                    ; ClassVersion\n1\n# as fast as the others\n; Speed\n30.0\n; Damage: 5\n";
    let template = "; Kind\nProjectile\n; VelocityX\n30.0\n";
    let rel = "Assets/Worlds/L/Entities/ball.jasset";
    let files = [(rel, instance), ("Assets/Templates/Ball.jasset", template)];
    let (after, said) = migrate_files(&files);
    assert!(said.contains("+ VelocityX: 30.0"), "{said}");
    let expected = "; Template: Assets/Templates/Ball.jasset\n; EntityID: 0x0001000000009017\n\
                    ; ClassVersion\n2\n# as fast as the others\n; VelocityX\n30.0\n\
                    ; VelocityY\n0.0\n; Damage: 5\n";
    assert_eq!(after, expected);
}

/// A value that a v1 variant template's migration set from its deprecated key comes
/// from that template, not from the template it derives from.
#[test]
fn inspect_names_a_v1_variant_as_the_source_of_its_migrated_values() {
    let dir = tempfile::tempdir().unwrap();
    let templates = dir.path().join("Assets/Templates");
    let entities = dir.path().join("Assets/Worlds/W/Entities");
    fs::create_dir_all(&templates).unwrap();
    fs::create_dir_all(&entities).unwrap();
    let ball = "; Kind: Projectile\nVelocityX: 30.0\nDamage: 75.0\n";
    fs::write(templates.join("Ball.jasset"), ball).unwrap();
    let fast = "Template: Assets/Templates/Ball.jasset\nClassVersion: 1\nSpeed: 50\n";
    fs::write(templates.join("Fast.jasset"), fast).unwrap();
    let one = "EntityID: 0x0000000000000002\nTemplate: Assets/Templates/Fast.jasset\n";
    fs::write(entities.join("one.jasset"), one).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_jasset"))
        .args(["inspect", "Assets/Worlds/W/Entities/one.jasset"])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{out}");
    let line = |key: &str| out.lines().find(|l| l.trim_start().starts_with(key));
    let fast = "<- Assets/Templates/Fast.jasset";
    assert!(
        line("VelocityX").is_some_and(|l| l.ends_with(&format!("50.0  {fast}"))),
        "{out}"
    );
    assert!(
        line("VelocityY").is_some_and(|l| l.ends_with(fast)),
        "{out}"
    );
    assert!(
        line("Damage").is_some_and(|l| l.ends_with("<- Assets/Templates/Ball.jasset")),
        "{out}"
    );
}
