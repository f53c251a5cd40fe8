//! What an editor's undo needs from a live [`World`]: a property's value together with
//! whether it is an override ([`PropertyState`]), and a whole entity as its file would
//! hold it ([`EntitySnapshot`]), each taken before an edit and put back to undo it.
//!
//! Both record only what one edit touches (one property, or one entity), never a copy
//! of the world (docs/design.md, section 7.9).

use std::path::{Path, PathBuf};

use juliet_core::{key_crc_runtime, Error, ErrorKind, TokenBuffer, Warning};

use super::records::FilePath;
use super::{is_newer_version, FileRecord, World};
use crate::entity::EntityId;
use crate::load::{keys, load_entity_with_templates};

/// One property of one entity as an undo step restores it: its value text (the file's
/// value syntax) and whether it is an override of the entity's template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PropertyState {
    /// The value text, as [`crate::EntityManager::property_text`] gives it.
    pub text: String,
    /// Whether the property is recorded as an override (always `false` for an entity
    /// that is no instance of a template).
    pub overridden: bool,
}

/// One entity as an undo step brings it back: its id, its canonical file text
/// ([`World::entity_text`]: for an instance, its overrides only) and the record of the
/// file it was loaded from, if any.
#[derive(Debug, Clone)]
pub struct EntitySnapshot {
    id: EntityId,
    text: String,
    record: Option<Box<FileRecord>>,
}

impl EntitySnapshot {
    /// The entity's id.
    pub fn id(&self) -> EntityId {
        self.id
    }

    /// The entity's canonical text, as its file would hold it.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl World {
    /// The value and override state of property `key` (any spelling; `Position` too) of
    /// entity `id`.
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchEntity`] or [`ErrorKind::NoSuchProperty`].
    pub fn property_state(&self, id: EntityId, key: &str) -> Result<PropertyState, Error> {
        let text = self.manager.property_text(id, key)?;
        let entity = self.manager.entity(id).expect("property_text found it");
        let overridden = if entity.template().is_none() {
            false
        } else if keys::POSITION.matches(key_crc_runtime(key.as_bytes()), key) {
            entity.is_position_overridden()
        } else {
            let index = entity
                .class()
                .property_index(key_crc_runtime(key.as_bytes()), key)
                .expect("property_text found it");
            entity.overrides().contains(index)
        };
        Ok(PropertyState { text, overridden })
    }

    /// Puts property `key` of entity `id` back to `state` (taken by
    /// [`World::property_state`]): the value, and the override mark set or cleared.
    /// Marks the entity dirty.
    ///
    /// # Errors
    /// As [`World::set_property`]; nothing changes then.
    pub fn restore_property(
        &mut self,
        id: EntityId,
        key: &str,
        state: &PropertyState,
    ) -> Result<(), Error> {
        self.manager.set_property(id, key, &state.text)?;
        if state.overridden {
            return Ok(());
        }
        let entity = self.manager.entity_mut(id).expect("set_property found it");
        if keys::POSITION.matches(key_crc_runtime(key.as_bytes()), key) {
            entity.position_overridden = false;
        } else if let Some(index) = entity
            .class
            .property_index(key_crc_runtime(key.as_bytes()), key)
        {
            entity.overrides.remove(index);
        }
        Ok(())
    }

    /// A snapshot of live entity `id` for [`World::restore_entity`].
    ///
    /// # Errors
    /// As [`World::entity_text`].
    pub fn snapshot_entity(&mut self, id: EntityId) -> Result<EntitySnapshot, Error> {
        let mut text = String::new();
        self.entity_text(id, &mut text)?;
        Ok(EntitySnapshot {
            id,
            text,
            record: self.records.get(&id).cloned().map(Box::new),
        })
    }

    /// Makes the world's entity `snapshot.id()` what `snapshot` holds: a live entity of
    /// that id is replaced, a removed one comes back (and its file is no longer deleted
    /// by the next save). The entity is dirty. A file record whose file is gone from
    /// disk is dropped: the entity is then written as a new file.
    ///
    /// # Errors
    /// As [`crate::load_entity_with_templates`] on the snapshot's text (a template that
    /// no longer loads); the entity is then absent.
    pub fn restore_entity(&mut self, snapshot: &EntitySnapshot) -> Result<(), Error> {
        let id = snapshot.id;
        if self.manager.contains(id) {
            self.manager.destroy_entity(id)?;
        }
        let record = snapshot.record.as_deref().cloned().filter(|r| {
            let path = r.path.resolve(&self.listed_paths);
            path.exists()
        });
        let path: PathBuf = match &record {
            Some(r) => r.path.resolve(&self.listed_paths).to_path_buf(),
            None => self.entities_dir().join(id.file_name()),
        };
        let mut buffer = TokenBuffer::new();
        let loaded = load_entity_with_templates(
            &mut buffer,
            &mut self.manager,
            &mut self.templates,
            &path,
            snapshot.text.as_bytes(),
        )?;
        if loaded.id != id {
            // The text is a snapshot's own: it names this id.
            let _ = self.manager.destroy_entity(loaded.id);
            return Err(Error::file(&path, ErrorKind::NoSuchEntity(id.0)));
        }
        self.pending_deletions.retain(|p| p.id != id);
        match record {
            Some(r) => {
                self.records.insert(id, r);
            }
            None => {
                self.records.remove(&id);
            }
        }
        if let Some(e) = self.manager.entity_mut(id) {
            e.mark_dirty();
        }
        Ok(())
    }

    /// Reads entity `id`'s file again when it no longer holds what was loaded or last
    /// saved (another program changed it): the entity is replaced by what the file holds
    /// now, and is clean. Returns whether it was read again (`false`: the file holds what
    /// the world wrote or read, e.g. after the world's own save).
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchEntity`] when `id` has no file; [`ErrorKind::Io`]; as
    /// [`crate::load_entity_with_templates`] (the entity is then unchanged).
    pub fn reload_entity(&mut self, id: EntityId) -> Result<bool, Error> {
        let record = self
            .records
            .get(&id)
            .ok_or_else(|| Error::file("", ErrorKind::NoSuchEntity(id.0)))?;
        let path = record.path.resolve(&self.listed_paths).to_path_buf();
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        if record.original.as_deref() == Some(&bytes[..]) {
            return Ok(false);
        }
        let before = self.snapshot_entity(id)?;
        self.manager.destroy_entity(id)?;
        let mut buffer = TokenBuffer::new();
        let loaded = match load_entity_with_templates(
            &mut buffer,
            &mut self.manager,
            &mut self.templates,
            &path,
            &bytes,
        ) {
            Ok(loaded) => loaded,
            Err(e) => {
                self.restore_entity(&before)?;
                if let Some(entity) = self.manager.entity_mut(id) {
                    entity.clear_dirty();
                }
                return Err(e);
            }
        };
        self.new_warnings.extend(loaded.warnings);
        if let Some(record) = self.records.get_mut(&id) {
            record.data = loaded.data;
            record.original = Some(bytes.clone().into_boxed_slice());
            record.text = None;
            record.fingerprint = Some(crate::fsio::Fingerprint::of(&bytes));
        }
        if loaded.id != id {
            // The file now names another id: that entity keeps the record.
            if let Some(record) = self.records.remove(&id) {
                self.records.insert(loaded.id, record);
            }
        }
        if let Some(entity) = self.manager.entity_mut(loaded.id) {
            entity.clear_dirty();
        }
        Ok(true)
    }

    /// Loads the entity file at `path`, which appeared on disk after the world was
    /// loaded (another program or person added it), as the world's load would have: the
    /// entity joins the world, clean, with its file as its record. Returns its id.
    ///
    /// # Errors
    /// [`ErrorKind::Io`]; as [`crate::load_entity_with_templates`] (a duplicate id,
    /// a bad value; the world is then unchanged).
    pub fn load_added_file(&mut self, path: &Path) -> Result<EntityId, Error> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        let mut buffer = TokenBuffer::new();
        let loaded = load_entity_with_templates(
            &mut buffer,
            &mut self.manager,
            &mut self.templates,
            path,
            &bytes,
        )?;
        let newer = loaded.warnings.iter().any(is_newer_version);
        self.new_warnings.extend(loaded.warnings);
        self.untouched.retain(|p| p != path);
        self.records.insert(
            loaded.id,
            FileRecord {
                path: FilePath::Owned(path.to_path_buf()),
                data: loaded.data,
                fingerprint: Some(crate::fsio::Fingerprint::of(&bytes)),
                original: Some(bytes.into_boxed_slice()),
                text: None,
                newer,
            },
        );
        if let Some(e) = self.manager.entity_mut(loaded.id) {
            e.clear_dirty();
        }
        Ok(loaded.id)
    }

    /// The warnings (unknown keys, newer versions) of the files read since the last
    /// call: by [`World::reload_entity`], [`World::load_added_file`] and
    /// [`World::reload_template`], and of the templates those loaded. [`World::load`]
    /// gives its own in its report. An editor lists them beside the errors those calls
    /// return.
    pub fn take_new_warnings(&mut self) -> Vec<Warning> {
        let mut warnings = std::mem::take(&mut self.new_warnings);
        warnings.extend(self.templates.take_new_warnings());
        warnings
    }

    /// Entity `id`'s file was deleted on disk (another program or person removed it).
    /// With `keep` false the entity leaves the world and no save deletes or writes its
    /// file; with `keep` true it stays, and the next save writes its file again (its
    /// unsaved edits are not lost).
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchEntity`] when `id` is not in the world.
    pub fn file_removed(&mut self, id: EntityId, keep: bool) -> Result<(), Error> {
        if !self.manager.contains(id) {
            return Err(Error::file("", ErrorKind::NoSuchEntity(id.0)));
        }
        if keep {
            if let Some(record) = self.records.get_mut(&id) {
                // Nothing on disk to protect: the save may create the file.
                record.fingerprint = None;
            }
            if let Some(e) = self.manager.entity_mut(id) {
                e.mark_dirty();
            }
        } else {
            self.manager.destroy_entity(id)?;
            self.records.remove(&id);
            self.pending_deletions.retain(|p| p.id != id);
        }
        Ok(())
    }
}
