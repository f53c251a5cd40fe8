//! Schema kinds: the classes of `<root>/jasset.schema` that the running tool was not
//! built with, made at run time so that the stock `jasset` can check, format, inspect
//! and set files of a game's kinds without compiling the game.
//!
//! A schema kind is a real [`Class`] in the tool's [`Registry`], so every command runs
//! on it through the same runtime as on a derived kind (worlds, templates, overrides,
//! the in-place writer). It is a class defined at run time ([`Class::runtime`]):
//! each entity's value is one [`DynValue`] per property, each read and written by the
//! stock codec of the type the schema names, so a bad value gets the message a game's
//! build gives. What a schema cannot carry is the game's code: a file older than its
//! kind's version would need the game's migration, and loading one is an error that
//! says so (docs/design.md, section 8).
//!
//! A compiled kind always wins over the schema's entry of that name,
//! except a stock kind whose entry differs: the game replaced that stock kind
//! (docs/design.md, section 3.5), and its files follow the game's layout.

mod value;
mod variants;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use juliet_core::{
    write_header, write_property, Archive, Class, Error, ErrorKind, Key, PropertyDescriptor,
    PropertyType, Registry, RuntimeClass, Value, ValueError, CLASS_VERSION,
};

pub(crate) use value::DynValue;
use value::MAX_FLOATS;
use variants::{EnumLeaves, Role};

use super::project::read;
use super::schema::{parse_located, stock_classes, Located, SchemaClass, SCHEMA_FILE};
use super::CliError;

/// Where a schema property sits: the schema file, the 1-based line of the property and
/// column of the word at fault, the class and the property's key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PropertyPlace {
    path: PathBuf,
    line: u32,
    column: u32,
    class: String,
    key: String,
}

impl std::fmt::Display for PropertyPlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (line, column) = (self.line, self.column);
        let (class, key) = (&self.class, &self.key);
        write!(
            f,
            "{}:{line}:{column}: class `{class}`: property `{key}`",
            self.path.display()
        )
    }
}

/// A problem with the schema file that stops the tool from using it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SchemaError {
    /// A property's type word is not one the stock tool reads.
    #[error(
        "{at}: unknown type `{ty}` (expected bool, i8..i128, u8..u128, isize, usize, char, \
         f32, f64, floatsN with N from 1 to {MAX_FLOATS}, string, enum(A|B|...), \
         enum(A|B(FIELD:TYPE,...)|...), list(TYPE), option(TYPE), array(TYPE,N), \
         map(KEY,TYPE), set(TYPE), record(NAME(LEAF:TYPE,...)), ref(KIND), ref(*), \
         asset(EXT), asset(*) or custom(NAME))"
    )]
    UnknownType {
        /// The property, at its type word.
        at: PropertyPlace,
        /// The type word.
        ty: String,
    },
    /// A property's default does not read as its type.
    #[error("{at}: default {found:?} is not a {ty}: {reason}")]
    BadDefault {
        /// The property, at its default.
        at: PropertyPlace,
        /// The property's type.
        ty: String,
        /// The default's text.
        found: String,
        /// Why it does not read.
        reason: String,
    },
    /// A property's type word says what cannot hold: a variant or a variant's field
    /// given twice, a field whose type differs from its leaf's, a value on a switch
    /// where it gives nothing a value.
    #[error("{at}: type `{ty}`: {reason}")]
    BadWord {
        /// The property, at its type word.
        at: PropertyPlace,
        /// The type word.
        ty: String,
        /// What cannot hold.
        reason: String,
    },
    /// Two classes of the schema (or one and a compiled class) answer to one name.
    #[error("{}: {message}", path.display())]
    Clash {
        /// The schema file.
        path: PathBuf,
        /// The registry's message, naming both.
        message: String,
    },
}

impl From<SchemaError> for CliError {
    fn from(err: SchemaError) -> CliError {
        CliError::failure(err.to_string())
    }
}

/// One schema kind: its name, version, property table and defaults, its enums with
/// data and what each table entry is to them.
#[derive(Debug)]
struct SchemaKind {
    name: &'static str,
    version: u32,
    table: &'static [PropertyDescriptor],
    defaults: Vec<DynValue>,
    enums: Vec<EnumLeaves>,
    roles: Vec<Role>,
}

/// An entity of a schema kind is one `DynValue` per property, in the schema's order.
impl RuntimeClass for SchemaKind {
    type Value = DynValue;

    fn properties(&self) -> &'static [PropertyDescriptor] {
        self.table
    }

    fn default_value(&self, index: usize) -> DynValue {
        self.defaults[index].clone()
    }

    fn save(&self, values: &[DynValue], ar: &mut Archive<'_>) {
        self.save_values(values, ar);
    }

    fn load(&self, values: &mut [DynValue], ar: &mut Archive<'_>) -> Result<(), Error> {
        self.load_values(values, ar)
    }

    /// A leaf of an enum with data as the game's leaf setters read it
    /// ([`EnumLeaves::decode`]); any other property by its own value.
    fn decode_property<'a>(
        &self,
        values: &mut [DynValue],
        index: usize,
        value: Value<'a>,
    ) -> Result<(), ValueError<'a>> {
        match self.roles[index] {
            None => juliet_core::Codec::decode_into(&mut values[index], value),
            Some((e, field)) => self.enums[e].decode(values, field, true, value),
        }
    }

    /// A leaf of an enum with data as the game's leaves compare it
    /// ([`EnumLeaves::same`]); any other property by its own value.
    fn same_property(&self, a: &[DynValue], b: &[DynValue], index: usize) -> bool {
        match self.roles[index] {
            None => juliet_core::Codec::same_value(&a[index], &b[index]),
            Some((e, field)) => self.enums[e].same(a, b, field),
        }
    }

    /// A leaf of an enum with data as the game's leaves copy it ([`EnumLeaves::copy`]);
    /// any other property by its own value.
    fn copy_property(&self, dst: &mut [DynValue], src: &[DynValue], index: usize) {
        match self.roles[index] {
            None => dst[index].clone_from(&src[index]),
            Some((e, field)) => self.enums[e].copy(dst, src, field),
        }
    }
}

impl SchemaKind {
    /// `ClassVersion`, then every property in the schema's order (the derive's `save`).
    fn save_values(&self, values: &[DynValue], ar: &mut Archive<'_>) {
        let Some(out) = ar.output() else {
            return;
        };
        write_property(out, CLASS_VERSION.name, &self.version);
        for (p, value) in self.table.iter().zip(values) {
            if matches!(value, DynValue::Absent(_)) {
                continue;
            }
            write_header(out, p.key);
            juliet_core::Codec::encode(value, out);
            out.push('\n');
        }
    }

    /// Each property the file has, read by its type's codec (the leaves of an enum with
    /// data as [`EnumLeaves::read`] reads them), then the class version (the derive's
    /// `load`, without a migration: a file older than the schema's version is an error
    /// that names the game's tool).
    fn load_values(&self, values: &mut [DynValue], ar: &mut Archive<'_>) -> Result<(), Error> {
        if let Some(doc) = ar.document_mut() {
            // Whether the file gave each enum's variant so far.
            let mut given = vec![false; self.enums.len()];
            let mut properties = doc.properties(self.table);
            while let Some(p) = properties.next_property()? {
                match self.roles[p] {
                    None => properties.decode_into(&mut values[p])?,
                    Some((e, field)) => {
                        self.enums[e].read(&mut properties, values, field, &mut given[e])?;
                    }
                }
            }
        }
        let version = ar.resolve_class_version(self.version)?;
        let Some(doc) = ar.document_mut() else {
            return Ok(());
        };
        if version < self.version {
            let (line, column) = doc
                .peek(CLASS_VERSION)
                .map_or((0, 0), |i| (doc.node(i).line, doc.node(i).column));
            let reason = format!(
                "`{}` is known to this jasset from {SCHEMA_FILE} only, at version {}; \
                 migrating its files needs the game's code (run the game's own jasset)",
                self.name, self.version
            );
            return Err(Error::new(
                doc.path(),
                line,
                column,
                ErrorKind::Migration {
                    from: version,
                    reason,
                },
            )
            .with_key(CLASS_VERSION.name));
        }
        Ok(())
    }
}

/// A type word of the schema (`f32`, `floats3`, `enum(A|B)`, `list(u8)`, `option(f32)`,
/// `array(u8,4)`, `map(string,f32)`, `set(u32)`, `ref(Switch)`, ...) as a
/// property type; `None` when the word is none of them.
fn parse_type(word: &str) -> Option<&'static PropertyType> {
    let ty = match word {
        "bool" => PropertyType::Bool,
        "i8" => PropertyType::I8,
        "i16" => PropertyType::I16,
        "i32" => PropertyType::I32,
        "i64" => PropertyType::I64,
        "u8" => PropertyType::U8,
        "u16" => PropertyType::U16,
        "u32" => PropertyType::U32,
        "u64" => PropertyType::U64,
        "i128" => PropertyType::I128,
        "u128" => PropertyType::U128,
        "isize" => PropertyType::Isize,
        "usize" => PropertyType::Usize,
        "char" => PropertyType::Char,
        "f32" => PropertyType::F32,
        "f64" => PropertyType::F64,
        "string" => PropertyType::String,
        _ => {
            if let Some(n) = word.strip_prefix("floats") {
                let n: usize = n.parse().ok().filter(|n| (1..=MAX_FLOATS).contains(n))?;
                PropertyType::Floats(n)
            } else if let Some(inner) = inner_of(word, "enum") {
                parse_enum(inner)?
            } else if let Some(inner) = inner_of(word, "list") {
                PropertyType::List(parse_type(inner)?)
            } else if let Some(inner) = inner_of(word, "option") {
                PropertyType::Option(parse_type(inner)?)
            } else if let Some(inner) = inner_of(word, "set") {
                PropertyType::Set(parse_type(inner)?)
            } else if let Some((key, value)) = inner_of(word, "map").and_then(split_pair) {
                PropertyType::Map(parse_type(key)?, parse_type(value)?)
            } else if let Some((item, n)) = inner_of(word, "array").and_then(split_pair) {
                PropertyType::Array(parse_type(item)?, n.parse().ok()?)
            } else if let Some(kind) = inner_of(word, "ref") {
                PropertyType::Reference((kind != "*").then(|| leak(kind)))
            } else if let Some(ext) = inner_of(word, "asset") {
                PropertyType::Asset((ext != "*").then(|| leak(ext)))
            } else if let Some(inner) = inner_of(word, "record") {
                let (name, leaves) = named_fields(inner)?;
                PropertyType::Record {
                    name,
                    leaves: leaves.unwrap_or_default(),
                }
            } else if let Some(name) = inner_of(word, "custom") {
                PropertyType::Custom(leak(name))
            } else {
                return None;
            }
        }
    };
    Some(Box::leak(Box::new(ty)))
}

/// The inside of `enum(...)`: `Stone|Wood` (a unit enum), or variants some of which
/// list their fields, `None|OnTouch(Radius:f32,Once:bool)|Timer(0:f32)` (an enum with
/// data).
fn parse_enum(inner: &str) -> Option<PropertyType> {
    let mut variants = Vec::new();
    for variant in split_outside(inner, '|')? {
        variants.push(named_fields(variant)?);
    }
    if variants.iter().all(|(_, fields)| fields.is_none()) {
        let names = variants.iter().map(|(name, _)| *name).collect();
        return Some(PropertyType::Enum {
            name: "enum",
            variants: Vec::leak(names),
        });
    }
    let variants = variants
        .into_iter()
        .map(|(n, f)| (n, f.unwrap_or_default()));
    Some(PropertyType::EnumWithData {
        name: "enum",
        variants: Vec::leak(variants.collect()),
    })
}

/// The fields of a variant or the leaves of a record: each key and its type.
type Fields = &'static [(&'static str, &'static PropertyType)];

/// A variant or a record as the schema writes it: `Name`, or `Name(Key:type,...)`
/// with its fields (`Some(&[])` for `Name()`).
fn named_fields(text: &str) -> Option<(&'static str, Option<Fields>)> {
    let (name, fields) = match text.split_once('(') {
        Some((name, rest)) => (name, Some(rest.strip_suffix(')')?)),
        None => (text, None),
    };
    if name.is_empty() {
        return None;
    }
    let Some(list) = fields else {
        return Some((leak(name), None));
    };
    let mut typed: Vec<(&'static str, &'static PropertyType)> = Vec::new();
    if !list.is_empty() {
        for field in split_outside(list, ',')? {
            let (key, ty, _) = field_parts(field)?;
            typed.push((leak(key), parse_type(ty)?));
        }
    }
    Some((leak(name), Some(&*Vec::leak(typed))))
}

/// A field of a variant or a leaf of a record, `Key:type`, or `Key:type=TEXT` for a
/// variant's field whose value when its variant is switched to is `TEXT`: the key, the
/// type word and the text.
fn field_parts(field: &str) -> Option<(&str, &str, Option<&str>)> {
    let (key, rest) = field.split_once(':')?;
    match split_outside(rest, '=')?.as_slice() {
        [ty] => Some((key, ty, None)),
        [ty, text] => Some((key, ty, Some(text))),
        _ => None,
    }
}

/// The fields to which the word of an enum with data gives a value for when their
/// variant is switched to (`enum(Off|Armed(Mood:enum(Calm|Angry)=Angry))`): each one's
/// variant (its index), key and value text.
fn switched_texts(word: &str) -> Vec<(usize, &str, &str)> {
    let variants = inner_of(word, "enum").and_then(|inner| split_outside(inner, '|'));
    let mut texts = Vec::new();
    for (v, variant) in variants.unwrap_or_default().into_iter().enumerate() {
        let list = variant
            .split_once('(')
            .and_then(|(_, l)| l.strip_suffix(')'));
        for field in list.and_then(|l| split_outside(l, ',')).unwrap_or_default() {
            if let Some((key, _, Some(text))) = field_parts(field) {
                texts.push((v, key, text));
            }
        }
    }
    texts
}

/// The first `=TEXT` of `word` that gives nothing a value (its text): any but those of
/// the fields of its variants ([`switched_texts`]) when `variant_leaf` says the word is
/// a variant leaf's, and any at all otherwise.
fn stray_text(word: &str, variant_leaf: bool) -> Option<&str> {
    let start = word.as_ptr() as usize;
    let kept: Vec<usize> = match variant_leaf {
        true => (switched_texts(word).into_iter())
            .map(|(.., text)| text.as_ptr() as usize - start)
            .collect(),
        false => Vec::new(),
    };
    let (at, _) = (word.match_indices('=')).find(|(at, _)| !kept.contains(&(at + 1)))?;
    let rest = &word[at + 1..];
    Some(&rest[..rest.find([',', ')', '|']).unwrap_or(rest.len())])
}

/// `inner` split at each `separator` outside parentheses; `None` for unbalanced ones.
fn split_outside(inner: &str, separator: char) -> Option<Vec<&str>> {
    let (mut depth, mut start, mut parts) = (0u32, 0, Vec::new());
    for (i, c) in inner.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.checked_sub(1)?,
            c if c == separator && depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    (depth == 0).then_some(parts)
}

/// `a,b` split at its comma outside parentheses (`map(string,list(u8))`).
fn split_pair(inner: &str) -> Option<(&str, &str)> {
    match split_outside(inner, ',')?.as_slice() {
        [a, b] => Some((a, b)),
        _ => None,
    }
}

/// `inner` of `name(inner)`.
fn inner_of<'a>(word: &'a str, name: &str) -> Option<&'a str> {
    word.strip_prefix(name)?
        .strip_prefix('(')?
        .strip_suffix(')')
        .filter(|inner| !inner.is_empty())
}

/// A string that lives as long as the tool (schema kinds are made once per run).
fn leak(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}

/// The keys `names`, made to live as long as the tool.
fn leak_keys(names: &[String]) -> &'static [Key] {
    Vec::leak(names.iter().map(|n| Key::new(leak(n))).collect())
}

/// Makes the kind of schema class `entry` (read from `path`): a class defined at run
/// time, which lives as long as the tool (the registry holds `&'static` classes).
fn make_kind(entry: &Located, path: &Path) -> Result<&'static Class, Box<SchemaError>> {
    let class = &entry.class;
    let mut table = Vec::with_capacity(class.properties.len());
    let mut types = Vec::with_capacity(class.properties.len());
    let mut defaults = Vec::with_capacity(class.properties.len());
    let mut variant_shapes = Vec::new();
    for i in 0..class.properties.len() {
        let (p, ty, default, shape) = make_property(entry, path, i)?;
        if let Some((shape, switched)) = shape {
            variant_shapes.push((i, shape, switched));
        }
        table.push(p);
        types.push(ty);
        defaults.push(default);
    }
    if let Some(fault) = variants::fault(&table, &types, &defaults, &variant_shapes) {
        return Err(Box::new(fault_error(entry, path, fault)));
    }
    let name = leak(&class.name);
    let version = class.version.max(1);
    let table: &'static [PropertyDescriptor] = Vec::leak(table);
    let (enums, roles) = EnumLeaves::find(table, variant_shapes);
    let kind: &'static SchemaKind = Box::leak(Box::new(SchemaKind {
        name,
        version,
        table,
        defaults,
        enums,
        roles,
    }));
    let deprecated = leak_keys(&class.deprecated);
    let runtime = Class::runtime(name, version, kind, deprecated);
    Ok(Box::leak(Box::new(
        runtime.with_aliases(leak_keys(&class.aliases)),
    )))
}

/// A property as a schema kind has it ([`make_property`]).
type MadeProperty = (
    PropertyDescriptor,
    &'static PropertyType,
    DynValue,
    Option<(variants::Shape, variants::Switched)>,
);

/// Property `i` of schema class `entry` (read from `path`) as a schema kind has it: its
/// table entry, the type its schema word names (an enum with data for a variant leaf,
/// whose table entry is the unit enum of its variants), its default, and for a variant
/// leaf the shape of its enum and its fields' values on a switch.
///
/// # Errors
/// A [`SchemaError`] at the property's type word or default.
fn make_property(entry: &Located, path: &Path, i: usize) -> Result<MadeProperty, Box<SchemaError>> {
    let (key, word, default) = &entry.class.properties[i];
    let at = &entry.properties[i];
    let place = |column| place_of(entry, path, i, column);
    let Some(written) = parse_type(word) else {
        return Err(Box::new(SchemaError::UnknownType {
            at: place(at.type_column),
            ty: word.clone(),
        }));
    };
    let (mut ty, mut shape) = (written, None);
    let keys = entry.class.properties.iter().map(|(k, ..)| k.as_str());
    let leaf = variants::variant_leaf(written, key, keys);
    if let Some(text) = stray_text(word, leaf.is_some()) {
        return Err(Box::new(SchemaError::BadWord {
            at: place(at.type_column),
            ty: word.clone(),
            reason: format!(
                "`={text}` gives a value only to a field of the word of an enum field's \
                 variant leaf (a property with field leaves `{key}.Field`)"
            ),
        }));
    }
    if let Some((unit, variants)) = leaf {
        let switched = variants::switched_values(variants, switched_texts(word));
        let switched = switched.map_err(|(found, reason)| SchemaError::BadDefault {
            at: place(at.type_column),
            ty: word.clone(),
            found,
            reason,
        })?;
        ty = unit;
        shape = Some((variants, switched));
    }
    let mut value = DynValue::default_of(ty);
    if default.is_empty() {
        value = DynValue::Absent(ty);
    } else if let Err(e) = juliet_core::Codec::decode_into(&mut value, Value::from_text(default)) {
        return Err(Box::new(SchemaError::BadDefault {
            at: place(at.default_column),
            ty: ty.to_string(),
            found: default.clone(),
            reason: e.kind.to_string(),
        }));
    }
    let key = leak(key);
    let offset = i * std::mem::size_of::<DynValue>();
    let mut p = PropertyDescriptor::new::<DynValue>(key, key, offset, &[]);
    p.property_type = *ty;
    Ok((p, written, value, shape))
}

/// Where property `i` of schema class `entry` (read from `path`) is, at `column`.
fn place_of(entry: &Located, path: &Path, i: usize, column: u32) -> PropertyPlace {
    PropertyPlace {
        path: path.to_path_buf(),
        line: entry.properties[i].line,
        column,
        class: entry.class.name.clone(),
        key: entry.class.properties[i].0.clone(),
    }
}

/// The error of `fault`, a fault of the enums with data of schema class `entry` (read
/// from `path`): at the variant leaf's type word, or at the field leaf's default.
fn fault_error(entry: &Located, path: &Path, fault: variants::Fault) -> SchemaError {
    let words = &entry.class.properties;
    match fault {
        variants::Fault::Word(i, reason) => SchemaError::BadWord {
            at: place_of(entry, path, i, entry.properties[i].type_column),
            ty: words[i].1.clone(),
            reason,
        },
        variants::Fault::Default(i, reason) => SchemaError::BadDefault {
            at: place_of(entry, path, i, entry.properties[i].default_column),
            ty: words[i].1.clone(),
            found: words[i].2.clone(),
            reason,
        },
    }
}

/// Whether schema entry `entry` is for a class `registry` knows: a compiled class
/// answers to its name or an alias, unless every such class is a stock kind whose own
/// schema entry differs from `entry` (the game replaced that stock kind).
fn is_native(registry: &Registry, stock: &[&'static Class], entry: &SchemaClass) -> bool {
    let natives: Vec<&'static Class> = std::iter::once(&entry.name)
        .chain(&entry.aliases)
        .filter_map(|name| registry.find_by_name(name))
        .collect();
    if natives.is_empty() {
        return false;
    }
    let replaces_stock = natives
        .iter()
        .all(|c| stock.iter().any(|s| std::ptr::eq(*s, *c)) && SchemaClass::of(c) != *entry);
    !replaces_stock
}

/// The registry of the classes compiled into the tool and, for those it does not know,
/// the classes of `<root>/jasset.schema` when there is one (and `root` is given). Read
/// once per schema file and run.
///
/// # Errors
/// The registry's [`ErrorKind::DuplicateClass`]; a failure when the schema cannot be
/// read or parsed; a [`SchemaError`] for a type, default or class the stock tool
/// cannot use, naming the schema's file, line and column.
pub(crate) fn registry_for(root: Option<&Path>) -> Result<&'static Registry, CliError> {
    static MADE: OnceLock<Mutex<HashMap<PathBuf, &'static Registry>>> = OnceLock::new();
    let global = Registry::global()?;
    let Some(path) = root.map(|r| r.join(SCHEMA_FILE)).filter(|p| p.is_file()) else {
        return Ok(global);
    };
    let made = MADE.get_or_init(Default::default);
    let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
    let mut made = made.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(registry) = made.get(&key) {
        return Ok(registry);
    }
    let bytes = read(&path, root)?;
    let stock = stock_classes();
    let mut kinds = Vec::new();
    for entry in parse_located(&bytes, &path)? {
        if !is_native(global, &stock, &entry.class) {
            kinds.push(make_kind(&entry, &path).map_err(|e| CliError::from(*e))?);
        }
    }
    let registry: &'static Registry = if kinds.is_empty() {
        global
    } else {
        let classes = global.classes().iter().copied().chain(kinds);
        let registry = Registry::with_stock(classes, stock).map_err(|e| SchemaError::Clash {
            path: path.clone(),
            message: e.kind.to_string(),
        })?;
        Box::leak(Box::new(registry))
    };
    made.insert(key, registry);
    Ok(registry)
}

#[cfg(test)]
mod tests;
