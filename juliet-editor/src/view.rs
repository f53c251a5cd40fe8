//! [`EditorApp::ui`]: the editor's window contents (toolbar, outliner, top-down view,
//! inspector, template browser, Problems panel, dialogs) and its keyboard shortcuts.

use egui::{Key, KeyboardShortcut, Modifiers, Panel, RichText, Ui, ViewportCommand};
use juliet_entities::glam::Vec3;

use crate::app::{EditorApp, PendingFile};
use crate::inspector::{inspector_frame, template_name};

const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
const REDO: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
const SAVE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);

/// What draws a panel's contents.
type DrawPanel = fn(&mut EditorApp, &mut Ui);

impl EditorApp {
    /// Draws the editor into `ui` (the whole window) and makes the edits the user asked
    /// for: one frame. Handles Ctrl+Z (undo), Ctrl+Shift+Z (redo) and Ctrl+S (the save
    /// dialog), and sets the window title (`*` while unsaved). While a text field has
    /// focus, Ctrl+Z and Ctrl+Shift+Z undo and redo its typing instead.
    pub fn ui(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        let before = (self.status.clone(), self.selected);
        // While a text field has focus, Ctrl+Z and Ctrl+Shift+Z are its own (egui's
        // TextEdit undoes the typing): the world's undo would change the value under
        // the field, which then commits its text again when it loses focus.
        if !ctx.text_edit_focused() {
            // Redo first: Ctrl+Shift+Z also matches Ctrl+Z when shift is not checked.
            if ctx.input_mut(|i| i.consume_shortcut(&REDO)) {
                self.redo();
            } else if ctx.input_mut(|i| i.consume_shortcut(&UNDO)) {
                self.undo();
            }
        }
        if ctx.input_mut(|i| i.consume_shortcut(&SAVE)) {
            self.open_save_dialog();
        }

        Panel::top("juliet-toolbar").show(ui, |ui| self.toolbar_ui(ui));
        Panel::bottom("juliet-status").show(ui, |ui| {
            ui.label(self.status.clone());
        });
        // The resizable panels, in the order they take their room: each with its
        // starting size and what draws it.
        let resizable: [(Panel, f32, DrawPanel); 4] = [
            (Panel::bottom("juliet-problems"), 110.0, Self::problems_ui),
            (Panel::left("juliet-outliner"), 230.0, Self::outliner_ui),
            (Panel::right("juliet-templates"), 210.0, Self::browser_ui),
            (Panel::right("juliet-inspector"), 520.0, Self::inspector_ui),
        ];
        for (panel, size, draw) in resizable {
            panel
                .resizable(true)
                .default_size(size)
                .show(ui, |ui| draw(self, ui));
        }
        egui::CentralPanel::default().show(ui, |ui| self.top_down_ui(ui));
        self.dialogs_ui(&ctx);

        if ctx.dragged_id().is_none() && ctx.memory(|m| m.focused().is_none()) {
            self.close_step();
        }
        if before != (self.status.clone(), self.selected) {
            // Edits are made after the panels were drawn: draw again with the result.
            ctx.request_repaint();
        }
        let title = self.title();
        if title != self.title {
            ctx.send_viewport_cmd(ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    /// Opens the save dialog with the plan worked out again (files may have changed on
    /// disk since, and a name a new entity wanted be taken).
    fn open_save_dialog(&mut self) {
        self.world_changed();
        self.save_dialog = true;
    }

    fn toolbar_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let unsaved = self.is_unsaved();
            ui.label(RichText::new(self.title()).strong());
            if ui.button(if unsaved { "Save *" } else { "Save" }).clicked() {
                self.open_save_dialog();
            }
            ui.separator();
            let (can_undo, undo_name) = (self.history.can_undo(), self.history.undo_name());
            if history_button(ui, "Undo", can_undo, undo_name, "Ctrl+Z") {
                self.undo();
            }
            let (can_redo, redo_name) = (self.history.can_redo(), self.history.redo_name());
            if history_button(ui, "Redo", can_redo, redo_name, "Ctrl+Shift+Z") {
                self.redo();
            }
            ui.separator();
            let kind_name = self.add_kind.map_or("", |c| c.name());
            let label = ui.label("Kind");
            egui::ComboBox::from_id_salt("juliet-add-kind")
                .selected_text(kind_name)
                .show_ui(ui, |ui| {
                    for class in self.kinds.clone() {
                        let chosen = self.add_kind.is_some_and(|c| std::ptr::eq(c, class));
                        if ui.selectable_label(chosen, class.name()).clicked() {
                            self.add_kind = Some(class);
                        }
                    }
                })
                .response
                .labelled_by(label.id);
            if ui
                .add_enabled(self.add_kind.is_some(), egui::Button::new("Add entity"))
                .clicked()
            {
                if let Some(class) = self.add_kind {
                    self.add_entity(class);
                }
            }
            if let Some(id) = self.selected {
                if ui.button("Delete").clicked() {
                    self.delete(id);
                }
            }
        });
    }

    /// The inspector panel's contents, in a vertical scroll area.
    fn inspector_ui(&mut self, ui: &mut Ui) {
        egui::ScrollArea::vertical()
            .id_salt("inspector")
            .auto_shrink([false, true])
            .show(ui, |ui| self.inspector_panel(ui));
    }

    fn inspector_panel(&mut self, ui: &mut Ui) {
        ui.heading("Inspector");
        let Some(id) = self.selected else {
            self.pending_text = None;
            ui.label("Select an entity in the outliner.");
            return;
        };
        let output = inspector_frame(ui, &self.world, id);
        for edit in &output.edits {
            self.perform(edit);
        }
        self.pending_text = output.pending;
        if output.go_to.is_some() {
            self.select(output.go_to);
        }
    }

    fn browser_ui(&mut self, ui: &mut Ui) {
        ui.heading("Templates");
        egui::ScrollArea::vertical()
            .id_salt("templates")
            .max_height(ui.available_height() * 0.5)
            .show(ui, |ui| {
                for path in self.template_paths.clone() {
                    let chosen = self.browser_selected.as_deref() == Some(path.as_str());
                    if ui
                        .selectable_label(chosen, template_name(&path))
                        .on_hover_text(&path)
                        .clicked()
                    {
                        self.browser_selected = Some(path);
                    }
                }
            });
        ui.separator();
        ui.label("Spawn at");
        ui.horizontal(|ui| {
            for (axis, value) in ["X", "Y", "Z"].iter().zip(&mut self.spawn_position) {
                let label = ui.label(*axis);
                ui.add(egui::DragValue::new(value).speed(0.1))
                    .labelled_by(label.id);
            }
        });
        let spawn = ui.add_enabled(
            self.browser_selected.is_some(),
            egui::Button::new("Spawn instance"),
        );
        if spawn.clicked() {
            if let Some(path) = self.browser_selected.clone() {
                let [x, y, z] = self.spawn_position;
                self.spawn(&path, Vec3::new(x, y, z));
            }
        }
        ui.separator();
        let create = ui.add_enabled(
            self.selected.is_some(),
            egui::Button::new("Create template from entity"),
        );
        if create.clicked() {
            self.create_prompt = Some(String::new());
        }
        if let (Some(name), Some(id)) = (self.create_prompt.as_mut(), self.selected) {
            let label = ui.label("Template name");
            ui.text_edit_singleline(name).labelled_by(label.id);
            let name = name.trim().to_owned();
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(!name.is_empty(), egui::Button::new("Create"))
                    .clicked()
                    && self.create_template(id, &name).is_some()
                {
                    self.create_prompt = None;
                }
                if ui.button("Cancel").clicked() {
                    self.create_prompt = None;
                }
            });
        }
    }

    fn dialogs_ui(&mut self, ctx: &egui::Context) {
        if self.save_dialog {
            let files = self.pending_files();
            let plan = self.save_plan();
            let skipped: Vec<String> = plan.skipped().map(|s| s.to_string()).collect();
            let error = plan.error().map(|e| e.to_string());
            let mut open = true;
            egui::Window::new("Save")
                .collapsible(false)
                .open(&mut open)
                .show(ctx, |ui| {
                    if files.is_empty() {
                        ui.label("Nothing to save.");
                    }
                    for file in &files {
                        match file {
                            PendingFile::Write(path) => {
                                ui.label(format!("write  {}", path.display()))
                            }
                            PendingFile::Delete(path) => {
                                ui.label(format!("delete {}", path.display()))
                            }
                        };
                    }
                    for line in &skipped {
                        ui.label(format!("left alone: {line}"));
                    }
                    if let Some(error) = &error {
                        ui.colored_label(ui.visuals().error_fg_color, error);
                    }
                    ui.horizontal(|ui| {
                        // Nothing to write or delete: nothing to confirm.
                        if !files.is_empty() && ui.button("Write files").clicked() {
                            self.save();
                            self.save_dialog = false;
                        }
                        let close = if files.is_empty() { "Close" } else { "Cancel" };
                        if ui.button(close).clicked() {
                            self.save_dialog = false;
                        }
                    });
                });
            if !open {
                self.save_dialog = false;
            }
        }
        if let Some(conflict) = self.conflict.clone() {
            let (what, take) = if conflict.deleted {
                ("was deleted on disk", "Remove from world")
            } else {
                ("changed on disk", "Reload from disk")
            };
            let (unsaved, keep) = if conflict.removed {
                ("was deleted (not saved yet)", "Keep the Delete")
            } else {
                ("has unsaved edits", "Keep my edits")
            };
            egui::Window::new(format!("File {what}"))
                .collapsible(false)
                .show(ctx, |ui| {
                    ui.label(format!(
                        "{} {what}, and entity {} {unsaved}.",
                        conflict.path.display(),
                        conflict.id
                    ));
                    ui.horizontal(|ui| {
                        if ui.button(take).clicked() {
                            self.resolve_conflict(true);
                        }
                        if ui.button(keep).clicked() {
                            self.resolve_conflict(false);
                        }
                    });
                });
        }
    }
}

/// The toolbar's `verb` button (`Undo`, `Redo`), enabled when `enabled`, whose hover
/// text names the step it takes (`name`) and its `shortcut`; whether it was clicked.
fn history_button(
    ui: &mut Ui,
    verb: &str,
    enabled: bool,
    name: Option<&str>,
    shortcut: &str,
) -> bool {
    let button = ui.add_enabled(enabled, egui::Button::new(verb));
    let button = match name {
        Some(name) => button.on_hover_text(format!("{verb} {name} ({shortcut})")),
        None => button,
    };
    button.clicked()
}
