//! The codec for `Vec<T>`: one element per value line, or for a list of composites
//! one record after each `-` line ([`super::Item`]); an empty list is the single line
//! `[]`. A list of [`Token`]s is also an [`Element`]: as an element of another
//! list it is written on one line, its tokens separated by one space.

use super::inline::tokens;
use super::item::{for_each_record, write_records};
use super::{Codec, Element, Item, PropertyType, Token};
use crate::error::ValueErrorKind;
use crate::value::{Value, ValueError};

/// The value line that stands for an empty list (and an empty set).
pub const EMPTY_LIST: &str = "[]";

/// Writes one-line `items` one per line ([`Item::encode_item`]); `[]` when there are
/// none.
pub(super) fn write_lines<'t, T: Item + 't>(
    out: &mut String,
    items: impl ExactSizeIterator<Item = &'t T>,
) {
    if items.len() == 0 {
        out.push_str(EMPTY_LIST);
    }
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push('\n');
        }
        item.encode_item(out);
    }
}

/// The value lines of a list or set: none for the single line `[]`.
pub(super) fn element_lines<'a>(value: Value<'a>) -> impl Iterator<Item = &'a str> + 'a {
    let empty = value.is_only(EMPTY_LIST);
    value.lines().filter(move |_| !empty)
}

impl<T: Item + PartialEq> Codec for Vec<T> {
    const PROPERTY_TYPE: PropertyType = PropertyType::List(&T::ITEM_TYPE);

    fn encode(&self, out: &mut String) {
        if T::RECORD {
            write_records(out, self.iter(), EMPTY_LIST, |out, _| {
                out.push_str(super::ITEM_MARK);
            });
        } else {
            write_lines(out, self.iter());
        }
    }

    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let mut out = Vec::new();
        out.decode_into(value)?;
        Ok(out)
    }

    fn decode_into<'a>(&mut self, value: Value<'a>) -> Result<(), ValueError<'a>> {
        if T::RECORD {
            *self = read_records(value)?;
            return Ok(());
        }
        let mut items = Vec::with_capacity(value.line_count());
        for line in element_lines(value) {
            items.push(T::decode_item(&[line])?);
        }
        *self = items;
        Ok(())
    }

    fn same_value(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a.same_item(b))
    }
}

/// A list of records: `[]`, or a `-` line before each record's lines.
fn read_records<'a, T: Item>(value: Value<'a>) -> Result<Vec<T>, ValueError<'a>> {
    if value.is_only(EMPTY_LIST) {
        return Ok(Vec::new());
    }
    if let Some(items) = value.canonical_text().and_then(read_written::<T>) {
        return Ok(items);
    }
    let mut items = Vec::new();
    for_each_record(&value, |after, lines| {
        if !after.is_empty() {
            return Err(ValueError::new(
                ValueErrorKind::Custom(
                    "an element of a list of records starts with a `-` line alone (`- key` \
                     starts an entry of a map)"
                        .into(),
                ),
                after,
            ));
        }
        items.push(T::decode_item(lines)?);
        Ok(())
    })?;
    Ok(items)
}

/// A list of records as the writer writes it (`text`, its lines in canonical form): a
/// `-` line, then the record's lines as [`Item::read_written`] reads them, for each
/// element. `None` for any other text, which [`read_records`] reads line by line.
fn read_written<T: Item>(mut text: &str) -> Option<Vec<T>> {
    // A list written as records has one at least (an empty one is `[]`).
    let mut items = Vec::with_capacity(4);
    while !text.is_empty() {
        text = match text.strip_prefix(super::ITEM_MARK)? {
            "" => "",
            rest => rest.strip_prefix('\n')?,
        };
        let (item, rest) = T::read_written("", text)?;
        items.push(item);
        text = rest;
    }
    Some(items)
}

/// A list of tokens on one line, as an element of a list (`Vec<Vec<f32>>`: one inner
/// list a line), of an array or of a map.
impl<T: Token> Element for Vec<T> {
    fn encode_element(&self, out: &mut String) {
        if self.is_empty() {
            out.push_str(EMPTY_LIST);
        }
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            item.encode_token(out);
        }
    }

    fn decode_element(value: Value<'_>) -> Result<Self, ValueError<'_>> {
        let line = value.single()?;
        if line == EMPTY_LIST {
            return Ok(Vec::new());
        }
        tokens(line)
            .map(|token| T::decode_element(Value::one_line(token)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::test_support::{dec, enc};

    #[test]
    fn one_element_per_line_and_empty_marker() {
        let s = enc(vec![1i32, -2, 3]);
        assert_eq!(s, "1\n-2\n3");
        assert_eq!(dec::<Vec<i32>>(&s).unwrap(), vec![1, -2, 3]);
        assert_eq!(enc(Vec::<String>::new()), "[]");
        assert!(dec::<Vec<String>>("[]").unwrap().is_empty());
        let quoted = vec!["[]".to_owned()];
        assert_eq!(dec::<Vec<String>>(&enc(quoted.clone())).unwrap(), quoted);
    }

    #[derive(juliet_derive::Codec, Clone, Default, PartialEq, Debug)]
    #[jasset(crate = crate)]
    struct Stop {
        wait: f32,
        label: String,
        stats: Inner,
    }

    #[derive(juliet_derive::Codec, Clone, Default, PartialEq, Debug)]
    #[jasset(crate = crate)]
    struct Inner {
        hp: i32,
    }

    #[derive(juliet_derive::Codec, Clone, Default, PartialEq, Debug)]
    #[jasset(crate = crate)]
    struct Flat {
        wait: f32,
        label: String,
    }

    #[derive(juliet_derive::Codec, Clone, Default, PartialEq, Debug)]
    #[jasset(crate = crate)]
    struct Range(f32, f32);

    #[test]
    fn a_list_of_tuple_structs_reads_back_both_ways() {
        let spans = vec![Range(1.0, 2.0), Range(-0.5, 0.0)];
        let text = enc(spans.clone());
        assert_eq!(text, "-\n0: 1.0\n1: 2.0\n-\n0: -0.5\n1: 0.0");
        let (written, general) = both_ways::<Range>(&text);
        assert_eq!((written.unwrap(), general.unwrap()), (spans.clone(), spans));
    }

    /// A list read from `text` as a canonical file gives it, and from the same text as
    /// free text (the general path).
    fn both_ways<T: Item + PartialEq + std::fmt::Debug>(
        text: &str,
    ) -> (
        Result<Vec<T>, ValueError<'_>>,
        Result<Vec<T>, ValueError<'_>>,
    ) {
        let written = Vec::<T>::decode(Value::from_canonical_block(text));
        let general = Vec::<T>::decode(Value::from_text(text));
        (written, general)
    }

    #[test]
    fn records_in_the_writers_form_read_as_the_general_path_reads_them() {
        let route = vec![
            Flat {
                wait: 0.5,
                label: "gate".into(),
            },
            Flat::default(),
        ];
        let text = enc(route.clone());
        assert_eq!(text, "-\nWait: 0.5\nLabel: gate\n-\nWait: 0.0\nLabel: \"\"");
        assert_eq!(read_written::<Flat>(&text), Some(route.clone()));
        let (written, general) = both_ways::<Flat>(&text);
        assert_eq!((written.unwrap(), general.unwrap()), (route.clone(), route));
        // Not the writer's form (a leaf left out, another order, another spelling, a
        // blank after the colon, a nested composite): the general path reads them.
        for text in [
            "-\nLabel: gate",
            "-\nLabel: gate\nWait: 0.5",
            "-\nwait: 0.5\nLabel: gate",
            "-\nWait:  0.5\nLabel: gate",
        ] {
            assert_eq!(read_written::<Flat>(text), None, "{text:?}");
            let (written, general) = both_ways::<Flat>(text);
            assert_eq!(written.unwrap(), general.unwrap(), "{text:?}");
        }
        let nested = enc(vec![Stop::default()]);
        assert_eq!(read_written::<Stop>(&nested), None);
        let (written, general) = both_ways::<Stop>(&nested);
        assert_eq!(written.unwrap(), general.unwrap());
        // A leaf twice, or a bad value: the general path's error, at the same text.
        for text in [
            "-\nWait: 0.5\nLabel: a\nLabel: b",
            "-\nWait: soon\nLabel: a",
        ] {
            assert_eq!(read_written::<Flat>(text), None, "{text:?}");
            let (written, general) = both_ways::<Flat>(text);
            let (written, general) = (written.unwrap_err(), general.unwrap_err());
            assert_eq!((written.kind, written.found), (general.kind, general.found));
        }
        // A leaf's line cut short or not quite its key (no line of a canonical block
        // ends in a blank): left to the general path, which reads or reports them.
        for text in [
            "-\nWait:\t0.5\nLabel: gate",
            "-\nWaits: 0.5\nLabel: gate",
            "-\nWai",
            "-\nWait:",
            "-\nWait:\nLabel: gate",
            "-\nWait: 0.5\nLabel:",
        ] {
            assert_eq!(read_written::<Flat>(text), None, "{text:?}");
            let (written, general) = both_ways::<Flat>(text);
            let (written, general) = (
                written.map_err(|e| (e.kind, e.found)),
                general.map_err(|e| (e.kind, e.found)),
            );
            assert_eq!(written, general, "{text:?}");
        }
        // Leaves that read: a sign, a value line that ends the text, a value that is not
        // ASCII.
        let cases = [
            ("-\nWait: -0.5\nLabel: a", -0.5, "a"),
            ("-\nWait: 1.0\nLabel: b", 1.0, "b"),
            ("-\nWait: 2.0\nLabel: é", 2.0, "é"),
        ];
        for (text, wait, label) in cases {
            let want = vec![Flat {
                wait,
                label: label.into(),
            }];
            assert_eq!(read_written::<Flat>(text), Some(want.clone()), "{text:?}");
            let (written, general) = both_ways::<Flat>(text);
            assert_eq!((written.unwrap(), general.unwrap()), (want.clone(), want));
        }
    }

    #[test]
    fn bad_element_points_at_its_line() {
        let text = "1\nx\n3";
        let err = Vec::<i32>::decode(Value::from_text(text)).unwrap_err();
        assert_eq!(err.found, "x");
    }

    #[test]
    fn a_list_of_lists_is_one_inner_list_a_line() {
        let grid = vec![vec![1.5f32, -2.0], vec![], vec![3.0]];
        let s = enc(grid.clone());
        assert_eq!(s, "1.5 -2.0\n[]\n3.0");
        assert_eq!(dec::<Vec<Vec<f32>>>(&s).unwrap(), grid);
        // Commas are read as separators too.
        assert_eq!(dec::<Vec<Vec<u8>>>("1,2, 3").unwrap(), vec![vec![1, 2, 3]]);
    }

    #[test]
    fn strings_in_an_inner_list_are_quoted_where_a_blank_or_comma_would_split_them() {
        let names = vec![vec!["a b".to_owned(), "c,d".to_owned(), "e".to_owned()]];
        let s = enc(names.clone());
        assert_eq!(s, "\"a b\" \"c,d\" e");
        assert_eq!(dec::<Vec<Vec<String>>>(&s).unwrap(), names);
    }

    #[test]
    fn a_bad_token_of_an_inner_list_is_the_error_text() {
        let text = "1 2\n3 x 4";
        let err = Vec::<Vec<i32>>::decode(Value::from_text(text)).unwrap_err();
        assert_eq!(err.found, "x");
    }
}
