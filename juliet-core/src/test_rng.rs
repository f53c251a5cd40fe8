//! The random source of juliet-core's randomized tests: proptest's deterministic
//! generator (a fixed-seed ChaCha stream, the same on every run).

use proptest::prelude::{Rng, RngExt};
use proptest::test_runner::{RngAlgorithm, TestRng};

fn rng() -> TestRng {
    TestRng::deterministic_rng(RngAlgorithm::ChaCha)
}

/// A draw of `n` gives a uniform value in `0..n` (`n` at least 1).
pub(crate) fn below() -> impl FnMut(usize) -> usize {
    let mut rng = rng();
    move |n| rng.random_range(0..n)
}

/// Each call gives 64 uniform random bits.
pub(crate) fn bits() -> impl FnMut() -> u64 {
    let mut rng = rng();
    move || rng.next_u64()
}

/// A run of 1 to `max` decimal digits made from `state` (the random bits of one draw):
/// its length from the low bits, its digits those of `state >> shift`, zero-padded to
/// `max`.
pub(crate) fn digits(state: u64, max: u64, shift: u32) -> String {
    let mut s = format!("{:0width$}", state >> shift, width = max as usize);
    s.truncate((state % max + 1) as usize);
    s
}
