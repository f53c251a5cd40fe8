//! `jasset`, the command-line tool of Juliet-rs, as a library: it checks, formats,
//! inspects, migrates, sets, diffs, merges, moves and renumbers `.jasset` asset trees,
//! exports and checks the game's schema, generates and benchmarks projects, serves
//! editors as a language server (`jasset lsp`) and, with the `editor` feature, opens the
//! world editor (`jasset edit`: `juliet-editor` in an eframe window). It works through
//! the `juliet-entities` runtime, so it knows every entity kind registered in the
//! program it is linked into: the stock binary of this crate knows the stock kinds, and
//! a game's own tool, a binary of the game's crate calling [`main`], knows the game's
//! kinds too (docs/guide.md, "Your game's own `jasset`"). [`main`] is the one public
//! item.
//!
//! A game's own tool, `src/bin/jasset.rs` of the game's crate (`my_game`, which
//! depends on `juliet-entities` and `jasset`):
//!
//! ```no_run
//! # mod my_game {}
//! use my_game as _; // links the game's kinds (registered by their derive) into the tool
//!
//! fn main() -> std::process::ExitCode {
//!     jasset::main()
//! }
//! ```
#![forbid(unsafe_code)]

// Inside: argument parsing (clap), one module per subcommand, and the helpers they share
// (project discovery, loading, output).

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bench;
mod check;
mod demo;
mod diff;
#[cfg(feature = "editor")]
mod edit;
mod element_path;
mod fmt;
mod gen;
mod inspect;
mod line_diff;
mod listing;
mod lsp;
mod merge;
mod migrate;
mod mv;
mod output;
mod project;
mod props;
mod renumber;
mod schema;
mod schema_kinds;
mod set;
mod tree;
mod values;

/// `jasset`: check, format, inspect, migrate, generate and benchmark `.jasset` asset
/// trees, or run the whole pipeline on the bundled sample project (`jasset demo`).
///
/// Paths are printed as given. The project root (the folder holding `Assets/`, against
/// which `Template` paths resolve) is the nearest ancestor of the first path that holds
/// an `Assets/` folder, unless `--root` names it.
///
/// Exit codes: 0 success; 1 errors in the data (or a failed check); 2 usage errors.
#[derive(Debug, Parser)]
// `about` and `long_about` from the doc comment above: a bare `about` would take the
// description of the crate clap is compiled in (the library's, not the tool's).
#[command(name = "jasset", version)]
pub(crate) struct Cli {
    /// Log the runtime's tracing events to stderr (-v: info, -vv: debug).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,

    /// The subcommand.
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run the whole pipeline on the bundled sample project.
    ///
    /// Copies the sample project to a temporary folder, loads its templates and world,
    /// prints a summary (entities per kind, templates, overrides), makes a few edits (moves
    /// an entity, changes a template and reloads it, migrates the version-1 projectile),
    /// saves, shows which files were written with their diffs, then loads the saved world
    /// again and verifies it. Exits with 1 when the verification fails. The original
    /// sample project is never written.
    Demo(demo::DemoArgs),
    /// Validate `.jasset` files and trees.
    ///
    /// Prints one line per problem, `path:line:col: error|warning: message`, then a
    /// summary on stderr. World entity files are loaded with their whole world (so a
    /// duplicate `EntityID` in another file of the world is found), templates through
    /// their chain. Exits with 0 when there is no error (warnings allowed unless
    /// `--strict`), 1 otherwise. Shows a progress bar on large trees when stderr is a
    /// terminal.
    Check(check::CheckArgs),
    /// Show one entity file's resolved properties.
    ///
    /// Prints the kind, id, template chain, position and every property with its
    /// resolved value; overridden properties are marked `*` (coloured when stdout is a
    /// terminal and `NO_COLOR` is unset), inherited ones name the template they come
    /// from. `--json` prints one JSON object instead.
    Inspect(inspect::InspectArgs),
    /// Rewrite files to canonical form (load, then the canonical writer).
    ///
    /// Idempotent: a formatted file is left as it is. Files that do not load (a bad
    /// value, an unknown kind) are reported and never rewritten. With `--check`, writes
    /// nothing, lists the files that would change and exits with 1 if there is any.
    Fmt(fmt::FmtArgs),
    /// Bring files to the current versions.
    ///
    /// Loads every file (older `ClassVersion`s run their class's migration, deprecated
    /// keys are consumed, unknown keys kept) and saves the files whose content changes,
    /// reporting per file what changed: versions, removed and added keys, changed values.
    /// Re-spellings alone (`1` for `true`, `%f` floats) do not count as a change; a key
    /// or `Kind` written as an alias does, and gets the current name.
    Migrate(migrate::MigrateArgs),
    /// Set (or revert) properties of one entity file or template, in place.
    ///
    /// `jasset set FILE Key=Value... [--unset Key]...`: loads the file's world (a
    /// template through its chain), decodes each value with the property's codec (a bad
    /// key or value is reported with the file and key, and nothing is written), reverts
    /// each `--unset` property of a template instance or variant to its template's
    /// value, and saves: only the lines of the changed properties change. A template's
    /// instances take its new values where they do not override them. Exits with 1
    /// when anything was refused.
    Set(set::SetArgs),
    /// Compare two versions of one asset, property by property.
    ///
    /// Lists the properties added (`+`), removed (`-`) and changed (`~ Key: old -> new`),
    /// values as the codecs read them: `0.50` against `0.5`, another spelling of a key,
    /// a moved line or a comment are no change. `--resolved` compares the values after
    /// the template chain is applied. A file whose entity does not load (a missing
    /// template, an unknown kind) is compared as written, with a note on stderr. Exits
    /// with 0 when equal, 1 when different; as git's external diff (seven arguments) it
    /// exits with 0.
    Diff(diff::DiffArgs),
    /// Merge three versions of one asset, property by property (a git merge driver).
    ///
    /// `jasset merge BASE OURS THEIRS [PATH] [-o OUT]` (as git's driver, `jasset merge
    /// %O %A %B %P`: PATH is the asset's path, which messages name): a property changed
    /// on one side takes that side's value; changed on both sides differently, it
    /// becomes a conflict block (`<<<<<<< ours` / `=======` / `>>>>>>> theirs` around the
    /// two properties) that `jasset check` reports until it is resolved. Comments, order
    /// and layout of OURS are kept. Writes into OURS unless `-o`; exits with 1 when there
    /// is a conflict.
    Merge(merge::MergeArgs),
    /// Give world entity files fresh ids (and id-named files their new names).
    ///
    /// `jasset renumber FILE...`: each file's `EntityID` becomes a fresh id of a newly
    /// drawn prefix (what a new entity gets), changed in place (nothing else of the file
    /// changes); a file named after its old id is renamed after the new one. For an
    /// entity whose id another branch took too, or a file copied by hand.
    Renumber(renumber::RenumberArgs),
    /// Move or rename a template, an asset or a folder, and every reference to it.
    ///
    /// `jasset mv OLD NEW`: every `Template` line and asset path value of the project's
    /// `.jasset` files that names OLD (or a file under it) is changed to NEW, each file
    /// edited in place, then OLD is renamed. Nothing changes when NEW exists, a path is
    /// outside the project, or a file to edit is read-only or a link. `--dry-run` lists
    /// the edits.
    Mv(mv::MvArgs),
    /// Generate a synthetic project for benchmarks and stress tests.
    ///
    /// Writes `OUT/Assets/Templates/` (M templates of the stock kinds) and
    /// `OUT/Assets/Worlds/Gen/Entities/` (N entity files: mostly template instances with
    /// a few overrides, some standalone entities). Deterministic: the same arguments and
    /// seed give the same bytes.
    Gen(gen::GenArgs),
    /// Time loading and saving a world.
    ///
    /// ROOT is a world folder (holding `Entities/`) or a project root (every world under
    /// `Assets/Worlds/`). Prints load and save timings with throughput (files/s, MB/s).
    /// Saves go to a temporary copy: ROOT is never written.
    Bench(bench::BenchArgs),
    /// Export the game's classes to `jasset.schema`, or check them against it.
    ///
    /// `schema export [-o FILE] [--force] [--stock-kinds]` writes the game's classes
    /// (name, aliases, version, properties with key, type and default, deprecated keys)
    /// to `<root>/jasset.schema`: every registered class but the stock kinds the game
    /// did not replace, unless `--stock-kinds`; a schema holding classes this build does
    /// not register is left as it is (exit 1) unless `--force`.
    /// `schema check` exits with 1, naming the class and the property, when a class's
    /// property keys or types changed while its version did not: run it in CI so that
    /// no layout change ships without a version bump.
    Schema(schema::SchemaArgs),
    /// Run the language server for editors (LSP over stdin and stdout).
    ///
    /// Speaks the Language Server Protocol on stdin and stdout for an editor (VS Code,
    /// Neovim, Helix): the problems `check` reports for each open buffer as it is typed,
    /// hover with a value's type, default and the template that sets it, completion of
    /// keys, kinds, template paths and values, go to the template's line, code actions
    /// (did you mean, revert to template, format) and formatting as `fmt`.
    Lsp(lsp::LspArgs),
    /// Open the world editor (egui) on a world.
    ///
    /// ROOT is a world folder or a project root (its first world, or `--world NAME`).
    /// An outliner, the inspector with override highlighting, revert and apply to
    /// template, a template browser, add and delete, undo and redo, and save with the
    /// list of files; files changed on disk are reloaded. Needs a display.
    #[cfg(feature = "editor")]
    Edit(edit::EditArgs),
    /// Open the world editor (not in this build: it says how to get it).
    ///
    /// This `jasset` was built without the editor, so that the tool builds none of its
    /// window stack (egui, eframe). `jasset edit` says which command builds a `jasset`
    /// with it.
    #[cfg(not(feature = "editor"))]
    Edit(WithoutEditor),
}

/// The arguments `jasset edit` takes when the editor is not built in: any, unread.
#[cfg(not(feature = "editor"))]
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct WithoutEditor {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    _args: Vec<String>,
}

/// What `jasset edit` says in a build without the editor.
#[cfg(not(feature = "editor"))]
const WITHOUT_EDITOR: &str = "this jasset was built without the editor; \
     from the repository, `cargo run --release --bin jasset --features editor -- edit` \
     runs one with it (or `cargo install --locked --path jasset --features editor`); \
     a game's own jasset gets it from the `editor` feature of its jasset dependency";

/// A failure that ends a subcommand, by what the exit says.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// Something went wrong (printed as `jasset: error: <message>`, exit code 1).
    #[error("{0}")]
    Failure(String),
    /// The command line asked for something that cannot be done (exit code 2).
    #[error("{0}")]
    Usage(String),
    /// Writing the output failed because its reader went (`jasset check | head`): the
    /// command stops quietly, with exit code 0.
    #[error("I/O error: {0}")]
    BrokenPipe(io::Error),
}

impl CliError {
    /// A failure (exit code 1).
    pub(crate) fn failure(message: impl Into<String>) -> CliError {
        CliError::Failure(message.into())
    }

    /// A usage error (exit code 2).
    pub(crate) fn usage(message: impl Into<String>) -> CliError {
        CliError::Usage(message.into())
    }

    /// The exit code: 1 for a failure, 2 for a usage error, 0 for a closed pipe.
    pub(crate) fn code(&self) -> u8 {
        match self {
            CliError::Failure(_) => 1,
            CliError::Usage(_) => 2,
            CliError::BrokenPipe(_) => 0,
        }
    }

    /// This error with `context` after its message (`" (in OURS)"`).
    pub(crate) fn with_context(self, context: &str) -> CliError {
        match self {
            CliError::Failure(m) => CliError::Failure(m + context),
            CliError::Usage(m) => CliError::Usage(m + context),
            pipe @ CliError::BrokenPipe(_) => pipe,
        }
    }
}

impl From<io::Error> for CliError {
    fn from(err: io::Error) -> CliError {
        match err.kind() {
            io::ErrorKind::BrokenPipe => CliError::BrokenPipe(err),
            _ => CliError::failure(format!("I/O error: {err}")),
        }
    }
}

impl From<juliet_core::Error> for CliError {
    fn from(err: juliet_core::Error) -> CliError {
        CliError::failure(err.to_string())
    }
}

/// What a subcommand ends with: success (exit 0) or a problem found in the data
/// (exit 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// Exit code 0.
    Success,
    /// Exit code 1: the subcommand ran, and found errors (or changes, for `fmt --check`).
    Problems,
}

impl Status {
    /// [`Status::Problems`] when `problems`, else [`Status::Success`].
    pub(crate) fn from_problems(problems: bool) -> Status {
        if problems {
            Status::Problems
        } else {
            Status::Success
        }
    }
}

/// The result type of the subcommands.
pub(crate) type CliResult = Result<Status, CliError>;

/// The `jasset` tool: parses the process's arguments, runs the subcommand over the
/// kinds registered in the program (the stock kinds and every `#[derive(Entity)]` type
/// linked into it), prints to stdout and stderr, and returns the exit code: 0 success,
/// 1 problems in the data (errors, a failed verification, files `fmt --check` would
/// change), 2 a usage error.
///
/// A game's own tool is this binary in the game's crate, which depends on `jasset`
/// (`use my_game as _;` links the game's kinds when the binary names nothing else of
/// the game's library):
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     jasset::main()
/// }
/// ```
pub fn main() -> ExitCode {
    run(Cli::parse())
}

/// Runs `cli`, printing to stdout and stderr; returns the process exit code.
fn run(cli: Cli) -> ExitCode {
    init_tracing(cli.verbose);
    let result = match &cli.command {
        // The server writes stdout from its own thread: it is not locked here.
        Command::Lsp(args) => lsp::run(args),
        _ => {
            let stdout = io::stdout();
            let mut out = stdout.lock();
            let result = run_with(cli.command, &mut out);
            let _ = out.flush();
            result
        }
    };
    match result {
        Ok(Status::Success) => ExitCode::SUCCESS,
        Ok(Status::Problems) => ExitCode::from(1),
        // A closed pipe (`jasset check demo | head`) is not an error of ours.
        Err(CliError::BrokenPipe(_)) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("jasset: error: {err}");
            ExitCode::from(err.code())
        }
    }
}

/// Runs one subcommand, writing its report to `out` (stdout in the binary).
///
/// # Errors
/// A [`CliError`] for a failure that stops the subcommand (an unreadable path, a usage
/// error); problems found in the data are [`Status::Problems`] instead.
fn run_with(command: Command, out: &mut dyn Write) -> CliResult {
    match command {
        // Reading, checking and measuring.
        Command::Demo(args) => demo::run(&args, out),
        Command::Check(args) => check::run(&args, out),
        Command::Inspect(args) => inspect::run(&args, out),
        Command::Diff(args) => diff::run(&args, out),
        Command::Bench(args) => bench::run(&args, out),
        // The language server talks on stdin and stdout.
        Command::Lsp(args) => lsp::run(&args),
        // Rewriting files in place.
        Command::Fmt(args) => fmt::run(&args, out),
        Command::Migrate(args) => migrate::run(&args, out),
        Command::Set(args) => set::run(&args, out),
        Command::Renumber(args) => renumber::run(&args, out),
        Command::Mv(args) => mv::run(&args, out),
        // The editor's window.
        #[cfg(feature = "editor")]
        Command::Edit(args) => edit::run(&args, out),
        #[cfg(not(feature = "editor"))]
        Command::Edit(_) => Err(CliError::usage(WITHOUT_EDITOR.to_owned())),
        // Making files.
        Command::Merge(args) => merge::run(&args, out),
        Command::Gen(args) => gen::run(&args, out),
        Command::Schema(args) => schema::run(&args, out),
    }
}

/// Installs a stderr `tracing` subscriber when `-v` was given (the runtime logs each
/// warning as a `tracing` event; without `-v` the printed report is enough).
fn init_tracing(verbose: u8) {
    let level = match verbose {
        0 => return,
        1 => tracing::Level::INFO,
        _ => tracing::Level::DEBUG,
    };
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(io::stderr)
        .with_target(false)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_subcommand_has_help_text() {
        let cmd = Cli::command();
        let names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
        let expected = vec![
            "demo", "check", "inspect", "fmt", "migrate", "set", "diff", "merge", "renumber", "mv",
            "gen", "bench", "schema", "lsp", "edit",
        ];
        assert_eq!(names, expected);
        for sub in cmd.get_subcommands() {
            let about = sub.get_about().map(|s| s.to_string()).unwrap_or_default();
            let long = sub
                .get_long_about()
                .map(|s| s.to_string())
                .unwrap_or_default();
            assert!(!about.is_empty(), "{} has no help", sub.get_name());
            assert!(
                long.len() > about.len(),
                "{} has no long help",
                sub.get_name()
            );
        }
    }
}
