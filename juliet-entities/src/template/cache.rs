//! [`TemplateCache`]: templates read and parsed once, their archetypes kept in per-kind
//! storage, found by the CRC-32 of their normalized path (docs/design.md, section 7.2).
//!
//! A template is an entity file without `EntityID` (docs/design.md, section 7.1: one format for
//! templates and instances), read through the same base-key reader and class loader
//! as world entities. Its *archetype* is a value of
//! its kind, kept in the cache's [`KindStorage`] of that kind, so the archetypes of one
//! kind sit in one contiguous array. File bytes are read
//! into a `bumpalo` scratch arena that is reset once a load is done (docs/design.md,
//! section 5.6).
//!
//! A template may name a `Template` itself (a variant): its archetype starts as a clone
//! of its parent's, and its own file is loaded over it. A chain that comes back to a
//! template being loaded is an error naming the whole chain.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Deref;
use std::path::{Path, PathBuf};

use bumpalo::Bump;
use glam::Vec3;
use juliet_core::{Class, ClassKey, Document, Error, ErrorKind, Reflect, Registry, Warning};

use super::path::{normalize, template_crc, INVALID_TEMPLATE_CRC};
use crate::entity::OverrideSet;
use crate::storage::{Exclusive, KindStorage};

/// Template files larger than this many bytes are refused unless
/// [`TemplateCache::set_max_file_size`] says otherwise: 16 MiB, the default of
/// [`crate::world::LoadOptions::max_file_size`] for world files.
pub const DEFAULT_MAX_TEMPLATE_SIZE: u64 = 16 << 20;

/// The longest template chain: a template, its parent template, the parent's parent,
/// and so on, counting the template itself. A longer chain is an
/// [`ErrorKind::Template`] error (so that a hostile project cannot exhaust the stack).
pub const MAX_TEMPLATE_DEPTH: usize = 32;

/// One cached template: its CRC and path, its
/// class, where its archetype lives, its base defaults and what its file sets.
#[derive(Debug)]
pub struct CachedTemplate {
    crc: u32,
    path: String,
    class: &'static Class,
    /// Index of the kind's archetype storage in the cache.
    kind: u16,
    /// Slot of the archetype in that storage.
    slot: u32,
    position: Vec3,
    position_set: bool,
    sets: OverrideSet,
    parent: Option<u32>,
    /// Templates in its chain, itself included (1 without parent).
    depth: usize,
    warnings: Vec<Warning>,
}

impl CachedTemplate {
    /// CRC-32 of the normalized path, never 0.
    #[inline]
    pub fn crc(&self) -> u32 {
        self.crc
    }

    /// The normalized project-relative path (kept in every
    /// build for messages, the inspector and saving).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The template's kind.
    #[inline]
    pub fn class(&self) -> &'static Class {
        self.class
    }

    /// The default position of instances: the file's
    /// `Position`, else the parent template's, else the origin.
    #[inline]
    pub fn position(&self) -> Vec3 {
        self.position
    }

    /// The properties the template file itself sets (indices into the class's property
    /// table); a variant inherits the others from its parent.
    pub fn own_properties(&self) -> &OverrideSet {
        &self.sets
    }

    /// Whether the template file itself gives `Position`.
    pub fn sets_position(&self) -> bool {
        self.position_set
    }

    /// CRC of the parent template, for a variant (a template with a `Template` key).
    pub fn parent(&self) -> Option<u32> {
        self.parent
    }

    /// Warnings of the template's file (unknown keys, newer versions, an ignored
    /// `EntityID`).
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }
}

/// A cached template with its archetype: what [`TemplateCache::find`] and
/// [`TemplateCache::get_or_load`] return, and what
/// [`crate::template::instantiate_from_template`] instantiates. Derefs to
/// [`CachedTemplate`].
#[derive(Debug, Clone, Copy)]
pub struct TemplateRef<'c> {
    template: &'c CachedTemplate,
    archetypes: &'c KindStorage,
}

impl<'c> TemplateRef<'c> {
    /// The cached record.
    pub fn cached(&self) -> &'c CachedTemplate {
        self.template
    }

    /// The archetype as a `T` (`None` when the template is of another kind).
    pub fn archetype<T: Reflect>(&self) -> Option<&'c T> {
        self.archetypes.get::<T>(self.template.slot as usize)
    }

    /// The storage holding the archetype, and its slot, for type-erased access.
    #[inline]
    pub fn archetype_storage(&self) -> (&'c KindStorage, usize) {
        (self.archetypes, self.template.slot as usize)
    }

    /// The archetype's value text for property `index` of the class's table (what an
    /// inspector shows as the template value). Panics when `index` is out of bounds.
    pub fn property_text(&self, index: usize) -> String {
        let mut out = String::new();
        self.archetypes
            .encode_property(self.template.slot as usize, index, &mut out);
        out
    }
}

impl Deref for TemplateRef<'_> {
    type Target = CachedTemplate;
    #[inline]
    fn deref(&self) -> &CachedTemplate {
        self.template
    }
}

/// How a template was changed by [`TemplateCache::reload`]: handed to the caller for
/// each template whose archetype changed (the reloaded one and its variants, parents
/// first), while both the old and the new archetype are alive.
#[derive(Debug)]
pub struct TemplateChange<'c> {
    /// The template's CRC.
    pub crc: u32,
    /// Its kind.
    pub class: &'static Class,
    /// The storage holding both archetypes.
    pub archetypes: &'c KindStorage,
    /// Slot of the archetype before the reload.
    pub old_slot: usize,
    /// Slot of the archetype after the reload.
    pub new_slot: usize,
    /// The properties whose value changed.
    pub changed: &'c OverrideSet,
    /// Default position before the reload.
    pub old_position: Vec3,
    /// Default position after the reload.
    pub new_position: Vec3,
}

/// Where a template reference was written: the `Template` key of an instance or of a
/// variant template. Errors about the reference (unreadable file, cycle) point there.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Origin<'a> {
    pub(crate) path: &'a Path,
    pub(crate) line: u32,
    pub(crate) column: u32,
    pub(crate) key: &'a str,
}

impl<'a> Origin<'a> {
    /// The origin of node `node` of `doc`.
    pub(crate) fn of(doc: &Document<'a>, node: usize) -> Origin<'a> {
        let n = doc.node(node);
        Origin {
            path: doc.path(),
            line: n.line,
            column: n.column,
            key: doc.key(node),
        }
    }

    fn error(&self, kind: ErrorKind) -> Error {
        Error::new(self.path, self.line, self.column, kind).with_key(self.key)
    }
}

/// An [`ErrorKind::Template`] error at `origin`, or about the file `full` itself.
fn template_error(origin: Option<Origin<'_>>, full: &Path, path: &str, reason: String) -> Error {
    let kind = ErrorKind::Template {
        path: path.to_owned(),
        reason,
    };
    match origin {
        Some(origin) => origin.error(kind),
        None => Error::file(full, kind),
    }
}

/// Where the text of a template comes from.
#[derive(Clone, Copy)]
enum Source<'t> {
    File,
    Text(&'t str),
}

/// The template cache (docs/design.md, section 7.2).
///
/// ```
/// use juliet_entities::template::TemplateCache;
/// use juliet_entities::kinds::Inert;
///
/// let project = tempfile::tempdir()?;
/// std::fs::create_dir_all(project.path().join("Assets/Templates"))?;
/// std::fs::write(
///     project.path().join("Assets/Templates/Rock.jasset"),
///     "; entity_type: Inert\nMass: 250.0\n",
/// )?;
/// let mut cache = TemplateCache::new(project.path());
/// let crc = cache.get_or_load("Assets\\Templates\\Rock.jasset")?.crc();
/// assert_eq!(cache.get_or_load("Assets/Templates/./Rock.jasset")?.crc(), crc);
/// assert_eq!(cache.files_read(), 1); // the second call did no I/O
/// assert_eq!(cache.find(crc).unwrap().archetype::<Inert>().unwrap().mass, 250.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct TemplateCache {
    root: PathBuf,
    registry: Option<&'static Registry>,
    entries: Vec<CachedTemplate>,
    by_crc: HashMap<u32, u32>,
    /// Archetypes, one storage per kind; each slot's base index is its entry's index.
    kinds: Vec<KindStorage>,
    kind_by_type: HashMap<ClassKey, u16>,
    /// Scratch for file bytes, reset after each top-level load.
    /// Reached only through `&mut self` (the arena allocates through `&Bump`, which is
    /// not `Sync`), so the cache stays `Sync`.
    scratch: Exclusive<Bump>,
    files_read: u64,
    new_warnings: Vec<Warning>,
    max_file_size: u64,
    near_names: NearNames,
}

// A game loads a world on a background thread and hands it over, or shares it behind a
// lock: the kinds' storage is `Send` and `Sync` (see `crate::storage`), and so is the rest.
static_assertions::assert_impl_all!(TemplateCache: Send, Sync);

impl TemplateCache {
    /// An empty cache for the project at `project_root` (the folder that holds
    /// `Assets/`; template paths are relative to it). Kinds resolve through
    /// [`Registry::global`].
    pub fn new(project_root: impl Into<PathBuf>) -> TemplateCache {
        TemplateCache {
            root: project_root.into(),
            registry: None,
            entries: Vec::new(),
            by_crc: HashMap::new(),
            kinds: Vec::new(),
            kind_by_type: HashMap::new(),
            scratch: Exclusive::default(),
            files_read: 0,
            new_warnings: Vec::new(),
            max_file_size: DEFAULT_MAX_TEMPLATE_SIZE,
            near_names: NearNames::default(),
        }
    }

    /// Like [`TemplateCache::new`], resolving kinds through `registry`.
    pub fn with_registry(
        project_root: impl Into<PathBuf>,
        registry: &'static Registry,
    ) -> TemplateCache {
        TemplateCache {
            registry: Some(registry),
            ..TemplateCache::new(project_root)
        }
    }

    /// Sets the largest template file the cache reads, in bytes (inclusive; default
    /// [`DEFAULT_MAX_TEMPLATE_SIZE`]). A larger file is refused with an
    /// [`ErrorKind::Template`] error from its metadata, before it is read; a file that
    /// grows past the limit while being read is refused too. [`crate::World::load`]
    /// sets it to [`crate::world::LoadOptions::max_file_size`].
    pub fn set_max_file_size(&mut self, bytes: u64) {
        self.max_file_size = bytes;
    }

    /// The largest template file the cache reads, in bytes (see
    /// [`TemplateCache::set_max_file_size`]).
    pub fn max_file_size(&self) -> u64 {
        self.max_file_size
    }

    /// The project root template paths are relative to.
    pub fn project_root(&self) -> &Path {
        &self.root
    }

    /// Number of cached templates.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no template is cached.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many template files the cache has read from disk so far (a cached template
    /// is never read again until [`TemplateCache::invalidate`] or
    /// [`TemplateCache::reload`]).
    pub fn files_read(&self) -> u64 {
        self.files_read
    }

    /// Every cached template, in load order.
    pub fn iter(&self) -> impl Iterator<Item = TemplateRef<'_>> + '_ {
        self.entries.iter().map(|t| self.entry_ref(t))
    }

    fn entry_ref<'c>(&'c self, template: &'c CachedTemplate) -> TemplateRef<'c> {
        TemplateRef {
            template,
            archetypes: &self.kinds[template.kind as usize],
        }
    }

    /// The template whose normalized path has CRC `crc`,
    /// in O(1); `None` when it is not cached.
    pub fn find(&self, crc: u32) -> Option<TemplateRef<'_>> {
        let &i = self.by_crc.get(&crc)?;
        Some(self.entry_ref(&self.entries[i as usize]))
    }

    /// The cached template at project-relative `path` (any spelling), without loading.
    pub fn get(&self, path: &str) -> Option<TemplateRef<'_>> {
        let normalized = normalize(path).ok()?;
        self.find(template_crc(&normalized))
            .filter(|t| t.path == normalized)
    }

    /// Warnings of the template files loaded since the last call (each template's
    /// warnings once, when it is first loaded); a world load adds them to its report.
    pub fn take_new_warnings(&mut self) -> Vec<Warning> {
        std::mem::take(&mut self.new_warnings)
    }

    /// Empties the cache: every template is read
    /// again on its next use. Archetypes are dropped.
    pub fn invalidate(&mut self) {
        self.entries.clear();
        self.by_crc.clear();
        self.kinds.clear();
        self.kind_by_type.clear();
        self.scratch.get_mut().reset();
        self.near_names = NearNames::default();
    }

    /// The template at project-relative `path`: the
    /// path is normalized ([`super::normalize_template_path`]) and hashed; a cached template is
    /// returned at once, with no I/O. Otherwise the file `<project root>/<path>` is read
    /// into scratch memory, parsed with the entity loader, its parent template (if it
    /// names a `Template`) loaded first, and its archetype baked into the cache.
    ///
    /// # Errors
    /// [`ErrorKind::Template`] for a path outside the project, an unreadable file, a
    /// cycle of templates (naming the chain), two paths with one CRC, or a `Kind`
    /// missing from a template without parent; [`ErrorKind::KindMismatch`] for a
    /// variant whose `Kind` is not its parent's; any error of the file itself (syntax,
    /// values, unknown kind), at its line. The template is not cached on error (parent
    /// templates that loaded are).
    pub fn get_or_load(&mut self, path: &str) -> Result<TemplateRef<'_>, Error> {
        self.get_or_load_at(path, None)
    }

    /// [`TemplateCache::get_or_load`] with errors about the reference located at
    /// `origin` (the `Template` key that names `path`).
    pub(crate) fn get_or_load_at(
        &mut self,
        path: &str,
        origin: Option<Origin<'_>>,
    ) -> Result<TemplateRef<'_>, Error> {
        let index = self.index_or_load(path, Source::File, origin)?;
        Ok(self.entry_ref(&self.entries[index as usize]))
    }

    /// Parses `text` as the template at `path` and caches it, as if read from
    /// `<project root>/<path>` (parents are still found in the cache or on disk).
    ///
    /// # Errors
    /// As [`TemplateCache::get_or_load`], and [`ErrorKind::Template`] when a template
    /// with this path is already cached.
    pub fn insert_text(&mut self, path: &str, text: &str) -> Result<TemplateRef<'_>, Error> {
        self.refuse_cached(path)?;
        let index = self.index_or_load(path, Source::Text(text), None)?;
        Ok(self.entry_ref(&self.entries[index as usize]))
    }

    /// Caches `archetype` as the template at `path`, with instances' default position
    /// `position`, without any file (a synthetic template, for tests and tools). Every
    /// property counts as set by the template.
    ///
    /// # Errors
    /// [`ErrorKind::Template`] for a bad path or one already cached.
    pub fn insert_archetype<T: Reflect>(
        &mut self,
        path: &str,
        archetype: T,
        position: Vec3,
    ) -> Result<TemplateRef<'_>, Error> {
        let (normalized, crc) = self.refuse_cached(path)?;
        let index = u32::try_from(self.entries.len()).expect("fewer than 2^32 templates");
        let kind = self.kind_index(T::CLASS);
        let storage = &mut self.kinds[kind as usize];
        let slot = storage.push_default(index);
        *storage
            .get_mut::<T>(slot as usize)
            .expect("the storage of T") = archetype;
        self.entries.push(CachedTemplate {
            crc,
            path: normalized,
            class: T::CLASS,
            kind,
            slot,
            position,
            position_set: true,
            sets: (0..T::CLASS.properties().len()).collect(),
            parent: None,
            depth: 1,
            warnings: Vec::new(),
        });
        self.by_crc.insert(crc, index);
        Ok(self.entry_ref(&self.entries[index as usize]))
    }

    /// The normalized path and CRC of `path`, or an error when it is cached already.
    fn refuse_cached(&self, path: &str) -> Result<(String, u32), Error> {
        let (normalized, crc) = self.key_of(path, None, Path::new(path))?;
        if self.by_crc.contains_key(&crc) {
            return Err(template_error(
                None,
                Path::new(path),
                path,
                "a template with this path is already cached".into(),
            ));
        }
        Ok((normalized.into_owned(), crc))
    }

    /// Normalized path and CRC of `path`, with errors at `origin` (or about `file`).
    fn key_of<'p>(
        &self,
        path: &'p str,
        origin: Option<Origin<'_>>,
        file: &Path,
    ) -> Result<(Cow<'p, str>, u32), Error> {
        let normalized = normalize(path).map_err(|e| match e.kind.clone() {
            ErrorKind::Template { reason, .. } => template_error(origin, file, path, reason),
            _ => e,
        })?;
        let crc = template_crc(&normalized);
        if crc == INVALID_TEMPLATE_CRC {
            let reason = "the path's CRC-32 is 0, the reserved invalid template CRC; rename it";
            return Err(template_error(origin, file, path, reason.into()));
        }
        if let Some(&i) = self.by_crc.get(&crc) {
            let other = &self.entries[i as usize].path;
            if *other != *normalized {
                let reason =
                    format!("its CRC-32 {crc:#010X} is also that of `{other}`; rename one");
                return Err(template_error(origin, file, path, reason));
            }
        }
        Ok((normalized, crc))
    }

    /// The entry index of `path`, loading it (and its parents) when not cached.
    fn index_or_load(
        &mut self,
        path: &str,
        source: Source<'_>,
        origin: Option<Origin<'_>>,
    ) -> Result<u32, Error> {
        let file = origin.map_or(Path::new(path), |o| o.path);
        let (normalized, crc) = self.key_of(path, origin, file)?;
        if let Some(&i) = self.by_crc.get(&crc) {
            return Ok(i);
        }
        let scratch = std::mem::take(self.scratch.get_mut());
        let mut chain = Vec::new();
        let result = self
            .load_chain(
                &scratch,
                normalized.into_owned(),
                crc,
                source,
                origin,
                &mut chain,
            )
            .map(|parsed| self.commit(parsed));
        *self.scratch.get_mut() = scratch;
        self.scratch.get_mut().reset();
        result
    }

    /// Enters a parsed template in the cache; returns its index.
    fn commit(&mut self, Parsed(template): Parsed) -> u32 {
        let index = u32::try_from(self.entries.len()).expect("fewer than 2^32 templates");
        debug_assert_eq!(
            self.kinds[template.kind as usize].base_of(template.slot as usize),
            index
        );
        self.new_warnings.extend(template.warnings.iter().cloned());
        self.by_crc.insert(template.crc, index);
        self.entries.push(template);
        index
    }

    /// Index of the archetype storage of `class`, created on first use.
    fn kind_index(&mut self, class: &'static Class) -> u16 {
        let key = class.ops().key();
        if let Some(&k) = self.kind_by_type.get(&key) {
            return k;
        }
        let k = u16::try_from(self.kinds.len()).expect("fewer than 65536 kinds");
        self.kinds.push(KindStorage::new(class));
        self.kind_by_type.insert(key, k);
        k
    }
}

/// The properties whose key (or an alias) is present in `doc`.
pub(crate) fn file_properties(class: &Class, doc: &Document<'_>) -> OverrideSet {
    let table = class.properties();
    let mut set = OverrideSet::new();
    for (index, node) in doc.nodes().iter().enumerate() {
        let key = doc.key(index);
        if let Some(i) = table.iter().position(|p| p.matches(node.key_crc, key)) {
            set.insert(i);
        }
    }
    set.pin_variants(table);
    set
}

/// Adds to `set` the properties declared `migrated_from` a deprecated key of `doc` that
/// a migration read (consumed): they hold the file's value under their new keys.
/// Returns whether `doc` has a deprecated key at all (read or not), after which the
/// caller also takes the properties whose values the migration made differ from the
/// base's.
pub(crate) fn migrated_properties(
    class: &Class,
    doc: &Document<'_>,
    set: &mut OverrideSet,
) -> bool {
    let mut any = false;
    for i in (0..doc.len()).filter(|&i| class.is_deprecated(doc.node(i).key_crc, doc.key(i))) {
        any = true;
        let node = doc.node(i);
        if !node.consumed {
            // Not read by a migration (the file is current): kept as an unknown key.
            continue;
        }
        let key = doc.key(i);
        for (index, p) in class.properties().iter().enumerate() {
            if p.migrated_from.iter().any(|k| k.matches(node.key_crc, key)) {
                set.insert(index);
            }
        }
    }
    any
}

mod parse;
mod read;
mod reload;

use parse::Parsed;
use read::{read_into, NearNames};
