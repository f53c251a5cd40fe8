//! [`SimFloat`]: the fixed-point number of deterministic simulation.
//!
//! ```
//! use juliet_constructs::SimFloat;
//!
//! let dt = SimFloat::from_int(1) / SimFloat::from_int(64);
//! let speed = SimFloat::from_meters(3.5);
//! let mut x = SimFloat::ZERO;
//! for _ in 0..64 {
//!     x += speed * dt;
//! }
//! assert_eq!(x, speed); // exact: no rounding drift
//! assert_eq!(x.to_string(), "3.5");
//! assert_eq!(SimFloat::MAX + SimFloat::ONE, SimFloat::MAX); // saturating
//! ```

use std::fmt;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};
use std::str::FromStr;

use fixed::types::I32F32;
use juliet_core::{Codec, PropertyType, Value, ValueError, ValueErrorKind};

/// A signed fixed-point number with 32 integer and 32 fraction bits (an `i64` counting
/// units of 2^-32): range about ±2.1e9, resolution about 2.3e-10.
///
/// Simulation state kept in `SimFloat`s is bit-identical from run to run and machine to
/// machine: every operation is integer arithmetic, rounded the same way everywhere.
/// Meters are the unit of positions by convention ([`SimFloat::from_meters`]).
///
/// # Overflow
/// The operators saturate: a result past [`SimFloat::MAX`] or [`SimFloat::MIN`] is
/// that bound, and a division by zero gives `MAX` or `MIN` by the sign of the dividend
/// (`ZERO` for `0 / 0`). They never panic, in debug or release builds. The `checked_*`
/// methods return `None` instead. Products and quotients are rounded toward negative
/// infinity in their last bit (the `fixed` crate's rule, the same on every machine).
///
/// # In `.jasset` files
/// A `SimFloat` field is a property (`PropertyType::Custom("SimFloat")`), written as the
/// shortest decimal that reads back to the same bits, always with a `.`
/// (`3.5`, `-0.015625`, `10.0`); read from any decimal, also with an exponent
/// such as `1e3` (rounded to the nearest representable value). Out-of-range values are
/// errors, never clamped.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimFloat(I32F32);

impl SimFloat {
    /// Zero.
    pub const ZERO: SimFloat = SimFloat(I32F32::ZERO);
    /// One.
    pub const ONE: SimFloat = SimFloat(I32F32::ONE);
    /// The largest value, just under 2^31.
    pub const MAX: SimFloat = SimFloat(I32F32::MAX);
    /// The smallest (most negative) value, -2^31.
    pub const MIN: SimFloat = SimFloat(I32F32::MIN);
    /// The smallest positive value, 2^-32.
    pub const EPSILON: SimFloat = SimFloat(I32F32::DELTA);

    /// The value of a float, rounded to the nearest representable value; saturating
    /// past [`SimFloat::MAX`]/[`SimFloat::MIN`] (and for infinities); `NaN` gives zero.
    pub fn from_float(value: f32) -> SimFloat {
        if value.is_nan() {
            return SimFloat::ZERO;
        }
        SimFloat(I32F32::saturating_from_num(value))
    }

    /// A distance in meters (the simulation's unit of length): the same as
    /// [`SimFloat::from_float`].
    pub fn from_meters(meters: f32) -> SimFloat {
        SimFloat::from_float(meters)
    }

    /// An integer, exactly (every `i32` is representable).
    pub const fn from_int(value: i32) -> SimFloat {
        SimFloat(I32F32::from_bits((value as i64) << 32))
    }

    /// The value whose raw representation is `bits` (units of 2^-32).
    pub const fn from_bits(bits: i64) -> SimFloat {
        SimFloat(I32F32::from_bits(bits))
    }

    /// The raw representation, in units of 2^-32 (for hashing and exact comparisons).
    pub const fn to_bits(self) -> i64 {
        self.0.to_bits()
    }

    /// The nearest `f32` (for rendering and physics engines; not for simulation state).
    pub fn to_float(self) -> f32 {
        self.0.to_num::<f32>()
    }

    /// The nearest `f64` (exact for values with up to 53 significant bits).
    pub fn to_f64(self) -> f64 {
        self.0.to_num::<f64>()
    }

    /// The absolute value, saturating (`MIN.abs()` is `MAX`).
    pub fn abs(self) -> SimFloat {
        SimFloat(self.0.saturating_abs())
    }

    /// `self + rhs`, or `None` on overflow.
    pub fn checked_add(self, rhs: SimFloat) -> Option<SimFloat> {
        self.0.checked_add(rhs.0).map(SimFloat)
    }

    /// `self - rhs`, or `None` on overflow.
    pub fn checked_sub(self, rhs: SimFloat) -> Option<SimFloat> {
        self.0.checked_sub(rhs.0).map(SimFloat)
    }

    /// `self * rhs`, or `None` on overflow.
    pub fn checked_mul(self, rhs: SimFloat) -> Option<SimFloat> {
        self.0.checked_mul(rhs.0).map(SimFloat)
    }

    /// `self / rhs`, or `None` on overflow or when `rhs` is zero.
    pub fn checked_div(self, rhs: SimFloat) -> Option<SimFloat> {
        self.0.checked_div(rhs.0).map(SimFloat)
    }
}

/// Implements each `$Op` (method `$op`) for [`SimFloat`] as the inner numbers'
/// `$saturating`.
macro_rules! saturating_operators {
    ($($Op:ident $op:ident $saturating:ident),*) => {$(
        impl $Op for SimFloat {
            type Output = SimFloat;
            #[inline]
            fn $op(self, rhs: SimFloat) -> SimFloat {
                SimFloat(self.0.$saturating(rhs.0))
            }
        }
    )*};
}

saturating_operators!(Add add saturating_add, Sub sub saturating_sub, Mul mul saturating_mul);

impl Div for SimFloat {
    type Output = SimFloat;
    #[inline]
    fn div(self, rhs: SimFloat) -> SimFloat {
        if rhs.0 == I32F32::ZERO {
            return match self.0.signum().to_bits() {
                0 => SimFloat::ZERO,
                b if b > 0 => SimFloat::MAX,
                _ => SimFloat::MIN,
            };
        }
        SimFloat(self.0.saturating_div(rhs.0))
    }
}

impl Neg for SimFloat {
    type Output = SimFloat;
    #[inline]
    fn neg(self) -> SimFloat {
        SimFloat(self.0.saturating_neg())
    }
}

/// Implements each `$OpAssign` (method `$op_assign`) for [`SimFloat`] as
/// `*self = *self $op rhs`.
macro_rules! assign_operators {
    ($($OpAssign:ident $op_assign:ident $op:tt),*) => {$(
        impl $OpAssign for SimFloat {
            #[inline]
            fn $op_assign(&mut self, rhs: SimFloat) {
                *self = *self $op rhs;
            }
        }
    )*};
}

assign_operators!(
    AddAssign add_assign +,
    SubAssign sub_assign -,
    MulAssign mul_assign *,
    DivAssign div_assign /
);

/// The shortest decimal that reads back to the same value (`3.5`, `-2`, `0.1`).
impl fmt::Display for SimFloat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for SimFloat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SimFloat({})", self.0)
    }
}

/// Why a text is not a [`SimFloat`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ParseSimFloatError {
    /// Not a decimal number.
    #[error("not a valid number")]
    Invalid,
    /// A number outside [`SimFloat::MIN`]..=[`SimFloat::MAX`].
    #[error("out of range for SimFloat (about -2.1e9 to 2.1e9)")]
    OutOfRange,
}

/// Reads a decimal (`-12.25`, `+3`, `.5`, `1e3`), rounded to the nearest value.
///
/// # Errors
/// [`ParseSimFloatError::Invalid`] for text that is not a number (including `inf` and
/// `nan`), [`ParseSimFloatError::OutOfRange`] for a number past the range.
impl FromStr for SimFloat {
    type Err = ParseSimFloatError;

    fn from_str(text: &str) -> Result<SimFloat, ParseSimFloatError> {
        I32F32::from_str(text).map(SimFloat).map_err(|_| {
            // `fixed` does not say publicly why it refused: a text that is a finite
            // number to `f64` was refused for its size.
            match text.parse::<f64>() {
                Ok(f) if f.is_finite() => ParseSimFloatError::OutOfRange,
                _ => ParseSimFloatError::Invalid,
            }
        })
    }
}

impl Codec for SimFloat {
    const PROPERTY_TYPE: PropertyType = PropertyType::Custom("SimFloat");

    fn encode(&self, out: &mut String) {
        let start = out.len();
        use std::fmt::Write;
        let _ = write!(out, "{self}");
        if !out[start..].contains('.') {
            out.push_str(".0");
        }
    }

    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let line = value.single()?;
        line.trim().parse::<SimFloat>().map_err(|e| {
            let kind = match e {
                ParseSimFloatError::Invalid => ValueErrorKind::InvalidNumber,
                ParseSimFloatError::OutOfRange => ValueErrorKind::OutOfRange("SimFloat"),
            };
            ValueError::new(kind, line)
        })
    }
}

#[cfg(test)]
mod tests;
