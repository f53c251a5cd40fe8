//! The enums with data among a schema kind's properties, read as a game's derived code
//! reads them (`juliet_core::variant_leaves`). As a field of a class, an enum with data
//! is a *variant* leaf keyed by the field (`Trigger`, a unit enum of the variant names)
//! and one leaf per field of its variants keyed by its path (`Trigger.Radius`). The
//! schema's word for the variant leaf names each variant's fields
//! (`enum(Never|OnTouch(Radius:f32)|Timer(0:f32))`), which is how a schema kind knows
//! which variant a field leaf belongs to:
//!
//! * reading the variant keeps the fields when it names the variant in use, and
//!   otherwise gives that variant its fields' zero values (or the values the word gives
//!   them on a switch, `Armed(Mood:enum(Calm|Angry)=Angry)`, as the game's `Default`
//!   of a field's type) and leaves the other fields absent (written nothing);
//! * reading a field that the variant in use lacks takes the one variant with that
//!   field when the file has not given the variant (the variant in use is then the
//!   template's or the default), and is an error at the field's value when it has;
//! * setting a leaf (`jasset set`, a template's delta: the kind's
//!   `RuntimeClass::decode_property`) reads it as a file that gave the variant: the
//!   variant's line switches the variant, dropping the old one's fields, and a field
//!   the variant in use lacks is refused;
//! * comparing and copying a leaf (what makes it an override of a template; revert, a
//!   template's change reaching its instances: the kind's `RuntimeClass::same_property`
//!   and `copy_property`) is as the game's leaves do: the variant is the same only with
//!   the same fields, and copying it brings the whole enum when the variants differ.

use juliet_core::{
    decode_variant, keys_equal, Codec, Error, Properties, PropertyDescriptor, PropertyType, Value,
    ValueError, ValueErrorKind,
};

use super::value::DynValue;
use crate::schema::type_name;

/// Each variant of an enum with data: its name and its fields' keys and types.
pub(super) type Shape = &'static [(
    &'static str,
    &'static [(&'static str, &'static PropertyType)],
)];

/// The leaves of one enum with data in a schema kind's table.
#[derive(Debug)]
pub(super) struct EnumLeaves {
    /// The table entry of the variant.
    variant: usize,
    /// The variant names, in the schema's order.
    names: &'static [&'static str],
    /// Each variant's fields.
    shape: Shape,
    /// The table entries of the fields (`Trigger.Radius`), with each one's key
    /// (`Radius`) and type.
    fields: Vec<(usize, &'static str, &'static PropertyType)>,
    /// The fields whose value when their variant is switched to is not their type's
    /// zero value ([`switched_values`]).
    switched: Switched,
}

/// The values of fields when their variant is switched to: each one's variant (its
/// index), key and value.
pub(super) type Switched = Vec<(usize, &'static str, DynValue)>;

/// The values `texts` (each a variant's index, a field's key and its value text, as the
/// schema's word for the variant leaf gives them: `Armed(Mood:enum(Calm|Angry)=Angry)`)
/// give the fields of `shape` when their variant is switched to, each read by the
/// field's type: what the game's `Default` of the field's type is when it is not the
/// type's zero value (a unit enum whose `#[default]` is not its first variant).
///
/// # Errors
/// The text and why it does not read, of one that does not (or names no field).
pub(super) fn switched_values(
    shape: Shape,
    texts: Vec<(usize, &str, &str)>,
) -> Result<Switched, (String, String)> {
    let mut values = Vec::with_capacity(texts.len());
    for (v, key, text) in texts {
        let field = shape.get(v).and_then(|(_, fields)| {
            let mut fields = fields.iter();
            fields.find(|(k, _)| keys_equal(k, key))
        });
        let Some(&(key, ty)) = field else {
            return Err((text.to_owned(), format!("no variant's field `{key}` here")));
        };
        let mut value = DynValue::default_of(ty);
        if let Err(e) = value.decode_into(Value::from_text(text)) {
            return Err((text.to_owned(), e.kind.to_string()));
        }
        values.push((v, key, value));
    }
    Ok(values)
}

/// What does not hold in the enums with data of a schema kind.
#[derive(Debug)]
pub(super) enum Fault {
    /// The word of the variant leaf at this table entry, and why.
    Word(usize, String),
    /// The default of the field leaf at this table entry, and why.
    Default(usize, String),
}

/// The first fault of the enums with data of a schema kind whose table is `table`, whose
/// properties' schema types (an enum with data for a variant leaf) are `types` and
/// defaults `defaults`, and whose variant leaves are `variants` ([`EnumLeaves::find`]):
/// a variant or a variant's field key given twice, a field whose type in the word is
/// not its leaf's, or a field leaf whose default is absent when the default variant
/// has the field, or given when it has not (a file `fmt` writes would not check).
pub(super) fn fault(
    table: &[PropertyDescriptor],
    types: &[&'static PropertyType],
    defaults: &[DynValue],
    variants: &[(usize, Shape, Switched)],
) -> Option<Fault> {
    for &(i, shape, _) in variants {
        if let Some(reason) = repeated(shape) {
            return Some(Fault::Word(i, reason));
        }
        let v = variant_index(&defaults[i]);
        for (j, p) in table.iter().enumerate() {
            let field = field_key(table[i].key, p.key).filter(|f| owns_any(shape, f));
            let Some(field) = field else {
                continue;
            };
            if let Some(reason) = other_type(shape, field, types[j]) {
                return Some(Fault::Word(i, reason));
            }
            let owned = shape[v].1.iter().any(|(k, _)| keys_equal(k, field));
            let name = shape[v].0;
            match (owned, matches!(defaults[j], DynValue::Absent(_))) {
                (true, true) => {
                    let reason = format!("the default variant `{name}` has this field: give it");
                    return Some(Fault::Default(j, reason));
                }
                (false, false) => {
                    let reason =
                        format!("the default variant `{name}` has no such field: leave it out");
                    return Some(Fault::Default(j, reason));
                }
                _ => {}
            }
        }
    }
    None
}

/// Why `shape` does not hold when a variant or a variant's field key is in it twice.
fn repeated(shape: Shape) -> Option<String> {
    for (n, (name, fields)) in shape.iter().enumerate() {
        if shape[..n].iter().any(|(other, _)| keys_equal(other, name)) {
            return Some(format!("variant `{name}` is given twice"));
        }
        for (m, (key, _)) in fields.iter().enumerate() {
            if fields[..m].iter().any(|(other, _)| keys_equal(other, key)) {
                return Some(format!("field `{key}` of `{name}` is given twice"));
            }
        }
    }
    None
}

/// Why the fields keyed `field` of `shape` do not hold when one's type is not `leaf`,
/// the type of their leaf.
fn other_type(shape: Shape, field: &str, leaf: &PropertyType) -> Option<String> {
    let (name, ty) = shape.iter().find_map(|(name, fields)| {
        let mut fields = fields.iter();
        let other = fields.find(|(k, ty)| keys_equal(k, field) && **ty != *leaf);
        other.map(|(_, ty)| (name, ty))
    })?;
    Some(format!(
        "field `{field}` of `{name}` is a {} here, but its leaf `.{field}` is a {}",
        type_name(ty),
        type_name(leaf)
    ))
}

/// The type a schema kind's table gives property `key` of schema type `ty`, and the
/// shape of its enum: when `ty` is an enum with data and `keys` (the class's property
/// keys) hold a leaf of one of its fields (`key.Field`), the property is the enum's
/// variant leaf, a unit enum of the variant names as a game's table has it; `None`
/// otherwise.
pub(super) fn variant_leaf<'k>(
    ty: &'static PropertyType,
    key: &str,
    mut keys: impl Iterator<Item = &'k str>,
) -> Option<(&'static PropertyType, Shape)> {
    let PropertyType::EnumWithData { variants, .. } = ty else {
        return None;
    };
    let is_field = |k: &str| field_key(key, k).is_some_and(|f| owns_any(variants, f));
    if !keys.any(is_field) {
        return None;
    }
    let names = Vec::leak(variants.iter().map(|(name, _)| *name).collect());
    let unit = PropertyType::Enum {
        name: "enum",
        variants: names,
    };
    Some((Box::leak(Box::new(unit)), variants))
}

/// The index of the variant a variant leaf's value names (the first for any other
/// value).
fn variant_index(value: &DynValue) -> usize {
    match value {
        DynValue::Enum { index, .. } => *index,
        _ => 0,
    }
}

/// The key of a field leaf `path` of the variant leaf `key` (`Radius` for
/// `Trigger.Radius`), if it is one.
fn field_key<'p>(key: &str, path: &'p str) -> Option<&'p str> {
    let (head, field) = path.split_at_checked(key.len())?;
    let field = field.strip_prefix('.')?;
    keys_equal(head, key).then_some(field)
}

/// Whether a variant of `shape` has a field keyed `field`.
fn owns_any(shape: Shape, field: &str) -> bool {
    shape
        .iter()
        .any(|(_, fields)| fields.iter().any(|(k, _)| keys_equal(k, field)))
}

/// What a table entry of a schema kind is to the enums with data: the enum (an index
/// into [`EnumLeaves::find`]'s list) and, for a field, which of its fields.
pub(super) type Role = Option<(usize, Option<usize>)>;

impl EnumLeaves {
    /// The enums of `table`, whose variant leaves are the entries `variants` with their
    /// shapes ([`variant_leaf`]), and each table entry's [`Role`].
    pub(super) fn find(
        table: &'static [PropertyDescriptor],
        variants: Vec<(usize, Shape, Switched)>,
    ) -> (Vec<EnumLeaves>, Vec<Role>) {
        let mut roles: Vec<Role> = vec![None; table.len()];
        let mut enums = Vec::with_capacity(variants.len());
        for (n, (variant, shape, switched)) in variants.into_iter().enumerate() {
            let PropertyType::Enum {
                variants: names, ..
            } = table[variant].property_type
            else {
                continue;
            };
            roles[variant] = Some((n, None));
            let mut fields = Vec::new();
            for (entry, p) in table.iter().enumerate() {
                let Some(field) = field_key(table[variant].key, p.key) else {
                    continue;
                };
                if owns_any(shape, field) && roles[entry].is_none() {
                    roles[entry] = Some((n, Some(fields.len())));
                    fields.push((entry, field, &p.property_type));
                }
            }
            enums.push(EnumLeaves {
                variant,
                names,
                shape,
                fields,
                switched,
            });
        }
        (enums, roles)
    }

    /// Reads the property `properties` just bound, this enum's variant (`field`
    /// `None`) or field `field`, into `values`; `given` says whether this file gave the
    /// variant before, and is set when this is the variant.
    ///
    /// # Errors
    /// The located error of a value that does not read ([`EnumLeaves::read_variant`],
    /// [`EnumLeaves::read_field`]).
    pub(super) fn read(
        &self,
        properties: &mut Properties<'_, '_>,
        values: &mut [DynValue],
        field: Option<usize>,
        given: &mut bool,
    ) -> Result<(), Error> {
        let mut place = Place {
            leaves: self,
            values,
            field,
            given: *given,
        };
        *given |= field.is_none();
        properties.decode_in_place(&mut place, |place, value| {
            (place.leaves).decode(place.values, place.field, place.given, value)
        })
    }

    /// Reads `value` into this enum's variant (`field` `None`) or field `field` of
    /// `values`; `given` says whether the variant in use was given by this file (or
    /// set): a field the variant lacks then is an error rather than taking its variant.
    /// A property set reads as the game's leaf setters do (`juliet_core`'s `VariantLeaf` and
    /// `FieldLeaf`): the variant switches with its line, a field never.
    ///
    /// # Errors
    /// As [`EnumLeaves::read_variant`] and [`EnumLeaves::read_field`]; `values` are
    /// unchanged then, but for a field read when the variant was not `given`: the
    /// variant it took stays, as with the game's loader (`decode_variant_field` switches
    /// before the field's codec reads).
    pub(super) fn decode<'a>(
        &self,
        values: &mut [DynValue],
        field: Option<usize>,
        given: bool,
        value: Value<'a>,
    ) -> Result<(), ValueError<'a>> {
        match field {
            None => self.read_variant(values, value),
            Some(f) => self.read_field(values, f, given, value),
        }
    }

    /// Whether `a` has the same variant (`field` `None`) or field `field` as `b`, as the
    /// game's leaves compare (`VariantLeaf` and `FieldLeaf`): the variant is the same
    /// when it is the same variant with the same fields; a field is the same when the
    /// variant of `a` lacks it, or `b` is that variant with the same value there.
    pub(super) fn same(&self, a: &[DynValue], b: &[DynValue], field: Option<usize>) -> bool {
        let same_field = |f: usize| {
            let (entry, key, _) = self.fields[f];
            let v = self.in_use(a);
            !self.owns(v, key) || (v == self.in_use(b) && a[entry].same_value(&b[entry]))
        };
        match field {
            None => self.in_use(a) == self.in_use(b) && (0..self.fields.len()).all(same_field),
            Some(f) => same_field(f),
        }
    }

    /// Copies this enum's variant (`field` `None`) or field `field` of `src` into `dst`,
    /// as the game's leaves clone-assign: the variant, when the variants differ, brings
    /// the whole enum (its fields, the others absent), and nothing when they are the
    /// same; a field is copied only when both are the same variant, which has it.
    pub(super) fn copy(&self, dst: &mut [DynValue], src: &[DynValue], field: Option<usize>) {
        let v = self.in_use(src);
        match field {
            None if v != self.in_use(dst) => {
                dst[self.variant].clone_from(&src[self.variant]);
                for &(entry, ..) in &self.fields {
                    dst[entry].clone_from(&src[entry]);
                }
            }
            None => {}
            Some(f) => {
                let (entry, key, _) = self.fields[f];
                if v == self.in_use(dst) && self.owns(v, key) {
                    dst[entry].clone_from(&src[entry]);
                }
            }
        }
    }

    /// The index of the variant in use.
    fn in_use(&self, values: &[DynValue]) -> usize {
        variant_index(&values[self.variant])
    }

    /// Whether variant `v` has the field keyed `field`.
    fn owns(&self, v: usize, field: &str) -> bool {
        self.shape[v].1.iter().any(|(k, _)| keys_equal(k, field))
    }

    /// Makes variant `v` the one in use: its fields the values the schema gives them
    /// on a switch ([`switched_values`]), else their types' zero values, the other fields
    /// absent.
    fn to_variant(&self, values: &mut [DynValue], v: usize) {
        values[self.variant] = DynValue::Enum {
            variants: self.names,
            index: v,
        };
        for &(entry, field, ty) in &self.fields {
            let switched = (self.switched.iter())
                .find(|(sv, key, _)| *sv == v && keys_equal(key, field))
                .map(|(.., value)| value.clone());
            values[entry] = match self.owns(v, field) {
                true => switched.unwrap_or_else(|| DynValue::default_of(ty)),
                false => DynValue::Absent(ty),
            };
        }
    }

    /// Reads the variant's one line into `values`: the fields are kept when it names
    /// the variant in use, else they are the variant's zero values.
    ///
    /// # Errors
    /// `UnknownVariant`; a `Custom` error at the second line of a value of several
    /// lines (each field is a property of its own).
    fn read_variant<'a>(
        &self,
        values: &mut [DynValue],
        value: Value<'a>,
    ) -> Result<(), ValueError<'a>> {
        let mut lines = value.lines();
        let first = lines.next().unwrap_or_default();
        if let Some(second) = lines.next() {
            let example = self.fields.first().map_or("Field", |f| f.1);
            return Err(ValueError::new(
                ValueErrorKind::Custom(format!(
                    "the variant is one line: each field of `{first}` is a property of its \
                     own, keyed by this key, `.` and the field's key (such as `.{example}`)"
                )),
                second,
            ));
        }
        let v = decode_variant(first, self.names)?;
        if v != self.in_use(values) {
            self.to_variant(values, v);
        }
        Ok(())
    }

    /// Reads field `f` into `values`. When the variant in use lacks it and the file has
    /// not `given` the variant, the one variant with that field is taken first, and
    /// stays taken when the field's value does not read (as the game's
    /// `decode_variant_field` does).
    ///
    /// # Errors
    /// The field's codec's, and `NotInVariant` naming the variants that have the field
    /// and the one in use when the one in use lacks it.
    fn read_field<'a>(
        &self,
        values: &mut [DynValue],
        f: usize,
        given: bool,
        value: Value<'a>,
    ) -> Result<(), ValueError<'a>> {
        let (entry, field, _) = self.fields[f];
        let owners = || (0..self.shape.len()).filter(|&v| self.owns(v, field));
        if !given && !self.owns(self.in_use(values), field) {
            let mut found = owners();
            if let (Some(v), None) = (found.next(), found.next()) {
                self.to_variant(values, v);
            }
        }
        let current = self.in_use(values);
        if self.owns(current, field) {
            return values[entry].decode_into(value);
        }
        Err(ValueError::new(
            ValueErrorKind::NotInVariant {
                field: field.to_owned(),
                owners: owners().map(|v| self.names[v].to_owned()).collect(),
                in_use: self.names[current].to_owned(),
            },
            value.lines().next().unwrap_or_default(),
        ))
    }
}

/// What [`EnumLeaves::read`] reads into: the enum, the kind's values, which leaf, and
/// whether the file gave the variant before.
struct Place<'l, 'v> {
    leaves: &'l EnumLeaves,
    values: &'v mut [DynValue],
    field: Option<usize>,
    given: bool,
}
