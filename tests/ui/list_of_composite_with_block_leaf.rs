// Rule: in a list, a composite is written as `Key: value` lines, so each of its leaves
// needs a one-line form. A composite with a leaf of several lines (a list of lists) is
// still a field of its own; a list of it is refused at the field that holds the list.
use juliet_entities::{Codec, Entity};

#[derive(Codec, Clone, Default, PartialEq)]
struct Heightmap {
    rows: Vec<Vec<f32>>,
    scale: f32,
}

#[derive(Entity)]
struct Terrain {
    tiles: Vec<Heightmap>,
    one: Heightmap,
    maybe: Option<Heightmap>,
}

fn main() {}
