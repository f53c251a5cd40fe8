//! [`GameMode`]: server-side match rules, called as players join, leave and ask to
//! begin; [`Soul`]: a connected player's record.
//!
//! ```
//! use juliet_constructs::{
//!     construct, BeginRequest, Construct, FlowManager, GameMode, ModeContext, SimFloat, Soul,
//! };
//! use juliet_entities::World;
//!
//! #[derive(Construct, Default)]
//! struct Avatar {
//!     health: i32,
//! }
//! #[construct]
//! impl Avatar {}
//!
//! /// Event-driven rules: no tick at all.
//! #[derive(Default)]
//! struct Arena {
//!     joined: u32,
//! }
//!
//! impl GameMode for Arena {
//!     fn on_player_joined(&mut self, _soul: &mut Soul, _cx: &mut ModeContext<'_>) {
//!         self.joined += 1;
//!     }
//!     fn on_player_begin_request(
//!         &mut self,
//!         soul: &mut Soul,
//!         _request: &BeginRequest,
//!         cx: &mut ModeContext<'_>,
//!     ) {
//!         let avatar = cx.commands().spawn(Avatar { health: 100 });
//!         soul.take_control(avatar);
//!     }
//! }
//!
//! let mut flow = FlowManager::new(World::new("unused"));
//! flow.set_game_mode(Arena::default());
//! let ada = flow.join_player("Ada");
//! flow.begin_request(ada, &BeginRequest::default());
//! let avatar = flow.soul(ada).unwrap().controls()[0];
//! assert_eq!(flow.get_key::<Avatar>(avatar).unwrap().health, 100);
//! flow.leave_player(ada); // the avatar goes with its player
//! assert_eq!(flow.len(), 0);
//! ```
//!
//! A mode that needs per-frame logic is also a construct, spawned with
//! [`FlowManager::set_ticking_game_mode`](super::FlowManager::set_ticking_game_mode).

use std::fmt;

use glam::Vec3;
use juliet_entities::{EntityManager, World};

use super::context::{Commands, ConstructKey};

/// The id of a connected player, unique within one flow manager.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SoulId(pub(crate) u32);

impl SoulId {
    /// The number (join order).
    pub fn get(self) -> u32 {
        self.0
    }
}

/// A connected player: id, name and the constructs it controls (its avatar, say).
/// Players join and leave through the flow manager's API (there is no networking).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Soul {
    id: SoulId,
    name: String,
    controls: Vec<ConstructKey>,
}

impl Soul {
    pub(crate) fn new(id: SoulId, name: String) -> Soul {
        Soul {
            id,
            name,
            controls: Vec::new(),
        }
    }

    /// The player's id.
    pub fn id(&self) -> SoulId {
        self.id
    }

    /// The player's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The constructs the player controls, in the order it took them.
    pub fn controls(&self) -> &[ConstructKey] {
        &self.controls
    }

    /// Gives the player control of a construct (no effect when it has it already).
    pub fn take_control(&mut self, construct: impl Into<ConstructKey>) {
        let key = construct.into();
        if !self.controls.contains(&key) {
            self.controls.push(key);
        }
    }

    /// Takes control of a construct away from the player; returns whether it had it.
    pub fn release_control(&mut self, construct: impl Into<ConstructKey>) -> bool {
        let key = construct.into();
        let before = self.controls.len();
        self.controls.retain(|&k| k != key);
        self.controls.len() != before
    }

    /// Forgets constructs that no longer exist.
    pub(crate) fn retain_controls(&mut self, mut live: impl FnMut(ConstructKey) -> bool) {
        self.controls.retain(|&k| live(k));
    }
}

/// What a player asks for when it asks to begin playing (its character, where).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BeginRequest {
    /// The character (or class, or loadout) asked for; the mode decides what it means.
    pub character: Option<String>,
    /// A preferred spawn position, in meters.
    pub spawn_point: Option<Vec3>,
}

/// What a game-mode hook can reach: the world and deferred [`Commands`] (spawns take
/// effect when the hook returns; their ids are known at once).
pub struct ModeContext<'a> {
    pub(crate) world: &'a mut World,
    pub(crate) commands: &'a mut Commands,
}

impl fmt::Debug for ModeContext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ModeContext").finish_non_exhaustive()
    }
}

impl ModeContext<'_> {
    /// The world.
    pub fn world_mut(&mut self) -> &mut World {
        self.world
    }

    /// The world's entity manager.
    pub fn manager_mut(&mut self) -> &mut EntityManager {
        self.world.manager_mut()
    }

    /// Deferred spawns and destroys.
    pub fn commands(&mut self) -> &mut Commands {
        self.commands
    }
}

/// Server-authoritative match rules. Every hook has an empty default. A mode is not a
/// construct and gets no tick unless it is one too (derive `Construct`, write
/// `#[construct]` hooks, and install it with
/// [`FlowManager::set_ticking_game_mode`](super::FlowManager::set_ticking_game_mode)).
pub trait GameMode: 'static {
    /// A player joined (it controls nothing yet).
    fn on_player_joined(&mut self, soul: &mut Soul, cx: &mut ModeContext<'_>) {
        let _ = (soul, cx);
    }

    /// A player is leaving. The constructs it still controls when this returns are
    /// destroyed ([`Soul::release_control`] keeps one).
    fn on_player_left(&mut self, soul: &mut Soul, cx: &mut ModeContext<'_>) {
        let _ = (soul, cx);
    }

    /// A player asks to begin (spawn, respawn, pick a character).
    fn on_player_begin_request(
        &mut self,
        soul: &mut Soul,
        request: &BeginRequest,
        cx: &mut ModeContext<'_>,
    ) {
        let _ = (soul, request, cx);
    }
}
