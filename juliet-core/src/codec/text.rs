//! Codecs for `String` and `char` (bare token or double-quoted with escapes) and
//! helpers for unit enums.

use std::fmt::Write as _;

use super::{Codec, Element, MapKey, PropertyType, Token};
use crate::error::ValueErrorKind;
use crate::value::{Value, ValueError};

/// Whether the writer must quote `s`: empty, `[]` (the empty-list marker), white space,
/// a quote, `#`, `;`, a leading `//`, a control character, or a merge conflict marker
/// (`=======`: the tokenizer refuses such a value line).
pub fn needs_quotes(s: &str) -> bool {
    s.is_empty()
        || s == "[]"
        || s == "{}"
        || s == super::NONE
        || s.starts_with("//")
        || crate::value::is_conflict_marker(s.as_bytes())
        || s.chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '#' | ';'))
}

impl Codec for String {
    const PROPERTY_TYPE: PropertyType = PropertyType::String;

    fn encode(&self, out: &mut String) {
        write_text(out, self, needs_quotes(self));
    }

    #[inline]
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let mut s = String::new();
        s.decode_into(value)?;
        Ok(s)
    }

    #[inline]
    fn decode_into<'a>(&mut self, value: Value<'a>) -> Result<(), ValueError<'a>> {
        let line = value.single_line()?.text();
        let Some(body) = line.strip_prefix('"') else {
            replace_text(self, line);
            return Ok(());
        };
        // The common quoted form: no escape, the closing quote ends the line.
        if let Some(text) = body.strip_suffix('"') {
            if !has_quote_or_backslash(text.as_bytes()) {
                replace_text(self, text);
                return Ok(());
            }
        }
        decode_escaped(self, line)
    }
}

/// Strings are tokens: quoted also where a blank, `,` or `:` would split them inside a
/// line of tokens or a map entry.
impl Element for String {
    const TOKEN: bool = true;

    fn encode_token(&self, out: &mut String) {
        write_text(out, self, needs_quotes_in_line(self));
    }
}

impl Token for String {}
impl MapKey for String {}

/// Whether `s` must be quoted as a token among others on one line: [`needs_quotes`],
/// or a `,` or `:` that would split it.
fn needs_quotes_in_line(s: &str) -> bool {
    needs_quotes(s) || s.contains([',', ':'])
}

/// Writes `text`, bare or (when `quote`) double-quoted with its `"`, `\` and control
/// characters escaped.
fn write_text(out: &mut String, text: &str, quote: bool) {
    if !quote {
        out.push_str(text);
        return;
    }
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:X}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A `char` is written as a one-character string: bare, or quoted as a `String` is.
impl Codec for char {
    const PROPERTY_TYPE: PropertyType = PropertyType::Char;

    fn encode(&self, out: &mut String) {
        let mut buffer = [0u8; 4];
        let text = self.encode_utf8(&mut buffer);
        write_text(out, text, needs_quotes(text));
    }

    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let line = value.single()?;
        let one = |text: &str| {
            let mut chars = text.chars();
            chars.next().filter(|_| chars.next().is_none())
        };
        let c = if line.starts_with('"') {
            let mut text = String::new();
            unquote(line, &mut text)?;
            one(&text)
        } else {
            one(line)
        };
        c.ok_or(ValueError::new(ValueErrorKind::NotOneChar, line))
    }
}

impl Element for char {
    const TOKEN: bool = true;

    fn encode_token(&self, out: &mut String) {
        let mut buffer = [0u8; 4];
        let text = self.encode_utf8(&mut buffer);
        write_text(out, text, needs_quotes_in_line(text));
    }
}

impl Token for char {}
impl MapKey for char {}

/// [`String`]'s `decode_into` for a quoted line with escapes (or a quoting error),
/// out of line: the text is appended after the old text, which is then dropped, so
/// `out` keeps its allocation and is unchanged on error.
#[inline(never)]
fn decode_escaped<'a>(out: &mut String, line: &'a str) -> Result<(), ValueError<'a>> {
    let old_len = out.len();
    match unquote(line, out) {
        Ok(()) => {
            if old_len > 0 {
                out.drain(..old_len);
            }
            Ok(())
        }
        Err(e) => {
            out.truncate(old_len);
            Err(e)
        }
    }
}

/// Whether `bytes` holds a `"` or a `\\`: eight bytes at a time (the last eight
/// overlapping), a byte loop below eight bytes.
#[inline]
fn has_quote_or_backslash(bytes: &[u8]) -> bool {
    /// Bit 7 of some byte set when a byte of `v` is zero (exact as a whole, not per
    /// byte).
    #[inline(always)]
    fn zero_bytes(v: u64) -> u64 {
        v.wrapping_sub(0x0101_0101_0101_0101) & !v & 0x8080_8080_8080_8080
    }
    #[inline(always)]
    fn word_has(w: u64) -> bool {
        // Both tests, then one branch.
        zero_bytes(w ^ 0x2222_2222_2222_2222) | zero_bytes(w ^ 0x5C5C_5C5C_5C5C_5C5C) != 0
    }
    let word = |c: &[u8]| u64::from_le_bytes(c.try_into().expect("8 bytes"));
    if bytes.len() < 8 {
        return bytes.iter().any(|&b| b == b'"' || b == b'\\');
    }
    let mut chunks = bytes.chunks_exact(8);
    if chunks.any(|c| word_has(word(c))) {
        return true;
    }
    word_has(word(&bytes[bytes.len() - 8..]))
}

/// Sets `out` to `text`, in its allocation when it is large enough.
#[inline]
fn replace_text(out: &mut String, text: &str) {
    if out.capacity() >= text.len() {
        out.clear();
        out.push_str(text);
    } else {
        *out = text.to_owned();
    }
}

/// Reads the quoted string `line` (starting with `"`) into `out`: runs of plain text
/// are copied whole, up to the next quote or backslash.
fn unquote<'a>(line: &'a str, out: &mut String) -> Result<(), ValueError<'a>> {
    let body = &line[1..];
    let bytes = body.as_bytes();
    let mut from = 0;
    loop {
        // `"` and `\` never occur inside a multi-byte character, so `at` is a boundary.
        let Some(at) = memchr::memchr2(b'"', b'\\', &bytes[from..]).map(|i| from + i) else {
            return Err(ValueError::new(ValueErrorKind::UnterminatedQuote, line));
        };
        out.push_str(&body[from..at]);
        if bytes[at] == b'"' {
            let rest = &body[at + 1..];
            return if rest.trim_matches([' ', '\t']).is_empty() {
                Ok(())
            } else {
                Err(ValueError::new(ValueErrorKind::TrailingCharacters, rest))
            };
        }
        let escape_at = &body[at..];
        from = at + 2;
        match bytes.get(at + 1) {
            Some(b'"') => out.push('"'),
            Some(b'\\') => out.push('\\'),
            Some(b'n') => out.push('\n'),
            Some(b't') => out.push('\t'),
            Some(b'r') => out.push('\r'),
            Some(b'u') => {
                let rest = &body[at + 2..];
                let close = rest.find('}').filter(|_| rest.starts_with('{'));
                // Hex digits only: `from_str_radix` would also take a leading `+`.
                let c = close
                    .map(|end| &rest[1..end])
                    .filter(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()))
                    .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                    .and_then(char::from_u32)
                    .ok_or(ValueError::new(
                        ValueErrorKind::UnknownEscape('u'),
                        escape_at,
                    ))?;
                out.push(c);
                from = at + 2 + close.unwrap_or(0) + 1;
            }
            Some(_) => {
                let other = body[at + 1..].chars().next().unwrap_or('\\');
                return Err(ValueError::new(
                    ValueErrorKind::UnknownEscape(other),
                    escape_at,
                ));
            }
            None => return Err(ValueError::new(ValueErrorKind::UnterminatedQuote, line)),
        }
    }
}

/// Finds `line` among a unit enum's `variants`, ignoring ASCII case (the derive's
/// codec for unit enums calls it).
///
/// # Errors
/// [`ValueErrorKind::UnknownVariant`] when no variant matches.
pub fn decode_variant<'a>(line: &'a str, variants: &[&str]) -> Result<usize, ValueError<'a>> {
    variants
        .iter()
        .position(|v| v.eq_ignore_ascii_case(line))
        .ok_or(ValueError::new(ValueErrorKind::UnknownVariant, line))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A string that would read as a merge conflict marker line is quoted, so it reads
    /// back (as a value line it would be an error).
    #[test]
    fn conflict_marker_strings_are_quoted() {
        for s in ["=======", "<<<<<<<", ">>>>>>>", "|||||||"] {
            assert!(needs_quotes(s), "{s}");
            let mut out = String::new();
            s.to_owned().encode(&mut out);
            assert_eq!(out, format!("\"{s}\""));
        }
        assert!(!needs_quotes("========"));
    }

    #[test]
    fn quote_scan_matches_byte_loop() {
        // Every length up to 40, each byte drawn mostly from plain text, sometimes a
        // quote, a backslash, or a byte one away from them (0x21, 0x23, 0x5B, 0x5D).
        let mut next = crate::test_rng::bits();
        let alphabet = b"aZ09 /._\"\x21\x23\x5B\x5D\xC3\xA9\x80\xFF";
        for len in 0..=40 {
            for _ in 0..500 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        let r = next();
                        if r % 8 == 0 {
                            alphabet[(r >> 8) as usize % alphabet.len()]
                        } else {
                            b'a' + (r >> 8) as u8 % 26
                        }
                    })
                    .collect();
                let expected = bytes.iter().any(|&b| b == b'"' || b == b'\\');
                assert_eq!(has_quote_or_backslash(&bytes), expected, "{bytes:?}");
            }
        }
    }

    fn enc(s: &str) -> String {
        let mut out = String::new();
        s.to_owned().encode(&mut out);
        out
    }

    fn dec(text: &str) -> Result<String, (ValueErrorKind, String)> {
        String::decode(Value::from_text(text)).map_err(|e| (e.kind, e.found.to_owned()))
    }

    #[test]
    fn bare_and_quoted_forms() {
        assert_eq!(enc("Character_Mesh_Hero"), "Character_Mesh_Hero");
        assert_eq!(enc("Grand Citadel Knight"), "\"Grand Citadel Knight\"");
        assert_eq!(enc(""), "\"\"");
        assert_eq!(enc("#tag"), "\"#tag\"");
        assert_eq!(enc("a;b"), "\"a;b\"");
        assert_eq!(enc("//x"), "\"//x\"");
        assert_eq!(enc("[]"), "\"[]\"");
        assert_eq!(enc("say \"hi\"\n\t\\"), "\"say \\\"hi\\\"\\n\\t\\\\\"");
        assert_eq!(enc("nul\0"), "\"nul\\u{0}\"");
    }

    #[test]
    fn reads_both_forms_and_escapes() {
        assert_eq!(dec("Materials/M_Granite").unwrap(), "Materials/M_Granite");
        assert_eq!(
            dec("\"Grand Citadel Knight\"").unwrap(),
            "Grand Citadel Knight"
        );
        assert_eq!(
            dec("\"a\\\"b\\\\c\\nd\\te\\u{41}\"").unwrap(),
            "a\"b\\c\nd\teA"
        );
        assert_eq!(
            dec("\"é \\u{1F600}\\\"ü\\r\"  ").unwrap(),
            "é \u{1F600}\"ü\r"
        );
    }

    #[test]
    fn quote_errors() {
        assert_eq!(
            dec("\"open").unwrap_err().0,
            ValueErrorKind::UnterminatedQuote
        );
        assert_eq!(
            dec("\"bad \\q\"").unwrap_err(),
            (ValueErrorKind::UnknownEscape('q'), "\\q\"".into())
        );
        assert_eq!(
            dec("\"a\" b").unwrap_err(),
            (ValueErrorKind::TrailingCharacters, " b".into())
        );
        assert_eq!(
            dec("\"a\"b\"").unwrap_err(),
            (ValueErrorKind::TrailingCharacters, "b\"".into())
        );
        assert_eq!(
            dec("\"x\\u{ZZ}\"").unwrap_err().0,
            ValueErrorKind::UnknownEscape('u')
        );
        // Only hex digits between the braces: no sign, no empty escape.
        for bad in ["\"\\u{+41}\"", "\"\\u{-41}\"", "\"\\u{}\"", "\"\\u{ 41}\""] {
            assert_eq!(
                dec(bad).unwrap_err().0,
                ValueErrorKind::UnknownEscape('u'),
                "{bad}"
            );
        }
        assert_eq!(dec("\"\\u{041}\\u{6a}\"").unwrap(), "Aj");
        assert_eq!(
            dec("\"x\\").unwrap_err().0,
            ValueErrorKind::UnterminatedQuote
        );
    }

    #[test]
    fn decode_into_keeps_value_on_error() {
        let mut s = "keep".to_owned();
        assert!(s.decode_into(Value::from_text("\"broken")).is_err());
        assert_eq!(s, "keep");
        s.decode_into(Value::from_text("\"new text\"")).unwrap();
        assert_eq!(s, "new text");
        s.decode_into(Value::from_text("bare")).unwrap();
        assert_eq!(s, "bare");
        s.decode_into(Value::from_text("\"a longer text than before\""))
            .unwrap();
        assert_eq!(s, "a longer text than before");
        s.decode_into(Value::from_text("\"tab\\there\"")).unwrap();
        assert_eq!(s, "tab\there");
    }

    #[test]
    fn variants_case_insensitive() {
        assert_eq!(decode_variant("ICE", &["Fire", "Ice"]), Ok(1));
        assert!(decode_variant("Wind", &["Fire", "Ice"]).is_err());
    }
}

#[cfg(test)]
mod char_tests {
    use crate::codec::test_support::{dec, enc};
    use crate::error::ValueErrorKind;

    #[test]
    fn chars_are_one_character_strings() {
        for (c, text) in [
            ('x', "x"),
            ('é', "é"),
            (' ', "\" \""),
            ('#', "\"#\""),
            ('\n', "\"\\n\""),
        ] {
            assert_eq!(enc(c), text, "{c:?}");
        }
        for c in ['x', ' ', '#', '"', '\\', '\n', '~', ';', '\u{1F600}'] {
            assert_eq!(dec::<char>(&enc(c)), Ok(c), "{c:?}");
        }
        assert_eq!(dec::<char>("ab"), Err(ValueErrorKind::NotOneChar));
        assert_eq!(dec::<char>("\"\""), Err(ValueErrorKind::NotOneChar));
    }

    #[test]
    fn strings_and_chars_as_tokens_quote_commas_and_colons() {
        assert_eq!(
            enc(vec![vec!["a:b".to_owned(), ",".to_owned()]]),
            "\"a:b\" \",\""
        );
        assert_eq!(enc(vec![vec![',', 'x']]), "\",\" x");
        assert_eq!(dec::<Vec<Vec<char>>>("\",\" x"), Ok(vec![vec![',', 'x']]));
    }
}
