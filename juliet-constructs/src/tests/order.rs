//! Tick order: across phases and groups, by order within a group, ties in
//! registration order, parents before their `Owned` children; absent hooks add no
//! entry.

use super::{note, world, Log};
use crate::{
    construct, Construct, FlowManager, Owned, SimFloat, TickContext, TickGroup, TickPhase,
};

#[derive(Construct)]
struct Camera {
    log: Log,
}
#[construct(group = Camera)]
impl Camera {
    fn scalar_update(&mut self, _dt: SimFloat) {
        note(&self.log, "camera.scalar");
    }
}

#[derive(Construct)]
struct Input {
    log: Log,
}
#[construct(group = PreInput)]
impl Input {
    fn pre_input(&mut self, cx: &mut TickContext<'_>) {
        note(&self.log, format!("input.pre frame {}", cx.frame()));
    }
    fn scalar_update(&mut self, _dt: SimFloat) {
        note(&self.log, "input.scalar");
    }
}

#[derive(Construct)]
struct Npc {
    log: Log,
    name: &'static str,
}
#[construct]
impl Npc {
    fn physics_step(&mut self, cx: &mut TickContext<'_>, _dt: SimFloat) {
        note(
            &self.log,
            format!("{}.physics {}", self.name, cx.physics_tick()),
        );
    }
    fn scalar_update(&mut self, _dt: SimFloat) {
        note(&self.log, format!("{}.scalar", self.name));
    }
}

#[derive(Construct)]
struct Early {
    log: Log,
}
#[construct]
impl Early {
    #[tick(order = -5)]
    fn scalar_update(&mut self, _dt: SimFloat) {
        note(&self.log, "early.scalar");
    }
}

#[derive(Construct)]
struct Squad {
    log: Log,
    first: Owned<Npc>,
    second: Owned<Npc>,
}
#[construct]
impl Squad {
    fn scalar_update(&mut self, _dt: SimFloat) {
        note(&self.log, "squad.scalar");
    }
}

fn npc(log: &Log, name: &'static str) -> Npc {
    Npc {
        log: log.clone(),
        name,
    }
}

#[test]
fn phases_groups_orders_and_ties() {
    let log = Log::default();
    let mut flow = FlowManager::new(world());
    flow.spawn(Camera { log: log.clone() });
    flow.spawn(npc(&log, "a"));
    flow.spawn(Squad {
        log: log.clone(),
        first: Owned::new(npc(&log, "s1")),
        second: Owned::new(npc(&log, "s2")),
    });
    flow.spawn(Input { log: log.clone() });
    flow.spawn(npc(&log, "b"));
    flow.spawn(Early { log: log.clone() });
    // Two physics steps in this frame.
    assert_eq!(flow.frame(SimFloat::ONE / SimFloat::from_int(32)), 2);
    let expected = [
        "input.pre frame 0",
        "a.physics 0",
        "s1.physics 0",
        "s2.physics 0",
        "b.physics 0",
        "a.physics 1",
        "s1.physics 1",
        "s2.physics 1",
        "b.physics 1",
        "input.scalar",
        "early.scalar",
        "a.scalar",
        "squad.scalar",
        "s1.scalar",
        "s2.scalar",
        "b.scalar",
        "camera.scalar",
    ];
    assert_eq!(*log.borrow(), expected);
}

#[test]
fn absent_hooks_add_no_entry() {
    let log = Log::default();
    let mut flow = FlowManager::new(world());
    flow.spawn(Camera { log: log.clone() });
    flow.spawn(Early { log: log.clone() });
    assert!(flow.batch(TickPhase::PreInput).is_empty());
    assert!(flow.batch(TickPhase::PhysicsStep).is_empty());
    assert_eq!(flow.batch(TickPhase::ScalarUpdate).len(), 2);
    flow.spawn(Input { log: log.clone() });
    assert_eq!(flow.batch(TickPhase::PreInput).len(), 1);
    let groups: Vec<TickGroup> = flow
        .batch(TickPhase::ScalarUpdate)
        .entries()
        .iter()
        .map(|e| e.group())
        .collect();
    assert_eq!(
        groups,
        [TickGroup::PreInput, TickGroup::Default, TickGroup::Camera]
    );
}
