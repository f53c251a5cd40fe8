//! Several tokens on one value line: how an array or list of [`Token`](super::Token)s
//! and a map entry are written inside one line. Tokens are separated by blanks and/or
//! commas; a token that starts with `"` runs to its closing quote (a `\` escapes the
//! next character), so a quoted string keeps its blanks, commas and colons.

/// Whether `b` separates tokens on a line: a blank or a comma.
#[inline]
fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b',')
}

/// The end of the token that starts at `start` in `bytes`: the next separator outside
/// quotes, or the end (an unterminated quote runs to the end, and its decoder reports
/// it).
fn token_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start;
    let mut quoted = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quoted => i += 1,
            b'"' => quoted = !quoted,
            b if !quoted && is_separator(b) => break,
            _ => {}
        }
        i += 1;
    }
    i.min(bytes.len())
}

/// The tokens of `line`, in order: slices of it, so that a decoder's error points at
/// its token's column. What the array codec and an inner list read.
///
/// ```
/// let tokens: Vec<&str> = juliet_core::tokens("1, 2 \"a b\"").collect();
/// assert_eq!(tokens, ["1", "2", "\"a b\""]);
/// ```
pub fn tokens(line: &str) -> impl Iterator<Item = &str> + '_ {
    let bytes = line.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() && is_separator(bytes[at]) {
            at += 1;
        }
        if at == bytes.len() {
            return None;
        }
        let start = at;
        at = token_end(bytes, start);
        // Separators and quotes are ASCII: both ends are character boundaries.
        Some(&line[start..at])
    })
}

/// `line` split at its first `:` outside quotes into the key's and the value's text,
/// both trimmed; `None` without such a colon. What the map codecs read an entry with.
///
/// ```
/// assert_eq!(juliet_core::split_entry("\"a:b\": 2"), Some(("\"a:b\"", "2")));
/// ```
pub fn split_entry(line: &str) -> Option<(&str, &str)> {
    let bytes = line.as_bytes();
    let mut quoted = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quoted => i += 1,
            b'"' => quoted = !quoted,
            b':' if !quoted => return Some((trim_blanks(&line[..i]), trim_blanks(&line[i + 1..]))),
            _ => {}
        }
        i += 1;
    }
    None
}

/// `text` without the spaces and tabs at either end.
#[inline]
fn trim_blanks(text: &str) -> &str {
    let bytes = text.as_bytes();
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let start = bytes.iter().position(|b| !blank(b)).unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !blank(b))
        .map_or(start, |i| i + 1);
    &text[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_at_blanks_and_commas_outside_quotes() {
        let got: Vec<&str> = tokens(" 1, 2\t3 ,,\"a b, c\" \"x\\\" y\" z").collect();
        assert_eq!(got, ["1", "2", "3", "\"a b, c\"", "\"x\\\" y\"", "z"]);
        assert_eq!(tokens("").count(), 0);
        assert_eq!(tokens("\"open ended").collect::<Vec<_>>(), ["\"open ended"]);
    }

    #[test]
    fn entries_split_at_the_first_colon_outside_quotes() {
        assert_eq!(split_entry("hp: 10"), Some(("hp", "10")));
        assert_eq!(split_entry("\"a: b\": c: d"), Some(("\"a: b\"", "c: d")));
        assert_eq!(split_entry("no colon"), None);
        assert_eq!(split_entry("\"a:b\""), None);
    }
}
