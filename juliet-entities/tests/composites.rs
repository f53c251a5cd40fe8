//! Composites: `#[derive(Codec)]` on a struct makes each of its fields a leaf of its own,
//! keyed by its path (`Stats.Hp`, `Loadout.Stats.Armor`, `Range.0`), so that a file
//! changes one line per leaf, an instance overrides one leaf and still follows the
//! template's others, and revert works per leaf.

mod project;
mod text;

use std::path::Path;

use juliet_core::{Archive, Reflect, TokenBuffer};
use juliet_entities::{Codec, Entity, EntityId};
use project::{instance, value_of, Project};

#[derive(Codec, Clone, Debug, PartialEq, Default)]
struct Stats {
    hp: f32,
    armor: f32,
}

#[derive(Codec, Clone, Debug, PartialEq, Default)]
struct Loadout {
    stats: Stats,
    #[jasset(rename = "Rounds")]
    ammo: u32,
    #[jasset(skip)]
    cached: u64,
}

/// A tuple struct: its leaves are keyed by position.
#[derive(Codec, Clone, Debug, PartialEq, Default)]
struct Range(f32, f32);

#[derive(Entity, Debug, Clone, PartialEq)]
struct Guard {
    name: String,
    stats: Stats,
    loadout: Loadout,
    range: Range,
    speed: f32,
}

/// The leaves of a `Guard`, in table order (its `Name` is one value).
const LEAVES: [&str; 8] = [
    "Stats.Hp",
    "Stats.Armor",
    "Loadout.Stats.Hp",
    "Loadout.Stats.Armor",
    "Loadout.Rounds",
    "Range.0",
    "Range.1",
    "Speed",
];

fn guard() -> Guard {
    Guard {
        name: "Ada".into(),
        stats: Stats {
            hp: 10.0,
            armor: 2.5,
        },
        loadout: Loadout {
            stats: Stats {
                hp: 1.0,
                armor: 0.5,
            },
            ammo: 30,
            cached: 99,
        },
        range: Range(0.5, 8.0),
        speed: 3.0,
    }
}

#[test]
fn each_leaf_is_a_property_of_its_own_keyed_by_its_path() {
    let keys: Vec<&str> = Guard::CLASS.properties().iter().map(|p| p.key).collect();
    assert_eq!(
        keys,
        std::iter::once("Name").chain(LEAVES).collect::<Vec<_>>()
    );
    let mut text = String::new();
    guard().save(&mut Archive::saving(&mut text));
    assert_eq!(
        text,
        "; ClassVersion\n1\n; Name\nAda\n; Stats.Hp\n10.0\n; Stats.Armor\n2.5\n\
         ; Loadout.Stats.Hp\n1.0\n; Loadout.Stats.Armor\n0.5\n; Loadout.Rounds\n30\n\
         ; Range.0\n0.5\n; Range.1\n8.0\n; Speed\n3.0\n"
    );
}

/// Loads `text` into a default `Guard`.
fn load(text: &str) -> Result<Guard, juliet_core::Error> {
    text::loaded(text, "guard.jasset")
}

#[test]
fn leaves_load_in_any_order_and_any_spelling_and_missing_ones_keep_their_defaults() {
    let mut saved = String::new();
    guard().save(&mut Archive::saving(&mut saved));
    let mut expected = guard();
    expected.loadout.cached = 0; // skipped: not in the file
    assert_eq!(load(&saved).unwrap(), expected);

    let text = "range.1: 4\n; loadout.stats.armor\n7\n; Stats.Hp: 3\n";
    let value = load(text).unwrap();
    assert_eq!(value.range, Range(0.0, 4.0));
    assert_eq!(
        value.loadout.stats,
        Stats {
            hp: 0.0,
            armor: 7.0
        }
    );
    assert_eq!(
        value.stats,
        Stats {
            hp: 3.0,
            armor: 0.0
        }
    );
}

#[test]
fn a_bad_leaf_is_reported_at_its_line_with_its_path() {
    let err = load("; Name\nAda\n; Loadout.Stats.Hp\nlots\n").unwrap_err();
    assert_eq!((err.location.line, err.location.column), (4, 1), "{err}");
    assert_eq!(err.key.as_deref(), Some("Loadout.Stats.Hp"), "{err}");
}

const GUARD: &str = "Assets/Templates/Guard.jasset";

#[test]
fn an_instance_overrides_one_leaf_and_follows_the_templates_others() {
    let p = Project::new();
    p.template(
        "Guard",
        "; Kind\nGuard\n; Stats.Hp\n100.0\n; Stats.Armor\n5.0\n; Speed\n2.0\n",
    );
    p.entity("g", &instance(GUARD, 1, "; Stats.Hp\n40.0\n"));
    let mut world = p.load_clean();
    let stats = |world: &juliet_entities::World| {
        world
            .manager()
            .get::<Guard>(EntityId(1))
            .unwrap()
            .stats
            .clone()
    };
    assert_eq!(
        stats(&world),
        Stats {
            hp: 40.0,
            armor: 5.0
        }
    );

    // The template's armor changes: the instance follows it, keeping its own hp.
    p.template(
        "Guard",
        "; Kind\nGuard\n; Stats.Hp\n100.0\n; Stats.Armor\n9.0\n; Speed\n2.0\n",
    );
    world.reload_template(GUARD).unwrap();
    assert_eq!(
        stats(&world),
        Stats {
            hp: 40.0,
            armor: 9.0
        }
    );

    // One leaf set through reflection: one line of the file changes.
    world
        .set_property(EntityId(1), "Stats.Armor", "1.5")
        .unwrap();
    world.save_world().unwrap();
    let text = p.read_entity("g");
    assert_eq!(value_of(&text, "Stats.Hp").as_deref(), Some("40.0"));
    assert_eq!(value_of(&text, "Stats.Armor").as_deref(), Some("1.5"));
    assert_eq!(value_of(&text, "Speed"), None);

    // Revert of one leaf: the template's value, and the other override stays.
    world.revert_property(EntityId(1), "Stats.Hp").unwrap();
    assert_eq!(
        stats(&world),
        Stats {
            hp: 100.0,
            armor: 1.5
        }
    );
    world.save_world().unwrap();
    let text = p.read_entity("g");
    assert_eq!(value_of(&text, "Stats.Hp"), None);
    assert_eq!(value_of(&text, "Stats.Armor").as_deref(), Some("1.5"));
}

/// Health fields that several kinds share, lifted into each kind's own keys.
#[derive(Codec, Clone, Debug, PartialEq, Default)]
struct Health {
    max_health: f32,
    regen: f32,
}

#[derive(Entity, Debug, Clone, PartialEq)]
struct Turret {
    #[jasset(flatten)]
    health: Health,
    turn_rate: f32,
}

#[test]
fn a_flattened_composites_leaves_are_the_classs_own_keys() {
    let keys: Vec<&str> = Turret::CLASS.properties().iter().map(|p| p.key).collect();
    assert_eq!(keys, ["MaxHealth", "Regen", "TurnRate"]);
    let turret = Turret {
        health: Health {
            max_health: 80.0,
            regen: 0.5,
        },
        turn_rate: 90.0,
    };
    let mut text = String::new();
    turret.save(&mut Archive::saving(&mut text));
    assert_eq!(
        text,
        "; ClassVersion\n1\n; MaxHealth\n80.0\n; Regen\n0.5\n; TurnRate\n90.0\n"
    );
    let mut buffer = TokenBuffer::new();
    let doc = buffer
        .tokenize(b"; Regen\n2\n; max_health\n10\n", Path::new("t.jasset"))
        .unwrap();
    let mut loaded = Turret::default_value();
    loaded.load(&mut Archive::loading(doc)).unwrap();
    assert_eq!(
        loaded.health,
        Health {
            max_health: 10.0,
            regen: 2.0
        }
    );
}

/// A leaf's value text for a number `n` (an `f32`, or the `u32` of `Loadout.Rounds`).
fn leaf_text(leaf: usize, n: u16) -> String {
    if LEAVES[leaf] == "Loadout.Rounds" {
        n.to_string()
    } else {
        format!("{}.5", n)
    }
}

mod per_leaf_edits {
    use super::*;
    use proptest::prelude::*;

    /// One leaf as the hand-written file writes it: its value, inline or block form,
    /// snake_case spelling, a comment before it.
    type Written = (usize, u16, bool, bool, bool);

    fn file() -> impl Strategy<Value = Vec<Written>> {
        let looks = proptest::collection::vec(
            (any::<u16>(), any::<bool>(), any::<bool>(), any::<bool>()),
            LEAVES.len(),
        );
        (
            Just((0..LEAVES.len()).collect::<Vec<_>>()).prop_shuffle(),
            looks,
        )
            .prop_map(|(order, looks)| {
                order
                    .into_iter()
                    .zip(looks)
                    .map(|(leaf, (n, inline, snake, comment))| (leaf, n, inline, snake, comment))
                    .collect()
            })
    }

    /// The file's text, and the 0-based line of each leaf's value.
    fn text(written: &[Written]) -> (String, Vec<usize>) {
        let mut lines = vec![
            "; EntityID".to_owned(),
            "0x0000000000000001".to_owned(),
            "; Kind: Guard".to_owned(),
        ];
        let mut value_line = vec![0; LEAVES.len()];
        for &(leaf, n, inline, snake, comment) in written {
            if comment {
                lines.push(format!("# about {}", LEAVES[leaf]));
            }
            let key = if snake {
                LEAVES[leaf].to_ascii_lowercase()
            } else {
                LEAVES[leaf].to_owned()
            };
            if inline {
                value_line[leaf] = lines.len();
                lines.push(format!("; {key}: {}", leaf_text(leaf, n)));
            } else {
                lines.push(format!("; {key}"));
                value_line[leaf] = lines.len();
                lines.push(leaf_text(leaf, n));
            }
        }
        (lines.join("\n") + "\n", value_line)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn a_save_changes_exactly_the_lines_of_the_changed_leaves(
            written in file(),
            edits in proptest::collection::btree_map(0..LEAVES.len(), any::<u16>(), 0..=4),
        ) {
            let p = Project::new();
            let (before, value_line) = text(&written);
            p.entity("g", &before);
            let mut world = p.load_clean();
            let mut changed = Vec::new();
            for (&leaf, &n) in &edits {
                let old = written.iter().find(|w| w.0 == leaf).unwrap().1;
                if n != old {
                    changed.push(value_line[leaf]);
                }
                world.set_property(EntityId(1), LEAVES[leaf], &leaf_text(leaf, n)).unwrap();
            }
            world.save_world().unwrap();
            let after = p.read_entity("g");
            let (old, new): (Vec<&str>, Vec<&str>) = (before.lines().collect(), after.lines().collect());
            prop_assert_eq!(old.len(), new.len(), "{}\n---\n{}", before, after);
            let mut differ: Vec<usize> = (0..old.len()).filter(|&i| old[i] != new[i]).collect();
            differ.sort_unstable();
            changed.sort_unstable();
            prop_assert_eq!(differ, changed, "{}\n---\n{}", before, after);
        }
    }
}
