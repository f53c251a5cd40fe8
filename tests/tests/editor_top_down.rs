//! The editor's top-down view, driven through real pointer events under egui_kittest:
//! a click on a marker selects its entity (in the outliner too), a drag moves it and
//! one undo puts it back, a drag elsewhere pans, scrolling zooms.

use std::fs;

use egui::accesskit::{Role, Toggled};
use egui::{Event, Key, Modifiers, Pos2, Vec2};
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use juliet_editor::EditorApp;
use juliet_entities::EntityId;

mod editor_common;

use editor_common::*;

/// The test project with its three entities apart: 0x10 at the origin, 0x11 at x 10
/// and z 5, 0x12 at x -5 and z -5 (all at height 2).
fn spread() -> (tempfile::TempDir, Harness<'static, EditorApp>) {
    let (dir, world) = project();
    let entities = world.join("Entities");
    for (file, position) in [("a", "0, 2, 0"), ("b", "10, 2, 5"), ("c", "-5, 2, -5")] {
        let path = entities.join(format!("{file}.jasset"));
        let text = fs::read_to_string(&path).unwrap();
        let text = text.replace("Position: 1.0, 2.0, 3.0", &format!("Position: {position}"));
        fs::write(&path, text).unwrap();
    }
    let mut h = harness(&world);
    h.run();
    (dir, h)
}

/// Where the view drew entity `id`'s marker; it must lie within the view.
fn marker(h: &Harness<'_, EditorApp>, id: u64) -> Pos2 {
    let pos = h.state().top_down_marker(EntityId(id)).expect("in view");
    let view = h
        .get_by_role_and_label(Role::Canvas, "Top-down view")
        .rect();
    assert!(view.contains(pos), "{pos:?} in {view:?}");
    pos
}

fn position(h: &Harness<'_, EditorApp>, id: u64) -> [f32; 3] {
    let e = h.state().world().manager().entity(EntityId(id)).unwrap();
    e.position().to_array()
}

fn click_at(h: &mut Harness<'_, EditorApp>, pos: Pos2) {
    h.hover_at(pos);
    h.run();
    h.drag_at(pos);
    h.run();
    h.drop_at(pos);
    h.run();
}

/// Drags the pointer from `start` to `end` in six moves.
fn drag(h: &mut Harness<'_, EditorApp>, start: Pos2, end: Pos2) {
    h.hover_at(start);
    h.run();
    h.drag_at(start);
    h.run();
    for step in 1..=6 {
        h.hover_at(start + (end - start) * step as f32 / 6.0);
        h.run();
    }
    h.drop_at(end);
    h.run();
}

/// Whether the outliner shows entity `name` as selected.
fn outliner_selected(h: &Harness<'_, EditorApp>, name: &str) -> bool {
    let row = h.get_by_role_and_label(Role::Button, name);
    row.accesskit_node().toggled() == Some(Toggled::True)
}

#[test]
fn clicking_a_marker_selects_its_entity_in_the_outliner_too() {
    let (_dir, mut h) = spread();
    // The view maps x to the right and z down the screen.
    let (a, b, c) = (marker(&h, 0x10), marker(&h, 0x11), marker(&h, 0x12));
    assert!(c.x < a.x && a.x < b.x, "{c:?} {a:?} {b:?}");
    assert!(c.y < a.y && a.y < b.y, "{c:?} {a:?} {b:?}");

    click_at(&mut h, b + Vec2::new(2.0, -2.0));
    assert_eq!(h.state().selected(), Some(EntityId(0x11)));
    assert!(outliner_selected(&h, "b") && !outliner_selected(&h, "c"));
    click_at(&mut h, c);
    assert_eq!(h.state().selected(), Some(EntityId(0x12)));
    assert!(outliner_selected(&h, "c") && !outliner_selected(&h, "b"));
    // Away from every marker: nothing.
    click_at(&mut h, Pos2::new((a.x + b.x) / 2.0, c.y));
    assert_eq!(h.state().selected(), None);

    // And the other way: picked in the outliner, the inspector follows.
    select(&mut h, 0x10);
    assert!(h.query_by_label("Revert Health").is_some());
}

#[test]
fn dragging_a_marker_moves_its_entity_and_one_undo_puts_it_back() {
    let (_dir, mut h) = spread();
    let start = marker(&h, 0x11);
    let end = start - Vec2::new(60.0, 0.0);
    drag(&mut h, start, end);

    assert_eq!(h.state().selected(), Some(EntityId(0x11)));
    let [x, y, z] = position(&h, 0x11);
    assert!(x < 9.5, "moved to the left: {x}");
    assert_eq!((y, z), (2.0, 5.0), "height and depth kept");
    let moved = marker(&h, 0x11);
    assert!(moved.distance(end) < 1.0, "the marker follows: {moved:?}");
    assert!(h.state_mut().title().starts_with('*'));

    // A second drag of the same marker is a step of its own.
    drag(&mut h, end, end + Vec2::new(0.0, -30.0));
    let [_, _, z2] = position(&h, 0x11);
    assert!(z2 < 5.0, "moved up the screen: {z2}");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(position(&h, 0x11), [x, y, z], "the second drag undone");

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(position(&h, 0x11), [10.0, 2.0, 5.0], "one undo step");
    assert!(!h.state_mut().title().starts_with('*'));
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(position(&h, 0x11), [x, y, z], "redo");
}

#[test]
fn dragging_elsewhere_pans_and_scrolling_zooms_about_the_pointer() {
    let (_dir, mut h) = spread();
    let (a, b, c) = (marker(&h, 0x10), marker(&h, 0x11), marker(&h, 0x12));
    let empty = Pos2::new((a.x + c.x) / 2.0, b.y);
    drag(&mut h, empty, empty - Vec2::new(0.0, 40.0));
    assert_eq!(position(&h, 0x11), [10.0, 2.0, 5.0], "nothing moved");
    let panned = marker(&h, 0x11);
    assert!(
        (panned - (b - Vec2::new(0.0, 40.0))).length() < 1.0,
        "{panned:?}"
    );

    let (a, b) = (marker(&h, 0x10), marker(&h, 0x11));
    h.hover_at(a);
    h.run();
    h.event(Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: Vec2::new(0.0, -100.0),
        modifiers: Modifiers::NONE,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
    });
    h.run();
    let (a2, b2) = (marker(&h, 0x10), marker(&h, 0x11));
    assert!(a2.distance(a) < 1.0, "the point under the pointer stays");
    assert!(a2.distance(b2) < a.distance(b) * 0.8, "zoomed out");
}
