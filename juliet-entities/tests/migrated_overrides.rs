//! The overrides a migration makes (docs/design.md, section 7.4): the properties declared
//! `migrated_from` a deprecated key that an instance file, or a variant template's file,
//! held are that file's own values, pinned whatever their values.

mod project;

use juliet_entities::kinds::Projectile;
use juliet_entities::EntityId;
use project::{instance, Project};

/// A v1 instance's `Speed` is the file's own value under new keys: the properties the
/// migration sets from it (`VelocityX`, `VelocityY`) are pinned overrides even where
/// they equal the template's, so a later change of the template does not reach them.
#[test]
fn properties_migrated_from_a_deprecated_key_are_pinned_overrides() {
    const BALL: &str = "Assets/Templates/Ball.jasset";
    let p = Project::new();
    p.template(
        "Ball",
        "; Kind: Projectile\nVelocityX: 30.0\nVelocityY: 4.0\n",
    );
    // 1: Speed equal to the template's VelocityX; 2: Speed different from it.
    p.entity(
        "same",
        &instance(BALL, 1, "; ClassVersion: 1\n; Speed: 30.0\n"),
    );
    p.entity(
        "other",
        &instance(BALL, 2, "; ClassVersion: 1\n; Speed: 12.0\n"),
    );
    // 3: the current version, no Speed: follows the template.
    p.entity("follows", &instance(BALL, 3, ""));
    let mut world = p.load_clean();
    let keys = |world: &juliet_entities::World, id| -> Vec<&str> {
        let overrides = world.overrides(EntityId(id)).unwrap();
        overrides
            .iter()
            .filter(|o| o.pinned)
            .map(|o| o.key)
            .collect()
    };
    assert_eq!(keys(&world, 1), ["VelocityX", "VelocityY"]);
    assert_eq!(keys(&world, 2), ["VelocityX", "VelocityY"]);
    assert!(keys(&world, 3).is_empty());

    p.template(
        "Ball",
        "; Kind: Projectile\nVelocityX: 50.0\nVelocityY: 9.0\n",
    );
    world.reload_template(BALL).unwrap();
    let velocity = |world: &juliet_entities::World, id| {
        let v = world.manager().get::<Projectile>(EntityId(id)).unwrap();
        (v.velocity_x, v.velocity_y)
    };
    assert_eq!(velocity(&world, 1), (30.0, 0.0));
    assert_eq!(velocity(&world, 2), (12.0, 0.0));
    assert_eq!(velocity(&world, 3), (50.0, 9.0));
}

/// The same for a variant template: a v1 variant's `Speed` equal to its parent's
/// `VelocityX` is the variant's own value, which the parent's later change does not
/// reach.
#[test]
fn a_variant_template_owns_the_properties_migrated_from_its_deprecated_key() {
    const FAST: &str = "Assets/Templates/Fast.jasset";
    let p = Project::new();
    p.template(
        "Ball",
        "; Kind: Projectile\nVelocityX: 30.0\nVelocityY: 4.0\n",
    );
    p.template(
        "Fast",
        "; Template: Assets/Templates/Ball.jasset\n; ClassVersion: 1\n; Speed: 30.0\n",
    );
    p.entity("one", &instance(FAST, 1, ""));
    let mut world = p.load_clean();
    // Property 0 of `Projectile` is `VelocityX`.
    let owner = |world: &juliet_entities::World| {
        let source = world.value_source(EntityId(1), 0);
        source.map(|t| t.path().to_owned())
    };
    assert_eq!(owner(&world).as_deref(), Some(FAST));
    p.template(
        "Ball",
        "; Kind: Projectile\nVelocityX: 50.0\nVelocityY: 9.0\n",
    );
    world
        .reload_template("Assets/Templates/Ball.jasset")
        .unwrap();
    let v = world.manager().get::<Projectile>(EntityId(1)).unwrap();
    assert_eq!((v.velocity_x, v.velocity_y), (30.0, 0.0));
}
