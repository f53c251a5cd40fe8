//! A schema kind's enum with data in a template and its instances, through the stock
//! tool and the game's own tool on the same files: reverting a leaf, which leaves an
//! instance overrides, a template's change reaching its instances and applying an
//! instance's leaf to its template.

use super::*;

const TEMPLATE: &str = "Assets/Templates/Patrol.jasset";

/// The `Patrol` class the game compiles.
fn patrol() -> &'static Class {
    <value_model::Patrol as Reflect>::CLASS
}

/// The game's own project and the stock tool's (as [`set_with_game_and_stock`]), each
/// with the template [`TEMPLATE`] of properties `template` and its instance `a.jasset`
/// (id 7) of properties `instance`.
fn projects(template: &str, instance: &str) -> [tempfile::TempDir; 2] {
    let rest = format!("; Template\n{TEMPLATE}\n{instance}");
    let game = project("", patrol().name(), &rest);
    fs::remove_file(game.path().join(SCHEMA_FILE)).unwrap();
    let projects = [game, stock_project(patrol(), &rest)];
    for root in &projects {
        write_template(root.path(), template);
    }
    projects
}

/// Writes the template [`TEMPLATE`] of properties `template` in the project at `root`,
/// of the kind its tool knows as `Patrol` (the stock tool's when it has a schema).
fn write_template(root: &Path, template: &str) {
    let stock = root.join(SCHEMA_FILE).is_file();
    let kind = format!("{}{}", if stock { "Stock" } else { "" }, patrol().name());
    fs::create_dir_all(root.join("Assets/Templates")).unwrap();
    fs::write(root.join(TEMPLATE), format!("; Kind\n{kind}\n{template}")).unwrap();
}

/// The world of the project at `root` as its tool loads it (the game's own without a
/// schema), which must load without errors.
fn load_either(root: &Path) -> World {
    let (world, report) = match root.join(SCHEMA_FILE).is_file() {
        true => load(root),
        false => load_game(root, patrol()),
    };
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    world
}

/// The text a save writes of entity 7 of `world`, the lines naming the class left out.
fn text_of(world: &mut World) -> String {
    let mut text = String::new();
    world
        .entity_text(juliet_entities::entity::EntityId(7), &mut text)
        .unwrap();
    let lines = text.lines().filter(|l| !l.contains(patrol().name()));
    lines.collect::<Vec<_>>().join("\n")
}

/// Runs `set` on the instance of each of `cases` (the template's and the instance's
/// properties, and the arguments) through both tools: the stock tool writes what the
/// game's own tool writes, `set` succeeds and `check` accepts the file. The stock
/// tool's file after each.
fn assert_instance_set_as_the_game(cases: &[(&str, &str, &[&str])]) -> Vec<String> {
    let mut texts = Vec::new();
    for &(template, instance, args) in cases {
        let [game, stock] = projects(template, instance).map(|r| set_in(r.path(), patrol(), args));
        let case = format!("{template:?} {instance:?} {args:?}");
        assert_eq!(game, stock, "{case}");
        assert!(stock.0 && stock.3, "{case}: {stock:?}");
        texts.push(stock.2);
    }
    texts
}

const TOUCHED: &str = "; Trigger.Radius\n4\n";

/// `set --unset` of an instance's variant through the stock tool reverts the whole enum
/// when the variants differ (the template's fields with it, the instance's dropped), as
/// the game's own tool does; so does reverting a field of a variant the template does
/// not have.
#[test]
fn reverting_an_instances_variant_reverts_the_whole_enum_as_the_game_does() {
    let texts = assert_instance_set_as_the_game(&[
        (TOUCH, TIMER, &["--unset", "Trigger"]),
        (TOUCH, TIMER, &["--unset", "Trigger.0"]),
        (TIMER, TOUCH, &["--unset", "Trigger"]),
        (TOUCH, TOUCHED, &["--unset", "Trigger.Radius"]),
    ]);
    for text in &texts {
        assert!(!text.contains("Trigger"), "{text}");
    }
}

/// An instance's variant is the template's only with the template's fields, as the
/// game's own tool compares it: reverting the variant of an instance that has the
/// template's variant but another value of its field keeps the variant's line, and an
/// instance that sets a field writes its variant too.
#[test]
fn an_instances_variant_differs_from_the_templates_by_its_fields_as_the_games() {
    let texts = assert_instance_set_as_the_game(&[
        (TOUCH, TOUCHED, &["--unset", "Trigger"]),
        (TOUCH, TOUCHED, &["Trigger.Radius=5"]),
        (TOUCH, "", &["Trigger.Radius=5"]),
        (TOUCH, TIMER, &["Trigger=OnTouch"]),
    ]);
    assert!(
        texts[0].ends_with("; Trigger\nOnTouch\n; Trigger.Radius\n4"),
        "{}",
        texts[0]
    );
}

/// A template that switches its variant reaches an instance that overrides a field of
/// the old one as it reaches the game's: the instance keeps its variant and fields; one
/// that overrides nothing takes the new variant whole.
#[test]
fn a_templates_new_variant_reaches_its_instances_as_the_games() {
    for instance in ["; Trigger.Radius\n4\n", ""] {
        let texts = projects(TOUCH, instance).map(|root| {
            let mut world = load_either(root.path());
            write_template(root.path(), TIMER);
            world.reload_template(TEMPLATE).unwrap();
            let reloaded = text_of(&mut world);
            world.save_world().unwrap();
            (reloaded, text_of(&mut load_either(root.path())))
        });
        assert_eq!(texts[0], texts[1], "{instance:?}");
    }
}

/// Applying an instance's field to its template through the stock tool's runtime
/// applies its variant with it, dropping the old variant's fields from the template,
/// as the game's own tool does.
#[test]
fn applying_a_variant_to_the_template_writes_what_the_games_writes() {
    let texts = projects(TOUCH, TIMER).map(|root| {
        let mut world = load_either(root.path());
        let id = juliet_entities::entity::EntityId(7);
        world
            .apply_to_template(id, &["Trigger.0"], TEMPLATE)
            .unwrap();
        let template = fs::read_to_string(root.path().join(TEMPLATE)).unwrap();
        let template = template.lines().filter(|l| !l.contains(patrol().name()));
        (template.collect::<Vec<_>>().join("\n"), text_of(&mut world))
    });
    assert_eq!(texts[0], texts[1]);
    assert!(!texts[1].0.contains("Radius"), "{:?}", texts[1]);
}
