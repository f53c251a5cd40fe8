//! Mutations of canonical `.jasset` text for `canonical_load_equivalence`: properties
//! moved, dropped, duplicated, respelled, re-formed and broken, and byte-level layouts
//! (CRLF, BOM, NUL, invalid UTF-8, truncation).

use proptest::prelude::*;

/// One property as lines: the header line and its value lines.
#[derive(Debug, Clone)]
pub(super) struct Block {
    lines: Vec<String>,
}

/// Splits canonical text into blocks (each starts with a `;` line).
pub(super) fn blocks(text: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for line in text.lines() {
        if line.starts_with(';') || out.is_empty() {
            out.push(Block {
                lines: vec![line.to_owned()],
            });
        } else {
            out.last_mut().unwrap().lines.push(line.to_owned());
        }
    }
    out
}

/// Text pieces the mutations insert.
pub(super) const JUNK_VALUES: &[&str] = &[
    "abc",
    "1.5.5",
    "\"unterminated",
    "0x",
    "-",
    "[]",
    "\"a\"b",
    "Key: 1",
    "1 2 3 4 5",
    "# not a comment",
    "// nor this",
    "; Header",
    ";",
    "nan",
    "+7",
    "007",
    "1e999",
    "0xFFFFFFFFFFFFFFFFF",
    "TRUE",
    "1,2,,3",
    "\"\\u{110000}\"",
    "\"\\q\"",
    "3\r4",
    "é",
    "\u{A0}",
    "\u{FEFF}x",
    "red",
    "-0",
    "256",
    "99999999999",
];

pub(super) const KEY_SPELLINGS: &[&str] = &[
    "Mid",
    "middle_value",
    "Location",
    "Position",
    "Weight",
    "Speed",
    "Heat",
    "ClassVersion",
    "class_version",
    "CLASSVERSION",
    "Unknown",
    "Colour",
    "Mass",
    "mass",
    "LABEL",
    "_list",
    "Co_de",
    "Flag",
    "tiny",
    "Single",
    "Name",
    "Tags",
    "Pos",
    "pos",
];

/// A mutation: a kind and three random numbers it picks positions and pieces with.
pub(super) type Mutation = (u8, usize, usize, usize);

pub(super) fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    prop_oneof![
        2 => Just(Vec::new()),
        5 => prop::collection::vec((0u8..24, any::<usize>(), any::<usize>(), any::<usize>()), 1..4),
    ]
}

/// How the lines are joined and what wraps the file.
#[derive(Debug, Clone, Copy)]
pub(super) struct Layout {
    crlf: bool,
    bom: bool,
    final_newline: bool,
    /// A byte-level change: 0 none, 1 NUL, 2 invalid UTF-8, 3 lone CR, 4 truncate.
    bytes: (u8, usize),
}

pub(super) fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        3 => Just(Layout { crlf: false, bom: false, final_newline: true, bytes: (0, 0) }),
        2 => (any::<bool>(), any::<bool>(), any::<bool>(), (0u8..5, any::<usize>())).prop_map(
            |(crlf, bom, final_newline, bytes)| Layout { crlf, bom, final_newline, bytes }
        ),
    ]
}

pub(super) fn pick<T: Clone>(items: &[T], n: usize) -> T {
    items[n % items.len()].clone()
}

/// A key spelled another way: lower case, upper case, or with underscores.
pub(super) fn respell(key: &str, how: usize) -> String {
    match how % 4 {
        0 => key.to_ascii_lowercase(),
        1 => key.to_ascii_uppercase(),
        2 => {
            let mut s = String::from("_");
            s.push_str(key);
            s
        }
        _ => {
            let mut s = String::new();
            for (i, c) in key.chars().enumerate() {
                if i > 0 && c.is_ascii_uppercase() {
                    s.push('_');
                }
                s.push(c);
            }
            s
        }
    }
}

pub(super) fn apply(blocks: &mut Vec<Block>, (kind, a, b, c): Mutation) {
    let n = blocks.len();
    let junk = pick(JUNK_VALUES, c).to_owned();
    let some_key = pick(KEY_SPELLINGS, c).to_owned();
    let ws = pick(&[" ", "\t", "  ", " \t", "\r", " \r"], b).to_owned();
    if n == 0 {
        blocks.push(Block {
            lines: vec![format!("; {some_key}"), junk],
        });
        return;
    }
    let i = a % n;
    let lines = blocks[i].lines.len();
    let j = b % lines;
    match kind {
        // Comments and blank lines anywhere in a block.
        0 => blocks[i].lines.insert(
            1 + b % lines.max(1),
            pick(&["# c", "// c", "#", "", "  ", "\t", " # indented"], c).to_owned(),
        ),
        // Leading white space on a line.
        1 => blocks[i].lines[j].insert_str(0, &ws.replace('\r', " ")),
        // Trailing white space (or CR) on a line.
        2 => blocks[i].lines[j].push_str(&ws),
        // Swap two blocks.
        3 => blocks.swap(i, b % n),
        // Drop a block.
        4 => {
            blocks.remove(i);
        }
        // Duplicate a block, maybe under another spelling.
        5 => {
            let mut copy = blocks[i].clone();
            if c % 2 == 0 {
                let key = copy.lines[0].trim_start_matches(';').trim().to_owned();
                copy.lines[0] = format!("; {}", respell(&key, c / 2));
            }
            blocks.insert(b % (n + 1), copy);
        }
        // Another spelling of the key.
        6 => {
            let key = blocks[i].lines[0].trim_start_matches(';').trim().to_owned();
            if key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                blocks[i].lines[0] = format!("; {}", respell(&key, c));
            }
        }
        // Rename the key to one of the list (aliases, deprecated, unknown, other spelling).
        7 => blocks[i].lines[0] = format!("; {some_key}"),
        // Inline header `; Key: v` or compact `Key: v` (first value line only).
        8 => {
            let key = blocks[i].lines[0].trim_start_matches(';').trim().to_owned();
            let value = blocks[i].lines.get(1).cloned().unwrap_or_default();
            let spacing = pick(&[": ", ":", " : ", ":\t"], b);
            let line = if c % 2 == 0 {
                format!("; {key}{spacing}{value}")
            } else {
                format!("{key}{spacing}{value}")
            };
            let rest = blocks[i].lines.split_off(2.min(lines));
            blocks[i].lines = vec![line];
            if c % 3 == 0 {
                blocks[i].lines.extend(rest);
            }
        }
        // A new block: unknown, deprecated, alias or duplicate key, value good or bad.
        9 => {
            let value = if b % 2 == 0 { "2".to_owned() } else { junk };
            blocks.insert(
                a % (n + 1),
                Block {
                    lines: vec![format!("; {some_key}"), value],
                },
            );
        }
        // ClassVersion: set, remove, move.
        10 => {
            let at = blocks
                .iter()
                .position(|b| b.lines[0] == "; ClassVersion")
                .unwrap_or(0);
            match c % 4 {
                0 => {
                    let v = pick(
                        &["0", "1", "2", "3", "4", "9", "03", "+3", "x", "3.0", ""],
                        b,
                    );
                    blocks[at].lines = vec!["; ClassVersion".to_owned(), v.to_owned()];
                }
                1 => {
                    blocks.remove(at);
                }
                _ => {
                    let moved = blocks.remove(at);
                    let to = b % (blocks.len() + 1);
                    blocks.insert(to, moved);
                }
            }
        }
        // An extra value line.
        11 => {
            let extra = if c % 2 == 0 {
                blocks[i].lines.last().cloned().unwrap_or_default()
            } else {
                junk
            };
            blocks[i].lines.insert(1 + b % lines, extra);
        }
        // An empty value: the header alone, or an empty line as the value.
        12 => {
            blocks[i].lines.truncate(1);
            if c % 2 == 0 {
                blocks[i].lines.push(String::new());
            }
        }
        // A value replaced by junk.
        13 | 14 => {
            if lines > 1 {
                blocks[i].lines[1 + b % (lines - 1)] = junk;
            } else {
                blocks[i].lines.push(junk);
            }
        }
        // A value starting with `#`, `//` or `;`.
        15 => {
            if lines > 1 {
                let k = 1 + b % (lines - 1);
                let p = pick(&["#", "//", ";", "; ", "/"], c);
                blocks[i].lines[k].insert_str(0, p);
            }
        }
        // A long line.
        16 => {
            let long = "W".repeat(40 + c % 150);
            if lines > 1 {
                let k = 1 + b % (lines - 1);
                blocks[i].lines[k] = if c % 2 == 0 {
                    format!("\"{long}\"")
                } else {
                    long
                };
            }
        }
        // Header spellings the tokenizer also reads.
        17 => {
            let key = blocks[i].lines[0].trim_start_matches(';').trim().to_owned();
            blocks[i].lines[0] = pick(
                &[
                    format!(";{key}"),
                    format!(";\t{key}"),
                    format!(";  {key}"),
                    format!("; {key} "),
                    format!(" ; {key}"),
                    format!("; {key}\r"),
                    format!("; {key}:"),
                    format!("; {key} # note"),
                ],
                c,
            );
        }
        // A lone CR or other characters inside a value.
        18 => {
            if lines > 1 {
                let k = 1 + b % (lines - 1);
                let line = &mut blocks[i].lines[k];
                let at = line
                    .char_indices()
                    .map(|(i, _)| i)
                    .nth(c % (line.chars().count() + 1))
                    .unwrap_or(line.len());
                let p = pick(
                    &["\r", "\u{A0}", "\u{FEFF}", " ", "\t", "é", "\u{B}", "\u{C}"],
                    a,
                );
                line.insert_str(at, p);
            }
        }
        // A key's line split off: a value line with no header before it.
        19 => {
            if lines > 1 {
                blocks[i].lines.remove(0);
                if i > 0 {
                    let moved = blocks.remove(i);
                    blocks[i - 1].lines.extend(moved.lines);
                }
            }
        }
        // Comment at the very start of the file.
        20 => blocks[0]
            .lines
            .insert(0, pick(&["# head", "", "// x"], c).to_owned()),
        // Spaces inside a vector value (accepted by the codec).
        21 => {
            if lines > 1 {
                let k = 1 + b % (lines - 1);
                blocks[i].lines[k] =
                    blocks[i].lines[k].replace(' ', pick(&["  ", "\t", ", ", ","], c));
            }
        }
        // Reverse the whole file's order.
        22 => blocks.reverse(),
        // A value line that is a header of the next key (a second header in a row).
        _ => {
            blocks[i].lines.truncate(1);
        }
    }
}

pub(super) fn render(blocks: &[Block], layout: Layout) -> Vec<u8> {
    let newline = if layout.crlf { "\r\n" } else { "\n" };
    let mut text = String::new();
    if layout.bom {
        text.push('\u{FEFF}');
    }
    let lines: Vec<&String> = blocks.iter().flat_map(|b| &b.lines).collect();
    for (i, line) in lines.iter().enumerate() {
        text.push_str(line);
        if i + 1 < lines.len() || layout.final_newline {
            text.push_str(newline);
        }
    }
    let mut bytes = text.into_bytes();
    let (kind, at) = layout.bytes;
    let at = if bytes.is_empty() {
        0
    } else {
        at % bytes.len()
    };
    match kind {
        1 => bytes.insert(at, 0),
        2 => bytes.insert(at, 0xFF),
        3 => bytes.insert(at, b'\r'),
        4 => bytes.truncate(at),
        _ => {}
    }
    bytes
}

pub(super) fn mutated(text: &str, muts: &[Mutation], layout: Layout) -> Vec<u8> {
    let mut b = blocks(text);
    for &m in muts {
        apply(&mut b, m);
    }
    render(&b, layout)
}
