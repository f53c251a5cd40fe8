//! The buffers the editor has open, and what the other parts of the server read of
//! them: the file each one is (a `file:` URI as a path), positions as the protocol
//! counts them (0-based lines, UTF-16 code units) against byte offsets, and the lines
//! of a buffer as properties.
//!
//! The properties are read line by line with the rules of the format's line forms
//! (docs/design.md, section 2.1) but without refusing anything: the tokenizer stops at
//! a file's first error, while an editor needs the property under the cursor in a
//! half-typed buffer too. What the file means (its errors, its values) is the loader's,
//! read in [`super::diagnostics`].

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use juliet_core::{keys_equal, Class, Codec, Registry, Value};
use lsp_types::{Position, Uri};

use super::super::project::find_root;
use super::super::values::{header, template_chain, ChainLink};
use juliet_entities::load::keys;

/// One open buffer.
#[derive(Debug, Clone)]
pub(super) struct Document {
    /// The file it is (the URI's path).
    pub path: PathBuf,
    /// Its text, as the editor last sent it.
    pub text: String,
    /// The project root: the explicit one, else the nearest ancestor holding `Assets/`.
    pub root: Option<PathBuf>,
}

/// The open buffers, by URI.
#[derive(Debug, Default)]
pub(super) struct Documents {
    open: HashMap<Uri, Document>,
    /// `--root`, for files outside any project.
    explicit_root: Option<PathBuf>,
}

impl Documents {
    /// No buffer open; `explicit_root` is the project root of every file when given.
    pub(super) fn new(explicit_root: Option<PathBuf>) -> Documents {
        Documents {
            open: HashMap::new(),
            explicit_root,
        }
    }

    /// Opens (or replaces) the buffer of `uri`. `None` when the URI is not a `file:` one.
    pub(super) fn set(&mut self, uri: &Uri, text: String) -> Option<&Document> {
        let path = path_of(uri)?;
        let root = match &self.explicit_root {
            Some(root) => Some(root.clone()),
            None => path.parent().and_then(find_root),
        };
        self.open.insert(uri.clone(), Document { path, text, root });
        self.open.get(uri)
    }

    /// Closes the buffer of `uri`.
    pub(super) fn close(&mut self, uri: &Uri) {
        self.open.remove(uri);
    }

    /// The buffer of `uri`, if it is open.
    pub(super) fn get(&self, uri: &Uri) -> Option<&Document> {
        self.open.get(uri)
    }

    /// The open buffer of the file at `path`, if any.
    pub(super) fn at_path(&self, path: &Path) -> Option<&Document> {
        let real = std::fs::canonicalize(path).ok();
        self.open.values().find(|d| {
            d.path == path || real.is_some() && std::fs::canonicalize(&d.path).ok() == real
        })
    }

    /// The open buffers and their URIs.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&Uri, &Document)> {
        self.open.iter()
    }
}

/// The path of a `file:` URI (percent-decoded).
pub(super) fn path_of(uri: &Uri) -> Option<PathBuf> {
    if !uri
        .scheme()
        .is_some_and(|s| s.as_str().eq_ignore_ascii_case("file"))
    {
        return None;
    }
    let bytes = uri.path().as_estr().decode().into_bytes().into_owned();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
    }
    #[cfg(not(unix))]
    {
        let text = String::from_utf8(bytes).ok()?;
        Some(PathBuf::from(text.trim_start_matches('/')))
    }
}

/// The `file:` URI of an absolute path, percent-encoding every byte but the unreserved
/// ones and `/`.
pub(super) fn uri_of(path: &Path) -> Option<Uri> {
    let path = std::path::absolute(path).ok()?;
    let text = path.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/');
    }
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out.parse().ok()
}

/// The lines of `text` (without their line endings, `\r` included), so that line `n` is
/// the protocol's line `n`.
pub(super) fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l))
}

/// The byte offset in `line` of the protocol's `character` (UTF-16 units), clamped to
/// the line and to a character boundary.
pub(super) fn byte_in_line(line: &str, character: u32) -> usize {
    let mut units = 0;
    for (at, c) in line.char_indices() {
        if units >= character as usize {
            return at;
        }
        units += c.len_utf16();
    }
    line.len()
}

/// The protocol's character (UTF-16 units) of byte `at` of `line`.
pub(super) fn character_of(line: &str, at: usize) -> u32 {
    let at = at.min(line.len());
    let at = (0..=at)
        .rev()
        .find(|&i| line.is_char_boundary(i))
        .unwrap_or(0);
    line[..at].chars().map(char::len_utf16).sum::<usize>() as u32
}

/// The line `line` of `text` (empty past the end).
pub(super) fn line_at(text: &str, line: u32) -> &str {
    lines(text).nth(line as usize).unwrap_or("")
}

/// The end of `text`, as a position.
pub(super) fn end_of(text: &str) -> Position {
    let (count, last) = lines(text).enumerate().last().unwrap_or((0, ""));
    Position::new(count as u32, character_of(last, last.len()))
}

/// One property of a buffer, as its lines show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entry {
    /// The key as written.
    pub key: String,
    /// The line of the key (0-based).
    pub line: u32,
    /// Byte range of the key in its line.
    pub key_bytes: Range<usize>,
    /// Byte range in the key's line of the value written on it (`; Key: value`,
    /// `Key: value`), if any.
    pub inline: Option<Range<usize>>,
    /// The value lines below the key (block form), possibly with comment and blank
    /// lines between them: the first and one past the last.
    pub below: Range<u32>,
}

impl Entry {
    /// Whether the key is `name` (as keys compare: ASCII case and `_` ignored).
    pub(super) fn is(&self, name: &str) -> bool {
        keys_equal(&self.key, name)
    }

    /// The first value line of the entry in `text`, trimmed.
    pub(super) fn first_value<'t>(&self, text: &'t str) -> Option<&'t str> {
        let line = line_at(text, self.line);
        match &self.inline {
            Some(range) => line.get(range.clone()).map(str::trim),
            None => lines(text)
                .skip(self.below.start as usize)
                .take(self.below.len())
                .map(str::trim)
                .find(|l| !is_comment_or_blank(l)),
        }
    }

    /// The lines the entry takes: its key's line through its last value line.
    pub(super) fn lines(&self) -> Range<u32> {
        self.line..self.below.end.max(self.line + 1)
    }
}

/// Whether a trimmed line is a comment or blank.
fn is_comment_or_blank(trimmed: &str) -> bool {
    trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//")
}

/// The length of the identifier `[A-Za-z_][A-Za-z0-9_]*` (and a composite's `.`-joined
/// path) that `text` starts with.
fn identifier_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    if !bytes
        .first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
    {
        return 0;
    }
    bytes
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_' || *b == b'.'))
        .unwrap_or(bytes.len())
}

/// The properties of `text`, in line order.
pub(super) fn entries(text: &str) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    let mut block_open = false;
    for (n, line) in lines(text).enumerate() {
        let n = n as u32;
        let trimmed = line.trim_start_matches([' ', '\t']);
        let indent = line.len() - trimmed.len();
        if is_comment_or_blank(trimmed.trim_end_matches([' ', '\t'])) {
            continue;
        }
        let header = trimmed.strip_prefix(';');
        if header.is_none() && block_open {
            if let Some(last) = out.last_mut() {
                last.below.end = n + 1;
            }
            continue;
        }
        let (rest, start) = match header {
            Some(rest) => {
                let inner = rest.trim_start_matches([' ', '\t']);
                (inner, indent + 1 + rest.len() - inner.len())
            }
            None => (trimmed, indent),
        };
        let len = identifier_len(rest);
        let after = rest[len..].trim_start_matches([' ', '\t']);
        let inline = after.strip_prefix(':').map(|value| {
            let value_start = line.len() - value.len();
            value_start..line.len()
        });
        if header.is_none() && (len == 0 || inline.is_none()) {
            // A value line outside any block: the loader reports it.
            continue;
        }
        block_open = header.is_some() && inline.is_none();
        out.push(Entry {
            key: rest[..len].to_owned(),
            line: n,
            key_bytes: start..start + len,
            inline,
            below: n + 1..n + 1,
        });
    }
    out
}

/// The entry whose lines (its key's line through its last value line) hold `line`.
pub(super) fn entry_at(entries: &[Entry], line: u32) -> Option<&Entry> {
    entries
        .iter()
        .rev()
        .find(|e| e.line <= line && line < e.lines().end)
}

/// The `Template` value of `entries` (the text the key holds), if any.
pub(super) fn template_of(entries: &[Entry], text: &str) -> Option<String> {
    let entry = entries.iter().find(|e| e.is(keys::TEMPLATE.name))?;
    decode_text(entry.first_value(text)?)
}

/// A one-line value read as the `String` codec reads it (quoted or bare).
pub(super) fn decode_text(value: &str) -> Option<String> {
    <String as Codec>::decode(Value::from_text(value)).ok()
}

/// The class of a buffer: its `Kind` (or an alias of the key), else the nearest
/// template of its chain that names one.
pub(super) fn class_of(
    entries: &[Entry],
    text: &str,
    doc: &Document,
    registry: &Registry,
) -> Option<&'static Class> {
    let kind_keys = std::iter::once(&keys::KIND).chain(keys::KIND_ALIASES);
    let written = entries
        .iter()
        .find(|e| kind_keys.clone().any(|k| e.is(k.name)))
        .and_then(|e| decode_text(e.first_value(text)?));
    if let Some(kind) = written {
        return registry.find_by_name(&kind);
    }
    let chain = chain_of(entries, text, doc)?.ok()?;
    chain
        .iter()
        .find_map(|link| header(&link.properties).kind)
        .and_then(|kind| registry.find_by_name(&kind))
}

/// The template chain of a buffer with a `Template` key in a project, nearest first
/// (`None` without either; an error for a chain that cannot be followed).
pub(super) fn chain_of(
    entries: &[Entry],
    text: &str,
    doc: &Document,
) -> Option<Result<Vec<ChainLink>, juliet_core::Error>> {
    let root = doc.root.as_deref()?;
    let template = template_of(entries, text)?;
    Some(template_chain(root, &doc.path, &template))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_follow_the_line_forms() {
        let text = "# c\n; AssetType\nEntity\n\n; template: T.jasset\nMass: 2.0\n; Tags\na\n# x\nb: 1\n; Half";
        let found = entries(text);
        let keys: Vec<&str> = found.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["AssetType", "template", "Mass", "Tags", "Half"]);
        assert_eq!(found[0].below, 2..3);
        assert_eq!(found[1].first_value(text), Some("T.jasset"));
        assert_eq!(found[2].key_bytes, 0..4);
        // `b: 1` is a value line of the open `Tags` block, not a property.
        assert_eq!(found[3].below, 7..10);
        assert_eq!(found[4].lines(), 10..11);
        assert_eq!(entry_at(&found, 8).map(|e| e.key.as_str()), Some("Tags"));
    }

    #[test]
    fn positions_count_utf16_units() {
        let line = "é𝄞x";
        assert_eq!(byte_in_line(line, 1), 2);
        assert_eq!(byte_in_line(line, 3), 6);
        assert_eq!(character_of(line, 6), 3);
        assert_eq!(byte_in_line(line, 99), line.len());
    }

    #[test]
    fn file_uris_round_trip_paths_with_spaces() {
        let uri = uri_of(Path::new("/tmp/a b/Ç.jasset")).expect("uri");
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%87.jasset");
        assert_eq!(path_of(&uri), Some(PathBuf::from("/tmp/a b/Ç.jasset")));
    }
}
