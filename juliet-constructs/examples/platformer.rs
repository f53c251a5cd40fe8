//! A headless platformer: a `Player` construct walks a character across the demo's
//! `Platformer` level for ten simulated seconds (up a step, blocked by a wall, round
//! it and down a ramp) while a `Turret` construct tracks it, and prints the path and
//! the tick order of one frame.
//!
//! ```sh
//! cargo run --release --example platformer    # from the repository root
//! ```
//!
//! (From `juliet-constructs/`, add `--features physics`.) Its test,
//! `cargo test -p juliet-constructs --features physics --example platformer`, runs the
//! simulation for 10,000 ticks twice and compares the state bit for bit.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::Path;

use glam::{Vec2, Vec3};
use juliet_constructs::physics::{
    inert_box, CharacterController, CharacterSettings, LevelPhysics, StaticCollider, StaticShape,
};
use juliet_constructs::{
    construct, contract, Construct, ConstructId, ConstructView, FlowManager, Owned, SimFloat,
    TickContext, TickPhase,
};
use juliet_entities::kinds::Inert;
use juliet_entities::prelude::*;

/// The level: `demo/Assets/Worlds/Platformer`.
const LEVEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../demo/Assets/Worlds/Platformer"
);
/// The mesh the level's ramp uses; every other mesh is a box.
const RAMP_MESH: &str = "Assets/Meshes/Ramp.obj";
/// Physics steps a second (the flow manager's default rate).
const HZ: u32 = 64;
const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);

// ---------------------------------------------------------------------------------------
// The level.
// ---------------------------------------------------------------------------------------

/// How this game maps its meshes to colliders: the ramp mesh is a wedge filling the
/// entity's box, high at -X; everything else is the stock box.
fn collider_of(entity: &Entity, inert: &Inert) -> Option<StaticCollider> {
    if inert.mesh_asset != RAMP_MESH || !inert.is_visible {
        return inert_box(entity, inert);
    }
    let h = inert.scale.abs() * 0.5;
    let points = [-h.z, h.z]
        .into_iter()
        .flat_map(|z| {
            [
                Vec3::new(-h.x, -h.y, z),
                Vec3::new(h.x, -h.y, z),
                Vec3::new(-h.x, h.y, z),
            ]
        })
        .collect();
    Some(StaticCollider {
        shape: StaticShape::ConvexHull { points },
        position: entity.position(),
        rotation: glam::Quat::IDENTITY,
        entity: Some(entity.id()),
    })
}

/// The position of the entity saved as `<name>.jasset` in `world`.
fn marker(world: &World, name: &str) -> Result<Vec3, String> {
    world
        .manager()
        .entities()
        .iter()
        .find(|e| {
            world
                .file_of(e.id())
                .and_then(|p| p.file_stem())
                .is_some_and(|stem| stem == name)
        })
        .map(|e| e.position())
        .ok_or_else(|| format!("{LEVEL}: no {name}.jasset"))
}

// ---------------------------------------------------------------------------------------
// Input: what a gamepad would give, scripted.
// ---------------------------------------------------------------------------------------

/// The left stick (x: +X, y: +Z), -1..1 on each axis: a resource the game sets each
/// frame, read by the player's `pre_input` hook.
#[derive(Debug, Default, Clone, Copy)]
struct Gamepad {
    stick: Vec2,
}

/// The scripted stick at physics tick `tick` (64 a second). A 20-second loop: ten
/// seconds across the level (east until 4 s, against the wall from about 2.5 s; north
/// past the wall's end; east again, down the ramp), then ten seconds back.
fn script(tick: u64) -> Vec2 {
    let t = (tick % (20 * HZ as u64)) as f32 / HZ as f32;
    match t {
        t if t < 4.0 => Vec2::X,
        t if t < 4.6 => Vec2::Y,
        t if t < 10.0 => Vec2::X,
        t if t < 15.4 => -Vec2::X,
        t if t < 16.0 => -Vec2::Y,
        _ => -Vec2::X,
    }
}

// ---------------------------------------------------------------------------------------
// The player.
// ---------------------------------------------------------------------------------------

/// The player's body in the entity storage (a kind of this game).
#[derive(Entity, Debug, Clone, PartialEq)]
struct PlayerBody {
    /// Walking speed, m/s.
    #[jasset(default = SimFloat::from_int(3))]
    walk_speed: SimFloat,
    /// Metres walked on the ground so far.
    walked: SimFloat,
}

/// Where the player's feet are after the last physics step: a resource the player
/// writes and the turret's targeting reads.
#[derive(Debug, Clone, Copy)]
struct PlayerFeet(Vec3);

/// The player: its body entity, through a view, and its character controller, which
/// lives here and not in the entity storage.
#[derive(Construct)]
struct Player {
    body: ConstructView<PlayerBody>,
    controller: CharacterController,
    /// The walk velocity asked for this frame, m/s.
    wish: Vec3,
}

#[construct]
impl Player {
    fn initialize_views(&mut self, world: &mut World) {
        self.body
            .initialize(world.manager_mut(), self.controller.feet());
    }

    #[tick(group = PreInput)]
    fn pre_input(&mut self, cx: &mut TickContext<'_>) {
        let stick = cx.resource::<Gamepad>().map_or(Vec2::ZERO, |g| g.stick);
        let speed = self
            .body
            .get(cx.manager())
            .map_or(0.0, |b| b.walk_speed.to_float());
        self.wish = Vec3::new(stick.x, 0.0, stick.y) * speed;
    }

    fn physics_step(&mut self, cx: &mut TickContext<'_>, dt: SimFloat) {
        let (manager, resources) = cx.split_mut();
        let Some(level) = resources.get::<LevelPhysics>() else {
            return;
        };
        let before = self.controller.feet();
        if let Err(e) = self.controller.update(level, self.wish, GRAVITY, dt) {
            tracing::warn!("player: {e}");
            return;
        }
        let feet = self.controller.feet();
        if let Some((entity, body)) = self.body.parts_mut(manager) {
            entity.set_position(feet);
            if self.controller.is_grounded() {
                let step = (feet - before) * Vec3::new(1.0, 0.0, 1.0);
                body.walked += SimFloat::from_meters(step.length());
            }
        }
        resources.insert(PlayerFeet(feet));
    }
}

// ---------------------------------------------------------------------------------------
// The turret: a body, and two children by value.
// ---------------------------------------------------------------------------------------

/// What a turret's barrel must do: the contract of its `Owned` barrel.
trait Targetable {
    /// Turn towards `yaw` (degrees about +Y, 0 along +X); fire if `in_sight`.
    fn aim(&mut self, yaw: SimFloat, in_sight: bool);
}
contract!(Targetable);

/// Finds the player: the bearing to it and whether the level hides it.
#[derive(Construct, Debug, Default)]
struct Targeting {
    /// The turret's eye, metres.
    eye: Vec3,
    /// Bearing to the player, degrees.
    yaw: SimFloat,
    in_sight: bool,
}

// Children take their parent's group so that they tick after it (in one group,
// parents run before their children).
#[construct(group = PostDefault)]
impl Targeting {
    fn physics_step(&mut self, cx: &mut TickContext<'_>, _dt: SimFloat) {
        let (Some(level), Some(feet)) =
            (cx.resource::<LevelPhysics>(), cx.resource::<PlayerFeet>())
        else {
            self.in_sight = false;
            return;
        };
        let chest = feet.0 + Vec3::Y * 1.2;
        let to = chest - self.eye;
        self.yaw = SimFloat::from_float(to.z.atan2(to.x).to_degrees());
        let distance = to.length();
        self.in_sight = level
            .cast_ray(self.eye, to, distance)
            .is_none_or(|hit| hit.distance >= distance);
    }
}

/// Turns at a limited rate and fires when it points at a target in sight.
#[derive(Construct, Debug, Default)]
struct Barrel {
    yaw: SimFloat,
    target: SimFloat,
    armed: bool,
    cooldown: SimFloat,
    shots: u32,
}

impl Targetable for Barrel {
    fn aim(&mut self, yaw: SimFloat, in_sight: bool) {
        self.target = yaw;
        self.armed = in_sight;
    }
}

#[construct(group = PostDefault)]
impl Barrel {
    fn physics_step(&mut self, dt: SimFloat) {
        let full = SimFloat::from_int(360);
        let half = SimFloat::from_int(180);
        // The shortest way round, in -180..180 degrees.
        let mut error = self.target - self.yaw;
        while error > half {
            error -= full;
        }
        while error < -half {
            error += full;
        }
        let max = SimFloat::from_int(90) * dt; // 90 degrees a second
        let turn = if error > max {
            max
        } else if error < -max {
            -max
        } else {
            error
        };
        self.yaw += turn;
        self.cooldown = if self.cooldown > dt {
            self.cooldown - dt
        } else {
            SimFloat::ZERO
        };
        if self.armed
            && (error - turn).abs() < SimFloat::from_int(2)
            && self.cooldown == SimFloat::ZERO
        {
            self.shots += 1;
            self.cooldown = SimFloat::from_float(0.5);
        }
    }
}

/// A turret: a body, the targeting that finds the player and the barrel it steers.
/// It ticks after gameplay (`PostDefault`), when the player has moved; its children
/// tick after it, so the barrel follows what the targeting saw one step earlier.
#[derive(Construct)]
struct Turret {
    body: ConstructView<Inert>,
    mount: Vec3,
    targeting: Owned<Targeting>,
    barrel: Owned<Barrel, dyn Targetable>,
}

#[construct(group = PostDefault)]
impl Turret {
    fn initialize_views(&mut self, world: &mut World) {
        self.body.initialize(world.manager_mut(), self.mount);
        if let Some(body) = self.body.get_mut(world.manager_mut()) {
            body.mesh_asset = "Assets/Meshes/Turret.obj".to_owned();
        }
    }

    fn physics_step(&mut self, _dt: SimFloat) {
        let (yaw, in_sight) = (self.targeting.yaw, self.targeting.in_sight);
        self.barrel.aim(yaw, in_sight);
    }
}

/// A camera that follows the player, once a frame, after gameplay.
#[derive(Construct, Debug, Default)]
struct FollowCamera {
    position: Vec3,
}

#[construct(group = Camera)]
impl FollowCamera {
    fn scalar_update(&mut self, cx: &mut TickContext<'_>, dt: SimFloat) {
        let Some(feet) = cx.resource::<PlayerFeet>() else {
            return;
        };
        // Behind and above the player, closing 5/s of the distance.
        let target = feet.0 + Vec3::new(-6.0, 3.0, 0.0);
        let follow = (5.0 * dt.to_float()).min(1.0);
        self.position += (target - self.position) * follow;
    }
}

// ---------------------------------------------------------------------------------------
// The simulation.
// ---------------------------------------------------------------------------------------

/// The level, its constructs and the flow manager that runs them.
struct Simulation {
    flow: FlowManager,
    player: ConstructId<Player>,
    turret: ConstructId<Turret>,
    camera: ConstructId<FollowCamera>,
}

impl Simulation {
    /// Loads the level and spawns the player at `PlayerSpawn` and the turret at
    /// `TurretMount`.
    fn new() -> Result<Simulation, Box<dyn std::error::Error>> {
        let (world, report) = World::load(Path::new(LEVEL), &LoadOptions::default())?;
        if !report.is_clean() {
            return Err(format!("{LEVEL}: {report:?}").into());
        }
        let level = LevelPhysics::from_entities_with(world.manager(), collider_of)?;
        let spawn = marker(&world, "PlayerSpawn")?;
        let mount = marker(&world, "TurretMount")?;

        let mut flow = FlowManager::new(world);
        flow.resources_mut().insert(level);
        flow.resources_mut().insert(Gamepad::default());
        // Spawned before the player, it still runs after it: its group is `Camera`.
        let camera = flow.spawn(FollowCamera::default());
        // A capsule 1.8 m tall, radius 0.3, standing on the spawn point.
        let settings = CharacterSettings::default();
        let above_feet = Vec3::Y * (settings.half_height + settings.radius + settings.skin);
        let player = flow.spawn(Player {
            body: ConstructView::new(),
            controller: CharacterController::with_settings(spawn + above_feet, settings)?,
            wish: Vec3::ZERO,
        });
        let turret = flow.spawn(Turret {
            body: ConstructView::new(),
            mount,
            targeting: Owned::new(Targeting {
                eye: mount + Vec3::Y * 1.5,
                ..Targeting::default()
            }),
            barrel: Owned::default(),
        });
        Ok(Simulation {
            flow,
            player,
            turret,
            camera,
        })
    }

    /// One frame of one physics step, with the scripted stick.
    fn frame(&mut self) {
        let stick = script(self.flow.physics_tick());
        if let Some(pad) = self.flow.resources_mut().get_mut::<Gamepad>() {
            pad.stick = stick;
        }
        self.flow
            .frame(SimFloat::ONE / SimFloat::from_int(HZ as i32));
    }

    fn player(&self) -> &Player {
        self.flow
            .get(self.player)
            .expect("the player is never destroyed")
    }

    fn turret(&self) -> &Turret {
        self.flow
            .get(self.turret)
            .expect("the turret is never destroyed")
    }

    /// A hash of the whole simulated state, bit for bit: the character, the
    /// constructs' numbers, every entity's position and the player body's fields.
    fn state_hash(&self) -> u64 {
        let mut h = DefaultHasher::new();
        let p = self.player();
        let c = &p.controller;
        for v in [c.position(), c.velocity(), p.wish] {
            v.to_array().map(f32::to_bits).hash(&mut h);
        }
        (
            c.vertical_speed().to_bits(),
            c.is_grounded(),
            c.is_sliding(),
        )
            .hash(&mut h);
        let t = self.turret();
        (t.targeting.yaw.to_bits(), t.targeting.in_sight).hash(&mut h);
        let b = &*t.barrel;
        (
            b.yaw.to_bits(),
            b.target.to_bits(),
            b.cooldown.to_bits(),
            b.shots,
        )
            .hash(&mut h);
        if let Some(camera) = self.flow.get(self.camera) {
            camera.position.to_array().map(f32::to_bits).hash(&mut h);
        }
        let manager = self.flow.world().manager();
        for e in manager.entities() {
            (e.id(), e.position().to_array().map(f32::to_bits)).hash(&mut h);
        }
        for body in manager.slice::<PlayerBody>() {
            (body.walk_speed.to_bits(), body.walked.to_bits()).hash(&mut h);
        }
        h.finish()
    }
}

/// What the player is doing, for the printed path.
fn activity(p: &Player, previous_feet_y: f32) -> &'static str {
    let c = &p.controller;
    // The capsule's round bottom rolls over a step's edge in a few ticks.
    if c.feet().y > previous_feet_y + 0.005 {
        "up the step"
    } else if !c.is_grounded() {
        "in the air"
    } else if p.wish.length() > 0.0 && c.velocity().length() < 0.05 {
        "blocked by the wall"
    } else if c.velocity().y < -0.3 {
        "down the slope"
    } else if p.wish.z.abs() > 0.0 {
        "round the wall's end"
    } else {
        "walking"
    }
}

/// `v` as the path table prints positions: metres to the centimetre (the controller's
/// skin and `f32` sums leave digits no reader wants, as `0.00999999`).
fn metres(v: Vec3) -> String {
    format!("({:.2}, {:.2}, {:.2})", v.x, v.y, v.z)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut sim = Simulation::new()?;
    println!("level: demo/Assets/Worlds/Platformer");
    println!(
        "{} static colliders; player at {}, turret at {}",
        sim.flow
            .resources()
            .get::<LevelPhysics>()
            .map_or(0, LevelPhysics::len),
        metres(sim.player().controller.feet()),
        metres(sim.turret().mount)
    );
    println!();
    println!("path (feet, metres; every 0.25 s of the 10 simulated seconds):");
    println!("     t      x      y      z  grounded  doing");
    let mut last_note = "";
    let mut feet_y = sim.player().controller.feet().y;
    for tick in 1..=10 * HZ as u64 {
        sim.frame();
        let p = sim.player();
        let note = activity(p, feet_y);
        feet_y = p.controller.feet().y;
        if tick % 16 == 0 || (note != last_note && note == "up the step") {
            let f = p.controller.feet();
            println!(
                "{:6.2} {:6.2} {:6.2} {:6.2}  {:8}  {}",
                tick as f32 / HZ as f32,
                f.x,
                f.y,
                f.z,
                p.controller.is_grounded(),
                note
            );
        }
        last_note = note;
    }
    let p = sim.player();
    let walked = p
        .body
        .get(sim.flow.world().manager())
        .map_or(SimFloat::ZERO, |b| b.walked);
    println!();
    let shots = sim.turret().barrel.shots;
    println!(
        "after 10 s: feet at {}, walked {:.2} m on the ground; the turret fired {shots} {}",
        metres(p.controller.feet()),
        walked.to_f64(),
        if shots == 1 { "shot" } else { "shots" }
    );

    println!();
    println!("tick order of one frame:");
    for (phase, name) in [
        (TickPhase::PreInput, "pre_input"),
        (TickPhase::PhysicsStep, "physics_step (x1 per 1/64 s)"),
        (TickPhase::ScalarUpdate, "scalar_update"),
    ] {
        let batch = sim.flow.batch(phase);
        println!("  {name}:");
        if batch.is_empty() {
            println!("    (no construct wrote this hook: no entry)");
        }
        for (i, e) in batch.entries().iter().enumerate() {
            let short = e.type_name().rsplit("::").next().unwrap_or(e.type_name());
            println!(
                "    {}. {short} (group {:?}, order {}, construct #{})",
                i + 1,
                e.group(),
                e.order(),
                e.owner().get()
            );
        }
    }
    println!();
    println!(
        "state hash after {} ticks: {:016x}",
        sim.flow.physics_tick(),
        sim.state_hash()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The state hash after `ticks` frames of a fresh simulation; `nudge` changes the
    /// stick on one tick.
    fn run(ticks: u64, nudge: Option<u64>) -> u64 {
        let mut sim = Simulation::new().unwrap();
        for tick in 0..ticks {
            if Some(tick) == nudge {
                let stick = script(tick) + Vec2::new(0.0, 0.25);
                sim.flow.resources_mut().insert(Gamepad { stick });
                sim.flow
                    .frame(SimFloat::ONE / SimFloat::from_int(HZ as i32));
            } else {
                sim.frame();
            }
        }
        sim.state_hash()
    }

    #[test]
    fn ten_thousand_ticks_twice_give_the_same_state_bit_for_bit() {
        let first = run(10_000, None);
        let second = run(10_000, None);
        assert_eq!(first, second);
        // The hash sees the state: one different input early on changes it.
        assert_ne!(run(10_000, Some(100)), first);
    }

    #[test]
    fn the_walk_goes_up_the_step_stops_at_the_wall_and_ends_down_the_ramp() {
        let mut sim = Simulation::new().unwrap();
        let mut on_step = false;
        let mut blocked = 0;
        for _ in 0..10 * HZ {
            sim.frame();
            let p = sim.player();
            let f = p.controller.feet();
            on_step |= (3.0..8.0).contains(&f.x) && (0.29..0.33).contains(&f.y);
            if p.wish.x > 0.0 && p.controller.velocity().x.abs() < 0.05 {
                blocked += 1;
                assert!(f.x < 8.0, "blocked past the wall: {f}");
            }
        }
        assert!(on_step, "never stood on the step");
        assert!(blocked > 32, "blocked for {blocked} ticks only");
        let f = sim.player().controller.feet();
        assert!(
            f.x > 20.4 && (f.y + 2.0).abs() < 0.05,
            "not on the low ground: {f}"
        );
        assert!(sim.turret().barrel.shots > 0, "the turret never fired");
    }
}
