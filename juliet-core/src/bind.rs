//! [`Properties`]: the one walk of a document that every class loader makes, binding
//! each property of the file, in file order, to an entry of the class's property table
//! by exact key. docs/design.md, sections 4.2 and 4.3.

use crate::archive::CLASS_VERSION;
use crate::codec::Codec;
use crate::erased::PropertyDescriptor;
use crate::error::Error;
use crate::token::{same_bytes, Document};
use crate::value::{Value, ValueSpan};

/// A walk over a [`Document`]'s properties in file order that binds each to a property
/// of `table` ([`Document::properties`]): [`Properties::next_property`] gives the index in the
/// table of the next property the file has, and [`Properties::decode_into`] reads it.
/// The derive's `Reflect::load` is this loop with one `match` arm a field.
///
/// A key binds by its CRC first, then its normalized text (ASCII case and `_` ignored),
/// so a CRC-32 twin of a key is no property of the table: the walk leaves it
/// unconsumed, for the unknown-key audit, as it leaves `ClassVersion`, the base keys
/// and deprecated keys. Two spellings of one property (its key and an alias) are a
/// [`crate::ErrorKind::DuplicateKey`] error at the later one.
///
/// On a document being filled ([`TokenBuffer::document`](crate::TokenBuffer::document))
/// the properties a class declares, written as blocks in canonical form or as inline
/// headers (`; Key: value`), with blank lines and comments between them, in any order
/// (`ClassVersion` first), are read straight from the text: the key compared with the
/// declared one, no CRC, no tokenizing, no node made. At the first other line the
/// tokenizer makes the rest of the document, and the walk goes on over its nodes.
///
/// ```
/// use std::path::Path;
/// use juliet_core::{Reflect, TokenBuffer};
///
/// #[derive(juliet_derive::Entity, Debug, Default, PartialEq)]
/// #[jasset(crate = ::juliet_core)]
/// struct Door {
///     width: f32,
///     locked: bool,
/// }
///
/// let mut buffer = TokenBuffer::new();
/// let text = b"; Locked\ntrue\n; Width\n1.5\n";
/// let mut doc = buffer.document(text, Path::new("door.jasset"))?;
/// let mut door = Door::default();
/// let mut properties = doc.properties(Door::CLASS.properties());
/// while let Some(index) = properties.next_property()? {
///     match index {
///         0 => properties.decode_into(&mut door.width)?,
///         1 => properties.decode_into(&mut door.locked)?,
///         _ => {}
///     }
/// }
/// assert_eq!(door, Door { width: 1.5, locked: true });
/// # Ok::<(), juliet_core::Error>(())
/// ```
#[derive(Debug)]
pub struct Properties<'d, 'a> {
    doc: &'d mut Document<'a>,
    table: &'static [PropertyDescriptor],
    /// The first node this walk has not looked at (while `reading`: every node so far,
    /// made or not, set when the walk leaves the canonical reading).
    next: usize,
    /// The node bound last, when it was bound as a node (`span_line` 0).
    current: usize,
    /// The table index bound last (`usize::MAX` before the first): the next property
    /// is expected at the one after ([`Properties::expect`]).
    bound: usize,
    /// The table entries (of the first 64) the canonical reading bound: a key met again
    /// is left to the tokenizer, which reports it.
    seen: u64,
    /// `seen` when the last pass of [`Properties::next_is`] calls began
    /// ([`Properties::again`]), and how many passes there were.
    pass_seen: u64,
    passes: u8,
    /// Whether `ClassVersion` may still be read in canonical form (before any property).
    version_first: bool,
    /// Whether the walk reads in canonical form with nothing else to look at first: the
    /// document is being filled, every node made is looked at, `ClassVersion` is past.
    reading: bool,
    /// The value line of the property bound last when the canonical reading bound it
    /// (decoded without a node; for a block of several lines, from the first to the
    /// last, marked [`ValueSpan::SEVERAL_LINES`]), and its 1-based line; `span_line` 0
    /// otherwise.
    span: ValueSpan,
    span_line: u32,
    /// Table entries below 64 read in place in this walk (the variants of enums with
    /// data read so far: a field of another variant is then an error, not a switch).
    in_place: u64,
}

impl<'a> Document<'a> {
    /// A walk binding this document's properties to `table` (see [`Properties`]).
    /// `table`'s keys and aliases must be ASCII identifiers, none `ClassVersion`, no two
    /// the same under ASCII case and `_`, as the derive checks (the canonical reading
    /// compares keys byte for byte).
    #[inline(always)]
    pub fn properties<'d>(
        &'d mut self,
        table: &'static [PropertyDescriptor],
    ) -> Properties<'d, 'a> {
        debug_assert!(
            table
                .iter()
                .all(|p| crate::crc::is_identifier(p.key.as_bytes())
                    && !crate::crc::keys_equal(p.key, CLASS_VERSION.name)),
            "a property table key that is not an identifier, or is ClassVersion"
        );
        Properties {
            doc: self,
            table,
            next: 0,
            current: usize::MAX,
            bound: usize::MAX,
            seen: 0,
            pass_seen: 0,
            passes: 0,
            version_first: true,
            reading: false,
            span: ValueSpan::default(),
            span_line: 0,
            in_place: 0,
        }
    }
}

impl<'a> Properties<'_, 'a> {
    /// The table index of the next property of the file, in file order, marked
    /// consumed; `None` when the file has no more. Call [`Properties::decode_into`]
    /// to read it.
    ///
    /// # Errors
    /// [`crate::ErrorKind::DuplicateKey`] for a second spelling of a property, and the
    /// tokenizer's errors ([`TokenBuffer::tokenize`](crate::TokenBuffer::tokenize)) when
    /// the document is completed on a line that is not canonical.
    ///
    /// Out of line: a derived loader calls it once a record when the file is read in
    /// the writer's order, and inlining it (it holds the tokenizer's canonical reads)
    /// into every class's `load` doubled a crate's release build.
    #[inline(never)]
    pub fn next_property(&mut self) -> Result<Option<usize>, Error> {
        self.settle();
        loop {
            if self.next < self.doc.made() {
                let i = self.next;
                self.next += 1;
                match self.bind_node(i) {
                    Ok(None) => continue,
                    found => return found,
                }
            }
            if !self.doc.is_filling() {
                return Ok(None);
            }
            // The property declared next, as the writer writes it: one compare.
            let expect = self.expect();
            if let Some(p) = self.table.get(expect) {
                if !self.was_seen(expect) {
                    if let Some(found) = self.doc.canonical_keyed(p.key) {
                        self.bind_canonical(found, expect);
                        return Ok(Some(self.settled(expect)));
                    }
                }
            }
            if let Some(found) = self.doc.canonical_next() {
                // A later one (those between are absent), or an earlier one not read yet
                // (the file has another order).
                // (`seen` covers every entry of a table of at most 64: a larger one is
                // read in declaration order only, where no entry comes twice.)
                let n = self.table.len();
                let earlier = if n <= 64 { 0..expect.min(n) } else { 0..0 };
                let later = (expect + 1..n)
                    .chain(earlier)
                    .find(|&j| !self.was_seen(j) && self.table[j].key.as_bytes() == found.key);
                if let Some(j) = later {
                    self.bind_canonical(found, j);
                    return Ok(Some(self.settled(j)));
                }
                if self.version_first && found.key == CLASS_VERSION.name.as_bytes() {
                    // Left unconsumed: `Archive::resolve_class_version` reads it.
                    let i = self.doc.push_canonical(found, CLASS_VERSION.crc);
                    self.next = i + 1;
                    self.version_first = false;
                    continue;
                }
            }
            self.reading = false;
            self.doc.tokenize_rest()?;
        }
    }

    /// Whether the next property of the file is table entry `j`, whose block header as
    /// the writer writes it is `header` (`"; "`, the declared key `table[j].key`,
    /// `"\n"`): then it is bound as [`Properties::next_property`] binds it and
    /// [`Properties::decode_into`] reads it. Otherwise nothing changes (the property is
    /// absent, or the file has another next; `next_property` walks what is left). The
    /// fast path of a loader reading the declaration order, as the writer writes it: a
    /// canonical property costs one compare of a constant header.
    #[inline(always)]
    #[doc(hidden)]
    pub fn next_is(&mut self, j: usize, header: &'static str) -> bool {
        debug_assert!(
            header.len() == self.table[j].key.len() + 3
                && header.starts_with("; ")
                && header.ends_with('\n')
                && header[2..header.len() - 1] == *self.table[j].key,
            "next_is: the block header of entry {j}"
        );
        if self.reading {
            return self.canonical_is(j, header);
        }
        self.next_is_other(j, header)
    }

    /// [`Properties::next_is`] then [`Properties::decode_into`], out of line: reads
    /// table entry `j` (block header `header`, as for `next_is`) into `place` when it
    /// is the file's next property, and leaves `place` as it is otherwise. One copy
    /// for each property type of a crate, shared by its classes: the derive's `load`
    /// calls it once for each field, in declaration order, so that a class costs a
    /// call a field to compile, not a decoder.
    ///
    /// # Errors
    /// As [`Properties::decode_into`].
    #[inline(never)]
    #[doc(hidden)]
    pub fn read<T: Codec>(
        &mut self,
        j: usize,
        header: &'static str,
        place: &mut T,
    ) -> Result<(), Error> {
        if self.next_is(j, header) {
            self.decode_into(place)
        } else {
            Ok(())
        }
    }

    /// The block header of table entry `j` (`; Stats.Hp\n`), which a composite's leaves
    /// are read with ([`crate::PropertyDescriptor::header`]).
    #[inline(always)]
    #[doc(hidden)]
    pub fn header(&self, j: usize) -> &'static str {
        self.table[j].header
    }

    /// [`Properties::decode_into`] out of line, one copy for each property type of a
    /// crate (the derive's `match` over the properties [`Properties::next_property`]
    /// gives).
    ///
    /// # Errors
    /// As [`Properties::decode_into`].
    #[inline(never)]
    #[doc(hidden)]
    pub fn decode_later<T: Codec>(&mut self, place: &mut T) -> Result<(), Error> {
        self.decode_into(place)
    }

    /// Whether a loader that called [`Properties::next_is`] for each entry in
    /// declaration order should do so once more: the file is read in canonical form,
    /// has properties left, and that pass bound some (so a property written before its
    /// declared place, which the pass went past, is read the same fast way). At most
    /// [`Properties::PASSES`] passes; `next_property` walks what is left.
    #[inline(always)]
    #[doc(hidden)]
    pub fn again(&mut self) -> bool {
        if !self.reading || !self.doc.is_filling() {
            return false;
        }
        self.again_other()
    }

    /// Passes of [`Properties::next_is`] calls [`Properties::again`] allows.
    #[doc(hidden)]
    pub const PASSES: u8 = 4;

    /// [`Properties::again`] when the file has properties left.
    #[inline(never)]
    fn again_other(&mut self) -> bool {
        self.passes += 1;
        if self.seen == self.pass_seen || self.passes >= Self::PASSES {
            return false;
        }
        self.pass_seen = self.seen;
        true
    }

    /// [`Properties::next_is`] while reading in canonical form.
    #[inline(always)]
    fn canonical_is(&mut self, j: usize, header: &'static str) -> bool {
        if self.was_seen(j) {
            // Bound already: a second one is the tokenizer's duplicate key.
            return false;
        }
        match self.doc.canonical_header(header) {
            Some(found) => {
                self.bind_canonical(found, j);
                true
            }
            None => false,
        }
    }

    /// [`Properties::next_is`] when the walk may have nodes to look at or
    /// `ClassVersion` to read first.
    #[inline(never)]
    fn next_is_other(&mut self, j: usize, header: &'static str) -> bool {
        self.settle();
        if self.next < self.doc.made() {
            if let Some(bound) = self.node_is(j) {
                return bound;
            }
        }
        if !self.doc.is_filling() {
            return false;
        }
        if self.version_first {
            self.version_first = false;
            if let Some(found) = self.doc.canonical_keyed(CLASS_VERSION.name) {
                // Left unconsumed: `Archive::resolve_class_version` reads it.
                let i = self.doc.push_canonical(found, CLASS_VERSION.crc);
                self.next = i + 1;
            }
        }
        self.reading = true;
        self.canonical_is(j, header)
    }

    /// [`Properties::next_is`] over the nodes made: past consumed nodes and
    /// `ClassVersion`, whether the next node is entry `j` by its declared key; `None`
    /// when no node is left to look at.
    #[inline(never)]
    fn node_is(&mut self, j: usize) -> Option<bool> {
        while let Some(n) = self.doc.made_nodes().get(self.next) {
            let i = self.next;
            let (consumed, crc) = (n.consumed, n.key_crc);
            if consumed
                || crc == CLASS_VERSION.crc
                    && same_bytes(self.doc.key_bytes(i), CLASS_VERSION.name.as_bytes())
            {
                self.next += 1;
                continue;
            }
            let p = &self.table[j];
            if crc != p.crc || !same_bytes(self.doc.key_bytes(i), p.key.as_bytes()) {
                return Some(false);
            }
            self.doc.consume(i);
            self.bound_to(i, j);
            return Some(true);
        }
        None
    }

    /// The table index the next property is expected at: the first one the canonical
    /// reading may bind, and the first one tried for a node.
    #[inline(always)]
    fn expect(&self) -> usize {
        self.bound.wrapping_add(1)
    }

    /// Binds the canonical property `found` to table entry `j`, consumed (a node made
    /// only if the document keeps nodes). The walk is then reading in canonical form
    /// (the caller outside of it calls [`Properties::settled`]).
    #[inline(always)]
    fn bind_canonical(&mut self, found: crate::token::Canonical<'a>, j: usize) {
        self.doc.bind_canonical(found, self.table[j].crc);
        self.span = found.value_span();
        self.span_line = found.value_line();
        self.bound = j;
        if j < 64 {
            self.seen |= 1 << j;
        }
    }

    /// Whether the canonical reading bound table entry `j` (one of the first 64).
    #[inline(always)]
    fn was_seen(&self, j: usize) -> bool {
        j < 64 && self.seen & 1 << j != 0
    }

    /// After [`Properties::bind_canonical`] outside the canonical reading: the walk
    /// reads in canonical form from here. Returns `j`.
    #[inline(always)]
    fn settled(&mut self, j: usize) -> usize {
        self.version_first = false;
        self.reading = true;
        j
    }

    /// Leaves the canonical reading: `next` past every property bound so far.
    #[inline(always)]
    fn settle(&mut self) {
        if self.reading {
            self.reading = false;
            self.next = self.doc.made() + self.doc.unmade();
        }
    }

    /// Records that node `i` (consumed) is bound to table entry `j`.
    #[inline(always)]
    fn bound_to(&mut self, i: usize, j: usize) {
        self.next = self.next.max(i + 1);
        self.current = i;
        self.span_line = 0;
        self.bound = j;
        self.version_first = false;
    }

    /// Decodes the property [`Properties::next_property`] gave into `place` (a value of the
    /// type its table entry describes).
    ///
    /// # Errors
    /// [`crate::ErrorKind::BadValue`] at the line and column of the offending text,
    /// naming the key, the table entry's type and the text found.
    ///
    /// # Panics
    /// Before the first [`Properties::next_property`] that gave a property.
    #[inline(always)]
    pub fn decode_into<T: Codec>(&mut self, place: &mut T) -> Result<(), Error> {
        let value = self.bound_value();
        match place.decode_into(value) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.decode_error(e)),
        }
    }

    /// [`Properties::read`] for a leaf that `decode` reads into `place` in place: a
    /// variant, or a variant's field, of an enum with data (the leaf is part of the
    /// enum, not a value of its own), or a field read by a codec module
    /// (`#[jasset(with = module)]`, whose `decode` the derive wraps).
    ///
    /// # Errors
    /// As [`Properties::decode_into`].
    #[inline(never)]
    #[doc(hidden)]
    pub fn read_in_place<T>(
        &mut self,
        j: usize,
        header: &'static str,
        place: &mut T,
        decode: for<'v> fn(&mut T, Value<'v>) -> Result<(), crate::ValueError<'v>>,
    ) -> Result<(), Error> {
        if self.next_is(j, header) {
            self.decode_in_place(place, decode)
        } else {
            Ok(())
        }
    }

    /// [`Properties::decode_into`] for a leaf that `decode` reads into `place` in place;
    /// on error `place` is as `decode` leaves it.
    ///
    /// # Errors
    /// As [`Properties::decode_into`].
    #[inline(never)]
    #[doc(hidden)]
    pub fn decode_in_place<T>(
        &mut self,
        place: &mut T,
        decode: for<'v> fn(&mut T, Value<'v>) -> Result<(), crate::ValueError<'v>>,
    ) -> Result<(), Error> {
        let j = self.bound;
        if j < 64 {
            self.in_place |= 1 << j;
        }
        let value = self.bound_value();
        decode(place, value).map_err(|e| self.decode_error(e))
    }

    /// The table entry of the property bound last.
    pub(crate) fn bound_entry(&self) -> usize {
        self.bound
    }

    /// Whether table entry `j` was read in place in this walk
    /// ([`Properties::decode_in_place`]); `true` for an entry past the first 64, which
    /// are not tracked.
    pub(crate) fn read_in_place_here(&self, j: usize) -> bool {
        j >= 64 || self.in_place & 1 << j != 0
    }

    /// The value of the property bound last: its one value line when the canonical
    /// reading bound it, else its node's value.
    #[inline(always)]
    fn bound_value(&self) -> Value<'_> {
        if self.span_line != 0 {
            if self.span.len & ValueSpan::SEVERAL_LINES == 0 {
                Value::from_spans(self.doc.source(), std::slice::from_ref(&self.span))
            } else {
                self.block_value()
            }
        } else {
            self.doc.value(self.current)
        }
    }

    /// The value of a block of several lines bound by the canonical reading: its lines,
    /// `span` running from the first to the last.
    #[inline(never)]
    fn block_value(&self) -> Value<'_> {
        let region = self.span.region();
        let (start, len) = (region.start as usize, region.len as usize);
        Value::from_canonical_block(&self.doc.source()[start..start + len])
    }

    /// The located error of a value that does not decode.
    #[cold]
    #[inline(never)]
    fn decode_error(&self, e: crate::ValueError<'_>) -> Error {
        let p = &self.table[self.bound];
        let expected = p.property_type.to_string();
        if self.span_line != 0 {
            // Read in canonical form, maybe without a node: the key is the declared one.
            let (at, region) = ((self.span.start, self.span_line), self.span.region());
            (self.doc).bad_value(std::slice::from_ref(&region), at, p.key, &expected, e)
        } else {
            self.doc.value_error(self.current, &expected, e)
        }
    }

    /// Whether node `index`'s key is `p`'s key or one of its aliases, any spelling: the
    /// CRC first, then the text ([`PropertyDescriptor::matches`] without its string
    /// slicing).
    #[inline(always)]
    fn node_matches(&self, index: usize, p: &PropertyDescriptor) -> bool {
        let crc = self.doc.made_nodes()[index].key_crc;
        if p.crc == crc && same_bytes(self.doc.key_bytes(index), p.key.as_bytes()) {
            return true;
        }
        (p.crc == crc || !p.aliases.is_empty()) && p.matches(crc, self.doc.key(index))
    }

    /// Binds node `i` (of a complete document, or made before the walk got there).
    #[inline(never)]
    fn bind_node(&mut self, i: usize) -> Result<Option<usize>, Error> {
        if self.doc.made_nodes()[i].consumed {
            return Ok(None);
        }
        let table = self.table;
        let j = match table.get(self.expect()) {
            Some(p) if self.node_matches(i, p) => self.expect(),
            _ => match table.iter().position(|p| self.node_matches(i, p)) {
                Some(j) => j,
                None => return Ok(None),
            },
        };
        // The tokenizer refuses two nodes of one key; two spellings of one property
        // are found here.
        if !table[j].aliases.is_empty() {
            if let Some(first) = (0..i).find(|&k| self.node_matches(k, &table[j])) {
                return Err(self.doc.duplicate_key(first, i));
            }
        }
        self.doc.consume(i);
        self.bound_to(i, j);
        Ok(Some(j))
    }
}
