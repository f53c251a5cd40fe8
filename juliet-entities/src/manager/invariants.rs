//! [`EntityManager::check_invariants`]: the manager's invariants (docs/design.md, section 5.1:
//! links, type coherence and counts, and the id map), checked in O(entities).

use super::EntityManager;
use crate::storage::KindStorage;

/// A broken [`EntityManager`] invariant, as found by
/// [`EntityManager::check_invariants`]: which one and for which entity.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("entity manager invariant broken: {0}")]
pub struct InvariantViolation(pub String);

impl EntityManager {
    /// Checks the invariants of docs/design.md, section 5.1, in O(entities):
    ///
    /// 1. links: every base record's slot exists in its kind's storage and that slot's
    ///    base index points back to the record (and every slot's base points to a record
    ///    that points back);
    /// 2. type coherence: a record's class is its storage's class;
    /// 3. counts: the kinds' lengths add up to the number of base records;
    /// 4. id map: one entry per record, mapping its (non-zero) id to its index, and the
    ///    id counter is past every id below `u64::MAX` of the id prefix's block (every id
    ///    with prefix 0; see [`EntityManager::set_id_prefix`]), until it has gone round
    ///    past `u64::MAX` (fresh ids then restart at 1 and skip the live ones).
    ///
    /// # Errors
    /// The first broken invariant found.
    pub fn check_invariants(&self) -> Result<(), InvariantViolation> {
        let fail = |msg: String| Err(InvariantViolation(msg));
        for (i, e) in self.entities.iter().enumerate() {
            let Some(storage) = self.kinds.get(e.kind as usize) else {
                return fail(format!("entity {} at {i} has no kind {}", e.id, e.kind));
            };
            if e.slot as usize >= storage.len() {
                return fail(format!(
                    "entity {} at {i}: slot {} out of bounds",
                    e.id, e.slot
                ));
            }
            if storage.base_of(e.slot as usize) as usize != i {
                return fail(format!(
                    "entity {} at {i}: slot {} links back to {}",
                    e.id,
                    e.slot,
                    storage.base_of(e.slot as usize)
                ));
            }
            if storage.class() != e.class {
                return fail(format!(
                    "entity {} at {i}: class {} in the storage of {}",
                    e.id,
                    e.class.name(),
                    storage.class().name()
                ));
            }
            if e.id.0 == 0 || self.ids.get(e.id) != Some(i as u32) {
                return fail(format!(
                    "entity {} at {i}: id map says {:?}",
                    e.id,
                    self.ids.get(e.id)
                ));
            }
            if e.id.0 >= self.next_id
                && e.id.0 != u64::MAX
                && !self.counter_wrapped
                && self.in_id_block(e.id)
            {
                return fail(format!(
                    "entity {}: id counter {} not past it",
                    e.id, self.next_id
                ));
            }
        }
        for (k, storage) in self.kinds.iter().enumerate() {
            for (slot, &b) in storage.bases().iter().enumerate() {
                match self.entities.get(b as usize) {
                    Some(e) if e.kind as usize == k && e.slot as usize == slot => {}
                    _ => {
                        return fail(format!(
                            "kind {} slot {slot}: base {b} does not link back",
                            storage.class().name()
                        ))
                    }
                }
            }
        }
        let total: usize = self.kinds.iter().map(KindStorage::len).sum();
        if total != self.entities.len() {
            return fail(format!(
                "{total} derived structs for {} base records",
                self.entities.len()
            ));
        }
        self.ids.check().map_err(InvariantViolation)?;
        if self.ids.len() != self.entities.len() {
            return fail(format!(
                "{} ids for {} base records",
                self.ids.len(),
                self.entities.len()
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
pub(super) mod tests {
    use glam::Vec3;
    use juliet_core::Reflect;

    use crate::entity::EntityId;
    use crate::manager::EntityManager;
    use crate::support::{Crate, Sign};

    /// A manager with two `Crate`s and a `Sign` (invariants checked), and their ids.
    pub(in crate::manager) fn three() -> (EntityManager, [EntityId; 3]) {
        let mut m = EntityManager::new();
        let ids = [
            m.make_entity::<Crate>(Vec3::X),
            m.make_entity::<Sign>(Vec3::Y),
            m.make_entity::<Crate>(Vec3::Z),
        ];
        m.check_invariants().unwrap();
        (m, ids)
    }

    #[test]
    fn check_invariants_finds_a_broken_back_link() {
        let (mut m, _) = three();
        m.kinds[0].set_base(1, 0);
        let err = m.check_invariants().unwrap_err();
        assert!(err.0.contains("links back"), "{err}");
    }

    #[test]
    fn check_invariants_finds_a_slot_out_of_bounds() {
        let (mut m, _) = three();
        m.entities[1].slot = 5;
        assert!(m
            .check_invariants()
            .unwrap_err()
            .0
            .contains("out of bounds"));
    }

    #[test]
    fn check_invariants_finds_a_class_in_the_wrong_storage() {
        let (mut m, _) = three();
        m.entities[0].class = Sign::CLASS;
        assert!(m
            .check_invariants()
            .unwrap_err()
            .0
            .contains("in the storage of"));
    }

    #[test]
    fn check_invariants_finds_a_stale_id_map() {
        let (mut m, ids) = three();
        m.ids.set(ids[0], 2);
        assert!(m.check_invariants().unwrap_err().0.contains("id map"));
        let (mut m, _) = three();
        m.ids.insert(EntityId(99), 0);
        assert!(m.check_invariants().unwrap_err().0.contains("ids for"));
    }

    #[test]
    fn check_invariants_finds_an_id_counter_behind_an_id() {
        let (mut m, _) = three();
        m.next_id = 2;
        assert!(m.check_invariants().unwrap_err().0.contains("id counter"));
    }
}
