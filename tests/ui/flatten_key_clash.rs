// Rule: a flattened composite's leaves are the class's own keys, so one that is keyed
// like another property, another property's alias or a deprecated key of the class is
// refused when the table is built.
use juliet_entities::{Codec, Entity};

#[derive(Codec, Clone, Default)]
struct Health {
    max_health: f32,
    regen: f32,
}

#[derive(Entity)]
struct Turret {
    #[jasset(flatten)]
    health: Health,
    regen: f32,
}

#[derive(Entity)]
struct Tower {
    #[jasset(flatten)]
    health: Health,
    #[jasset(alias = "MaxHealth")]
    hp: f32,
}

#[derive(Entity)]
#[jasset(version = 2, deprecated = "Regen", migrate = Wall::migrate)]
struct Wall {
    #[jasset(flatten)]
    health: Health,
}

impl Wall {
    fn migrate(
        &mut self,
        _: u32,
        _: &mut juliet_entities::juliet_core::Archive<'_>,
    ) -> Result<(), juliet_entities::juliet_core::Error> {
        Ok(())
    }
}

fn main() {}
