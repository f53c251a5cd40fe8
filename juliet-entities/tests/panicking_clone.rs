//! Template instantiation when the kind's `Clone` panics (review of the typed path,
//! `KindStorage::push_clone_with`): every path (typed delta, no delta, a delta of its
//! own) creates nothing, uses no id, keeps the invariants, and drops every value once.

#[macro_use]
mod support;

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

use glam::Vec3;
use juliet_core::Error;
use juliet_entities::template::{instantiate_from_template, Delta, DeltaTarget, PropertyDelta};
use juliet_entities::{EntityId, EntityManager, TemplateCache};

thread_local! {
    static ALIVE: Cell<i64> = const { Cell::new(0) };
    static PANIC_ON_CLONE: Cell<bool> = const { Cell::new(false) };
}

fn alive() -> i64 {
    ALIVE.with(Cell::get)
}

/// A kind whose clone panics on demand, and that counts its live values.
#[derive(Debug, PartialEq)]
pub struct Touchy {
    /// Its value, compared by the tests.
    pub value: u32,
    /// A heap allocation, so that a leak shows.
    pub payload: Box<u64>,
}

impl Touchy {
    fn new(value: u32) -> Touchy {
        ALIVE.with(|a| a.set(a.get() + 1));
        Touchy {
            value,
            payload: Box::new(u64::from(value)),
        }
    }
}

impl Default for Touchy {
    fn default() -> Touchy {
        Touchy::new(0)
    }
}

impl Clone for Touchy {
    fn clone(&self) -> Touchy {
        if PANIC_ON_CLONE.with(Cell::get) {
            panic!("Touchy clone");
        }
        Touchy::new(self.value)
    }
}

impl Drop for Touchy {
    fn drop(&mut self) {
        ALIVE.with(|a| a.set(a.get() - 1));
    }
}

hand_entity!(Touchy, "TestTouchy", 1, { value: u32 = "Value" });

/// One way of instantiating the template.
type Instantiate<'t> = dyn Fn(&mut EntityManager) -> Result<EntityId, Error> + 't;

/// Forwards `apply` only: the type-erased instantiation path.
struct Erased<D>(D);

impl<D: Delta> Delta for Erased<D> {
    fn apply(&self, target: &mut DeltaTarget<'_>) -> Result<(), Error> {
        self.0.apply(target)
    }
}

#[test]
fn a_panicking_clone_creates_nothing_on_every_path() {
    let start = alive();
    {
        let mut cache = TemplateCache::new(".");
        let crc = cache
            .insert_archetype("Assets/Templates/T.jasset", Touchy::new(5), Vec3::X)
            .unwrap()
            .crc();
        let template = cache.find(crc).unwrap();
        let typed = PropertyDelta::new(Touchy::new(9)).with("Value").unwrap();
        let erased = Erased(PropertyDelta::new(Touchy::new(9)).with("Value").unwrap());
        let mut m = EntityManager::new();
        let first = instantiate_from_template(&mut m, template, &typed).unwrap();
        assert_eq!(m.get::<Touchy>(first).unwrap().value, 9);
        PANIC_ON_CLONE.with(|p| p.set(true));
        let attempts: [&Instantiate; 3] = [
            &|m| instantiate_from_template(m, template, &typed),
            &|m| instantiate_from_template(m, template, &()),
            &|m| instantiate_from_template(m, template, &erased),
        ];
        for (i, attempt) in attempts.iter().enumerate() {
            let result = catch_unwind(AssertUnwindSafe(|| attempt(&mut m)));
            assert!(result.is_err(), "path {i} did not panic");
            assert_eq!((m.len(), m.next_id()), (1, EntityId(2)), "path {i}");
            m.check_invariants().unwrap();
        }
        PANIC_ON_CLONE.with(|p| p.set(false));
        for attempt in attempts {
            let id = attempt(&mut m).unwrap();
            assert_eq!(m.get::<Touchy>(id).unwrap().payload, Box::new(5));
        }
        assert_eq!(m.len(), 4);
        m.check_invariants().unwrap();
        m.destroy_entity(first).unwrap();
        m.check_invariants().unwrap();
    }
    // Manager, cache and deltas dropped: every value made was dropped once.
    assert_eq!(alive(), start);
}
