//! [`World::save_world`]: which entities changed, and their files edited in place.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use juliet_core::{Class, Error};

use super::{new_file_path, sync_dir, Durability, FilePath, FileRecord, World};
use super::{PendingDeletion, SaveReport};
use crate::entity::EntityId;
use crate::fsio::{Expect, Fingerprint, ReplaceOutcome, Skipped, Sync};
use crate::load::EntityFileData;
use crate::patch::in_place::{edit_file, EntityFile, How, InPlace};
use crate::patch::Defaults;

/// What [`World::save_world`] would do now ([`World::save_plan`]): the files it would
/// write and delete, the ones it would leave alone and why, and the first entity whose
/// text cannot be made. The save plans each file with the same code, so a list shown
/// from it (the editor's save dialog) is what the save then writes and deletes, as long
/// as nothing changes in between.
#[derive(Debug, Clone, Default)]
pub struct SavePlan {
    deletes: Vec<PathBuf>,
    steps: Vec<(EntityId, Planned)>,
}

/// What the save does with one live entity.
#[derive(Debug, Clone)]
enum Planned {
    /// Its file holds its text already: only its dirty mark is cleared (and the text's
    /// fingerprint remembered, when it was worked out).
    Unchanged(Option<(u32, usize)>),
    /// `bytes` go to `path` (a new file when the entity has no record).
    Write {
        path: PathBuf,
        bytes: Vec<u8>,
        fingerprint: (u32, usize),
    },
    /// Left alone (changed on disk, read-only, written by a newer build).
    Refused(Skipped),
    /// Its text cannot be made: the save stops here.
    Failed(Error),
}

impl SavePlan {
    /// The files the save would write, in base-array order.
    pub fn written(&self) -> impl Iterator<Item = &Path> {
        self.steps.iter().filter_map(|(_, step)| match step {
            Planned::Write { path, .. } => Some(path.as_path()),
            _ => None,
        })
    }

    /// The files the save would delete (those of removed entities that still exist).
    pub fn deleted(&self) -> &[PathBuf] {
        &self.deletes
    }

    /// The files the save would leave as they are, and why.
    pub fn skipped(&self) -> impl Iterator<Item = &Skipped> {
        self.steps.iter().filter_map(|(_, step)| match step {
            Planned::Refused(skipped) => Some(skipped),
            _ => None,
        })
    }

    /// The error the save would stop at (an entity whose text cannot be made; the
    /// entities after it in base-array order are not planned).
    pub fn error(&self) -> Option<&Error> {
        self.steps.iter().find_map(|(_, step)| match step {
            Planned::Failed(e) => Some(e),
            _ => None,
        })
    }

    /// Whether the save would write and delete nothing.
    pub fn is_empty(&self) -> bool {
        self.deletes.is_empty() && self.written().next().is_none()
    }
}

impl World {
    /// What [`World::save_world`] would do now, without doing it: which files it would
    /// write (with the file name a new entity gets, `<id>-N.jasset` when `<id>.jasset` is
    /// taken), which it would delete, which it would leave alone. The save itself plans
    /// with the same code (writing each file as soon as it is planned), so the two never
    /// disagree.
    ///
    /// Costs what a save costs without the writes: every entity's text is made, and a
    /// changed one's file is read back (docs/design.md, section 6.2).
    pub fn save_plan(&mut self) -> SavePlan {
        let mut plan = SavePlan {
            deletes: self.planned_deletions(),
            steps: Vec::new(),
        };
        self.plan_entities(|_, id, step| {
            plan.steps.push((id, step));
            Ok(())
        })
        .expect("planning alone does not fail");
        plan
    }

    /// `plan` (made by [`World::save_plan`]) brought up to date after only the
    /// entities `ids`, each loaded from a file, changed: their steps are planned again,
    /// the others kept, so the cost is theirs instead of the world's. Returns `false`
    /// when that cannot be done (an entity new or gone, a step that fails, a plan
    /// that stopped at a failure): plan the world again then; `plan` may have changed.
    pub fn replan(&mut self, plan: &mut SavePlan, ids: &[EntityId]) -> bool {
        if plan.error().is_some() {
            return false;
        }
        let mut defaults: Vec<(&'static Class, Defaults)> = Vec::new();
        for &id in ids {
            let Some(record) = self.records.get(&id).filter(|_| self.manager.contains(id)) else {
                return false;
            };
            let path = record.path.resolve(&self.listed_paths).to_path_buf();
            let Ok(step) = self.plan_entity(id, path, &mut defaults) else {
                return false;
            };
            match plan.steps.iter_mut().find(|(at, _)| *at == id) {
                Some(slot) if !matches!(step, Planned::Failed(_)) => slot.1 = step,
                _ => return false,
            }
        }
        true
    }

    /// The files the save deletes: those of removed entities and of ones destroyed
    /// through the manager that still exist, unless a live entity's record names the
    /// same file.
    fn planned_deletions(&self) -> Vec<PathBuf> {
        let listed = &self.listed_paths;
        let records = &self.records;
        let live = |id: &EntityId| self.manager.contains(*id);
        let claimed: HashSet<&Path> = (records.ids())
            .filter(live)
            .filter_map(|id| Some(records.get(&id)?.path.resolve(listed)))
            .collect();
        let gone = (records.ids())
            .filter(|id| !live(id))
            .filter_map(|id| Some(records.get(&id)?.path.resolve(listed).to_path_buf()));
        let pending = (self.pending_deletions.iter()).filter_map(|p| p.file.clone());
        let mut out: Vec<PathBuf> = Vec::new();
        for file in pending.chain(gone) {
            let exists = fs::symlink_metadata(&file).is_ok();
            if exists && !claimed.contains(file.as_path()) && !out.contains(&file) {
                out.push(file);
            }
        }
        out
    }

    /// Plans each live entity in base-array order and hands the step to `each` at once
    /// (the save writes a file before planning the next one, a plan only collects).
    /// Stops after a [`Planned::Failed`] step, and at `each`'s first error, which it
    /// returns.
    fn plan_entities(
        &mut self,
        mut each: impl FnMut(&mut World, EntityId, Planned) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let dir = self.entities_dir();
        let ids: Vec<EntityId> = self.manager.entities().iter().map(|e| e.id()).collect();
        let mut claimed: Option<HashSet<PathBuf>> = None;
        let mut defaults: Vec<(&'static Class, Defaults)> = Vec::new();
        for id in ids {
            let path = match self.records.get(&id) {
                Some(record) => record.path.resolve(&self.listed_paths).to_path_buf(),
                None => {
                    let claimed = claimed.get_or_insert_with(|| {
                        // The files of removed entities too, whether their records are
                        // still there (a plan) or already pending deletions (a save):
                        // not reused in the save that deletes them.
                        let listed = &self.listed_paths;
                        (self.records.values())
                            .map(|r| r.path.resolve(listed).to_path_buf())
                            .chain(self.pending_deletions.iter().filter_map(|p| p.file.clone()))
                            .chain(self.untouched.iter().cloned())
                            .collect()
                    });
                    let path = new_file_path(&dir, id, claimed);
                    claimed.insert(path.clone());
                    path
                }
            };
            let step = match self.plan_entity(id, path, &mut defaults) {
                Ok(step) => step,
                Err(e) => Planned::Failed(e),
            };
            let failed = matches!(step, Planned::Failed(_));
            each(self, id, step)?;
            if failed {
                break;
            }
        }
        Ok(())
    }

    /// What the save does with live entity `id`, whose file is `path`.
    fn plan_entity(
        &mut self,
        id: EntityId,
        path: PathBuf,
        defaults: &mut Vec<(&'static Class, Defaults)>,
    ) -> Result<Planned, Error> {
        let mut text = String::new();
        self.entity_text(id, &mut text)
            .map_err(|e| e.with_path(&path))?;
        let fingerprint = (crc32fast::hash(text.as_bytes()), text.len());
        // Asked for by `mark_dirty`: written even when its text is the file's (a file at
        // an older version is then brought to the current one by the in-place edit).
        // Another dirty mark (`get_mut`, the position setter) asks for nothing: the text
        // comparison finds what changed.
        let forced = self.manager.entity(id).is_some_and(|e| e.write_requested());
        let bytes = match self.records.get(&id) {
            None => text.into_bytes(),
            Some(record) if !forced && record.text == Some(fingerprint) => {
                return Ok(Planned::Unchanged(None));
            }
            Some(record) if record.original.is_none() => text.into_bytes(),
            Some(_) => match self.edit_in_place(
                id,
                &path,
                &text,
                How {
                    migrate: false,
                    forced,
                },
                false,
                defaults,
            )? {
                InPlace::Unchanged => return Ok(Planned::Unchanged(Some(fingerprint))),
                InPlace::Edited(bytes) => bytes,
                InPlace::Canonical => text.into_bytes(),
            },
        };
        let record = self.records.get(&id);
        let same = record.and_then(|r| r.original.as_deref()) == Some(&bytes[..]);
        if same && !forced {
            return Ok(Planned::Unchanged(Some(fingerprint)));
        }
        if let Some(reason) = self.save_refusal(id, &path) {
            // A forced write of the bytes a read-only file holds changes nothing.
            if same && reason == crate::fsio::SkipReason::ReadOnly {
                return Ok(Planned::Unchanged(Some(fingerprint)));
            }
            return Ok(Planned::Refused(Skipped { path, reason }));
        }
        // Forced, with the bytes the file holds still (its fingerprint is checked by the
        // refusal above): rewriting them would change only its modification time. A
        // file kept after it was removed on disk has no fingerprint and is written.
        if same && record.is_some_and(|r| r.fingerprint.is_some()) {
            return Ok(Planned::Unchanged(Some(fingerprint)));
        }
        Ok(Planned::Write {
            path,
            bytes,
            fingerprint,
        })
    }

    /// Saves the world (docs/design.md, section 6.2): deletes the files of pending
    /// deletions (entities removed with [`World::remove_world_entity`] or destroyed
    /// through [`World::manager_mut`]), then writes each entity whose text differs from
    /// what its file holds, and only those, through a temporary file and a rename (see
    /// the module documentation for the fsync policy). Changes are found by comparing
    /// texts, so an edit through any `&mut` access (`get_mut`, `slice_mut`) is saved
    /// without [`crate::Entity::mark_dirty`], an entity taken through `get_mut` and left
    /// as it was is not written, and a second save with no change writes nothing.
    /// [`crate::Entity::mark_dirty`] asks for an entity to be written even when its text
    /// is its file's (a file at an older version is then migrated in place; a file that
    /// holds the bytes the save would write is left alone).
    /// What it does is what [`World::save_plan`] lists.
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
        // A temporary a live writer holds (another program writing now) is its own.
        while let Some(stale) = self.stale_temps.pop() {
            match crate::fsio::remove_stale(&stale) {
                Ok(true) => report.removed_temps.push(stale),
                Ok(false) => {}
                Err(e) => {
                    self.stale_temps.push(stale);
                    return Err(e);
                }
            }
        }

        let deletes = self.planned_deletions();

        // Entities destroyed through the manager: their files go like removed ones'.
        let gone: Vec<EntityId> = (self.records.ids())
            .filter(|&id| !self.manager.contains(id))
            .collect();
        for id in gone {
            let listed = &self.listed_paths;
            let file = (self.records.remove(&id)).map(|r| r.path.resolve(listed).to_path_buf());
            self.pending_deletions.push(PendingDeletion { id, file });
        }
        let mut done = 0;
        let mut failure = None;
        for pending in &self.pending_deletions {
            if let Some(file) = pending.file.as_ref().filter(|f| deletes.contains(f)) {
                if !report.deleted.contains(file) {
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

        let mut created_dir = false;
        self.plan_entities(|world, id, step| {
            world.do_step(id, step, &mut created_dir, &mut report)
        })?;
        if fsync && !(report.written.is_empty() && report.deleted.is_empty()) {
            sync_dir(&dir)?;
        }
        Ok(report)
    }

    /// Saves entity `id` alone to the file it was loaded from, as [`World::save_world`]
    /// saves each entity (the file edited in place, written when the entity's text
    /// changed or [`crate::Entity::mark_dirty`] asked for a write, left as it is when it
    /// changed on disk since it was loaded), and nothing else: the other entities,
    /// deletions and the temporaries of an interrupted save stay as they are. For a
    /// program that edits one file of a world. An entity without a file (a new one, or
    /// an id the world does not have) is not saved: the report is empty.
    ///
    /// # Errors
    /// As [`World::save_world`] for that entity.
    ///
    /// # Example
    /// ```
    /// use juliet_entities::prelude::*;
    ///
    /// let dir = tempfile::tempdir()?;
    /// let entities = dir.path().join("Entities");
    /// std::fs::create_dir(&entities)?;
    /// let file = |id: u64| format!("; EntityID\n{id:#018x}\n; Kind\nInert\n; Mass\n2\n");
    /// std::fs::write(entities.join("a.jasset"), file(1))?;
    /// std::fs::write(entities.join("b.jasset"), file(2))?;
    /// let (mut world, _) = World::load(dir.path(), &LoadOptions::default())?;
    /// world.set_property(EntityId(1), "Mass", "3")?;
    /// world.set_property(EntityId(2), "Mass", "3")?;
    /// let report = world.save_one(EntityId(1))?;
    /// assert_eq!(report.written, [entities.join("a.jasset")]);
    /// // The other entity's change is not saved.
    /// assert_eq!(std::fs::read_to_string(entities.join("b.jasset"))?, file(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save_one(&mut self, id: EntityId) -> Result<SaveReport, Error> {
        let mut report = SaveReport::default();
        let Some(record) = self.records.get(&id) else {
            return Ok(report);
        };
        let path = record.path.resolve(&self.listed_paths).to_path_buf();
        let step = self.plan_entity(id, path, &mut Vec::new())?;
        self.do_step(id, step, &mut false, &mut report)?;
        if self.durability == Durability::Fsync && !report.written.is_empty() {
            sync_dir(&self.entities_dir())?;
        }
        Ok(report)
    }

    /// Does what the save planned for entity `id` (`created_dir`: whether the entities
    /// folder was made in this save), noting it in `report`.
    fn do_step(
        &mut self,
        id: EntityId,
        step: Planned,
        created_dir: &mut bool,
        report: &mut SaveReport,
    ) -> Result<(), Error> {
        let (path, bytes, fingerprint) = match step {
            Planned::Unchanged(fingerprint) => {
                if let (Some(f), Some(r)) = (fingerprint, self.records.get_mut(&id)) {
                    r.text = Some(f);
                }
                self.saved(id);
                return Ok(());
            }
            Planned::Refused(skipped) => {
                report.skipped.push(skipped);
                return Ok(());
            }
            Planned::Failed(e) => return Err(e),
            Planned::Write {
                path,
                bytes,
                fingerprint,
            } => (path, bytes, fingerprint),
        };
        if !*created_dir {
            let dir = self.entities_dir();
            fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
            *created_dir = true;
        }
        // What the file held when it was loaded or last saved: a file changed since is
        // not overwritten (checked under the write path's lock, right before the
        // rename). A file removed on disk and kept has no fingerprint.
        let expect = match self.records.get(&id) {
            None => Expect::Absent,
            Some(r) => r.fingerprint.map_or(Expect::Any, Expect::Holds),
        };
        // The folder is synced once, after the last write (`save_world`, `save_one`).
        let sync = match self.durability {
            Durability::Fsync => Sync::File,
            Durability::Fast => Sync::Nothing,
        };
        match crate::fsio::write_file(&path, expect, &bytes, sync)? {
            ReplaceOutcome::Skipped(reason) => {
                report.skipped.push(Skipped { path, reason });
                return Ok(());
            }
            ReplaceOutcome::Written => report.written.push(path.clone()),
            // Holds these bytes already (another run wrote them): nothing to write.
            ReplaceOutcome::Same => {}
        }
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
        Ok(())
    }

    /// The bytes of entity `id`'s file (at `path`), as loaded, brought to the entity's
    /// current versions in place: the version lines, the deprecated keys the migration
    /// consumed and the properties it set change, nothing else (comments, spelling and
    /// layout stay). `text` is the entity's canonical text ([`World::entity_text`], which
    /// the caller has made already: it is as large as the file), returned as it is when
    /// the edit would not read back as the entity, or when the entity has no file.
    /// `without_id`: the file has no `EntityID` and `text` none either
    /// ([`crate::load::without_entity_id`]), so that the session's id is not added.
    /// Nothing is written: the caller writes the bytes
    /// ([`crate::fsio::replace_if_unchanged`] with [`World::file_fingerprint`]).
    ///
    /// # Errors
    /// A tokenizer error in the file.
    pub fn migrated_file(
        &mut self,
        id: EntityId,
        path: &Path,
        text: String,
        without_id: bool,
    ) -> Result<Vec<u8>, Error> {
        let mut defaults = Vec::new();
        let how = How {
            migrate: true,
            forced: false,
        };
        let edited = self.edit_in_place(id, path, &text, how, without_id, &mut defaults)?;
        Ok(edited.or_text(text))
    }

    /// Clears entity `id`'s unsaved mark.
    fn saved(&mut self, id: EntityId) {
        if let Some(e) = self.manager.entity_mut(id) {
            e.clear_dirty();
        }
    }
}

impl World {
    /// The file of entity `id` (at `path`, as loaded or last saved) edited in place to
    /// hold `text`, the entity's canonical text ([`World::entity_text`]), as
    /// [`edit_file`] makes it; [`InPlace::Canonical`] for an entity without a file.
    ///
    /// # Errors
    /// As [`edit_file`].
    fn edit_in_place(
        &mut self,
        id: EntityId,
        path: &Path,
        text: &str,
        how: How,
        without_id: bool,
        defaults: &mut Vec<(&'static Class, Defaults)>,
    ) -> Result<InPlace, Error> {
        let World {
            manager,
            templates,
            records,
            ..
        } = self;
        let Some(record) = records.get(&id) else {
            return Ok(InPlace::Canonical);
        };
        let Some(original) = record.original.as_deref() else {
            return Ok(InPlace::Canonical);
        };
        let file = EntityFile {
            manager,
            id,
            path,
            original,
            unknown: &record.data.unknown,
            without_id,
        };
        edit_file(&file, templates, text, how, defaults)
    }
}
