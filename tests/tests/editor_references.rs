//! The inspector on references: an entity reference as a picker that lists only the
//! entities of its kind, by file name, with "Go to"; a reference that does not hold
//! (another kind, no such entity) and an asset path to a missing file marked. Through
//! egui_kittest and the accessibility tree.

use std::fs;

use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use juliet_editor::EditorApp;
use juliet_entities::{AssetPath, Durability, Entity, EntityId, EntityRef, LoadOptions, World};

#[derive(Entity)]
struct Lever {
    pulled: bool,
}

#[derive(Entity)]
struct Gate {
    opens_with: EntityRef<Lever>,
    banner: AssetPath,
}

/// Levers `LeverA` (0x1) and `LeverB` (0x2), a rock `Rock` (0x3), the gate `MainGate`
/// (0x4) opened by LeverA with a banner that exists, and `BackGate` (0x5) pointing at
/// the rock with a banner that does not.
fn gates() -> (tempfile::TempDir, Harness<'static, EditorApp>) {
    let dir = tempfile::tempdir().unwrap();
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    fs::create_dir_all(&entities).unwrap();
    fs::create_dir_all(dir.path().join("Assets/Banners")).unwrap();
    fs::write(dir.path().join("Assets/Banners/Red.png"), "png").unwrap();
    let files = [
        ("LeverA", "EntityID: 1\nKind: Lever\n"),
        ("LeverB", "EntityID: 2\nKind: Lever\n"),
        ("Rock", "EntityID: 3\nKind: Inert\n"),
        (
            "MainGate",
            "EntityID: 4\nKind: Gate\nOpensWith: 1\nBanner: Assets/Banners/Red.png\n",
        ),
        (
            "BackGate",
            "EntityID: 5\nKind: Gate\nOpensWith: 3\nBanner: Assets/Banners/Blue.png\n",
        ),
    ];
    for (name, text) in files {
        fs::write(entities.join(format!("{name}.jasset")), text).unwrap();
    }
    let (mut world, report) =
        World::load(dir.path().join("Assets/Worlds/L"), &LoadOptions::default()).unwrap();
    assert_eq!(report.warnings.len(), 2, "{report:?}");
    world.set_durability(Durability::Fast);
    let h = Harness::builder()
        .with_size([1400.0, 900.0])
        .build_ui_state(
            |ui, app: &mut EditorApp| app.ui(ui),
            EditorApp::with_load_report(world, &report),
        );
    (dir, h)
}

/// What the `OpensWith` picker shows.
fn picked(h: &Harness<'_, EditorApp>) -> Option<String> {
    h.get_by_role_and_label(Role::ComboBox, "OpensWith").value()
}

fn opens_with(h: &Harness<'_, EditorApp>, gate: u64) -> EntityId {
    let world = h.state().world();
    world
        .manager()
        .get::<Gate>(EntityId(gate))
        .unwrap()
        .opens_with
        .id()
}

#[test]
fn the_picker_lists_the_entities_of_the_kind_and_go_to_selects_the_target() {
    let (_dir, mut h) = gates();
    h.state_mut().select(Some(EntityId(4)));
    h.run();
    assert_eq!(
        picked(&h).as_deref(),
        Some("LeverA (Lever)"),
        "the target by name"
    );
    assert!(h.query_by_label("file found").is_some());
    let count = |h: &Harness<'_, EditorApp>, name: &str| h.query_all_by_label(name).count();
    let before: Vec<usize> = ["LeverB", "Rock", "BackGate"]
        .map(|n| count(&h, n))
        .to_vec();
    h.get_by_role_and_label(Role::ComboBox, "OpensWith").click();
    h.run();
    // The levers are offered; the rock and the gates, of other kinds, are not.
    let after: Vec<usize> = ["LeverB", "Rock", "BackGate"]
        .map(|n| count(&h, n))
        .to_vec();
    assert_eq!(after, [before[0] + 1, before[1], before[2]]);
    // The popup's entry (the outliner has a row of that name too).
    h.get_all_by_label("LeverB").last().unwrap().click();
    h.run();
    assert_eq!(opens_with(&h, 4), EntityId(2));
    h.get_by_role_and_label(Role::Button, "Go to").click();
    h.run();
    assert_eq!(h.state().selected(), Some(EntityId(2)));
}

#[test]
fn a_reference_that_does_not_hold_and_a_missing_asset_are_marked() {
    let (_dir, mut h) = gates();
    h.state_mut().select(Some(EntityId(5)));
    h.run();
    assert_eq!(
        picked(&h).as_deref(),
        Some("0x0000000000000003: of kind Inert, not Lever"),
        "the wrong kind is said"
    );
    assert!(h.query_by_label("no such file").is_some());
    // "Go to" has nowhere to go.
    h.get_by_role_and_label(Role::Button, "Go to").click();
    h.run();
    assert_eq!(h.state().selected(), Some(EntityId(5)));
    // The Problems panel lists the two warnings too.
    assert!(h
        .query_by_label_contains("of kind `Inert`, not a `Lever`")
        .is_some());
    assert!(h
        .query_by_label_contains("names `Assets/Banners/Blue.png`")
        .is_some());
}
