// Rule: #[derive(Codec)] takes unit enums and structs with fields (composites); an enum
// with data, an empty enum and a struct without fields have no form.
use juliet_entities::Codec;

#[derive(Codec, Clone, PartialEq)]
enum Shape {
    Point,
    Circle(f32),
    Box { w: f32, h: f32 },
}

#[derive(Codec, Clone, PartialEq)]
struct Nothing;

#[derive(Codec, Clone, PartialEq)]
struct AllSkipped {
    #[jasset(skip)]
    cache: u32,
}

#[derive(Codec, Clone, PartialEq)]
enum Never {}

fn main() {}
