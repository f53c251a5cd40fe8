//! [`FixedStep`]: the accumulator that turns real frame times into fixed physics steps.
//!
//! ```
//! use juliet_constructs::{FixedStep, SimFloat};
//!
//! let mut clock = FixedStep::new(64);
//! // A 128 Hz frame is half a 64 Hz step: no step yet, then one.
//! let frame = SimFloat::from_int(1) / SimFloat::from_int(128);
//! assert_eq!(clock.advance(frame), 0);
//! assert_eq!(clock.advance(frame), 1);
//! assert_eq!(clock.advance(SimFloat::from_int(1) / SimFloat::from_int(20)), 3); // 3.2 steps
//! assert_eq!(clock.step(), SimFloat::from_int(1) / SimFloat::from_int(64));
//! ```

use super::SimFloat;

/// The default physics rate, in steps per second.
pub const DEFAULT_PHYSICS_HZ: u32 = 64;

/// The most steps one frame runs by default: a frame that took longer (a stall, a
/// breakpoint) drops the excess time rather than falling ever further behind.
pub const DEFAULT_MAX_STEPS_PER_FRAME: u32 = 8;

/// A fixed-rate step clock: [`FixedStep::advance`] adds a frame's real time and says
/// how many fixed steps are due. All arithmetic is [`SimFloat`], so the same frame
/// times give the same steps on every run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedStep {
    step: SimFloat,
    accumulator: SimFloat,
    max_steps: u32,
}

impl Default for FixedStep {
    fn default() -> Self {
        FixedStep::new(DEFAULT_PHYSICS_HZ)
    }
}

impl FixedStep {
    /// A clock of `hz` steps per second (at least 1) and at most
    /// [`DEFAULT_MAX_STEPS_PER_FRAME`] steps per frame.
    pub fn new(hz: u32) -> FixedStep {
        let hz = i32::try_from(hz.max(1)).unwrap_or(i32::MAX);
        FixedStep {
            step: SimFloat::ONE / SimFloat::from_int(hz),
            accumulator: SimFloat::ZERO,
            max_steps: DEFAULT_MAX_STEPS_PER_FRAME,
        }
    }

    /// The same clock with at most `max` steps per frame (at least 1).
    pub fn with_max_steps(mut self, max: u32) -> FixedStep {
        self.max_steps = max.max(1);
        self
    }

    /// The length of one step, in seconds.
    pub fn step(&self) -> SimFloat {
        self.step
    }

    /// Time added but not yet stepped, in seconds (less than one step after
    /// [`FixedStep::advance`]).
    pub fn pending(&self) -> SimFloat {
        self.accumulator
    }

    /// How far the pending time is into the next step, from 0 to 1 (for rendering
    /// between two physics states).
    pub fn alpha(&self) -> SimFloat {
        self.accumulator / self.step
    }

    /// Adds `real_dt` seconds (negative counts as zero) and returns how many steps are
    /// due now, at most the per-frame maximum (time past it is dropped).
    pub fn advance(&mut self, real_dt: SimFloat) -> u32 {
        self.accumulator += real_dt.max(SimFloat::ZERO);
        let mut steps = 0;
        while self.accumulator >= self.step && steps < self.max_steps {
            self.accumulator -= self.step;
            steps += 1;
        }
        if self.accumulator >= self.step {
            self.accumulator = SimFloat::ZERO;
        }
        steps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(n: i32, d: i32) -> SimFloat {
        SimFloat::from_int(n) / SimFloat::from_int(d)
    }

    #[test]
    fn one_second_of_any_frame_rate_gives_64_steps() {
        for fps in [30, 60, 64, 144] {
            let mut clock = FixedStep::default();
            let total: u32 = (0..fps).map(|_| clock.advance(secs(1, fps))).sum();
            // 1/fps is rounded down to a multiple of 2^-32, so a hair is missing.
            assert!((63..=64).contains(&total), "{fps} fps gave {total} steps");
            assert!(clock.pending() < clock.step());
        }
        let mut clock = FixedStep::default();
        assert_eq!(
            clock.advance(SimFloat::ONE),
            8,
            "capped at the per-frame maximum"
        );
        assert_eq!(clock.pending(), SimFloat::ZERO, "the excess is dropped");
    }

    #[test]
    fn steps_and_remainder_are_exact() {
        let mut clock = FixedStep::new(64).with_max_steps(100);
        assert_eq!(clock.advance(secs(3, 64) + secs(1, 128)), 3);
        assert_eq!(clock.pending(), secs(1, 128));
        assert_eq!(clock.alpha(), secs(1, 2));
        assert_eq!(clock.advance(secs(-1, 1)), 0, "negative time is ignored");
        assert_eq!(clock.advance(secs(1, 128)), 1);
        assert_eq!(clock.pending(), SimFloat::ZERO);
    }
}
