//! [`IdMap`]: the [`EntityManager`](super::EntityManager)'s map from entity id to base
//! index (destroy and lookup by id in O(1), docs/design.md, sections 5.2 and 5.4).
//!
//! Fresh ids come from a counter, so live ids are mostly one run of consecutive
//! numbers. The map keeps such a run in a *window*, a plain array indexed by
//! `id - start` (a fresh id is one push at its end: no hashing, no probing), and every
//! other id in a hash map. An id is in at most one of the two. The window never holds
//! more than it needs: emptied when its last id goes, and when it is full and would
//! grow, its leading holes are dropped (at least a quarter of it) or, when at most
//! half of it is live, its ids move to the hash map and it restarts at the new id.
//! That work is O(window) once per O(window) pushes, so every operation stays O(1)
//! amortized and the window's memory stays within four times the most ids it held.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::IdHasher;
use crate::entity::EntityId;

/// A window slot with no live id (base indices are below `u32::MAX`).
const VACANT: u32 = u32::MAX;

/// Entity id to base index.
#[derive(Debug)]
pub(crate) struct IdMap {
    /// The first id of the window.
    start: u64,
    /// `window[i]` is the base index of id `start + i`, or [`VACANT`]. The range never
    /// wraps past `u64::MAX` (id 0 is never entered, and the window grows only by
    /// entering the id at its end).
    window: Vec<u32>,
    /// Number of live slots of the window.
    live: usize,
    /// Every live id outside the window.
    map: HashMap<EntityId, u32, BuildHasherDefault<IdHasher>>,
    /// No key of `map` is above this (an upper bound, reset when `map` empties).
    map_max: u64,
}

impl Default for IdMap {
    fn default() -> IdMap {
        IdMap {
            start: 1,
            window: Vec::new(),
            live: 0,
            map: HashMap::default(),
            map_max: 0,
        }
    }
}

impl IdMap {
    /// The id just past the window (where it grows).
    #[inline]
    fn end(&self) -> u64 {
        self.start.wrapping_add(self.window.len() as u64)
    }

    /// The window index of `id`, if the window covers it.
    #[inline]
    fn offset(&self, id: EntityId) -> Option<usize> {
        let off = id.0.wrapping_sub(self.start);
        (off < self.window.len() as u64).then_some(off as usize)
    }

    /// Number of live ids.
    pub(crate) fn len(&self) -> usize {
        self.live + self.map.len()
    }

    /// The base index of `id`.
    #[inline]
    pub(crate) fn get(&self, id: EntityId) -> Option<u32> {
        match self.offset(id) {
            Some(i) => Some(self.window[i]).filter(|&b| b != VACANT),
            None if self.map.is_empty() => None,
            None => self.map.get(&id).copied(),
        }
    }

    /// Whether `id` is live.
    #[inline]
    pub(crate) fn contains(&self, id: EntityId) -> bool {
        self.get(id).is_some()
    }

    /// Points live `id` to base index `base`. Panics when `id` is not live.
    #[inline]
    pub(crate) fn set(&mut self, id: EntityId, base: u32) {
        debug_assert_ne!(base, VACANT);
        match self.offset(id) {
            Some(i) if self.window[i] != VACANT => self.window[i] = base,
            _ => *self.map.get_mut(&id).expect("a live id") = base,
        }
    }

    /// Enters `id` (free and non-zero) with base index `base` (below `u32::MAX`).
    pub(crate) fn insert(&mut self, id: EntityId, base: u32) {
        debug_assert!(id.0 != 0 && base != VACANT && !self.contains(id));
        if let Some(i) = self.offset(id) {
            self.window[i] = base;
            self.live += 1;
        } else if id.0 == self.end() {
            self.push(id.0, base);
        } else if self.live == 0 {
            self.window.clear();
            self.start = id.0;
            self.push(id.0, base);
        } else {
            self.map.insert(id, base);
            self.map_max = self.map_max.max(id.0);
        }
    }

    /// Enters `id` with base index `base` (below `u32::MAX`) unless it is 0 or live;
    /// returns whether it did. One compare and a push when `id` extends the window
    /// (what a fresh id from the counter does).
    #[inline]
    pub(crate) fn insert_if_free(&mut self, id: u64, base: u32) -> bool {
        if id == self.end() && id > self.map_max && self.window.len() < self.window.capacity() {
            // Not in the window (it ends before `id`), not in the map (no key above
            // `map_max`), not 0 (above `map_max`); the push does not reallocate.
            self.window.push(base);
            self.live += 1;
            return true;
        }
        if id == 0 || self.contains(EntityId(id)) {
            return false;
        }
        self.insert(EntityId(id), base);
        true
    }

    /// Prepares a run of `count` fresh ids from `first` (`count > 0`): when they can
    /// all be pushed at the window's end (none is live or 0, none is `u64::MAX`, the
    /// window ends at `first` or is empty), makes room for them and returns `true`;
    /// they are then entered by [`IdMap::push_run`]. `false` changes nothing.
    pub(crate) fn start_run(&mut self, first: u64, count: usize) -> bool {
        if self.window.is_empty() && first != 0 {
            self.start = first; // Empty, so nothing is live in it.
        }
        let fits = first == self.end()
            && first > self.map_max
            && first.checked_add(count as u64).is_some();
        if fits {
            self.window.reserve(count);
        }
        fits
    }

    /// Enters the next `count` ids at the window's end (of a run prepared by
    /// [`IdMap::start_run`]) with consecutive base indices from `first_base` (the last
    /// below `u32::MAX`).
    #[inline(always)]
    pub(crate) fn push_run(&mut self, first_base: u32, count: u32) {
        debug_assert!(self.end() > self.map_max && self.end() != 0);
        // No overflow: the last base index is below `u32::MAX` (`VACANT`).
        self.window.extend(first_base..first_base + count);
        self.live += count as usize;
    }

    /// Appends `id` (the window's end) to the window, making room first.
    fn push(&mut self, id: u64, base: u32) {
        if self.window.len() == self.window.capacity() && !self.window.is_empty() {
            self.make_room(id);
        }
        debug_assert_eq!(id, self.end());
        self.window.push(base);
        self.live += 1;
    }

    /// Called when the full window is about to grow for `next` (its end): drops at
    /// least a quarter of it when that many leading slots are holes, or moves its live
    /// ids to the map and restarts it at `next` when at most half of it is live;
    /// otherwise leaves it to grow (so more than half of it is live).
    fn make_room(&mut self, next: u64) {
        let len = self.window.len();
        if 2 * self.live <= len {
            for (i, &base) in self.window.iter().enumerate() {
                if base != VACANT {
                    let id = self.start + i as u64;
                    self.map.insert(EntityId(id), base);
                    self.map_max = self.map_max.max(id);
                }
            }
            self.live = 0;
            self.window.clear();
            self.start = next;
            return;
        }
        let holes = self.window.iter().position(|&b| b != VACANT).unwrap_or(len);
        if 4 * holes >= len {
            self.window.drain(..holes);
            self.start += holes as u64;
        }
    }

    /// Removes `id`; returns its base index, `None` when it was not live.
    #[inline]
    pub(crate) fn remove(&mut self, id: EntityId) -> Option<u32> {
        match self.offset(id) {
            Some(i) => {
                let base = std::mem::replace(&mut self.window[i], VACANT);
                if base == VACANT {
                    return None;
                }
                self.live -= 1;
                if self.live == 0 {
                    self.window.clear();
                }
                Some(base)
            }
            None => {
                let base = self.map.remove(&id)?;
                if self.map.is_empty() {
                    self.map_max = 0;
                }
                Some(base)
            }
        }
    }

    /// Makes room for `additional` more ids in the window (where fresh ids go).
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.window.reserve(additional);
    }

    /// Checks the map's own invariants: the live count, the window's range (no id 0,
    /// no wrap), and no hash-map id inside the window or above `map_max`.
    pub(crate) fn check(&self) -> Result<(), String> {
        let live = self.window.iter().filter(|&&b| b != VACANT).count();
        if live != self.live {
            return Err(format!("id window counts {} live of {live}", self.live));
        }
        if let Some(last) = self.window.len().checked_sub(1) {
            if self.start == 0 || self.start.checked_add(last as u64).is_none() {
                return Err(format!(
                    "id window of {} from {} wraps",
                    self.window.len(),
                    self.start
                ));
            }
        }
        for &id in self.map.keys() {
            if id.0 == 0 || id.0 > self.map_max || self.offset(id).is_some() {
                return Err(format!(
                    "id {id} misplaced in the id map (window from {} of {}, bound {})",
                    self.start,
                    self.window.len(),
                    self.map_max
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::{RngAlgorithm, TestRng};

    fn ids(m: &IdMap) -> Vec<(u64, u32)> {
        let mut all: Vec<_> = (0..m.window.len())
            .filter(|&i| m.window[i] != VACANT)
            .map(|i| (m.start + i as u64, m.window[i]))
            .chain(m.map.iter().map(|(id, &b)| (id.0, b)))
            .collect();
        all.sort_unstable();
        all
    }

    #[test]
    fn consecutive_ids_go_to_the_window_and_others_to_the_map() {
        let mut m = IdMap::default();
        m.reserve(8);
        for id in 1..=4 {
            assert!(m.insert_if_free(id, id as u32 * 10));
        }
        m.insert(EntityId(1000), 7);
        assert_eq!((m.live, m.map.len()), (4, 1));
        assert!(!m.insert_if_free(3, 0), "a live id is not free");
        assert!(!m.insert_if_free(0, 0), "0 is never an id");
        assert!(
            !m.insert_if_free(1000, 0),
            "a live id in the map is not free"
        );
        assert_eq!(m.get(EntityId(3)), Some(30));
        assert_eq!(m.get(EntityId(1000)), Some(7));
        m.set(EntityId(1000), 8);
        m.set(EntityId(2), 9);
        assert_eq!(ids(&m), [(1, 10), (2, 9), (3, 30), (4, 40), (1000, 8)]);
        assert_eq!(m.remove(EntityId(2)), Some(9));
        assert_eq!(m.remove(EntityId(2)), None);
        assert_eq!(m.len(), 4);
        m.check().unwrap();
    }

    #[test]
    fn an_emptied_window_restarts_at_the_next_id() {
        let mut m = IdMap::default();
        for id in 1..=3 {
            m.insert(EntityId(id), 0);
        }
        for id in 1..=3 {
            m.remove(EntityId(id));
        }
        assert!(m.window.is_empty());
        m.insert(EntityId(500), 1);
        assert_eq!((m.start, m.live, m.map.len()), (500, 1, 0));
        m.check().unwrap();
    }

    /// A map whose window is full: ids 1 to `cap` (returned with it), each at the index
    /// of its number.
    fn full_window() -> (IdMap, u64) {
        let mut m = IdMap::default();
        m.reserve(8);
        let cap = m.window.capacity() as u64;
        for id in 1..=cap {
            m.insert(EntityId(id), id as u32);
        }
        (m, cap)
    }

    #[test]
    fn a_full_window_drops_its_leading_holes() {
        let (mut m, cap) = full_window();
        for id in 1..=cap / 4 {
            m.remove(EntityId(id));
        }
        let before = m.window.capacity();
        assert!(m.insert_if_free(cap + 1, 0));
        assert_eq!(m.start, cap / 4 + 1);
        assert_eq!(m.window.capacity(), before, "room made without growing");
        assert_eq!(m.map.len(), 0);
        m.check().unwrap();
    }

    #[test]
    fn a_mostly_empty_full_window_moves_to_the_map() {
        let (mut m, cap) = full_window();
        for id in (2..=cap).step_by(2) {
            m.remove(EntityId(id));
        }
        assert!(m.insert_if_free(cap + 1, 99));
        assert_eq!((m.start, m.live), (cap + 1, 1));
        assert_eq!(m.map.len() as u64, cap / 2);
        assert_eq!(m.get(EntityId(1)), Some(1));
        assert_eq!(m.get(EntityId(cap + 1)), Some(99));
        m.check().unwrap();
        // The map's ids are above no fresh id: the next one still takes the window.
        assert!(m.insert_if_free(cap + 2, 100));
        assert_eq!(m.live, 2);
    }

    #[test]
    fn ids_near_the_top_do_not_wrap_the_window() {
        let mut m = IdMap::default();
        m.insert(EntityId(u64::MAX - 1), 0);
        m.insert(EntityId(u64::MAX), 1);
        assert!(!m.insert_if_free(0, 2));
        assert!(m.insert_if_free(1, 2));
        assert_eq!(m.get(EntityId(1)), Some(2));
        assert_eq!(m.get(EntityId(0)), None);
        m.check().unwrap();
    }

    /// Review: sparse ids (1, 2^40, the top) and churn of fresh ids (FIFO, LIFO,
    /// random, one old id kept) keep the window within four times the most live ids
    /// the map held, and the map right.
    #[test]
    fn sparse_ids_and_churn_keep_the_window_small() {
        let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        let mut below = move |n: usize| rng.random_range(0..n);
        for pattern in 0..4 {
            let mut m = IdMap::default();
            let mut live: Vec<u64> = Vec::new();
            for id in [1, 1 << 40, u64::MAX] {
                assert!(m.insert_if_free(id, 0));
                live.push(id);
            }
            let mut counter = 2;
            let mut most = live.len();
            for step in 0..20_000u32 {
                if below(2) == 0 || live.len() < 4 {
                    while !m.insert_if_free(counter, step) {
                        counter += 1;
                    }
                    live.push(counter);
                    counter += 1;
                } else {
                    let i = match pattern {
                        0 => 3,                         // the oldest fresh id
                        1 => live.len() - 1,            // the newest
                        2 => 1 + below(live.len() - 1), // any but id 1
                        _ => 3 + below(live.len() - 3), // fresh ones
                    };
                    let id = live.remove(i);
                    assert!(m.remove(EntityId(id)).is_some(), "{id}");
                }
                most = most.max(live.len());
                assert!(
                    m.window.capacity() <= 4 * most + 8,
                    "pattern {pattern}: window of {} for at most {most} ids",
                    m.window.capacity()
                );
            }
            m.check().unwrap();
            assert_eq!(m.len(), live.len());
            for &id in &live {
                assert!(m.contains(EntityId(id)), "{id}");
            }
        }
    }

    #[derive(Debug, Clone)]
    enum Op {
        /// Enter the counter's id (as fresh allocation does).
        Fresh,
        /// Enter an arbitrary id (as loading does).
        Load(u64),
        /// Remove the n-th live id (modulo the count).
        Remove(usize),
        /// Re-point the n-th live id.
        Set(usize, u32),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            6 => Just(Op::Fresh),
            1 => (1u64..200).prop_map(Op::Load),
            1 => (u64::MAX - 3..=u64::MAX).prop_map(Op::Load),
            5 => any::<usize>().prop_map(Op::Remove),
            1 => (any::<usize>(), 0u32..1000).prop_map(|(i, b)| Op::Set(i, b)),
        ]
    }

    proptest! {
        /// The map agrees with a plain `HashMap` model after any sequence of operations,
        /// and keeps its own invariants.
        #[test]
        fn behaves_like_a_hash_map(ops in proptest::collection::vec(op(), 1..300)) {
            let mut m = IdMap::default();
            let mut model = std::collections::BTreeMap::<u64, u32>::new();
            let mut counter = 1u64;
            for (n, op) in ops.into_iter().enumerate() {
                let base = n as u32;
                match op {
                    Op::Fresh => {
                        while !m.insert_if_free(counter, base) {
                            counter = counter.wrapping_add(1);
                        }
                        model.insert(counter, base);
                        counter = counter.wrapping_add(1);
                    }
                    Op::Load(id) => {
                        let free = !model.contains_key(&id);
                        prop_assert_eq!(m.insert_if_free(id, base), free);
                        if free {
                            model.insert(id, base);
                            counter = counter.max(id.saturating_add(1));
                        }
                    }
                    Op::Remove(i) if !model.is_empty() => {
                        let id = *model.keys().nth(i % model.len()).unwrap();
                        prop_assert_eq!(m.remove(EntityId(id)), model.remove(&id));
                    }
                    Op::Set(i, b) if !model.is_empty() => {
                        let id = *model.keys().nth(i % model.len()).unwrap();
                        m.set(EntityId(id), b);
                        model.insert(id, b);
                    }
                    Op::Remove(_) | Op::Set(..) => {}
                }
                prop_assert!(m.check().is_ok(), "{:?}", m.check());
                prop_assert_eq!(m.len(), model.len());
            }
            let expected: Vec<(u64, u32)> = model.into_iter().collect();
            prop_assert_eq!(ids(&m), expected);
        }
    }
}
