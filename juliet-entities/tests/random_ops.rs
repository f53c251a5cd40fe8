//! A proptest of random allocate / make / destroy / load sequences (10,000 operations a
//! case) against a model, with `check_invariants` after every operation.

mod support;

use std::collections::HashMap;
use std::path::Path;

use glam::Vec3;
use juliet_core::{Class, Reflect};
use juliet_entities::{load_entity, EntityId, EntityManager};
use proptest::prelude::*;
use support::{crate_file, Aligned, Counted, Crate, Marker, Sign};

const OPS: usize = 10_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Crate,
    Sign,
    Marker,
    Aligned,
    Counted,
}

const KINDS: [Kind; 5] = [
    Kind::Crate,
    Kind::Sign,
    Kind::Marker,
    Kind::Aligned,
    Kind::Counted,
];

fn class(kind: Kind) -> &'static Class {
    match kind {
        Kind::Crate => Crate::CLASS,
        Kind::Sign => Sign::CLASS,
        Kind::Marker => Marker::CLASS,
        Kind::Aligned => Aligned::CLASS,
        Kind::Counted => Counted::CLASS,
    }
}

/// Stamps `id` into the entity's derived struct (where the kind has a field for it).
fn stamp(m: &mut EntityManager, kind: Kind, id: EntityId) {
    let v = id.get();
    match kind {
        Kind::Crate => m.get_mut::<Crate>(id).unwrap().health = v as i32,
        Kind::Sign => m.get_mut::<Sign>(id).unwrap().size = v as f32,
        Kind::Marker => {}
        Kind::Aligned => m.get_mut::<Aligned>(id).unwrap().value = v,
        Kind::Counted => m.get_mut::<Counted>(id).unwrap().value = v as u32,
    }
}

/// Whether the entity's derived struct carries its stamp.
fn stamped(m: &EntityManager, kind: Kind, id: EntityId) -> bool {
    let v = id.get();
    match kind {
        Kind::Crate => m.get::<Crate>(id).is_some_and(|c| c.health == v as i32),
        Kind::Sign => m.get::<Sign>(id).is_some_and(|s| s.size == v as f32),
        Kind::Marker => m.get::<Marker>(id).is_some(),
        Kind::Aligned => m.get::<Aligned>(id).is_some_and(|a| a.value == v),
        Kind::Counted => m.get::<Counted>(id).is_some_and(|c| c.value == v as u32),
    }
}

fn run(ops: &[(u8, u32)]) -> Result<(), TestCaseError> {
    let mut m = EntityManager::new();
    let mut model: HashMap<EntityId, Kind> = HashMap::new();
    let mut live: Vec<EntityId> = Vec::new();
    for (step, &(op, arg)) in ops.iter().enumerate() {
        let kind = KINDS[arg as usize % KINDS.len()];
        // Keep the population near a few hundred: destroy more often when large.
        let op = if live.len() > 300 && op % 2 == 0 {
            3
        } else {
            op % 6
        };
        match op {
            0 => {
                let id = m.allocate_entity(class(kind));
                stamp(&mut m, kind, id);
                model.insert(id, kind);
                live.push(id);
            }
            1 => {
                let id = match kind {
                    Kind::Sign => m.make_entity::<Sign>(Vec3::X),
                    _ => m.make_entity::<Crate>(Vec3::X),
                };
                let kind = if kind == Kind::Sign {
                    Kind::Sign
                } else {
                    Kind::Crate
                };
                stamp(&mut m, kind, id);
                model.insert(id, kind);
                live.push(id);
            }
            2 => {
                // Load a crate file with a fresh id, an existing id (rejected) or a bad
                // value (rejected); rejected loads leave nothing behind.
                let fresh = EntityId(m.next_id().get() + u64::from(arg % 3));
                let (id, good) = match arg % 4 {
                    0 if !live.is_empty() => (live[arg as usize % live.len()], false),
                    1 => (fresh, false),
                    _ => (fresh, true),
                };
                let mut file = crate_file(id.get(), 1.0, 2.0);
                file = file.replace(
                    "; Health\n100\n",
                    &format!("; Health\n{}\n", id.get() as i32),
                );
                if arg % 4 == 1 {
                    file = file.replace("; Mass\n2.0", "; Mass\nheavy");
                }
                let result = load_entity(&mut m, Path::new("r.jasset"), file.as_bytes());
                prop_assert_eq!(
                    result.is_ok(),
                    good && !model.contains_key(&id),
                    "step {}",
                    step
                );
                if result.is_ok() {
                    model.insert(id, Kind::Crate);
                    live.push(id);
                }
            }
            3 | 4 if !live.is_empty() => {
                let id = live.swap_remove(arg as usize % live.len());
                m.destroy_entity(id).unwrap();
                model.remove(&id);
                prop_assert!(m.destroy_entity(id).is_err());
            }
            _ => {
                prop_assert!(m
                    .destroy_entity(EntityId(u64::MAX - u64::from(arg)))
                    .is_err());
            }
        }
        if let Err(violation) = m.check_invariants() {
            return Err(TestCaseError::fail(format!("step {step}: {violation}")));
        }
        prop_assert_eq!(m.len(), model.len());
        if let Some(&id) = live.last() {
            prop_assert!(stamped(&m, model[&id], id), "step {}: {:?}", step, id);
        }
    }
    for (&id, &kind) in &model {
        prop_assert!(stamped(&m, kind, id), "{:?}", id);
    }
    let counts: usize = m.kinds().iter().map(|k| k.len()).sum();
    prop_assert_eq!(counts, model.len());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]

    #[test]
    fn random_sequences_keep_every_invariant(
        ops in proptest::collection::vec((any::<u8>(), any::<u32>()), OPS..=OPS)
    ) {
        run(&ops)?;
    }
}
