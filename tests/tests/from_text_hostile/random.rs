//! Tricky keys, a class with no property, random files of the format's pieces and
//! random bytes (part of `from_text_hostile.rs`).

use super::*;

// ---------------------------------------------------------------------------------
// Keys that are prefixes of each other, start with `_`, hold digits or underscores;
// lists of vectors and enums, arrays; and a class with no property at all.

#[derive(Entity, Debug, Clone, PartialEq)]
#[jasset(version = 3)]
struct Tricky {
    #[jasset(rename = "A")]
    a: i64,
    #[jasset(rename = "AB")]
    ab: u16,
    #[jasset(rename = "_Under")]
    under: String,
    #[jasset(rename = "X1")]
    x1: [f32; 6],
    #[jasset(rename = "Long_Key_With_Underscores", alias = "LKWU")]
    long: Vec<glam::Vec3>,
    moods: Vec<Mood>,
    uv: glam::Vec2,
    quat: glam::Vec4,
}

#[derive(Entity, Debug, Clone, PartialEq)]
struct Empty {
    #[jasset(skip, default = 3)]
    hidden: u8,
}

fn tricky_extra(_: &Tricky) -> String {
    String::new()
}

fn empty_extra(v: &Empty) -> String {
    format!("hidden={}", v.hidden)
}

#[test]
fn prefix_keys_lists_of_vectors_and_empty_classes_read_the_same_both_ways() {
    let mut buffer = TokenBuffer::new();
    let value = Tricky {
        a: i64::MIN,
        ab: 7,
        under: "\"AB\"\n; A".to_owned(),
        x1: [f32::NAN, -0.0, 1e-45, f32::MAX, -f32::INFINITY, 0.5],
        long: vec![glam::Vec3::new(1.0, f32::NAN, -0.0)],
        moods: vec![Mood::Serene],
        uv: glam::Vec2::new(-0.0, 2.0),
        quat: glam::Vec4::splat(f32::MIN_POSITIVE),
    };
    let text = save(&value);
    assert!(check::<Tricky>(&mut buffer, text.as_bytes(), tricky_extra));
    // Every block prefix, with every tail, and a block of `A` where `AB` is due.
    let b = blocks(&text);
    for k in 0..=b.len() {
        for tail in TAILS.iter().copied().chain([
            "; A\n1\n",
            "; AB\n1\n",
            "; a\n1\n",
            "; LKWU\n1 2 3\n",
            "; _under\nx\n",
        ]) {
            let bytes = format!("{}{tail}{}", b[..k].concat(), b[k..].concat());
            check::<Tricky>(&mut buffer, bytes.as_bytes(), tricky_extra);
        }
    }
    edits(&mut buffer, text.as_bytes(), tricky_extra);
    // No property: only `ClassVersion` (or nothing) is read straight from the text; a
    // newer version too, with its warning (`check` compares the warnings).
    for (text, direct) in [
        ("", true),
        ("; ClassVersion\n1\n", true),
        ("; ClassVersion\n1", true),
        ("; ClassVersion\n2\n", true),
        ("; Hidden\n5\n", false),
        ("; ClassVersion\n1\n; ClassVersion\n1\n", false),
        ("\n", true),
        ("# c\n\n// d", true),
        (" \n", false),
    ] {
        assert_eq!(
            check::<Empty>(&mut buffer, text.as_bytes(), empty_extra),
            direct,
            "{text:?}"
        );
    }
}

// ---------------------------------------------------------------------------------
// Random files made of the format's pieces.

/// Pieces of lines: headers of real, aliased, deprecated and unknown keys, values
/// of every kind, blanks, comments, line ends.
fn piece() -> impl proptest::strategy::Strategy<Value = &'static str> {
    proptest::sample::select(vec![
        "; ClassVersion\n",
        "; Counted\n",
        "; Name\n",
        "; Heat\n",
        "; Temp\n",
        "; Precise\n",
        "; Tiny\n",
        "; Big\n",
        "; Flag\n",
        "; Mood\n",
        "; Where\n",
        "; Location\n",
        "; Tags\n",
        "; Counts\n",
        "; Speed\n",
        "; OldName\n",
        "; Scratch\n",
        "; Nope\n",
        "1\n",
        "2\n",
        "-1\n",
        "0x10\n",
        "nan\n",
        "-0.0\n",
        "1 2 3\n",
        "[]\n",
        "[1, 2]\n",
        "\"a b\"\n",
        "\"\\q\"\n",
        "\"open\n",
        "Zen\n",
        "true\n",
        "x\n",
        "\n",
        "# c\n",
        "// c\n",
        "\r\n",
        " ",
        "\t",
        ";",
        ":",
        "Counted: 4\n",
        "\u{e9}",
        "\0",
        "1",
    ])
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 3000,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]

    #[test]
    fn random_files_of_format_pieces_read_the_same_both_ways(
        pieces in proptest::collection::vec(piece(), 0..24),
    ) {
        let mut buffer = TokenBuffer::new();
        check::<Hostile>(&mut buffer, pieces.concat().as_bytes(), hostile_extra);
    }

    #[test]
    fn random_bytes_never_panic_and_read_the_same_both_ways(
        bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64),
    ) {
        let mut buffer = TokenBuffer::new();
        check::<Hostile>(&mut buffer, &bytes, hostile_extra);
    }
}
