//! The codec for `Vec<T>`: one element per value line; an empty list is the single
//! line `[]`.

use super::{Codec, PropertyType};
use crate::value::{Value, ValueError};

/// The value line that stands for an empty list.
pub const EMPTY_LIST: &str = "[]";

impl<T: Codec> Codec for Vec<T> {
    const PROPERTY_TYPE: PropertyType = PropertyType::List(&T::PROPERTY_TYPE);
    const MULTI_LINE: bool = true;

    fn encode(&self, out: &mut String) {
        const {
            assert!(
                !T::MULTI_LINE,
                "a list of multi-line values (Vec<Vec<T>>) has no .jasset form"
            )
        };
        if self.is_empty() {
            out.push_str(EMPTY_LIST);
        }
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            item.encode(out);
        }
    }

    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let mut out = Vec::new();
        out.decode_into(value)?;
        Ok(out)
    }

    fn decode_into<'a>(&mut self, value: Value<'a>) -> Result<(), ValueError<'a>> {
        const {
            assert!(
                !T::MULTI_LINE,
                "a list of multi-line values (Vec<Vec<T>>) has no .jasset form"
            )
        };
        let mut lines = value.lines().peekable();
        let mut items = Vec::with_capacity(value.line_count());
        if let Some(&EMPTY_LIST) = lines.peek() {
            if value.line_count() == 1 {
                *self = items;
                return Ok(());
            }
        }
        for line in lines {
            items.push(T::decode(Value::from_text(line))?);
        }
        *self = items;
        Ok(())
    }

    fn same_value(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a.same_value(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_element_per_line_and_empty_marker() {
        let mut s = String::new();
        vec![1i32, -2, 3].encode(&mut s);
        assert_eq!(s, "1\n-2\n3");
        assert_eq!(
            Vec::<i32>::decode(Value::from_text(&s)).unwrap(),
            vec![1, -2, 3]
        );
        let mut s = String::new();
        Vec::<String>::new().encode(&mut s);
        assert_eq!(s, "[]");
        assert!(Vec::<String>::decode(Value::from_text("[]"))
            .unwrap()
            .is_empty());
        let quoted = vec!["[]".to_owned()];
        let mut s = String::new();
        quoted.encode(&mut s);
        assert_eq!(Vec::<String>::decode(Value::from_text(&s)).unwrap(), quoted);
    }

    #[test]
    fn bad_element_points_at_its_line() {
        let text = "1\nx\n3";
        let err = Vec::<i32>::decode(Value::from_text(text)).unwrap_err();
        assert_eq!(err.found, "x");
    }
}
