//! The codec for `Option<T>`: `None` is the value line `~`, which no `Some` value
//! writes (the `String` and `char` codecs quote a `~`); `Some(v)` is `v`'s own text
//! (a composite's: its record, [`super::Optional`]).
//! An absent key still means the default (in an instance, the template's value), so a
//! file that writes `~` overrides a template's `Some` with `None`.

use super::{Codec, Element, Optional, PropertyType, Token};
use crate::value::{Value, ValueError};

/// The value line that stands for `None`.
pub const NONE: &str = "~";

/// Refuses `Option<Option<T>>`: `Some(None)` would be written `~`, which reads back as
/// `None`.
const fn not_nested<T: Optional>() {
    assert!(
        !matches!(T::OPTIONAL_TYPE, PropertyType::Option(_)),
        "Option<Option<T>> has no .jasset form: Some(None) and None would both be written `~`"
    );
}

/// Whether `value` is the one line `~`.
fn is_none(value: &Value<'_>) -> bool {
    value.is_only(NONE)
}

impl<T: Optional + PartialEq> Codec for Option<T> {
    const PROPERTY_TYPE: PropertyType = PropertyType::Option(&T::OPTIONAL_TYPE);

    fn encode(&self, out: &mut String) {
        const { not_nested::<T>() };
        match self {
            None => out.push_str(NONE),
            Some(v) => v.encode_some(out),
        }
    }

    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        const { not_nested::<T>() };
        if is_none(&value) {
            return Ok(None);
        }
        T::decode_some(value).map(Some)
    }

    fn decode_into<'a>(&mut self, value: Value<'a>) -> Result<(), ValueError<'a>> {
        const { not_nested::<T>() };
        if is_none(&value) {
            *self = None;
            return Ok(());
        }
        match self {
            Some(v) => v.decode_some_into(value),
            None => {
                *self = Some(T::decode_some(value)?);
                Ok(())
            }
        }
    }

    fn same_value(&self, other: &Self) -> bool {
        match (self, other) {
            (None, None) => true,
            (Some(a), Some(b)) => a.same_some(b),
            _ => false,
        }
    }
}

impl<T: Element> Element for Option<T> {
    const TOKEN: bool = T::TOKEN;

    fn encode_element(&self, out: &mut String) {
        match self {
            None => out.push_str(NONE),
            Some(v) => v.encode_element(out),
        }
    }

    fn encode_token(&self, out: &mut String) {
        match self {
            None => out.push_str(NONE),
            Some(v) => v.encode_token(out),
        }
    }

    fn decode_element(value: Value<'_>) -> Result<Self, ValueError<'_>> {
        if is_none(&value) {
            return Ok(None);
        }
        T::decode_element(value).map(Some)
    }
}

impl<T: Token> Token for Option<T> {}

#[cfg(test)]
mod tests {
    use crate::codec::test_support::{dec, enc};

    #[test]
    fn none_is_a_tilde_and_some_is_the_value() {
        assert_eq!(enc(None::<f32>), "~");
        assert_eq!(enc(Some(2.5f32)), "2.5");
        assert_eq!(dec::<Option<f32>>("~"), Ok(None));
        assert_eq!(dec::<Option<f32>>("2.5"), Ok(Some(2.5)));
    }

    #[test]
    fn a_string_or_char_tilde_is_quoted_so_it_stays_some() {
        let tilde = Some("~".to_owned());
        assert_eq!(enc(tilde.clone()), "\"~\"");
        assert_eq!(dec::<Option<String>>(&enc(tilde.clone())), Ok(tilde));
        assert_eq!(dec::<Option<char>>(&enc(Some('~'))), Ok(Some('~')));
        assert_eq!(
            dec::<Option<String>>(&enc(Some(String::new()))),
            Ok(Some(String::new()))
        );
    }

    #[test]
    fn options_in_lists_and_inner_lists() {
        let list = vec![Some(1i32), None, Some(3)];
        assert_eq!(enc(list.clone()), "1\n~\n3");
        assert_eq!(dec::<Vec<Option<i32>>>("1\n~\n3"), Ok(list.clone()));
        assert_eq!(enc(vec![list.clone()]), "1 ~ 3");
        assert_eq!(dec::<Vec<Vec<Option<i32>>>>("1 ~ 3"), Ok(vec![list]));
        let lists: Option<Vec<u8>> = Some(Vec::new());
        assert_eq!(dec::<Option<Vec<u8>>>(&enc(lists.clone())), Ok(lists));
    }
}
