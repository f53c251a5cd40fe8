// Rule: a tick hook's `dt` is a `SimFloat`; a hook of another type is a compile error
// at the method's name.
use juliet_constructs::{construct, Construct};

#[derive(Construct)]
struct Player {
    x: f32,
}

#[construct]
impl Player {
    fn physics_step(&mut self, dt: f32) {
        self.x += dt;
    }
}

fn main() {}
