// Rule: in a list, a composite is written as `Key: value` lines, so each of its leaves
// needs a one-line form. A composite with a leaf of several lines (a list of lists) is
// still a field of its own; a list of it is refused at the field that holds the list.
// So is an enum with data whose variant has such a field.
use juliet_entities::{Codec, Entity};

#[derive(Codec, Clone, Default, PartialEq)]
struct Heightmap {
    rows: Vec<Vec<f32>>,
    scale: f32,
}

// The same for an enum with data: a variant's field of several lines.
#[derive(Codec, Clone, Default, PartialEq)]
enum Brush {
    #[default]
    Flat,
    Rows(Vec<Vec<f32>>),
}

#[derive(Entity)]
struct Terrain {
    tiles: Vec<Heightmap>,
    one: Heightmap,
    maybe: Option<Heightmap>,
    brushes: Vec<Brush>,
    brush: Brush,
}

fn main() {}
