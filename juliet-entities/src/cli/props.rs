//! The properties of one `.jasset` file as `jasset diff` and `jasset merge` compare them
//! (docs/design.md, section 8.1): each property with its key as written, the key it
//! stands for (aliases and other spellings folded onto the canonical key), its value as
//! the class's codec reads it, its value lines as written and where its lines are.
//!
//! A file whose entity loads (its `Kind` is registered, its template chain resolves)
//! has its values compared in the canonical text of the codecs, so `0.50` and `0.5`
//! are one value. A file that does not load (a kind this tool does not know, a missing
//! template, a bad value) still tokenizes: its values are then compared as written.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use juliet_core::{normalize_key, Error, LineForm, TokenBuffer, CLASS_VERSION};

use crate::load::{keys, load_entity_with_templates, save_entity, EntityFileData};
use crate::manager::EntityManager;
use crate::template::TemplateCache;

use super::project::single_text;
use super::CliError;

/// One property of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prop {
    /// The key as written.
    pub key: String,
    /// The canonical spelling of the key (`EntityID` for `id`), or the key as written
    /// for a key the class does not know.
    pub name: String,
    /// What the key is compared by: the normalized canonical key (see
    /// [`juliet_core::normalize_key`]).
    pub id: String,
    /// The value lines as the codec writes them (as written when the file does not load).
    pub value: Vec<String>,
    /// The value lines as written (trimmed, as the tokenizer reads them).
    pub raw: Vec<String>,
    /// 1-based line of the key.
    pub line: u32,
    /// Byte range of the whole property in [`Asset::text`]: from its header line's start
    /// through its last value line's line ending.
    pub span: (usize, usize),
    /// Byte range of the value text: the first value line's start to the last value
    /// line's end (line ending excluded).
    pub values: (usize, usize),
    /// How the property is written.
    pub form: LineForm,
}

/// One file, read for comparing.
#[derive(Debug, Clone)]
pub struct Asset {
    /// The file's path (labels messages).
    pub path: PathBuf,
    /// The project root its templates resolve against.
    pub root: Option<PathBuf>,
    /// Whether the file starts with a UTF-8 byte-order mark.
    pub bom: bool,
    /// The text after the byte-order mark.
    pub text: String,
    /// The properties, in file order.
    pub props: Vec<Prop>,
    /// The load error when the entity did not load (values are then compared as
    /// written).
    pub load_error: Option<Error>,
    /// Every property's effective value (template chain and defaults applied) as
    /// `(canonical key, value lines)`, in the writer's order; `None` when the entity did
    /// not load.
    pub resolved: Option<Vec<(String, Vec<String>)>>,
    /// The indices of [`Asset::props`] in [`key_order`], for [`Asset::get`]: a file of a
    /// million keys is not searched through for each of its keys.
    order: Vec<u32>,
}

impl Asset {
    /// The first property whose key is `id` (normalized), if the file has it.
    pub fn get(&self, id: &str) -> Option<&Prop> {
        let at = find_key(&self.order, &self.props, |p| &p.id, id)?;
        self.props.get(at)
    }

    /// The index in [`Asset::props`] of `prop`, one of them.
    pub fn index_of(&self, prop: &Prop) -> Option<usize> {
        let size = std::mem::size_of::<Prop>().max(1);
        let offset = (prop as *const Prop as usize).checked_sub(self.props.as_ptr() as usize)?;
        let at = offset / size;
        self.props
            .get(at)
            .filter(|p| std::ptr::eq(*p, prop))
            .map(|_| at)
    }

    /// The line ending the file uses (`\r\n` when it has any, else `\n`).
    pub fn eol(&self) -> &'static str {
        if self.text.contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        }
    }
}

/// Reads `bytes` (the file at `path`) for comparing; templates resolve against `root`
/// (the file's folder when `None`). An empty file is an asset with no property.
///
/// The kinds known are the binary's and those of `<root>/jasset.schema` (see
/// `schema_kinds`), so a game's files compare by their values with the stock tool.
///
/// # Errors
/// A usage error with the tokenizer's error (bad UTF-8, a line that is not a property, a
/// duplicate key, a merge conflict marker), located at `path:line:column`; the schema's
/// error when `<root>/jasset.schema` does not read. A file that tokenizes but
/// whose entity does not load is no error (see [`Asset::load_error`]).
pub fn read_asset(bytes: &[u8], path: &Path, root: Option<&Path>) -> Result<Asset, CliError> {
    // The stock kinds, the binary's own, and the kinds of `<root>/jasset.schema`.
    let registry = super::schema_kinds::registry_for(root)?;
    let mut buffer = TokenBuffer::new();
    let doc = buffer
        .tokenize(bytes, path)
        .map_err(|e| CliError::usage(e.to_string()))?;
    let text = doc.source().to_owned();
    let base = doc.source().as_ptr() as usize;
    let has_id = (0..doc.len()).any(|i| {
        crate::entity_file::base_key(doc.node(i).key_crc, doc.key(i)) == Some(keys::ENTITY_ID.name)
    });

    let mut manager = EntityManager::with_registry(registry);
    let project = root
        .map(Path::to_path_buf)
        .or_else(|| path.parent().map(Path::to_path_buf))
        .unwrap_or_default();
    let mut templates = TemplateCache::new(project);
    let mut load_buffer = TokenBuffer::new();
    let loaded =
        load_entity_with_templates(&mut load_buffer, &mut manager, &mut templates, path, bytes);
    let (class, canonical, resolved, load_error) =
        match loaded {
            Ok(loaded) => {
                drop(load_buffer);
                let class = manager.entity(loaded.id).map(|e| e.class());
                // The texts are made without the unknown keys, whose canonical value is
                // their lines as written (a file may hold a million of them).
                let known = EntityFileData {
                    template: loaded.data.template.clone(),
                    ..EntityFileData::default()
                };
                let sparse = single_text(&mut manager, &templates, loaded.id, &known, !has_id);
                let mut full = String::new();
                let full = save_entity(&manager, loaded.id, &known, &mut full).map(|()| full);
                match (sparse, full) {
                    (Ok(sparse), Ok(full)) => {
                        let mut resolved = text_properties(&full);
                        resolved.extend(
                            loaded.data.unknown.iter().map(|p| {
                                (p.key().to_owned(), p.lines().map(str::to_owned).collect())
                            }),
                        );
                        if !has_id {
                            resolved.retain(|(k, _)| k != keys::ENTITY_ID.name);
                        }
                        let canonical: HashMap<String, Vec<String>> = text_properties(&sparse)
                            .into_iter()
                            .map(|(k, v)| (normalize_key(&k), v))
                            .collect();
                        (class, canonical, Some(resolved), None)
                    }
                    (Err(e), _) | (_, Err(e)) => (class, HashMap::new(), None, Some(e)),
                }
            }
            Err(e) => (None, HashMap::new(), None, Some(e)),
        };
    drop((manager, templates));

    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = |at: usize| text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
    let mut props = Vec::with_capacity(doc.len());
    for i in 0..doc.len() {
        let key = doc.key(i);
        let node = doc.node(i);
        let raw: Vec<String> = doc.value(i).lines().map(str::to_owned).collect();
        let lines: Vec<&str> = doc.value(i).lines().collect();
        let first = lines[0].as_ptr() as usize - base;
        let last = lines[lines.len() - 1];
        let last_end = last.as_ptr() as usize - base + last.len();
        let name = canonical_name(node.key_crc, key, class).unwrap_or(key);
        let id = normalize_key(name);
        let value = canonical.get(&id).cloned().unwrap_or_else(|| raw.clone());
        props.push(Prop {
            key: key.to_owned(),
            name: name.to_owned(),
            id,
            value,
            raw,
            line: node.line,
            span: (line_start(key.as_ptr() as usize - base), line_end(last_end)),
            values: (first, last_end),
            form: node.form,
        });
    }
    let order = key_order(&props, |p| &p.id);
    Ok(Asset {
        path: path.to_path_buf(),
        root: root.map(Path::to_path_buf),
        bom: bytes.starts_with(b"\xEF\xBB\xBF"),
        text,
        props,
        load_error,
        resolved,
        order,
    })
}

/// `a` against `b` as keys compare (ASCII case and `_` ignored, as
/// [`juliet_core::keys_equal`]), without allocating.
fn compare_keys(a: &str, b: &str) -> std::cmp::Ordering {
    let fold = |c: u8| c.to_ascii_lowercase();
    (a.bytes().filter(|&c| c != b'_').map(fold)).cmp(b.bytes().filter(|&c| c != b'_').map(fold))
}

/// The indices of `items` sorted by their `key` as keys compare, and by index among
/// those of one key (4 bytes an item), for [`find_key`].
pub fn key_order<T>(items: &[T], key: impl Fn(&T) -> &str) -> Vec<u32> {
    let mut order: Vec<u32> = (0..items.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| {
        let (x, y) = (key(&items[a as usize]), key(&items[b as usize]));
        compare_keys(x, y).then(a.cmp(&b))
    });
    order
}

/// The index of the first of `items` whose `key` is `wanted` as keys compare, with
/// `order` their [`key_order`].
pub fn find_key<T>(
    order: &[u32],
    items: &[T],
    key: impl Fn(&T) -> &str,
    wanted: &str,
) -> Option<usize> {
    let at = order.partition_point(|&i| compare_keys(key(&items[i as usize]), wanted).is_lt());
    let i = *order.get(at)? as usize;
    compare_keys(key(&items[i]), wanted).is_eq().then_some(i)
}

/// The canonical key that `key` (CRC `crc`) spells: a base key (aliases included),
/// `ClassVersion`, or a property (or alias) of `class`.
fn canonical_name(
    crc: u32,
    key: &str,
    class: Option<&'static juliet_core::Class>,
) -> Option<&'static str> {
    if let Some(name) = crate::entity_file::base_key(crc, key) {
        return Some(name);
    }
    if CLASS_VERSION.matches(crc, key) {
        return Some(CLASS_VERSION.name);
    }
    let class = class?;
    class
        .property_index(crc, key)
        .map(|i| class.properties[i].key)
}

/// The properties of a canonical text the writer made: `(key, value lines)`.
fn text_properties(text: &str) -> Vec<(String, Vec<String>)> {
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

/// `lines` as one line for messages: the line itself, or `[a, b, c]` for several.
pub fn show(lines: &[String]) -> String {
    match lines {
        [one] => one.clone(),
        _ => format!("[{}]", lines.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asset(text: &str) -> Asset {
        read_asset(text.as_bytes(), Path::new("t.jasset"), None).unwrap()
    }

    #[test]
    fn values_are_read_through_the_codec_and_keys_through_their_aliases() {
        let a = asset("; id\n0x0000000000000042\n; class\nInert\n; mass: 0.50\n");
        let mass = a.get("mass").unwrap();
        assert_eq!((mass.name.as_str(), mass.raw[0].as_str()), ("Mass", "0.50"));
        assert_eq!(mass.value, ["0.5"]);
        let id = a.get("entityid").unwrap();
        assert_eq!((id.key.as_str(), id.line), ("id", 1));
        assert!(a.load_error.is_none());
    }

    #[test]
    fn a_file_of_an_unknown_kind_compares_as_written() {
        let a = asset("; Kind\nDragon\n; Wings\n4.0\n");
        assert!(a.load_error.is_some());
        assert_eq!(a.get("wings").unwrap().value, ["4.0"]);
    }

    #[test]
    fn spans_cover_the_header_through_the_last_value_line() {
        let text = "# c\n; Kind\nInert\n; Mass: 2.0\n";
        let a = asset(text);
        let kind = a.get("kind").unwrap();
        assert_eq!(&text[kind.span.0..kind.span.1], "; Kind\nInert\n");
        let mass = a.get("mass").unwrap();
        assert_eq!(&text[mass.values.0..mass.values.1], "2.0");
    }
}
