//! Reading values and headers as the tools show them: a property value as JSON (by its
//! [`PropertyType`]), the version and template keys of a file as written, the template
//! chain of a file, and the properties of a text as `key -> value lines`.

use std::path::{Path, PathBuf};

use juliet_core::{
    decode_variant, key_crc_runtime, keys_equal, record_groups, split_entry, tokens, Codec, Error,
    ErrorKind, PropertyType, TokenBuffer, Value, ValueError, ValueErrorKind, EMPTY_LIST, EMPTY_MAP,
    NONE,
};
use serde_json::{json, Value as Json};

use juliet_entities::entity::EntityId;
use juliet_entities::fsio::{read_project_file, DEFAULT_MAX_FILE_SIZE};
use juliet_entities::load::keys;
pub(crate) use juliet_entities::load::pieces;
use juliet_entities::template::normalize_template_path;

/// The elements of a list or set (one a line; none for a value that is the one line
/// `[]`, as the codecs read it), each as JSON.
fn list_items<'a>(inner: &PropertyType, value: Value<'a>) -> Result<Vec<Json>, ValueError<'a>> {
    let lines: Vec<&str> = value.lines().collect();
    if lines == [EMPTY_LIST] {
        return Ok(Vec::new());
    }
    if let PropertyType::Record { .. } | PropertyType::EnumWithData { .. } = inner {
        let records = record_groups(&value)?.into_iter();
        let items = records.map(|(after, lines)| match after.is_empty() {
            true => item_to_json(inner, &lines),
            false => Err(ValueError::new(
                ValueErrorKind::Custom(
                    "an element of a list of records starts with a `-` line alone (`- key` \
                     starts an entry of a map)"
                        .into(),
                ),
                after,
            )),
        });
        return items.collect();
    }
    lines
        .into_iter()
        .map(|l| element_to_json(inner, l))
        .collect()
}

/// A set's elements as [`list_items`] reads them, as a JSON array.
///
/// # Errors
/// [`list_items`]'s, and `DuplicateEntry` at an element written twice (as its type
/// reads it: `1` and `01` are one number), as the set codecs read a set.
fn set_to_json<'a>(inner: &PropertyType, value: Value<'a>) -> Result<Json, ValueError<'a>> {
    let items = list_items(inner, value)?;
    // A set's elements are one line each (numbers, strings, chars, bools): item `i` is
    // line `i`, unless the value is the empty set.
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    for (item, line) in items.iter().zip(value.lines()) {
        if !seen.insert(item.to_string()) {
            return Err(ValueError::new(ValueErrorKind::DuplicateEntry, line));
        }
    }
    Ok(Json::Array(items))
}

/// A list element or map value of several lines (a record, or an enum with data held
/// whole) as JSON.
fn item_to_json<'a>(ty: &PropertyType, lines: &[&'a str]) -> Result<Json, ValueError<'a>> {
    match ty {
        PropertyType::EnumWithData { variants, .. } => variant_to_json(variants, lines),
        PropertyType::Record { leaves, .. } => record_to_json(leaves, lines),
        _ => unreachable!("item_to_json is called for records and enums with data"),
    }
}

/// A record (a composite's `Key: value` lines) as a JSON object, nested composites as
/// objects of their own, an enum with data as `variant_to_json` writes it (its fields'
/// lines, `Trigger.Radius`, go into the variant's object). A record whose leaves are
/// not known (`leaves` empty: a schema's `record(Name)`) gives each line's value as its
/// text.
///
/// # Errors
/// `ExpectedEntry` for a line that is not `Key: value`, `DuplicateEntry` for a leaf
/// twice, an error naming the leaves (with a did-you-mean) for a path that is not a
/// leaf, and the leaves' own errors.
fn record_to_json<'a>(
    leaves: &[(&str, &PropertyType)],
    lines: &[&'a str],
) -> Result<Json, ValueError<'a>> {
    let mut object = serde_json::Map::new();
    for line in lines {
        let (path, text) =
            split_entry(line).ok_or(ValueError::new(ValueErrorKind::ExpectedEntry, line))?;
        let mut at = &mut object;
        let mut types = leaves;
        let mut segments = path.split('.').peekable();
        while let Some(segment) = segments.next() {
            let leaf = types.iter().find(|(key, _)| keys_equal(key, segment));
            if leaf.is_none() && !leaves.is_empty() {
                return Err(no_such_leaf(segment, types));
            }
            let name = leaf.map_or(segment, |(key, _)| *key).to_owned();
            if segments.peek().is_none() {
                let json = match leaf {
                    Some((_, ty)) => element_to_json(ty, text)?,
                    None => Json::String(text.to_owned()),
                };
                // An empty object is the place a variant's field line made before its
                // variant's line.
                match at.insert(name, json) {
                    Some(Json::Object(o)) if o.is_empty() => {}
                    Some(_) => return Err(ValueError::new(ValueErrorKind::DuplicateEntry, path)),
                    None => {}
                }
                break;
            }
            let inner = at.entry(name).or_insert_with(|| json!({}));
            let Some((inner, next)) = step_into(inner, leaf.map(|(_, ty)| *ty)) else {
                break;
            };
            types = next;
            let Json::Object(inner) = inner else {
                // A leaf of one line, read already, or a variant without fields.
                let next = segments.next().unwrap_or_default();
                return Err(no_such_leaf(next, &[]));
            };
            at = inner;
        }
    }
    Ok(Json::Object(object))
}

/// Where a record line's path goes on past a leaf of type `ty` whose JSON is `inner`:
/// a nested composite's object and its leaves; the object of the fields of the variant
/// an enum's line read (`{"Variant": {fields}}`), and that variant's fields; else
/// `inner` itself and no leaves. `None` for an enum whose variant's line has not come
/// (the composite's default variant, which the type does not name): the field is not
/// shown.
fn step_into<'j, 't>(
    inner: &'j mut Json,
    ty: Option<&'t PropertyType>,
) -> Option<(&'j mut Json, &'t [(&'t str, &'t PropertyType)])> {
    match ty {
        Some(PropertyType::Record { leaves, .. }) => Some((inner, leaves)),
        Some(PropertyType::EnumWithData { variants, .. }) => match inner {
            Json::Object(object) => {
                let (variant, fields) = object.iter_mut().next()?;
                let types = (variants.iter().find(|(name, _)| name == variant))
                    .map_or(&[][..], |(_, fields)| fields);
                Some((fields, types))
            }
            // A variant without fields is a string.
            other => Some((other, &[])),
        },
        _ => Some((inner, &[])),
    }
}

/// The error for a record line whose path has `segment` where `types` are the leaves
/// (none past a leaf of one line).
fn no_such_leaf<'a>(segment: &'a str, types: &[(&str, &PropertyType)]) -> ValueError<'a> {
    let message = if types.is_empty() {
        format!("no leaf `{segment}`: this value has no leaves")
    } else {
        let names = types.iter().map(|(key, _)| *key);
        let hint = juliet_core::did_you_mean(segment, names.clone())
            .map(|near| format!(" (did you mean `{near}`?)"))
            .unwrap_or_default();
        let list = names.collect::<Vec<_>>().join(", ");
        format!("no leaf `{segment}`{hint}: the leaves here are {list}")
    };
    ValueError::new(ValueErrorKind::Custom(message), segment)
}

/// An enum with data as JSON, as serde writes one: the variant's name for a variant
/// without fields, else `{"Variant": {"Field": value, ...}}`.
fn variant_to_json<'a>(
    variants: &[(&str, &[(&str, &PropertyType)])],
    lines: &[&'a str],
) -> Result<Json, ValueError<'a>> {
    let names: Vec<&str> = variants.iter().map(|(name, _)| *name).collect();
    let first = lines.first().copied().unwrap_or_default();
    let (name, fields) = variants[decode_variant(first, &names)?];
    if fields.is_empty() {
        return Ok(Json::String(name.to_owned()));
    }
    let record = record_to_json(fields, &lines[1..])?;
    Ok(json!({ name: record }))
}

/// One element line (of a list, an array or a set, a map's value or a record's leaf) as
/// JSON, as the `Element` codecs read it: a list of tokens (an inner list) is an array.
fn element_to_json<'a>(ty: &PropertyType, line: &'a str) -> Result<Json, ValueError<'a>> {
    match ty {
        // An element `Some` is its value's one line: an inner list's tokens, say.
        PropertyType::Option(inner) if line != NONE => element_to_json(inner, line),
        PropertyType::List(_) if line == EMPTY_LIST => Ok(Json::Array(Vec::new())),
        PropertyType::List(inner) => {
            let items = tokens(line)
                .map(|t| to_json(inner, Value::from_line(t)))
                .collect::<Result<_, _>>()?;
            Ok(Json::Array(items))
        }
        _ => to_json(ty, Value::from_line(line)),
    }
}

/// Whether a value of `ty` is a token, one of several on a line (`Element::TOKEN`):
/// numbers, `bool`, `char`, strings, unit enums, references, and `Option`s of those.
fn is_token(ty: &PropertyType) -> bool {
    match ty {
        PropertyType::Option(inner) => is_token(inner),
        PropertyType::Bool
        | PropertyType::I8
        | PropertyType::I16
        | PropertyType::I32
        | PropertyType::I64
        | PropertyType::I128
        | PropertyType::Isize
        | PropertyType::U8
        | PropertyType::U16
        | PropertyType::U32
        | PropertyType::U64
        | PropertyType::U128
        | PropertyType::Usize
        | PropertyType::F32
        | PropertyType::F64
        | PropertyType::Char
        | PropertyType::String
        | PropertyType::Enum { .. }
        | PropertyType::Reference(_) => true,
        _ => false,
    }
}

/// An array (`n` tokens on one line, or `n` lines of other elements) as a JSON array.
///
/// # Errors
/// As the array codec reads an array: `ExpectedOneLine` for tokens on several lines,
/// `ComponentCount` for other than `n` elements, and the elements' own errors.
fn array_to_json<'a>(
    inner: &PropertyType,
    n: usize,
    value: Value<'a>,
) -> Result<Json, ValueError<'a>> {
    let (parts, found): (Vec<&str>, &str) = match is_token(inner) {
        true => {
            let line = value.single()?;
            (tokens(line).collect(), line)
        }
        false => (
            value.lines().collect(),
            value.lines().last().unwrap_or_default(),
        ),
    };
    if parts.len() != n {
        let count = ValueErrorKind::ComponentCount {
            expected: n,
            found: parts.len(),
        };
        return Err(ValueError::new(count, found));
    }
    let items = parts.into_iter().map(|p| element_to_json(inner, p));
    Ok(Json::Array(items.collect::<Result<_, _>>()?))
}

/// A property value as JSON, by its type: numbers, booleans, strings, arrays for
/// vectors, arrays, lists and sets, objects for maps and composites (each leaf by its
/// key), `null` for `None`; 128-bit
/// integers are their decimal text. `u64` values are numbers too (JSON numbers hold them exactly in
/// `serde_json`, though JavaScript readers round past 2^53). Non-finite floats (`inf`,
/// `nan`), which JSON cannot hold, are strings. A game-defined codec's value is its
/// text (a string; an array of strings when it spans several lines).
///
/// # Errors
/// The codec's [`ValueError`] when the text does not parse as the type.
pub(crate) fn to_json<'a>(ty: &PropertyType, value: Value<'a>) -> Result<Json, ValueError<'a>> {
    Ok(match ty {
        PropertyType::Option(inner) => match value.lines().collect::<Vec<_>>().as_slice() {
            [NONE] => Json::Null,
            _ => to_json(inner, value)?,
        },
        PropertyType::Record { leaves, .. } => {
            record_to_json(leaves, &value.lines().collect::<Vec<_>>())?
        }
        PropertyType::EnumWithData { variants, .. } => {
            variant_to_json(variants, &value.lines().collect::<Vec<_>>())?
        }
        PropertyType::Map(key, inner) => map_to_json(key, inner, value)?,
        PropertyType::Array(inner, n) => array_to_json(inner, *n, value)?,
        PropertyType::Set(inner) => set_to_json(inner, value)?,
        PropertyType::List(inner) => Json::Array(list_items(inner, value)?),
        PropertyType::Floats(n) => floats_to_json(*n, value)?,
        PropertyType::Custom(_) => {
            let lines: Vec<&str> = value.lines().collect();
            match lines.as_slice() {
                [one] => Json::String((*one).to_owned()),
                _ => Json::Array(lines.iter().map(|l| json!(l)).collect()),
            }
        }
        _ => scalar_to_json(ty, value)?,
    })
}

/// Whether `value` reads as `ty`, as [`to_json`] reads it.
///
/// # Errors
/// Those of [`to_json`].
pub(crate) fn check<'a>(ty: &PropertyType, value: Value<'a>) -> Result<(), ValueError<'a>> {
    to_json(ty, value).map(drop)
}

/// A value of one of the one-line types that are not containers (numbers, `bool`,
/// `char`, strings, references, unit enums) as JSON.
fn scalar_to_json<'a>(ty: &PropertyType, value: Value<'a>) -> Result<Json, ValueError<'a>> {
    Ok(match ty {
        PropertyType::Bool => Json::Bool(bool::decode(value)?),
        PropertyType::I8 => json!(i8::decode(value)?),
        PropertyType::I16 => json!(i16::decode(value)?),
        PropertyType::I32 => json!(i32::decode(value)?),
        PropertyType::I64 => json!(i64::decode(value)?),
        PropertyType::U8 => json!(u8::decode(value)?),
        PropertyType::U16 => json!(u16::decode(value)?),
        PropertyType::U32 => json!(u32::decode(value)?),
        PropertyType::U64 => json!(u64::decode(value)?),
        // The id as written in files, `0x` + 16 hex digits.
        PropertyType::Reference(_) => Json::String(EntityId::decode(value)?.to_string()),
        // JSON numbers hold 64 bits in serde_json: wider ones are their decimal text.
        PropertyType::I128 => Json::String(i128::decode(value)?.to_string()),
        PropertyType::U128 => Json::String(u128::decode(value)?.to_string()),
        PropertyType::Isize => json!(isize::decode(value)?),
        PropertyType::Usize => json!(usize::decode(value)?),
        PropertyType::Char => Json::String(char::decode(value)?.to_string()),
        PropertyType::F32 => float32(f32::decode(value)?),
        PropertyType::F64 => float64(f64::decode(value)?),
        PropertyType::String | PropertyType::Asset(_) => Json::String(String::decode(value)?),
        PropertyType::Enum { variants, .. } => {
            let line = value.single()?;
            Json::String(variants[decode_variant(line, variants)?].to_owned())
        }
        PropertyType::Option(_)
        | PropertyType::Record { .. }
        | PropertyType::EnumWithData { .. }
        | PropertyType::Map(..)
        | PropertyType::Array(..)
        | PropertyType::Set(_)
        | PropertyType::List(_)
        | PropertyType::Floats(_)
        | PropertyType::Custom(_) => to_json(ty, value)?,
    })
}

/// A map (of one-line values, or of records: `- key` then the record's lines) as a JSON
/// object keyed by the map's keys as text.
///
/// # Errors
/// As the map codecs read a map: `ExpectedEntry` for a line that is not `key: value`
/// with text on both sides, or a `- key` line without its key; a `Custom` error for a
/// `- key` line of more than one token; `DuplicateEntry` at a key written twice (as its
/// type reads it: `1` and `01` are one number); the keys' and values' own errors.
fn map_to_json<'a>(
    key: &PropertyType,
    inner: &PropertyType,
    value: Value<'a>,
) -> Result<Json, ValueError<'a>> {
    let mut entries = serde_json::Map::new();
    let mut insert = |k: &'a str, item: Json| -> Result<(), ValueError<'a>> {
        let text = match to_json(key, Value::from_line(k))? {
            Json::String(text) => text,
            other => other.to_string(),
        };
        match entries.insert(text, item) {
            Some(_) => Err(ValueError::new(ValueErrorKind::DuplicateEntry, k)),
            None => Ok(()),
        }
    };
    if value.lines().eq([EMPTY_MAP]) {
        return Ok(Json::Object(entries));
    }
    if let PropertyType::Record { .. } | PropertyType::EnumWithData { .. } = inner {
        for (k, lines) in record_groups(&value)? {
            if k.is_empty() {
                return Err(ValueError::new(ValueErrorKind::ExpectedEntry, k));
            }
            if tokens(k).nth(1).is_some() {
                let why = "an entry of a map of records starts with `- key`, the key alone \
                           (quoted when it has a blank, `,` or `:`)";
                return Err(ValueError::new(ValueErrorKind::Custom(why.into()), k));
            }
            insert(k, item_to_json(inner, &lines)?)?;
        }
        return Ok(Json::Object(entries));
    }
    for line in value.lines() {
        let (k, v) = split_entry(line)
            .filter(|(k, v)| !k.is_empty() && !v.is_empty())
            .ok_or(ValueError::new(ValueErrorKind::ExpectedEntry, line))?;
        insert(k, element_to_json(inner, v)?)?;
    }
    Ok(Json::Object(entries))
}

/// `n` floats on one line (spaces, tabs or commas between them) as a JSON array.
fn floats_to_json(n: usize, value: Value<'_>) -> Result<Json, ValueError<'_>> {
    let line = value.single()?;
    let parts: Vec<&str> = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    if parts.len() != n {
        return Err(ValueError::new(
            ValueErrorKind::ComponentCount {
                expected: n,
                found: parts.len(),
            },
            line,
        ));
    }
    let mut items = Vec::with_capacity(n);
    for part in parts {
        items.push(float32(f32::decode(Value::from_text(part))?));
    }
    Ok(Json::Array(items))
}

/// An `f32` as the JSON number with its shortest decimal form (`0.1`, not
/// `0.10000000149011612`); for non-finite values, which JSON has no number for, the
/// string the format writes (`"nan"`, `"inf"`, `"-inf"`).
pub(crate) fn float32(x: f32) -> Json {
    if x.is_finite() {
        // The shortest text that reads back as the same f32 also names the nearest f64.
        let shortest: f64 = x.to_string().parse().unwrap_or(f64::from(x));
        json!(shortest)
    } else {
        json!(format_text(&x))
    }
}

/// An `f64` as a JSON number; for non-finite values the string the format writes.
pub(crate) fn float64(x: f64) -> Json {
    if x.is_finite() {
        json!(x)
    } else {
        json!(format_text(&x))
    }
}

/// `x` as the format writes it (its codec's text).
fn format_text<T: Codec>(x: &T) -> String {
    let mut text = String::new();
    x.encode(&mut text);
    text
}

/// The properties of a `.jasset` text: key as written, key CRC and value lines, in file
/// order.
pub(crate) type Properties = Vec<(String, u32, Vec<String>)>;

/// Tokenizes `text` (labelled `path`) into its properties.
///
/// # Errors
/// The tokenizer's error.
pub(crate) fn properties(text: &[u8], path: &Path) -> Result<Properties, Error> {
    properties_where(text, path, |_, _| true)
}

/// [`properties`], keeping only those whose key (as written) and key CRC `keep` accepts,
/// for a text that loads: a file of a million keys costs a copy of the few wanted.
///
/// A large text is tokenized piece by piece ([`pieces`]) in one buffer, so the
/// tokenizer's arrays take what a piece of [`PIECE_LINES`](juliet_entities::load::PIECE_LINES) lines needs, not 40 bytes a
/// property of the whole file (the callers read the file while its world is loaded). A
/// key repeated in two pieces is therefore not reported: the texts read here loaded,
/// and the loader rejects such a file.
///
/// # Errors
/// The tokenizer's error, as [`properties`] reports it (located in the whole text).
pub(crate) fn properties_where(
    text: &[u8],
    path: &Path,
    keep: impl Fn(&str, u32) -> bool,
) -> Result<Properties, Error> {
    let mut buffer = TokenBuffer::new();
    let mut out = Vec::new();
    for piece in pieces(text) {
        let Ok(doc) = buffer.tokenize(piece, path) else {
            // The error of the whole text, located in it (a piece's line numbers are its
            // own).
            return properties_of(&mut TokenBuffer::new(), text, path, keep);
        };
        out.extend(kept(&doc, &keep));
    }
    Ok(out)
}

/// The properties of `text` that `keep` accepts, tokenized whole in `buffer`.
fn properties_of(
    buffer: &mut TokenBuffer,
    text: &[u8],
    path: &Path,
    keep: impl Fn(&str, u32) -> bool,
) -> Result<Properties, Error> {
    let doc = buffer.tokenize(text, path)?;
    Ok(kept(&doc, &keep).collect())
}

/// The properties of `doc` that `keep` accepts, copied.
fn kept<'d>(
    doc: &'d juliet_core::Document<'_>,
    keep: &'d impl Fn(&str, u32) -> bool,
) -> impl Iterator<Item = (String, u32, Vec<String>)> + 'd {
    (0..doc.len())
        .filter(|&i| keep(doc.key(i), doc.node(i).key_crc))
        .map(|i| {
            (
                doc.key(i).to_owned(),
                doc.node(i).key_crc,
                doc.value(i).lines().map(str::to_owned).collect(),
            )
        })
}

/// The value lines of `key` (or one of `aliases`) in `props`.
pub(crate) fn find<'p>(props: &'p Properties, key: &str, aliases: &[&str]) -> Option<&'p [String]> {
    std::iter::once(key)
        .chain(aliases.iter().copied())
        .find_map(|k| {
            let crc = key_crc_runtime(k.as_bytes());
            props
                .iter()
                .find(|p| p.1 == crc && juliet_core::keys_equal(&p.0, k))
        })
        .map(|p| p.2.as_slice())
}

/// The header keys of an entity file as written (absent keys are `None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Header {
    /// `BaseVersion` (alias `version`).
    pub base_version: Option<u32>,
    /// `ClassVersion`.
    pub class_version: Option<u32>,
    /// `Template`, decoded.
    pub template: Option<String>,
    /// `Kind` (aliases `class`, `entity_type`).
    pub kind: Option<String>,
}

/// Reads the header keys of the entity file text `props`. Values that do not parse are
/// `None` (the loader reports them).
pub(crate) fn header(props: &Properties) -> Header {
    let one = |key: &str, aliases: &[&str]| {
        find(props, key, aliases).and_then(|lines| match lines {
            [line] => Some(line.clone()),
            _ => None,
        })
    };
    let number = |text: Option<String>| text.and_then(|t| u32::decode(Value::from_text(&t)).ok());
    let text = |text: Option<String>| text.and_then(|t| String::decode(Value::from_text(&t)).ok());
    Header {
        base_version: number(one(keys::BASE_VERSION.name, &["version"])),
        class_version: number(one(juliet_core::CLASS_VERSION.name, &[])),
        template: text(one(keys::TEMPLATE.name, &[])),
        kind: text(one(keys::KIND.name, &["class", "entity_type"])),
    }
}

/// One link of a template chain: the template path as written and the file it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ChainLink {
    /// The `Template` value (project-relative).
    pub template: String,
    /// The file (`root` joined with it).
    pub file: PathBuf,
    /// Its properties.
    pub properties: Properties,
}

/// The template chain that starts at the `Template` value `first`, nearest first: the
/// template, its own template, and so on. `from` labels errors (the file naming `first`).
/// Each path is normalized as the runtime does ([`normalize_template_path`]: no absolute
/// path, none out of the root), and each template read as every project file is
/// ([`read_project_file`]: a regular file of at most 16 MiB, a FIFO never waited on), so
/// that the text of an unsaved buffer cannot make the chain read anything else.
///
/// # Errors
/// [`ErrorKind::Template`] for a path the runtime refuses, a template that cannot be
/// read or parsed, or a cycle (naming the chain).
pub(crate) fn template_chain(
    root: &Path,
    from: &Path,
    first: &str,
) -> Result<Vec<ChainLink>, Error> {
    let mut chain: Vec<ChainLink> = Vec::new();
    let mut next = Some(first.to_owned());
    let mut referrer = from.to_path_buf();
    while let Some(template) = next.take() {
        let normalized = normalize_template_path(&template).map_err(|e| e.with_path(&referrer))?;
        if chain
            .iter()
            .any(|l| normalize_template_path(&l.template).is_ok_and(|t| t == normalized))
        {
            let mut names: Vec<&str> = chain.iter().map(|l| l.template.as_str()).collect();
            names.push(&template);
            return Err(Error::file(
                &referrer,
                ErrorKind::Template {
                    path: template.clone(),
                    reason: format!("template cycle: {}", names.join(" -> ")),
                },
            ));
        }
        let file = root.join(&normalized);
        let bytes = read_project_file(&file, Some(root), DEFAULT_MAX_FILE_SIZE).map_err(|e| {
            Error::file(
                &referrer,
                ErrorKind::Template {
                    path: template.clone(),
                    reason: format!("cannot read {}: {}", file.display(), e.kind),
                },
            )
        })?;
        let props = properties(&bytes, &file)?;
        next = header(&props).template;
        referrer = file.clone();
        chain.push(ChainLink {
            template,
            file,
            properties: props,
        });
    }
    Ok(chain)
}

#[cfg(test)]
#[path = "values_tests.rs"]
mod tests;
