//! The duplicate-key index of a file of many properties: for each key CRC met, the
//! index of the first node with it.
//!
//! An open-addressing table of node indices alone (the CRC is the node's own, so it is
//! not stored again): 4 bytes a slot, at most three quarters full, where a general hash
//! map of CRC to index takes about 18 bytes a key. A slot holds its node's index plus
//! one, 0 where free, so that a table is allocated zeroed and a slot no key lands on
//! costs no memory: a table sized for every line of a file of a few keys and millions
//! of value lines stays untouched. A file of a million keys needs it
//! while it is tokenized, next to its 40 bytes a key of node and value line.

use super::PropertyNode;

/// No node (a slot holds a node's index plus one).
const EMPTY: u32 = 0;

/// See the [module docs](self).
#[derive(Debug, Default)]
pub(super) struct FirstOfCrc {
    /// Node indices plus one, [`EMPTY`] where free; a power of two long (or empty).
    slots: Vec<u32>,
    /// Occupied slots.
    len: usize,
}

impl FirstOfCrc {
    /// Whether no node is recorded.
    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the table has grown past what files of 65,536 properties need.
    pub(super) fn is_large(&self) -> bool {
        self.slots.len() > 1 << 17
    }

    /// Forgets every node; a table grown for a very large file is given back.
    pub(super) fn clear(&mut self) {
        if self.is_large() {
            self.slots = Vec::new();
        } else {
            self.slots.fill(EMPTY);
        }
        self.len = 0;
    }

    /// The first node of `nodes` recorded with the key CRC `crc`; when there is none,
    /// records `index` (the node about to be added, or one of `nodes`) as that node and
    /// returns it.
    pub(super) fn first_or_insert(&mut self, nodes: &[PropertyNode], crc: u32, index: u32) -> u32 {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow(nodes);
        }
        let mask = self.slots.len() - 1;
        let mut at = slot_of(crc, mask);
        loop {
            match self.slots[at] {
                EMPTY => {
                    self.slots[at] = index + 1;
                    self.len += 1;
                    return index;
                }
                // Every recorded index but the one being added (which ends the call)
                // is a node already pushed.
                i if nodes[i as usize - 1].key_crc == crc => return i - 1,
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// Room for `nodes` recorded nodes without growing (only while none is recorded).
    pub(super) fn reserve(&mut self, nodes: usize) {
        let size = (nodes.saturating_mul(4) / 3 + 1)
            .next_power_of_two()
            .max(64);
        if self.len == 0 && self.slots.len() < size {
            self.slots = vec![EMPTY; size];
        }
    }

    /// Doubles the table (64 slots at first), placing the recorded nodes again.
    #[cold]
    fn grow(&mut self, nodes: &[PropertyNode]) {
        let size = (self.slots.len() * 2).max(64);
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; size]);
        let mask = size - 1;
        for i in old.into_iter().filter(|&i| i != EMPTY) {
            let mut at = slot_of(nodes[i as usize - 1].key_crc, mask);
            while self.slots[at] != EMPTY {
                at = (at + 1) & mask;
            }
            self.slots[at] = i;
        }
    }
}

/// The home slot of `crc` (its bits mixed: CRCs of keys that differ in one character
/// differ in few low bits).
fn slot_of(crc: u32, mask: usize) -> usize {
    (crc.wrapping_mul(0x9E37_79B9).rotate_left(16) as usize) & mask
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(key_crc: u32) -> PropertyNode {
        PropertyNode {
            key_crc,
            key_start: 0,
            key_len: 0,
            line: 1,
            values_start: 0,
            column: 1,
            values_len: 1,
            consumed: false,
            form: super::super::LineForm::Compact,
        }
    }

    #[test]
    fn the_first_node_of_each_crc_is_found_across_growth() {
        let mut table = FirstOfCrc::default();
        let mut nodes = Vec::new();
        // 1000 distinct CRCs, then each again: the first index comes back.
        for crc in 0..1000u32 {
            let index = nodes.len() as u32;
            assert_eq!(table.first_or_insert(&nodes, crc * 7919, index), index);
            nodes.push(node(crc * 7919));
        }
        for crc in 0..1000u32 {
            let index = nodes.len() as u32;
            assert_eq!(table.first_or_insert(&nodes, crc * 7919, index), crc);
            nodes.push(node(crc * 7919));
        }
        assert!(!table.is_empty());
        table.clear();
        table.reserve(3000);
        assert_eq!(table.slots.len(), 4096);
        assert!(table.is_empty());
        assert_eq!(table.first_or_insert(&nodes, 0, 5), 5);
    }
}
