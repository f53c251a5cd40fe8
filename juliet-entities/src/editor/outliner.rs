//! The outliner: the world's entities grouped by kind or by template, with a filter
//! box; clicking one selects it.

use std::collections::BTreeMap;

use std::path::Path;

use egui::{RichText, Ui};

use super::app::{EditorApp, GroupBy};
use super::inspector::template_name;
use crate::entity::EntityId;

/// One outliner line: the entity, its group and the text the filter matches.
struct Line {
    id: EntityId,
    group: String,
    text: String,
}

impl EditorApp {
    /// The group of entity `id` under [`EditorApp::group_by`].
    fn group_of(&self, id: EntityId) -> String {
        let entity = self.world.manager().entity(id).expect("listed");
        match self.group_by {
            GroupBy::Kind => entity.class().name.to_owned(),
            GroupBy::Template => self
                .world
                .template_chain(id)
                .first()
                .map_or("no template".to_owned(), |t| {
                    template_name(t.path()).to_owned()
                }),
        }
    }

    /// The entities the outliner shows: those matching the filter (id, kind, template
    /// or file name, any case), by group, in id order.
    pub fn outliner_groups(&self) -> BTreeMap<String, Vec<EntityId>> {
        let filter = self.filter.to_lowercase();
        let mut lines: Vec<Line> = self
            .world
            .manager()
            .entities()
            .iter()
            .map(|e| {
                let id = e.id();
                let template = self
                    .world
                    .template_chain(id)
                    .first()
                    .map(|t| t.path().to_owned())
                    .unwrap_or_default();
                let file = self
                    .world
                    .file_of(id)
                    .and_then(|p| p.file_name())
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                Line {
                    id,
                    group: self.group_of(id),
                    text: format!("{id} {} {template} {file}", e.class().name).to_lowercase(),
                }
            })
            .filter(|l| filter.is_empty() || l.text.contains(&filter))
            .collect();
        lines.sort_by_key(|l| l.id);
        let mut groups: BTreeMap<String, Vec<EntityId>> = BTreeMap::new();
        for line in lines {
            groups.entry(line.group).or_default().push(line.id);
        }
        groups
    }

    /// Draws the outliner.
    pub(super) fn outliner_ui(&mut self, ui: &mut Ui) {
        ui.heading("Outliner");
        ui.horizontal(|ui| {
            let label = ui.label("Filter");
            ui.text_edit_singleline(&mut self.filter)
                .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            ui.label("Group by");
            ui.radio_value(&mut self.group_by, GroupBy::Kind, "Kind");
            ui.radio_value(&mut self.group_by, GroupBy::Template, "Template");
        });
        ui.separator();
        let groups = self.outliner_groups();
        egui::ScrollArea::vertical()
            .id_salt("outliner")
            .show(ui, |ui| {
                for (group, ids) in groups {
                    egui::CollapsingHeader::new(format!("{group} ({})", ids.len()))
                        .id_salt(("outliner-group", &group))
                        .default_open(true)
                        .show(ui, |ui| {
                            for id in ids {
                                let dirty = self
                                    .world
                                    .manager()
                                    .entity(id)
                                    .is_some_and(|e| e.is_dirty());
                                let text = if dirty {
                                    format!("{id} *")
                                } else {
                                    id.to_string()
                                };
                                let selected = self.selected == Some(id);
                                let mut response = ui.selectable_label(selected, text);
                                if let Some(file) = self.world.file_of(id) {
                                    response = response.on_hover_text(file.display().to_string());
                                }
                                if response.clicked() {
                                    self.select(Some(id));
                                    self.create_prompt = None;
                                }
                            }
                        });
                }
                self.not_loaded_ui(ui);
            });
    }

    /// The files that did not load (matching the filter), greyed, each with the reason
    /// on hover.
    fn not_loaded_ui(&self, ui: &mut Ui) {
        let filter = self.filter.to_lowercase();
        let files: Vec<(&Path, String)> = (self.problems.not_loaded())
            .map(|p| (p, file_stem(p)))
            .filter(|(_, name)| name.to_lowercase().contains(&filter))
            .collect();
        if files.is_empty() {
            return;
        }
        egui::CollapsingHeader::new(format!("Not loaded ({})", files.len()))
            .id_salt("outliner-not-loaded")
            .default_open(true)
            .show(ui, |ui| {
                for (path, name) in files {
                    let reason = self.problems.reason(path).unwrap_or("did not load");
                    ui.label(RichText::new(name).weak())
                        .on_hover_text(format!("{}\n{reason}", path.display()));
                }
            });
    }
}

/// The file name of `path` without `.jasset`.
pub(super) fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
