//! A file's in-place edit without its kept unknown keys (docs/reliability.md, section
//! 6): a file may hold a million keys no class reads, which an edit never changes.
//!
//! The canonical text of an entity ends with its file's unknown keys, as loaded
//! (`UnknownProperties`), and a save or a migration leaves them as they are: the edit
//! changes, inserts and deletes only the class's properties, the base keys and the
//! deprecated keys a migration consumed. So the edit is worked out on the file with
//! the inner properties of each run of consecutive kept unknown keys cut out (the first
//! and the last of a run stay: they are the neighbours the edit looks at), and its
//! positions are mapped back into the whole file. The read-back check is made the same
//! way on the edited file, after checking that its unknown keys are the entity's, in
//! order, with the same value lines.
//!
//! The value lines of a kept unknown block of three or more, first and last of its run,
//! are cut the same way (from the line of its second value line to the line of its
//! last: the block keeps two value lines), so that a file of one unknown block of
//! millions of lines is edited as a file of a few lines.
//!
//! A cut from the start of the run's second property to the start of its last one
//! changes nothing the tokenizer makes of the rest (docs/jasset-format.md, section 3):
//! the last property starts with a header line, which opens a property whatever came
//! before, or it is a `Key: value` line, which is a property only where no block is
//! open, so the first property of the run must not be a block then. A run that cannot
//! be cut stays whole.

use std::ops::Range;
use std::path::Path;

use juliet_core::{
    apply_edits, LineForm, TextEdit, TokenBuffer, UnknownProperties, UnknownProperty,
};

use super::KeyMap;
use crate::pieces::pieces;

/// A file with the inner properties of its runs of kept unknown keys cut out.
pub(crate) struct Reduced {
    /// The file with the cuts made.
    pub(crate) bytes: Vec<u8>,
    /// Each cut, as a byte range of the whole file, in file order.
    cuts: Vec<(usize, usize)>,
    /// The unknown keys the cut file still holds, as the canonical writer writes them:
    /// what the canonical text of the cut file ends with.
    pub(crate) tail: String,
}

impl Reduced {
    /// Whether nothing was cut (the cut file is the whole file).
    pub(crate) fn is_whole(&self) -> bool {
        self.cuts.is_empty()
    }

    /// The position in the whole file of position `at` of the cut file. A position at
    /// a cut is the one before it: the edit changes nothing inside a run of kept
    /// unknown keys, so none falls there.
    pub(crate) fn to_whole(&self, at: usize) -> usize {
        let mut shift = 0;
        for &(start, end) in &self.cuts {
            if at + shift <= start {
                break;
            }
            shift += end - start;
        }
        at + shift
    }
}

/// A run of consecutive properties that are kept unknown keys.
struct Run {
    /// Whether its first property is a block.
    first_block: bool,
    /// Its index in the unknown keys.
    first: usize,
    /// How many properties it has.
    len: usize,
    /// Where the second property's header line starts.
    second_start: usize,
    /// Where the last property's header line starts.
    last_start: usize,
    /// Whether the last property is a `Key: value` line.
    last_compact: bool,
    /// The last property, as the canonical writer writes it (its value lines cut).
    last_text: String,
    /// The cut of the first property's inner value lines, if any.
    first_inner: Option<(usize, usize)>,
    /// The cut of the last property's inner value lines, if any.
    last_inner: Option<(usize, usize)>,
}

/// `file` (an entity file, `path` labelling it) with the inner properties of its runs
/// of the entity's kept `unknown` keys cut out (see the module documentation). `None`
/// when `file` does not tokenize, or its unknown keys (the keys `map` does not know)
/// do not hold `unknown` in order with the same value lines: a file whose unknown keys
/// are not the entity's does not read back as it.
///
/// The file is tokenized piece by piece ([`pieces`]): the tokenizer's arrays take what
/// a piece needs, not 40 bytes a property of the whole file.
pub(crate) fn reduce(
    file: &[u8],
    path: &Path,
    map: &dyn KeyMap,
    unknown: &UnknownProperties,
) -> Option<Reduced> {
    let mut buffer = TokenBuffer::new();
    let mut expected = unknown.iter().enumerate().peekable();
    let mut reduced = Reduced {
        bytes: Vec::new(),
        cuts: Vec::new(),
        tail: String::new(),
    };
    let mut run: Option<Run> = None;
    // Where the piece's text starts in the file (past a byte-order mark).
    let mut piece_start = 0;
    for piece in pieces(file) {
        let doc = buffer.tokenize(piece, path).ok()?;
        let offset = piece_start + doc.source_offset();
        piece_start += piece.len();
        let in_file = |r: Range<usize>| r.start + offset..r.end + offset;
        for i in 0..doc.len() {
            let key = doc.key(i);
            let node = doc.node(i);
            let kept = map.canonical(node.key_crc, key).is_none()
                && expected.peek().is_some_and(|(_, p)| p.key() == key);
            if !kept {
                close(run.take(), unknown, &mut reduced);
                continue;
            }
            let (index, property) = expected.next()?;
            if !property.lines().eq(doc.value(i).lines()) {
                return None;
            }
            let start = in_file(doc.property_span(i)).start;
            let compact = node.form == LineForm::Compact;
            let inner = (node.form == LineForm::Block)
                .then(|| inner_cut(file, doc.value_spans(i).map(in_file)))
                .flatten();
            match run.as_mut() {
                None => {
                    write_cut(property, inner.is_some(), &mut reduced.tail);
                    run = Some(Run {
                        first_block: node.form == LineForm::Block,
                        first: index,
                        len: 1,
                        second_start: start,
                        last_start: start,
                        last_compact: compact,
                        last_text: String::new(),
                        first_inner: inner,
                        last_inner: None,
                    });
                }
                Some(run) => {
                    if run.len == 1 {
                        run.second_start = start;
                    }
                    run.len += 1;
                    run.last_start = start;
                    run.last_compact = compact;
                    run.last_text.clear();
                    write_cut(property, inner.is_some(), &mut run.last_text);
                    run.last_inner = inner;
                }
            }
        }
    }
    close(run, unknown, &mut reduced);
    if expected.next().is_some() {
        return None;
    }
    let cuts = reduced
        .cuts
        .iter()
        .map(|&(start, end)| TextEdit::remove(start..end));
    reduced.bytes = apply_edits(file, cuts.collect()).ok()?;
    Some(reduced)
}

/// Ends `run`: cuts its inner properties where the cut changes nothing (see the module
/// documentation) and notes the properties that stay in `reduced`'s tail.
fn close(run: Option<Run>, unknown: &UnknownProperties, reduced: &mut Reduced) {
    let Some(run) = run else { return };
    reduced.cuts.extend(run.first_inner);
    if run.len == 1 {
        return;
    }
    if run.len > 2 && (!run.first_block || !run.last_compact) {
        reduced.cuts.push((run.second_start, run.last_start));
    } else {
        // Kept whole: a block first and a `Key: value` line last (which the block
        // would take as a value line without the properties between), or only two.
        for property in unknown.iter().skip(run.first + 1).take(run.len - 2) {
            property.write(&mut reduced.tail);
        }
    }
    reduced.cuts.extend(run.last_inner);
    reduced.tail.push_str(&run.last_text);
}

/// The cut of a block's inner value lines, `lines` (byte ranges of `file`): from the
/// start of the line of its second value line to the start of the line of its last;
/// `None` for fewer than three.
fn inner_cut(file: &[u8], mut lines: impl Iterator<Item = Range<usize>>) -> Option<(usize, usize)> {
    let line_start = |line: Range<usize>| {
        (file[..line.start].iter().rposition(|&b| b == b'\n')).map_or(0, |i| i + 1)
    };
    lines.next()?;
    let second = line_start(lines.next()?);
    let last = line_start(lines.last()?);
    Some((second, last))
}

/// Appends `property` as the canonical writer writes it, with only its first and last
/// value lines when `cut` (see [`inner_cut`]).
fn write_cut(property: UnknownProperty<'_>, cut: bool, out: &mut String) {
    if !cut {
        return property.write(out);
    }
    let mut lines = property.lines();
    let first = lines.next();
    let last = lines.last();
    let mut one = UnknownProperties::new();
    one.push(property.key(), first.into_iter().chain(last));
    one.write(out);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A class that knows `Mass` and `Health`.
    struct Known;

    impl KeyMap for Known {
        fn canonical(&self, _crc: u32, key: &str) -> Option<&'static str> {
            ["Mass", "Health"].into_iter().find(|k| *k == key)
        }

        fn absent_means(&self, _key: &str, _lines: &[&str]) -> bool {
            false
        }
    }

    fn unknown(props: &[(&str, &[&str])]) -> UnknownProperties {
        let mut out = UnknownProperties::new();
        for (key, lines) in props {
            out.push(key, lines.iter().copied());
        }
        out
    }

    fn reduced(file: &str, props: &[(&str, &[&str])]) -> Option<Reduced> {
        reduce(file.as_bytes(), Path::new("r"), &Known, &unknown(props))
    }

    #[test]
    fn the_inner_properties_of_a_run_are_cut_and_positions_map_back() {
        let file = "Mass: 1\nu0: 1\nu1: 2\n# c\nu2: 3\nu3: 4\nHealth: 2\n";
        let props: &[(&str, &[&str])] = &[
            ("u0", &["1"]),
            ("u1", &["2"]),
            ("u2", &["3"]),
            ("u3", &["4"]),
        ];
        let r = reduced(file, props).unwrap();
        let text = std::str::from_utf8(&r.bytes).unwrap();
        assert_eq!(text, "Mass: 1\nu0: 1\nu3: 4\nHealth: 2\n");
        assert_eq!(r.tail, "; u0\n1\n; u3\n4\n");
        assert!(!r.is_whole());
        let health = text.find("Health").unwrap();
        assert_eq!(r.to_whole(health), file.find("Health").unwrap());
        assert_eq!(
            r.to_whole(text.find("u0").unwrap()),
            file.find("u0").unwrap()
        );
        assert_eq!(r.to_whole(text.len()), file.len());
    }

    #[test]
    fn a_run_from_a_block_to_a_compact_line_stays_whole() {
        // Cut, `u2: 3` would follow the block `; u0` and be read as its value line.
        let file = "; Mass\n1\n; u0\n1\n; u1: 2\nu2: 3\nHealth: 2\n";
        let props: &[(&str, &[&str])] = &[("u0", &["1"]), ("u1", &["2"]), ("u2", &["3"])];
        let r = reduced(file, props).unwrap();
        assert!(r.is_whole());
        assert_eq!(r.bytes, file.as_bytes());
        assert_eq!(r.tail, "; u0\n1\n; u1\n2\n; u2\n3\n");
        // Ending at a header, the same run is cut.
        let file = "; Mass\n1\n; u0\n1\n; u1: 2\n; u2\n3\n; Health: 2\n";
        let r = reduced(file, props).unwrap();
        assert_eq!(r.bytes, b"; Mass\n1\n; u0\n1\n; u2\n3\n; Health: 2\n");
    }

    #[test]
    fn the_inner_value_lines_of_an_unknown_block_are_cut() {
        // Alone: two value lines stay; comments between value lines go with the cut.
        let file = "Mass: 1\n; u0\na\nb\n# c\nc\nd\n; Health: 2\n";
        let props: &[(&str, &[&str])] = &[("u0", &["a", "b", "c", "d"])];
        let r = reduced(file, props).unwrap();
        assert_eq!(r.bytes, b"Mass: 1\n; u0\na\nd\n; Health: 2\n");
        assert_eq!(r.tail, "; u0\na\nd\n");
        let text = std::str::from_utf8(&r.bytes).unwrap();
        let health = text.find("Health").unwrap();
        assert_eq!(r.to_whole(health), file.find("Health").unwrap());
        // First and last of a run, around the run's own cut; two lines are not cut.
        let file = "; u0\na\nb\nc\n; u1\nx\ny\n; u2: 3\n; u3\nd\ne\nf\ng\n";
        let props: &[(&str, &[&str])] = &[
            ("u0", &["a", "b", "c"]),
            ("u1", &["x", "y"]),
            ("u2", &["3"]),
            ("u3", &["d", "e", "f", "g"]),
        ];
        let r = reduced(file, props).unwrap();
        assert_eq!(r.bytes, b"; u0\na\nc\n; u3\nd\ng\n");
        assert_eq!(r.tail, "; u0\na\nc\n; u3\nd\ng\n");
        assert_eq!(r.to_whole(r.bytes.len()), file.len());
    }

    #[test]
    fn unknown_keys_other_than_the_entitys_give_none() {
        let file = "Mass: 1\nu0: 1\nu1: 2\nu2: 3\n";
        let all: &[(&str, &[&str])] = &[("u0", &["1"]), ("u1", &["2"]), ("u2", &["3"])];
        assert!(reduced(file, all).is_some());
        // A key the entity does not have stays in the cut file (a migration deletes it).
        let fewer: &[(&str, &[&str])] = &[("u0", &["1"]), ("u2", &["3"])];
        let r = reduced(file, fewer).unwrap();
        assert_eq!(r.bytes, file.as_bytes());
        // One the file lacks, or another value: not the entity's keys.
        let more: &[(&str, &[&str])] = &[
            ("u0", &["1"]),
            ("u1", &["2"]),
            ("u2", &["3"]),
            ("u3", &["4"]),
        ];
        assert!(reduced(file, more).is_none());
        let other: &[(&str, &[&str])] = &[("u0", &["1"]), ("u1", &["9"]), ("u2", &["3"])];
        assert!(reduced(file, other).is_none());
    }
}
