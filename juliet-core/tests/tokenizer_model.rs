//! The tokenizer against a plain model of docs/design.md, section 2.1, on random files built to
//! trip the fast paths (the key chain and the fast loop): keys that
//! are one key under other spellings, keys that are prefixes of others or differ only
//! past 16 bytes, CRLF and blank-padded line ends, tabs, a byte-order mark, a last line
//! without a newline, duplicates and files of more than 32 properties. One buffer
//! tokenizes all the files in a row, so its key chain predicts from earlier files.

use std::path::Path;

use juliet_core::{ErrorKind, TokenBuffer, ValueError, ValueErrorKind};
use proptest::prelude::RngExt;
use proptest::test_runner::{RngAlgorithm, TestRng};

/// A value line: its text, line and column.
type Line = (String, u32, u32);

/// One property: key, value lines, line, column.
type Node = (String, Vec<Line>, u32, u32);

/// The properties; or the error's line, column and a summary of its kind.
type Outcome = Result<Vec<Node>, (u32, u32, String)>;

fn kind_summary(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::DuplicateKey { first_line } => format!("duplicate of {first_line}"),
        ErrorKind::InvalidKey { .. } => "invalid key".into(),
        ErrorKind::ValueWithoutProperty { .. } => "value without property".into(),
        ErrorKind::HeaderWithoutValue => "header without value".into(),
        other => format!("{other:?}"),
    }
}

fn tokenize(buf: &mut TokenBuffer, text: &str) -> Outcome {
    match buf.tokenize(text.as_bytes(), Path::new("t")) {
        Ok(doc) => Ok((0..doc.len())
            .map(|i| {
                let n = doc.node(i);
                // Where each value line is: where an error about all of it points.
                let lines = doc
                    .value(i)
                    .lines()
                    .map(|l| {
                        let at = ValueError::new(ValueErrorKind::InvalidNumber, l);
                        let e = doc.value_error(i, "t", at);
                        (l.to_owned(), e.location.line, e.location.column)
                    })
                    .collect();
                (doc.key(i).to_owned(), lines, n.line, n.column)
            })
            .collect()),
        Err(e) => Err((e.location.line, e.location.column, kind_summary(&e.kind))),
    }
}

fn normalized(key: &str) -> String {
    key.chars()
        .filter(|&c| c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn ident_len(s: &str) -> usize {
    let b = s.as_bytes();
    match b.first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {}
        _ => return 0,
    }
    b.iter()
        .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
        .unwrap_or(b.len())
}

/// Adds the value after a compact or inline property's `:` (`after_colon`, a slice of
/// `line`) as the last node's one value line; `false` (nothing added) when it is empty.
fn push_inline_value(nodes: &mut [Node], line: &str, after_colon: &str, line_no: u32) -> bool {
    let value = after_colon.trim_start_matches([' ', '\t']);
    if value.is_empty() {
        return false;
    }
    let column = (line.len() - value.len() + 1) as u32;
    let last = nodes.last_mut().unwrap();
    last.1.push((value.to_owned(), line_no, column));
    true
}

/// The model: docs/design.md, section 2.1, one line at a time, no fast path.
fn model(text: &str) -> Outcome {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut nodes: Vec<Node> = Vec::new();
    let mut open = false;
    let err = |line: u32, column: usize, what: &str| Err((line, column as u32, what.to_owned()));
    let no_value = |nodes: &[Node]| {
        let n = nodes.last().unwrap();
        Err((n.2, n.3, "header without value".to_owned()))
    };
    let push = |nodes: &mut Vec<_>, key: &str, line: u32, column: usize| {
        if let Some(first) = nodes
            .iter()
            .find(|n: &&Node| normalized(&n.0) == normalized(key))
        {
            return Err((line, column as u32, format!("duplicate of {}", first.2)));
        }
        nodes.push((key.to_owned(), Vec::new(), line, column as u32));
        Ok(())
    };
    for (i, raw) in text.split('\n').enumerate() {
        let line_no = i as u32 + 1;
        let line = raw.trim_end_matches([' ', '\t', '\r']);
        let s = line.len() - line.trim_start_matches([' ', '\t']).len();
        let rest = &line[s..];
        if rest.is_empty() || rest.starts_with('#') || rest.starts_with("//") {
            continue;
        }
        if let Some(after) = rest.strip_prefix(';') {
            if open && nodes.last().unwrap().1.is_empty() {
                return no_value(&nodes);
            }
            open = false;
            let k = s + 1 + (after.len() - after.trim_start_matches([' ', '\t']).len());
            let key_len = ident_len(&line[k..]);
            if key_len == 0 {
                return err(line_no, k + 1, "invalid key");
            }
            let key = &line[k..k + key_len];
            let tail = line[k + key_len..].trim_start_matches([' ', '\t']);
            if tail.is_empty() {
                push(&mut nodes, key, line_no, k + 1)?;
                open = true;
            } else if let Some(value) = tail.strip_prefix(':') {
                push(&mut nodes, key, line_no, k + 1)?;
                if !push_inline_value(&mut nodes, line, value, line_no) {
                    return no_value(&nodes);
                }
            } else {
                return err(line_no, k + 1, "invalid key");
            }
        } else if open {
            let value = (rest.to_owned(), line_no, s as u32 + 1);
            nodes.last_mut().unwrap().1.push(value);
        } else {
            let key_len = ident_len(rest);
            let tail = rest[key_len..].trim_start_matches([' ', '\t']);
            match tail.strip_prefix(':') {
                Some(value) if key_len > 0 => {
                    push(&mut nodes, &rest[..key_len], line_no, s + 1)?;
                    if !push_inline_value(&mut nodes, line, value, line_no) {
                        return no_value(&nodes);
                    }
                }
                _ => return err(line_no, s + 1, "value without property"),
            }
        }
    }
    if open && nodes.last().unwrap().1.is_empty() {
        return no_value(&nodes);
    }
    Ok(nodes)
}

const KEYS: [&str; 24] = [
    "MeshInstance",
    "mesh_instance",
    "meshinstance",
    "MESH_INSTANCE",
    "Mesh",
    "MeshInstanceX",
    "ABCDEFGHIJKLMN",
    "ABCDEFGHIJKLMNO",
    "ABCDEFGHIJKLMNP",
    "ABCDEFGHIJKLMNOP",
    "ABCDEFGHIJKLMNOQ",
    "A",
    "a",
    "_a",
    "B",
    "Pos",
    "Position",
    "prop_vmaxkgcf",
    "prop_hwpvvous",
    "Id",
    "ID",
    "Health",
    "Max_Speed",
    "MaxSpeed",
];

/// proptest's deterministic generator, drawing in `0..n`.
struct Rng(TestRng);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }
}

fn random_file(rng: &mut Rng) -> String {
    let mut file = String::new();
    if rng.below(8) == 0 {
        file.push('\u{FEFF}');
    }
    let count = [3, 8, 20, 40, 100][rng.below(5)];
    // Half the files have no duplicate key, so that long files can be valid.
    let unique = rng.below(2) == 0;
    let mut used = Vec::new();
    for _ in 0..count {
        // Mostly keys of a small set (the chain learns them), some numbered ones.
        let key = if rng.below(4) == 0 {
            format!("K{}", rng.below(100))
        } else {
            KEYS[rng.below(KEYS.len())].to_owned()
        };
        if unique {
            if used.contains(&normalized(&key)) {
                continue;
            }
            used.push(normalized(&key));
        }
        let eol = ["\n", "\n", "\n", "\r\n", " \n", "\t\n", "\n\n"][rng.below(7)];
        let pad = ["", "", "", " ", "\t"][rng.below(5)];
        // A file without duplicates has no broken value either.
        let value = ["1", "x:y", "2 3", "é", "; not a header"][rng.below(5 - usize::from(unique))];
        match rng.below(10) {
            0..=4 => {
                file.push_str(&format!("{pad}; {key}{eol}"));
                for _ in 0..rng.below(3) + usize::from(unique) {
                    file.push_str(&format!("{value}{eol}"));
                }
                if rng.below(3) == 0 {
                    file.push_str(&format!("# c{eol}{value}{eol}"));
                }
            }
            5 => file.push_str(&format!("{pad}; {key}: {value}{eol}")),
            6 => file.push_str(&format!("{pad}{key}:{value}{eol}")),
            7 => file.push_str(&format!("{key}: {value}{eol}")),
            8 => file.push_str(&format!("//{key}{eol}")),
            _ => file.push_str(&format!(";{key}{eol}{value}{eol}")),
        }
    }
    if rng.below(3) == 0 {
        // The last line without its newline.
        while file.ends_with(['\n', '\r']) {
            file.pop();
        }
    }
    file
}

#[test]
fn warm_buffers_tokenize_random_files_as_the_model() {
    let mut rng = Rng(TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let mut shared = TokenBuffer::new();
    let mut outcomes = [0usize; 2];
    let mut long_valid = 0;
    for _ in 0..20_000 {
        let file = random_file(&mut rng);
        let expected = model(&file);
        outcomes[usize::from(expected.is_ok())] += 1;
        long_valid += usize::from(expected.as_ref().is_ok_and(|n| n.len() > 32));
        let got = tokenize(&mut shared, &file);
        assert_eq!(got, expected, "{file:?}");
        // Again, warm with this very file.
        assert_eq!(tokenize(&mut shared, &file), expected, "again {file:?}");
    }
    // Both outcomes are exercised.
    assert!(outcomes[0] > 1000 && outcomes[1] > 1000, "{outcomes:?}");
    // Valid files of over 32 properties (duplicates found through the hash map).
    assert!(long_valid > 100, "{long_valid}");
}

#[test]
fn a_good_file_after_one_that_failed_half_way() {
    let good = "; MeshInstance\n1\n; Position: 2\nHealth: 3\n; Mesh\n4\n# pad pad pad pad pad\n";
    let mut buf = TokenBuffer::new();
    let expected = model(good);
    assert!(expected.is_ok());
    for bad in [
        "; MeshInstance\n1\n; Position\n; Mesh\n4\n# pad pad pad pad pad pad\n",
        "; MeshInstance\n1\n; mesh_instance\n2\n# pad pad pad pad pad pad\n",
        "; MeshInstance\n1\n; Position\n2\n; Health:\n",
        "Health: 3\n  stray\n; Position\n2\n",
    ] {
        tokenize(&mut buf, good).unwrap();
        assert_eq!(tokenize(&mut buf, bad), model(bad), "{bad:?}");
        assert!(model(bad).is_err(), "{bad:?}");
        assert_eq!(tokenize(&mut buf, good), expected, "after {bad:?}");
    }
}
