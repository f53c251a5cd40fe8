//! A view keeps finding its entity through relocations, and reports a missing one.

use glam::Vec3;
use juliet_entities::{kinds::Inert, EntityManager};

use crate::ConstructView;

#[test]
fn view_follows_its_entity_through_swap_and_pop_and_growth() {
    let mut m = EntityManager::new();
    let before: Vec<_> = (0..5)
        .map(|i| m.make_entity::<Inert>(Vec3::splat(i as f32)))
        .collect();
    let mut view = ConstructView::<Inert>::new();
    let id = view.initialize(&mut m, Vec3::new(7.0, 8.0, 9.0));
    view.get_mut(&mut m).unwrap().mass = 42.0;
    assert_eq!(m.storage_of(id).unwrap().1, 5);
    // Swap-and-pop: destroying an earlier entity moves the last one (ours) down.
    m.destroy_entity(before[1]).unwrap();
    assert_eq!(m.storage_of(id).unwrap().1, 1, "the view's entity moved");
    assert_eq!(view.get(&m).unwrap().mass, 42.0);
    assert_eq!(view.entity(&m).unwrap().id(), id);
    // Growth: many more entities reallocate the storage.
    let cap = m.kinds()[0].capacity();
    let more: Vec<_> = (0..200)
        .map(|_| m.make_entity::<Inert>(Vec3::ZERO))
        .collect();
    assert!(m.kinds()[0].capacity() > cap);
    assert_eq!(view.get(&m).unwrap().mass, 42.0);
    // Destroy the rest, in an order that moves ours again and again.
    for other in before
        .iter()
        .chain(&more)
        .rev()
        .filter(|&&o| o != before[1])
    {
        m.destroy_entity(*other).unwrap();
        let (e, value) = view.parts_mut(&mut m).unwrap();
        assert_eq!(
            (e.id(), e.position(), value.mass),
            (id, Vec3::new(7.0, 8.0, 9.0), 42.0)
        );
    }
    assert_eq!(m.len(), 1);
    m.check_invariants().unwrap();
}

#[test]
fn a_view_of_a_gone_entity_gives_none() {
    let mut m = EntityManager::new();
    let mut view = ConstructView::<Inert>::default();
    assert!(view.get(&m).is_none() && !view.is_attached());
    let id = view.initialize(&mut m, Vec3::ZERO);
    m.destroy_entity(id).unwrap();
    assert!(view.get(&m).is_none());
    assert!(view.entity_mut(&mut m).is_none());
    assert!(!view.destroy(&mut m), "nothing left to destroy");
    // A new entity in the same slot is not the view's.
    let id2 = view.initialize(&mut m, Vec3::ZERO);
    let mut stale = ConstructView::<Inert>::new();
    stale.attach(id);
    assert!(stale.get(&m).is_none());
    assert_ne!(id, id2);
}

#[test]
fn release_keeps_the_entity_and_initialize_replaces_it() {
    let mut m = EntityManager::new();
    let mut view = ConstructView::<Inert>::new();
    let first = view.initialize(&mut m, Vec3::ZERO);
    let second = view.initialize_with(
        &mut m,
        Vec3::X,
        Inert {
            mass: 3.0,
            ..juliet_core::Reflect::default_value()
        },
    );
    assert!(
        !m.contains(first),
        "re-initializing destroys the old entity"
    );
    assert_eq!(view.get(&m).unwrap().mass, 3.0);
    assert!(m.entity(second).unwrap().is_dirty());
    assert_eq!(view.release(), Some(second));
    assert!(m.contains(second));
    assert!(view.get(&m).is_none());
    // Another kind under the same id is not a `T`.
    let mut wrong = ConstructView::<juliet_entities::kinds::Collectible>::new();
    wrong.attach(second);
    assert!(wrong.get(&m).is_none());
}
