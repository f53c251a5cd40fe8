// Rule: `#[construct]` takes `lifetime`, `group` and `order` with known values, and
// `#[tick]` goes on a tick hook only.
use juliet_constructs::{construct, Construct, SimFloat};
use juliet_entities::World;

#[derive(Construct)]
struct Camera;

#[construct(lifetime = Forever, group = Early, order = 40000)]
impl Camera {
    #[tick(group = Camera)]
    fn initialize_views(&mut self, _world: &mut World) {}
    #[tick(order = 1)]
    fn helper(&mut self) {}
    #[tick(group = Late)]
    fn scalar_update(&mut self, _dt: SimFloat) {}
}

fn main() {}
