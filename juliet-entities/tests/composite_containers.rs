//! Composites inside containers: a `Vec`, a map's value or an `Option` of a struct that
//! derives `Codec` is one property whose value is written as records, one `Key: value`
//! line per leaf (a `-` line before each list element, `- key` before each map entry).
//! Changing one leaf of one element changes one line; adding an element adds only its
//! lines.

mod project;
mod text;

use std::collections::{BTreeMap, HashMap};

use glam::Vec3;
use juliet_core::{PropertyType, Reflect};
use juliet_entities::{Codec, Entity, EntityId};
use project::{instance, value_of, Project};

#[derive(Codec, Clone, Debug, PartialEq, Default)]
struct Stats {
    hp: f32,
    armor: f32,
}

#[derive(Codec, Clone, Debug, PartialEq, Default)]
struct Waypoint {
    pos: Vec3,
    wait: f32,
    stats: Stats,
    label: Option<String>,
}

#[derive(Codec, Clone, Debug, PartialEq, Default)]
struct Spawn {
    count: u32,
    delay: f32,
}

#[derive(Entity, Debug, Clone, PartialEq)]
struct Patrol {
    route: Vec<Waypoint>,
    boss: Option<Stats>,
    spawns: BTreeMap<String, Spawn>,
    by_id: HashMap<u32, Spawn>,
    speed: f32,
}

fn patrol() -> Patrol {
    Patrol {
        route: vec![
            Waypoint {
                pos: Vec3::new(1.0, 0.0, -2.5),
                wait: 0.5,
                stats: Stats {
                    hp: 3.0,
                    armor: 1.0,
                },
                label: Some("gate a".into()),
            },
            Waypoint {
                pos: Vec3::ZERO,
                wait: 2.0,
                stats: Stats::default(),
                label: None,
            },
        ],
        boss: Some(Stats {
            hp: 250.0,
            armor: 12.5,
        }),
        spawns: [
            (
                "orc".to_owned(),
                Spawn {
                    count: 1,
                    delay: 4.0,
                },
            ),
            (
                "goblin".to_owned(),
                Spawn {
                    count: 3,
                    delay: 0.5,
                },
            ),
        ]
        .into_iter()
        .collect(),
        by_id: [(
            7,
            Spawn {
                count: 2,
                delay: 1.0,
            },
        )]
        .into_iter()
        .collect(),
        speed: 3.0,
    }
}

/// The file `patrol()` is written as, by the format's rules.
const PATROL: &str = "; ClassVersion\n1\n\
; Route\n\
-\nPos: 1.0 0.0 -2.5\nWait: 0.5\nStats.Hp: 3.0\nStats.Armor: 1.0\nLabel: \"gate a\"\n\
-\nPos: 0.0 0.0 0.0\nWait: 2.0\nStats.Hp: 0.0\nStats.Armor: 0.0\nLabel: ~\n\
; Boss\nHp: 250.0\nArmor: 12.5\n\
; Spawns\n- goblin\nCount: 3\nDelay: 0.5\n- orc\nCount: 1\nDelay: 4.0\n\
; ById\n- 7\nCount: 2\nDelay: 1.0\n\
; Speed\n3.0\n";

fn save(value: &Patrol) -> String {
    text::saved(value)
}

/// Loads `text` into a default `Patrol`.
fn load(text: &str) -> Result<Patrol, juliet_core::Error> {
    text::loaded(text, "patrol.jasset")
}

#[test]
fn a_container_of_composites_is_one_property_written_as_records() {
    let keys: Vec<&str> = Patrol::CLASS.properties().iter().map(|p| p.key).collect();
    assert_eq!(keys, ["Route", "Boss", "Spawns", "ById", "Speed"]);
    let PropertyType::List(PropertyType::Record { name, leaves }) =
        Patrol::CLASS.properties()[0].property_type
    else {
        panic!("{:?}", Patrol::CLASS.properties()[0].property_type)
    };
    assert_eq!(*name, "Waypoint");
    let leaf_keys: Vec<&str> = leaves.iter().map(|(key, _)| *key).collect();
    assert_eq!(leaf_keys, ["Pos", "Wait", "Stats", "Label"]);
    assert!(matches!(
        leaves[2].1,
        PropertyType::Record { name: "Stats", .. }
    ));
    assert_eq!(save(&patrol()), PATROL);
}

#[test]
fn records_round_trip_bit_exact_and_read_in_any_order_and_spelling() {
    let mut odd = patrol();
    odd.route[1].wait = -0.0;
    odd.route[1].pos = Vec3::new(f32::MIN_POSITIVE, 1e-7, 3.4028235e38);
    let back = load(&save(&odd)).unwrap();
    assert_eq!(back, odd);
    assert_eq!(back.route[1].wait.to_bits(), (-0.0f32).to_bits());

    // Leaves in another order, in snake_case, one left out (its default), and a
    // comment between the lines.
    let text = "; route\n-\nwait: 1.5\n# the gate\nstats.armor: 2\n-\n\n; boss\narmor: 1\n";
    let value = load(text).unwrap();
    assert_eq!(
        value.route,
        [
            Waypoint {
                wait: 1.5,
                stats: Stats {
                    hp: 0.0,
                    armor: 2.0
                },
                ..Waypoint::default()
            },
            Waypoint::default()
        ]
    );
    assert_eq!(
        value.boss,
        Some(Stats {
            hp: 0.0,
            armor: 1.0
        })
    );
}

#[test]
fn empty_containers_and_none_have_their_own_lines() {
    let empty = Patrol {
        route: Vec::new(),
        boss: None,
        spawns: BTreeMap::new(),
        by_id: HashMap::new(),
        speed: 0.0,
    };
    let text = save(&empty);
    assert!(
        text.contains("; Route\n[]\n; Boss\n~\n; Spawns\n{}\n; ById\n{}\n"),
        "{text}"
    );
    assert_eq!(load(&text).unwrap(), empty);
}

/// The error's line, column and message for `text`.
fn error_at(text: &str) -> (u32, u32, String) {
    let err = load(text).unwrap_err();
    (err.location.line, err.location.column, err.to_string())
}

#[test]
fn a_bad_leaf_of_an_element_is_reported_at_its_line_and_column() {
    let (line, column, message) = error_at("; Route\n-\nWait: 1.0\n-\n  Wait: soon\n");
    assert_eq!((line, column), (5, 9), "{message}");
    assert!(message.contains("Route"), "{message}");

    let (line, column, message) = error_at("; Route\n-\nWiat: 1.0\n");
    assert_eq!((line, column), (3, 1), "{message}");
    assert!(message.contains("did you mean `Wait`"), "{message}");

    let (line, _, message) = error_at("; Boss\nHp: 1\nhp: 2\n");
    assert_eq!(line, 3, "{message}");
    assert!(message.to_lowercase().contains("twice"), "{message}");

    // A record line before the first `-`, and a composite written as one value.
    let (line, _, message) = error_at("; Route\nWait: 1.0\n");
    assert_eq!(line, 2, "{message}");
    assert!(message.contains("`-` line"), "{message}");
    let (line, _, message) = error_at("; Route\n-\nStats: 5\n");
    assert_eq!(line, 3, "{message}");
    assert!(message.contains("Stats.Hp"), "{message}");

    let (line, _, message) = error_at("; Spawns\n-\nCount: 1\n");
    assert_eq!(line, 2, "{message}");
}

#[test]
fn changing_one_leaf_or_adding_an_element_changes_only_those_lines() {
    let before = save(&patrol());
    let mut value = patrol();
    value.route[1].stats.armor = 4.0;
    let after = save(&value);
    let changed = text::changed_lines(&before, &after);
    assert_eq!(changed, [("Stats.Armor: 0.0", "Stats.Armor: 4.0")]);

    value.route.push(Waypoint::default());
    let longer = save(&value);
    let added = longer.lines().count() - after.lines().count();
    assert_eq!(added, 6, "a `-` line and five leaves");
    let start = longer.find("; Boss").unwrap();
    assert_eq!(&longer[start..], &after[after.find("; Boss").unwrap()..]);
}

const PATROL_TEMPLATE: &str = "Assets/Templates/Patrol.jasset";

#[test]
fn an_instance_overrides_a_templates_some_with_none_and_a_list_as_a_whole() {
    let p = Project::new();
    p.template(
        "Patrol",
        "; Kind\nPatrol\n; Boss\nHp: 100\nArmor: 5\n; Route\n-\nWait: 1\n; Speed\n2.0\n",
    );
    p.entity("a", &instance(PATROL_TEMPLATE, 1, "; Boss\n~\n"));
    p.entity(
        "b",
        &instance(PATROL_TEMPLATE, 2, "; Route\n-\nWait: 3\n-\nWait: 4\n"),
    );
    let mut world = p.load_clean();
    let get = |world: &juliet_entities::World, id| {
        world.manager().get::<Patrol>(EntityId(id)).unwrap().clone()
    };
    let a = get(&world, 1);
    assert_eq!((a.boss, a.route.len()), (None, 1));
    let b = get(&world, 2);
    assert_eq!(
        b.boss,
        Some(Stats {
            hp: 100.0,
            armor: 5.0
        })
    );
    assert_eq!(
        b.route.iter().map(|w| w.wait).collect::<Vec<_>>(),
        [3.0, 4.0]
    );

    // Back to `Some` through reflection: the instance writes its own record.
    world
        .set_property(EntityId(1), "Boss", "Hp: 7\nArmor: 1")
        .unwrap();
    world.save_world().unwrap();
    let text = p.read_entity("a");
    assert!(text.contains("; Boss\nHp: 7.0\nArmor: 1.0\n"), "{text}");
    assert_eq!(value_of(&text, "Route"), None);

    // Revert: the template's record again.
    world.revert_property(EntityId(1), "Boss").unwrap();
    assert_eq!(
        get(&world, 1).boss,
        Some(Stats {
            hp: 100.0,
            armor: 5.0
        })
    );
}

#[test]
fn malformed_keys_of_records_and_map_entries_are_errors_at_them() {
    for (text, line) in [
        ("; Route\n-\nWait.: 1.0\n", 3),
        ("; Route\n-\n.Wait: 1.0\n", 3),
        ("; Route\n-\nStats..Hp: 1.0\n", 3),
        ("; Spawns\n- a: 1\nCount: 1\n", 2),
        ("; Spawns\n- two words\nCount: 1\n", 2),
        ("; Route\n- junk\nWait: 1.0\n", 2),
    ] {
        let (at, _, message) = error_at(text);
        assert_eq!(at, line, "{text:?}: {message}");
    }
    // A quoted key with a blank is one key.
    let value = load("; Spawns\n- \"big orc\"\nCount: 2\n").unwrap();
    assert_eq!(value.spawns["big orc"].count, 2);
}
