// Rule: #[derive(Entity)] needs a struct with named fields (a unit struct is refused,
// with a hint to write `{}`).
use juliet_entities::Entity;

#[derive(Entity)]
struct Marker;

fn main() {}
