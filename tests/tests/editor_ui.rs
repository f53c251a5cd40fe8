//! The editor driven through its real UI, without a screen: egui_kittest runs
//! `EditorApp::ui` frame by frame and the tests find widgets through the
//! accessibility tree (labels and roles), as a screen reader would.

use std::fs;
use std::path::{Path, PathBuf};

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use juliet_editor::{EditorApp, REVERT_TOOLTIP};
use juliet_entities::kinds::Inert;
use juliet_entities::{EntityId, World};

mod editor_common;

use editor_common::*;

/// Clicks "Create template from entity" for the selected entity, types `name` into the
/// name prompt and clicks "Create" (the caller runs the next frame).
fn create_template(h: &mut Harness<'_, EditorApp>, name: &str) {
    h.get_by_label("Create template from entity").click();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "Template name")
        .click();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "Template name")
        .type_text(name);
    h.run();
    h.get_by_label("Create").click();
}

#[test]
fn typing_a_value_changes_the_world_and_the_saved_file() {
    let (_dir, world) = project();
    let mut h = harness(&world);
    assert!(!h.state_mut().title().starts_with('*'));
    select(&mut h, 0x11);
    let field = h.get_by_role_and_label(Role::TextInput, "MaterialOverride");
    field.click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_role_and_label(Role::TextInput, "MaterialOverride")
        .type_text("Materials/M_Moss");
    h.run();
    let rock = h
        .state()
        .world()
        .manager()
        .get::<Inert>(EntityId(0x11))
        .unwrap();
    assert_eq!(rock.material_override, "Materials/M_Moss");
    assert_eq!(override_keys(&h, 0x11), ["MaterialOverride"]);
    assert!(
        h.state_mut().title().starts_with('*'),
        "{}",
        h.state_mut().title()
    );

    save(&mut h);
    let text = fs::read_to_string(world.join("Entities/b.jasset")).unwrap();
    assert!(text.contains("Materials/M_Moss"), "{text}");
    assert!(text.contains("EntityID: 0x0000000000000011"), "{text}");
    assert!(!h.state_mut().title().starts_with('*'));
}

#[test]
fn revert_button_restores_the_template_value_and_clears_the_override() {
    let (_dir, world) = project();
    let mut h = harness(&world);
    select(&mut h, 0x10);
    assert_eq!(override_keys(&h, 0x10), ["Health"]);
    let inherited = |h: &Harness<'_, EditorApp>| h.query_all_by_label("from Rock").count();
    assert_eq!(inherited(&h), 2, "MeshAsset and Mass");
    h.get_by_label("Revert Health").hover();
    h.run();
    assert!(
        h.query_by_label(REVERT_TOOLTIP).is_some(),
        "the tooltip shows"
    );
    h.get_by_label("Revert Health").click();
    h.run();
    assert_eq!(health(&h, 0x10), 100.0);
    assert!(override_keys(&h, 0x10).is_empty());
    // (The status line now says "Revert Health": the button is what must be gone.)
    assert!(h
        .query_by_role_and_label(Role::Button, "Revert Health")
        .is_none());
    // Inherited now: the inspector names the template that gives the value.
    assert_eq!(inherited(&h), 3);
}

#[test]
fn apply_to_template_writes_the_template_and_other_instances_follow() {
    let (dir, world) = project();
    let mut h = harness(&world);
    select(&mut h, 0x10);
    h.get_by_label("Apply Health").click();
    h.run();
    h.get_by_label("Assets/Templates/Rock.jasset").click();
    h.run();
    let text = fs::read_to_string(dir.path().join("Assets/Templates/Rock.jasset")).unwrap();
    assert_eq!(text, ROCK.replace("Health: 100.0", "Health: 50.0"));
    assert_eq!(health(&h, 0x11), 50.0, "another instance of Rock");
    assert_eq!(health(&h, 0x12), 120.0, "Mossy sets its own Health");
    assert!(override_keys(&h, 0x10).is_empty());
}

/// Everything an undo must restore: each entity's kind, template, position, properties
/// and overrides, and the template files.
fn state(h: &Harness<'_, EditorApp>, project: &Path) -> String {
    let world = h.state().world();
    let mut ids: Vec<EntityId> = world.manager().entities().iter().map(|e| e.id()).collect();
    ids.sort();
    let mut out = String::new();
    for id in ids {
        let e = world.manager().entity(id).unwrap();
        let template = world
            .template_chain(id)
            .first()
            .map(|t| t.path().to_owned());
        out += &format!("{id} {} {template:?}\n", e.class().name());
        out += &format!(
            "  Position {}\n",
            world.manager().property_text(id, "Position").unwrap()
        );
        for (i, p) in e.class().properties().iter().enumerate() {
            let mark = if e.overrides().contains(i) { "*" } else { "" };
            let value = world.manager().property_text(id, p.key).unwrap();
            out += &format!("  {}{mark} {value}\n", p.key);
        }
    }
    let mut files: Vec<PathBuf> = fs::read_dir(project.join("Assets/Templates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for file in files {
        out += &format!(
            "{}:\n{}\n",
            file.display(),
            fs::read_to_string(&file).unwrap()
        );
    }
    out
}

#[test]
fn undo_and_redo_ten_mixed_edits() {
    let (dir, world) = project();
    let mut h = harness(&world);
    let mut states = vec![state(&h, dir.path())];
    let mut record = |h: &mut Harness<'_, EditorApp>| {
        h.run();
        let s = state(h, dir.path());
        assert_ne!(states.last(), Some(&s), "each edit changes something");
        states.push(s);
    };

    select(&mut h, 0x11);
    h.get_by_role_and_label(Role::CheckBox, "IsVisible").click();
    record(&mut h); // 1: a checkbox
    h.get_by_role_and_label(Role::SpinButton, "Mass")
        .set_value_accesskit(300.0);
    record(&mut h); // 2: a drag value
    h.get_by_label("Revert Mass").click();
    record(&mut h); // 3: revert
    h.get_by_role_and_label(Role::SpinButton, "Health")
        .set_value_accesskit(42.0);
    record(&mut h); // 4
    h.get_by_label("Apply Health").click();
    h.run();
    h.get_by_label("Assets/Templates/Rock.jasset").click();
    record(&mut h); // 5: apply to template
    h.get_by_label("Revert all to template").click();
    record(&mut h); // 6: revert all (IsVisible is still overridden)
    h.get_by_label("Delete").click();
    record(&mut h); // 7: delete
    h.get_by_label("Add entity").click();
    record(&mut h); // 8: add
    h.get_by_label("Mossy").click();
    h.run();
    h.get_by_label("Spawn instance").click();
    record(&mut h); // 9: spawn
    select(&mut h, 0x10);
    create_template(&mut h, "Boulder");
    record(&mut h); // 10: create template
    assert_eq!(states.len(), 11);

    for expected in (0..10).rev() {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run();
        assert_eq!(
            state(&h, dir.path()),
            states[expected],
            "undo to state {expected}"
        );
    }
    for (expected, s) in states.iter().enumerate().skip(1) {
        h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        h.run();
        assert_eq!(&state(&h, dir.path()), s, "redo to state {expected}");
    }
}

#[test]
fn create_template_spawn_it_delete_it_and_save() {
    let (dir, world) = project();
    let mut h = harness(&world);
    select(&mut h, 0x10);
    create_template(&mut h, "Boulder");
    h.run();
    let template = dir.path().join("Assets/Templates/Boulder.jasset");
    let text = fs::read_to_string(&template).unwrap();
    assert!(
        text.contains("Health: 50.0") || text.contains("Health\n50.0"),
        "{text}"
    );
    let chain = h.state().world().template_chain(EntityId(0x10));
    assert_eq!(chain[0].path(), "Assets/Templates/Boulder.jasset");
    assert_eq!(chain[0].position(), glam::Vec3::ZERO);

    // Spawn it at x = 7.
    h.get_by_label("Boulder").click();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, "X")
        .set_value_accesskit(7.0);
    h.run();
    h.get_by_label("Spawn instance").click();
    h.run();
    let spawned = h.state().selected().unwrap();
    assert_ne!(spawned, EntityId(0x10));
    // An editing session's new ids carry its random prefix, so that another person's
    // session, on another branch, cannot make the same id (or file name).
    let prefix = h.state().world().manager().id_prefix();
    assert_ne!(prefix, 0);
    assert_eq!(spawned.0 >> 32, u64::from(prefix), "{spawned}");
    let e = h.state().world().manager().entity(spawned).unwrap();
    assert_eq!(e.position(), glam::Vec3::new(7.0, 0.0, 0.0));
    assert_eq!(health(&h, spawned.0), 50.0);
    save(&mut h);
    let file = h.state().world().file_of(spawned).unwrap().to_path_buf();
    assert!(fs::read_to_string(&file)
        .unwrap()
        .contains("Boulder.jasset"));
    let a = fs::read_to_string(world.join("Entities/a.jasset")).unwrap();
    assert!(a.contains("Assets/Templates/Boulder.jasset"), "{a}");

    // Delete it: the save dialog lists the file, the save deletes it.
    h.get_by_label("Delete").click();
    h.run();
    assert!(!h.state().world().manager().contains(spawned));
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(h
        .query_by_label_contains(&format!("delete {}", file.display()))
        .is_some());
    h.get_by_label("Write files").click();
    h.run();
    assert!(!file.exists());
}

#[test]
fn outliner_filter_and_grouping() {
    let (_dir, world) = project();
    let mut h = harness(&world);
    assert!(h.query_by_label_contains("Inert (3)").is_some());
    h.get_by_label("Template").click();
    h.run();
    assert!(h.query_by_label_contains("Rock (2)").is_some());
    assert!(h.query_by_label_contains("Mossy (1)").is_some());
    h.get_by_role_and_label(Role::TextInput, "Filter").click();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "Filter")
        .type_text("mossy");
    h.run();
    assert!(h.query_by_label_contains("Rock (").is_none());
    assert!(h.query_by_role_and_label(Role::Button, "c").is_some());
    assert!(h.query_by_role_and_label(Role::Button, "a").is_none());
}

/// Types `text` into the outliner's filter box, replacing what it held.
fn filter(h: &mut Harness<'_, EditorApp>, text: &str) {
    h.get_by_role_and_label(Role::TextInput, "Filter").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.key_press(Key::Backspace);
    h.run();
    h.get_by_role_and_label(Role::TextInput, "Filter")
        .type_text(text);
    h.run();
}

#[test]
fn the_outliner_names_entities_by_file_with_the_id_on_hover_and_filters_by_both() {
    let (_dir, world) = project();
    let entities = world.join("Entities");
    fs::rename(
        entities.join("b.jasset"),
        entities.join("RockLarge_042.jasset"),
    )
    .unwrap();
    fs::rename(
        entities.join("c.jasset"),
        entities.join("PlayerSpawn.jasset"),
    )
    .unwrap();
    let mut h = harness(&world);
    let rock = EntityId(0x11).to_string();
    let shown = |h: &Harness<'_, EditorApp>, name: &str| {
        h.query_by_role_and_label(Role::Button, name).is_some()
    };
    assert!(shown(&h, "RockLarge_042") && shown(&h, "PlayerSpawn") && shown(&h, "a"));
    assert!(h.query_by_label_contains(&rock).is_none(), "no ids shown");
    h.get_by_role_and_label(Role::Button, "RockLarge_042")
        .hover();
    h.run();
    assert!(
        h.query_by_label_contains(&rock).is_some(),
        "the id on hover"
    );

    filter(&mut h, "spawn");
    assert!(shown(&h, "PlayerSpawn"));
    assert!(!shown(&h, "RockLarge_042") && !shown(&h, "a"));
    filter(&mut h, &rock);
    assert!(shown(&h, "RockLarge_042"));
    assert!(!shown(&h, "PlayerSpawn") && !shown(&h, "a"));

    // An entity not saved yet goes by its id, then by its file's name.
    filter(&mut h, "");
    h.get_by_label("Add entity").click();
    h.run();
    let added = h.state().selected().unwrap();
    assert!(shown(&h, &format!("{added} *")));
    save(&mut h);
    assert!(shown(&h, &format!("{:016X}", added.0)));
}

#[test]
fn a_template_changed_on_disk_reloads_and_an_unsaved_entity_asks() {
    let (dir, world) = project();
    let mut h = harness(&world);
    let rock = dir.path().join("Assets/Templates/Rock.jasset");
    fs::write(&rock, ROCK.replace("Mass: 250.0", "Mass: 260.0")).unwrap();
    h.state_mut().files_changed(std::slice::from_ref(&rock));
    h.run();
    assert_eq!(mass(&h, 0x11), 260.0);

    select(&mut h, 0x11);
    h.get_by_role_and_label(Role::SpinButton, "Mass")
        .set_value_accesskit(1.0);
    h.run();
    let file = world.join("Entities/b.jasset");
    fs::write(&file, instance(0x11, "Rock", "Health: 5.0\n")).unwrap();
    h.state_mut().files_changed(std::slice::from_ref(&file));
    h.run();
    assert!(h.state().conflict().is_some());
    h.get_by_label("Reload from disk").click();
    h.run();
    assert_eq!(health(&h, 0x11), 5.0);
    assert_eq!(mass(&h, 0x11), 260.0, "the unsaved edit is gone");
}

#[test]
fn an_unsaved_delete_asks_when_its_file_changes_on_disk() {
    let (_dir, world) = project();
    let mut h = harness(&world);
    let changed = |h: &mut Harness<'_, EditorApp>, id: u64, file: &Path| {
        select(h, id);
        h.get_by_label("Delete").click();
        h.run();
        assert!(!h.state().world().manager().contains(EntityId(id)));
        fs::write(file, instance(id, "Rock", "Health: 5.0\n")).unwrap();
        h.state_mut().files_changed(&[file.to_path_buf()]);
        h.run();
        let conflict = h.state().conflict().cloned();
        assert!(conflict.is_some_and(|c| c.removed && c.id == EntityId(id)));
        assert!(!h.state().world().manager().contains(EntityId(id)));
    };

    // Reload: the file as it is now, the Delete undone and its undo step dropped.
    let c = world.join("Entities/c.jasset");
    changed(&mut h, 0x12, &c);
    h.get_by_label("Reload from disk").click();
    h.run();
    assert_eq!(health(&h, 0x12), 5.0);
    assert!(!h.state_mut().is_unsaved());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(health(&h, 0x12), 5.0, "the Delete's undo step is gone");

    // Keep: the Delete stays, and the save deletes the file; its undo step stays.
    let b = world.join("Entities/b.jasset");
    changed(&mut h, 0x11, &b);
    h.get_by_label("Keep the Delete").click();
    h.run();
    assert!(h.state().conflict().is_none());
    assert!(!h.state().world().manager().contains(EntityId(0x11)));
    assert!(h.state_mut().is_unsaved());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(h.state().world().manager().contains(EntityId(0x11)));
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    save(&mut h);
    assert!(!b.exists());
    assert!(c.exists());
}

#[derive(juliet_entities::Codec, Clone, Copy, PartialEq, Debug, Default)]
enum GateMode {
    #[default]
    Closed,
    Open,
}

#[derive(juliet_entities::Entity)]
struct Gate {
    mode: GateMode,
    tags: Vec<String>,
    sign: String,
    #[jasset(default = 3)]
    count: u8,
}

#[test]
fn widgets_for_enums_lists_strings_and_integers() {
    let dir = tempfile::tempdir().unwrap();
    let mut world = World::new(dir.path());
    let gate = world.manager_mut().make_entity::<Gate>(glam::Vec3::ZERO);
    let mut h = Harness::builder()
        .with_size([1400.0, 900.0])
        .build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), EditorApp::new(world));
    h.state_mut().select(Some(gate));
    h.run();
    let get = |h: &Harness<'_, EditorApp>| {
        let g = h.state().world().manager().get::<Gate>(gate).unwrap();
        (g.mode, g.tags.clone(), g.sign.clone(), g.count)
    };

    // The combo box of a unit enum lists its variants.
    h.get_by_role_and_label(Role::ComboBox, "Mode").click();
    h.run();
    h.get_by_label("Open").click();
    h.run();
    assert_eq!(get(&h).0, GateMode::Open);

    // A list: add two elements, type into the second, remove the first.
    h.get_by_label("Add element").click();
    h.run();
    h.get_by_label("Add element").click();
    h.run();
    assert_eq!(get(&h).1, ["", ""]);
    let second = h
        .get_all_by_role_and_label(Role::TextInput, "Tags")
        .nth(1)
        .unwrap();
    second.click();
    h.run();
    h.get_all_by_role_and_label(Role::TextInput, "Tags")
        .nth(1)
        .unwrap()
        .type_text("north gate");
    h.run();
    assert_eq!(get(&h).1, ["", "north gate"]);
    h.get_all_by_label("Remove").next().unwrap().click();
    h.run();
    assert_eq!(get(&h).1, ["north gate"]);

    // A string with a space is typed as itself (the file quotes it).
    h.get_by_role_and_label(Role::TextInput, "Sign").click();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "Sign")
        .type_text("Keep out");
    h.run();
    assert_eq!(get(&h).2, "Keep out");
    let text = h
        .state()
        .world()
        .manager()
        .property_text(gate, "Sign")
        .unwrap();
    assert_eq!(text, "\"Keep out\"");

    // An integer within its type's range.
    h.get_by_role_and_label(Role::SpinButton, "Count")
        .set_value_accesskit(300.0);
    h.run();
    assert_eq!(get(&h).3, 255, "clamped to u8");
}

#[test]
fn a_variant_shows_its_chain_and_applies_to_the_ancestor_chosen() {
    let (dir, world) = project();
    let mut h = harness(&world);
    select(&mut h, 0x12);
    // The header: kind, template and the chain from the entity's template up.
    assert!(h.query_by_label("Kind: Inert").is_some());
    assert!(h
        .query_by_label("Template: Assets/Templates/Mossy.jasset")
        .is_some());
    assert!(h.query_by_label("Chain: Mossy > Rock").is_some());
    // Where each inherited value comes from.
    assert_eq!(h.query_all_by_label("from Mossy").count(), 1, "Health");
    assert_eq!(
        h.query_all_by_label("from Rock").count(),
        2,
        "MeshAsset, Mass"
    );
    assert!(h.query_all_by_label("class default").count() > 0);

    h.get_by_role_and_label(Role::TextInput, "MaterialOverride")
        .click();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "MaterialOverride")
        .type_text("Materials/M_Lichen");
    h.run();
    assert_eq!(override_keys(&h, 0x12), ["MaterialOverride"]);

    // "Apply all to template", to the ancestor Rock rather than the variant Mossy.
    h.get_by_label("Apply all to template").click();
    h.run();
    h.get_by_label("Assets/Templates/Rock.jasset").click();
    h.run();
    let rock = fs::read_to_string(dir.path().join("Assets/Templates/Rock.jasset")).unwrap();
    assert!(rock.contains("Materials/M_Lichen"), "{rock}");
    let mossy = fs::read_to_string(dir.path().join("Assets/Templates/Mossy.jasset")).unwrap();
    assert_eq!(mossy, MOSSY, "the variant is not written");
    let other = h.state().world().manager().get::<Inert>(EntityId(0x11));
    assert_eq!(other.unwrap().material_override, "Materials/M_Lichen");
    assert!(override_keys(&h, 0x12).is_empty());
}

/// The colours the last frame painted the text `text` in (a section's own colour, or
/// the fallback colour of the shape for a section without one).
fn text_colours(h: &Harness<'_, EditorApp>, text: &str) -> Vec<egui::Color32> {
    fn walk(shape: &egui::Shape, text: &str, out: &mut Vec<egui::Color32>) {
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, text, out)),
            egui::Shape::Text(t) if t.galley.job.text == text => {
                for section in &t.galley.job.sections {
                    let colour = match t.override_text_color {
                        Some(c) => c,
                        None if section.format.color == egui::Color32::PLACEHOLDER => {
                            t.fallback_color
                        }
                        None => section.format.color,
                    };
                    out.push(colour);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        walk(&clipped.shape, text, &mut out);
    }
    out
}

#[test]
fn an_overridden_property_is_painted_in_the_override_colour_and_an_inherited_one_is_not() {
    use juliet_editor::OVERRIDE_COLOR;
    let (_dir, world) = project();
    let mut h = harness(&world);
    select(&mut h, 0x10);
    // Another frame, so that the output read is of the selected entity's inspector.
    h.step();
    let normal = h.ctx.global_style().visuals.text_color();
    assert_ne!(normal, OVERRIDE_COLOR);
    assert_eq!(text_colours(&h, "Health"), [OVERRIDE_COLOR], "overridden");
    assert_eq!(text_colours(&h, "Mass"), [normal], "inherited");

    h.get_by_label("Revert Health").click();
    h.run();
    h.step();
    assert_eq!(
        text_colours(&h, "Health"),
        [normal],
        "inherited after the revert"
    );
}

#[test]
fn add_entity_offers_the_games_own_kinds() {
    // `Gate` is this crate's kind, as a game's are its own: the editor over any world
    // offers the kinds linked into the program (the game's tool links the game's).
    let dir = tempfile::tempdir().unwrap();
    let world = World::new(dir.path());
    let mut h = Harness::builder()
        .with_size([1400.0, 900.0])
        .build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), EditorApp::new(world));
    h.run();
    h.get_by_role_and_label(Role::ComboBox, "Kind").click();
    h.run();
    h.get_by_label("Gate").click();
    h.run();
    h.get_by_label("Add entity").click();
    h.run();
    let id = h.state().selected().expect("the new entity is selected");
    let entity = h.state().world().manager().entity(id).unwrap();
    assert_eq!(entity.class().name(), "Gate");
    // Its inspector shows the game kind's own properties.
    assert!(h.query_by_role_and_label(Role::ComboBox, "Mode").is_some());
}
