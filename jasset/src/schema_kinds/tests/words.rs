//! Schema words of an enum with data that cannot hold, refused when the kind is made,
//! at the schema's line: a field's value on a switch where it gives nothing a value, a
//! field whose type is not its leaf's, a variant or field given twice, and field leaf
//! defaults that contradict the default variant.

use super::*;

/// The error of a schema of class `Crate` with property lines `properties` (the first
/// at line 5), as shown.
fn refused(properties: &str) -> String {
    let schema = format!("; AssetType\nSchema\n; Crate\nversion 1\n{properties}");
    let root = project(&schema, "Crate", "");
    let err = registry_for(Some(root.path())).unwrap_err();
    assert_eq!(err.code(), 1);
    let shown = root.path().join(SCHEMA_FILE).display().to_string();
    err.to_string().replace(&shown, "SCHEMA")
}

#[test]
fn a_fields_type_in_the_word_is_its_leafs() {
    let err = refused(
        "property Trigger enum(Never|OnTouch(Radius:string=hello)) Never\n\
         property Trigger.Radius f32\n",
    );
    assert_eq!(
        err,
        "SCHEMA:5:18: class `Crate`: property `Trigger`: type \
         `enum(Never|OnTouch(Radius:string=hello))`: field `Radius` of `OnTouch` is a \
         string here, but its leaf `.Radius` is a f32"
    );
}

#[test]
fn a_variant_or_a_field_given_twice_is_refused() {
    let err = refused(
        "property Trigger enum(Never|OnTouch(Radius:f32)|OnTouch) Never\n\
         property Trigger.Radius f32\n",
    );
    assert!(
        err.starts_with("SCHEMA:5:18: class `Crate`: property `Trigger`: type")
            && err.ends_with("variant `OnTouch` is given twice"),
        "{err}"
    );
    let err = refused(
        "property Trigger enum(Never|OnTouch(X:f32=1,X:f32=2)) Never\n\
         property Trigger.X f32\n",
    );
    assert!(
        err.ends_with("field `X` of `OnTouch` is given twice"),
        "{err}"
    );
}

#[test]
fn a_value_on_a_switch_is_only_in_a_variant_leafs_word() {
    for (line, text) in [
        ("property R record(R(X:f32=zz)) R()", "zz"),
        ("property L list(enum(A|B(X:f32=zz))) []", "zz"),
        ("property T enum(A|B(X:f32=zz)) A", "zz"),
        (
            "property T enum(A|B(X:list(enum(C|D(Y:f32=yy))))) A\nproperty T.X list(enum(C|D(Y:f32)))",
            "yy",
        ),
    ] {
        let err = refused(&format!("{line}\n"));
        assert!(
            err.starts_with("SCHEMA:5:")
                && err.contains(&format!(
                    "`={text}` gives a value only to a field of the word of an enum field's \
                     variant leaf"
                )),
            "{line}: {err}"
        );
    }
}

#[test]
fn field_leaf_defaults_follow_the_default_variant() {
    let err = refused(
        "property Trigger enum(Never|OnTouch(Radius:f32)) Never\n\
         property Trigger.Radius f32 5.0\n",
    );
    assert_eq!(
        err,
        "SCHEMA:6:29: class `Crate`: property `Trigger.Radius`: default \"5.0\" is not a f32: \
         the default variant `Never` has no such field: leave it out"
    );
    let err = refused(
        "property Trigger enum(Never|OnTouch(Radius:f32)) OnTouch\n\
         property Trigger.Radius f32\n",
    );
    assert!(
        err.starts_with("SCHEMA:6:")
            && err.ends_with("the default variant `OnTouch` has this field: give it"),
        "{err}"
    );
}

/// What `fmt` writes of a schema kind's enum with data `check` accepts, or the schema is
/// refused.
#[test]
fn fmt_writes_what_check_accepts_or_the_schema_is_refused() {
    use clap::Parser;
    let file = "Assets/Worlds/W/Entities/a.jasset";
    for (default, radius, good) in [
        ("Never", "5.0", false),
        ("OnTouch", "", false),
        ("OnTouch", "5.0", true),
        ("Never", "", true),
    ] {
        let schema = format!(
            "; AssetType\nSchema\n; Crate\nversion 1\n\
             property Trigger enum(Never|OnTouch(Radius:f32)) {default}\n\
             property Trigger.Radius f32 {radius}\n"
        );
        let root = project(schema.trim_end(), "Crate", "; Trigger\nNever\n");
        let path = root.path().join(file).display().to_string();
        let cli = crate::Cli::try_parse_from(["jasset", "fmt", &path]).unwrap();
        let formatted = crate::run_with(cli.command, &mut Vec::new());
        assert_eq!(formatted.is_ok(), good, "{default} {radius}");
        if good {
            let (checked, report) = jasset(root.path(), &["check", &path]);
            assert!(checked, "{default} {radius}: {report}");
        }
    }
}
