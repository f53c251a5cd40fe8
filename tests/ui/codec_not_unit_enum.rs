// Rule: #[derive(Codec)] works on unit enums only.
use juliet_entities::Codec;

#[derive(Codec, Clone, PartialEq)]
enum Shape {
    Point,
    Circle(f32),
    Box { w: f32, h: f32 },
}

#[derive(Codec, Clone, PartialEq)]
struct Colour {
    rgb: u32,
}

#[derive(Codec, Clone, PartialEq)]
enum Never {}

fn main() {}
