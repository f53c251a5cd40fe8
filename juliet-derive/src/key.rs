//! Keys as the derive sees them: `juliet_key`'s rules (what a key may be, PascalCase of
//! field names, the normalization of docs/design.md, section 2.2, and the CRC-32 of the
//! normalized key, computed here so that collisions are compile errors), the same
//! functions `juliet_core` re-exports and matches files with.

pub(crate) use juliet_key::{key_crc, key_problem, normalize_key as normalize, pascal_case};
