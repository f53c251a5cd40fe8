// Rule: a rename that is the same key as another field's key.
use juliet_entities::Entity;

#[derive(Entity)]
struct Vehicle {
    max_speed: f32,
    #[jasset(rename = "MAX_SPEED")]
    top_speed: f32,
}

fn main() {}
