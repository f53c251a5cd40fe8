//! The checks the fuzz targets run, one function per target. They panic when an
//! invariant breaks (that is a finding); bad input itself must only give typed errors.
//!
//! `tests/tests/fuzz_regressions.rs` compiles the same `checks.rs` on stable and replays
//! every input under `tests/fuzz-regressions/<target>/` through it.

mod checks;

pub use checks::*;
