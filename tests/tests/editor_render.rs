//! One frame of the editor on the bundled demo, rendered headless through wgpu (feature
//! `render`; on a machine without a GPU, Mesa's software Vulkan driver). With
//! `JULIET_WRITE_SCREENSHOT=1` the frame is written to `docs/editor.png`.

use std::path::Path;

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use juliet_editor::{EditorApp, OVERRIDE_COLOR};
use juliet_entities::{EntityId, LoadOptions, World};

/// The demo entity shown: a grass clump that overrides its material.
const SHOWN: EntityId = EntityId(0x0001_0000_0000_2A08);

#[test]
fn renders_the_editor_on_the_demo_with_an_override_highlighted() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // A copy: the editor never writes here, but the demo stays pristine whatever happens.
    let copy = tempfile::tempdir().unwrap();
    copy_dir(&repo.join("demo"), copy.path());
    let (world, _) = World::load(
        copy.path().join("Assets/Worlds/Level01"),
        &LoadOptions::default(),
    )
    .unwrap();
    let mut app = EditorApp::new(world);
    app.select(Some(SHOWN));
    let mut h = Harness::builder()
        .with_size([1280.0, 760.0])
        .wgpu()
        .build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), app);
    h.run();
    assert!(h
        .query_by_role_and_label(egui::accesskit::Role::Button, "Revert MaterialOverride")
        .is_some());
    let image = match h.render() {
        Ok(image) => image,
        Err(e) => {
            eprintln!("editor_render: skipped, no wgpu adapter could render: {e}");
            return;
        }
    };
    let highlighted = image.pixels().filter(|p| {
        let [r, g, b, _] = p.0;
        r.abs_diff(OVERRIDE_COLOR.r()) < 40
            && g.abs_diff(OVERRIDE_COLOR.g()) < 40
            && b.abs_diff(OVERRIDE_COLOR.b()) < 40
    });
    assert!(
        highlighted.count() > 20,
        "the overridden key is drawn in its colour"
    );
    if std::env::var_os("JULIET_WRITE_SCREENSHOT").is_some() {
        image.save(repo.join("docs/editor.png")).unwrap();
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
