//! Tests of `values.rs`.

use super::*;
use juliet_entities::load::PIECE_LINES;

static INNER: PropertyType = PropertyType::I32;

#[test]
fn records_and_enums_with_data_become_objects_keyed_by_leaf() {
    let v = |t| Value::from_text(t);
    static STATS: PropertyType = PropertyType::Record {
        name: "Stats",
        leaves: &[("Hp", &PropertyType::F32), ("Armor", &PropertyType::F32)],
    };
    static WAYPOINT: PropertyType = PropertyType::Record {
        name: "Waypoint",
        leaves: &[("Pos", &PropertyType::Floats(3)), ("Stats", &STATS)],
    };
    static ROUTE: PropertyType = PropertyType::List(&WAYPOINT);
    assert_eq!(
        to_json(&ROUTE, v("-\nPos: 1 2 3\nstats.hp: 4\n-\nStats.Armor: 0.5")).unwrap(),
        json!([
            {"Pos": [1.0, 2.0, 3.0], "Stats": {"Hp": 4.0}},
            {"Stats": {"Armor": 0.5}}
        ])
    );
    static BY_NAME: PropertyType = PropertyType::Map(&PropertyType::String, &STATS);
    assert_eq!(
        to_json(&BY_NAME, v("- orc\nHp: 3\n- elf\nArmor: 1")).unwrap(),
        json!({"orc": {"Hp": 3.0}, "elf": {"Armor": 1.0}})
    );
    assert_eq!(to_json(&BY_NAME, v("{}")).unwrap(), json!({}));
    assert_eq!(to_json(&ROUTE, v("[]")).unwrap(), json!([]));
    static TRIGGER: PropertyType = PropertyType::EnumWithData {
        name: "Trigger",
        variants: &[
            ("Never", &[]),
            ("OnTouch", &[("Radius", &PropertyType::F32)]),
        ],
    };
    assert_eq!(to_json(&TRIGGER, v("never")).unwrap(), json!("Never"));
    assert_eq!(
        to_json(&TRIGGER, v("OnTouch\nradius: 2")).unwrap(),
        json!({"OnTouch": {"Radius": 2.0}})
    );
    let err = to_json(&TRIGGER, v("OnTouch\nRadius: far")).unwrap_err();
    assert_eq!(err.found, "far");

    // In a list, a map and a record.
    static TRIGGERS: PropertyType = PropertyType::List(&TRIGGER);
    assert_eq!(
        to_json(&TRIGGERS, v("-\nNever\n-\nOnTouch\nRadius: 1")).unwrap(),
        json!(["Never", {"OnTouch": {"Radius": 1.0}}])
    );
    static NAMED: PropertyType = PropertyType::Map(&PropertyType::String, &TRIGGER);
    assert_eq!(
        to_json(&NAMED, v("- door\nOnTouch\nRadius: 3")).unwrap(),
        json!({"door": {"OnTouch": {"Radius": 3.0}}})
    );
    static STEP: PropertyType = PropertyType::Record {
        name: "Step",
        leaves: &[("Wait", &PropertyType::F32), ("Trigger", &TRIGGER)],
    };
    static STEPS: PropertyType = PropertyType::List(&STEP);
    assert_eq!(
        to_json(
            &STEPS,
            v("-\nWait: 1\nTrigger: OnTouch\ntrigger.radius: 2\n-\nTrigger: Never")
        )
        .unwrap(),
        json!([
            {"Wait": 1.0, "Trigger": {"OnTouch": {"Radius": 2.0}}},
            {"Trigger": "Never"}
        ])
    );
    // A field's line before its variant's, as the game reads it; without the variant's
    // line the field is not shown (the type does not name the default variant).
    assert_eq!(
        to_json(
            &STEPS,
            v("-\nTrigger.Radius: 2\nTrigger: OnTouch\n-\nTrigger.Radius: 5")
        )
        .unwrap(),
        json!([{"Trigger": {"OnTouch": {}}}, {"Trigger": {}}])
    );
    // A leaf's value is its whole line: a `#` in it is text.
    static LABELLED: PropertyType = PropertyType::Record {
        name: "Labelled",
        leaves: &[("Color", &PropertyType::String)],
    };
    static PALETTE: PropertyType = PropertyType::Map(&PropertyType::String, &PropertyType::String);
    assert_eq!(
        to_json(&PropertyType::List(&LABELLED), v("-\nColor: #ff0000")).unwrap(),
        json!([{"Color": "#ff0000"}])
    );
    assert_eq!(
        to_json(&PALETTE, v("red: #ff0000")).unwrap(),
        json!({"red": "#ff0000"})
    );
}

#[test]
fn the_new_value_types_become_json_as_their_codecs_read_them() {
    let v = |t| Value::from_text(t);
    static F32: PropertyType = PropertyType::F32;
    static GRID: PropertyType = PropertyType::List(&PropertyType::List(&F32));
    // An empty inner list stays, and a list holding the string `[]` keeps it.
    assert_eq!(
        to_json(&GRID, v("1.0 2.5\n[]\n3.0")).unwrap(),
        json!([[1.0, 2.5], [], [3.0]])
    );
    static NAMES: PropertyType = PropertyType::List(&PropertyType::String);
    assert_eq!(to_json(&NAMES, v("[]\nx")).unwrap(), json!(["[]", "x"]));
    assert_eq!(to_json(&NAMES, v("[]")).unwrap(), json!([]));
    static MAYBE: PropertyType = PropertyType::Option(&F32);
    assert_eq!(to_json(&MAYBE, v("~")).unwrap(), json!(null));
    assert_eq!(to_json(&MAYBE, v("2.5")).unwrap(), json!(2.5));
    static MAP: PropertyType = PropertyType::Map(&PropertyType::String, &F32);
    assert_eq!(
        to_json(&MAP, v("\"big tree\": 0.25\nrock: 2")).unwrap(),
        json!({"big tree": 0.25, "rock": 2.0})
    );
    static COLOUR: PropertyType = PropertyType::Array(&PropertyType::U8, 4);
    assert_eq!(
        to_json(&COLOUR, v("255 128, 0 1")).unwrap(),
        json!([255, 128, 0, 1])
    );
    assert_eq!(
        to_json(
            &PropertyType::U128,
            v("340282366920938463463374607431768211455")
        )
        .unwrap(),
        json!("340282366920938463463374607431768211455")
    );
}

#[test]
fn values_become_json_by_type() {
    let v = |t| Value::from_text(t);
    assert_eq!(to_json(&PropertyType::F32, v("0.1")).unwrap(), json!(0.1));
    assert_eq!(to_json(&PropertyType::Bool, v("1")).unwrap(), json!(true));
    assert_eq!(to_json(&PropertyType::U32, v("+7")).unwrap(), json!(7));
    assert_eq!(
        to_json(&PropertyType::U64, v("0x0000000000000010")).unwrap(),
        json!(16)
    );
    assert_eq!(
        to_json(&PropertyType::Floats(3), v("1.5, 2 -3")).unwrap(),
        json!([1.5, 2.0, -3.0])
    );
    assert_eq!(
        to_json(&PropertyType::String, v("\"a b\"")).unwrap(),
        json!("a b")
    );
    assert_eq!(
        to_json(&PropertyType::List(&INNER), v("1\n2\n")).unwrap(),
        json!([1, 2])
    );
    let e = PropertyType::Enum {
        name: "M",
        variants: &["Stone", "Wood"],
    };
    assert_eq!(to_json(&e, v("wood")).unwrap(), json!("Wood"));
    assert_eq!(to_json(&PropertyType::F32, v("inf")).unwrap(), json!("inf"));
    // Non-finite values are strings spelled as the format writes them.
    for (text, ty) in [("nan", PropertyType::F32), ("NaN", PropertyType::F64)] {
        assert_eq!(to_json(&ty, v(text)).unwrap(), json!("nan"));
    }
    assert_eq!(
        to_json(&PropertyType::F64, v("-inf")).unwrap(),
        json!("-inf")
    );
    assert_eq!(float32(f32::NEG_INFINITY), json!("-inf"));
    assert!(to_json(&PropertyType::F32, v("abc")).is_err());
    assert!(to_json(&PropertyType::Floats(3), v("1 2")).is_err());
}

/// A piece's length of compact properties `k0: 1`, `k1: 1`, ...
fn a_piece_of_ones() -> String {
    (0..PIECE_LINES).map(|i| format!("k{i}: 1\n")).collect()
}

/// A text of `n` properties in every line form, with comments, blank lines, CRLF
/// endings, and value lines that look like `Key: value` lines, start with a
/// byte-order mark or follow a comment: what the cuts of [`pieces`] must not change.
fn mixed_text(n: usize) -> String {
    let mut text = String::from("\u{feff}; EntityID\n0x42\n");
    for i in 0..n {
        text.push_str(&match i % 6 {
            // No block open before each of these three.
            0 => format!("k{i}: {i}\n"),
            1 => format!("# comment\n\n  ; k{i}: {i}\r\n"),
            2 => format!("\t k{i} : {i}\r\n"),
            3 => format!("; k{i}\nv{i}\nlooks_compact: {i}\n\u{feff}x\n// c\nk: {i}\n"),
            4 => format!(";k{i}\n{i}\n"),
            // Closes the block.
            _ => format!("; k{i}: {i}\n"),
        });
    }
    text
}

#[test]
fn pieces_cut_a_large_text_where_nothing_changes() {
    let text = mixed_text(3 * PIECE_LINES);
    let cut: Vec<&[u8]> = pieces(text.as_bytes()).collect();
    assert!(cut.len() > 3, "{} pieces", cut.len());
    assert_eq!(cut.concat(), text.as_bytes());
    let (mut before_header, mut before_compact) = (0, 0);
    for piece in &cut[1..] {
        let text = std::str::from_utf8(piece).unwrap();
        assert!(!text.starts_with('\u{feff}'));
        if text.trim_start().starts_with(';') {
            before_header += 1;
        } else if text.starts_with('k') || text.starts_with('\t') {
            before_compact += 1;
        }
    }
    assert!(before_header > 0 && before_compact > 0);
    let all = properties(text.as_bytes(), Path::new("m")).unwrap();
    let kept = properties_where(text.as_bytes(), Path::new("m"), |_, _| true).unwrap();
    assert_eq!(kept.len(), all.len());
    assert!(kept == all, "the pieces read as the whole text");
    let some = properties_where(text.as_bytes(), Path::new("m"), |k, _| k.ends_with('7'));
    let expected: Properties = all.into_iter().filter(|p| p.0.ends_with('7')).collect();
    assert_eq!(some.unwrap(), expected);
}

#[test]
fn a_value_line_that_looks_like_a_header_keeps_its_block_open() {
    // `\x0C; x: 1` is a value line (only spaces and tabs are trimmed), so the block
    // stays open and `looks: 1` is its next value line, not a property.
    let mut text = a_piece_of_ones();
    text.push_str("; Block\n");
    // A piece starts at `; Block`: `looks: 1` is its first line past a piece's length.
    text.push_str(&"v\n".repeat(PIECE_LINES - 2));
    text.push_str("\x0C; x: 1\nlooks: 1\n; End\n1\n");
    let all = properties(text.as_bytes(), Path::new("f")).unwrap();
    assert_eq!(
        all[PIECE_LINES].2.last().map(String::as_str),
        Some("looks: 1")
    );
    let kept = properties_where(text.as_bytes(), Path::new("f"), |_, _| true).unwrap();
    assert!(kept == all, "the pieces read as the whole text");
}

#[test]
fn a_block_longer_than_a_piece_stays_whole() {
    let mut text = String::from("a: 1\n; Long\n");
    for i in 0..PIECE_LINES + 10 {
        text.push_str(&format!("k{i}: {i}\n"));
    }
    text.push_str("; After\n1\n");
    let cut: Vec<&[u8]> = pieces(text.as_bytes()).collect();
    assert_eq!(cut.len(), 2);
    assert!(cut[1].starts_with(b"; After"));
    let props = properties_where(text.as_bytes(), Path::new("l"), |_, _| true).unwrap();
    assert_eq!(props.len(), 3);
    assert_eq!(props[1].2.len(), PIECE_LINES + 10);
}

#[test]
fn an_error_in_a_later_piece_is_located_in_the_whole_text() {
    let mut text = mixed_text(2 * PIECE_LINES);
    text.push_str("no colon here\n");
    let lines = text.lines().count() as u32;
    let err = properties_where(text.as_bytes(), Path::new("e"), |_, _| false).unwrap_err();
    assert!(
        matches!(err.kind, ErrorKind::ValueWithoutProperty { .. }),
        "{err}"
    );
    assert_eq!(err.location.line, lines);
}

#[test]
fn a_byte_order_mark_past_the_start_is_not_skipped() {
    // Where a cut would fall, a line led by U+FEFF: an error in the whole text
    // (the mark is content there), which a piece starting with it would skip.
    let mut text = a_piece_of_ones();
    text.push_str("\u{feff}late: 1\n");
    assert!(properties(text.as_bytes(), Path::new("b")).is_err());
    assert!(properties_where(text.as_bytes(), Path::new("b"), |_, _| false).is_err());
}

#[test]
fn header_reads_aliases() {
    let props = properties(
        b"; version\n1\n; class\nInert\n; class_version\n2\n; template: A/B.jasset\n",
        Path::new("h"),
    )
    .unwrap();
    assert_eq!(
        header(&props),
        Header {
            base_version: Some(1),
            class_version: Some(2),
            template: Some("A/B.jasset".into()),
            kind: Some("Inert".into()),
        }
    );
}

#[test]
fn chain_follows_templates_and_names_a_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("Assets/Templates");
    std::fs::create_dir_all(&t).unwrap();
    std::fs::write(
        t.join("A.jasset"),
        "; Template\nAssets/Templates/B.jasset\n",
    )
    .unwrap();
    std::fs::write(t.join("B.jasset"), "; Kind\nInert\n").unwrap();
    let chain = template_chain(dir.path(), Path::new("x"), "Assets/Templates/A.jasset").unwrap();
    let names: Vec<&str> = chain.iter().map(|l| l.template.as_str()).collect();
    assert_eq!(
        names,
        ["Assets/Templates/A.jasset", "Assets/Templates/B.jasset"]
    );

    std::fs::write(
        t.join("B.jasset"),
        "; Template\nAssets/Templates/A.jasset\n",
    )
    .unwrap();
    let err = template_chain(dir.path(), Path::new("x"), "Assets/Templates/A.jasset").unwrap_err();
    assert!(err.to_string().contains("template cycle: Assets/Templates/A.jasset -> Assets/Templates/B.jasset -> Assets/Templates/A.jasset"), "{err}");

    let err =
        template_chain(dir.path(), Path::new("x"), "Assets/Templates/None.jasset").unwrap_err();
    assert!(matches!(err.kind, ErrorKind::Template { .. }), "{err}");
}

#[test]
fn chain_reads_nothing_outside_the_project_nor_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("Assets/Templates");
    std::fs::create_dir_all(&t).unwrap();
    for outside in ["/dev/zero", "../../../../dev/zero", "Assets/../../x.jasset"] {
        let err = template_chain(dir.path(), Path::new("x"), outside).unwrap_err();
        assert!(matches!(err.kind, ErrorKind::Template { .. }), "{err}");
        assert_eq!(err.location.path, Path::new("x"));
    }
    #[cfg(unix)]
    {
        let fifo = t.join("Pipe.jasset");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        let err =
            template_chain(dir.path(), Path::new("x"), "Assets/Templates/Pipe.jasset").unwrap_err();
        assert!(err.to_string().contains("cannot read"), "{err}");
    }
}

/// A map's key or a set's element written twice is `DuplicateEntry` at its second
/// writing, compared as the type reads it (`01` and `1` are one `u32`), as the game's
/// map and set codecs refuse it.
#[test]
fn a_key_or_element_twice_is_an_error_at_the_second() {
    static WEIGHTS: PropertyType = PropertyType::Map(&PropertyType::String, &PropertyType::F32);
    static IDS: PropertyType = PropertyType::Set(&PropertyType::U32);
    static STATS: PropertyType = PropertyType::Record {
        name: "Stats",
        leaves: &[("Hp", &PropertyType::F32)],
    };
    // A map of records: the `- key` line written twice.
    static BY_NAME: PropertyType = PropertyType::Map(&PropertyType::String, &STATS);
    for (ty, text, at) in [
        (&WEIGHTS, "rock: 2\ntree: 1\n\"rock\": 3", 16..22),
        (&IDS, "1\n30\n01", 5..7),
        (&BY_NAME, "- orc\nHp: 3\n- elf\n- orc\nHp: 4", 20..23),
    ] {
        let err = to_json(ty, Value::from_text(text)).unwrap_err();
        assert_eq!(err.kind, ValueErrorKind::DuplicateEntry, "{text:?}");
        let found = &text[at];
        assert_eq!((err.found, err.found.as_ptr()), (found, found.as_ptr()));
    }
    assert_eq!(
        to_json(&IDS, Value::from_text("30\n1")).unwrap(),
        json!([30, 1])
    );
    // A list keeps its repeated elements.
    static LIST: PropertyType = PropertyType::List(&PropertyType::U32);
    assert_eq!(
        to_json(&LIST, Value::from_text("1\n1")).unwrap(),
        json!([1, 1])
    );
}

/// A map's lines as the map codecs read them: `{}` only alone, text on both sides of
/// each entry's `:`, a map of records' entry the `- key` line with one token; a list of
/// records' element the `-` line alone.
#[test]
fn map_and_list_lines_are_refused_as_the_codecs_refuse_them() {
    static WEIGHTS: PropertyType = PropertyType::Map(&PropertyType::String, &PropertyType::String);
    for (text, found) in [("rock: a\n{}", "{}"), (": a", ": a"), ("gold:", "gold:")] {
        let err = to_json(&WEIGHTS, Value::from_text(text)).unwrap_err();
        assert_eq!(
            (err.kind, err.found),
            (ValueErrorKind::ExpectedEntry, found),
            "{text:?}"
        );
    }
    static STATS: PropertyType = PropertyType::Record {
        name: "Stats",
        leaves: &[("Hp", &PropertyType::F32)],
    };
    static BY_NAME: PropertyType = PropertyType::Map(&PropertyType::String, &STATS);
    let err = to_json(&BY_NAME, Value::from_text("- big tree\nHp: 1")).unwrap_err();
    assert!(matches!(err.kind, ValueErrorKind::Custom(_)), "{err:?}");
    assert_eq!(err.found, "big tree");
    let err = to_json(&BY_NAME, Value::from_text("-\nHp: 1")).unwrap_err();
    assert_eq!(err.kind, ValueErrorKind::ExpectedEntry);
    static ROUTE: PropertyType = PropertyType::List(&STATS);
    let err = to_json(&ROUTE, Value::from_text("-\nHp: 1\n- orc\nHp: 2")).unwrap_err();
    assert!(matches!(err.kind, ValueErrorKind::Custom(_)), "{err:?}");
    assert_eq!(err.found, "orc");
}

/// A map's value and a record's leaf are elements: a list there is one line of tokens
/// (`10: 1 2`), as `BTreeMap<u32, Vec<u8>>` and a record's `Vec<String>` leaf read it,
/// and so is an `Option`'s value in a list.
#[test]
fn a_list_as_a_map_value_or_record_leaf_is_one_line_of_tokens() {
    let v = |t| Value::from_text(t);
    static BYTES: PropertyType = PropertyType::List(&PropertyType::U8);
    static BY_LEVEL: PropertyType = PropertyType::Map(&PropertyType::U32, &BYTES);
    assert_eq!(
        to_json(&BY_LEVEL, v("2: []\n10: 1, 2")).unwrap(),
        json!({"2": [], "10": [1, 2]})
    );
    static SPAWN: PropertyType = PropertyType::Record {
        name: "Spawn",
        leaves: &[("Kinds", &PropertyType::List(&PropertyType::String))],
    };
    static SPAWNS: PropertyType = PropertyType::List(&SPAWN);
    assert_eq!(
        to_json(&SPAWNS, v("-\nKinds: orc \"big troll\"")).unwrap(),
        json!([{"Kinds": ["orc", "big troll"]}])
    );
    static MAYBE: PropertyType = PropertyType::List(&PropertyType::Option(&BYTES));
    assert_eq!(to_json(&MAYBE, v("1 2\n~")).unwrap(), json!([[1, 2], null]));
}

/// An array of tokens is one line, as the array codec reads it (four lines of a
/// `[u8; 4]` are refused), references and `Option`s of tokens included; an array of
/// other elements is one a line.
#[test]
fn an_array_of_tokens_is_one_line() {
    let v = |t| Value::from_text(t);
    static COLOUR: PropertyType = PropertyType::Array(&PropertyType::U8, 4);
    let err = to_json(&COLOUR, v("1\n2\n3\n4")).unwrap_err();
    assert_eq!(err.kind, ValueErrorKind::ExpectedOneLine(4));
    static PAIR: PropertyType = PropertyType::Array(&PropertyType::Reference(None), 2);
    assert_eq!(
        to_json(&PAIR, v("0x1 2")).unwrap(),
        json!(["0x0000000000000001", "0x0000000000000002"])
    );
    static MAYBE: PropertyType = PropertyType::Array(&PropertyType::Option(&PropertyType::U8), 2);
    assert_eq!(to_json(&MAYBE, v("~ 3")).unwrap(), json!([null, 3]));
    static CORNERS: PropertyType = PropertyType::Array(&PropertyType::Floats(2), 2);
    assert_eq!(
        to_json(&CORNERS, v("0.5 1\n0 0")).unwrap(),
        json!([[0.5, 1.0], [0.0, 0.0]])
    );
}
