//! The same inputs give bit-identical construct and entity state: a hash of both
//! after 10,000 physics ticks is the same on two runs.

use std::hash::{DefaultHasher, Hash, Hasher};

use glam::Vec3;
use juliet_entities::{kinds::Inert, World};

use super::world;
use crate::{construct, Construct, ConstructView, FlowManager, Owned, SimFloat, TickContext};

/// A bouncing body: fixed-point state, written to its entity every step.
#[derive(Construct)]
struct Ball {
    body: ConstructView<Inert>,
    pos: [SimFloat; 2],
    vel: [SimFloat; 2],
    spin: Owned<Spin>,
}

#[construct]
impl Ball {
    fn initialize_views(&mut self, world: &mut World) {
        self.body.initialize(world.manager_mut(), Vec3::ZERO);
    }

    fn physics_step(&mut self, cx: &mut TickContext<'_>, dt: SimFloat) {
        let gravity = SimFloat::from_float(-9.81);
        self.vel[1] += gravity * dt;
        for axis in 0..2 {
            self.pos[axis] += self.vel[axis] * dt;
        }
        let floor = SimFloat::ZERO;
        if self.pos[1] < floor {
            self.pos[1] = floor - self.pos[1];
            self.vel[1] = -self.vel[1] * SimFloat::from_float(0.9);
        }
        let wall = SimFloat::from_int(10);
        if self.pos[0].abs() > wall {
            self.vel[0] = -self.vel[0];
        }
        self.spin.angle += self.vel[0] * dt;
        let p = Vec3::new(self.pos[0].to_float(), self.pos[1].to_float(), 0.0);
        if let Some((e, inert)) = self.body.parts_mut(cx.manager_mut()) {
            e.set_position(p);
            inert.health = self.spin.angle.to_float();
        }
    }
}

#[derive(Construct, Default)]
struct Spin {
    angle: SimFloat,
    turns: u32,
}

#[construct]
impl Spin {
    fn physics_step(&mut self, _dt: SimFloat) {
        if self.angle > SimFloat::from_int(360) {
            self.angle -= SimFloat::from_int(360);
            self.turns += 1;
        }
    }
}

/// Runs `ticks` physics ticks (as 60 Hz frames) of three balls and hashes every construct's
/// fields and every entity's position and derived struct bits.
fn run(ticks: u64) -> u64 {
    let mut flow = FlowManager::new(world());
    let mut ids = Vec::new();
    for i in 0..3 {
        ids.push(flow.spawn(Ball {
            body: ConstructView::new(),
            pos: [SimFloat::from_int(i), SimFloat::from_int(5 + i)],
            vel: [SimFloat::from_float(1.5 + i as f32), SimFloat::ZERO],
            spin: Owned::default(),
        }));
    }
    let frame = SimFloat::ONE / SimFloat::from_int(60);
    while flow.physics_tick() < ticks {
        flow.frame(frame);
    }
    let mut h = DefaultHasher::new();
    flow.physics_tick().hash(&mut h);
    for id in ids {
        let b = flow.get(id).unwrap();
        (b.pos, b.vel, b.spin.angle, b.spin.turns).hash(&mut h);
    }
    for (e, inert) in flow.world().manager().iter::<Inert>() {
        e.position().to_array().map(f32::to_bits).hash(&mut h);
        inert.health.to_bits().hash(&mut h);
    }
    h.finish()
}

#[test]
fn ten_thousand_ticks_hash_the_same_twice() {
    let first = run(10_000);
    assert_eq!(first, run(10_000));
    // The hash sees the state: a shorter run gives another one.
    assert_ne!(first, run(5_000));
}
