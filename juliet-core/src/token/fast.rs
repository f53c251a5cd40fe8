//! The tokenizer's fast path: the common lines of a file, handled in one tight loop
//! over the newline masks of [`simd::scan_text`] with no call in it, and the less common
//! lines that still need no error report ([`TokenBuffer::predicted_line`],
//! [`TokenBuffer::fast_other_line`]). Every line that neither takes goes to the
//! general path in `scan.rs` unchanged.

use super::chain::{head_of, LineStart, CHAIN_START_MAX, SEEN_SLOTS};
use super::scan::{find_colon, skip_blanks, ScanState, LINEAR_DUPLICATE_SCAN, LONG_OPEN, NO_BLOCK};
use super::{simd, LineForm, PropertyNode, TokenBuffer, LONG_BLOCK, LONG_BLOCK_FLAG};
use crate::value::ValueSpan;

/// Class of a line by its first byte (see [`FIRST_BYTE`]).
const OTHER: u8 = 0;
/// A visible byte that starts a value line (not `;`, `#` or `/`).
const VALUE: u8 = 1;
/// `;`: a header.
const SEMI: u8 = 2;
/// `#`: a comment.
const HASH: u8 = 3;
/// `/`: a `//` comment or a value line.
const SLASH: u8 = 4;
/// `<`, `|`, `=`, `>`: a value line, or a merge conflict marker (an error the general
/// path reports).
const MARK: u8 = 5;

/// The class of each first byte of a line ([`first_byte_class`]).
static FIRST_BYTE: [u8; 256] = byte_table!(first_byte_class);

/// The class of a line starting with `b`: blanks and control bytes are [`OTHER`]
/// (leading blanks go to the slower path).
const fn first_byte_class(b: u8) -> u8 {
    match b {
        0..=b' ' => OTHER,
        b';' => SEMI,
        b'#' => HASH,
        b'/' => SLASH,
        b'<' | b'|' | b'=' | b'>' => MARK,
        _ => VALUE,
    }
}

/// The 16 bytes of `bytes` from `start` on; for a line in the text's last 16 bytes,
/// those bytes moved down to its start. `None` for a text shorter than 16 bytes.
#[inline(always)]
fn window_at(bytes: &[u8], start: usize) -> Option<[u8; 16]> {
    match bytes[start..].first_chunk::<16>() {
        Some(&window) => Some(window),
        None => {
            let last = bytes.last_chunk::<16>()?;
            let skip = start + 16 - bytes.len();
            Some((u128::from_le_bytes(*last) >> (8 * skip)).to_le_bytes())
        }
    }
}

/// The node of a block header `; Key` of `len` bytes starting at `start`, on line
/// `line`, its values from index `open` on.
#[inline(always)]
fn block_header(key_crc: u32, start: usize, len: usize, line: u32, open: usize) -> PropertyNode {
    PropertyNode {
        key_crc,
        key_start: (start + 2) as u32,
        key_len: len as u32 - 2,
        line,
        column: 3,
        values_start: open as u32,
        values_len: 0,
        consumed: false,
        form: LineForm::Block,
    }
}

impl TokenBuffer {
    /// Handles the lines whose newlines are the bits of `self.masks` from `at`'s position on,
    /// while they are common: blank lines, `#` and `//` comments, value lines of an
    /// open block without leading or trailing blanks, and `; Key` headers of the key
    /// the [`super::chain::KeyChain`] predicts (that close a non-empty block and are not
    /// duplicates). Stops at the first other line, changing nothing for it, and returns
    /// the offset of its newline, with `at` at its start and its number; `None` when
    /// every newline is done.
    ///
    /// The loop calls nothing: it stops instead when a buffer is full, so its state
    /// stays in registers.
    #[inline(never)]
    pub(super) fn fast_lines(&mut self, bytes: &[u8], at: &mut ScanState) -> Option<usize> {
        let mut start = at.line_start;
        let mut line_no = at.line_no;
        let mut open = at.open;
        let (word, mut bits) = at.mask;
        let mut base = word * simd::BLOCK;
        let mut e = &self.chain.entries[usize::from(at.want)];
        // Local vectors (written back below): their lengths stay in registers.
        let mut nodes = std::mem::take(&mut self.nodes);
        let mut values = std::mem::take(&mut self.values);
        let chain = &self.chain.entries;
        let masks = &self.masks;
        let seen_slots = &mut *self.used.slots;
        let serial = self.used.serial;
        let stopped = 'lines: loop {
            while bits == 0 {
                base += simd::BLOCK;
                match masks.get(base / simd::BLOCK) {
                    Some(&next) => bits = next,
                    None => break 'lines None,
                }
            }
            let end = base + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            line_no += 1;
            // `end > start` but on a blank line (newlines come in order).
            if end <= start {
                start = end + 1;
                continue;
            }
            let Some(line) = bytes.get(start..end) else {
                break Some(end);
            };
            let class = FIRST_BYTE[usize::from(line[0])];
            if class == VALUE {
                // A block's long tail and lines outside blocks take the other path.
                if line[line.len() - 1] <= b' '
                    || open >= LONG_OPEN
                    || values.len() - open >= LONG_BLOCK
                    || values.len() == values.capacity()
                {
                    break Some(end);
                }
                values.push(ValueSpan {
                    start: start as u32,
                    len: line.len() as u32,
                });
                start = end + 1;
                continue;
            }
            // The predicted property: a block header `; Key` equal to the entry, or a
            // line `; Key: value` / `Key: value` that starts with it; new in this file
            // and closing a block with a value.
            if line.len() == usize::from(e.block_len) {
                let Some(window) = window_at(bytes, start) else {
                    break Some(end);
                };
                if simd::common_prefix(&window, &e.head) < u32::from(e.block_len)
                    || open == values.len()
                    || nodes.len() >= LINEAR_DUPLICATE_SCAN
                    || nodes.len() == nodes.capacity()
                {
                    break Some(end);
                }
                let seen = &mut seen_slots[usize::from(e.slot) % SEEN_SLOTS];
                if *seen == serial {
                    break Some(end);
                }
                *seen = serial;
                open = values.len();
                nodes.push(block_header(e.crc, start, line.len(), line_no, open));
                e = &chain[usize::from(e.next)];
            } else if !(class == HASH || class == SLASH && line.get(1) == Some(&b'/')) {
                break Some(end);
            }
            start = end + 1;
        };
        self.nodes = nodes;
        self.values = values;
        at.line_start = start;
        at.line_no = line_no;
        at.open = open;
        at.mask = (base / simd::BLOCK, bits);
        at.want = e.index;
        stopped
    }

    /// The line `bytes[start..end]` (line `line_no`) that [`TokenBuffer::fast_lines`]
    /// stopped at, when it is the property the chain predicts (`at.want`): a one-line
    /// property `; Key: value` or `Key: value` (the fast loop takes only block
    /// headers), or a block header too close to the end of the text for the fast
    /// loop's 16-byte read; or else the predicted entry's [`ChainEntry::alt`] (which
    /// then becomes the prediction in its place). Adds it, advances the prediction
    /// and returns `true`; else returns `false` having changed nothing.
    ///
    /// [`ChainEntry::alt`]: super::chain::ChainEntry::alt
    #[inline(never)]
    pub(super) fn predicted_line(&mut self, bytes: &[u8], end: usize, at: &mut ScanState) -> bool {
        let at_want = at.want;
        if self.chain_line(bytes, end, at, at_want) {
            return true;
        }
        let alt = self.chain.entries[usize::from(at_want)].alt;
        if alt == 0 || !self.chain_line(bytes, end, at, alt) {
            return false;
        }
        self.chain.promote(at_want, alt);
        true
    }

    /// [`TokenBuffer::predicted_line`] for the chain entry `index`.
    #[inline(always)]
    fn chain_line(&mut self, bytes: &[u8], end: usize, at: &mut ScanState, index: u8) -> bool {
        let e = &self.chain.entries[usize::from(index)];
        let prefix = usize::from(e.len);
        let Some(line) = bytes.get(at.line_start..end) else {
            return false;
        };
        let (Some(&last), Some(start)) = (line.last(), line.get(..prefix)) else {
            return false;
        };
        let window = match bytes[at.line_start..].first_chunk::<16>() {
            Some(&window) => window,
            None => head_of(start).to_le_bytes(),
        };
        if prefix == 0
            || (line.len() > prefix) != e.one_line
            || last <= b' '
            || simd::common_prefix(&window, &e.head) < u32::from(e.len)
            || at.open == self.values.len()
            // In a block, `Key: value` is a value line.
            || (e.form == LineForm::Compact && at.open != NO_BLOCK)
        {
            return false;
        }
        // Only the fields still needed (not a copy of the whole entry).
        let (crc, (key_off, key_len), form, one_line, next) =
            (e.crc, e.key, e.form, e.one_line, e.next);
        let key = at.line_start + usize::from(key_off);
        let key = (key, key + usize::from(key_len));
        if self.find_duplicate(bytes, key, crc, at.line_no).is_some() {
            return false;
        }
        self.add_node(crc, key, at.line_no, u32::from(key_off) + 1, form);
        if one_line {
            let from = skip_blanks(line, prefix);
            self.add_value(at.line_start, line, from);
            at.open = NO_BLOCK;
        } else {
            at.open = self.values.len();
        }
        at.want = next;
        true
    }

    /// After the line `src[line_start..end]`, off the fast loop, added node
    /// `nodes.last()`: links its line start to the property before it in the
    /// [`super::chain::KeyChain`] and predicts the next one from it.
    #[inline(never)]
    pub(super) fn relink(&mut self, src: &[u8], line_start: usize, end: usize, at: &mut ScanState) {
        let Some((last, before)) = self.nodes.split_last() else {
            return;
        };
        let Some(line) = src.get(line_start..end) else {
            return;
        };
        let key_off = (last.key_start as usize).wrapping_sub(line_start);
        let key_end = key_off + last.key_len as usize;
        let (len, one_line) = match last.form {
            LineForm::Block => (key_end, false),
            // Only from the line's start: a `Key: value` after blanks is a value line
            // when a block is open, and the fast loop takes such lines as properties.
            LineForm::Compact if key_off != 0 => return,
            LineForm::Inline | LineForm::Compact => match find_colon(line, key_end) {
                Some(colon)
                    if line[key_end..colon]
                        .iter()
                        .all(|&b| b == b' ' || b == b'\t') =>
                {
                    (colon + 1, true)
                }
                _ => return,
            },
        };
        // A block header is chained when the line is exactly `; Key` (any other, with
        // blanks or a `\r` after the key, never reaches the fast loop's compare).
        if key_end > line.len()
            || len > CHAIN_START_MAX
            || (last.form == LineForm::Block
                && (len != line.len() || key_off != 2 || !line.starts_with(b"; ")))
        {
            return;
        }
        let start = LineStart {
            bytes: &line[..len],
            key: (key_off, last.key_len as usize),
            one_line,
            form: last.form,
        };
        // The predicted line, off the fast loop for another reason (a full buffer, a
        // filter hit, the end of the text): the chain holds.
        if self.chain.is(at.want, &start) {
            at.want = self.chain.entries[usize::from(at.want)].next;
            return;
        }
        let to = self.chain.entry_of(&start, last.key_crc);
        let from = match before.last() {
            Some(n) => {
                let key = &src[n.key_start as usize..][..n.key_len as usize];
                self.chain.entry_of_key(key, n.key_crc, n.form)
            }
            None => Some(0),
        };
        if let Some(from) = from {
            self.chain.link(from, to);
        }
        at.want = self.chain.entries[usize::from(to)].next;
    }

    /// Appends the node of the key `src[key.0..key.1]` (CRC `key_crc`) on `line` at
    /// `column`, written as `form`; its value lines start at the next value span.
    #[inline(always)]
    pub(super) fn add_node(
        &mut self,
        key_crc: u32,
        key: (usize, usize),
        line: u32,
        column: u32,
        form: LineForm,
    ) {
        self.nodes.push(PropertyNode {
            key_crc,
            key_start: key.0 as u32,
            key_len: (key.1 - key.0) as u32,
            line,
            column,
            values_start: self.values.len() as u32,
            values_len: 0,
            consumed: false,
            form,
        });
    }

    /// Appends the value span of `line` (which starts at `line_start` in the source) from
    /// byte `from` to its end.
    #[inline(always)]
    pub(super) fn add_value(&mut self, line_start: usize, line: &[u8], from: usize) {
        self.values.push(ValueSpan {
            start: (line_start + from) as u32,
            len: (line.len() - from) as u32,
        });
    }

    /// Appends value line `line` (from byte `from`; the line starts at `line_start`) to
    /// the open block, `open` (see [`TokenBuffer::line`]). The block's
    /// [`LONG_BLOCK`]` + 1`th line turns its value lines into one region of the text
    /// (the last node marked a long block, `open` set to [`LONG_OPEN`]), which each
    /// further line extends.
    #[inline(always)]
    pub(super) fn add_block_value(
        &mut self,
        line_start: usize,
        line: &[u8],
        from: usize,
        open: &mut usize,
    ) {
        let end = (line_start + line.len()) as u32;
        if *open == LONG_OPEN {
            if let (Some(region), Some(node)) = (self.values.last_mut(), self.nodes.last_mut()) {
                region.len = end - region.start;
                node.values_len += 1;
            }
            return;
        }
        if self.values.len() - *open < LONG_BLOCK {
            return self.add_value(line_start, line, from);
        }
        let start = self.values[*open].start;
        self.values.truncate(*open + 1);
        self.values[*open] = ValueSpan {
            start,
            len: end - start,
        };
        if let Some(node) = self.nodes.last_mut() {
            node.values_len = LONG_BLOCK_FLAG | (LONG_BLOCK as u32 + 1);
        }
        *open = LONG_OPEN;
    }

    /// A line [`TokenBuffer::fast_lines`] stopped at (line `line_no`,
    /// `bytes[start..end]`), when it is common enough to need no error report: a line
    /// with leading blanks or a `\r`, a `//` comment, a value line, a `; Key` header or
    /// a `; Key: value` or `Key: value` property of a key in the cache (new, closing a
    /// block with a value). Handles it and returns `true`, or returns `false` having
    /// changed nothing.
    #[inline(never)]
    pub(super) fn fast_other_line(
        &mut self,
        bytes: &[u8],
        start: usize,
        end: usize,
        line_no: u32,
        open: &mut usize,
    ) -> bool {
        let Some(mut line) = bytes.get(start..end) else {
            return false;
        };
        if let [rest @ .., b'\r'] = line {
            line = rest;
        }
        let (Some(&first), Some(&last)) = (line.first(), line.last()) else {
            return false;
        };
        if last <= b' ' {
            return false;
        }
        let mut s = 0;
        let mut first = first;
        if first <= b' ' {
            s = skip_blanks(line, 0);
            // `last` is visible, so `s` is inside the line.
            first = match line.get(s) {
                Some(&b) if b > b' ' => b,
                _ => return false,
            };
        }
        match first {
            b'#' => true,
            b'/' if line.get(s + 1) == Some(&b'/') => true,
            b'<' | b'|' | b'=' | b'>' if crate::value::is_conflict_marker(&line[s..]) => false,
            b';' => match self.fast_header(bytes, start, line, s, line_no, *open) {
                Some(now_open) => {
                    *open = now_open;
                    true
                }
                None => false,
            },
            _ if *open != NO_BLOCK => {
                self.add_block_value(start, line, s, open);
                true
            }
            _ => match find_colon(line, s) {
                Some(colon) => {
                    let compact = (start, s, colon, line_no, LineForm::Compact);
                    self.fast_one_line(bytes, line, compact)
                }
                None => false,
            },
        }
    }

    /// A `; Key` or `; Key: value` header `line` (line `line_no`, at byte `start`,
    /// trimmed at its end, its `;` at offset `s`) when its key is in the cache, the
    /// block it closes (`open`, see [`TokenBuffer::line`]) has a value and the key is
    /// new: adds it and returns the new `open`. Otherwise changes nothing and returns
    /// `None`.
    #[inline(always)]
    fn fast_header(
        &mut self,
        bytes: &[u8],
        start: usize,
        line: &[u8],
        s: usize,
        line_no: u32,
        open: usize,
    ) -> Option<usize> {
        let Some([_, b' ', _, ..]) = line.get(s..) else {
            return None;
        };
        let values = self.values.len();
        if open == values {
            return None;
        }
        let k = s + 2;
        if let Some(colon) = find_colon(line, k) {
            // `; Key: value` (no key holds a `:`).
            let inline = (start, k, colon, line_no, LineForm::Inline);
            return self.fast_one_line(bytes, line, inline).then_some(NO_BLOCK);
        }
        let key_crc = self.keys.get(bytes, start + k, line.len() - k)?;
        let key = (start + k, start + line.len());
        if self.find_duplicate(bytes, key, key_crc, line_no).is_some() {
            return None;
        }
        let key = (start + k, start + line.len());
        self.add_node(key_crc, key, line_no, k as u32 + 1, LineForm::Block);
        Some(values)
    }

    /// A one-line property `Key: value` (`line`, trimmed, at byte `at.0`, the key at
    /// offset `at.1`, its first `:` at offset `at.2`, on line `at.3`, written as
    /// `at.4`) whose key is in the cache and new, with a value: adds it and returns
    /// `true`. Otherwise changes nothing and returns `false`. A block that the property
    /// closes was checked by the caller.
    ///
    /// The key is the text before the `:` less its trailing blanks; the cache holds only
    /// keys validated as identifiers, so a hit also validates it.
    #[inline(always)]
    fn fast_one_line(
        &mut self,
        bytes: &[u8],
        line: &[u8],
        at: (usize, usize, usize, u32, LineForm),
    ) -> bool {
        let (start, k, colon, line_no, form) = at;
        let mut key_end = colon;
        while key_end > k && matches!(line[key_end - 1], b' ' | b'\t') {
            key_end -= 1;
        }
        if key_end == k {
            return false;
        }
        let Some(key_crc) = self.keys.get(bytes, start + k, key_end - k) else {
            return false;
        };
        let from = skip_blanks(line, colon + 1);
        if from == line.len()
            || self
                .find_duplicate(bytes, (start + k, start + key_end), key_crc, line_no)
                .is_some()
        {
            return false;
        }
        let key = (start + k, start + key_end);
        self.add_node(key_crc, key, line_no, k as u32 + 1, form);
        self.add_value(start, line, from);
        true
    }
}
