//! The entity manager's ids at their edges (review of the id map's window): loaded ids
//! next to fresh ones, ids near `u64::MAX`, sparse ids, destroy and re-use, with
//! `check_invariants` and a plain model after every step.

mod support;

use std::collections::HashMap;

use juliet_core::Reflect;
use juliet_entities::{EntityId, EntityManager};
use proptest::prelude::RngExt;
use proptest::test_runner::{RngAlgorithm, TestRng};
use support::{Crate, Sign};

/// proptest's deterministic generator, drawing in `0..n`.
struct Rng(TestRng);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0.random_range(0..n)
    }
}

/// Checks the manager against the model: same live ids, each pointing to its entity.
fn agree(m: &EntityManager, model: &HashMap<u64, i32>) {
    m.check_invariants().unwrap();
    assert_eq!(m.len(), model.len());
    for (&id, &stamp) in model {
        let c = m.get::<Crate>(EntityId(id)).expect("live id");
        assert_eq!(c.health, stamp, "id {id}");
    }
}

#[test]
fn loaded_ids_around_the_fresh_ones_keep_the_map_right() {
    let mut rng = Rng(TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let mut m = EntityManager::new();
    let mut model = HashMap::<u64, i32>::new();
    for step in 0..20_000i32 {
        let next = m.next_id().get();
        match rng.below(10) {
            0..=3 => {
                let id = m.allocate_entity(Crate::CLASS);
                assert!(!model.contains_key(&id.get()), "fresh id {id} was live");
                m.get_mut::<Crate>(id).unwrap().health = step;
                model.insert(id.get(), step);
            }
            4..=5 => {
                // A loaded id: near the counter, behind it, far away or at the top.
                let id = match rng.below(5) {
                    0 => next.wrapping_add(rng.below(4)),
                    1 => next.saturating_sub(rng.below(40)),
                    2 => 1 << (20 + rng.below(20)),
                    3 => u64::MAX - rng.below(3),
                    _ => rng.below(64),
                };
                let got = m.allocate_entity_with_id(Crate::CLASS, EntityId(id));
                if id == 0 || model.contains_key(&id) {
                    assert!(got.is_err(), "id {id} taken or 0");
                } else {
                    assert_eq!(got.unwrap(), EntityId(id));
                    m.get_mut::<Crate>(EntityId(id)).unwrap().health = step;
                    model.insert(id, step);
                }
            }
            _ => {
                if model.is_empty() {
                    continue;
                }
                let mut ids: Vec<u64> = model.keys().copied().collect();
                ids.sort_unstable();
                let id = ids[rng.below(ids.len() as u64) as usize];
                m.destroy_entity(EntityId(id)).unwrap();
                model.remove(&id);
                assert!(m.destroy_entity(EntityId(id)).is_err());
            }
        }
        if step % 64 == 0 || model.len() < 8 {
            agree(&m, &model);
        }
    }
    agree(&m, &model);
}

#[test]
fn a_fresh_id_after_a_loaded_id_near_the_top() {
    let mut m = EntityManager::new();
    m.make_entity::<Sign>(glam::Vec3::ZERO);
    m.allocate_entity_with_id(Crate::CLASS, EntityId(u64::MAX - 1))
        .unwrap();
    m.check_invariants().unwrap();
    // The counter's id is u64::MAX, the last one: then the counter starts again.
    assert_eq!(m.allocate_entity(Crate::CLASS), EntityId(u64::MAX));
    m.check_invariants().unwrap();
    assert_eq!(m.allocate_entity(Crate::CLASS), EntityId(2));
    m.check_invariants().unwrap();
}

#[test]
fn destroyed_ids_can_be_loaded_again_and_zero_never() {
    let mut m = EntityManager::new();
    let ids: Vec<EntityId> = (0..100).map(|_| m.allocate_entity(Crate::CLASS)).collect();
    for &id in ids.iter().rev().step_by(3) {
        m.destroy_entity(id).unwrap();
    }
    for &id in ids.iter().rev().step_by(3) {
        assert_eq!(m.allocate_entity_with_id(Sign::CLASS, id).unwrap(), id);
        assert!(m.allocate_entity_with_id(Sign::CLASS, id).is_err());
    }
    assert!(m.allocate_entity_with_id(Sign::CLASS, EntityId(0)).is_err());
    assert_eq!(m.allocate_entity(Crate::CLASS), EntityId(101));
    assert_eq!(m.len(), 101);
    m.check_invariants().unwrap();
}
