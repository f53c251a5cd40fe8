//! The direct load path: [`DirectCursor`] reads a file written in the writer's canonical
//! form (`; Key` then one value line, properties in declaration order, as
//! [`crate::write_property`] and the derive's `save` write them) straight from its text,
//! without tokenizing it; [`load_text`](crate::load_text) tries it and falls back to the tokenizer and the
//! [`Archive`](crate::Archive) for every other file.
//!
//! The fast path reads a file only when the tokenizer would make exactly the same
//! properties of it (a block header with the expected key, then exactly one value line,
//! then the next header or the end), so a load through it gives the values the
//! [`Archive`](crate::Archive) path gives. Anything else (comments, blank lines, other spellings, other
//! orders, unknown or deprecated keys, several value lines, a value that does not
//! parse, CRLF, a byte-order mark) makes it decline, and the caller loads the file the
//! general way, which also reports errors with their line and column.
//!
//! Over a value the caller keeps ([`load_text`](crate::load_text), [`Reflect::load_direct`](crate::Reflect::load_direct)) a class finds
//! all of its properties ([`DirectCursor::locate`]) before it decodes any, so a declined
//! file leaves the value as the general path finds it, also when that path then fails (a
//! duplicate key further on, a bad `ClassVersion` after the first property). For a new
//! value ([`from_text`](crate::from_text), [`Reflect::load_direct_fresh`](crate::Reflect::load_direct_fresh)) it decodes each property as it
//! finds it ([`DirectCursor::property`]), and a file declined part way goes on through
//! the general path over the same value, which writes those properties again.
//! docs/design.md, section 4.3 (and section 4.2, the tokenizer it stands in for).

use crate::archive::CLASS_VERSION;
use crate::codec::Codec;
use crate::crc::Key;
use crate::token::{simd, TokenBuffer};
use crate::value::{Value, ValueSpan};

/// A position in a file's text for the direct load path (see the [module docs](self)),
/// made by [`TokenBuffer::direct`].
///
/// [`DirectCursor::property`] decodes as it goes: right for a loader that reads into a
/// fresh value and, when the cursor gives up, starts again the general way from another
/// fresh value (below), or goes on the general way over the same value, which writes
/// the properties read so far again ([`Reflect::load_direct_fresh`](crate::Reflect::load_direct_fresh)). A
/// [`Reflect::load_direct`](crate::Reflect::load_direct), which loads over a value the caller keeps, must
/// [`DirectCursor::locate`] every property and check [`DirectCursor::is_done`] before
/// it decodes any (see there).
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

/// One property's value line, found by [`DirectCursor::locate`] (trimmed as the
/// tokenizer trims it, without its `\n`), to be decoded with
/// [`DirectValue::decode_into`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DirectValue<'a> {
    /// The whole file's text.
    src: &'a str,
    /// Where the line is in `src` (at ASCII bytes: after a `\n`, before a `\n` or at
    /// the end).
    start: u32,
    /// The line's length in bytes.
    len: u32,
}

impl<'a> DirectValue<'a> {
    /// Decodes the value line into `place` (as the general path's
    /// `Document::decode_into` would); `false` when it does not decode (`place` is then
    /// what the codec's `decode_into` leaves on error: unchanged for every built-in
    /// codec).
    #[inline(always)]
    pub fn decode_into<T: Codec>(self, place: &mut T) -> bool {
        let span = [ValueSpan {
            start: self.start,
            len: self.len,
            line: 0,
            column: 0,
        }];
        place
            .decode_into(Value::from_spans(self.src, &span))
            .is_ok()
    }

    /// The value line's text.
    pub fn text(&self) -> &'a str {
        let start = self.start as usize;
        &self.src[start..start + self.len as usize]
    }
}

impl TokenBuffer {
    /// A [`DirectCursor`] at the start of `bytes` (the whole file), or `None` when the
    /// direct path cannot read the file at all: bytes that are not UTF-8, a NUL byte, a
    /// byte-order mark, `u32::MAX` bytes or more ([`TokenBuffer::tokenize`] reports
    /// those, or reads past the mark). One pass checks the text and finds its newlines
    /// (into this buffer's scratch), so each line end then costs a bit scan.
    #[inline]
    pub fn direct<'a>(&'a mut self, bytes: &'a [u8]) -> Option<DirectCursor<'a>> {
        let src = self.scan_direct(bytes)?;
        Some(DirectCursor::new(src, self.masks()))
    }

    /// [`TokenBuffer::direct`]'s check and scan: the text, with its newline masks in
    /// the scratch.
    #[inline]
    pub(crate) fn scan_direct<'b>(&mut self, bytes: &'b [u8]) -> Option<&'b str> {
        if bytes.len() >= u32::MAX as usize {
            return None;
        }
        let src = match simd::scan_text(bytes, self.masks_mut()) {
            Some(text) => text,
            None => utf8_without_nul(bytes)?,
        };
        (!src.starts_with('\u{FEFF}')).then_some(src)
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
    #[inline(always)]
    pub(crate) fn new(src: &'a str, newlines: &'a [u64]) -> DirectCursor<'a> {
        DirectCursor {
            src,
            newlines,
            pos: 0,
        }
    }

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
    /// end (blank, indented, starting with `#`, `;` or `/`, trailing spaces or CR,
    /// several lines), the value does not decode (`place` kept: the codecs write only
    /// what decodes), or `key.name` is not an identifier. The cursor moves only on
    /// `Some(true)`.
    ///
    /// A class reading several properties over a value its caller keeps should
    /// [`DirectCursor::locate`] them all and decode them only once the file is known to
    /// be done, so that a file the direct path declines leaves the value untouched (see
    /// [`Reflect::load_direct`](crate::Reflect::load_direct)); over a new value that the general path then loads
    /// from the same file, `property` after `property` is right
    /// ([`Reflect::load_direct_fresh`](crate::Reflect::load_direct_fresh)).
    #[inline(always)]
    pub fn property<T: Codec>(&mut self, key: Key, place: &mut T) -> Option<bool> {
        let before = self.pos;
        match self.locate(key)? {
            None => Some(false),
            Some(value) if value.decode_into(place) => Some(true),
            Some(_) => {
                self.pos = before;
                None
            }
        }
    }

    /// Finds the property `key` if it is the next one, in canonical form (as
    /// [`DirectCursor::property`] reads it), without decoding it.
    ///
    /// Returns `Some(Some(value))` and moves past the property when it is there,
    /// `Some(None)` when the next line is not that header (the cursor stays), and `None`
    /// when the direct path must give up on this file (the header is there but not one
    /// clean value line, followed by a header or the end; or `key.name` is not an
    /// identifier).
    #[inline(always)]
    pub fn locate(&mut self, key: Key) -> Option<Option<DirectValue<'a>>> {
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
        // nothing to trim at either end, no comment or header (a value starting with
        // `/` is left to the tokenizer too, which tells `//` comments from text).
        if end <= start
            || EDGE[usize::from(bytes[start])] & FIRST != 0
            || EDGE[usize::from(bytes[end - 1])] & LAST != 0
        {
            return None;
        }
        // What follows must open the next property (or end the file); a second value
        // line, a comment or a blank line leaves the file to the tokenizer.
        let next = end + 1;
        if bytes.get(next).is_some_and(|&b| b != b';') {
            return None;
        }
        self.pos = next.min(bytes.len());
        Some(Some(DirectValue {
            src: self.src,
            start: start as u32,
            len: (end - start) as u32,
        }))
    }

    /// Reads the `ClassVersion` property if it comes next and checks it against the
    /// code's version: `true` when the file's version is `code_version` or the file does
    /// not give one (what [`Archive::resolve_class_version`](crate::Archive::resolve_class_version) then resolves to), `false`
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

/// [`EDGE`] bit: a value line cannot start with this byte (blank, comment, header).
const FIRST: u8 = 1;
/// [`EDGE`] bit: a value line cannot end with this byte (the tokenizer trims it).
const LAST: u8 = 2;

/// What each byte may not be at the edges of a directly read value line.
static EDGE: [u8; 256] = {
    let mut table = [0u8; 256];
    table[b' ' as usize] = FIRST | LAST;
    table[b'\t' as usize] = FIRST | LAST;
    table[b'\r' as usize] = LAST;
    table[b'#' as usize] = FIRST;
    table[b';' as usize] = FIRST;
    table[b'/' as usize] = FIRST;
    // A merge conflict marker is an error only the tokenizer reports.
    table[b'<' as usize] = FIRST;
    table[b'|' as usize] = FIRST;
    table[b'=' as usize] = FIRST;
    table[b'>' as usize] = FIRST;
    table
};

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
    fn locate_finds_values_without_decoding_them() {
        let mut buffer = TokenBuffer::new();
        let mut c = buffer.direct(b"; Mass\nheavy\n; Name\nRock").unwrap();
        assert_eq!(c.locate(key!("Position")), Some(None));
        assert_eq!(c.position(), 0);
        let mass = c.locate(key!("Mass")).unwrap().unwrap();
        assert_eq!((mass.text(), c.position()), ("heavy", 13));
        let name = c.locate(key!("Name")).unwrap().unwrap();
        assert!(c.is_done());
        let (mut m, mut n) = (7.0f32, String::new());
        assert!(!mass.decode_into(&mut m), "`heavy` is no f32");
        assert_eq!(m, 7.0);
        assert!(name.decode_into(&mut n));
        assert_eq!(n, "Rock");
        // A header without one clean value line gives up.
        let mut c = buffer.direct(b"; Mass\n2.5\n\n").unwrap();
        assert_eq!(c.locate(key!("Mass")), None);
    }

    #[test]
    fn property_that_does_not_decode_keeps_place_and_position() {
        let mut buffer = TokenBuffer::new();
        let mut c = buffer.direct(b"; Mass\nheavy\n").unwrap();
        let mut mass = 7.0f32;
        assert_eq!(c.property(key!("Mass"), &mut mass), None);
        assert_eq!((mass, c.position()), (7.0, 0));
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
