//! The key chain: which property line usually follows which, so the tokenizer's hot
//! loop can check a line against the one predicted line start (a masked 16-byte
//! compare) instead of parsing its key, hashing it and looking it up.
//!
//! Files of one world repeat the same keys in the same order. Each entry of the chain is
//! the start of a property line (`; Key`, `; Key:`, `Key:`, up to 16 bytes, leading
//! blanks included) whose key the tokenizer validated, with the key's CRC, its slot in
//! the duplicate filter and the entry of the property that followed it last time.
//! Entry 0 stands for the start of a file. A wrong prediction costs only the slower
//! path for that one line, which then relinks the chain; a hit is exact (the line
//! starts with the entry's bytes, and is exactly them for a block header), and an entry
//! only ever holds a line start the tokenizer parsed as that key, so a hit also proves
//! the key valid.

use super::LineForm;

/// Longest line start (in bytes) the chain holds.
pub(super) const CHAIN_START_MAX: usize = 16;

/// Entries of the chain, the start-of-file entry 0 included. `next` links are `u8`.
const ENTRIES: usize = 256;

/// One line start of the chain: the first bytes of a property line, through its key
/// (a block header `; Key`) or through the `:` after its key (`; Key: value` or
/// `Key: value`, the value following on the line). 32 bytes.
#[derive(Debug, Clone, Copy)]
pub(super) struct ChainEntry {
    /// The line's first [`ChainEntry::len`] bytes, little-endian, zero-padded.
    pub(super) head: u128,
    /// CRC-32 of the normalized key.
    pub(super) crc: u32,
    /// The key's slot in the [`SeenFilter`] (`crc & 0x3FF`).
    pub(super) slot: u16,
    /// Length of the line start in bytes, 1 to 16 (0 in entry 0, which no line
    /// matches).
    pub(super) len: u8,
    /// The entry of the property that followed this one last time (0: none).
    pub(super) next: u8,
    /// The key: its offset in the line and its length.
    pub(super) key: (u8, u8),
    /// Whether the value follows on the line (the line is longer than the start);
    /// otherwise the line is exactly the start, a block header.
    pub(super) one_line: bool,
    /// How the property is written.
    pub(super) form: LineForm,
    /// [`ChainEntry::len`] for a block header `; Key` (whose key is at offset 2), 0
    /// for every other entry: the fast loop's test for a block header.
    pub(super) block_len: u8,
    /// This entry's index in the chain (the fast loop holds the predicted entry, not
    /// its index).
    pub(super) index: u8,
    /// The entry tried when this one is predicted and the line is not it (0: none):
    /// the one it replaced, or that replaced it, as the next of some entry. Files of
    /// a world that differ by an optional property alternate between the two.
    pub(super) alt: u8,
    /// The entry last linked to this one (whose `next` it became), 0 at first.
    pub(super) from: u8,
}

// The fast loop indexes entries by shifting: keep them 32 bytes.
const _: () = assert!(std::mem::size_of::<ChainEntry>() == 32);

impl Default for ChainEntry {
    fn default() -> ChainEntry {
        ChainEntry {
            head: 0,
            crc: 0,
            slot: 0,
            len: 0,
            next: 0,
            key: (0, 0),
            one_line: false,
            form: LineForm::Block,
            block_len: 0,
            index: 0,
            alt: 0,
            from: 0,
        }
    }
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
            entries: Box::new(std::array::from_fn(|i| ChainEntry {
                index: i as u8,
                ..ChainEntry::default()
            })),
            used: 1,
            by_crc: [0; 256],
        }
    }
}

/// What a property line starts with: see [`ChainEntry`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LineStart<'a> {
    /// The line's first bytes (1 to 16).
    pub(super) bytes: &'a [u8],
    /// Offset and length of the key in `bytes`.
    pub(super) key: (usize, usize),
    /// Whether the value follows on the line.
    pub(super) one_line: bool,
    /// How the property is written.
    pub(super) form: LineForm,
}

impl KeyChain {
    /// The entry predicted for the first property of a file.
    #[inline(always)]
    pub(super) fn first(&self) -> u8 {
        self.entries[0].next
    }

    /// Whether entry `index` is the line start `start`.
    pub(super) fn is(&self, index: u8, start: &LineStart<'_>) -> bool {
        let e = &self.entries[usize::from(index)];
        usize::from(e.len) == start.bytes.len()
            && e.one_line == start.one_line
            && e.head == head_of(start.bytes)
    }

    /// The entry of the line start `start` of a property whose key (valid, as the
    /// tokenizer checked it) has the CRC `crc`, added when new.
    pub(super) fn entry_of(&mut self, start: &LineStart<'_>, crc: u32) -> u8 {
        let hint = self.by_crc[(crc & 0xFF) as usize];
        let found = if self.is(hint, start) && hint != 0 {
            Some(usize::from(hint))
        } else {
            (1..self.used).find(|&i| self.is(i as u8, start))
        };
        let index = match found {
            Some(index) => index,
            None => {
                if self.used == ENTRIES {
                    // Full: start again (a world of over 255 distinct line starts).
                    *self = KeyChain::default();
                }
                let index = self.used;
                self.used += 1;
                self.entries[index] = ChainEntry {
                    head: head_of(start.bytes),
                    crc,
                    slot: (crc as usize % SEEN_SLOTS) as u16,
                    len: start.bytes.len() as u8,
                    next: 0,
                    key: (start.key.0 as u8, start.key.1 as u8),
                    one_line: start.one_line,
                    form: start.form,
                    block_len: if start.one_line {
                        0
                    } else {
                        start.bytes.len() as u8
                    },
                    index: index as u8,
                    alt: 0,
                    from: 0,
                };
                index
            }
        };
        self.by_crc[(crc & 0xFF) as usize] = index as u8;
        index as u8
    }

    /// The entry of a property already met whose key is `key`, with the CRC `crc`,
    /// written as `form`, if any.
    pub(super) fn entry_of_key(&self, key: &[u8], crc: u32, form: LineForm) -> Option<u8> {
        let matches = |i: usize| {
            let e = &self.entries[i];
            let (off, len) = (usize::from(e.key.0), usize::from(e.key.1));
            e.len != 0
                && e.crc == crc
                && e.form == form
                && len == key.len()
                && e.head.to_le_bytes().get(off..off + len) == Some(key)
        };
        let hint = usize::from(self.by_crc[(crc & 0xFF) as usize]);
        if matches(hint) {
            return Some(hint as u8);
        }
        (1..self.used).find(|&i| matches(i)).map(|i| i as u8)
    }

    /// Records that the property of entry `to` followed the one of entry `from`
    /// (0: the start of the file); the entry that followed it before, if another,
    /// and `to` become each other's [`ChainEntry::alt`].
    #[inline]
    pub(super) fn link(&mut self, from: u8, to: u8) {
        let old = self.entries[usize::from(from)].next;
        if old != 0 && old != to {
            // Each is the other's alternative from now on.
            self.entries[usize::from(to)].alt = old;
            self.entries[usize::from(old)].alt = to;
        }
        self.entries[usize::from(from)].next = to;
        self.entries[usize::from(to)].from = from;
    }

    /// Makes `to`, taken as the alternative of the predicted entry `want`, the
    /// prediction in `want`'s place (after the entry last linked to `want`, if that
    /// one still predicts it).
    pub(super) fn promote(&mut self, want: u8, to: u8) {
        let from = self.entries[usize::from(want)].from;
        if self.entries[usize::from(from)].next == want {
            self.link(from, to);
        }
    }
}

/// `bytes` (at most 16) as a little-endian `u128` padded with zero bytes.
pub(super) fn head_of(bytes: &[u8]) -> u128 {
    let mut padded = [0u8; 16];
    padded[..bytes.len()].copy_from_slice(bytes);
    u128::from_le_bytes(padded)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn start(bytes: &[u8], key: (usize, usize), one_line: bool) -> LineStart<'_> {
        let form = match (one_line, bytes.first()) {
            (false, _) => LineForm::Block,
            (true, Some(b';')) => LineForm::Inline,
            (true, _) => LineForm::Compact,
        };
        LineStart {
            bytes,
            key,
            one_line,
            form,
        }
    }

    #[test]
    fn heads_match_the_line_starts_they_were_made_from() {
        let text = b"; MeshInstance\nmore text";
        let window: [u8; 16] = text[..16].try_into().unwrap();
        for len in 1..=16 {
            let head = head_of(&text[..len]);
            assert!(super::super::simd::common_prefix(&window, &head) >= len as u32);
        }
        let other = head_of(b"; MeshInstancf\n");
        assert_eq!(super::super::simd::common_prefix(&window, &other), 13);
        assert_eq!(head_of(b""), 0);
    }

    #[test]
    fn entries_are_found_again_and_linked() {
        let mut chain = KeyChain::default();
        let a = start(b"; Position", (2, 8), false);
        let b = start(b"; Rotation:", (2, 8), true);
        let c = start(b"Rotation:", (0, 8), true);
        let ia = chain.entry_of(&a, 7);
        let ib = chain.entry_of(&b, 7);
        let ic = chain.entry_of(&c, 7);
        assert!(ia != ib && ib != ic && ia != 0);
        assert_eq!(chain.entry_of(&a, 7), ia);
        assert_eq!(chain.entry_of(&b, 7), ib);
        assert!(chain.is(ib, &b) && !chain.is(ib, &a));
        assert_eq!(
            chain.entry_of_key(b"Rotation", 7, LineForm::Inline),
            Some(ib)
        );
        assert_eq!(
            chain.entry_of_key(b"Rotation", 7, LineForm::Compact),
            Some(ic)
        );
        assert_eq!(
            chain.entry_of_key(b"Position", 7, LineForm::Block),
            Some(ia)
        );
        assert_eq!(chain.entry_of_key(b"Position", 8, LineForm::Block), None);
        chain.link(0, ia);
        chain.link(ia, ib);
        assert_eq!(chain.first(), ia);
        assert_eq!(chain.entries[usize::from(ia)].next, ib);
        assert_eq!(chain.entries[usize::from(ib)].alt, 0);
        // `ia` followed by `ic` instead: `ib` and `ic` are each other's alternative.
        chain.link(ia, ic);
        chain.link(ia, ic);
        assert_eq!(chain.entries[usize::from(ia)].next, ic);
        assert_eq!(chain.entries[usize::from(ic)].alt, ib);
        assert_eq!(chain.entries[usize::from(ib)].alt, ic);
        // `ib` taken as the alternative of `ic`: the prediction after `ia` again.
        chain.promote(ic, ib);
        assert_eq!(chain.entries[usize::from(ia)].next, ib);
        assert_eq!(chain.entries[usize::from(ib)].from, ia);
        // `ia` no longer predicts `ic`: promoting from it changes nothing.
        chain.promote(ic, ib);
        assert_eq!(chain.entries[usize::from(ia)].next, ib);
        let e = chain.entries[usize::from(ib)];
        assert_eq!((e.crc, e.len, e.slot, e.key), (7, 11, 7, (2, 8)));
        assert_eq!(e.head, u128::from_le_bytes(*b"; Rotation:\0\0\0\0\0"));
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
            let name = format!("; K{i}");
            let s = start(name.as_bytes(), (2, name.len() - 2), false);
            let index = chain.entry_of(&s, i);
            assert!(index >= 1);
            assert!(chain.is(index, &s));
            assert_eq!(chain.entries[usize::from(index)].crc, i);
        }
    }
}
