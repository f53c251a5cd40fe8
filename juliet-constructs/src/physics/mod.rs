//! Physics for constructs (feature `physics`, on `rapier3d`): a kinematic
//! [`CharacterController`] and the static [`LevelPhysics`] it walks through.
//!
//! A level's collision geometry comes from its entities: [`LevelPhysics::from_entities`]
//! makes one axis-aligned box per [`Inert`](juliet_entities::kinds::Inert) entity that has a mesh
//! (see [`inert_box`]); a game maps its own meshes with
//! [`LevelPhysics::from_entities_with`]. A construct owns its controller by value and
//! moves it in its physics step:
//!
//! ```
//! use glam::Vec3;
//! use juliet_constructs::physics::{CharacterController, LevelPhysics, StaticCollider};
//! use juliet_constructs::SimFloat;
//!
//! // A floor 20 m square whose top is at y = 0.
//! let mut level = LevelPhysics::new();
//! level.add_static(StaticCollider::cuboid(Vec3::new(0.0, -0.5, 0.0), Vec3::new(10.0, 0.5, 10.0)))?;
//!
//! // A capsule 1.8 m tall, dropped from 1 m above the floor.
//! let mut character = CharacterController::new(Vec3::new(0.0, 1.9, 0.0), 0.3, 0.6)?;
//! for _ in 0..64 {
//!     character.update(&level, Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, -9.81, 0.0), SimFloat::from_float(1.0 / 64.0))?;
//! }
//! assert!(character.is_grounded());
//! assert!((character.feet().y - 0.0).abs() < 0.05);
//! assert!(character.position().x > 1.0);
//! # Ok::<(), juliet_constructs::physics::PhysicsError>(())
//! ```
//!
//! Units are metres, seconds and radians; "up" is opposite gravity. Rapier's math is
//! `f32`, so results are bit-identical from run to run of one build on one platform;
//! across platforms they may differ in the last bits.

mod character;
mod error;
mod level;

pub use character::{CharacterController, CharacterSettings};
pub use error::PhysicsError;
pub use level::{inert_box, LevelPhysics, RayHit, StaticCollider, StaticShape};

/// rapier's vector (glam of its own version) from this crate's.
fn to_rapier(v: glam::Vec3) -> rapier3d::math::Vector {
    rapier3d::math::Vector::from_array(v.to_array())
}

/// This crate's vector from rapier's.
fn from_rapier(v: rapier3d::math::Vector) -> glam::Vec3 {
    glam::Vec3::from_array(v.to_array())
}
