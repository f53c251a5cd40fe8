// Rule: a `Class` says what type-erased code trusts (its property table, layout and
// type), so safe code cannot make one that lies: the constructor that takes a table,
// `Class::of`, is an unsafe fn, which a crate under `#![forbid(unsafe_code)]` cannot
// call (forged_class_literal: nor can it write a `Class` literal).
#![forbid(unsafe_code)]
use juliet_entities::juliet_core::{Class, PropertyDescriptor};
use juliet_entities::kinds::Inert;

// A `String` descriptor over `Inert`'s first bytes.
static MADE: Class = Class::of::<Inert>(
    "Inert",
    1,
    &[PropertyDescriptor::new::<String>("Mass", "mass", 0, &[])],
    &[],
);

fn main() {
    let _ = &MADE;
}
