// Rule: an alias that is the same key as another field's key (and an alias repeated
// on two fields).
use juliet_entities::Entity;

#[derive(Entity)]
struct Monster {
    health: i32,
    #[jasset(alias = "Health", alias = "Shield")]
    armor: i32,
    #[jasset(alias = "shield")]
    barrier: i32,
}

fn main() {}
