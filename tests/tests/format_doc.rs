//! `docs/jasset-format.md` checked against the code.
//!
//! * Every example marked `<!-- check: ... -->` in the error catalogue is run, and what
//!   the code prints must be the documented text, character for character.
//! * Every `ErrorKind`, `ValueErrorKind` and `WarningKind` has a catalogue entry.
//! * Every other `jasset` example of the page tokenizes.
//! * The claims of the value table (section 5) and the key section (section 4) hold.
//!
//! Markers: `tokenize` / `tokenize-bytes` (the input must fail to tokenize; `\xHH` is a
//! byte in the second), `decode TYPE KEY` (the input tokenizes, `KEY` fails to decode as
//! `TYPE`), `audit` (the unconsumed-key warning), `class-version N` (the warning of
//! `resolve_class_version(N)`), `display NAME` (the message of the kind `NAME` built
//! from the documented example values).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::{Vec2, Vec3};
use juliet_core::{
    crc32, decode_variant, key_crc, key_crc_runtime, write_property, Archive, Codec, ErrorKind,
    PropertyType, TokenBuffer, Value, ValueError, ValueErrorKind, WarningKind,
};

const DOC: &str = include_str!("../../docs/jasset-format.md");
const PATH: &str = "bad.jasset";

// ---------------------------------------------------------------------------------
// The page, as a list of checks.
// ---------------------------------------------------------------------------------

/// One `<!-- check: ... -->` of the page.
#[derive(Debug)]
struct Check {
    /// The marker's words.
    directive: Vec<String>,
    /// The `jasset` block after the marker (for the input kinds).
    input: Option<String>,
    /// The documented text: the code span after the marker, else the next `text` block.
    expected: String,
    /// 1-based line of the marker in the page.
    line: usize,
}

/// The fenced blocks of the page: (info string, body, 1-based line of the fence).
fn fenced_blocks(doc: &str) -> Vec<(String, String, usize)> {
    let mut blocks = Vec::new();
    let mut lines = doc.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        if let Some(info) = line.strip_prefix("```") {
            let mut body = String::new();
            for (_, l) in lines.by_ref() {
                if l.starts_with("```") {
                    break;
                }
                body.push_str(l);
                body.push('\n');
            }
            blocks.push((info.trim().to_owned(), body, i + 1));
        }
    }
    blocks
}

/// The first code span of `text`, per CommonMark (a run of N backticks up to the next
/// run of N; one space stripped from each end when both ends have one).
fn code_span(text: &str) -> Option<String> {
    let start = text.find('`')?;
    let ticks = text[start..].chars().take_while(|&c| c == '`').count();
    let fence = "`".repeat(ticks);
    let body_start = start + ticks;
    let mut from = body_start;
    loop {
        let at = from + text[from..].find(&fence)?;
        let run = text[at..].chars().take_while(|&c| c == '`').count();
        if run == ticks {
            let body = &text[body_start..at];
            let body = if body.len() > 2 && body.starts_with(' ') && body.ends_with(' ') {
                &body[1..body.len() - 1]
            } else {
                body
            };
            return Some(body.to_owned());
        }
        from = at + run;
    }
}

fn checks(doc: &str) -> Vec<Check> {
    let blocks = fenced_blocks(doc);
    let mut checks = Vec::new();
    for (i, line) in doc.lines().enumerate() {
        let Some(start) = line.find("<!-- check:") else {
            continue;
        };
        let end = start + line[start..].find("-->").expect("closed marker");
        let directive: Vec<String> = line[start + "<!-- check:".len()..end]
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        let marker_line = i + 1;
        let after = |info: &str| {
            blocks
                .iter()
                .find(|(inf, _, at)| inf == info && *at > marker_line)
                .map(|(_, body, _)| body.clone())
        };
        let needs_input = directive[0] != "display";
        let input = if needs_input {
            Some(after("jasset").expect("an input block after the marker"))
        } else {
            None
        };
        let expected = match code_span(&line[end..]) {
            Some(span) => span,
            None => after("text")
                .expect("a text block after the marker")
                .trim_end_matches('\n')
                .to_owned(),
        };
        checks.push(Check {
            directive,
            input,
            expected,
            line: marker_line,
        });
    }
    checks
}

/// `\xHH` escapes to bytes.
fn unescape_bytes(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"\\x") && i + 4 <= bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 2..i + 4]).unwrap();
            out.push(u8::from_str_radix(hex, 16).expect("two hex digits"));
            i += 4;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

// ---------------------------------------------------------------------------------
// Codecs of the examples that need a game type.
// ---------------------------------------------------------------------------------

/// A unit enum with the codec `#[derive(Codec)]` gives one.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Inert,
    Projectile,
}

const KIND_VARIANTS: &[&str] = &["Inert", "Projectile"];

impl Codec for Kind {
    const PROPERTY_TYPE: PropertyType = PropertyType::Enum {
        name: "Kind",
        variants: KIND_VARIANTS,
    };
    fn encode(&self, out: &mut String) {
        out.push_str(KIND_VARIANTS[self.clone() as usize]);
    }
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        match decode_variant(value.single()?, KIND_VARIANTS)? {
            0 => Ok(Kind::Inert),
            _ => Ok(Kind::Projectile),
        }
    }
}

/// A game codec with a reason of its own.
#[derive(Debug, Clone, PartialEq)]
struct Percent(u8);

impl Codec for Percent {
    const PROPERTY_TYPE: PropertyType = PropertyType::Custom("percent 0-100");
    fn encode(&self, out: &mut String) {
        out.push_str(&self.0.to_string());
    }
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let line = value.single()?;
        match line.parse::<u8>() {
            Ok(p) if p <= 100 => Ok(Percent(p)),
            Ok(_) => Err(ValueError::new(
                ValueErrorKind::Custom("must be between 0 and 100".into()),
                line,
            )),
            Err(_) => Err(ValueError::new(ValueErrorKind::InvalidNumber, line)),
        }
    }
}

/// An enum with data, held whole in an `Option` (its variant's line, then its fields').
#[derive(Debug, Clone, PartialEq, Default, juliet_derive::Codec)]
#[jasset(crate = ::juliet_core)]
enum Trigger {
    #[default]
    Never,
    OnTouch {
        radius: f32,
    },
    Timer(f32),
}

// ---------------------------------------------------------------------------------
// Running the checks.
// ---------------------------------------------------------------------------------

/// Decodes `key` of `input` as the documented type name; returns the printed error.
fn decode_error(input: &str, ty: &str, key: &str) -> String {
    fn run<T: Codec + std::fmt::Debug>(input: &str, key: &str) -> String {
        let mut buffer = TokenBuffer::new();
        let mut doc = buffer
            .tokenize(input.as_bytes(), Path::new(PATH))
            .unwrap_or_else(|e| panic!("the input must tokenize: {e}"));
        let index = doc.find_name(key).expect("the key is in the input");
        match doc.decode::<T>(index) {
            Ok(v) => panic!("expected an error, decoded {v:?}"),
            Err(e) => e.to_string(),
        }
    }
    match ty {
        "f32" => run::<f32>(input, key),
        "i8" => run::<i8>(input, key),
        "bool" => run::<bool>(input, key),
        "Vec3" => run::<Vec3>(input, key),
        "String" => run::<String>(input, key),
        "Kind" => run::<Kind>(input, key),
        "Percent" => run::<Percent>(input, key),
        "char" => run::<char>(input, key),
        "Weights" => run::<std::collections::BTreeMap<String, f32>>(input, key),
        "Option<Trigger>" => run::<Option<Trigger>>(input, key),
        other => panic!("no decode type `{other}` in this test"),
    }
}

/// The message of the kind `name`, built from the values of the page's example.
fn display(name: &str) -> Option<String> {
    let kind = match name {
        "FileTooLarge" => ErrorKind::FileTooLarge {
            size: 5_000_000_000,
            limit: 4_294_967_294,
        },
        "Io" => {
            if !cfg!(target_os = "linux") {
                return None; // The text is the operating system's.
            }
            let err = std::fs::read("/nonexistent/juliet/missing.jasset").unwrap_err();
            ErrorKind::Io(Arc::new(err))
        }
        "MissingKey" => ErrorKind::MissingKey("Kind"),
        "UnknownKind" => ErrorKind::UnknownKind("Rock".into()),
        "DuplicateClass" => ErrorKind::DuplicateClass {
            first: "game::Rock",
            second: "props::Rock",
            crc: 0x1234_ABCD,
        },
        "DuplicateEntityId" => ErrorKind::DuplicateEntityId {
            id: 0x42,
            other: PathBuf::from("Entities/66.jasset"),
        },
        "WrongAssetType" => ErrorKind::WrongAssetType {
            expected: "Entity",
            found: "Material".into(),
        },
        "Template" => ErrorKind::Template {
            path: "Assets/Templates/Missing.jasset".into(),
            reason: "file not found".into(),
        },
        "KindMismatch" => ErrorKind::KindMismatch {
            found: "Projectile".into(),
            template: "Inert".into(),
        },
        "Migration" => ErrorKind::Migration {
            from: 1,
            reason: "Speed is negative".into(),
        },
        "NoSuchProperty" => ErrorKind::NoSuchProperty {
            class: "Inert",
            key: "Colour".into(),
        },
        "NoSuchEntity" => ErrorKind::NoSuchEntity(0x42),
        "NotAnInstance" => ErrorKind::NotAnInstance(0x42),
        "ReservedKey" => ErrorKind::ReservedKey {
            class: "Vehicle",
            key: "Position",
            base: "Position",
        },
        "NewerBaseVersion" => {
            return Some(WarningKind::NewerBaseVersion { file: 2, code: 1 }.to_string())
        }
        "MissingAsset" => {
            let kind = WarningKind::MissingAsset {
                path: "Assets/Meshes/Statue.obj".into(),
            };
            return Some(kind.to_string());
        }
        "DanglingReference" => {
            return Some(WarningKind::DanglingReference { id: 0x42 }.to_string())
        }
        "ReferenceKindMismatch" => {
            let kind = WarningKind::ReferenceKindMismatch {
                id: 0x42,
                expected: "Switch".into(),
                found: "Inert".into(),
            };
            return Some(kind.to_string());
        }
        other => panic!("no display example `{other}` in this test"),
    };
    Some(kind.to_string())
}

/// Runs one check; `None` when it does not apply on this platform.
fn run(check: &Check) -> Option<String> {
    let d: Vec<&str> = check.directive.iter().map(String::as_str).collect();
    let input = check.input.as_deref().unwrap_or("");
    let mut buffer = TokenBuffer::new();
    Some(match d.as_slice() {
        ["tokenize"] => buffer
            .tokenize(input.as_bytes(), Path::new(PATH))
            .expect_err("the input must not tokenize")
            .to_string(),
        ["tokenize-bytes"] => buffer
            .tokenize(&unescape_bytes(input), Path::new(PATH))
            .expect_err("the input must not tokenize")
            .to_string(),
        ["decode", ty, key] => decode_error(input, ty, key),
        ["audit"] => {
            let doc = buffer.tokenize(input.as_bytes(), Path::new(PATH)).unwrap();
            let mut ar = Archive::loading(doc);
            ar.audit_unconsumed();
            ar.warnings()[0].to_string()
        }
        ["class-version", code] => {
            let doc = buffer.tokenize(input.as_bytes(), Path::new(PATH)).unwrap();
            let mut ar = Archive::loading(doc);
            ar.resolve_class_version(code.parse().unwrap()).unwrap();
            ar.warnings()[0].to_string()
        }
        ["display", name] => return display(name),
        other => panic!("unknown check {other:?}"),
    })
}

#[test]
fn every_documented_error_example_prints_the_documented_text() {
    let checks = checks(DOC);
    assert!(checks.len() >= 30, "found only {} checks", checks.len());
    let mut failures = Vec::new();
    for check in &checks {
        if let Some(found) = run(check) {
            if found != check.expected {
                failures.push(format!(
                    "docs/jasset-format.md:{} {:?}\n  documented: {}\n  printed:    {}",
                    check.line, check.directive, check.expected, found
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn the_catalogue_covers_every_kind() {
    // The variants of ErrorKind, ValueErrorKind and WarningKind (error.rs).
    let kinds = [
        "Io",
        "FileTooLarge",
        "InvalidUtf8",
        "NulByte",
        "InvalidKey",
        "ValueWithoutProperty",
        "HeaderWithoutValue",
        "ConflictMarker",
        "DuplicateKey",
        "BadValue",
        "MissingKey",
        "UnknownKind",
        "DuplicateClass",
        "DuplicateEntityId",
        "WrongAssetType",
        "Template",
        "KindMismatch",
        "Migration",
        "NoSuchProperty",
        "NoSuchEntity",
        "NotAnInstance",
        "ReservedKey",
        "InvalidNumber",
        "OutOfRange",
        "InvalidBool",
        "ComponentCount",
        "UnterminatedQuote",
        "UnknownEscape",
        "TrailingCharacters",
        "ExpectedOneLine",
        "UnknownVariant",
        "NotOneChar",
        "ExpectedEntry",
        "DuplicateEntry",
        "Custom",
        "UnknownKey",
        "UnknownKeysNotListed",
        "NewerClassVersion",
        "NewerBaseVersion",
        "DanglingReference",
        "ReferenceKindMismatch",
        "MissingAsset",
        "Other",
    ];
    let catalogue = &DOC[DOC.find("## 7. Errors").expect("the catalogue")..];
    for kind in kinds {
        assert!(
            catalogue.contains(&format!("`{kind}`")),
            "`{kind}` has no entry in the error catalogue"
        );
    }
}

#[test]
fn every_other_jasset_example_tokenizes() {
    let checked_inputs: Vec<String> = checks(DOC).into_iter().filter_map(|c| c.input).collect();
    let mut count = 0;
    for (info, body, line) in fenced_blocks(DOC) {
        if info != "jasset" || checked_inputs.contains(&body) {
            continue;
        }
        count += 1;
        let mut buffer = TokenBuffer::new();
        if let Err(e) = buffer.tokenize(body.as_bytes(), Path::new("doc.jasset")) {
            panic!("docs/jasset-format.md:{line}: {e}");
        }
    }
    assert!(count >= 3, "found {count} examples");
}

// ---------------------------------------------------------------------------------
// Section 4: keys.
// ---------------------------------------------------------------------------------

#[test]
fn key_section_claims() {
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    assert_eq!(key_crc("MeshInstance"), 0x317C_E263);
    assert_eq!(crc32(b"meshinstance"), 0x317C_E263);
    for spelling in ["mesh_instance", "meshinstance", "MESH_INSTANCE"] {
        assert_eq!(key_crc(spelling), key_crc("MeshInstance"));
        assert_eq!(
            key_crc_runtime(spelling.as_bytes()),
            key_crc("MeshInstance")
        );
    }
    assert_eq!(key_crc("class_version"), key_crc("ClassVersion"));
    assert_eq!(key_crc("template"), key_crc("Template"));
    assert_eq!(juliet_core::pascal_case("mesh_instance"), "MeshInstance");
}

// ---------------------------------------------------------------------------------
// Sections 2 and 3: lines.
// ---------------------------------------------------------------------------------

/// (key, value lines) of each property of `src`.
fn properties(src: &[u8]) -> Vec<(String, Vec<String>)> {
    let mut buffer = TokenBuffer::new();
    let doc = buffer.tokenize(src, Path::new("x")).unwrap();
    (0..doc.len())
        .map(|i| {
            (
                doc.key(i).to_owned(),
                doc.value(i).lines().map(str::to_owned).collect(),
            )
        })
        .collect()
}

#[test]
fn line_section_claims() {
    let p = |k: &str, v: &[&str]| (k.to_owned(), v.iter().map(|s| (*s).to_owned()).collect());
    // BOM skipped, CRLF trimmed, a lone CR inside a line is content, no-break space is
    // content.
    assert_eq!(
        properties(b"\xEF\xBB\xBF; A\r\n x\ry \t\r\r\n\xC2\xA0z\n"),
        vec![p("A", &["x\ry", "\u{a0}z"])]
    );
    // White space after `;`, around the key and around `:`.
    assert_eq!(
        properties(b";Key\n1\n;\tB :2\nC:3\n"),
        vec![p("Key", &["1"]), p("B", &["2"]), p("C", &["3"])]
    );
    // `Key: value` inside a block is a value line; `#` inside a value is content.
    assert_eq!(
        properties(b"; A\n1\nB: 2\n# c\nx # y\n"),
        vec![p("A", &["1", "B: 2", "x # y"])]
    );
    // Outside a block, `identifier:` starts a compact property.
    assert_eq!(properties(b"http://x\n"), vec![p("http", &["//x"])]);
    // No trailing comment on a header.
    let mut buffer = TokenBuffer::new();
    let err = buffer
        .tokenize(b"; Key # note\n1\n", Path::new("x"))
        .unwrap_err();
    assert!(matches!(err.kind, ErrorKind::InvalidKey { .. }));
    // Columns count characters, a tab is one; the BOM is not counted.
    let mut doc = buffer
        .tokenize("\u{feff}\t; Key\n\"é\\q\"\n".as_bytes(), Path::new("x"))
        .unwrap();
    assert_eq!((doc.node(0).line, doc.node(0).column), (1, 4));
    let err = doc.decode::<String>(0).unwrap_err();
    assert_eq!((err.location.line, err.location.column), (2, 3));
}

// ---------------------------------------------------------------------------------
// Section 5: the value table.
// ---------------------------------------------------------------------------------

fn written<T: Codec>(v: &T) -> String {
    let mut out = String::new();
    write_property(&mut out, "K", v);
    out.strip_prefix("; K\n")
        .unwrap()
        .strip_suffix('\n')
        .unwrap()
        .to_owned()
}

fn read<T: Codec>(text: &str) -> Result<T, ValueErrorKind> {
    let src = format!("; K\n{text}\n");
    let mut buffer = TokenBuffer::new();
    let mut doc = buffer.tokenize(src.as_bytes(), Path::new("x")).unwrap();
    let index = doc.find_name("K").unwrap();
    doc.decode::<T>(index).map_err(|e| match &e.kind {
        ErrorKind::BadValue { reason, .. } => reason.clone(),
        other => panic!("{other:?}"),
    })
}

#[test]
fn value_table_floats() {
    for (v, text) in [
        (100.0f32, "100.0"),
        (0.1, "0.1"),
        (-0.0, "-0.0"),
        (1e-7, "1e-7"),
        (1e16, "1e16"),
        (f32::MAX, "3.4028235e38"),
        (f32::INFINITY, "inf"),
        (f32::NEG_INFINITY, "-inf"),
    ] {
        assert_eq!(written(&v), text);
    }
    assert_eq!(written(&f32::NAN), "nan");
    assert_eq!(written(&-f64::NAN), "nan");
    for (text, v) in [
        ("100.000000", 100.0f32),
        ("+2.5", 2.5),
        (".5", 0.5),
        ("5.", 5.0),
        ("1E5", 1e5),
        ("INF", f32::INFINITY),
        ("-Infinity", f32::NEG_INFINITY),
    ] {
        assert_eq!(read::<f32>(text), Ok(v), "{text}");
    }
    assert!(read::<f64>("NaN").unwrap().is_nan());
    for text in ["0x10", "1_000", "1,5"] {
        assert_eq!(
            read::<f32>(text),
            Err(ValueErrorKind::InvalidNumber),
            "{text}"
        );
    }
}

#[test]
fn value_table_integers_and_bool() {
    assert_eq!(written(&45i32), "45");
    assert_eq!(written(&-1i8), "-1");
    assert_eq!(read::<i32>("+45"), Ok(45));
    assert_eq!(read::<u16>("007"), Ok(7));
    assert_eq!(written(&0x42u64), "0x0000000000000042");
    assert_eq!(read::<u64>("0xff"), Ok(255));
    assert_eq!(read::<u64>("0XFF"), Ok(255));
    assert_eq!(read::<u64>("66"), Ok(66));
    assert_eq!(read::<u64>("+66"), Ok(66));
    assert_eq!(
        (written(&true), written(&false)),
        ("true".into(), "false".into())
    );
    assert_eq!(read::<bool>("TRUE"), Ok(true));
    assert_eq!(read::<bool>("False"), Ok(false));
    assert_eq!(read::<bool>("1"), Ok(true));
    assert_eq!(read::<bool>("0"), Ok(false));
}

#[test]
fn value_table_vectors() {
    assert_eq!(written(&Vec3::new(142.5, 12.0, -84.2)), "142.5 12.0 -84.2");
    assert_eq!(written(&[0.0f32, 0.5]), "0.0 0.5");
    assert_eq!(
        read::<Vec3>("142.5, 12.0, -84.2"),
        Ok(Vec3::new(142.5, 12.0, -84.2))
    );
    assert_eq!(read::<Vec2>("1,,2"), Ok(Vec2::new(1.0, 2.0)));
    assert_eq!(read::<[f32; 3]>("1\t2 ,3"), Ok([1.0, 2.0, 3.0]));
}

#[test]
fn value_table_strings() {
    for bare in ["Character_Mesh_Hero", "Assets/Meshes/Rock_01.obj", "a//b"] {
        assert_eq!(written(&bare.to_owned()), bare);
    }
    for (s, text) in [
        ("", "\"\""),
        ("[]", "\"[]\""),
        ("//x", "\"//x\""),
        ("Grand Citadel Knight", "\"Grand Citadel Knight\""),
        ("a\u{a0}b", "\"a\u{a0}b\""),
        ("#1", "\"#1\""),
        ("a;b", "\"a;b\""),
        ("say \"hi\"", "\"say \\\"hi\\\"\""),
        ("a\\b\n\t\r", "\"a\\\\b\\n\\t\\r\""),
        ("nul\0", "\"nul\\u{0}\""),
        ("\u{1b}", "\"\\u{1B}\""),
    ] {
        assert_eq!(written(&s.to_owned()), text, "{s:?}");
    }
    assert_eq!(
        read::<String>("Grand Citadel Knight"),
        Ok("Grand Citadel Knight".into())
    );
    assert_eq!(read::<String>("a\"b"), Ok("a\"b".into()));
    assert_eq!(read::<String>("\"\\u{e9}\\u{1F600}\""), Ok("é😀".into()));
    assert_eq!(read::<String>("\"x\" \t"), Ok("x".into()));
}

#[test]
fn value_table_enums_and_lists() {
    assert_eq!(written(&Kind::Projectile), "Projectile");
    assert_eq!(read::<Kind>("projectile"), Ok(Kind::Projectile));
    assert_eq!(written(&vec![1i32, -2]), "1\n-2");
    assert_eq!(written(&Vec::<i32>::new()), "[]");
    assert_eq!(read::<Vec<f32>>("[]"), Ok(vec![]));
    assert_eq!(written(&vec!["[]".to_owned()]), "\"[]\"");
    assert_eq!(read::<Vec<String>>("\"[]\""), Ok(vec!["[]".to_owned()]));
    assert_eq!(
        read::<f32>("1.0\n2.0"),
        Err(ValueErrorKind::ExpectedOneLine(2))
    );
}
