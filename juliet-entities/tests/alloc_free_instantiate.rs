//! With a counting global allocator: once warm, instantiating a template whose kind has
//! no heap-typed field makes no heap allocation per instance (docs/design.md,
//! section 5.6), with each kind of delta, one call per instance or
//! one batch ([`instantiate_many`], its ids' `Vec` given room beforehand).
//! Instantiating N and 2N instances costs the same number of allocations: none.

mod counting;
mod support;

use counting::{allocations, Counting};
use glam::Vec3;
use juliet_core::Reflect;
use juliet_entities::kinds::{Collectible, Inert};
use juliet_entities::template::{
    instantiate_from_template, instantiate_many, Delta, PropertyDelta, TemplateCache,
};
use juliet_entities::EntityManager;
use support::Crate;

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Entities per round (fewer under Miri, which runs the counting allocator's `unsafe`
/// in `.ci/miri` and is about a thousand times slower).
const N: usize = if cfg!(miri) { 20 } else { 500 };

/// Allocations made by instantiating `n` instances of `template` with `delta` in
/// `manager` (then destroying them, uncounted).
fn instantiate_n<D: Delta + ?Sized>(
    manager: &mut EntityManager,
    cache: &TemplateCache,
    crc: u32,
    delta: &D,
    n: usize,
    batch: bool,
) -> usize {
    let template = cache.find(crc).unwrap();
    let mut ids = Vec::with_capacity(n);
    let before = allocations();
    if batch {
        instantiate_many(manager, template, delta, n, &mut ids).unwrap();
    } else {
        for _ in 0..n {
            instantiate_from_template(manager, template, delta).unwrap();
        }
    }
    let made = allocations() - before;
    manager.check_invariants().unwrap();
    let ids: Vec<_> = manager.entities().iter().map(|e| e.id()).collect();
    for id in ids {
        manager.destroy_entity(id).unwrap();
    }
    made
}

fn assert_no_allocation_per_instance<D: Delta + ?Sized>(
    manager: &mut EntityManager,
    cache: &TemplateCache,
    crc: u32,
    delta: &D,
) {
    for batch in [false, true] {
        instantiate_n(manager, cache, crc, delta, 2 * N, batch); // warm up
        let for_n = instantiate_n(manager, cache, crc, delta, N, batch);
        let for_2n = instantiate_n(manager, cache, crc, delta, 2 * N, batch);
        assert_eq!(
            for_n, for_2n,
            "allocations grow with the number of instances (batch: {batch})"
        );
        assert_eq!(
            for_2n, 0,
            "steady-state instantiation allocated (batch: {batch})"
        );
    }
}

#[test]
fn instantiating_kinds_without_heap_fields_allocates_nothing_per_instance() {
    let mut cache = TemplateCache::new(".");
    let coin = cache
        .insert_archetype(
            "Assets/Templates/Coin.jasset",
            Collectible { value: 500 },
            Vec3::ZERO,
        )
        .unwrap()
        .crc();
    let crate_archetype = Crate {
        mass: 40.0,
        ..Crate::default()
    };
    let crate_template = cache
        .insert_archetype("Assets/Templates/Crate.jasset", crate_archetype, Vec3::Y)
        .unwrap()
        .crc();
    let mut manager = EntityManager::new();
    manager.reserve(Collectible::CLASS, 2 * N);
    manager.reserve(Crate::CLASS, 2 * N);

    assert_no_allocation_per_instance(&mut manager, &cache, coin, &());
    assert_no_allocation_per_instance(
        &mut manager,
        &cache,
        coin,
        "Position: 1.5, 0, -2\nValue: 750\n",
    );
    let delta = PropertyDelta::new(Crate {
        mass: 1.0,
        health: 5,
        scale: Vec3::splat(2.0),
        ..Crate::default()
    })
    .with("Mass")
    .unwrap()
    .with("Health")
    .unwrap()
    .with("Scale")
    .unwrap()
    .at(Vec3::X);
    assert_no_allocation_per_instance(&mut manager, &cache, crate_template, &delta);
    assert_no_allocation_per_instance(
        &mut manager,
        &cache,
        crate_template,
        "; Mass\n3.0\n; Health\n7\n; Scale: 1, 2, 3\n",
    );

    // Control: the counter does see allocations (an `Inert` has `String` fields).
    let rock = Inert {
        mesh_asset: "Assets/Meshes/Rock_01.obj".into(),
        ..Inert::default_value()
    };
    let rock = cache
        .insert_archetype("Assets/Templates/Rock.jasset", rock, Vec3::ZERO)
        .unwrap()
        .crc();
    manager.reserve(Inert::CLASS, 2 * N);
    assert!(instantiate_n(&mut manager, &cache, rock, &(), N, false) >= N);
    assert!(instantiate_n(&mut manager, &cache, rock, &(), N, true) >= N);
}
