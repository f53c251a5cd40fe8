//! The properties of one `.jasset` file as `jasset diff` and `jasset merge` compare them
//! (docs/design.md, section 8.1): each property with its key as written, the key it
//! stands for (aliases and other spellings folded onto the canonical key), its value as
//! the class's codec reads it, its value lines as written and where its lines are.
//!
//! A file whose entity loads (its `Kind` is registered, its template chain resolves)
//! has its values compared in the canonical text of the codecs, so `0.50` and `0.5`
//! are one value. A file that does not load (a kind this tool does not know, a missing
//! template, a bad value) still tokenizes: its values are then compared as written,
//! except, when its `Kind` is registered, those of the base keys and of the kind's
//! properties that the codec reads on their own (each set on a default entity and
//! written back).
//!
//! An [`Asset`] keeps the file's text once and each property as byte ranges of it (28
//! bytes a property), with a canonical spelling and value only for the keys the class
//! knows: a file of a million unknown keys costs about four times its size
//! (docs/reliability.md, section 6).

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use juliet_core::{normalize_key, Error, LineForm, TokenBuffer, CLASS_VERSION};

use juliet_entities::load::{
    keys, load_entity_with_templates, save_entity, EntityFileData, LoadedEntity,
};
use juliet_entities::manager::EntityManager;
use juliet_entities::template::TemplateCache;

use super::project::single_text;
use super::CliError;

/// Marks [`Prop`]'s `known` of a key the class does not know.
const UNKNOWN: u32 = u32::MAX;

/// One property of a file: byte ranges of its [`Asset`]'s text, read through the
/// asset ([`Asset::key`], [`Asset::name`], [`Asset::raw`], [`Asset::value_lines`],
/// [`Asset::span`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Prop {
    /// The key: its start and length in the text.
    key: (u32, u32),
    /// One value line: its start and length in the text; several (`several`): the start
    /// of the first and the length up to the end of the last, the value lines being the
    /// lines between that are not blank or comments ([`region_lines`]: no list of them
    /// is kept, a value may have millions).
    value: (u32, u32),
    /// The index in the asset's known keys, or [`UNKNOWN`].
    known: u32,
    /// How the property is written.
    pub form: LineForm,
    /// Whether the property has more than one value line.
    several: bool,
    /// Whether the entity's load kept it as an unknown key (a deprecated key a
    /// migration consumed is neither known nor kept).
    kept: bool,
}

// The figure docs/reliability.md gives for a property.
static_assertions::const_assert!(std::mem::size_of::<Prop>() <= 24);

impl Prop {
    /// Byte offset of the key in its asset's [`Asset::text`] (on the property's first
    /// line).
    pub(crate) fn key_start(&self) -> usize {
        self.key.0 as usize
    }

    /// Whether the entity's load kept it as an unknown key ([`Asset::kept`]).
    pub(crate) fn kept(&self) -> bool {
        self.kept
    }
}

/// A key the class knows: its canonical spelling and its value as the codec writes it.
#[derive(Debug, Clone)]
struct Known {
    /// The canonical key (`EntityID` for `id`).
    name: &'static str,
    /// The value lines as the codec writes them; `None`: as written.
    value: Option<Vec<String>>,
}

/// One file, read for comparing.
#[derive(Debug, Clone)]
pub(crate) struct Asset {
    /// The file's path (labels messages).
    pub path: PathBuf,
    /// Whether the file starts with a UTF-8 byte-order mark.
    pub bom: bool,
    /// The properties, in file order.
    pub props: Vec<Prop>,
    /// The load error when the entity did not load (values are then compared as
    /// written).
    pub load_error: Option<Error>,
    /// The whole file (byte-order mark included); [`Asset::text`] is what follows it.
    file: String,
    /// The keys the class knows, as [`Prop`]'s `known` indexes them.
    known: Vec<Known>,
    /// The effective value of each property the class writes (template chain and
    /// defaults applied) as `(canonical key, value lines)`, in the writer's order; `None`
    /// when the entity did not load. The file's kept unknown keys follow them (see
    /// [`Asset::resolved`]).
    resolved: Option<TextProperties>,
    /// The indices of [`Asset::props`] in [`key_order`] of their [`Asset::name`], for
    /// [`Asset::get`]: a file of a million keys is not searched through for each key.
    order: Vec<u32>,
}

impl Asset {
    /// The text after the byte-order mark: what the byte ranges of [`Prop`] index.
    pub(crate) fn text(&self) -> &str {
        &self.file[if self.bom { 3 } else { 0 }..]
    }

    /// The text of the byte range `(start, length)`.
    fn slice(&self, (start, len): (u32, u32)) -> &str {
        &self.text()[start as usize..(start + len) as usize]
    }

    /// The key of `p` as written.
    pub(crate) fn key(&self, p: &Prop) -> &str {
        self.slice(p.key)
    }

    /// The canonical spelling of the key of `p` (`EntityID` for `id`), or the key as
    /// written for a key the class does not know.
    pub(crate) fn name(&self, p: &Prop) -> &str {
        match self.known.get(p.known as usize) {
            Some(k) => k.name,
            None => self.key(p),
        }
    }

    /// The value lines of `p` as written (trimmed, as the tokenizer reads them; one or
    /// more).
    pub(crate) fn raw(&self, p: &Prop) -> Vec<&str> {
        raw_lines(self.text(), p)
    }

    /// The number of value lines of `p`.
    pub(crate) fn raw_len(&self, p: &Prop) -> usize {
        if p.several {
            region_lines(slice(self.text(), p.value)).count()
        } else {
            1
        }
    }

    /// The value lines of `p` as the codec writes them (as written for a key the class
    /// does not know, or when the file does not load), one at a time: no list of them
    /// (a value may have millions of lines).
    pub(crate) fn value_lines<'s>(&'s self, p: &Prop) -> impl Iterator<Item = &'s str> + 's {
        let codec = (self.known.get(p.known as usize)).and_then(|k| k.value.as_ref());
        let text = slice(self.text(), p.value);
        let several = (codec.is_none() && p.several).then(|| region_lines(text));
        let one = (codec.is_none() && !p.several).then_some(text);
        (codec.into_iter().flatten().map(String::as_str))
            .chain(several.into_iter().flatten())
            .chain(one)
    }

    /// Byte range of the value text of `p` in [`Asset::text`]: its first value line's
    /// start to its last value line's end (line ending excluded).
    pub(crate) fn values(&self, p: &Prop) -> (usize, usize) {
        (p.value.0 as usize, (p.value.0 + p.value.1) as usize)
    }

    /// Byte range of each value line of `p` in [`Asset::text`] (line endings excluded),
    /// in file order.
    pub(crate) fn value_ranges(&self, p: &Prop) -> Vec<Range<usize>> {
        let (start, len) = (p.value.0 as usize, p.value.1 as usize);
        if p.several {
            juliet_core::value_line_spans(slice(self.text(), p.value))
                .map(|r| start + r.start..start + r.end)
                .collect()
        } else {
            std::iter::once(start..start + len).collect()
        }
    }

    /// Byte range of the whole of `p` in [`Asset::text`]: from its header line's start
    /// through its last value line's line ending.
    pub(crate) fn span(&self, p: &Prop) -> (usize, usize) {
        let text = self.text();
        let key = p.key.0 as usize;
        let end = self.values(p).1;
        let start = text[..key].rfind('\n').map_or(0, |i| i + 1);
        let end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
        (start, end)
    }

    /// The first property whose [`Asset::name`] is `name` as keys compare (ASCII case
    /// and `_` ignored), if the file has it.
    pub(crate) fn get(&self, name: &str) -> Option<&Prop> {
        let at = find_key(
            &self.order,
            self.props.len(),
            |i| self.name(&self.props[i]),
            name,
        )?;
        self.props.get(at)
    }

    /// The index in [`Asset::props`] of `prop`, one of them (found by its key's
    /// position: the properties are in file order).
    pub(crate) fn index_of(&self, prop: &Prop) -> Option<usize> {
        let at = (self.props)
            .binary_search_by_key(&prop.key_start(), Prop::key_start)
            .ok()?;
        std::ptr::eq(&self.props[at], prop).then_some(at)
    }

    /// The line ending of lines added to the file: the one most of its lines end with
    /// (`\r\n` when more than half of them do, else `\n`).
    pub(crate) fn eol(&self) -> &'static str {
        juliet_entities::patch::line_ending(self.file.as_bytes())
    }

    /// Whether the entity loaded, so that its effective values are known: every
    /// property's value with the template chain and the defaults applied is
    /// [`Asset::written`] followed by the file's [`Asset::kept`] unknown keys as written.
    pub(crate) fn resolved(&self) -> bool {
        self.resolved.is_some()
    }

    /// The effective value of each property the class writes, `(canonical key, value
    /// lines)` in the writer's order; empty when the entity did not load.
    pub(crate) fn written(&self) -> &[(String, Vec<String>)] {
        self.resolved.as_deref().unwrap_or_default()
    }

    /// The indices in [`Asset::props`] of the unknown keys the entity's load kept, in
    /// file order (4 bytes a key).
    pub(crate) fn kept(&self) -> Vec<u32> {
        (self.props.iter().enumerate())
            .filter(|(_, p)| p.kept)
            .map(|(i, _)| i as u32)
            .collect()
    }
}

/// The properties of a text, as byte ranges of it.
struct Scan {
    /// The properties, in file order (`known` unset, `kept` false).
    props: Vec<Prop>,
}

/// The properties of `text` (a file's text after its byte-order mark), tokenized piece by
/// piece ([`juliet_entities::load::pieces`]) so that a file of a million keys takes the
/// tokenizer's arrays of a piece.
///
/// # Errors
/// The tokenizer's error of the whole `file` (`text` with its byte-order mark), located
/// at `path:line:column`: a line that is not a property, a duplicate key, a conflict
/// marker; [`juliet_core::ErrorKind::FileTooLarge`] for a text of 4 GiB or more.
fn scan(file: &[u8], text: &str, path: &Path) -> Result<Scan, Error> {
    if u32::try_from(file.len()).is_err() {
        let kind = juliet_core::ErrorKind::FileTooLarge {
            size: file.len() as u64,
            limit: u64::from(u32::MAX),
        };
        return Err(Error::new(path, 0, 0, kind));
    }
    let mut buffer = TokenBuffer::new();
    let mut out = Scan { props: Vec::new() };
    debug_assert!(file.ends_with(text.as_bytes()), "text is the end of file");
    let bom = file.len() - text.len();
    // Where the piece starts in `text`.
    let mut piece_start = 0;
    for piece in juliet_entities::load::pieces(text.as_bytes()) {
        // The first piece with the file's byte-order mark, which the tokenizer skips at
        // the start of what it is given: a second one is then the file's text, as it is
        // when the whole file is tokenized.
        let given = if piece_start == 0 {
            &file[..bom + piece.len()]
        } else {
            piece
        };
        let Ok(doc) = buffer.tokenize(given, path) else {
            // The error located in the whole file (a piece's lines are its own).
            return Err(whole_error(file, path)
                .unwrap_or_else(|| Error::new(path, 0, 0, juliet_core::ErrorKind::InvalidUtf8)));
        };
        // Where the document's source starts in `text`.
        let offset = piece_start + doc.source_offset() - (given.len() - piece.len());
        piece_start += piece.len();
        // A span of the document as `(start, length)` in `text`.
        let at = |r: Range<usize>| ((offset + r.start) as u32, r.len() as u32);
        out.props.reserve(doc.len());
        for i in 0..doc.len() {
            let node = doc.node(i);
            let key = at(doc.key_span(i));
            let mut values = doc.value_spans(i).map(at);
            let first = values.next().unwrap_or((key.0 + key.1, 0));
            let (value, several) = match values.next() {
                None => (first, false),
                Some(second) => {
                    let last = values.last().unwrap_or(second);
                    ((first.0, last.0 + last.1 - first.0), true)
                }
            };
            out.props.push(Prop {
                key,
                value,
                known: UNKNOWN,
                form: node.form,
                several,
                kept: false,
            });
        }
    }
    // A key in two pieces, which no piece's own duplicate check sees.
    let order = key_order(out.props.len(), |i| slice(text, out.props[i].key));
    let key = |i: u32| slice(text, out.props[i as usize].key);
    if order
        .windows(2)
        .any(|w| compare_keys(key(w[0]), key(w[1])).is_eq())
    {
        if let Some(e) = whole_error(file, path) {
            return Err(e);
        }
    }
    Ok(out)
}

/// The value lines of `p`, a property of `text`.
fn raw_lines<'t>(text: &'t str, p: &Prop) -> Vec<&'t str> {
    if p.several {
        region_lines(slice(text, p.value)).collect()
    } else {
        vec![slice(text, p.value)]
    }
}

/// The value lines in `region` (from a property's first value line to its last), as the
/// tokenizer reads them ([`juliet_core::value_line_spans`]).
fn region_lines(region: &str) -> impl Iterator<Item = &str> {
    juliet_core::value_line_spans(region).map(|r| &region[r])
}

/// The text of the byte range `(start, length)` of `text`.
fn slice(text: &str, (start, len): (u32, u32)) -> &str {
    &text[start as usize..(start + len) as usize]
}

/// The tokenizer's error of the whole of `file`, if it has one.
fn whole_error(file: &[u8], path: &Path) -> Option<Error> {
    TokenBuffer::new().tokenize(file, path).err()
}

/// Reads `bytes` (the file at `path`) for comparing; templates resolve against `root`
/// (the file's folder when `None`). An empty file is an asset with no property. The
/// asset keeps `bytes` as its text.
///
/// The kinds known are the binary's and those of `<root>/jasset.schema` (see
/// `schema_kinds`), so a game's files compare by their values with the stock tool.
///
/// # Errors
/// A usage error with the tokenizer's error (bad UTF-8, a line that is not a property, a
/// duplicate key, a merge conflict marker), located at `path:line:column`; the schema's
/// error when `<root>/jasset.schema` does not read. A file that tokenizes but
/// whose entity does not load is no error (see [`Asset::load_error`]).
pub(crate) fn read_asset(
    bytes: Vec<u8>,
    path: &Path,
    root: Option<&Path>,
) -> Result<Asset, CliError> {
    // The stock kinds, the binary's own, and the kinds of `<root>/jasset.schema`.
    let registry = super::schema_kinds::registry_for(root)?;
    let usage = |e: Error| CliError::usage(e.to_string());
    let mut manager = EntityManager::with_registry(registry);
    let project = root
        .map(Path::to_path_buf)
        .or_else(|| path.parent().map(Path::to_path_buf))
        .unwrap_or_default();
    let mut templates = TemplateCache::new(project);
    // The load first, its tokenizer's arrays dropped before the properties are scanned.
    let loaded = {
        let mut buffer = TokenBuffer::new();
        load_entity_with_templates(&mut buffer, &mut manager, &mut templates, path, &bytes)
    };
    let bom = bytes.starts_with(b"\xEF\xBB\xBF");
    let file = match String::from_utf8(bytes) {
        Ok(file) => file,
        Err(e) => {
            return Err(usage(whole_error(e.as_bytes(), path).unwrap_or_else(
                || Error::new(path, 0, 0, juliet_core::ErrorKind::InvalidUtf8),
            )))
        }
    };
    let text = &file[if bom { 3 } else { 0 }..];
    let Scan { mut props } = scan(file.as_bytes(), text, path).map_err(usage)?;
    let has_id = props.iter().any(|p| {
        let key = slice(text, p.key);
        let crc = juliet_core::key_crc_runtime(key.as_bytes());
        juliet_entities::load::base_key(crc, key) == Some(keys::ENTITY_ID.name)
    });

    let (class, canonical, resolved, load_error) = match loaded {
        Ok(loaded) => {
            let class = manager.entity(loaded.id).map(|e| e.class());
            let texts = loaded_texts(&mut manager, &templates, &loaded, &mut props, text, has_id);
            match texts {
                Ok((canonical, resolved)) => (class, canonical, Some(resolved), None),
                Err(e) => (class, HashMap::new(), None, Some(e)),
            }
        }
        Err(e) => {
            // The values of the base keys and the class's properties one by one, so that
            // they still compare canonically with the other versions' (a bad value stays
            // as written).
            let class = kind_class(registry, &props, text);
            let canonical = class.map_or_else(HashMap::new, |class| {
                one_by_one(registry, class, &props, text)
            });
            (class, canonical, None, Some(e))
        }
    };
    drop((manager, templates));

    let known = known_keys(&mut props, text, class, &canonical);
    let mut asset = Asset {
        path: path.to_path_buf(),
        bom,
        props,
        load_error,
        file,
        known,
        resolved,
        order: Vec::new(),
    };
    asset.order = key_order(asset.props.len(), |i| asset.name(&asset.props[i]));
    Ok(asset)
}

/// The keys of `props` (of `text`) that `class` knows, each prop's `known` set to its
/// index there, with the value lines `canonical` gives them.
fn known_keys(
    props: &mut [Prop],
    text: &str,
    class: Option<&'static juliet_core::Class>,
    canonical: &HashMap<String, Vec<String>>,
) -> Vec<Known> {
    let mut known = Vec::new();
    for p in props {
        let key = slice(text, p.key);
        let crc = juliet_core::key_crc_runtime(key.as_bytes());
        if let Some(name) = canonical_name(crc, key, class) {
            p.known = known.len() as u32;
            // `ClassVersion` as written: the loaded entity is migrated to the build's
            // version, the file is not.
            let value = if name == CLASS_VERSION.name {
                None
            } else {
                canonical.get(&normalize_key(name)).cloned()
            };
            known.push(Known { name, value });
        }
    }
    known
}

/// Properties as text: each key with its value lines, in file order.
type TextProperties = Vec<(String, Vec<String>)>;

/// The texts of the entity `loaded` from the file `text` (whose properties are `props`;
/// `has_id`: whether it holds `EntityID`): the canonical value of each property the file
/// sets, by normalized key, and every property resolved (written in full). Marks each
/// unknown key the load kept as `kept` in `props`.
///
/// # Errors
/// When the entity cannot be written.
fn loaded_texts(
    manager: &mut EntityManager,
    templates: &TemplateCache,
    loaded: &LoadedEntity,
    props: &mut [Prop],
    text: &str,
    has_id: bool,
) -> Result<(HashMap<String, Vec<String>>, TextProperties), Error> {
    // The texts are made without the unknown keys, whose canonical value is their lines
    // as written (a file may hold a million of them).
    let known = EntityFileData {
        template: loaded.data.template.clone(),
        ..EntityFileData::default()
    };
    let sparse = single_text(manager, templates, loaded.id, &known, !has_id);
    let mut full = String::new();
    let full = save_entity(manager, loaded.id, &known, &mut full).map(|()| full);
    // The kept unknown keys, in file order as the properties are.
    let mut next = props.iter_mut();
    for unknown in loaded.data.unknown.iter() {
        if let Some(p) = next.find(|p| slice(text, p.key) == unknown.key()) {
            p.kept = true;
        }
    }
    let (sparse, full) = (sparse?, full?);
    let mut resolved = text_properties(&full);
    if !has_id {
        resolved.retain(|(k, _)| k != keys::ENTITY_ID.name);
    }
    let canonical = text_properties(&sparse)
        .into_iter()
        .map(|(k, v)| (normalize_key(&k), v))
        .collect();
    Ok((canonical, resolved))
}

/// `file` (a text without byte-order mark) tokenized only, no entity loaded: every
/// [`Asset::name`] is the key as written and every [`Asset::value_lines`] the lines as
/// written.
///
/// # Errors
/// As [`scan`].
pub(crate) fn read_text(file: String, path: &Path) -> Result<Asset, Error> {
    let Scan { props } = scan(file.as_bytes(), &file, path)?;
    let mut asset = Asset {
        path: path.to_path_buf(),
        bom: false,
        props,
        load_error: None,
        file,
        known: Vec::new(),
        resolved: None,
        order: Vec::new(),
    };
    asset.order = key_order(asset.props.len(), |i| asset.name(&asset.props[i]));
    Ok(asset)
}

/// The registered class the `Kind` property of `props` (of `text`) names, if any.
fn kind_class(
    registry: &'static juliet_core::Registry,
    props: &[Prop],
    text: &str,
) -> Option<&'static juliet_core::Class> {
    let kind = props.iter().find(|p| {
        let key = slice(text, p.key);
        let crc = juliet_core::key_crc_runtime(key.as_bytes());
        juliet_entities::load::base_key(crc, key) == Some(keys::KIND.name)
    })?;
    if kind.several {
        return None;
    }
    let value = juliet_core::Value::from_text(slice(text, kind.value));
    let name = <String as juliet_core::Codec>::decode(value).ok()?;
    registry.find_by_name(&name)
}

/// The canonical value lines of each property of `class` in `props` (of `text`, value
/// lines `lines`) whose value the class's codec reads on its own, by normalized key:
/// each set on a default entity of `class` and written back.
fn one_by_one(
    registry: &'static juliet_core::Registry,
    class: &'static juliet_core::Class,
    props: &[Prop],
    text: &str,
) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    let mut scratch = EntityManager::with_registry(registry);
    let file = format!("; EntityID\n0x0000000000000001\n; Kind\n{}\n", class.name());
    let Ok(loaded) =
        juliet_entities::load::load_entity(&mut scratch, Path::new(""), file.as_bytes())
    else {
        return out;
    };
    for p in props {
        let key = slice(text, p.key);
        let crc = juliet_core::key_crc_runtime(key.as_bytes());
        let value = raw_lines(text, p).join("\n");
        let (name, canonical) = if let Some(base) = juliet_entities::load::base_key(crc, key) {
            (base, base_value(base, class, &value))
        } else if let Some(i) = class.property_index(crc, key) {
            let name = class.properties()[i].key;
            let set = scratch.set_property(loaded.id, name, &value);
            (
                name,
                set.and_then(|()| scratch.property_text(loaded.id, name))
                    .ok(),
            )
        } else {
            continue;
        };
        if let Some(canonical) = canonical {
            let lines = canonical.lines().map(str::to_owned).collect();
            out.insert(normalize_key(name), lines);
        }
    }
    out
}

/// The canonical text of `value`, the value of the base key `base` in a file of
/// `class` (its `Kind` names `class`), when it reads on its own.
fn base_value(base: &str, class: &'static juliet_core::Class, value: &str) -> Option<String> {
    use juliet_core::{Codec, Value};
    fn recode<T: Codec>(value: &str) -> Option<String> {
        let decoded = T::decode(Value::from_text(value)).ok()?;
        let mut out = String::new();
        decoded.encode(&mut out);
        Some(out)
    }
    match base {
        _ if base == keys::ENTITY_ID.name => recode::<juliet_entities::entity::EntityId>(value),
        _ if base == keys::KIND.name => recode::<String>(class.name()),
        _ if base == keys::POSITION.name => recode::<glam::Vec3>(value),
        _ if base == keys::TEMPLATE.name => recode::<String>(value),
        _ => None,
    }
}

/// `a` against `b` as keys compare (ASCII case and `_` ignored, as
/// [`juliet_core::keys_equal`]), without allocating.
pub(crate) fn compare_keys(a: &str, b: &str) -> std::cmp::Ordering {
    let fold = |c: u8| c.to_ascii_lowercase();
    (a.bytes().filter(|&c| c != b'_').map(fold)).cmp(b.bytes().filter(|&c| c != b'_').map(fold))
}

/// The indices `0..len` sorted by their `key` as keys compare, and by index among those
/// of one key (4 bytes an item), for [`find_key`].
pub(crate) fn key_order<'k>(len: usize, key: impl Fn(usize) -> &'k str) -> Vec<u32> {
    let mut order: Vec<u32> = (0..len as u32).collect();
    order.sort_unstable_by(|&a, &b| compare_keys(key(a as usize), key(b as usize)).then(a.cmp(&b)));
    order
}

/// The first index whose `key` is `wanted` as keys compare, with `order` the
/// [`key_order`] of `0..len`.
pub(crate) fn find_key<'k>(
    order: &[u32],
    len: usize,
    key: impl Fn(usize) -> &'k str,
    wanted: &str,
) -> Option<usize> {
    debug_assert_eq!(order.len(), len);
    let at = order.partition_point(|&i| compare_keys(key(i as usize), wanted).is_lt());
    let i = *order.get(at)? as usize;
    compare_keys(key(i), wanted).is_eq().then_some(i)
}

/// The canonical key that `key` (CRC `crc`) spells: a base key (aliases included),
/// `ClassVersion`, or a property (or alias) of `class`.
fn canonical_name(
    crc: u32,
    key: &str,
    class: Option<&'static juliet_core::Class>,
) -> Option<&'static str> {
    if let Some(name) = juliet_entities::load::base_key(crc, key) {
        return Some(name);
    }
    if CLASS_VERSION.matches(crc, key) {
        return Some(CLASS_VERSION.name);
    }
    let class = class?;
    class
        .property_index(crc, key)
        .map(|i| class.properties()[i].key)
}

/// The properties of a canonical text the writer made: `(key, value lines)`.
fn text_properties(text: &str) -> TextProperties {
    let mut buffer = TokenBuffer::new();
    match buffer.tokenize(text.as_bytes(), Path::new("")) {
        Ok(doc) => (0..doc.len())
            .map(|i| {
                let lines = doc.value(i).lines().map(str::to_owned).collect();
                (doc.key(i).to_owned(), lines)
            })
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// Writes `lines` as [`show`] makes them one line, one line at a time.
///
/// # Errors
/// The first error of `out`.
pub(crate) fn write_shown<'l>(
    out: &mut dyn std::io::Write,
    mut lines: impl Iterator<Item = &'l str>,
) -> std::io::Result<()> {
    let Some(first) = lines.next() else {
        return out.write_all(b"[]");
    };
    let Some(second) = lines.next() else {
        return out.write_all(first.as_bytes());
    };
    write!(out, "[{first}, {second}")?;
    for line in lines {
        write!(out, ", {line}")?;
    }
    out.write_all(b"]")
}

/// `lines` as one line for messages: the line itself, or `[a, b, c]` for several.
pub(crate) fn show<S: AsRef<str>>(lines: &[S]) -> String {
    match lines {
        [one] => one.as_ref().to_owned(),
        _ => {
            let lines: Vec<&str> = lines.iter().map(AsRef::as_ref).collect();
            format!("[{}]", lines.join(", "))
        }
    }
}

#[cfg(test)]
#[path = "props_tests.rs"]
mod tests;
