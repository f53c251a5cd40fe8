//! An enum with data as a field of a class: its *variant* is a leaf of its own (keyed
//! by the field, `Trigger`), and each field of its variants is a leaf keyed by its path
//! (`Trigger.Radius`; fields of several variants with one key share a leaf). A leaf is
//! *present* when the variant in use has that field; an absent leaf writes nothing and
//! is never an override. docs/design.md, section 3.4.
//!
//! The derive implements [`Variants`] for the enum and puts [`VariantLeaf`] and
//! [`FieldLeaf`] in its leaves' table: `#[repr(transparent)]` wrappers of the enum whose
//! codecs read and write the one leaf, so the table's operations reach a leaf at the
//! enum's own offset. The derived load and save call the functions here on the enum
//! itself.
//!
//! Reading a variant keeps the fields when the variant is the one in use, and otherwise
//! makes that variant with its fields' defaults; reading a field of a variant that is
//! not in use is an error at its line, naming the variant that has it, when this file
//! gave the variant; when the variant in use came from the template (or the default),
//! the field's own variant is taken, so an override of a field carries its variant.
//! (Held whole, in an `Option`, the enum is one value: its name, then `Field: value`
//! lines.)

use crate::bind::Properties;
use crate::codec::{not_a_field, Codec, PropertyType};
use crate::crc::keys_equal;
use crate::error::{Error, ValueErrorKind};
use crate::value::{Value, ValueError};

/// An enum with data, as its leaves see it. Implemented by `#[derive(Codec)]`.
pub trait Variants: Clone + Default + 'static {
    /// The Rust type name.
    const TYPE_NAME: &'static str;
    /// Each variant's name and fields (keys and types), in declaration order.
    const SHAPE: &'static [(
        &'static str,
        &'static [(&'static str, &'static PropertyType)],
    )];
    /// The field keys of all variants, each once, in order of first appearance: the
    /// field leaves, in table order.
    const KEYS: &'static [&'static str];
    /// The variant names, in declaration order.
    const NAMES: &'static [&'static str];
    /// Each variant's field keys, as [`crate::codec::read_variant`] takes them.
    const FIELDS: &'static [&'static [&'static str]];
    /// Each variant's fields' leaves: the index in `KEYS` of each field's key.
    const LEAF_OF: &'static [&'static [usize]];
    /// The variant's type as a leaf: a unit enum of the variant names.
    const VARIANT_TYPE: PropertyType = PropertyType::Enum {
        name: Self::TYPE_NAME,
        variants: Self::NAMES,
    };

    /// The index of the variant in use.
    fn variant(&self) -> usize;

    /// Makes `self` variant `v` with its fields' defaults.
    fn to_variant(&mut self, v: usize);

    /// Appends the value of the field keyed `KEYS[k]` of the variant in use; `false`
    /// (nothing appended) when the variant has no such field.
    fn encode_field(&self, k: usize, out: &mut String) -> bool;

    /// Reads the field keyed `KEYS[k]` of the variant in use; `Ok(false)` (nothing
    /// changed) when the variant has no such field.
    ///
    /// # Errors
    /// The field's codec's.
    fn decode_field<'a>(&mut self, k: usize, value: Value<'a>) -> Result<bool, ValueError<'a>>;

    /// Whether `self` has nothing to say for leaf `k` that `other` does not: the
    /// variant in use has no field keyed `KEYS[k]`, or `other` is the same variant
    /// with the same value there ([`Codec::same_value`]).
    fn same_field(&self, other: &Self, k: usize) -> bool;

    /// Clone-assigns the field keyed `KEYS[k]` from `src` when both are the same
    /// variant and it has that field.
    fn clone_field(&mut self, src: &Self, k: usize);
}

/// Reads the variant leaf into `e`: one line naming the variant; the fields are kept
/// when it is the one in use, else they are the variant's defaults.
///
/// # Errors
/// [`ValueErrorKind::UnknownVariant`]; a [`ValueErrorKind::Custom`] at the second line
/// of a value of several lines (each field is a property of its own).
pub fn read_variant_leaf<'a, E: Variants>(
    e: &mut E,
    value: Value<'a>,
) -> Result<(), ValueError<'a>> {
    let mut lines = value.lines();
    let first = lines.next().unwrap_or_default();
    if let Some(second) = lines.next() {
        return Err(ValueError::new(
            ValueErrorKind::Custom(format!(
                "the variant is one line: each field of `{first}` is a property of its own, \
                 keyed by this key, `.` and the field's key (such as `.{}`)",
                E::KEYS.first().copied().unwrap_or("Field")
            )),
            second,
        ));
    }
    let variant = crate::codec::decode_variant(first, E::NAMES)?;
    if variant != e.variant() {
        e.to_variant(variant);
    }
    Ok(())
}

/// Reads field leaf `K` of `e` as the property the walk `properties` just bound: when
/// the variant in use lacks the field and the walk has not read this enum's variant
/// (the table entry `K + 1` before it: the variant in use is then the template's or
/// the default), the one variant with that field is taken first, with its other
/// fields' defaults, so that an override of a field carries its variant.
///
/// # Errors
/// As [`read_field_leaf`], at the property.
pub fn decode_variant_field<E: Variants, const K: usize>(
    properties: &mut Properties<'_, '_>,
    e: &mut E,
) -> Result<(), Error> {
    let variant = properties.bound_entry() - (K + 1);
    if !E::LEAF_OF[e.variant()].contains(&K) && !properties.read_in_place_here(variant) {
        let mut owners = (0..E::NAMES.len()).filter(|&v| E::LEAF_OF[v].contains(&K));
        if let (Some(v), None) = (owners.next(), owners.next()) {
            e.to_variant(v);
        }
    }
    properties.decode_in_place(e, read_field_leaf::<E, K>)
}

/// [`decode_variant_field`] of table entry `j` (block header `header`) when it is the
/// file's next property ([`Properties::read`]).
///
/// # Errors
/// As [`read_field_leaf`], at the property.
pub fn read_variant_field<E: Variants, const K: usize>(
    properties: &mut Properties<'_, '_>,
    j: usize,
    header: &'static str,
    e: &mut E,
) -> Result<(), Error> {
    if properties.next_is(j, header) {
        decode_variant_field::<E, K>(properties, e)
    } else {
        Ok(())
    }
}

/// Reads field leaf `K` into `e`.
///
/// # Errors
/// The field's codec's, and [`ValueErrorKind::NotInVariant`] naming the variant in use
/// and the variants that have the field when the one in use does not.
pub fn read_field_leaf<'a, E: Variants, const K: usize>(
    e: &mut E,
    value: Value<'a>,
) -> Result<(), ValueError<'a>> {
    if e.decode_field(K, value)? {
        return Ok(());
    }
    let owners = (0..E::NAMES.len())
        .filter(|&v| E::LEAF_OF[v].contains(&K))
        .map(|v| E::NAMES[v].to_owned())
        .collect();
    let found = value.lines().next().unwrap_or_default();
    Err(ValueError::new(
        ValueErrorKind::NotInVariant {
            field: E::KEYS[K].to_owned(),
            owners,
            in_use: E::NAMES[e.variant()].to_owned(),
        },
        found,
    ))
}

/// Reads the variant line of an enum with data inside a record (`Trigger: OnTouch`, the
/// enum a leaf of a list element): the fields are kept when it names the variant in
/// use, else they are the variant's defaults.
///
/// # Errors
/// [`ValueErrorKind::UnknownVariant`] at `text`.
pub fn read_record_variant<'a, E: Variants>(
    e: &mut E,
    text: &'a str,
) -> Result<(), ValueError<'a>> {
    let variant = crate::codec::decode_variant(text, E::NAMES)?;
    if variant != e.variant() {
        e.to_variant(variant);
    }
    Ok(())
}

/// The index, among the fields of the variant in use, of the field keyed `path` (a
/// record line `Trigger.Radius: 2.5` inside a list element; `key` is the line's key).
///
/// # Errors
/// At `key`: [`ValueErrorKind::NotInVariant`] naming the variant in use and the variants
/// that have the field, if one does (the record's variant line must come first), else a
/// [`ValueErrorKind::Custom`] naming the variant's fields.
pub fn record_field<'a, E: Variants>(
    e: &E,
    path: &str,
    key: &'a str,
) -> Result<usize, ValueError<'a>> {
    let variant = e.variant();
    if let Some(field) = E::FIELDS[variant].iter().position(|f| keys_equal(f, path)) {
        return Ok(field);
    }
    Err(ValueError::new(
        not_a_field(path, variant, E::NAMES, E::FIELDS),
        key,
    ))
}

/// Writes the leaves of `e` as properties, the field's key being `key`: the variant,
/// then each field of the variant in use.
pub fn save_variant_leaves<E: Variants>(e: &E, key: &str, out: &mut String) {
    crate::archive::write_header(out, key);
    out.push_str(E::NAMES[e.variant()]);
    out.push('\n');
    let mut path = String::with_capacity(key.len() + 16);
    for &k in E::LEAF_OF[e.variant()] {
        path.clear();
        path.push_str(key);
        path.push('.');
        path.push_str(E::KEYS[k]);
        crate::archive::write_header(out, &path);
        e.encode_field(k, out);
        out.push('\n');
    }
}

/// The variant leaf of an enum with data in a property table: the enum itself, read
/// and written as its variant's name. Two values are the same when they are the same
/// variant with the same fields, so that an instance that changes a field also writes
/// the variant that field belongs to.
#[repr(transparent)]
pub struct VariantLeaf<E>(pub E);

impl<E: Variants> Clone for VariantLeaf<E> {
    fn clone(&self) -> Self {
        VariantLeaf(self.0.clone())
    }

    /// The source's variant with its fields when the variants differ; nothing when
    /// they are the same (each field is a leaf of its own).
    fn clone_from(&mut self, src: &Self) {
        if self.0.variant() != src.0.variant() {
            self.0.clone_from(&src.0);
        }
    }
}

impl<E: Variants> PartialEq for VariantLeaf<E> {
    fn eq(&self, other: &Self) -> bool {
        self.same_value(other)
    }
}

impl<E: Variants> Codec for VariantLeaf<E> {
    const PROPERTY_TYPE: PropertyType = E::VARIANT_TYPE;

    fn encode(&self, out: &mut String) {
        out.push_str(E::NAMES[self.0.variant()]);
    }

    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let mut e = E::default();
        read_variant_leaf(&mut e, value)?;
        Ok(VariantLeaf(e))
    }

    /// On error `self` is unchanged: the variant is read before anything is set.
    fn decode_into<'a>(&mut self, value: Value<'a>) -> Result<(), ValueError<'a>> {
        read_variant_leaf(&mut self.0, value)
    }

    fn same_value(&self, other: &Self) -> bool {
        self.0.variant() == other.0.variant()
            && (0..E::KEYS.len()).all(|k| self.0.same_field(&other.0, k))
    }
}

/// Field leaf `K` (key `KEYS[K]`) of an enum with data in a property table: the enum
/// itself, read and written as that field of the variant in use. When the variant has
/// no such field the leaf writes nothing and is the same as any other value.
#[repr(transparent)]
pub struct FieldLeaf<E, const K: usize>(pub E);

impl<E: Variants, const K: usize> Clone for FieldLeaf<E, K> {
    fn clone(&self) -> Self {
        FieldLeaf(self.0.clone())
    }

    fn clone_from(&mut self, src: &Self) {
        self.0.clone_field(&src.0, K);
    }
}

impl<E: Variants, const K: usize> PartialEq for FieldLeaf<E, K> {
    fn eq(&self, other: &Self) -> bool {
        self.0.same_field(&other.0, K) && other.0.same_field(&self.0, K)
    }
}

impl<E: Variants, const K: usize> Codec for FieldLeaf<E, K> {
    const PROPERTY_TYPE: PropertyType = field_type(E::SHAPE, E::KEYS[K]);

    fn encode(&self, out: &mut String) {
        self.0.encode_field(K, out);
    }

    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let mut e = E::default();
        read_field_leaf::<E, K>(&mut e, value)?;
        Ok(FieldLeaf(e))
    }

    fn decode_into<'a>(&mut self, value: Value<'a>) -> Result<(), ValueError<'a>> {
        read_field_leaf::<E, K>(&mut self.0, value)
    }

    fn same_value(&self, other: &Self) -> bool {
        self.0.same_field(&other.0, K)
    }
}

/// The type of the first field keyed `key` in `shape`.
const fn field_type(
    shape: &'static [(
        &'static str,
        &'static [(&'static str, &'static PropertyType)],
    )],
    key: &str,
) -> PropertyType {
    let mut v = 0;
    while v < shape.len() {
        let mut f = 0;
        while f < shape[v].1.len() {
            if const_eq(shape[v].1[f].0, key) {
                return *shape[v].1[f].1;
            }
            f += 1;
        }
        v += 1;
    }
    panic!("KEYS holds only keys of SHAPE's fields")
}

/// `a == b`, in a `const fn`.
const fn const_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
