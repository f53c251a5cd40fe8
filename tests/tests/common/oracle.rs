//! The general load path, forced (`#[path]`-included, not a test target): the oracle
//! the canonical-reading tests compare `load_text` and `from_text` with.

use std::path::Path;

use juliet_core::{Archive, Error, LoadTextReport, Reflect, TokenBuffer};

/// Loads `bytes` over `value` the general way: tokenize (errors labelled with `path`),
/// `Reflect::load`, then the unconsumed-key audit (suggesting the class's keys); the
/// report says `direct: false`.
pub(crate) fn general<T: Reflect>(
    bytes: &[u8],
    value: &mut T,
    path: &str,
) -> Result<LoadTextReport, Error> {
    let mut buffer = TokenBuffer::new();
    let mut ar = Archive::loading(buffer.tokenize(bytes, Path::new(path))?);
    value.load(&mut ar)?;
    let known: Vec<&str> = T::CLASS.known_keys().collect();
    let unknown = ar.audit_unconsumed_suggesting(&known);
    Ok(LoadTextReport::new(false, ar.take_warnings(), unknown))
}

/// The saved text of `value` (exact for floats: the writer's shortest round-trip form).
pub(crate) fn save<T: Reflect>(value: &T) -> String {
    let mut out = String::new();
    value.save(&mut Archive::saving(&mut out));
    out
}
