//! [`World::save_world`]: which entities changed, and their files edited in place.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use juliet_core::{Class, Error, TokenBuffer, CLASS_VERSION};

use super::{new_file_path, sync_dir, write_atomic, Durability, FilePath, FileRecord, World};
use super::{PendingDeletion, SaveReport};
use crate::edit::{self, Defaults, KeyMap};
use crate::entity::EntityId;
use crate::fsio::{Fingerprint, Skipped};
use crate::load::{keys, load_entity_with_templates, save_entity, EntityFileData};
use crate::manager::EntityManager;
use crate::template;

impl World {
    /// Saves the world (docs/design.md, section 6.2): deletes the files of pending
    /// deletions (entities removed with [`World::remove_world_entity`] or destroyed
    /// through [`World::manager_mut`]), then writes each entity whose text differs from
    /// what its file holds, and only those, through a temporary file and a rename (see
    /// the module documentation for the fsync policy). Changes are found by comparing
    /// texts, so an edit through any `&mut` access (`get_mut`, `slice_mut`) is saved
    /// without [`crate::Entity::mark_dirty`], and a second save with no change writes
    /// nothing. [`crate::Entity::mark_dirty`] asks for an entity to be written even when
    /// its text is its file's (a file at an older version is then migrated in place).
    ///
    /// A file that an entity was loaded from is edited in place: only the lines of the
    /// properties whose values changed are rewritten, and comments, blank lines, key
    /// spellings, order, one-line forms and line endings are kept (see
    /// `docs/design.md`, section 6.2). New entities go to
    /// `Entities/<id as 16 hex digits>.jasset` in canonical form.
    ///
    /// # Errors
    /// The first I/O error ([`juliet_core::ErrorKind::Io`] naming the file), or the
    /// first entity whose text cannot be made ([`World::entity_text`]'s errors, naming
    /// the file it was to be written to; nothing is written for it). What was not yet
    /// done stays pending: entities not yet written stay unsaved, deletions not yet done
    /// stay in [`World::pending_deletions`], so a later save retries.
    pub fn save_world(&mut self) -> Result<SaveReport, Error> {
        let dir = self.entities_dir();
        let mut report = SaveReport::default();
        let fsync = self.durability == Durability::Fsync;

        // Temporary files of an interrupted save (never loaded; see the module docs).
        while let Some(stale) = self.stale_temps.last() {
            crate::fsio::remove_stale(stale)?;
            report.removed_temps.extend(self.stale_temps.pop());
        }

        // Entities destroyed through the manager: their files go like removed ones'.
        let gone: Vec<EntityId> = (self.records.ids())
            .filter(|&id| !self.manager.contains(id))
            .collect();
        for id in gone {
            let listed = &self.listed_paths;
            let file = (self.records.remove(&id)).map(|r| r.path.resolve(listed).to_path_buf());
            self.pending_deletions.push(PendingDeletion { id, file });
        }

        if !self.pending_deletions.is_empty() {
            let listed = &self.listed_paths;
            let claimed: HashSet<&Path> = self
                .records
                .values()
                .map(|r| r.path.resolve(listed))
                .collect();
            let mut done = 0;
            let mut failure = None;
            for pending in &self.pending_deletions {
                if let Some(file) = &pending.file {
                    if !claimed.contains(file.as_path()) {
                        match fs::remove_file(file) {
                            Ok(()) => report.deleted.push(file.clone()),
                            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                            Err(e) => {
                                failure = Some(Error::io(file, e));
                                break;
                            }
                        }
                    }
                }
                done += 1;
            }
            self.pending_deletions.drain(..done);
            if let Some(err) = failure {
                return Err(err);
            }
        }

        let ids: Vec<EntityId> = self.manager.entities().iter().map(|e| e.id()).collect();
        let mut text = String::new();
        let mut claimed: Option<HashSet<PathBuf>> = None;
        let mut defaults: Vec<(&'static Class, Defaults)> = Vec::new();
        let mut created_dir = false;
        for id in ids {
            text.clear();
            let path = match self.records.get(&id) {
                Some(record) => record.path.resolve(&self.listed_paths).to_path_buf(),
                None => {
                    let claimed = claimed.get_or_insert_with(|| {
                        self.records
                            .values()
                            .map(|r| r.path.resolve(&self.listed_paths).to_path_buf())
                            .chain(self.untouched.iter().cloned())
                            .collect()
                    });
                    let path = new_file_path(&dir, id, claimed);
                    claimed.insert(path.clone());
                    path
                }
            };
            self.entity_text(id, &mut text)
                .map_err(|e| e.with_path(&path))?;
            let fingerprint = (crc32fast::hash(text.as_bytes()), text.len());
            // Marked dirty: written even when its text is the file's (a file at an
            // older version is then brought to the current one).
            let forced = self.manager.entity(id).is_some_and(|e| e.is_dirty());
            let bytes = match self.records.get(&id) {
                None => text.as_bytes().to_vec(),
                Some(record) if !forced && record.text == Some(fingerprint) => {
                    self.saved(id);
                    continue;
                }
                Some(record) => match record.original.clone() {
                    None => text.as_bytes().to_vec(),
                    Some(original) => {
                        let old = self
                            .file_text(&path, &original)
                            .map_err(|e| e.with_path(&path))?;
                        if old == text && !forced {
                            if let Some(r) = self.records.get_mut(&id) {
                                r.text = Some(fingerprint);
                            }
                            self.saved(id);
                            continue;
                        }
                        if *original == *old.as_bytes() {
                            text.as_bytes().to_vec()
                        } else {
                            let map = EntityKeys::new(self, id, &mut defaults);
                            let edited = edit::edit(&original, &path, &old, &text, &map)?;
                            // The edit must read back as the entity: where the file's
                            // mix of line forms defeats it, the canonical text is
                            // written instead.
                            match self.file_text(&path, &edited) {
                                Ok(back) if back == text => edited,
                                _ => text.as_bytes().to_vec(),
                            }
                        }
                    }
                },
            };
            let same =
                self.records.get(&id).and_then(|r| r.original.as_deref()) == Some(&bytes[..]);
            if same && !forced {
                if let Some(r) = self.records.get_mut(&id) {
                    r.text = Some(fingerprint);
                }
                self.saved(id);
                continue;
            }
            if let Some(reason) = self.save_refusal(id, &path) {
                report.skipped.push(Skipped { path, reason });
                continue;
            }
            if !created_dir {
                fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
                created_dir = true;
            }
            write_atomic(&path, &bytes, fsync)?;
            self.saved(id);
            let on_disk = Some(Fingerprint::of(&bytes));
            match self.records.get_mut(&id) {
                Some(r) => {
                    r.original = Some(bytes.into_boxed_slice());
                    r.text = Some(fingerprint);
                    r.fingerprint = on_disk;
                }
                None => {
                    let record = FileRecord {
                        path: FilePath::Owned(path.clone()),
                        data: EntityFileData::default(),
                        original: Some(bytes.into_boxed_slice()),
                        text: Some(fingerprint),
                        fingerprint: on_disk,
                        newer: false,
                    };
                    self.records.insert(id, record);
                }
            }
            report.written.push(path);
        }
        if fsync && !(report.written.is_empty() && report.deleted.is_empty()) {
            sync_dir(&dir)?;
        }
        Ok(report)
    }

    /// The bytes of entity `id`'s file `original` (read from `path`) brought to the
    /// entity's current versions in place: the version lines, the deprecated keys the
    /// migration consumed and the properties it set change, nothing else (what
    /// `jasset migrate` writes). The canonical text when the edit would not read back as
    /// the entity.
    ///
    /// # Errors
    /// As [`World::entity_text`]; a tokenizer error in `original`.
    #[cfg_attr(not(feature = "cli"), allow(dead_code))] // used by the tool
    pub(crate) fn migrated_file(
        &mut self,
        id: EntityId,
        path: &Path,
        original: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let mut text = String::new();
        self.entity_text(id, &mut text)?;
        let mut defaults = Vec::new();
        let map = EntityKeys::new(self, id, &mut defaults);
        let edited = edit::edit(original, path, &text, &text, &map)?;
        Ok(match self.file_text(path, &edited) {
            Ok(back) if back == text => edited,
            _ => text.into_bytes(),
        })
    }

    /// Clears entity `id`'s unsaved mark.
    fn saved(&mut self, id: EntityId) {
        if let Some(e) = self.manager.entity_mut(id) {
            e.clear_dirty();
        }
    }

    /// The canonical text of what `bytes` (an entity file read from `path`) holds: the file
    /// loaded into a scratch manager of the same registry and written as
    /// [`World::entity_text`] writes the live entity.
    fn file_text(&mut self, path: &Path, bytes: &[u8]) -> Result<String, Error> {
        let registry = self.manager.registry()?;
        let mut scratch = EntityManager::with_registry(registry);
        let mut buffer = TokenBuffer::new();
        let loaded = load_entity_with_templates(
            &mut buffer,
            &mut scratch,
            &mut self.templates,
            path,
            bytes,
        )?;
        let mut out = String::new();
        let data = loaded.data;
        match scratch.entity(loaded.id).and_then(|e| e.template()) {
            Some(_) => {
                template::save_instance(&mut scratch, &self.templates, loaded.id, &data, &mut out)?
            }
            None => save_entity(&scratch, loaded.id, &data, &mut out)?,
        }
        Ok(out)
    }
}

/// The [`KeyMap`] of one entity's file: the base keys and their aliases, `ClassVersion`,
/// the class's properties and aliases; what an absent key means for a standalone entity
/// (the class's defaults) or an instance (its template's value, which a sparse save
/// writes only as an override).
struct EntityKeys<'a> {
    class: &'static Class,
    instance: bool,
    defaults: &'a Defaults,
}

impl<'a> EntityKeys<'a> {
    fn new(
        world: &World,
        id: EntityId,
        cache: &'a mut Vec<(&'static Class, Defaults)>,
    ) -> EntityKeys<'a> {
        let entity = world.manager.entity(id).expect("live");
        let class = entity.class();
        let at = match cache.iter().position(|(c, _)| std::ptr::eq(*c, class)) {
            Some(at) => at,
            None => {
                cache.push((class, defaults_of(world, class)));
                cache.len() - 1
            }
        };
        EntityKeys {
            class,
            instance: entity.template().is_some(),
            defaults: &cache[at].1,
        }
    }
}

/// The canonical value lines of a default entity of `class`, by key.
fn defaults_of(world: &World, class: &'static Class) -> Defaults {
    let mut out = Defaults::new();
    let Ok(registry) = world.manager.registry() else {
        return out;
    };
    let mut scratch = EntityManager::with_registry(registry);
    let id = scratch.allocate_entity(class);
    let mut text = String::new();
    if scratch
        .save_derived(id, &mut juliet_core::Archive::saving(&mut text))
        .is_err()
    {
        return out;
    }
    let mut buffer = TokenBuffer::new();
    if let Ok(doc) = buffer.tokenize(text.as_bytes(), Path::new("")) {
        for i in 0..doc.len() {
            if let Some(p) = class.property(doc.key(i)) {
                out.insert(p.key, doc.value(i).lines().map(str::to_owned).collect());
            }
        }
    }
    out
}

impl KeyMap for EntityKeys<'_> {
    fn canonical(&self, crc: u32, key: &str) -> Option<&'static str> {
        if let Some(canonical) = crate::entity_file::base_key(crc, key) {
            return Some(canonical);
        }
        if CLASS_VERSION.matches(crc, key) {
            return Some(CLASS_VERSION.name);
        }
        (self.class.property_index(crc, key)).map(|i| self.class.properties[i].key)
    }

    fn absent_means(&self, key: &str, lines: &[&str]) -> bool {
        if [
            keys::ASSET_TYPE.name,
            keys::BASE_VERSION.name,
            keys::KIND.name,
            CLASS_VERSION.name,
        ]
        .contains(&key)
        {
            return true;
        }
        if self.instance {
            return false;
        }
        if key == keys::POSITION.name {
            return lines == ["0.0 0.0 0.0"];
        }
        self.defaults
            .get(key)
            .is_some_and(|d| d.iter().map(String::as_str).eq(lines.iter().copied()))
    }
}
