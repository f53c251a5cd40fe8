//! [`instantiate_many`]: many instances of one template with one delta (a game
//! engine's batch spawn: Bevy's `spawn_batch`, Unity ECS's
//! `EntityManager.Instantiate(entity, count)`), docs/design.md, section 7.3's five steps per
//! instance with the per-call checks made once per batch (each delta's batch path is
//! beside its [`Delta`] implementation).

use juliet_core::Error;

use super::cache::TemplateRef;
use super::delta::{sealed, Delta};
use crate::entity::EntityId;
use crate::manager::EntityManager;

/// Creates `count` instances of `template` with `delta`, each exactly the instance
/// [`instantiate_from_template`]`(manager, template, delta)` would create (docs/design.md,
/// section 7.3's five steps: the archetype cloned into its final slot, the template's
/// position, both links, the delta applied and its properties recorded as overrides,
/// a fresh id; dirty, referring to the template by CRC), and appends their ids to
/// `ids` in creation order. The ids are those `count` single calls would take in turn:
/// usually consecutive from [`EntityManager::next_id`], skipping any id already taken
/// (a loaded entity's). `count` 0 does nothing (not even the checks below).
///
/// With `()` and [`PropertyDelta`] deltas, the kind lookup, the type checks, the
/// limits, the room (base records, the kind's storage, the id map and `ids`) and the
/// delta's record fields are taken once per batch, and a [`PropertyDelta`]'s values
/// are copied once, into a clone of the archetype (a prototype, dropped at the end):
/// per instance are left the clone (of the prototype: the same value as the single
/// call's clone and copy) and the records' writes, each kind of write in one pass.
/// The prototype is one more clone and drop of the archetype per batch than `count`
/// single calls make (seen only by a `Clone` or `Drop` with side effects). Other deltas
/// (text, user types) run the single call `count` times. For kinds without heap-typed
/// fields, with a `()` or
/// [`PropertyDelta`] delta, nothing is allocated per instance once `ids` has room (or
/// the batch reserves it once).
///
/// # Errors
/// As [`instantiate_from_template`]: [`juliet_core::ErrorKind::KindMismatch`] for a
/// [`PropertyDelta`] of another kind than the template's, a text delta's tokenizer,
/// [`juliet_core::ErrorKind::BadValue`] or [`juliet_core::ErrorKind::NoSuchProperty`]
/// error, a user delta's error. All or nothing: on an error no instance is created,
/// `ids` and the manager's entities and id counter are as before (spare capacity
/// aside). Panics when the manager or the kind would hold more than `u32::MAX - 1`
/// entities (before creating any); when a clone or a user delta panics, the
/// instances made before it stay, each complete (their ids in `ids`).
///
/// ```
/// use glam::Vec3;
/// use juliet_entities::prelude::*;
/// use juliet_entities::kinds::Inert;
/// use juliet_entities::template::{instantiate_many, PropertyDelta, TemplateCache};
///
/// let mut cache = TemplateCache::new(".");
/// let rock = Inert { mass: 250.0, ..Inert::default_value() };
/// let crc = cache.insert_archetype("Assets/Templates/Rock.jasset", rock, Vec3::ZERO)?.crc();
/// let delta = PropertyDelta::new(Inert { health: 50.0, ..Inert::default_value() })
///     .with("Health")?;
///
/// let mut manager = EntityManager::new();
/// let mut ids = Vec::new();
/// instantiate_many(&mut manager, cache.find(crc).unwrap(), &delta, 3, &mut ids)?;
/// assert_eq!(ids, [EntityId(1), EntityId(2), EntityId(3)]);
/// let inert = manager.get::<Inert>(ids[2]).unwrap();
/// assert_eq!((inert.mass, inert.health), (250.0, 50.0)); // inherited, overridden
/// # Ok::<(), juliet_entities::juliet_core::Error>(())
/// ```
///
/// [`instantiate_from_template`]: super::instantiate_from_template
/// [`PropertyDelta`]: super::PropertyDelta
pub fn instantiate_many<D: Delta + ?Sized>(
    manager: &mut EntityManager,
    template: TemplateRef<'_>,
    delta: &D,
    count: usize,
    ids: &mut Vec<EntityId>,
) -> Result<(), Error> {
    if count == 0 {
        return Ok(());
    }
    let one = sealed::Single { manager, template };
    delta.instantiate_many(sealed::Batch { one, count, ids })
}

#[cfg(test)]
mod tests {
    use glam::Vec3;
    use juliet_core::ErrorKind;

    use super::*;
    use juliet_core::Reflect;

    use crate::kinds::{Inert, Projectile};
    use crate::template::property_delta::tests::rock_cache;
    use crate::template::PropertyDelta;
    use crate::template::{instantiate_from_template, DeltaTarget};

    /// Every record of `m` in base order, with its derived struct's property texts.
    fn snapshot(m: &EntityManager) -> Vec<String> {
        m.entities()
            .iter()
            .map(|e| {
                let (storage, slot) = m.storage_of(e.id()).unwrap();
                let mut values = String::new();
                for index in 0..storage.properties().len() {
                    storage.encode_property(slot, index, &mut values);
                    values.push('|');
                }
                format!(
                    "{} {} {:?} {} {:?} {:?} {} {} {values}",
                    e.id(),
                    e.class().name(),
                    e.position(),
                    e.is_position_overridden(),
                    e.template(),
                    e.overrides().iter().collect::<Vec<_>>(),
                    e.is_dirty(),
                    e.slot(),
                )
            })
            .collect()
    }

    fn typed_delta() -> PropertyDelta<Inert> {
        let values = Inert {
            scale: Vec3::splat(2.0),
            mass: 10.0,
            health: 50.0,
            ..Inert::default_value()
        };
        (["Scale", "Mass", "Health"].into_iter())
            .try_fold(PropertyDelta::new(values), PropertyDelta::with)
            .unwrap()
    }

    /// Runs `setup` on two managers, then a batch of `count` on one and `count` single
    /// calls on the other: both must end the same (records, values, ids, counter), and
    /// the batch's ids are returned.
    fn batch_equals_singles<D: Delta + ?Sized>(
        delta: &D,
        count: usize,
        setup: impl Fn(&mut EntityManager),
    ) -> Vec<EntityId> {
        let (cache, crc) = rock_cache();
        let template = cache.find(crc).unwrap();
        let (mut batch, mut singles) = (EntityManager::new(), EntityManager::new());
        setup(&mut batch);
        setup(&mut singles);
        let mut ids = vec![EntityId(77)];
        instantiate_many(&mut batch, template, delta, count, &mut ids).unwrap();
        assert_eq!(ids.remove(0), EntityId(77), "ids are appended");
        let single_ids: Vec<_> = (0..count)
            .map(|_| instantiate_from_template(&mut singles, template, delta).unwrap())
            .collect();
        assert_eq!(ids, single_ids);
        assert_eq!(snapshot(&batch), snapshot(&singles));
        assert_eq!(batch.id_counter(), singles.id_counter());
        batch.check_invariants().unwrap();
        ids
    }

    #[test]
    fn a_batch_equals_single_calls_with_each_kind_of_delta() {
        let fresh = |_: &mut EntityManager| {};
        let placed = typed_delta().at(Vec3::X);
        let text = "Position: 5, 6, 7\nHealth: 50.0\nMeshAsset: Assets/Meshes/Other.obj\n";
        let ids = batch_equals_singles(&(), 5, fresh);
        assert_eq!(ids, (1..=5).map(EntityId).collect::<Vec<_>>());
        batch_equals_singles(&typed_delta(), 5, fresh);
        batch_equals_singles(&placed, 5, fresh);
        batch_equals_singles(text, 5, fresh);
        // After other entities (of another kind too) and destroys.
        let busy = |m: &mut EntityManager| {
            let a = m.make_entity::<Projectile>(Vec3::ZERO);
            m.make_entity::<Inert>(Vec3::Y);
            m.make_entity::<Projectile>(Vec3::Z);
            m.destroy_entity(a).unwrap();
        };
        for count in [1, 3, 40] {
            let ids = batch_equals_singles(&typed_delta(), count, busy);
            assert_eq!(ids[0], EntityId(4));
            batch_equals_singles(&(), count, busy);
        }
    }

    #[test]
    fn a_batch_skips_taken_ids_as_single_calls_do() {
        // Ids 5 and 7 taken ahead of a counter at 3 (as after ids wrapped).
        let taken = |m: &mut EntityManager| {
            for id in [5, 7] {
                m.allocate_entity_with_id(Inert::CLASS, EntityId(id))
                    .unwrap();
            }
            m.restore_id_counter((3, true));
        };
        let ids = batch_equals_singles(&typed_delta(), 5, taken);
        assert_eq!(ids, [3, 4, 6, 8, 9].map(EntityId));
        batch_equals_singles(&(), 5, taken);
        // The counter at the end of the id range: it wraps past `u64::MAX` to 1.
        let near_end = |m: &mut EntityManager| {
            m.allocate_entity_with_id(Inert::CLASS, EntityId(1))
                .unwrap();
            m.restore_id_counter((u64::MAX - 1, false));
        };
        let ids = batch_equals_singles(&typed_delta(), 4, near_end);
        assert_eq!(ids, [u64::MAX - 1, u64::MAX, 2, 3].map(EntityId));
        // A loaded id far ahead (in the id map's hash part) and the window emptied.
        let far = |m: &mut EntityManager| {
            let a = m.make_entity::<Inert>(Vec3::ZERO);
            m.allocate_entity_with_id(Inert::CLASS, EntityId(1000))
                .unwrap();
            m.destroy_entity(a).unwrap();
            m.restore_id_counter((2, true));
        };
        let ids = batch_equals_singles(&(), 3, far);
        assert_eq!(ids, [2, 3, 4].map(EntityId));
    }

    #[test]
    fn a_batch_interleaves_with_destroys() {
        let (cache, crc) = rock_cache();
        let template = cache.find(crc).unwrap();
        let (mut batch, mut singles) = (EntityManager::new(), EntityManager::new());
        let delta = typed_delta();
        for round in 0..4 {
            let mut ids = Vec::new();
            instantiate_many(&mut batch, template, &delta, 6, &mut ids).unwrap();
            for &id in &ids {
                assert_eq!(
                    instantiate_from_template(&mut singles, template, &delta).unwrap(),
                    id
                );
            }
            // Destroy every other new instance and one older entity.
            let mut doomed: Vec<_> = ids.iter().copied().step_by(2).collect();
            if round > 0 {
                doomed.push(EntityId(2 * round));
            }
            for id in doomed {
                batch.destroy_entity(id).unwrap();
                singles.destroy_entity(id).unwrap();
            }
            batch.check_invariants().unwrap();
            assert_eq!(snapshot(&batch), snapshot(&singles));
        }
        assert_eq!(batch.len(), 4 * 3 - 3);
    }

    #[test]
    fn count_zero_does_nothing() {
        let (cache, crc) = rock_cache();
        let template = cache.find(crc).unwrap();
        let mut m = EntityManager::new();
        let mut ids = Vec::new();
        let other = PropertyDelta::new(Projectile::default_value());
        instantiate_many(&mut m, template, &other, 0, &mut ids).unwrap();
        instantiate_many(&mut m, template, &(), 0, &mut ids).unwrap();
        assert!(m.is_empty() && ids.is_empty() && m.kinds().is_empty());
        assert_eq!(m.next_id(), EntityId(1));
    }

    /// Fails on its `n`th application.
    struct FailsAt(std::cell::Cell<usize>);

    impl Delta for FailsAt {
        fn apply(&self, target: &mut DeltaTarget<'_>) -> Result<(), Error> {
            let left = self.0.get();
            self.0.set(left.wrapping_sub(1));
            if left == 1 {
                return Err(crate::manager::no_such_property(target.class(), "Nope"));
            }
            target.set_position(Vec3::splat(left as f32));
            Ok(())
        }
    }

    #[test]
    fn an_error_leaves_the_manager_unchanged() {
        let (cache, crc) = rock_cache();
        let template = cache.find(crc).unwrap();
        let mut m = EntityManager::new();
        m.make_entity::<Inert>(Vec3::ZERO);
        instantiate_many(&mut m, template, &(), 3, &mut Vec::new()).unwrap();
        let before = (snapshot(&m), m.id_counter());
        let mut ids = vec![EntityId(9)];
        let other = PropertyDelta::new(Projectile::default_value())
            .with("Damage")
            .unwrap();
        let err = instantiate_many(&mut m, template, &other, 4, &mut ids).unwrap_err();
        assert!(matches!(err.kind, ErrorKind::KindMismatch { .. }), "{err}");
        let err = instantiate_many(&mut m, template, "Health: lots", 4, &mut ids).unwrap_err();
        assert!(matches!(err.kind, ErrorKind::BadValue { .. }), "{err}");
        let err = instantiate_many(&mut m, template, "Colour: 1", 4, &mut ids).unwrap_err();
        assert!(
            matches!(err.kind, ErrorKind::NoSuchProperty { .. }),
            "{err}"
        );
        // A delta failing on the third instance: the first two are taken back.
        let late = FailsAt(std::cell::Cell::new(3));
        let err = instantiate_many(&mut m, template, &late, 5, &mut ids).unwrap_err();
        assert!(
            matches!(err.kind, ErrorKind::NoSuchProperty { .. }),
            "{err}"
        );
        assert_eq!(late.0.get(), 0, "it ran three times");
        assert_eq!(ids, [EntityId(9)]);
        assert_eq!((snapshot(&m), m.id_counter()), before);
        m.check_invariants().unwrap();
        // And the next batch takes the ids the failed ones would have.
        instantiate_many(&mut m, template, &(), 2, &mut ids).unwrap();
        assert_eq!(ids, [9, 5, 6].map(EntityId));
    }

    #[test]
    fn a_clone_panicking_mid_batch_keeps_the_instances_made_before_it() {
        use crate::support::{panic_after_clones, Counted};
        use std::panic::{catch_unwind, AssertUnwindSafe};
        let mut cache = crate::template::TemplateCache::new(".");
        let archetype = Counted {
            value: 3,
            payload: Box::new(4),
        };
        let crc = cache
            .insert_archetype("Assets/Templates/Counted.jasset", archetype, Vec3::Y)
            .unwrap()
            .crc();
        let template = cache.find(crc).unwrap();
        let values = Counted {
            value: 9,
            payload: Box::new(0),
        };
        let delta = PropertyDelta::new(values).with("Value").unwrap();
        let mut m = EntityManager::new();
        m.make_entity::<Counted>(Vec3::ZERO);
        // The typed batch clones the archetype once (its prototype), then one clone
        // per instance: the fourth clone is the third instance's.
        let mut ids = vec![EntityId(77)];
        panic_after_clones(3);
        let typed = catch_unwind(AssertUnwindSafe(|| {
            instantiate_many(&mut m, template, &delta, 5, &mut ids)
        }));
        assert!(typed.is_err());
        assert_eq!(ids, [77, 2, 3].map(EntityId));
        // `()`: one clone per instance, the fourth panics.
        panic_after_clones(3);
        let plain = catch_unwind(AssertUnwindSafe(|| {
            instantiate_many(&mut m, template, &(), 5, &mut ids)
        }));
        assert!(plain.is_err());
        assert_eq!(ids, [77, 2, 3, 4, 5, 6].map(EntityId));
        m.check_invariants().unwrap();
        assert_eq!(m.len(), 6);
        assert_eq!(m.next_id(), EntityId(7));
        for (id, value) in [(2, 9), (3, 9), (4, 3), (5, 3), (6, 3)] {
            let e = m.entity(EntityId(id)).unwrap();
            assert_eq!(
                (e.template(), e.position(), e.is_dirty()),
                (Some(crc), Vec3::Y, true)
            );
            assert_eq!(e.overrides().len(), usize::from(value == 9));
            let c = m.get::<Counted>(EntityId(id)).unwrap();
            assert_eq!((c.value, *c.payload), (value, 4));
        }
    }
}
