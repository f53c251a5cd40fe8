//! [`LevelPhysics`]: the static collision geometry of a level, built from its entities.

use std::fmt;

use glam::{Quat, Vec3};
use juliet_entities::{kinds::Inert, Entity, EntityId, EntityManager};
use rapier3d::geometry::{ColliderBuilder, ColliderHandle, Ray};
use rapier3d::pipeline::{PhysicsWorld, QueryPipeline};

use super::error::{check_finite, PhysicsError};
use super::to_rapier;

/// The shape of a [`StaticCollider`], in the collider's own frame (metres).
#[derive(Debug, Clone, PartialEq)]
pub enum StaticShape {
    /// A box centred on the collider's position.
    Cuboid {
        /// Half the box's size on each axis; every component positive and finite.
        half_extents: Vec3,
    },
    /// The convex hull of a point cloud (ramps, wedges, rocks); at least four points not
    /// all in one plane.
    ConvexHull {
        /// The points, in the collider's frame.
        points: Vec<Vec3>,
    },
    /// A triangle mesh (terrain, level geometry exported from a modelling tool).
    TriMesh {
        /// Vertex positions, in the collider's frame.
        vertices: Vec<Vec3>,
        /// Triangles, as indices into `vertices`.
        indices: Vec<[u32; 3]>,
    },
}

/// One piece of static level geometry: a shape placed in the world, and the entity it
/// was made from (so that a ray hit can name it).
#[derive(Debug, Clone, PartialEq)]
pub struct StaticCollider {
    /// The shape.
    pub shape: StaticShape,
    /// World-space position of the shape's origin, in metres.
    pub position: Vec3,
    /// World-space rotation of the shape.
    pub rotation: Quat,
    /// The entity this collider stands for, if any.
    pub entity: Option<EntityId>,
}

impl StaticCollider {
    /// An axis-aligned box centred on `center` with the given half-extents (metres),
    /// standing for no entity.
    pub fn cuboid(center: Vec3, half_extents: Vec3) -> StaticCollider {
        StaticCollider {
            shape: StaticShape::Cuboid { half_extents },
            position: center,
            rotation: Quat::IDENTITY,
            entity: None,
        }
    }

    /// The same collider, rotated by `rotation` about its position.
    pub fn with_rotation(mut self, rotation: Quat) -> StaticCollider {
        self.rotation = rotation;
        self
    }

    /// The same collider, standing for entity `id`.
    pub fn for_entity(mut self, id: EntityId) -> StaticCollider {
        self.entity = Some(id);
        self
    }
}

/// The stock mapping from an [`Inert`] entity to its collider, used by
/// [`LevelPhysics::from_entities`].
///
/// `Inert` has a position and a per-axis scale but no rotation, so the collider is an
/// axis-aligned box centred on the entity's position whose size in metres is the
/// absolute value of `scale` (a mesh modelled as a unit cube around its origin, scaled
/// by the entity). Entities that are not drawn (`is_visible` false: spawn points,
/// triggers and other editor markers) or have no `mesh_asset` get no collider; a game
/// that wants invisible walls maps them itself ([`LevelPhysics::from_entities_with`]).
/// Mass and health are ignored: every collider is static.
pub fn inert_box(entity: &Entity, inert: &Inert) -> Option<StaticCollider> {
    if inert.mesh_asset.is_empty() || !inert.is_visible {
        return None;
    }
    Some(StaticCollider::cuboid(entity.position(), inert.scale.abs() * 0.5).for_entity(entity.id()))
}

/// What a ray cast hit: [`LevelPhysics::cast_ray`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayHit {
    /// Distance from the ray's origin to the hit, in metres.
    pub distance: f32,
    /// The entity of the collider hit, when it was made for one.
    pub entity: Option<EntityId>,
}

/// The static collision geometry of a level: the world the [`super::CharacterController`]s
/// of its constructs move through.
///
/// Built once when a level loads, from its entities ([`LevelPhysics::from_entities`] for
/// the stock `Inert` boxes, [`LevelPhysics::from_entities_with`] for a game's own mesh
/// mapping) or collider by collider ([`LevelPhysics::add_static`]). It holds no
/// dynamic bodies: characters are kinematic and query it, they do not live in it, so
/// constructs can share one `LevelPhysics` (it is `Send` and `Sync`) while each owns
/// its controller.
///
/// Rebuild it when the level's static geometry changes (a world reset, a level load);
/// it does not follow later edits of the entities.
pub struct LevelPhysics {
    world: PhysicsWorld,
    colliders: usize,
}

impl LevelPhysics {
    /// An empty level: nothing to collide with.
    pub fn new() -> LevelPhysics {
        LevelPhysics {
            world: PhysicsWorld::new(),
            colliders: 0,
        }
    }

    /// The level of `manager`'s entities with the stock mapping, [`inert_box`]: one
    /// axis-aligned box per `Inert` entity that has a mesh.
    ///
    /// # Errors
    /// [`PhysicsError::BadShape`] naming the first entity whose box cannot be built (a
    /// zero or non-finite scale, a non-finite position).
    pub fn from_entities(manager: &EntityManager) -> Result<LevelPhysics, PhysicsError> {
        LevelPhysics::from_entities_with(manager, inert_box)
    }

    /// The level of `manager`'s `Inert` entities, each mapped to a collider (or to none)
    /// by `map`.
    ///
    /// This is how a game maps its own meshes: look at `inert.mesh_asset` (and the
    /// entity's position and scale) and return the shape that mesh stands for, a
    /// [`StaticShape::ConvexHull`] of a ramp, a [`StaticShape::TriMesh`] of terrain
    /// loaded from the game's mesh files, or fall back to [`inert_box`]. Colliders of
    /// other kinds are added with [`LevelPhysics::extend`] over
    /// [`EntityManager::iter`]. Entities are visited in storage order, so the same
    /// world gives the same level.
    ///
    /// # Errors
    /// [`PhysicsError::BadShape`] naming the first collider that cannot be built.
    pub fn from_entities_with(
        manager: &EntityManager,
        mut map: impl FnMut(&Entity, &Inert) -> Option<StaticCollider>,
    ) -> Result<LevelPhysics, PhysicsError> {
        let mut level = LevelPhysics::new();
        level.extend(
            manager
                .iter::<Inert>()
                .filter_map(|(e, inert)| map(e, inert)),
        )?;
        Ok(level)
    }

    /// Adds one collider.
    ///
    /// Each call updates the level's acceleration structure; to add many, use
    /// [`LevelPhysics::extend`], which updates it once.
    ///
    /// # Errors
    /// [`PhysicsError::BadShape`] when the shape cannot be built; the level is unchanged.
    pub fn add_static(&mut self, collider: StaticCollider) -> Result<(), PhysicsError> {
        self.extend([collider])
    }

    /// Adds colliders, then updates the acceleration structure once.
    ///
    /// # Errors
    /// [`PhysicsError::BadShape`] for the first collider that cannot be built; the
    /// colliders before it are added.
    pub fn extend(
        &mut self,
        colliders: impl IntoIterator<Item = StaticCollider>,
    ) -> Result<(), PhysicsError> {
        let mut result = Ok(());
        for collider in colliders {
            match build(&collider) {
                Ok(builder) => {
                    self.world.insert_collider(builder, None);
                    self.colliders += 1;
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        // Queries read the broad phase, which only a collision pass fills; the level has
        // no bodies, so this pass only indexes the new colliders.
        self.world.detect_collisions(&(), &());
        result
    }

    /// The number of colliders.
    pub fn len(&self) -> usize {
        self.colliders
    }

    /// Whether the level has no collider.
    pub fn is_empty(&self) -> bool {
        self.colliders == 0
    }

    /// The first collider hit by the ray from `origin` along `direction` (normalized
    /// here; need not be unit length) within `max_distance` metres, for line-of-sight
    /// and ground checks. `None` when nothing is hit, or when `direction` is zero or an
    /// argument is not finite.
    pub fn cast_ray(&self, origin: Vec3, direction: Vec3, max_distance: f32) -> Option<RayHit> {
        let direction = direction.try_normalize()?;
        if !origin.is_finite() || !max_distance.is_finite() || max_distance < 0.0 {
            return None;
        }
        let ray = Ray::new(to_rapier(origin), to_rapier(direction));
        let (handle, distance) = self.queries().cast_ray(&ray, max_distance, true)?;
        Some(RayHit {
            distance,
            entity: self.entity_of(handle),
        })
    }

    /// The entity collider `handle` was made for.
    fn entity_of(&self, handle: ColliderHandle) -> Option<EntityId> {
        let data = self.world.colliders.get(handle)?.user_data;
        // Bit 64 marks "has an entity": EntityId 0 is a valid bit pattern to store.
        (data >> 64 == 1).then_some(EntityId(data as u64))
    }

    /// The scene queries the character controller moves through.
    pub(super) fn queries(&self) -> QueryPipeline<'_> {
        self.world.query_pipeline()
    }
}

impl Default for LevelPhysics {
    fn default() -> LevelPhysics {
        LevelPhysics::new()
    }
}

impl fmt::Debug for LevelPhysics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LevelPhysics")
            .field("colliders", &self.colliders)
            .finish_non_exhaustive()
    }
}

/// The rapier collider of `collider`, or why it cannot be built.
fn build(collider: &StaticCollider) -> Result<ColliderBuilder, PhysicsError> {
    let bad = |reason: String| PhysicsError::BadShape {
        entity: collider.entity,
        reason,
    };
    check_finite("position", collider.position).map_err(|e| bad(e.to_string()))?;
    if !collider.rotation.is_finite() || !collider.rotation.is_normalized() {
        return Err(bad(format!(
            "rotation {} is not a unit quaternion",
            collider.rotation
        )));
    }
    let builder = match &collider.shape {
        StaticShape::Cuboid { half_extents: h } => {
            if !(h.is_finite() && h.min_element() > 0.0) {
                return Err(bad(format!(
                    "box half-extents {h} must all be positive and finite"
                )));
            }
            ColliderBuilder::cuboid(h.x, h.y, h.z)
        }
        StaticShape::ConvexHull { points } => {
            if !points.iter().all(|p| p.is_finite()) {
                return Err(bad("convex hull has a non-finite point".to_owned()));
            }
            if !spans_a_volume(points) {
                // A flat hull has no inside: a character could tunnel through it.
                return Err(bad(format!(
                    "no convex hull of {} points (fewer than four, or all in one plane)",
                    points.len()
                )));
            }
            let points: Vec<_> = points.iter().map(|&p| to_rapier(p)).collect();
            ColliderBuilder::convex_hull(&points).ok_or_else(|| {
                bad(format!(
                    "no convex hull of {} points (fewer than four, or all in one plane)",
                    points.len()
                ))
            })?
        }
        StaticShape::TriMesh { vertices, indices } => {
            if !vertices.iter().all(|p| p.is_finite()) {
                return Err(bad("triangle mesh has a non-finite vertex".to_owned()));
            }
            if let Some(t) = indices
                .iter()
                .find(|t| t.iter().any(|&i| i as usize >= vertices.len()))
            {
                return Err(bad(format!(
                    "triangle {t:?} indexes past the {} vertices",
                    vertices.len()
                )));
            }
            let vertices = vertices.iter().map(|&p| to_rapier(p)).collect();
            ColliderBuilder::trimesh(vertices, indices.clone())
                .map_err(|e| bad(format!("bad triangle mesh: {e}")))?
        }
    };
    let pose = rapier3d::math::Pose::from_parts(
        to_rapier(collider.position),
        rapier3d::math::Rotation::from_array(collider.rotation.to_array()),
    );
    let user_data = collider
        .entity
        .map_or(0, |id| (1u128 << 64) | u128::from(id.get()));
    Ok(builder.position(pose).user_data(user_data))
}

/// Whether `points` has four points not in one plane (relative to the cloud's size).
fn spans_a_volume(points: &[Vec3]) -> bool {
    let Some(&a) = points.first() else {
        return false;
    };
    let size = points.iter().map(|p| p.distance(a)).fold(0.0, f32::max);
    let eps = size * 1.0e-4;
    let Some(&b) = points.iter().find(|p| p.distance(a) > eps) else {
        return false;
    };
    let Some(normal) = points
        .iter()
        .map(|&c| (b - a).cross(c - a))
        .find(|n| n.length() > eps * size)
    else {
        return false;
    };
    let normal = normal.normalize();
    points.iter().any(|&d| (d - a).dot(normal).abs() > eps)
}

static_assertions::assert_impl_all!(LevelPhysics: Send, Sync);
