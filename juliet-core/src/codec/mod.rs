//! Value codecs: how each property type is written to and read from value lines.
//!
//! The value table of docs/design.md, section 2.3: floats, every
//! integer width, `u64` as `0x` + 16 upper-case hex digits, `bool`, `char`, `String`
//! with quoting and escapes, `glam` vectors and quaternions, `[T; N]`, unit enums
//! (through the derive), `Vec<T>` as one element per value line, `Option<T>` (`~` for
//! `None`), maps and sets as one entry per line in sorted order, and composites as
//! elements of lists and maps or in an `Option` ([`Item`], [`Optional`]). A game gives its own
//! types a codec by implementing [`Codec`] (and [`Element`] / [`Token`] where the
//! value is one line / one token).
//!
//! Three shapes, each a trait: a [`Codec`] value may take several value lines; an
//! [`Element`] is one line (an element of a list, an array, a map's value); a
//! [`Token`] is one token with no unquoted blank or comma (an element of a list or
//! array written on one line, a map key). The bounds make a form that cannot be
//! written a compile error at the field: `Vec<Vec<f32>>` is a list of one-line lists,
//! `Vec<Vec<Vec<f32>>>` has no form and is refused.

mod array;
mod float;
mod inline;
pub(crate) mod item;
mod list;
mod map;
mod number;
mod option;
mod text;
mod variant;
mod vector;

use std::fmt;

use crate::value::{Value, ValueError};

pub use inline::{split_entry, tokens};
pub use item::{record_groups, Item, Optional, ITEM_MARK};
pub use list::EMPTY_LIST;
pub use map::EMPTY_MAP;
pub use option::NONE;
pub use text::{decode_variant, needs_quotes};
pub(crate) use variant::not_a_field;
pub use variant::{read_variant, VariantLines};

/// Each byte of a 64-bit word: `BYTES * b` repeats the byte `b` in all 8 (the readers
/// that take 8 bytes of text as one word).
const BYTES: u64 = 0x0101_0101_0101_0101;

/// The text of a value line's bytes (from [`crate::value::SingleLine::bytes`]), for the
/// error and slow paths of codecs that read bytes: holding the bytes alone in the fast
/// path keeps two registers live instead of the line's four words. A value line is
/// whole characters, so the check never fails (it would give `""`, an error then
/// located at the line's start).
#[inline(never)]
pub(crate) fn line_text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap_or_default()
}

/// The type of a property, as the reflection table and tools (inspector, JSON output)
/// see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PropertyType {
    /// `bool`.
    Bool,
    /// `i8`.
    I8,
    /// `i16`.
    I16,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `u8`.
    U8,
    /// `u16`.
    U16,
    /// `u32`.
    U32,
    /// `u64`, written as `0x` + 16 hex digits.
    U64,
    /// `i128`.
    I128,
    /// `u128`.
    U128,
    /// `isize`.
    Isize,
    /// `usize`.
    Usize,
    /// `char`.
    Char,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// `N` floats on one line: `glam::Vec2/3/4`, `[f32; N]`.
    Floats(usize),
    /// `String`.
    String,
    /// A unit enum, written by variant name.
    Enum {
        /// The Rust type name.
        name: &'static str,
        /// The variant names, in declaration order.
        variants: &'static [&'static str],
    },
    /// An enum with data (`#[derive(Codec)]` on an enum whose variants have fields): the
    /// variant's name on the first value line, then one `Field: value` line per field of
    /// that variant.
    EnumWithData {
        /// The Rust type name.
        name: &'static str,
        /// Each variant's name and its fields' keys and types, in declaration order.
        variants: &'static [(
            &'static str,
            &'static [(&'static str, &'static PropertyType)],
        )],
    },
    /// `Vec<T>`: one element per value line.
    List(&'static PropertyType),
    /// `[T; N]` and the `glam` vectors of other elements than `f32`: `N` tokens on one
    /// line, or `N` value lines when the element is not a token.
    Array(&'static PropertyType, usize),
    /// `Option<T>`: `~` for `None`, else the value.
    Option(&'static PropertyType),
    /// `HashMap`/`BTreeMap`: one `key: value` line per entry, sorted by key.
    Map(&'static PropertyType, &'static PropertyType),
    /// `HashSet`/`BTreeSet`: one element per value line, sorted.
    Set(&'static PropertyType),
    /// A reference to another entity of the world, written as its id (`0x` + 16 hex
    /// digits): to an entity of the kind named, or of any kind (`None`).
    Reference(Option<&'static str>),
    /// A path of an asset file relative to the project root (`/` between folders),
    /// written as a `String`: of any file, or of one with the extension named.
    Asset(Option<&'static str>),
    /// A composite (`#[derive(Codec)]` on a struct) as an element of a list, a map's
    /// value or an `Option`'s: a record of `Key: value` lines, one per leaf.
    Record {
        /// The Rust type name.
        name: &'static str,
        /// Each field's key and type (a nested composite's type is a `Record` too);
        /// empty when not known (a schema names the type alone).
        leaves: &'static [(&'static str, &'static PropertyType)],
    },
    /// A game-defined codec, by type name.
    Custom(&'static str),
}

impl fmt::Display for PropertyType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PropertyType::Bool => f.write_str("bool (true or false)"),
            PropertyType::I8 => f.write_str("i8"),
            PropertyType::I16 => f.write_str("i16"),
            PropertyType::I32 => f.write_str("i32"),
            PropertyType::I64 => f.write_str("i64"),
            PropertyType::U8 => f.write_str("u8"),
            PropertyType::U16 => f.write_str("u16"),
            PropertyType::U32 => f.write_str("u32"),
            PropertyType::U64 => f.write_str("u64"),
            PropertyType::I128 => f.write_str("i128"),
            PropertyType::U128 => f.write_str("u128"),
            PropertyType::Isize => f.write_str("isize"),
            PropertyType::Usize => f.write_str("usize"),
            PropertyType::Char => f.write_str("char"),
            PropertyType::F32 => f.write_str("f32"),
            PropertyType::F64 => f.write_str("f64"),
            PropertyType::Floats(n) => write!(f, "{n} floats"),
            PropertyType::String => f.write_str("string"),
            PropertyType::Enum { variants, .. } => write!(f, "one of {}", variants.join(" | ")),
            PropertyType::EnumWithData { variants, .. } => {
                let names: Vec<&str> = variants.iter().map(|(name, _)| *name).collect();
                write!(
                    f,
                    "one of {}, then its fields' `Field: value` lines",
                    names.join(" | ")
                )
            }
            PropertyType::List(PropertyType::Record { name, .. }) => {
                write!(f, "list of {name} records, a `-` line before each")
            }
            PropertyType::Map(key, PropertyType::Record { name, .. }) => {
                write!(
                    f,
                    "map of {key} to {name} records, a `- key` line before each"
                )
            }
            PropertyType::List(PropertyType::List(inner)) => {
                write!(f, "list of lists of {inner}, one inner list per line")
            }
            PropertyType::List(inner) => write!(f, "list of {inner}, one per line"),
            PropertyType::Array(inner, n) => write!(f, "{n} of {inner}"),
            PropertyType::Option(inner) => write!(f, "{inner}, or ~ for none"),
            PropertyType::Map(key, value) => {
                write!(f, "map of {key} to {value}, one `key: value` per line")
            }
            PropertyType::Set(inner) => write!(f, "set of {inner}, one per line"),
            PropertyType::Reference(Some(kind)) => write!(f, "reference to a `{kind}` (an id)"),
            PropertyType::Reference(None) => f.write_str("entity reference (an id)"),
            PropertyType::Asset(Some(ext)) => write!(f, "asset path (a `.{ext}` file)"),
            PropertyType::Asset(None) => f.write_str("asset path"),
            PropertyType::Record { name, .. } => write!(f, "{name} (`Key: value` lines)"),
            PropertyType::Custom(name) => f.write_str(name),
        }
    }
}

/// How a type is written to and read from `.jasset` value lines.
///
/// Implement it to give a game type (an asset handle, a colour) a property codec; the
/// derive then accepts fields of that type. `encode` and `decode` must round-trip:
/// `decode(encode(x)) == x`.
///
/// ```
/// use juliet_core::{Codec, PropertyType, Value, ValueError, ValueErrorKind};
///
/// /// An RGBA colour written as `RRGGBBAA` hex digits.
/// #[derive(Clone, PartialEq, Debug)]
/// struct Rgba(u32);
///
/// impl Codec for Rgba {
///     const PROPERTY_TYPE: PropertyType = PropertyType::Custom("colour RRGGBBAA");
///     fn encode(&self, out: &mut String) {
///         out.push_str(&format!("{:08X}", self.0));
///     }
///     fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
///         let line = value.single()?;
///         u32::from_str_radix(line, 16)
///             .map(Rgba)
///             .ok()
///             .ok_or(ValueError::new(ValueErrorKind::InvalidNumber, line))
///     }
/// }
///
/// let mut text = String::new();
/// Rgba(0xFF8000FF).encode(&mut text);
/// assert_eq!(text, "FF8000FF");
/// assert_eq!(Rgba::decode(Value::from_text(&text)).unwrap(), Rgba(0xFF8000FF));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no .jasset codec, so it cannot be a property",
    label = "this field type does not implement `juliet_core::Codec`",
    note = "implement `juliet_core::Codec` for `{Self}` (a unit enum can `#[derive(Codec)]`), read it with a codec module `#[jasset(with = path)]` (a foreign type), or mark the field `#[jasset(skip)]` to leave it out of the file; a struct that derives `Codec` is a composite, whose fields are properties of their own as a field, and a record of `Key: value` lines in an `Option`, a list or a map"
)]
pub trait Codec: Clone + PartialEq + Sized + 'static {
    /// The type as the reflection table reports it.
    const PROPERTY_TYPE: PropertyType;

    /// Appends the value's text to `out`: one line, or lines separated by `\n` for a
    /// value that is not an [`Element`]; no trailing newline.
    fn encode(&self, out: &mut String);

    /// Reads a value.
    ///
    /// # Errors
    /// A [`ValueError`] whose `found` borrows the offending text from `value`.
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>>;

    /// Reads a value into `self`, where the type can, reusing its allocation: on success
    /// `self` is what [`Codec::decode`] gives, whatever it was before (loads rely on
    /// that: reading a property twice gives the file's value). `decode` and `Drop`
    /// should have no side effects: an entity file read again from its tokenized
    /// document (`juliet_entities::load_entity`) decodes its properties twice and drops
    /// the first values.
    ///
    /// # Errors
    /// As [`Codec::decode`]; on error `self` is unchanged.
    #[inline(always)]
    fn decode_into<'a>(&mut self, value: Value<'a>) -> Result<(), ValueError<'a>> {
        *self = Self::decode(value)?;
        Ok(())
    }

    /// Whether two values are the same for override tracking and diffing. Floats
    /// compare bit patterns, so `NaN` equals itself and `-0.0` differs from `0.0`.
    fn same_value(&self, other: &Self) -> bool {
        self == other
    }
}

/// A value written on one line: what a list, an array or a map holds.
///
/// Every stock scalar, `String`, `char`, unit enum, `glam` vector, `[T; N]` of
/// [`Token`]s, `Option<T>` of an `Element` and a list of [`Token`]s (written on one line)
/// is one. A game's codec that writes one line says so with an empty impl:
/// `impl juliet_core::Element for Rgba {}`.
///
/// ```
/// use juliet_core::{Codec, Value};
///
/// // A list of lists: each inner list is one line of tokens.
/// let grid = vec![vec![1, 2], vec![], vec![3]];
/// let mut text = String::new();
/// grid.encode(&mut text);
/// assert_eq!(text, "1 2\n[]\n3");
/// assert_eq!(Vec::<Vec<i32>>::decode(Value::from_text(&text)).unwrap(), grid);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no one-line .jasset form, so it cannot be an element of a list, an array or a map",
    label = "a list, array or map of this type has no .jasset form",
    note = "a game codec that writes one line says so with an empty `impl juliet_core::Element`; a list of lists works when the inner elements are single tokens (numbers, strings, unit enums); a composite (`#[derive(Codec)]` on a struct) is an element as a record; an enum with data is not an element"
)]
pub trait Element: Codec {
    /// Whether the type is a [`Token`] (the impl of `Token` sets it): an array of
    /// tokens is written on one line, an array of other elements one per line.
    const TOKEN: bool = false;

    /// Appends the value as one line (no `\n`), as an element of a list or a map.
    fn encode_element(&self, out: &mut String) {
        self.encode(out);
    }

    /// Appends the value as one token among others on a line (quoted where a blank,
    /// `,` or `:` would split it); meaningful for [`Token`]s, whose impls set
    /// [`Element::TOKEN`].
    fn encode_token(&self, out: &mut String) {
        self.encode_element(out);
    }

    /// Reads the value from one line written by [`Element::encode_element`].
    ///
    /// # Errors
    /// As [`Codec::decode`].
    #[inline(always)]
    fn decode_element(value: Value<'_>) -> Result<Self, ValueError<'_>> {
        Self::decode(value)
    }
}

/// A value written as one token: no unquoted blank, comma or colon, so that several of
/// them fit on one line (`[u8; 4]` as `255 128 0 255`, an inner list, a map key).
/// Numbers, `bool`, `char`, `String` (quoted when needed), unit enums and entity references
/// are tokens; their [`Element`] impls set [`Element::TOKEN`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a single token, so it cannot be written inside one line",
    label = "only numbers, bool, char, strings, unit enums and entity references (and `Option`s of them) can share a line",
    note = "a list whose elements are lists needs inner elements that are tokens: `Vec<Vec<f32>>` works, `Vec<Vec<Vec<f32>>>` has no form"
)]
pub trait Token: Element {}

/// A key of a map or an element of a set: a [`Token`] with an order, so that maps and
/// sets are written sorted and a save is stable. Strings, every integer, `char` and
/// `bool` are map keys.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a key of a map or an element of a set in a .jasset file",
    label = "map keys and set elements are strings, integers, `char` or `bool`",
    note = "maps and sets are written one entry per line in key order, so the key must be a token with an order"
)]
pub trait MapKey: Token + Ord + std::hash::Hash {}

/// Helpers of the codec tests.
#[cfg(test)]
mod test_support {
    use super::Codec;
    use crate::error::ValueErrorKind;
    use crate::value::Value;

    /// The text `v` encodes to.
    pub(crate) fn enc<T: Codec>(v: T) -> String {
        let mut s = String::new();
        v.encode(&mut s);
        s
    }

    /// `text` decoded as a `T`, or the error's kind.
    pub(crate) fn dec<T: Codec>(text: &str) -> Result<T, ValueErrorKind> {
        T::decode(Value::from_text(text)).map_err(|e| e.kind)
    }
}
