//! Asset trees as the subcommands see them: the project root, the `.jasset` files under
//! the given paths, what each file is (a template, a world entity file, a loose file),
//! and a [`Session`] that loads them the way the game would: world files with their
//! whole world, templates through their chain, loose files alone.
//!
//! Everything that depends on the templates runtime (loading instances and templates,
//! the canonical text of an instance, its overrides, the template chain) goes through
//! the functions of `loading`.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use juliet_core::{Error, Registry, Warning};

use juliet_entities::entity::EntityId;
use juliet_entities::fsio::{replace_if_unchanged, Fingerprint, ReplaceOutcome, SkipReason};
use juliet_entities::load::EntityFileData;
use juliet_entities::manager::EntityManager;
use juliet_entities::patch::How;
use juliet_entities::template::TemplateCache;
use juliet_entities::world::{LoadOptions, World, WorldLoadError, ENTITIES_DIR};

use super::CliError;

mod loading;

use loading::is_session_id;
pub(crate) use loading::{
    load_single_file, load_single_with, load_template, load_world_dir, overridden_keys,
    reload_template, single_text, templates_for, SingleFile,
};

/// The folder of a project root that holds the assets.
pub(crate) const ASSETS_DIR: &str = "Assets";

/// Where templates live, relative to the project root.
pub(crate) use juliet_entities::template::TEMPLATES_DIR;

/// Where worlds live, relative to the project root (`Assets/Worlds/<Name>/Entities`).
pub(crate) const WORLDS_DIR: &str = "Assets/Worlds";

/// The nearest ancestor of `start` (itself included) that holds an `Assets/` folder.
///
/// Relative paths are searched as given first (so that printed paths stay relative),
/// then through their absolute form.
pub(crate) fn find_root(start: &Path) -> Option<PathBuf> {
    let has_assets = |dir: &Path| {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        dir.join(ASSETS_DIR).is_dir()
    };
    for dir in start.ancestors() {
        if has_assets(dir) {
            return Some(if dir.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                dir.to_path_buf()
            });
        }
    }
    let absolute = fs::canonicalize(start).ok()?;
    absolute
        .ancestors()
        .find(|d| has_assets(d))
        .map(Path::to_path_buf)
}

/// The project root: `explicit` (which must be a folder) or the nearest ancestor of the
/// first path that holds `Assets/` (`None` when there is none).
///
/// # Errors
/// A usage error when `explicit` is not a folder.
pub(crate) fn resolve_root(
    explicit: Option<&Path>,
    paths: &[PathBuf],
) -> Result<Option<PathBuf>, CliError> {
    match explicit {
        Some(root) if root.is_dir() => Ok(Some(root.to_path_buf())),
        Some(root) => Err(CliError::usage(format!(
            "--root {}: not a folder",
            root.display()
        ))),
        None => Ok(paths.first().and_then(|p| find_root(p))),
    }
}

/// Checks that every PATH given on the command line exists: one that does not, or a
/// symbolic link whose target does not, is a mistake in the command (exit code 2, as a
/// bad `--root`), not in the data.
///
/// # Errors
/// A usage error naming the first missing path.
pub(crate) fn require_paths(paths: &[PathBuf]) -> Result<(), CliError> {
    let missing = |p: &PathBuf| match fs::symlink_metadata(p) {
        Err(_) => Some("no such file or folder".to_owned()),
        Ok(m) if m.file_type().is_symlink() => match fs::metadata(p) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Some("a symbolic link to a missing target".to_owned())
            }
            Err(e) => Some(format!("a symbolic link whose target cannot be read ({e})")),
            Ok(_) => None,
        },
        Ok(_) => None,
    };
    match paths.iter().find_map(|p| Some((p, missing(p)?))) {
        Some((path, why)) => Err(CliError::usage(format!("{}: {why}", path.display()))),
        None => Ok(()),
    }
}

/// What a `.jasset` file is, by where it lives (and, for templates, by what names it:
/// see [`templates_named_in`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Role {
    /// Under `<root>/Assets/Templates/`, or named by a `Template` line.
    Template,
    /// In an `Entities/` folder: an entity of the world folder that holds it.
    World(PathBuf),
    /// Anywhere else: loaded alone.
    Loose,
}

/// The role of `path` in the project at `root`.
pub(crate) fn role_of(path: &Path, root: Option<&Path>) -> Role {
    let parent = path.parent().unwrap_or(Path::new(""));
    if parent.file_name().is_some_and(|n| n == ENTITIES_DIR) {
        return Role::World(parent.parent().unwrap_or(Path::new("")).to_path_buf());
    }
    if let Some(root) = root {
        let templates = root.join(TEMPLATES_DIR);
        if path.starts_with(&templates) || same_file_prefix(path, &templates) {
            return Role::Template;
        }
    }
    Role::Loose
}

/// The files that a `Template` line of some `.jasset` file under `<root>/Assets` names,
/// resolved (`canonicalize`): templates wherever they lie (docs/design.md, section 7.1: a
/// template has no `EntityID`). Files that cannot be read or tokenized name nothing.
pub(crate) fn templates_named_in(root: &Path) -> HashSet<PathBuf> {
    let mut named = HashSet::new();
    for file in super::listing::collect(&[root.join(ASSETS_DIR)]).files {
        let Ok(bytes) = read(&file, Some(root)) else {
            continue;
        };
        let Ok(props) = super::values::properties(&bytes, &file) else {
            continue;
        };
        for (_, crc, lines) in props {
            if crc != juliet_entities::load::keys::TEMPLATE.crc {
                continue;
            }
            let Some(first) = lines.first() else { continue };
            let value = juliet_core::Value::from_text(first.trim());
            let Ok(text) = <String as juliet_core::Codec>::decode(value) else {
                continue;
            };
            let Ok(rel) = juliet_entities::template::normalize_template_path(&text) else {
                continue;
            };
            if let Ok(real) = fs::canonicalize(root.join(rel)) {
                named.insert(real);
            }
        }
    }
    named
}

/// Whether `path` is under `dir` once both are made absolute (for `./x` against `x`).
fn same_file_prefix(path: &Path, dir: &Path) -> bool {
    match (fs::canonicalize(path), fs::canonicalize(dir)) {
        (Ok(p), Ok(d)) => p.starts_with(d),
        _ => false,
    }
}

/// The path of `path` relative to `root`, with `/` separators, as `Template` keys write
/// it (`None` when `path` is not under `root`).
pub(crate) fn project_relative(path: &Path, root: &Path) -> Option<String> {
    let rel = match path.strip_prefix(root) {
        Ok(rel) => rel.to_path_buf(),
        Err(_) => {
            let p = fs::canonicalize(path).ok()?;
            let r = fs::canonicalize(root).ok()?;
            p.strip_prefix(r).ok()?.to_path_buf()
        }
    };
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

/// Where the entities of a [`Session`] live.
#[derive(Debug)]
enum Store {
    /// A whole world.
    World(Box<World>),
    /// One file loaded alone (a template or a loose file).
    Single(Box<SingleFile>),
}

/// How one requested file fared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileState {
    /// Loaded: the entity `id` of store `store`.
    Loaded {
        /// Index of the store.
        store: usize,
        /// The entity.
        id: EntityId,
    },
    /// Did not load (its error is in [`Session::errors`]).
    Failed,
}

/// One requested file.
#[derive(Debug, Clone)]
pub(crate) struct FileEntry {
    /// The path as collected.
    pub path: PathBuf,
    /// Template, world file or loose file.
    pub role: Role,
    /// Loaded or not.
    pub state: FileState,
    /// Whether the file has an `EntityID` (else its entity got a session id as it
    /// loaded; a template never has one).
    pub has_id: bool,
}

/// A loaded entity, as the subcommands read it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EntityView<'a> {
    /// The manager that holds it.
    pub manager: &'a EntityManager,
    /// The templates its template chain is in.
    pub templates: Option<&'a TemplateCache>,
    /// Its id (a session id for templates, which have none in their file).
    pub id: EntityId,
    /// Its template path and unknown keys.
    pub data: &'a EntityFileData,
    /// Its file.
    pub path: &'a Path,
    /// Whether the file is a template.
    pub is_template: bool,
}

/// Progress of [`Session::load`]: files done so far.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Progress<'a> {
    /// Files loaded so far.
    pub done: usize,
    /// What is being loaded now (a world folder or a file).
    pub current: &'a Path,
}

/// The requested files, loaded: the worlds they belong to, templates and loose files,
/// with every error and warning of the requested files (sorted by path, line, column).
#[derive(Debug)]
pub(crate) struct Session {
    /// The project root, if any.
    pub root: Option<PathBuf>,
    /// The classes files are loaded with ([`super::schema_kinds::registry_for`]).
    pub registry: &'static Registry,
    stores: Vec<Store>,
    /// The requested files, in path order.
    pub files: Vec<FileEntry>,
    /// Errors of the requested files (every bad value of a file, plus path errors).
    pub errors: Vec<Error>,
    /// Warnings of the requested files that loaded.
    pub warnings: Vec<Warning>,
}

impl Session {
    /// Loads `files` (from [`super::listing::collect`]) in the project at `root` with the
    /// classes of `registry`, calling `progress` after each world or single file. World
    /// files without `EntityID` get session ids of `id_prefix`
    /// ([`LoadOptions::id_prefix`]): a random one when they may be written with them.
    pub(crate) fn load(
        root: Option<PathBuf>,
        registry: &'static Registry,
        files: &[PathBuf],
        id_prefix: u32,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Session {
        let mut session = Session {
            root,
            registry,
            stores: Vec::new(),
            files: Vec::new(),
            errors: Vec::new(),
            warnings: Vec::new(),
        };
        // Group world files by world folder; the others load one by one.
        let mut worlds: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
        for path in files {
            let role = role_of(path, session.root.as_deref());
            if let Role::World(dir) = &role {
                worlds
                    .entry(dir.clone())
                    .or_default()
                    .push(session.files.len());
            }
            session.files.push(FileEntry {
                path: path.clone(),
                role,
                state: FileState::Failed,
                has_id: true,
            });
        }
        // A file outside `Assets/Templates` is a template too when a `Template` line
        // names it (only looked for when there is such a file).
        if let Some(root) = &session.root {
            if session.files.iter().any(|f| f.role == Role::Loose) {
                let named = templates_named_in(root);
                for f in &mut session.files {
                    if f.role == Role::Loose
                        && fs::canonicalize(&f.path).is_ok_and(|p| named.contains(&p))
                    {
                        f.role = Role::Template;
                    }
                }
            }
        }
        let mut done = 0;
        for (dir, members) in &worlds {
            progress(Progress { done, current: dir });
            session.load_world_group(dir, members, id_prefix);
            done += members.len();
        }
        for i in 0..session.files.len() {
            if matches!(session.files[i].role, Role::World(_)) {
                continue;
            }
            let path = session.files[i].path.clone();
            progress(Progress {
                done,
                current: &path,
            });
            let is_template = session.files[i].role == Role::Template;
            session.load_single(i, is_template);
            done += 1;
        }
        progress(Progress {
            done,
            current: Path::new(""),
        });
        sort_problems(&mut session.errors, &mut session.warnings);
        session
    }

    fn load_world_group(&mut self, dir: &Path, members: &[usize], id_prefix: u32) {
        let wanted: HashMap<std::ffi::OsString, usize> = members
            .iter()
            .filter_map(|&i| Some((self.files[i].path.file_name()?.to_owned(), i)))
            .collect();
        let member_of = |path: &Path| path.file_name().and_then(|n| wanted.get(n)).copied();
        let options = LoadOptions {
            project_root: self.root.clone(),
            registry: Some(self.registry),
            id_prefix,
            ..LoadOptions::default()
        };
        let (world, report) = match World::load(dir, &options) {
            Ok(loaded) => loaded,
            Err(WorldLoadError::Directory(err) | WorldLoadError::Registry(err)) => {
                self.errors.push(err);
                return;
            }
            Err(WorldLoadError::Strict(report)) => {
                // Not asked for: strict loads are never requested here.
                self.errors.extend(report.errors);
                return;
            }
        };
        for err in report.errors {
            if member_of(&err.location.path).is_some() {
                self.errors.push(err);
            }
        }
        for w in report.warnings {
            if let Some(i) = member_of(&w.location.path) {
                if is_session_id(&w) {
                    self.files[i].has_id = false;
                }
                self.warnings.push(w);
            }
        }
        let store = self.stores.len();
        for e in world.manager().entities() {
            if let Some(i) = world.file_of(e.id()).and_then(member_of) {
                self.files[i].state = FileState::Loaded { store, id: e.id() };
            }
        }
        self.stores.push(Store::World(Box::new(world)));
    }

    fn load_single(&mut self, i: usize, is_template: bool) {
        let path = self.files[i].path.clone();
        match load_single_file(self.root.as_deref(), &path, is_template, self.registry) {
            Ok(mut single) => {
                self.warnings.append(&mut single.warnings);
                self.files[i].state = FileState::Loaded {
                    store: self.stores.len(),
                    id: single.id,
                };
                self.stores.push(Store::Single(Box::new(single)));
            }
            Err(err) => self.errors.extend(err.into_all()),
        }
    }

    /// The entity of requested file `i`, if it loaded.
    pub(crate) fn entity(&self, i: usize) -> Option<EntityView<'_>> {
        let entry = &self.files[i];
        let FileState::Loaded { store, id } = entry.state else {
            return None;
        };
        let (manager, templates, data) = match &self.stores[store] {
            Store::World(world) => (world.manager(), world.templates(), world.file_data(id)?),
            Store::Single(single) => (&single.manager, &single.templates, &single.data),
        };
        Some(EntityView {
            manager,
            templates: Some(templates),
            id,
            data,
            path: &entry.path,
            is_template: entry.role == Role::Template,
        })
    }

    /// The canonical text of requested file `i` (what a save writes), if it loaded.
    /// Differences from the template are recorded as overrides first, as a save does.
    ///
    /// # Errors
    /// As [`World::entity_text`] and [`single_text`].
    pub(crate) fn canonical_text(&mut self, i: usize) -> Option<Result<String, Error>> {
        let entry = &self.files[i];
        let FileState::Loaded { store, id } = entry.state else {
            return None;
        };
        Some(match &mut self.stores[store] {
            Store::World(world) => {
                let mut out = String::new();
                world.entity_text(id, &mut out).map(|()| out)
            }
            Store::Single(single) => single.canonical_text(),
        })
    }

    /// What requested file `i`, whose canonical text ([`Session::canonical_text`]) is
    /// `text`, becomes when brought to the current versions: its file edited in place
    /// (a world entity's as loaded, [`World::migrated_file`]; a template or loose file
    /// read again), or `text` where the edit would not read back as the entity. `None`
    /// when the file did not load.
    ///
    /// # Errors
    /// As [`read`]; a tokenizer error in the file.
    pub(crate) fn migrated_file(
        &mut self,
        i: usize,
        text: String,
    ) -> Option<Result<Vec<u8>, Error>> {
        let FileState::Loaded { store, id } = self.files[i].state else {
            return None;
        };
        let entry = &self.files[i];
        Some(match &mut self.stores[store] {
            Store::World(world) => world.migrated_file(id, &entry.path, text, !entry.has_id),
            Store::Single(single) => read(&entry.path, self.root.as_deref()).and_then(|original| {
                let how = How {
                    migrate: true,
                    forced: false,
                };
                single.edited(&entry.path, &original, text, how)
            }),
        })
    }

    /// The bytes requested file `i` held when it was loaded, if it loaded: a world's
    /// copy (the file is not read again while the world holds it), the file read again
    /// for a template or loose file.
    ///
    /// # Errors
    /// As [`read`].
    pub(crate) fn file_bytes(&self, i: usize) -> Option<Result<Cow<'_, [u8]>, Error>> {
        let FileState::Loaded { store, id } = self.files[i].state else {
            return None;
        };
        let kept = match &self.stores[store] {
            Store::World(world) => world.file_original(id),
            Store::Single(_) => None,
        };
        Some(match kept {
            Some(bytes) => Ok(Cow::Borrowed(bytes)),
            None => read(&self.files[i].path, self.root.as_deref()).map(Cow::Owned),
        })
    }

    /// What requested file `i` held when it was loaded (`None` when it did not load).
    pub(crate) fn fingerprint(&self, i: usize) -> Option<Fingerprint> {
        let FileState::Loaded { store, id } = self.files[i].state else {
            return None;
        };
        match &self.stores[store] {
            Store::World(world) => world.file_fingerprint(id),
            Store::Single(single) => Some(single.fingerprint),
        }
    }

    /// Whether requested file `i` was written by a newer build (its `ClassVersion` or
    /// `BaseVersion` is newer than this build's): the writers leave it as it is.
    pub(crate) fn is_newer(&self, i: usize) -> bool {
        let FileState::Loaded { store, id } = self.files[i].state else {
            return false;
        };
        match &self.stores[store] {
            Store::World(world) => world.file_is_newer(id),
            Store::Single(single) => single.newer,
        }
    }

    /// Replaces requested file `i` with `new` the way every writer does: a file written
    /// by a newer build is left as it is, and so is one that no longer holds what was
    /// loaded, is read-only, a symbolic link or not a regular file
    /// ([`replace_if_unchanged`], the write path of every writer).
    ///
    /// # Errors
    /// As [`replace_if_unchanged`].
    pub(crate) fn replace_file(&self, i: usize, new: &[u8]) -> Result<ReplaceOutcome, Error> {
        if self.is_newer(i) {
            return Ok(ReplaceOutcome::Skipped(SkipReason::NewerVersion));
        }
        let path = &self.files[i].path;
        replace_if_unchanged(path, self.fingerprint(i), new)
    }
}

/// Sorts problems by path, line and column (the order of a compiler's output).
pub(crate) fn sort_problems(errors: &mut [Error], warnings: &mut [Warning]) {
    errors.sort_by(|a, b| a.location.cmp(&b.location));
    warnings.sort_by(|a, b| a.location.cmp(&b.location));
}

/// Reads a whole project file in the project at `root`: a regular file of at most
/// 16 MiB (the world loader's default limit), a symbolic link only to a target inside
/// `root` (the file's folder when `None`), never blocking on a FIFO.
///
/// # Errors
/// [`ErrorKind::Io`](juliet_core::ErrorKind::Io) naming the file, or
/// [`ErrorKind::FileTooLarge`](juliet_core::ErrorKind::FileTooLarge).
pub(crate) fn read(path: &Path, root: Option<&Path>) -> Result<Vec<u8>, Error> {
    juliet_entities::fsio::read_project_file(
        path,
        root,
        juliet_entities::fsio::DEFAULT_MAX_FILE_SIZE,
    )
}

/// The environment variable of [`pause_after_load`].
pub(crate) const PAUSE_AFTER_LOAD_ENV: &str = "JASSET_TEST_PAUSE_AFTER_LOAD";

/// A hook for tests of concurrent edits: when [`PAUSE_AFTER_LOAD_ENV`] names a folder,
/// the writers (`fmt`, `migrate`) create `loaded` in it once every file is loaded,
/// then wait (up to a minute) for `go` to appear there before writing, so that a test
/// can save a file in between deterministically. Does nothing otherwise.
pub(crate) fn pause_after_load() {
    pause_in(PAUSE_AFTER_LOAD_ENV, "loaded");
}

/// A hook for tests of concurrent edits and kills: when the environment variable `env`
/// names a folder, creates `reached` in it, then waits (up to a minute) for `go` to
/// appear there. Does nothing otherwise, and nothing at all in a release build (the
/// hook is compiled into debug builds only, which the tests use).
pub(crate) fn pause_in(env: &str, reached: &str) {
    if !cfg!(debug_assertions) {
        return;
    }
    let Some(dir) = std::env::var_os(env) else {
        return;
    };
    let dir = PathBuf::from(dir);
    let _ = fs::write(dir.join(reached), "");
    let start = std::time::Instant::now();
    while !dir.join("go").exists() && start.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Copies the folder `from` into `to` (created), recursively: regular files and
/// folders, a symbolic link as the regular file it leads to. Anything else (a FIFO, a
/// socket, a device, a link to a folder or to nothing) is not copied, so that a FIFO
/// cannot block the copy: each is printed as a warning on stderr and returned.
///
/// # Errors
/// The first I/O error.
pub(crate) fn copy_dir(from: &Path, to: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut skipped = Vec::new();
    copy_dir_into(from, to, &mut skipped)?;
    for path in &skipped {
        eprintln!(
            "jasset: warning: {}: not a regular file or folder: not copied",
            path.display()
        );
    }
    Ok(skipped)
}

fn copy_dir_into(from: &Path, to: &Path, skipped: &mut Vec<PathBuf>) -> std::io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let (path, target) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type()?;
        let followed = if kind.is_symlink() {
            fs::metadata(&path).map(|m| m.file_type()).ok()
        } else {
            Some(kind)
        };
        let copied = match followed {
            Some(_) if kind.is_dir() => {
                copy_dir_into(&path, &target, skipped)?;
                true
            }
            Some(t) if t.is_file() => copy_regular(&path, &target)?,
            _ => false,
        };
        if !copied {
            skipped.push(path);
        }
    }
    Ok(())
}

/// Copies `from` to `to` (its permissions too) when it is a regular file once opened
/// (opened without blocking: a FIFO swapped in after the listing is not waited on).
/// `false`, and nothing written, otherwise.
fn copy_regular(from: &Path, to: &Path) -> std::io::Result<bool> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let mut source = options.open(from)?;
    let metadata = source.metadata()?;
    if !metadata.is_file() {
        return Ok(false);
    }
    let mut target = fs::File::create(to)?;
    std::io::copy(&mut source, &mut target)?;
    target.set_permissions(metadata.permissions())?;
    Ok(true)
}
