// Rule: a `Class`'s fields are private, so safe code cannot write a class literal whose
// property table lies about its type (forged_class: nor call `Class::of` unsafely).
use juliet_entities::juliet_core::{Class, PropertyDescriptor, Reflect};
use juliet_entities::kinds::Inert;

// A `String` descriptor over `Inert`'s first bytes.
static LITERAL: Class = Class {
    name: "Inert",
    properties: &[PropertyDescriptor::new::<String>("Mass", "mass", 0, &[])],
    ..*Inert::CLASS
};

fn main() {
    let _ = &LITERAL;
}
