//! Constructs: singular gameplay objects with their own logic, beside entities.
#[cfg(feature = "physics")]
pub mod physics;
