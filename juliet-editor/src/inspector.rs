//! The inspector panel: one entity's id, kind and template chain, then one row per
//! property of its class's table, with overrides highlighted (docs/design.md, sections
//! 7.8 and 7.9).
//!
//! Drawing only reads the world and returns what the user asked for as [`Edit`]s: an
//! application with undo records and applies them itself ([`crate::EditorApp`]); a game
//! that wants none of that calls [`inspector`], which applies them at once.

use egui::{Color32, RichText, Role, Ui, WidgetInfo};
use juliet_core::{Class, Error, PropertyType};
use juliet_entities::entity::EntityId;
use juliet_entities::world::World;

use crate::reference::{asset_status, reference_picker};
use crate::widgets::{pending_text, value_widget};

/// The colour of an overridden property's name.
pub const OVERRIDE_COLOR: Color32 = Color32::from_rgb(51, 230, 255);

/// The tooltip of a property's revert button.
pub const REVERT_TOOLTIP: &str = "Revert property to template default";

/// A change the user asked for in the inspector. Keys are canonical property keys
/// (`Position` for the position).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// Set property `key` of entity `id` from value text (it becomes an override of an
    /// instance).
    Set {
        /// The entity.
        id: EntityId,
        /// The property key.
        key: String,
        /// The new value text (the file's syntax).
        text: String,
    },
    /// Revert property `key` of instance `id` to its template's value.
    Revert {
        /// The instance.
        id: EntityId,
        /// The property key.
        key: String,
    },
    /// Revert every property of instance `id` but its position and id.
    RevertAll {
        /// The instance.
        id: EntityId,
    },
    /// Write the instance's values of `keys` into `template` (a template of its chain).
    Apply {
        /// The instance.
        id: EntityId,
        /// The property keys.
        keys: Vec<String>,
        /// The template's project-relative path.
        template: String,
    },
}

impl Edit {
    /// The entity the edit is about.
    pub fn entity(&self) -> EntityId {
        match self {
            Edit::Set { id, .. }
            | Edit::Revert { id, .. }
            | Edit::RevertAll { id }
            | Edit::Apply { id, .. } => *id,
        }
    }
}

/// Applies `edit` to `world` (no undo): [`World::set_property`],
/// [`World::revert_property`], [`World::revert_to_template`] or
/// [`World::apply_to_template`]. Each marks the entity changed for the next save.
///
/// # Errors
/// The called operation's.
pub fn apply_edit(world: &mut World, edit: &Edit) -> Result<(), Error> {
    match edit {
        Edit::Set { id, key, text } => world.set_property(*id, key, text),
        Edit::Revert { id, key } => world.revert_property(*id, key),
        Edit::RevertAll { id } => world.revert_to_template(*id),
        Edit::Apply { id, keys, template } => {
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            world.apply_to_template(*id, &keys, template).map(|_| ())
        }
    }
}

/// Draws the inspector of entity `id` and applies the user's edits to `world` at once
/// (what a game embedding the panel without undo wants). Returns the edits applied.
///
/// # Errors
/// The first edit that failed (the ones before it are applied).
pub fn inspector(ui: &mut Ui, world: &mut World, id: EntityId) -> Result<Vec<Edit>, Error> {
    let edits = inspector_ui(ui, world, id);
    for edit in &edits {
        apply_edit(world, edit)?;
    }
    Ok(edits)
}

/// The short name of a template path: its file stem.
pub fn template_name(path: &str) -> &str {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.strip_suffix(".jasset").unwrap_or(file)
}

/// A button whose accessible label is `label` (its text may be shorter).
fn labelled_button(ui: &mut Ui, text: &str, label: String) -> egui::Response {
    let response = ui.small_button(text);
    let enabled = response.enabled();
    response.widget_info(|| WidgetInfo::labeled(Role::Button, enabled, &label));
    response
}

/// Draws the inspector of entity `id` of `world` into `ui` and returns the edits the
/// user made this frame (apply them with [`apply_edit`], or through an undo history).
///
/// At the top: the id, the kind, the template and its chain, and for an instance
/// "Revert all to template" and "Apply all to template". Then a row per property (the
/// position first): its key (bold and [`OVERRIDE_COLOR`] when the instance overrides
/// it, with a revert button whose tooltip is [`REVERT_TOOLTIP`] and an apply menu
/// listing the chain), the widget of its type, and for an inherited property the
/// template that gives its value.
pub fn inspector_ui(ui: &mut Ui, world: &World, id: EntityId) -> Vec<Edit> {
    inspector_frame(ui, world, id).edits
}

/// What [`inspector_frame`] gives back for one frame.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InspectorOutput {
    /// The edits the user made this frame.
    pub edits: Vec<Edit>,
    /// Text typed into a field that commits when it loses focus (a `u64` or a game
    /// codec's value), not committed yet, as the [`Edit::Set`] that would commit it.
    /// An application that changes what the panel shows (another entity selected)
    /// applies it first: the field is not drawn again to see its focus go.
    pub pending: Option<Edit>,
    /// "Go to" was clicked on an entity reference: the entity to select.
    pub go_to: Option<EntityId>,
}

/// [`inspector_ui`], also giving the text typed but not yet committed.
pub fn inspector_frame(ui: &mut Ui, world: &World, id: EntityId) -> InspectorOutput {
    let mut out = InspectorOutput::default();
    let Some(entity) = world.manager().entity(id) else {
        ui.label(format!("Entity {id} is not in the world."));
        return out;
    };
    let chain: Vec<String> = world
        .template_chain(id)
        .iter()
        .map(|t| t.path().to_owned())
        .collect();
    let overridden: Vec<usize> = world
        .overrides(id)
        .map(|list| list.iter().map(|o| o.index).collect())
        .unwrap_or_default();
    let shown = Shown {
        world,
        id,
        class: entity.class(),
        chain: &chain,
        overridden: &overridden,
    };
    shown.heading(ui, &mut out);
    ui.separator();
    egui::Grid::new(("juliet-inspector", id.0))
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            let position = world
                .manager()
                .property_text(id, "Position")
                .unwrap_or_default();
            let moved = shown.is_instance() && entity.is_position_overridden();
            let position = Row {
                id,
                key: "Position",
                ty: &PropertyType::Floats(3),
                text: &position,
                overridden: moved,
                source: None,
                chain: &[],
                instance: shown.is_instance(),
                world,
            };
            row(ui, &mut out, position);
            shown.property_rows(ui, &mut out);
        });
    out
}

/// The entity the inspector shows, with what it reads once a frame.
struct Shown<'a> {
    world: &'a World,
    id: EntityId,
    class: &'static Class,
    /// The paths of its template chain, nearest first (none for a standalone entity).
    chain: &'a [String],
    /// The indices of the properties it overrides.
    overridden: &'a [usize],
}

impl Shown<'_> {
    fn is_instance(&self) -> bool {
        !self.chain.is_empty()
    }

    /// The id, the kind, the template and its chain; for an instance "Revert all to
    /// template" and "Apply all to template".
    fn heading(&self, ui: &mut Ui, out: &mut InspectorOutput) {
        let (id, chain) = (self.id, self.chain);
        ui.label(RichText::new(format!("Entity {id}")).strong());
        ui.label(format!("Kind: {}", self.class.name()));
        match chain.first() {
            Some(path) => {
                ui.label(format!("Template: {path}"));
                if chain.len() > 1 {
                    let names: Vec<&str> = chain.iter().map(|p| template_name(p)).collect();
                    ui.label(format!("Chain: {}", names.join(" > ")));
                }
            }
            None => {
                ui.label("Template: none");
            }
        }
        if !self.is_instance() {
            return;
        }
        ui.horizontal(|ui| {
            if ui.button("Revert all to template").clicked() {
                out.edits.push(Edit::RevertAll { id });
            }
            let keys: Vec<String> = (self.overridden.iter())
                .map(|&i| self.class.properties()[i].key.to_owned())
                .collect();
            ui.add_enabled_ui(!keys.is_empty(), |ui| {
                ui.menu_button("Apply all to template", |ui| {
                    for path in chain {
                        if ui.button(path).clicked() {
                            out.edits.push(Edit::Apply {
                                id,
                                keys: keys.clone(),
                                template: path.clone(),
                            });
                        }
                    }
                });
            });
        });
    }

    /// A row per property of the class, in table order. A composite's leaves sit under
    /// a row that names it (`Stats`, then `Stats.Hp`, `Stats.Armor`): the tree of the
    /// value, one leaf a row. An enum's fields sit under the row of its variant
    /// (`Trigger`), which names them already; a field of a variant not in use has no
    /// row.
    fn property_rows(&self, ui: &mut Ui, out: &mut InspectorOutput) {
        let (world, id, instance) = (self.world, self.id, self.is_instance());
        let (mut group, mut last) = ("", "");
        for (index, property) in self.class.properties().iter().enumerate() {
            let parent = property.key.rsplit_once('.').map_or("", |(p, _)| p);
            if parent != group {
                group = parent;
                if !parent.is_empty() && parent != last {
                    ui.label(RichText::new(parent).strong());
                    ui.label("");
                    ui.label("");
                    ui.end_row();
                }
            }
            let text = (world.manager().property_text(id, property.key)).unwrap_or_default();
            if text.is_empty() {
                continue;
            }
            last = property.key;
            let is_overridden = instance && self.overridden.contains(&index);
            let source = (instance && !is_overridden).then(|| {
                world
                    .value_source(id, index)
                    .map_or("class default".to_owned(), |t| {
                        format!("from {}", template_name(t.path()))
                    })
            });
            let r = Row {
                id,
                key: property.key,
                ty: &property.property_type,
                text: &text,
                overridden: is_overridden,
                source,
                chain: self.chain,
                instance,
                world,
            };
            row(ui, out, r);
        }
    }
}

/// What one inspector row shows.
struct Row<'a> {
    id: EntityId,
    key: &'static str,
    ty: &'a PropertyType,
    text: &'a str,
    overridden: bool,
    /// For an inherited property: where its value comes from.
    source: Option<String>,
    /// The templates an override can be applied to (none for the position).
    chain: &'a [String],
    instance: bool,
    /// For the references' pickers and the asset paths' file check.
    world: &'a World,
}

fn row(ui: &mut Ui, out: &mut InspectorOutput, r: Row<'_>) {
    let name = if r.overridden {
        RichText::new(r.key).strong().color(OVERRIDE_COLOR)
    } else {
        RichText::new(r.key)
    };
    let label = ui.label(name);
    let widget_id = ui.make_persistent_id(("juliet-inspector-value", r.id.0, r.key));
    let set = |text| Edit::Set {
        id: r.id,
        key: r.key.to_owned(),
        text,
    };
    ui.horizontal(|ui| {
        if let PropertyType::Reference(kind) = r.ty {
            let picked = reference_picker(ui, r.world, *kind, r.text, (label.id, widget_id));
            out.edits.extend(picked.text.map(set));
            out.go_to = out.go_to.or(picked.go_to);
        } else if let Some(text) = value_widget(ui, r.ty, r.text, label.id, widget_id) {
            out.edits.push(set(text));
        } else if let Some(text) = pending_text(ui, r.ty, r.text, widget_id) {
            out.pending = Some(set(text));
        }
        if matches!(r.ty, PropertyType::Asset(_)) {
            asset_status(ui, r.world, r.text);
        }
    });
    let edits = &mut out.edits;
    ui.horizontal(|ui| {
        if r.overridden {
            let revert = labelled_button(ui, "Revert", format!("Revert {}", r.key))
                .on_hover_text(REVERT_TOOLTIP);
            if revert.clicked() {
                edits.push(Edit::Revert {
                    id: r.id,
                    key: r.key.to_owned(),
                });
            }
            if !r.chain.is_empty() {
                let menu = ui.menu_button("Apply", |ui| {
                    for path in r.chain {
                        if ui.button(path).clicked() {
                            edits.push(Edit::Apply {
                                id: r.id,
                                keys: vec![r.key.to_owned()],
                                template: path.clone(),
                            });
                        }
                    }
                });
                let enabled = menu.response.enabled();
                let label = format!("Apply {}", r.key);
                menu.response
                    .widget_info(|| WidgetInfo::labeled(Role::Button, enabled, &label));
            }
        } else if let Some(source) = &r.source {
            ui.label(RichText::new(source).weak());
        } else if !r.instance {
            ui.label("");
        }
    });
    ui.end_row();
}
