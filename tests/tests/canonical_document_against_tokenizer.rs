//! A document filled as it is read (`TokenBuffer::document`, walked by
//! `juliet_core::Properties`) against the tokenizer, on random text from a small
//! alphabet (`;`, blanks, CR, LF, `#`, `/`, `:`, key letters, digits, quotes) and on
//! text near the canonical form: whatever part of a file the canonical reading takes,
//! the complete document has exactly the tokenizer's nodes, and the walk reads the
//! values a walk over the tokenized document reads.

use std::path::Path;

use juliet_core::{Error, PropertyNode, Reflect, TokenBuffer};
use juliet_entities::Entity;
use proptest::prelude::*;
use proptest::test_runner::Config;

const PATH: &str = "cursor.jasset";

/// The keys of [`Abc`], in declaration order.
const CURSOR_KEYS: [&str; 3] = ["A", "Bc", "D_1"];

/// The class the walk binds the files' properties to.
#[derive(Entity, Debug, Default, PartialEq)]
struct Abc {
    #[jasset(rename = "A")]
    a: String,
    #[jasset(rename = "Bc")]
    bc: String,
    #[jasset(rename = "D_1")]
    d_1: String,
}

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

/// A walk over the file's document (`tokenized`: from the tokenizer, else filled as
/// it is read): the values read, in file order, and the complete document's nodes
/// (consumed flags cleared) with whether the canonical reading took the whole file.
type Walk = (Vec<(usize, String)>, Vec<PropertyNode>, bool);

fn walk(text: &[u8], tokenized: bool) -> Result<Walk, Error> {
    let mut buffer = TokenBuffer::new();
    let path = Path::new(PATH);
    let mut doc = if tokenized {
        buffer.tokenize(text, path)?
    } else {
        buffer.document(text, path)?
    };
    let mut read = Vec::new();
    let mut properties = doc.properties(Abc::CLASS.properties());
    while let Some(index) = properties.next_property()? {
        let mut value = String::new();
        match properties.decode_into(&mut value) {
            Ok(()) => read.push((index, value)),
            Err(e) => read.push((index, format!("<bad: {e}>"))),
        }
    }
    doc.read_to_end()?;
    let canonical = !doc.tokenized();
    // Makes the nodes of the properties bound without one (and, in a debug build,
    // checks them against the ones the canonical reading bound).
    doc.complete()?;
    let nodes = doc
        .nodes()
        .iter()
        .map(|&n| {
            let mut n = n;
            n.consumed = false;
            n
        })
        .collect();
    Ok((read, nodes, canonical))
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

/// Both walks agree: the same values, errors and nodes. Returns whether the canonical
/// reading took the whole file.
fn check_document(text: &[u8]) -> bool {
    let shown = String::from_utf8_lossy(text);
    let filled = walk(text, false).map_err(|e| e.to_string());
    let tokenized = walk(text, true).map_err(|e| e.to_string());
    match (&filled, &tokenized) {
        (Ok((read_a, nodes_a, canonical)), Ok((read_b, nodes_b, _))) => {
            assert_eq!(read_a, read_b, "values differ on {shown:?}");
            assert_eq!(nodes_a, nodes_b, "nodes differ on {shown:?}");
            if *canonical {
                // The canonical reading took exactly the tokenizer's properties (blocks
                // of several value lines too; their values are compared above).
                let tokens = tokenizer_read(text).expect("tokenized above");
                assert_eq!(tokens.len(), nodes_a.len(), "{shown:?}");
            }
            *canonical
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "errors differ on {shown:?}");
            false
        }
        _ => panic!("one reading fails on {shown:?}: {filled:?} against {tokenized:?}"),
    }
}

proptest! {
    #![proptest_config(Config { cases: 4096, failure_persistence: None, ..Config::default() })]

    #[test]
    fn a_filled_document_is_the_tokenized_one(text in alphabet_text()) {
        check_document(&text);
    }
}

/// The canonical reading takes the canonical forms this test relies on (so the proptest
/// above is not vacuous), and leaves the others to the tokenizer.
#[test]
fn canonical_alphabet_files_are_read_straight_from_the_text() {
    assert!(check_document(b"; A\nx\n; D_1\n\"q\"\n"));
    assert_eq!(
        walk(b"; A\nx\n; D_1\n\"q\"\n", false).unwrap().0,
        vec![(0, "x".into()), (2, "q".into())]
    );
    // Near the canonical form: another order, comments, blank lines, inline headers.
    assert!(check_document(b"; D_1\nq\n; A\nx\n"), "out of order");
    assert!(check_document(b"# c\n; A\nx\n\n// d\n; Bc: y\n"));
    assert_eq!(
        walk(b"# c\n; A: x\n\n; D_1\nq\n# e", false).unwrap().0,
        vec![(0, "x".into()), (2, "q".into())]
    );
    // A block of several value lines, as the writer writes a list.
    assert!(check_document(b"; A\nx\ny\n; D_1\nq\n"), "two value lines");
    // A block whose lines run over several 64-byte words of the newline masks, with a
    // property after it and as the file's end without a last newline.
    let lines: Vec<String> = (0..40)
        .map(|i| format!("x{}", "y".repeat(i % 11)))
        .collect();
    let block = format!("; A\n{}", lines.join("\n"));
    assert!(block.len() > 3 * 64, "{}", block.len());
    assert!(
        check_document(format!("{block}\n; D_1\nq\n").as_bytes()),
        "long block"
    );
    assert!(check_document(block.as_bytes()), "long block at the end");
    assert_eq!(walk(block.as_bytes(), false).unwrap().0.len(), 1);
    assert!(
        check_document(b"; A\nx\ny\n\n# c\n; D_1\nq"),
        "then a comment"
    );
    // Left to the tokenizer.
    assert!(!check_document(b"; A\n\n"), "no value");
    assert!(!check_document(b"; A\n x\n"), "indented");
    assert!(
        !check_document(b"; A\nx\n y\n"),
        "a second value line indented"
    );
    assert!(!check_document(b"A: x\n"), "compact");
    assert!(!check_document(b"; A\r\nx\r\n"), "CRLF");
    assert!(
        !check_document(b"; A\nx\n# c\ny\n"),
        "a comment between value lines"
    );
    assert!(
        !check_document(b"; A: x\ny\n"),
        "a value line after an inline header"
    );
    assert!(!check_document(b"; A\nx\n; A\ny\n"), "twice");
}
