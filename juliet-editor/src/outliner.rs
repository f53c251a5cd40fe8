//! The outliner: the world's entities by name (their file's name; the id of one not
//! saved yet), grouped by kind or by template, with a filter box; and the files that
//! did not load, greyed. Clicking an entity selects it.
//!
//! The rows are worked out again only when the world, the filter, the grouping or a
//! folded group changes, and only the rows in view are drawn (`ScrollArea::show_rows`),
//! so that a frame costs about the same with ten entities or ten thousand.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use egui::Ui;
use juliet_entities::entity::EntityId;

use crate::app::{EditorApp, GroupBy};
use crate::inspector::template_name;

/// The group of the files that did not load.
const NOT_LOADED: &str = "Not loaded";

/// One outliner line: the entity, its name and group, and the text the filter matches.
struct Line {
    id: EntityId,
    name: String,
    group: String,
    text: String,
}

/// One row of the outliner.
#[derive(Debug, Clone)]
enum Row {
    /// A group's header, with how many entities (or files) it holds.
    Group { name: String, count: usize },
    /// An entity, by name.
    Entity { id: EntityId, name: String },
    /// A file that did not load.
    NotLoaded { path: PathBuf, name: String },
}

/// What the outliner keeps between frames.
#[derive(Debug, Default)]
pub(crate) struct Outliner {
    rows: Vec<Row>,
    /// The filter and grouping `rows` were worked out for; `None`: to be worked out again.
    made_for: Option<(String, GroupBy)>,
    /// The groups folded.
    collapsed: BTreeSet<String>,
    /// Scroll the selected entity into view at the next frame (it was selected elsewhere).
    pub(crate) reveal: bool,
}

impl Outliner {
    /// The world changed: the rows are worked out again at the next frame.
    pub(crate) fn invalidate(&mut self) {
        self.made_for = None;
    }
}

/// The file name of `path` without `.jasset`.
pub(crate) fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

impl EditorApp {
    /// The name the outliner shows for entity `id`: its file's name without `.jasset`
    /// (`RockLarge_042`), or its id when it has no file yet.
    pub fn entity_name(&self, id: EntityId) -> String {
        self.world
            .file_of(id)
            .map(file_stem)
            .unwrap_or_else(|| id.to_string())
    }

    /// The group of entity `id` under [`EditorApp::group_by`].
    fn group_of(&self, id: EntityId) -> String {
        let entity = self.world.manager().entity(id).expect("listed");
        match self.group_by {
            GroupBy::Kind => entity.class().name().to_owned(),
            GroupBy::Template => self
                .world
                .template_chain(id)
                .first()
                .map_or("no template".to_owned(), |t| {
                    template_name(t.path()).to_owned()
                }),
        }
    }

    /// The entities matching the filter, by group, then name, then id.
    fn outliner_lines(&self) -> Vec<Line> {
        let filter = self.filter.to_lowercase();
        let mut lines: Vec<Line> = (self.world.manager().entities().iter())
            .map(|e| {
                let id = e.id();
                let template = (self.world.template_chain(id).first())
                    .map(|t| t.path().to_owned())
                    .unwrap_or_default();
                let name = self.entity_name(id);
                let kind = e.class().name();
                Line {
                    id,
                    group: self.group_of(id),
                    text: format!("{name} {id} {kind} {template}").to_lowercase(),
                    name,
                }
            })
            .filter(|l| filter.is_empty() || l.text.contains(&filter))
            .collect();
        lines.sort_by(|a, b| (&a.group, &a.name, a.id).cmp(&(&b.group, &b.name, b.id)));
        lines
    }

    /// The entities the outliner shows: those whose name, id, kind or template matches
    /// the filter (any case), by group, each group by name.
    pub fn outliner_groups(&self) -> BTreeMap<String, Vec<EntityId>> {
        let mut groups: BTreeMap<String, Vec<EntityId>> = BTreeMap::new();
        for line in self.outliner_lines() {
            groups.entry(line.group).or_default().push(line.id);
        }
        groups
    }

    /// Works the rows out again when the world, the filter or the grouping changed.
    fn update_rows(&mut self) {
        let made_for = (self.filter.clone(), self.group_by);
        if self.outliner.made_for.as_ref() == Some(&made_for) {
            return;
        }
        let mut rows = Vec::new();
        let lines = self.outliner_lines();
        let mut start = 0;
        while start < lines.len() {
            let group = &lines[start].group;
            let end = start + lines[start..].partition_point(|l| &l.group == group);
            rows.push(Row::Group {
                name: group.clone(),
                count: end - start,
            });
            if !self.outliner.collapsed.contains(group) {
                rows.extend((lines[start..end].iter()).map(|l| Row::Entity {
                    id: l.id,
                    name: l.name.clone(),
                }));
            }
            start = end;
        }
        let filter = self.filter.to_lowercase();
        let files: Vec<Row> = (self.problems.not_loaded())
            .map(|path| (path, file_stem(path)))
            .filter(|(_, name)| name.to_lowercase().contains(&filter))
            .map(|(path, name)| Row::NotLoaded {
                path: path.to_path_buf(),
                name,
            })
            .collect();
        if !files.is_empty() {
            rows.push(Row::Group {
                name: NOT_LOADED.to_owned(),
                count: files.len(),
            });
            if !self.outliner.collapsed.contains(NOT_LOADED) {
                rows.extend(files);
            }
        }
        self.outliner.rows = rows;
        self.outliner.made_for = Some(made_for);
    }

    /// Draws the outliner.
    pub(crate) fn outliner_ui(&mut self, ui: &mut Ui) {
        ui.heading("Outliner");
        ui.horizontal(|ui| {
            let label = ui.label("Filter");
            ui.text_edit_singleline(&mut self.filter)
                .labelled_by(label.id)
                .on_hover_text("Matches names, ids, kinds and templates");
        });
        ui.horizontal(|ui| {
            ui.label("Group by");
            ui.radio_value(&mut self.group_by, GroupBy::Kind, "Kind");
            ui.radio_value(&mut self.group_by, GroupBy::Template, "Template");
        });
        ui.separator();
        self.update_rows();
        let rows = std::mem::take(&mut self.outliner.rows);
        let row_height = ui.spacing().interact_size.y;
        let mut scroll = egui::ScrollArea::vertical()
            .id_salt("outliner")
            .auto_shrink([false, false]);
        if std::mem::take(&mut self.outliner.reveal) {
            let selected = (rows.iter())
                .position(|r| matches!(r, Row::Entity { id, .. } if Some(*id) == self.selected));
            if let Some(index) = selected {
                let step = row_height + ui.spacing().item_spacing.y;
                let above = (ui.available_height() / 3.0).max(0.0);
                scroll = scroll.vertical_scroll_offset((index as f32 * step - above).max(0.0));
            }
        }
        let mut clicked = None;
        scroll.show_rows(ui, row_height, rows.len(), |ui, range| {
            for row in &rows[range] {
                if let Some(click) = self.row_ui(ui, row) {
                    clicked = Some(click);
                }
            }
        });
        self.outliner.rows = rows;
        match clicked {
            Some(Row::Entity { id, .. }) => {
                self.select(Some(id));
                self.create_prompt = None;
            }
            Some(Row::Group { name, .. }) => {
                if !self.outliner.collapsed.remove(&name) {
                    self.outliner.collapsed.insert(name);
                }
                self.outliner.invalidate();
            }
            _ => {}
        }
    }

    /// Draws one row; returns it when it was clicked.
    fn row_ui(&self, ui: &mut Ui, row: &Row) -> Option<Row> {
        let response = match row {
            Row::Group { name, count } => {
                let open = !self.outliner.collapsed.contains(name);
                ui.horizontal(|ui| {
                    let side = ui.spacing().icon_width;
                    let (_, icon) =
                        ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::hover());
                    egui::collapsing_header::paint_default_icon(
                        ui,
                        f32::from(u8::from(open)),
                        &icon,
                    );
                    ui.selectable_label(false, format!("{name} ({count})"))
                })
                .inner
            }
            Row::Entity { id, name } => {
                let dirty = (self.world.manager().entity(*id)).is_some_and(|e| e.is_dirty());
                let text = if dirty {
                    format!("{name} *")
                } else {
                    name.clone()
                };
                let selected = self.selected == Some(*id);
                let hover = match self.world.file_of(*id) {
                    Some(file) => format!("{id}\n{}", file.display()),
                    None => format!("{id} (not saved yet)"),
                };
                indented(ui, |ui| {
                    ui.selectable_label(selected, text).on_hover_text(hover)
                })
            }
            Row::NotLoaded { path, name } => {
                let reason = self.problems.reason(path).unwrap_or("did not load");
                let hover = format!("{}\n{reason}", path.display());
                indented(ui, |ui| {
                    ui.add_enabled(false, egui::Button::selectable(false, name.as_str()))
                        .on_disabled_hover_text(hover)
                })
            }
        };
        response.clicked().then(|| row.clone())
    }
}

/// Draws `row` indented under its group's header.
fn indented(ui: &mut Ui, row: impl FnOnce(&mut Ui) -> egui::Response) -> egui::Response {
    ui.horizontal(|ui| {
        ui.add_space(ui.spacing().indent);
        row(ui)
    })
    .inner
}
