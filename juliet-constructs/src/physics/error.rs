//! [`PhysicsError`]: what the physics layer refuses, and why.

use glam::Vec3;
use juliet_entities::EntityId;
use thiserror::Error;

use crate::SimFloat;

/// A value the physics layer refuses. Nothing is changed when one is returned.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum PhysicsError {
    /// A length that must be positive and finite (a capsule's radius, a step height, a
    /// box's half-extent) is not.
    #[error("{what} must be a positive finite length in metres, got {value}")]
    BadLength {
        /// Which length (`"radius"`, `"half_height"`, ...).
        what: &'static str,
        /// The value given.
        value: f32,
    },
    /// An angle that must lie in 0..90 degrees is outside it or not finite.
    #[error("{what} must lie between 0 and 90 degrees, got {degrees} degrees")]
    BadAngle {
        /// Which angle (`"max_slope_climb_angle"`, ...).
        what: &'static str,
        /// The value given, in degrees.
        degrees: f32,
    },
    /// A negative time step.
    #[error("time step must not be negative, got {dt} s")]
    BadTimeStep {
        /// The time step given, in seconds.
        dt: SimFloat,
    },
    /// A vector argument (velocity, gravity, position) has a NaN or infinite component.
    #[error("{what} must be finite, got {value}")]
    NonFinite {
        /// Which argument (`"desired_velocity"`, `"gravity"`, `"position"`, ...).
        what: &'static str,
        /// The value given.
        value: Vec3,
    },
    /// A static collider's shape cannot be built: a degenerate convex hull, a bad
    /// triangle mesh, a zero or non-finite box size.
    #[error("{}static collider: {reason}", match .entity { Some(id) => format!("entity {id}: "), None => String::new() })]
    BadShape {
        /// The entity the collider was made for, when there is one.
        entity: Option<EntityId>,
        /// Why the shape was refused.
        reason: String,
    },
}

/// `Ok(value)` when `value` is a positive finite length.
pub(crate) fn check_length(what: &'static str, value: f32) -> Result<f32, PhysicsError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(PhysicsError::BadLength { what, value })
    }
}

/// `Ok(v)` when every component of `v` is finite.
pub(crate) fn check_finite(what: &'static str, value: Vec3) -> Result<Vec3, PhysicsError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(PhysicsError::NonFinite { what, value })
    }
}
