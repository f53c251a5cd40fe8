//! `jasset renumber FILE... [--root DIR]`: gives world entity files fresh ids of a newly
//! drawn prefix (docs/design.md, section 5.4), for an entity whose id another branch also
//! took, or files copied by hand.
//!
//! Only the `EntityID` value changes (in place: its spelling, line form, comments and
//! line endings stay; a file without one gets `; EntityID: ...` as its first line).
//! Then the references to the renumbered entities follow: the world's other files
//! whose `EntityRef` values name an old id are saved in place with the new one
//! ([`World::retarget_references`]), one line a reference. A
//! file named after an id (`<16 hex digits>.jasset`, or with a `-N` suffix) is renamed
//! after the new one; a file with a name of its own keeps it.
//!
//! The file is written through the write path of every writer (`fsio::write_file`: a
//! read-only file, a symbolic link, a FIFO are refused and reported, a file changed
//! since it was read is left alone), in place, then moved to its new name: a second
//! name is linked to it, then the old name removed. A writer killed between the two
//! leaves one id in two files, which `jasset check` reports; renumbering the old name
//! again finds it, removes the old name and is done.

use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

use clap::Args;
use juliet_core::{TextEdit, TokenBuffer};

use super::output::escape_path;
use super::project::resolve_root;
use super::schema_kinds::registry_for;
use super::values::pieces;
use super::{CliError, CliResult, Status};
use juliet_entities::entity::EntityId;
use juliet_entities::fsio::{Expect, Fingerprint, ReplaceOutcome, Sync};
use juliet_entities::load::keys;
use juliet_entities::world::{LoadOptions, World, ENTITIES_DIR};

/// Arguments of `jasset renumber`.
#[derive(Debug, Clone, Args)]
pub(crate) struct RenumberArgs {
    /// Entity files, each under a world's `Entities` folder.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The project root. Default: the nearest ancestor of the first FILE holding an
    /// `Assets/` folder.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Runs `jasset renumber`: prints `FILE: OLD -> NEW` (and the new name) per file, or
/// `FILE: <why not written>` for a file the write path refuses (exit 1).
///
/// # Errors
/// A usage error for a FILE that does not exist or is not under an `Entities` folder,
/// or does not tokenize; I/O errors.
pub(crate) fn run(args: &RenumberArgs, out: &mut dyn Write) -> CliResult {
    let root = resolve_root(args.root.as_deref(), &args.files)?;
    let mut refused = false;
    let mut worlds: Vec<(PathBuf, World, u64)> = Vec::new();
    // (world, old id, new id) of each file renumbered.
    let mut moved: Vec<(usize, EntityId, EntityId)> = Vec::new();
    for file in &args.files {
        let shown = escape_path(file);
        let world_dir = world_of(file).ok_or_else(|| {
            CliError::usage(format!(
                "{shown}: not a world entity file (expected <world>/Entities/<name>.jasset)"
            ))
        })?;
        let at = world_at(&mut worlds, world_dir, root.as_deref())?;
        // Refused before it is read, as the write path would refuse it.
        if let Some(reason) = juliet_entities::fsio::write_refusal(file) {
            writeln!(out, "{shown}: {reason}")?;
            refused = true;
            continue;
        }
        // Read once its world is loaded: not held through the load's peak.
        let bytes = super::project::read(file, root.as_deref())
            .map_err(|e| CliError::usage(e.to_string()))?;
        if let Some(done) = finish_move(file, &bytes)? {
            writeln!(out, "{shown}: {done}")?;
            continue;
        }
        let (_, world, next) = &mut worlds[at];
        while world.manager().contains(EntityId(*next)) {
            *next += 1;
        }
        let id = EntityId(*next);
        *next += 1;

        let (text, old) = with_id(&bytes, file, id).map_err(|e| CliError::usage(e.to_string()))?;
        let target = renamed(file, id);
        if target != *file && std::fs::symlink_metadata(&target).is_ok() {
            return Err(CliError::failure(format!(
                "{shown}: {} exists already",
                escape_path(&target)
            )));
        }
        let expect = Expect::Holds(Fingerprint::of(&bytes));
        drop(bytes);
        if let ReplaceOutcome::Skipped(reason) =
            juliet_entities::fsio::write_file(file, expect, &text, Sync::FileAndFolder)?
        {
            writeln!(out, "{shown}: {reason}")?;
            refused = true;
            continue;
        }
        if target != *file {
            move_file(file, &target).map_err(|e| CliError::failure(format!("{shown}: {e}")))?;
        }
        moved.extend(old.map(|old| (at, old, id)));
        let old = old.map_or_else(|| "(none)".to_owned(), |o| o.to_string());
        match target == *file {
            true => writeln!(out, "{shown}: {old} -> {id}")?,
            false => writeln!(out, "{shown}: {old} -> {id}, now {}", escape_path(&target))?,
        }
    }
    for (at, (world_dir, ..)) in worlds.iter().enumerate() {
        let pairs: Vec<(EntityId, EntityId)> = (moved.iter())
            .filter(|m| m.0 == at)
            .map(|m| (m.1, m.2))
            .collect();
        refused |= follow_references(world_dir, root.clone(), &pairs, out)?;
    }
    Ok(Status::from_problems(refused))
}

/// The index in `worlds` (folder, world, next id to try) of the world at `world_dir`,
/// loaded (from the project at `root`) and added when it is not there yet.
///
/// # Errors
/// A failure when the world does not load.
fn world_at(
    worlds: &mut Vec<(PathBuf, World, u64)>,
    world_dir: PathBuf,
    root: Option<&Path>,
) -> Result<usize, CliError> {
    if let Some(at) = worlds.iter().position(|(d, ..)| *d == world_dir) {
        return Ok(at);
    }
    let options = LoadOptions {
        registry: Some(registry_for(root)?),
        project_root: root.map(Path::to_path_buf),
        ..LoadOptions::default()
    };
    let (mut world, _) =
        World::load(&world_dir, &options).map_err(|e| CliError::failure(e.to_string()))?;
    world.use_random_id_prefix();
    let next = world.manager().peek_free_id().get();
    worlds.push((world_dir, world, next));
    Ok(worlds.len() - 1)
}

/// Points the references of the world at `world_dir` to the renumbered entities
/// (`moved`: old and new ids) at their new ids, each file edited in place (one line a
/// reference), and prints each file written; returns whether a file was refused.
///
/// # Errors
/// The world's load or save failing; I/O errors.
fn follow_references(
    world_dir: &Path,
    project_root: Option<PathBuf>,
    moved: &[(EntityId, EntityId)],
    out: &mut dyn Write,
) -> Result<bool, CliError> {
    if moved.is_empty() {
        return Ok(false);
    }
    let options = LoadOptions {
        registry: Some(registry_for(project_root.as_deref())?),
        project_root,
        ..LoadOptions::default()
    };
    let (mut world, _) =
        World::load(world_dir, &options).map_err(|e| CliError::failure(e.to_string()))?;
    let fail = |e: juliet_core::Error| CliError::failure(e.to_string());
    if world.retarget_references(moved).map_err(fail)?.is_empty() {
        return Ok(false);
    }
    let report = world.save_world().map_err(fail)?;
    for path in &report.written {
        let shown = escape_path(path.strip_prefix(".").unwrap_or(path));
        writeln!(
            out,
            "{shown}: references to renumbered entities follow them"
        )?;
    }
    for skipped in &report.skipped {
        writeln!(out, "{skipped}")?;
    }
    Ok(!report.skipped.is_empty())
}

/// The environment variable of the test hook between the two steps of a move: when it
/// names a folder, `renumber` creates `linked` there once the new name is linked and
/// waits (up to a minute) for `go` before it removes the old name, so that a test can
/// kill it in between.
pub(crate) const PAUSE_AFTER_LINK_ENV: &str = "JASSET_TEST_PAUSE_AFTER_LINK";

/// Moves `file` to the new name `target` (which does not exist): links `target` to it,
/// then removes `file`. Between the two the id is in two files, which `check` reports
/// and [`finish_move`] completes.
fn move_file(file: &Path, target: &Path) -> std::io::Result<()> {
    std::fs::hard_link(file, target)?;
    juliet_entities::fsio::sync_folder(target.parent().unwrap_or(Path::new(".")))?;
    super::project::pause_in(PAUSE_AFTER_LINK_ENV, "linked");
    std::fs::remove_file(file)?;
    juliet_entities::fsio::sync_folder(target.parent().unwrap_or(Path::new(".")))
}

/// The end of a move that was interrupted ([`move_file`]): when `file` (holding `bytes`)
/// is already linked to the name of the id it holds, the old name is removed, and what
/// to print is returned.
///
/// # Errors
/// A failure naming the file when the old name cannot be removed.
fn finish_move(file: &Path, bytes: &[u8]) -> Result<Option<String>, CliError> {
    let Ok((_, Some((_, Some(id))))) = id_line(bytes, file, pieces(bytes)) else {
        return Ok(None);
    };
    let target = file.with_file_name(id.file_name());
    if target == file || !same_file(file, &target) {
        return Ok(None);
    }
    std::fs::remove_file(file)
        .map_err(|e| CliError::failure(format!("{}: {e}", escape_path(file))))?;
    Ok(Some(format!(
        "{id} already, now {} (an interrupted renumber completed)",
        escape_path(&target)
    )))
}

/// Whether `a` and `b` are one file (two names of one inode; never on platforms
/// without inodes).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let inode = |p: &Path| std::fs::symlink_metadata(p).map(|m| (m.dev(), m.ino()));
        matches!((inode(a), inode(b)), (Ok(x), Ok(y)) if x == y)
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        false
    }
}

/// The world folder of an entity file: the parent of its `Entities` folder.
fn world_of(file: &Path) -> Option<PathBuf> {
    let file = file.canonicalize().ok()?;
    let entities = file.parent()?;
    (entities.file_name()? == ENTITIES_DIR).then(|| entities.parent().map(Path::to_path_buf))?
}

/// `bytes` (the file at `path`) with its `EntityID` value replaced by `id`, and the old
/// id (`None` when the file had none, or one that does not read as an id).
///
/// # Errors
/// The tokenizer's error.
fn with_id(
    bytes: &[u8],
    path: &Path,
    id: EntityId,
) -> Result<(Vec<u8>, Option<EntityId>), juliet_core::Error> {
    // Piece by piece (its world is loaded meanwhile, and a file may hold a million
    // keys); a tokenizer error is located in the whole file.
    let (first, found) = match id_line(bytes, path, pieces(bytes)) {
        Ok(found) => found,
        Err(_) => id_line(bytes, path, std::iter::once(bytes))?,
    };
    let new = id.to_string();
    let (edit, old) = match found {
        Some((range, old)) => (TextEdit::new(range, new), old),
        None => {
            let eol = juliet_entities::patch::line_ending(bytes);
            let line = format!("; {}: {new}{eol}", keys::ENTITY_ID.name);
            (TextEdit::insert(first, line), None)
        }
    };
    // One edit: made as it is.
    let mut out = bytes.to_vec();
    out.splice(edit.range, edit.text.into_bytes());
    Ok((out, old))
}

/// Where the line of the first property of `bytes` starts (the end of the file when
/// there is none), and the first `EntityID` value line (byte range, the id it reads
/// as), tokenizing `bytes` as the `parts` it is cut into (in order, joined `bytes`).
fn id_line<'a>(bytes: &'a [u8], path: &Path, parts: impl Iterator<Item = &'a [u8]>) -> IdLine {
    let mut buffer = TokenBuffer::new();
    let mut first = None;
    let mut found = None;
    // Where the part starts in `bytes`.
    let mut part_start = 0;
    // Every part is tokenized, also after the id is found: a bad line anywhere is an
    // error, as when the file is read whole.
    for part in parts {
        let mut doc = buffer.tokenize(part, path)?;
        // Where the document's source starts in `bytes` (past a byte-order mark).
        let offset = part_start + doc.source_offset();
        part_start += part.len();
        if first.is_none() && !doc.is_empty() {
            first = Some(offset + doc.property_span(0).start);
        }
        if found.is_some() {
            continue;
        }
        let node = (0..doc.len()).find(|&i| {
            juliet_entities::load::base_key(doc.node(i).key_crc, doc.key(i))
                == Some(keys::ENTITY_ID.name)
        });
        if let Some(i) = node {
            let line = doc.value_spans(i).next().unwrap_or_default();
            let old = doc.decode::<u64>(i).ok().map(EntityId);
            found = Some((offset + line.start..offset + line.end, old));
        }
    }
    Ok((first.unwrap_or(bytes.len()), found))
}

/// What [`id_line`] finds.
type IdLine = Result<(usize, Option<(Range<usize>, Option<EntityId>)>), juliet_core::Error>;

/// Where `file` goes once its id is `id`: after the new id when it is named after an id
/// (`<16 hex digits>.jasset` or `<16 hex digits>-N.jasset`: its old id's, or the id an
/// interrupted renumber gave it), else where it is.
fn renamed(file: &Path, id: EntityId) -> PathBuf {
    let stem = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let hex = stem.split_once('-').map_or(stem, |(h, _)| h);
    let named_after_an_id = hex.len() == 16 && hex.bytes().all(|b| b.is_ascii_hexdigit());
    if named_after_an_id {
        file.with_file_name(id.file_name())
    } else {
        file.to_path_buf()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_id_value_changes() {
        let text = "# mine\r\nid: 66\r\nKind: Inert\r\n";
        let (out, old) =
            with_id(text.as_bytes(), Path::new("f"), EntityId(0xAB << 32 | 1)).unwrap();
        assert_eq!(old, Some(EntityId(66)));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "# mine\r\nid: 0x000000AB00000001\r\nKind: Inert\r\n"
        );
        let (out, old) =
            with_id(b"\xEF\xBB\xBF; Kind\nInert\n", Path::new("f"), EntityId(7)).unwrap();
        assert_eq!(old, None);
        assert_eq!(
            out,
            b"\xEF\xBB\xBF; EntityID: 0x0000000000000007\n; Kind\nInert\n"
        );
        // The added line ends as most lines do: one CRLF comment does not make it CRLF.
        let (out, _) = with_id(b"# one\r\n; Kind\nInert\n", Path::new("f"), EntityId(7)).unwrap();
        assert_eq!(
            out,
            b"# one\r\n; EntityID: 0x0000000000000007\n; Kind\nInert\n"
        );
    }

    #[test]
    fn an_id_past_the_first_piece_is_found_and_errors_are_located_in_the_file() {
        let mut text = String::from("Kind: Inert\n");
        for i in 0..3 * juliet_entities::load::PIECE_LINES {
            text.push_str(&format!("k{i}: 1\n"));
        }
        let (out, old) = with_id(
            format!("{text}; EntityID\n0x9\n").as_bytes(),
            Path::new("f"),
            EntityId(7),
        )
        .unwrap();
        assert_eq!(old, Some(EntityId(9)));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("{text}; EntityID\n0x0000000000000007\n")
        );
        let lines = text.lines().count() as u32;
        let err = with_id(
            format!("{text}bad\n").as_bytes(),
            Path::new("f"),
            EntityId(7),
        );
        assert_eq!(err.unwrap_err().location.line, lines + 1);
    }

    #[test]
    fn id_named_files_follow_the_new_id() {
        let new = EntityId(0x1_0000_0001);
        let dir = Path::new("w/Entities");
        for named in ["0000000000000042-2.jasset", "00000000000000aB.jasset"] {
            assert_eq!(
                renamed(&dir.join(named), new),
                dir.join("0000000100000001.jasset")
            );
        }
        for own in ["Rock.jasset", "42.jasset", "000000000000004G.jasset"] {
            assert_eq!(renamed(&dir.join(own), new), dir.join(own));
        }
    }
}
