// Rule: `#[jasset(with = module)]` names a module with `encode` and `decode`; a module
// without them is an error at the path.
use juliet_entities::Entity;

mod nothing_here {}

#[derive(Entity)]
struct Beacon {
    #[jasset(with = nothing_here)]
    period: std::time::Duration,
}

fn main() {}
