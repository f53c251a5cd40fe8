//! Value codecs: how each property type is written to and read from value lines.
//!
//! The value table of docs/design.md, section 2.3: floats, every
//! integer width, `u64` as `0x` + 16 upper-case hex digits, `bool`, `String` with
//! quoting and escapes, `glam` vectors and `[f32; N]`, unit enums (through the derive)
//! and `Vec<T>` as one element per value line. A game gives its own types a codec by
//! implementing [`Codec`].

mod float;
mod list;
mod number;
mod text;
mod vector;

use std::fmt;

use crate::value::{Value, ValueError};

pub use list::EMPTY_LIST;
pub use text::{decode_variant, needs_quotes};

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
    /// `Vec<T>`: one element per value line.
    List(&'static PropertyType),
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
            PropertyType::F32 => f.write_str("f32"),
            PropertyType::F64 => f.write_str("f64"),
            PropertyType::Floats(n) => write!(f, "{n} floats"),
            PropertyType::String => f.write_str("string"),
            PropertyType::Enum { variants, .. } => write!(f, "one of {}", variants.join(" | ")),
            PropertyType::List(inner) => write!(f, "list of {inner}, one per line"),
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
    note = "implement `juliet_core::Codec` for `{Self}` (a unit enum can `#[derive(Codec)]`), or mark the field `#[jasset(skip)]` to leave it out of the file"
)]
pub trait Codec: Clone + PartialEq + Sized + 'static {
    /// The type as the reflection table reports it.
    const PROPERTY_TYPE: PropertyType;

    /// Whether the value can span several value lines (`Vec<T>`). A list of multi-line
    /// values is refused at compile time.
    const MULTI_LINE: bool = false;

    /// Appends the value's text to `out`: one line, or lines separated by `\n` when
    /// [`Codec::MULTI_LINE`]; no trailing newline.
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
