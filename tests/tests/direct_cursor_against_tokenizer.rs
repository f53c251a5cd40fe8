//! A hand-written `DirectCursor` sequence (the direct load path, `juliet_core::direct`)
//! against the tokenizer, on random text from a small alphabet (`;`, blanks, CR, LF,
//! `#`, `/`, `:`, key letters, digits, quotes) and on text near the canonical form:
//! whenever the cursor accepts a file, the tokenizer must make exactly those
//! properties of it, one value line each, decoding to the same strings.

use std::path::Path;

use juliet_core::{Error, Key, TokenBuffer};
use proptest::prelude::*;
use proptest::test_runner::Config;

const PATH: &str = "cursor.jasset";

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
