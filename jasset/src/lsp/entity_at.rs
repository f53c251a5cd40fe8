//! Hover on an id: the entity of the buffer's world that has it (an `EntityID` value,
//! an entity reference), found by the file named after the id or, failing that, by the
//! `EntityID` lines of the world's files.

use std::path::{Path, PathBuf};

use juliet_core::{Codec, Value};

use super::documents::{entries, Document};
use juliet_entities::entity::EntityId;
use juliet_entities::fsio::{read_project_file, DEFAULT_MAX_FILE_SIZE};
use juliet_entities::load::keys;

/// The id written as `token` (`0x` and hex digits, as ids are written), if it is one.
pub(super) fn id_of(token: &str) -> Option<EntityId> {
    let token = token.trim_matches(|c: char| c == ',' || c.is_whitespace());
    (token.starts_with("0x") || token.starts_with("0X"))
        .then(|| EntityId::decode(Value::from_text(token)).ok())
        .flatten()
}

/// What the hover of `id` in `doc` says: the file of the world's entity with that id,
/// its kind or template, or that the world has none.
pub(super) fn entity_hover(doc: &Document, id: EntityId) -> String {
    let Some(dir) = doc.path.parent() else {
        return format!("entity {id}");
    };
    match file_of(dir, doc.root.as_deref(), id) {
        Some((file, text)) => {
            let found = entries(&text);
            let value =
                |name: &str| (found.iter().find(|e| e.is(name))).and_then(|e| e.first_value(&text));
            let kind = match (value(keys::KIND.name), value(keys::TEMPLATE.name)) {
                (Some(kind), _) => format!("kind `{kind}`"),
                (None, Some(template)) => format!("an instance of `{template}`"),
                (None, None) => "no kind".to_owned(),
            };
            let name = file.file_stem().map(|s| s.to_string_lossy().into_owned());
            format!(
                "entity {id}: `{}` ({kind})\n\n{}",
                name.unwrap_or_default(),
                file.display()
            )
        }
        None => format!("entity {id}: no file of this world has that id"),
    }
}

/// The file of folder `dir` whose entity has `id`, and its text.
fn file_of(dir: &Path, root: Option<&Path>, id: EntityId) -> Option<(PathBuf, String)> {
    let read = |path: &Path| {
        let bytes = read_project_file(path, root, DEFAULT_MAX_FILE_SIZE).ok()?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    };
    let has_id = |text: &str| {
        let found = entries(text);
        let entry = found.iter().find(|e| {
            e.is(keys::ENTITY_ID.name) || keys::ENTITY_ID_ALIASES.iter().any(|a| e.is(a.name))
        });
        entry
            .and_then(|e| e.first_value(text))
            .and_then(|v| EntityId::decode(Value::from_text(v)).ok())
            == Some(id)
    };
    let named = dir.join(id.file_name());
    if let Some(text) = read(&named).filter(|t| has_id(t)) {
        return Some((named, text));
    }
    let mut files: Vec<PathBuf> = (std::fs::read_dir(dir).ok()?)
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "jasset"))
        .collect();
    files.sort();
    files
        .into_iter()
        .find_map(|p| read(&p).filter(|t| has_id(t)).map(|t| (p, t)))
}
