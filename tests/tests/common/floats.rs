//! Float strategies shared by the proptests (`#[path]`-included, not a test target):
//! every bit pattern, with NaN mapped to the canonical quiet NaN (the text form `nan`
//! has no payload, so NaNs compare by that).

use proptest::prelude::*;

/// Any `f32` bit pattern, NaN made canonical.
pub(crate) fn any_f32() -> impl Strategy<Value = f32> {
    any::<u32>().prop_map(|bits| {
        let f = f32::from_bits(bits);
        if f.is_nan() {
            f32::NAN
        } else {
            f
        }
    })
}

/// Any `f64` bit pattern, NaN made canonical.
pub(crate) fn any_f64() -> impl Strategy<Value = f64> {
    any::<u64>().prop_map(|bits| {
        let f = f64::from_bits(bits);
        if f.is_nan() {
            f64::NAN
        } else {
            f
        }
    })
}
