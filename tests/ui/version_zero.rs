// Rule: `version = 0` is refused (class versions start at 1).
use juliet_entities::Entity;

#[derive(Entity)]
#[jasset(version = 0)]
struct Door {
    open: bool,
}

fn main() {}
