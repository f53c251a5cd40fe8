//! The inspector of one entity drawn headless, into an `egui::Context` with no window, and
//! the text it shows printed row by row; then the edit typing a value into a field gives,
//! applied as [`juliet_editor::inspector`] applies it, and the panel again.
//!
//! ```sh
//! cargo run -p juliet-editor --example inspect
//! ```

use juliet_editor::{apply_edit, egui, inspector_ui, Edit};
use juliet_entities::glam::Vec3;
use juliet_entities::prelude::*;

/// A game's kind: its properties are the inspector's rows.
#[derive(Entity)]
struct Lamp {
    #[jasset(default = 1.0)]
    intensity: f32,
    color: Vec3,
    lit: bool,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let mut world = World::new(dir.path());
    let lamp = world
        .manager_mut()
        .make_entity::<Lamp>(Vec3::new(2.0, 0.0, -1.0));
    world.manager_mut().get_mut::<Lamp>(lamp).unwrap().lit = true;

    let ctx = egui::Context::default();
    println!("{}", panel_text(&ctx, &world, lamp));

    // What the inspector returns when 0.5 is typed into the Intensity field.
    let edit = Edit::Set {
        id: lamp,
        key: "Intensity".to_owned(),
        text: "0.5".to_owned(),
    };
    apply_edit(&mut world, &edit)?;
    assert_eq!(world.manager().get::<Lamp>(lamp).unwrap().intensity, 0.5);
    println!("after the edit {edit:?}:\n");
    println!("{}", panel_text(&ctx, &world, lamp));
    Ok(())
}

/// The text the inspector of entity `id` shows in one frame, one line per row of the
/// panel (top to bottom, the texts of a row left to right).
fn panel_text(ctx: &egui::Context, world: &World, id: EntityId) -> String {
    let mut edits = Vec::new();
    let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
        edits = inspector_ui(ui, world, id);
    });
    output.textures_delta.clear(); // (a real UI hands them to its renderer)
    assert!(edits.is_empty(), "no input, no edits: {edits:?}");

    let mut texts = Vec::new();
    for clipped in &output.shapes {
        collect_texts(&clipped.shape, &mut texts);
    }
    texts.sort_by(|a, b| (a.0.y, a.0.x).partial_cmp(&(b.0.y, b.0.x)).unwrap());
    let mut lines: Vec<(f32, Vec<String>)> = Vec::new();
    for (pos, text) in texts {
        match lines.last_mut() {
            // Texts of one row sit at (almost) the same height.
            Some((y, row)) if (pos.y - *y).abs() < 4.0 => row.push(text),
            _ => lines.push((pos.y, vec![text])),
        }
    }
    let lines: Vec<String> = lines.into_iter().map(|(_, row)| row.join("  ")).collect();
    lines.join("\n") + "\n"
}

/// The texts of `shape` (and of the shapes it groups), each with where it is drawn.
fn collect_texts(shape: &egui::Shape, out: &mut Vec<(egui::Pos2, String)>) {
    match shape {
        egui::Shape::Text(text) if !text.galley.text().trim().is_empty() => {
            out.push((text.pos, text.galley.text().to_owned()));
        }
        egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| collect_texts(s, out)),
        _ => {}
    }
}
