//! Hostile inputs for `from_text` (a document filled as it is read: straight from the
//! text while the file is canonical, then through the tokenizer): for every
//! input, `from_text::<T>` must give exactly what the general path (tokenizer,
//! `Reflect::load`, the unconsumed-key audit) gives over `T::default_value()`: the same
//! `Ok`/`Err` and error text, the same value (floats bit-exact), the same warnings and
//! unknown keys; it must never panic, and it must drop every value it makes.
//!
//! The inputs are built systematically from canonical files: every prefix of the
//! property blocks followed by every hostile tail, every truncation, every byte
//! replaced by every troublesome byte.

use std::cell::Cell;
use std::path::Path;

use glam::Vec3;
use juliet_core::{
    from_text, load_text, Archive, Error, ErrorKind, LoadTextReport, PropertyType, Reflect,
    TokenBuffer, UnknownProperties, Value, ValueError, Warning,
};
use juliet_entities::{Codec, Entity};

const PATH: &str = "hostile.jasset";

thread_local! {
    /// `Counted` values alive on this thread (made minus dropped).
    static LIVE: Cell<i64> = const { Cell::new(0) };
}

/// An `i32` property whose values are counted, to see that nothing leaks.
#[derive(Debug, PartialEq)]
struct Counted(i32);

impl Counted {
    fn new(v: i32) -> Counted {
        LIVE.set(LIVE.get() + 1);
        Counted(v)
    }
}

impl Clone for Counted {
    fn clone(&self) -> Counted {
        Counted::new(self.0)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        LIVE.set(LIVE.get() - 1);
    }
}

impl juliet_core::Codec for Counted {
    const PROPERTY_TYPE: PropertyType = PropertyType::Custom("counted i32");

    fn encode(&self, out: &mut String) {
        self.0.encode(out);
    }

    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        i32::decode(value).map(Counted::new)
    }
}

/// A unit enum property.
#[derive(Codec, Clone, Copy, PartialEq, Eq, Debug, Default)]
enum Mood {
    #[default]
    Calm,
    Angry,
    #[jasset(rename = "Zen")]
    Serene,
}

/// Version 2 with a migration (reading two deprecated keys), renamed and aliased keys,
/// declared defaults, a skipped field, lists, a unit enum, floats and a counted value.
#[derive(Entity, Debug, Clone, PartialEq)]
#[jasset(version = 2, deprecated = "Speed", deprecated = "OldName", migrate = Hostile::migrate)]
struct Hostile {
    #[jasset(default = Counted::new(7))]
    counted: Counted,
    #[jasset(default = "Anon".to_owned())]
    name: String,
    #[jasset(alias = "Temp")]
    heat: f32,
    precise: f64,
    tiny: i8,
    big: u64,
    flag: bool,
    mood: Mood,
    #[jasset(rename = "Where", alias = "Location")]
    place: Vec3,
    #[jasset(default = vec!["x".to_owned()])]
    tags: Vec<String>,
    counts: Vec<i32>,
    #[jasset(skip, default = 99)]
    scratch: u32,
}

impl Hostile {
    fn migrate(&mut self, from: u32, ar: &mut Archive<'_>) -> Result<(), Error> {
        if let Some(speed) = ar.read_deprecated::<f32>("Speed")? {
            self.heat = speed;
        }
        if let Some(old) = ar.read_deprecated::<String>("OldName")? {
            self.name = old;
        }
        self.scratch = self.scratch.wrapping_add(from * 1000);
        Ok(())
    }
}

#[path = "common/oracle.rs"]
mod oracle;
use oracle::save;

/// The general path, forced: tokenize, `Reflect::load`, the audit.
fn general<T: Reflect>(bytes: &[u8], value: &mut T) -> Result<LoadTextReport, Error> {
    oracle::general(bytes, value, PATH)
}

type Got = Result<(String, (Vec<Warning>, UnknownProperties)), (Error, String)>;

/// Checks `from_text::<T>` against the general path over `T::default_value()` (and
/// `load_text` over a default value against both), and that no `Counted` leaks;
/// returns whether `from_text` read the file directly.
fn check<T: Reflect>(buffer: &mut TokenBuffer, bytes: &[u8], extra: fn(&T) -> String) -> bool {
    let live = LIVE.get();
    let shown = String::from_utf8_lossy(bytes).into_owned();
    let fresh = from_text::<T>(buffer, bytes, Path::new(PATH));
    let direct = matches!(&fresh, Ok((_, r)) if r.direct());
    let got: Got = match fresh {
        Ok((value, report)) => Ok((save(&value) + &extra(&value), report.into_parts())),
        Err(e) => Err((e.clone(), e.to_string())),
    };
    let mut value = T::default_value();
    let want: Got = match general(bytes, &mut value) {
        Ok(report) => Ok((save(&value) + &extra(&value), report.into_parts())),
        Err(e) => Err((e.clone(), e.to_string())),
    };
    assert_eq!(
        got, want,
        "from_text (direct: {direct}) differs on {shown:?}"
    );
    // `load_text` over a default value must agree too.
    let mut over = T::default_value();
    let kept = load_text(buffer, bytes, Path::new(PATH), &mut over);
    let kept: Got = match kept {
        Ok(report) => Ok((save(&over) + &extra(&over), report.into_parts())),
        Err(e) => Err((e.clone(), e.to_string())),
    };
    let want_over: Got = match want {
        Ok(w) => Ok(w),
        // On error `load_text` leaves the value as `Reflect::load` left it, not the
        // default: compare the error only.
        Err(e) => {
            assert_eq!(
                kept.as_ref().err(),
                Some(&e),
                "load_text differs on {shown:?}"
            );
            drop((value, over));
            assert_eq!(LIVE.get(), live, "a Counted leaked on {shown:?}");
            return direct;
        }
    };
    assert_eq!(kept, want_over, "load_text differs on {shown:?}");
    drop((value, over));
    assert_eq!(LIVE.get(), live, "a Counted leaked on {shown:?}");
    direct
}

fn hostile_extra(v: &Hostile) -> String {
    format!("scratch={}", v.scratch)
}

fn a_hostile() -> Hostile {
    Hostile {
        counted: Counted::new(-5),
        name: "caf\u{e9} \"q\" \\ ;#".to_owned(),
        heat: -0.0,
        precise: f64::NAN,
        tiny: -128,
        big: u64::MAX,
        flag: true,
        mood: Mood::Serene,
        place: Vec3::new(f32::INFINITY, -1.5e-39, 3.0),
        tags: vec!["only".to_owned()],
        counts: vec![],
        scratch: 5,
    }
}

/// The canonical file split into its blocks (`; Key\nvalue\n`).
fn blocks(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("; ") || out.is_empty() {
            out.push(line.to_owned());
        } else {
            out.last_mut().unwrap().push_str(line);
        }
    }
    out
}

/// Lines that make the canonical reading decline (or that the general path rejects) when
/// they come after any prefix of the blocks.
const TAILS: &[&str] = &[
    "",
    "\n",
    "# comment\n",
    "// comment\n",
    "; Unknown\n1\n",
    "; Counted\n1\n",
    "; Counted\nnope\n",
    "; Name\n\"unterminated\n",
    "; Name\n\"bad \\q escape\"\n",
    "; ClassVersion\n2\n",
    "; ClassVersion\n1\n",
    "; ClassVersion\n3\n",
    "; ClassVersion\nx\n",
    "; Temp\n4.5\n",
    "; Location\n1 2 3\n",
    "; Speed\n9\n",
    "; OldName\nold\n",
    "; heat\n1\n",
    "; Tiny\n128\n",
    "; Tiny\n-129\n",
    "; Big\n18446744073709551616\n",
    "; Big\n-1\n",
    "; Precise\ninf\n",
    "; Precise\n-nan\n",
    "; Flag\nyes\n",
    "; Mood\nzen\n",
    "; Mood\nSerene\n",
    "; Tags\n\"a\"\n\"b\"\n",
    "; Counts\n1\n2\n3\n",
    "; Counts\n[1, 2]\n",
    "; Where\n1 2\n",
    "; Scratch\n1\n",
    ";\n",
    "; \n",
    ";Counted\n1\n",
    "; Counted: 3\n",
    "Counted: 3\n",
    "stray value\n",
    "; Counted\n",
    "; Counted\n\n",
    "; Counted\n 1\n",
    "; Counted\n1 \n",
    "; Counted\r\n1\r\n",
    "\r\n",
    "\u{FEFF}",
    "\u{A0}\n",
    "; 9Key\n1\n",
];

/// Long non-ASCII text (the UTF-8 check instead of the ASCII one, lines across the
/// 64-byte newline mask words) and lists of several value lines.
fn a_long_one() -> Hostile {
    Hostile {
        name: "\u{65e5}\u{672c} ".repeat(40) + "\u{e9}",
        tags: vec!["\u{d7}".repeat(70), "b".repeat(63)],
        counts: vec![1, -2, 3],
        ..a_hostile()
    }
}

#[test]
fn every_prefix_of_blocks_then_a_hostile_tail() {
    let mut buffer = TokenBuffer::new();
    let mut cases = 0;
    for value in [a_hostile(), Hostile::default_value(), a_long_one()] {
        cases += prefixes_then_tails(&mut buffer, &value);
    }
    assert!(cases > 3000, "{cases}");
}

/// Runs every prefix-then-tail variant of `value`'s saved file; returns how many.
fn prefixes_then_tails(buffer: &mut TokenBuffer, value: &Hostile) -> usize {
    let text = save(value);
    // The writer's file is read in canonical form, lists of several value lines too.
    assert!(check::<Hostile>(buffer, text.as_bytes(), hostile_extra));
    let b = blocks(&text);
    let mut cases = 0;
    for k in 0..=b.len() {
        let head = b[..k].concat();
        let rest = b[k..].concat();
        for tail in TAILS {
            // The tail after the first k blocks, with or without the rest after it,
            // and the tail replacing block k.
            for bytes in [
                format!("{head}{tail}"),
                format!("{head}{tail}{rest}"),
                format!(
                    "{head}{tail}{}",
                    b.get(k + 1..).map_or(String::new(), |r| r.concat())
                ),
            ] {
                check::<Hostile>(buffer, bytes.as_bytes(), hostile_extra);
                cases += 1;
            }
        }
        // Block k doubled, and block k moved to the end.
        if k < b.len() {
            let doubled = format!("{head}{}{rest}", b[k]);
            check::<Hostile>(buffer, doubled.as_bytes(), hostile_extra);
            let moved = format!("{head}{}{}", b[k + 1..].concat(), b[k]);
            check::<Hostile>(buffer, moved.as_bytes(), hostile_extra);
        }
    }
    cases
}

/// Bytes that change how a file reads.
const BYTES: &[u8] = &[
    0, b'\r', b'\n', b' ', b'\t', b';', b'#', b'/', b'"', b'\\', b':', b'[', 0xFF, 0xC3, b'x',
    b'0', b'-',
];

#[test]
fn every_truncation_and_every_byte_replaced() {
    let mut buffer = TokenBuffer::new();
    for value in [a_hostile(), a_long_one()] {
        edits(&mut buffer, save(&value).as_bytes(), hostile_extra);
    }
}

/// Every truncation of `bytes`, and each byte replaced by (and preceded by) each of
/// [`BYTES`].
fn edits<T: Reflect>(buffer: &mut TokenBuffer, bytes: &[u8], extra: fn(&T) -> String) {
    for cut in 0..=bytes.len() {
        check::<T>(buffer, &bytes[..cut], extra);
    }
    let mut edited = bytes.to_vec();
    for i in 0..bytes.len() {
        for &b in BYTES {
            edited[i] = b;
            check::<T>(buffer, &edited, extra);
            // Inserted before byte i as well.
            let mut inserted = bytes.to_vec();
            inserted.insert(i, b);
            check::<T>(buffer, &inserted, extra);
        }
        edited[i] = bytes[i];
    }
}

#[test]
fn canonical_files_of_each_single_property_read_directly() {
    let mut buffer = TokenBuffer::new();
    let text = save(&a_hostile());
    let b = blocks(&text);
    // Each block alone, after the `ClassVersion` block, and every prefix: all canonical.
    for k in 1..b.len() {
        let one = format!("{}{}", b[0], b[k]);
        assert!(
            check::<Hostile>(&mut buffer, one.as_bytes(), hostile_extra),
            "{one:?}"
        );
        let prefix = b[..=k].concat();
        assert!(check::<Hostile>(
            &mut buffer,
            prefix.as_bytes(),
            hostile_extra
        ));
        // Without its final newline, too.
        let cut = prefix.trim_end_matches('\n');
        assert!(check::<Hostile>(&mut buffer, cut.as_bytes(), hostile_extra));
    }
    // The empty file is canonical: the defaults, without the migration (`scratch` at
    // its default 99, not 99 + 1000 * from).
    assert!(check::<Hostile>(&mut buffer, b"", hostile_extra));
    let (value, report) = from_text::<Hostile>(&mut buffer, b"", Path::new(PATH)).unwrap();
    assert!(report.direct());
    assert_eq!((value.scratch, value.counted.0), (99, 7));
}

/// A file declined after the counted property was decoded: the result is the general
/// path's, and nothing leaks on `Ok` or `Err` (only the returned value is alive).
#[test]
fn a_file_declined_after_decoding_leaks_no_value() {
    let mut buffer = TokenBuffer::new();
    let live = LIVE.get();
    let (value, report) = from_text::<Hostile>(
        &mut buffer,
        b"; Counted\n1\n; Name\nn\n; Extra\n2\n",
        Path::new(PATH),
    )
    .unwrap();
    assert!(!report.direct());
    assert_eq!((value.counted.0, value.name.as_str()), (1, "n"));
    assert_eq!(report.unknown().iter().next().unwrap().key(), "Extra");
    assert_eq!(LIVE.get() - live, 1);
    drop(value);
    assert_eq!(LIVE.get(), live);
    let err = from_text::<Hostile>(&mut buffer, b"; Counted\n1\n; Heat\nhot\n", Path::new(PATH))
        .unwrap_err();
    assert_eq!((err.key.as_deref(), err.location.line), (Some("Heat"), 4));
    assert!(matches!(err.kind, ErrorKind::BadValue { .. }), "{err}");
    assert_eq!(LIVE.get(), live);
}

/// A migration from an older version: never taken by the canonical reading, whatever was
/// decoded before `ClassVersion` turns up late.
#[test]
fn old_versions_migrate_the_same_even_when_class_version_comes_late() {
    let mut buffer = TokenBuffer::new();
    for text in [
        "; ClassVersion\n1\n; Heat\n2\n; Speed\n5\n",
        "; Heat\n2\n; ClassVersion\n1\n",
        "; Counted\n3\n; Name\nx\n; ClassVersion\n1\n; OldName\ny\n",
        "; Counted\n3\n; ClassVersion\n0\n",
    ] {
        assert!(!check::<Hostile>(
            &mut buffer,
            text.as_bytes(),
            hostile_extra
        ));
    }
    let (value, _) = from_text::<Hostile>(
        &mut buffer,
        b"; Counted\n3\n; Name\nx\n; ClassVersion\n1\n; OldName\ny\n",
        Path::new(PATH),
    )
    .unwrap();
    assert_eq!(
        (value.counted.0, value.name.as_str(), value.scratch),
        (3, "y", 1099)
    );
}

/// Values the codecs read at their edges, one property each, through the canonical reading:
/// each must give the general path's value bit for bit, or its error.
#[test]
fn value_edges_read_the_same_both_ways() {
    let mut buffer = TokenBuffer::new();
    let values: &[(&str, &[&str])] = &[
        (
            "Heat",
            &[
                "-0", "-0.0", "nan", "NaN", "-inf", "inf", "1e39", "-1e-46", "0x1", "1_0", "+1",
                ".5", "5.", "1e", "0.1",
            ],
        ),
        (
            "Precise",
            &[
                "-0",
                "NaN",
                "-NaN",
                "1e309",
                "4.9e-324",
                "2.2250738585072014e-308",
                "infinity",
                "+inf",
            ],
        ),
        (
            "Tiny",
            &[
                "-128", "127", "128", "-129", "0x7F", "0x80", "-0x80", "+5", "-0", "1.0", "007",
            ],
        ),
        (
            "Big",
            &[
                "0",
                "18446744073709551615",
                "18446744073709551616",
                "0xFFFFFFFFFFFFFFFF",
                "0x10000000000000000",
                "-0",
                "+1",
            ],
        ),
        (
            "Counted",
            &[
                "2147483647",
                "2147483648",
                "-2147483648",
                "-2147483649",
                "0x7FFFFFFF",
                "0x80000000",
            ],
        ),
        (
            "Flag",
            &["true", "false", "1", "0", "True", "TRUE", "yes", "2"],
        ),
        (
            "Mood",
            &[
                "Calm", "Angry", "Zen", "Serene", "calm", "zen", "\"Zen\"", "0", "1",
            ],
        ),
        (
            "Where",
            &[
                "1 2 3",
                "1 2",
                "1 2 3 4",
                "1,2,3",
                "1  2  3",
                "1\t2\t3",
                "nan -0 inf",
                "(1, 2, 3)",
            ],
        ),
        (
            "Name",
            &[
                "plain",
                "\"quoted\"",
                "\"\"",
                "\"a\\nb\"",
                "\"\\u00e9\"",
                "\"\\x41\"",
                "\"\\\"",
                "\"a\" b",
                "a \"b\"",
                "\"tab\\t\"",
                "caf\u{e9}",
                "\u{2028}",
                "\"\u{0}\"",
            ],
        ),
        (
            "Tags",
            &[
                "[]",
                "[a]",
                "\"a\"",
                "a b",
                "[\"a\", \"b\"]",
                "[a, b",
                "\"\"",
                "[ ]",
            ],
        ),
        (
            "Counts",
            &["[]", "1", "[1, 2]", "1 2", "[1,2,]", "[x]", "[2147483648]"],
        ),
    ];
    let mut direct = 0;
    for (key, list) in values {
        for value in *list {
            for text in [
                format!("; {key}\n{value}\n"),
                format!("; {key}\n{value}"),
                format!("; ClassVersion\n2\n; {key}\n{value}\n"),
            ] {
                direct += usize::from(check::<Hostile>(
                    &mut buffer,
                    text.as_bytes(),
                    hostile_extra,
                ));
            }
        }
    }
    // Most edge values decode, so most of these files took the canonical reading.
    assert!(direct > 150, "{direct} files read directly");
}

#[path = "from_text_hostile/loaders.rs"]
mod loaders;
#[path = "from_text_hostile/random.rs"]
mod random;
