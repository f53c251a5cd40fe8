// Rule: `#[jasset(default)]` on the struct makes `Default::default()` the whole
// default-init stub, so a field `default = expr` would be ignored; a struct-level
// `default` takes no value.
use juliet_entities::Entity;

#[derive(Entity, Default)]
#[jasset(default)]
struct Lamp {
    #[jasset(default = 800.0)]
    intensity: f32,
}

#[derive(Entity, Default)]
#[jasset(default = Lamp2::new())]
struct Lamp2 {
    intensity: f32,
}

fn main() {}
