//! Tests of `props.rs`.

use super::*;

fn asset(text: &str) -> Asset {
    read_asset(text.as_bytes().to_vec(), Path::new("t.jasset"), None).unwrap()
}

/// The 1-based line of the key of `p`, a property of `a`.
fn line(a: &Asset, p: &Prop) -> u32 {
    let before = &a.text().as_bytes()[..p.key_start()];
    1 + before.iter().filter(|&&b| b == b'\n').count() as u32
}

#[test]
fn values_are_read_through_the_codec_and_keys_through_their_aliases() {
    let a = asset("; id\n0x0000000000000042\n; class\nInert\n; mass: 0.50\n");
    let mass = a.get("mass").unwrap();
    assert_eq!((a.name(mass), a.raw(mass)[0]), ("Mass", "0.50"));
    assert!(a.value_lines(mass).eq(["0.5"]));
    let id = a.get("entityid").unwrap();
    assert_eq!((a.key(id), line(&a, id)), ("id", 1));
    assert!(a.load_error.is_none());
}

#[test]
fn a_file_of_an_unknown_kind_compares_as_written() {
    let a = asset("; Kind\nDragon\n; Wings\n4.0\n");
    assert!(a.load_error.is_some());
    assert!(a.value_lines(a.get("wings").unwrap()).eq(["4.0"]));
}

#[test]
fn spans_cover_the_header_through_the_last_value_line() {
    let text = "# c\n; Kind\nInert\n; Mass: 2.0\n; Notes\n  a\nb  \n";
    let a = asset(text);
    let kind = a.get("kind").unwrap();
    let (start, end) = a.span(kind);
    assert_eq!(&text[start..end], "; Kind\nInert\n");
    let mass = a.get("mass").unwrap();
    let (start, end) = a.values(mass);
    assert_eq!(&text[start..end], "2.0");
    let notes = a.get("notes").unwrap();
    assert_eq!(a.raw(notes), ["a", "b"]);
    let (start, end) = a.span(notes);
    assert_eq!(&text[start..end], "; Notes\n  a\nb  \n");
}

#[test]
fn the_load_keeps_unknown_keys_and_writes_the_classs_properties() {
    let a = asset("; Glow: 1\n; Kind: Inert\n; Mass: 2\n; Aura\nx\ny\n");
    assert!(a.resolved());
    let kept: Vec<&str> = (a.kept().into_iter())
        .map(|i| a.key(&a.props[i as usize]))
        .collect();
    assert_eq!(kept, ["Glow", "Aura"]);
    let written: Vec<&str> = a.written().iter().map(|(k, _)| k.as_str()).collect();
    assert!(
        written.contains(&"Mass") && !written.contains(&"Glow"),
        "{written:?}"
    );
    assert_eq!(a.raw(a.get("aura").unwrap()), ["x", "y"]);
}

#[test]
fn a_second_byte_order_mark_is_text_as_for_the_whole_file() {
    let text = "\u{feff}\u{feff}; Kind\nInert\n";
    let err = read_asset(text.as_bytes().to_vec(), Path::new("t.jasset"), None).unwrap_err();
    let whole = TokenBuffer::new()
        .tokenize(text.as_bytes(), Path::new("t.jasset"))
        .unwrap_err();
    assert_eq!(err.to_string(), whole.to_string());
    assert!(err.to_string().contains("t.jasset:1:1:"), "{err}");
}

#[test]
fn line_numbers_and_duplicates_are_those_of_the_whole_file_across_pieces() {
    let pieces = juliet_entities::load::PIECE_LINES;
    let mut text = String::from("; Kind: Inert\n");
    for i in 0..pieces + 10 {
        text.push_str(&format!("k{i}: 1\n"));
    }
    let a = asset(&text);
    let k = a.get(&format!("k{}", pieces + 5)).unwrap();
    assert_eq!(line(&a, k), pieces as u32 + 7);
    text.push_str("K_0: 2\n");
    let err = read_asset(text.into_bytes(), Path::new("t.jasset"), None).unwrap_err();
    assert!(
        err.to_string()
            .contains(&format!("t.jasset:{}:", pieces + 12)),
        "{err}"
    );
}
