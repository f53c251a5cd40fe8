//! Game-mode hooks: the order they are called in, what they can spawn, what happens
//! to a leaving player's constructs, and a mode that ticks because it is a construct.

use super::{note, world, Log};
use crate::{
    construct, BeginRequest, Construct, FlowManager, GameMode, ModeContext, SimFloat, Soul,
};

#[derive(Construct)]
struct Avatar {
    character: String,
}
#[construct]
impl Avatar {}

/// Event-driven: logs every hook.
struct Rules {
    log: Log,
}

impl GameMode for Rules {
    fn on_player_joined(&mut self, soul: &mut Soul, _cx: &mut ModeContext<'_>) {
        note(
            &self.log,
            format!("joined {} #{}", soul.name(), soul.id().get()),
        );
    }
    fn on_player_begin_request(
        &mut self,
        soul: &mut Soul,
        request: &BeginRequest,
        cx: &mut ModeContext<'_>,
    ) {
        let character = request.character.clone().unwrap_or_default();
        note(&self.log, format!("begin {} as {character}", soul.name()));
        let id = cx.commands().spawn(Avatar { character });
        soul.take_control(id);
    }
    fn on_player_left(&mut self, soul: &mut Soul, _cx: &mut ModeContext<'_>) {
        note(
            &self.log,
            format!("left {} controlling {}", soul.name(), soul.controls().len()),
        );
    }
}

#[test]
fn hooks_run_in_order_and_a_leaving_players_constructs_go() {
    let log = Log::default();
    let mut flow = FlowManager::new(world());
    flow.set_game_mode(Rules { log: log.clone() });
    let ada = flow.join_player("Ada");
    let bob = flow.join_player("Bob");
    let knight = BeginRequest {
        character: Some("knight".into()),
        ..BeginRequest::default()
    };
    assert!(flow.begin_request(ada, &knight));
    assert!(flow.begin_request(bob, &BeginRequest::default()));
    let avatar = flow.soul(ada).unwrap().controls()[0];
    assert_eq!(flow.get_key::<Avatar>(avatar).unwrap().character, "knight");
    assert!(flow.leave_player(ada));
    assert!(!flow.leave_player(ada), "already gone");
    assert!(!flow.begin_request(ada, &knight));
    assert_eq!(
        *log.borrow(),
        [
            "joined Ada #1",
            "joined Bob #2",
            "begin Ada as knight",
            "begin Bob as ",
            "left Ada controlling 1",
        ]
    );
    assert!(!flow.contains(avatar), "Ada's avatar left with her");
    assert_eq!(flow.len(), 1, "Bob's is still there");
    assert_eq!(flow.souls().len(), 1);
    // Destroying a construct takes it from its controller.
    let bobs = flow.soul(bob).unwrap().controls()[0];
    flow.destroy(bobs);
    assert!(flow.soul(bob).unwrap().controls().is_empty());
}

/// A mode with per-frame logic: also a construct.
#[derive(Construct, Default)]
struct Timed {
    players: u32,
    elapsed: SimFloat,
}
#[construct(lifetime = Session)]
impl Timed {
    fn scalar_update(&mut self, dt: SimFloat) {
        if self.players > 0 {
            self.elapsed += dt;
        }
    }
}
impl GameMode for Timed {
    fn on_player_joined(&mut self, _soul: &mut Soul, _cx: &mut ModeContext<'_>) {
        self.players += 1;
    }
}

#[test]
fn a_mode_ticks_only_as_a_construct() {
    let mut flow = FlowManager::new(world());
    let mode = flow.set_ticking_game_mode(Timed::default());
    flow.frame(SimFloat::ONE);
    assert_eq!(flow.get(mode).unwrap().elapsed, SimFloat::ZERO);
    flow.join_player("Ada");
    flow.frame(SimFloat::ONE);
    flow.frame(SimFloat::ONE);
    let m = flow.get(mode).unwrap();
    assert_eq!((m.players, m.elapsed), (1, SimFloat::from_int(2)));
    // An event-driven mode replaces it, and the old one is destroyed.
    flow.set_game_mode(Rules {
        log: Log::default(),
    });
    assert!(flow.get(mode).is_none());
}
