//! The check of a world's references: each [`crate::EntityRef`] must name an entity the
//! world has, of the field's kind, and each [`crate::AssetPath`] a file the project has
//! (docs/design.md, section 5.8).

use std::path::Path;

use juliet_core::{
    split_entry, Codec, PropertyDescriptor, PropertyType, TokenBuffer, Value, Warning, WarningKind,
    EMPTY_LIST, EMPTY_MAP, NONE,
};

use super::World;
use crate::entity::EntityId;

impl World {
    /// A warning for each reference of the world's entities to an id the world has no
    /// entity for ([`WarningKind::DanglingReference`]) or to an entity of another kind
    /// than the field's ([`WarningKind::ReferenceKindMismatch`]), and for each asset
    /// path to a file the project does not have ([`WarningKind::MissingAsset`]), at
    /// the file, line and column of the value (line 0 when the entity has no file yet,
    /// or inherits the value from its template), keyed by the property.
    /// [`World::load`] adds them to its report; call it again after edits (an entity
    /// removed, a reference set).
    ///
    /// Costs one pass over the entities of the kinds that have reference or asset
    /// fields, and a file-system lookup per asset path.
    pub fn reference_warnings(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        let mut fields: Vec<(*const juliet_core::Class, Vec<usize>)> = Vec::new();
        for entity in self.manager.entities() {
            let class = entity.class();
            let at = match fields.iter().position(|(c, _)| std::ptr::eq(*c, class)) {
                Some(at) => at,
                None => {
                    let of_class = (class.properties().iter().enumerate())
                        .filter(|(_, p)| {
                            let ty = &p.property_type;
                            reference_kind(ty).is_some() || holds_assets(ty)
                        })
                        .map(|(i, _)| i)
                        .collect();
                    fields.push((class, of_class));
                    fields.len() - 1
                }
            };
            for &index in &fields[at].1 {
                let property = &class.properties()[index];
                let Ok(text) = self.manager.property_text(entity.id(), property.key) else {
                    continue;
                };
                if holds_assets(&property.property_type) {
                    let mut paths = Vec::new();
                    paths_in(&property.property_type, &text, &mut paths);
                    let root = self.templates.project_root();
                    for path in paths {
                        if std::fs::symlink_metadata(root.join(&path)).is_err() {
                            let at = Find::Asset(&path);
                            let kind = WarningKind::MissingAsset { path: path.clone() };
                            out.push(self.reference_warning(entity.id(), property, at, kind));
                        }
                    }
                    continue;
                }
                let mut ids = Vec::new();
                ids_in(&property.property_type, &text, &mut ids);
                let expected = reference_kind(&property.property_type).flatten();
                for id in ids {
                    let kind = match self.manager.entity(EntityId(id)) {
                        None => WarningKind::DanglingReference { id },
                        Some(target) => match expected {
                            Some(expected) if target.class().name() != expected => {
                                WarningKind::ReferenceKindMismatch {
                                    id,
                                    expected: expected.to_owned(),
                                    found: target.class().name().to_owned(),
                                }
                            }
                            _ => continue,
                        },
                    };
                    let at = Find::Id(id);
                    out.push(self.reference_warning(entity.id(), property, at, kind));
                }
            }
        }
        out
    }

    /// The warning `kind` about the reference `find` in `property` of `entity`,
    /// located at the value line that holds it in the entity's file.
    fn reference_warning(
        &self,
        entity: EntityId,
        property: &PropertyDescriptor,
        find: Find<'_>,
        kind: WarningKind,
    ) -> Warning {
        let record = self.records.get(&entity);
        let path = record.map_or(Path::new(""), |r| r.path.resolve(&self.listed_paths));
        let (line, column) = record
            .and_then(|r| r.original.as_deref())
            .and_then(|bytes| value_position(bytes, property.crc, find))
            .unwrap_or((0, 0));
        Warning::new(path, line, column, Some(property.key), kind)
    }
}

impl World {
    /// Points every reference to one of the `moved` entities' old ids at its new id
    /// (`(old, new)` pairs: after ids changed, as `jasset renumber` changes them), and
    /// returns the entities whose references changed. Each such property is set as
    /// [`World::set_property`] sets it, so the next [`World::save_world`] rewrites
    /// those values' lines, and only those. A reference an instance inherits from its
    /// template is left to the template. A pair whose old id an entity of the world still
    /// has (two files had that id, and one of them was given a new one) is left out:
    /// the references to that id are the remaining entity's.
    ///
    /// # Errors
    /// As [`World::set_property`] (a value the property's codec refuses: none for ids).
    pub fn retarget_references(
        &mut self,
        moved: &[(EntityId, EntityId)],
    ) -> Result<Vec<EntityId>, juliet_core::Error> {
        let mut changed = Vec::new();
        let moved: Vec<(EntityId, EntityId)> = (moved.iter().copied())
            .filter(|(old, _)| !self.manager.contains(*old))
            .collect();
        if moved.is_empty() {
            return Ok(changed);
        }
        let ids: Vec<EntityId> = self.manager.entities().iter().map(|e| e.id()).collect();
        for id in ids {
            let Some(entity) = self.manager.entity(id) else {
                continue;
            };
            let (class, instance) = (entity.class(), entity.template().is_some());
            let own = |index: usize| !instance || entity.overrides().contains(index);
            let keys: Vec<&'static str> = (class.properties().iter().enumerate())
                .filter(|(i, p)| reference_kind(&p.property_type).is_some() && own(*i))
                .map(|(_, p)| p.key)
                .collect();
            for key in keys {
                let text = self.manager.property_text(id, key)?;
                if let Some(new) = retargeted(&text, &moved) {
                    self.set_property(id, key, &new)?;
                    if changed.last() != Some(&id) {
                        changed.push(id);
                    }
                }
            }
        }
        Ok(changed)
    }
}

/// `text`, a value as the writer writes it, with each token that is one of the
/// `moved` old ids replaced by the new one; `None` when it has none.
fn retargeted(text: &str, moved: &[(EntityId, EntityId)]) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut any = false;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for (j, token) in line.split(' ').enumerate() {
            if j > 0 {
                out.push(' ');
            }
            let id = EntityId::decode(Value::from_text(token)).ok();
            match moved.iter().find(|(old, _)| Some(*old) == id) {
                Some((_, new)) if token.starts_with("0x") => {
                    out.push_str(&new.to_string());
                    any = true;
                }
                _ => out.push_str(token),
            }
        }
    }
    any.then_some(out)
}

/// The type of the values a property of type `ty` holds: itself, or the element (the
/// value, for a map) of its options, lists, sets and arrays.
fn leaf(ty: &PropertyType) -> &PropertyType {
    match ty {
        PropertyType::List(inner)
        | PropertyType::Option(inner)
        | PropertyType::Set(inner)
        | PropertyType::Array(inner, _)
        | PropertyType::Map(_, inner) => leaf(inner),
        other => other,
    }
}

/// The kind a property of type `ty` refers to, when it holds references: `Some(None)`
/// for references to any kind.
fn reference_kind(ty: &PropertyType) -> Option<Option<&'static str>> {
    match leaf(ty) {
        PropertyType::Reference(kind) => Some(*kind),
        _ => None,
    }
}

/// Whether a property of type `ty` holds asset paths: an [`PropertyType::Asset`], or an
/// option, list, set, array or map value of them at any depth. The properties whose
/// paths [`World::reference_warnings`] checks, and the ones a program that moves assets
/// rewrites.
///
/// ```
/// use juliet_entities::juliet_core::PropertyType;
/// use juliet_entities::world::holds_assets;
///
/// let meshes = PropertyType::List(&PropertyType::Asset(Some("mesh")));
/// assert!(holds_assets(&meshes));
/// assert!(!holds_assets(&PropertyType::String));
/// ```
pub fn holds_assets(ty: &PropertyType) -> bool {
    matches!(leaf(ty), PropertyType::Asset(_))
}

/// The non-empty asset paths in `text`, the value of a property of type `ty` as
/// written (one a line: asset paths are not tokens).
fn paths_in(ty: &PropertyType, text: &str, out: &mut Vec<String>) {
    if let PropertyType::Map(_, value) = ty {
        for (_, v) in text.lines().filter_map(split_entry) {
            paths_in(value, v, out);
        }
        return;
    }
    for line in text.lines().filter(|l| ![NONE, EMPTY_LIST].contains(l)) {
        if let Ok(path) = String::decode(Value::from_text(line)) {
            if !path.is_empty() {
                out.push(path);
            }
        }
    }
}

/// What a warning's value line holds: an id, or an asset path.
#[derive(Clone, Copy)]
enum Find<'a> {
    Id(u64),
    Asset(&'a str),
}

impl Find<'_> {
    /// Whether value line `line` holds it.
    fn on(self, line: &str) -> bool {
        match self {
            Find::Id(id) => {
                let mut ids = Vec::new();
                ids_in(&PropertyType::Reference(None), line, &mut ids);
                ids.contains(&id)
            }
            Find::Asset(path) => {
                let value = split_entry(line).map_or(line, |(_, v)| v);
                [line, value]
                    .iter()
                    .any(|l| String::decode(Value::from_text(l)).is_ok_and(|p| p == path))
            }
        }
    }
}

/// The ids referred to in `text`, the value of a property of type `ty` as written.
fn ids_in(ty: &PropertyType, text: &str, out: &mut Vec<u64>) {
    if let PropertyType::Map(_, value) = ty {
        for (_, v) in text.lines().filter_map(split_entry) {
            ids_in(value, v, out);
        }
        return;
    }
    // References are tokens: one a line, or several on one line.
    let tokens = text.split(|c: char| c.is_whitespace() || c == ',');
    for token in tokens.filter(|t| !t.is_empty() && ![NONE, EMPTY_LIST, EMPTY_MAP].contains(t)) {
        if let Ok(id) = EntityId::decode(Value::from_text(token)) {
            out.push(id.0);
        }
    }
}

/// Line and column of the reference `find` in property `crc` of the entity file
/// `bytes`: the value line that holds it, or the key's; `None` when the file does not
/// set the property (it comes from the template) or does not tokenize.
fn value_position(bytes: &[u8], crc: u32, find: Find<'_>) -> Option<(u32, u32)> {
    let mut buffer = TokenBuffer::new();
    let doc = buffer.tokenize(bytes, Path::new("")).ok()?;
    let index = (0..doc.len()).find(|&i| doc.node(i).key_crc == crc)?;
    let node = doc.node(index);
    for span in doc.value_spans(index) {
        if find.on(&doc.source()[span.clone()]) {
            let at = span.start + doc.source_offset();
            let number = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
            let start = bytes[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let column = 1 + String::from_utf8_lossy(&bytes[start..at]).chars().count();
            return Some((number as u32, column as u32));
        }
    }
    Some((node.line, node.column))
}
