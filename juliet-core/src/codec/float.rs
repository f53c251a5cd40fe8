//! Codecs for `f32` and `f64`: shortest round-trip text when written; plain decimals
//! read by an exact division, every other form by the standard parser.

use std::fmt::Write as _;

use super::number::digit_value;
use super::{line_text, Codec, PropertyType, BYTES};
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

/// Parses a float value line: [`parse_f32`] of its text, a line of at most 8 bytes
/// read as one word ([`word_decimal`]) when its source holds 8 bytes from its start,
/// the text sliced (with its character-boundary checks) only for the standard parser.
#[inline(always)]
fn parse_f32_line(line: SingleLine<'_>) -> Result<f32, ValueError<'_>> {
    let fast = match line.word() {
        Some((word, len)) => word_decimal(word, len).and_then(WordDecimal::to_f32),
        None => plain_decimal(line.bytes()).and_then(PlainDecimal::to_f32),
    };
    match fast {
        Some(v) => Ok(v),
        None => parse_with_std(line.text()),
    }
}

/// Parses an `f64` value line, as [`parse_f32_line`].
#[inline(always)]
fn parse_f64_line(line: SingleLine<'_>) -> Result<f64, ValueError<'_>> {
    let fast = match line.word() {
        Some((word, len)) => word_decimal(word, len).and_then(|d| d.plain().to_f64()),
        None => plain_decimal(line.bytes()).and_then(PlainDecimal::to_f64),
    };
    match fast {
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
    bytes: &[u8],
    from: usize,
    is_separator: impl Fn(u8) -> bool,
) -> Result<(f32, usize), ValueError<'_>> {
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
    parse_f32(line_text(&bytes[from..end])).map(|v| (v, end))
}

/// The float types of the standard parser.
trait StdFloat: std::str::FromStr + Copy {
    /// The type's name in errors.
    const NAME: &'static str;
    fn is_infinite(self) -> bool;
}

impl StdFloat for f32 {
    const NAME: &'static str = "f32";
    fn is_infinite(self) -> bool {
        f32::is_infinite(self)
    }
}

impl StdFloat for f64 {
    const NAME: &'static str = "f64";
    fn is_infinite(self) -> bool {
        f64::is_infinite(self)
    }
}

/// Whether `token` spells an infinity (`inf` or `infinity`, any case, signed or not).
fn spells_infinity(token: &str) -> bool {
    let unsigned = token.strip_prefix(['+', '-']).unwrap_or(token);
    unsigned.eq_ignore_ascii_case("inf") || unsigned.eq_ignore_ascii_case("infinity")
}

/// The standard parser, for the forms the fast path leaves (exponents, long digits,
/// `inf`, `nan`, ties) and for errors. A finite number too large for the type (`1e39`
/// for an `f32`) is [`ValueErrorKind::OutOfRange`], as an integer too large for its
/// type is: it would silently become an infinity, which a later save writes as `inf`.
/// Only `inf` written as such reads as an infinity.
#[inline(never)]
fn parse_with_std<T: StdFloat>(token: &str) -> Result<T, ValueError<'_>> {
    let value = token
        .parse::<T>()
        .map_err(|_| ValueError::new(ValueErrorKind::InvalidNumber, token))?;
    if value.is_infinite() && !spells_infinity(token) {
        return Err(ValueError::new(ValueErrorKind::OutOfRange(T::NAME), token));
    }
    Ok(value)
}

/// Powers of ten that are exact in `f64`.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Powers of ten that are exact in `f32` (`5^10 < 2^24`), at `[0]`, and negated, at
/// `[1]`.
const POW10_F32: [[f32; 11]; 2] = [
    [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10],
    [
        -1e0, -1e1, -1e2, -1e3, -1e4, -1e5, -1e6, -1e7, -1e8, -1e9, -1e10,
    ],
];

/// `10^(7 - i)` for a point in byte `i` of a word of 8 bytes, `10^0` without a point
/// (`i` 8), at `[0]`, and negated, at `[1]`: [`WordDecimal::to_f32`]'s divisors.
const POW10_F32_BY_POINT: [[f32; 9]; 2] = [
    [1e7, 1e6, 1e5, 1e4, 1e3, 1e2, 1e1, 1e0, 1e0],
    [-1e7, -1e6, -1e5, -1e4, -1e3, -1e2, -1e1, -1e0, -1e0],
];

/// A decimal `[+-]digits[.digits]` whose digits, read as one integer, are below
/// `2^53`: the value is `digits / 10^fraction_digits`, with the sign.
#[derive(Clone, Copy)]
struct PlainDecimal {
    negative: bool,
    digits: u64,
    fraction_digits: usize,
}

/// A plain decimal of at most 8 bytes as [`word_decimal`] reads it: its digits (at most
/// 8), and the byte of the word its point was in (8 without a point), which gives its
/// fraction digits.
#[derive(Clone, Copy)]
struct WordDecimal {
    negative: bool,
    digits: u64,
    point_at: usize,
}

impl WordDecimal {
    /// The same decimal, its fraction digits counted.
    #[inline(always)]
    fn plain(self) -> PlainDecimal {
        PlainDecimal {
            negative: self.negative,
            digits: self.digits,
            fraction_digits: 7usize.saturating_sub(self.point_at),
        }
    }

    /// [`PlainDecimal::to_f32`], the divisor looked up by the point's place: at most 7
    /// fraction digits, so digits below `2^24` are all it checks.
    #[inline(always)]
    fn to_f32(self) -> Option<f32> {
        if self.digits < 1 << 24 {
            let divisor = POW10_F32_BY_POINT[usize::from(self.negative)][self.point_at];
            return Some(self.digits as f32 / divisor);
        }
        self.plain().to_f32()
    }
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

/// [`plain_decimal`] of the `len` (1 to 8) first bytes of `word` (little-endian: the
/// first byte lowest), the bytes above them ignored: the same result (`None` for a text
/// that starts with `+`), read without a branch on the text's digits, so that where the
/// digits or the point fall costs no mispredicted branch.
///
/// The bytes become digit values (`b ^ b'0'`, below 10 for a digit), a `-` a leading
/// zero digit, moved up so that the last is the word's top byte (the bytes
/// past the text drop out, zero digits come in below its first). The one byte that is
/// not a digit must be the point, after at least one digit; taking it out shifts the
/// digits before it up one byte (a leading zero again). The eight digits are summed in
/// three multiplies (pairs, fours, the eight).
#[inline(always)]
fn word_decimal(word: u64, len: usize) -> Option<WordDecimal> {
    debug_assert!((1..=8).contains(&len));
    // A `-` becomes `b'0'`. A `+` (which the writer never writes) stays a byte that is
    // not a digit: the caller reads such a text with the standard parser.
    let negative = word as u8 == b'-';
    let unsigned = word ^ (u64::from(b'-' ^ b'0') & u64::from(negative).wrapping_neg());
    let values = (unsigned ^ (BYTES * u64::from(b'0'))) << (64 - 8 * len);
    // The top bit of each byte whose value is 10 or more: at most one, the point, after
    // a digit that is not the sign. A byte of 0x80 or more (not ASCII, never a digit or
    // the point) is one itself; what its sum carries into the next byte only marks
    // that one too.
    let others = (values.wrapping_add(BYTES * 0x76) | values) & (BYTES * 0x80);
    let point = others & others.wrapping_neg();
    let at = (point.trailing_zeros() / 8) as usize;
    let point_byte = (point << 1).wrapping_sub(point >> 7);
    if others != point
        || (values ^ (BYTES * 0x1E)) & point_byte != 0
        || at + len <= 8 + usize::from(negative)
    {
        return None;
    }
    // The digits with the point taken out: those below it move up a byte.
    let below = (point << 1).wrapping_sub(1);
    let digits = if point == 0 {
        values
    } else {
        ((values << 8) & below) | (values & !below)
    };
    let v = digits.wrapping_mul(10).wrapping_add(digits >> 8);
    let v = (v & 0x0000_00FF_0000_00FF)
        .wrapping_mul(100 + (1_000_000 << 32))
        .wrapping_add(((v >> 16) & 0x0000_00FF_0000_00FF).wrapping_mul(1 + (10_000 << 32)))
        >> 32;
    Some(WordDecimal {
        negative,
        digits: v,
        point_at: at,
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

/// Clinger's fast path in `f32`, for `digits` below `2^24` and at most 10
/// `fraction_digits`: `digits` and `10^fraction_digits` are both exact `f32`s, so one
/// IEEE division rounds the exact quotient once (negated when `negative`).
#[inline(always)]
pub(crate) fn small_decimal_to_f32(negative: bool, digits: u64, fraction_digits: usize) -> f32 {
    // Divided by a negated power when `negative`: no branch on the sign.
    digits as f32 / POW10_F32[usize::from(negative)][fraction_digits]
}

impl PlainDecimal {
    /// The correctly rounded `f64`: `digits` (below `2^53`) and `10^fraction_digits`
    /// (at most `10^15`) are exact, and IEEE division rounds correctly once.
    #[inline(always)]
    fn to_f64(self) -> Option<f64> {
        let v = self.digits as f64 / POW10[self.fraction_digits];
        Some(f64::from_bits(v.to_bits() | u64::from(self.negative) << 63))
    }

    /// The correctly rounded `f32`: directly when the digits are below `2^24` and there
    /// are at most 10 fraction digits; otherwise the correctly rounded `f64` rounded
    /// again, which is exact unless the `f64` lies exactly halfway between two `f32`s (then `None`).
    /// The value is 0 or in `[1e-15, 2^53]`, far from `f32`'s subnormals and overflow.
    #[inline(always)]
    fn to_f32(self) -> Option<f32> {
        if self.digits < 1 << 24 && self.fraction_digits <= 10 {
            return Some(small_decimal_to_f32(
                self.negative,
                self.digits,
                self.fraction_digits,
            ));
        }
        let v = self.to_f64()?;
        // The 29 mantissa bits an `f32` drops: exactly `100..0` is a tie.
        if v.to_bits() & 0x1FFF_FFFF == 0x1000_0000 {
            return None;
        }
        Some(v as f32)
    }
}

/// The codec of a float type: written by `$write`, read by `$parse` from its one value
/// line; two values are the same when their bits are (`nan` is itself, `-0.0` is not
/// `0.0`).
macro_rules! float_codec {
    ($($ty:ident => $variant:ident, $write:ident, $parse:ident);* $(;)?) => {$(
        impl Codec for $ty {
            const PROPERTY_TYPE: PropertyType = PropertyType::$variant;
            fn encode(&self, out: &mut String) {
                $write(out, *self);
            }
            #[inline(always)]
            fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
                $parse(value.single_line()?)
            }
            #[inline(always)]
            fn decode_into<'a>(&mut self, value: Value<'a>) -> Result<(), ValueError<'a>> {
                *self = $parse(value.single_line()?)?;
                Ok(())
            }
            fn same_value(&self, other: &Self) -> bool {
                self.to_bits() == other.to_bits()
            }
        }
    )*};
}

float_codec! {
    f32 => F32, write_f32, parse_f32_line;
    f64 => F64, write_f64, parse_f64_line;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::test_support::{dec, enc};

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
    fn float_overflow_is_out_of_range_but_inf_is_allowed() {
        for text in ["1e39", "-1e39", "3.5e38", "1e309"] {
            let err = dec::<f32>(text).unwrap_err();
            assert_eq!(err, ValueErrorKind::OutOfRange("f32"), "{text}");
        }
        assert_eq!(
            dec::<f64>("1e309").unwrap_err(),
            ValueErrorKind::OutOfRange("f64")
        );
        assert_eq!(dec::<f64>("1e39"), Ok(1e39));
        assert_eq!(dec::<f32>("3.4e38"), Ok(3.4e38));
        for text in ["inf", "+inf", "-INF", "Infinity"] {
            assert!(dec::<f32>(text).unwrap().is_infinite(), "{text}");
            assert!(dec::<f64>(text).unwrap().is_infinite(), "{text}");
        }
        // Vector components read through the same parser.
        let mut parsed = [0f32; 3];
        let err = <[f32; 3] as Codec>::decode_into(&mut parsed, Value::from_text("1 1e39 2"));
        assert!(err.is_err());
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
            "+2.5",
            "+1.",
            "+0.125",
            "+142.5",
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
        let mut bits = crate::test_rng::bits();
        for _ in 0..200_000 {
            let state = bits();
            let mut s = crate::test_rng::digits(state, 16, 12);
            let digits = s.len();
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
    fn a_line_read_as_one_word_reads_as_it_does_byte_by_byte() {
        // Texts of 1 to 8 bytes from digits, points, signs and other bytes, each with
        // random bytes after it in its word: the word's reading (a plain decimal or
        // none) is the byte-by-byte one, but for a text that starts with `+`, which it
        // does not read (the standard parser does).
        let alphabet = b"0123456789..--+e x\xff\0";
        let mut bits = crate::test_rng::bits();
        let mut words = 0;
        for _ in 0..300_000 {
            let state = bits();
            let len = 1 + (state % 8) as usize;
            let mut bytes = (state >> 3).to_le_bytes();
            let mut pick = bits();
            for b in &mut bytes[..len] {
                *b = alphabet[(pick % alphabet.len() as u64) as usize];
                pick /= alphabet.len() as u64;
            }
            let text = &bytes[..len];
            let by_bytes = plain_decimal(text);
            let word = word_decimal(u64::from_le_bytes(bytes), len);
            // Its divisor, looked up by the point's place, is the fraction digits' one.
            if let Some(w) = word {
                let bits = |v: Option<f32>| v.map(f32::to_bits);
                assert_eq!(bits(w.to_f32()), bits(w.plain().to_f32()));
            }
            let by_word = word.map(WordDecimal::plain);
            let key =
                |d: Option<PlainDecimal>| d.map(|d| (d.negative, d.digits, d.fraction_digits));
            let want = if text[0] == b'+' { None } else { key(by_bytes) };
            assert_eq!(key(by_word), want, "{:?}", String::from_utf8_lossy(text));
            words += usize::from(by_word.is_some());
        }
        // Not a vacuous agreement: many of the texts are decimals.
        assert!(words > 10_000, "{words}");
    }

    #[test]
    fn a_line_at_the_end_of_its_source_reads_without_a_word() {
        // Fewer than 8 bytes from the line's start to the end of the source: no word.
        for (src, start) in [("X: 2.5", 3), ("-0.75", 0), ("X: 142.625", 3)] {
            let spans = [crate::value::ValueSpan {
                start,
                len: src.len() as u32 - start,
            }];
            let line = Value::from_spans(src, &spans).single_line().unwrap();
            assert!(line.word().is_none(), "{src}");
            let value = f32::decode(Value::from_spans(src, &spans));
            let text = &src[start as usize..];
            assert_eq!(value, Ok(text.parse::<f32>().unwrap()), "{src}");
        }
    }
}
