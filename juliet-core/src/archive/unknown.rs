//! The properties of a file that no class reads, kept to be written back
//! (docs/design.md, section 2.6: an older build never destroys data written by a newer
//! one).
//!
//! A file may hold a million of them, so they are kept as one string per file, each
//! property its key, its value lines after a `\n` each, and a NUL (which no `.jasset`
//! text holds: the tokenizer refuses it), about the bytes the file spent on them and no
//! allocation or pointer per property.

use crate::token::Document;

/// Ends a property in [`UnknownProperties`]' text.
const END: char = '\0';
/// Comes before each value line.
const LINE: char = '\n';

/// The unknown properties of one file, in file order: one string, each property its
/// key, its value lines after a `\n` each, and a NUL (which no `.jasset` text holds),
/// so a file of a million of them costs about the bytes it spent on them.
///
/// ```
/// use juliet_core::UnknownProperties;
///
/// let mut unknown = UnknownProperties::new();
/// unknown.push("Colour", ["red"]);
/// unknown.push("Notes", ["first", "second"]);
/// assert_eq!(unknown.len(), 2);
/// let keys: Vec<&str> = unknown.iter().map(|p| p.key()).collect();
/// assert_eq!(keys, ["Colour", "Notes"]);
/// let mut out = String::new();
/// unknown.write(&mut out);
/// assert_eq!(out, "; Colour\nred\n; Notes\nfirst\nsecond\n");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnknownProperties {
    /// Each property: key, `LINE` and a value line for each line, `END`.
    text: String,
    /// Number of properties.
    len: usize,
}

impl UnknownProperties {
    /// No property.
    pub const fn new() -> UnknownProperties {
        UnknownProperties {
            text: String::new(),
            len: 0,
        }
    }

    /// The nodes `indices` of `doc`, in that order (one allocation, of the exact size).
    pub fn from_document(
        doc: &Document<'_>,
        indices: impl Iterator<Item = usize> + Clone,
    ) -> UnknownProperties {
        let size: usize = indices
            .clone()
            .map(|i| {
                doc.key(i).len() + doc.value(i).lines().map(|l| l.len() + 1).sum::<usize>() + 1
            })
            .sum();
        let mut unknown = UnknownProperties {
            text: String::with_capacity(size),
            len: 0,
        };
        for i in indices {
            unknown.push(doc.key(i), doc.value(i).lines());
        }
        unknown
    }

    /// Appends the property `key` with the value `lines` (as [`UnknownProperty::lines`]
    /// gives them back).
    ///
    /// # Panics
    /// When `key` or a line holds a `\n` or a NUL: no key or line of a tokenized file
    /// does (take them from a [`Document`]).
    pub fn push<'l>(&mut self, key: &str, lines: impl IntoIterator<Item = &'l str>) {
        assert!(!key.contains([LINE, END]), "a key holds no newline or NUL");
        self.text.push_str(key);
        for line in lines {
            assert!(
                !line.contains([LINE, END]),
                "a line holds no newline or NUL"
            );
            self.text.push(LINE);
            self.text.push_str(line);
        }
        self.text.push(END);
        self.len += 1;
    }

    /// Number of properties.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The properties, in order.
    pub fn iter(&self) -> impl Iterator<Item = UnknownProperty<'_>> + '_ {
        self.text
            .split_terminator(END)
            .map(|entry| match entry.split_once(LINE) {
                Some((key, lines)) => UnknownProperty {
                    key,
                    lines: Some(lines),
                },
                None => UnknownProperty {
                    key: entry,
                    lines: None,
                },
            })
    }

    /// Appends every property (see [`UnknownProperty::write`]).
    pub fn write(&self, out: &mut String) {
        for property in self.iter() {
            property.write(out);
        }
    }
}

/// One of [`UnknownProperties`]: a key and its value lines, byte for byte (trimmed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnknownProperty<'a> {
    key: &'a str,
    /// The value lines joined by `\n`, `None` for none.
    lines: Option<&'a str>,
}

impl<'a> UnknownProperty<'a> {
    /// The key as written in the file.
    pub fn key(&self) -> &'a str {
        self.key
    }

    /// The value lines, in order.
    pub fn lines(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.lines.into_iter().flat_map(|l| l.split(LINE))
    }

    /// Appends the property in block form, `; key` then its value lines; or, when its
    /// one value line starts with `#`, `//` or `;`, or is a merge conflict marker (which
    /// only an inline header or a compact property can hold, and which would read back
    /// as a comment, a header or a conflict in block form), in inline form
    /// `; key: value`. Either way it reads back as the same key and lines.
    pub fn write(&self, out: &mut String) {
        if let Some(line) = self.lines.filter(|l| !l.contains(LINE)) {
            if line.starts_with(['#', ';'])
                || line.starts_with("//")
                || crate::value::is_conflict_marker(line.as_bytes())
            {
                out.push_str("; ");
                out.push_str(self.key);
                out.push_str(": ");
                out.push_str(line);
                out.push('\n');
                return;
            }
        }
        super::write_header(out, self.key);
        for line in self.lines() {
            out.push_str(line);
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TokenBuffer;
    use std::path::Path;

    #[test]
    fn keys_and_lines_come_back_as_pushed() {
        let mut unknown = UnknownProperties::new();
        unknown.push("A", ["1"]);
        unknown.push("B", ["x", "", "y"]);
        unknown.push("C", []);
        let got: Vec<(&str, Vec<&str>)> = unknown
            .iter()
            .map(|p| (p.key(), p.lines().collect()))
            .collect();
        assert_eq!(
            got,
            [("A", vec!["1"]), ("B", vec!["x", "", "y"]), ("C", vec![])]
        );
        assert_eq!(unknown.len(), 3);
        assert!(UnknownProperties::new().is_empty());
        assert_eq!(UnknownProperties::new().iter().count(), 0);
    }

    #[test]
    #[should_panic(expected = "no newline or NUL")]
    fn a_line_with_a_newline_is_refused() {
        UnknownProperties::new().push("A", ["1\n2"]);
    }

    #[test]
    fn from_document_takes_the_nodes_asked_for_at_their_size() {
        let mut buf = TokenBuffer::new();
        let doc = buf
            .tokenize(b"; B\nx\n# c\ny\n; C: 3\nA: 1\n", Path::new("x"))
            .unwrap();
        let unknown = UnknownProperties::from_document(&doc, [0, 1].into_iter());
        let got: Vec<(&str, Vec<&str>)> = unknown
            .iter()
            .map(|p| (p.key(), p.lines().collect()))
            .collect();
        assert_eq!(got, [("B", vec!["x", "y"]), ("C", vec!["3"])]);
        assert_eq!(unknown.text.capacity(), unknown.text.len());
    }
}
