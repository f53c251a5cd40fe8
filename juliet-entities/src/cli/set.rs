//! `jasset set FILE Key=Value... [--unset Key]... [--root DIR]`: sets (or, for a
//! template instance, reverts) properties of one world entity file, in place.
//!
//! The file's world is loaded (so ids and templates resolve as the game sees them), each
//! value is decoded with the property's codec, and the world is saved: only the edited
//! entity's file is written, and only the lines of the changed properties change
//! (docs/design.md, section 6.2). A bad key or value is reported the way `check`
//! reports problems, and nothing is written.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::output::escape_path;
use super::project::resolve_root;
use super::schema_kinds::registry_for;
use super::{CliError, CliResult, Status};
use crate::world::{LoadOptions, World};

/// Arguments of `jasset set`.
#[derive(Debug, Clone, Args)]
pub struct SetArgs {
    /// The entity file (under a world's `Entities` folder).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// `Key=Value` pairs: the value is written as in the file (`Mass=300`,
    /// `Position=1,2,3`, `MeshAsset="a b.obj"`).
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
/// A usage error for a missing FILE, a FILE outside a world's `Entities` folder, a pair
/// without `=`, or nothing to do; write errors.
pub fn run(args: &SetArgs, out: &mut dyn Write) -> CliResult {
    if args.assignments.is_empty() && args.unset.is_empty() {
        return Err(CliError::usage(
            "nothing to set: give KEY=VALUE or --unset KEY",
        ));
    }
    let mut pairs = Vec::new();
    for a in &args.assignments {
        match a.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => pairs.push((k.trim(), v.trim())),
            _ => return Err(CliError::usage(format!("`{a}`: expected KEY=VALUE"))),
        }
    }
    let file = args
        .file
        .canonicalize()
        .map_err(|e| CliError::usage(format!("{}: {e}", escape_path(&args.file))))?;
    let world_dir = world_of(&file).ok_or_else(|| {
        CliError::usage(format!(
            "{}: not a world entity file (expected <world>/Entities/<name>.jasset)",
            escape_path(&args.file)
        ))
    })?;
    let root = resolve_root(args.root.as_deref(), std::slice::from_ref(&args.file))?;
    let options = LoadOptions {
        registry: Some(registry_for(root.as_deref())?),
        project_root: root,
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
        let shown = escape_path(&args.file);
        for e in report
            .errors
            .iter()
            .filter(|e| same_file(&e.location.path, &file))
        {
            writeln!(out, "{e}")?;
        }
        writeln!(out, "{shown}: the file did not load; nothing set")?;
        return Ok(Status::from_problems(true));
    };

    let mut failed = false;
    for (key, value) in &pairs {
        if let Err(e) = world.set_property(id, key, value) {
            failed = true;
            writeln!(out, "{}", e.with_path(&args.file))?;
        }
    }
    for key in &args.unset {
        if let Err(e) = world.revert_property(id, key) {
            failed = true;
            writeln!(out, "{}", e.with_path(&args.file))?;
        }
    }
    if failed {
        writeln!(out, "{}: nothing written", escape_path(&args.file))?;
        return Ok(Status::from_problems(true));
    }
    // What the file held, compared with what the save wrote (a dirty entity whose text
    // is its file's is written again, the same bytes).
    let before = world.file_fingerprint(id);
    let saved = world
        .save_world()
        .map_err(|e| CliError::failure(e.to_string()))?;
    for skipped in &saved.skipped {
        writeln!(out, "{skipped}")?;
    }
    let written = world.file_fingerprint(id) != before;
    writeln!(
        out,
        "{} {}",
        if written { "edited" } else { "unchanged" },
        escape_path(&args.file)
    )?;
    Ok(Status::from_problems(!saved.skipped.is_empty()))
}

/// The world folder of an entity file: the parent of its `Entities` folder.
fn world_of(file: &Path) -> Option<PathBuf> {
    let entities = file.parent()?;
    (entities.file_name()? == crate::world::ENTITIES_DIR)
        .then(|| entities.parent().map(Path::to_path_buf))?
}

fn same_file(a: &Path, b: &Path) -> bool {
    a.canonicalize().is_ok_and(|a| a == b)
}
