//! Templates through a world: the cache, variants, errors, the override rules of
//! docs/design.md, section 7.4 (file keys, reflection sets and save-time differences are
//! overrides; pinned overrides survive template changes; revert clears them),
//! propagation on reload, and "Create Template from Entity" (docs/design.md, section 7).

mod project;

use std::fs;

use glam::Vec3;
use juliet_core::{crc32, ErrorKind};
use juliet_entities::create_template_from_entity;
use juliet_entities::kinds::{Collectible, Inert};
use juliet_entities::template::TemplateCache;
use juliet_entities::EntityId;
use project::{instance, keys_of, snapshot, sparse_keys, value_of, Project, ROCK_LARGE};

const ROCK: &str = "Assets/Templates/RockLarge.jasset";

fn inert(world: &juliet_entities::World, id: u64) -> &Inert {
    world.manager().get::<Inert>(EntityId(id)).unwrap()
}

#[test]
fn get_or_load_reads_a_file_once_and_finds_it_by_crc() {
    let p = Project::new();
    p.template("RockLarge", ROCK_LARGE);
    let mut cache = TemplateCache::new(p.root());
    let first = cache.get_or_load(ROCK).unwrap();
    let (crc, first_ptr) = (first.crc(), first.cached() as *const _);
    assert_eq!(crc, crc32(ROCK.as_bytes()));
    assert_eq!(first.path(), ROCK);
    assert!(first.class().is::<Inert>());
    assert_eq!(cache.files_read(), 1);

    // The file is gone: a second call (in another spelling) must not need it.
    fs::remove_file(p.root().join(ROCK)).unwrap();
    let second = cache
        .get_or_load("Assets\\Templates\\..\\Templates\\RockLarge.jasset")
        .unwrap();
    assert!(std::ptr::eq(second.cached(), first_ptr));
    assert_eq!(cache.files_read(), 1);
    assert!(std::ptr::eq(cache.find(crc).unwrap().cached(), first_ptr));
    assert!(cache.find(crc ^ 1).is_none());
    assert_eq!(
        cache.find(crc).unwrap().archetype::<Inert>().unwrap().mass,
        250.0
    );

    // After invalidation the file is needed again.
    cache.invalidate();
    assert!(cache.find(crc).is_none());
    assert!(matches!(
        cache.get_or_load(ROCK).unwrap_err().kind,
        ErrorKind::Template { .. }
    ));
    assert_eq!(cache.files_read(), 2);
}

#[test]
fn variants_of_variants_inherit_through_the_chain() {
    let p = Project::new();
    p.template(
        "Base",
        "; Kind\nInert\n; MeshAsset\nBase.obj\n; Mass\n10.0\n; Health\n100.0\n; Scale\n2 2 2\n",
    );
    p.template(
        "Mid",
        "; Template\nAssets/Templates/Base.jasset\n; Health\n50.0\n; Position\n0 1 0\n",
    );
    p.template(
        "Top",
        "; Kind\nInert\n; Template\nAssets/Templates/Mid.jasset\n; Mass\n99.0\n",
    );
    p.entity(
        "a",
        &instance("Assets/Templates/Top.jasset", 1, "IsVisible: false\n"),
    );
    let world = p.load_clean();
    let a = inert(&world, 1);
    assert_eq!(a.mesh_asset, "Base.obj"); // from Base
    assert_eq!(a.health, 50.0); // from Mid
    assert_eq!(a.mass, 99.0); // from Top
    assert_eq!(a.scale, Vec3::splat(2.0)); // from Base
    assert!(!a.is_visible); // the instance's own
                            // Position: Mid's, inherited by Top, taken by the instance.
    let e = world.manager().entity(EntityId(1)).unwrap();
    assert_eq!(e.position(), Vec3::Y);
    assert!(!e.is_position_overridden());

    let templates = world.templates();
    assert_eq!(templates.len(), 3);
    let top = templates.get("Assets/Templates/Top.jasset").unwrap();
    let mid = templates.get("Assets/Templates/Mid.jasset").unwrap();
    assert_eq!(top.parent(), Some(mid.crc()));
    assert_eq!(mid.parent(), Some(crc32(b"Assets/Templates/Base.jasset")));
    let mass = property("Mass");
    assert_eq!(top.own_properties().iter().collect::<Vec<_>>(), vec![mass]);
    assert!(mid.sets_position() && !top.sets_position());
}

/// Index of `key` in `Inert`'s property table.
fn property(key: &str) -> usize {
    use juliet_core::Reflect;
    Inert::CLASS
        .properties()
        .iter()
        .position(|p| p.key == key)
        .unwrap()
}

#[test]
fn a_cycle_of_templates_is_an_error_naming_the_chain() {
    let p = Project::new();
    p.template(
        "A",
        "; Kind\nInert\n; Template\nAssets/Templates/B.jasset\n",
    );
    p.template("B", "; Template\nAssets/Templates/C.jasset\n");
    p.template("C", "; Template\nAssets/Templates/./A.jasset\n");
    p.template(
        "Self",
        "; Kind\nInert\n; Template\nAssets/Templates/Self.jasset\n",
    );
    let mut cache = TemplateCache::new(p.root());
    let err = cache.get_or_load("Assets/Templates/A.jasset").unwrap_err();
    let ErrorKind::Template { reason, .. } = &err.kind else {
        panic!("{err}")
    };
    assert_eq!(
        reason,
        "templates form a cycle: Assets/Templates/A.jasset -> Assets/Templates/B.jasset \
         -> Assets/Templates/C.jasset -> Assets/Templates/A.jasset"
    );
    // Located at the reference that closes the cycle: C's `Template` key, line 2.
    assert!(
        err.location.path.ends_with("Assets/Templates/C.jasset"),
        "{err}"
    );
    assert_eq!(
        (err.location.line, err.key.as_deref()),
        (1, Some("Template"))
    );
    assert!(cache.is_empty(), "nothing of a failed chain is cached");

    let err = cache
        .get_or_load("Assets/Templates/Self.jasset")
        .unwrap_err();
    assert!(err
        .to_string()
        .contains("cycle: Assets/Templates/Self.jasset -> Assets/Templates/Self.jasset"));
}

#[test]
fn a_missing_template_fails_its_instance_at_path_and_line_and_the_rest_loads() {
    let p = Project::new();
    p.template("RockLarge", ROCK_LARGE);
    p.entity("good", &instance(ROCK, 1, "Health: 5.0\n"));
    let bad = p.entity(
        "bad",
        "# a rock whose template was deleted\n; template: Assets/Templates/Gone.jasset\n\
         EntityID: 0x0000000000000002\n",
    );
    p.entity(
        "standalone",
        "; Kind\nCollectible\n; EntityID\n0x0000000000000003\n; Value\n7\n",
    );
    let (mut world, report) = p.load();
    assert_eq!((report.files, report.loaded), (3, 2));
    assert_eq!(report.errors.len(), 1);
    let err = &report.errors[0];
    assert_eq!(err.location.path, bad);
    // Line 2, column 3: the key of `; template: ...`.
    assert_eq!((err.location.line, err.location.column), (2, 3));
    assert_eq!(err.key.as_deref(), Some("template"));
    let ErrorKind::Template { path, reason } = &err.kind else {
        panic!("{err}")
    };
    assert_eq!(path, "Assets/Templates/Gone.jasset");
    assert!(reason.starts_with("cannot read "), "{reason}");
    assert!(err
        .to_string()
        .starts_with(&format!("{}:2:3: error: `template`", bad.display())));

    assert_eq!(inert(&world, 1).health, 5.0);
    assert_eq!(
        world
            .manager()
            .get::<Collectible>(EntityId(3))
            .unwrap()
            .value,
        7
    );
    assert_eq!(world.untouched_files(), std::slice::from_ref(&bad));
    let before = fs::read(&bad).unwrap();
    world.manager_mut().for_each_entity_mut(|e| e.mark_dirty());
    world.save_world().unwrap();
    assert_eq!(
        fs::read(&bad).unwrap(),
        before,
        "the failed file is left alone"
    );
}

#[test]
fn an_error_inside_a_template_fails_its_instances_with_both_locations() {
    let p = Project::new();
    p.template("Broken", "; Kind\nInert\n; Mass\nheavy\n");
    let file = p.entity("x", &instance("Assets/Templates/Broken.jasset", 1, ""));
    let (world, report) = p.load();
    assert_eq!(report.loaded, 0);
    let err = &report.errors[0];
    assert_eq!(
        (err.location.path.as_path(), err.location.line),
        (file.as_path(), 1)
    );
    let text = err.to_string();
    assert!(text.contains("Broken.jasset:4:1: error: `Mass`"), "{text}");
    assert!(world.manager().is_empty());
}

#[test]
fn a_kind_different_from_the_templates_is_an_error_naming_both() {
    let p = Project::new();
    p.template("RockLarge", ROCK_LARGE);
    let file = p.entity(
        "coin",
        "; EntityID\n0x0000000000000001\n; Kind\nCollectible\n; Template\nAssets/Templates/RockLarge.jasset\n",
    );
    p.entity(
        "rock",
        "; EntityID\n0x0000000000000002\n; Kind\ninert\n; Template\nAssets/Templates/RockLarge.jasset\n",
    );
    let (world, report) = p.load();
    assert_eq!(report.loaded, 1, "same kind in another spelling loads");
    let err = &report.errors[0];
    assert_eq!(err.location.path, file);
    assert_eq!((err.location.line, err.key.as_deref()), (3, Some("Kind")));
    match &err.kind {
        ErrorKind::KindMismatch { found, template } => {
            assert_eq!(
                (found.as_str(), template.as_str()),
                ("Collectible", "Inert")
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(world.manager().contains(EntityId(2)));

    // A variant whose Kind is not its parent's.
    let mut cache = TemplateCache::new(p.root());
    p.template(
        "Coin",
        "; Kind\nCollectible\n; Template\nAssets/Templates/RockLarge.jasset\n",
    );
    let err = cache
        .get_or_load("Assets/Templates/Coin.jasset")
        .unwrap_err();
    assert!(matches!(err.kind, ErrorKind::KindMismatch { .. }), "{err}");
    assert_eq!((err.location.line, err.key.as_deref()), (1, Some("Kind")));
}

#[test]
fn template_paths_are_project_relative_in_any_spelling() {
    let p = Project::new();
    p.template("RockLarge", ROCK_LARGE);
    p.entity("a", &instance("Assets\\Templates\\RockLarge.jasset", 1, ""));
    p.entity(
        "b",
        &instance("./Assets/Worlds/../Templates/RockLarge.jasset", 2, ""),
    );
    let escape = p.entity("c", &instance("../Outside.jasset", 3, ""));
    let (world, report) = p.load();
    assert_eq!(report.loaded, 2);
    assert_eq!(world.templates().files_read(), 1);
    let e = world.manager().entity(EntityId(1)).unwrap();
    assert_eq!(
        e.template(),
        world.manager().entity(EntityId(2)).unwrap().template()
    );
    assert_eq!(e.template(), Some(crc32(ROCK.as_bytes())));
    let err = &report.errors[0];
    assert_eq!(
        (err.location.path.as_path(), err.location.line),
        (escape.as_path(), 1)
    );
    assert!(err.to_string().contains("above the project root"), "{err}");
}

#[test]
fn template_warnings_are_reported_once() {
    let p = Project::new();
    p.template("Odd", "; Kind\nInert\n; Sparkle\nyes\n");
    p.entity("a", &instance("Assets/Templates/Odd.jasset", 1, ""));
    p.entity("b", &instance("Assets/Templates/Odd.jasset", 2, ""));
    let (_, report) = p.load();
    assert!(report.errors.is_empty());
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert!(report.warnings[0].location.path.ends_with("Odd.jasset"));
}

#[test]
fn instances_save_only_their_overrides_and_round_trip_byte_for_byte() {
    let p = Project::new();
    p.template("RockLarge", ROCK_LARGE);
    let canonical = "; AssetType\nEntity\n; BaseVersion\n1\n; EntityID\n0x0000000000000001\n\
                     ; Kind\nInert\n; Template\nAssets/Templates/RockLarge.jasset\n\
                     ; Position\n1.0 2.0 3.0\n; ClassVersion\n2\n; Mass\n7.5\n; Health\n100.0\n\
                     ; Extra\nkept\n";
    let bare = "; AssetType\nEntity\n; BaseVersion\n1\n; EntityID\n0x0000000000000002\n\
                ; Kind\nInert\n; Template\nAssets/Templates/RockLarge.jasset\n";
    p.entity("one", canonical);
    p.entity("two", bare);
    let (mut world, report) = p.load();
    assert_eq!(report.loaded, 2);
    assert_eq!(report.warnings.len(), 1, "the unknown key");
    let one = inert(&world, 1);
    assert_eq!(
        (one.mass, one.health, one.mesh_asset.as_str()),
        (7.5, 100.0, "Assets/Meshes/Rock_01.obj")
    );
    let two = world.manager().entity(EntityId(2)).unwrap();
    assert_eq!(two.position(), Vec3::ZERO);
    assert!(two.overrides().is_empty() && !two.is_position_overridden());

    let before = snapshot(&p.entities_dir());
    world.manager_mut().for_each_entity_mut(|e| e.mark_dirty());
    // Asked to write, the save makes the same bytes for both files: it writes neither.
    let saved = world.save_world().unwrap();
    assert!(saved.written.is_empty(), "{saved:?}");
    assert_eq!(
        snapshot(&p.entities_dir()),
        before,
        "sparse files rewrite to the same bytes"
    );
}

#[test]
fn an_override_equal_to_the_template_value_is_pinned_and_survives_a_change() {
    let p = Project::new();
    p.template("RockLarge", ROCK_LARGE);
    // 1: Health written in its file, equal to the template's 100.
    p.entity("pinned_by_file", &instance(ROCK, 1, "Health: 100.0\n"));
    // 2: Health set through the reflection API to the template's value.
    p.entity("pinned_by_set", &instance(ROCK, 2, ""));
    // 3: follows the template.
    p.entity("follows", &instance(ROCK, 3, ""));
    let mut world = p.load_clean();
    world.set_property(EntityId(2), "health", "100.0").unwrap();
    assert_eq!(world.overrides(EntityId(2)).unwrap()[0].template, "100.0");
    world.save_world().unwrap();
    assert!(
        value_of(&p.read_entity("pinned_by_set"), "Health").as_deref() == Some("100.0"),
        "{}",
        p.read_entity("pinned_by_set")
    );

    p.template(
        "RockLarge",
        &ROCK_LARGE.replace("Health: 100.0", "Health: 120.0"),
    );
    let report = world.reload_template(ROCK).unwrap();
    assert_eq!(report.templates, vec![crc32(ROCK.as_bytes())]);
    assert_eq!(report.updated, vec![EntityId(3)]);
    assert_eq!(inert(&world, 1).health, 100.0);
    assert_eq!(inert(&world, 2).health, 100.0);
    assert_eq!(inert(&world, 3).health, 120.0);
    // The instances' sparse files do not change: none is marked dirty, and the save
    // writes none of them.
    let m = world.manager();
    for id in 1..=3 {
        assert!(!m.entity(EntityId(id)).unwrap().is_dirty(), "{id}");
    }
    let saved = world.save_world().unwrap();
    assert!(saved.written.is_empty(), "{saved:?}");

    // The pins survive a fresh load with the new template too.
    let world = p.load_clean();
    assert_eq!(
        [1, 2, 3].map(|i| inert(&world, i).health),
        [100.0, 100.0, 120.0]
    );
    let follows = p.read_entity("follows");
    assert!(!follows.contains("Health"), "{follows}");
}

#[test]
fn propagation_reaches_non_overridden_properties_only() {
    let p = Project::new();
    p.template("RockLarge", ROCK_LARGE);
    p.entity(
        "heavy",
        &instance(ROCK, 1, "Mass: 900.0\nPosition: 1, 2, 3\n"),
    );
    p.entity("plain", &instance(ROCK, 2, ""));
    let mut world = p.load_clean();
    // An unsaved direct edit (not through set_property) is the instance's own too.
    world
        .manager_mut()
        .get_mut::<Inert>(EntityId(2))
        .unwrap()
        .is_destructible = false;

    let changed = ROCK_LARGE
        .replace("Mass: 250.0", "Mass: 300.0")
        .replace("Rock_01.obj", "Rock_02.obj")
        .replace(
            "IsDestructible: true",
            "IsDestructible: false\nIsVisible: false",
        )
        .replace("Position: 0.0, 0.0, 0.0", "Position: 0.0, -1.0, 0.0");
    p.template("RockLarge", &changed);
    let report = world.reload_template(ROCK).unwrap();
    assert_eq!(report.updated, vec![EntityId(1), EntityId(2)]);

    let heavy = inert(&world, 1);
    assert_eq!(heavy.mass, 900.0, "overridden: kept");
    assert_eq!(heavy.mesh_asset, "Assets/Meshes/Rock_02.obj");
    assert!(!heavy.is_destructible && !heavy.is_visible);
    let plain = inert(&world, 2);
    assert_eq!(
        (plain.mass, plain.mesh_asset.as_str()),
        (300.0, "Assets/Meshes/Rock_02.obj")
    );
    assert!(!plain.is_visible);
    let m = world.manager();
    assert_eq!(
        m.entity(EntityId(1)).unwrap().position(),
        Vec3::new(1.0, 2.0, 3.0)
    );
    assert_eq!(
        m.entity(EntityId(2)).unwrap().position(),
        Vec3::new(0.0, -1.0, 0.0)
    );
    // Plain's direct edit equalled the new template value by chance: still pinned.
    let is_destructible = property("IsDestructible");
    assert!(m
        .entity(EntityId(2))
        .unwrap()
        .overrides()
        .contains(is_destructible));

    world.save_world().unwrap();
    assert_eq!(
        keys_of(&p.read_entity("plain")),
        sparse_keys(false, &["IsDestructible"])
    );
    assert!(value_of(&p.read_entity("heavy"), "Mass").as_deref() == Some("900.0"));
    assert!(!p.read_entity("heavy").contains("Rock_02"));
}

#[test]
fn a_value_that_differs_at_save_time_becomes_an_override() {
    let p = Project::new();
    p.template("RockLarge", ROCK_LARGE);
    p.entity("r", &instance(ROCK, 1, ""));
    let mut world = p.load_clean();
    world
        .manager_mut()
        .get_mut::<Inert>(EntityId(1))
        .unwrap()
        .mass = 1.0;
    world
        .manager_mut()
        .entity_mut(EntityId(1))
        .unwrap()
        .set_position(Vec3::X);
    let listed = world.overrides(EntityId(1)).unwrap();
    assert_eq!(listed.len(), 1);
    assert!(!listed[0].pinned, "a difference not yet saved");
    world.save_world().unwrap();
    assert_eq!(keys_of(&p.read_entity("r")), sparse_keys(true, &["Mass"]));
    assert!(world.overrides(EntityId(1)).unwrap()[0].pinned);
    // Now pinned: setting it back to the template's value keeps it an override.
    world.set_property(EntityId(1), "Mass", "250.0").unwrap();
    world.save_world().unwrap();
    assert!(value_of(&p.read_entity("r"), "Mass").as_deref() == Some("250.0"));
}

#[test]
fn inspector_diff_and_reverts() {
    let p = Project::new();
    p.template("RockLarge", ROCK_LARGE);
    p.entity(
        "r",
        &instance(
            ROCK,
            1,
            "Position: 5, 5, 5\nScale: 1.4, 1.4, 1.4\nHealth: 50.0\n",
        ),
    );
    let mut world = p.load_clean();
    let id = EntityId(1);
    let diff = world.overrides(id).unwrap();
    let rows: Vec<_> = diff
        .iter()
        .map(|o| (o.key, o.instance.as_str(), o.template.as_str(), o.pinned))
        .collect();
    assert_eq!(
        rows,
        [
            ("Scale", "1.4 1.4 1.4", "1.0 1.0 1.0", true),
            ("Health", "50.0", "100.0", true)
        ]
    );

    world.revert_property(id, "scale").unwrap();
    assert_eq!(inert(&world, id.get()).scale, Vec3::ONE);
    assert_eq!(world.overrides(id).unwrap().len(), 1);
    assert!(world.manager().entity(id).unwrap().is_dirty());

    world
        .set_property(id, "MeshAsset", "\"Other Rock.obj\"")
        .unwrap();
    world.revert_to_template(id).unwrap();
    let r = inert(&world, id.get());
    assert_eq!(
        (r.health, r.mesh_asset.as_str()),
        (100.0, "Assets/Meshes/Rock_01.obj")
    );
    assert!(world.overrides(id).unwrap().is_empty());
    let e = world.manager().entity(id).unwrap();
    assert_eq!(e.position(), Vec3::splat(5.0), "revert keeps the position");
    assert!(e.overrides().is_empty());
    world.manager().check_invariants().unwrap();

    world.save_world().unwrap();
    assert_eq!(keys_of(&p.read_entity("r")), sparse_keys(true, &[]));
    world.revert_property(id, "Position").unwrap();
    assert_eq!(world.manager().entity(id).unwrap().position(), Vec3::ZERO);

    // Errors: a standalone entity, an unknown key, a dead id.
    let standalone = world.manager_mut().make_entity::<Inert>(Vec3::ZERO);
    world.set_property(standalone, "Mass", "3.0").unwrap();
    let e = world.manager().entity(standalone).unwrap();
    assert!(e.overrides().is_empty(), "no overrides without a template");
    assert_eq!(
        world.manager().property_text(standalone, "mass").unwrap(),
        "3.0"
    );
    assert!(matches!(
        world.revert_to_template(standalone).unwrap_err().kind,
        ErrorKind::NotAnInstance(_)
    ));
    assert!(matches!(
        world.revert_property(id, "Sparkle").unwrap_err().kind,
        ErrorKind::NoSuchProperty { .. }
    ));
    // A key the class lacks is named so on any entity; a known one of a standalone
    // entity does not revert.
    assert!(matches!(
        world
            .revert_property(standalone, "Sparkle")
            .unwrap_err()
            .kind,
        ErrorKind::NoSuchProperty { .. }
    ));
    assert!(matches!(
        world.revert_property(standalone, "Mass").unwrap_err().kind,
        ErrorKind::NotAnInstance(_)
    ));
    assert!(matches!(
        world.overrides(EntityId(77)).unwrap_err().kind,
        ErrorKind::NoSuchEntity(77)
    ));
    let err = world.set_property(id, "Mass", "heavy").unwrap_err();
    assert_eq!(err.key.as_deref(), Some("Mass"));
    assert!(matches!(err.kind, ErrorKind::BadValue { .. }));
}

#[test]
fn reloading_a_parent_reaches_the_instances_of_its_variants() {
    let p = Project::new();
    p.template("RockLarge", ROCK_LARGE);
    p.template(
        "Mossy",
        "; Template\nAssets/Templates/RockLarge.jasset\n; MaterialOverride\nMoss\n; Health\n120.0\n",
    );
    p.template(
        "MossyBig",
        "; Template\nAssets/Templates/Mossy.jasset\n; Scale\n3 3 3\n",
    );
    p.entity("m", &instance("Assets/Templates/Mossy.jasset", 1, ""));
    p.entity("mb", &instance("Assets/Templates/MossyBig.jasset", 2, ""));
    p.entity("r", &instance(ROCK, 3, ""));
    let mut world = p.load_clean();

    let changed = ROCK_LARGE
        .replace("Mass: 250.0", "Mass: 260.0")
        .replace("Health: 100.0", "Health: 90.0")
        .replace("Scale: 1.0, 1.0, 1.0", "Scale: 2.0, 2.0, 2.0");
    p.template("RockLarge", &changed);
    let report = world.reload_template(ROCK).unwrap();
    let crc = |name: &str| crc32(format!("Assets/Templates/{name}.jasset").as_bytes());
    assert_eq!(
        report.templates,
        vec![crc("RockLarge"), crc("Mossy"), crc("MossyBig")]
    );
    assert_eq!(report.updated, vec![EntityId(3), EntityId(1), EntityId(2)]);

    // Mass reaches all; Health stops at Mossy (its own); Scale stops at MossyBig.
    let got = |id| {
        let i = inert(&world, id);
        (i.mass, i.health, i.scale.x, i.material_override.clone())
    };
    assert_eq!(got(3), (260.0, 90.0, 2.0, String::new()));
    assert_eq!(got(1), (260.0, 120.0, 2.0, "Moss".to_owned()));
    assert_eq!(got(2), (260.0, 120.0, 3.0, "Moss".to_owned()));
    let mossy = world
        .templates()
        .get("Assets/Templates/Mossy.jasset")
        .unwrap();
    assert_eq!(mossy.archetype::<Inert>().unwrap().mass, 260.0);

    // Reloading a variant alone does not touch its parent's instances.
    p.template(
        "Mossy",
        "; Template\nAssets/Templates/RockLarge.jasset\n; MaterialOverride\nLichen\n; Health\n120.0\n",
    );
    let report = world
        .reload_template("Assets/Templates/Mossy.jasset")
        .unwrap();
    assert_eq!(report.updated, vec![EntityId(1), EntityId(2)]);
    assert_eq!(inert(&world, 2).material_override, "Lichen");
    assert_eq!(inert(&world, 3).material_override, "");
    world.manager().check_invariants().unwrap();
}

#[test]
fn a_failed_reload_changes_nothing() {
    let p = Project::new();
    p.template("RockLarge", ROCK_LARGE);
    p.template("Other", "; Template\nAssets/Templates/RockLarge.jasset\n");
    p.entity("r", &instance(ROCK, 1, ""));
    let mut world = p.load_clean();
    world
        .templates_mut()
        .get_or_load("Assets/Templates/Other.jasset")
        .unwrap();

    p.template("RockLarge", "; Kind\nCollectible\n; Value\n5\n");
    let err = world.reload_template(ROCK).unwrap_err();
    assert!(
        err.to_string()
            .contains("kind changed from `Inert` to `Collectible`"),
        "{err}"
    );

    p.template(
        "RockLarge",
        &format!("; Template\nAssets/Templates/Other.jasset\n{ROCK_LARGE}"),
    );
    let err = world.reload_template(ROCK).unwrap_err();
    assert!(
        err.to_string().contains(
            "cycle: Assets/Templates/RockLarge.jasset -> Assets/Templates/Other.jasset \
         -> Assets/Templates/RockLarge.jasset"
        ),
        "{err}"
    );

    p.template("RockLarge", "; Kind\nInert\n; Mass\nheavy\n");
    assert!(world.reload_template(ROCK).is_err());
    assert_eq!(inert(&world, 1).mass, 250.0);
    let rock = world.templates().get(ROCK).unwrap();
    assert_eq!(rock.archetype::<Inert>().unwrap().mass, 250.0);
    assert!(!world.manager().entity(EntityId(1)).unwrap().is_dirty());
}

#[test]
fn create_template_from_entity_writes_the_template_and_makes_an_instance() {
    let p = Project::new();
    p.entity(
        "boulder",
        "; Kind\nInert\n; EntityID\n0x0000000000000009\n; Position\n10 0 -4\n\
         ; MeshAsset\nBoulder.obj\n; Mass\n500.0\n; Scale\n2 2 2\n",
    );
    let mut world = p.load_clean();
    let id = EntityId(9);
    let crc = create_template_from_entity(&mut world, id, "Boulder").unwrap();
    let path = "Assets/Templates/Boulder.jasset";
    assert_eq!(crc, crc32(path.as_bytes()));
    let text = fs::read_to_string(p.root().join(path)).unwrap();
    assert_eq!(
        text,
        "; AssetType\nEntity\n; BaseVersion\n1\n; Kind\nInert\n; Position\n0.0 0.0 0.0\n\
         ; ClassVersion\n2\n; MeshInstance\n4294967295\n; MeshAsset\nBoulder.obj\n\
         ; MaterialOverride\n\"\"\n; Scale\n2.0 2.0 2.0\n; Mass\n500.0\n\
         ; IsDestructible\nfalse\n; IsVisible\ntrue\n; Health\n100.0\n"
    );
    let e = world.manager().entity(id).unwrap();
    assert_eq!(e.template(), Some(crc));
    assert!(e.overrides().is_empty() && e.is_dirty());
    assert_eq!(e.position(), Vec3::new(10.0, 0.0, -4.0));
    assert!(world.overrides(id).unwrap().is_empty());

    world.save_world().unwrap();
    let saved = p.read_entity("boulder");
    // Edited in place: the properties the template now holds are gone, the
    // `Template` line is new, the rest is as the file wrote it.
    assert_eq!(keys_of(&saved), sparse_keys(true, &[]));
    assert!(
        saved.contains("; Template\nAssets/Templates/Boulder.jasset\n"),
        "{saved}"
    );
    let world = p.load_clean();
    assert_eq!(inert(&world, 9).mesh_asset, "Boulder.obj");
    assert_eq!(inert(&world, 9).mass, 500.0);

    // Names are file names; existing templates are not overwritten.
    let mut world = world;
    for bad in ["", "../Evil", "a/b", ".hidden", "Boulder"] {
        let err = create_template_from_entity(&mut world, id, bad).unwrap_err();
        assert!(
            matches!(err.kind, ErrorKind::Template { .. }),
            "{bad}: {err}"
        );
    }
    assert!(matches!(
        create_template_from_entity(&mut world, EntityId(1), "X")
            .unwrap_err()
            .kind,
        ErrorKind::NoSuchEntity(1)
    ));
}

#[test]
fn spawning_through_the_world_saves_sparsely() {
    let p = Project::new();
    p.template("RockLarge", ROCK_LARGE);
    let mut world = p.load_clean();
    let id = world
        .instantiate(ROCK, "Position: 4, 0, 4\nHealth: 10.0\n")
        .unwrap();
    let err = world
        .instantiate(ROCK, "Health: 1.0\nSparkle: yes\n")
        .unwrap_err();
    assert_eq!(
        (err.location.line, err.key.as_deref()),
        (2, Some("Sparkle"))
    );
    assert!(matches!(err.kind, ErrorKind::NoSuchProperty { .. }));
    assert_eq!(world.manager().len(), 1);
    world.manager().check_invariants().unwrap();

    let report = world.save_world().unwrap();
    let text = fs::read_to_string(&report.written[0]).unwrap();
    assert_eq!(keys_of(&text), sparse_keys(true, &["Health"]));
    let world = p.load_clean();
    assert_eq!(inert(&world, id.get()).health, 10.0);
    assert_eq!(inert(&world, id.get()).mass, 250.0);
}
