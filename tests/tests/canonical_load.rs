//! `load_text` and `from_text` (a document filled as it is read) on the archive tests'
//! classes: which files are read straight from their text, and that a file the
//! canonical reading gives up on half-way (after reading some properties) loads exactly
//! as from the tokenizer's document, migration, warnings and unknown keys included.

use std::path::Path;

use juliet_core::{
    from_text, load_text, Archive, Error, LoadTextReport, Reflect, TokenBuffer, WarningKind,
};
use juliet_entities::Entity;

/// The archive tests' `LegacyWeapon` with one more property after the migrated ones.
#[derive(Entity, Debug, PartialEq)]
#[jasset(version = 2, deprecated = "Speed", migrate = Weapon::migrate)]
struct Weapon {
    velocity_x: f32,
    velocity_y: f32,
    #[jasset(alias = "Rounds")]
    ammo: u16,
    #[jasset(default = String::from("none"))]
    sound: String,
}

impl Weapon {
    fn migrate(&mut self, _from: u32, ar: &mut Archive<'_>) -> Result<(), Error> {
        if let Some(speed) = ar.read_deprecated::<f32>("Speed")? {
            self.velocity_x = speed;
        }
        Ok(())
    }
}

/// What a load from the tokenizer's document gives: tokenize, `Reflect::load`, the
/// audit.
fn general(text: &str) -> Result<(Weapon, LoadTextReport), String> {
    let mut buffer = TokenBuffer::new();
    let doc = buffer
        .tokenize(text.as_bytes(), Path::new("w.jasset"))
        .map_err(|e| e.to_string())?;
    let mut ar = Archive::loading(doc);
    let mut weapon = Weapon::default_value();
    weapon.load(&mut ar).map_err(|e| e.to_string())?;
    let known: Vec<&str> = Weapon::CLASS.known_keys().collect();
    let unknown = ar.audit_unconsumed_suggesting(&known);
    let report = LoadTextReport::new(false, ar.take_warnings(), unknown);
    Ok((weapon, report))
}

/// What `load_text` gives.
fn through_load_text(text: &str) -> Result<(Weapon, LoadTextReport), String> {
    let mut buffer = TokenBuffer::new();
    let mut weapon = Weapon::default_value();
    let report = load_text(
        &mut buffer,
        text.as_bytes(),
        Path::new("w.jasset"),
        &mut weapon,
    )
    .map_err(|e| e.to_string())?;
    Ok((weapon, report))
}

/// What `from_text` gives (a new value).
fn through_from_text(text: &str) -> Result<(Weapon, LoadTextReport), String> {
    let mut buffer = TokenBuffer::new();
    from_text(&mut buffer, text.as_bytes(), Path::new("w.jasset")).map_err(|e| e.to_string())
}

fn saved(weapon: &Weapon) -> String {
    let mut text = String::new();
    weapon.save(&mut Archive::saving(&mut text));
    text
}

#[test]
fn saved_files_and_files_with_absent_keys_are_read_straight_from_the_text() {
    let weapon = Weapon {
        velocity_x: 75.5,
        velocity_y: -2.0,
        ammo: 30,
        sound: "Sounds/Bang 01.wav".into(),
    };
    // `load_text` tokenizes first (a file it rejects changes nothing), then reads the
    // same values.
    let (loaded, report) = through_load_text(&saved(&weapon)).unwrap();
    assert!(!report.direct());
    assert_eq!(loaded, weapon);
    let (fresh, report) = through_from_text(&saved(&weapon)).unwrap();
    assert!(report.direct());
    assert_eq!(fresh, weapon);
    // Without ClassVersion and Ammo: the code's version, Ammo at its default.
    let (sparse, report) =
        through_from_text("; VelocityX\n1.5\n; VelocityY\n2.5\n; Sound\nbeep").unwrap();
    assert!(report.direct());
    assert_eq!(
        (sparse.velocity_x, sparse.ammo, sparse.sound.as_str()),
        (1.5, 0, "beep")
    );
}

#[test]
fn files_given_up_half_way_load_as_from_the_tokenizer() {
    let files = [
        // An unknown key after every known one: reported and kept.
        "; ClassVersion\n2\n; VelocityX\n1\n; VelocityY\n2\n; Ammo\n3\n; Sound\ns\n; Extra\n9\n",
        // An alias after two properties read directly.
        "; ClassVersion\n2\n; VelocityX\n1\n; Rounds\n3\n",
        // A v1 file: ClassVersion read, then the migration from the deprecated key.
        "; ClassVersion\n1\n; VelocityY\n2\n; Speed\n75.5\n",
        // A newer version: a warning, and the values.
        "; ClassVersion\n7\n; VelocityX\n1\n",
        // ClassVersion after properties read directly: the migration still runs.
        "; VelocityY\n2\n; Speed\n75.5\n; ClassVersion\n1\n",
        // A comment after the first property, then more properties.
        "; VelocityX\n1\n# note\n; VelocityY\n2\n",
        // A second value line.
        "; VelocityX\n1\n; Ammo\n3\n4\n",
        // A bad value after two good ones: the same error, same place.
        "; VelocityX\n1\n; VelocityY\n2\n; Ammo\nmany\n",
        // A duplicate of a property read directly.
        "; VelocityX\n1\n; VelocityY\n2\n; VelocityX\n3\n",
        // Another spelling of a key read directly, later.
        "; VelocityX\n1\n; Sound\nx\n; velocity_x\n3\n",
    ];
    // The value, the warnings and the unknown keys (not how the nodes were made).
    type Seen = Result<(Weapon, Vec<juliet_core::Warning>, String), String>;
    let seen = |r: Result<(Weapon, LoadTextReport), String>| -> Seen {
        r.map(|(w, report)| {
            let unknown = format!("{:?}", report.unknown());
            (w, report.warnings().to_vec(), unknown)
        })
    };
    for (i, text) in files.iter().enumerate() {
        let expected = seen(general(text));
        assert_eq!(seen(through_load_text(text)), expected, "{text:?}");
        let fresh = through_from_text(text);
        let direct = fresh.as_ref().is_ok_and(|(_, r)| r.direct());
        assert_eq!(seen(fresh), expected, "from_text {text:?}");
        // Only the newer version (read with its warning) and the comment between
        // properties are read straight from the text to the end.
        assert_eq!(direct, i == 3 || i == 5, "{text:?}");
    }
    // The cases above do what they claim in the general path.
    let (unknown, report) = general(files[0]).unwrap();
    assert_eq!(
        (unknown.ammo, report.unknown().iter().next().unwrap().key()),
        (3, "Extra")
    );
    let (migrated, _) = general(files[2]).unwrap();
    assert_eq!(migrated.velocity_x, 75.5);
    let (_, report) = general(files[3]).unwrap();
    assert!(matches!(
        report.warnings()[0].kind,
        WarningKind::NewerClassVersion { .. }
    ));
    let (late, _) = general(files[4]).unwrap();
    assert_eq!(late.velocity_x, 75.5);
    assert!(general(files[7]).unwrap_err().contains(":6:"));
    assert!(general(files[8]).is_err());
}

/// Files a designer edits without leaving the straight reading: comments and blank lines
/// between properties, inline headers, the declared properties in any order. Each
/// loads as from the tokenizer and is read straight from its text to the end.
#[test]
fn hand_edited_files_are_read_straight_from_the_text() {
    let files = [
        "# tuned\n; ClassVersion\n2\n\n; VelocityX\n1.5\n// why\n; VelocityY: 2\n",
        // Every property in reverse order (more passes than `next_is` makes).
        "; Sound\nbang\n; Ammo: 7\n; VelocityY\n2\n; VelocityX\n1\n",
        // A swap, as a designer moves one line up.
        "; VelocityY: 2\n; VelocityX: 1\n; Ammo\n3\n; Sound: s\n# end",
    ];
    for text in files {
        let expected = general(text).map(|(w, _)| w);
        let (weapon, report) = through_from_text(text).expect(text);
        assert_eq!(Ok(&weapon), expected.as_ref(), "{text:?}");
        assert!(report.direct(), "{text:?}");
        assert!(report.unknown().is_empty() && report.warnings().is_empty());
    }
    let (swapped, _) = through_from_text(files[2]).unwrap();
    assert_eq!(
        (swapped.velocity_x, swapped.velocity_y, swapped.ammo),
        (1.0, 2.0, 3)
    );
}

/// A key given twice is the tokenizer's duplicate-key error, however the properties
/// before it were read (in order, out of order, inline).
#[test]
fn a_repeated_key_is_a_duplicate_in_every_form() {
    for text in [
        "; VelocityX\n1\n; VelocityY\n2\n; VelocityX\n3\n",
        "; VelocityY\n2\n; VelocityX: 1\n; VelocityY\n3\n",
        "; Ammo\n1\n; VelocityX\n1\n; Ammo: 2\n",
    ] {
        let err = through_from_text(text).unwrap_err();
        assert_eq!(Err(err.clone()), general(text).map(|_| ()), "{text:?}");
        assert!(err.contains("duplicate key"), "{err}");
    }
}
