//! `schema export`, `check` and the schema's parser on classes the tests derive.

use super::*;
use juliet_core::Reflect;
use juliet_entities::kinds::{Inert, Projectile};

#[test]
fn a_default_with_backslashes_and_line_breaks_reads_back_as_written() {
    for text in [
        "\"line1\\nline2\"",
        "1.0 2.5\n[]\n3.0",
        "a\\\\b",
        "plain",
        "\\",
    ] {
        let escaped = escape_default(text);
        assert!(!escaped.contains('\n'), "{escaped:?}");
        assert_eq!(unescape_default(&escaped), text, "{escaped:?}");
    }
    // A schema written before backslashes were escaped still reads.
    assert_eq!(unescape_default("\"a\\\"b\""), "\"a\\\"b\"");
}

#[test]
fn an_exported_schema_reads_back_and_checks_clean() {
    let registry = Registry::new([Inert::CLASS, Projectile::CLASS]).unwrap();
    let text = export(registry.classes());
    assert!(text.contains("; Projectile\nversion 2\n"), "{text}");
    assert!(text.contains("property Damage f32 50.0\n"), "{text}");
    assert!(text.contains("deprecated Speed\n"), "{text}");
    let parsed = parse(text.as_bytes(), Path::new("jasset.schema")).unwrap();
    assert_eq!(parsed.len(), 2);
    assert_eq!(parsed[1], SchemaClass::of(Projectile::CLASS));
    assert!(check(&registry, &parsed).is_empty());
}

#[test]
fn property_keys_are_identifiers_given_once_and_never_class_version() {
    let schema = |property: &str| {
        let text = format!("AssetType: Schema\n; Rocket\nversion 1\n{property}\n");
        parse(text.as_bytes(), Path::new("jasset.schema")).map_err(|e| e.to_string())
    };
    assert!(schema("property MaxSpeed f32 0.0").is_ok());
    for (bad, why) in [
        ("property Max-Speed f32 0.0", "not an ASCII identifier"),
        ("property A:5 string x", "not an ASCII identifier"),
        ("property ClassVersion u32 1", "ClassVersion or given twice"),
        (
            "property hp i32 1\nproperty HP i32 2",
            "ClassVersion or given twice",
        ),
    ] {
        let err = schema(bad).expect_err(bad);
        assert!(
            err.contains(why) && err.contains("jasset.schema:"),
            "{bad}: {err}"
        );
    }
}

#[test]
fn a_changed_layout_at_the_same_version_names_class_and_property() {
    let registry = Registry::new([Projectile::CLASS]).unwrap();
    let mut old = SchemaClass::of(Projectile::CLASS);
    old.properties[2].1 = "i32".into(); // Damage
    old.properties
        .push(("Spin".into(), "f32".into(), "0.0".into()));
    old.properties.remove(0); // VelocityX
    let problems = check(&registry, &[old.clone()]);
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(problems[0]
        .starts_with("class `Projectile`: property `Damage` changed type from i32 to f32"));
    assert!(problems[1].contains("property `Spin` was removed"));
    assert!(problems[2].contains("property `VelocityX` (f32) is new"));
    // A version bump makes the same change fine.
    old.version = 1;
    assert!(check(&registry, &[old]).is_empty());
}

#[test]
fn a_key_renamed_with_its_old_spelling_as_alias_is_no_change() {
    // A schema written when `Mass` was called `Weight`: the class reads `Weight` as
    // `Mass` (an alias), so it is the same property; an unrelated old key is not.
    #[derive(juliet_entities::Entity)]
    struct Heavy {
        #[jasset(alias = "Weight")]
        mass: f32,
    }
    let registry = Registry::new([Heavy::CLASS]).unwrap();
    let mut old = SchemaClass::of(Heavy::CLASS);
    old.properties[0].0 = "Weight".into();
    assert!(check(&registry, &[old.clone()]).is_empty());
    old.properties[0].0 = "Heft".into();
    assert_eq!(check(&registry, &[old]).len(), 2);
}

#[test]
fn a_variant_leaf_names_its_variants_fields_and_checks_without_them_too() {
    #[derive(juliet_entities::Codec, Clone, Debug, PartialEq, Default)]
    enum Pull {
        #[default]
        Never,
        OnTouch {
            radius: f32,
        },
        Timer(f32),
    }
    #[derive(juliet_entities::Entity)]
    struct Lever {
        pull: Pull,
    }
    let registry = Registry::new([Lever::CLASS]).unwrap();
    let mut old = SchemaClass::of(Lever::CLASS);
    let words: Vec<&str> = old.properties.iter().map(|p| p.1.as_str()).collect();
    assert_eq!(
        words,
        ["enum(Never|OnTouch(Radius:f32)|Timer(0:f32))", "f32", "f32"]
    );
    assert!(check(&registry, &[old.clone()]).is_empty());
    // The word a schema written before the fields were named holds.
    old.properties[0].1 = "enum(Never|OnTouch|Timer)".into();
    assert!(check(&registry, &[old.clone()]).is_empty());
    old.properties[0].1 = "enum(Never|OnTouch)".into();
    assert_eq!(check(&registry, &[old]).len(), 1);
}

/// A variant's field whose value on a switch is not its type's zero value (a unit
/// enum's `#[default]` that is not its first variant) is written with it, which
/// is no part of the layout that `check` compares.
#[test]
fn a_variant_leaf_names_a_fields_value_on_a_switch_and_checks_without_it() {
    #[derive(juliet_entities::Codec, Clone, Copy, Debug, PartialEq, Default)]
    enum Tone {
        Low,
        #[default]
        High,
    }
    #[derive(juliet_entities::Codec, Clone, Debug, PartialEq, Default)]
    enum Chime {
        #[default]
        Off,
        On {
            tone: Tone,
            volume: f32,
        },
    }
    #[derive(juliet_entities::Entity)]
    struct Bell {
        chime: Chime,
    }
    let registry = Registry::new([Bell::CLASS]).unwrap();
    let mut old = SchemaClass::of(Bell::CLASS);
    let word = "enum(Off|On(Tone:enum(Low|High)=High,Volume:f32))";
    assert_eq!(old.properties[0].1, word);
    old.properties[0].1 = "enum(Off|On(Tone:enum(Low|High),Volume:f32))".into();
    assert!(check(&registry, &[old.clone()]).is_empty());
    old.properties[0].1 = "enum(Off|On(Tone:enum(Low|High)=High))".into();
    assert_eq!(check(&registry, &[old]).len(), 1);
}

#[test]
fn a_bad_schema_line_is_named() {
    let err = parse(b"; Projectile\nversion 2\nspeed 3\n", Path::new("s.jasset")).unwrap_err();
    assert!(
        err.to_string()
            .contains("s.jasset:3:1: class `Projectile`: unknown line `speed`"),
        "{}",
        err.to_string()
    );
}

/// A field's value on a switch with a space, tab or `"` is left out of the word: a
/// schema line is split at spaces, so it would not read back.
#[test]
fn a_switched_value_with_a_space_tab_or_quote_is_left_out() {
    assert_eq!(
        switched_field("X", &PropertyType::Floats(3), "1 2 3"),
        "X:floats3"
    );
    assert_eq!(
        switched_field("X", &PropertyType::String, "a\tb"),
        "X:string"
    );
    assert_eq!(
        switched_field("X", &PropertyType::String, "\"a\""),
        "X:string"
    );
    assert_eq!(
        switched_field("X", &PropertyType::String, "ab"),
        "X:string=ab"
    );
}
