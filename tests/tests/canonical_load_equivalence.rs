//! The one loader over a document filled as it is read against the same loader over
//! the tokenizer's document: for every input, `from_text` (straight from the text while
//! the file is canonical, then through the tokenizer) must give exactly what
//! tokenizing and `Reflect::load` + `audit_unconsumed` give over a new default value:
//! the same final value (floats bit-exact), the same `Ok`/`Err` (same error), the same
//! unknown properties and warnings; and `load_text` over any initial value must give
//! what that gives over the same initial value.
//!
//! A proptest saves random values of derived classes (every field type, renames,
//! aliases, deprecated keys, a migration, a skipped field), mutates the canonical text
//! (often not at all) and compares both from the same initial value; canonical files
//! must be read straight from their text. The mutations are in
//! `canonical_load_equivalence/`; the filled document alone is compared with the
//! tokenizer in `canonical_document_against_tokenizer.rs`.

use std::path::Path;

use glam::{Vec2, Vec3, Vec4};
use juliet_core::{
    from_text, load_text, Archive, Error, ErrorKind, LoadTextReport, Reflect, TokenBuffer,
    UnknownProperties, Warning,
};
use juliet_entities::{Codec, Entity};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError};

/// A unit enum property.
#[derive(Codec, Clone, Copy, PartialEq, Eq, Debug, Default)]
enum Team {
    #[default]
    Neutral,
    Red,
    #[jasset(rename = "Blu")]
    Blue,
}

/// Every supported field type, renamed and aliased keys, deprecated keys read by a
/// migration from versions 1 and 2 (which fails on version 0), and a skipped field.
#[derive(Entity, Debug, Clone, PartialEq)]
#[jasset(version = 3, deprecated = "Speed", deprecated = "Heat", migrate = Everything::migrate)]
struct Everything {
    flag: bool,
    tiny: i8,
    small: i16,
    #[jasset(alias = "Mid", alias = "middle_value")]
    medium: i32,
    large: i64,
    byte: u8,
    word: u16,
    #[jasset(default = u32::MAX)]
    mesh_instance: u32,
    entity_no: u64,
    single: f32,
    double: f64,
    uv: [f32; 2],
    bounds: [f32; 6],
    direction: Vec2,
    #[jasset(rename = "Pos", alias = "Location")]
    location: Vec3,
    rotation: Vec4,
    #[jasset(default = "Unnamed".to_owned())]
    name: String,
    team: Team,
    tags: Vec<String>,
    scores: Vec<i32>,
    waypoints: Vec<Vec3>,
    squad: Vec<Team>,
    route: Vec<Stop>,
    #[jasset(skip)]
    scratch: u32,
}

impl Everything {
    fn migrate(&mut self, from: u32, ar: &mut Archive<'_>) -> Result<(), Error> {
        if from == 0 {
            return Err(Error::file(
                "migrate",
                ErrorKind::Migration {
                    from,
                    reason: "version 0 never existed".to_owned(),
                },
            ));
        }
        if let Some(speed) = ar.read_deprecated::<f32>("Speed")? {
            self.single = speed;
        }
        if let Some(heat) = ar.read_deprecated::<i32>("Heat")? {
            self.medium = self.medium.wrapping_add(heat);
        }
        self.scratch = self.scratch.wrapping_add(from);
        Ok(())
    }
}

/// A record of a list: its leaves' lines are read straight from a canonical file.
#[derive(Codec, Debug, Clone, Default, PartialEq)]
struct Stop {
    wait: f32,
    label: String,
    hp: i32,
}

fn stop() -> impl Strategy<Value = Stop> {
    (float32(), text(), any::<i32>()).prop_map(|(wait, label, hp)| Stop { wait, label, hp })
}

/// A small version-1 class, so that structural mutations often hit its few keys.
#[derive(Entity, Debug, Clone, PartialEq)]
struct Small {
    #[jasset(alias = "Weight")]
    mass: f32,
    label: String,
    list: Vec<String>,
    code: u64,
}

const PATH: &str = "equiv.jasset";

#[path = "common/oracle.rs"]
mod oracle;
use oracle::save;

/// The general path, forced: tokenize, `Reflect::load`, the audit.
fn general<T: Reflect>(bytes: &[u8], value: &mut T) -> Result<LoadTextReport, Error> {
    oracle::general(bytes, value, PATH)
}

/// What a load gave, in comparable form: the result without the `direct` flag, and the
/// value's saved text plus its non-saved state.
#[derive(Debug, PartialEq)]
struct Outcome {
    result: Result<(Vec<Warning>, UnknownProperties), (Error, String)>,
    value: String,
}

fn outcome<T: Reflect>(result: Result<LoadTextReport, Error>, value: &T, extra: String) -> Outcome {
    Outcome {
        result: result
            .map(LoadTextReport::into_parts)
            .map_err(|e| (e.clone(), e.to_string())),
        value: save(value) + &extra,
    }
}

/// Loads `bytes` over a copy of `initial` both ways (`load_text` with a warm buffer, and
/// the forced general path); returns both outcomes and whether `from_text` reads the
/// file straight from its text.
fn both<T: Reflect + Clone>(
    buffer: &mut TokenBuffer,
    bytes: &[u8],
    initial: &T,
    extra: impl Fn(&T) -> String,
) -> (Outcome, Outcome, bool) {
    let direct = matches!(
        from_text::<T>(buffer, bytes, Path::new(PATH)),
        Ok((_, r)) if r.direct()
    );
    let mut a = initial.clone();
    let ra = load_text(buffer, bytes, Path::new(PATH), &mut a);
    let oa = outcome(ra, &a, extra(&a));
    let mut b = initial.clone();
    let rb = general(bytes, &mut b);
    let ob = outcome(rb, &b, extra(&b));
    (oa, ob, direct)
}

/// Checks that both agree on `bytes`; returns whether `from_text` reads it straight from
/// its text.
fn assert_same<T: Reflect + Clone>(
    buffer: &mut TokenBuffer,
    bytes: &[u8],
    initial: &T,
    extra: impl Fn(&T) -> String,
) -> Result<bool, TestCaseError> {
    let (direct_first, general, direct) = both(buffer, bytes, initial, extra);
    prop_assert_eq!(
        direct_first,
        general,
        "load_text (canonical: {}) and the general path differ on {:?}",
        direct,
        String::from_utf8_lossy(bytes)
    );
    Ok(direct)
}

/// Checks that `from_text` (a new value, its document filled as it is read) gives what
/// the general path gives over `T::default_value()`: the same result and, on success,
/// the same value; returns whether it read the file straight from its text.
fn assert_fresh_same<T: Reflect>(
    buffer: &mut TokenBuffer,
    bytes: &[u8],
    extra: impl Fn(&T) -> String,
) -> Result<bool, TestCaseError> {
    let fresh = from_text::<T>(buffer, bytes, Path::new(PATH));
    let direct = matches!(&fresh, Ok((_, r)) if r.direct());
    let got = match fresh {
        Ok((value, report)) => Ok((save(&value) + &extra(&value), report.into_parts())),
        Err(e) => Err((e.clone(), e.to_string())),
    };
    let mut value = T::default_value();
    let want = match general(bytes, &mut value) {
        Ok(report) => Ok((save(&value) + &extra(&value), report.into_parts())),
        Err(e) => Err((e.clone(), e.to_string())),
    };
    prop_assert_eq!(
        got,
        want,
        "from_text (direct: {}) and the general path differ on {:?}",
        direct,
        String::from_utf8_lossy(bytes)
    );
    Ok(direct)
}

fn everything_extra(v: &Everything) -> String {
    format!("scratch={}", v.scratch)
}

fn no_extra<T>(_: &T) -> String {
    String::new()
}

// ---------------------------------------------------------------------------------
// Random values.

/// Any float, with the edge values drawn more often.
fn float32() -> impl Strategy<Value = f32> {
    prop_oneof![
        any_f32(),
        prop::sample::select(vec![0.0, -0.0, 1.0, 0.1, f32::INFINITY, f32::MIN_POSITIVE]),
    ]
}

/// Strings with the characters that make the writer quote or escape.
fn text() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        4 => prop::char::range('a', 'z'),
        1 => prop::sample::select(vec![
            ' ', '\t', '"', '\\', '#', ';', '/', ':', '\n', '\r', '\0', '\u{1}', 'é', '×',
            '\u{A0}', '\u{FEFF}', '\u{2028}', '[', ']', '{', '}', '日',
        ]),
    ];
    prop_oneof![
        6 => prop::collection::vec(ch, 0..12).prop_map(|c| c.into_iter().collect()),
        1 => prop::sample::select(vec!["[]", "//x", "", " ", "\"", "a b", "true", "0x10"])
            .prop_map(str::to_owned),
        1 => (1usize..200).prop_map(|n| "L".repeat(n)),
    ]
}

fn team() -> impl Strategy<Value = Team> {
    prop::sample::select(vec![Team::Neutral, Team::Red, Team::Blue])
}

fn vec3() -> impl Strategy<Value = Vec3> {
    [float32(), float32(), float32()].prop_map(Vec3::from_array)
}

/// Lists of mostly 0 or 1 elements (one value line: the canonical form the document reads straight from the text), sometimes
/// more (several lines: the general path's).
fn list<S: Strategy>(item: impl Fn() -> S) -> impl Strategy<Value = Vec<S::Value>> {
    prop_oneof![
        6 => prop::collection::vec(item(), 0..2),
        1 => prop::collection::vec(item(), 2..4),
    ]
}

fn everything() -> impl Strategy<Value = Everything> {
    (
        (
            any::<bool>(),
            any::<i8>(),
            any::<i16>(),
            any::<i32>(),
            any::<i64>(),
            any::<u8>(),
            any::<u16>(),
            any::<u32>(),
            any::<u64>(),
            float32(),
            any_f64(),
        ),
        (
            [float32(), float32()],
            prop::array::uniform6(float32()),
            [float32(), float32()].prop_map(Vec2::from_array),
            vec3(),
            [float32(), float32(), float32(), float32()].prop_map(Vec4::from_array),
            text(),
            team(),
            list(text),
            list(any::<i32>),
            list(vec3),
            (list(team), list(stop)),
            any::<u32>(),
        ),
    )
        .prop_map(
            |(
                (
                    flag,
                    tiny,
                    small,
                    medium,
                    large,
                    byte,
                    word,
                    mesh_instance,
                    entity_no,
                    single,
                    double,
                ),
                (
                    uv,
                    bounds,
                    direction,
                    location,
                    rotation,
                    name,
                    team,
                    tags,
                    scores,
                    waypoints,
                    (squad, route),
                    scratch,
                ),
            )| Everything {
                flag,
                tiny,
                small,
                medium,
                large,
                byte,
                word,
                mesh_instance,
                entity_no,
                single,
                double,
                uv,
                bounds,
                direction,
                location,
                rotation,
                name,
                team,
                tags,
                scores,
                waypoints,
                squad,
                route,
                scratch,
            },
        )
}

fn small() -> impl Strategy<Value = Small> {
    (float32(), text(), list(text), any::<u64>()).prop_map(|(mass, label, list, code)| Small {
        mass,
        label,
        list,
        code,
    })
}

#[path = "common/floats.rs"]
mod floats;
use floats::{any_f32, any_f64};
#[path = "canonical_load_equivalence/mutate.rs"]
mod mutate;
use mutate::{layout, mutated, mutations};

// ---------------------------------------------------------------------------------
// The property tests.

/// Whether the writer puts `s` bare at the start of a value line, starting with `/`.
fn bare_slash(s: &str) -> bool {
    s.starts_with('/') && !juliet_core::needs_quotes(s)
}

/// 768 cases (or `PROPTEST_CASES`), no persistence files.
fn config() -> Config {
    Config {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(768),
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn everything_loads_the_same_both_ways(
        value in everything(),
        other in everything(),
        from_default in any::<bool>(),
        muts in mutations(),
        layout in layout(),
    ) {
        let initial = if from_default { Everything::default_value() } else { other };
        let text = save(&value);
        let mut buffer = TokenBuffer::new();
        // The canonical file itself gives what the general path gives, and reads
        // straight from the text (lists of several lines too) unless a bare string
        // starts with `/` (left to the tokenizer, which tells comments).
        let slash = std::iter::once(&value.name).chain(&value.tags).any(|s| bare_slash(s));
        let direct = assert_same(&mut buffer, text.as_bytes(), &initial, everything_extra)?;
        prop_assert_eq!(direct, !slash);
        prop_assert_eq!(assert_fresh_same(&mut buffer, text.as_bytes(), everything_extra)?, direct);
        let bytes = mutated(&text, &muts, layout);
        let mutated_direct = assert_same(&mut buffer, &bytes, &initial, everything_extra)?;
        // A new value reads directly exactly when an existing one does.
        prop_assert_eq!(assert_fresh_same(&mut buffer, &bytes, everything_extra)?, mutated_direct);
        // The buffer the mutated file left behind reads the canonical one the same.
        prop_assert_eq!(assert_same(&mut buffer, text.as_bytes(), &initial, everything_extra)?, direct);
    }

    #[test]
    fn small_loads_the_same_both_ways(
        value in small(),
        other in small(),
        from_default in any::<bool>(),
        muts in mutations(),
        layout in layout(),
    ) {
        let initial = if from_default { Small::default_value() } else { other };
        let text = save(&value);
        let mut buffer = TokenBuffer::new();
        let direct = assert_same(&mut buffer, text.as_bytes(), &initial, no_extra)?;
        let slash = std::iter::once(&value.label).chain(&value.list).any(|s| bare_slash(s));
        prop_assert_eq!(direct, !slash);
        prop_assert_eq!(assert_fresh_same::<Small>(&mut buffer, text.as_bytes(), no_extra)?, direct);
        let bytes = mutated(&text, &muts, layout);
        let mutated_direct = assert_same(&mut buffer, &bytes, &initial, no_extra)?;
        prop_assert_eq!(assert_fresh_same::<Small>(&mut buffer, &bytes, no_extra)?, mutated_direct);
        prop_assert_eq!(assert_same(&mut buffer, text.as_bytes(), &initial, no_extra)?, direct);
    }
}

// ---------------------------------------------------------------------------------
// Divergences the proptest found, minimized.

/// Loads `text` over a default `Small` both ways and checks they agree; returns the
/// direct-first outcome.
fn small_both_ways(text: &str) -> (Outcome, bool) {
    let mut buffer = TokenBuffer::new();
    let (direct_first, general, direct) = both(
        &mut buffer,
        text.as_bytes(),
        &Small::default_value(),
        no_extra,
    );
    assert_eq!(direct_first, general, "{text:?}");
    (direct_first, direct)
}

/// A truncated file: the canonical reading takes `Mass` before it meets a header
/// without a value, which the tokenizer rejects: the error is the tokenizer's, and
/// `load_text`, which tokenizes first, leaves the value alone.
#[test]
fn a_tokenizer_error_after_direct_properties_leaves_the_value_alone() {
    for text in [
        "; Mass\n1.5\n; Label\n",
        "; Mass\n1.5\n; mass\n2.5\n",
        "; Mass\n1.5\n;\n",
        "; Mass\n1.5\n; Code\n1\n; 9x\n2\n",
    ] {
        let (outcome, direct) = small_both_ways(text);
        assert!(!direct && outcome.result.is_err(), "{text:?}: {outcome:?}");
        assert_eq!(outcome.value, save(&Small::default_value()), "{text:?}");
    }
}

/// `ClassVersion` after the first property, not a number: the walk reads `Mass`, then
/// the class version fails, the same both ways.
#[test]
fn a_late_bad_class_version_fails_after_the_properties() {
    let (outcome, direct) = small_both_ways("; Mass\n1.5\n; ClassVersion\nx\n");
    assert!(!direct);
    let Err((err, _)) = &outcome.result else {
        panic!("a bad ClassVersion loads: {outcome:?}");
    };
    assert_eq!(err.key.as_deref(), Some("ClassVersion"));
    let expected = Small {
        mass: 1.5,
        ..Small::default_value()
    };
    assert_eq!(outcome.value, save(&expected));
}

/// A value that does not decode, after values that do: both ways write the ones
/// before it and fail on it with the same error.
#[test]
fn a_bad_value_after_good_ones_fails_the_same_both_ways() {
    let (outcome, direct) = small_both_ways("; Mass\n1.5\n; Label\nx\n; Code\nzz\n");
    assert!(!direct && outcome.result.is_err());
    let expected = Small {
        mass: 1.5,
        label: "x".to_owned(),
        ..Small::default_value()
    };
    assert_eq!(outcome.value, save(&expected));
}

/// The canonical forms still read directly, with absent keys kept.
#[test]
fn canonical_files_read_directly() {
    let (outcome, direct) = small_both_ways("; ClassVersion\n1\n; Mass\n1.5\n; Code\n7\n");
    assert!(direct, "{outcome:?}");
    let expected = Small {
        mass: 1.5,
        code: 7,
        ..Small::default_value()
    };
    assert_eq!(outcome.value, save(&expected));
    let (_, direct) = small_both_ways("; Label\n\"caf\u{e9} \\\"x\\\"\"");
    assert!(direct);
}

/// `from_text` decodes as it goes: a file the canonical reading gives up on after some
/// properties goes on over the tokenizer's nodes, so the result is the general path's
/// (an unknown key reported, or the value's error).
#[test]
fn from_text_goes_on_the_general_way_when_it_declines_part_way() {
    let mut buffer = TokenBuffer::new();
    let path = Path::new(PATH);
    let (value, report) =
        from_text::<Small>(&mut buffer, b"; Mass\n1.5\n; Label\nx\n; Extra\n1\n", path).unwrap();
    assert!(!report.direct());
    let expected = Small {
        mass: 1.5,
        label: "x".to_owned(),
        ..Small::default_value()
    };
    assert_eq!(value, expected);
    let unknown: Vec<&str> = report.unknown().iter().map(|u| u.key()).collect();
    assert_eq!(unknown, ["Extra"]);
    assert_eq!(
        report.warnings().len(),
        1,
        "the unknown key is warned about"
    );
    // Read directly up to `Code`, whose value does not decode: the general path's error.
    let err = from_text::<Small>(&mut buffer, b"; Mass\n1.5\n; Code\nzz\n", path).unwrap_err();
    assert_eq!((err.key.as_deref(), err.location.line), (Some("Code"), 4));
    // And a canonical file reads directly, absent keys at their defaults.
    let (value, report) = from_text::<Small>(&mut buffer, b"; Code\n7\n", path).unwrap();
    assert!(report.direct() && report.warnings().is_empty() && report.unknown().is_empty());
    let expected = Small {
        code: 7,
        ..Small::default_value()
    };
    assert_eq!(value, expected);
}
