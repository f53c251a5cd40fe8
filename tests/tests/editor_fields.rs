//! The editor's text fields that commit when they lose focus (a `u64`, a game codec's
//! value): typed text survives a change of selection, and Ctrl+Z while such a field has
//! focus undoes the typing, never the world under it. Through egui_kittest and the
//! accessibility tree.

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use juliet_editor::EditorApp;
use juliet_entities::{EntityId, World};

/// A game kind with a `u64` (a text field) and a float (a drag value).
#[derive(juliet_entities::Entity)]
struct Signal {
    channel: u64,
    power: f32,
}

/// Two signals, `a` selected.
fn two_signals() -> (
    tempfile::TempDir,
    Harness<'static, EditorApp>,
    EntityId,
    EntityId,
) {
    let dir = tempfile::tempdir().unwrap();
    let mut world = World::new(dir.path());
    let a = world.manager_mut().make_entity::<Signal>(glam::Vec3::ZERO);
    let b = world.manager_mut().make_entity::<Signal>(glam::Vec3::ONE);
    let mut h = Harness::builder()
        .with_size([1400.0, 900.0])
        .build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), EditorApp::new(world));
    h.state_mut().select(Some(a));
    h.run();
    (dir, h, a, b)
}

fn channel(h: &Harness<'_, EditorApp>, id: EntityId) -> u64 {
    h.state()
        .world()
        .manager()
        .get::<Signal>(id)
        .unwrap()
        .channel
}

fn power(h: &Harness<'_, EditorApp>, id: EntityId) -> f32 {
    h.state().world().manager().get::<Signal>(id).unwrap().power
}

/// Clicks the Channel field and types `text` over its value (not committed yet).
fn type_channel(h: &mut Harness<'_, EditorApp>, text: &str) {
    h.get_by_role_and_label(Role::TextInput, "Channel").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_role_and_label(Role::TextInput, "Channel")
        .type_text(text);
    h.run();
}

#[test]
fn text_typed_in_a_field_is_committed_when_another_entity_is_selected() {
    let (_dir, mut h, a, b) = two_signals();
    type_channel(&mut h, "0x2A");
    assert_eq!(channel(&h, a), 0, "not committed while typing");

    h.get_by_label_contains(&b.to_string()).click();
    h.run();
    assert_eq!(h.state().selected(), Some(b));
    assert_eq!(channel(&h, a), 0x2A, "committed at the change of selection");
    assert_eq!(channel(&h, b), 0);

    // One undo step, as for a commit on focus loss.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(channel(&h, a), 0);
}

#[test]
fn ctrl_z_in_a_focused_text_field_undoes_the_typing_not_the_world() {
    let (_dir, mut h, a, _b) = two_signals();
    h.get_by_role_and_label(Role::SpinButton, "Power")
        .set_value_accesskit(5.0);
    h.run();
    assert_eq!(power(&h, a), 5.0);

    type_channel(&mut h, "0x2A");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(power(&h, a), 5.0, "the world's last step is not undone");
    // The field lost its typing: leaving it commits nothing.
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(channel(&h, a), 0);
    assert_eq!(power(&h, a), 5.0);

    // Without a focused field, Ctrl+Z is the world's undo again.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_ne!(power(&h, a), 5.0);
}

#[test]
fn a_value_undone_under_a_focused_field_is_not_written_back() {
    let (_dir, mut h, a, _b) = two_signals();
    type_channel(&mut h, "0x2A");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(channel(&h, a), 0x2A);

    // The field has focus again (its text is the committed value) when the step is
    // undone from elsewhere (the toolbar's Undo does this).
    h.get_by_role_and_label(Role::TextInput, "Channel").click();
    h.run();
    h.state_mut().undo();
    h.run();
    assert_eq!(channel(&h, a), 0);
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(channel(&h, a), 0, "the undone value is not committed again");
    h.state_mut().redo();
    h.run();
    assert_eq!(channel(&h, a), 0x2A, "the redo is still there");
}
