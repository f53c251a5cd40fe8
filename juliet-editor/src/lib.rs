//! # juliet-editor
//!
//! The editor of Juliet-rs, drawn with egui on the entity runtime (`juliet-entities`):
//! [`inspector_ui`] draws one entity's properties into any [`egui::Ui`] from its class's
//! property table and returns the user's [`Edit`]s ([`inspector`] also applies them to the
//! [`World`](juliet_entities::World)); overridden properties are bold and
//! [`OVERRIDE_COLOR`], with a revert button ([`REVERT_TOOLTIP`]) and "Apply" to a template
//! of the chain, and inherited ones name the template that gives their value.
//! [`EditorApp`] is the whole world editor behind `jasset edit`: the outliner, a top-down
//! view (click to select, drag to move, scroll to zoom), the template browser, add and
//! delete, undo and redo ([`History`]), save with the list of files
//! ([`World::save_plan`](juliet_entities::World::save_plan)), the Problems panel
//! ([`Problems`]) and files changed on disk ([`EditorApp::files_changed`]);
//! [`EditorApp::ui`] draws one frame into any `Ui`, so it runs in the `jasset edit` window
//! (eframe, in the `jasset` crate), in a game's own egui or bevy_egui UI, or under
//! egui_kittest. Use the egui this crate re-exports ([`egui`]). A game that does not embed
//! the editor does not depend on this crate and builds no egui. The design is
//! docs/design.md, sections 7.8 and 7.9; the guide's "The editor" and "Embedding the
//! inspector".
//!
//! ```
//! use juliet_editor::egui;
//! use juliet_entities::kinds::Inert;
//! use juliet_entities::prelude::*;
//!
//! /// A game's debug panel: the inspector of the selected entity, edits applied at once.
//! fn debug_panel(ui: &mut egui::Ui, world: &mut World, selected: EntityId) {
//!     if let Err(e) = juliet_editor::inspector(ui, world, selected) {
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
