//! Saves edit the designer's file (docs/design.md, section 6.2): over random hand-written
//! files (comments, blank lines, every line form, both key spellings, CRLF) and random
//! edits, a save changes exactly the lines of the changed values, and a save with
//! nothing changed writes nothing.

mod text;
use std::fs;

use glam::Vec3;
use juliet_entities::kinds::Inert;
use juliet_entities::prelude::*;
use proptest::prelude::*;

/// How a property is written.
#[derive(Debug, Clone, Copy)]
enum Form {
    Block,
    Inline,
    Compact,
}

/// One property of the hand-written file: which one, its form, spelling and comment.
#[derive(Debug, Clone)]
struct Written {
    property: usize,
    form: Form,
    snake: bool,
    comment_before: bool,
    blank_after: bool,
}

const KEYS: [(&str, &str); 4] = [
    ("Mass", "mass"),
    ("Health", "health"),
    ("IsVisible", "is_visible"),
    ("Scale", "scale"),
];

fn file() -> impl Strategy<Value = (Vec<Written>, bool)> {
    let one = (0..3u8, any::<bool>(), any::<bool>(), any::<bool>());
    (
        proptest::sample::subsequence((0..KEYS.len()).collect::<Vec<_>>(), 1..=KEYS.len())
            .prop_shuffle(),
        proptest::collection::vec(one, KEYS.len()),
        any::<bool>(),
    )
        .prop_map(|(order, looks, crlf)| {
            let mut block_open = false;
            let written = order
                .into_iter()
                .zip(looks)
                .map(|(property, (form, snake, comment_before, blank_after))| {
                    // `Key: value` only where no block is open.
                    let form = match form {
                        0 => Form::Block,
                        1 => Form::Inline,
                        _ if block_open => Form::Inline,
                        _ => Form::Compact,
                    };
                    block_open = matches!(form, Form::Block);
                    Written {
                        property,
                        form,
                        snake,
                        comment_before,
                        blank_after,
                    }
                })
                .collect();
            (written, crlf)
        })
}

/// The hand-written values: an untidy spelling of each.
const VALUES: [&str; 4] = ["250.50", "+100", "1", "1.4, 1.4,1.4"];

/// The file's text and, for each property written, the 0-based line of its value.
fn render(written: &[Written], crlf: bool) -> (String, Vec<(usize, usize)>) {
    let mut lines = vec![
        "# a rock, placed by hand".to_owned(),
        "; EntityID: 0x0000000000000007".to_owned(),
        "; Kind: Inert".to_owned(),
    ];
    let mut at = Vec::new();
    for w in written {
        if w.comment_before {
            lines.push("// tuned by design".to_owned());
        }
        let (pascal, snake) = KEYS[w.property];
        let key = if w.snake { snake } else { pascal };
        let value = VALUES[w.property];
        match w.form {
            Form::Block => {
                lines.push(format!("; {key}"));
                lines.push(value.to_owned());
            }
            Form::Inline => lines.push(format!(";  {key}: {value}")),
            Form::Compact => lines.push(format!("{key}: {value}")),
        }
        at.push((w.property, lines.len() - 1));
        if w.blank_after {
            lines.push(String::new());
        }
    }
    let eol = if crlf { "\r\n" } else { "\n" };
    let mut text = lines.join(eol);
    text.push_str(eol);
    (text, at)
}

/// Sets property `index` of `rock` to a value unlike the hand-written one and returns its
/// text as the save writes it.
fn change(rock: &mut Inert, index: usize) -> &'static str {
    match index {
        0 => {
            rock.mass = 3.25;
            "3.25"
        }
        1 => {
            rock.health = 7.5;
            "7.5"
        }
        2 => {
            rock.is_visible = false;
            "false"
        }
        // In the separator style of the written value (commas, see `VALUES`).
        _ => {
            rock.scale = Vec3::new(2.0, 0.5, 1.0);
            "2.0, 0.5, 1.0"
        }
    }
}

fn split(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn a_save_changes_exactly_the_lines_of_the_changed_values(
        (written, crlf) in file(),
        edits in proptest::collection::vec(any::<bool>(), KEYS.len()),
    ) {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("Entities");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rock.jasset");
        let (text, at) = render(&written, crlf);
        fs::write(&path, &text).unwrap();

        let (mut world, report) = World::load(root.path(), &LoadOptions::default()).unwrap();
        prop_assert!(report.is_clean(), "{:?}\n{}", report, text);
        // Nothing changed: nothing written, the same bytes.
        prop_assert!(world.save_world().unwrap().written.is_empty());
        prop_assert_eq!(fs::read_to_string(&path).unwrap(), text.clone());

        // Change some of the written properties, through a slice (no dirty mark).
        let mut changed = Vec::new();
        for &(property, line) in &at {
            if edits[property] {
                let rock = &mut world.manager_mut().slice_mut::<Inert>()[0];
                changed.push((line, change(rock, property)));
            }
        }
        let report = world.save_world().unwrap();
        prop_assert_eq!(report.written.len(), usize::from(!changed.is_empty()));
        let saved = fs::read_to_string(&path).unwrap();
        let (before, after) = (split(&text), split(&saved));
        prop_assert_eq!(before.len(), after.len(), "{}", saved);
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            match changed.iter().find(|(line, _)| *line == i) {
                Some((_, value)) => {
                    prop_assert_ne!(b, a);
                    prop_assert!(a.trim_end().ends_with(value), "line {}: {:?}", i, a);
                    prop_assert_eq!(a.ends_with("\r\n"), crlf);
                }
                None => prop_assert_eq!(b, a, "line {}", i),
            }
        }

        // It reads back with the new values, and a second save writes nothing.
        let (mut again, report) = World::load(root.path(), &LoadOptions::default()).unwrap();
        prop_assert!(report.is_clean());
        prop_assert_eq!(
            again.manager().slice::<Inert>()[0].clone(),
            world.manager().slice::<Inert>()[0].clone()
        );
        prop_assert!(again.save_world().unwrap().written.is_empty());
    }
}

#[test]
fn a_new_override_is_added_next_to_its_neighbour_and_a_revert_removes_its_lines() {
    let root = tempfile::tempdir().unwrap();
    let templates = root.path().join("Assets/Templates");
    let level = root.path().join("Assets/Worlds/L");
    fs::create_dir_all(&templates).unwrap();
    fs::create_dir_all(level.join("Entities")).unwrap();
    fs::write(
        templates.join("Rock.jasset"),
        "; Kind: Inert\nMass: 250.0\n",
    )
    .unwrap();
    let file = level.join("Entities/rock.jasset");
    let original = "# keep me\n; Template\nAssets/Templates/Rock.jasset\n; EntityID\n0x0000000000000003\n\n; Health\n40.0\n# and me\n";
    fs::write(&file, original).unwrap();
    let (mut world, report) = World::load(&level, &LoadOptions::default()).unwrap();
    assert!(report.is_clean(), "{report:?}");
    let id = EntityId(3);

    world.set_property(id, "Mass", "300.0").unwrap();
    world.save_world().unwrap();
    let text = fs::read_to_string(&file).unwrap();
    assert_eq!(
        text,
        "# keep me\n; Template\nAssets/Templates/Rock.jasset\n; EntityID\n0x0000000000000003\n; Mass\n300.0\n\n; Health\n40.0\n# and me\n"
    );

    world.revert_property(id, "Mass").unwrap();
    world.save_world().unwrap();
    assert_eq!(fs::read_to_string(&file).unwrap(), original);
}

/// A save writes vectors in the file's separator style: a changed one with its own
/// separator, a new one with the file's; a new one-line property among `Key: value`
/// lines is one too.
#[test]
fn a_save_keeps_the_files_separators_and_line_forms() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("Entities");
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rock.jasset");
    let original = "; Kind: Inert\nEntityID: 0x0000000000000009\nPosition: 1, 2, 3\nHealth: 5.0\n";
    fs::write(&file, original).unwrap();
    let (mut world, report) = World::load(root.path(), &LoadOptions::default()).unwrap();
    assert!(report.is_clean(), "{report:?}");
    let rock = world.manager().entities()[0].id();
    (world.manager_mut().entity_mut(rock).unwrap()).set_position(Vec3::new(4.0, 5.0, 6.5));
    let inert = &mut world.manager_mut().slice_mut::<Inert>()[0];
    inert.scale = Vec3::splat(2.0);
    inert.mass = 300.0;
    world.save_world().unwrap();
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "; Kind: Inert\nEntityID: 0x0000000000000009\nPosition: 4.0, 5.0, 6.5\n\
         Scale: 2.0, 2.0, 2.0\nMass: 300.0\nHealth: 5.0\n"
    );

    // Without commas in the file, the canonical one space; after a block, block form.
    let blocks = "; Kind\nInert\n; EntityID\n0x0000000000000009\n; Position\n1 2 3\n";
    fs::write(&file, blocks).unwrap();
    let (mut world, _) = World::load(root.path(), &LoadOptions::default()).unwrap();
    world.manager_mut().slice_mut::<Inert>()[0].scale = Vec3::splat(2.0);
    world.save_world().unwrap();
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        format!("{blocks}; Scale\n2.0 2.0 2.0\n")
    );
}

#[test]
fn an_entity_destroyed_through_the_manager_loses_its_file_at_the_save() {
    let root = tempfile::tempdir().unwrap();
    let mut world = World::new(root.path());
    let keep = world.manager_mut().make_entity::<Inert>(Vec3::ZERO);
    let gone = world.manager_mut().make_entity::<Inert>(Vec3::X);
    world.save_world().unwrap();
    let file = world.file_of(gone).unwrap().to_owned();
    assert!(file.exists());

    world.manager_mut().destroy_entity(gone).unwrap();
    let report = world.save_world().unwrap();
    assert_eq!(report.deleted, std::slice::from_ref(&file));
    assert!(!file.exists());
    let (loaded, _) = World::load(root.path(), &LoadOptions::default()).unwrap();
    assert!(loaded.manager().contains(keep) && !loaded.manager().contains(gone));
}

/// `text`, the one entity file of a world, after a load, its `Projectile`'s damage set to
/// 12 and a save.
fn saved_with_damage_12(text: &str) -> String {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("Entities");
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.jasset");
    fs::write(&file, text).unwrap();
    let (mut world, _) = World::load(root.path(), &LoadOptions::default()).unwrap();
    world
        .manager_mut()
        .slice_mut::<juliet_entities::kinds::Projectile>()[0]
        .damage = 12.0;
    world.save_world().unwrap();
    fs::read_to_string(&file).unwrap()
}

#[test]
fn an_old_version_file_written_for_a_change_is_migrated_in_place() {
    let after = saved_with_damage_12(
        "; EntityID\n0x0000000000000005\n; Kind\nProjectile\n# fast\n; ClassVersion\n1\n; Speed\n75.5\n; Damage\n10.0\n",
    );
    assert_eq!(
        after,
        "; EntityID\n0x0000000000000005\n; Kind\nProjectile\n# fast\n; ClassVersion\n2\n; VelocityX\n75.5\n; Damage\n12.0\n"
    );
}

/// A save of an older file whose migration changes a property the file holds (the v1
/// `VelocityY`, which the migration sets to 0) edits that property's value line too.
#[test]
fn a_save_of_an_old_file_edits_a_held_key_its_migration_changed() {
    let after = saved_with_damage_12(
        "; EntityID\n0x0000000000000005\n; Kind\nProjectile\n; ClassVersion\n1\n# up\n; VelocityY\n2.0\n; Speed\n75.5\n; Damage\n10.0\n",
    );
    assert_eq!(
        after,
        "; EntityID\n0x0000000000000005\n; Kind\nProjectile\n; ClassVersion\n2\n; VelocityX\n75.5\n# up\n; VelocityY\n0.0\n; Damage\n12.0\n"
    );
}

/// The comment and blank lines inside a block the migration consumes stay, with the new
/// key after them: only the deprecated key's header and value lines go.
#[test]
fn the_comments_inside_a_consumed_block_stay() {
    let after = saved_with_damage_12(
        "; EntityID\n0x0000000000000005\n; Kind\nProjectile\n; ClassVersion\n1\n; Speed\n# was 7\n\n75.5\n; Damage\n10.0\n",
    );
    assert_eq!(
        after,
        "; EntityID\n0x0000000000000005\n; Kind\nProjectile\n; ClassVersion\n2\n# was 7\n\n; VelocityX\n75.5\n; Damage\n12.0\n"
    );
}

/// A migration that replaces a deprecated key writes the new key in its place: the
/// blank lines and the comment around it stay where they were, and only the version
/// line, the replaced property's two lines and the changed value differ.
#[test]
fn a_migrated_key_takes_the_place_of_the_deprecated_one() {
    let before = "; EntityID\n0x0000000000000005\n\n; Kind\nProjectile\n\n; ClassVersion\n1\n\n\
                  # tuned by hand\n; Speed\n75.5\n\n; Damage\n10.0\n";
    let after = saved_with_damage_12(before);
    assert_eq!(
        after,
        "; EntityID\n0x0000000000000005\n\n; Kind\nProjectile\n\n; ClassVersion\n2\n\n\
         # tuned by hand\n; VelocityX\n75.5\n\n; Damage\n12.0\n"
    );
    let changed = text::changed_lines(before, &after);
    assert_eq!(
        changed,
        [("1", "2"), ("; Speed", "; VelocityX"), ("10.0", "12.0")]
    );
}

/// The in-place edit of a file of 100,000 unknown keys (an old version, so the save
/// migrates it) takes seconds: every key is found by a binary search, not searched for
/// among all the others (minutes).
#[test]
fn a_file_of_many_unknown_keys_is_migrated_in_place_keeping_every_key() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("Entities");
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.jasset");
    let mut unknown = String::new();
    for i in 0..100_000 {
        unknown.push_str(&format!("k{i:06}: 1\n"));
    }
    let head = "EntityID: 0x0000000000000005\nKind: Projectile\nClassVersion: 1\nSpeed: 75.5\n";
    fs::write(&file, format!("{head}Damage: 10.0\n{unknown}")).unwrap();
    let (done, finished) = std::sync::mpsc::channel();
    let path = root.path().to_owned();
    std::thread::spawn(move || {
        let (mut world, _) = World::load(&path, &LoadOptions::default()).unwrap();
        world
            .manager_mut()
            .slice_mut::<juliet_entities::kinds::Projectile>()[0]
            .damage = 12.0;
        done.send(world.save_world().map(|r| r.written.len()))
            .unwrap();
    });
    let written = finished
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the save finishes within a minute");
    assert_eq!(written.unwrap(), 1);
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        format!("EntityID: 0x0000000000000005\nKind: Projectile\nClassVersion: 2\nVelocityX: 75.5\nDamage: 12.0\n{unknown}")
    );
}

/// Runs of unknown keys in every form around the changed properties: the save (which
/// works the edit out without the inner keys of each run) still changes exactly the
/// changed value lines, and the file reads back with every unknown key.
#[test]
fn unknown_keys_around_changed_values_stay_as_written() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("Entities");
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rock.jasset");
    let mut text = String::from("EntityID: 0x0000000000000007\nKind: Inert\n");
    for i in 0..5 {
        text.push_str(&format!("a{i}: {i}\n"));
    }
    text.push_str("; Mass\n250.0\n; b0\nx\n; b1: 1\nb2: 2\nb3: 3\nHealth: 40.0\n");
    text.push_str("; c0\np\nq\n# between\n; c1\nr\n\n; c2: s\n; c3\nt\n; Scale: 2.0 2.0 2.0\n");
    for i in 0..7 {
        text.push_str(&format!("d{i}: {i}\n"));
    }
    fs::write(&file, &text).unwrap();
    let (mut world, report) = World::load(root.path(), &LoadOptions::default()).unwrap();
    assert!(report.errors.is_empty(), "{report:?}");
    assert!(world.save_world().unwrap().written.is_empty());

    let rock = &mut world.manager_mut().slice_mut::<Inert>()[0];
    rock.mass = 300.0;
    rock.health = 41.0;
    rock.scale = Vec3::splat(3.0);
    assert_eq!(world.save_world().unwrap().written.len(), 1);
    let expected = text
        .replace("; Mass\n250.0\n", "; Mass\n300.0\n")
        .replace("Health: 40.0\n", "Health: 41.0\n")
        .replace("; Scale: 2.0 2.0 2.0\n", "; Scale: 3.0 3.0 3.0\n");
    assert_eq!(fs::read_to_string(&file).unwrap(), expected);

    let (mut again, report) = World::load(root.path(), &LoadOptions::default()).unwrap();
    assert!(report.errors.is_empty(), "{report:?}");
    assert_eq!(
        again.manager().slice::<Inert>()[0].clone(),
        world.manager().slice::<Inert>()[0].clone()
    );
    assert!(again.save_world().unwrap().written.is_empty());
}
