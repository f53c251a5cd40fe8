//! Codecs for `glam` vectors and quaternions, components separated by one space when
//! written, by commas and/or spaces when read. The `f32` ones (`Vec2`, `Vec3`,
//! `Vec3A`, `Vec4`, `Quat` as `x y z w`, and `[f32; N]` through the array codec) use
//! the one-pass float reader below; the others are their component array's codec.

use super::float::{decimal_to_f32, parse_f32_token, small_decimal_to_f32, write_f32};
use super::number::digit_value;
use super::{line_text, Codec, Element, PropertyType};
use crate::error::ValueErrorKind;
use crate::value::{Value, ValueError};

/// Writes components separated by one space.
fn write_floats(out: &mut String, v: &[f32]) {
    for (i, c) in v.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        write_f32(out, *c);
    }
}

/// Whether `b` separates vector components.
#[inline(always)]
fn is_separator(b: u8) -> bool {
    // One bit test (`matches!` compiles to a jump table in the component loops), after
    // one compare that digits, `-` and `.` (all above `,`) stop at.
    const SEPARATORS: u64 = 1 << b' ' | 1 << b',' | 1 << b'\t';
    b <= b',' && SEPARATORS >> b & 1 != 0
}

/// Reads exactly `N` floats separated by commas and/or white space.
#[inline(always)]
pub(super) fn read_floats<const N: usize>(value: Value<'_>) -> Result<[f32; N], ValueError<'_>> {
    let line = value.single_line()?.bytes();
    match read_plain_floats::<N>(line) {
        Some(v) => Ok(v),
        None => read_floats_general::<N>(line),
    }
}

/// The writer's form, read in one pass: exactly `N` tokens `[-]D+[.D*]` between
/// separators, each with digits (read as one integer) below `2^53` and short enough
/// that they cannot wrap (at most 17 characters after the sign, counting the separator
/// that ends it); each is converted as [`parse_f32_token`] converts it
/// ([`decimal_to_f32`]). `None` for anything else (other forms, a count other than
/// `N`, errors, ties): the caller reads the line again with [`read_floats_general`].
#[inline(always)]
fn read_plain_floats<const N: usize>(bytes: &[u8]) -> Option<[f32; N]> {
    let mut out = [0.0f32; N];
    let mut i = 0;
    for slot in out.iter_mut() {
        while i < bytes.len() && is_separator(bytes[i]) {
            i += 1;
        }
        let negative = i < bytes.len() && bytes[i] == b'-';
        i += usize::from(negative);
        let start = i;
        // Wrapping: a token of over 16 characters is refused below.
        let mut digits = 0u64;
        i = read_digits(bytes, i, &mut digits);
        if i == start {
            return None;
        }
        let mut fraction_digits = 0;
        if i < bytes.len() && bytes[i] == b'.' {
            i += 1;
            let fraction = i;
            i = read_digits(bytes, i, &mut digits);
            fraction_digits = i - fraction;
        }
        // The token ends at a separator (stepped over) or at the end.
        if i < bytes.len() {
            if !is_separator(bytes[i]) {
                return None;
            }
            i += 1;
        }
        let short = i - start <= 17;
        *slot = if short && digits < 1 << 24 && fraction_digits <= 10 {
            // The common case, as `decimal_to_f32` takes it, without its other checks.
            small_decimal_to_f32(negative, digits, fraction_digits)
        } else if short && digits < 1 << 53 {
            decimal_to_f32(negative, digits, fraction_digits)?
        } else {
            return None;
        };
    }
    while i < bytes.len() && is_separator(bytes[i]) {
        i += 1;
    }
    (i == bytes.len()).then_some(out)
}

/// Appends the decimal digits of `bytes` from `i` on to `digits` (wrapping: the caller
/// bounds the token's length); returns the index of the first byte that is not a digit.
#[inline(always)]
fn read_digits(bytes: &[u8], mut i: usize, digits: &mut u64) -> usize {
    while i < bytes.len() {
        let d = digit_value(bytes[i]);
        if d >= 10 {
            break;
        }
        *digits = digits.wrapping_mul(10).wrapping_add(d);
        i += 1;
    }
    i
}

/// Reads exactly `N` floats of any form separated by commas and/or white space, with
/// the errors: a token that is not a number, a component count other than `N`.
#[inline(never)]
fn read_floats_general<const N: usize>(bytes: &[u8]) -> Result<[f32; N], ValueError<'_>> {
    let mut out = [0.0f32; N];
    let mut count = 0;
    let mut i = 0;
    loop {
        while i < bytes.len() && is_separator(bytes[i]) {
            i += 1;
        }
        if i == bytes.len() {
            break;
        }
        if count < N {
            // Separators are ASCII, so token ends are character boundaries.
            let (v, end) = parse_f32_token(bytes, i, is_separator)?;
            out[count] = v;
            i = end;
        } else {
            while i < bytes.len() && !is_separator(bytes[i]) {
                i += 1;
            }
        }
        count += 1;
    }
    if count != N {
        return Err(ValueError::new(
            ValueErrorKind::ComponentCount {
                expected: N,
                found: count,
            },
            line_text(bytes),
        ));
    }
    Ok(out)
}

/// Bit-pattern equality of float components.
fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

macro_rules! glam_codec {
    ($($ty:ident: $n:literal),*) => {$(
        impl Codec for glam::$ty {
            const PROPERTY_TYPE: PropertyType = PropertyType::Floats($n);
            fn encode(&self, out: &mut String) {
                write_floats(out, &self.to_array());
            }
            #[inline]
            fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
                read_floats::<$n>(value).map(glam::$ty::from_array)
            }
            #[inline(always)]
            fn decode_into<'a>(&mut self, value: Value<'a>) -> Result<(), ValueError<'a>> {
                *self = glam::$ty::from_array(read_floats::<$n>(value)?);
                Ok(())
            }
            fn same_value(&self, other: &Self) -> bool {
                same_bits(&self.to_array(), &other.to_array())
            }
        }
        impl Element for glam::$ty {}
    )*};
}

glam_codec!(Vec2: 2, Vec3: 3, Vec3A: 3, Vec4: 4, Quat: 4);

/// The `glam` vectors of other components: each is its `[component; N]`'s codec
/// (`DVec3` as `1.0 2.0 3.0`, `IVec2` as `-1 4`, `BVec2` as `true false`), converted
/// with `From` and `from_array`.
macro_rules! glam_array_codec {
    ($($ty:ident: [$c:ty; $n:literal]),* $(,)?) => {$(
        impl Codec for glam::$ty {
            const PROPERTY_TYPE: PropertyType = <[$c; $n] as Codec>::PROPERTY_TYPE;
            fn encode(&self, out: &mut String) {
                <[$c; $n]>::from(*self).encode(out);
            }
            fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
                <[$c; $n]>::decode(value).map(glam::$ty::from_array)
            }
            fn same_value(&self, other: &Self) -> bool {
                <[$c; $n]>::from(*self).same_value(&<[$c; $n]>::from(*other))
            }
        }
        impl Element for glam::$ty {}
    )*};
}

glam_array_codec!(
    DVec2: [f64; 2], DVec3: [f64; 3], DVec4: [f64; 4], DQuat: [f64; 4],
    IVec2: [i32; 2], IVec3: [i32; 3], IVec4: [i32; 4],
    UVec2: [u32; 2], UVec3: [u32; 3], UVec4: [u32; 4],
    I8Vec2: [i8; 2], I8Vec3: [i8; 3], I8Vec4: [i8; 4],
    U8Vec2: [u8; 2], U8Vec3: [u8; 3], U8Vec4: [u8; 4],
    I16Vec2: [i16; 2], I16Vec3: [i16; 3], I16Vec4: [i16; 4],
    U16Vec2: [u16; 2], U16Vec3: [u16; 3], U16Vec4: [u16; 4],
    I64Vec2: [i64; 2], I64Vec3: [i64; 3], I64Vec4: [i64; 4],
    U64Vec2: [u64; 2], U64Vec3: [u64; 3], U64Vec4: [u64; 4],
    USizeVec2: [usize; 2], USizeVec3: [usize; 3], USizeVec4: [usize; 4],
    BVec2: [bool; 2], BVec3: [bool; 3], BVec4: [bool; 4],
);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn written_with_single_spaces() {
        let mut s = String::new();
        Vec3::new(10.5, 0.0, -25.25).encode(&mut s);
        assert_eq!(s, "10.5 0.0 -25.25");
    }

    #[test]
    fn read_with_commas_or_spaces() {
        let v = Vec3::decode(Value::from_text("10.5, -20.0, 30.25")).unwrap();
        assert_eq!(v, Vec3::new(10.5, -20.0, 30.25));
        let v = <[f32; 2]>::decode(Value::from_text("0.000000\t0.500000")).unwrap();
        assert_eq!(v, [0.0, 0.5]);
    }

    /// The reading before the fused token parser: split at separators, then the
    /// standard parser on each of the first `N` tokens.
    fn split_then_parse<const N: usize>(line: &str) -> Result<[f32; N], (ValueErrorKind, &str)> {
        let tokens: Vec<&str> = line
            .split([' ', ',', '\t'])
            .filter(|t| !t.is_empty())
            .collect();
        let mut out = [0.0; N];
        for (slot, token) in out.iter_mut().zip(&tokens) {
            let value: f32 = token
                .parse()
                .map_err(|_| (ValueErrorKind::InvalidNumber, *token))?;
            *slot = value;
            // An overflow is out of range; only `inf` written as such is an infinity.
            let spelled = token
                .trim_start_matches(['+', '-'])
                .eq_ignore_ascii_case("inf");
            if slot.is_infinite() && !spelled {
                return Err((ValueErrorKind::OutOfRange("f32"), *token));
            }
        }
        if tokens.len() != N {
            let kind = ValueErrorKind::ComponentCount {
                expected: N,
                found: tokens.len(),
            };
            return Err((kind, line));
        }
        Ok(out)
    }

    #[test]
    fn fused_token_parser_matches_split_then_parse() {
        const PIECES: [&str; 16] = [
            "1", "0", "9", "12", "-", "+", ".", "5", "e", "e-3", "x", "inf", "nan", " ", ",", "\t",
        ];
        let mut next = crate::test_rng::below();
        for _ in 0..100_000 {
            let mut line = String::new();
            for _ in 0..1 + next(14) {
                line.push_str(PIECES[next(PIECES.len())]);
            }
            if next(4) == 0 {
                line.push_str("12345678901234567");
            }
            let line = line.trim_matches([' ', '\t']);
            if line.is_empty() {
                continue;
            }
            let value = Value::from_text(line);
            let ours = <[f32; 3]>::decode(value).map_err(|e| (e.kind, e.found));
            let want = split_then_parse::<3>(line);
            match (&ours, &want) {
                (Ok(a), Ok(b)) => {
                    let bits = |v: &[f32; 3]| v.map(f32::to_bits);
                    assert_eq!(bits(a), bits(b), "{line:?}");
                }
                _ => assert_eq!(ours, want, "{line:?}"),
            }
        }
    }

    /// The one-pass reader of the writer's form, where it answers, gives the general
    /// reader's components bit for bit (random lines of plain decimals, with signs,
    /// several separators, long digit runs, other forms and wrong counts mixed in).
    #[test]
    fn plain_reader_matches_general_reader() {
        const PIECES: [&str; 14] = [
            "0",
            "1",
            "7",
            "42",
            "0.0",
            "142.5",
            "-84.2",
            "0.70710677",
            "12345678.9",
            "1234567890123456",
            "0.00000000001",
            "1e3",
            "+1",
            "-",
        ];
        const SEPARATORS: [&str; 5] = [" ", " ", ",", ", ", "\t "];
        let mut next = crate::test_rng::below();
        let mut answered = 0;
        for _ in 0..200_000 {
            let mut line = String::new();
            for k in 0..2 + next(4) {
                if k > 0 || next(8) == 0 {
                    line.push_str(SEPARATORS[next(SEPARATORS.len())]);
                }
                if next(3) == 0 {
                    line.push('-');
                }
                line.push_str(PIECES[next(PIECES.len())]);
                for _ in 0..next(3) {
                    line.push(char::from(b'0' + next(10) as u8));
                }
            }
            if next(8) == 0 {
                line.push_str(SEPARATORS[next(SEPARATORS.len())]);
            }
            let bits = |v: [f32; 3]| v.map(f32::to_bits);
            if let Some(fast) = read_plain_floats::<3>(line.as_bytes()) {
                answered += 1;
                let general = read_floats_general::<3>(line.as_bytes()).expect(&line);
                assert_eq!(bits(fast), bits(general), "{line:?}");
            }
        }
        assert!(answered > 10_000, "{answered}");
    }

    #[test]
    fn wrong_component_count() {
        let err = Vec3::decode(Value::from_text("1.0 2.0")).unwrap_err();
        assert_eq!(
            err.kind,
            ValueErrorKind::ComponentCount {
                expected: 3,
                found: 2
            }
        );
        let err = Vec3::decode(Value::from_text("1 2 3 4")).unwrap_err();
        assert_eq!(
            err.kind,
            ValueErrorKind::ComponentCount {
                expected: 3,
                found: 4
            }
        );
        let err = Vec3::decode(Value::from_text("1 x 3")).unwrap_err();
        assert_eq!((err.kind, err.found), (ValueErrorKind::InvalidNumber, "x"));
    }
}
