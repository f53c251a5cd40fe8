//! [`CharacterController`]: a kinematic capsule that walks through a [`LevelPhysics`].

use glam::Vec3;
use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier3d::geometry::Capsule;
use rapier3d::math::Pose;
use rapier3d::parry::query::ShapeCastOptions;
use rapier3d::pipeline::QueryPipeline;

use super::error::{check_finite, check_length, PhysicsError};
use super::level::LevelPhysics;
use super::{from_rapier, to_rapier};
use crate::SimFloat;

/// How a [`CharacterController`] is shaped and what it can climb. Lengths in metres,
/// angles in radians.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CharacterSettings {
    /// Capsule radius; 0.3 by default.
    pub radius: f32,
    /// Half the length of the capsule's cylinder (the whole capsule is
    /// `2 * (half_height + radius)` tall); 0.6 by default, so 1.8 m in all.
    pub half_height: f32,
    /// The highest step climbed without a jump; 0.35 by default.
    pub max_step_height: f32,
    /// The free floor a step must have beyond its edge to be climbed; 0.15 by default.
    pub min_step_width: f32,
    /// The steepest slope walked up (angle between its normal and up); 45 degrees by
    /// default. Steeper slopes block like walls. Must lie in 0..90 degrees.
    pub max_slope_climb_angle: f32,
    /// Slopes steeper than this slide the character down; 45 degrees by default. Must lie
    /// in 0..90 degrees.
    pub min_slope_slide_angle: f32,
    /// How far down a walking character is pulled onto the ground (down stairs and
    /// slopes, instead of flying off their edges); 0.2 by default, 0 turns it off.
    pub snap_to_ground: f32,
    /// The gap kept between the capsule and the level, for numerical stability; 0.01 by
    /// default.
    pub skin: f32,
}

impl Default for CharacterSettings {
    fn default() -> CharacterSettings {
        CharacterSettings {
            radius: 0.3,
            half_height: 0.6,
            max_step_height: 0.35,
            min_step_width: 0.15,
            max_slope_climb_angle: 45f32.to_radians(),
            min_slope_slide_angle: 45f32.to_radians(),
            snap_to_ground: 0.2,
            skin: 0.01,
        }
    }
}

impl CharacterSettings {
    /// `Ok(self)` when every length is positive and finite (`snap_to_ground` may be 0)
    /// and the angles lie in 0..90 degrees.
    ///
    /// # Errors
    /// [`PhysicsError::BadLength`] or [`PhysicsError::BadAngle`] naming the field.
    pub fn validate(self) -> Result<CharacterSettings, PhysicsError> {
        check_length("radius", self.radius)?;
        check_length("half_height", self.half_height)?;
        check_length("max_step_height", self.max_step_height)?;
        check_length("min_step_width", self.min_step_width)?;
        check_length("skin", self.skin)?;
        if self.snap_to_ground != 0.0 {
            check_length("snap_to_ground", self.snap_to_ground)?;
        }
        for (what, angle) in [
            ("max_slope_climb_angle", self.max_slope_climb_angle),
            ("min_slope_slide_angle", self.min_slope_slide_angle),
        ] {
            if !(angle.is_finite() && (0.0..=std::f32::consts::FRAC_PI_2).contains(&angle)) {
                return Err(PhysicsError::BadAngle {
                    what,
                    degrees: angle.to_degrees(),
                });
            }
        }
        Ok(self)
    }
}

/// A kinematic character: a capsule moved by [`CharacterController::update`] through
/// a level's static geometry, with grounding, stair stepping and slope sliding.
///
/// It is not an entity and lives in no storage: the construct that drives it owns it
/// by value, and writes its [`position`](CharacterController::position) to its view
/// after each step. It is `Clone` and deterministic: the same level, start and inputs
/// give bit-identical positions.
///
/// Each update:
/// * the desired velocity's horizontal part (perpendicular to gravity) is the walk;
///   the vertical part comes from gravity, accumulated while the character is in the
///   air or sliding, and from [`CharacterController::jump`];
/// * the capsule slides along what it hits; a wall lower than
///   [`CharacterSettings::max_step_height`] is stepped over; a slope steeper than
///   [`CharacterSettings::max_slope_climb_angle`] blocks, one steeper than
///   [`CharacterSettings::min_slope_slide_angle`] makes it slide down;
/// * then the ground under it decides [`is_grounded`](CharacterController::is_grounded)
///   (standing on walkable ground) and [`is_sliding`](CharacterController::is_sliding).
#[derive(Debug, Clone)]
pub struct CharacterController {
    settings: CharacterSettings,
    controller: KinematicCharacterController,
    shape: Capsule,
    position: Vec3,
    velocity: Vec3,
    vertical_speed: f32,
    ground_normal: Option<Vec3>,
    grounded: bool,
    sliding: bool,
}

impl CharacterController {
    /// A character with the default settings but for its capsule, centred on `position`
    /// (metres), with `radius` and `half_height` (half the cylinder's length).
    ///
    /// # Errors
    /// [`PhysicsError::BadLength`] for a radius or half-height that is not positive and
    /// finite; [`PhysicsError::NonFinite`] for a bad position.
    pub fn new(
        position: Vec3,
        radius: f32,
        half_height: f32,
    ) -> Result<CharacterController, PhysicsError> {
        CharacterController::with_settings(
            position,
            CharacterSettings {
                radius,
                half_height,
                ..CharacterSettings::default()
            },
        )
    }

    /// A character with `settings`, centred on `position` (metres).
    ///
    /// # Errors
    /// As [`CharacterSettings::validate`]; [`PhysicsError::NonFinite`] for a bad position.
    pub fn with_settings(
        position: Vec3,
        settings: CharacterSettings,
    ) -> Result<CharacterController, PhysicsError> {
        let s = settings.validate()?;
        check_finite("position", position)?;
        let controller = KinematicCharacterController {
            offset: CharacterLength::Absolute(s.skin),
            slide: true,
            autostep: Some(CharacterAutostep {
                max_height: CharacterLength::Absolute(s.max_step_height),
                min_width: CharacterLength::Absolute(s.min_step_width),
                include_dynamic_bodies: false,
            }),
            max_slope_climb_angle: s.max_slope_climb_angle,
            min_slope_slide_angle: s.min_slope_slide_angle,
            snap_to_ground: (s.snap_to_ground > 0.0)
                .then_some(CharacterLength::Absolute(s.snap_to_ground)),
            ..KinematicCharacterController::default()
        };
        Ok(CharacterController {
            settings: s,
            controller,
            shape: Capsule::new_y(s.half_height, s.radius),
            position,
            velocity: Vec3::ZERO,
            vertical_speed: 0.0,
            ground_normal: None,
            grounded: false,
            sliding: false,
        })
    }

    /// The settings it was made with.
    pub fn settings(&self) -> &CharacterSettings {
        &self.settings
    }

    /// Moves the character for `dt` seconds (the `dt` a `physics_step` hook gets)
    /// through `level`: `desired_velocity` (m/s)
    /// is the walk (its part along gravity is ignored: see
    /// [`CharacterController::jump`]), `gravity` (m/s², usually `(0, -9.81, 0)`) pulls
    /// it down and defines "up" (opposite gravity; +Y when gravity is zero).
    ///
    /// A `dt` of 0 changes nothing.
    ///
    /// # Errors
    /// [`PhysicsError::NonFinite`] for a NaN or infinite velocity or gravity,
    /// [`PhysicsError::BadTimeStep`] for a negative `dt`; the character is unchanged.
    pub fn update(
        &mut self,
        level: &LevelPhysics,
        desired_velocity: Vec3,
        gravity: Vec3,
        dt: SimFloat,
    ) -> Result<(), PhysicsError> {
        check_finite("desired_velocity", desired_velocity)?;
        check_finite("gravity", gravity)?;
        if dt < SimFloat::ZERO {
            return Err(PhysicsError::BadTimeStep { dt });
        }
        if dt == SimFloat::ZERO {
            return Ok(());
        }
        // rapier's math is f32; a fixed-point step converts exactly for the usual
        // rates (1/64 s is a power of two).
        let dt = dt.to_float();
        let g = gravity.length();
        let up = if g > 0.0 { -gravity / g } else { Vec3::Y };
        self.controller.up = to_rapier(up);
        let walk = desired_velocity - up * desired_velocity.dot(up);
        // Standing on walkable ground, gravity is not pressed into the floor: a
        // downward part in the sweep makes it hit the floor it stands on, which can
        // stall a tick's walk. Snapping to the ground keeps it on slopes and stairs.
        if !(self.grounded && !self.sliding && self.vertical_speed <= 0.0) {
            self.vertical_speed -= g * dt;
        }
        let desired = (walk + up * self.vertical_speed) * dt;

        let queries = level.queries();
        let movement = self.controller.move_shape(
            dt,
            &queries,
            &self.shape,
            &Pose::from_translation(to_rapier(self.position)),
            to_rapier(desired),
            |_| {},
        );
        let moved = from_rapier(movement.translation);
        self.position += moved;
        self.velocity = moved / dt;

        // The controller's own flags cannot tell standing from sliding (it reports a
        // slide whenever gravity presses into a flat floor), so the ground right under
        // the capsule decides both.
        self.ground_normal = self.probe_ground(&queries, up);
        let angle = self.ground_normal.map(|n| n.angle_between(up));
        self.grounded = angle.is_some_and(|a| a <= self.settings.max_slope_climb_angle);
        self.sliding = angle.is_some_and(|a| a > self.settings.min_slope_slide_angle);

        let rise = moved.dot(up) / dt;
        if self.grounded && !self.sliding && self.vertical_speed <= 0.0 {
            self.vertical_speed = 0.0;
        } else if self.vertical_speed < 0.0 {
            // Sliding, the controller moves the fall along the slope, which keeps
            // `sin² a` of it as vertical motion (the frictionless slide, accelerating at
            // `g sin² a` downwards); less than that means something holds the
            // character, and the speed it could not use is dropped. In the air, the
            // whole fall is vertical motion.
            let kept = match (self.sliding, angle) {
                (true, Some(a)) => a.sin().powi(2).max(0.05),
                _ => 1.0,
            };
            self.vertical_speed = self.vertical_speed.max(rise.min(0.0) / kept);
        } else {
            // Rising: a ceiling ends the jump.
            self.vertical_speed = self.vertical_speed.min(rise.max(0.0));
        }
        Ok(())
    }

    /// The normal of the ground within reach under the capsule, if any.
    fn probe_ground(&self, queries: &QueryPipeline<'_>, up: Vec3) -> Option<Vec3> {
        // On a slope of angle a the gap kept along its normal is `skin / cos a` tall,
        // so twice the skin reaches ground up to 60 degrees, and the margin beyond.
        let reach = 2.0 * self.settings.skin + 0.05;
        let (_, hit) = queries.cast_shape(
            &Pose::from_translation(to_rapier(self.position)),
            to_rapier(-up),
            &self.shape,
            ShapeCastOptions {
                target_distance: 0.0,
                stop_at_penetration: false,
                max_time_of_impact: reach,
                compute_impact_geometry_on_penetration: true,
            },
        )?;
        // `normal1` is the level's surface normal, pointing out towards the character.
        let n = from_rapier(hit.normal1);
        (n.dot(up) > 1.0e-3).then_some(n)
    }

    /// Gives the character an upward speed (m/s) when it stands on walkable ground;
    /// returns whether it did.
    pub fn jump(&mut self, speed: f32) -> bool {
        if self.grounded && speed.is_finite() && speed > 0.0 {
            self.vertical_speed = speed;
            self.grounded = false;
            true
        } else {
            false
        }
    }

    /// The centre of the capsule, in metres.
    pub fn position(&self) -> Vec3 {
        self.position
    }

    /// The bottom of the capsule (where it touches flat ground, less the skin), in
    /// metres, for gravity along -Y.
    pub fn feet(&self) -> Vec3 {
        self.position - Vec3::Y * (self.settings.half_height + self.settings.radius)
    }

    /// Moves the capsule's centre to `position` without a sweep (spawning,
    /// respawning), and clears its vertical speed and ground state.
    ///
    /// # Errors
    /// [`PhysicsError::NonFinite`] for a bad position; the character is unchanged.
    pub fn set_position(&mut self, position: Vec3) -> Result<(), PhysicsError> {
        self.position = check_finite("position", position)?;
        self.velocity = Vec3::ZERO;
        self.vertical_speed = 0.0;
        self.ground_normal = None;
        self.grounded = false;
        self.sliding = false;
        Ok(())
    }

    /// Whether the last update left the character standing on walkable ground (a slope
    /// no steeper than [`CharacterSettings::max_slope_climb_angle`]).
    pub fn is_grounded(&self) -> bool {
        self.grounded
    }

    /// Whether the ground under the character is steeper than
    /// [`CharacterSettings::min_slope_slide_angle`], so that it slides down.
    pub fn is_sliding(&self) -> bool {
        self.sliding
    }

    /// The normal of the ground under the character after the last update, if any
    /// was within reach.
    pub fn ground_normal(&self) -> Option<Vec3> {
        self.ground_normal
    }

    /// The velocity the last update achieved (its displacement over `dt`), m/s.
    pub fn velocity(&self) -> Vec3 {
        self.velocity
    }

    /// The speed along "up" that gravity and jumps have built (m/s; negative when
    /// falling).
    pub fn vertical_speed(&self) -> f32 {
        self.vertical_speed
    }
}
