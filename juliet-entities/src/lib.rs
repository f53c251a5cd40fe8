//! Entity runtime of Juliet-rs (filled by the runtime issue).
pub use juliet_core;
