// Rule: #[derive(Entity)] needs a struct with named fields (an enum is refused).
use juliet_entities::Entity;

#[derive(Entity)]
enum Weather {
    Sunny,
    Rain,
}

fn main() {}
