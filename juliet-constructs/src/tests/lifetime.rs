//! Lifetime transitions: what each destroys, and the order of the survivors'
//! callbacks.

use glam::Vec3;
use juliet_entities::{kinds::Inert, World};

use super::{note, world, Log};
use crate::{construct, Construct, ConstructView, FlowManager, Owned};

macro_rules! tiered {
    ($name:ident, $lifetime:ident) => {
        #[derive(Construct)]
        struct $name {
            log: Log,
            body: ConstructView<Inert>,
        }
        #[construct(lifetime = $lifetime)]
        impl $name {
            fn initialize_views(&mut self, world: &mut World) {
                self.body.initialize(world.manager_mut(), Vec3::ZERO);
                note(
                    &self.log,
                    format!(
                        "{} init ({} entities)",
                        stringify!($name),
                        world.manager().len()
                    ),
                );
            }
        }
        impl Drop for $name {
            fn drop(&mut self) {
                note(&self.log, format!("{} drop", stringify!($name)));
            }
        }
    };
}

tiered!(LevelThing, Level);
tiered!(WorldThing, World);

/// A survivor with both callbacks and a child.
#[derive(Construct)]
struct Hud {
    log: Log,
    body: ConstructView<Inert>,
    score: u32,
    radar: Owned<Radar>,
}
#[construct(lifetime = Session)]
impl Hud {
    fn initialize_views(&mut self, world: &mut World) {
        self.body.initialize(world.manager_mut(), Vec3::ZERO);
        note(&self.log, "Hud init");
    }
    fn on_world_teardown(&mut self, world: &mut World) {
        // The view is still attached here: its state can be saved.
        let alive = self.body.get(world.manager()).is_some();
        note(&self.log, format!("Hud teardown (view alive: {alive})"));
    }
    fn on_world_initialized(&mut self, world: &mut World) {
        note(
            &self.log,
            format!(
                "Hud initialized (attached: {}, score {})",
                self.body.is_attached(),
                self.score
            ),
        );
        self.body.initialize(world.manager_mut(), Vec3::ONE);
    }
}

/// A survivor child that wrote neither world callback: its views are rebuilt by
/// `initialize_views`.
#[derive(Construct)]
struct Radar {
    log: Log,
    body: ConstructView<Inert>,
}
#[construct(lifetime = Level)]
impl Radar {
    fn initialize_views(&mut self, world: &mut World) {
        self.body.initialize(world.manager_mut(), Vec3::ZERO);
        note(&self.log, "Radar init");
    }
}

#[derive(Construct)]
struct Profile {
    log: Log,
}
#[construct(lifetime = Persistent)]
impl Profile {
    fn on_world_teardown(&mut self) {
        note(&self.log, "Profile teardown");
    }
    fn on_world_initialized(&mut self, _world: &mut World) {
        note(&self.log, "Profile initialized");
    }
}

fn setup(log: &Log) -> FlowManager {
    let mut flow = FlowManager::new(world());
    flow.spawn(LevelThing {
        log: log.clone(),
        body: ConstructView::new(),
    });
    flow.spawn(Hud {
        log: log.clone(),
        body: ConstructView::new(),
        score: 7,
        radar: Owned::new(Radar {
            log: log.clone(),
            body: ConstructView::new(),
        }),
    });
    flow.spawn(WorldThing {
        log: log.clone(),
        body: ConstructView::new(),
    });
    flow.spawn(Profile { log: log.clone() });
    log.borrow_mut().clear();
    flow
}

#[test]
fn unloading_the_level_destroys_level_constructs_only() {
    let log = Log::default();
    let mut flow = setup(&log);
    assert_eq!(flow.world().manager().len(), 4);
    flow.unload_level();
    assert_eq!(*log.borrow(), ["LevelThing drop"]);
    assert_eq!(flow.len(), 3);
    // The Level child of a Session parent goes with its parent, not with the level.
    assert_eq!(flow.world().manager().len(), 3);
}

#[test]
fn a_world_reset_destroys_level_and_world_and_carries_the_rest_over() {
    let log = Log::default();
    let mut flow = setup(&log);
    let old = flow.reset_world(world());
    assert_eq!(
        *log.borrow(),
        [
            "LevelThing drop",
            "WorldThing drop",
            "Hud teardown (view alive: true)",
            "Profile teardown",
            "Hud initialized (attached: false, score 7)",
            "Radar init",
            "Profile initialized",
        ]
    );
    // The destroyed constructs' entities left the old world; the survivors' stayed
    // there (released) and new ones were made in the new world.
    assert_eq!(old.manager().len(), 2);
    assert_eq!(flow.world().manager().len(), 2);
    assert_eq!(flow.len(), 2);
}

#[test]
fn ending_the_session_keeps_only_persistent_constructs() {
    let log = Log::default();
    let mut flow = setup(&log);
    flow.end_session();
    assert_eq!(
        *log.borrow(),
        ["LevelThing drop", "WorldThing drop"],
        "Hud is dropped too, but logs nothing"
    );
    assert_eq!(flow.len(), 1);
    assert!(flow.world().manager().is_empty());
    let world = flow.into_world();
    assert!(world.manager().is_empty());
}
