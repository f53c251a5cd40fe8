//! Id prefixes: fresh ids that two people working apart never both draw
//! (docs/design.md, section 5.4).
//!
//! A fresh id is `prefix << 32 | n`: the high 32 bits are the manager's id prefix, the
//! low 32 bits count up from 1 within that prefix's block, past the ids the block
//! already holds. An authoring session draws a random prefix once
//! (`World::use_random_id_prefix`, [`draw_id_prefix`]), so two sessions (two people,
//! two branches) draw from blocks that are the same only with probability 2^-32, and
//! their new files, named after their ids, never collide in version control. Prefix 0,
//! the default, is the plain counter (1, 2, 3... past every live id): runtime ids stay
//! the same from run to run, so a simulation that spawns entities replays bit for bit.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use super::EntityManager;
use crate::entity::EntityId;

/// A random id prefix: never 0 (the block of runtime-only ids) nor `u32::MAX` (whose
/// block ends at `u64::MAX`).
///
/// The randomness is the standard library's per-process hash keys, mixed with the time,
/// the process id and a per-process draw count, so two draws, in one process or in
/// two, differ with probability 1 - 2^-32.
pub fn draw_id_prefix() -> u32 {
    static DRAWS: AtomicU64 = AtomicU64::new(0);
    loop {
        let mut h = RandomState::new().build_hasher();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        h.write_u64(now);
        h.write_u32(std::process::id());
        h.write_u64(DRAWS.fetch_add(1, Ordering::Relaxed));
        let prefix = (h.finish() >> 32) as u32;
        if prefix != 0 && prefix != u32::MAX {
            return prefix;
        }
    }
}

impl EntityManager {
    /// Makes fresh ids `prefix << 32 | n` from now on (see the module documentation):
    /// the counter moves to the first id of the block past every live id in it. Ids
    /// loaded later move the counter only when they are in the block. Prefix 0 gives
    /// back the plain counter (moved past every live id).
    pub fn set_id_prefix(&mut self, prefix: u32) {
        self.id_prefix = prefix;
        let block = u64::from(prefix) << 32;
        let highest = (self.entities.iter().map(|e| e.id().get()))
            .filter(|&id| self.in_id_block(EntityId(id)))
            .max();
        self.next_id = match highest {
            Some(id) => id.checked_add(1).unwrap_or(id).max(block | 1),
            None => block | 1,
        };
    }

    /// The high 32 bits of the fresh ids (0: the plain counter).
    pub fn id_prefix(&self) -> u32 {
        self.id_prefix
    }

    /// Whether `id` is in the block fresh ids are drawn from (any id, with prefix 0).
    pub(crate) fn in_id_block(&self, id: EntityId) -> bool {
        self.id_prefix == 0 || id.get() >> 32 == u64::from(self.id_prefix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::Crate;
    use glam::Vec3;
    use juliet_core::Reflect;

    #[test]
    fn prefixed_ids_count_within_their_block_past_its_live_ids() {
        let mut m = EntityManager::new();
        m.allocate_entity_with_id(Crate::CLASS, EntityId(0x0000_0007_0000_0005))
            .unwrap();
        m.allocate_entity_with_id(Crate::CLASS, EntityId(0x0000_0009_0000_0001))
            .unwrap();
        m.set_id_prefix(7);
        assert_eq!(m.make_entity::<Crate>(Vec3::ZERO), EntityId(0x7_0000_0006));
        // An id of another block loaded later does not move the counter there.
        m.allocate_entity_with_id(Crate::CLASS, EntityId(0x0000_0010_0000_0003))
            .unwrap();
        assert_eq!(m.make_entity::<Crate>(Vec3::ZERO), EntityId(0x7_0000_0007));
        m.check_invariants().unwrap();
        m.set_id_prefix(0x42);
        assert_eq!(m.make_entity::<Crate>(Vec3::ZERO), EntityId(0x42_0000_0001));
        m.check_invariants().unwrap();
    }

    #[test]
    fn drawn_prefixes_differ_and_are_never_zero() {
        let draws: std::collections::HashSet<u32> = (0..64).map(|_| draw_id_prefix()).collect();
        assert_eq!(draws.len(), 64);
        assert!(!draws.contains(&0) && !draws.contains(&u32::MAX));
    }
}
