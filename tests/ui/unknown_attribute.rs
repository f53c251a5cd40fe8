// Rule: unknown attributes, on the struct and on a field, and attributes in the wrong
// place.
use juliet_entities::Entity;

#[derive(Entity)]
#[jasset(verison = 2, rename = "Torch")]
struct Torch {
    #[jasset(defualt = 1.0)]
    brightness: f32,
    #[jasset(version = 3)]
    fuel: f32,
}

fn main() {}
