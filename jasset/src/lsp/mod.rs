//! `jasset lsp`: a language server for `.jasset` files over stdio (the Language Server
//! Protocol, through `lsp-server` and `lsp-types`), for the editors level designers
//! already use. It knows the kinds the tool knows (the stock kinds, a game's tool's
//! kinds, `<root>/jasset.schema`) and works on the buffers as the editor holds them:
//! diagnostics as `check` gives them, hover with where a value comes from in the
//! template chain, completion, go to definition, code actions (did you mean, revert to
//! and apply to template, format) and formatting as `fmt`.

use std::path::PathBuf;

use clap::Args;

use super::{CliError, CliResult, Status};

mod actions;
mod apply;
mod completion;
mod diagnostics;
mod documents;
mod entity_at;
mod hover;
mod instances;
mod overlay;
mod server;

/// Arguments of `jasset lsp`.
#[derive(Debug, Clone, Args)]
pub(crate) struct LspArgs {
    /// The project root of every file (`Template` paths resolve against it). Default:
    /// for each file, the nearest ancestor holding an `Assets/` folder.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Talk over stdin and stdout (the only transport; editors pass it).
    #[arg(long)]
    pub stdio: bool,
}

/// Runs `jasset lsp` until the editor says `exit`.
///
/// # Errors
/// A usage error when `--root` is not a folder; a failure when the connection breaks.
pub(crate) fn run(args: &LspArgs) -> CliResult {
    if let Some(root) = &args.root {
        if !root.is_dir() {
            return Err(CliError::usage(format!(
                "--root {}: not a folder",
                root.display()
            )));
        }
    }
    server::serve(args.root.clone()).map_err(CliError::failure)?;
    Ok(Status::Success)
}
