//! `jasset edit [ROOT]`: the world editor ([`crate::editor::EditorApp`]) in an eframe
//! window, with a notify watcher that feeds changed files to the editor.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};

use clap::Args;
use notify::{EventKind, RecursiveMode, Watcher};

use super::output::escape_path;
use super::project::find_root;
use super::{CliError, CliResult, Status};
use crate::editor::EditorApp;
use crate::entity::EntityId;
use crate::world::{LoadOptions, World};

/// Arguments of `jasset edit`.
#[derive(Debug, Clone, Args)]
pub struct EditArgs {
    /// A world folder (holding `Entities/`) or a project root (holding `Assets/`; its
    /// first world under `Assets/Worlds/`, or the one `--world` names). Default: `.`.
    #[arg(value_name = "ROOT", default_value = ".")]
    pub root: PathBuf,
    /// The world to open, by folder name under `Assets/Worlds/`.
    #[arg(long, value_name = "NAME")]
    pub world: Option<String>,
    /// Select this entity (`0x...` or decimal) when the window opens.
    #[arg(long, value_name = "ID")]
    pub select: Option<String>,
}

/// The world folder that `root` (and `world`) name.
///
/// # Errors
/// A usage error when there is no such folder or the project has no world.
pub fn world_dir(root: &Path, world: Option<&str>) -> Result<PathBuf, CliError> {
    let root = root
        .canonicalize()
        .map_err(|e| CliError::usage(format!("{}: {e}", escape_path(root))))?;
    if world.is_none() && root.join("Entities").is_dir() {
        return Ok(root);
    }
    let project = find_root(&root).unwrap_or_else(|| root.clone());
    let worlds = project.join("Assets/Worlds");
    if let Some(name) = world {
        let dir = worlds.join(name);
        return if dir.is_dir() {
            Ok(dir)
        } else {
            Err(CliError::usage(format!("no world {}", escape_path(&dir))))
        };
    }
    let mut names: Vec<PathBuf> = std::fs::read_dir(&worlds)
        .map_err(|e| CliError::usage(format!("{}: {e}", escape_path(&worlds))))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    names.sort();
    names
        .into_iter()
        .next()
        .ok_or_else(|| CliError::usage(format!("no world under {}", escape_path(&worlds))))
}

/// Parses an entity id as `jasset` prints them (`0x` + hex) or in decimal.
fn parse_id(text: &str) -> Option<EntityId> {
    let text = text.trim();
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
    .map(EntityId)
}

/// The eframe application: the editor and the watcher's channel.
struct Window {
    app: EditorApp,
    changes: Receiver<PathBuf>,
    // Kept alive for the window's lifetime: dropping it stops the watching.
    _watcher: Option<notify::RecommendedWatcher>,
}

impl eframe::App for Window {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let mut paths: Vec<PathBuf> = self.changes.try_iter().collect();
        paths.sort();
        paths.dedup();
        if !paths.is_empty() {
            self.app.files_changed(&paths);
        }
        self.app.ui(ui);
    }
}

/// Runs `jasset edit`: loads the world, opens the editor window and returns when it
/// closes.
///
/// # Errors
/// A usage error (exit 2) for a missing root or world; a failure for a world that does
/// not load or a window that cannot open (no display).
pub fn run(args: &EditArgs, out: &mut dyn Write) -> CliResult {
    let dir = world_dir(&args.root, args.world.as_deref())?;
    let (world, report) =
        World::load(&dir, &LoadOptions::default()).map_err(|e| CliError::failure(e.to_string()))?;
    writeln!(
        out,
        "editing {} ({} entities, {} problems on load)",
        escape_path(&dir),
        world.manager().len(),
        report.errors.len() + report.warnings.len()
    )?;
    let watched = [
        world.root().to_path_buf(),
        world.project_root().join("Assets/Templates"),
    ];
    let mut app = EditorApp::new(world);
    if let Some(id) = args.select.as_deref() {
        let id = parse_id(id).ok_or_else(|| CliError::usage(format!("`{id}`: not an id")))?;
        app.select(Some(id));
    }
    let title = app.title();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(title)
            .with_inner_size([1200.0, 720.0]),
        ..Default::default()
    };
    eframe::run_native(
        "jasset edit",
        options,
        Box::new(move |cc| {
            let (send, changes) = channel();
            let ctx = cc.egui_ctx.clone();
            let watcher =
                notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                    if let Ok(event) = event {
                        if matches!(event.kind, EventKind::Create(_) | EventKind::Modify(_)) {
                            for path in event.paths {
                                let _ = send.send(path);
                            }
                            ctx.request_repaint();
                        }
                    }
                });
            let watcher = match watcher {
                Ok(mut w) => {
                    for dir in watched.iter().filter(|d| d.is_dir()) {
                        if let Err(e) = w.watch(dir, RecursiveMode::Recursive) {
                            tracing::warn!("not watching {}: {e}", dir.display());
                        }
                    }
                    Some(w)
                }
                Err(e) => {
                    tracing::warn!("no file watching: {e}");
                    None
                }
            };
            Ok(Box::new(Window {
                app,
                changes,
                _watcher: watcher,
            }))
        }),
    )
    .map_err(|e| CliError::failure(format!("cannot open the editor window: {e}")))?;
    Ok(Status::Success)
}
