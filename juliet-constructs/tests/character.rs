//! The character controller and the level physics built from entities
//! (feature `physics`).

use glam::{Quat, Vec3};
use juliet_constructs::physics::{
    CharacterController, LevelPhysics, PhysicsError, StaticCollider, StaticShape,
};
use juliet_constructs::SimFloat;
use juliet_entities::kinds::Inert;
use juliet_entities::EntityManager;

/// One step at 64 Hz.
fn dt() -> SimFloat {
    SimFloat::ONE / SimFloat::from_int(64)
}
const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);
const RADIUS: f32 = 0.3;
const HALF_HEIGHT: f32 = 0.6;
/// From the capsule's centre to its bottom.
const CENTRE_TO_FEET: f32 = HALF_HEIGHT + RADIUS;

/// A level with a floor 40 m square whose top is at y = 0, and `more` colliders.
fn level(more: impl IntoIterator<Item = StaticCollider>) -> LevelPhysics {
    let mut level = LevelPhysics::new();
    level
        .add_static(StaticCollider::cuboid(
            Vec3::new(0.0, -0.5, 0.0),
            Vec3::new(20.0, 0.5, 20.0),
        ))
        .unwrap();
    level.extend(more).unwrap();
    level
}

/// An axis-aligned box spanning `min..max`.
fn aabb(min: Vec3, max: Vec3) -> StaticCollider {
    StaticCollider::cuboid((min + max) * 0.5, (max - min) * 0.5)
}

/// A character standing on the floor at `x` (z = 0).
fn standing_at(x: f32) -> CharacterController {
    CharacterController::new(
        Vec3::new(x, CENTRE_TO_FEET + 0.01, 0.0),
        RADIUS,
        HALF_HEIGHT,
    )
    .unwrap()
}

/// Runs `ticks` updates with a constant walk velocity.
fn walk(c: &mut CharacterController, level: &LevelPhysics, velocity: Vec3, ticks: usize) {
    for _ in 0..ticks {
        c.update(level, velocity, GRAVITY, dt()).unwrap();
    }
}

#[test]
fn is_grounded_on_the_floor_after_falling_onto_it() {
    let level = level([]);
    let mut c = CharacterController::new(
        Vec3::new(0.0, CENTRE_TO_FEET + 1.0, 0.0),
        RADIUS,
        HALF_HEIGHT,
    )
    .unwrap();
    c.update(&level, Vec3::ZERO, GRAVITY, dt()).unwrap();
    assert!(!c.is_grounded(), "grounded 1 m above the floor");
    assert!(c.vertical_speed() < 0.0);
    walk(&mut c, &level, Vec3::ZERO, 64);
    assert!(c.is_grounded());
    assert!(!c.is_sliding());
    let feet = c.feet().y;
    assert!((0.0..0.03).contains(&feet), "feet at {feet}");
    assert_eq!(c.vertical_speed(), 0.0);
    assert_eq!(c.ground_normal().map(|n| n.y > 0.999), Some(true));
}

#[test]
fn walks_on_the_floor_at_the_desired_speed() {
    let level = level([]);
    let mut c = standing_at(0.0);
    walk(&mut c, &level, Vec3::new(2.0, 0.0, 0.0), 64);
    let p = c.position();
    assert!((p.x - 2.0).abs() < 0.05, "walked to {p}");
    assert!(c.is_grounded());
    assert!((c.feet().y).abs() < 0.03, "feet at {}", c.feet().y);
}

#[test]
fn steps_up_a_0_3_m_step() {
    let level = level([aabb(Vec3::new(2.0, 0.0, -5.0), Vec3::new(10.0, 0.3, 5.0))]);
    let mut c = standing_at(0.0);
    walk(&mut c, &level, Vec3::new(2.0, 0.0, 0.0), 192);
    let p = c.position();
    assert!(p.x > 4.0, "stuck at the step: {p}");
    let feet = c.feet().y;
    assert!(
        (0.3..0.33).contains(&feet),
        "feet at {feet}, not on the step"
    );
    assert!(c.is_grounded());
}

#[test]
fn does_not_step_up_a_0_5_m_ledge() {
    let level = level([aabb(Vec3::new(2.0, 0.0, -5.0), Vec3::new(10.0, 0.5, 5.0))]);
    let mut c = standing_at(0.0);
    walk(&mut c, &level, Vec3::new(2.0, 0.0, 0.0), 192);
    let p = c.position();
    assert!(p.x < 2.0 - RADIUS + 0.01, "went onto the ledge: {p}");
    assert!(c.feet().y < 0.03, "climbed: {p}");
}

#[test]
fn is_stopped_by_a_1_m_wall() {
    let level = level([aabb(Vec3::new(2.0, 0.0, -5.0), Vec3::new(2.5, 1.0, 5.0))]);
    let mut c = standing_at(0.0);
    walk(&mut c, &level, Vec3::new(2.0, 0.0, 0.0), 192);
    let p = c.position();
    assert!(p.x <= 2.0 - RADIUS, "went through or over the wall: {p}");
    assert!(p.x > 2.0 - RADIUS - 0.05, "stopped short of the wall: {p}");
    assert!(c.feet().y < 0.03, "climbed the wall: {p}");
    assert!(c.is_grounded());
    assert!(
        c.velocity().x.abs() < 0.01,
        "still moving: {}",
        c.velocity()
    );
}

#[test]
fn slides_along_a_wall_it_walks_into_at_an_angle() {
    let level = level([aabb(Vec3::new(2.0, 0.0, -5.0), Vec3::new(2.5, 1.0, 5.0))]);
    let mut c = standing_at(0.0);
    walk(&mut c, &level, Vec3::new(2.0, 0.0, 1.0), 192);
    let p = c.position();
    assert!(p.x <= 2.0 - RADIUS, "{p}");
    assert!(p.z > 2.0, "did not slide along the wall: {p}");
}

/// A slope of `degrees` rising towards +X (a rotated box whose top face passes through
/// the origin), and a character resting on it above the origin.
fn on_slope(degrees: f32) -> (LevelPhysics, CharacterController) {
    let angle = degrees.to_radians();
    let rotation = Quat::from_rotation_z(angle);
    let normal = rotation * Vec3::Y;
    let slope = StaticCollider {
        shape: StaticShape::Cuboid {
            half_extents: Vec3::new(10.0, 0.5, 5.0),
        },
        position: -normal * 0.5,
        rotation,
        entity: None,
    };
    let mut level = LevelPhysics::new();
    level.add_static(slope).unwrap();
    // The bottom sphere touches the slope; the capsule's centre is above it.
    let centre = normal * (RADIUS + 0.02) + Vec3::Y * HALF_HEIGHT;
    (
        level,
        CharacterController::new(centre, RADIUS, HALF_HEIGHT).unwrap(),
    )
}

#[test]
fn slides_down_a_60_degree_slope() {
    let (level, mut c) = on_slope(60.0);
    let start = c.position();
    walk(&mut c, &level, Vec3::ZERO, 64);
    let p = c.position();
    assert!(c.is_sliding());
    assert!(!c.is_grounded(), "60 degrees is not walkable ground");
    assert!(
        p.x < start.x - 0.5,
        "did not slide downhill (-X): {start} -> {p}"
    );
    assert!(p.y < start.y - 0.8, "did not go down: {start} -> {p}");
    // It stays on the slope's surface while it slides: the downhill direction of a
    // 60-degree slope drops 1.73 m per metre.
    let drop_per_metre = (start.y - p.y) / (start.x - p.x);
    assert!((1.5..2.0).contains(&drop_per_metre), "{drop_per_metre}");
}

#[test]
fn stands_still_on_a_30_degree_slope() {
    let (level, mut c) = on_slope(30.0);
    walk(&mut c, &level, Vec3::ZERO, 16);
    let start = c.position();
    walk(&mut c, &level, Vec3::ZERO, 64);
    let p = c.position();
    assert!(c.is_grounded());
    assert!(!c.is_sliding());
    assert!(
        p.distance(start) < 0.01,
        "moved on a walkable slope: {start} -> {p}"
    );
}

#[test]
fn cannot_walk_up_a_60_degree_slope() {
    let (level, mut c) = on_slope(60.0);
    let start = c.position();
    walk(&mut c, &level, Vec3::new(2.0, 0.0, 0.0), 64);
    assert!(
        c.position().y < start.y,
        "climbed: {start} -> {}",
        c.position()
    );
}

#[test]
fn jumps_only_from_the_ground() {
    let level = level([]);
    let mut c = standing_at(0.0);
    walk(&mut c, &level, Vec3::ZERO, 4);
    assert!(c.jump(5.0));
    let mut peak = 0.0f32;
    // v² / 2g = 1.27 m, reached after 0.51 s (33 ticks); it lands after 66.
    for _ in 0..40 {
        c.update(&level, Vec3::ZERO, GRAVITY, dt()).unwrap();
        peak = peak.max(c.feet().y);
    }
    assert!((1.2..1.3).contains(&peak), "peak {peak}");
    assert!(!c.is_grounded());
    assert!(!c.jump(5.0), "jumped in the air");
}

#[test]
fn bad_arguments_are_typed_errors_and_change_nothing() {
    let level = level([]);
    let mut c = standing_at(0.0);
    walk(&mut c, &level, Vec3::ZERO, 4);
    let before = c.clone();
    assert!(matches!(
        c.update(&level, Vec3::new(f32::NAN, 0.0, 0.0), GRAVITY, dt()),
        Err(PhysicsError::NonFinite {
            what: "desired_velocity",
            ..
        })
    ));
    assert!(matches!(
        c.update(&level, Vec3::ZERO, Vec3::INFINITY, dt()),
        Err(PhysicsError::NonFinite {
            what: "gravity",
            ..
        })
    ));
    assert_eq!(
        c.update(&level, Vec3::ZERO, GRAVITY, SimFloat::ZERO - dt()),
        Err(PhysicsError::BadTimeStep {
            dt: SimFloat::ZERO - dt()
        })
    );
    c.update(&level, Vec3::X, GRAVITY, SimFloat::ZERO).unwrap();
    assert_eq!(c.position(), before.position());
    assert_eq!(c.is_grounded(), before.is_grounded());

    let e = CharacterController::new(Vec3::ZERO, 0.0, 0.6).unwrap_err();
    assert_eq!(
        e,
        PhysicsError::BadLength {
            what: "radius",
            value: 0.0
        }
    );
    assert_eq!(
        e.to_string(),
        "radius must be a positive finite length in metres, got 0"
    );
    assert!(matches!(
        CharacterController::new(Vec3::NAN, 0.3, 0.6),
        Err(PhysicsError::NonFinite {
            what: "position",
            ..
        })
    ));
}

#[test]
fn level_from_entities_has_a_box_per_inert_with_a_mesh() {
    let mut m = EntityManager::new();
    let floor = m.make_entity::<Inert>(Vec3::new(0.0, -0.5, 0.0));
    {
        let f = m.get_mut::<Inert>(floor).unwrap();
        f.mesh_asset = "Meshes/Cube.obj".to_owned();
        f.scale = Vec3::new(10.0, 1.0, 10.0);
    }
    let crate_ = m.make_entity::<Inert>(Vec3::new(3.0, 1.0, 0.0));
    {
        let c = m.get_mut::<Inert>(crate_).unwrap();
        c.mesh_asset = "Meshes/Crate.obj".to_owned();
        c.scale = Vec3::new(2.0, -2.0, 2.0); // mirrored: the box is the same
    }
    let _no_mesh = m.make_entity::<Inert>(Vec3::new(0.0, 1.0, 0.0));
    let marker = m.make_entity::<Inert>(Vec3::new(8.0, 1.0, 0.0));
    {
        let s = m.get_mut::<Inert>(marker).unwrap();
        s.mesh_asset = "Meshes/Editor/SpawnMarker.obj".to_owned();
        s.is_visible = false;
    }

    let level = LevelPhysics::from_entities(&m).unwrap();
    assert_eq!(level.len(), 2);
    let down = level
        .cast_ray(Vec3::new(0.0, 5.0, 0.0), -Vec3::Y, 10.0)
        .unwrap();
    assert_eq!(down.entity, Some(floor));
    assert!((down.distance - 5.0).abs() < 1e-4, "{down:?}");
    let crate_top = level
        .cast_ray(Vec3::new(3.0, 5.0, 0.0), -Vec3::Y, 10.0)
        .unwrap();
    assert_eq!(crate_top.entity, Some(crate_));
    assert!((crate_top.distance - 3.0).abs() < 1e-4, "{crate_top:?}");
    assert!(level
        .cast_ray(Vec3::new(8.0, 5.0, 0.0), -Vec3::Y, 10.0)
        .is_none());
}

#[test]
fn a_game_maps_its_own_meshes() {
    let mut m = EntityManager::new();
    let ramp = m.make_entity::<Inert>(Vec3::ZERO);
    m.get_mut::<Inert>(ramp).unwrap().mesh_asset = "Meshes/Ramp.obj".to_owned();
    let level = LevelPhysics::from_entities_with(&m, |e, inert| {
        (inert.mesh_asset == "Meshes/Ramp.obj").then(|| StaticCollider {
            // A wedge 2 m long rising from 0 at x = -1 to 1 m at x = 1.
            shape: StaticShape::ConvexHull {
                points: vec![
                    Vec3::new(-1.0, 0.0, -1.0),
                    Vec3::new(-1.0, 0.0, 1.0),
                    Vec3::new(1.0, 0.0, -1.0),
                    Vec3::new(1.0, 0.0, 1.0),
                    Vec3::new(1.0, 1.0, -1.0),
                    Vec3::new(1.0, 1.0, 1.0),
                ],
            },
            position: e.position(),
            rotation: Quat::IDENTITY,
            entity: Some(e.id()),
        })
    })
    .unwrap();
    let hit = level
        .cast_ray(Vec3::new(0.0, 5.0, 0.0), -Vec3::Y, 10.0)
        .unwrap();
    assert!((hit.distance - 4.5).abs() < 1e-4, "{hit:?}");
}

#[test]
fn a_bad_shape_names_its_entity() {
    let mut m = EntityManager::new();
    let flat = m.make_entity::<Inert>(Vec3::ZERO);
    {
        let f = m.get_mut::<Inert>(flat).unwrap();
        f.mesh_asset = "Meshes/Cube.obj".to_owned();
        f.scale = Vec3::new(1.0, 0.0, 1.0);
    }
    let e = LevelPhysics::from_entities(&m).unwrap_err();
    assert!(matches!(e, PhysicsError::BadShape { entity: Some(id), .. } if id == flat));
    assert!(
        e.to_string()
            .starts_with(&format!("entity {flat}: static collider: box half-extents")),
        "{e}"
    );
    let hull = StaticCollider {
        shape: StaticShape::ConvexHull {
            points: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
        },
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        entity: None,
    };
    assert!(matches!(
        LevelPhysics::new().add_static(hull),
        Err(PhysicsError::BadShape { entity: None, .. })
    ));
    let mesh = StaticCollider {
        shape: StaticShape::TriMesh {
            vertices: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
            indices: vec![[0, 1, 3]],
        },
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        entity: None,
    };
    let e = LevelPhysics::new().add_static(mesh).unwrap_err();
    assert!(e.to_string().contains("indexes past the 3 vertices"), "{e}");
}
