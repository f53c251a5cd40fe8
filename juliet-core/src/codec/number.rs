//! Codecs for floats, integers and `bool`.

use std::fmt::Write as _;
use std::num::IntErrorKind;

use super::{Codec, PropertyType};
use crate::error::ValueErrorKind;
use crate::value::{Value, ValueError};

/// Writes a float as the shortest text that reads back bit-exact, always with `.` or an
/// exponent (`100.0`, `0.1`, `1e-7`); `nan`, `inf`, `-inf` for the non-finite values.
pub(crate) fn write_f32(out: &mut String, v: f32) {
    if v.is_nan() {
        out.push_str("nan");
    } else {
        // `Debug` is Rust's shortest round-trip form with a `.0` or exponent.
        let _ = write!(out, "{v:?}");
    }
}

fn write_f64(out: &mut String, v: f64) {
    if v.is_nan() {
        out.push_str("nan");
    } else {
        let _ = write!(out, "{v:?}");
    }
}

/// Parses one float token (any decimal or `%f` text, `inf`, `-inf`, `nan`).
#[inline]
pub(crate) fn parse_f32(token: &str) -> Result<f32, ValueError<'_>> {
    token
        .parse::<f32>()
        .map_err(|_| ValueError::new(ValueErrorKind::InvalidNumber, token))
}

impl Codec for f32 {
    const PROPERTY_TYPE: PropertyType = PropertyType::F32;
    fn encode(&self, out: &mut String) {
        write_f32(out, *self);
    }
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        parse_f32(value.single()?)
    }
    fn same_value(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}

impl Codec for f64 {
    const PROPERTY_TYPE: PropertyType = PropertyType::F64;
    fn encode(&self, out: &mut String) {
        write_f64(out, *self);
    }
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let token = value.single()?;
        token
            .parse::<f64>()
            .map_err(|_| ValueError::new(ValueErrorKind::InvalidNumber, token))
    }
    fn same_value(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}

fn int_error(kind: &IntErrorKind, ty: &'static str) -> ValueErrorKind {
    match kind {
        IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => ValueErrorKind::OutOfRange(ty),
        _ => ValueErrorKind::InvalidNumber,
    }
}

macro_rules! decimal_codec {
    ($($ty:ident => $variant:ident),* $(,)?) => {$(
        impl Codec for $ty {
            const PROPERTY_TYPE: PropertyType = PropertyType::$variant;
            fn encode(&self, out: &mut String) {
                let _ = write!(out, "{self}");
            }
            fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
                let token = value.single()?;
                token
                    .parse::<$ty>()
                    .map_err(|e| ValueError::new(int_error(e.kind(), stringify!($ty)), token))
            }
        }
    )*};
}

decimal_codec!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16, u32 => U32);

impl Codec for u64 {
    const PROPERTY_TYPE: PropertyType = PropertyType::U64;
    fn encode(&self, out: &mut String) {
        let _ = write!(out, "0x{self:016X}");
    }
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let token = value.single()?;
        parse_u64(token)
    }
}

/// Parses `0x`-prefixed hex (any number of digits) or decimal (with an optional `+`).
pub(crate) fn parse_u64(token: &str) -> Result<u64, ValueError<'_>> {
    let result = match token
        .strip_prefix("0x")
        .or_else(|| token.strip_prefix("0X"))
    {
        Some(hex) if hex.bytes().next().is_some_and(|b| b.is_ascii_hexdigit()) => {
            u64::from_str_radix(hex, 16)
        }
        Some(_) => return Err(ValueError::new(ValueErrorKind::InvalidNumber, token)),
        None => token.parse::<u64>(),
    };
    result.map_err(|e| ValueError::new(int_error(e.kind(), "u64"), token))
}

impl Codec for bool {
    const PROPERTY_TYPE: PropertyType = PropertyType::Bool;
    fn encode(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let token = value.single()?;
        if token == "true" || token == "1" || token.eq_ignore_ascii_case("true") {
            Ok(true)
        } else if token == "false" || token == "0" || token.eq_ignore_ascii_case("false") {
            Ok(false)
        } else {
            Err(ValueError::new(ValueErrorKind::InvalidBool, token))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc<T: Codec>(v: T) -> String {
        let mut s = String::new();
        v.encode(&mut s);
        s
    }

    fn dec<T: Codec>(text: &str) -> Result<T, ValueErrorKind> {
        T::decode(Value::from_text(text)).map_err(|e| e.kind)
    }

    #[test]
    fn floats_write_shortest_form_with_dot_or_exponent() {
        assert_eq!(enc(100.0f32), "100.0");
        assert_eq!(enc(0.1f32), "0.1");
        assert_eq!(enc(1e-7f32), "1e-7");
        assert_eq!(enc(-84.2f32), "-84.2");
        assert_eq!(enc(f32::INFINITY), "inf");
        assert_eq!(enc(f32::NEG_INFINITY), "-inf");
        assert_eq!(enc(f32::NAN), "nan");
        assert_eq!(enc(0.1f64), "0.1");
    }

    #[test]
    fn floats_accept_percent_f_and_specials() {
        assert_eq!(dec::<f32>("100.000000"), Ok(100.0));
        assert_eq!(dec::<f32>("+2.5"), Ok(2.5));
        assert_eq!(dec::<f32>("-inf"), Ok(f32::NEG_INFINITY));
        assert!(dec::<f32>("nan").unwrap().is_nan());
        assert_eq!(dec::<f32>("abc"), Err(ValueErrorKind::InvalidNumber));
        assert_eq!(dec::<f32>("1.0 2.0"), Err(ValueErrorKind::InvalidNumber));
    }

    #[test]
    fn integers_decimal_with_plus_and_range_checks() {
        assert_eq!(dec::<i32>("+45"), Ok(45));
        assert_eq!(dec::<i32>("-1"), Ok(-1));
        assert_eq!(dec::<i8>("300"), Err(ValueErrorKind::OutOfRange("i8")));
        assert_eq!(dec::<u8>("-1"), Err(ValueErrorKind::InvalidNumber));
        assert_eq!(
            dec::<u32>("4294967296"),
            Err(ValueErrorKind::OutOfRange("u32"))
        );
        assert_eq!(enc(-7i64), "-7");
    }

    #[test]
    fn u64_is_hex_with_16_digits_and_reads_decimal() {
        assert_eq!(enc(0x42u64), "0x0000000000000042");
        assert_eq!(enc(0xDEADBEEFu64), "0x00000000DEADBEEF");
        assert_eq!(dec::<u64>("0x00000000DEADBEEF"), Ok(0xDEAD_BEEF));
        assert_eq!(dec::<u64>("0xff"), Ok(255));
        assert_eq!(dec::<u64>("66"), Ok(66));
        assert_eq!(dec::<u64>("0x"), Err(ValueErrorKind::InvalidNumber));
        assert_eq!(
            dec::<u64>("0x10000000000000000"),
            Err(ValueErrorKind::OutOfRange("u64"))
        );
    }

    #[test]
    fn bools() {
        assert_eq!(dec::<bool>("true"), Ok(true));
        assert_eq!(dec::<bool>("0"), Ok(false));
        assert_eq!(dec::<bool>("TRUE"), Ok(true));
        assert_eq!(dec::<bool>("yes"), Err(ValueErrorKind::InvalidBool));
        assert_eq!(enc(false), "false");
    }
}
