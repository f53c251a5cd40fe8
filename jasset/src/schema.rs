//! `jasset schema export [-o FILE] [--force]` and `jasset schema check`: the registered classes as
//! a `.jasset` text file (`<root>/jasset.schema` by default), and the guard that fails
//! when a class's properties changed while its version did not.
//!
//! The schema is one block per class, keyed by the class name, after `AssetType:
//! Schema`. Its value lines are `version N`, `alias NAME`, `property KEY TYPE DEFAULT`
//! (the default's value text as an entity file writes it, its lines joined by `\n`) and
//! `deprecated KEY`, so it diffs like any other asset:
//!
//! ```text
//! ; AssetType
//! Schema
//! ; Projectile
//! version 2
//! property Damage f32 50.0
//! deprecated Speed
//! ```

use std::fmt::Write as _;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use juliet_core::{inventory, Class, PropertyDescriptor, PropertyType, Registry, StockClass};

use super::output::count;
use super::project::{find_root, read};
use super::schema_kinds::DynValue;
use super::{CliError, CliResult, Status};
use juliet_entities::entity::EntityId;
use juliet_entities::fsio::{write_or_refuse, Sync};
use juliet_entities::EntityManager;

/// The schema's file name in the project root.
pub(crate) const SCHEMA_FILE: &str = "jasset.schema";

/// Arguments of `jasset schema`.
#[derive(Debug, Clone, Args)]
pub(crate) struct SchemaArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: SchemaCommand,
}

/// The `schema` subcommands.
#[derive(Debug, Clone, Subcommand)]
pub(crate) enum SchemaCommand {
    /// Write the game's classes (name, aliases, version, properties with key, type and
    /// default, deprecated keys) to `<root>/jasset.schema`, or to FILE: every registered
    /// class but the stock kinds the game did not replace, unless `--stock-kinds`.
    Export {
        /// Where to write the schema; `-` for standard output. Default:
        /// `<root>/jasset.schema`.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// The project root. Default: the nearest ancestor of the current folder
        /// holding an `Assets/` folder.
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// Replace a schema that holds classes this build does not register (written by
        /// a game's own `jasset`); without it such a schema is left as it is.
        #[arg(long)]
        force: bool,
        /// Export the stock kinds (`Inert`, `Collectible`, `Projectile`) too, which every
        /// `jasset` knows without a schema.
        #[arg(long)]
        stock_kinds: bool,
    },
    /// Compare the registered classes with `<root>/jasset.schema`: exit with 1, naming
    /// the class and the property, when a class's property keys or types changed while
    /// its version did not.
    Check {
        /// The schema to compare with. Default: `<root>/jasset.schema`.
        #[arg(long, value_name = "FILE")]
        schema: Option<PathBuf>,
        /// The project root. Default: the nearest ancestor of the current folder
        /// holding an `Assets/` folder.
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
    },
}

/// Runs `jasset schema`.
///
/// # Errors
/// A usage error when no project root is found or given; a failure when the registry
/// cannot start, the schema cannot be read or written, or does not parse.
pub(crate) fn run(args: &SchemaArgs, out: &mut dyn Write) -> CliResult {
    let registry = Registry::global()?;
    match &args.command {
        SchemaCommand::Export {
            output,
            root,
            force,
            stock_kinds,
        } => {
            let to_stdout = output.as_deref() == Some(Path::new("-"));
            let path = match to_stdout {
                true => PathBuf::from("-"),
                false => schema_path(output.as_deref(), root.as_deref())?,
            };
            if !force && !to_stdout {
                refuse_to_drop_classes(registry, &path)?;
            }
            let classes = exported_classes(registry, *stock_kinds);
            if classes.is_empty() {
                return Err(CliError::failure(
                    "this jasset registers the stock kinds alone, which every jasset knows: \
                     export the schema with the game's own jasset (see the guide, \
                     \"Your game's own `jasset`\"), or pass --stock-kinds",
                ));
            }
            if to_stdout {
                out.write_all(export(&classes).as_bytes())?;
                return Ok(Status::Success);
            }
            write_or_refuse(&path, export(&classes).as_bytes(), Sync::FileAndFolder)?;
            writeln!(
                out,
                "wrote {} ({})",
                path.display(),
                count(classes.len(), "class")
            )?;
            Ok(Status::Success)
        }
        SchemaCommand::Check { schema, root } => {
            let path = schema_path(schema.as_deref(), root.as_deref())?;
            let bytes = read(&path, None).map_err(|e| {
                CliError::failure(format!(
                    "{e} (write the schema first: `jasset schema export`)"
                ))
            })?;
            let written = parse(&bytes, &path)?;
            let problems = check(registry, &written);
            for problem in &problems {
                writeln!(out, "{}: error: {problem}", path.display())?;
            }
            if problems.is_empty() {
                writeln!(
                    out,
                    "{}: every class matches its schema or has a new version",
                    path.display()
                )?;
            }
            Ok(Status::from_problems(!problems.is_empty()))
        }
    }
}

/// `explicit`, else `<root>/jasset.schema` with the root given or found from the
/// current folder.
fn schema_path(explicit: Option<&Path>, root: Option<&Path>) -> Result<PathBuf, CliError> {
    if let Some(path) = explicit {
        return Ok(path.to_path_buf());
    }
    let root = match root {
        Some(root) if root.is_dir() => root.to_path_buf(),
        Some(root) => {
            return Err(CliError::usage(format!(
                "--root {}: not a folder",
                root.display()
            )))
        }
        None => find_root(Path::new("")).ok_or_else(|| {
            CliError::usage("no project root: no `Assets/` folder here or above (give --root DIR)")
        })?,
    };
    Ok(root.join(SCHEMA_FILE))
}

/// One class as the schema holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SchemaClass {
    /// The class name.
    pub name: String,
    /// Former names.
    pub aliases: Vec<String>,
    /// The class version.
    pub version: u32,
    /// `(key, type, default text)`, in declaration order.
    pub properties: Vec<(String, String, String)>,
    /// Deprecated keys.
    pub deprecated: Vec<String>,
}

impl SchemaClass {
    /// What the schema says of `class` now.
    pub(crate) fn of(class: &'static Class) -> SchemaClass {
        // One entity of the class, holding its declared defaults.
        let mut manager = EntityManager::new();
        let id = manager.allocate_entity(class);
        let (value, slot) = manager.storage_of(id).expect("the entity just allocated");
        let defaults: Vec<String> = (0..class.properties().len())
            .map(|i| {
                let mut default = String::new();
                value.encode_property(slot, i, &mut default);
                default
            })
            .collect();
        let properties = (class.properties().iter().zip(defaults).enumerate())
            .map(|(i, (p, default))| {
                let word = leaf_type_name(&mut manager, id, class.properties(), i);
                (p.key.to_owned(), word, default)
            })
            .collect();
        SchemaClass {
            name: class.name().to_owned(),
            aliases: class.aliases().iter().map(|a| a.name.to_owned()).collect(),
            version: class.version(),
            properties,
            deprecated: class
                .deprecated()
                .iter()
                .map(|k| k.name.to_owned())
                .collect(),
        }
    }
}

/// The type word of entry `index` of `table` (a class's, whose entity `id` lives in
/// `manager`): [`type_name`] of its type; for an enum's variant leaf (a unit enum whose
/// fields are the entries keyed by its key and `.`), the variants with their fields,
/// `enum(Never|OnTouch(Radius:f32)|Timer(0:f32))`, which the stock tool needs to read
/// the fields. Which variant has which field is found by switching to each variant from
/// another one and seeing which field leaves write a value (a field the variant lacks
/// writes nothing); a field whose value then is not its type's zero value is written
/// with it ([`switched_field`]).
fn leaf_type_name(
    manager: &mut EntityManager,
    id: EntityId,
    table: &'static [PropertyDescriptor],
    index: usize,
) -> String {
    let p = &table[index];
    let fields: Vec<(usize, &str)> = (table.iter().enumerate())
        .filter_map(|(j, q)| Some((j, q.key.strip_prefix(p.key)?.strip_prefix('.')?)))
        .collect();
    let PropertyType::Enum { variants, .. } = p.property_type else {
        return type_name(&p.property_type);
    };
    if fields.is_empty() {
        return type_name(&p.property_type);
    }
    let mut words = Vec::with_capacity(variants.len());
    for (v, name) in variants.iter().enumerate() {
        let mut own = Vec::new();
        // From another variant, so that the fields are those a switch gives.
        let other = variants[(v + 1) % variants.len()];
        let _ = manager.set_property(id, p.key, other);
        if manager.set_property(id, p.key, name).is_ok() {
            let (value, slot) = manager.storage_of(id).expect("the entity just set");
            for &(j, key) in &fields {
                let mut text = String::new();
                value.encode_property(slot, j, &mut text);
                if !text.is_empty() {
                    own.push(switched_field(key, &table[j].property_type, &text));
                }
            }
        }
        words.push(named(name, own));
    }
    format!("enum({})", words.join("|"))
}

/// A variant's field in the word of its variant leaf: `Key:type`, and `=TEXT` after it
/// when `text`, the field's value when its variant is switched to, is not its type's
/// zero value (which the stock tool gives otherwise: a unit enum's `#[default]` that is
/// not its first variant) and fits in the word (one line without `,|()=\`, a space, a
/// tab or `"`: `read_property` splits a schema line at spaces).
fn switched_field(key: &str, ty: &'static PropertyType, text: &str) -> String {
    let mut zero = String::new();
    juliet_core::Codec::encode(&DynValue::default_of(ty), &mut zero);
    let fits = !text.contains(['\n', ',', '|', '(', ')', '=', '\\', ' ', '\t', '"']);
    match text != zero && fits {
        true => format!("{key}:{}={text}", type_name(ty)),
        false => format!("{key}:{}", type_name(ty)),
    }
}

/// A property type as one word: `f32`, `floats3`, `enum(Stone|Wood)`, an enum with data
/// `enum(None|OnTouch(Radius:f32,Once:bool))`, `list(string)`,
/// `option(f32)`, `array(u8,4)`, `map(string,f32)`, `set(u32)`, `ref(Switch)` (`ref(*)`:
/// any kind), `asset(obj)` (`asset(*)`: any file), `record(Waypoint)` (a composite in a
/// container), `custom(Rgba)`.
pub(crate) fn type_name(ty: &PropertyType) -> String {
    match ty {
        PropertyType::Bool => "bool".into(),
        PropertyType::I8 => "i8".into(),
        PropertyType::I16 => "i16".into(),
        PropertyType::I32 => "i32".into(),
        PropertyType::I64 => "i64".into(),
        PropertyType::U8 => "u8".into(),
        PropertyType::U16 => "u16".into(),
        PropertyType::U32 => "u32".into(),
        PropertyType::U64 => "u64".into(),
        PropertyType::I128 => "i128".into(),
        PropertyType::U128 => "u128".into(),
        PropertyType::Isize => "isize".into(),
        PropertyType::Usize => "usize".into(),
        PropertyType::Char => "char".into(),
        PropertyType::F32 => "f32".into(),
        PropertyType::F64 => "f64".into(),
        PropertyType::Floats(n) => format!("floats{n}"),
        PropertyType::String => "string".into(),
        PropertyType::Enum { variants, .. } => format!("enum({})", variants.join("|")),
        PropertyType::EnumWithData { variants, .. } => {
            let variants = variants
                .iter()
                .map(|(name, fields)| named_fields(name, fields));
            format!("enum({})", variants.collect::<Vec<_>>().join("|"))
        }
        PropertyType::List(inner) => format!("list({})", type_name(inner)),
        PropertyType::Array(inner, n) => format!("array({},{n})", type_name(inner)),
        PropertyType::Option(inner) => format!("option({})", type_name(inner)),
        PropertyType::Map(key, value) => format!("map({},{})", type_name(key), type_name(value)),
        PropertyType::Set(inner) => format!("set({})", type_name(inner)),
        PropertyType::Reference(kind) => format!("ref({})", kind.unwrap_or("*")),
        PropertyType::Asset(ext) => format!("asset({})", ext.unwrap_or("*")),
        PropertyType::Record { name, leaves } => format!("record({})", named_fields(name, leaves)),
        PropertyType::Custom(name) => format!("custom({})", name.replace(' ', "")),
    }
}

/// `Name(Key:type,...)` for a variant or record `name` with `fields`, `Name` without
/// any.
fn named_fields(name: &str, fields: &[(&str, &PropertyType)]) -> String {
    let fields = fields.iter();
    named(
        name,
        fields
            .map(|(key, ty)| format!("{key}:{}", type_name(ty)))
            .collect(),
    )
}

/// `name`, or `name(a,b,...)` with the words of its fields when it has any.
fn named(name: &str, fields: Vec<String>) -> String {
    match fields.is_empty() {
        true => name.to_owned(),
        false => format!("{name}({})", fields.join(",")),
    }
}

/// `word` without the values of fields on a switch ([`switched_field`]'s `=TEXT`).
fn without_switched(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let mut skipping = false;
    for c in word.chars() {
        skipping = match c {
            '=' => true,
            ',' | ')' => false,
            _ => skipping,
        };
        if !skipping {
            out.push(c);
        }
    }
    out
}

/// A default's value text on the one line of its `property` line: `\` written `\\`,
/// each line break `\n` ([`unescape_default`] reads it back).
fn escape_default(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\n', "\\n")
}

/// The value text of an escaped default ([`escape_default`]): `\n` is a line break,
/// `\\` a backslash, any other backslash stays as it is.
fn unescape_default(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.clone().next() {
            Some('n') => {
                chars.next();
                out.push('\n');
            }
            Some('\\') => {
                chars.next();
                out.push('\\');
            }
            _ => out.push('\\'),
        }
    }
    out
}

/// A failure naming the classes of the schema at `path` that `registry` does not
/// register (a game's kinds, written by the game's own `jasset`), which an export would
/// drop; `Ok` when there is no such schema or it names none.
///
/// # Errors
/// The failure above; the schema's error, with the same advice, when it exists but does
/// not read or parse (an export would replace what cannot be checked).
fn refuse_to_drop_classes(registry: &Registry, path: &Path) -> Result<(), CliError> {
    if !path.exists() {
        return Ok(());
    }
    let kept = |e: &dyn std::fmt::Display| {
        CliError::failure(format!(
            "{e}; {} left as it is (pass --force to replace it)",
            super::output::escape_path(path)
        ))
    };
    let bytes = read(path, None).map_err(|e| kept(&e))?;
    let written = parse(&bytes, path).map_err(|e| kept(&e))?;
    let dropped: Vec<&str> = (written.iter())
        .filter(|c| registry.find_by_name(&c.name).is_none())
        .map(|c| c.name.as_str())
        .collect();
    if dropped.is_empty() {
        return Ok(());
    }
    Err(CliError::failure(format!(
        "{}: holds classes this build does not register ({}), left as it is: export with \
         the game's own jasset, or pass --force to replace it",
        super::output::escape_path(path),
        dropped.join(", ")
    )))
}

/// The classes of `registry` a schema export writes: all of them with `stock_kinds`,
/// else all but the stock kinds ([`StockClass`]) the game did not replace.
fn exported_classes(registry: &Registry, stock_kinds: bool) -> Vec<&'static Class> {
    let stock = stock_classes();
    (registry.classes().iter().copied())
        .filter(|c| stock_kinds || !stock.iter().any(|s| std::ptr::eq(*s, *c)))
        .collect()
}

/// The stock kinds the program links (`juliet_entities::kinds`).
pub(crate) fn stock_classes() -> Vec<&'static Class> {
    inventory::iter::<StockClass>().map(|s| s.class).collect()
}

/// The schema text of `classes`, sorted by name (so that the file does not change with
/// link order).
pub(crate) fn export(classes: &[&'static Class]) -> String {
    let mut classes: Vec<SchemaClass> = classes.iter().map(|c| SchemaClass::of(c)).collect();
    classes.sort_by(|a, b| a.name.cmp(&b.name));
    let mut text = String::from(
        "# The entity classes of this project's game: `jasset schema export` writes this\n\
         # file, `jasset schema check` compares the game's classes with it.\n\
         ; AssetType\nSchema\n",
    );
    for class in &classes {
        let _ = writeln!(text, "; {}\nversion {}", class.name, class.version);
        for alias in &class.aliases {
            let _ = writeln!(text, "alias {alias}");
        }
        for (key, ty, default) in &class.properties {
            match default.is_empty() {
                // A leaf the default value does not have (a field of another variant).
                true => _ = writeln!(text, "property {key} {ty}"),
                false => _ = writeln!(text, "property {key} {ty} {}", escape_default(default)),
            }
        }
        for key in &class.deprecated {
            let _ = writeln!(text, "deprecated {key}");
        }
    }
    text
}

/// Reads a schema text.
///
/// # Errors
/// A failure naming the file, line and what is wrong.
pub(crate) fn parse(bytes: &[u8], path: &Path) -> Result<Vec<SchemaClass>, CliError> {
    Ok(parse_located(bytes, path)?
        .into_iter()
        .map(|c| c.class)
        .collect())
}

/// Where in the schema file a class and its property lines are, 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Located {
    /// The class.
    pub class: SchemaClass,
    /// Line and column of the class's header.
    pub header: (u32, u32),
    /// Per property (in [`SchemaClass::properties`] order): the line, and the columns of
    /// its type word and of its default text.
    pub properties: Vec<PropertyAt>,
}

/// Where one `property KEY TYPE DEFAULT` line is ([`Located::properties`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PropertyAt {
    /// 1-based line.
    pub line: u32,
    /// 1-based column of `TYPE`.
    pub type_column: u32,
    /// 1-based column of `DEFAULT`.
    pub default_column: u32,
}

/// 1-based line and column of byte `offset` of `source`.
fn line_col(source: &str, offset: usize) -> (u32, u32) {
    let before = &source[..offset.min(source.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line as u32, column as u32)
}

/// [`parse`], keeping where each class and property line is (for the messages of
/// readers that check the types and defaults, [`super::schema_kinds`]).
///
/// # Errors
/// As [`parse`].
pub(crate) fn parse_located(bytes: &[u8], path: &Path) -> Result<Vec<Located>, CliError> {
    let mut buffer = juliet_core::TokenBuffer::new();
    let doc = buffer.tokenize(bytes, path)?;
    let source = doc.source();
    let mut classes = Vec::new();
    for i in 0..doc.len() {
        let name = doc.key(i);
        if name.eq_ignore_ascii_case("AssetType") {
            continue;
        }
        let bad = |line: &Range<usize>, why: &str| {
            let (l, c) = line_col(source, line.start);
            CliError::failure(format!("{}:{l}:{c}: class `{name}`: {why}", path.display()))
        };
        let node = doc.node(i);
        let mut located = Located {
            class: SchemaClass {
                name: name.to_owned(),
                aliases: Vec::new(),
                version: 0,
                properties: Vec::new(),
                deprecated: Vec::new(),
            },
            header: (node.line, node.column),
            properties: Vec::new(),
        };
        for span in doc.value_spans(i) {
            let line = &source[span.clone()];
            let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
            let class = &mut located.class;
            match word {
                "version" => {
                    class.version = rest
                        .parse()
                        .map_err(|_| bad(&span, &format!("bad version `{rest}`")))?;
                }
                "alias" => class.aliases.push(rest.to_owned()),
                "deprecated" => class.deprecated.push(rest.to_owned()),
                "property" => {
                    let rest_at = span.start + (line.len() - rest.len());
                    read_property(&mut located, source, rest, rest_at)
                        .map_err(|why| bad(&span, &why))?;
                }
                other => {
                    return Err(bad(
                        &span,
                        &format!(
                            "unknown line `{other}` (expected version, alias, property or \
                             deprecated)"
                        ),
                    ))
                }
            }
        }
        classes.push(located);
    }
    Ok(classes)
}

/// Reads the rest of a `property KEY TYPE [DEFAULT]` line of `source` (the text after
/// `property `, which starts at byte `at`) into `located`: the class's property, and
/// where its type and default sit. No default: a leaf absent by default (a field of an
/// enum's variant that the default variant does not have).
///
/// # Errors
/// Why the line is refused: no key or type, a key that is no ASCII identifier, or
/// `ClassVersion` or a key given twice.
fn read_property(located: &mut Located, source: &str, rest: &str, at: usize) -> Result<(), String> {
    let mut parts = rest.splitn(3, ' ');
    let (Some(key), Some(ty), default) =
        (parts.next(), parts.next(), parts.next().unwrap_or_default())
    else {
        return Err("expected `property KEY TYPE DEFAULT`".to_owned());
    };
    // What a derived class's keys are (the loaders compare them byte for byte with the
    // file's).
    if !juliet_core::is_identifier(key.as_bytes()) {
        return Err(format!(
            "property key `{key}` is not an ASCII identifier [A-Za-z_][A-Za-z0-9_]*"
        ));
    }
    let class = &mut located.class;
    if juliet_core::keys_equal(key, juliet_core::CLASS_VERSION.name)
        || (class.properties.iter()).any(|(k, _, _)| juliet_core::keys_equal(k, key))
    {
        return Err(format!(
            "property key `{key}` is ClassVersion or given twice"
        ));
    }
    class
        .properties
        .push((key.to_owned(), ty.to_owned(), unescape_default(default)));
    // The type after the key and a space, the default after the type and a space.
    let ty_at = at + key.len() + 1;
    let (line, type_column) = line_col(source, ty_at);
    located.properties.push(PropertyAt {
        line,
        type_column,
        default_column: line_col(source, ty_at + ty.len() + 1).1,
    });
    Ok(())
}

/// The layout changes of `registry`'s classes against `written` made without a version
/// bump, one message each (class and property named).
pub(crate) fn check(registry: &Registry, written: &[SchemaClass]) -> Vec<String> {
    let mut problems = Vec::new();
    for old in written {
        let class = registry.find_by_name(&old.name).or_else(|| {
            old.aliases
                .iter()
                .find_map(|alias| registry.find_by_name(alias))
        });
        let Some(class) = class else {
            continue;
        };
        let new = SchemaClass::of(class);
        if new.version != old.version {
            continue;
        }
        // A key renamed with its old spelling kept as an alias is the same property
        // (the rename that needs no version bump): `Class::property` finds both.
        // A variant leaf's word without its variants' fields is the word of schemas
        // written before the fields were, for the same layout; the values its fields
        // take on a switch are no part of the layout.
        let mut changes = Vec::new();
        for (key, ty, _) in &old.properties {
            let Some(p) = class.property(key) else {
                changes.push(format!("property `{key}` was removed"));
                continue;
            };
            let index = class.properties().iter().position(|q| std::ptr::eq(q, p));
            let word = index.map_or_else(
                || type_name(&p.property_type),
                |i| new.properties[i].1.clone(),
            );
            if without_switched(&word) != without_switched(ty) && type_name(&p.property_type) != *ty
            {
                changes.push(format!("property `{key}` changed type from {ty} to {word}"));
            }
        }
        for p in class.properties() {
            let was_there = old.properties.iter().any(|(k, ..)| {
                juliet_core::keys_equal(k, p.key)
                    || p.aliases.iter().any(|a| juliet_core::keys_equal(k, a.name))
            });
            if !was_there {
                changes.push(format!(
                    "property `{}` ({}) is new",
                    p.key,
                    type_name(&p.property_type)
                ));
            }
        }
        for change in changes {
            problems.push(format!(
                "class `{}`: {change}, but its version is still {} (bump `#[jasset(version \
                 = {})]`, with a migration if old files need one, then export the schema \
                 again)",
                new.name,
                new.version,
                new.version + 1
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests;
