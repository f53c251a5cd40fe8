//! `jasset set FILE Key=Value... [--unset Key]... [--root DIR]`: sets (or, for a
//! template instance or a template variant, reverts) properties of one world entity
//! file or template, in place. A key may name an element of a list or map
//! (`Route[1].Wait`, `element_path`).
//!
//! A world file's world is loaded (so ids and templates resolve as the game sees them),
//! a template through its chain; each value is decoded with the property's codec, and
//! the file is saved: only that file is written, and only the lines of the changed
//! properties change (docs/design.md, section 6.2). A template's instances take its new
//! values where they do not override them, as after a template reload; their sparse
//! files do not change. A bad key or value is reported the way `check` reports
//! problems, and nothing is written.

use std::borrow::Cow;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use juliet_core::{
    is_identifier, key_crc_runtime, keys_equal, Class, Error, ErrorKind, TokenBuffer,
    ValueErrorKind,
};

use super::element_path;
use super::output::{escape_path, note_unknown_kind};
use super::project::{
    self, load_single_file, require_paths, resolve_root, role_of, templates_named_in, Role,
    TEMPLATES_DIR,
};
use super::schema_kinds::registry_for;
use super::{CliError, CliResult, Status};
use juliet_entities::entity::EntityId;
use juliet_entities::fsio::{replace_if_unchanged, ReplaceOutcome, SkipReason};
use juliet_entities::load::base_key;
use juliet_entities::manager::EntityManager;
use juliet_entities::patch::How;
use juliet_entities::template::revert_property;
use juliet_entities::world::{LoadOptions, World};

/// Arguments of `jasset set`.
#[derive(Debug, Clone, Args)]
pub(crate) struct SetArgs {
    /// The entity file (under a world's `Entities` folder) or template (under
    /// `Assets/Templates`, or named by a `Template` line).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// `Key=Value` pairs: the value is written as in the file (`Mass=300`,
    /// `Position=1,2,3`, `MeshAsset="a b.obj"`); a composite's leaf by its path
    /// (`Stats.Hp=40`), an element of a list or map by `Key[index]` or `Key[map key]`,
    /// a leaf of a record element by `Route[1].Wait=3`.
    #[arg(value_name = "KEY=VALUE")]
    pub assignments: Vec<String>,
    /// Revert this property of a template instance to its template's value (repeatable).
    #[arg(long = "unset", value_name = "KEY")]
    pub unset: Vec<String>,
    /// The project root. Default: the nearest ancestor of FILE holding an `Assets/` folder.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Runs `jasset set`.
///
/// # Errors
/// A usage error for a missing FILE, a FILE that is neither a `.jasset` file of a
/// world's `Entities` folder nor a template, a pair without `=` or without a value, a
/// property named twice, or nothing to do; write errors. A FILE the write path refuses
/// (a symbolic link, a FIFO, a folder, a read-only file) is reported as every writer
/// reports it, exit 1.
pub(crate) fn run(args: &SetArgs, out: &mut dyn Write) -> CliResult {
    if args.assignments.is_empty() && args.unset.is_empty() {
        return Err(CliError::usage(
            "nothing to set: give KEY=VALUE or --unset KEY",
        ));
    }
    let pairs = pairs_of(&args.assignments)?;
    // An element of a list or map, `Route[1].Wait`, is set through its property's text.
    for (key, _) in &pairs {
        if let Some(Err(message)) = element_path::parse(key) {
            return Err(CliError::usage(message));
        }
    }
    if let Some(key) = args.unset.iter().find(|k| k.contains('[')) {
        let property = key.split('[').next().unwrap_or_default();
        return Err(CliError::usage(format!(
            "`{key}`: a list or a map is one value for a template instance: revert it whole \
             (`--unset {property}`)"
        )));
    }
    // A key is an identifier in a file, so another one names no property of any class.
    let keys = pairs.iter().map(|(k, _)| *k).filter(|k| !k.contains('['));
    if let Some(bad) = keys
        .chain(args.unset.iter().map(String::as_str))
        .find(|k| !is_identifier(k.as_bytes()))
    {
        return Err(CliError::usage(format!(
            "`{bad}`: not a key (keys are identifiers: letters, digits and `_`, not starting \
             with a digit; a composite's leaf is its path, identifiers joined by `.`: \
             `Stats.Hp`)"
        )));
    }
    // A property named twice (`Mass=1 mass=2`, `Health=1 --unset Health`) has no one
    // meaning: keys are one key when ASCII case and `_` are ignored, as in a file (and,
    // once the class is known, when they are a key and its alias).
    let named = pairs.iter().map(|(k, _)| *k);
    let named: Vec<&str> = named.chain(args.unset.iter().map(String::as_str)).collect();
    once_each(&named, keys_equal)?;
    require_paths(std::slice::from_ref(&args.file))?;
    // Refused as every writer refuses it (the world loader skips a link in `Entities`
    // too): the file to edit is its target, named as such.
    if let Some(SkipReason::SymbolicLink) = juliet_entities::fsio::write_refusal(&args.file) {
        return refused(&args.file, SkipReason::SymbolicLink, out);
    }
    let file = args
        .file
        .canonicalize()
        .map_err(|e| CliError::usage(format!("{}: {e}", escape_path(&args.file))))?;
    let root = resolve_root(args.root.as_deref(), std::slice::from_ref(&args.file))?;
    let world_dir = world_of(&file);
    // A template lies under `Assets/Templates` or is named by a `Template` line.
    let is_template = || {
        role_of(&args.file, root.as_deref()) == Role::Template
            || root
                .as_deref()
                .is_some_and(|r| templates_named_in(r).contains(&file))
    };
    if world_dir.is_none() && !(has_jasset_extension(&file) && is_template()) {
        return Err(CliError::usage(format!(
            "{}: not a world entity file or a template (expected \
             <world>/Entities/<name>.jasset, or a .jasset file under {TEMPLATES_DIR} or \
             named by a `Template` line)",
            escape_path(&args.file)
        )));
    }
    if let Some(SkipReason::NotRegular) = juliet_entities::fsio::write_refusal(&file) {
        return refused(&args.file, SkipReason::NotRegular, out);
    }
    let edit = Edit {
        args,
        pairs: &pairs,
        named: &named,
    };
    match world_dir {
        Some(world_dir) => edit.in_world(&file, world_dir, root, out),
        None => edit.in_template(root, out),
    }
}

/// The `KEY=VALUE` pairs of `assignments`, each side without the blanks around it.
///
/// # Errors
/// A usage error for a pair without `=`, without a key or without a value.
fn pairs_of(assignments: &[String]) -> Result<Vec<(&str, &str)>, CliError> {
    // Blanks as the file reader sees them around a key or value: spaces and tabs only.
    let blank: &[char] = &[' ', '\t'];
    let mut pairs = Vec::new();
    for a in assignments {
        match a.split_once('=') {
            Some((_, v)) if v.trim_matches(blank).is_empty() => {
                return Err(CliError::usage(format!(
                    "`{a}`: no value after `=` (an empty text is written `\"\"`)"
                )))
            }
            Some((k, v)) if !k.trim_matches(blank).is_empty() => {
                pairs.push((k.trim_matches(blank), v.trim_matches(blank)));
            }
            _ => return Err(CliError::usage(format!("`{a}`: expected KEY=VALUE"))),
        }
    }
    Ok(pairs)
}

/// One `set` command, its arguments checked: what to set and revert.
struct Edit<'a> {
    args: &'a SetArgs,
    /// The `KEY=VALUE` pairs, trimmed.
    pairs: &'a [(&'a str, &'a str)],
    /// Every key named, set or reverted.
    named: &'a [&'a str],
}

/// What setting or reverting one property did: the key and the result.
type Outcomes<'a> = Vec<(&'a str, Result<(), Error>)>;

impl Edit<'_> {
    /// Sets the properties of `file`, a world entity file of the world at `world_dir`
    /// (both resolved), in the project at `root`.
    fn in_world(
        &self,
        file: &Path,
        world_dir: PathBuf,
        root: Option<PathBuf>,
        out: &mut dyn Write,
    ) -> CliResult {
        let args = self.args;
        // The world named through FILE as given, so that its messages name FILE so too.
        let world_dir = (args.file.parent().and_then(Path::parent))
            .filter(|w| !w.as_os_str().is_empty() && same_file(w, &world_dir))
            .map_or(world_dir, Path::to_path_buf);
        // A file without `EntityID` is written with its session id, drawn from a random
        // prefix as an authoring session's new ids are (docs/design.md, section 5.4): two
        // people setting values in such files apart never write the same id.
        let options = LoadOptions {
            registry: Some(registry_for(root.as_deref())?),
            project_root: root.clone(),
            id_prefix: juliet_entities::draw_id_prefix(),
            ..LoadOptions::default()
        };
        let (mut world, report) = match World::load(&world_dir, &options) {
            Ok(loaded) => loaded,
            Err(e) => {
                writeln!(out, "{e}")?;
                return Ok(Status::from_problems(true));
            }
        };
        let id = world
            .manager()
            .entities()
            .iter()
            .map(|e| e.id())
            .find(|&id| {
                world
                    .file_of(id)
                    .and_then(|p| p.canonicalize().ok())
                    .is_some_and(|p| p == file)
            });
        let Some(id) = id else {
            let errors = report.errors.into_iter();
            let errors = errors.filter(|e| same_file(&e.location.path, file));
            return did_not_load(&args.file, errors.collect(), root.as_deref(), out);
        };
        self.check_once_each(world.manager(), id)?;
        let class = world.manager().entity(id).map(|e| e.class());
        let outcomes = self.apply(|key, value| match value {
            Some(value) => {
                let text_of = |p: &str| world.manager().property_text(id, p);
                let (property, text) = target(class, key, value, text_of)?;
                world.set_property(id, property, &text)
            }
            None => world.revert_property(id, key),
        });
        if self.report_refused(world.manager(), id, world.file_original(id), outcomes, out)? {
            return Ok(Status::from_problems(true));
        }
        // Written even when the values set are the ones the entity has: a file at an
        // older version then shows them, brought to the current version in place (a
        // current file is written again, the same bytes). What the file held is compared
        // with what the save wrote.
        if let Some(entity) = world.manager_mut().entity_mut(id) {
            entity.mark_dirty();
        }
        let before = world.file_fingerprint(id);
        // FILE alone: another file of the world (one without `EntityID`, which a world
        // save gives its session id) is not written.
        let saved = world
            .save_one(id)
            .map_err(|e| CliError::failure(e.to_string()))?;
        let skipped = saved.skipped.iter().map(|s| s.reason);
        let written = world.file_fingerprint(id) != before;
        finish(&args.file, written, skipped, out)
    }

    /// Sets the properties of FILE, a template of the project at `root`, and writes it:
    /// its instances then take each new value they do not override, as after
    /// [`World::reload_template`] (their sparse files do not change).
    fn in_template(&self, root: Option<PathBuf>, out: &mut dyn Write) -> CliResult {
        let args = self.args;
        let registry = registry_for(root.as_deref())?;
        let mut single = match load_single_file(root.as_deref(), &args.file, true, registry) {
            Ok(single) => single,
            Err(e) => return did_not_load(&args.file, e.into_all(), root.as_deref(), out),
        };
        let id = single.id;
        self.check_once_each(&single.manager, id)?;
        let original = project::read(&args.file, root.as_deref())?;
        let (manager, templates) = (&mut single.manager, &single.templates);
        let class = manager.entity(id).map(|e| e.class());
        let outcomes = self.apply(|key, value| match value {
            Some(value) => {
                let (property, text) = target(class, key, value, |p| manager.property_text(id, p))?;
                manager.set_property(id, property, &text)
            }
            None => revert_property(manager, templates, id, key).map_err(|e| {
                // A template's id is the session's: the file has none to name.
                if matches!(e.kind, ErrorKind::NotAnInstance(_)) {
                    let reason =
                        format!("no `Template` line, so no parent template to revert `{key}` to");
                    let path = args.file.display().to_string();
                    Error::file("", ErrorKind::Template { path, reason })
                } else {
                    e
                }
            }),
        });
        if self.report_refused(&single.manager, id, Some(&original), outcomes, out)? {
            return Ok(Status::from_problems(true));
        }
        if single.newer {
            return finish(&args.file, false, [SkipReason::NewerVersion], out);
        }
        let text = single.canonical_text()?;
        let how = How {
            migrate: false,
            forced: true,
        };
        let bytes = single.edited(&args.file, &original, text, how)?;
        if bytes == original {
            return finish(&args.file, false, [], out);
        }
        match replace_if_unchanged(&args.file, Some(single.fingerprint), &bytes)? {
            ReplaceOutcome::Skipped(reason) => finish(&args.file, false, [reason], out),
            _ => finish(&args.file, true, [], out),
        }
    }

    /// A usage error when two keys named are one property of the entity `id` (a key
    /// and its alias).
    fn check_once_each(&self, manager: &EntityManager, id: EntityId) -> Result<(), CliError> {
        match manager.entity(id) {
            Some(entity) => {
                let class = entity.class();
                once_each(self.named, |a, b| {
                    canonical_key(class, a).is_some_and(|c| canonical_key(class, b) == Some(c))
                })
            }
            None => Ok(()),
        }
    }

    /// Sets each pair (`edit(key, Some(value))`), then reverts each `--unset` key
    /// (`edit(key, None)`).
    fn apply(&self, mut edit: impl FnMut(&str, Option<&str>) -> Result<(), Error>) -> Outcomes<'_> {
        let mut outcomes = Vec::new();
        for (key, value) in self.pairs {
            outcomes.push((*key, edit(key, Some(value))));
        }
        for key in &self.args.unset {
            outcomes.push((key.as_str(), edit(key, None)));
        }
        outcomes
    }

    /// Prints each refused property of entity `id` (whose file held `original`), located
    /// at its key; whether there was one (then nothing is written).
    fn report_refused(
        &self,
        manager: &EntityManager,
        id: EntityId,
        original: Option<&[u8]>,
        outcomes: Outcomes<'_>,
        out: &mut dyn Write,
    ) -> Result<bool, CliError> {
        let shown = &self.args.file;
        let mut failed = false;
        for (key, result) in outcomes {
            if let Err(e) = result {
                failed = true;
                writeln!(out, "{}", located(manager, id, original, shown, key, e))?;
            }
        }
        if failed {
            writeln!(out, "{}: nothing written", escape_path(shown))?;
        }
        Ok(failed)
    }
}

/// The property to set and its new text for `KEY=VALUE`: `key` and `value` themselves
/// for a plain key; for a key naming an element (`Route[1].Wait`), its property's key and
/// the property's text (read through `text_of`) with the element changed.
///
/// # Errors
/// The errors of `text_of`, and an error at the property's key when the element's path
/// does not fit the property (`element_path::with_element`).
fn target<'k>(
    class: Option<&'static Class>,
    key: &'k str,
    value: &'k str,
    text_of: impl FnOnce(&str) -> Result<String, Error>,
) -> Result<(&'k str, Cow<'k, str>), Error> {
    let Some(Ok(path)) = element_path::parse(key) else {
        return Ok((key, Cow::Borrowed(value)));
    };
    // No such property: the setter names it, with its did-you-mean.
    let Some(property) = class.and_then(|c| c.property(path.property)) else {
        return Ok((path.property, Cow::Borrowed(value)));
    };
    let old = text_of(path.property)?;
    match element_path::with_element(&property.property_type, &old, &path, value) {
        Ok(text) => Ok((path.property, Cow::Owned(text))),
        Err(message) => {
            let kind = ErrorKind::BadValue {
                expected: property.property_type.to_string(),
                found: key.to_owned(),
                reason: ValueErrorKind::Custom(message),
            };
            Err(Error::file("", kind).with_key(path.property))
        }
    }
}

/// Reports that FILE (`shown`) did not load, with its `errors` (named as given: the
/// file may have been read through another spelling of its path), in the project at
/// `root`; nothing is set.
fn did_not_load(
    shown: &Path,
    errors: Vec<Error>,
    root: Option<&Path>,
    out: &mut dyn Write,
) -> CliResult {
    for e in &errors {
        writeln!(out, "{}", e.clone().with_path(shown))?;
    }
    note_unknown_kind(&errors, root);
    writeln!(
        out,
        "{}: the file did not load; nothing set",
        escape_path(shown)
    )?;
    Ok(Status::from_problems(true))
}

/// The last lines of a `set`: each reason the write path refused FILE (`shown`), then
/// whether it was `edited`, `unchanged` or `not written`; exit 1 when refused.
fn finish(
    shown: &Path,
    written: bool,
    skipped: impl IntoIterator<Item = SkipReason>,
    out: &mut dyn Write,
) -> CliResult {
    let shown = escape_path(shown);
    let mut refused = false;
    // Only FILE is edited, so a refusal is FILE's: named as given.
    for reason in skipped {
        refused = true;
        writeln!(out, "{shown}: {reason}")?;
    }
    let outcome = match (written, refused) {
        (true, _) => "edited",
        (false, false) => "unchanged",
        (false, true) => "not written",
    };
    writeln!(out, "{outcome} {shown}")?;
    Ok(Status::from_problems(refused))
}

/// Reports that the write path refuses `file` for `reason`, as every writer reports it
/// (`FILE: reason`, exit 1), having written nothing.
fn refused(file: &Path, reason: SkipReason, out: &mut dyn Write) -> CliResult {
    writeln!(out, "{}: {reason}", escape_path(file))?;
    Ok(Status::from_problems(true))
}

/// `err`, an error of setting or reverting property `key` of entity `id`, located the
/// way `check` locates a key problem: at the key's line and column in the entity's file
/// (`shown`) when the file sets that property, at the whole file (`:0:0`) otherwise. An
/// error with a location of its own is returned as it is.
fn located(
    manager: &EntityManager,
    id: EntityId,
    original: Option<&[u8]>,
    shown: &Path,
    key: &str,
    err: Error,
) -> Error {
    // An error located already (in a template of the chain) keeps its place.
    if !err.location.path.as_os_str().is_empty() || err.location.line != 0 {
        return err;
    }
    // An element's error is at its property's key (`Route` for `Route[1].Wait`).
    let key = match element_path::parse(key) {
        Some(Ok(path)) => path.property,
        _ => key,
    };
    let err = err.with_path(shown);
    let (Some(entity), Some(bytes)) = (manager.entity(id), original) else {
        return err;
    };
    let class = entity.class();
    // The key a file's key stands for: a base key's or a property's canonical key, or
    // the key itself (an unknown key, matched as the file's keys are).
    let wanted = canonical_key(class, key);
    let mut buffer = TokenBuffer::new();
    let Ok(doc) = buffer.tokenize(bytes, shown) else {
        return err;
    };
    let at = (0..doc.len()).find(|&i| {
        let written = doc.key(i);
        match wanted {
            Some(wanted) => canonical_key(class, written) == Some(wanted),
            None => canonical_key(class, written).is_none() && keys_equal(written, key),
        }
    });
    let mut err = err;
    if let Some(node) = at.map(|i| doc.node(i)) {
        (err.location.line, err.location.column) = (node.line, node.column);
    }
    err
}

/// The key `key` stands for in a file of `class`: a base key's or a property's canonical
/// key (an alias stands for its property), `None` for a key the class does not know.
fn canonical_key(class: &'static Class, key: &str) -> Option<&'static str> {
    let crc = key_crc_runtime(key.as_bytes());
    base_key(crc, key).or_else(|| class.property(key).map(|p| p.key))
}

/// A usage error naming the second of two keys of `named` that `same` takes for one
/// property.
fn once_each(named: &[&str], same: impl Fn(&str, &str) -> bool) -> Result<(), CliError> {
    for (i, key) in named.iter().enumerate() {
        if let Some(first) = named[..i].iter().find(|k| same(k, key)) {
            return Err(CliError::usage(format!(
                "`{key}`: the property is already named as `{first}`; give each property once"
            )));
        }
    }
    Ok(())
}

/// Whether `file` is named as a `.jasset` file (the extension in any case).
fn has_jasset_extension(file: &Path) -> bool {
    file.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(juliet_entities::world::EXTENSION))
}

/// The world folder of an entity file (a `.jasset` file in an `Entities` folder): the
/// parent of its `Entities` folder.
fn world_of(file: &Path) -> Option<PathBuf> {
    if !has_jasset_extension(file) {
        return None;
    }
    let entities = file.parent()?;
    (entities.file_name()? == juliet_entities::world::ENTITIES_DIR)
        .then(|| entities.parent().map(Path::to_path_buf))?
}

fn same_file(a: &Path, b: &Path) -> bool {
    a.canonicalize().is_ok_and(|a| a == b)
}
