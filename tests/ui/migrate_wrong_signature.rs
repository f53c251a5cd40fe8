// Rule: the `migrate` function must be
// `fn(&mut Self, from_version: u32, &mut Archive<'_>) -> Result<(), Error>`; a wrong
// signature is reported at the path.
use juliet_entities::Entity;

#[derive(Entity)]
#[jasset(version = 2, migrate = migrate_lamp)]
struct Lamp {
    intensity: f32,
}

fn migrate_lamp(_: &mut Lamp, _: u32) {}

fn main() {}
