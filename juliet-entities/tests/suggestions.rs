//! Messages that help fix the file: a misspelled key, kind or directive is named with
//! its likely intended spelling.

use std::fs;

use juliet_entities::prelude::*;

/// Loads a world of one file `text`; the report's problems as text.
fn problems(text: &str) -> Vec<String> {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("Entities");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("e.jasset"), text).unwrap();
    let (_, report) = World::load(root.path(), &LoadOptions::default()).unwrap();
    let errors = report.errors.iter().map(ToString::to_string);
    errors
        .chain(report.warnings.iter().map(ToString::to_string))
        .collect()
}

#[test]
fn an_unknown_key_suggests_the_property_it_resembles() {
    let p =
        problems("; EntityID\n1\n; Kind\nInert\n; Helth\n5.0\n; Positon\n1 2 3\n; Colour\nred\n");
    assert_eq!(p.len(), 3, "{p:#?}");
    assert!(p[0].ends_with("e.jasset:5:3: warning: `Helth`: unknown key `Helth` (kept and written back on save) (did you mean `Health`?)"), "{}", p[0]);
    assert!(
        p[1].contains("unknown key `Positon`") && p[1].ends_with("(did you mean `Position`?)"),
        "{}",
        p[1]
    );
    // Nothing close: no suggestion.
    assert!(!p[2].contains("did you mean"), "{}", p[2]);
}

#[test]
fn an_unknown_kind_suggests_a_registered_class() {
    let p = problems("; EntityID\n1\n; Kind\nInret\n");
    assert_eq!(p.len(), 1, "{p:#?}");
    assert!(
        p[0].contains("e.jasset:3:3: error: `Kind`: unknown kind `Inret`"),
        "{}",
        p[0]
    );
    assert!(p[0].ends_with("(did you mean `Inert`?)"), "{}", p[0]);
}

#[test]
fn a_misspelled_template_directive_is_named_at_its_line() {
    let p = problems("; templat: Assets/Templates/Rock.jasset\n; EntityID\n1\n");
    assert_eq!(p.len(), 1, "{p:#?}");
    assert!(
        p[0].ends_with("e.jasset:1:3: error: `templat`: missing required key `Kind` (did you mean `Template`?)"),
        "{}",
        p[0]
    );
    // With nothing that looks like one, the file as a whole.
    let p = problems("; EntityID\n1\n");
    assert!(
        p[0].ends_with("e.jasset:0:0: error: missing required key `Kind`"),
        "{}",
        p[0]
    );
}

#[test]
fn a_missing_template_suggests_the_file_it_resembles() {
    let project = tempfile::tempdir().unwrap();
    let templates = project.path().join("Assets/Templates");
    let world = project.path().join("Assets/Worlds/L");
    fs::create_dir_all(&templates).unwrap();
    fs::create_dir_all(world.join("Entities")).unwrap();
    fs::write(templates.join("RockLarge.jasset"), "; Kind\nInert\n").unwrap();
    let instance = |template: &str| {
        fs::write(
            world.join("Entities/e.jasset"),
            format!("; EntityID\n1\n; Template\n{template}\n"),
        )
        .unwrap();
        let (_, report) = World::load(&world, &LoadOptions::default()).unwrap();
        report
            .errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    assert!(instance("Assets/Templates/RockLarge.jasset").is_empty());
    let errors = instance("Assets/Templates/RockLage.jasset");
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].contains("(did you mean `Assets/Templates/RockLarge.jasset`?)"),
        "{}",
        errors[0]
    );
    let errors = instance("Assets/Templates/Tree.jasset");
    assert!(!errors[0].contains("did you mean"), "{}", errors[0]);
}
