//! The codecs for maps and sets: `HashMap`/`BTreeMap` as one `key: value` line per
//! entry (a map of composites: a `- key` line before each record),
//! `HashSet`/`BTreeSet` as one element per line, both in key order so that a
//! save is stable whatever the hash order. An empty map is the line `{}`, an empty set
//! `[]`. A key written twice is an error at its second line.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::BuildHasher;

use super::inline::split_entry;
use super::item::{for_each_record, write_records};
use super::list::{element_lines, write_lines};
use super::{Codec, Item, MapKey, PropertyType, ITEM_MARK};
use crate::error::ValueErrorKind;
use crate::value::{Value, ValueError};

/// The value line that stands for an empty map.
pub const EMPTY_MAP: &str = "{}";

/// Writes `entries` (in key order) one `key: value` line each; `{}` when there are
/// none.
fn write_entries<'t, K: MapKey + 't, V: Item + 't>(
    out: &mut String,
    entries: impl ExactSizeIterator<Item = (&'t K, &'t V)>,
) {
    if V::RECORD {
        let entries: Vec<_> = entries.collect();
        let values = entries.iter().map(|(_, v)| *v);
        return write_records(out, values, EMPTY_MAP, |out, i| {
            out.push_str(ITEM_MARK);
            out.push(' ');
            entries[i].0.encode_token(out);
        });
    }
    if entries.len() == 0 {
        out.push_str(EMPTY_MAP);
    }
    for (i, (key, value)) in entries.enumerate() {
        if i > 0 {
            out.push('\n');
        }
        key.encode_token(out);
        out.push_str(": ");
        value.encode_item(out);
    }
}

/// Reads each entry of a map's value into `insert`, which says whether the key was
/// new: a `key: value` line each, or for records a `- key` line and the record's lines.
fn read_entries<'a, K: MapKey, V: Item>(
    value: Value<'a>,
    mut insert: impl FnMut(K, V) -> bool,
) -> Result<(), ValueError<'a>> {
    if value.is_only(EMPTY_MAP) {
        return Ok(());
    }
    let mut entry = |key_text: &'a str, item: V| -> Result<(), ValueError<'a>> {
        let key = K::decode_element(Value::from_text(key_text))?;
        match insert(key, item) {
            true => Ok(()),
            false => Err(ValueError::new(ValueErrorKind::DuplicateEntry, key_text)),
        }
    };
    if !V::RECORD {
        for line in value.lines() {
            let (key_text, value_text) = split_entry(line)
                .filter(|(k, v)| !k.is_empty() && !v.is_empty())
                .ok_or(ValueError::new(ValueErrorKind::ExpectedEntry, line))?;
            entry(key_text, V::decode_item(&[value_text])?)?;
        }
        return Ok(());
    }
    for_each_record(&value, |key_text, lines| {
        if key_text.is_empty() {
            return Err(ValueError::new(ValueErrorKind::ExpectedEntry, key_text));
        }
        // A record's `- key` line holds the key alone: one token.
        if super::inline::tokens(key_text).nth(1).is_some() {
            return Err(ValueError::new(
                ValueErrorKind::Custom(
                    "an entry of a map of records starts with `- key`, the key alone (quoted \
                     when it has a blank, `,` or `:`)"
                        .into(),
                ),
                key_text,
            ));
        }
        entry(key_text, V::decode_item(lines)?)
    })
}

/// Whether two maps of `len` and `other_len` entries hold the same values
/// ([`Codec::same_value`]) under the same keys: `entries` are one's, `get` looks a key up
/// in the other.
fn same_entries<'t, K: 't, V: Item + 't>(
    len: usize,
    other_len: usize,
    mut entries: impl Iterator<Item = (&'t K, &'t V)>,
    get: impl Fn(&K) -> Option<&'t V>,
) -> bool {
    len == other_len && entries.all(|(k, v)| get(k).is_some_and(|w| v.same_item(w)))
}

/// Reads each element line of a set's value into `insert`, which says whether the
/// element was new.
fn read_elements<'a, K: MapKey>(
    value: Value<'a>,
    mut insert: impl FnMut(K) -> bool,
) -> Result<(), ValueError<'a>> {
    for line in element_lines(value) {
        if !insert(K::decode_element(Value::one_line(line))?) {
            return Err(ValueError::new(ValueErrorKind::DuplicateEntry, line));
        }
    }
    Ok(())
}

impl<K: MapKey, V: Item + PartialEq, S: BuildHasher + Default + Clone + 'static> Codec
    for HashMap<K, V, S>
{
    const PROPERTY_TYPE: PropertyType = PropertyType::Map(&K::PROPERTY_TYPE, &V::ITEM_TYPE);

    fn encode(&self, out: &mut String) {
        let mut entries: Vec<(&K, &V)> = self.iter().collect();
        entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
        write_entries(out, entries.into_iter());
    }

    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let mut map = HashMap::with_capacity_and_hasher(value.line_count(), S::default());
        read_entries(value, |k, v| map.insert(k, v).is_none())?;
        Ok(map)
    }

    fn same_value(&self, other: &Self) -> bool {
        same_entries(self.len(), other.len(), self.iter(), |k| other.get(k))
    }
}

impl<K: MapKey, V: Item + PartialEq> Codec for BTreeMap<K, V> {
    const PROPERTY_TYPE: PropertyType = PropertyType::Map(&K::PROPERTY_TYPE, &V::ITEM_TYPE);

    fn encode(&self, out: &mut String) {
        write_entries(out, self.iter());
    }

    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let mut map = BTreeMap::new();
        read_entries(value, |k, v| map.insert(k, v).is_none())?;
        Ok(map)
    }

    fn same_value(&self, other: &Self) -> bool {
        same_entries(self.len(), other.len(), self.iter(), |k| other.get(k))
    }
}

impl<K: MapKey, S: BuildHasher + Default + Clone + 'static> Codec for HashSet<K, S> {
    const PROPERTY_TYPE: PropertyType = PropertyType::Set(&K::PROPERTY_TYPE);

    fn encode(&self, out: &mut String) {
        let mut items: Vec<&K> = self.iter().collect();
        items.sort_unstable();
        write_lines(out, items.into_iter());
    }

    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let mut set = HashSet::with_capacity_and_hasher(value.line_count(), S::default());
        read_elements(value, |k| set.insert(k))?;
        Ok(set)
    }
}

impl<K: MapKey> Codec for BTreeSet<K> {
    const PROPERTY_TYPE: PropertyType = PropertyType::Set(&K::PROPERTY_TYPE);

    fn encode(&self, out: &mut String) {
        write_lines(out, self.iter());
    }

    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let mut set = BTreeSet::new();
        read_elements(value, |k| set.insert(k))?;
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::test_support::{dec, enc};

    #[test]
    fn maps_are_one_sorted_entry_a_line() {
        let map: HashMap<String, f32> = [
            ("zed".to_owned(), 1.0),
            ("big rock".to_owned(), 2.5),
            ("a:b".to_owned(), -1.0),
        ]
        .into_iter()
        .collect();
        let text = enc(map.clone());
        assert_eq!(text, "\"a:b\": -1.0\n\"big rock\": 2.5\nzed: 1.0");
        assert_eq!(dec::<HashMap<String, f32>>(&text), Ok(map));
        let ints: BTreeMap<i32, Vec<u8>> = [(10, vec![1, 2]), (-3, vec![])].into_iter().collect();
        assert_eq!(enc(ints.clone()), "-3: []\n10: 1 2");
        assert_eq!(dec::<BTreeMap<i32, Vec<u8>>>("10: 1, 2\n-3: []"), Ok(ints));
        assert_eq!(enc(BTreeMap::<u8, u8>::new()), "{}");
        assert_eq!(dec::<BTreeMap<u8, u8>>("{}"), Ok(BTreeMap::new()));
    }

    #[test]
    fn sets_are_one_sorted_element_a_line() {
        let set: HashSet<u32> = [30, 1, 200].into_iter().collect();
        assert_eq!(enc(set.clone()), "1\n30\n200");
        assert_eq!(dec::<HashSet<u32>>("200\n1\n30"), Ok(set));
        assert_eq!(enc(BTreeSet::<String>::new()), "[]");
        assert_eq!(dec::<BTreeSet<String>>("[]"), Ok(BTreeSet::new()));
    }

    #[test]
    fn a_key_twice_or_a_line_without_colon_is_an_error_at_that_text() {
        let text = "a: 1\nb: 2\na: 3";
        let err = BTreeMap::<String, i32>::decode(Value::from_text(text)).unwrap_err();
        assert_eq!((err.kind, err.found), (ValueErrorKind::DuplicateEntry, "a"));
        assert_eq!(err.found.as_ptr(), text[10..].as_ptr());
        for line in ["a 1", ": 1", "gold:", "gold: "] {
            let err = BTreeMap::<String, i32>::decode(Value::from_text(line)).unwrap_err();
            assert_eq!(err.kind, ValueErrorKind::ExpectedEntry, "{line:?}");
        }
        let err = BTreeSet::<i32>::decode(Value::from_text("1\n1")).unwrap_err();
        assert_eq!(err.kind, ValueErrorKind::DuplicateEntry);
    }
}
