//! The key chain: which `; Key` header usually follows which, so the tokenizer's hot
//! loop can check a header against one predicted key (a masked 16-byte compare) instead
//! of hashing it and looking it up.
//!
//! Files of one world repeat the same keys in the same order. Each entry of the chain is
//! the line `; Key` (the key as written, up to 14 bytes) of a key that the tokenizer
//! validated and met as a block header, with its CRC, its bit in the duplicate filter
//! and the entry of the block header that followed it last time. Entry 0 stands for the start of a file. A wrong
//! prediction costs only the slower path for that one line, which then relinks the
//! chain; a hit is exact (the line's key bytes equal the entry's), and an entry only
//! ever holds a key that was validated, so a hit also proves the key valid.

/// Longest key (in bytes) the chain holds: `; ` and the key fit in 16 bytes.
pub(super) const CHAIN_KEY_MAX: usize = 14;

/// Entries of the chain, the start-of-file entry 0 included. `next` links are `u8`.
const ENTRIES: usize = 256;

/// One key of the chain. 32 bytes.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct ChainEntry {
    /// The line `; Key`, little-endian, zero-padded ([`header_head`]).
    pub(super) head: u128,
    /// CRC-32 of the normalized key.
    pub(super) crc: u32,
    /// Length of the line `; Key` in bytes, 3 to 16 (0 in entry 0, which no line
    /// matches).
    pub(super) len: u8,
    /// The key's slot in the [`SeenFilter`] (`crc & 0x3FF`).
    pub(super) slot: u16,
    /// The entry of the block header that followed this one last time (0: none).
    pub(super) next: u8,
}

/// The chain of a `TokenBuffer` (see the module documentation).
#[derive(Debug, Clone)]
pub(super) struct KeyChain {
    pub(super) entries: Box<[ChainEntry; ENTRIES]>,
    /// Entries in use (entry 0 included).
    used: usize,
    /// Entry index by the CRC's low byte: where to look first.
    by_crc: [u8; 256],
}

impl Default for KeyChain {
    fn default() -> KeyChain {
        KeyChain {
            entries: Box::new([ChainEntry::default(); ENTRIES]),
            used: 1,
            by_crc: [0; 256],
        }
    }
}

impl KeyChain {
    /// The entry predicted for the first block header of a file.
    #[inline(always)]
    pub(super) fn first(&self) -> u8 {
        self.entries[0].next
    }

    /// The entry of the valid key `key` (1 to [`CHAIN_KEY_MAX`] bytes), whose CRC is
    /// `crc`, added when new; `None` when the key is not chained (too long).
    pub(super) fn entry_of(&mut self, key: &[u8], crc: u32) -> Option<u8> {
        if !(1..=CHAIN_KEY_MAX).contains(&key.len()) {
            return None;
        }
        let head = header_head(key);
        let len = key.len() + 2;
        let same = |e: &ChainEntry| e.head == head && usize::from(e.len) == len;
        let hint = self.by_crc[(crc & 0xFF) as usize];
        let found = if same(&self.entries[usize::from(hint)]) {
            Some(usize::from(hint))
        } else {
            (1..self.used).find(|&i| same(&self.entries[i]))
        };
        let index = match found {
            Some(index) => index,
            None => {
                if self.used == ENTRIES {
                    // Full: start again (a world of over 255 distinct header keys).
                    *self = KeyChain::default();
                }
                let index = self.used;
                self.used += 1;
                self.entries[index] = ChainEntry {
                    head,
                    crc,
                    len: len as u8,
                    slot: (crc as usize % SEEN_SLOTS) as u16,
                    next: 0,
                };
                index
            }
        };
        self.by_crc[(crc & 0xFF) as usize] = index as u8;
        Some(index as u8)
    }

    /// Records that the block header of entry `to` followed the one of entry `from`
    /// (0: the start of the file).
    #[inline]
    pub(super) fn link(&mut self, from: u8, to: u8) {
        self.entries[usize::from(from)].next = to;
    }
}

/// Slots of a [`SeenFilter`] (a power of two).
pub(super) const SEEN_SLOTS: usize = 1024;

/// The duplicate pre-check of one file: which values of the key CRCs' low 10 bits the
/// file has used so far. Each slot holds the serial number of the last file that used
/// it, so starting a file is one increment, not a clear.
#[derive(Debug, Clone)]
pub(super) struct SeenFilter {
    pub(super) slots: Box<[u32; SEEN_SLOTS]>,
    /// The current file's serial number (never 0 once a file has begun).
    pub(super) serial: u32,
}

impl Default for SeenFilter {
    fn default() -> SeenFilter {
        SeenFilter {
            slots: Box::new([0; SEEN_SLOTS]),
            serial: 0,
        }
    }
}

impl SeenFilter {
    /// Starts a file: no slot is used.
    #[inline]
    pub(super) fn begin_file(&mut self) {
        self.serial = self.serial.wrapping_add(1);
        if self.serial == 0 {
            // Once in four billion files: slots of old files could match again.
            *self.slots = [0; SEEN_SLOTS];
            self.serial = 1;
        }
    }

    /// Marks the slot of key CRC `crc` used; returns whether this file had used it
    /// before (the key may be a duplicate: the caller compares the nodes).
    #[inline(always)]
    pub(super) fn test_and_set(&mut self, crc: u32) -> bool {
        let slot = &mut self.slots[crc as usize % SEEN_SLOTS];
        let used = *slot == self.serial;
        *slot = self.serial;
        used
    }
}

/// `HEAD_MASKS[n]` keeps the low `n` bytes of a `u128` (all of them from 16 on; one
/// entry per `u8`, so that an entry's length indexes it with no bounds check).
pub(super) static HEAD_MASKS: [u128; 256] = {
    let mut masks = [u128::MAX; 256];
    masks[0] = 0;
    let mut n = 1;
    while n < 16 {
        masks[n] = u128::MAX >> (128 - 8 * n);
        n += 1;
    }
    masks
};

/// The line `; Key` of `key` (at most [`CHAIN_KEY_MAX`] bytes) as a little-endian
/// `u128` padded with zero bytes.
pub(super) fn header_head(key: &[u8]) -> u128 {
    let mut padded = [0u8; 16];
    padded[..2].copy_from_slice(b"; ");
    padded[2..2 + key.len()].copy_from_slice(key);
    u128::from_le_bytes(padded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_and_masks_agree() {
        let text = b"; MeshInstance\nmore text";
        for len in 3..=14 {
            let window: [u8; 16] = text[..16].try_into().unwrap();
            let masked = u128::from_le_bytes(window) & HEAD_MASKS[len];
            assert_eq!(masked, header_head(&text[2..len]), "{len}");
        }
        assert_eq!(HEAD_MASKS[16], u128::MAX);
        assert_eq!(HEAD_MASKS[200], u128::MAX);
        assert_eq!(HEAD_MASKS[0], 0);
    }

    #[test]
    fn entries_are_found_again_and_linked() {
        let mut chain = KeyChain::default();
        let ia = chain.entry_of(b"Position", 7).unwrap();
        let ib = chain.entry_of(b"Rotation", 7).unwrap();
        assert_ne!(ia, ib);
        assert_eq!(chain.entry_of(b"Position", 7), Some(ia));
        assert_eq!(chain.entry_of(b"Rotation", 7), Some(ib));
        chain.link(0, ia);
        chain.link(ia, ib);
        assert_eq!(chain.first(), ia);
        assert_eq!(chain.entries[usize::from(ia)].next, ib);
        let e = chain.entries[usize::from(ib)];
        assert_eq!((e.crc, e.len, e.slot), (7, 10, 7));
        assert_eq!(e.head, u128::from_le_bytes(*b"; Rotation\0\0\0\0\0\0"));
        assert_eq!(chain.entry_of(b"FifteenBytesKey", 1), None);
        assert_eq!(chain.entry_of(b"", 1), None);
    }

    #[test]
    fn the_seen_filter_forgets_at_each_file() {
        let mut seen = SeenFilter::default();
        for _ in 0..3 {
            seen.begin_file();
            assert!(!seen.test_and_set(5));
            assert!(seen.test_and_set(5));
            assert!(seen.test_and_set(5 + SEEN_SLOTS as u32));
            assert!(!seen.test_and_set(6));
        }
        seen.serial = u32::MAX;
        seen.begin_file();
        assert_eq!(seen.serial, 1);
        assert!(!seen.test_and_set(5));
    }

    #[test]
    fn a_full_chain_starts_again() {
        let mut chain = KeyChain::default();
        for i in 0..600u32 {
            let name = format!("K{i}");
            let index = chain.entry_of(name.as_bytes(), i).unwrap();
            assert!(index >= 1);
            assert_eq!(
                chain.entries[usize::from(index)].head,
                header_head(name.as_bytes())
            );
            assert_eq!(chain.entries[usize::from(index)].crc, i);
        }
    }
}
