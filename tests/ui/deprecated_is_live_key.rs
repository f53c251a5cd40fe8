// Rule: a deprecated key equal to a live key (a field key or an alias).
use juliet_entities::Entity;

#[derive(Entity)]
#[jasset(version = 2, deprecated = "velocity_x", deprecated = "OldSpeed")]
struct Projectile {
    velocity_x: f32,
    #[jasset(alias = "oldspeed")]
    speed: f32,
}

fn main() {}
