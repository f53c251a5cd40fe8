//! The inspector's widgets for references: an entity reference
//! ([`juliet_entities::EntityRef`]) as a picker of the entities of its kind, named by
//! file, with "Go to" and a red mark when the reference does not hold; an asset path
//! ([`juliet_entities::AssetPath`]) as its text with whether the project has the file.

use egui::{Color32, Id, RichText, Ui};
use juliet_core::{Codec, Value};
use juliet_entities::entity::EntityId;
use juliet_entities::world::World;

/// The colour of a reference that does not hold (no such entity, another kind, no such
/// file).
pub(crate) const BROKEN_COLOR: Color32 = Color32::from_rgb(0xE0, 0x40, 0x40);

/// What the user did with a reference row this frame.
pub(crate) struct Picked {
    /// The new value text, when another entity was picked.
    pub(crate) text: Option<String>,
    /// "Go to" was clicked: select the entity referred to.
    pub(crate) go_to: Option<EntityId>,
}

/// The name of entity `id` in `world`: its file's name without `.jasset`, or its id
/// while it has no file.
pub(crate) fn entity_name(world: &World, id: EntityId) -> String {
    (world.file_of(id))
        .and_then(|p| p.file_stem())
        .map_or_else(|| id.to_string(), |s| s.to_string_lossy().into_owned())
}

/// The picker of an entity reference to an entity of class `kind` (any: `None`) whose
/// value text is `text`, labelled by `label`: the target's name and kind (red, saying
/// why, when it does not hold), a combo box of the entities of the kind, and "Go to".
pub(crate) fn reference_picker(
    ui: &mut Ui,
    world: &World,
    kind: Option<&str>,
    text: &str,
    (label, id): (Id, Id),
) -> Picked {
    let manager = world.manager();
    let target = EntityId::decode(Value::from_text(text)).ok();
    let found = target.and_then(|t| manager.entity(t));
    let holds = found.is_some_and(|e| kind.is_none_or(|k| e.class().name() == k));
    let shown = match (target, found) {
        (Some(t), Some(e)) if holds => format!("{} ({})", entity_name(world, t), e.class().name()),
        (Some(t), Some(e)) => {
            let found = e.class().name();
            format!("{t}: of kind {found}, not {}", kind.unwrap_or(found))
        }
        (Some(t), None) if t.0 == 0 => "(none)".to_owned(),
        (Some(t), None) => format!("{t}: no such entity"),
        (None, _) => text.to_owned(),
    };
    let selected = if holds {
        RichText::new(shown)
    } else {
        RichText::new(shown).color(BROKEN_COLOR)
    };
    let mut picked = Picked {
        text: None,
        go_to: None,
    };
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt(id)
            .selected_text(selected)
            .width(240.0)
            .show_ui(ui, |ui| {
                let candidates = (manager.entities().iter())
                    .filter(|e| kind.is_none_or(|k| e.class().name() == k))
                    .map(|e| (e.id(), entity_name(world, e.id())));
                for (candidate, name) in candidates {
                    let chosen = Some(candidate) == target;
                    if ui.selectable_label(chosen, name).clicked() && !chosen {
                        picked.text = Some(candidate.to_string());
                    }
                }
            })
            .response
            .labelled_by(label);
        let go = ui.add_enabled(holds, egui::Button::new("Go to"));
        if go.clicked() {
            picked.go_to = target;
        }
    });
    picked
}

/// After an asset path's field: whether the project has the file (red when not).
pub(crate) fn asset_status(ui: &mut Ui, world: &World, text: &str) {
    let path = String::decode(Value::from_text(text)).unwrap_or_default();
    if path.is_empty() {
        return;
    }
    if std::fs::symlink_metadata(world.project_root().join(&path)).is_ok() {
        ui.label(RichText::new("file found").weak());
    } else {
        ui.label(RichText::new("no such file").color(BROKEN_COLOR));
    }
}
