//! The codec for `[T; N]`: `N` tokens on one line (`255 128 0 255`, commas also read)
//! when `T` is a [`Token`](super::Token), else `N` value lines, one element each.
//! `[f32; N]` reads through the float vectors' one-pass reader.

use std::any::{Any, TypeId};

use super::inline::tokens;
use super::vector::read_floats;
use super::{Codec, Element, PropertyType, Token};
use crate::error::ValueErrorKind;
use crate::value::{Value, ValueError};

/// The property type of `[T; N]` whose element type is `element`: `Floats(N)` for
/// `f32`, as the float vectors.
const fn array_type(element: &'static PropertyType, n: usize) -> PropertyType {
    match element {
        PropertyType::F32 => PropertyType::Floats(n),
        _ => PropertyType::Array(element, n),
    }
}

/// `[T; N]` from the decoded elements, or the count error at `found`.
fn exactly<'a, T, const N: usize>(items: Vec<T>, found: &'a str) -> Result<[T; N], ValueError<'a>> {
    let count = items.len();
    items.try_into().map_err(|_| {
        ValueError::new(
            ValueErrorKind::ComponentCount {
                expected: N,
                found: count,
            },
            found,
        )
    })
}

impl<T: Element, const N: usize> Codec for [T; N] {
    const PROPERTY_TYPE: PropertyType = array_type(&T::PROPERTY_TYPE, N);

    fn encode(&self, out: &mut String) {
        let separator = if T::TOKEN { ' ' } else { '\n' };
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                out.push(separator);
            }
            if T::TOKEN {
                item.encode_token(out);
            } else {
                item.encode_element(out);
            }
        }
    }

    #[inline]
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        // `f32` elements: the one-pass float reader (a type test the compiler folds).
        if TypeId::of::<T>() == TypeId::of::<f32>() {
            let floats = read_floats::<N>(value)?;
            if let Some(items) = (&floats as &dyn Any).downcast_ref::<[T; N]>() {
                return Ok(items.clone());
            }
        }
        if T::TOKEN {
            let line = value.single()?;
            let items = tokens(line)
                .map(|token| T::decode_element(Value::one_line(token)))
                .collect::<Result<Vec<T>, _>>()?;
            exactly(items, line)
        } else {
            let items = value
                .lines()
                .map(|line| T::decode_element(Value::one_line(line)))
                .collect::<Result<Vec<T>, _>>()?;
            exactly(items, value.lines().last().unwrap_or(""))
        }
    }

    fn same_value(&self, other: &Self) -> bool {
        self.iter().zip(other).all(|(a, b)| a.same_value(b))
    }
}

/// An array of tokens is one line: an element of a list or map.
impl<T: Token, const N: usize> Element for [T; N] {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::test_support::{dec, enc};

    #[test]
    fn arrays_of_tokens_are_one_line() {
        assert_eq!(enc([255u8, 128, 0, 255]), "255 128 0 255");
        assert_eq!(dec::<[u8; 4]>("255, 128, 0, 255"), Ok([255, 128, 0, 255]));
        assert_eq!(enc([-1i32, 2]), "-1 2");
        assert_eq!(enc([1.5f32, -0.0]), "1.5 -0.0");
        assert_eq!(
            dec::<[f32; 2]>("1.5 -0.0").map(|a| a.map(f32::to_bits)),
            Ok([1.5f32.to_bits(), (-0.0f32).to_bits()])
        );
        assert_eq!(<[f32; 3]>::PROPERTY_TYPE, PropertyType::Floats(3));
        assert_eq!(
            <[u8; 4]>::PROPERTY_TYPE,
            PropertyType::Array(&PropertyType::U8, 4)
        );
    }

    #[test]
    fn arrays_of_lines_are_one_element_a_line() {
        let pair = [glam::Vec3::new(1.0, 2.0, 3.0), glam::Vec3::ZERO];
        assert_eq!(enc(pair), "1.0 2.0 3.0\n0.0 0.0 0.0");
        assert_eq!(dec::<[glam::Vec3; 2]>("1 2 3\n0 0 0"), Ok(pair));
    }

    #[test]
    fn a_wrong_count_names_both_counts() {
        assert_eq!(
            dec::<[u8; 4]>("1 2 3"),
            Err(ValueErrorKind::ComponentCount {
                expected: 4,
                found: 3
            })
        );
        assert_eq!(
            dec::<[glam::Vec2; 2]>("1 2"),
            Err(ValueErrorKind::ComponentCount {
                expected: 2,
                found: 1
            })
        );
        assert_eq!(
            dec::<[f32; 2]>("1 2 3"),
            Err(ValueErrorKind::ComponentCount {
                expected: 2,
                found: 3
            })
        );
    }

    #[test]
    fn glam_vectors_of_every_component_type() {
        assert_eq!(
            enc(glam::Quat::from_xyzw(0.0, 0.5, 0.0, 1.0)),
            "0.0 0.5 0.0 1.0"
        );
        assert_eq!(
            dec::<glam::Quat>("0 0.5 0 1"),
            Ok(glam::Quat::from_xyzw(0.0, 0.5, 0.0, 1.0))
        );
        assert_eq!(enc(glam::DVec3::new(0.1, 2.0, -3.5)), "0.1 2.0 -3.5");
        assert_eq!(dec::<glam::DQuat>("0 0 0 1"), Ok(glam::DQuat::IDENTITY));
        assert_eq!(enc(glam::IVec2::new(-1, 4)), "-1 4");
        assert_eq!(dec::<glam::UVec3>("1,2,3"), Ok(glam::UVec3::new(1, 2, 3)));
        assert_eq!(enc(glam::BVec2::new(true, false)), "true false");
        assert_eq!(
            dec::<glam::BVec3>("1 0 true"),
            Ok(glam::BVec3::new(true, false, true))
        );
        assert_eq!(
            dec::<glam::Vec3A>("1 2 3"),
            Ok(glam::Vec3A::new(1.0, 2.0, 3.0))
        );
        assert_eq!(
            dec::<glam::U8Vec4>("1 2 3 4"),
            Ok(glam::U8Vec4::new(1, 2, 3, 4))
        );
        assert_eq!(
            glam::DVec2::PROPERTY_TYPE,
            PropertyType::Array(&PropertyType::F64, 2)
        );
        assert_eq!(glam::Quat::PROPERTY_TYPE, PropertyType::Floats(4));
    }
}
