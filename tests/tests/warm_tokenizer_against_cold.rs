//! Review probe: a warm `TokenBuffer` (key chain with predictions and alternatives)
//! tokenizes every file of a sequence exactly as a fresh buffer does, for files
//! made to fool the chain: shared key prefixes, keys differing after byte 16,
//! headers in the text's last 16 bytes, duplicates of a predicted key, CRLF, BOM,
//! tabs, comments between header and value, empty values, 3+ alternating shapes.

use juliet_core::TokenBuffer;
use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, TestRng};
use std::path::Path;

/// Everything observable of a tokenized file (or its error text).
fn observe(buf: &mut TokenBuffer, bytes: &[u8]) -> Result<Vec<String>, String> {
    let doc = buf
        .tokenize(bytes, Path::new("t.jasset"))
        .map_err(|e| e.to_string())?;
    Ok(doc
        .nodes()
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let lines: Vec<&str> = doc.value(i).lines().collect();
            format!(
                "{}|{:08x}|{}:{}|{:?}|{:?}",
                doc.key(i),
                n.key_crc,
                n.line,
                n.column,
                n.form,
                lines
            )
        })
        .collect())
}

const KEYS: [&str; 10] = [
    "A",
    "Kind",
    "Position",
    "ABCDEFGHIJKLMN",  // "; " + key = 16 bytes
    "ABCDEFGHIJKLMNO", // 17 bytes, same first 16
    "ABCDEFGHIJKLMNP", // differs from the one before at byte 17
    "ABCDEFGHIJKLMNOPQRS_1",
    "ABCDEFGHIJKLMNOPQRS_2",
    "abcdefghijklmn", // same key as the 14-letter one, other case
    "A_B_C_D_E_F_G_H_I_J_K_L_M_N",
];

fn line() -> impl Strategy<Value = String> {
    let key = prop::sample::select(KEYS.to_vec());
    let pad = prop::sample::select(vec!["", "", " ", "\t"]);
    let val = prop::sample::select(vec![
        "1", "1 2 3", "x: y", "; not", "\"a b\"", "", "é ü", "// not",
    ]);
    (0..8usize, key, pad, val).prop_map(|(form, key, pad, val)| match form {
        0 | 1 => format!("{pad}; {key}\n{pad}{val}\n"),
        2 => format!("; {key}\n# between\n{val}\n"),
        3 => format!("; {key}: {val}\n"),
        4 => format!("{key}: {val}\n"),
        5 => format!("; {key}\n"),
        6 => "// c\n\n".to_owned(),
        _ => format!("; {key}\n{val}\n{val}\n"),
    })
}

fn file() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(line(), 0..7),
        any::<bool>(),
        any::<bool>(),
        0..3usize,
    )
        .prop_map(|(lines, crlf, bom, end)| {
            let mut text: String = lines.concat();
            match end {
                // No final newline: the last header/value in the last 16 bytes.
                0 => {
                    text.pop();
                }
                1 => text.push_str("# a trailing comment over sixteen bytes\n"),
                _ => {}
            }
            if crlf {
                text = text.replace('\n', "\r\n");
            }
            let mut bytes = Vec::new();
            if bom {
                bytes.extend_from_slice(b"\xEF\xBB\xBF");
            }
            bytes.extend_from_slice(text.as_bytes());
            bytes
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn warm_buffer_tokenizes_each_file_as_a_cold_one(
        shapes in prop::collection::vec(file(), 1..5),
        order in prop::collection::vec(0..5usize, 1..40),
    ) {
        let mut warm = TokenBuffer::new();
        for &i in &order {
            let bytes = &shapes[i % shapes.len()];
            let cold = observe(&mut TokenBuffer::new(), bytes);
            let got = observe(&mut warm, bytes);
            prop_assert_eq!(cold, got, "{:?}", String::from_utf8_lossy(bytes));
        }
    }
}

#[test]
fn duplicate_of_a_predicted_key_names_both_lines_when_warm() {
    let good = b"; Kind\nRock\n; Position\n1 2 3\n; Scale: 2\n";
    let dup = b"; Kind\nRock\n; Position\n1 2 3\n; Kind\nTree\n";
    let mut warm = TokenBuffer::new();
    for _ in 0..3 {
        warm.tokenize(good, Path::new("t")).unwrap();
    }
    let err = warm.tokenize(dup, Path::new("t")).unwrap_err().to_string();
    let cold = TokenBuffer::new()
        .tokenize(dup, Path::new("t"))
        .unwrap_err()
        .to_string();
    assert_eq!(err, cold);
    assert!(err.contains('1') && err.contains('5'), "{err}");
}

#[test]
fn chain_overflow_and_many_alternatives_tokenize_as_cold() {
    // Over 255 distinct line starts (the chain starts again when full), files that
    // share a prefix of keys then branch three or more ways, some with a duplicate of
    // the predicted key after the branch.
    let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut next = move |n: usize| rng.random_range(0..n);
    let mut warm = TokenBuffer::new();
    for round in 0..3000 {
        let mut text = String::from("; Kind\nRock\n; Position\n1 2 3\n");
        let branch = round % 4;
        let count = 3 + next(20);
        let mut used = Vec::new();
        for k in 0..count {
            let key = if next(3) == 0 {
                format!("Key{}x{}", branch, k)
            } else {
                format!("K{}", next(400))
            };
            if used.contains(&key) && next(4) != 0 {
                continue;
            }
            used.push(key.clone());
            match next(4) {
                0 => text.push_str(&format!("; {key}\n{k}\n")),
                1 => text.push_str(&format!("; {key}: {k}\n")),
                2 => text.push_str(&format!("; {key}\n// c\n\n{k}\n")),
                _ => text.push_str(&format!("; {key}\r\n\t{k}\r\n")),
            }
        }
        if next(5) == 0 {
            text.push_str("; Position\n4\n");
        }
        let bytes = text.as_bytes();
        let cold = observe(&mut TokenBuffer::new(), bytes);
        let got = observe(&mut warm, bytes);
        assert_eq!(cold, got, "{text:?}");
    }
}
