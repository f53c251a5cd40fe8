//! # juliet-core
//!
//! The `.jasset` text archive and the reflection runtime of Juliet-rs: CRC-32 keys, the
//! zero-copy [tokenizer](TokenBuffer), the [`Archive`] that saves and loads with one
//! call per field, the value [codecs](Codec), [`Class`] / [`PropertyDescriptor`]
//! tables and the class [`Registry`], and the one load path ([`from_text`],
//! [`load_text`]): a [`Document`] that reads a file in the writer's canonical form
//! straight from its text and tokenizes any other, walked by the class's loader
//! ([`Properties`]).
//!
//! The design is docs/design.md, sections 2 to 4 (the format, reflection, the archive
//! and migration). Game code normally uses `#[derive(Entity)]` through `juliet-entities`;
//! this crate is what the derive's output calls.
//!
//! ```
//! use std::path::Path;
//! use juliet_core::{key, Archive, TokenBuffer};
//!
//! // A hand-written symmetric serializer (the derive writes these for you).
//! struct Vehicle { max_speed: f32, gear_count: i32, turbo: bool }
//!
//! fn serialize(ar: &mut Archive<'_>, v: &mut Vehicle) -> Result<(), juliet_core::Error> {
//!     ar.serialize(key!("MaxSpeed"), &mut v.max_speed)?;
//!     ar.serialize(key!("GearCount"), &mut v.gear_count)?;
//!     ar.serialize(key!("Turbo"), &mut v.turbo)?;
//!     Ok(())
//! }
//!
//! // snake_case keys and `; Key: value` lines read the same.
//! let file = "# a vehicle\n; max_speed\n180.0\n; Turbo: false\n";
//! let mut buffer = TokenBuffer::new();
//! let doc = buffer.tokenize(file.as_bytes(), Path::new("vehicle.jasset"))?;
//! let mut v = Vehicle { max_speed: 120.0, gear_count: 6, turbo: true };
//! serialize(&mut Archive::loading(doc), &mut v)?;
//! assert_eq!((v.max_speed, v.gear_count, v.turbo), (180.0, 6, false)); // gear_count kept its default
//!
//! let mut text = String::new();
//! serialize(&mut Archive::saving(&mut text), &mut v)?;
//! assert_eq!(text, "; MaxSpeed\n180.0\n; GearCount\n6\n; Turbo\nfalse\n");
//! # Ok::<(), juliet_core::Error>(())
//! ```
// `unsafe` only in the modules that allow it below, each block with its `// SAFETY:`.
#![deny(unsafe_code)]

/// A `[T; 256]` lookup table built at compile time: entry `b` is `$class(b)` for each
/// byte value `b`, `$class` a `const fn(u8) -> T` saying each byte's class.
macro_rules! byte_table {
    ($class:expr) => {{
        let mut table = [$class(0); 256];
        let mut b = 1;
        while b < 256 {
            table[b] = $class(b as u8);
            b += 1;
        }
        table
    }};
}

mod archive;
mod bind;
#[allow(unsafe_code)] // `unsafe trait Reflect` and its contract
mod class;
mod codec;
mod crc;
#[allow(unsafe_code)] // the type-erased operations on a property's bytes
mod erased;
mod error;
#[allow(unsafe_code)] // `unsafe trait Field`, a field's place in its struct
mod leaves;
mod plural;
mod registry;
mod suggest;
mod text;
mod text_edit;
mod token;
mod value;
mod variant_leaves;

#[cfg(test)]
mod test_rng;

pub use archive::{
    write_header, write_property, Archive, ArchiveMode, UnknownProperties, UnknownProperty,
    CLASS_VERSION, UNKNOWN_KEY_WARNINGS,
};
pub use bind::Properties;
pub use class::{Class, Reflect};
pub use codec::{
    decode_variant, needs_quotes, record_groups, split_entry, tokens, Codec, Element, Item, MapKey,
    Optional, PropertyType, Token, EMPTY_LIST, EMPTY_MAP, ITEM_MARK, NONE,
};
pub use crc::{
    crc32, is_identifier, is_record_key, key_crc, key_crc_runtime, keys_equal, normalize_key,
    pascal_case, Key,
};
pub use erased::{ClassKey, ClassOps, PropertyDescriptor, PropertyOps, RuntimeClass};
pub use error::{
    escape_controls, Error, ErrorInfo, ErrorKind, Location, ValueErrorKind, Warning, WarningKind,
};
pub use plural::quantity;
pub use registry::{ClassRegistration, Registry, Replacement, StockClass};
pub use suggest::did_you_mean;
pub use text::{from_text, load_text, LoadTextReport};
pub use text_edit::{apply_edits, EditError, TextEdit};
pub use token::{value_line_spans, Document, LineForm, PropertyNode, TokenBuffer};
pub use value::{reads_as_value_line, Value, ValueError};

/// What the derive's output calls: the table builders and the [`__private::Field`]
/// trait that composites implement. Not an API of its own.
#[doc(hidden)]
pub mod __private {
    pub use crate::codec::item::{
        decode_record, decode_record_value, no_such_leaf, split_path, write_record,
    };
    pub use crate::codec::{read_variant, VariantLines};
    pub use crate::leaves::{
        class_table, header_bytes, headers, in_set, leaf_count, table, Field, Part,
    };
    pub use crate::variant_leaves::{
        decode_variant_field, read_field_leaf, read_record_variant, read_variant_field,
        read_variant_leaf, record_field, save_variant_leaves, FieldLeaf, VariantLeaf, Variants,
    };
}

/// Re-exported for the derive's generated registration code.
#[doc(hidden)]
pub use inventory;
