//! A small game, built outside the workspace by `tests/tests/game_tool.rs`: its own
//! `Projectile` (replacing the stock kind of that name), a renamed class with a renamed
//! key and a class with a migration. Its `jasset` binary (`src/bin/jasset.rs`) is the game's own tool.

use juliet_entities::glam::Vec3;
use juliet_entities::juliet_core::{Archive, Error};
use juliet_entities::Entity;

/// The game's projectile: it replaces the stock `Projectile`, and has none of its keys.
#[derive(Entity, Debug)]
pub struct Projectile {
    /// Damage on hit.
    #[jasset(default = 5.0)]
    pub damage: f32,
    /// Who fired it.
    pub owner: String,
}

/// Renamed from `Monster`: old levels still load.
#[derive(Entity, Debug)]
#[jasset(name = "Monster2", alias = "Monster")]
pub struct Monster {
    /// Hit points (`Hp` in old levels).
    #[jasset(default = 10, alias = "Hp")]
    pub health: i32,
}

/// A door; version 1 files had a boolean `Locked`, version 2 a lock code (0: open).
#[derive(Entity, Debug)]
#[jasset(version = 2, deprecated = "Locked", migrate = Door::migrate)]
pub struct Door {
    /// The code that opens it; 0 when it is not locked.
    pub lock_code: u32,
    /// Where it leads.
    pub leads_to: Vec3,
}

impl Door {
    fn migrate(&mut self, from: u32, ar: &mut Archive<'_>) -> Result<(), Error> {
        if from < 2 && ar.read_deprecated::<bool>("Locked")? == Some(true) {
            self.lock_code = 1234;
        }
        Ok(())
    }
}
