//! What the editor tests share: a small project of templates and instances, and a
//! harness that runs `EditorApp::ui` over it.
#![allow(dead_code)] // each test file uses some of these

use std::fs;
use std::path::{Path, PathBuf};

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use juliet_editor::EditorApp;
use juliet_entities::kinds::Inert;
use juliet_entities::{Durability, EntityId, LoadOptions, World};

pub(crate) const ROCK: &str =
    "; entity_type: Inert\n\nMeshAsset: Assets/Meshes/Rock_01.obj\nMass: 250.0\nHealth: 100.0\n";
pub(crate) const MOSSY: &str = "; Template\nAssets/Templates/Rock.jasset\n\n; Health\n120.0\n";

pub(crate) fn instance(id: u64, template: &str, extra: &str) -> String {
    format!("; template: Assets/Templates/{template}.jasset\nEntityID: {id:#018x}\nPosition: 1.0, 2.0, 3.0\n{extra}")
}

/// A project: templates Rock and Mossy (a variant of Rock), instances 0x10 (Rock, Health
/// 50), 0x11 (Rock) and 0x12 (Mossy).
pub(crate) fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let templates = dir.path().join("Assets/Templates");
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    fs::create_dir_all(&templates).unwrap();
    fs::create_dir_all(&entities).unwrap();
    fs::write(templates.join("Rock.jasset"), ROCK).unwrap();
    fs::write(templates.join("Mossy.jasset"), MOSSY).unwrap();
    fs::write(
        entities.join("a.jasset"),
        instance(0x10, "Rock", "Health: 50.0\n"),
    )
    .unwrap();
    fs::write(entities.join("b.jasset"), instance(0x11, "Rock", "")).unwrap();
    fs::write(entities.join("c.jasset"), instance(0x12, "Mossy", "")).unwrap();
    let world = dir.path().join("Assets/Worlds/L");
    (dir, world)
}

pub(crate) fn harness(world_dir: &Path) -> Harness<'static, EditorApp> {
    let (mut world, report) = World::load(world_dir, &LoadOptions::default()).unwrap();
    assert!(report.is_clean(), "{report:?}");
    world.set_durability(Durability::Fast);
    harness_of(EditorApp::new(world))
}

/// The harness over the world at `world_dir` as `jasset edit` opens it: with the
/// problems of its load.
pub(crate) fn harness_with_problems(world_dir: &Path) -> Harness<'static, EditorApp> {
    let (mut world, report) = World::load(world_dir, &LoadOptions::default()).unwrap();
    world.set_durability(Durability::Fast);
    harness_of(EditorApp::with_load_report(world, &report))
}

pub(crate) fn harness_of(app: EditorApp) -> Harness<'static, EditorApp> {
    Harness::builder()
        .with_size([1400.0, 900.0])
        .build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), app)
}

/// The outliner's text for entity `id`: its file's name without `.jasset` (its id when
/// it has no file), then ` *` while it has unsaved changes.
pub(crate) fn outliner_label(h: &Harness<'_, EditorApp>, id: u64) -> String {
    let world = h.state().world();
    let id = EntityId(id);
    let name = match world.file_of(id) {
        Some(file) => file.file_stem().unwrap().to_string_lossy().into_owned(),
        None => id.to_string(),
    };
    let dirty = world.manager().entity(id).unwrap().is_dirty();
    if dirty {
        format!("{name} *")
    } else {
        name
    }
}

/// Clicks entity `id` in the outliner.
pub(crate) fn select(h: &mut Harness<'_, EditorApp>, id: u64) {
    let label = outliner_label(h, id);
    h.get_by_role_and_label(Role::Button, &label).click();
    h.run();
    assert_eq!(h.state().selected(), Some(EntityId(id)));
}

pub(crate) fn health(h: &Harness<'_, EditorApp>, id: u64) -> f32 {
    h.state()
        .world()
        .manager()
        .get::<Inert>(EntityId(id))
        .unwrap()
        .health
}

/// The `Mass` of `Inert` entity `id` in the editor's world.
pub(crate) fn mass(h: &Harness<'_, EditorApp>, id: u64) -> f32 {
    let manager = h.state().world().manager();
    manager.get::<Inert>(EntityId(id)).unwrap().mass
}

pub(crate) fn override_keys(h: &Harness<'_, EditorApp>, id: u64) -> Vec<&'static str> {
    let list = h.state().world().overrides(EntityId(id)).unwrap();
    list.iter().map(|o| o.key).collect()
}

pub(crate) fn save(h: &mut Harness<'_, EditorApp>) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    h.get_by_label("Write files").click();
    h.run();
}
