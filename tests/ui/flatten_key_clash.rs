// Rule: a flattened composite's leaves are the class's own keys, so one that is keyed
// like another property of the class is refused when the table is built.
use juliet_entities::{Codec, Entity};

#[derive(Codec, Clone, Default)]
struct Health {
    max_health: f32,
    regen: f32,
}

#[derive(Entity)]
struct Turret {
    #[jasset(flatten)]
    health: Health,
    regen: f32,
}

fn main() {}
