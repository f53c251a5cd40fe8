//! `jasset mv OLD NEW [--root DIR] [--dry-run]`: moves or renames a template, an asset
//! or a folder of them inside the project, and points every `Template` line and every
//! asset path value (`AssetPath` fields) of the project's `.jasset` files that named it
//! at the new path, each file edited in place (one line a reference).
//!
//! Nothing is changed when NEW exists, when OLD or NEW is outside the project root,
//! when a file to edit is refused by the write path (read-only, a link, a FIFO) or was
//! written by a newer build (its `ClassVersion` above the class's). The
//! files are edited first, each through the write path of every writer (a file changed
//! since it was read is left alone, and reported), then OLD is renamed: a `mv` killed
//! in between leaves every file old or new, and running it again finds no reference
//! left to edit and renames OLD.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use clap::Args;
use juliet_core::{
    apply_edits, split_entry, Codec, PropertyType, Registry, TextEdit, TokenBuffer, Value,
    CLASS_VERSION,
};
use rayon::prelude::*;

use super::output::escape_path;
use super::project::resolve_root;
use super::schema_kinds::registry_for;
use super::values::{header, template_chain};
use super::{CliError, CliResult, Status};
use juliet_entities::fsio::{Expect, Fingerprint, ReplaceOutcome, Sync};
use juliet_entities::load::keys;
use juliet_entities::template::normalize_template_path;
use juliet_entities::world::holds_assets;

/// Arguments of `jasset mv`.
#[derive(Debug, Clone, Args)]
pub(crate) struct MvArgs {
    /// The file or folder to move (inside the project).
    #[arg(value_name = "OLD")]
    pub old: PathBuf,
    /// Where it goes (inside the project; must not exist).
    #[arg(value_name = "NEW")]
    pub new: PathBuf,
    /// The project root. Default: the nearest ancestor of OLD holding an `Assets/`
    /// folder.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// List the edits and the move without making them.
    #[arg(long)]
    pub dry_run: bool,
}

/// How many files are read, and written, at once.
const IN_FLIGHT: usize = 32;

/// A file to edit.
struct Planned {
    /// Its path.
    file: PathBuf,
    /// Its bytes as read.
    bytes: Vec<u8>,
    /// Its edits.
    edits: Vec<Edit>,
    /// Its bytes with the edits made.
    edited: Vec<u8>,
}

/// One reference to edit: the edit of its text in the file, and its line.
struct Edit {
    edit: TextEdit,
    line: usize,
}

/// Runs `jasset mv`.
///
/// # Errors
/// A usage error for an OLD that does not exist, a NEW that does, a path outside the
/// project; a failure for a file that does not tokenize or is refused by the write
/// path (nothing is changed then); I/O errors.
pub(crate) fn run(args: &MvArgs, out: &mut dyn Write) -> CliResult {
    let (root, old, new) = paths(args)?;
    let folder = root.join(&old).is_dir();
    let moved = |path: &str| -> Option<String> {
        let path = normalize_template_path(path).ok()?;
        match path.strip_prefix(&old) {
            Some("") => Some(new.clone()),
            Some(rest) if folder && rest.starts_with('/') => Some(format!("{new}{rest}")),
            _ => None,
        }
    };
    let registry = registry_for(Some(&root))?;
    let mut assets = super::listing::collect(&[root.join("Assets")]);
    // The temporaries of a writer killed earlier (a `mv` among them) go, as every
    // writer removes them.
    assets.handle_stale_temps(!args.dry_run);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(IN_FLIGHT)
        .build()
        .map_err(|e| CliError::failure(e.to_string()))?;
    let kinds = Kinds {
        root: &root,
        of_template: Mutex::new(HashMap::new()),
    };
    let planned: Vec<Planned> = pool.install(|| {
        (assets.files.par_iter())
            .map(|file| Planned::of(file, &kinds, registry, &moved))
            .filter_map(Result::transpose)
            .collect::<Result<_, CliError>>()
    })?;
    let refused: Vec<String> = (planned.iter())
        .filter_map(|Planned { file, .. }| {
            Some(format!(
                "{}: {}",
                escape_path(file),
                juliet_entities::fsio::write_refusal(file)?
            ))
        })
        .collect();
    if !refused.is_empty() {
        for line in &refused {
            writeln!(out, "{line} (nothing moved)")?;
        }
        return Ok(Status::Problems);
    }
    let shown = |file: &Path| escape_path(file.strip_prefix(&root).unwrap_or(file));
    for Planned {
        file, bytes, edits, ..
    } in &planned
    {
        for Edit { edit, line } in edits {
            let before = String::from_utf8_lossy(&bytes[edit.range.clone()]);
            writeln!(out, "{}:{line}: {before} -> {}", shown(file), edit.text)?;
        }
    }
    if !args.dry_run && !write_all(&pool, &planned, &shown, out)? {
        return Ok(Status::Problems);
    }
    writeln!(out, "{old} -> {new}")?;
    if !args.dry_run {
        move_old(&root, &old, &new, &planned)?;
    }
    Ok(Status::Success)
}

/// The project root of `jasset mv` (canonical), and OLD and NEW relative to it.
///
/// # Errors
/// A usage error for no root, an OLD that does not exist, a NEW that does, a path
/// outside the project, NEW inside OLD.
fn paths(args: &MvArgs) -> Result<(PathBuf, String, String), CliError> {
    let root = resolve_root(args.root.as_deref(), std::slice::from_ref(&args.old))?
        .ok_or_else(|| CliError::usage("no project root (a folder holding `Assets/`)"))?;
    let root = root
        .canonicalize()
        .map_err(|e| CliError::usage(e.to_string()))?;
    let old = inside(&root, &args.old)?;
    let new = inside(&root, &args.new)?;
    if fs::symlink_metadata(root.join(&old)).is_err() {
        return Err(CliError::usage(format!(
            "{}: no such file",
            escape_path(&args.old)
        )));
    }
    if fs::symlink_metadata(root.join(&new)).is_ok() {
        return Err(CliError::usage(format!(
            "{}: exists already",
            escape_path(&args.new)
        )));
    }
    if new.starts_with(&format!("{old}/")) || old == new {
        return Err(CliError::usage(format!("{old} cannot move into itself")));
    }
    Ok((root, old, new))
}

impl Planned {
    /// The plan of `file`'s edits (`None`: it names nothing that moves): read, its
    /// references found ([`edits`]) and the edits made.
    ///
    /// # Errors
    /// A failure naming the file when it cannot be read, does not tokenize or its edits
    /// overlap (which [`edits`] does not make).
    fn of(
        file: &Path,
        kinds: &Kinds<'_>,
        registry: &Registry,
        moved: &(dyn Fn(&str) -> Option<String> + std::marker::Sync),
    ) -> Result<Option<Planned>, CliError> {
        let named = |e: &dyn std::fmt::Display| format!("{}: {e}", escape_path(file));
        let bytes = fs::read(file).map_err(|e| CliError::failure(named(&e)))?;
        let edits = edits(&bytes, file, kinds, registry, moved)?;
        if edits.is_empty() {
            return Ok(None);
        }
        let list = edits.iter().map(|e| e.edit.clone()).collect();
        let edited = apply_edits(&bytes, list)
            .map_err(|e| CliError::failure(named(&e) + " (nothing moved)"))?;
        Ok(Some(Planned {
            file: file.to_path_buf(),
            bytes,
            edits,
            edited,
        }))
    }
}

/// Writes the `planned` files, [`IN_FLIGHT`] at a time on `pool` (each write waits for
/// its file's fsync, and the file system commits the ones in flight together); whether
/// every one was written (one changed since it was read is reported, named by `shown`).
///
/// # Errors
/// A write error.
fn write_all(
    pool: &rayon::ThreadPool,
    planned: &[Planned],
    shown: &dyn Fn(&Path) -> String,
    out: &mut dyn Write,
) -> Result<bool, CliError> {
    let written: Vec<Result<ReplaceOutcome, juliet_core::Error>> = pool.install(|| {
        (planned.par_iter())
            .map(|p| {
                let expect = Expect::Holds(Fingerprint::of(&p.bytes));
                juliet_entities::fsio::write_file(&p.file, expect, &p.edited, Sync::File)
            })
            .collect()
    });
    let mut all = true;
    for (Planned { file, .. }, outcome) in planned.iter().zip(written) {
        if let ReplaceOutcome::Skipped(reason) = outcome? {
            writeln!(
                out,
                "{}: {reason} (not moved: run `jasset mv` again)",
                shown(file)
            )?;
            all = false;
        }
    }
    Ok(all)
}

/// Renames `old` to `new` (relative to `root`), after syncing the folders of the
/// `planned` files once each (the move relies on their edits).
///
/// # Errors
/// A failure for an I/O error.
fn move_old(root: &Path, old: &str, new: &str, planned: &[Planned]) -> Result<(), CliError> {
    let io = |e: std::io::Error| CliError::failure(e.to_string());
    let mut folders: Vec<&Path> = planned.iter().filter_map(|p| p.file.parent()).collect();
    folders.sort();
    folders.dedup();
    for folder in folders {
        juliet_entities::fsio::sync_folder(folder).map_err(io)?;
    }
    let target = root.join(new);
    if let Some(parent) = target.parent() {
        fs::create_dir_all(parent).map_err(io)?;
    }
    fs::rename(root.join(old), &target).map_err(io)?;
    juliet_entities::fsio::sync_folder(target.parent().unwrap_or(root)).map_err(io)
}

/// `path` as a normalized path relative to `root` (`/` between folders), lexically
/// (NEW need not exist).
///
/// # Errors
/// A usage error when it is not inside `root`.
fn inside(root: &Path, path: &Path) -> Result<String, CliError> {
    let absolute = std::path::absolute(path).map_err(|e| CliError::usage(e.to_string()))?;
    let mut parts: Vec<String> = Vec::new();
    for component in absolute.components() {
        match component {
            Component::ParentDir => {
                parts.pop();
            }
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            _ => {}
        }
    }
    // The root is canonical: the path's folders are resolved the same way where they
    // exist (a link in the path), the rest kept as written.
    let mut resolved = PathBuf::from("/");
    let mut rest = parts.iter();
    for part in rest.by_ref() {
        let next = resolved.join(part);
        match next.canonicalize() {
            Ok(real) => resolved = real,
            Err(_) => {
                resolved = next;
                break;
            }
        }
    }
    for part in rest {
        resolved.push(part);
    }
    let relative = resolved
        .strip_prefix(root)
        .ok()
        .filter(|r| !r.as_os_str().is_empty())
        .ok_or_else(|| {
            CliError::usage(format!(
                "{}: not inside the project {}",
                escape_path(path),
                escape_path(root)
            ))
        })?;
    Ok(relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/"))
}

/// The edits of `bytes` (the file `file`): its `Template` value and its asset path
/// values that `moved` gives a new path.
///
/// # Errors
/// A failure naming the file when it does not tokenize.
fn edits(
    bytes: &[u8],
    file: &Path,
    kinds: &Kinds<'_>,
    registry: &Registry,
    moved: &(dyn Fn(&str) -> Option<String> + std::marker::Sync),
) -> Result<Vec<Edit>, CliError> {
    let mut buffer = TokenBuffer::new();
    let doc = buffer
        .tokenize(bytes, file)
        .map_err(|e| CliError::failure(format!("{e} (nothing moved)")))?;
    let class = kinds.of(&doc, file).and_then(|k| registry.find_by_name(&k));
    let src = doc.source();
    let mut out = Vec::new();
    let mut newer = None;
    for i in 0..doc.len() {
        let node = doc.node(i);
        let key = doc.key(i);
        if CLASS_VERSION.matches(node.key_crc, key) {
            let version = doc
                .value(i)
                .single()
                .ok()
                .and_then(|v| v.parse::<u32>().ok());
            newer = newer.or(class
                .zip(version)
                .filter(|(c, v)| *v > c.version())
                .map(|(_, v)| v));
        }
        let asset_type = if keys::TEMPLATE.matches(node.key_crc, key) {
            Some(&PropertyType::String)
        } else {
            class
                .and_then(|c| {
                    c.property_index(node.key_crc, key)
                        .map(|p| &c.properties()[p])
                })
                .map(|p| &p.property_type)
                .filter(|ty| holds_assets(ty))
        };
        let Some(ty) = asset_type else { continue };
        for span in doc.value_spans(i) {
            let line = &src[span.clone()];
            // A map entry's value ends its line (`key: value`).
            let value = match (ty, split_entry(line)) {
                (PropertyType::Map(..), Some((_, v))) => v,
                _ => line,
            };
            let Ok(path) = String::decode(Value::from_text(value)) else {
                continue;
            };
            let Some(to) = moved(&path) else { continue };
            let end = doc.source_offset() + span.end;
            let start = end - value.len();
            let mut text = String::new();
            to.encode(&mut text);
            let number = 1 + bytes[..start].iter().filter(|&&b| b == b'\n').count();
            out.push(Edit {
                edit: TextEdit::new(start..end, text),
                line: number,
            });
        }
    }
    if let (Some(version), false) = (newer, out.is_empty()) {
        return Err(CliError::failure(format!(
            "{}: class version {version} is newer than this build's: not edited (nothing moved)",
            escape_path(file)
        )));
    }
    Ok(out)
}

/// The kinds of the project's files: a file's own `Kind`, else its template chain's
/// (followed as `inspect` follows it), each chain followed once for all the files that
/// name its first template.
struct Kinds<'a> {
    root: &'a Path,
    of_template: Mutex<HashMap<String, Option<String>>>,
}

impl Kinds<'_> {
    /// The kind of `doc`, the file `file`.
    fn of(&self, doc: &juliet_core::Document<'_>, file: &Path) -> Option<String> {
        let value = |k: &juliet_core::Key, aliases: &[juliet_core::Key]| {
            (0..doc.len())
                .find(|&i| {
                    let (crc, key) = (doc.node(i).key_crc, doc.key(i));
                    k.matches(crc, key) || aliases.iter().any(|a| a.matches(crc, key))
                })
                .and_then(|i| doc.value(i).single().ok().map(str::to_owned))
        };
        if let Some(kind) = value(&keys::KIND, keys::KIND_ALIASES) {
            return Some(kind);
        }
        let template = normalize_template_path(&value(&keys::TEMPLATE, &[])?).ok()?;
        let known = self.of_template.lock().ok()?.get(&template).cloned();
        known.unwrap_or_else(|| {
            let kind = (template_chain(self.root, file, &template).ok())
                .and_then(|chain| chain.iter().find_map(|l| header(&l.properties).kind));
            if let Ok(mut cache) = self.of_template.lock() {
                cache.insert(template, kind.clone());
            }
            kind
        })
    }
}
