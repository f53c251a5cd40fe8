//! The direct load path against the general one: for every input, `load_text` (which
//! tries `Reflect::load_direct` first) must give exactly what tokenizing and
//! `Reflect::load` + `audit_unconsumed` give: the same final value (floats bit-exact),
//! the same `Ok`/`Err` (same error), the same unknown properties and warnings.
//!
//! A proptest saves random values of derived classes (every field type, renames,
//! aliases, deprecated keys, a migration, a skipped field), mutates the canonical text
//! (often not at all) and compares both paths from the same initial value; canonical
//! files must take the direct path. A second proptest drives a hand-written
//! `DirectCursor` sequence over random text from a small alphabet and checks every
//! accepted file against the tokenizer's properties.

use std::path::Path;

use glam::{Vec2, Vec3, Vec4};
use juliet_core::{
    load_text, Archive, Error, ErrorKind, Key, LoadReport, Reflect, TokenBuffer, UnknownProperty,
    Warning,
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
    entity_id: u64,
    single: f32,
    double: f64,
    uv: [f32; 2],
    bounds: [f32; 6],
    direction: Vec2,
    #[jasset(rename = "Pos", alias = "Location")]
    position: Vec3,
    rotation: Vec4,
    #[jasset(default = "Unnamed".to_owned())]
    name: String,
    team: Team,
    tags: Vec<String>,
    scores: Vec<i32>,
    waypoints: Vec<Vec3>,
    squad: Vec<Team>,
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

/// The general path, forced: tokenize, `Reflect::load`, the audit.
fn general<T: Reflect>(bytes: &[u8], value: &mut T) -> Result<LoadReport, Error> {
    let mut buffer = TokenBuffer::new();
    let mut ar = Archive::loading(buffer.tokenize(bytes, Path::new(PATH))?);
    value.load(&mut ar)?;
    let unknown = ar.audit_unconsumed();
    Ok(LoadReport {
        warnings: ar.take_warnings(),
        unknown,
        direct: false,
    })
}

/// Saved text of `value` (exact for floats: the writer's shortest round-trip form).
fn save<T: Reflect>(value: &T) -> String {
    let mut out = String::new();
    value.save(&mut Archive::saving(&mut out));
    out
}

/// What a load gave, in comparable form: the result without the `direct` flag, and the
/// value's saved text plus its non-saved state.
#[derive(Debug, PartialEq)]
struct Outcome {
    result: Result<(Vec<Warning>, Vec<UnknownProperty>), (Error, String)>,
    value: String,
}

fn outcome<T: Reflect>(result: Result<LoadReport, Error>, value: &T, extra: String) -> Outcome {
    Outcome {
        result: result
            .map(|r| (r.warnings, r.unknown))
            .map_err(|e| (e.clone(), e.to_string())),
        value: save(value) + &extra,
    }
}

/// Loads `bytes` over a copy of `initial` both ways (the direct-first `load_text` with
/// a warm buffer, and the forced general path); returns both outcomes and whether the
/// direct path was taken.
fn both<T: Reflect + Clone>(
    buffer: &mut TokenBuffer,
    bytes: &[u8],
    initial: &T,
    extra: impl Fn(&T) -> String,
) -> (Outcome, Outcome, bool) {
    let mut a = initial.clone();
    let ra = load_text(buffer, bytes, Path::new(PATH), &mut a);
    let direct = matches!(&ra, Ok(r) if r.direct);
    let oa = outcome(ra, &a, extra(&a));
    let mut b = initial.clone();
    let rb = general(bytes, &mut b);
    let ob = outcome(rb, &b, extra(&b));
    (oa, ob, direct)
}

/// Checks that both paths agree on `bytes`; returns whether the direct path read it.
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
        "load_text (direct: {}) and the general path differ on {:?}",
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

fn float32() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<u32>().prop_map(|b| {
            let f = f32::from_bits(b);
            if f.is_nan() {
                f32::NAN
            } else {
                f
            }
        }),
        prop::sample::select(vec![0.0, -0.0, 1.0, 0.1, f32::INFINITY, f32::MIN_POSITIVE]),
    ]
}

fn float64() -> impl Strategy<Value = f64> {
    any::<u64>().prop_map(|b| {
        let f = f64::from_bits(b);
        if f.is_nan() {
            f64::NAN
        } else {
            f
        }
    })
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

/// Lists of mostly 0 or 1 elements (one value line: the direct path's form), sometimes
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
            float64(),
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
            list(team),
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
                    entity_id,
                    single,
                    double,
                ),
                (
                    uv,
                    bounds,
                    direction,
                    position,
                    rotation,
                    name,
                    team,
                    tags,
                    scores,
                    waypoints,
                    squad,
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
                entity_id,
                single,
                double,
                uv,
                bounds,
                direction,
                position,
                rotation,
                name,
                team,
                tags,
                scores,
                waypoints,
                squad,
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

// ---------------------------------------------------------------------------------
// Mutations of the canonical text.

/// One property as lines: the header line and its value lines.
#[derive(Debug, Clone)]
struct Block {
    lines: Vec<String>,
}

/// Splits canonical text into blocks (each starts with a `;` line).
fn blocks(text: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for line in text.lines() {
        if line.starts_with(';') || out.is_empty() {
            out.push(Block {
                lines: vec![line.to_owned()],
            });
        } else {
            out.last_mut().unwrap().lines.push(line.to_owned());
        }
    }
    out
}

/// Text pieces the mutations insert.
const JUNK_VALUES: &[&str] = &[
    "abc",
    "1.5.5",
    "\"unterminated",
    "0x",
    "-",
    "[]",
    "\"a\"b",
    "Key: 1",
    "1 2 3 4 5",
    "# not a comment",
    "// nor this",
    "; Header",
    ";",
    "nan",
    "+7",
    "007",
    "1e999",
    "0xFFFFFFFFFFFFFFFFF",
    "TRUE",
    "1,2,,3",
    "\"\\u{110000}\"",
    "\"\\q\"",
    "3\r4",
    "é",
    "\u{A0}",
    "\u{FEFF}x",
    "red",
    "-0",
    "256",
    "99999999999",
];

const KEY_SPELLINGS: &[&str] = &[
    "Mid",
    "middle_value",
    "Location",
    "Position",
    "Weight",
    "Speed",
    "Heat",
    "ClassVersion",
    "class_version",
    "CLASSVERSION",
    "Unknown",
    "Colour",
    "Mass",
    "mass",
    "LABEL",
    "_list",
    "Co_de",
    "Flag",
    "tiny",
    "Single",
    "Name",
    "Tags",
    "Pos",
    "pos",
];

/// A mutation: a kind and three random numbers it picks positions and pieces with.
type Mutation = (u8, usize, usize, usize);

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    prop_oneof![
        2 => Just(Vec::new()),
        5 => prop::collection::vec((0u8..24, any::<usize>(), any::<usize>(), any::<usize>()), 1..4),
    ]
}

/// How the lines are joined and what wraps the file.
#[derive(Debug, Clone, Copy)]
struct Layout {
    crlf: bool,
    bom: bool,
    final_newline: bool,
    /// A byte-level change: 0 none, 1 NUL, 2 invalid UTF-8, 3 lone CR, 4 truncate.
    bytes: (u8, usize),
}

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        3 => Just(Layout { crlf: false, bom: false, final_newline: true, bytes: (0, 0) }),
        2 => (any::<bool>(), any::<bool>(), any::<bool>(), (0u8..5, any::<usize>())).prop_map(
            |(crlf, bom, final_newline, bytes)| Layout { crlf, bom, final_newline, bytes }
        ),
    ]
}

fn pick<T: Clone>(items: &[T], n: usize) -> T {
    items[n % items.len()].clone()
}

/// A key spelled another way: lower case, upper case, or with underscores.
fn respell(key: &str, how: usize) -> String {
    match how % 4 {
        0 => key.to_ascii_lowercase(),
        1 => key.to_ascii_uppercase(),
        2 => {
            let mut s = String::from("_");
            s.push_str(key);
            s
        }
        _ => {
            let mut s = String::new();
            for (i, c) in key.chars().enumerate() {
                if i > 0 && c.is_ascii_uppercase() {
                    s.push('_');
                }
                s.push(c);
            }
            s
        }
    }
}

fn apply(blocks: &mut Vec<Block>, (kind, a, b, c): Mutation) {
    let n = blocks.len();
    let junk = pick(JUNK_VALUES, c).to_owned();
    let some_key = pick(KEY_SPELLINGS, c).to_owned();
    let ws = pick(&[" ", "\t", "  ", " \t", "\r", " \r"], b).to_owned();
    if n == 0 {
        blocks.push(Block {
            lines: vec![format!("; {some_key}"), junk],
        });
        return;
    }
    let i = a % n;
    let lines = blocks[i].lines.len();
    let j = b % lines;
    match kind {
        // Comments and blank lines anywhere in a block.
        0 => blocks[i].lines.insert(
            1 + b % lines.max(1),
            pick(&["# c", "// c", "#", "", "  ", "\t", " # indented"], c).to_owned(),
        ),
        // Leading white space on a line.
        1 => blocks[i].lines[j].insert_str(0, &ws.replace('\r', " ")),
        // Trailing white space (or CR) on a line.
        2 => blocks[i].lines[j].push_str(&ws),
        // Swap two blocks.
        3 => blocks.swap(i, b % n),
        // Drop a block.
        4 => {
            blocks.remove(i);
        }
        // Duplicate a block, maybe under another spelling.
        5 => {
            let mut copy = blocks[i].clone();
            if c % 2 == 0 {
                let key = copy.lines[0].trim_start_matches(';').trim().to_owned();
                copy.lines[0] = format!("; {}", respell(&key, c / 2));
            }
            blocks.insert(b % (n + 1), copy);
        }
        // Another spelling of the key.
        6 => {
            let key = blocks[i].lines[0].trim_start_matches(';').trim().to_owned();
            if key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                blocks[i].lines[0] = format!("; {}", respell(&key, c));
            }
        }
        // Rename the key to one of the list (aliases, deprecated, unknown, other spelling).
        7 => blocks[i].lines[0] = format!("; {some_key}"),
        // Inline header `; Key: v` or compact `Key: v` (first value line only).
        8 => {
            let key = blocks[i].lines[0].trim_start_matches(';').trim().to_owned();
            let value = blocks[i].lines.get(1).cloned().unwrap_or_default();
            let spacing = pick(&[": ", ":", " : ", ":\t"], b);
            let line = if c % 2 == 0 {
                format!("; {key}{spacing}{value}")
            } else {
                format!("{key}{spacing}{value}")
            };
            let rest = blocks[i].lines.split_off(2.min(lines));
            blocks[i].lines = vec![line];
            if c % 3 == 0 {
                blocks[i].lines.extend(rest);
            }
        }
        // A new block: unknown, deprecated, alias or duplicate key, value good or bad.
        9 => {
            let value = if b % 2 == 0 { "2".to_owned() } else { junk };
            blocks.insert(
                a % (n + 1),
                Block {
                    lines: vec![format!("; {some_key}"), value],
                },
            );
        }
        // ClassVersion: set, remove, move.
        10 => {
            let at = blocks
                .iter()
                .position(|b| b.lines[0] == "; ClassVersion")
                .unwrap_or(0);
            match c % 4 {
                0 => {
                    let v = pick(
                        &["0", "1", "2", "3", "4", "9", "03", "+3", "x", "3.0", ""],
                        b,
                    );
                    blocks[at].lines = vec!["; ClassVersion".to_owned(), v.to_owned()];
                }
                1 => {
                    blocks.remove(at);
                }
                _ => {
                    let moved = blocks.remove(at);
                    let to = b % (blocks.len() + 1);
                    blocks.insert(to, moved);
                }
            }
        }
        // An extra value line.
        11 => {
            let extra = if c % 2 == 0 {
                blocks[i].lines.last().cloned().unwrap_or_default()
            } else {
                junk
            };
            blocks[i].lines.insert(1 + b % lines, extra);
        }
        // An empty value: the header alone, or an empty line as the value.
        12 => {
            blocks[i].lines.truncate(1);
            if c % 2 == 0 {
                blocks[i].lines.push(String::new());
            }
        }
        // A value replaced by junk.
        13 | 14 => {
            if lines > 1 {
                blocks[i].lines[1 + b % (lines - 1)] = junk;
            } else {
                blocks[i].lines.push(junk);
            }
        }
        // A value starting with `#`, `//` or `;`.
        15 => {
            if lines > 1 {
                let k = 1 + b % (lines - 1);
                let p = pick(&["#", "//", ";", "; ", "/"], c);
                blocks[i].lines[k].insert_str(0, p);
            }
        }
        // A long line.
        16 => {
            let long = "W".repeat(40 + c % 150);
            if lines > 1 {
                let k = 1 + b % (lines - 1);
                blocks[i].lines[k] = if c % 2 == 0 {
                    format!("\"{long}\"")
                } else {
                    long
                };
            }
        }
        // Header spellings the tokenizer also reads.
        17 => {
            let key = blocks[i].lines[0].trim_start_matches(';').trim().to_owned();
            blocks[i].lines[0] = pick(
                &[
                    format!(";{key}"),
                    format!(";\t{key}"),
                    format!(";  {key}"),
                    format!("; {key} "),
                    format!(" ; {key}"),
                    format!("; {key}\r"),
                    format!("; {key}:"),
                    format!("; {key} # note"),
                ],
                c,
            );
        }
        // A lone CR or other characters inside a value.
        18 => {
            if lines > 1 {
                let k = 1 + b % (lines - 1);
                let line = &mut blocks[i].lines[k];
                let at = line
                    .char_indices()
                    .map(|(i, _)| i)
                    .nth(c % (line.chars().count() + 1))
                    .unwrap_or(line.len());
                let p = pick(
                    &["\r", "\u{A0}", "\u{FEFF}", " ", "\t", "é", "\u{B}", "\u{C}"],
                    a,
                );
                line.insert_str(at, p);
            }
        }
        // A key's line split off: a value line with no header before it.
        19 => {
            if lines > 1 {
                blocks[i].lines.remove(0);
                if i > 0 {
                    let moved = blocks.remove(i);
                    blocks[i - 1].lines.extend(moved.lines);
                }
            }
        }
        // Comment at the very start of the file.
        20 => blocks[0]
            .lines
            .insert(0, pick(&["# head", "", "// x"], c).to_owned()),
        // Spaces inside a vector value (accepted by the codec).
        21 => {
            if lines > 1 {
                let k = 1 + b % (lines - 1);
                blocks[i].lines[k] =
                    blocks[i].lines[k].replace(' ', pick(&["  ", "\t", ", ", ","], c));
            }
        }
        // Reverse the whole file's order.
        22 => blocks.reverse(),
        // A value line that is a header of the next key (a second header in a row).
        _ => {
            blocks[i].lines.truncate(1);
        }
    }
}

fn render(blocks: &[Block], layout: Layout) -> Vec<u8> {
    let newline = if layout.crlf { "\r\n" } else { "\n" };
    let mut text = String::new();
    if layout.bom {
        text.push('\u{FEFF}');
    }
    let lines: Vec<&String> = blocks.iter().flat_map(|b| &b.lines).collect();
    for (i, line) in lines.iter().enumerate() {
        text.push_str(line);
        if i + 1 < lines.len() || layout.final_newline {
            text.push_str(newline);
        }
    }
    let mut bytes = text.into_bytes();
    let (kind, at) = layout.bytes;
    let at = if bytes.is_empty() {
        0
    } else {
        at % bytes.len()
    };
    match kind {
        1 => bytes.insert(at, 0),
        2 => bytes.insert(at, 0xFF),
        3 => bytes.insert(at, b'\r'),
        4 => bytes.truncate(at),
        _ => {}
    }
    bytes
}

fn mutated(text: &str, muts: &[Mutation], layout: Layout) -> Vec<u8> {
    let mut b = blocks(text);
    for &m in muts {
        apply(&mut b, m);
    }
    render(&b, layout)
}

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
        // directly unless a list takes several lines (the cursor reads one line) or a
        // bare string starts with `/` (left to the tokenizer, which tells comments).
        let one_line = [value.tags.len(), value.scores.len(), value.waypoints.len(), value.squad.len()]
            .iter()
            .all(|&n| n <= 1);
        let slash = std::iter::once(&value.name).chain(&value.tags).any(|s| bare_slash(s));
        let direct = assert_same(&mut buffer, text.as_bytes(), &initial, everything_extra)?;
        prop_assert_eq!(direct, one_line && !slash);
        let bytes = mutated(&text, &muts, layout);
        assert_same(&mut buffer, &bytes, &initial, everything_extra)?;
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
        prop_assert_eq!(direct, value.list.len() <= 1 && !slash);
        let bytes = mutated(&text, &muts, layout);
        assert_same(&mut buffer, &bytes, &initial, no_extra)?;
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

/// A truncated file: the direct path read `Mass` before it met a header without a
/// value, which the tokenizer rejects. The direct path used to have written
/// `Mass = 1.5` by then, so the error left a value the general path never makes.
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

/// `ClassVersion` after the first property, not a number: the general path fails
/// before it reads any property, so the direct path must not have read one either.
#[test]
fn a_late_bad_class_version_leaves_the_value_alone() {
    let (outcome, direct) = small_both_ways("; Mass\n1.5\n; ClassVersion\nx\n");
    assert!(!direct);
    let Err((err, _)) = &outcome.result else {
        panic!("a bad ClassVersion loads: {outcome:?}");
    };
    assert_eq!(err.key.as_deref(), Some("ClassVersion"));
    assert_eq!(outcome.value, save(&Small::default_value()));
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

// ---------------------------------------------------------------------------------
// The cursor alone against the tokenizer.

/// The keys the hand-written cursor sequence asks for, in order.
const CURSOR_KEYS: [&str; 3] = ["A", "Bc", "D_1"];

fn alphabet_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        3 => Just(b';'),
        3 => Just(b' '),
        1 => Just(b'\t'),
        1 => Just(b'\r'),
        3 => Just(b'\n'),
        1 => Just(b'#'),
        1 => Just(b'/'),
        1 => Just(b':'),
        2 => Just(b'A'),
        1 => Just(b'B'),
        1 => Just(b'c'),
        1 => Just(b'D'),
        1 => Just(b'_'),
        2 => Just(b'1'),
        1 => Just(b'x'),
        1 => Just(b'"'),
    ]
}

/// Text near the canonical form of `CURSOR_KEYS`: each key present or not, with a value
/// line of alphabet bytes, then a few alphabet bytes inserted, replaced or removed, and
/// sometimes plain alphabet noise instead.
fn alphabet_text() -> impl Strategy<Value = Vec<u8>> {
    let value_line = prop::collection::vec(
        prop_oneof![5 => prop::sample::select(b"Ax1_\"".to_vec()), 1 => alphabet_byte()],
        0..5,
    );
    let blocks = prop::collection::vec((any::<bool>(), value_line), 3);
    let edits = prop::collection::vec((0u8..3, any::<usize>(), alphabet_byte()), 0..3);
    let near_canonical =
        (blocks, edits, any::<bool>()).prop_map(|(blocks, edits, final_newline)| {
            let mut text = Vec::new();
            for (key, (present, value)) in CURSOR_KEYS.iter().zip(blocks) {
                if present {
                    text.extend_from_slice(format!("; {key}\n").as_bytes());
                    text.extend_from_slice(&value);
                    text.push(b'\n');
                }
            }
            if !final_newline {
                text.pop();
            }
            for (kind, at, byte) in edits {
                let at = at % (text.len() + 1);
                match kind {
                    0 => text.insert(at, byte),
                    1 if at < text.len() => text[at] = byte,
                    _ if at < text.len() => {
                        text.remove(at);
                    }
                    _ => {}
                }
            }
            text
        });
    prop_oneof![
        4 => near_canonical,
        1 => prop::collection::vec(alphabet_byte(), 0..40),
    ]
}

/// The cursor reading `CURSOR_KEYS` as strings; `None` when it declines anywhere.
fn cursor_read(text: &[u8]) -> Option<Vec<(String, String)>> {
    let mut buffer = TokenBuffer::new();
    let mut cursor = buffer.direct(text)?;
    let mut read = Vec::new();
    for key in CURSOR_KEYS {
        let mut value = String::new();
        if cursor.property(Key::new(key), &mut value)? {
            read.push((key.to_owned(), value));
        }
    }
    cursor.is_done().then_some(read)
}

/// The tokenizer's properties: the key as written, the value lines as written, and the
/// value decoded as a string (or the error's text).
type Tokens = Vec<(String, Vec<String>, String)>;

fn tokenizer_read(text: &[u8]) -> Result<Tokens, Error> {
    let mut buffer = TokenBuffer::new();
    let doc = buffer.tokenize(text, Path::new(PATH))?;
    let mut out = Vec::new();
    for i in 0..doc.nodes().len() {
        let value = doc.value(i);
        let decoded = <String as juliet_core::Codec>::decode(value)
            .unwrap_or_else(|e| format!("<bad: {e:?}>"));
        out.push((
            doc.key(i).to_owned(),
            value.lines().map(str::to_owned).collect(),
            decoded,
        ));
    }
    Ok(out)
}

fn check_cursor(text: &[u8]) {
    let Some(read) = cursor_read(text) else {
        return;
    };
    let tokens = tokenizer_read(text).unwrap_or_else(|e| {
        panic!(
            "the cursor read {:?} but the tokenizer fails: {e}",
            String::from_utf8_lossy(text)
        )
    });
    // Exactly the properties the cursor read, each one line, decoding to the same text.
    let tokens: Vec<(String, String)> = tokens
        .into_iter()
        .map(|(key, lines, decoded)| {
            assert_eq!(
                lines.len(),
                1,
                "{key}: {lines:?} in {:?}",
                String::from_utf8_lossy(text)
            );
            (key, decoded)
        })
        .collect();
    assert_eq!(
        read,
        tokens,
        "cursor and tokenizer differ on {:?}",
        String::from_utf8_lossy(text)
    );
}

proptest! {
    #![proptest_config(Config { cases: 4096, failure_persistence: None, ..Config::default() })]

    #[test]
    fn cursor_accepts_only_what_the_tokenizer_reads_the_same(text in alphabet_text()) {
        check_cursor(&text);
    }
}

/// The cursor must accept the canonical forms this test relies on (so the proptest
/// above is not vacuous).
#[test]
fn cursor_reads_canonical_alphabet_files() {
    assert_eq!(
        cursor_read(b"; A\nx\n; D_1\n\"q\"\n"),
        Some(vec![("A".into(), "x".into()), ("D_1".into(), "q".into())])
    );
    check_cursor(b"; A\nx\n; D_1\n\"q\"\n");
    assert_eq!(cursor_read(b"; A\n\n"), None);
}
