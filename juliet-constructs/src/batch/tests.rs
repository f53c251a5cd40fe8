//! The batch's type erasure: entries reach the right objects (roots and `Owned`
//! children at any depth), survive the set's own growth and other constructs'
//! removal, and go with their owner. These run under Miri.

use std::cell::RefCell;
use std::rc::Rc;

use juliet_entities::World;

use crate::{
    construct, Construct, FlowManager, Owned, SimFloat, TickContext, TickGroup, TickPhase,
};

/// The calls made, in order: (name, value seen).
type Log = Rc<RefCell<Vec<(&'static str, i64)>>>;

fn flow() -> FlowManager {
    // No file-system access (Miri runs isolated): the project root is given.
    FlowManager::new(World::with_project_root("w", "w"))
}

#[derive(Construct)]
struct Leaf {
    log: Log,
    name: &'static str,
    n: i64,
}

#[construct]
impl Leaf {
    fn physics_step(&mut self, dt: SimFloat) {
        self.n += dt.to_bits() >> 26;
        self.log.borrow_mut().push((self.name, self.n));
    }
}

#[derive(Construct)]
struct Middle {
    log: Log,
    leaf: Owned<Leaf>,
    n: i64,
}

#[construct]
impl Middle {
    fn physics_step(&mut self, _cx: &mut TickContext<'_>, _dt: SimFloat) {
        self.n += 1;
        // A parent writes its child before the child's own tick.
        self.leaf.n += 100;
        self.log.borrow_mut().push(("middle", self.n));
    }
}

#[derive(Construct)]
struct Top {
    log: Log,
    a: Owned<Middle>,
    b: Owned<Leaf>,
}

#[construct]
impl Top {
    fn pre_input(&mut self) {
        self.log.borrow_mut().push(("top", 0));
    }
}

fn leaf(log: &Log, name: &'static str) -> Leaf {
    Leaf {
        log: log.clone(),
        name,
        n: 0,
    }
}

fn top(log: &Log) -> Top {
    Top {
        log: log.clone(),
        a: Owned::new(Middle {
            log: log.clone(),
            leaf: Owned::new(leaf(log, "a.leaf")),
            n: 0,
        }),
        b: Owned::new(leaf(log, "b")),
    }
}

#[test]
fn entries_reach_roots_and_nested_children() {
    let log = Log::default();
    let mut flow = flow();
    let id = flow.spawn(top(&log));
    // `Top` wrote only `pre_input`; its children only `physics_step`.
    assert_eq!(flow.batch(TickPhase::PreInput).len(), 1);
    assert_eq!(flow.batch(TickPhase::PhysicsStep).len(), 3);
    assert!(flow.batch(TickPhase::ScalarUpdate).is_empty());
    flow.frame(SimFloat::ONE / SimFloat::from_int(64));
    // dt = 2^-6 s = 2^26 units: each leaf adds 1.
    assert_eq!(
        *log.borrow(),
        [("top", 0), ("middle", 1), ("a.leaf", 101), ("b", 1)]
    );
    let t = flow.get(id).unwrap();
    assert_eq!((t.a.n, t.a.leaf.n, t.b.n), (1, 101, 1));
}

#[test]
fn entries_survive_other_spawns_and_destroys() {
    let log = Log::default();
    let mut flow = flow();
    let mut ids = Vec::new();
    for _ in 0..40 {
        ids.push(flow.spawn(leaf(&log, "x")));
    }
    let kept = flow.spawn(leaf(&log, "kept"));
    for id in ids.iter().step_by(2) {
        assert!(flow.destroy(*id));
    }
    assert!(!flow.destroy(ids[0]), "a second destroy finds nothing");
    assert_eq!(flow.batch(TickPhase::PhysicsStep).len(), 21);
    flow.step_physics();
    flow.step_physics();
    assert_eq!(flow.get(kept).unwrap().n, 2);
    assert_eq!(log.borrow().len(), 42);
    for id in ids.iter().skip(1).step_by(2) {
        assert_eq!(flow.get(*id).unwrap().n, 2);
    }
}

#[test]
fn get_mut_between_ticks_keeps_entries_valid() {
    let log = Log::default();
    let mut flow = flow();
    let id = flow.spawn(top(&log));
    flow.step_physics();
    flow.get_mut(id).unwrap().b.n = 50;
    flow.step_physics();
    assert_eq!(flow.get(id).unwrap().b.n, 51);
    assert_eq!(flow.get(id).unwrap().a.leaf.n, 202);
}

/// Counts its drops.
#[derive(Construct)]
struct Counted {
    drops: Rc<RefCell<u32>>,
}
#[construct]
impl Counted {
    fn scalar_update(&mut self, _dt: SimFloat) {}
}
impl Drop for Counted {
    fn drop(&mut self) {
        *self.drops.borrow_mut() += 1;
    }
}

#[test]
fn every_construct_is_dropped_once() {
    let drops = Rc::new(RefCell::new(0));
    let mut flow = flow();
    let a = flow.spawn(Counted {
        drops: drops.clone(),
    });
    flow.spawn(Counted {
        drops: drops.clone(),
    });
    flow.destroy(a);
    assert_eq!(*drops.borrow(), 1);
    flow.frame(SimFloat::ZERO);
    drop(flow);
    assert_eq!(*drops.borrow(), 2);
}

#[derive(Construct, Default)]
struct Grouped {
    log: Log,
    name: &'static str,
}

#[construct(group = Late)]
impl Grouped {
    fn scalar_update(&mut self, _dt: SimFloat) {
        self.log.borrow_mut().push((self.name, 0));
    }
    #[tick(group = PreInput, order = -3)]
    fn physics_step(&mut self, _dt: SimFloat) {}
}

#[test]
fn sorts_once_per_change_stably() {
    let log = Log::default();
    let mut flow = flow();
    flow.spawn(Grouped {
        log: log.clone(),
        name: "late",
    });
    flow.spawn(leaf(&log, "leaf"));
    let e = flow.batch(TickPhase::PhysicsStep).entries()[0];
    assert_eq!((e.group(), e.order()), (TickGroup::PreInput, -3));
    assert!(e.type_name().ends_with("Grouped"));
    let sorts = flow.batch(TickPhase::ScalarUpdate).sort_count();
    for _ in 0..3 {
        flow.frame(SimFloat::ZERO);
    }
    assert_eq!(flow.batch(TickPhase::ScalarUpdate).sort_count(), sorts);
    let b = flow.spawn(Grouped {
        log: log.clone(),
        name: "late2",
    });
    flow.frame(SimFloat::ZERO);
    assert_eq!(flow.batch(TickPhase::ScalarUpdate).sort_count(), sorts + 1);
    flow.destroy(b);
    flow.frame(SimFloat::ZERO);
    assert_eq!(
        flow.batch(TickPhase::ScalarUpdate).sort_count(),
        sorts + 1,
        "a removal keeps the order and needs no sort"
    );
}

/// Destroys itself and spawns a `Leaf` from its own tick (deferred to the phase's
/// end, so no entry points at a freed construct while the batch runs).
#[derive(Construct)]
struct Fuse {
    log: Log,
    ticks: u32,
}

#[construct]
impl Fuse {
    fn physics_step(&mut self, cx: &mut TickContext<'_>, _dt: SimFloat) {
        self.ticks += 1;
        if self.ticks == 2 {
            cx.commands().spawn(leaf(&self.log, "spark"));
            let me = *self
                .log
                .borrow()
                .iter()
                .find(|(n, _)| *n == "fuse")
                .unwrap();
            cx.commands().destroy(crate::ConstructKey(me.1 as u64));
        }
    }
}

#[test]
fn interleaved_kinds_and_deferred_commands() {
    let log = Log::default();
    let mut flow = flow();
    let mut leaves = Vec::new();
    for i in 0..6 {
        leaves.push(flow.spawn(leaf(&log, "leaf")));
        if i == 2 {
            let fuse = flow.spawn(Fuse {
                log: log.clone(),
                ticks: 0,
            });
            log.borrow_mut().push(("fuse", fuse.key().get() as i64));
            flow.spawn(top(&log));
        }
    }
    let count = |log: &Log, name| log.borrow().iter().filter(|(n, _)| *n == name).count();
    flow.step_physics();
    flow.step_physics();
    assert_eq!(flow.len(), 8, "the fuse went, the spark came");
    assert_eq!(count(&log, "spark"), 0, "spawned at the end of the phase");
    flow.step_physics();
    assert_eq!(count(&log, "spark"), 1);
    assert_eq!(count(&log, "leaf"), 18);
    assert_eq!(count(&log, "a.leaf"), 3);
    for id in leaves {
        assert_eq!(flow.get(id).unwrap().n, 3);
    }
}
