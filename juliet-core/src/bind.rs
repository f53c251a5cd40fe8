//! [`Properties`]: the one walk of a document that every class loader makes, binding
//! each property of the file, in file order, to an entry of the class's property table
//! by exact key. docs/design.md, sections 4.2 and 4.3.

use crate::archive::CLASS_VERSION;
use crate::class::PropertyDescriptor;
use crate::codec::Codec;
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
/// the properties a class declares, written in canonical form and in declaration order
/// (any of them absent, `ClassVersion` first), are read straight from the text: the key
/// compared with the expected one, no CRC, no tokenizing. At the first other line the
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
/// let mut properties = doc.properties(Door::CLASS.properties);
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
    /// The first node this walk has not looked at.
    next: usize,
    /// The table index the next property is expected at: the first one the canonical
    /// reading may bind, and the first one tried for a node.
    expect: usize,
    /// The node bound last.
    current: usize,
    /// The table index it was bound to.
    bound: usize,
    /// Whether `ClassVersion` may still be read in canonical form (before any property).
    version_first: bool,
    /// The value line of the node bound last, when the canonical reading made it (one
    /// line: decoded without looking the node up).
    span: Option<ValueSpan>,
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
            expect: 0,
            current: usize::MAX,
            bound: 0,
            version_first: true,
            span: None,
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
    #[inline(always)]
    pub fn next_property(&mut self) -> Result<Option<usize>, Error> {
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
            if let Some(p) = self.table.get(self.expect) {
                if let Some(found) = self.doc.canonical_keyed(p.key) {
                    return Ok(Some(self.bind_canonical(found, self.expect)));
                }
            }
            if let Some(found) = self.doc.canonical_next() {
                // A later one (those between are absent).
                let later = (self.expect + 1..self.table.len())
                    .find(|&j| self.table[j].key.as_bytes() == found.key);
                if let Some(j) = later {
                    return Ok(Some(self.bind_canonical(found, j)));
                }
                if self.version_first && found.key == CLASS_VERSION.name.as_bytes() {
                    // Left unconsumed: `Archive::resolve_class_version` reads it.
                    let i = self.doc.push_canonical(found, CLASS_VERSION.crc, false);
                    self.next = i + 1;
                    self.version_first = false;
                    continue;
                }
            }
            self.doc.tokenize_rest()?;
        }
    }

    /// Whether the next property of the file is table entry `j`, spelled `key` (its
    /// declared key, `table[j].key`): then it is bound as [`Properties::next_property`]
    /// binds it and [`Properties::decode_into`] reads it. Otherwise nothing changes
    /// (the property is absent, or the file has another next; `next_property` walks
    /// what is left). The fast path of a loader reading the declaration order, as the
    /// writer writes it: a canonical property costs one compare of a constant key.
    #[inline(always)]
    pub fn next_is(&mut self, j: usize, key: &'static str) -> bool {
        debug_assert_eq!(
            self.table[j].key, key,
            "next_is: the declared key of entry {j}"
        );
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
                let i = self.doc.push_canonical(found, CLASS_VERSION.crc, false);
                self.next = i + 1;
            }
        }
        match self.doc.canonical_keyed(key) {
            Some(found) => {
                self.bind_canonical(found, j);
                true
            }
            None => false,
        }
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
            self.bound_to(i, j, None);
            return Some(true);
        }
        None
    }

    /// Makes the canonical property `found` a node bound to table entry `j`, consumed.
    #[inline(always)]
    fn bind_canonical(&mut self, found: crate::token::Canonical<'a>, j: usize) -> usize {
        let span = found.value_span(self.doc.canonical_line() + 1);
        let i = self.doc.push_canonical(found, self.table[j].crc, true);
        self.bound_to(i, j, Some(span));
        j
    }

    /// Records that node `i` (consumed) is bound to table entry `j`, its value line
    /// `span` when the canonical reading made it.
    #[inline(always)]
    fn bound_to(&mut self, i: usize, j: usize, span: Option<ValueSpan>) {
        self.next = self.next.max(i + 1);
        self.current = i;
        self.span = span;
        self.bound = j;
        self.expect = j + 1;
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
        let value = match &self.span {
            Some(span) => Value::from_spans(self.doc.source(), std::slice::from_ref(span)),
            None => self.doc.value(self.current),
        };
        match place.decode_into(value) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.decode_error(e)),
        }
    }

    /// The located error of a value that does not decode.
    #[cold]
    #[inline(never)]
    fn decode_error(&self, e: crate::ValueError<'_>) -> Error {
        let expected = self.table[self.bound].property_type.to_string();
        self.doc.value_error(self.current, &expected, e)
    }

    /// The index of the node [`Properties::next_property`] gave last (for a loader that reads it
    /// through the [`Document`] itself).
    pub fn node(&self) -> usize {
        self.current
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
        let j = match table.get(self.expect) {
            Some(p) if self.node_matches(i, p) => self.expect,
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
        self.bound_to(i, j, None);
        Ok(Some(j))
    }
}
