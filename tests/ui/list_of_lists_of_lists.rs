// Rule: a list of lists is written one inner list a line, so the inner elements must be
// single tokens; a third level has no form and is refused at the field.
use juliet_entities::Entity;

#[derive(Entity)]
struct Voxels {
    grid: Vec<Vec<Vec<f32>>>,
    ok: Vec<Vec<f32>>,
}

fn main() {}
