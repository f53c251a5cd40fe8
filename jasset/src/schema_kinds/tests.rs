use std::fs;

use super::*;
use juliet_core::Reflect;
use juliet_entities::world::{LoadOptions, World};

/// A project whose schema is `schema`, with one world file `rest` of kind `kind`.
fn project(schema: &str, kind: &str, rest: &str) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let entities = root.path().join("Assets/Worlds/W/Entities");
    fs::create_dir_all(&entities).unwrap();
    fs::write(root.path().join(SCHEMA_FILE), schema).unwrap();
    fs::write(
        entities.join("a.jasset"),
        format!("; EntityID\n7\n; Kind\n{kind}\n{rest}"),
    )
    .unwrap();
    root
}

const TURRET: &str = "; AssetType\nSchema\n; Turret\nversion 2\n\
    property Range f32 100.0\nproperty Mode enum(Idle|Hunt) Idle\n\
    property Targets list(u32) []\ndeprecated Reach\n";

fn load(root: &Path) -> (World, juliet_entities::world::LoadReport) {
    let options = LoadOptions {
        registry: Some(registry_for(Some(root)).unwrap()),
        project_root: Some(root.to_path_buf()),
        ..LoadOptions::default()
    };
    World::load(root.join("Assets/Worlds/W"), &options).unwrap()
}

#[test]
fn a_schema_kind_loads_saves_and_keeps_its_defaults() {
    let root = project(TURRET, "Turret", "; Mode\nhunt\n; Targets\n3\n4\n");
    let (mut world, report) = load(root.path());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.loaded, 1);
    let id = world.manager().entities()[0].id();
    let mut text = String::new();
    world.entity_text(id, &mut text).unwrap();
    assert!(
        text.ends_with("; ClassVersion\n2\n; Range\n100.0\n; Mode\nHunt\n; Targets\n3\n4\n"),
        "{text}"
    );
    // A stock kind still loads through the same registry.
    let registry = registry_for(Some(root.path())).unwrap();
    assert!(registry.find_by_name("Inert").is_some());
    assert!(registry.find_by_name("turret").is_some());
    world.save_world().unwrap();
}

#[test]
fn a_bad_value_of_a_schema_kind_is_named_at_its_line_and_column() {
    let root = project(TURRET, "Turret", "; Range\nfar\n");
    let (_, report) = load(root.path());
    assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
    let e = &report.errors[0];
    assert_eq!((e.location.line, e.location.column), (6, 1), "{e}");
    assert!(
        e.to_string()
            .ends_with("`Range`: expected f32, found \"far\": not a valid number"),
        "{e}"
    );
}

/// A kind only the schema knows, with records in a list and in an `Option`.
const GUARD: &str = "; AssetType\nSchema\n; Guard\nversion 1\n\
    property Route list(record(Waypoint(Pos:floats3,Wait:f32))) []\n\
    property Alarm option(record(Alarm(Delay:f32,Trigger:enum(Never|Timer(0:f32))))) ~\n";

#[test]
fn the_records_of_a_schema_kind_are_read_leaf_by_leaf() {
    let good = "; Route\n-\nPos: 1 2 3\nWait: 0.5\n-\nPos: 0 0 0\n\
                ; Alarm\nDelay: 2\nTrigger: Timer\nTrigger.0: 4\n";
    let root = project(GUARD, "Guard", good);
    let (_, report) = load(root.path());
    assert!(report.errors.is_empty(), "{:?}", report.errors);

    // Lines 5 and 6 are `; Route` and `-`: the misspelt leaf is on line 8.
    let misspelt = "; Route\n-\nPos: 1 2 3\nWat: 0.5\n";
    let root = project(GUARD, "Guard", misspelt);
    let (_, report) = load(root.path());
    assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
    let e = &report.errors[0];
    assert_eq!((e.location.line, e.location.column), (8, 1), "{e}");
    assert!(
        e.to_string()
            .ends_with("no leaf `Wat` (did you mean `Wait`?): the leaves here are Pos, Wait"),
        "{e}"
    );

    let bad_leaf = "; Alarm\nDelay: soon\n";
    let (_, report) = load(project(GUARD, "Guard", bad_leaf).path());
    assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
    let e = &report.errors[0];
    assert_eq!((e.location.line, e.location.column), (6, 8), "{e}");
    assert!(
        e.to_string().contains("found \"soon\": not a valid number"),
        "{e}"
    );

    // A field of a variant not in use, and a leaf twice.
    for (text, message) in [
        (
            "; Alarm\nTrigger: Never\nTrigger.0: 4\n",
            "no leaf `0`: this value has no leaves",
        ),
        ("; Route\n-\nWait: 1\nwait: 2\n", "written twice"),
    ] {
        let (_, report) = load(project(GUARD, "Guard", text).path());
        assert_eq!(report.errors.len(), 1, "{text}: {:?}", report.errors);
        let e = report.errors[0].to_string();
        assert!(e.to_lowercase().contains(message), "{text}: {e}");
    }
}

#[test]
fn an_older_file_of_a_schema_kind_needs_the_games_code() {
    let root = project(TURRET, "Turret", "; ClassVersion\n1\n; Reach\n3.0\n");
    let (_, report) = load(root.path());
    assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
    let e = report.errors[0].to_string();
    assert!(
        e.contains(":5:3: error: `ClassVersion`: migration from class version 1"),
        "{e}"
    );
    assert!(e.contains("needs the game's code"), "{e}");
}

#[test]
fn an_unknown_type_is_named_at_the_schemas_line_and_column() {
    let schema = "; AssetType\nSchema\n; Crate\nversion 1\nproperty Mass f32 1.0\n\
                  property Tint colour 0\n";
    let root = project(schema, "Crate", "");
    let err = registry_for(Some(root.path())).unwrap_err();
    let shown = root.path().join(SCHEMA_FILE).display().to_string();
    assert!(
        err.to_string().starts_with(&format!(
            "{shown}:6:15: class `Crate`: property `Tint`: unknown type `colour`"
        )),
        "{}",
        err.to_string()
    );
    assert_eq!(err.code(), 1);
}

#[test]
fn a_default_that_does_not_read_as_its_type_is_named() {
    let schema = "; AssetType\nSchema\n; Crate\nversion 1\nproperty Mass f32 heavy\n";
    let root = project(schema, "Crate", "");
    let err = registry_for(Some(root.path())).unwrap_err();
    assert!(
        err.to_string()
            .contains(":5:19: class `Crate`: property `Mass`: default \"heavy\""),
        "{}",
        err.to_string()
    );
    // So is a variant's field's value on a switch, at the variant leaf's type.
    let schema = "; AssetType\nSchema\n; Crate\nversion 1\n\
                  property Lid enum(Shut|Open(Angle:f32=wide)) Shut\nproperty Lid.Angle f32\n";
    let root = project(schema, "Crate", "");
    let err = registry_for(Some(root.path())).unwrap_err().to_string();
    assert!(
        err.contains(":5:14: class `Crate`: property `Lid`: default \"wide\" is not a"),
        "{err}"
    );
}

#[test]
fn a_compiled_kind_wins_unless_the_game_replaced_a_stock_kind() {
    // `Inert` as the stock kind exports it: the compiled class stays.
    let inert = super::super::schema::export(&[<juliet_entities::kinds::Inert as Reflect>::CLASS]);
    let schema = format!("{inert}; Projectile\nversion 1\nproperty Owner string \"\"\n");
    let root = project(&schema, "Projectile", "; Owner\nme\n");
    let registry = registry_for(Some(root.path())).unwrap();
    let compiled = <juliet_entities::kinds::Inert as Reflect>::CLASS;
    assert!(std::ptr::eq(
        registry.find_by_name("Inert").unwrap(),
        compiled
    ));
    // `Projectile` differs from the stock one: the game's layout is the schema's.
    let projectile = registry.find_by_name("Projectile").unwrap();
    assert_eq!(projectile.properties().len(), 1);
    assert_eq!(projectile.properties()[0].key, "Owner");
    assert_eq!(registry.replaced().len(), 1);
    let (_, report) = load(root.path());
    assert!(
        report.errors.is_empty() && report.warnings.is_empty(),
        "{report:?}"
    );
}

#[test]
fn type_words_read_as_the_exported_ones() {
    for word in [
        "bool",
        "u64",
        "floats3",
        "enum(A|B)",
        "list(string)",
        "list(list(u8))",
        "option(f32)",
        "array(u8,4)",
        "map(string,list(f32))",
        "set(u32)",
        "i128",
        "char",
        "custom(Rgba)",
        "record(Waypoint)",
        "record(Waypoint(Pos:floats3,Wait:f32))",
        "list(record(Stop(At:floats3,Trigger:enum(Never|Timer(0:f32)))))",
        "map(string,record(Spawn(Count:u32,Kinds:list(string))))",
        "enum(Never|OnTouch(Radius:f32,Once:bool)|Timer(0:f32))",
        "enum(Off|Cells(Grid:list(list(u8)),Names:map(string,f32)))",
    ] {
        let ty = parse_type(word).unwrap_or_else(|| panic!("{word}"));
        assert_eq!(super::super::schema::type_name(ty), word);
    }
    for word in [
        "floats0",
        "floats17",
        "enum()",
        "enum(A||B)",
        "enum(A|B(Radius))",
        "enum(A|B(Radius:f32)",
        "enum(A|B(Radius:vec3))",
        "record(W(Pos))",
        "record((X:f32))",
        "record(W(X:f32)",
        "map(string)",
        "array(u8,four)",
        "vec3",
        "",
    ] {
        assert!(parse_type(word).is_none(), "{word}");
    }
}

/// Value-model fields as a game writes them, for the schema's round trip.
mod value_model {
    use juliet_entities::{Codec, Entity};

    #[derive(Codec, Clone, Debug, PartialEq, Default)]
    pub(super) enum Trigger {
        #[default]
        Never,
        OnTouch {
            radius: f32,
        },
        Timer(f32),
    }

    #[derive(Codec, Clone, Debug, PartialEq, Default)]
    pub(super) struct Waypoint {
        pub(super) pos: glam::Vec3,
        pub(super) wait: f32,
    }

    #[derive(Entity, Clone, Debug, PartialEq)]
    pub(super) struct Patrol {
        pub(super) trigger: Trigger,
        pub(super) route: Vec<Waypoint>,
        pub(super) backup: Option<Trigger>,
    }
}

#[test]
fn enums_with_data_and_records_go_through_the_schema() {
    let schema = super::super::schema::export(&[<value_model::Patrol as Reflect>::CLASS]);
    assert!(
        schema.contains("property Trigger enum(Never|OnTouch(Radius:f32)|Timer(0:f32)) Never\n"),
        "{schema}"
    );
    // The default variant has no `Radius`: no default, a leaf absent until read.
    assert!(schema.contains("property Trigger.Radius f32\n"), "{schema}");
    assert!(
        schema.contains("property Route list(record(Waypoint(Pos:floats3,Wait:f32))) []\n"),
        "{schema}"
    );
    assert!(
        schema.contains("property Backup option(enum(Never|OnTouch(Radius:f32)|Timer(0:f32))) ~\n"),
        "{schema}"
    );
    let file = "; Trigger\nOnTouch\n; Trigger.Radius\n2.5\n; Route\n-\nPos: 1 2 3\nWait: 0.5\n\
                ; Backup\nTimer\n0: 4\n";
    let root = project(&schema, "Patrol", file);
    let (mut world, report) = load(root.path());
    assert!(
        report.errors.is_empty() && report.warnings.is_empty(),
        "{report:?}"
    );
    let id = world.manager().entities()[0].id();
    world.set_property(id, "Trigger.Radius", "3").unwrap();
    world.save_world().unwrap();
    let saved = fs::read_to_string(root.path().join("Assets/Worlds/W/Entities/a.jasset")).unwrap();
    assert!(
        saved.contains("; Trigger.Radius\n3.0\n; Route\n-\nPos: 1 2 3\n"),
        "{saved}"
    );

    // `inspect` shows the variant's fields and not the other variants'.
    let args = crate::inspect::InspectArgs {
        file: root.path().join("Assets/Worlds/W/Entities/a.jasset"),
        root: Some(root.path().to_path_buf()),
        json: true,
    };
    let mut out = Vec::new();
    crate::inspect::run(&args, &mut out).unwrap();
    let shown = String::from_utf8(out).unwrap();
    assert!(shown.contains("\"Trigger.Radius\": 3.0"), "{shown}");
    assert!(!shown.contains("Trigger.0"), "{shown}");
}

/// What one tool makes of a file: each error's line, column, key and what it says, and
/// the entity's text as a save writes it (its `Kind` line left out; empty when the file
/// did not load).
type Outcome = (Vec<(u32, u32, String)>, String);

/// What the game's own tool (its compiled `class`) and the stock tool (the schema the
/// game exports, the class renamed `Stock` + its name so that no compiled class answers
/// for it) make of the file of `rest`.
fn game_and_stock(class: &'static Class, rest: &str) -> [Outcome; 2] {
    let outcome = |(mut world, report): (World, juliet_entities::world::LoadReport)| {
        let errors = (report.errors.into_iter())
            .map(|e| {
                let key = e.key.clone().unwrap_or_default();
                (
                    e.location.line,
                    e.location.column,
                    format!("`{key}`: {}", e.kind),
                )
            })
            .collect();
        let mut text = String::new();
        if let Some(e) = world.manager().entities().first() {
            world.entity_text(e.id(), &mut text).unwrap();
        }
        let lines = text.lines().filter(|l| !l.contains(class.name()));
        (errors, lines.collect::<Vec<_>>().join("\n"))
    };
    let game = project("", class.name(), rest);
    let loaded = load_game(game.path(), class);
    let stock = stock_project(class, rest);
    [outcome(loaded), outcome(load(stock.path()))]
}

/// The world of the project at `root` as the game's own tool loads it (its compiled
/// `class` alone).
fn load_game(root: &Path, class: &'static Class) -> (World, juliet_entities::world::LoadReport) {
    let options = LoadOptions {
        registry: Some(Box::leak(Box::new(Registry::new([class]).unwrap()))),
        project_root: Some(root.to_path_buf()),
        ..LoadOptions::default()
    };
    World::load(root.join("Assets/Worlds/W"), &options).unwrap()
}

/// The project of [`project`] with the file of `rest` for the stock tool: the schema the
/// game exports for `class`, the class renamed `Stock` + its name so that no compiled
/// class answers for it.
fn stock_project(class: &'static Class, rest: &str) -> tempfile::TempDir {
    let renamed = format!("Stock{}", class.name());
    let schema = super::super::schema::export(&[class])
        .replace(&format!("; {}\n", class.name()), &format!("; {renamed}\n"));
    let stock = project(&schema, &renamed, rest);
    let registry = registry_for(Some(stock.path())).unwrap();
    assert!(!std::ptr::eq(
        registry.find_by_name(&renamed).unwrap(),
        class
    ));
    stock
}

/// Runs `jasset ARGS` in the project at `root`: whether it exits 0, and its report with
/// the root's path written `ROOT`.
fn jasset(root: &Path, args: &[&str]) -> (bool, String) {
    use clap::Parser;
    let cli =
        crate::Cli::try_parse_from(std::iter::once("jasset").chain(args.iter().copied())).unwrap();
    let mut out = Vec::new();
    let status = crate::run_with(cli.command, &mut out).unwrap();
    let report = String::from_utf8(out).unwrap();
    let root = root.display().to_string();
    (
        status == crate::Status::Success,
        report.replace(&root, "ROOT"),
    )
}

/// What `jasset set FILE ASSIGNMENTS` does to the file of `rest` with the game's own tool
/// (the compiled `class`, in a project without a schema) and with the stock tool (as
/// [`game_and_stock`]): whether `set` exits 0 and its report, the file after it (its
/// `Kind` line left out), and whether `check` accepts the project then.
fn set_with_game_and_stock(
    class: &'static Class,
    rest: &str,
    assignments: &[&str],
) -> [SetOutcome; 2] {
    let game = project("", class.name(), rest);
    fs::remove_file(game.path().join(SCHEMA_FILE)).unwrap();
    [game, stock_project(class, rest)].map(|root| set_in(root.path(), class, assignments))
}

/// What `jasset set FILE ASSIGNMENTS` does to the file of [`project`] at `root`, of
/// `class` (or the stock tool's class named after it): whether `set` exits 0 and its
/// report, the file after it (its lines naming the class left out), and whether `check`
/// accepts the project then.
fn set_in(root: &Path, class: &'static Class, assignments: &[&str]) -> SetOutcome {
    let file = root.join("Assets/Worlds/W/Entities/a.jasset");
    let file = file.to_str().unwrap();
    let (set, report) = jasset(root, &[&["set", file][..], assignments].concat());
    let text = fs::read_to_string(file).unwrap();
    let text: Vec<&str> = text.lines().filter(|l| !l.contains(class.name())).collect();
    let (checked, _) = jasset(root, &["check", file]);
    (set, report, text.join("\n"), checked)
}

/// Maps and sets as a game's fields hold them.
mod containers {
    use std::collections::{BTreeMap, BTreeSet, HashMap};

    use juliet_entities::Entity;

    #[derive(Entity, Clone, Debug, PartialEq)]
    pub(super) struct Bag {
        pub(super) weights: HashMap<String, f32>,
        pub(super) ids: BTreeSet<u32>,
        pub(super) spawns: BTreeMap<String, super::value_model::Waypoint>,
    }
}

#[test]
fn a_key_or_element_twice_is_refused_at_its_line_as_the_game_refuses_it() {
    let bag = <containers::Bag as Reflect>::CLASS;
    // Lines 1 to 4 are the entity's header; each value's fault is on line 8.
    for (rest, at) in [
        ("; Weights\nrock: 2\ntree: 1\n\"rock\": 3\n", (8, 1)),
        ("; Ids\n1\n30\n01\n", (8, 1)),
        ("; Spawns\n- orc\nWait: 1\n- orc\n", (8, 3)),
    ] {
        let [game, (stock, _)] = game_and_stock(bag, rest);
        assert_eq!(game.0, stock, "{rest}");
        assert_eq!(stock.len(), 1, "{rest}");
        assert_eq!((stock[0].0, stock[0].1), at, "{rest}: {stock:?}");
        assert!(
            stock[0].2.ends_with("written twice in this value"),
            "{stock:?}"
        );
    }
}

/// An enum with data as a field: a field of another variant than the one the file gave
/// is an error at the field's value, a field with no variant line takes its variant,
/// a variant line after a field gives that variant with its fields' zero values, and
/// the variant is one line: the stock tool reads each as the game's own tool does.
#[test]
fn the_leaves_of_an_enum_with_data_are_read_as_the_game_reads_them() {
    let patrol = <value_model::Patrol as Reflect>::CLASS;
    // Lines 1 to 4 are the entity's header.
    for (rest, error_at) in [
        ("; Trigger\nTimer\n; Trigger.Radius\n1\n", Some((8, 1))),
        ("; Trigger: Timer\n; Trigger.Radius: 1\n", Some((6, 19))),
        ("; Trigger\nOnTouch\nRadius: 2\n", Some((7, 1))),
        ("; Trigger.Radius\n2.5\n", None),
        ("; Trigger.Radius\n2.5\n; Trigger\nTimer\n", None),
        (
            "; Trigger\nOnTouch\n; Trigger.Radius\n2.5\n; Trigger.0\n3\n",
            Some((10, 1)),
        ),
        ("; Trigger\ntimer\n; trigger.0\n4\n", None),
    ] {
        let [game, stock] = game_and_stock(patrol, rest);
        assert_eq!(game, stock, "{rest}");
        let at = stock.0.first().map(|e| (e.0, e.1));
        assert_eq!(at, error_at, "{rest}: {stock:?}");
    }
    let [_, (_, text)] = game_and_stock(patrol, "; Trigger.Radius\n2.5\n");
    assert!(
        text.contains("; Trigger\nOnTouch\n; Trigger.Radius\n2.5\n"),
        "{text}"
    );
    let [_, (errors, _)] = game_and_stock(patrol, "; Trigger\nTimer\n; Trigger.Radius\n1\n");
    assert!(
        errors[0]
            .2
            .contains("`Radius` is a field of `OnTouch`, not of `Timer`, the variant in use"),
        "{errors:?}"
    );
}

/// What [`set_with_game_and_stock`] gives for one tool.
type SetOutcome = (bool, String, String, bool);

/// Runs `set` on a `Patrol` with each of `cases` (the file's properties, the
/// assignments and whether `set` succeeds) through both tools: the stock tool writes
/// what the game's own tool writes (or refuses what it refuses, writing nothing), and
/// `check` accepts the file either way. The stock tool's outcome of each case.
fn assert_set_as_the_game(cases: &[(&str, &[&str], bool)]) -> Vec<SetOutcome> {
    let patrol = <value_model::Patrol as Reflect>::CLASS;
    let mut outcomes = Vec::new();
    for &(rest, assignments, set) in cases {
        let [game, stock] = set_with_game_and_stock(patrol, rest, assignments);
        assert_eq!(game, stock, "{rest} {assignments:?}");
        assert_eq!(stock.0, set, "{rest} {assignments:?}: {stock:?}");
        assert!(stock.3, "{rest} {assignments:?}: check refuses {stock:?}");
        outcomes.push(stock);
    }
    outcomes
}

const TOUCH: &str = "; Trigger\nOnTouch\n; Trigger.Radius\n2.5\n";
const TIMER: &str = "; Trigger\nTimer\n; Trigger.0\n4\n";

/// `set` of an enum's variant through the stock tool writes what the game's own tool
/// writes: another variant with its fields' zero values, the old variant's field lines
/// dropped; the variant in use keeps its fields.
#[test]
fn setting_the_variant_drops_the_old_variants_fields_as_the_game_does() {
    let outcomes = assert_set_as_the_game(&[
        (TOUCH, &["Trigger=Timer"], true),
        (TOUCH, &["trigger=ontouch"], true),
        (TOUCH, &["Trigger=Timer", "Trigger.0=7"], true),
        (TIMER, &["Trigger=OnTouch", "Trigger.Radius=1"], true),
    ]);
    let text = &outcomes[0].2;
    assert!(
        text.ends_with("; Trigger\nTimer\n; Trigger.0\n0.0"),
        "{text}"
    );
    assert!(!text.contains("Radius"), "{text}");
}

/// `set` of a field of a variant not in use through the stock tool is refused, the
/// whole command and nothing written, as the game's own tool refuses it: a set field
/// does not take its variant (a file's field without a variant line does).
#[test]
fn setting_a_field_of_a_variant_not_in_use_is_refused_as_the_game_refuses_it() {
    let outcomes = assert_set_as_the_game(&[
        (TIMER, &["Trigger.Radius=3"], false),
        (TOUCH, &["Trigger=Timer", "Trigger.Radius=3"], false),
        ("", &["Trigger.Radius=3"], false),
    ]);
    let (_, report, text, _) = &outcomes[0];
    assert!(
        report.contains("`Radius` is a field of `OnTouch`, not of `Timer`, the variant in use"),
        "{report}"
    );
    assert!(text.ends_with(TIMER.trim_end()), "{text}");
}

mod templates;
mod words;

/// An enum with data whose variant has a field of a unit enum whose default is not its
/// first variant.
mod alarm_model {
    use juliet_entities::{Codec, Entity};

    #[derive(Codec, Clone, Copy, Debug, PartialEq, Default)]
    pub(super) enum Mood {
        Calm,
        #[default]
        Angry,
    }

    #[derive(Codec, Clone, Debug, PartialEq, Default)]
    pub(super) enum Alarm {
        #[default]
        Off,
        Armed {
            mood: Mood,
        },
    }

    #[derive(Entity, Clone, Debug, PartialEq)]
    pub(super) struct Sentry {
        pub(super) alarm: Alarm,
    }
}

/// A variant switched to, by a file's line or by `set`, gives its field of a unit enum
/// the enum's default (`#[default]`), as the game's own tool does, not its first variant.
#[test]
fn a_switched_to_variants_unit_enum_field_is_its_default_as_the_games() {
    let sentry = <alarm_model::Sentry as Reflect>::CLASS;
    let schema = super::super::schema::export(&[sentry]);
    let word = "property Alarm enum(Off|Armed(Mood:enum(Calm|Angry)=Angry)) Off\n";
    assert!(schema.contains(word), "{schema}");
    let [game, stock] = game_and_stock(sentry, "; Alarm\nArmed\n");
    assert_eq!(game, stock);
    assert!(
        stock.1.ends_with("; Alarm\nArmed\n; Alarm.Mood\nAngry"),
        "{stock:?}"
    );
    let [game, stock] = set_with_game_and_stock(sentry, "", &["Alarm=Armed"]);
    assert_eq!(game, stock);
}
