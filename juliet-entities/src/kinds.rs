//! The stock entity kinds, derived with `#[derive(Entity)]`:
//! [`Inert`] (static props), [`Collectible`] (pickups) and [`Projectile`] (the
//! migration example of docs/design.md, section 4.4).
//!
//! They are registered like any game kind, so `Kind: Inert` files load without game
//! code, and they serve as examples of the derive. They are also stock kinds
//! ([`juliet_core::StockClass`]): a game's class of the same name (ASCII case and `_`
//! ignored) replaces one in [`juliet_core::Registry::global`], so that a game can define
//! its own `Projectile`. The replaced type is then no longer registered, and its
//! entities should not be made (they would save as the game's kind).

use glam::Vec3;
use juliet_core::{Archive, Error};

use crate::Entity;

/// A static prop: a mesh instance with physical and gameplay settings (the demo's
/// `RockLarge` template). Class version 2.
#[derive(Entity, Debug, Clone, PartialEq)]
#[jasset(version = 2)]
pub struct Inert {
    /// Renderer instance slot; `u32::MAX` (no instance) by default.
    #[jasset(default = u32::MAX)]
    pub mesh_instance: u32,
    /// Mesh asset path, relative to the project root.
    pub mesh_asset: String,
    /// Material that replaces the mesh's own (empty: none).
    pub material_override: String,
    /// Scale per axis; 1 1 1 by default.
    #[jasset(default = Vec3::ONE)]
    pub scale: Vec3,
    /// Mass in kilograms (0: static).
    pub mass: f32,
    /// Whether damage can destroy it.
    pub is_destructible: bool,
    /// Whether it is rendered; true by default.
    #[jasset(default = true)]
    pub is_visible: bool,
    /// Hit points; 100 by default.
    #[jasset(default = 100.0)]
    pub health: f32,
}

/// A pickup worth `value` points.
#[derive(Entity, Debug, Clone, PartialEq)]
pub struct Collectible {
    /// Points granted when picked up; 100 by default.
    #[jasset(default = 100)]
    pub value: u32,
}

/// A projectile (docs/design.md, section 4.4). Class version 2: version 1 files had a scalar
/// `Speed`, which the migration turns into `VelocityX` (with `VelocityY` 0); it is
/// never written again.
#[derive(Entity, Debug, Clone, PartialEq)]
#[jasset(version = 2, deprecated = "Speed", migrate = Projectile::migrate)]
pub struct Projectile {
    /// Horizontal velocity, units per second.
    #[jasset(migrated_from = "Speed")]
    pub velocity_x: f32,
    /// Vertical velocity, units per second.
    #[jasset(migrated_from = "Speed")]
    pub velocity_y: f32,
    /// Damage dealt on hit; 50 by default.
    #[jasset(default = 50.0)]
    pub damage: f32,
}

impl Projectile {
    /// Migrates a file of class version `from` (called by the derived loader when
    /// `from < 2`): `Speed` becomes `VelocityX`, and `VelocityY` is 0.
    ///
    /// # Errors
    /// [`juliet_core::ErrorKind::BadValue`] when `Speed` is not a number.
    fn migrate(&mut self, from: u32, ar: &mut Archive<'_>) -> Result<(), Error> {
        if from < 2 {
            if let Some(speed) = ar.read_deprecated::<f32>("Speed")? {
                self.velocity_x = speed;
                self.velocity_y = 0.0;
            }
        }
        Ok(())
    }
}

juliet_core::inventory::submit! { juliet_core::StockClass { class: <Inert as juliet_core::Reflect>::CLASS } }
juliet_core::inventory::submit! { juliet_core::StockClass { class: <Collectible as juliet_core::Reflect>::CLASS } }
juliet_core::inventory::submit! { juliet_core::StockClass { class: <Projectile as juliet_core::Reflect>::CLASS } }
