//! [`World`]: a directory of entity files (`<world>/Entities/*.jasset`, one file per
//! entity, any file names), loaded in parallel and saved dirty-only.
//!
//! docs/design.md, sections 6.3 (pending deletions, deletion at save) and 6.2 (dirty
//! tracking and crash-safe saves).
//!
//! # Saving and the fsync policy
//!
//! Each entity whose file changes is written through the write path of every writer
//! (docs/design.md, section 6.2): under a lock on the file, to a uniquely named
//! temporary file in the same directory (`.<name>.<random>.tmp`, which the loader
//! ignores), checked to still hold what was loaded right before the temporary replaces
//! it, so a crash mid-save leaves every file either old or new, never half-written, and
//! a file another program saved meanwhile is left alone and reported. With
//! [`Durability::Fsync`] (the default) each temporary file is `fsync`ed before its
//! rename and the `Entities` directory once after all renames and deletions, so a power
//! loss after [`World::save_world`] returns loses nothing. [`Durability::Fast`] skips
//! both: still atomic against a crash of the program, not against a power loss.
//!
//! A save killed half-way can leave temporary files behind. [`World::load`] never loads
//! them (they do not end in `.jasset`); it remembers them
//! ([`World::stale_temp_files`]) and the next [`World::save_world`] deletes those whose
//! writer is gone (a live writer holds a lock on its own).
//!
//! # What is loaded
//!
//! The regular files of `<root>/Entities` whose name ends in `.jasset` (any case).
//! The world directory and `Entities` may be symbolic links (they are what the caller
//! names), but an entry of `Entities` that is a symbolic link, FIFO, socket or device
//! is skipped with a warning ([`WarningKind::Other`]) and never written or deleted: a
//! save replaces files by renaming, which would turn a link into a copy, and a link
//! could lead out of the world. A file over [`LoadOptions::max_file_size`] is refused
//! ([`ErrorKind::FileTooLarge`]) from its metadata, asked once a first read of at most
//! 64 KiB (or the limit plus one byte) shows the file may be larger, so no more than
//! that is read of it; reading stops one byte past the limit should it grow meanwhile.

use std::collections::HashSet;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use juliet_core::{Error, ErrorKind, Registry, TokenBuffer, Warning, WarningKind};
use rayon::prelude::*;

use crate::entity::EntityId;
use crate::fsio::{Fingerprint, SkipReason, Skipped};
use crate::load::{load_entity_with_templates, save_entity, EntityFileData};
use crate::manager::EntityManager;
use crate::template::{self, TemplateCache};

mod apply_template;
mod files;
mod listing;
mod records;
mod references;
mod salvage;
mod save;
mod templates;
mod undo;

pub use apply_template::ApplyReport;
use files::{FileReader, READER};
use listing::entity_files;
pub use listing::{world_files, WorldFiles, NOT_REGULAR};
use records::{FilePath, Records};
pub use references::holds_assets;
use salvage::salvage_entity_id;
pub use save::SavePlan;
pub use templates::create_template_from_entity;
pub use undo::{EntitySnapshot, PropertyState};

/// The directory of entity files inside a world directory.
pub const ENTITIES_DIR: &str = "Entities";

pub use crate::fsio::EXTENSION;

/// Files are read in parallel this many at a time, then loaded in order.
const READ_BATCH: usize = 1024;

/// How [`World::load`] treats problems.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Turn every per-file error or warning into a failed load
    /// ([`WorldLoadError::Strict`]).
    pub strict: bool,
    /// Entity files larger than this many bytes are reported
    /// ([`ErrorKind::FileTooLarge`]) and not read; template files larger than this are
    /// a [`ErrorKind::Template`] error at the instance's `Template` key (see
    /// [`TemplateCache::set_max_file_size`]). Default 16 MiB.
    pub max_file_size: u64,
    /// Classes for resolving `Kind`; `None` for [`Registry::global`].
    pub registry: Option<&'static Registry>,
    /// The project root, which `Template` paths are relative to (the folder holding
    /// `Assets/`); `None` to find it from the world directory (see
    /// [`World::project_root`]).
    pub project_root: Option<PathBuf>,
    /// The id prefix of fresh ids from the start of the load ([`World::set_id_prefix`]),
    /// so that the entities of files without `EntityID` get their session ids from it
    /// too. Default 0 (the plain counter, the same ids from run to run); an authoring
    /// session whose saves write those ids passes [`crate::draw_id_prefix`]`()`
    /// (docs/design.md, section 5.4).
    pub id_prefix: u32,
}

impl Default for LoadOptions {
    fn default() -> LoadOptions {
        LoadOptions {
            strict: false,
            max_file_size: 16 << 20,
            registry: None,
            project_root: None,
            id_prefix: 0,
        }
    }
}

/// What [`World::load`] found: how many files, how many loaded, and every per-file error
/// and warning (in file-name order).
#[derive(Debug, Clone, Default)]
pub struct LoadReport {
    /// `.jasset` files found in `Entities`.
    pub files: usize,
    /// Entities loaded.
    pub loaded: usize,
    /// One error per file that did not load; each names its file (and line, column and
    /// key where it applies). Those files are left untouched on disk.
    pub errors: Vec<Error>,
    /// Warnings of the files that loaded (unknown keys, newer versions).
    pub warnings: Vec<Warning>,
    /// Of the files loaded, those read whole straight from their text (entities in the
    /// writer's canonical form: see [`crate::load_entity`]), without the tokenizer.
    pub direct: usize,
}

impl LoadReport {
    /// Whether every file loaded without a warning.
    pub fn is_clean(&self) -> bool {
        self.errors.is_empty() && self.warnings.is_empty()
    }
}

/// Why [`World::load`] failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum WorldLoadError {
    /// The world directory or its `Entities` directory could not be read.
    #[error("{0}")]
    Directory(Error),
    /// The classes cannot be told apart: two of the game's classes answer to one name
    /// ([`juliet_core::ErrorKind::DuplicateClass`], from [`Registry::global`]), so no
    /// file's `Kind` could be trusted and none is loaded.
    #[error("{0}")]
    Registry(Error),
    /// Strict mode and some file had an error or a warning; the report lists them all.
    #[error("{}", strict_message(.0))]
    Strict(Box<LoadReport>),
}

fn strict_message(report: &LoadReport) -> String {
    let mut text = format!(
        "strict load failed: {}, {}",
        juliet_core::quantity(report.errors.len(), "error"),
        juliet_core::quantity(report.warnings.len(), "warning")
    );
    for e in &report.errors {
        text.push_str(&format!("\n{e}"));
    }
    for w in &report.warnings {
        text.push_str(&format!("\n{w}"));
    }
    text
}

/// What [`World::save_world`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SaveReport {
    /// Entity files written (the entities whose files changed), in base-array order.
    pub written: Vec<PathBuf>,
    /// Entity files deleted (pending deletions).
    pub deleted: Vec<PathBuf>,
    /// Dirty entities whose file was left as it is, and why (changed on disk since it
    /// was loaded, read-only, written by a newer build). They stay dirty.
    pub skipped: Vec<Skipped>,
    /// Temporary files of an interrupted save, removed.
    pub removed_temps: Vec<PathBuf>,
}

/// Whether saves `fsync` (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// `fsync` each temporary file before its rename, and the directory at the end.
    #[default]
    Fsync,
    /// No `fsync`: atomic against a crash of the program, not against a power loss.
    Fast,
}

impl Durability {
    /// What the write path syncs for one file written alone (its folder too).
    pub(crate) fn sync(self) -> crate::fsio::Sync {
        match self {
            Durability::Fsync => crate::fsio::Sync::FileAndFolder,
            Durability::Fast => crate::fsio::Sync::Nothing,
        }
    }
}

/// An entity removed with [`World::remove_world_entity`], whose file is deleted at the
/// next save.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingDeletion {
    /// The removed entity.
    pub id: EntityId,
    /// Its file, if it had one.
    pub file: Option<PathBuf>,
}

/// The file an entity came from (or was last saved to), and what to write back with it.
#[derive(Debug, Clone)]
pub(crate) struct FileRecord {
    pub(crate) path: FilePath,
    pub(crate) data: EntityFileData,
    /// The file's bytes as loaded or last saved: a save edits them in place and checks
    /// the file still holds them before replacing it.
    pub(crate) original: Option<Box<[u8]>>,
    /// [`crc32fast::hash`] of the canonical text of what the file holds, once a save
    /// has made it: an entity whose text has the same CRC and length is not written.
    pub(crate) text: Option<(u32, usize)>,
    /// What the file held when loaded or last saved: a save replaces it only while it
    /// still holds that.
    pub(crate) fingerprint: Option<Fingerprint>,
    /// Its `ClassVersion` or `BaseVersion` is newer than this build's: never rewritten.
    pub(crate) newer: bool,
}

/// A world: an [`EntityManager`] over the entity files of one directory.
///
/// Entities created through [`World::manager_mut`] are saved to
/// `Entities/<id as 16 hex digits>.jasset`; loaded ones to the file they came from.
/// Files are deleted only by a save, for entities removed with
/// [`World::remove_world_entity`] (an entity destroyed directly through the manager
/// keeps its file).
///
/// Template instances (docs/design.md, section 7) load through their `Template` key
/// from the world's [`TemplateCache`], rooted at the project root, and save sparsely (see
/// [`crate::template`]).
#[derive(Debug)]
pub struct World {
    root: PathBuf,
    pub(crate) manager: EntityManager,
    pub(crate) templates: TemplateCache,
    pub(crate) records: Records,
    /// The paths of the files listed by [`World::load`] (see [`FilePath`]).
    listed_paths: String,
    pending_deletions: Vec<PendingDeletion>,
    /// Files that did not load: never written or deleted.
    untouched: Vec<PathBuf>,
    /// Temporary files of an interrupted save, found by the load: the next save
    /// deletes them.
    stale_temps: Vec<PathBuf>,
    pub(crate) durability: Durability,
    /// Warnings of the files read since the world's load ([`World::take_new_warnings`]).
    new_warnings: Vec<Warning>,
}

// A game loads a world on a background thread and hands it over, or shares it behind a
// lock: the kinds' storage is `Send` and `Sync` (see `crate::storage`), and so is the rest.
static_assertions::assert_impl_all!(World: Send, Sync);

impl World {
    /// An empty world at directory `root` (nothing is written until a save), with the
    /// project root found from it (see [`World::project_root`]).
    pub fn new(root: impl Into<PathBuf>) -> World {
        let root = root.into();
        let project = template::find_project_root(&root);
        World::with_project_root(root, project)
    }

    /// An empty world at directory `root` in the project at `project_root` (the folder
    /// holding `Assets/`, which `Template` paths are relative to).
    pub fn with_project_root(root: impl Into<PathBuf>, project_root: impl Into<PathBuf>) -> World {
        World {
            root: root.into(),
            templates: TemplateCache::new(project_root),
            manager: EntityManager::new(),
            records: Records::default(),
            listed_paths: String::new(),
            pending_deletions: Vec::new(),
            untouched: Vec::new(),
            stale_temps: Vec::new(),
            durability: Durability::default(),
            new_warnings: Vec::new(),
        }
    }

    /// Makes the ids of entities created from now on `prefix << 32 | n` (docs/design.md,
    /// section 5.4), `n` counting from 1 past the live ids of that block. Prefix 0, a
    /// world's default, is the plain counter past every live id, which keeps a game's
    /// runtime ids, and so its simulation, the same from run to run.
    pub fn set_id_prefix(&mut self, prefix: u32) {
        self.manager.set_id_prefix(prefix);
    }

    /// Draws a random id prefix ([`crate::draw_id_prefix`]) and makes new entities' ids
    /// of it ([`World::set_id_prefix`]); returns it. An authoring session (an editor, a
    /// tool, a game's level editor: whatever creates entities that are saved and
    /// committed) draws a prefix once, so that two people adding entities apart never
    /// make the same id or file name (docs/design.md, section 5.4): best when loading,
    /// through [`LoadOptions::id_prefix`], which also covers the files without
    /// `EntityID` (given ids as they load); this call, on a world already loaded, covers
    /// the entities created from then on.
    pub fn use_random_id_prefix(&mut self) -> u32 {
        let prefix = crate::manager::draw_id_prefix();
        self.set_id_prefix(prefix);
        prefix
    }

    /// Loads every `<root>/Entities/*.jasset` file (docs/design.md, section 6.1): files are
    /// read in parallel (rayon) and loaded in place, in file-name order. A file that
    /// does not load (bad syntax or value, unknown `Kind`, an `EntityID` already used by
    /// an earlier file, which the error names) is reported in the [`LoadReport`] and
    /// left untouched on disk; the other files still load. A world without an
    /// `Entities` directory is empty.
    ///
    /// # Errors
    /// [`WorldLoadError::Directory`] when `root` or `Entities` cannot be read;
    /// [`WorldLoadError::Strict`] in strict mode when any file had an error or warning.
    pub fn load(
        root: impl AsRef<Path>,
        options: &LoadOptions,
    ) -> Result<(World, LoadReport), WorldLoadError> {
        let root = root.as_ref();
        let mut world = World::for_loading(root, options)?;
        let listing = entity_files(&world.entities_dir()).map_err(WorldLoadError::Directory)?;
        let paths = listing.files;
        let mut report = LoadReport {
            files: paths.len(),
            ..LoadReport::default()
        };
        for skipped in listing.skipped {
            report.warnings.push(Warning::new(
                &skipped,
                0,
                0,
                None,
                WarningKind::Other(listing::NOT_REGULAR.into()),
            ));
            world.untouched.push(skipped);
        }
        world.stale_temps = listing.stale_temps;
        world.records.reserve(paths.len());
        // Read while the world is borrowed mutably; the world's own at the end.
        let listed = listing.paths;
        if rayon::current_num_threads() <= 1 {
            world.load_files_in_turn(&mut report, &listed, paths, options.max_file_size);
        } else {
            world.load_files_in_batches(&mut report, &listed, paths, options.max_file_size);
        }
        world.listed_paths = listed;
        report.warnings.extend(world.reference_warnings());
        if options.strict && !report.is_clean() {
            return Err(WorldLoadError::Strict(Box::new(report)));
        }
        Ok((world, report))
    }

    /// The empty world of `root` set up by `options` (registry, project root, file size
    /// limit, id prefix), for [`World::load`].
    ///
    /// # Errors
    /// [`WorldLoadError::Registry`] when the registry is not usable;
    /// [`WorldLoadError::Directory`] when `root` is not a readable directory.
    fn for_loading(root: &Path, options: &LoadOptions) -> Result<World, WorldLoadError> {
        let mut world = match &options.project_root {
            Some(project) => World::with_project_root(root, project),
            None => World::new(root),
        };
        if let Some(registry) = options.registry {
            world.manager = EntityManager::with_registry(registry);
            world.templates =
                TemplateCache::with_registry(world.templates.project_root(), registry);
        }
        world.templates.set_max_file_size(options.max_file_size);
        world.set_id_prefix(options.id_prefix);
        world.manager.registry().map_err(WorldLoadError::Registry)?;
        fs::metadata(root)
            .and_then(|m| {
                if m.is_dir() {
                    Ok(())
                } else {
                    Err(io::Error::new(
                        io::ErrorKind::NotADirectory,
                        "not a directory",
                    ))
                }
            })
            .map_err(|e| WorldLoadError::Directory(Error::io(root, e)))?;
        Ok(world)
    }

    /// Loads the files `paths` (in `listed`) on this thread, each read into one reused
    /// buffer and loaded at once, while its bytes are still in the cache.
    fn load_files_in_turn(
        &mut self,
        report: &mut LoadReport,
        listed: &str,
        paths: Vec<FilePath>,
        limit: u64,
    ) {
        let mut buffer = TokenBuffer::new();
        let mut reader = FileReader::default();
        for path in paths {
            let bytes = reader.read(path.resolve(listed), limit);
            self.load_file(&mut buffer, report, listed, path, bytes);
        }
    }

    /// Loads the files `paths` (in `listed`): read in parallel a batch at a time and
    /// loaded in order on this thread (entity kinds need not be `Send`), the next batch
    /// being read while this one loads.
    fn load_files_in_batches(
        &mut self,
        report: &mut LoadReport,
        listed: &str,
        paths: Vec<FilePath>,
        limit: u64,
    ) {
        let read_batch = |batch: &[FilePath]| -> Vec<Result<Vec<u8>, Error>> {
            batch
                .par_iter()
                .map(|p| {
                    let path = p.resolve(listed);
                    READER.with_borrow_mut(|r| {
                        let bytes = r.read(path, limit).map(<[u8]>::to_vec);
                        r.release_large();
                        bytes
                    })
                })
                .collect()
        };
        let mut buffer = TokenBuffer::new();
        let mut batches = Vec::with_capacity(paths.len().div_ceil(READ_BATCH));
        let mut paths = paths.into_iter().peekable();
        while paths.peek().is_some() {
            batches.push(paths.by_ref().take(READ_BATCH).collect::<Vec<FilePath>>());
        }
        let mut batches = batches.into_iter().peekable();
        let mut contents = batches.peek().map(|b| read_batch(b)).unwrap_or_default();
        while let Some(batch) = batches.next() {
            let mut next_contents = Vec::new();
            rayon::in_place_scope(|scope| {
                if let Some(next) = batches.peek() {
                    let next_contents = &mut next_contents;
                    scope.spawn(move |_| *next_contents = read_batch(next));
                }
                for (path, bytes) in batch.into_iter().zip(contents.drain(..)) {
                    let (buffer, report) = (&mut buffer, &mut *report);
                    match bytes {
                        Ok(b) => self.load_file(buffer, report, listed, path, Ok(&b)),
                        Err(e) => self.load_file(buffer, report, listed, path, Err(e)),
                    }
                }
            });
            contents = next_contents;
        }
    }

    /// Loads one entity file read from `path` (in `listed`, the listed paths), or
    /// reports why it was not read, and records the result in `report` and the world
    /// (its file, or untouched).
    fn load_file(
        &mut self,
        buffer: &mut TokenBuffer,
        report: &mut LoadReport,
        listed: &str,
        path: FilePath,
        bytes: Result<&[u8], Error>,
    ) {
        let file = path.resolve(listed);
        let raw = bytes.as_ref().ok().copied();
        let fingerprint = raw.map(Fingerprint::of);
        let loaded = bytes.and_then(|b| {
            load_entity_with_templates(buffer, &mut self.manager, &mut self.templates, file, b)
        });
        report.warnings.extend(self.templates.take_new_warnings());
        match loaded {
            Ok(entity) => {
                report.loaded += 1;
                report.direct += usize::from(entity.direct);
                if report.loaded == 1 {
                    // Room for the files still to load, taken to be of the first one's
                    // kind (worlds are mostly of a few kinds): the arrays are not
                    // grown and copied a dozen times over the load. Other kinds grow
                    // as they come.
                    let remaining = report.files.saturating_sub(self.untouched.len() + 1);
                    if let Some(class) = self.manager.entity(entity.id).map(|e| e.class()) {
                        self.manager.reserve(class, remaining);
                    }
                }
                let newer = entity.warnings.iter().any(is_newer_version);
                report.warnings.extend(entity.warnings);
                self.records.insert(
                    entity.id,
                    FileRecord {
                        path,
                        data: entity.data,
                        original: raw.map(Box::from),
                        text: None,
                        fingerprint,
                        newer,
                    },
                );
            }
            Err(mut err) => {
                // Its id stays reserved: once the file is mended it must still load.
                if let Some(id) = raw.and_then(salvage_entity_id) {
                    self.manager.note_id(id);
                }
                if let ErrorKind::DuplicateEntityId { id, other } = &mut err.kind {
                    if let Some(first) = self.records.get(&EntityId(*id)) {
                        *other = first.path.resolve(listed).to_path_buf();
                    }
                }
                report.errors.extend(err.into_all());
                self.untouched.push(file.to_path_buf());
            }
        }
    }

    /// The world directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `<root>/Entities`.
    pub fn entities_dir(&self) -> PathBuf {
        self.root.join(ENTITIES_DIR)
    }

    /// The entities.
    pub fn manager(&self) -> &EntityManager {
        &self.manager
    }

    /// The entities, mutably (create, change; remove with [`World::remove_world_entity`]).
    pub fn manager_mut(&mut self) -> &mut EntityManager {
        &mut self.manager
    }

    /// The file entity `id` was loaded from or last saved to (`None` for a new entity).
    pub fn file_of(&self, id: EntityId) -> Option<&Path> {
        self.records
            .get(&id)
            .map(|r| r.path.resolve(&self.listed_paths))
    }

    /// The template path and unknown keys kept for entity `id`'s file.
    pub fn file_data(&self, id: EntityId) -> Option<&EntityFileData> {
        self.records.get(&id).map(|r| &r.data)
    }

    /// Files that did not load; saves never write or delete them.
    pub fn untouched_files(&self) -> &[PathBuf] {
        &self.untouched
    }

    /// Temporary files left by an interrupted save, found by [`World::load`] and never
    /// loaded; the next [`World::save_world`] deletes them.
    pub fn stale_temp_files(&self) -> &[PathBuf] {
        &self.stale_temps
    }

    /// Entities removed since the last save, whose files the next save deletes
    /// (docs/design.md, section 6.3).
    pub fn pending_deletions(&self) -> &[PendingDeletion] {
        &self.pending_deletions
    }

    /// The save durability (default [`Durability::Fsync`]).
    pub fn set_durability(&mut self, durability: Durability) {
        self.durability = durability;
    }

    /// Removes entity `id`: destroyed in memory now, its
    /// file deleted at the next save.
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchEntity`] when `id` is not live.
    pub fn remove_world_entity(&mut self, id: EntityId) -> Result<(), Error> {
        self.manager.destroy_entity(id)?;
        let listed = &self.listed_paths;
        let file = (self.records.remove(&id)).map(|r| r.path.resolve(listed).to_path_buf());
        self.pending_deletions.push(PendingDeletion { id, file });
        Ok(())
    }

    /// Appends the canonical text of entity `id` to `out`: what [`World::save_world`]
    /// writes to its file (an instance sparsely, through
    /// [`template::save_instance`], which records differences from the template as
    /// overrides; a standalone entity through [`save_entity`]). Writes no file and does
    /// not change the dirty flag (`jasset fmt` and `jasset migrate` use it).
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchEntity`] when `id` is not live; [`ErrorKind::ReservedKey`]
    /// when its class has a property keyed like a base key; for an instance, the error
    /// of reloading its template when the cache was invalidated.
    pub fn entity_text(&mut self, id: EntityId, out: &mut String) -> Result<(), Error> {
        let none = EntityFileData::default();
        let data = self.records.get(&id).map_or(&none, |r| &r.data);
        match self.manager.entity(id).and_then(|e| e.template()) {
            Some(crc) => {
                template::reload_if_invalidated(&mut self.templates, crc, data)?;
                template::save_instance(&mut self.manager, &self.templates, id, data, out)
            }
            None => save_entity(&self.manager, id, data, out),
        }
    }
}

impl World {
    /// Why the file of dirty entity `id` at `path` must not be replaced, if it must not:
    /// it was written by a newer build, it is read-only, or it no longer holds what was
    /// loaded (docs/design.md, section 6.2: a file changed on disk since it was loaded is
    /// not overwritten but reported).
    fn save_refusal(&self, id: EntityId, path: &Path) -> Option<SkipReason> {
        let record = self.records.get(&id)?;
        if record.newer {
            return Some(SkipReason::NewerVersion);
        }
        if let Some(reason) = crate::fsio::write_refusal(path) {
            return Some(reason);
        }
        let loaded = record.fingerprint?;
        (crate::fsio::fingerprint_now(path) != Some(loaded)).then_some(SkipReason::ChangedOnDisk)
    }

    /// What the file of entity `id` held when it was loaded or last saved (`None` for
    /// an entity without a file): comparing it before and after
    /// [`World::save_one`] tells whether the save wrote the file.
    pub fn file_fingerprint(&self, id: EntityId) -> Option<Fingerprint> {
        self.records.get(&id)?.fingerprint
    }

    /// The bytes of entity `id`'s file as loaded or last saved (`None` for a new entity,
    /// or one the world did not load from a file): what the file held, without reading
    /// it a second time.
    ///
    /// ```
    /// use juliet_entities::prelude::*;
    ///
    /// let dir = tempfile::tempdir()?;
    /// std::fs::create_dir(dir.path().join("Entities"))?;
    /// let text = "; EntityID\n0x0000000000000001\n; Kind\nInert\n; Mass\n2\n";
    /// std::fs::write(dir.path().join("Entities/rock.jasset"), text)?;
    /// let (world, _) = World::load(dir.path(), &LoadOptions::default())?;
    /// assert_eq!(world.file_original(EntityId(1)), Some(text.as_bytes()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn file_original(&self, id: EntityId) -> Option<&[u8]> {
        self.records.get(&id)?.original.as_deref()
    }

    /// Whether the file of entity `id` was written by a newer build (its
    /// `ClassVersion` or `BaseVersion` is newer than this build's): the saves leave it
    /// as it is ([`SkipReason::NewerVersion`]). `false` for an entity without a file.
    pub fn file_is_newer(&self, id: EntityId) -> bool {
        self.records.get(&id).is_some_and(|r| r.newer)
    }
}

/// Whether warning `w` says that its file's `ClassVersion` or `BaseVersion` is newer
/// than this build's ([`WarningKind::NewerClassVersion`],
/// [`WarningKind::NewerBaseVersion`]): the file was written by a newer build, and the
/// saves leave it as it is ([`SkipReason::NewerVersion`]).
pub fn is_newer_version(w: &Warning) -> bool {
    matches!(
        w.kind,
        WarningKind::NewerClassVersion { .. } | WarningKind::NewerBaseVersion { .. }
    )
}

/// [`World::load`] with default options.
///
/// # Errors
/// As [`World::load`].
pub fn load_world(root: impl AsRef<Path>) -> Result<(World, LoadReport), WorldLoadError> {
    World::load(root, &LoadOptions::default())
}

/// `dir/<id>.jasset`, or `dir/<id>-N.jasset` when that is claimed or exists.
fn new_file_path(dir: &Path, id: EntityId, claimed: &HashSet<PathBuf>) -> PathBuf {
    let stem = format!("{:016X}", id.0);
    let mut path = dir.join(id.file_name());
    let mut n = 2;
    while claimed.contains(&path) || path.exists() {
        path = dir.join(format!("{stem}-{n}.{EXTENSION}"));
        n += 1;
    }
    path
}

/// `fsync`s a directory so that renames and deletions in it are durable (a no-op where
/// directories cannot be opened, as on Windows).
fn sync_dir(dir: &Path) -> Result<(), Error> {
    crate::fsio::sync_folder(dir).map_err(|e| Error::io(dir, e))
}

impl fmt::Display for PendingDeletion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(file) => write!(f, "{} ({})", self.id, file.display()),
            None => write!(f, "{} (never saved)", self.id),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A world of `n` `Collectible` files (`<i>.jasset`, id `i`), some of them broken:
    /// file 7 does not parse, file 11 repeats the id of file 3, file 13 is over a
    /// 200-byte limit. Returns the expected (loaded, errors).
    fn mixed_world(root: &Path, n: u64) -> (usize, usize) {
        let dir = root.join(ENTITIES_DIR);
        fs::create_dir_all(&dir).unwrap();
        for i in 1..=n {
            let id = if i == 11 { 3 } else { i };
            let mut text = format!(
                "; AssetType\nEntity\n; EntityID\n0x{id:016X}\n; Kind\nCollectible\n\
                 ; Position\n{i}.0 0.0 0.0\n; Value\n{i}\n"
            );
            match i {
                7 => text.push_str("no header line\n"),
                13 => text.push_str(&format!("# {}\n", "x".repeat(200))),
                _ => {}
            }
            fs::write(dir.join(format!("{i:05}.jasset")), text).unwrap();
        }
        let broken = [7, 11, 13].iter().filter(|&&i| i <= n).count();
        (n as usize - broken, broken)
    }

    /// What a load found, comparable across thread counts.
    fn outcome(world: &World, report: &LoadReport) -> Vec<String> {
        let mut lines: Vec<String> = report.errors.iter().map(|e| e.to_string()).collect();
        lines.extend(report.warnings.iter().map(|w| w.to_string()));
        for e in world.manager().entities() {
            let file = world.file_of(e.id()).unwrap();
            lines.push(format!("{} {} {}", e.id(), e.position(), file.display()));
        }
        lines.extend(
            world
                .untouched_files()
                .iter()
                .map(|p| p.display().to_string()),
        );
        lines
    }

    #[test]
    fn one_thread_and_several_threads_load_the_same_world() {
        // More files than two read batches: the pipelined path reads ahead.
        let n = 2 * READ_BATCH as u64 + 37;
        let root = tempfile::tempdir().unwrap();
        let (loaded, broken) = mixed_world(root.path(), n);
        let options = LoadOptions {
            max_file_size: 200,
            ..LoadOptions::default()
        };
        let mut outcomes = Vec::new();
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let found = pool.install(|| {
                assert_eq!(rayon::current_num_threads(), threads);
                let (world, report) = World::load(root.path(), &options).unwrap();
                world.manager().check_invariants().unwrap();
                assert_eq!((report.files, report.loaded), (n as usize, loaded));
                assert_eq!(report.errors.len(), broken);
                assert!(matches!(
                    report.errors[2].kind,
                    ErrorKind::FileTooLarge { limit: 200, .. }
                ));
                outcome(&world, &report)
            });
            outcomes.push(found);
        }
        assert_eq!(outcomes[0], outcomes[1]);
    }
}
