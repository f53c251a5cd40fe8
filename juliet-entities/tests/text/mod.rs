//! A class's text without a world, as the value tests compare it: the text a value saves,
//! a text loaded by the general path (tokenized), and the lines two texts differ in.
#![allow(dead_code)]

use std::path::Path;

use juliet_core::{Archive, Reflect, TokenBuffer};

/// The text `value` saves (`ClassVersion`, then its properties).
pub(crate) fn saved<T: Reflect>(value: &T) -> String {
    let mut text = String::new();
    value.save(&mut Archive::saving(&mut text));
    text
}

/// `text` tokenized (errors name `path`) and loaded over the class's default value.
pub(crate) fn loaded<T: Reflect>(text: &str, path: &str) -> Result<T, juliet_core::Error> {
    let mut buffer = TokenBuffer::new();
    let doc = buffer.tokenize(text.as_bytes(), Path::new(path))?;
    let mut value = T::default_value();
    value.load(&mut Archive::loading(doc))?;
    Ok(value)
}

/// The lines at which `before` and `after` differ, each pair (before, after), for two
/// texts of the same lines but for edits in place.
pub(crate) fn changed_lines<'a>(before: &'a str, after: &'a str) -> Vec<(&'a str, &'a str)> {
    before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .collect()
}
