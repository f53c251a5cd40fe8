//! The direct load path: [`DirectCursor`] reads a file written in the writer's canonical
//! form (`; Key` then one value line, properties in declaration order, as
//! [`crate::write_property`] and the derive's `save` write them) straight from its text,
//! without tokenizing it; [`load_text`] tries it and falls back to the tokenizer and the
//! [`Archive`] for every other file.
//!
//! The fast path reads a file only when the tokenizer would make exactly the same
//! properties of it (a block header with the expected key, then exactly one value line,
//! then the next header or the end), so a load through it gives the values the
//! [`Archive`] path gives. Anything else (comments, blank lines, other spellings, other
//! orders, unknown or deprecated keys, several value lines, a value that does not
//! parse, CRLF, a byte-order mark) makes it decline, and the caller loads the file the
//! general way, which also reports errors with their line and column. Seed 01 section 5
//! (the symmetric serialize) and section 3 (the tokenizer it stands in for).

use std::path::Path;

use crate::archive::{Archive, UnknownProperty, CLASS_VERSION};
use crate::class::Reflect;
use crate::codec::Codec;
use crate::crc::Key;
use crate::error::{Error, Warning};
use crate::token::{simd, TokenBuffer};
use crate::value::{Value, ValueSpan};

/// A position in a file's text for the direct load path (see the [module docs](self)),
/// made by [`TokenBuffer::direct`].
///
/// ```
/// use juliet_core::{key, TokenBuffer};
///
/// let text = "; MaxSpeed\n120.5\n; GearCount\n6\n";
/// let mut buffer = TokenBuffer::new();
/// let mut cursor = buffer.direct(text.as_bytes()).expect("UTF-8 without NUL");
/// let (mut max_speed, mut gears, mut mass) = (0.0f32, 0i32, 7.5f32);
/// assert_eq!(cursor.property(key!("MaxSpeed"), &mut max_speed), Some(true));
/// assert_eq!(cursor.property(key!("Mass"), &mut mass), Some(false)); // absent: kept
/// assert_eq!(cursor.property(key!("GearCount"), &mut gears), Some(true));
/// assert!(cursor.is_done());
/// assert_eq!((max_speed, gears, mass), (120.5, 6, 7.5));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct DirectCursor<'a> {
    src: &'a str,
    /// Bit `i` of word `w` is set when `src[64 * w + i]` is `\n`.
    newlines: &'a [u64],
    pos: usize,
}

impl TokenBuffer {
    /// A [`DirectCursor`] at the start of `bytes` (the whole file), or `None` when the
    /// direct path cannot read the file at all: bytes that are not UTF-8, a NUL byte, a
    /// byte-order mark, 4 GiB or more ([`TokenBuffer::tokenize`] reports those, or
    /// reads past the mark). One pass checks the text and finds its newlines (into this
    /// buffer's scratch), so each line end then costs a bit scan.
    #[inline]
    pub fn direct<'a>(&'a mut self, bytes: &'a [u8]) -> Option<DirectCursor<'a>> {
        if bytes.len() >= u32::MAX as usize {
            return None;
        }
        let masks = self.masks_mut();
        let src = match simd::scan_text(bytes, masks) {
            Some(text) => text,
            None => utf8_without_nul(bytes)?,
        };
        if src.starts_with('\u{FEFF}') {
            return None;
        }
        Some(DirectCursor {
            src,
            newlines: masks,
            pos: 0,
        })
    }
}

/// `bytes` as text when it is UTF-8 without a NUL byte (the files with non-ASCII text).
#[inline(never)]
fn utf8_without_nul(bytes: &[u8]) -> Option<&str> {
    if memchr::memchr(0, bytes).is_some() {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

impl<'a> DirectCursor<'a> {
    /// Offset of the first `\n` at or after `from`, or the length of the text.
    #[inline(always)]
    fn line_end(&self, from: usize) -> usize {
        let mut word = from / 64;
        let mut bits = match self.newlines.get(word) {
            Some(&w) => w >> (from % 64),
            None => return self.src.len(),
        };
        if bits != 0 {
            return from + bits.trailing_zeros() as usize;
        }
        loop {
            word += 1;
            bits = match self.newlines.get(word) {
                Some(&w) => w,
                None => return self.src.len(),
            };
            if bits != 0 {
                return word * 64 + bits.trailing_zeros() as usize;
            }
        }
    }

    /// Reads the property `key` if it is the next one, in canonical form: the line
    /// `; Key` (exactly as [`crate::write_header`] writes it), then one value line, then
    /// a header or the end of the file.
    ///
    /// Returns `Some(true)` when the value was decoded into `place`, `Some(false)` when
    /// the next line is not that header (`place` untouched: an absent key keeps its
    /// default), and `None` when the direct path must give up on this file: the header
    /// is there but its value is not one clean value line followed by a header or the
    /// end (blank, comment, indented, trailing spaces or CR, several lines), the value
    /// does not decode (`place` may then be partly written), or `key.name` is not an
    /// identifier. The cursor moves only on `Some(true)`.
    #[inline(always)]
    pub fn property<T: Codec>(&mut self, key: Key, place: &mut T) -> Option<bool> {
        let Some((start, end, next)) = self.value_line(key)? else {
            return Some(false);
        };
        let span = [ValueSpan {
            start: start as u32,
            len: (end - start) as u32,
            line: 0,
            column: 0,
        }];
        place.decode_into(Value::from_spans(self.src, &span)).ok()?;
        self.pos = next;
        Some(true)
    }

    /// Reads the property `key` if it is the next one, in canonical form (as
    /// [`DirectCursor::property`]), and gives its value line as written, undecoded: for
    /// a caller that compares or looks up the text itself (a name, a type tag).
    ///
    /// Returns `Some(Some(line))` and moves past the property when it is there,
    /// `Some(None)` (cursor untouched) when the next line is not that header, and
    /// `None` when the header is there but not followed by one clean value line and a
    /// header or the end, or `key.name` is not an identifier. The line has nothing to
    /// trim at either end and is neither a comment nor a header.
    #[inline(always)]
    pub fn text(&mut self, key: Key) -> Option<Option<&'a str>> {
        let Some((start, end, next)) = self.value_line(key)? else {
            return Some(None);
        };
        self.pos = next;
        Some(Some(&self.src[start..end]))
    }

    /// Where the property `key` is, if it comes next in canonical form: `(start, end,
    /// next)`, the value line's bounds and the offset of what follows it. `Some(None)`
    /// when the next line is not that header, `None` when the direct path must give up
    /// (see [`DirectCursor::property`]).
    #[inline(always)]
    fn value_line(&self, key: Key) -> Option<Option<(usize, usize, usize)>> {
        let name = key.name.as_bytes();
        if !is_identifier(name) {
            return None;
        }
        let bytes = self.src.as_bytes();
        let rest = &bytes[self.pos..];
        let n = name.len();
        if rest.len() < n + 3
            || rest[0] != b';'
            || rest[1] != b' '
            || &rest[2..2 + n] != name
            || rest[2 + n] != b'\n'
        {
            return Some(None);
        }
        let start = self.pos + n + 3;
        let end = self.line_end(start);
        // The line must be a value line exactly as the tokenizer trims it: not empty,
        // no comment, no header, nothing to trim at either end.
        let (&first, &last) = (bytes.get(start)?, bytes.get(end.wrapping_sub(1))?);
        if end == start
            || matches!(first, b' ' | b'\t' | b'#' | b';')
            || matches!(last, b' ' | b'\t' | b'\r')
            || bytes[start..end].starts_with(b"//")
        {
            return None;
        }
        // What follows must open the next property (or end the file); a second value
        // line, a comment or a blank line leaves the file to the tokenizer.
        let next = if end < bytes.len() { end + 1 } else { end };
        if next < bytes.len() && bytes[next] != b';' {
            return None;
        }
        Some(Some((start, end, next)))
    }

    /// Reads the `ClassVersion` property if it comes next and checks it against the
    /// code's version: `true` when the file's version is `code_version` or the file does
    /// not give one (what [`Archive::resolve_class_version`] then resolves to), `false`
    /// when it is another version (a migration or a warning is due: the general path's
    /// work) or does not read directly.
    #[inline(always)]
    pub fn class_version(&mut self, code_version: u32) -> bool {
        let mut version = code_version;
        self.property(CLASS_VERSION, &mut version).is_some() && version == code_version
    }

    /// Whether the whole file has been read.
    #[inline(always)]
    pub fn is_done(&self) -> bool {
        self.pos == self.src.len()
    }

    /// Byte offset of the cursor in the file (0 to the file's length).
    pub fn position(&self) -> usize {
        self.pos
    }
}

/// Whether `name` is a key the tokenizer reads as one (`[A-Za-z_][A-Za-z0-9_]*`). For a
/// constant key the compiler folds the whole check away.
#[inline(always)]
const fn is_identifier(name: &[u8]) -> bool {
    if name.is_empty() || name[0].is_ascii_digit() {
        return false;
    }
    let mut i = 0;
    while i < name.len() {
        if !(name[i].is_ascii_alphanumeric() || name[i] == b'_') {
            return false;
        }
        i += 1;
    }
    true
}

/// What a load reported besides the values (see [`load_text`]).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LoadReport {
    /// Warnings, also logged through `tracing` (a newer class version, unknown keys).
    pub warnings: Vec<Warning>,
    /// The properties no reader consumed, kept to be written back (seed 01 section 3.4).
    pub unknown: Vec<UnknownProperty>,
    /// Whether the direct path read the file (`false`: tokenizer and [`Archive`]).
    pub direct: bool,
}

/// Loads the file `bytes` over `value` (missing keys keep their current values): first
/// through [`Reflect::load_direct`], and when that declines, by tokenizing the file into
/// `buffer` and running [`Reflect::load`] over an [`Archive`], then the
/// unconsumed-key audit. Both ways give the same values.
///
/// `path` only labels errors.
///
/// # Errors
/// Those of [`TokenBuffer::tokenize`] and [`Reflect::load`], with path, line and column.
/// On error `value` may be partly loaded.
pub fn load_text<T: Reflect>(
    buffer: &mut TokenBuffer,
    bytes: &[u8],
    path: &Path,
    value: &mut T,
) -> Result<LoadReport, Error> {
    if let Some(mut cursor) = buffer.direct(bytes) {
        if value.load_direct(&mut cursor) && cursor.is_done() {
            return Ok(LoadReport {
                direct: true,
                ..LoadReport::default()
            });
        }
    }
    load_tokenized(buffer, bytes, path, value)
}

/// [`load_text`]'s general path, out of line.
#[inline(never)]
fn load_tokenized<T: Reflect>(
    buffer: &mut TokenBuffer,
    bytes: &[u8],
    path: &Path,
    value: &mut T,
) -> Result<LoadReport, Error> {
    let mut ar = Archive::loading(buffer.tokenize(bytes, path)?);
    value.load(&mut ar)?;
    let unknown = ar.audit_unconsumed();
    Ok(LoadReport {
        warnings: ar.take_warnings(),
        unknown,
        direct: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key;
    use glam::Vec3;

    /// Reads `Mass: f32`, `Position: Vec3`, `Name: String` directly; `None` when the
    /// cursor declines (at any point, or when the file is not done).
    fn read(text: &[u8]) -> Option<(f32, Vec3, String)> {
        let mut buffer = TokenBuffer::new();
        let mut c = buffer.direct(text)?;
        let (mut mass, mut position, mut name) = (-1.0, Vec3::splat(-1.0), String::from("-"));
        c.property(key!("Mass"), &mut mass)?;
        c.property(key!("Position"), &mut position)?;
        c.property(key!("Name"), &mut name)?;
        c.is_done().then_some((mass, position, name))
    }

    #[test]
    fn canonical_files_read_directly_with_absent_keys_kept() {
        let full = read(b"; Mass\n2.5\n; Position\n1 2 3\n; Name\n\"Rock\"\n");
        assert_eq!(
            full,
            Some((2.5, Vec3::new(1.0, 2.0, 3.0), "Rock".to_owned()))
        );
        // No final newline, and a key left out.
        let sparse = read(b"; Mass\n2.5\n; Name\nRock");
        assert_eq!(sparse, Some((2.5, Vec3::splat(-1.0), "Rock".to_owned())));
        assert_eq!(read(b""), Some((-1.0, Vec3::splat(-1.0), "-".to_owned())));
        // Non-ASCII text takes the UTF-8 check instead of the ASCII one.
        let accented = read("; Name\n\"Café ×2\"\n".as_bytes());
        assert_eq!(accented.map(|r| r.2), Some("Café ×2".to_owned()));
    }

    #[test]
    fn every_other_layout_declines() {
        let declined: &[&[u8]] = &[
            b"# comment\n; Mass\n2.5\n",
            b"; Mass\n2.5\n\n; Name\nRock\n",
            b"; Mass\n2.5\n# between\n; Name\nRock\n",
            b"; Mass\r\n2.5\r\n",
            b"; Mass\n2.5 \n",
            b"; Mass\n  2.5\n",
            b"; Mass\n\t2.5\n",
            b"; Mass \n2.5\n",
            b";Mass\n2.5\n",
            b"; mass\n2.5\n",
            b"; Mass\n2.5\n3.5\n",
            b"; Mass\n",
            b"; Mass\n\n",
            b"; Mass\n# c\n2.5\n",
            b"; Mass\n// c\n",
            b"; Mass: 2.5\n",
            b"Mass: 2.5\n",
            b"; Name\nRock\n; Mass\n2.5\n",
            b"; Mass\n2.5\n; Mass\n3.5\n",
            b"; Mass\n2.5\n; Unknown\n1\n",
            b"; Mass\nheavy\n",
            b"; Position\n1 2\n",
            b"; Name\nRo\0ck\n",
            b"; Name\nRo\xFFck\n",
            b"\xEF\xBB\xBF; Mass\n2.5\n",
        ];
        for text in declined {
            assert_eq!(read(text), None, "{:?}", String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn a_missing_header_leaves_the_cursor_and_the_place_alone() {
        let mut buffer = TokenBuffer::new();
        let mut c = buffer.direct(b"; Name\nRock\n").unwrap();
        let mut mass = 7.0f32;
        assert_eq!(c.property(key!("Mass"), &mut mass), Some(false));
        assert_eq!((mass, c.position()), (7.0, 0));
        let mut name = String::new();
        assert_eq!(c.property(key!("Name"), &mut name), Some(true));
        assert_eq!((name.as_str(), c.position()), ("Rock", 12));
    }

    #[test]
    fn text_gives_the_value_line_as_written() {
        let mut buffer = TokenBuffer::new();
        let mut c = buffer
            .direct(b"; Kind\nInert\n; Name\n\"Ro ck\"\n; Mass\n1\n2\n")
            .unwrap();
        assert_eq!(c.text(key!("Mass")), Some(None), "not next: nothing read");
        assert_eq!(c.position(), 0);
        assert_eq!(c.text(key!("Kind")), Some(Some("Inert")));
        assert_eq!(c.text(key!("Name")), Some(Some("\"Ro ck\"")), "undecoded");
        let at = c.position();
        assert_eq!(c.text(key!("Mass")), None, "two value lines");
        assert_eq!(c.position(), at);
        for declined in [
            &b"; Kind\nInert \n"[..],
            b"; Kind\n# c\n",
            b"; Kind\n\n; A\n1\n",
        ] {
            let mut c = buffer.direct(declined).unwrap();
            assert_eq!(c.text(key!("Kind")), None, "{declined:?}");
        }
        let mut c = buffer.direct(b"; Kind\nInert").unwrap();
        assert_eq!(c.text(key!("Kind")), Some(Some("Inert")));
        assert!(c.is_done());
    }

    #[test]
    fn keys_that_are_not_identifiers_never_read() {
        let mut buffer = TokenBuffer::new();
        let mut c = buffer.direct(b"; A: 1\n2\n").unwrap();
        let mut v = 0i32;
        assert_eq!(c.property(Key::new("A: 1"), &mut v), None);
        assert_eq!(c.property(Key::new(""), &mut v), None);
        assert_eq!(c.property(Key::new("1A"), &mut v), None);
        assert_eq!(v, 0);
    }

    #[test]
    fn class_version_accepts_only_the_code_version_or_none() {
        let mut buffer = TokenBuffer::new();
        for (text, accepted) in [
            (&b"; ClassVersion\n3\n"[..], true),
            (b"; Mass\n1\n", true),
            (b"; ClassVersion\n2\n", false),
            (b"; ClassVersion\n4\n", false),
            (b"; ClassVersion\nx\n", false),
        ] {
            let mut c = buffer.direct(text).unwrap();
            assert_eq!(c.class_version(3), accepted, "{text:?}");
        }
    }

    #[test]
    fn line_ends_are_found_across_mask_words() {
        // Values long enough that headers, values and newlines straddle 64-byte words.
        let long = "x".repeat(150);
        let text = format!("; Name\n\"{long}\"\n; Mass\n1\n");
        let mut buffer = TokenBuffer::new();
        let mut c = buffer.direct(text.as_bytes()).unwrap();
        let (mut name, mut mass) = (String::new(), 0.0f32);
        assert_eq!(c.property(key!("Name"), &mut name), Some(true));
        assert_eq!(c.property(key!("Mass"), &mut mass), Some(true));
        assert!(c.is_done());
        assert_eq!((name, mass), (long, 1.0));
    }
}
