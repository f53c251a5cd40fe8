// Rule: a construct needs a `#[construct]` impl block besides the derive; spawning one
// without it is an error that says so.
use juliet_constructs::{Construct, FlowManager};
use juliet_entities::World;

#[derive(Construct)]
struct Lonely;

fn main() {
    let mut flow = FlowManager::new(World::new("w"));
    flow.spawn(Lonely);
}
