//! "Apply to template": an instance's overrides written into a template of its chain,
//! and the chain itself as an inspector shows it (which template gives a property its
//! value). docs/design.md, section 7.9.
//!
//! The template file is edited in place (its comments, layout and other keys kept),
//! then reloaded, so every other instance that does not override the property takes
//! the new value (the reload propagation of section 7.6).

use std::path::Path;

use juliet_core::{Error, ErrorKind, TokenBuffer};

use super::World;
use crate::entity::overrides::{enum_leaves, variant_of};
use crate::entity::EntityId;
use crate::fsio::Expect;
use crate::patch::{self, KeyMap};
use crate::template::{ReloadReport, TemplateRef, MAX_TEMPLATE_DEPTH};

/// What [`World::apply_to_template`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplyReport {
    /// The template written (project-relative path).
    pub template: String,
    /// The template file's bytes before the edit (what an undo writes back through
    /// [`World::write_template_file`]).
    pub previous: Vec<u8>,
    /// The template file's bytes after the edit.
    pub written: Vec<u8>,
    /// The reload that followed: the templates and instances that changed.
    pub reload: ReloadReport,
    /// The properties of the instance that are no longer overrides (their value is now
    /// the template's).
    pub cleared: Vec<&'static str>,
}

/// Maps the keys of a template file to the class's canonical keys; no property is
/// ever implied by its absence (a template's absent key is its parent's value).
struct TemplateKeys(&'static juliet_core::Class);

impl KeyMap for TemplateKeys {
    fn canonical(&self, crc: u32, key: &str) -> Option<&'static str> {
        self.0
            .property_index(crc, key)
            .map(|i| self.0.properties()[i].key)
    }

    fn absent_means(&self, _key: &str, _lines: &[&str]) -> bool {
        false
    }

    fn is_alias(&self, crc: u32, key: &str) -> bool {
        (self.0.property_index(crc, key))
            .is_some_and(|i| !juliet_core::keys_equal(key, self.0.properties()[i].key))
    }

    fn holds_token_lists(&self, key: &str) -> bool {
        (self.0.property(key))
            .is_some_and(|p| patch::separators::holds_token_lists(&p.property_type))
    }
}

fn template_error(path: &str, reason: impl Into<String>) -> Error {
    Error::file(
        "",
        ErrorKind::Template {
            path: path.to_owned(),
            reason: reason.into(),
        },
    )
}

impl World {
    /// The templates of entity `id`, its own template first, then that template's
    /// parent, and so on (empty for a standalone or unknown entity).
    pub fn template_chain(&self, id: EntityId) -> Vec<TemplateRef<'_>> {
        let mut chain = Vec::new();
        let mut next = self.manager.entity(id).and_then(|e| e.template());
        while let Some(crc) = next {
            let Some(template) = self.templates.find(crc) else {
                break;
            };
            if chain.len() > MAX_TEMPLATE_DEPTH {
                break;
            }
            next = template.cached().parent();
            chain.push(template);
        }
        chain
    }

    /// The template of entity `id`'s chain whose own file sets property `index` (of the
    /// class's property table): the one that gives an instance that does not override
    /// it its value. `None` when no template sets it (the value is the class default)
    /// or `id` is no instance.
    pub fn value_source(&self, id: EntityId, index: usize) -> Option<TemplateRef<'_>> {
        self.template_chain(id)
            .into_iter()
            .find(|t| t.cached().own_properties().contains(index))
    }

    /// "Apply to template": writes the current values of properties `keys` (any
    /// spelling) of instance `id` into `template`, a template of its chain
    /// ([`World::template_chain`], by project-relative path), editing the file in place,
    /// then reloads it ([`World::reload_template`]) so that the other instances see the
    /// change. Each applied property whose value is now the instance's template value
    /// stops being an override of the instance (a template nearer in the chain that sets
    /// the property itself keeps its own value, and the instance its override). The
    /// instance is marked dirty.
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchEntity`]; [`ErrorKind::NoSuchProperty`] for a key that is not
    /// a property of the class (`Position` and the base keys are not applied);
    /// [`ErrorKind::Template`] when `template` is not in the chain; [`ErrorKind::Io`]
    /// when the file cannot be read or written; a tokenizer error in the template file.
    /// When the edited file does not load, the old bytes are written back and the
    /// error is returned.
    pub fn apply_to_template(
        &mut self,
        id: EntityId,
        keys: &[&str],
        template: &str,
    ) -> Result<ApplyReport, Error> {
        let entity = self
            .manager
            .entity(id)
            .ok_or_else(|| Error::file("", ErrorKind::NoSuchEntity(id.0)))?;
        let class = entity.class();
        let normalized = crate::template::normalize_template_path(template)?;
        let target = self
            .template_chain(id)
            .into_iter()
            .find(|t| t.path() == normalized)
            .map(|t| t.path().to_owned())
            .ok_or_else(|| template_error(template, format!("not a template of entity {id}")))?;
        let mut values = Vec::with_capacity(keys.len());
        for key in keys {
            let property = class.property(key).ok_or_else(|| {
                Error::file(
                    "",
                    ErrorKind::NoSuchProperty {
                        class: class.name(),
                        key: (*key).into(),
                    },
                )
            })?;
            values.push((property.key, self.manager.property_text(id, key)?));
        }
        self.with_variant_leaves(id, class, &mut values)?;
        let full = self.project_root().join(&target);
        let root = self.project_root().to_path_buf();
        let previous =
            crate::fsio::read_project_file(&full, Some(&root), crate::fsio::DEFAULT_MAX_FILE_SIZE)?;
        let written = edited_template(&previous, &full, class, &values)?;
        let reload = match self.write_template_file(&target, Some(&previous), &written) {
            Ok(reload) => reload,
            Err(e) => {
                if full.is_file() {
                    self.write_template_file(&target, Some(&written), &previous)?;
                }
                return Err(e);
            }
        };
        let mut cleared = Vec::new();
        if let Some(crc) = self.manager.entity(id).and_then(|e| e.template()) {
            if let Some(own) = self.templates.find(crc) {
                let (archetypes, archetype) = own.archetype_storage();
                let base = self.manager.index_of(id).expect("live");
                let (entity, storage) = self.manager.record_and_storage_mut(base);
                for (key, _) in &values {
                    let index = class.property(key).map(|p| {
                        class
                            .properties()
                            .iter()
                            .position(|q| std::ptr::eq(p, q))
                            .expect("in the table")
                    });
                    if let Some(index) = index {
                        let slot = entity.slot as usize;
                        if storage.same_property(slot, index, archetypes, archetype)
                            && entity.overrides.remove(index)
                        {
                            cleared.push(*key);
                        }
                    }
                }
                entity.dirty = true;
            }
        }
        Ok(ApplyReport {
            template: target,
            previous,
            written,
            reload,
            cleared,
        })
    }

    /// Writes `bytes` as the template at project-relative `path` and reloads it
    /// ([`World::reload_template`], with propagation to its instances). What an undo of
    /// [`World::apply_to_template`] does with [`ApplyReport::previous`].
    ///
    /// `expected` is what the caller believes the file holds: an existing file is
    /// replaced only while it still holds those bytes (any bytes when `None`), is not
    /// read-only, and lies inside the project (a link is written through to its target),
    /// as saves do. A file that does not exist is created.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] when the file cannot be written, or was left alone because it
    /// changed on disk since `expected` was read or is read-only (the message says
    /// which); as [`World::reload_template`].
    pub fn write_template_file(
        &mut self,
        path: &str,
        expected: Option<&[u8]>,
        bytes: &[u8],
    ) -> Result<ReloadReport, Error> {
        let normalized = crate::template::normalize_template_path(path)?;
        let root = self.project_root().to_path_buf();
        let full = root.join(&normalized);
        let expect = match expected {
            Some(bytes) => Expect::Holds(crate::fsio::Fingerprint::of(bytes)),
            None => Expect::Any,
        };
        let outcome = crate::fsio::write_file(&full, expect, bytes, self.durability.sync())?;
        if let crate::fsio::ReplaceOutcome::Skipped(reason) = outcome {
            return Err(Error::io(&full, std::io::Error::other(reason.to_string())));
        }
        if self.templates.get(&normalized).is_some() {
            self.reload_template(&normalized)
        } else {
            self.templates.get_or_load(&normalized)?;
            Ok(ReloadReport::default())
        }
    }
}

/// The template file `original` with properties `values` (canonical key, value text)
/// set: a key the file has gets its value lines replaced, one it lacks is inserted
/// after the last key before it in the class's order.
fn edited_template(
    original: &[u8],
    path: &Path,
    class: &'static juliet_core::Class,
    values: &[(&'static str, String)],
) -> Result<Vec<u8>, Error> {
    let map = TemplateKeys(class);
    let mut buffer = TokenBuffer::new();
    let doc = buffer.tokenize(original, path)?;
    let index_of = |key: &str| class.properties().iter().position(|p| p.key == key);
    // The file's keys as canonical entries, in file order.
    let mut entries: Vec<(String, String)> = (0..doc.len())
        .map(|i| {
            let key = map
                .canonical(doc.node(i).key_crc, doc.key(i))
                .map_or_else(|| doc.key(i).to_owned(), str::to_owned);
            (key, doc.value(i).lines().collect::<Vec<_>>().join("\n"))
        })
        .collect();
    let old = block_text(&entries);
    for (key, value) in values {
        if value.is_empty() {
            // An absent leaf (a field of a variant not in use): no line for it.
            entries.retain(|(k, _)| k != key);
            continue;
        }
        match entries.iter().position(|(k, _)| k == key) {
            Some(at) => entries[at].1 = value.clone(),
            None => {
                let mine = index_of(key);
                let at = entries
                    .iter()
                    .rposition(|(k, _)| match index_of(k) {
                        Some(other) => Some(other) < mine,
                        None => true,
                    })
                    .map_or(entries.len(), |p| p + 1);
                entries.insert(at, ((*key).to_owned(), value.clone()));
            }
        }
    }
    let new = block_text(&entries);
    patch::edit(original, path, &old, &new, &map)
}

impl World {
    /// Adds to `values` (keys and texts of instance `id` to apply) the rest of each
    /// enum with data they touch: for a field leaf (`Trigger.Radius`) its variant
    /// (`Trigger`), and for a variant every field leaf of it, an absent one with an empty
    /// text (its line is removed), so that the template is never left with a variant
    /// and the fields of another.
    fn with_variant_leaves(
        &self,
        id: EntityId,
        class: &'static juliet_core::Class,
        values: &mut Vec<(&'static str, String)>,
    ) -> Result<(), Error> {
        let table = class.properties();
        let index = |key: &str| table.iter().position(|p| p.key == key);
        // The enums touched: each key's variant, or the key itself when it has fields.
        let mut variants: Vec<usize> = Vec::new();
        for i in values.iter().filter_map(|(key, _)| index(key)) {
            let variant = variant_of(table, i).unwrap_or(i);
            if enum_leaves(table, variant).nth(1).is_some() && !variants.contains(&variant) {
                variants.push(variant);
            }
        }
        for leaf in variants.into_iter().flat_map(|v| enum_leaves(table, v)) {
            let key = table[leaf].key;
            if !values.iter().any(|(k, _)| *k == key) {
                values.push((key, self.manager.property_text(id, key)?));
            }
        }
        Ok(())
    }
}

/// Entries as a text of blocks (`; Key`, then the value lines).
fn block_text(entries: &[(String, String)]) -> String {
    let mut out = String::new();
    for (key, value) in entries {
        out.push_str("; ");
        out.push_str(key);
        out.push('\n');
        for line in value.lines() {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}
