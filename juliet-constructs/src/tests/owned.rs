//! `Owned` children: init order (views first, then children depth-first in
//! declaration order), the view entities going with the parent, and drop order.

use glam::Vec3;
use juliet_entities::{kinds::Inert, World};

use super::{note, world, Log};
use crate::{construct, Construct, ConstructView, FlowManager, Owned};

#[derive(Construct)]
struct Part {
    log: Log,
    name: &'static str,
    body: ConstructView<Inert>,
    inner: Option<()>,
}
#[construct]
impl Part {
    fn initialize_views(&mut self, world: &mut World) {
        self.body.initialize(world.manager_mut(), Vec3::ZERO);
        note(&self.log, format!("init {}", self.name));
    }
}
impl Drop for Part {
    fn drop(&mut self) {
        note(&self.log, format!("drop {}", self.name));
    }
}

#[derive(Construct)]
struct Arm {
    log: Log,
    hand: Owned<Part>,
    elbow: Owned<Part>,
}
#[construct]
impl Arm {
    fn initialize_views(&mut self, _world: &mut World) {
        note(&self.log, "init arm");
    }
}
impl Drop for Arm {
    fn drop(&mut self) {
        note(&self.log, "drop arm");
    }
}

#[derive(Construct)]
struct Robot {
    log: Log,
    body: ConstructView<Inert>,
    arm: Owned<Arm>,
    head: Owned<Part>,
}
#[construct]
impl Robot {
    fn initialize_views(&mut self, world: &mut World) {
        self.body.initialize(world.manager_mut(), Vec3::Y);
        note(&self.log, "init robot");
    }
}
impl Drop for Robot {
    fn drop(&mut self) {
        note(&self.log, "drop robot");
    }
}

fn part(log: &Log, name: &'static str) -> Owned<Part> {
    Owned::new(Part {
        log: log.clone(),
        name,
        body: ConstructView::new(),
        inner: None,
    })
}

fn robot(log: &Log) -> Robot {
    Robot {
        log: log.clone(),
        body: ConstructView::new(),
        arm: Owned::new(Arm {
            log: log.clone(),
            hand: part(log, "hand"),
            elbow: part(log, "elbow"),
        }),
        head: part(log, "head"),
    }
}

#[test]
fn init_is_parent_first_then_children_depth_first() {
    let log = Log::default();
    let mut flow = FlowManager::new(world());
    let id = flow.spawn(robot(&log));
    assert_eq!(
        *log.borrow(),
        [
            "init robot",
            "init arm",
            "init hand",
            "init elbow",
            "init head"
        ]
    );
    // One entity per view, the parent's first.
    let r = flow.get(id).unwrap();
    let m = flow.world().manager();
    assert_eq!(m.len(), 4);
    let ids = [
        r.body.id(),
        r.arm.hand.body.id(),
        r.arm.elbow.body.id(),
        r.head.body.id(),
    ];
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    assert!(r.head.inner.is_none());
}

#[test]
fn destroy_takes_children_and_their_entities_in_a_fixed_order() {
    let log = Log::default();
    let mut flow = FlowManager::new(world());
    let id = flow.spawn(robot(&log));
    let other = flow.world_mut().manager_mut().make_entity::<Inert>(Vec3::X);
    log.borrow_mut().clear();
    assert!(flow.destroy(id));
    // Rust's drop order: the parent's `Drop`, then its fields in declaration order.
    assert_eq!(
        *log.borrow(),
        [
            "drop robot",
            "drop arm",
            "drop hand",
            "drop elbow",
            "drop head"
        ]
    );
    let m = flow.world().manager();
    assert_eq!(m.len(), 1, "only the entity no view owned is left");
    assert!(m.contains(other));
    m.check_invariants().unwrap();
}

/// A child and a view behind type aliases, which the derive cannot see through.
type Finger = Owned<Part>;
type Shell = ConstructView<Inert>;

#[derive(Construct)]
struct Glove {
    log: Log,
    #[part(view)]
    shell: Shell,
    #[part(owned)]
    finger: Finger,
}
#[construct]
impl Glove {
    fn initialize_views(&mut self, world: &mut World) {
        self.shell.initialize(world.manager_mut(), Vec3::Z);
        note(&self.log, "init glove");
    }
}

#[test]
fn marked_parts_behind_aliases_are_walked_as_their_types_are() {
    let log = Log::default();
    let mut flow = FlowManager::new(world());
    let id = flow.spawn(Glove {
        log: log.clone(),
        shell: ConstructView::new(),
        finger: part(&log, "finger"),
    });
    assert_eq!(*log.borrow(), ["init glove", "init finger"]);
    assert_eq!(
        flow.world().manager().len(),
        2,
        "the glove's view and the finger's"
    );
    log.borrow_mut().clear();
    assert!(flow.destroy(id));
    assert_eq!(
        flow.world().manager().len(),
        0,
        "both views' entities go with it"
    );
    assert_eq!(*log.borrow(), ["drop finger"]);
}
