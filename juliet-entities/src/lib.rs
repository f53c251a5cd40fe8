//! Entity runtime of Juliet-rs (filled by the runtime issue).

// The derive's generated code names `::juliet_entities::juliet_core`; this makes that
// path work inside this crate too (its stock kinds derive `Entity`).
extern crate self as juliet_entities;

pub use juliet_core;
pub use juliet_derive::{Codec, Entity};
