// Rule: keys and class names must be ASCII identifiers.
use juliet_entities::Entity;

#[derive(Entity)]
#[jasset(name = "Big Rock")]
struct Rock {
    #[jasset(rename = "max speed")]
    speed: f32,
    größe: f32,
    #[jasset(alias = "9lives")]
    lives: u8,
}

fn main() {}
