// Rule: #[derive(Entity)] needs a struct with named fields (a tuple struct is refused).
use juliet_entities::Entity;

#[derive(Entity)]
struct Health(f32, f32);

fn main() {}
