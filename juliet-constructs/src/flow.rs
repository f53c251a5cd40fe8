//! [`FlowManager`]: owns the world and the spawned constructs, runs frames (the
//! fixed-step loop) and the lifetime transitions, and calls the game mode.
//!
//! ```
//! use juliet_constructs::{construct, Construct, ConstructLifetime, FlowManager, SimFloat};
//! use juliet_entities::World;
//!
//! #[derive(Construct, Default)]
//! struct Mover {
//!     x: SimFloat,
//!     frames: u32,
//! }
//!
//! #[construct]
//! impl Mover {
//!     fn physics_step(&mut self, dt: SimFloat) {
//!         self.x += SimFloat::from_int(2) * dt; // 2 m/s
//!     }
//!     fn scalar_update(&mut self, _dt: SimFloat) {
//!         self.frames += 1;
//!     }
//! }
//!
//! let mut flow = FlowManager::new(World::new("unused")); // physics at 64 Hz
//! let mover = flow.spawn(Mover::default());
//! for _ in 0..32 {
//!     flow.frame(SimFloat::from_int(1) / SimFloat::from_int(32)); // two steps a frame
//! }
//! let m = flow.get(mover).unwrap();
//! assert_eq!((m.x, m.frames), (SimFloat::from_int(2), 32));
//!
//! flow.unload_level(); // `Mover` is a `Level` construct
//! assert!(flow.get(mover).is_none());
//! ```
//!
//! [`Commands::spawn`] is defined here too, beside the [`FlowManager`]'s set of
//! constructs that its deferred spawns go into.

use std::any::Any;
use std::fmt;

use juliet_entities::World;

use super::batch::{ConstructBatch, ConstructSet, TickPhase};
use super::clock::FixedStep;
use super::context::{Commands, ConstructId, ConstructKey, Resources, TickContext};
use super::mode::{BeginRequest, GameMode, ModeContext, Soul, SoulId};
use super::traits::{Construct, ConstructLifetime, DynConstruct};
use super::SimFloat;

/// The installed game mode.
enum Mode {
    None,
    Plain(Box<dyn GameMode>),
    /// A mode that is also a spawned construct.
    Construct {
        key: ConstructKey,
        cast: fn(&mut dyn Any) -> Option<&mut dyn GameMode>,
    },
}

/// The gameplay layer's driver: the [`World`], the spawned constructs and their tick
/// batches, shared [`Resources`], the fixed-step clock, the players and the game mode.
///
/// # A frame
/// [`FlowManager::frame`] runs the `pre_input` hooks once, then the `physics_step`
/// hooks as many times as the [`FixedStep`] clock says (64 Hz by default, with the
/// fixed step as `dt`), then the `scalar_update` hooks once with the frame's real
/// time. Within a phase, hooks run by [`TickGroup`](super::TickGroup), then order, then
/// spawn order (a parent before its `Owned` children). [`Commands`] queued during a
/// phase are carried out when it ends.
///
/// # Transitions
/// By [`ConstructLifetime`]: [`FlowManager::unload_level`] destroys `Level`
/// constructs; [`FlowManager::reset_world`] destroys `Level` and `World` ones and
/// carries the others over to the new world (`on_world_teardown`, views released,
/// then `on_world_initialized`); [`FlowManager::end_session`] destroys all but
/// `Persistent` ones. Destroying a construct destroys its views' entities, then drops
/// it; several go in spawn order.
pub struct FlowManager {
    set: ConstructSet,
    world: World,
    resources: Resources,
    commands: Commands,
    clock: FixedStep,
    frame: u64,
    physics_tick: u64,
    souls: Vec<Soul>,
    next_soul: u32,
    mode: Mode,
}

impl fmt::Debug for FlowManager {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlowManager")
            .field("constructs", &self.set)
            .field("clock", &self.clock)
            .field("frame", &self.frame)
            .field("physics_tick", &self.physics_tick)
            .field("souls", &self.souls)
            .finish_non_exhaustive()
    }
}

impl FlowManager {
    /// A flow manager over `world`, with physics at 64 Hz.
    pub fn new(world: World) -> FlowManager {
        FlowManager::with_clock(world, FixedStep::default())
    }

    /// A flow manager over `world` stepping physics with `clock`.
    pub fn with_clock(world: World, clock: FixedStep) -> FlowManager {
        FlowManager {
            set: ConstructSet::new(),
            world,
            resources: Resources::default(),
            commands: Commands::new(),
            clock,
            frame: 0,
            physics_tick: 0,
            souls: Vec::new(),
            next_soul: 1,
            mode: Mode::None,
        }
    }

    /// The world.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, mutably.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// The shared resources.
    pub fn resources(&self) -> &Resources {
        &self.resources
    }

    /// The shared resources, mutably (insert a physics world or an input state here).
    pub fn resources_mut(&mut self) -> &mut Resources {
        &mut self.resources
    }

    /// The fixed-step clock.
    pub fn clock(&self) -> &FixedStep {
        &self.clock
    }

    /// The number of frames run.
    pub fn frame_count(&self) -> u64 {
        self.frame
    }

    /// The number of physics steps run.
    pub fn physics_tick(&self) -> u64 {
        self.physics_tick
    }

    /// Spawns `value`: registers its tick hooks (and its `Owned` children's), then
    /// initializes its views (`initialize_views`, then the children's depth-first).
    pub fn spawn<T: Construct>(&mut self, value: T) -> ConstructId<T> {
        let key = self.commands.next_key();
        self.set.insert(key, value);
        if let Some(c) = self.set.get_dyn_mut(key) {
            c.init(&mut self.world);
        }
        ConstructId::new(key)
    }

    /// Destroys the construct `key`: its views' entities (then its children's), then
    /// the value (dropped). Returns whether it existed.
    pub fn destroy(&mut self, key: impl Into<ConstructKey>) -> bool {
        let key = key.into();
        let Some(mut value) = self.set.remove(key) else {
            return false;
        };
        value.destroy_views(self.world.manager_mut());
        drop(value);
        for soul in &mut self.souls {
            soul.release_control(key);
        }
        if matches!(self.mode, Mode::Construct { key: k, .. } if k == key) {
            self.mode = Mode::None;
        }
        true
    }

    /// The construct `id`.
    pub fn get<T: Construct>(&self, id: ConstructId<T>) -> Option<&T> {
        self.set.get(id.key())
    }

    /// The construct `id`, mutably.
    pub fn get_mut<T: Construct>(&mut self, id: ConstructId<T>) -> Option<&mut T> {
        self.get_key_mut(id.key())
    }

    /// The construct `key`, when it is a `T`.
    pub fn get_key<T: Construct>(&self, key: ConstructKey) -> Option<&T> {
        self.set.get(key)
    }

    /// The construct `key`, mutably, when it is a `T`.
    pub fn get_key_mut<T: Construct>(&mut self, key: ConstructKey) -> Option<&mut T> {
        self.set.get_dyn_mut(key)?.as_any_mut().downcast_mut()
    }

    /// Whether the construct `key` exists.
    pub fn contains(&self, key: impl Into<ConstructKey>) -> bool {
        self.set.contains(key.into())
    }

    /// The number of spawned constructs (`Owned` children not counted).
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// Whether no construct is spawned.
    pub fn is_empty(&self) -> bool {
        self.set.len() == 0
    }

    /// The keys of the spawned constructs, in spawn order.
    pub fn keys(&self) -> Vec<ConstructKey> {
        self.set.keys()
    }

    /// The tick batch of `phase`, sorted (for inspection: the entries in the order
    /// they run).
    pub fn batch(&mut self, phase: TickPhase) -> &ConstructBatch {
        self.set.batch(phase)
    }

    /// Runs one frame of `real_dt` seconds (see the type's docs); returns the number of
    /// physics steps it ran.
    pub fn frame(&mut self, real_dt: SimFloat) -> u32 {
        self.run(TickPhase::PreInput, SimFloat::ZERO);
        let steps = self.clock.advance(real_dt);
        for _ in 0..steps {
            self.step_physics();
        }
        self.run(TickPhase::ScalarUpdate, real_dt);
        self.frame += 1;
        steps
    }

    /// Runs the `physics_step` hooks once, with the fixed step as `dt` (outside of
    /// [`FlowManager::frame`]: for tests and tools).
    pub fn step_physics(&mut self) {
        let dt = self.clock.step();
        self.run(TickPhase::PhysicsStep, dt);
        self.physics_tick += 1;
    }

    /// Runs the hooks of `phase`, then the commands they queued.
    fn run(&mut self, phase: TickPhase, dt: SimFloat) {
        let mut cx = TickContext {
            world: &mut self.world,
            resources: &mut self.resources,
            commands: &mut self.commands,
            frame: self.frame,
            physics_tick: self.physics_tick,
        };
        self.set.run(phase, &mut cx, dt);
        self.apply_commands();
    }

    /// Carries out the queued spawns (in order, each initialized), then the destroys.
    /// Each pending spawn is given the set of constructs ([`Commands::spawn`]).
    fn apply_commands(&mut self) {
        while !self.commands.is_empty() {
            let (spawns, destroys) = self.commands.take();
            for (key, spawn) in spawns {
                spawn(&mut self.set, key);
                if let Some(c) = self.set.get_dyn_mut(key) {
                    c.init(&mut self.world);
                }
            }
            for key in destroys {
                self.destroy(key);
            }
        }
    }

    /// Destroys, in spawn order, the constructs whose lifetime `doomed` picks.
    fn destroy_where(&mut self, doomed: impl Fn(ConstructLifetime) -> bool) {
        let mut keys = Vec::new();
        self.set.for_each_mut(|key, c| {
            if doomed(c.lifetime()) {
                keys.push(key);
            }
        });
        for key in keys {
            self.destroy(key);
        }
    }

    /// Unloads the level: destroys the `Level` constructs.
    pub fn unload_level(&mut self) {
        self.destroy_where(|l| l == ConstructLifetime::Level);
    }

    /// Resets the world to `new_world` and returns the old one: destroys the `Level`
    /// and `World` constructs (their views' entities in the old world); then, in spawn
    /// order, each survivor gets `on_world_teardown` with the old world and its views
    /// are released (its state is kept), children after parents; then the worlds swap
    /// and each survivor gets `on_world_initialized` with the new world (by default
    /// `initialize_views` again).
    pub fn reset_world(&mut self, new_world: World) -> World {
        self.destroy_where(|l| l <= ConstructLifetime::World);
        let old = &mut self.world;
        self.set
            .for_each_mut(|_, c: &mut dyn DynConstruct| c.teardown(old));
        let old = std::mem::replace(&mut self.world, new_world);
        let new = &mut self.world;
        self.set
            .for_each_mut(|_, c: &mut dyn DynConstruct| c.world_initialized(new));
        old
    }

    /// Ends the session: destroys every construct but the `Persistent` ones. The
    /// world, the players and the game mode stay (a ticking mode is destroyed unless
    /// it is `Persistent`).
    pub fn end_session(&mut self) {
        self.destroy_where(|l| l <= ConstructLifetime::Session);
    }

    /// Destroys every construct (views' entities included) and returns the world.
    pub fn into_world(mut self) -> World {
        self.destroy_where(|_| true);
        std::mem::replace(&mut self.world, World::with_project_root("", ""))
    }

    /// Installs an event-driven game mode (no tick), replacing the previous one (a
    /// ticking one is destroyed).
    pub fn set_game_mode(&mut self, mode: impl GameMode) {
        self.clear_mode();
        self.mode = Mode::Plain(Box::new(mode));
    }

    /// Installs a game mode that is also a construct: spawned like any construct (it
    /// ticks through its hooks), and called for player events. Replaces the previous
    /// mode (a ticking one is destroyed).
    pub fn set_ticking_game_mode<M: GameMode + Construct>(&mut self, mode: M) -> ConstructId<M> {
        self.clear_mode();
        let id = self.spawn(mode);
        self.mode = Mode::Construct {
            key: id.key(),
            cast: |c| c.downcast_mut::<M>().map(|m| m as &mut dyn GameMode),
        };
        id
    }

    fn clear_mode(&mut self) {
        if let Mode::Construct { key, .. } = std::mem::replace(&mut self.mode, Mode::None) {
            self.destroy(key);
        }
    }

    /// The connected players, in join order.
    pub fn souls(&self) -> &[Soul] {
        &self.souls
    }

    /// The player `id`, while connected.
    pub fn soul(&self, id: SoulId) -> Option<&Soul> {
        self.souls.iter().find(|s| s.id() == id)
    }

    /// The player `id`, mutably, while connected.
    pub fn soul_mut(&mut self, id: SoulId) -> Option<&mut Soul> {
        self.souls.iter_mut().find(|s| s.id() == id)
    }

    /// Calls `hook` of the game mode (if any) for the player at `index`, then carries
    /// out the commands it queued.
    fn call_mode(
        &mut self,
        index: usize,
        hook: impl FnOnce(&mut dyn GameMode, &mut Soul, &mut ModeContext<'_>),
    ) {
        let mut cx = ModeContext {
            world: &mut self.world,
            commands: &mut self.commands,
        };
        let soul = &mut self.souls[index];
        match &mut self.mode {
            Mode::None => {}
            Mode::Plain(mode) => hook(mode.as_mut(), soul, &mut cx),
            Mode::Construct { key, cast } => {
                if let Some(mode) = self
                    .set
                    .get_dyn_mut(*key)
                    .and_then(|c| cast(c.as_any_mut()))
                {
                    hook(mode, soul, &mut cx);
                }
            }
        }
        self.apply_commands();
        let set = &self.set;
        self.souls[index].retain_controls(|k| set.contains(k));
    }

    fn soul_index(&self, id: SoulId) -> Option<usize> {
        self.souls.iter().position(|s| s.id() == id)
    }

    /// A player joins under `name`: a new [`Soul`], then `on_player_joined`.
    pub fn join_player(&mut self, name: impl Into<String>) -> SoulId {
        let id = SoulId(self.next_soul);
        self.next_soul += 1;
        self.souls.push(Soul::new(id, name.into()));
        self.call_mode(self.souls.len() - 1, |m, soul, cx| {
            m.on_player_joined(soul, cx)
        });
        id
    }

    /// The player `id` asks to begin: `on_player_begin_request`. Returns whether the
    /// player is connected.
    pub fn begin_request(&mut self, id: SoulId, request: &BeginRequest) -> bool {
        let Some(index) = self.soul_index(id) else {
            return false;
        };
        self.call_mode(index, |m, soul, cx| {
            m.on_player_begin_request(soul, request, cx)
        });
        true
    }

    /// The player `id` leaves: `on_player_left`, then the constructs it still controls
    /// are destroyed and the soul is removed. Returns whether it was connected.
    pub fn leave_player(&mut self, id: SoulId) -> bool {
        let Some(index) = self.soul_index(id) else {
            return false;
        };
        self.call_mode(index, |m, soul, cx| m.on_player_left(soul, cx));
        let soul = self.souls.remove(index);
        for &key in soul.controls() {
            self.destroy(key);
        }
        true
    }
}

impl Commands {
    /// Spawns `value` when the current phase ends (its views are initialized then).
    pub fn spawn<T: Construct>(&mut self, value: T) -> ConstructId<T> {
        let key = self.next_key();
        self.defer_spawn(
            key,
            Box::new(move |set: &mut dyn Any, key| {
                set.downcast_mut::<ConstructSet>()
                    .expect("a pending spawn is given the flow manager's set of constructs")
                    .insert(key, value);
            }),
        );
        ConstructId::new(key)
    }
}
