// Rule: `migrate` on a class at version 1 (there is no older version).
use juliet_entities::juliet_core::{Archive, Error};
use juliet_entities::Entity;

#[derive(Entity)]
#[jasset(migrate = migrate_lamp)]
struct Lamp {
    intensity: f32,
}

fn migrate_lamp(_: &mut Lamp, _: u32, _: &mut Archive<'_>) -> Result<(), Error> {
    Ok(())
}

fn main() {}
