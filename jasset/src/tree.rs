//! [`TreeArgs`]: the paths and `--root` that `check`, `fmt` and `migrate` take, and the
//! loading of the files they name that the three commands start with.

use std::path::PathBuf;

use clap::Args;
use juliet_core::WarningKind;

use super::listing::{collect, Collected};
use super::output::{progress_bar, tick};
use super::project::{require_paths, resolve_root, Session};
use super::schema_kinds::registry_for;
use super::CliError;
use juliet_entities::world::NOT_REGULAR;

/// The files and folders a command works on, and the project root.
#[derive(Debug, Clone, Args)]
pub(crate) struct TreeArgs {
    /// Files and folders (folders are walked for `.jasset` files).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The project root (`Template` paths resolve against it). Default: the nearest
    /// ancestor of the first PATH holding an `Assets/` folder.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

impl TreeArgs {
    /// The `.jasset` files the paths name ([`collect`]), and the session that loaded
    /// them (with a progress bar on a terminal). The temporary files of an interrupted
    /// write are removed when `write` (the writing commands do), else reported as
    /// warnings; when `write`, world files without `EntityID` get ids of a random
    /// prefix. The warnings of what was skipped, listed or loaded, are the
    /// [`Collected`]'s.
    ///
    /// # Errors
    /// A usage error when a PATH does not exist or `--root` is not a folder; a project
    /// schema that does not load ([`registry_for`]).
    pub(crate) fn load(&self, write: bool) -> Result<(Collected, Session), CliError> {
        require_paths(&self.paths)?;
        let root = resolve_root(self.root.as_deref(), &self.paths)?;
        let mut collected = collect(&self.paths);
        collected.handle_stale_temps(write);
        let bar = progress_bar(collected.files.len());
        let registry = registry_for(root.as_deref())?;
        // A writer saves a world file without `EntityID` with its session id: drawn
        // from a random prefix, as an authoring session's are (docs/design.md, section
        // 5.4), so two people formatting such files apart do not write the same id.
        let id_prefix = if write {
            juliet_entities::draw_id_prefix()
        } else {
            0
        };
        let files = &collected.files;
        let mut session = Session::load(root, registry, files, id_prefix, &mut tick(&bar));
        bar.finish_and_clear();
        // A named file the world loader skips (a symbolic link in an `Entities` folder)
        // is reported by every command, as a file a listing skips is.
        let (skipped, loaded): (Vec<_>, Vec<_>) = (session.warnings.drain(..))
            .partition(|w| matches!(&w.kind, WarningKind::Other(text) if text == NOT_REGULAR));
        session.warnings = loaded;
        collected.warnings.extend(skipped);
        Ok((collected, session))
    }
}
