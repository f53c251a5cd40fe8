// Rule: a hook takes `&mut self` and an accepted number of arguments, is not generic
// or async; every bad hook of the block is reported at once, at the method.
use juliet_constructs::{construct, Construct, SimFloat};

#[derive(Construct)]
struct Door;

#[construct]
impl Door {
    fn pre_input(&self) {}
    fn scalar_update(&mut self) {}
    fn physics_step<T>(&mut self, _dt: SimFloat) {}
    async fn on_world_teardown(&mut self) {}
}

fn main() {}
