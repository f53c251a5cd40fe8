//! [`DynValue`]: one property value of a schema kind, typed at run time by the
//! property's [`PropertyType`], and read and written by the stock codec of that type.
//!
//! A schema kind has no Rust struct, so each of its properties is a `DynValue` that
//! holds a value of the type the schema names (an `f32`, a `String`, a list of `u32`,
//! ...). Every read goes through [`Codec`] of that type, so a value that a game's build
//! refuses is refused here with the same message, and every write is the text the
//! game's writer gives.

use juliet_core::{
    decode_variant, reads_as_value_line, Codec, Element, PropertyType, Value, ValueError,
    ValueErrorKind, EMPTY_LIST, NONE,
};

/// The most components a `floatsN` property may have: the float arrays the stock tool
/// reads with the `[f32; N]` codec.
pub(super) const MAX_FLOATS: usize = 16;

/// A property value whose type is chosen at run time.
///
/// `decode_into` reads with the codec of the type the value already holds (a value is
/// made from its property's type by [`DynValue::default_of`] first), so the property
/// table's type-erased setter works on schema kinds as on derived ones.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum DynValue {
    /// A property of type `.0` that has no value until one is read or set (a field of
    /// an enum's variant that the default variant does not have): it writes nothing.
    Absent(&'static PropertyType),
    /// `bool`.
    Bool(bool),
    /// `i8`.
    I8(i8),
    /// `i16`.
    I16(i16),
    /// `i32`.
    I32(i32),
    /// `i64`.
    I64(i64),
    /// `u8`.
    U8(u8),
    /// `u16`.
    U16(u16),
    /// `u32`.
    U32(u32),
    /// `u64`.
    U64(u64),
    /// `i128`.
    I128(i128),
    /// `u128`.
    U128(u128),
    /// `isize`.
    Isize(isize),
    /// `usize`.
    Usize(usize),
    /// `char`.
    Char(char),
    /// `f32`.
    F32(f32),
    /// `f64`.
    F64(f64),
    /// `N` floats on one line (`floatsN`), `N` from 1 to [`MAX_FLOATS`].
    Floats(Vec<f32>),
    /// `String`.
    Text(String),
    /// A unit enum: the index of its variant.
    Enum {
        /// The variant names, as the schema lists them.
        variants: &'static [&'static str],
        /// The variant.
        index: usize,
    },
    /// `Vec<T>`: one element per value line.
    List {
        /// The elements' type.
        item: &'static PropertyType,
        /// The elements.
        items: Vec<DynValue>,
    },
    /// `Option<T>`: `~` for `None`.
    Option {
        /// The type of the value when there is one.
        item: &'static PropertyType,
        /// The value.
        value: Option<Box<DynValue>>,
    },
    /// A value of a game's own codec (`custom(Name)`), of a record or an enum with data,
    /// or a list of those or of lists, an array, a map or a set: its value lines, kept as
    /// they are. Each is read by its type as `inspect --json` reads it (a record's leaves
    /// by the schema's `record(Name(Leaf:type,...))`) before it is kept; a game's own
    /// codec is not read.
    Raw {
        /// The type the schema names.
        ty: &'static PropertyType,
        /// The value lines, `\n` between them.
        text: String,
    },
}

impl DynValue {
    /// The zero value of `ty` (`false`, `0`, `""`, the first variant, the empty list):
    /// the value a schema default is then read into.
    pub(crate) fn default_of(ty: &'static PropertyType) -> DynValue {
        match ty {
            PropertyType::Bool => DynValue::Bool(false),
            PropertyType::I8 => DynValue::I8(0),
            PropertyType::I16 => DynValue::I16(0),
            PropertyType::I32 => DynValue::I32(0),
            PropertyType::I64 => DynValue::I64(0),
            PropertyType::U8 => DynValue::U8(0),
            PropertyType::U16 => DynValue::U16(0),
            PropertyType::U32 => DynValue::U32(0),
            // A reference is written as its id, a `u64`.
            PropertyType::U64 | PropertyType::Reference(_) => DynValue::U64(0),
            PropertyType::I128 => DynValue::I128(0),
            PropertyType::U128 => DynValue::U128(0),
            PropertyType::Isize => DynValue::Isize(0),
            PropertyType::Usize => DynValue::Usize(0),
            PropertyType::Char => DynValue::Char('\0'),
            PropertyType::Option(item) => DynValue::Option { item, value: None },
            PropertyType::F32 => DynValue::F32(0.0),
            PropertyType::F64 => DynValue::F64(0.0),
            PropertyType::Floats(n) => DynValue::Floats(vec![0.0; *n]),
            // An asset path is written as a string.
            PropertyType::String | PropertyType::Asset(_) => DynValue::Text(String::new()),
            PropertyType::Enum { variants, .. } => DynValue::Enum { variants, index: 0 },
            // A list of lists (or of `Option`s of lists: an inner list is one line of
            // tokens), of records or of enums with data: kept as written, as arrays,
            // maps and sets are.
            PropertyType::List(
                PropertyType::List(_)
                | PropertyType::Option(PropertyType::List(_))
                | PropertyType::Record { .. }
                | PropertyType::EnumWithData { .. },
            ) => DynValue::Raw {
                ty,
                text: String::new(),
            },
            PropertyType::List(item) => DynValue::List {
                item,
                items: Vec::new(),
            },
            PropertyType::Custom(_)
            | PropertyType::Record { .. }
            | PropertyType::EnumWithData { .. }
            | PropertyType::Array(..)
            | PropertyType::Map(..)
            | PropertyType::Set(_) => DynValue::Raw {
                ty,
                text: String::new(),
            },
        }
    }
}

/// `n` floats read by the `[f32; n]` codec.
fn read_floats(n: usize, value: Value<'_>) -> Result<Vec<f32>, ValueError<'_>> {
    macro_rules! by_count {
        ($($n:literal)*) => {
            match n {
                $($n => <[f32; $n]>::decode(value).map(|a| a.to_vec()),)*
                _ => unreachable!("the schema reader refuses floats{n}"),
            }
        };
    }
    by_count!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
}

/// An element of a schema kind's list: one line, its type's (lists of lists are not
/// schema types).
impl Element for DynValue {}

impl Codec for DynValue {
    /// Not what tools show: a schema kind's property table gives each property the
    /// type its schema names.
    const PROPERTY_TYPE: PropertyType = PropertyType::Custom("schema value");

    fn encode(&self, out: &mut String) {
        match self {
            DynValue::Absent(_) => {}
            DynValue::Bool(v) => v.encode(out),
            DynValue::I8(v) => v.encode(out),
            DynValue::I16(v) => v.encode(out),
            DynValue::I32(v) => v.encode(out),
            DynValue::I64(v) => v.encode(out),
            DynValue::U8(v) => v.encode(out),
            DynValue::U16(v) => v.encode(out),
            DynValue::U32(v) => v.encode(out),
            DynValue::U64(v) => v.encode(out),
            DynValue::I128(v) => v.encode(out),
            DynValue::U128(v) => v.encode(out),
            DynValue::Isize(v) => v.encode(out),
            DynValue::Usize(v) => v.encode(out),
            DynValue::Char(v) => v.encode(out),
            DynValue::Option { value: None, .. } => out.push_str(NONE),
            DynValue::Option { value: Some(v), .. } => v.encode(out),
            DynValue::F32(v) => v.encode(out),
            DynValue::F64(v) => v.encode(out),
            DynValue::Floats(v) => {
                for (i, c) in v.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    c.encode(out);
                }
            }
            DynValue::Text(v) => v.encode(out),
            DynValue::Enum { variants, index } => out.push_str(variants[*index]),
            // The `Vec<T>` codec's writing, each element by its type's codec.
            DynValue::List { items, .. } => items.encode(out),
            DynValue::Raw { text, .. } => out.push_str(text),
        }
    }

    /// A value alone does not say its type: only [`Codec::decode_into`] over a value
    /// made by [`DynValue::default_of`] can read one.
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let line = value.lines().next().unwrap_or_default();
        Err(ValueError::new(
            ValueErrorKind::Custom("a schema value needs its property's type".into()),
            line,
        ))
    }

    fn decode_into<'a>(&mut self, value: Value<'a>) -> Result<(), ValueError<'a>> {
        match self {
            DynValue::Absent(ty) => {
                let mut read = DynValue::default_of(ty);
                read.decode_into(value)?;
                *self = read;
            }
            DynValue::Bool(v) => v.decode_into(value)?,
            DynValue::I8(v) => v.decode_into(value)?,
            DynValue::I16(v) => v.decode_into(value)?,
            DynValue::I32(v) => v.decode_into(value)?,
            DynValue::I64(v) => v.decode_into(value)?,
            DynValue::U8(v) => v.decode_into(value)?,
            DynValue::U16(v) => v.decode_into(value)?,
            DynValue::U32(v) => v.decode_into(value)?,
            DynValue::U64(v) => v.decode_into(value)?,
            DynValue::I128(v) => v.decode_into(value)?,
            DynValue::U128(v) => v.decode_into(value)?,
            DynValue::Isize(v) => v.decode_into(value)?,
            DynValue::Usize(v) => v.decode_into(value)?,
            DynValue::Char(v) => v.decode_into(value)?,
            DynValue::Option { item, value: held } => {
                // The `Option<T>` codec's reading: `~` alone is `None`.
                *held = if value.line_count() == 1 && value.lines().next() == Some(NONE) {
                    None
                } else {
                    let mut inner = DynValue::default_of(item);
                    inner.decode_into(value)?;
                    Some(Box::new(inner))
                };
            }
            DynValue::F32(v) => v.decode_into(value)?,
            DynValue::F64(v) => v.decode_into(value)?,
            DynValue::Floats(v) => *v = read_floats(v.len(), value)?,
            DynValue::Text(v) => v.decode_into(value)?,
            DynValue::Enum { variants, index } => {
                *index = decode_variant(value.single()?, variants)?;
            }
            DynValue::List { item, items } => {
                // The `Vec<T>` codec's reading: `[]` alone is the empty list, else one
                // element per line, each read by its type's codec.
                let mut read = Vec::with_capacity(value.line_count());
                let empty = value.line_count() == 1 && value.lines().next() == Some(EMPTY_LIST);
                if !empty {
                    for line in value.lines() {
                        let mut element = DynValue::default_of(item);
                        element.decode_into(Value::from_text(line))?;
                        read.push(element);
                    }
                }
                *items = read;
            }
            DynValue::Raw { ty, text } => {
                if !matches!(ty, PropertyType::Custom(_)) {
                    crate::values::check(ty, value)?;
                }
                // Kept as they are, so each must read back as a value line: a header or a
                // conflict marker given through `set_property` would become part of the
                // file instead.
                if let Some(line) = value.lines().find(|l| !reads_as_value_line(l)) {
                    return Err(ValueError::new(
                        ValueErrorKind::Custom(
                            "a line of a `custom` value must read as a value line in a file \
                             (not a `;` header or a merge conflict marker)"
                                .into(),
                        ),
                        line,
                    ));
                }
                *text = value.lines().collect::<Vec<_>>().join("\n");
            }
        }
        Ok(())
    }

    fn same_value(&self, other: &DynValue) -> bool {
        match (self, other) {
            (DynValue::F32(a), DynValue::F32(b)) => a.same_value(b),
            (DynValue::F64(a), DynValue::F64(b)) => a.same_value(b),
            // As the `Vec<T>` codec compares: element by element, by their codec.
            (DynValue::Floats(a), DynValue::Floats(b)) => a.same_value(b),
            (DynValue::List { items: a, .. }, DynValue::List { items: b, .. }) => a.same_value(b),
            (DynValue::Option { value: a, .. }, DynValue::Option { value: b, .. }) => {
                match (a, b) {
                    (Some(a), Some(b)) => a.same_value(b),
                    (a, b) => a.is_none() && b.is_none(),
                }
            }
            _ => self == other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(ty: &'static PropertyType, text: &str) -> Result<DynValue, ValueErrorKind> {
        let mut v = DynValue::default_of(ty);
        v.decode_into(Value::from_text(text)).map_err(|e| e.kind)?;
        Ok(v)
    }

    fn written(v: &DynValue) -> String {
        let mut out = String::new();
        v.encode(&mut out);
        out
    }

    #[test]
    fn each_type_reads_and_writes_as_its_stock_codec() {
        let v = read(&PropertyType::F32, "1.50").unwrap();
        assert_eq!(written(&v), "1.5");
        let v = read(&PropertyType::U64, "66").unwrap();
        assert_eq!(written(&v), "0x0000000000000042");
        let v = read(&PropertyType::Bool, "1").unwrap();
        assert_eq!(written(&v), "true");
        let v = read(&PropertyType::Floats(3), "1, 2,3").unwrap();
        assert_eq!(written(&v), "1.0 2.0 3.0");
        let v = read(&PropertyType::String, "\"two words\"").unwrap();
        assert_eq!(written(&v), "\"two words\"");
        const ENUM: PropertyType = PropertyType::Enum {
            name: "enum",
            variants: &["Stone", "Wood"],
        };
        let v = read(&ENUM, "wood").unwrap();
        assert_eq!(written(&v), "Wood");
        const LIST: PropertyType = PropertyType::List(&PropertyType::U8);
        let v = read(&LIST, "1\n2").unwrap();
        assert_eq!(written(&v), "1\n2");
        let v = read(&LIST, "[]").unwrap();
        assert_eq!(written(&v), "[]");
        let v = read(&PropertyType::Custom("Rgba"), "FF00FFFF").unwrap();
        assert_eq!(written(&v), "FF00FFFF");
    }

    /// A `custom` value is kept as its lines: one that a file would read as a header
    /// or a conflict marker is refused, not written into the file as one.
    #[test]
    fn a_custom_value_line_that_would_not_read_back_is_refused() {
        const RAW: PropertyType = PropertyType::Custom("Thing");
        for text in ["a\n; Zzz: 5", "; Zzz", "<<<<<<< ours", "a\n=======\nb"] {
            assert!(
                matches!(read(&RAW, text), Err(ValueErrorKind::Custom(_))),
                "{text:?}"
            );
        }
        let v = read(&RAW, "a: b\nc ; d").unwrap();
        assert_eq!(written(&v), "a: b\nc ; d");
        // A lone CR inside a line is content, in a file too.
        let v = read(&RAW, "a\rb").unwrap();
        assert_eq!(written(&v), "a\rb");
    }

    #[test]
    fn a_bad_value_gets_the_stock_codecs_error() {
        assert_eq!(
            read(&PropertyType::F32, "lots"),
            Err(ValueErrorKind::InvalidNumber)
        );
        assert_eq!(
            read(&PropertyType::U8, "300"),
            Err(ValueErrorKind::OutOfRange("u8"))
        );
        assert!(matches!(
            read(&PropertyType::Floats(3), "1 2"),
            Err(ValueErrorKind::ComponentCount {
                expected: 3,
                found: 2
            })
        ));
        const ENUM: PropertyType = PropertyType::Enum {
            name: "enum",
            variants: &["Stone"],
        };
        assert_eq!(read(&ENUM, "Glass"), Err(ValueErrorKind::UnknownVariant));
        const LIST: PropertyType = PropertyType::List(&PropertyType::U8);
        assert_eq!(read(&LIST, "1\nx"), Err(ValueErrorKind::InvalidNumber));
    }

    /// An inner list is one line of tokens, in an `Option` too (`Vec<Option<Vec<u8>>>`).
    #[test]
    fn a_list_of_options_of_lists_reads_each_inner_list_from_its_line() {
        const LISTS: PropertyType = PropertyType::List(&PropertyType::Option(&PropertyType::List(
            &PropertyType::U8,
        )));
        let v = read(&LISTS, "1 2\n~\n[]").unwrap();
        assert_eq!(written(&v), "1 2\n~\n[]");
        assert_eq!(read(&LISTS, "1 x"), Err(ValueErrorKind::InvalidNumber));
    }

    #[test]
    fn a_failed_read_leaves_the_value() {
        let mut v = read(&PropertyType::I32, "7").unwrap();
        assert!(v.decode_into(Value::from_text("seven")).is_err());
        assert_eq!(v, DynValue::I32(7));
    }

    #[test]
    fn floats_compare_by_bits() {
        let a = DynValue::F32(f32::NAN);
        assert!(a.same_value(&a.clone()));
        assert!(!DynValue::F32(0.0).same_value(&DynValue::F32(-0.0)));
    }
}
