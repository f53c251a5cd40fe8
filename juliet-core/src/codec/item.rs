//! What a list, a map or an `Option` may hold besides one-line values: a *composite*
//! (`#[derive(Codec)]` on a struct), written as a *record*: one `Key: value` line per
//! leaf, nested composites by their path (`Stats.Hp: 40.0`). Two traits, because a
//! composite is not a [`Codec`] (it is a group of properties when it is a field):
//!
//! * [`Item`], what a `Vec` and a map's value hold: every [`Element`] (one line),
//!   every composite whose leaves are elements and every enum with data whose fields
//!   are (its record is the variant's name, then its fields' `Field: value` lines; as a
//!   composite's leaf, `Trigger: OnTouch` then `Trigger.Radius: 2.5`). A list of
//!   records starts each element with a `-` line, a map of records each entry with a
//!   `- key` line:
//!
//!   ```text
//!   ; Waypoints
//!   -
//!   Pos: 0.0 0.0 0.0
//!   Wait: 0.5
//!   -
//!   Pos: 4.0 0.0 0.0
//!   Wait: 1.0
//!   ```
//! * [`Optional`], what an `Option` holds: every [`Codec`] and every composite
//!   (`~` for `None`, else the record's lines).
//!
//! A leaf a record does not write keeps the composite's default; a key twice is
//! `DuplicateEntry`; a key the composite has no leaf for is an error naming its leaves.

use super::inline::split_entry;
use super::{Codec, Element, PropertyType, BYTES};
use crate::error::ValueErrorKind;
use crate::token::same_bytes;
use crate::value::{Value, ValueError};

/// The line that opens each element of a list of records; in a map of records, `- key`
/// opens each entry.
pub const ITEM_MARK: &str = "-";

/// A value a `Vec` or a map holds: an [`Element`] (one line), a composite (a record,
/// one `Key: value` line per leaf) or an enum with data (its variant's name, then one
/// `Field: value` line per field of that variant). Every `Element` is one;
/// `#[derive(Codec)]` on a struct or an enum makes it one when each of its leaves or
/// fields is an `Element` or a composite (a game implements neither side by hand).
///
/// ```
/// use juliet_core::{Codec, Value};
///
/// #[derive(juliet_derive::Codec, Clone, Default, PartialEq, Debug)]
/// # #[jasset(crate = ::juliet_core)]
/// struct Waypoint { pos: glam::Vec3, wait: f32 }
///
/// let route = vec![Waypoint { pos: glam::Vec3::X, wait: 0.5 }];
/// let mut text = String::new();
/// route.encode(&mut text);
/// assert_eq!(text, "-\nPos: 1.0 0.0 0.0\nWait: 0.5");
/// assert_eq!(Vec::<Waypoint>::decode(Value::from_text(&text)).unwrap(), route);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an element of a list or a map's value in a .jasset file",
    label = "a list or map of this type has no .jasset form",
    note = "elements are one-line values (numbers, strings, vectors, lists of tokens, ...), composites (`#[derive(Codec)]` on a struct, also `Default`) whose leaves are one-line values, and enums with data whose fields are: a composite with a leaf of several lines (a list of lists, a map) is a field, not an element"
)]
pub trait Item: Clone + 'static {
    /// The type as the reflection table reports it.
    const ITEM_TYPE: PropertyType;

    /// Whether the item is a record (`Key: value` lines) rather than one line.
    const RECORD: bool;

    /// Appends the item: its one line, or its record's lines separated by `\n`; no
    /// trailing newline.
    fn encode_item(&self, out: &mut String);

    /// Reads an item from its lines: exactly one for an element, the record's lines
    /// (any number, any order) for a composite.
    ///
    /// # Errors
    /// As [`Codec::decode`], at the text at fault.
    fn decode_item<'a>(lines: &[&'a str]) -> Result<Self, ValueError<'a>>;

    /// Appends one `\npath: value` line per leaf (each line starts with `\n`), `path`
    /// being the leaf's path from the record (a composite appends `.Leaf` to it).
    fn encode_entries(&self, path: &mut String, out: &mut String);

    /// Reads one record line into the leaf at `path` (relative to `self`; `""` is
    /// `self`).
    ///
    /// # Errors
    /// As [`Codec::decode`]; a path with no leaf is a [`ValueErrorKind::Custom`] at
    /// `key`, the line's key as written.
    fn decode_entry<'a>(
        &mut self,
        path: &'a str,
        key: &'a str,
        text: &'a str,
    ) -> Result<(), ValueError<'a>>;

    /// Whether two items are the same value ([`Codec::same_value`], leaf by leaf).
    fn same_item(&self, other: &Self) -> bool;

    /// Reads the item from the start of `text` (a block's value lines in the writer's
    /// canonical form, `\n` between them) when its lines are exactly the ones the
    /// writer writes in that place: an element the line `key: value`, a composite
    /// (`key` empty) one such line per leaf in declaration order. The item and the
    /// text after its lines; `None` for anything else, a value that does not read
    /// included: the caller then reads the text the general way
    /// ([`Item::decode_entry`]), which reports it. The composites `#[derive(Codec)]`
    /// makes whose leaves are elements take this path; other items do not (`None`).
    #[doc(hidden)]
    #[inline]
    fn read_written<'t>(key: &str, text: &'t str) -> Option<(Self, &'t str)> {
        let _ = (key, text);
        None
    }
}

impl<T: Element> Item for T {
    const ITEM_TYPE: PropertyType = T::PROPERTY_TYPE;
    const RECORD: bool = false;

    #[inline(always)]
    fn encode_item(&self, out: &mut String) {
        self.encode_element(out);
    }

    #[inline(always)]
    fn decode_item<'a>(lines: &[&'a str]) -> Result<Self, ValueError<'a>> {
        match lines {
            [line] => T::decode_element(Value::one_line(line)),
            _ => Err(ValueError::new(
                ValueErrorKind::ExpectedOneLine(lines.len()),
                lines.get(1).copied().unwrap_or(""),
            )),
        }
    }

    fn encode_entries(&self, path: &mut String, out: &mut String) {
        out.push('\n');
        out.push_str(path);
        out.push_str(": ");
        self.encode_element(out);
    }

    fn decode_entry<'a>(
        &mut self,
        path: &'a str,
        key: &'a str,
        text: &'a str,
    ) -> Result<(), ValueError<'a>> {
        if !path.is_empty() {
            return Err(ValueError::new(
                ValueErrorKind::Custom(format!("`{key}`: this value has no leaf `{path}`")),
                key,
            ));
        }
        *self = T::decode_element(Value::one_line(text))?;
        Ok(())
    }

    fn same_item(&self, other: &Self) -> bool {
        self.same_value(other)
    }

    #[inline(always)]
    fn read_written<'t>(key: &str, text: &'t str) -> Option<(Self, &'t str)> {
        // An element is a leaf of a record, never a record of its own (`key` empty).
        // The key, `: `, then the value line's first byte: not blank, not its end.
        let n = key.len();
        let head = text.as_bytes().get(..n + 3)?;
        if n == 0
            || !same_bytes(&head[..n], key.as_bytes())
            || head[n..n + 2] != *b": "
            || matches!(head[n + 2], b' ' | b'\t' | b'\n')
        {
            return None;
        }
        let rest = text.get(n + 2..)?;
        let end = line_len(rest.as_bytes());
        let value = T::decode_element(Value::line_of(rest, end)).ok()?;
        Some((value, rest.get(end + 1..).unwrap_or_default()))
    }
}

/// The length of the first line of `text` (up to its `\n` or the end). Value lines are
/// short: the first 8 bytes are searched as one word, with no branch a byte; a loop,
/// not a search, goes on from there.
#[inline(always)]
fn line_len(text: &[u8]) -> usize {
    if let Some(word) = text.first_chunk::<8>().map(|w| u64::from_le_bytes(*w)) {
        // The top bit of each byte that is not `\n` (no carry between bytes).
        let other = word ^ (BYTES * u64::from(b'\n'));
        let other = ((other & (BYTES * 0x7F)) + BYTES * 0x7F) | other;
        let newlines = !other & (BYTES * 0x80);
        if newlines != 0 {
            return (newlines.trailing_zeros() / 8) as usize;
        }
        return 8 + text[8..]
            .iter()
            .position(|&b| b == b'\n')
            .unwrap_or(text.len() - 8);
    }
    text.iter().position(|&b| b == b'\n').unwrap_or(text.len())
}

/// A value an `Option` holds: every [`Codec`] (written in its own form) and every
/// composite (its record's lines). `None` is `~`, which neither writes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be held by an `Option` in a .jasset file",
    label = "`Option<{Self}>` has no .jasset form",
    note = "an `Option` holds a type with a codec, or a composite (`#[derive(Codec)]` on a struct, also `Default`) whose leaves are one-line values: a composite with a leaf of several lines (a list of lists, a map) is a field, not an option"
)]
pub trait Optional: Clone + 'static {
    /// Appends the value's lines ([`Codec::encode`], or a record's lines).
    fn encode_some(&self, out: &mut String);

    /// Reads a value ([`Codec::decode`], or a record).
    ///
    /// # Errors
    /// As [`Codec::decode`].
    fn decode_some(value: Value<'_>) -> Result<Self, ValueError<'_>>;

    /// Reads a value into `self` ([`Codec::decode_into`]).
    ///
    /// # Errors
    /// As [`Codec::decode`]; on error `self` is unchanged.
    fn decode_some_into<'a>(&mut self, value: Value<'a>) -> Result<(), ValueError<'a>> {
        *self = Self::decode_some(value)?;
        Ok(())
    }

    /// Whether two values are the same ([`Codec::same_value`]).
    fn same_some(&self, other: &Self) -> bool;

    /// The type as the reflection table reports it (what `Option<Self>` holds).
    const OPTIONAL_TYPE: PropertyType;
}

impl<T: Codec> Optional for T {
    const OPTIONAL_TYPE: PropertyType = T::PROPERTY_TYPE;

    #[inline(always)]
    fn encode_some(&self, out: &mut String) {
        self.encode(out);
    }

    #[inline(always)]
    fn decode_some(value: Value<'_>) -> Result<Self, ValueError<'_>> {
        T::decode(value)
    }

    #[inline(always)]
    fn decode_some_into<'a>(&mut self, value: Value<'a>) -> Result<(), ValueError<'a>> {
        self.decode_into(value)
    }

    fn same_some(&self, other: &Self) -> bool {
        self.same_value(other)
    }
}

/// Appends a record's lines ([`Item::encode_entries`] without the first `\n`).
pub fn write_record<T: Item>(record: &T, out: &mut String) {
    let start = out.len();
    record.encode_entries(&mut String::new(), out);
    if out[start..].starts_with('\n') {
        out.remove(start);
    }
}

/// A record read from `lines` over the composite's default (`read_record`).
///
/// # Errors
/// As `read_record`: `ExpectedEntry`, `DuplicateEntry` and the leaves' own errors.
pub fn decode_record<'a, T: Item + Default>(lines: &[&'a str]) -> Result<T, ValueError<'a>> {
    let mut record = T::default();
    read_record(&mut record, lines)?;
    Ok(record)
}

/// A record read from a whole value (an `Option`'s), as [`decode_record`].
///
/// # Errors
/// As `read_record`: `ExpectedEntry`, `DuplicateEntry` and the leaves' own errors.
pub fn decode_record_value<T: Item + Default>(value: Value<'_>) -> Result<T, ValueError<'_>> {
    let lines: Vec<&str> = value.lines().collect();
    decode_record(&lines)
}

/// Reads a record's `Key: value` lines into `record` (the composite's default, or the
/// value it had), each key a path from the record (`Stats.Hp`).
///
/// # Errors
/// [`ValueErrorKind::ExpectedEntry`] for a line without `:` or with nothing on one
/// side, [`ValueErrorKind::DuplicateEntry`] for a key twice (ASCII case and `_`
/// ignored), and the leaf's own errors.
pub(crate) fn read_record<'a, T: Item>(
    record: &mut T,
    lines: &[&'a str],
) -> Result<(), ValueError<'a>> {
    // The keys read so far, for the duplicate check, on the stack: a record has a few
    // lines (past `SEEN`, the earlier lines' keys are split again).
    const SEEN: usize = 8;
    let mut seen: [&str; SEEN] = [""; SEEN];
    for (i, line) in lines.iter().enumerate() {
        let (key, text) = match record_line(line) {
            Some(entry) => entry,
            None => any_record_line(line)?,
        };
        let twice = match i < SEEN {
            true => seen[..i]
                .iter()
                .any(|k| *k == key || crate::crc::keys_equal(k, key)),
            false => (lines[..i].iter().filter_map(|l| split_entry(l)))
                .any(|(k, _)| crate::crc::keys_equal(k, key)),
        };
        if twice {
            return Err(ValueError::new(ValueErrorKind::DuplicateEntry, key));
        }
        if i < SEEN {
            seen[i] = key;
        }
        record.decode_entry(key, key, text)?;
    }
    Ok(())
}

/// A record line as the writer writes it, `Key: value` (a record key, as
/// [`crate::crc::is_record_key`] has them, one space after the colon, a value that does not start
/// with a blank): its key and value; `None` for any other line, which
/// [`any_record_line`] reads.
#[inline]
fn record_line(line: &str) -> Option<(&str, &str)> {
    let bytes = line.as_bytes();
    if !matches!(bytes.first(), Some(b) if b.is_ascii_alphanumeric() || *b == b'_') {
        return None;
    }
    // One pass over the key: its bytes, and no segment empty.
    let mut dot = false;
    let mut colon = bytes.len();
    for (i, &b) in bytes.iter().enumerate().skip(1) {
        if b == b'.' {
            if dot {
                return None;
            }
            dot = true;
        } else if b.is_ascii_alphanumeric() || b == b'_' {
            dot = false;
        } else {
            colon = i;
            break;
        }
    }
    match (bytes.get(colon), bytes.get(colon + 1), bytes.get(colon + 2)) {
        (Some(b':'), Some(b' '), Some(&first)) if !dot && first != b' ' && first != b'\t' => {
            Some((&line[..colon], &line[colon + 2..]))
        }
        _ => None,
    }
}

/// A record line in any form `split_entry` reads (blanks around the colon, none after
/// it): its key and value.
///
/// # Errors
/// [`ValueErrorKind::ExpectedEntry`] for a line without `:` or with nothing on one side,
/// and an error at the key when it is not identifiers joined by `.`.
#[cold]
fn any_record_line(line: &str) -> Result<(&str, &str), ValueError<'_>> {
    let (key, text) = split_entry(line)
        .filter(|(k, v)| !k.is_empty() && !v.is_empty())
        .ok_or(ValueError::new(ValueErrorKind::ExpectedEntry, line))?;
    if !crate::crc::is_record_key(key) {
        return Err(ValueError::new(
            ValueErrorKind::Custom(format!(
                "`{key}` is not a leaf's key: keys are ASCII letters, digits and `_` (a \
                 tuple struct's leaves are `0`, `1`, ...), joined by `.` for a nested \
                 composite's leaves (`Stats.Hp`)"
            )),
            key,
        ));
    }
    Ok((key, text))
}

/// The first segment of a record key's path and the rest (`"Stats.Hp"` gives
/// `("Stats", "Hp")`, `"Hp"` gives `("Hp", "")`).
#[inline]
pub fn split_path(path: &str) -> (&str, &str) {
    // Keys are a few bytes: a loop, not a search.
    match path.bytes().position(|b| b == b'.') {
        Some(i) => (&path[..i], &path[i + 1..]),
        None => (path, ""),
    }
}

/// The error for a record key `key` whose segment `segment` is not one of `leaves`.
#[cold]
pub fn no_such_leaf<'a>(key: &'a str, segment: &str, leaves: &[&str]) -> ValueError<'a> {
    if segment.is_empty() {
        let example = format!("{key}.{}", leaves.first().copied().unwrap_or_default());
        return ValueError::new(
            ValueErrorKind::Custom(format!(
                "`{key}` is a composite: write each of its leaves ({}) as its own line, such as `{example}: ...`",
                leaves.join(", ")
            )),
            key,
        );
    }
    let hint = crate::suggest::did_you_mean(segment, leaves.iter().copied())
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default();
    ValueError::new(
        ValueErrorKind::Custom(format!(
            "no leaf `{segment}`{hint}: the leaves here are {}",
            leaves.join(", ")
        )),
        key,
    )
}

/// Appends the records `items`, each after the line `mark` writes for its index;
/// `empty` when there are none.
pub(super) fn write_records<'t, T: Item + 't>(
    out: &mut String,
    items: impl ExactSizeIterator<Item = &'t T>,
    empty: &str,
    mut mark: impl FnMut(&mut String, usize),
) {
    if items.len() == 0 {
        out.push_str(empty);
    }
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push('\n');
        }
        mark(out, i);
        out.push('\n');
        item.encode_item(out);
    }
}

/// Calls `each` with each group of a list or map of records: the text after its `-`
/// (or `- key`) line (`""` for a list) and the record lines up to the next mark.
///
/// # Errors
/// A [`ValueErrorKind::Custom`] at the first line when it is not a mark, and the
/// errors of `each`.
pub(super) fn for_each_record<'a>(
    value: &Value<'a>,
    mut each: impl FnMut(&'a str, &[&'a str]) -> Result<(), ValueError<'a>>,
) -> Result<(), ValueError<'a>> {
    let mut mark: Option<&'a str> = None;
    let mut lines = RecordLines::default();
    for line in value.lines() {
        match mark_of(line) {
            Some(rest) => {
                if let Some(previous) = mark.replace(rest) {
                    each(previous, lines.as_slice())?;
                }
                lines.clear();
            }
            _ if mark.is_none() => {
                return Err(ValueError::new(
                    ValueErrorKind::Custom(
                        "each element of a list of records starts with a `-` line \
                         (a map's entry with `- key`)"
                            .into(),
                    ),
                    line,
                ))
            }
            _ => lines.push(line),
        }
    }
    match mark {
        Some(last) => each(last, lines.as_slice()),
        None => Ok(()),
    }
}

/// The lines of one record: on the stack while there are a few.
#[derive(Default)]
struct RecordLines<'a> {
    few: [&'a str; 8],
    len: usize,
    more: Vec<&'a str>,
}

impl<'a> RecordLines<'a> {
    #[inline]
    fn push(&mut self, line: &'a str) {
        if self.len < self.few.len() {
            self.few[self.len] = line;
        } else {
            if self.more.is_empty() {
                self.more.extend_from_slice(&self.few);
            }
            self.more.push(line);
        }
        self.len += 1;
    }

    #[inline]
    fn clear(&mut self) {
        self.len = 0;
        self.more.clear();
    }

    #[inline]
    fn as_slice(&self) -> &[&'a str] {
        match self.len <= self.few.len() {
            true => &self.few[..self.len],
            false => &self.more,
        }
    }
}

/// The text after the mark of a `-` or `- key` line; `None` for another line.
#[inline]
pub(super) fn mark_of(line: &str) -> Option<&str> {
    let rest = line.strip_prefix(ITEM_MARK)?;
    (rest.is_empty() || rest.starts_with([' ', '\t'])).then(|| rest.trim_start_matches([' ', '\t']))
}

/// The groups of a list or map of records (as `for_each_record` walks them), collected.
///
/// ```
/// use juliet_core::{record_groups, Value};
///
/// let groups = record_groups(&Value::from_text("- orc\nCount: 1\n- elf")).unwrap();
/// assert_eq!(groups, [("orc", vec!["Count: 1"]), ("elf", vec![])]);
/// ```
///
/// # Errors
/// A [`ValueErrorKind::Custom`] at the first line when it is not a mark.
pub fn record_groups<'a>(
    value: &Value<'a>,
) -> Result<Vec<(&'a str, Vec<&'a str>)>, ValueError<'a>> {
    let mut groups = Vec::new();
    for_each_record(value, |mark, lines| {
        groups.push((mark, lines.to_vec()));
        Ok(())
    })?;
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record that takes any key: what it read, in order.
    #[derive(Clone, Default, Debug)]
    struct Bag(Vec<String>);

    impl Item for Bag {
        const ITEM_TYPE: PropertyType = PropertyType::Custom("bag");
        const RECORD: bool = true;
        fn encode_item(&self, _: &mut String) {}
        fn decode_item<'a>(lines: &[&'a str]) -> Result<Self, ValueError<'a>> {
            decode_record(lines)
        }
        fn encode_entries(&self, _: &mut String, _: &mut String) {}
        fn decode_entry<'a>(
            &mut self,
            path: &'a str,
            _: &'a str,
            text: &'a str,
        ) -> Result<(), ValueError<'a>> {
            self.0.push(format!("{path}={text}"));
            Ok(())
        }
        fn same_item(&self, _: &Self) -> bool {
            true
        }
    }

    #[test]
    fn a_key_twice_is_found_before_and_past_the_keys_kept_on_the_stack() {
        for n in [3usize, 7, 8, 9, 40] {
            let mut lines: Vec<String> = (0..n).map(|i| format!("Key{i}: {i}")).collect();
            let all: Vec<&str> = lines.iter().map(String::as_str).collect();
            assert_eq!(Bag::decode_item(&all).unwrap().0.len(), n);
            // The last line repeats the first key in another spelling.
            lines.push("key_0: again".to_owned());
            let all: Vec<&str> = lines.iter().map(String::as_str).collect();
            let err = Bag::decode_item(&all).unwrap_err();
            assert_eq!(
                (err.kind, err.found),
                (ValueErrorKind::DuplicateEntry, "key_0")
            );
        }
    }

    #[test]
    fn the_writers_record_lines_are_split_without_a_search_and_others_fall_back() {
        assert_eq!(record_line("Stats.Hp: 40.0"), Some(("Stats.Hp", "40.0")));
        assert_eq!(record_line("Label: \"a: b\""), Some(("Label", "\"a: b\"")));
        // Not the writer's form: left to `split_entry`, which reads them the same.
        for line in ["Hp:1", "Hp :1", "Hp:  1", ": 1", "\"a\": 1", "- orc"] {
            assert_eq!(record_line(line), None, "{line:?}");
        }
        let lines = ["Hp:1", "Armor :  2"];
        let read: Bag = decode_record(&lines).unwrap();
        assert_eq!(read.0, ["Hp=1", "Armor=2"]);
        assert_eq!(record_line("_a.B2: 1"), Some(("_a.B2", "1")));
        assert_eq!(record_line("Trigger.0: 4"), Some(("Trigger.0", "4")));
        // Keys that are not identifiers joined by `.` take the other path, which refuses
        // them at the key.
        assert_eq!(record_line("0: 1.5"), Some(("0", "1.5")));
        for line in [".Hp: 1", "Stats..Hp: 1", "Stats.: 1", "Hp-x: 1"] {
            assert_eq!(record_line(line), None, "{line:?}");
            let e = decode_record::<Bag>(&[line]).unwrap_err();
            assert!(
                matches!(e.kind, ValueErrorKind::Custom(_)),
                "{line:?}: {e:?}"
            );
        }
    }

    #[test]
    fn a_record_of_more_lines_than_the_stack_holds_is_read_whole() {
        let mut text = String::from("-\n");
        for i in 0..20 {
            text.push_str(&format!("Key{i}: {i}\n"));
        }
        text.push_str("-\nLast: 1");
        let groups = record_groups(&Value::from_text(&text)).unwrap();
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].1.len(), 20);
        assert_eq!(groups[0].1[19], "Key19: 19");
        assert_eq!(groups[1].1, ["Last: 1"]);
    }

    #[test]
    fn marks_split_lists_and_maps_of_records() {
        assert_eq!(mark_of("-"), Some(""));
        assert_eq!(mark_of("-  orc"), Some("orc"));
        assert_eq!(mark_of("-5"), None, "a negative number is not a mark");
        assert_eq!(mark_of("Hp: 1"), None);
        let value = Value::from_text("-\nA: 1\n-\n-\nB: 2");
        let groups = record_groups(&value).unwrap();
        assert_eq!(
            groups,
            [("", vec!["A: 1"]), ("", vec![]), ("", vec!["B: 2"])]
        );
        let err = record_groups(&Value::from_text("A: 1\n-")).unwrap_err();
        assert_eq!(err.found, "A: 1");
    }
}
