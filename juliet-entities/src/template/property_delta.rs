//! [`PropertyDelta`], the typed delta, and its instantiation path: the archetype
//! cloned straight into the instance's final slot, the delta's values copied in place
//! by the kind's own `copy_properties`, and the base record written once (docs/design.md,
//! section 7.3's five steps with no type-erased delta, no rollback).

use std::num::NonZeroU32;

use glam::Vec3;
use juliet_core::{key_crc_runtime, Class, Error, ErrorKind, Reflect};

use super::cache::TemplateRef;
use super::delta::{sealed, Delta, DeltaTarget};
use crate::entity::EntityId;
use crate::entity::OverrideSet;
use crate::manager::no_such_property;
use crate::manager::{NewRecord, TypedInit};
use crate::storage::Source;

/// A typed delta: chosen properties of a value of `T`, copied into each instance (no
/// parsing), and optionally a position. The fast way to spawn many instances.
///
/// ```
/// use glam::Vec3;
/// use juliet_entities::prelude::*;
/// use juliet_entities::kinds::Inert;
/// use juliet_entities::template::{instantiate_from_template, PropertyDelta, TemplateCache};
///
/// let mut cache = TemplateCache::new(".");
/// let rock = Inert { mass: 250.0, ..Inert::default_value() };
/// let crc = cache.insert_archetype("Assets/Templates/Rock.jasset", rock, Vec3::ZERO)?.crc();
///
/// let delta = PropertyDelta::new(Inert { health: 50.0, ..Inert::default_value() })
///     .with("Health")?
///     .at(Vec3::new(142.5, 12.0, -84.2));
/// let mut manager = EntityManager::new();
/// let id = instantiate_from_template(&mut manager, cache.find(crc).unwrap(), &delta)?;
/// let inert = manager.get::<Inert>(id).unwrap();
/// assert_eq!((inert.mass, inert.health), (250.0, 50.0)); // inherited, overridden
/// assert_eq!(manager.entity(id).unwrap().overrides().len(), 1);
/// # Ok::<(), juliet_entities::juliet_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct PropertyDelta<T: Reflect> {
    values: T,
    set: OverrideSet,
    position: Option<Vec3>,
}

impl<T: Reflect> PropertyDelta<T> {
    /// A delta taking no property yet from `values`.
    pub fn new(values: T) -> PropertyDelta<T> {
        PropertyDelta {
            values,
            set: OverrideSet::new(),
            position: None,
        }
    }

    /// Takes property `key` (any spelling) from the values.
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchProperty`] when `T` has no such property.
    pub fn with(mut self, key: &str) -> Result<PropertyDelta<T>, Error> {
        let index = T::CLASS
            .property_index(key_crc_runtime(key.as_bytes()), key)
            .ok_or_else(|| no_such_property(T::CLASS, key))?;
        self.set.insert(index);
        Ok(self)
    }

    /// Places instances at `position` (an override of the template's position).
    pub fn at(mut self, position: Vec3) -> PropertyDelta<T> {
        self.position = Some(position);
        self
    }

    /// The values the chosen properties are taken from.
    pub fn values(&self) -> &T {
        &self.values
    }

    /// The chosen properties (indices into `T`'s property table).
    pub fn properties(&self) -> &OverrideSet {
        &self.set
    }
}

/// The error of a typed delta of kind `T` given a template of `class`.
pub(super) fn kind_mismatch<T: Reflect>(class: &'static Class) -> Error {
    Error::file(
        "",
        ErrorKind::KindMismatch {
            found: T::CLASS.name().into(),
            template: class.name().into(),
        },
    )
}

/// # Errors
/// [`ErrorKind::KindMismatch`] when the template is not of kind `T`.
impl<T: Reflect> Delta for PropertyDelta<T> {
    fn apply(&self, target: &mut DeltaTarget<'_>) -> Result<(), Error> {
        let class = target.class();
        let Some(value) = target.value_mut::<T>() else {
            return Err(kind_mismatch::<T>(class));
        };
        value.copy_properties(&self.values, self.set.words());
        target.entity.overrides.union_with(&self.set);
        if let Some(position) = self.position {
            target.set_position(position);
        }
        Ok(())
    }

    /// The typed path: the archetype cloned straight into its final slot (the class's
    /// clone), then the delta's values copied in place by `T`'s own
    /// `copy_properties`, inlined, and the base record written once with its position,
    /// template and overrides: no [`DeltaTarget`], no rollback. The same instance as
    /// [`Delta::apply`] after the type-erased path's copy (the test
    /// `typed_and_erased_instantiation_agree`).
    #[inline(always)]
    fn instantiate(&self, request: sealed::Single<'_>) -> Result<EntityId, Error> {
        let sealed::Single { manager, template } = request;
        let (archetypes, slot) = template.archetype_storage();
        // `self.record(template)` written out: through the call, inlined all the same,
        // this path took 4 more instructions per instance (callgrind).
        let record = NewRecord {
            position: self.position.unwrap_or(template.position()),
            template: NonZeroU32::new(template.crc()),
            overrides: self.set.clone(),
            position_overridden: self.position.is_some(),
        };
        // The type-erased clone (it writes straight into the slot), then the values
        // copied in place, typed and inlined.
        let init = TypedInit::<fn() -> T>::Clone(archetypes, slot);
        let finish = |value: &mut T| value.copy_properties(&self.values, self.set.words());
        // `None` when the template's kind is not `T` (nothing is created then).
        manager
            .spawn_with(template.class(), record, init, finish)
            .ok_or_else(|| kind_mismatch::<T>(template.class()))
    }

    /// The typed batch: the checks once, then per instance `T`'s clone and the
    /// values' copy as in [`Delta::instantiate`] above.
    fn instantiate_many(&self, request: sealed::Batch<'_>) -> Result<(), Error> {
        instantiate_many_typed(self, request)
    }
}

impl<T: Reflect> PropertyDelta<T> {
    /// The base record fields of an instance made with this delta from `template` (as
    /// [`Delta::instantiate`] above writes them out).
    #[inline(always)]
    pub(super) fn record(&self, template: TemplateRef<'_>) -> NewRecord {
        NewRecord {
            position: self.position.unwrap_or(template.position()),
            template: NonZeroU32::new(template.crc()),
            overrides: self.set.clone(),
            position_overridden: self.position.is_some(),
        }
    }
}

/// The batch of a [`PropertyDelta`]: the delta applied once, to a clone of the
/// archetype (`T`'s clone, then its values copied in as the single call does), and
/// each instance `T`'s clone of that prototype: the same values as the single call's
/// clone and copy, with no per-instance copy.
fn instantiate_many_typed<T: Reflect>(
    delta: &PropertyDelta<T>,
    request: sealed::Batch<'_>,
) -> Result<(), Error> {
    let sealed::Batch { one, count, ids } = request;
    let template = one.template;
    let record = delta.record(template);
    let prototype = template.archetype::<T>().map(|archetype| {
        let mut value = archetype.clone_value();
        value.copy_properties(delta.values(), delta.properties().words());
        value
    });
    // Another kind than `T`: the archetype's slot, which the manager refuses.
    let source = match &prototype {
        Some(value) => Source::Value(value),
        None => {
            let (archetypes, slot) = template.archetype_storage();
            Source::Slot(archetypes, slot)
        }
    };
    one.manager
        .spawn_clones::<T>(template.class(), &record, source, count, ids, |a, base| {
            a.fill(base)
        })
        .ok_or_else(|| kind_mismatch::<T>(template.class()))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::kinds::{Inert, Projectile};
    use crate::manager::EntityManager;
    use crate::template::{instantiate_from_template, TemplateCache};

    /// Forwards [`Delta::apply`] only, so instantiation takes the provided,
    /// type-erased path.
    struct Erased<'d, D>(&'d D);

    impl<D: Delta> Delta for Erased<'_, D> {
        fn apply(&self, target: &mut DeltaTarget<'_>) -> Result<(), Error> {
            self.0.apply(target)
        }
    }

    /// A cache holding one `Inert` template (`Rock`: a mesh, mass 250, at 1 2 3).
    pub(in crate::template) fn rock_cache() -> (TemplateCache, u32) {
        let mut cache = TemplateCache::new(".");
        let rock = Inert {
            mesh_asset: "Assets/Meshes/Rock_01.obj".into(),
            mass: 250.0,
            ..Inert::default_value()
        };
        let at = Vec3::new(1.0, 2.0, 3.0);
        let crc = cache
            .insert_archetype("Assets/Templates/Rock.jasset", rock, at)
            .unwrap()
            .crc();
        (cache, crc)
    }

    #[test]
    fn typed_and_erased_instantiation_agree() {
        let (cache, crc) = rock_cache();
        let template = cache.find(crc).unwrap();
        let values = Inert {
            mesh_asset: "Assets/Meshes/Other.obj".into(),
            scale: Vec3::splat(1.5),
            health: 50.0,
            mass: -1.0, // not chosen: the template's 250 stays
            ..Inert::default_value()
        };
        let placed = (["MeshAsset", "Scale", "Health"].into_iter())
            .try_fold(PropertyDelta::new(values.clone()), PropertyDelta::with)
            .unwrap()
            .at(Vec3::X);
        let unplaced = PropertyDelta::new(values).with("health").unwrap();
        for delta in [&placed, &unplaced] {
            let mut m = EntityManager::new();
            let typed = instantiate_from_template(&mut m, template, delta).unwrap();
            let erased = instantiate_from_template(&mut m, template, &Erased(delta)).unwrap();
            m.check_invariants().unwrap();
            let (a, b) = (m.entity(typed).unwrap(), m.entity(erased).unwrap());
            assert_eq!(a.overrides().iter().collect::<Vec<_>>(), {
                b.overrides().iter().collect::<Vec<_>>()
            });
            assert_eq!(a.overrides().len(), delta.properties().len());
            assert_eq!(
                (a.position(), a.is_position_overridden(), a.template()),
                (b.position(), b.is_position_overridden(), b.template())
            );
            assert_eq!(a.template(), Some(crc));
            assert!(a.is_dirty() && b.is_dirty());
            let (x, y) = (
                m.get::<Inert>(typed).unwrap(),
                m.get::<Inert>(erased).unwrap(),
            );
            assert_eq!(x, y);
            assert_eq!(x.mass, 250.0);
            assert_eq!(x.health, 50.0);
        }
        let placed_id = {
            let mut m = EntityManager::new();
            let id = instantiate_from_template(&mut m, template, &placed).unwrap();
            let e = m.entity(id).unwrap();
            assert_eq!((e.position(), e.is_position_overridden()), (Vec3::X, true));
            (m.get::<Inert>(id).unwrap().mesh_asset.clone(), id)
        };
        assert_eq!(
            placed_id,
            ("Assets/Meshes/Other.obj".to_owned(), EntityId(1))
        );
    }

    #[test]
    fn a_typed_delta_of_another_kind_creates_nothing() {
        let mut m = EntityManager::new();
        m.make_entity::<Inert>(Vec3::ZERO);
        let (cache, crc) = rock_cache();
        let template = cache.find(crc).unwrap();
        let delta = PropertyDelta::new(Projectile::default_value())
            .with("Damage")
            .unwrap();
        for result in [
            instantiate_from_template(&mut m, template, &delta),
            instantiate_from_template(&mut m, template, &Erased(&delta)),
        ] {
            let err = result.unwrap_err();
            assert!(matches!(err.kind, ErrorKind::KindMismatch { .. }), "{err}");
        }
        assert_eq!((m.len(), m.next_id()), (1, EntityId(2)));
        m.check_invariants().unwrap();
    }
}
