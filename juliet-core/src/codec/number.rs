//! Codecs for floats, integers and `bool`.

use std::fmt::Write as _;
use std::num::IntErrorKind;

use super::{Codec, PropertyType};
use crate::error::ValueErrorKind;
use crate::value::{SingleLine, Value, ValueError};

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
#[inline(always)]
pub(crate) fn parse_f32(token: &str) -> Result<f32, ValueError<'_>> {
    match plain_decimal(token.as_bytes()).and_then(PlainDecimal::to_f32) {
        Some(v) => Ok(v),
        None => parse_with_std(token),
    }
}

/// Parses a float value line: [`parse_f32`] of its text, the text sliced (with its
/// character-boundary checks) only for the standard parser.
#[inline(always)]
fn parse_f32_line(line: SingleLine<'_>) -> Result<f32, ValueError<'_>> {
    match plain_decimal(line.bytes()).and_then(PlainDecimal::to_f32) {
        Some(v) => Ok(v),
        None => parse_with_std(line.text()),
    }
}

/// Parses an `f64` value line, as [`parse_f32_line`].
#[inline(always)]
fn parse_f64_line(line: SingleLine<'_>) -> Result<f64, ValueError<'_>> {
    match plain_decimal(line.bytes()).and_then(PlainDecimal::to_f64) {
        Some(v) => Ok(v),
        None => parse_with_std(line.text()),
    }
}

/// Parses the float token of `line` that starts at byte `from` (not a separator) and
/// runs up to the next byte for which `is_separator` holds, or the end: its value (as
/// [`parse_f32`] of the token) and the token's end. A plain decimal is read in the
/// same pass that finds the end.
#[inline(always)]
pub(crate) fn parse_f32_token(
    line: SingleLine<'_>,
    from: usize,
    is_separator: impl Fn(u8) -> bool,
) -> Result<(f32, usize), ValueError<'_>> {
    let bytes = line.bytes();
    let digit = |i: usize| bytes.get(i).map(|&b| digit_value(b)).filter(|&d| d < 10);
    let (negative, body) = match bytes.get(from) {
        Some(b'-') => (true, from + 1),
        Some(b'+') => (false, from + 1),
        _ => (false, from),
    };
    let mut i = body;
    // Wrapping: past 16 digits the value is not used.
    let mut digits = 0u64;
    while let Some(d) = digit(i) {
        digits = digits.wrapping_mul(10).wrapping_add(d);
        i += 1;
    }
    let int_end = i;
    if int_end > body && bytes.get(i) == Some(&b'.') {
        i += 1;
        while let Some(d) = digit(i) {
            digits = digits.wrapping_mul(10).wrapping_add(d);
            i += 1;
        }
    }
    let ends_here = bytes.get(i).is_none_or(|&b| is_separator(b));
    if ends_here && int_end > body && i - body <= 16 && digits < 1 << 53 {
        let fraction_digits = (i - int_end).saturating_sub(1);
        let plain = PlainDecimal {
            negative,
            digits,
            fraction_digits,
        };
        if let Some(v) = plain.to_f32() {
            return Ok((v, i));
        }
    }
    // Any other token: up to its end, through the general parser.
    let mut end = i;
    while bytes.get(end).is_some_and(|&b| !is_separator(b)) {
        end += 1;
    }
    parse_f32(&line.text()[from..end]).map(|v| (v, end))
}

/// The standard parser, for the forms the fast path leaves (exponents, long digits,
/// `inf`, `nan`, ties) and for errors.
#[inline(never)]
fn parse_with_std<T: std::str::FromStr>(token: &str) -> Result<T, ValueError<'_>> {
    token
        .parse::<T>()
        .map_err(|_| ValueError::new(ValueErrorKind::InvalidNumber, token))
}

/// Powers of ten that are exact in `f64`.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Powers of ten that are exact in `f32` (`5^10 < 2^24`).
const POW10_F32: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// A decimal `[+-]digits[.digits]` whose digits, read as one integer, are below
/// `2^53`: the value is `digits / 10^fraction_digits`, with the sign.
#[derive(Clone, Copy)]
struct PlainDecimal {
    negative: bool,
    digits: u64,
    fraction_digits: usize,
}

/// The value of a digit byte; 10 or more for any other byte. Widened before the
/// subtraction, so the digit loops need no extra zero-extension of the value.
#[inline(always)]
pub(crate) fn digit_value(b: u8) -> u64 {
    u64::from(b).wrapping_sub(u64::from(b'0'))
}

/// Reads `[+-]D+[.D*]` of at most 16 characters after the sign whose digits, read as
/// one integer, are below `2^53`; else `None` (the caller falls back to the standard
/// parser, which handles every form).
#[inline(always)]
fn plain_decimal(text: &[u8]) -> Option<PlainDecimal> {
    let (negative, body) = match text {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, text),
    };
    if !(1..=16).contains(&body.len()) {
        return None;
    }
    // At most 16 digits: no overflow of `u64`. One pass: digits, and one point after
    // at least one digit.
    let mut digits = 0u64;
    let mut point = body.len();
    for (i, &b) in body.iter().enumerate() {
        let d = digit_value(b);
        if d < 10 {
            digits = digits * 10 + d;
        } else if b == b'.' && point == body.len() && i > 0 {
            point = i;
        } else {
            return None;
        }
    }
    // The digits after the point (none without a point).
    let fraction_digits = (body.len() - point).saturating_sub(1);
    (digits < 1 << 53).then_some(PlainDecimal {
        negative,
        digits,
        fraction_digits,
    })
}

/// The correctly rounded `f32` of `digits / 10^fraction_digits` (negated when
/// `negative`) for `digits` below `2^53` and at most 22 fraction digits, as the plain
/// decimal fast paths compute it; `None` when that needs the standard parser (a tie).
#[inline(always)]
pub(crate) fn decimal_to_f32(negative: bool, digits: u64, fraction_digits: usize) -> Option<f32> {
    PlainDecimal {
        negative,
        digits,
        fraction_digits,
    }
    .to_f32()
}

impl PlainDecimal {
    /// The correctly rounded `f64`: `digits` (below `2^53`) and `10^fraction_digits`
    /// (at most `10^15`) are exact, and IEEE division rounds correctly once.
    #[inline]
    fn to_f64(self) -> Option<f64> {
        let v = self.digits as f64 / POW10[self.fraction_digits];
        Some(if self.negative { -v } else { v })
    }

    /// The correctly rounded `f32`: directly when the digits are below `2^24` and there
    /// are at most 10 fraction digits; otherwise the correctly rounded `f64` rounded
    /// again, which is exact unless the `f64` lies exactly halfway between two `f32`s (then `None`).
    /// The value is 0 or in `[1e-15, 2^53]`, far from `f32`'s subnormals and overflow.
    #[inline]
    fn to_f32(self) -> Option<f32> {
        if self.digits < 1 << 24 && self.fraction_digits <= 10 {
            // Clinger's fast path in `f32`: `digits` and `10^fraction_digits` are both
            // exact `f32`s, so one IEEE division rounds the exact quotient once.
            let v = self.digits as f32 / POW10_F32[self.fraction_digits];
            return Some(if self.negative { -v } else { v });
        }
        let v = self.to_f64()?;
        // The 29 mantissa bits an `f32` drops: exactly `100..0` is a tie.
        if v.to_bits() & 0x1FFF_FFFF == 0x1000_0000 {
            return None;
        }
        Some(v as f32)
    }
}

impl Codec for f32 {
    const PROPERTY_TYPE: PropertyType = PropertyType::F32;
    fn encode(&self, out: &mut String) {
        write_f32(out, *self);
    }
    #[inline(always)]
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        parse_f32_line(value.single_line()?)
    }
    #[inline(always)]
    fn decode_into<'a>(&mut self, value: Value<'a>) -> Result<(), ValueError<'a>> {
        *self = parse_f32_line(value.single_line()?)?;
        Ok(())
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
    #[inline(always)]
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        parse_f64_line(value.single_line()?)
    }
    #[inline(always)]
    fn decode_into<'a>(&mut self, value: Value<'a>) -> Result<(), ValueError<'a>> {
        *self = parse_f64_line(value.single_line()?)?;
        Ok(())
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
            #[inline(always)]
            fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
                let line = value.single_line()?;
                // A plain decimal: same result (and range error) as the standard
                // parser, which handles the rest (out of line).
                match plain_integer(line.bytes(), <$ty>::MIN != 0) {
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
fn out_of_range<'a>(line: SingleLine<'a>, ty: &'static str) -> ValueError<'a> {
    ValueError::new(ValueErrorKind::OutOfRange(ty), line.text())
}

/// The standard parser, for integer forms the fast path leaves and for errors.
#[inline(never)]
fn parse_integer_with_std<'a, T>(
    line: SingleLine<'a>,
    ty: &'static str,
) -> Result<T, ValueError<'a>>
where
    T: std::str::FromStr<Err = std::num::ParseIntError>,
{
    let token = line.text();
    token
        .parse::<T>()
        .map_err(|e| ValueError::new(int_error(e.kind(), ty), token))
}

decimal_codec!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16, u32 => U32);

/// Reads `[+-]D{1,18}` (`-` only when `signed`), else `None` (the caller falls back to
/// the standard parser). 18 digits always fit an `i64`.
#[inline]
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
        let line = value.single_line()?;
        match hex16(line.bytes()) {
            Some(v) => Ok(v),
            None => parse_u64_line(line),
        }
    }
}

/// The value of each hex digit byte; `0xFF` for the other bytes.
static HEX_DIGIT: [u8; 256] = {
    let mut table = [0xFFu8; 256];
    let mut i = 0;
    while i < 10 {
        table[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        table[b'a' as usize + i] = 10 + i as u8;
        table[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    table
};

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
fn parse_u64_line(line: SingleLine<'_>) -> Result<u64, ValueError<'_>> {
    parse_u64(line.text())
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
        let line = value.single_line()?;
        let token = line.bytes();
        if token == b"true" || token == b"1" || token.eq_ignore_ascii_case(b"true") {
            Ok(true)
        } else if token == b"false" || token == b"0" || token.eq_ignore_ascii_case(b"false") {
            Ok(false)
        } else {
            Err(invalid_bool(line))
        }
    }
}

/// The error of a value line that is not a `bool`.
#[cold]
#[inline(never)]
fn invalid_bool(line: SingleLine<'_>) -> ValueError<'_> {
    ValueError::new(ValueErrorKind::InvalidBool, line.text())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_hex_digits_match_the_digit_loop() {
        // `0x` and 16 bytes, most hex digits, some a byte next to a digit range or
        // non-ASCII; compared with the standard parser (hex digits only: the same
        // value; anything else: an error).
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let hex = b"0123456789abcdefABCDEF";
        let near = [
            0x2F, 0x3A, 0x40, 0x47, 0x60, 0x67, 0x00, 0x7F, b'x', b'+', b' ', b'G',
        ];
        for round in 0..200_000 {
            let mut bytes: Vec<u8> = (0..16)
                .map(|_| hex[(next() % hex.len() as u64) as usize])
                .collect();
            if round % 2 == 1 {
                let at = (next() % 16) as usize;
                bytes[at] = near[(next() % near.len() as u64) as usize];
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
    fn fast_float_path_matches_the_standard_parser() {
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "+0",
            "0.0",
            "-0.0",
            "1.",
            "-1.",
            "00012.5",
            "142.5",
            "-84.2",
            "0.1",
            "0.7071068",
            "3.4028235",
            "340282350000000.0",
            "999999999999999",
            "0.000000000000001",
            "16777217",
            "16777217.0",
            "16777215",
            "-16777215.0",
            "1677721.5",
            "0.0000000001",
            "0.00000000001",
            "9.999999999",
            "0.16777215",
            "0.30000001192092896",
            "1.00000005960464477539",
            "33554433",
            "1e5",
            ".5",
            "5e",
            "1_0",
            "0x10",
            "--1",
            "+",
            "-",
            "",
            "1.2.3",
            "1,5",
            "nan",
            "inf",
            "-inf",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Random decimals of 1 to 16 digits with the point anywhere.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let digits = (state % 16 + 1) as usize;
            let mut s = format!("{:016}", state >> 12);
            s.truncate(digits);
            let point = (state >> 4) as usize % (digits + 1);
            if point < digits {
                s.insert(point.max(1), '.');
            }
            if state & 1 == 1 {
                s.insert(0, '-');
            }
            texts.push(s);
        }
        // Exact f32 ties (short decimals halfway between two f32s) and f32 values
        // written with 9 decimals.
        for i in 0..2000u32 {
            texts.push(format!("{}", 1_048_576.0 + 0.125 * f64::from(i) + 0.0625));
            texts.push(format!("{}", 16_777_217 + 2 * u64::from(i)));
            texts.push(format!("{:.9}", f32::from_bits(0x3F80_0000 + i * 977)));
        }
        // The fast path takes short decimals and leaves ties and other forms to std.
        let fast = |t: &str| plain_decimal(t.as_bytes()).and_then(PlainDecimal::to_f32);
        assert_eq!(fast("142.5"), Some(142.5));
        assert_eq!(fast("-0.3125"), Some(-0.3125));
        assert_eq!(fast("16777217"), None);
        assert_eq!(fast("1e5"), None);
        assert_eq!(fast("1234567890123456"), Some(1_234_567_890_123_456.0));
        assert_eq!(fast("9999999999999999"), None); // at least 2^53
        assert_eq!(fast("12345678901234567"), None); // too long
                                                     // Every decimal of up to 7 digits below 2^24 with the point anywhere (the
                                                     // `f32` fast path), a sample of them.
        for i in (0..16_777_216u32).step_by(997) {
            let digits = i.to_string();
            for point in 0..digits.len() {
                texts.push(format!("{}.{}", &digits[..=point], &digits[point + 1..]));
                texts.push(format!("-0.{}{digits}", "0".repeat(point)));
            }
        }
        // Each text as a token (`parse_f32`, as vectors use it), as free text and as a
        // value line in a source with text around it (the `Value` paths).
        let mut src = String::new();
        for t in &texts {
            src.clear();
            src.push_str("; Mass: ");
            src.push_str(t);
            src.push_str("\n; Next: 1.5\n");
            let spans = [crate::value::ValueSpan {
                start: 8,
                len: t.len() as u32,
                line: 1,
                column: 9,
            }];
            let in_source = Value::from_spans(&src, &spans);
            let std32 = t.parse::<f32>();
            for ours in [
                parse_f32(t),
                dec::<f32>(t).map_err(|_| ValueError::new(ValueErrorKind::InvalidNumber, t)),
                f32::decode(in_source),
            ] {
                match (ours, &std32) {
                    (Ok(a), Ok(b)) => assert_eq!(a.to_bits(), b.to_bits(), "{t}"),
                    (Err(e), Err(_)) => assert_eq!(e.found, t),
                    (a, b) => panic!("{t}: {a:?} vs {b:?}"),
                }
            }
            let std64 = t.parse::<f64>();
            for ours in [
                dec::<f64>(t).map_err(|_| ()),
                f64::decode(in_source).map_err(|_| ()),
            ] {
                match (ours, &std64) {
                    (Ok(a), Ok(b)) => assert_eq!(a.to_bits(), b.to_bits(), "{t}"),
                    (Err(()), Err(_)) => {}
                    (a, b) => panic!("{t}: {a:?} vs {b:?}"),
                }
            }
        }
    }

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
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let digits = (state % 20 + 1) as usize;
            let mut s = format!("{:020}", state >> 1);
            s.truncate(digits);
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
