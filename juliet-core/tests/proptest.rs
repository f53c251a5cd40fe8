//! Property tests of the tokenizer and the value codecs (`docs/jasset-format.md`, "Hostile input").
//!
//! * Arbitrary bytes, and arbitrary text built from the format's line forms, never make
//!   the tokenizer or any codec panic; errors carry a line and column inside the input.
//! * A generated well-formed document tokenizes to exactly the properties it was built
//!   from (a model of the line forms of docs/design.md, section 2.1).
//! * Every codec type round-trips bit-identically through `encode` ->
//!   `write_property` -> tokenize -> `decode`, alone and in whole files with several
//!   properties, with LF or CRLF endings, a byte-order mark and indentation.

use std::path::Path;

use glam::{Vec2, Vec3, Vec4};
use juliet_core::{key_crc, write_property, Codec, Document, Error, LineForm, TokenBuffer};
use proptest::prelude::*;

/// `cases` cases; failures are saved beside this file (`proptest.regressions`).
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("regressions"),
        )),
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------
// Bit-exact comparison (floats by bit pattern, any NaN equal to any NaN).
// ---------------------------------------------------------------------------------

trait BitEq {
    fn bit_eq(&self, other: &Self) -> bool;
}

impl BitEq for f32 {
    fn bit_eq(&self, other: &f32) -> bool {
        (self.is_nan() && other.is_nan()) || self.to_bits() == other.to_bits()
    }
}

impl BitEq for f64 {
    fn bit_eq(&self, other: &f64) -> bool {
        (self.is_nan() && other.is_nan()) || self.to_bits() == other.to_bits()
    }
}

macro_rules! plain_bit_eq {
    ($($ty:ty),*) => {$(
        impl BitEq for $ty {
            fn bit_eq(&self, other: &$ty) -> bool {
                self == other
            }
        }
    )*};
}

plain_bit_eq!(i8, i16, i32, i64, u8, u16, u32, u64, bool, String);

impl<const N: usize> BitEq for [f32; N] {
    fn bit_eq(&self, other: &[f32; N]) -> bool {
        self.iter().zip(other).all(|(a, b)| a.bit_eq(b))
    }
}

impl BitEq for Vec2 {
    fn bit_eq(&self, other: &Vec2) -> bool {
        self.to_array().bit_eq(&other.to_array())
    }
}

impl BitEq for Vec3 {
    fn bit_eq(&self, other: &Vec3) -> bool {
        self.to_array().bit_eq(&other.to_array())
    }
}

impl BitEq for Vec4 {
    fn bit_eq(&self, other: &Vec4) -> bool {
        self.to_array().bit_eq(&other.to_array())
    }
}

impl<T: BitEq> BitEq for Vec<T> {
    fn bit_eq(&self, other: &Vec<T>) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a.bit_eq(b))
    }
}

// ---------------------------------------------------------------------------------
// Strategies.
// ---------------------------------------------------------------------------------

/// Any bit pattern, plus the special values named.
fn f32s() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => any::<u32>().prop_map(f32::from_bits),
        2 => any::<f32>(),
        1 => prop::sample::select(vec![
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::MAX,
            f32::MIN,
            f32::EPSILON,
            0.1,
            1e-7,
            100.0,
        ]),
    ]
}

fn f64s() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => any::<u64>().prop_map(f64::from_bits),
        2 => any::<f64>(),
        1 => prop::sample::select(vec![
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::MIN_POSITIVE,
            f64::from_bits(1),
            f64::MAX,
            f64::MIN,
            0.1,
        ]),
    ]
}

/// Strings of any characters, and strings built from the pieces the string codec must
/// quote or escape.
fn strings() -> impl Strategy<Value = String> {
    let tricky = prop::sample::select(vec![
        "\"", "\\", "\n", "\r", "\t", "\0", "\u{1}", "\u{7f}", "\u{85}", "\u{a0}", "\u{2028}",
        "\u{feff}", "#", ";", "//", "/", "[]", "[", " ", "  ", ":", "é", "😀", "a", "Z", "0",
        "\\u{41}", "\\n", "nan", "true", "0x",
    ]);
    prop_oneof![
        prop::collection::vec(any::<char>(), 0..24).prop_map(String::from_iter),
        prop::collection::vec(tricky, 0..8).prop_map(|v| v.concat()),
        any::<String>(),
    ]
}

/// A key: an identifier `[A-Za-z_][A-Za-z0-9_]*`.
fn keys() -> impl Strategy<Value = String> {
    "[A-Za-z_][A-Za-z0-9_]{0,20}"
}

// ---------------------------------------------------------------------------------
// Helpers.
// ---------------------------------------------------------------------------------

/// Decodes node `index` as every codec type: none may panic; an error must point at a
/// line and column of the file.
fn decode_as_everything(doc: &mut Document<'_>, index: usize, lines: u32) {
    fn one<T: Codec>(doc: &mut Document<'_>, index: usize, lines: u32) {
        if let Err(e) = doc.decode::<T>(index) {
            let at = &e.location;
            assert!((1..=lines).contains(&at.line), "{e}: {lines} lines");
            assert!(at.column >= 1, "{e}");
            assert!(e.key.is_some(), "{e}");
        }
    }
    one::<f32>(doc, index, lines);
    one::<f64>(doc, index, lines);
    one::<i8>(doc, index, lines);
    one::<i16>(doc, index, lines);
    one::<i32>(doc, index, lines);
    one::<i64>(doc, index, lines);
    one::<u8>(doc, index, lines);
    one::<u16>(doc, index, lines);
    one::<u32>(doc, index, lines);
    one::<u64>(doc, index, lines);
    one::<bool>(doc, index, lines);
    one::<String>(doc, index, lines);
    one::<Vec2>(doc, index, lines);
    one::<Vec3>(doc, index, lines);
    one::<Vec4>(doc, index, lines);
    one::<[f32; 1]>(doc, index, lines);
    one::<[f32; 5]>(doc, index, lines);
    one::<Vec<String>>(doc, index, lines);
    one::<Vec<f32>>(doc, index, lines);
    one::<Vec<u64>>(doc, index, lines);
    one::<Vec<bool>>(doc, index, lines);
}

/// Number of lines of `bytes` as the tokenizer counts them.
fn line_count(bytes: &[u8]) -> u32 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u32 + 1
}

/// Tokenizes `bytes`; checks the invariants of a successful result or of an error, and
/// decodes every node as every type.
fn tokenize_and_check(bytes: &[u8]) -> Result<(), TestCaseError> {
    let lines = line_count(bytes);
    let mut buffer = TokenBuffer::new();
    match buffer.tokenize(bytes, Path::new("fuzz.jasset")) {
        Ok(mut doc) => {
            let mut previous_line = 0;
            let mut crcs = Vec::new();
            for i in 0..doc.len() {
                let node = *doc.node(i);
                prop_assert!(node.line > previous_line, "lines increase");
                previous_line = node.line;
                prop_assert!(node.value_count() >= 1);
                prop_assert!(!crcs.contains(&node.key_crc), "no duplicate key");
                crcs.push(node.key_crc);
                let key = doc.key(i);
                prop_assert!(is_identifier(key), "{key:?}");
                prop_assert_eq!(node.key_crc, key_crc(key));
                for line in doc.value(i).lines() {
                    prop_assert!(!line.is_empty());
                    prop_assert!(!line.starts_with('#') || node.form != LineForm::Block);
                    // Trimmed: spaces and tabs before, and also the `\r` of CRLF after.
                    prop_assert_eq!(
                        line.trim_start_matches([' ', '\t'])
                            .trim_end_matches([' ', '\t', '\r']),
                        line
                    );
                }
            }
            for i in 0..doc.len() {
                decode_as_everything(&mut doc, i, lines);
            }
        }
        Err(e) => {
            prop_assert!(e.location.line <= lines, "{e}");
            prop_assert!((e.location.line == 0) == (e.location.column == 0), "{e}");
        }
    }
    Ok(())
}

fn is_identifier(key: &str) -> bool {
    let mut bytes = key.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// `write_property` of `value` under `Value`, tokenized and decoded back.
fn round_trip<T: Codec>(value: &T) -> Result<(T, String), Error> {
    let mut text = String::new();
    write_property(&mut text, "Value", value);
    let mut buffer = TokenBuffer::new();
    let mut doc = buffer.tokenize(text.as_bytes(), Path::new("rt.jasset"))?;
    let index = doc.find_name("Value").expect("the key just written");
    let back = doc.decode::<T>(index)?;
    Ok((back, text))
}

fn check_round_trip<T: Codec + BitEq + std::fmt::Debug>(
    value: &T,
) -> Result<String, TestCaseError> {
    let (back, text) = round_trip(value).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert!(back.bit_eq(value), "{value:?} -> {text:?} -> {back:?}");
    Ok(text)
}

/// Whether the value line of a written float property has the written form of
/// docs/design.md, section 2.3: a `.` or an exponent, or one of the special names.
fn has_float_form(text: &str) -> bool {
    let written = text.lines().nth(1).unwrap_or("");
    written.contains('.') || written.contains('e') || ["inf", "-inf", "nan"].contains(&written)
}

// ---------------------------------------------------------------------------------
// Never panics.
// ---------------------------------------------------------------------------------

/// Bytes drawn mostly from the characters that matter to the format.
fn format_bytes() -> impl Strategy<Value = Vec<u8>> {
    let alphabet =
        prop::sample::select(b"; :#/\n\r\t \"\\aZ_09.,-x\x00\xFF\xC3\xA9\xEF\xBB\xBF{}u".to_vec());
    prop::collection::vec(alphabet, 0..256)
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        tokenize_and_check(&bytes)?;
    }

    #[test]
    fn format_alphabet_bytes_never_panic(bytes in format_bytes()) {
        tokenize_and_check(&bytes)?;
    }

    #[test]
    fn line_structured_text_never_panics(
        bom in any::<bool>(),
        lines in prop::collection::vec((any_line(), any::<bool>()), 0..24),
        final_newline in any::<bool>(),
    ) {
        let mut text = String::new();
        if bom {
            text.push('\u{feff}');
        }
        let count = lines.len();
        for (i, (line, crlf)) in lines.into_iter().enumerate() {
            text.push_str(&line);
            if i + 1 < count || final_newline {
                text.push_str(if crlf { "\r\n" } else { "\n" });
            }
        }
        tokenize_and_check(text.as_bytes())?;
    }
}

/// White space as the format trims it.
fn ws() -> impl Strategy<Value = String> {
    "[ \t]{0,3}"
}

/// Any line text (no `\n`), including `\r` and control characters but no NUL (the
/// arbitrary-bytes tests cover those).
fn line_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(any::<char>(), 0..16).prop_map(|v| v
            .into_iter()
            .filter(|&c| c != '\n' && c != '\0')
            .collect::<String>()),
        "[a-z0-9 .,\"\\\\#;:/-]{0,16}",
        strings().prop_map(|s| s.replace(['\n', '\0'], "")),
    ]
}

/// A key, a near-key (digits first, spaces, unicode) or nothing.
fn any_key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => keys(),
        1 => "[0-9][A-Za-z]{0,4}",
        1 => "[A-Za-z]{1,4} [A-Za-z]{1,4}",
        1 => "é[a-z]{0,3}",
        1 => Just(String::new()),
    ]
}

/// One line of any of the forms: block header, inline header, compact property, value
/// line, comment, blank.
fn any_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (ws(), ws(), any_key(), ws()).prop_map(|(a, b, k, c)| format!("{a};{b}{k}{c}")),
        2 => (ws(), any_key(), ws(), ws(), line_text())
            .prop_map(|(a, k, b, c, v)| format!("{a}; {k}{b}:{c}{v}")),
        2 => (ws(), any_key(), ws(), line_text()).prop_map(|(a, k, b, v)| format!("{a}{k}{b}: {v}")),
        4 => (ws(), line_text()).prop_map(|(a, v)| format!("{a}{v}")),
        1 => (ws(), line_text()).prop_map(|(a, v)| format!("{a}# {v}")),
        1 => (ws(), line_text()).prop_map(|(a, v)| format!("{a}//{v}")),
        1 => ws(),
    ]
}

// ---------------------------------------------------------------------------------
// A model of the line forms: a well-formed document tokenizes to what it was built of.
// ---------------------------------------------------------------------------------

#[derive(Debug, Clone)]
enum Item {
    Property {
        key: String,
        form: LineForm,
        values: Vec<String>,
        indent: String,
        gap: String,
    },
    Comment(String),
    Blank(String),
}

/// A value line of a block: non-empty, trimmed, not a header or a comment.
fn block_value() -> impl Strategy<Value = String> {
    line_text().prop_filter_map("not a value line", |v| {
        let v = v.trim_matches([' ', '\t', '\r']).to_owned();
        let ok = !v.is_empty()
            && !v.starts_with(';')
            && !v.starts_with('#')
            && !v.starts_with("//")
            && !v.contains('\0');
        ok.then_some(v)
    })
}

/// The value of a one-line property: non-empty and trimmed (it may look like anything).
fn one_line_value() -> impl Strategy<Value = String> {
    line_text().prop_filter_map("empty", |v| {
        let v = v.trim_matches([' ', '\t', '\r']).to_owned();
        (!v.is_empty() && !v.contains('\0')).then_some(v)
    })
}

fn item() -> impl Strategy<Value = Item> {
    let form = prop::sample::select(vec![LineForm::Block, LineForm::Inline, LineForm::Compact]);
    prop_oneof![
        4 => (keys(), form, prop::collection::vec(block_value(), 1..4), one_line_value(), ws(), ws())
            .prop_map(|(key, form, values, one, indent, gap)| {
                let values = if form == LineForm::Block { values } else { vec![one] };
                Item::Property { key, form, values, indent, gap }
            }),
        1 => (ws(), line_text()).prop_map(|(a, t)| Item::Comment(format!("{a}# {}", t.replace('\0', "")))),
        1 => ws().prop_map(Item::Blank),
    ]
}

/// Expected node: key, value lines, line, column, form.
type Expected = (String, Vec<String>, u32, u32, LineForm);

/// Renders `items` (making them well-formed: unique keys, no compact line inside an
/// open block) and returns the text and the nodes the tokenizer must give.
fn render(items: Vec<Item>, crlf: bool) -> (String, Vec<Expected>) {
    let eol = if crlf { "\r\n" } else { "\n" };
    let mut text = String::new();
    let mut expected = Vec::new();
    let mut line = 0u32;
    let mut crcs = Vec::new();
    let mut block_open = false;
    for item in items {
        match item {
            Item::Property {
                key,
                mut form,
                values,
                indent,
                gap,
            } => {
                let crc = key_crc(&key);
                if crcs.contains(&crc) {
                    continue;
                }
                crcs.push(crc);
                if form == LineForm::Compact && block_open {
                    form = LineForm::Inline;
                }
                line += 1;
                let indent_cols = indent.chars().count() as u32;
                let column = match form {
                    LineForm::Block => {
                        text.push_str(&format!("{indent};{gap}{key}{gap}{eol}"));
                        indent_cols + 1 + gap.chars().count() as u32 + 1
                    }
                    LineForm::Inline => {
                        text.push_str(&format!("{indent};{gap}{key}{gap}:{gap}{}{eol}", values[0]));
                        indent_cols + 1 + gap.chars().count() as u32 + 1
                    }
                    LineForm::Compact => {
                        text.push_str(&format!("{indent}{key}{gap}:{gap}{}{gap}{eol}", values[0]));
                        indent_cols + 1
                    }
                };
                expected.push((key.clone(), values.clone(), line, column, form));
                if form == LineForm::Block {
                    for v in &values {
                        line += 1;
                        text.push_str(&format!("{indent}{v}{gap}{eol}"));
                    }
                }
                block_open = form == LineForm::Block;
            }
            Item::Comment(c) => {
                line += 1;
                text.push_str(&c);
                text.push_str(eol);
            }
            Item::Blank(b) => {
                line += 1;
                text.push_str(&b);
                text.push_str(eol);
            }
        }
    }
    (text, expected)
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn well_formed_documents_tokenize_to_their_model(
        items in prop::collection::vec(item(), 0..16),
        crlf in any::<bool>(),
        bom in any::<bool>(),
    ) {
        let (mut text, expected) = render(items, crlf);
        if bom {
            text.insert(0, '\u{feff}');
        }
        let mut buffer = TokenBuffer::new();
        let doc = buffer
            .tokenize(text.as_bytes(), Path::new("model.jasset"))
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text:?}")))?;
        let found: Vec<Expected> = (0..doc.len())
            .map(|i| {
                let n = doc.node(i);
                (
                    doc.key(i).to_owned(),
                    doc.value(i).lines().map(str::to_owned).collect(),
                    n.line,
                    n.column,
                    n.form,
                )
            })
            .collect();
        prop_assert_eq!(found, expected, "{:?}", text);
    }
}

// ---------------------------------------------------------------------------------
// Round trips of every codec type.
// ---------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn f32_round_trips_bit_exact(v in f32s()) {
        let text = check_round_trip(&v)?;
        prop_assert!(has_float_form(&text), "{text}");
    }

    #[test]
    fn f64_round_trips_bit_exact(v in f64s()) {
        let text = check_round_trip(&v)?;
        prop_assert!(has_float_form(&text), "{text}");
    }

    #[test]
    fn integers_round_trip(
        a in any::<i8>(), b in any::<i16>(), c in any::<i32>(), d in any::<i64>(),
        e in any::<u8>(), f in any::<u16>(), g in any::<u32>(),
    ) {
        // Written in decimal.
        prop_assert_eq!(check_round_trip(&a)?, format!("; Value\n{a}\n"));
        prop_assert_eq!(check_round_trip(&b)?, format!("; Value\n{b}\n"));
        prop_assert_eq!(check_round_trip(&c)?, format!("; Value\n{c}\n"));
        prop_assert_eq!(check_round_trip(&d)?, format!("; Value\n{d}\n"));
        prop_assert_eq!(check_round_trip(&e)?, format!("; Value\n{e}\n"));
        prop_assert_eq!(check_round_trip(&f)?, format!("; Value\n{f}\n"));
        prop_assert_eq!(check_round_trip(&g)?, format!("; Value\n{g}\n"));
    }

    #[test]
    fn u64_round_trips_as_sixteen_hex_digits(v in any::<u64>()) {
        let text = check_round_trip(&v)?;
        let written = text.lines().nth(1).unwrap();
        prop_assert_eq!(written.len(), 18);
        prop_assert!(written.starts_with("0x"));
        prop_assert!(written[2..].bytes().all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b)));
        prop_assert_eq!(u64::from_str_radix(&written[2..], 16).unwrap(), v);
    }

    #[test]
    fn bool_round_trips(v in any::<bool>()) {
        check_round_trip(&v)?;
    }

    #[test]
    fn strings_round_trip(v in strings()) {
        let text = check_round_trip(&v)?;
        // One value line whatever the characters.
        prop_assert_eq!(text.matches('\n').count(), 2, "{:?}", text);
    }

    #[test]
    fn vectors_round_trip_bit_exact(
        a in [f32s(), f32s()],
        b in [f32s(), f32s(), f32s()],
        c in [f32s(), f32s(), f32s(), f32s()],
        d in [f32s()],
        e in prop::array::uniform6(f32s()),
    ) {
        check_round_trip(&Vec2::from_array(a))?;
        let text = check_round_trip(&Vec3::from_array(b))?;
        // Components separated by one space.
        prop_assert_eq!(text.lines().nth(1).unwrap().split(' ').count(), 3);
        check_round_trip(&Vec4::from_array(c))?;
        check_round_trip(&d)?;
        check_round_trip(&a)?;
        check_round_trip(&b)?;
        check_round_trip(&c)?;
        check_round_trip(&e)?;
    }

    #[test]
    fn lists_round_trip(
        strings in prop::collection::vec(strings(), 0..6),
        floats in prop::collection::vec(f32s(), 0..6),
        doubles in prop::collection::vec(f64s(), 0..6),
        ints in prop::collection::vec(any::<i64>(), 0..6),
        small in prop::collection::vec(any::<i8>(), 0..6),
        ids in prop::collection::vec(any::<u64>(), 0..6),
        flags in prop::collection::vec(any::<bool>(), 0..6),
        points in prop::collection::vec([f32s(), f32s(), f32s()], 0..4),
    ) {
        let text = check_round_trip(&strings)?;
        // One element per value line; `[]` alone for the empty list.
        prop_assert_eq!(text.matches('\n').count(), 1 + strings.len().max(1));
        check_round_trip(&floats)?;
        check_round_trip(&doubles)?;
        check_round_trip(&ints)?;
        check_round_trip(&small)?;
        check_round_trip(&ids)?;
        check_round_trip(&flags)?;
        check_round_trip(&points)?;
        let vec3s: Vec<Vec3> = points.iter().copied().map(Vec3::from_array).collect();
        check_round_trip(&vec3s)?;
    }
}

// ---------------------------------------------------------------------------------
// Whole files with several properties.
// ---------------------------------------------------------------------------------

/// One property of any codec type.
#[derive(Debug, Clone)]
enum AnyValue {
    F32(f32),
    F64(f64),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    Bool(bool),
    Str(String),
    V2([f32; 2]),
    V3([f32; 3]),
    V4([f32; 4]),
    A5([f32; 5]),
    Strs(Vec<String>),
    F32s(Vec<f32>),
    U64s(Vec<u64>),
}

fn any_value() -> impl Strategy<Value = AnyValue> {
    prop_oneof![
        f32s().prop_map(AnyValue::F32),
        f64s().prop_map(AnyValue::F64),
        any::<i8>().prop_map(AnyValue::I8),
        any::<i16>().prop_map(AnyValue::I16),
        any::<i32>().prop_map(AnyValue::I32),
        any::<i64>().prop_map(AnyValue::I64),
        any::<u8>().prop_map(AnyValue::U8),
        any::<u16>().prop_map(AnyValue::U16),
        any::<u32>().prop_map(AnyValue::U32),
        any::<u64>().prop_map(AnyValue::U64),
        any::<bool>().prop_map(AnyValue::Bool),
        strings().prop_map(AnyValue::Str),
        [f32s(), f32s()].prop_map(AnyValue::V2),
        [f32s(), f32s(), f32s()].prop_map(AnyValue::V3),
        [f32s(), f32s(), f32s(), f32s()].prop_map(AnyValue::V4),
        prop::array::uniform5(f32s()).prop_map(AnyValue::A5),
        prop::collection::vec(strings(), 0..4).prop_map(AnyValue::Strs),
        prop::collection::vec(f32s(), 0..4).prop_map(AnyValue::F32s),
        prop::collection::vec(any::<u64>(), 0..4).prop_map(AnyValue::U64s),
    ]
}

impl AnyValue {
    fn write(&self, out: &mut String, key: &str) {
        match self {
            AnyValue::F32(v) => write_property(out, key, v),
            AnyValue::F64(v) => write_property(out, key, v),
            AnyValue::I8(v) => write_property(out, key, v),
            AnyValue::I16(v) => write_property(out, key, v),
            AnyValue::I32(v) => write_property(out, key, v),
            AnyValue::I64(v) => write_property(out, key, v),
            AnyValue::U8(v) => write_property(out, key, v),
            AnyValue::U16(v) => write_property(out, key, v),
            AnyValue::U32(v) => write_property(out, key, v),
            AnyValue::U64(v) => write_property(out, key, v),
            AnyValue::Bool(v) => write_property(out, key, v),
            AnyValue::Str(v) => write_property(out, key, v),
            AnyValue::V2(v) => write_property(out, key, &Vec2::from_array(*v)),
            AnyValue::V3(v) => write_property(out, key, &Vec3::from_array(*v)),
            AnyValue::V4(v) => write_property(out, key, &Vec4::from_array(*v)),
            AnyValue::A5(v) => write_property(out, key, v),
            AnyValue::Strs(v) => write_property(out, key, v),
            AnyValue::F32s(v) => write_property(out, key, v),
            AnyValue::U64s(v) => write_property(out, key, v),
        }
    }

    /// Decodes node `index` as this value's type and compares bit for bit.
    fn matches(&self, doc: &mut Document<'_>, index: usize) -> Result<bool, Error> {
        fn same<T: Codec + BitEq>(
            doc: &mut Document<'_>,
            index: usize,
            v: &T,
        ) -> Result<bool, Error> {
            Ok(doc.decode::<T>(index)?.bit_eq(v))
        }
        match self {
            AnyValue::F32(v) => same(doc, index, v),
            AnyValue::F64(v) => same(doc, index, v),
            AnyValue::I8(v) => same(doc, index, v),
            AnyValue::I16(v) => same(doc, index, v),
            AnyValue::I32(v) => same(doc, index, v),
            AnyValue::I64(v) => same(doc, index, v),
            AnyValue::U8(v) => same(doc, index, v),
            AnyValue::U16(v) => same(doc, index, v),
            AnyValue::U32(v) => same(doc, index, v),
            AnyValue::U64(v) => same(doc, index, v),
            AnyValue::Bool(v) => same(doc, index, v),
            AnyValue::Str(v) => same(doc, index, v),
            AnyValue::V2(v) => same(doc, index, &Vec2::from_array(*v)),
            AnyValue::V3(v) => same(doc, index, &Vec3::from_array(*v)),
            AnyValue::V4(v) => same(doc, index, &Vec4::from_array(*v)),
            AnyValue::A5(v) => same(doc, index, v),
            AnyValue::Strs(v) => same(doc, index, v),
            AnyValue::F32s(v) => same(doc, index, v),
            AnyValue::U64s(v) => same(doc, index, v),
        }
    }
}

/// Re-lays out a written file: CRLF endings, indentation and trailing white space on
/// every line, comment and blank lines between lines, and a byte-order mark.
fn relayout(text: &str, crlf: bool, pad: &[(String, String, bool)], bom: bool) -> String {
    let eol = if crlf { "\r\n" } else { "\n" };
    let mut out = String::new();
    if bom {
        out.push('\u{feff}');
    }
    for (i, line) in text.lines().enumerate() {
        let (lead, trail, comment) = &pad[i % pad.len()];
        out.push_str(lead);
        out.push_str(line);
        out.push_str(trail);
        out.push_str(eol);
        if *comment {
            out.push_str(lead);
            out.push_str("# a comment between lines");
            out.push_str(eol);
            out.push_str(trail);
            out.push_str(eol);
        }
    }
    out
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn whole_files_round_trip(
        properties in prop::collection::vec((keys(), any_value()), 1..12),
        crlf in any::<bool>(),
        bom in any::<bool>(),
        pad in prop::collection::vec((ws(), ws(), any::<bool>()), 1..4),
    ) {
        // Unique keys under normalization.
        let mut seen = Vec::new();
        let properties: Vec<(String, AnyValue)> = properties
            .into_iter()
            .filter(|(k, _)| {
                let crc = key_crc(k);
                let fresh = !seen.contains(&crc);
                seen.push(crc);
                fresh
            })
            .collect();
        let mut text = String::new();
        for (key, value) in &properties {
            value.write(&mut text, key);
        }
        for layout in [text.clone(), relayout(&text, crlf, &pad, bom)] {
            let mut buffer = TokenBuffer::new();
            let mut doc = buffer
                .tokenize(layout.as_bytes(), Path::new("file.jasset"))
                .map_err(|e| TestCaseError::fail(format!("{e}\n{layout:?}")))?;
            prop_assert_eq!(doc.len(), properties.len());
            for (i, (key, value)) in properties.iter().enumerate() {
                let index = doc.find_name(key).expect("written key");
                prop_assert_eq!(index, i, "file order");
                prop_assert_eq!(doc.key(index), key.as_str());
                let same = value
                    .matches(&mut doc, index)
                    .map_err(|e| TestCaseError::fail(format!("{e}\n{layout:?}")))?;
                prop_assert!(same, "{key}: {value:?}\n{layout:?}");
            }
            prop_assert_eq!(doc.unconsumed().count(), 0);
        }
    }
}
