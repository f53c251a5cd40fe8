//! What a field of a derived class or composite contributes to the property table: the
//! [`Field`] trait, whose `LEAVES` are one entry for a value with a [`Codec`] and one
//! entry per leaf for a composite (`#[derive(Codec)]` on a struct), and the `const`
//! functions that build a table from the fields' leaves: each leaf's key is the field's
//! key and the leaf's own path joined by `.` (`Stats.Hp`), its offset the field's plus
//! the leaf's. docs/design.md, section 3.4.
//!
//! The table is built at compile time: [`header_bytes`] sizes a byte buffer,
//! [`headers`] fills it with each leaf's block header (`; Stats.Hp\n`), and [`table`]
//! makes the descriptors, each key a slice of that buffer. The derive emits those
//! calls in `static`s of the class (or in the composite's `LEAVES`).

use crate::bind::Properties;
use crate::codec::Codec;
use crate::crc::{key_crc, keys_equal, Key};
use crate::erased::PropertyDescriptor;
use crate::error::Error;

/// A type a field of a derived class may have: every [`Codec`] type (one leaf, the
/// field itself) and every composite (its leaves). The derive calls these methods; a
/// game implements `Codec`, or derives `Codec` on a struct, never this trait.
///
/// # Safety
///
/// The class holding a field of this type puts `LEAVES` in its property table, offsets
/// added to the field's, so an impl promises what [`crate::Reflect`] promises for them:
/// each leaf's offset is that of a field of `Self` of the type its operations were made
/// for (a leaf with an empty key is `Self` itself, at offset 0).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no .jasset codec, so it cannot be a property",
    label = "this field type does not implement `juliet_core::Codec`",
    note = "implement `juliet_core::Codec` for `{Self}` (a unit enum, or a struct of properties, can `#[derive(Codec)]`), read it with a codec module `#[jasset(with = path)]` (a foreign type), or mark the field `#[jasset(skip)]` to leave it out of the file"
)]
pub unsafe trait Field: Clone + 'static {
    /// The leaves, each keyed relative to the field (`""` for the field itself, `Hp`
    /// for a composite's field `hp`) and placed relative to it.
    const LEAVES: &'static [PropertyDescriptor];

    /// Writes every leaf as a property, the field's key being `key`.
    fn save_field(&self, key: &str, out: &mut String);

    /// Reads the leaves that are the file's next properties in canonical form, the
    /// first leaf being table entry `start` with block header `header`
    /// ([`Properties::read`]).
    ///
    /// # Errors
    /// As [`Properties::decode_into`].
    fn read_field(
        &mut self,
        properties: &mut Properties<'_, '_>,
        start: usize,
        header: &'static str,
    ) -> Result<(), Error>;

    /// Reads the property just bound, which is leaf `leaf` of this field
    /// ([`Properties::decode_later`]).
    ///
    /// # Errors
    /// As [`Properties::decode_into`].
    fn decode_leaf(
        &mut self,
        properties: &mut Properties<'_, '_>,
        leaf: usize,
    ) -> Result<(), Error>;

    /// Clone-assigns from `src` the leaves whose table entries (the first being
    /// `start`) are in `set`, a bitset as [`crate::Reflect::copy_properties`] takes.
    fn copy_leaves(&mut self, src: &Self, set: &[u64], start: usize);
}

/// Whether table entry `index` is in the bitset `set`.
#[inline(always)]
pub fn in_set(set: &[u64], index: usize) -> bool {
    matches!(set.get(index / 64), Some(word) if word >> (index % 64) & 1 != 0)
}

// SAFETY: the one leaf is `T` itself, at offset 0, with `T`'s operations.
unsafe impl<T: Codec> Field for T {
    const LEAVES: &'static [PropertyDescriptor] = &[PropertyDescriptor::new::<T>("", "", 0, &[])];

    #[inline(always)]
    fn save_field(&self, key: &str, out: &mut String) {
        crate::archive::write_header(out, key);
        self.encode(out);
        out.push('\n');
    }

    #[inline(always)]
    fn read_field(
        &mut self,
        properties: &mut Properties<'_, '_>,
        start: usize,
        header: &'static str,
    ) -> Result<(), Error> {
        properties.read::<T>(start, header, self)
    }

    #[inline(always)]
    fn decode_leaf(&mut self, properties: &mut Properties<'_, '_>, _: usize) -> Result<(), Error> {
        properties.decode_later::<T>(self)
    }

    #[inline(always)]
    fn copy_leaves(&mut self, src: &Self, set: &[u64], start: usize) {
        if in_set(set, start) {
            self.clone_from(src);
        }
    }
}

/// One field of a class or composite, as the table builders take it.
#[derive(Debug, Clone, Copy)]
pub struct Part {
    key: &'static str,
    field: &'static str,
    offset: usize,
    aliases: &'static [Key],
    migrated_from: &'static [Key],
    leaves: &'static [PropertyDescriptor],
}

impl Part {
    /// The field `field` at `offset`, written under `key`, whose type's leaves are
    /// `leaves` (`<Ty as Field>::LEAVES`).
    pub const fn new(
        key: &'static str,
        field: &'static str,
        offset: usize,
        leaves: &'static [PropertyDescriptor],
    ) -> Part {
        Part {
            key,
            field,
            offset,
            aliases: &[],
            migrated_from: &[],
            leaves,
        }
    }

    /// This part with the other keys it is read under. Only a one-leaf field (a
    /// value with a codec) has aliases: a composite's leaves are renamed as a whole.
    ///
    /// # Panics
    /// At compile time, for a composite field.
    pub const fn with_aliases(self, aliases: &'static [Key]) -> Part {
        Part {
            aliases,
            ..self.of_one_value()
        }
    }

    /// This part with the deprecated keys its migration sets it from.
    ///
    /// # Panics
    /// At compile time, for a composite field.
    pub const fn with_migrated_from(self, keys: &'static [Key]) -> Part {
        Part {
            migrated_from: keys,
            ..self.of_one_value()
        }
    }

    /// This part, which must be a one-leaf field (what takes aliases and deprecated
    /// keys).
    ///
    /// # Panics
    /// At compile time, for a composite field.
    const fn of_one_value(self) -> Part {
        assert!(
            self.is_value(),
            "`alias` and `migrated_from` are for fields of one value, not composites"
        );
        self
    }

    /// Whether the field is one value (its one leaf has the field's own key).
    const fn is_value(&self) -> bool {
        self.leaves.len() == 1 && self.leaves[0].key.is_empty()
    }
}

/// The number of leaves of `parts`: the length of their table.
pub const fn leaf_count(parts: &[Part]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < parts.len() {
        n += parts[i].leaves.len();
        i += 1;
    }
    n
}

/// The length of a leaf's key: the field's key, then `.` and the leaf's path unless
/// the leaf is the field itself; the leaf's path alone for a flattened field (no key).
const fn key_len(part: &Part, leaf: &PropertyDescriptor) -> usize {
    assert!(
        !(part.key.is_empty() && leaf.key.is_empty()),
        "`flatten` is for composite fields (structs): a value with a codec, or an enum with data, has no leaves of its own to lift into the class"
    );
    if leaf.key.is_empty() {
        part.key.len()
    } else if part.key.is_empty() {
        leaf.key.len()
    } else {
        part.key.len() + 1 + leaf.key.len()
    }
}

/// The bytes of every leaf's block header (`; Key\n`) of `parts`, in table order.
pub const fn header_bytes(parts: &[Part]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].leaves.len() {
            n += key_len(&parts[i], &parts[i].leaves[j]) + 3;
            j += 1;
        }
        i += 1;
    }
    n
}

/// Copies `from` into `out` at `at`; returns the index past it.
const fn put(out: &mut [u8], mut at: usize, from: &str) -> usize {
    let bytes = from.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        out[at] = bytes[i];
        at += 1;
        i += 1;
    }
    at
}

/// Every leaf's block header of `parts` (`; Stats.Hp\n`), one after the other in table
/// order: the buffer [`table`] slices keys from. `B` is [`header_bytes`] of `parts`.
pub const fn headers<const B: usize>(parts: &[Part]) -> [u8; B] {
    let mut out = [0u8; B];
    let mut at = 0;
    let mut i = 0;
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].leaves.len() {
            at = put(&mut out, at, "; ");
            at = put(&mut out, at, parts[i].key);
            let leaf = &parts[i].leaves[j];
            if !leaf.key.is_empty() {
                if !parts[i].key.is_empty() {
                    at = put(&mut out, at, ".");
                }
                at = put(&mut out, at, leaf.key);
            }
            at = put(&mut out, at, "\n");
            j += 1;
        }
        i += 1;
    }
    assert!(
        at == B,
        "the header buffer's length is header_bytes of the parts"
    );
    out
}

/// `bytes[start..start + len]` as text (the buffer holds whole keys, ASCII).
const fn text(bytes: &'static [u8], start: usize, len: usize) -> &'static str {
    let (_, rest) = bytes.split_at(start);
    let (piece, _) = rest.split_at(len);
    match std::str::from_utf8(piece) {
        Ok(text) => text,
        Err(_) => panic!("a header buffer holds whole keys"),
    }
}

/// The property table of `parts`: one descriptor per leaf, keyed by its path (a slice
/// of `headers`, the buffer [`headers`] made of the same parts), at the field's offset
/// plus the leaf's. `N` is [`leaf_count`] of `parts`.
pub const fn table<const N: usize>(
    parts: &[Part],
    headers: &'static [u8],
) -> [PropertyDescriptor; N] {
    let mut out = [const { PropertyDescriptor::new::<bool>("", "", 0, &[]) }; N];
    let (mut n, mut at) = (0, 0);
    let mut i = 0;
    while i < parts.len() {
        let part = &parts[i];
        let mut j = 0;
        while j < part.leaves.len() {
            let leaf = &part.leaves[j];
            let len = key_len(part, leaf) + 3;
            let header = text(headers, at, len);
            let key = text(headers, at + 2, len - 3);
            let own = leaf.key.is_empty();
            out[n] = PropertyDescriptor {
                key,
                crc: key_crc(key),
                aliases: if own { part.aliases } else { leaf.aliases },
                field: if own { part.field } else { leaf.field },
                offset: part.offset + leaf.offset,
                size: leaf.size,
                property_type: leaf.property_type,
                ops: leaf.ops,
                migrated_from: if own {
                    part.migrated_from
                } else {
                    leaf.migrated_from
                },
                header,
            };
            n += 1;
            at += len;
            j += 1;
        }
        i += 1;
    }
    assert!(n == N, "the table's length is leaf_count of the parts");
    out
}

/// [`table`] for a class (not a composite), whose deprecated keys are `deprecated`:
/// also checks, at compile time, that no leaf is keyed like another property, another
/// property's alias, a deprecated key, `ClassVersion` or a base key of entity files
/// (what a flattened composite's leaves can clash with; the derive checks the keys it
/// sees itself).
///
/// # Panics
/// At compile time, on such a key.
pub const fn class_table<const N: usize>(
    parts: &[Part],
    headers: &'static [u8],
    deprecated: &[Key],
) -> [PropertyDescriptor; N] {
    let table = table::<N>(parts, headers);
    let mut i = 0;
    while i < N {
        let key = table[i].key;
        let mut j = 0;
        while j < N {
            assert!(
                j <= i || !keys_equal(key, table[j].key),
                "two properties of this class have the same key (a leaf of a `flatten` field \
                 and another property?)"
            );
            let mut a = 0;
            while a < table[j].aliases.len() {
                assert!(
                    j == i || !keys_equal(key, table[j].aliases[a].name),
                    "a property of this class is keyed like another's alias (a leaf of a \
                     `flatten` field?)"
                );
                a += 1;
            }
            j += 1;
        }
        let mut d = 0;
        while d < deprecated.len() {
            assert!(
                !keys_equal(key, deprecated[d].name),
                "a property of this class is keyed like one of its deprecated keys (a leaf of \
                 a `flatten` field?)"
            );
            d += 1;
        }
        assert!(
            !keys_equal(key, juliet_key::CLASS_VERSION),
            "a leaf of a `flatten` field is keyed `ClassVersion`, which the class version takes"
        );
        let mut b = 0;
        while b < juliet_key::BASE_KEYS.len() {
            let (base, spellings) = juliet_key::BASE_KEYS[b];
            let mut s = 0;
            assert!(
                !keys_equal(key, base),
                "a leaf of a `flatten` field is keyed like a base key of entity files"
            );
            while s < spellings.len() {
                assert!(
                    !keys_equal(key, spellings[s]),
                    "a leaf of a `flatten` field is keyed like a base key of entity files"
                );
                s += 1;
            }
            b += 1;
        }
        i += 1;
    }
    table
}
