//! Bad input (`docs/jasset-format.md`, "Hostile input"): each case gives a typed error with its line and
//! column (1-based, columns in characters) and never panics.
//!
//! Tokenizer errors come from `TokenBuffer::tokenize`; value errors from decoding a
//! node through `Document::decode` or `Archive::serialize`, which locate the offending
//! text.

use std::path::Path;

use juliet_core::{key, Archive, Codec, Error, ErrorKind, TokenBuffer, ValueErrorKind};

/// Tokenizes `bytes`, expecting an error.
fn tokenize_err(bytes: &[u8]) -> Error {
    let mut buffer = TokenBuffer::new();
    match buffer.tokenize(bytes, Path::new("bad.jasset")) {
        Ok(doc) => panic!("expected an error, got {} nodes", doc.len()),
        Err(e) => e,
    }
}

/// Tokenizes `src` (which must tokenize) and decodes `key` as a `T`, expecting an
/// error.
fn decode_err<T: Codec + std::fmt::Debug>(src: &str, key: &str) -> Error {
    let mut buffer = TokenBuffer::new();
    let mut doc = buffer
        .tokenize(src.as_bytes(), Path::new("bad.jasset"))
        .unwrap();
    let index = doc.find_name(key).expect("key present");
    match doc.decode::<T>(index) {
        Ok(v) => panic!("expected an error, decoded {v:?}"),
        Err(e) => e,
    }
}

/// The `reason` of a `BadValue` error.
fn reason(err: &Error) -> &ValueErrorKind {
    match &err.kind {
        ErrorKind::BadValue { reason, .. } => reason,
        other => panic!("expected BadValue, got {other:?}"),
    }
}

fn at(err: &Error) -> (u32, u32) {
    (err.location.line, err.location.column)
}

// --- invalid UTF-8 -----------------------------------------------------------------

#[test]
fn invalid_utf8_in_a_value() {
    let err = tokenize_err(b"; A\nok\n; B\nx\xFFy\n");
    assert_eq!(err.kind, ErrorKind::InvalidUtf8);
    assert_eq!(at(&err), (4, 2));
    assert_eq!(
        err.to_string(),
        "bad.jasset:4:2: error: invalid UTF-8 (a .jasset file must be UTF-8 text)"
    );
}

#[test]
fn invalid_utf8_column_counts_characters_before_it() {
    // `é` is two bytes but one column; the bad byte is the third character.
    let mut bytes = "; Name\néé".as_bytes().to_vec();
    bytes.extend_from_slice(b"\xC0\n");
    let err = tokenize_err(&bytes);
    assert_eq!(err.kind, ErrorKind::InvalidUtf8);
    assert_eq!(at(&err), (2, 3));
}

#[test]
fn invalid_utf8_in_a_comment_or_truncated_at_the_end() {
    let err = tokenize_err(b"# caf\xE9\n; A\n1\n");
    assert_eq!(
        (err.kind.clone(), at(&err)),
        (ErrorKind::InvalidUtf8, (1, 6))
    );
    // A multi-byte sequence cut off by the end of the file.
    let err = tokenize_err(b"; A\n1\n; B\n\xE2\x82");
    assert_eq!(
        (err.kind.clone(), at(&err)),
        (ErrorKind::InvalidUtf8, (4, 1))
    );
}

#[test]
fn invalid_utf8_after_a_byte_order_mark() {
    // The BOM is skipped, not counted as a column.
    let err = tokenize_err(b"\xEF\xBB\xBF\xFF; A\n1\n");
    assert_eq!(
        (err.kind.clone(), at(&err)),
        (ErrorKind::InvalidUtf8, (1, 1))
    );
}

// --- NUL bytes -------------------------------------------------------------------

#[test]
fn nul_byte_in_a_value() {
    let err = tokenize_err(b"; A\n12\x003\n");
    assert_eq!(err.kind, ErrorKind::NulByte);
    assert_eq!(at(&err), (2, 3));
    assert_eq!(
        err.to_string(),
        "bad.jasset:2:3: error: NUL byte in text (a .jasset file must be text)"
    );
}

#[test]
fn nul_byte_in_a_comment_and_at_the_start() {
    let err = tokenize_err(b"; A\n1\n   # comment \x00\n");
    assert_eq!((err.kind.clone(), at(&err)), (ErrorKind::NulByte, (3, 14)));
    let err = tokenize_err(b"\x00");
    assert_eq!((err.kind.clone(), at(&err)), (ErrorKind::NulByte, (1, 1)));
}

#[test]
fn the_first_of_invalid_utf8_and_nul_is_reported() {
    // Invalid UTF-8 on line 1, a NUL on line 2: the error is the first problem.
    let err = tokenize_err(b"\xFF\n\x00\n");
    assert_eq!(
        (err.kind.clone(), at(&err)),
        (ErrorKind::InvalidUtf8, (1, 1))
    );
    // A NUL on line 1, invalid UTF-8 on line 2.
    let err = tokenize_err(b"a\x00\n\xFF\n");
    assert_eq!((err.kind.clone(), at(&err)), (ErrorKind::NulByte, (1, 2)));
}

// --- a 10 MB line ----------------------------------------------------------------

const TEN_MB: usize = 10 * 1024 * 1024;

#[test]
fn ten_mb_line_outside_a_block() {
    let mut src = String::from("# comment\n");
    src.push_str(&"x".repeat(TEN_MB));
    src.push('\n');
    let err = tokenize_err(src.as_bytes());
    assert!(matches!(err.kind, ErrorKind::ValueWithoutProperty { .. }));
    assert_eq!(at(&err), (2, 1));
    // The message quotes a short prefix, not 10 MB.
    let message = err.to_string();
    assert!(message.len() < 200, "message is {} bytes", message.len());
    assert!(message.contains("xxx..."), "{message}");
}

#[test]
fn ten_mb_key_with_a_bad_character_at_its_end() {
    let mut src = String::from("; ");
    src.push_str(&"K".repeat(TEN_MB));
    src.push_str("!\n1\n");
    let err = tokenize_err(src.as_bytes());
    assert!(matches!(err.kind, ErrorKind::InvalidKey { .. }));
    // `!` ends the key, so the line is neither a header nor an inline property; the
    // error points at the key's start.
    assert_eq!(at(&err), (1, 3));
    assert!(err.to_string().len() < 300);
}

#[test]
fn ten_mb_value_that_is_not_a_number() {
    let mut src = String::from("; Mass\n  ");
    src.push_str(&"9".repeat(TEN_MB));
    src.push_str("kg\n");
    let err = decode_err::<f32>(&src, "Mass");
    assert_eq!(reason(&err), &ValueErrorKind::InvalidNumber);
    assert_eq!(at(&err), (2, 3));
    assert_eq!(err.key.as_deref(), Some("Mass"));
    assert!(err.to_string().len() < 300);
    // As an integer it is out of range.
    let err = decode_err::<i64>(&src.replace("kg", ""), "Mass");
    assert_eq!(reason(&err), &ValueErrorKind::OutOfRange("i64"));
}

#[test]
fn ten_mb_vector_line_and_ten_mb_string_value() {
    // Five million components for a 3-vector.
    let mut src = String::from("Position: ");
    src.push_str(&"1 ".repeat(TEN_MB / 2));
    src.push('\n');
    let err = decode_err::<glam::Vec3>(&src, "Position");
    assert_eq!(
        reason(&err),
        &ValueErrorKind::ComponentCount {
            expected: 3,
            found: TEN_MB / 2
        }
    );
    assert_eq!(at(&err), (1, 11));
    // A 10 MB bare string is a valid value: read whole, nothing lost.
    let long = "s".repeat(TEN_MB);
    let src = format!("; Text\n{long}\n; After\n1\n");
    let mut buffer = TokenBuffer::new();
    let mut doc = buffer.tokenize(src.as_bytes(), Path::new("big")).unwrap();
    let index = doc.find_name("Text").unwrap();
    assert_eq!(doc.decode::<String>(index).unwrap().len(), TEN_MB);
    assert_eq!(doc.node(doc.peek_name("After").unwrap()).line, 3);
}

// --- a value line with no open property ------------------------------------------

#[test]
fn value_line_before_any_header() {
    let err = tokenize_err(b"# header comment\n\n   stray value\n; A\n1\n");
    assert_eq!(
        err.kind,
        ErrorKind::ValueWithoutProperty {
            found: "stray value".into()
        }
    );
    assert_eq!(at(&err), (3, 4));
    assert_eq!(
        err.to_string(),
        "bad.jasset:3:4: error: value line \"stray value\" has no open property \
         (write `; Key` above it, or `Key: value`)"
    );
}

#[test]
fn value_line_after_a_one_line_property() {
    // `; Key: value` and `Key: value` are whole properties: they open no block.
    let err = tokenize_err(b"; Kind: Inert\n\tsecond line\n");
    assert!(matches!(err.kind, ErrorKind::ValueWithoutProperty { .. }));
    assert_eq!(at(&err), (2, 2));
    let err = tokenize_err(b"Mass: 250.0\n251.0\n");
    assert!(matches!(err.kind, ErrorKind::ValueWithoutProperty { .. }));
    assert_eq!(at(&err), (2, 1));
}

#[test]
fn key_without_colon_outside_a_block() {
    let err = tokenize_err(b"Mass 250.0\n");
    assert_eq!(
        err.kind,
        ErrorKind::ValueWithoutProperty {
            found: "Mass 250.0".into()
        }
    );
    assert_eq!(at(&err), (1, 1));
}

// --- a header with no value ------------------------------------------------------

#[test]
fn block_header_followed_by_another_header() {
    let err = tokenize_err(b"; Health\n; Mass\n14.25\n");
    assert_eq!(err.kind, ErrorKind::HeaderWithoutValue);
    assert_eq!(at(&err), (1, 3));
    assert_eq!(err.key.as_deref(), Some("Health"));
    assert_eq!(
        err.to_string(),
        "bad.jasset:1:3: error: `Health`: property has no value"
    );
}

#[test]
fn block_header_at_the_end_with_only_comments_and_blanks_after_it() {
    let err = tokenize_err(b"; A\n1\n\n  ;\tLast  \r\n# nothing\r\n\r\n");
    assert_eq!(err.kind, ErrorKind::HeaderWithoutValue);
    assert_eq!(at(&err), (4, 5));
    assert_eq!(err.key.as_deref(), Some("Last"));
}

#[test]
fn one_line_headers_with_an_empty_value() {
    let err = tokenize_err(b"; A: 1\n; template:   \t\n");
    assert_eq!(
        (err.kind.clone(), at(&err), err.key.as_deref()),
        (ErrorKind::HeaderWithoutValue, (2, 3), Some("template"))
    );
    let err = tokenize_err(b"\n  Scale:\n");
    assert_eq!(
        (err.kind.clone(), at(&err), err.key.as_deref()),
        (ErrorKind::HeaderWithoutValue, (2, 3), Some("Scale"))
    );
}

// --- a duplicate key -------------------------------------------------------------

#[test]
fn duplicate_key_names_both_lines() {
    let err = tokenize_err(b"; Mass\n250.0\n\n# again, another spelling\n; mass: 1.0\n");
    assert_eq!(err.kind, ErrorKind::DuplicateKey { first_line: 1 });
    assert_eq!(at(&err), (5, 3));
    assert_eq!(err.key.as_deref(), Some("mass"));
    assert_eq!(
        err.to_string(),
        "bad.jasset:5:3: error: `mass`: duplicate key: first written on line 1"
    );
}

#[test]
fn duplicate_key_across_inline_and_block_forms() {
    let err = tokenize_err(b"; entity_type: Inert\nPosition: 0, 0, 0\n; EntityType\nInert\n");
    assert_eq!(err.kind, ErrorKind::DuplicateKey { first_line: 1 });
    assert_eq!((at(&err), err.key.as_deref()), ((3, 3), Some("EntityType")));
}

// --- an integer out of range -----------------------------------------------------

#[test]
fn integers_out_of_range_for_their_width() {
    let src = "; A\n  300\n; B\n-129\n; C\n4294967296\n; D\n-9223372036854775809\n; E: 65536\n";
    let err = decode_err::<u8>(src, "A");
    assert_eq!(reason(&err), &ValueErrorKind::OutOfRange("u8"));
    assert_eq!((at(&err), err.key.as_deref()), ((2, 3), Some("A")));
    assert_eq!(
        err.to_string(),
        "bad.jasset:2:3: error: `A`: expected u8, found \"300\": out of range for u8"
    );
    let err = decode_err::<i8>(src, "B");
    assert_eq!(
        (reason(&err), at(&err)),
        (&ValueErrorKind::OutOfRange("i8"), (4, 1))
    );
    let err = decode_err::<u32>(src, "C");
    assert_eq!(
        (reason(&err), at(&err)),
        (&ValueErrorKind::OutOfRange("u32"), (6, 1))
    );
    let err = decode_err::<i64>(src, "D");
    assert_eq!(
        (reason(&err), at(&err)),
        (&ValueErrorKind::OutOfRange("i64"), (8, 1))
    );
    let err = decode_err::<u16>(src, "E");
    assert_eq!(
        (reason(&err), at(&err)),
        (&ValueErrorKind::OutOfRange("u16"), (9, 6))
    );
    // i32 through the archive, as a serialize function meets it.
    let mut buffer = TokenBuffer::new();
    let doc = buffer
        .tokenize(b"; AmmoCount\n2147483648\n", Path::new("ammo.jasset"))
        .unwrap();
    let mut ammo = 45i32;
    let err = Archive::loading(doc)
        .serialize(key!("AmmoCount"), &mut ammo)
        .unwrap_err();
    assert_eq!(
        (reason(&err), at(&err)),
        (&ValueErrorKind::OutOfRange("i32"), (2, 1))
    );
    assert_eq!(ammo, 45, "the field keeps its value");
}

#[test]
fn u64_out_of_range_in_hex_and_decimal() {
    let src = "; EntityID\n0x10000000000000000\n; Mask\n18446744073709551616\n";
    let err = decode_err::<u64>(src, "EntityID");
    assert_eq!(
        (reason(&err), at(&err)),
        (&ValueErrorKind::OutOfRange("u64"), (2, 1))
    );
    let err = decode_err::<u64>(src, "Mask");
    assert_eq!(
        (reason(&err), at(&err)),
        (&ValueErrorKind::OutOfRange("u64"), (4, 1))
    );
}

// --- a vector with too few components --------------------------------------------

#[test]
fn vector_with_too_few_components() {
    let err = decode_err::<glam::Vec3>("; entity_type: Inert\nPosition: 142.5, 12.0\n", "Position");
    assert_eq!(
        reason(&err),
        &ValueErrorKind::ComponentCount {
            expected: 3,
            found: 2
        }
    );
    assert_eq!((at(&err), err.key.as_deref()), ((2, 11), Some("Position")));
    assert_eq!(
        err.to_string(),
        "bad.jasset:2:11: error: `Position`: expected 3 floats, found \"142.5, 12.0\": \
         expected 3 components, found 2"
    );
    let err = decode_err::<glam::Vec4>("; Color\n\t1 0 0\n", "Color");
    assert_eq!(
        (reason(&err), at(&err)),
        (
            &ValueErrorKind::ComponentCount {
                expected: 4,
                found: 3
            },
            (2, 2)
        )
    );
    let err = decode_err::<[f32; 2]>("; UVOffset\n0.5\n", "UVOffset");
    assert_eq!(
        (reason(&err), at(&err)),
        (
            &ValueErrorKind::ComponentCount {
                expected: 2,
                found: 1
            },
            (2, 1)
        )
    );
}

#[test]
fn vector_component_that_is_not_a_number_is_pointed_at() {
    let err = decode_err::<glam::Vec3>("; Scale\n1.0 1.O 1.0\n", "Scale");
    assert_eq!(
        (reason(&err), at(&err)),
        (&ValueErrorKind::InvalidNumber, (2, 5))
    );
}

// --- an unterminated quote -------------------------------------------------------

#[test]
fn unterminated_quote() {
    let err = decode_err::<String>("; DisplayName\n  \"Grand Citadel Knight\n", "DisplayName");
    assert_eq!(reason(&err), &ValueErrorKind::UnterminatedQuote);
    assert_eq!(at(&err), (2, 3));
    assert_eq!(
        err.to_string(),
        "bad.jasset:2:3: error: `DisplayName`: expected string, found \
         \"\\\"Grand Citadel Knight\": unterminated quoted string"
    );
    // A closing quote escaped away, and a lone quote.
    let err = decode_err::<String>("Name: \"abc\\\"\n", "Name");
    assert_eq!(
        (reason(&err), at(&err)),
        (&ValueErrorKind::UnterminatedQuote, (1, 7))
    );
    let err = decode_err::<String>("Name: \"\n", "Name");
    assert_eq!(
        (reason(&err), at(&err)),
        (&ValueErrorKind::UnterminatedQuote, (1, 7))
    );
}

#[test]
fn unterminated_quote_in_a_list_element_points_at_its_line() {
    let err = decode_err::<Vec<String>>("; Tags\nrock\n\"mossy\n  big\n", "Tags");
    assert_eq!(
        (reason(&err), at(&err)),
        (&ValueErrorKind::UnterminatedQuote, (3, 1))
    );
}

// --- an unknown escape -----------------------------------------------------------

#[test]
fn unknown_escape() {
    let err = decode_err::<String>("; Name\n  \"bad \\q here\"\n", "Name");
    assert_eq!(reason(&err), &ValueErrorKind::UnknownEscape('q'));
    // Column of the backslash: the value starts at column 3, `"bad ` is 5 characters.
    assert_eq!(at(&err), (2, 8));
    assert_eq!(
        err.to_string(),
        "bad.jasset:2:8: error: `Name`: expected string, found \"\\\\q here\\\"\": \
         unknown escape `\\q` (known: \\\" \\\\ \\n \\t \\r \\u{hex})"
    );
}

#[test]
fn bad_unicode_escapes() {
    for (src, column) in [
        ("Name: \"a\\u{110000}\"\n", 9), // past the last code point
        ("Name: \"a\\u{D800}\"\n", 9),   // a surrogate
        ("Name: \"a\\u{}\"\n", 9),       // no digits
        ("Name: \"a\\u0041\"\n", 9),     // no braces
        ("Name: \"é\\u{zz}\"\n", 9),     // not hex, after a 2-byte character
    ] {
        let err = decode_err::<String>(src, "Name");
        assert_eq!(
            (reason(&err), at(&err)),
            (&ValueErrorKind::UnknownEscape('u'), (1, column)),
            "{src:?}"
        );
    }
}

// --- the rest of the file is not lost --------------------------------------------

#[test]
fn a_bad_value_does_not_stop_other_properties_from_loading() {
    // Value errors are per property: the document stays usable after one.
    let src = "; Name\n\"broken\n; Mass\n14.25\n";
    let mut buffer = TokenBuffer::new();
    let mut doc = buffer.tokenize(src.as_bytes(), Path::new("x")).unwrap();
    let name = doc.find_name("Name").unwrap();
    assert!(doc.decode::<String>(name).is_err());
    let mass = doc.find_name("Mass").unwrap();
    assert_eq!(doc.decode::<f32>(mass).unwrap(), 14.25);
}
