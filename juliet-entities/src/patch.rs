//! The patcher: saves that keep the designer's file. An entity's new text is written as
//! edits of the file it was loaded from (docs/design.md, section 6.2). [`crate::World::save_world`]
//! edits its entities' files so; [`edit_entity_file`] does it for one entity's file
//! loaded by any program (a template, a loose file), and the text edits it is made of
//! ([`line_for_line`], [`lines_between`], [`block`], [`ends_line_at`],
//! [`line_ending`]) serve programs that edit `.jasset` text themselves (a merge of
//! three versions of a file). An edit is a [`TextEdit`]: a byte range of the source
//! replaced by a text; [`juliet_core::apply_edits`] makes a list of them.
//!
//! Three texts meet here: the file as it is on disk (`original`), the canonical text of
//! the entity as it was loaded (`old`, what the canonical writer makes of the file) and
//! the canonical text of the entity now (`new`). The edit is planned in phases on one
//! plan of the three (`plan.rs`): each property of `new` kept, changed or inserted, the
//! version lines set, the properties that go deleted, the `; ` prefixes made once, the
//! aliases renamed. It follows these rules, each one function (`rules.rs`, named
//! here):
//!
//! 1. A property whose canonical value is the same in `old` and `new` keeps its lines,
//!    whatever their spelling, form or layout (`keeps`).
//! 2. One whose value changed gets its value lines replaced line for line: the key's
//!    spelling, the line form and the comments between its value lines kept
//!    (`replace_value`, `value_line_edits`, [`line_for_line`]); a value of several
//!    lines where the property stood on one line makes it a block under its own
//!    spelling.
//! 3. A property new in `new` is inserted after its nearest preceding neighbour, or in
//!    the place of a property that goes right after that neighbour, after the comments
//!    inside that one (`insertion_point`).
//! 4. An inserted property of one value line takes the line form of the one it replaces
//!    or of its neighbours; one of several lines is a block (`one_line_form`, `insert`).
//! 5. One gone from `new` (a revert) loses its header and value lines, not the comments
//!    inside it (`delete`, `is_gone`, [`lines_between`]).
//! 6. Token lists (vectors, arrays) keep the file's separators, `1, 2, 3` (`styled`).
//! 7. Added lines end as most lines of the file do, LF or CRLF ([`line_ending`]); text
//!    added after a last line without a line ending gets one first (`line_start`,
//!    [`ends_line_at`]).
//! 8. One line outside the changed properties may change: a `Key: value` line that a
//!    block would come to stand right before (an inserted or rewritten block, or a
//!    block whose following property goes) becomes `; Key: value`, the same property
//!    in the one-line form no block can swallow (`guard_next`, `next_kept`); it gets
//!    that prefix once, and none when its lines are replaced (`prefix_once`).
//! 9. A property written under an alias of its key gets its current key, the key alone
//!    changing (`rename_aliases`); a `Kind` that names the class by an alias gets the
//!    class's name (`names_kind_by_alias`).
//! 10. A file at an older `ClassVersion` or `BaseVersion` whose entity is written is
//!     brought to the current versions in the same edit: the version lines change, the
//!     deprecated keys the migration consumed go, and the properties the migration set
//!     are inserted (`is_migrating`, `version_now`, `is_gone`).
//!
//! Comments, blank lines, unknown keys and the order of the properties are kept: no
//! rule edits them.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

use juliet_core::{apply_edits, Error, TextEdit, TokenBuffer};

pub(crate) mod in_place;
mod plan;
mod reduce;
mod rules;
pub(crate) mod separators;

pub use in_place::{edit_entity_file, EntityFile, How};

pub(crate) use plan::edits;
pub(crate) use reduce::{reduce, Reduced};

/// How the keys of an entity file map to the canonical keys of the writer.
pub(crate) trait KeyMap {
    /// The canonical key (`Position`, `Mass`, `ClassVersion`...) that `key` (as written,
    /// whose CRC is `crc`) spells, or `None` for a key the class does not know.
    fn canonical(&self, crc: u32, key: &str) -> Option<&'static str>;

    /// Whether a property whose key is absent from the file reads as `lines` (canonical
    /// value lines): then a property that is absent and has that value needs no line.
    fn absent_means(&self, key: &str, lines: &[&str]) -> bool;

    /// The current value of version key `key` (`BaseVersion`, `ClassVersion`), when
    /// known: a file's version line that differs from it is outdated even where the new
    /// text has no version line (an instance that overrides nothing writes none).
    fn current_version(&self, _key: &str) -> Option<u32> {
        None
    }

    /// Whether the value lines of property `key` (canonical) are lists of tokens
    /// (vectors, arrays: [`separators::holds_token_lists`]), written in the file's
    /// separator style.
    fn holds_token_lists(&self, _key: &str) -> bool {
        false
    }

    /// Whether `key` (as written, whose CRC is `crc`) is an alias of a property of the
    /// class (`#[jasset(alias = "Old")]`): an edited file names the property by its
    /// current key instead.
    fn is_alias(&self, _crc: u32, _key: &str) -> bool {
        false
    }
}

/// The edited file: `original` with the changes from `old` to `new` made in place (see
/// the module documentation). `old` and `new` are canonical entity texts (what
/// `World::entity_text` writes); `path` labels errors. Edits that overlap, which the
/// rules do not make, leave `new` itself to be written, as a save writes an entity
/// whose edit does not read back.
///
/// # Errors
/// A tokenizer error in `original`, `old` or `new` (a file that loaded tokenizes again).
pub(crate) fn edit(
    original: &[u8],
    path: &Path,
    old: &str,
    new: &str,
    map: &dyn KeyMap,
) -> Result<Vec<u8>, Error> {
    let eol = line_ending(original);
    let edits = edits(original, path, old, new, map, eol)?;
    Ok(apply_edits(original, edits).unwrap_or_else(|_| new.as_bytes().to_vec()))
}

/// The edits of `src` that replace the value lines at `old` (byte ranges, line endings
/// excluded, in file order: [`juliet_core::Document::value_spans`]) by `lines`, line
/// for line: the old lines take the new ones in order, new lines beyond them go after
/// the last (each after an `eol`), and old lines beyond the new ones go with their line
/// endings. The comment and blank lines between value lines stay where they are. What a
/// save does to a changed value.
///
/// ```
/// use juliet_core::apply_edits;
/// use juliet_entities::patch::line_for_line;
///
/// let src = "; Path\n1 0 0\n# halfway\n2 0 0\n";
/// let (first, second) = (src.find("1 0 0").unwrap(), src.find("2 0 0").unwrap());
/// let mut edits = Vec::new();
/// let old = [first..first + 5, second..second + 5];
/// line_for_line(&mut edits, src, &old, &["1 1 0", "2 2 0", "3 3 0"], "\n");
/// let edited = apply_edits(src.as_bytes(), edits).unwrap();
/// assert_eq!(edited, b"; Path\n1 1 0\n# halfway\n2 2 0\n3 3 0\n");
/// ```
pub fn line_for_line(
    edits: &mut Vec<TextEdit>,
    src: &str,
    old: &[Range<usize>],
    lines: &[&str],
    eol: &str,
) {
    for (range, line) in old.iter().zip(lines) {
        edits.push(TextEdit::new(range.clone(), *line));
    }
    if let (Some(last), Some(more)) = (old.last(), lines.get(old.len()..)) {
        let text: String = more.iter().map(|l| format!("{eol}{l}")).collect();
        if !text.is_empty() {
            edits.push(TextEdit::insert(last.end, text));
        }
    }
    for range in old.iter().skip(lines.len()) {
        let from = src[..range.start].rfind('\n').map_or(0, |i| i + 1);
        let to = (src[range.end..].find('\n')).map_or(src.len(), |i| range.end + i + 1);
        edits.push(TextEdit::remove(from..to));
    }
}

/// Whether edit `e` (of `src`) ends at byte `at` with a line ending before it: its text
/// ends with one, or it removes text that follows one (the last value line of a value
/// that shrinks, at an unterminated end). A property inserted at `at`, after a last
/// line without a line ending, then needs none first.
///
/// ```
/// use juliet_core::TextEdit;
/// use juliet_entities::patch::ends_line_at;
///
/// let src = b"; A\n1";
/// assert!(ends_line_at(src, &TextEdit::new(4..5, "2\n"), 5));
/// assert!(!ends_line_at(src, &TextEdit::new(4..5, "2"), 5));
/// ```
pub fn ends_line_at(src: &[u8], e: &TextEdit, at: usize) -> bool {
    let start = e.range.start;
    e.range.end == at
        && (e.text.ends_with('\n') || e.text.is_empty() && start > 0 && src[start - 1] == b'\n')
}

/// The comment and blank lines inside a block of `src`: the whole lines after its
/// header line (the line holding byte `header`) up to `end` (its last value line's end)
/// on which none of its value lines, starting at `values` (in file order), starts.
/// They stay when the block goes (a save's revert, a removal a merge takes).
///
/// ```
/// use juliet_entities::patch::lines_between;
///
/// let src = "; Path\n1 0 0\n# halfway\n2 0 0\n; Mass\n1\n";
/// let end = src.find("; Mass").unwrap();
/// let values = [src.find("1 0 0").unwrap(), src.find("2 0 0").unwrap()];
/// assert_eq!(lines_between(src, 0, end, &values), "# halfway\n");
/// ```
pub fn lines_between(src: &str, header: usize, end: usize, values: &[usize]) -> String {
    debug_assert!(values.is_sorted(), "value lines in file order");
    let line_end = |at: usize| src[at..].find('\n').map_or(src.len(), |i| at + i + 1);
    let mut kept = String::new();
    let mut at = line_end(header);
    // The value lines before `at`, passed once: one walk of both lists.
    let mut passed = 0;
    while at < end {
        let next = line_end(at);
        while values.get(passed).is_some_and(|&v| v < at) {
            passed += 1;
        }
        if values.get(passed).is_none_or(|&v| v >= next) {
            kept.push_str(&src[at..next]);
        }
        at = next;
    }
    kept
}

/// `original` (an entity file) with the values of its version lines (`BaseVersion`,
/// `ClassVersion`) replaced by those of the canonical text `new`, and nothing else: the
/// file read as if it were at the current versions, without its migration. Loaded, it
/// tells which properties a migration changed (the others keep their lines). `None`
/// when the file's version lines are `new`'s already.
///
/// # Errors
/// A tokenizer error in `original` or `new`.
pub(crate) fn with_versions_of(
    original: &[u8],
    path: &Path,
    new: &str,
    map: &dyn KeyMap,
) -> Result<Option<Vec<u8>>, Error> {
    let mut new_buffer = TokenBuffer::new();
    let new = plan::Canonical::read(&mut new_buffer, new)?;
    let mut buffer = TokenBuffer::new();
    let doc = buffer.tokenize(original, path)?;
    // Spans are of the document's source, which starts after a byte-order mark.
    let offset = doc.source_offset();
    let mut edits = Vec::new();
    for i in 0..doc.len() {
        let Some(version) = map
            .canonical(doc.node(i).key_crc, doc.key(i))
            .filter(|k| rules::VERSIONS.contains(k))
        else {
            continue;
        };
        let Some(p) = new.at(version) else {
            continue;
        };
        let written: Vec<&str> = doc.value_lines(i).collect();
        let [line] = new.lines(p)[..] else {
            continue;
        };
        let mut spans = doc.value_spans(i);
        let (Some(first), last) = (spans.next(), spans.last()) else {
            continue;
        };
        if written != [line] {
            let end = last.map_or(first.end, |l| l.end);
            edits.push(TextEdit::new(first.start + offset..end + offset, line));
        }
    }
    // One edit a version line: they do not overlap.
    Ok((!edits.is_empty())
        .then(|| apply_edits(original, edits).ok())
        .flatten())
}

/// The line ending of lines added to the file `text`: `\r\n` when more than half of
/// its line endings are `\r\n`, else `\n` (a last line without one has no say); so
/// one stray CRLF line does not make every added line CRLF, and a CRLF file whose last
/// line is unterminated stays CRLF.
///
/// ```
/// use juliet_entities::patch::line_ending;
///
/// assert_eq!(line_ending(b"; Mass\r\n2\r\n"), "\r\n");
/// assert_eq!(line_ending(b"; Mass\r\n2\n; Health\n10"), "\n");
/// assert_eq!(line_ending(b""), "\n");
/// ```
pub fn line_ending(text: &[u8]) -> &'static str {
    let (mut lines, mut crlf) = (0, 0);
    for (i, _) in text.iter().enumerate().filter(|(_, &b)| b == b'\n') {
        lines += 1;
        crlf += usize::from(i > 0 && text[i - 1] == b'\r');
    }
    if 2 * crlf > lines {
        "\r\n"
    } else {
        "\n"
    }
}

/// A property as a block: `; key` and the value lines, each ended by `eol`.
///
/// ```
/// use juliet_entities::patch::block;
///
/// assert_eq!(block("Tags", &["red", "blue"], "\n"), "; Tags\nred\nblue\n");
/// ```
pub fn block<S: AsRef<str>>(key: &str, lines: &[S], eol: &str) -> String {
    let mut text = format!("; {key}{eol}");
    for line in lines {
        text.push_str(line.as_ref());
        text.push_str(eol);
    }
    text
}

/// The canonical value lines of a default value of a class, by key (what an absent key
/// reads as in a standalone entity), for [`KeyMap::absent_means`].
pub(crate) type Defaults = HashMap<&'static str, Vec<String>>;

#[cfg(test)]
mod tests;
