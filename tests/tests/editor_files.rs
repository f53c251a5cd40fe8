//! The editor and the files of its world: the save dialog lists exactly what the save
//! writes and deletes, and files changed, added or deleted on disk while it runs come in
//! (driven through `EditorApp::files_changed`, as the window's watcher drives it).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use juliet_editor::EditorApp;
use juliet_entities::EntityId;

mod editor_common;

use editor_common::*;

/// Every file under `dir` with its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            out.insert(path.clone(), fs::read(&path).unwrap());
        }
    }
    out
}

/// The files that differ between `before` and `after`: (written, deleted).
fn changed(
    before: &BTreeMap<PathBuf, Vec<u8>>,
    after: &BTreeMap<PathBuf, Vec<u8>>,
) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let written = (after.iter())
        .filter(|(p, bytes)| before.get(*p) != Some(*bytes))
        .map(|(p, _)| p.clone())
        .collect();
    let deleted = (before.keys())
        .filter(|p| !after.contains_key(*p))
        .cloned()
        .collect();
    (written, deleted)
}

/// The save dialog's list, read through the accessibility tree: (written, deleted).
fn save_list(h: &mut Harness<'_, EditorApp>) -> (Vec<PathBuf>, Vec<PathBuf>) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let lines: Vec<String> = (h.query_all_by_label_contains("write "))
        .chain(h.query_all_by_label_contains("delete "))
        // (A label's text is its accessible value.)
        .filter_map(|n| n.accesskit_node().value())
        .collect();
    let mut written: Vec<PathBuf> = Vec::new();
    let mut deleted: Vec<PathBuf> = Vec::new();
    for line in lines {
        if let Some(path) = line.strip_prefix("write ") {
            written.push(path.trim().into());
        } else if let Some(path) = line.strip_prefix("delete ") {
            deleted.push(path.trim().into());
        }
    }
    written.sort();
    deleted.sort();
    (written, deleted)
}

/// Opens the save dialog, reads its list, writes the files, and checks that the list
/// is what changed in `dir`. Returns the list.
fn save_and_compare(h: &mut Harness<'_, EditorApp>, dir: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let before = files(dir);
    let listed = save_list(h);
    if listed.0.is_empty() && listed.1.is_empty() {
        // Nothing to confirm: the dialog says so and offers no "Write files".
        assert!(h.query_by_label("Nothing to save.").is_some());
        assert!(h.query_by_label("Write files").is_none());
        h.get_by_label("Close").click();
    } else {
        h.get_by_label("Write files").click();
    }
    h.run();
    let (mut written, mut deleted) = changed(&before, &files(dir));
    written.sort();
    deleted.sort();
    assert_eq!(listed, (written, deleted), "the list is what the save did");
    listed
}

#[test]
fn a_new_entity_whose_file_name_is_taken_is_listed_under_the_name_it_gets() {
    let (_dir, world) = project();
    let entities = world.join("Entities");
    let mut h = harness(&world);
    h.get_by_label("Add entity").click();
    h.run();
    let id = h.state().selected().expect("the new entity is selected");
    // Another program (or a file that did not load) holds the name `<id>.jasset`.
    let taken = entities.join(id.file_name());
    fs::write(&taken, "; not this entity's\n").unwrap();

    let (written, deleted) = save_and_compare(&mut h, &entities);
    let stem = format!("{:016X}", id.0);
    assert_eq!(written, [entities.join(format!("{stem}-2.jasset"))]);
    assert!(deleted.is_empty());
    assert_eq!(fs::read_to_string(&taken).unwrap(), "; not this entity's\n");
}

#[test]
fn instances_a_template_change_reaches_are_not_listed_when_their_files_stay() {
    let (dir, world) = project();
    let entities = world.join("Entities");
    let mut h = harness(&world);
    select(&mut h, 0x10);
    // Health 50 goes into Rock: 0x11 inherits it (its sparse file does not change),
    // 0x10 stops overriding it (its file loses the line).
    h.get_by_label("Apply Health").click();
    h.run();
    h.get_by_label("Assets/Templates/Rock.jasset").click();
    h.run();
    assert_eq!(health(&h, 0x11), 50.0, "propagated");
    let rock = fs::read_to_string(dir.path().join("Assets/Templates/Rock.jasset")).unwrap();
    assert!(rock.contains("Health: 50.0"), "{rock}");

    let (written, deleted) = save_and_compare(&mut h, &entities);
    assert_eq!(written, [entities.join("a.jasset")]);
    assert!(deleted.is_empty());
    assert!(!h.state_mut().title().starts_with('*'));
}

#[test]
fn a_deleted_entity_is_listed_and_its_file_goes() {
    let (_dir, world) = project();
    let entities = world.join("Entities");
    let mut h = harness(&world);
    select(&mut h, 0x12);
    h.get_by_label("Delete").click();
    h.run();
    let (written, deleted) = save_and_compare(&mut h, &entities);
    assert!(written.is_empty(), "{written:?}");
    assert_eq!(deleted, [entities.join("c.jasset")]);
    assert_eq!(h.state().selected(), None);
}

#[test]
fn reloading_one_entity_keeps_the_undo_steps_of_the_others() {
    let (_dir, world) = project();
    let mut h = harness(&world);
    select(&mut h, 0x10);
    h.get_by_role_and_label(Role::SpinButton, "Health")
        .set_value_accesskit(60.0);
    h.run();
    select(&mut h, 0x12);
    h.get_by_role_and_label(Role::SpinButton, "Mass")
        .set_value_accesskit(1.0);
    h.run();

    // 0x12's file changes on disk while it has that unsaved edit: reload it.
    let file = world.join("Entities/c.jasset");
    fs::write(&file, instance(0x12, "Mossy", "Mass: 7.0\n")).unwrap();
    h.state_mut().files_changed(std::slice::from_ref(&file));
    h.run();
    h.get_by_label("Reload from disk").click();
    h.run();
    assert_eq!(mass(&h, 0x12), 7.0);

    // Its step is gone; 0x10's is still there.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(health(&h, 0x10), 50.0, "0x10's edit undone");
    assert_eq!(
        mass(&h, 0x12),
        7.0,
        "the reloaded entity keeps its file's value"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        mass(&h, 0x12),
        7.0,
        "no step of the reloaded entity is left"
    );
    assert_eq!(health(&h, 0x10), 50.0);
}

#[test]
fn a_file_added_on_disk_loads_and_a_deleted_one_leaves_the_world() {
    let (_dir, world) = project();
    let entities = world.join("Entities");
    let mut h = harness(&world);

    let added = entities.join("d.jasset");
    fs::write(&added, instance(0x13, "Rock", "Health: 7.0\n")).unwrap();
    h.state_mut().files_changed(std::slice::from_ref(&added));
    h.run();
    assert_eq!(health(&h, 0x13), 7.0);
    let listed = |h: &Harness<'_, EditorApp>, name: &str| {
        h.query_all_by_role_and_label(Role::Button, name).count()
    };
    assert_eq!(listed(&h, "d"), 1, "in the outliner");

    let gone = entities.join("b.jasset");
    fs::remove_file(&gone).unwrap();
    h.state_mut().files_changed(std::slice::from_ref(&gone));
    h.run();
    assert!(!h.state().world().manager().contains(EntityId(0x11)));
    assert_eq!(listed(&h, "b"), 0);

    // Neither is anything to save.
    let (written, deleted) = save_and_compare(&mut h, &entities);
    assert!(
        written.is_empty() && deleted.is_empty(),
        "{written:?} {deleted:?}"
    );
    assert!(!gone.exists());
}

#[test]
fn a_file_deleted_under_unsaved_edits_asks_and_keeping_them_writes_it_again() {
    let (_dir, world) = project();
    let entities = world.join("Entities");
    let mut h = harness(&world);
    for (keep, id, name) in [(true, 0x12, "c.jasset"), (false, 0x10, "a.jasset")] {
        select(&mut h, id);
        h.get_by_role_and_label(Role::SpinButton, "Mass")
            .set_value_accesskit(3.0);
        h.run();
        let file = entities.join(name);
        fs::remove_file(&file).unwrap();
        h.state_mut().files_changed(std::slice::from_ref(&file));
        h.run();
        assert!(h.state().conflict().is_some_and(|c| c.deleted));
        h.get_by_label(if keep {
            "Keep my edits"
        } else {
            "Remove from world"
        })
        .click();
        h.run();
        assert_eq!(h.state().world().manager().contains(EntityId(id)), keep);
    }
    let (written, deleted) = save_and_compare(&mut h, &entities);
    assert_eq!(written, [entities.join("c.jasset")]);
    assert!(deleted.is_empty());
    let text = fs::read_to_string(entities.join("c.jasset")).unwrap();
    assert!(text.contains("Mass") && text.contains("3.0"), "{text}");
    assert!(!entities.join("a.jasset").exists());
}

#[test]
fn a_templates_folder_made_while_the_editor_runs_is_seen() {
    let dir = tempfile::tempdir().unwrap();
    let world = dir.path().join("Assets/Worlds/L");
    fs::create_dir_all(world.join("Entities")).unwrap();
    fs::write(
        world.join("Entities/x.jasset"),
        "; EntityID\n0x20\n; Kind\nInert\n",
    )
    .unwrap();
    let mut h = harness(&world);
    assert!(h.query_by_label("Rock").is_none());

    let templates = dir.path().join("Assets/Templates");
    fs::create_dir_all(&templates).unwrap();
    let rock = templates.join("Rock.jasset");
    fs::write(&rock, ROCK).unwrap();
    h.state_mut().files_changed(std::slice::from_ref(&rock));
    h.run();
    h.get_by_label("Rock").click();
    h.run();
    h.get_by_label("Spawn instance").click();
    h.run();
    let id = h
        .state()
        .selected()
        .expect("the spawned instance is selected");
    assert_eq!(health(&h, id.0), 100.0);
}

/// The editor keeps the id prefix a world was loaded with (so that the files without
/// `EntityID`, given ids of it as they loaded, and the entities added in the session
/// share one block); a world with none gets a random one.
#[test]
fn the_editor_keeps_the_id_prefix_the_world_was_loaded_with() {
    use juliet_entities::{LoadOptions, World};
    let dir = tempfile::tempdir().unwrap();
    let options = LoadOptions {
        id_prefix: 0x1234_5678,
        ..LoadOptions::default()
    };
    let (world, _) = World::load(dir.path(), &options).unwrap();
    assert_eq!(
        EditorApp::new(world).world().manager().id_prefix(),
        0x1234_5678
    );
    let (world, _) = World::load(dir.path(), &LoadOptions::default()).unwrap();
    assert_ne!(EditorApp::new(world).world().manager().id_prefix(), 0);
}

#[test]
fn after_its_own_writes_the_status_says_what_the_editor_did_not_reloaded() {
    let (dir, world) = project();
    let entities = world.join("Entities");
    let mut h = harness(&world);
    select(&mut h, 0x11);
    h.get_by_role_and_label(Role::SpinButton, "Mass")
        .set_value_accesskit(300.0);
    h.run();
    save(&mut h);
    // The window's watcher then reports the file the save wrote.
    h.state_mut().files_changed(&[entities.join("b.jasset")]);
    h.run();
    assert_eq!(h.state().status(), "Saved: 1 written, 0 deleted");

    // Apply writes a template; the watcher reports that too.
    select(&mut h, 0x10);
    h.get_by_label("Apply Health").click();
    h.run();
    h.get_by_label("Assets/Templates/Rock.jasset").click();
    h.run();
    let status = h.state().status().to_owned();
    assert_eq!(status, "Apply to Assets/Templates/Rock.jasset");
    let rock = dir.path().join("Assets/Templates/Rock.jasset");
    h.state_mut().files_changed(&[rock]);
    h.run();
    assert_eq!(h.state().status(), status);

    // Nothing left to save: the dialog offers no "Write files".
    save_and_compare(&mut h, &entities);
}

#[test]
fn a_file_changed_by_another_program_is_reported_as_reloaded() {
    let (_dir, world) = project();
    let file = world.join("Entities/b.jasset");
    let mut h = harness(&world);
    fs::write(&file, instance(0x11, "Rock", "Health: 9.0\n")).unwrap();
    h.state_mut().files_changed(std::slice::from_ref(&file));
    h.run();
    assert_eq!(health(&h, 0x11), 9.0);
    assert_eq!(
        h.state().status(),
        format!("Reloaded {} from disk", EntityId(0x11))
    );
}

/// The number of widgets whose label contains `text`.
fn shown(h: &Harness<'_, EditorApp>, text: &str) -> usize {
    h.query_all_by_label_contains(text).count()
}

/// The lines of the Problems panel that start with `text` (the panel names files
/// relative to the project root; the status line says more).
fn problem_lines<'h>(
    h: &'h Harness<'_, EditorApp>,
    text: &'h str,
) -> impl Iterator<Item = egui_kittest::Node<'h>> {
    (h.query_all_by_label_contains(text)).filter(move |n| {
        n.accesskit_node()
            .value()
            .is_some_and(|v| v.starts_with(text))
    })
}

#[test]
fn a_file_that_did_not_load_is_in_the_problems_panel_and_the_outliner_until_mended() {
    let (_dir, world) = project();
    let broken = world.join("Entities/Broken.jasset");
    // Line 4 is `Health: lots`; the value starts at column 9.
    fs::write(&broken, instance(0x14, "Rock", "Health: lots\n")).unwrap();
    let mut h = harness_with_problems(&world);
    h.run();
    assert_eq!(shown(&h, "Problems (1)"), 1);
    let line = "Assets/Worlds/L/Entities/Broken.jasset:4:9: error: `Health`";
    assert_eq!(problem_lines(&h, line).count(), 1, "the problem's line");
    assert_eq!(shown(&h, "Not loaded (1)"), 1);
    h.get_by_label("Broken").hover();
    h.run();
    assert_eq!(
        shown(&h, "Broken.jasset:4:9: error"),
        2,
        "the outliner's file gives the reason on hover"
    );

    // Mended on disk: the entity loads and the problem goes.
    fs::write(&broken, instance(0x14, "Rock", "Health: 5.0\n")).unwrap();
    h.state_mut().files_changed(std::slice::from_ref(&broken));
    h.run();
    assert_eq!(health(&h, 0x14), 5.0);
    assert_eq!(shown(&h, "Problems (0)"), 1);
    assert_eq!(shown(&h, "Broken.jasset:4:9"), 0);
    assert_eq!(shown(&h, "Not loaded"), 0);

    // A loaded entity's file broken on disk: listed; the entity keeps its values.
    let b = world.join("Entities/b.jasset");
    fs::write(&b, instance(0x11, "Rock", "Mass: heavy\n")).unwrap();
    h.state_mut().files_changed(std::slice::from_ref(&b));
    h.run();
    let line = "Assets/Worlds/L/Entities/b.jasset:4:7: error: `Mass`";
    assert_eq!(problem_lines(&h, line).count(), 1);
    assert_eq!(mass(&h, 0x11), 250.0);
    // A click on the line selects the entity.
    problem_lines(&h, line).next().unwrap().click();
    h.run();
    assert_eq!(h.state().selected(), Some(EntityId(0x11)));
}

#[test]
fn warnings_of_the_load_and_of_a_file_read_again_are_listed() {
    let (_dir, world) = project();
    let a = world.join("Entities/a.jasset");
    fs::write(&a, instance(0x10, "Rock", "Helth: 50.0\n")).unwrap();
    let mut h = harness_with_problems(&world);
    h.run();
    assert_eq!(shown(&h, "a.jasset:4:1: warning: `Helth`: unknown key"), 1);
    assert_eq!(
        shown(&h, "Not loaded"),
        0,
        "a warning does not stop the load"
    );

    let c = world.join("Entities/c.jasset");
    fs::write(&c, instance(0x12, "Mossy", "Colour: red\n")).unwrap();
    h.state_mut().files_changed(std::slice::from_ref(&c));
    h.run();
    assert_eq!(shown(&h, "c.jasset:4:1: warning: `Colour`: unknown key"), 1);
    assert_eq!(shown(&h, "Problems (2)"), 1);
}
