//! Codecs for integers of every width (`u64` as `0x` and 16 hex digits, the others in
//! decimal) and `bool`; all are tokens, and map keys.

use std::fmt::Write as _;
use std::num::IntErrorKind;

use super::{line_text, Codec, Element, MapKey, PropertyType, Token};
use crate::error::ValueErrorKind;
use crate::value::{Value, ValueError};

/// The value of a digit byte; 10 or more for any other byte. Widened before the
/// subtraction, so the digit loops need no extra zero-extension of the value.
#[inline(always)]
pub(crate) fn digit_value(b: u8) -> u64 {
    u64::from(b).wrapping_sub(u64::from(b'0'))
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
            #[inline(always)]
            fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
                let line = value.single_line()?.bytes();
                // A plain decimal: same result (and range error) as the standard
                // parser, which handles the rest (out of line).
                match plain_integer(line, <$ty>::MIN != 0) {
                    Some(v) => <$ty>::try_from(v).map_err(|_| out_of_range(line, stringify!($ty))),
                    None => parse_integer_with_std(line, stringify!($ty)),
                }
            }
        }
    )*};
}

/// The range error of a plain decimal that does not fit `ty`.
#[cold]
#[inline(never)]
fn out_of_range<'a>(line: &'a [u8], ty: &'static str) -> ValueError<'a> {
    ValueError::new(ValueErrorKind::OutOfRange(ty), line_text(line))
}

/// The standard parser, for integer forms the fast path leaves and for errors.
#[inline(never)]
fn parse_integer_with_std<'a, T>(line: &'a [u8], ty: &'static str) -> Result<T, ValueError<'a>>
where
    T: std::str::FromStr<Err = std::num::ParseIntError>,
{
    let token = line_text(line);
    token
        .parse::<T>()
        .map_err(|e| ValueError::new(int_error(e.kind(), ty), token))
}

decimal_codec!(
    i8 => I8, i16 => I16, i32 => I32, i64 => I64, i128 => I128, isize => Isize,
    u8 => U8, u16 => U16, u32 => U32, u128 => U128, usize => Usize,
);

/// Numbers and `bool` are tokens; integers and `bool` are map keys too.
macro_rules! token {
    ($($ty:ty),*) => {$(
        impl Element for $ty {
            const TOKEN: bool = true;
        }
        impl Token for $ty {}
    )*};
}

token!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, bool, f32, f64);

macro_rules! impl_map_key {
    ($($ty:ty),*) => {$(impl MapKey for $ty {})*};
}

impl_map_key!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, bool);

/// Reads `[+-]D{1,18}` (`-` only when `signed`), else `None` (the caller falls back to
/// the standard parser). 18 digits always fit an `i64`.
#[inline(always)]
fn plain_integer(text: &[u8], signed: bool) -> Option<i64> {
    let (negative, body) = match text {
        [b'-', rest @ ..] if signed => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, text),
    };
    if !(1..=18).contains(&body.len()) {
        return None;
    }
    let mut v = 0i64;
    for &b in body {
        let d = digit_value(b);
        if d >= 10 {
            return None;
        }
        v = v * 10 + d as i64;
    }
    Some(if negative { -v } else { v })
}

impl Codec for u64 {
    const PROPERTY_TYPE: PropertyType = PropertyType::U64;
    fn encode(&self, out: &mut String) {
        let _ = write!(out, "0x{self:016X}");
    }
    #[inline(always)]
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let line = value.single_line()?.bytes();
        match hex16(line) {
            Some(v) => Ok(v),
            None => parse_u64_line(line),
        }
    }
}

/// The value of each hex digit byte; `0xFF` for the other bytes ([`hex_digit`]).
static HEX_DIGIT: [u8; 256] = byte_table!(hex_digit);

/// The value of hex digit `b` (`0-9`, `a-f`, `A-F`); `0xFF` when `b` is not one.
const fn hex_digit(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' => b - b'A' + 10,
        _ => 0xFF,
    }
}

/// The value of eight hex digits (`0-9`, `a-f`, `A-F`; the first the most
/// significant), eight bytes at a time; `None` when a byte is not a hex digit.
#[inline(always)]
fn hex8(text: &[u8]) -> Option<u32> {
    const fn each(b: u8) -> u64 {
        u64::from_le_bytes([b; 8])
    }
    let v = u64::from_le_bytes(text.try_into().ok()?);
    if v & each(0x80) != 0 {
        return None;
    }
    // Every byte is below 0x80, so adding up to 0x7F to each carries into no other
    // byte: bit 7 of a byte then tells whether it is at least some bound.
    let at_least = |x: u64, bound: u8| x.wrapping_add(each(0x80 - bound)) & each(0x80);
    let digit = at_least(v, b'0') & !at_least(v, b'9' + 1);
    let lower = v | each(0x20);
    let letter = at_least(lower, b'a') & !at_least(lower, b'f' + 1);
    if digit | letter != each(0x80) {
        return None;
    }
    // Each byte's value: its low nibble, plus 9 for a letter.
    let nibbles = (v & each(0x0F)) + (letter >> 7) * 9;
    // Pairs of nibbles, then of bytes, then of 16-bit halves (little-endian: the first
    // digit is the lowest byte).
    let bytes = ((nibbles << 4) | (nibbles >> 8)) & 0x00FF_00FF_00FF_00FF;
    let halves = ((bytes << 8) | (bytes >> 16)) & 0x0000_FFFF_0000_FFFF;
    Some(((halves << 16) | (halves >> 32)) as u32)
}

/// The writer's form, `0x` and exactly 16 hex digits; `None` for any other text.
#[inline(always)]
fn hex16(text: &[u8]) -> Option<u64> {
    if let [b'0', b'x' | b'X', hex @ ..] = text {
        if let (Some(high), Some(low)) = (hex.get(..8), hex.get(8..).filter(|l| l.len() == 8)) {
            return Some(u64::from(hex8(high)?) << 32 | u64::from(hex8(low)?));
        }
    }
    None
}

/// [`parse_u64`] of a value line, out of line.
#[inline(never)]
fn parse_u64_line(line: &[u8]) -> Result<u64, ValueError<'_>> {
    parse_u64(line_text(line))
}

/// Parses `0x`-prefixed hex (any number of digits) or decimal (with an optional `+`).
#[inline]
pub(crate) fn parse_u64(token: &str) -> Result<u64, ValueError<'_>> {
    if let Some(v) = hex16(token.as_bytes()) {
        return Ok(v);
    }
    // `0x` and 1 to 16 hex digits.
    if let [b'0', b'x' | b'X', hex @ ..] = token.as_bytes() {
        if (1..=16).contains(&hex.len()) {
            let mut v = 0u64;
            let mut bad = 0u8;
            for &b in hex {
                let d = HEX_DIGIT[usize::from(b)];
                bad |= d;
                v = v << 4 | u64::from(d);
            }
            if bad < 16 {
                return Ok(v);
            }
        }
    }
    let result = match token
        .strip_prefix("0x")
        .or_else(|| token.strip_prefix("0X"))
    {
        Some(hex) if hex.bytes().next().is_some_and(|b| b.is_ascii_hexdigit()) => {
            u64::from_str_radix(hex, 16)
        }
        Some(_) => return Err(ValueError::new(ValueErrorKind::InvalidNumber, token)),
        None => match plain_integer(token.as_bytes(), false) {
            Some(v) => return Ok(v as u64),
            None => token.parse::<u64>(),
        },
    };
    result.map_err(|e| ValueError::new(int_error(e.kind(), "u64"), token))
}

impl Codec for bool {
    const PROPERTY_TYPE: PropertyType = PropertyType::Bool;
    fn encode(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
    #[inline(always)]
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let token = value.single_line()?.bytes();
        if token == b"true" || token == b"1" || token.eq_ignore_ascii_case(b"true") {
            Ok(true)
        } else if token == b"false" || token == b"0" || token.eq_ignore_ascii_case(b"false") {
            Ok(false)
        } else {
            Err(invalid_bool(token))
        }
    }
}

/// The error of a value line that is not a `bool`.
#[cold]
#[inline(never)]
fn invalid_bool(line: &[u8]) -> ValueError<'_> {
    ValueError::new(ValueErrorKind::InvalidBool, line_text(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_hex_digits_match_the_digit_loop() {
        // `0x` and 16 bytes, most hex digits, some a byte next to a digit range or
        // non-ASCII; compared with the standard parser (hex digits only: the same
        // value; anything else: an error).
        let mut next = crate::test_rng::below();
        let hex = b"0123456789abcdefABCDEF";
        let near = [
            0x2F, 0x3A, 0x40, 0x47, 0x60, 0x67, 0x00, 0x7F, b'x', b'+', b' ', b'G',
        ];
        for round in 0..200_000 {
            let mut bytes: Vec<u8> = (0..16).map(|_| hex[next(hex.len())]).collect();
            if round % 2 == 1 {
                let at = next(16);
                bytes[at] = near[next(near.len())];
            }
            let mut token = String::from("0x");
            token.push_str(std::str::from_utf8(&bytes).unwrap());
            if round % 1000 == 999 {
                // A two-byte character in place of the last two digits.
                token.truncate(16);
                token.push('é');
            }
            let digits = &token[2..];
            let expected = digits
                .bytes()
                .all(|b| b.is_ascii_hexdigit())
                .then(|| u64::from_str_radix(digits, 16).unwrap());
            assert_eq!(parse_u64(&token).ok(), expected, "{token}");
        }
    }

    use crate::codec::test_support::{dec, enc};

    #[test]
    fn fast_integer_paths_match_the_standard_parser() {
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "+0",
            "+",
            "-",
            "007",
            "-128",
            "-129",
            "127",
            "128",
            "255",
            "256",
            "65535",
            "65536",
            "-32768",
            "-32769",
            "2147483647",
            "2147483648",
            "-2147483648",
            "-2147483649",
            "4294967295",
            "4294967296",
            "999999999999999999",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "18446744073709551615",
            "18446744073709551616",
            "1 2",
            "1e3",
            "0x10",
            "--1",
            "+-1",
            "١٢",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for state in std::iter::repeat_with(crate::test_rng::bits()).take(20_000) {
            let mut s = crate::test_rng::digits(state, 20, 1);
            match state >> 60 {
                0..=5 => s.insert(0, '-'),
                6 => s.insert(0, '+'),
                _ => {}
            }
            texts.push(s);
        }
        macro_rules! same_as_std {
            ($($ty:ty),*) => {$(
                for t in &texts {
                    let ours = <$ty>::decode(Value::from_text(t)).map_err(|e| e.kind);
                    let std = t.parse::<$ty>().map_err(|e| int_error(e.kind(), stringify!($ty)));
                    assert_eq!(ours, std, "{} {t:?}", stringify!($ty));
                }
            )*};
        }
        same_as_std!(i8, i16, i32, i64, u8, u16, u32);
        for t in texts.iter().filter(|t| !t.starts_with("0x")) {
            let std = t.parse::<u64>().map_err(|e| int_error(e.kind(), "u64"));
            assert_eq!(dec::<u64>(t), std, "u64 {t:?}");
        }
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
        assert_eq!(dec::<u64>("0xFFFFFFFFFFFFFFFF"), Ok(u64::MAX));
        assert_eq!(
            dec::<u64>("0x00000000000000fG"),
            Err(ValueErrorKind::InvalidNumber)
        );
        assert_eq!(dec::<u64>("0x+1"), Err(ValueErrorKind::InvalidNumber));
        assert_eq!(dec::<u64>("0X1f"), Ok(31));
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

#[cfg(test)]
mod wide_tests {
    use crate::codec::test_support::{dec, enc};
    use crate::error::ValueErrorKind;

    #[test]
    fn wide_and_pointer_sized_integers_are_decimal() {
        assert_eq!(enc(u128::MAX), u128::MAX.to_string());
        assert_eq!(dec::<u128>(&u128::MAX.to_string()), Ok(u128::MAX));
        assert_eq!(dec::<i128>(&i128::MIN.to_string()), Ok(i128::MIN));
        assert_eq!(dec::<i128>("+7"), Ok(7));
        assert_eq!(enc(usize::MAX), usize::MAX.to_string());
        assert_eq!(dec::<usize>("42"), Ok(42));
        assert_eq!(dec::<isize>("-42"), Ok(-42));
        assert_eq!(dec::<usize>("-1"), Err(ValueErrorKind::InvalidNumber));
        assert_eq!(
            dec::<u128>("340282366920938463463374607431768211456"),
            Err(ValueErrorKind::OutOfRange("u128"))
        );
    }
}
