// Rule: `migrated_from` names a deprecated key of the struct, once, on a property.
use juliet_entities::Entity;

#[derive(Entity)]
#[jasset(version = 2, deprecated = "Speed")]
struct Projectile {
    #[jasset(migrated_from = "Sped")]
    velocity_x: f32,
    #[jasset(migrated_from = "speed", migrated_from = "Speed")]
    velocity_y: f32,
    #[jasset(skip, migrated_from = "Speed")]
    cache: f32,
}

#[derive(Entity)]
struct Plain {
    #[jasset(migrated_from = "Speed")]
    velocity_x: f32,
}

fn main() {}
