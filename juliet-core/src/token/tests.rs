//! Tests of the tokenizer (`token.rs` and its modules).

use super::*;

/// Key, value lines, line, column of each node.
type Tokens = Vec<(String, Vec<String>, u32, u32)>;

fn tok(src: &str) -> Result<Tokens, Error> {
    let mut buf = TokenBuffer::new();
    let doc = buf.tokenize(src.as_bytes(), Path::new("t.jasset"))?;
    Ok((0..doc.len())
        .map(|i| {
            let v = doc.value(i);
            (
                doc.key(i).to_owned(),
                v.lines().map(str::to_owned).collect(),
                doc.node(i).line,
                doc.node(i).column,
            )
        })
        .collect())
}

#[test]
fn block_inline_and_compact_forms() {
    let nodes = tok("; A\n1\n; B: 2 3\nC: x y\n").unwrap();
    assert_eq!(nodes[0], ("A".into(), vec!["1".into()], 1, 3));
    assert_eq!(nodes[1], ("B".into(), vec!["2 3".into()], 3, 3));
    assert_eq!(nodes[2], ("C".into(), vec!["x y".into()], 4, 1));
}

#[test]
fn comments_between_value_lines_are_not_values() {
    let nodes = tok("; List\n a\n # c\n\n // d\n b \n").unwrap();
    assert_eq!(nodes[0].1, vec!["a".to_owned(), "b".to_owned()]);
}

#[test]
fn crlf_bom_and_tabs() {
    let nodes = tok("\u{FEFF}\t; Key\t\r\n\t value \t\r\n").unwrap();
    assert_eq!(nodes[0].0, "Key");
    assert_eq!(nodes[0].1, vec!["value".to_owned()]);
}

#[test]
fn compact_line_inside_block_is_a_value_line() {
    let nodes = tok("; A\n1\nB: 2\n").unwrap();
    assert_eq!(nodes.len(), 1);
    assert_eq!(nodes[0].1.len(), 2);
}

#[test]
fn value_without_property_is_an_error() {
    let err = tok("# c\n  42\n").unwrap_err();
    assert!(matches!(err.kind, ErrorKind::ValueWithoutProperty { .. }));
    assert_eq!((err.location.line, err.location.column), (2, 3));
}

#[test]
fn header_without_value_is_an_error() {
    let err = tok("; A\n; B\n1\n").unwrap_err();
    assert_eq!(err.kind, ErrorKind::HeaderWithoutValue);
    assert_eq!((err.location.line, err.location.column), (1, 3));
    let err = tok("; A\n1\n; B\n# only a comment\n").unwrap_err();
    assert_eq!(
        (err.location.line, err.kind.clone()),
        (3, ErrorKind::HeaderWithoutValue)
    );
    let err = tok("; A:   \n").unwrap_err();
    assert_eq!(
        (err.location.line, err.kind.clone()),
        (1, ErrorKind::HeaderWithoutValue)
    );
    let err = tok("A:\n").unwrap_err();
    assert_eq!(
        (err.location.line, err.kind.clone()),
        (1, ErrorKind::HeaderWithoutValue)
    );
}

#[test]
fn duplicate_key_names_both_lines() {
    let err = tok("; MeshInstance\n1\n\n; mesh_instance\n2\n").unwrap_err();
    assert_eq!(err.kind, ErrorKind::DuplicateKey { first_line: 1 });
    assert_eq!((err.location.line, err.location.column), (4, 3));
    assert_eq!(err.key.as_deref(), Some("mesh_instance"));
}

/// `prop_vmaxkgcf` and `prop_hwpvvous` share a CRC-32 (as do about a hundred pairs
/// in a million random keys); they are different keys, not duplicates, in small
/// and large files and on the fast path (keys seen in an earlier file), while a
/// real duplicate of either is still found.
#[test]
fn keys_that_share_a_crc_are_not_duplicates() {
    assert_eq!(
        crate::key_crc_runtime(b"prop_vmaxkgcf"),
        crate::key_crc_runtime(b"prop_hwpvvous")
    );
    let mut warm = TokenBuffer::new();
    for filler in [0, 40] {
        let mut src = String::new();
        for i in 0..filler {
            src.push_str(&format!("K{i}: {i}\n"));
        }
        src.push_str("prop_vmaxkgcf: 1\n; prop_hwpvvous\n2\n");
        for _ in 0..2 {
            // Twice with one buffer: the second time the keys are cached.
            let doc = warm.tokenize(src.as_bytes(), Path::new("c")).unwrap();
            assert_eq!(doc.len(), filler + 2);
        }
        for again in ["PropHwpvvous", "PROP_VMAXKGCF"] {
            let first_line = if again.starts_with("PropH") {
                filler + 2
            } else {
                filler + 1
            };
            let text = format!("{src}; {again}: 3\n");
            for buffer in [&mut warm, &mut TokenBuffer::new()] {
                let err = buffer
                    .tokenize(text.as_bytes(), Path::new("c"))
                    .unwrap_err();
                assert_eq!(
                    err.kind,
                    ErrorKind::DuplicateKey {
                        first_line: first_line as u32
                    },
                    "{again} after {filler} keys"
                );
                assert_eq!(err.location.line as usize, filler + 4);
            }
        }
    }
}

#[test]
fn duplicate_key_in_a_large_file() {
    let mut src = String::new();
    for i in 0..100 {
        src.push_str(&format!("K{i}: {i}\n"));
    }
    src.push_str("k_50: again\n");
    let err = tok(&src).unwrap_err();
    assert_eq!(err.kind, ErrorKind::DuplicateKey { first_line: 51 });
    assert_eq!(err.location.line, 101);
}

#[test]
fn invalid_key() {
    let err = tok("; 9lives\n1\n").unwrap_err();
    assert!(matches!(err.kind, ErrorKind::InvalidKey { .. }));
    assert_eq!((err.location.line, err.location.column), (1, 3));
    let err = tok("; Two Words\n1\n").unwrap_err();
    assert!(matches!(err.kind, ErrorKind::InvalidKey { .. }));
}

#[test]
fn nul_and_invalid_utf8_are_located() {
    let err = tok("; A\nab\0c\n").unwrap_err();
    assert_eq!(
        (err.kind.clone(), err.location.line, err.location.column),
        (ErrorKind::NulByte, 2, 3)
    );
    // A text problem (NUL, bad UTF-8) comes before any line problem, and the
    // first of the two text problems is the one reported.
    let err = tok("  42\n; A\n1\n\0").unwrap_err();
    assert_eq!(
        (err.kind.clone(), err.location.line, err.location.column),
        (ErrorKind::NulByte, 4, 1)
    );
    let mut buf = TokenBuffer::new();
    let err = buf
        .tokenize(b"\xFF; A\n\0", Path::new("u.jasset"))
        .unwrap_err();
    assert_eq!(
        (err.kind.clone(), err.location.line),
        (ErrorKind::InvalidUtf8, 1)
    );
    let err = buf
        .tokenize(b"; A\n\0\xFF", Path::new("u.jasset"))
        .unwrap_err();
    assert_eq!(
        (err.kind.clone(), err.location.line),
        (ErrorKind::NulByte, 2)
    );
    let err = buf
        .tokenize(b"; A\n\xC3\xA9\xFF\n", Path::new("u.jasset"))
        .unwrap_err();
    assert_eq!(
        (err.kind.clone(), err.location.line, err.location.column),
        (ErrorKind::InvalidUtf8, 2, 2)
    );
}

#[test]
fn find_marks_consumed_and_unconsumed_lists_the_rest() {
    let mut buf = TokenBuffer::new();
    let mut doc = buf.tokenize(b"; A\n1\n; B\n2\n", Path::new("x")).unwrap();
    let i = doc.find_name("a").unwrap();
    assert_eq!(doc.key(i), "A");
    assert_eq!(doc.unconsumed().collect::<Vec<_>>(), vec![1]);
}

#[test]
fn lines_are_found_across_blocks_windows_and_tails() {
    // Known properties separated by runs of blank lines (more than 8 newlines in
    // 64 bytes), comments and long padded values (lines crossing the 64-byte
    // blocks and 4096-byte windows), with LF or CRLF; every prefix length of the
    // last property exercises the tail of the newline search.
    let mut next = crate::test_rng::below();
    let mut src = String::new();
    let mut line = 1u32;
    let mut expected = Vec::new();
    for i in 0..300 {
        let eol = if next(4) == 0 { "\r\n" } else { "\n" };
        for _ in 0..[0, 1, 2, 20, 70][next(5)] {
            src.push_str(eol);
            line += 1;
        }
        src.push_str(&format!("; Key{i}{eol}"));
        let key_line = line;
        line += 1;
        let mut values = Vec::new();
        for j in 0..1 + next(3) {
            if next(3) == 0 {
                src.push_str(&format!("  # comment {i}{eol}"));
                line += 1;
            }
            let value = format!("v{i}.{j}{}x", "-".repeat(next(200)));
            src.push_str(&format!("\t{value}  {eol}"));
            values.push((value, line));
            line += 1;
        }
        expected.push((format!("Key{i}"), key_line, values));
    }
    src.push_str("; Last: ");
    let mut buf = TokenBuffer::new();
    for extra in 1..80 {
        let mut file = src.clone();
        file.push_str(&"y".repeat(extra));
        file.push_str(["", "\n", "\n\n", "\r\n"][extra % 4]);
        let doc = buf.tokenize(file.as_bytes(), Path::new("t")).unwrap();
        assert_eq!(doc.len(), expected.len() + 1);
        for (i, (key, key_line, values)) in expected.iter().enumerate() {
            assert_eq!((doc.key(i), doc.node(i).line), (key.as_str(), *key_line));
            let got: Vec<&str> = doc.value(i).lines().collect();
            let want: Vec<&str> = values.iter().map(|(v, _)| v.as_str()).collect();
            assert_eq!(got, want, "{key}");
            // Each value line is located at its line and column (tab-indented: 2).
            for (found, (_, value_line)) in doc.value(i).lines().zip(values) {
                let kind = crate::ValueErrorKind::ExpectedOneLine(2);
                let err = doc.value_error(i, "x", crate::ValueError::new(kind, found));
                assert_eq!((err.location.line, err.location.column), (*value_line, 2));
            }
        }
        let last = doc.len() - 1;
        assert_eq!((doc.key(last), doc.node(last).line), ("Last", line));
        assert_eq!(doc.value(last).single().unwrap().len(), extra);
    }
}

/// Everything a document says about its nodes, to compare two tokenizations.
fn snapshot(doc: &Document<'_>) -> Vec<(PropertyNode, String, Vec<ValueSpan>)> {
    (0..doc.len())
        .map(|i| {
            let n = doc.buf.nodes[i];
            let spans = super::node_spans(&doc.buf.values, &n).to_vec();
            (n, doc.key(i).to_owned(), spans)
        })
        .collect()
}

#[test]
fn cached_keys_tokenize_like_new_keys() {
    // The first pass meets every key for the first time (general path), the second
    // finds them in the key cache (fast path): same nodes, same errors.
    let files = [
        "; A\n1\n; B: 2 3\nC: x y\n",
        "# c\n; MeshInstance\n4\n// d\n5\n\n; Inline:  v w \nCompact :\tz\n; Last\nq",
        "; A\n1\n; A\n2\n",
        "; A: 1\nB: 2\n; a: 3\n",
        "; A\n; B\n1\n",
        "; A\n1\n; B:   \n",
        "; A\n1\n; B: 1\nC:\n",
        "; A\n1\n; B: 1\n7\n",
        "; A\n1\n; B: 1\nC: 2\n; D x\n",
        "; VeryLongKeyNameBeyondSixteen\n1\n; VeryLongKeyNameBeyondSixteenAndBeyondThirtyTwo: 2\n",
    ];
    for file in files {
        let mut buf = TokenBuffer::new();
        let first = buf
            .tokenize(file.as_bytes(), Path::new("t"))
            .map(|doc| snapshot(&doc));
        let second = buf
            .tokenize(file.as_bytes(), Path::new("t"))
            .map(|doc| snapshot(&doc));
        assert_eq!(first, second, "{file:?}");
    }
    // A key cached by an earlier file, in another position.
    let mut buf = TokenBuffer::new();
    buf.tokenize(b"; Key\n1\n", Path::new("t")).unwrap();
    let doc = buf.tokenize(b"x: 1\n; Key\n  2\n", Path::new("t")).unwrap();
    assert_eq!(
        (doc.key(1), doc.node(1).line, doc.node(1).column),
        ("Key", 2, 3)
    );
    assert_eq!(doc.value(1).single().unwrap(), "2");
}

#[test]
fn predicted_lines_in_another_context_tokenize_as_cold() {
    // Each pair: the first file teaches the buffer's key chain a line start, the
    // second meets it where it means something else (a value line of a block, a
    // header closing an empty block, a duplicate, trailing blanks).
    const PAD: &str = "# a comment of over sixteen bytes\n";
    let pairs = [
        ("x: 1\ny: 2\n", "; A\n1\nx: 2\ny: 3\n"),
        ("  x: 1\n", "; A\n1\n  x: 2\n"),
        ("; A\n1\n  x: 1\n", "; A\n1\n  x: 2\n"),
        ("; A\n1\n; B: 2\n", "; A\n; B: 2\n"),
        ("; A\n1\n; B: 2\n", "; A\n1\n; B: 2 \n; B: 3\n"),
        ("; A\n1\n; B: 2\n", "; A\n1\n; B:\n"),
        ("; A\n1\n; B\n2\n", "; A\n1\n; B\n; C\n2\n"),
        ("; A\n1\n; B\n2\n", "; A\n; B\n2\n"),
        ("; A\n1\n; B\n2\n", "; A\n1\n; B\n2\n; B\n3\n"),
        ("; A: 1\nB: 2\n", "; A: 1\nB: 2\nb: 3\n"),
        ("; A: 1\nB: 2\n", "; A\nB: 2\n"),
        ("; Ab\n1\n; B\n2\n", "; Ab\n1\n; Ab\n2\n"),
    ];
    // The fast loop reads 16 bytes from a line's start, or the text's last 16
    // bytes for a line closer to its end: each pair with and without a comment
    // after the lines (which keeps them off the end of the text).
    for ((teach, file), pad) in pairs.iter().flat_map(|p| [(p, PAD), (p, "")]) {
        let (teach, file) = (format!("{teach}{pad}"), format!("{file}{pad}"));
        let cold = TokenBuffer::new()
            .tokenize(file.as_bytes(), Path::new("t"))
            .map(|doc| snapshot(&doc));
        let mut warm = TokenBuffer::new();
        for _ in 0..2 {
            warm.tokenize(teach.as_bytes(), Path::new("t")).unwrap();
        }
        let got = warm
            .tokenize(file.as_bytes(), Path::new("t"))
            .map(|doc| snapshot(&doc));
        assert_eq!(cold, got, "{teach:?} then {file:?}");
    }
}

#[test]
fn files_that_alternate_tokenize_alike_cold_and_warm() {
    // Files that differ by an optional line after `Kind` (a one-line property or a
    // block), so the key chain's prediction after `Kind` misses and its
    // alternative is tried; some files repeat the optional key (a duplicate), put
    // it where it means something else, or leave the block before it empty.
    const PAD: &str = "# a comment of over sixteen bytes\n";
    let optional = [
        "; Template: a/b.jasset\n",
        "; Extra\n1\n",
        "",
        "; Template: a/b.jasset\n; Template: c\n",
        "; Extra\n1\n; Extra\n2\n",
        "Template: x\n",
        "; Extra\n; Position\n1\n",
    ];
    let mut warm = TokenBuffer::new();
    for round in 0..60 {
        let extra = optional[[0, 2, 2, 1, 2, 0, 1, 3, 4, 5, 6][round % 11]];
        for pad in [PAD, ""] {
            let file = format!("; Kind\nRock\n{extra}; Position\n1 2 3\n; Scale: 2\n{pad}");
            let cold = TokenBuffer::new()
                .tokenize(file.as_bytes(), Path::new("t"))
                .map(|doc| snapshot(&doc));
            let got = warm
                .tokenize(file.as_bytes(), Path::new("t"))
                .map(|doc| snapshot(&doc));
            assert_eq!(cold, got, "{file:?}");
        }
    }
}

#[test]
fn random_files_tokenize_alike_cold_and_warm() {
    // Random files from every line form (and their broken variants), each
    // tokenized by a fresh buffer (general path), then again by the same buffer
    // (key cache warm: fast path): same nodes, value lines and errors.
    const KEYS: [&str; 12] = [
        "Health",
        "MaxSpeed",
        "Pos",
        "a",
        "Key_2",
        "Mesh",
        "Name",
        "Id",
        "X",
        "Scale",
        "Rotation",
        "A_Long_Key_Beyond_Sixteen",
    ];
    const VALUES: [&str; 5] = ["1", "12.5 3", "\"a b\"", "x:y", "0x00FF"];
    let mut next = crate::test_rng::below();
    let mut shared = TokenBuffer::new();
    for round in 0..4000 {
        let mut file = String::new();
        // Mostly valid files (keys unique per file); one broken line in four files.
        let mut keys = KEYS;
        for i in (1..keys.len()).rev() {
            keys.swap(i, next(i + 1));
        }
        let mut open = false;
        for (i, key) in keys.iter().take(next(10)).enumerate() {
            let value = VALUES[next(VALUES.len())];
            let pad = ["", "", "", " ", "\t"][next(5)];
            let eol = ["\n", "\n", "\r\n", " \n"][next(4)];
            if round % 4 == 0 && i == 2 {
                let broken = [
                    format!("; {key}{eol}; X2{eol}1{eol}"),
                    format!("; {key}:{eol}"),
                    format!("; {key} {key}{eol}"),
                    format!("; 9{key}{eol}1{eol}"),
                    format!("; {}{eol}1{eol}", keys[0]),
                    format!("{key}{eol}"),
                ];
                file.push_str(&broken[next(broken.len())]);
                continue;
            }
            match next(6) {
                0 | 1 => {
                    file.push_str(&format!("{pad}; {key}{eol}{pad}{value}{eol}"));
                    for _ in 0..next(3) {
                        file.push_str(&format!("{value}{eol}"));
                    }
                    open = true;
                }
                2 => {
                    file.push_str(&format!("{pad};{pad}{key}:{pad}{value}{eol}"));
                    open = false;
                }
                3 if !open => file.push_str(&format!("{key}: {value}{eol}")),
                3 => file.push_str(&format!("; {key}: {value}{eol}")),
                4 => file.push_str(&format!("# {value}{eol}// {key}{eol}{eol}")),
                _ => file.push_str(&format!("; {key}{eol}{value}{eol}# c{eol}{value}{eol}")),
            }
        }
        let cold = TokenBuffer::new()
            .tokenize(file.as_bytes(), Path::new("t"))
            .map(|doc| snapshot(&doc));
        let mut buf = TokenBuffer::new();
        for _ in 0..2 {
            let warm = buf
                .tokenize(file.as_bytes(), Path::new("t"))
                .map(|doc| snapshot(&doc));
            assert_eq!(cold, warm, "{file:?}");
        }
        // One buffer across all the files: its key chain predicts each file's
        // headers from the files before (often wrongly).
        let shared = shared
            .tokenize(file.as_bytes(), Path::new("t"))
            .map(|doc| snapshot(&doc));
        assert_eq!(cold, shared, "{file:?}");
    }
}

#[test]
fn empty_and_comment_only_files_have_no_nodes() {
    assert!(tok("").unwrap().is_empty());
    assert!(tok("# x\n\n// y").unwrap().is_empty());
}

/// Merge conflict markers are an error at their line, wherever they stand (in a block,
/// outside one, after blanks, with a label, before CRLF); lines that only start like
/// them are values.
#[test]
fn conflict_markers_are_errors_at_their_line() {
    let cases: &[(&str, u32, u32, &str)] = &[
        ("; Mass\n<<<<<<< ours\n3.0\n", 2, 1, "<<<<<<<"),
        ("; Mass: 3.0\n=======\n", 2, 1, "======="),
        ("; Mass\n3.0\n  >>>>>>> theirs\r\n", 3, 3, ">>>>>>>"),
        ("; Mass\n3.0\n|||||||\tbase\n", 3, 1, "|||||||"),
        ("; Mass\n3.0\n; A\n1\n; B\n2\n=======\n", 7, 1, "======="),
    ];
    let mut buffer = TokenBuffer::new();
    for &(text, line, column, marker) in cases {
        let err = buffer
            .tokenize(text.as_bytes(), Path::new("m.jasset"))
            .unwrap_err();
        assert_eq!(
            (err.location.line, err.location.column),
            (line, column),
            "{text:?}"
        );
        assert_eq!(
            err.kind,
            ErrorKind::ConflictMarker {
                marker: marker.into()
            }
        );
    }
    for text in [
        "; Name\n========\n",
        "; Name\n=======x\n",
        "; Name\n<<<<<<\n",
    ] {
        let doc = buffer.tokenize(text.as_bytes(), Path::new("m")).unwrap();
        assert_eq!(doc.len(), 1, "{text:?}");
    }
}

/// A block of `lines` value lines `v0`, `v1`, ... written in the forms a hand-edited
/// file mixes (leading and trailing blanks, CRLF, comments and blank lines between,
/// `Key: value` text), then another property; and the value lines it holds.
fn long_block(lines: usize, next: &mut impl FnMut(usize) -> usize) -> (String, Vec<String>) {
    let mut file = String::from("; Before: 1\n; Notes\n");
    let mut expected = Vec::new();
    for i in 0..lines {
        let value = if next(5) == 0 {
            format!("K{i}: v")
        } else {
            format!("v{i}")
        };
        let pad = ["", "", " ", "\t"][next(4)];
        let eol = ["\n", "\n", "\r\n", " \t\n"][next(4)];
        file.push_str(&format!("{pad}{value}{eol}"));
        match next(8) {
            0 => file.push_str("# comment\n"),
            1 => file.push_str("  // comment\r\n"),
            2 => file.push_str("\n \t\n"),
            _ => {}
        }
        expected.push(value);
    }
    file.push_str("; After\nlast\n");
    (file, expected)
}

#[test]
fn long_blocks_read_as_their_lines_cold_and_warm() {
    // Around the length at which a block's lines become one region, and far past it:
    // the same value lines and nodes on the general path and the fast one.
    let mut next = crate::test_rng::below();
    let mut warm = TokenBuffer::new();
    for lines in [
        1,
        LONG_BLOCK - 1,
        LONG_BLOCK,
        LONG_BLOCK + 1,
        LONG_BLOCK + 2,
        5000,
    ] {
        let (file, expected) = long_block(lines, &mut next);
        let nodes = tok(&file).unwrap();
        assert_eq!(nodes.len(), 3, "{lines} lines");
        assert_eq!(nodes[1].1, expected, "{lines} lines");
        assert_eq!((nodes[2].0.as_str(), nodes[2].2), ("After", nodes[2].2));
        assert_eq!(nodes[2].1, vec!["last".to_owned()]);
        let cold = TokenBuffer::new()
            .tokenize(file.as_bytes(), Path::new("t"))
            .map(|doc| snapshot(&doc));
        for _ in 0..2 {
            let doc = warm.tokenize(file.as_bytes(), Path::new("t")).unwrap();
            assert_eq!(doc.node(1).value_count(), lines);
            assert_eq!(doc.value(1).line_count(), lines);
            assert!(doc.value_lines(1).eq(expected.iter().map(String::as_str)));
            assert_eq!(Ok(snapshot(&doc)), cold.clone(), "{lines} lines");
        }
    }
}

#[test]
fn a_long_block_costs_no_span_a_line() {
    let mut file = String::from("; Notes\n");
    file.push_str(&"a\n".repeat(200_000));
    file.push_str("; Next: 1\n");
    let mut buf = TokenBuffer::new();
    let doc = buf.tokenize(file.as_bytes(), Path::new("t")).unwrap();
    assert_eq!(doc.node(0).value_count(), 200_000);
    assert_eq!(doc.value(0).lines().filter(|l| *l == "a").count(), 200_000);
    assert!(
        doc.buf.values.len() <= LONG_BLOCK + 2,
        "{}",
        doc.buf.values.len()
    );
}

#[test]
fn errors_in_a_long_block_name_their_line() {
    let mut file = String::from("; Pairs\n");
    file.push_str(&"1 2\n".repeat(3000));
    file.push_str("1 x\n");
    file.push_str(&"3 4\n".repeat(10));
    let mut buf = TokenBuffer::new();
    let mut doc = buf.tokenize(file.as_bytes(), Path::new("t")).unwrap();
    let err = doc.decode::<Vec<[i32; 2]>>(0).unwrap_err();
    assert_eq!((err.location.line, err.location.column), (3002, 3));
    // A conflict marker deep in the block is the tokenizer's error at its line.
    let mut file = String::from("; Notes\n");
    file.push_str(&"a\n".repeat(3000));
    file.push_str("<<<<<<< ours\n");
    let err = tok(&file).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::ConflictMarker { .. }));
    assert_eq!(err.location.line, 3002);
}

/// The texts of the key, the value lines and the whole property of node `i` of `src`,
/// read through their spans.
fn spans(src: &str, i: usize) -> (String, Vec<String>, String) {
    let mut buf = TokenBuffer::new();
    let doc = buf.tokenize(src.as_bytes(), Path::new("t")).unwrap();
    let text = doc.source();
    let lines = doc.value_spans(i).map(|r| text[r].to_owned()).collect();
    (
        text[doc.key_span(i)].to_owned(),
        lines,
        text[doc.property_span(i)].to_owned(),
    )
}

#[test]
fn spans_of_each_line_form() {
    let src = "# c\n ; Path \r\n 1 0 0\r\n# halfway\r\n\r\n2 0 0 \r\n\r\n; Mass: 2\nHp: 3";
    let path = spans(src, 0);
    assert_eq!(
        (path.0.as_str(), path.1),
        ("Path", vec!["1 0 0".into(), "2 0 0".into()])
    );
    assert_eq!(path.2, " ; Path \r\n 1 0 0\r\n# halfway\r\n\r\n2 0 0 \r\n");
    let mass = spans(src, 1);
    assert_eq!((mass.0.as_str(), mass.1), ("Mass", vec!["2".into()]));
    assert_eq!(mass.2, "; Mass: 2\n");
    // The last line, unterminated: the span ends with the text.
    assert_eq!(
        spans(src, 2),
        ("Hp".into(), vec!["3".into()], "Hp: 3".into())
    );
}

#[test]
fn spans_of_a_long_block_are_its_lines() {
    let mut file = String::from("; Notes\n");
    for i in 0..LONG_BLOCK + 5 {
        file.push_str(&format!("  n{i}\t\n# c\n"));
    }
    file.push_str("; Next: 1\n");
    let (key, lines, whole) = spans(&file, 0);
    assert_eq!(key, "Notes");
    assert_eq!(lines.len(), LONG_BLOCK + 5);
    assert_eq!(
        (lines[0].as_str(), lines[LONG_BLOCK + 4].as_str()),
        ("n0", "n1028")
    );
    assert_eq!(whole, file[..file.find("# c\n; Next").unwrap()]);
}

#[test]
fn spans_are_of_the_text_after_a_byte_order_mark() {
    let file = "\u{FEFF}; Mass\n2\n";
    let mut buf = TokenBuffer::new();
    let doc = buf.tokenize(file.as_bytes(), Path::new("t")).unwrap();
    assert_eq!(doc.source_offset(), 3);
    let key = doc.key_span(0);
    let in_file = key.start + 3..key.end + 3;
    assert_eq!(&file[in_file], "Mass");
    let plain = buf.tokenize(b"; Mass\n2\n", Path::new("t")).unwrap();
    assert_eq!(plain.source_offset(), 0);
}
