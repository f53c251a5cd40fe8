//! The editor (egui only): an inspector panel that a game embeds in its
//! own egui UI, and [`EditorApp`], the world editor behind `jasset edit`.
//!
//! * [`inspector_ui`] draws one entity's inspector into an [`egui::Ui`] from its class's
//!   property table and returns the user's [`Edit`]s; [`inspector`] also applies them.
//!   Overridden properties are bold and [`OVERRIDE_COLOR`], with a revert button
//!   ([`REVERT_TOOLTIP`]) and "Apply" (to a template of the chain chosen by the user);
//!   inherited ones name the template that gives their value.
//! * [`EditorApp`] adds the outliner, a top-down view of the world (markers at the
//!   entities' positions: click to select, drag to move, scroll to zoom), the template
//!   browser, add/delete, undo and redo
//!   ([`History`]: each step records the properties, entity or template file it changed),
//!   save with the list of files ([`juliet_entities::World::save_plan`], the planning
//!   the save itself runs), the Problems panel ([`Problems`]: every error and warning of the
//!   world's files, with [`EditorApp::with_load_report`]) and the handling of files
//!   changed, added or deleted on disk ([`EditorApp::files_changed`]).
//!   [`EditorApp::ui`] draws one frame into any `Ui`, so it runs in an eframe window
//!   (`jasset edit`) or under egui_kittest.
//!
//! ```
//! use juliet_editor::{self as editor, egui};
//! use juliet_entities::kinds::Inert;
//! use juliet_entities::prelude::*;
//!
//! /// A game's debug panel: the inspector of the selected entity, edits applied at once.
//! fn debug_panel(ui: &mut egui::Ui, world: &mut World, selected: EntityId) {
//!     if let Err(e) = editor::inspector(ui, world, selected) {
//!         ui.colored_label(egui::Color32::RED, e.to_string());
//!     }
//! }
//!
//! let dir = tempfile::tempdir()?;
//! let mut world = World::new(dir.path());
//! let rock = world.manager_mut().make_entity::<Inert>(juliet_entities::glam::Vec3::ZERO);
//! let ctx = egui::Context::default();
//! let mut output = ctx.run_ui(egui::RawInput::default(), |ui| debug_panel(ui, &mut world, rock));
//! output.textures_delta.clear(); // (a real UI hands them to its renderer)
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! docs/design.md, sections 7.8 and 7.9; the guide's "The editor" and "Embedding the
//! inspector".
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod app;
mod disk;
mod inspector;
mod outliner;
mod problems;
mod reference;
mod top_down;
mod undo;
mod view;
mod widgets;

pub use app::{Conflict, EditorApp, GroupBy, PendingFile};
pub use egui;
pub use inspector::{
    apply_edit, inspector, inspector_frame, inspector_ui, template_name, Edit, InspectorOutput,
    OVERRIDE_COLOR, REVERT_TOOLTIP,
};
pub use problems::{Problem, Problems};
pub use undo::{Change, History, Step};
pub use widgets::value_widget;
