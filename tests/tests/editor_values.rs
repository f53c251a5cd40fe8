//! The inspector on the value model: a composite shown as a tree (a row naming it, then
//! one row a leaf, each with its own override mark and Revert), and an `Option` as a
//! toggle with the value's own widget beside it, an enum with data as a choice of its
//! variant and one row per field of the variant in use, a list of records as one text
//! field a record. Through egui_kittest and the accessibility tree.

use std::fs;

use egui::accesskit::{Role, Toggled};
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use juliet_editor::EditorApp;
use juliet_entities::{Codec, Durability, Entity, EntityId, LoadOptions, World};

#[derive(Codec, Clone, Debug, PartialEq, Default)]
struct Stats {
    hp: f32,
    armor: f32,
}

/// An enum with data.
#[derive(Codec, Clone, Debug, PartialEq, Default)]
enum Trigger {
    #[default]
    Never,
    OnTouch {
        radius: f32,
        once: bool,
    },
    Timer(f32),
}

/// A kind with a composite, an option and an enum with data.
#[derive(Entity)]
struct Sentry {
    stats: Stats,
    glow: Option<f32>,
    trigger: Trigger,
}

/// A project of `files` (paths from the root, and texts) with the world
/// `Assets/Worlds/L`, loaded into the editor with entity `id` selected.
fn editor_on(files: &[(&str, &str)], id: u64) -> (tempfile::TempDir, Harness<'static, EditorApp>) {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    let (mut world, report) =
        World::load(dir.path().join("Assets/Worlds/L"), &LoadOptions::default()).unwrap();
    assert!(report.is_clean(), "{report:?}");
    world.set_durability(Durability::Fast);
    let mut h = Harness::builder()
        .with_size([1400.0, 900.0])
        .build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), EditorApp::new(world));
    h.state_mut().select(Some(EntityId(id)));
    h.run();
    (dir, h)
}

/// A project with a Sentry template and one instance (id 0x20) overriding `Stats.Hp`,
/// loaded into the editor with the instance selected.
fn sentry_editor() -> (tempfile::TempDir, Harness<'static, EditorApp>) {
    let files = [
        (
            "Assets/Templates/Sentry.jasset",
            "; Kind\nSentry\n; Stats.Hp\n100.0\n; Stats.Armor\n5.0\n; Glow\n2.5\n",
        ),
        (
            "Assets/Worlds/L/Entities/s.jasset",
            "; Template\nAssets/Templates/Sentry.jasset\n; EntityID\n0x0000000000000020\n\
             ; Stats.Hp\n40.0\n",
        ),
    ];
    editor_on(&files, 0x20)
}

fn sentry(h: &Harness<'_, EditorApp>) -> (Stats, Option<f32>) {
    let s = h
        .state()
        .world()
        .manager()
        .get::<Sentry>(EntityId(0x20))
        .unwrap();
    (s.stats.clone(), s.glow)
}

#[test]
fn a_composite_is_a_row_naming_it_then_one_row_a_leaf_with_its_own_override() {
    let (_dir, mut h) = sentry_editor();
    assert!(h.query_by_label("Stats").is_some(), "the composite's row");
    assert!(h.query_by_label("Stats.Hp").is_some());
    assert!(h.query_by_label("Stats.Armor").is_some());
    // Only the overridden leaf has a Revert; its sibling says where its value comes from.
    assert!(h
        .query_by_role_and_label(Role::Button, "Revert Stats.Hp")
        .is_some());
    assert!(h
        .query_by_role_and_label(Role::Button, "Revert Stats.Armor")
        .is_none());
    assert!(h.query_all_by_label("from Sentry").count() >= 1);

    h.get_by_role_and_label(Role::Button, "Revert Stats.Hp")
        .click();
    h.run();
    assert_eq!(
        sentry(&h).0,
        Stats {
            hp: 100.0,
            armor: 5.0
        }
    );
    assert!(h
        .query_by_role_and_label(Role::Button, "Revert Stats.Hp")
        .is_none());
}

#[test]
fn an_option_is_a_toggle_with_its_value_beside_it() {
    let (_dir, mut h) = sentry_editor();
    let toggle = h.get_by_role_and_label(Role::CheckBox, "Glow");
    assert_eq!(toggle.accesskit_node().toggled(), Some(Toggled::True));
    assert!(
        h.query_by_role_and_label(Role::SpinButton, "Glow")
            .is_some(),
        "the f32 beside it"
    );

    // Untick: None, written `~` (an override of the template's Some), and no value widget.
    h.get_by_role_and_label(Role::CheckBox, "Glow").click();
    h.run();
    assert_eq!(sentry(&h).1, None);
    assert!(h
        .query_by_role_and_label(Role::SpinButton, "Glow")
        .is_none());
    assert!(h
        .query_by_role_and_label(Role::Button, "Revert Glow")
        .is_some());

    // Tick again: Some of the type's first value.
    h.get_by_role_and_label(Role::CheckBox, "Glow").click();
    h.run();
    assert_eq!(sentry(&h).1, Some(0.0));
}

fn trigger(h: &Harness<'_, EditorApp>) -> Trigger {
    let world = h.state().world();
    world
        .manager()
        .get::<Sentry>(EntityId(0x20))
        .unwrap()
        .trigger
        .clone()
}

#[test]
fn an_enum_with_data_is_a_choice_of_variant_then_one_row_a_field() {
    let (_dir, mut h) = sentry_editor();
    assert_eq!(trigger(&h), Trigger::Never);
    assert!(
        h.query_by_label("Trigger.Once").is_none(),
        "no fields for `Never`"
    );

    // Choosing a variant gives it with its fields' defaults, and shows its fields.
    h.get_by_role_and_label(Role::ComboBox, "Trigger").click();
    h.run();
    h.get_by_label("OnTouch").click();
    h.run();
    assert_eq!(
        trigger(&h),
        Trigger::OnTouch {
            radius: 0.0,
            once: false
        }
    );
    assert!(h
        .query_by_role_and_label(Role::SpinButton, "Trigger.Radius")
        .is_some());

    // A field's row edits that field alone, with its own override mark (the template's
    // `Never` has no fields: each field of the instance's variant is its own).
    h.get_by_role_and_label(Role::CheckBox, "Trigger.Once")
        .click();
    h.run();
    assert_eq!(
        trigger(&h),
        Trigger::OnTouch {
            radius: 0.0,
            once: true
        }
    );
    for key in ["Trigger", "Trigger.Once", "Trigger.Radius"] {
        let revert = format!("Revert {key}");
        assert!(
            h.query_by_role_and_label(Role::Button, &revert).is_some(),
            "{revert}"
        );
    }

    // Another variant: the first one's fields are gone, the new one's are shown.
    h.get_by_role_and_label(Role::ComboBox, "Trigger").click();
    h.run();
    h.get_by_label("Timer").click();
    h.run();
    assert_eq!(trigger(&h), Trigger::Timer(0.0));
    assert!(h.query_by_label("Trigger.Once").is_none());
    assert!(h
        .query_by_role_and_label(Role::SpinButton, "Trigger.0")
        .is_some());
}

#[derive(Codec, Clone, Debug, PartialEq, Default)]
struct Waypoint {
    pos: glam::Vec3,
    wait: f32,
}

/// A kind with a list of records.
#[derive(Entity)]
struct Patrol {
    route: Vec<Waypoint>,
}

#[test]
fn a_list_of_records_adds_an_element_and_edits_it_as_its_lines() {
    let file = (
        "Assets/Worlds/L/Entities/p.jasset",
        "; EntityID\n0x0000000000000030\n; Kind\nPatrol\n; Route\n-\nWait: 1.5\n",
    );
    let (_dir, mut h) = editor_on(&[file], 0x30);
    let route = |h: &Harness<'_, EditorApp>| {
        let world = h.state().world();
        world
            .manager()
            .get::<Patrol>(EntityId(0x30))
            .unwrap()
            .route
            .clone()
    };
    // One text field per record, holding its `Key: value` lines.
    let fields = h
        .get_all_by_role_and_label(Role::MultilineTextInput, "Route")
        .count();
    assert_eq!(fields, 1);
    h.get_by_label("Add element").click();
    h.run();
    assert_eq!(
        route(&h),
        [
            Waypoint {
                wait: 1.5,
                ..Waypoint::default()
            },
            Waypoint::default()
        ]
    );
    let fields = h
        .get_all_by_role_and_label(Role::MultilineTextInput, "Route")
        .count();
    assert_eq!(fields, 2);
    h.get_all_by_label("Remove").next().unwrap().click();
    h.run();
    assert_eq!(route(&h), [Waypoint::default()]);
}

/// A kind with a list of enums with data.
#[derive(Entity)]
struct Alarm {
    triggers: Vec<Trigger>,
}

#[test]
fn a_list_of_enums_with_data_is_one_choice_of_variant_an_element() {
    let file = (
        "Assets/Worlds/L/Entities/a.jasset",
        "; EntityID\n0x0000000000000040\n; Kind\nAlarm\n; Triggers\n-\nTimer\n0: 2.0\n",
    );
    let (_dir, mut h) = editor_on(&[file], 0x40);
    let triggers = |h: &Harness<'_, EditorApp>| {
        let world = h.state().world();
        let alarm = world.manager().get::<Alarm>(EntityId(0x40)).unwrap();
        alarm.triggers.clone()
    };
    assert_eq!(
        h.get_all_by_role_and_label(Role::ComboBox, "Triggers")
            .count(),
        1
    );
    h.get_by_label("Add element").click();
    h.run();
    assert_eq!(triggers(&h), [Trigger::Timer(2.0), Trigger::Never]);

    // The new element's variant, chosen from its own drop-down.
    h.get_all_by_role_and_label(Role::ComboBox, "Triggers")
        .nth(1)
        .unwrap()
        .click();
    h.run();
    h.get_by_label("OnTouch").click();
    h.run();
    assert_eq!(
        triggers(&h),
        [
            Trigger::Timer(2.0),
            Trigger::OnTouch {
                radius: 0.0,
                once: false
            }
        ]
    );
}
