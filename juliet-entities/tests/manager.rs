//! EntityManager: allocation and wiring, typed storage, swap-and-pop destroy, dirty
//! tracking (docs/design.md, sections 5.1-5.3 and 6.2), with `check_invariants` after every
//! operation.

mod support;

use glam::Vec3;
use juliet_core::{ErrorKind, Reflect};
use juliet_entities::{EntityId, EntityManager};
use support::{drops, Aligned, Counted, Crate, Marker, Sign};

fn check(m: &EntityManager) {
    m.check_invariants().unwrap();
}

#[test]
fn allocate_entity_initializes_defaults_in_place_and_wires_both_links() {
    let mut m = EntityManager::new();
    let id = m.allocate_entity(Crate::CLASS);
    check(&m);
    assert_ne!(id, EntityId(0));
    let e = m.entity(id).unwrap();
    assert!(e.is::<Crate>());
    assert!(e.class() == Crate::CLASS);
    assert!(e.is_dirty(), "new entities are dirty");
    assert_eq!(e.position(), Vec3::ZERO);
    // Base -> derived (slot) and derived -> base (index), both ways.
    assert_eq!(e.slot(), 0);
    assert_eq!(m.bases_of::<Crate>(), &[0]);
    assert_eq!(m.base_of::<Crate>(0).unwrap().id(), id);
    // Declared defaults, not zeroes (docs/design.md, section 5.3).
    assert_eq!(m.get::<Crate>(id).unwrap(), &Crate::default());
    assert_eq!(m.get::<Crate>(id).unwrap().mesh_instance, u32::MAX);
    // Downcast.
    assert!(m.get::<Sign>(id).is_none());
    assert_eq!(m.downcast::<Crate>(e), Some(&Crate::default()));
    assert_eq!(m.slice::<Crate>().len(), 1);
    assert_eq!(m.kind_storage(Crate::CLASS).unwrap().len(), 1);
}

#[test]
fn ids_are_unique_and_the_counter_only_grows() {
    let mut m = EntityManager::new();
    let a = m.make_entity::<Crate>(Vec3::X);
    let b = m.make_entity::<Sign>(Vec3::Y);
    assert!(b.get() > a.get());
    m.destroy_entity(b).unwrap();
    let c = m.make_entity::<Crate>(Vec3::Z);
    assert!(c.get() > b.get(), "destroyed ids are not reused");
    let d = m
        .allocate_entity_with_id(Crate::CLASS, EntityId(1000))
        .unwrap();
    assert_eq!(d, EntityId(1000));
    assert!(m.next_id().get() > 1000);
    let err = m
        .allocate_entity_with_id(Sign::CLASS, EntityId(1000))
        .unwrap_err();
    assert!(matches!(
        err.kind,
        ErrorKind::DuplicateEntityId { id: 1000, .. }
    ));
    let err = m
        .allocate_entity_with_id(Sign::CLASS, EntityId(0))
        .unwrap_err();
    assert!(matches!(err.kind, ErrorKind::NoSuchEntity(0)));
    check(&m);
}

#[test]
fn every_kind_keeps_every_entity_contiguous() {
    let mut m = EntityManager::new();
    let mut crates = Vec::new();
    for i in 0..50 {
        crates.push(m.make_entity::<Crate>(Vec3::splat(i as f32)));
        m.make_entity::<Sign>(Vec3::ZERO);
        check(&m);
    }
    assert_eq!(m.len(), 100);
    assert_eq!(m.slice::<Crate>().len(), 50);
    assert_eq!(m.slice::<Sign>().len(), 50);
    for (i, &id) in crates.iter().enumerate() {
        let (e, c) = m.get_with_entity::<Crate>(id).unwrap();
        assert_eq!(e.position(), Vec3::splat(i as f32));
        assert_eq!(c, &Crate::default());
    }
    // Systems iterate a kind directly, with or without base records.
    for c in m.slice_mut::<Crate>() {
        c.health -= 1;
    }
    assert!(m.slice::<Crate>().iter().all(|c| c.health == 99));
    let positions: Vec<f32> = m.iter::<Crate>().map(|(e, _)| e.position().x).collect();
    assert_eq!(positions, (0..50).map(|i| i as f32).collect::<Vec<_>>());
    for (e, c) in m.iter_mut::<Crate>() {
        c.mass = e.position().x;
    }
    assert_eq!(m.get::<Crate>(crates[7]).unwrap().mass, 7.0);
    assert!(m.slice::<Marker>().is_empty());
    assert!(m.slice_mut::<Aligned>().is_empty());
    check(&m);
}

/// Swap-and-pop destroy (docs/design.md, section 5.2): destroying the middle of three
/// moves the last into its place and fixes both links.
#[test]
fn destroy_swaps_and_pops_and_fixes_both_links() {
    let mut m = EntityManager::new();
    let e0 = m.make_entity::<Crate>(Vec3::new(1.0, 0.0, 0.0));
    let e1 = m.make_entity::<Crate>(Vec3::new(2.0, 0.0, 0.0));
    let e2 = m.make_entity::<Crate>(Vec3::new(3.0, 0.0, 0.0));
    m.get_mut::<Crate>(e2).unwrap().health = 2;
    check(&m);
    m.destroy_entity(e1).unwrap();
    check(&m);
    assert_eq!(m.len(), 2);
    assert_eq!(m.entities()[0].id(), e0);
    assert_eq!(m.entities()[1].id(), e2);
    for (i, e) in m.entities().iter().enumerate() {
        assert_eq!(m.bases_of::<Crate>()[e.slot()] as usize, i);
    }
    assert_eq!(m.get::<Crate>(e2).unwrap().health, 2);
    assert_eq!(m.entity(e2).unwrap().position().x, 3.0);
    assert!(m.entity(e1).is_none());
    let err = m.destroy_entity(e1).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NoSuchEntity(e1.get()));
    check(&m);
}

/// `Entity::kind_index` names the record's storage in `kinds()`, and
/// `get_with_entity_at_mut` reaches a record and its derived struct by base index:
/// typed, marking the entity dirty, `None` past the end or for another kind.
#[test]
fn kind_index_and_access_by_base_index() {
    let mut m = EntityManager::new();
    let c = m.make_entity::<Crate>(Vec3::X);
    let s = m.make_entity::<Sign>(Vec3::Y);
    for e in m.entities() {
        let storage = &m.kinds()[e.kind_index()];
        assert!(storage.class() == e.class());
        assert_eq!(
            storage.bases()[e.slot()] as usize,
            m.index_of(e.id()).unwrap()
        );
    }
    assert_ne!(
        m.entity(c).unwrap().kind_index(),
        m.entity(s).unwrap().kind_index()
    );

    let base = m.index_of(c).unwrap();
    m.entity_mut(c).unwrap().clear_dirty();
    let (entity, value) = m.get_with_entity_at_mut::<Crate>(base).unwrap();
    assert_eq!(entity.id(), c);
    entity.set_position(Vec3::Z);
    value.health = 7;
    assert_eq!(m.get::<Crate>(c).unwrap().health, 7);
    assert_eq!(m.entity(c).unwrap().position(), Vec3::Z);
    m.entity_mut(c).unwrap().clear_dirty();
    m.get_with_entity_at_mut::<Crate>(base).unwrap();
    assert!(
        m.entity(c).unwrap().is_dirty(),
        "access marks the entity dirty"
    );

    assert!(
        m.get_with_entity_at_mut::<Sign>(base).is_none(),
        "not a Sign"
    );
    assert!(
        m.get_with_entity_at_mut::<Crate>(m.len()).is_none(),
        "past the end"
    );
    check(&m);
}

#[test]
fn destroy_fixes_links_across_kinds() {
    // The base array and the kind storage move different entities: the last base
    // record is a Sign, the last Crate slot is another Crate.
    let mut m = EntityManager::new();
    let a = m.make_entity::<Crate>(Vec3::X);
    let b = m.make_entity::<Crate>(Vec3::Y);
    let s = m.make_entity::<Sign>(Vec3::Z);
    m.get_mut::<Sign>(s).unwrap().text = "kept".into();
    m.destroy_entity(a).unwrap();
    check(&m);
    assert_eq!(m.entities()[0].id(), s);
    assert_eq!(m.entity(b).unwrap().slot(), 0);
    assert_eq!(m.get::<Sign>(s).unwrap().text, "kept");
    assert_eq!(m.entity(b).unwrap().position(), Vec3::Y);
    m.destroy_entity(s).unwrap();
    m.destroy_entity(b).unwrap();
    check(&m);
    assert!(m.is_empty());
}

#[test]
fn destroy_drops_the_derived_struct_and_dropping_the_manager_drops_the_rest() {
    let before = drops();
    let mut m = EntityManager::new();
    let ids: Vec<EntityId> = (0..5)
        .map(|_| m.make_entity::<Counted>(Vec3::ZERO))
        .collect();
    m.destroy_entity(ids[1]).unwrap();
    assert_eq!(drops() - before, 1);
    check(&m);
    drop(m);
    assert_eq!(drops() - before, 5);
}

#[test]
fn zero_sized_and_over_aligned_kinds() {
    let mut m = EntityManager::new();
    let markers: Vec<EntityId> = (0..10)
        .map(|_| m.make_entity::<Marker>(Vec3::ZERO))
        .collect();
    let aligned: Vec<EntityId> = (0..10)
        .map(|_| m.make_entity::<Aligned>(Vec3::ZERO))
        .collect();
    m.get_mut::<Aligned>(aligned[9]).unwrap().value = 9;
    m.destroy_entity(markers[3]).unwrap();
    m.destroy_entity(aligned[0]).unwrap();
    check(&m);
    assert_eq!(m.slice::<Marker>().len(), 9);
    assert_eq!(m.get::<Aligned>(aligned[9]).unwrap().value, 9);
    assert!(m
        .slice::<Aligned>()
        .iter()
        .all(|a| (a as *const Aligned as usize) % 64 == 0));
}

/// Dirty tracking (docs/design.md, section 6.2).
#[test]
fn dirty_flag_follows_creation_save_and_mutation() {
    let mut m = EntityManager::new();
    let id = m.allocate_entity(Crate::CLASS);
    assert!(m.entity(id).unwrap().is_dirty());
    m.entity_mut(id).unwrap().clear_dirty(); // what a save does
    assert!(!m.entity(id).unwrap().is_dirty());
    m.entity_mut(id)
        .unwrap()
        .set_position(Vec3::new(1.0, 0.0, 0.0));
    assert!(m.entity(id).unwrap().is_dirty());
    m.entity_mut(id).unwrap().clear_dirty();
    // Reading does not dirty; typed mutable access does.
    let _ = m.get::<Crate>(id);
    assert!(!m.entity(id).unwrap().is_dirty());
    m.get_mut::<Crate>(id).unwrap().mass = 3.0;
    assert!(m.entity(id).unwrap().is_dirty());
    m.entity_mut(id).unwrap().clear_dirty();
    // A typed slice does not; systems mark what must be saved.
    m.slice_mut::<Crate>()[0].mass = 4.0;
    assert!(!m.entity(id).unwrap().is_dirty());
    m.for_each_entity_mut(|e| e.mark_dirty());
    assert!(m.entity(id).unwrap().is_dirty());
    check(&m);
}

#[test]
fn check_invariants_reports_a_clean_manager_after_reserve() {
    let mut m = EntityManager::new();
    m.reserve(Crate::CLASS, 100);
    assert!(m.kind_storage(Crate::CLASS).unwrap().capacity() >= 100);
    check(&m);
    assert!(m.kind_storage(Sign::CLASS).is_none());
}
