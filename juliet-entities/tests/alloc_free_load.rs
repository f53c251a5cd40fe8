//! With a counting global allocator: once warm, loading entities whose kind has no
//! heap-typed field makes no heap allocation per entity (docs/design.md, section 5.6). Loading N
//! and 2N entities costs the same number of allocations.

mod counting;
mod support;

use std::path::Path;

use counting::{allocations, Counting};
use juliet_core::Reflect;
use juliet_entities::kinds::Collectible;
use juliet_entities::{load_entity, EntityManager};
use support::{crate_file, Crate};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Entities per round (fewer under Miri, which runs the counting allocator's `unsafe`
/// in `.ci/miri` and is about a thousand times slower).
const N: usize = if cfg!(miri) { 20 } else { 500 };

#[test]
fn loading_entities_without_heap_fields_allocates_nothing_per_entity_once_warm() {
    // Half hand-written `TestCrate`, half derived `Collectible`: no heap-typed field.
    let files: Vec<String> = (1..=2 * N as u64)
        .map(|i| match i % 2 {
            0 => crate_file(i, i as f32, 0.5 * i as f32),
            _ => format!(
                "; AssetType\nEntity\n; BaseVersion\n1\n; EntityID\n0x{i:016X}\n; Kind\nCollectible\n\
                 ; Position\n{i}.0 0.0 1.5\n; ClassVersion\n1\n; Value\n{i}\n"
            ),
        })
        .collect();
    let path = Path::new("Entities/crate.jasset");
    let mut manager = EntityManager::new();

    let load_all = |manager: &mut EntityManager, files: &[String]| {
        let before = allocations();
        for file in files {
            let loaded = load_entity(manager, path, file.as_bytes()).unwrap();
            assert!(loaded.warnings.is_empty());
        }
        let made = allocations() - before;
        manager.check_invariants().unwrap();
        let ids: Vec<_> = manager.entities().iter().map(|e| e.id()).collect();
        for id in ids {
            manager.destroy_entity(id).unwrap();
        }
        made
    };

    // Warm up: registry, per-thread token buffer, storage and map capacity.
    manager.reserve(Crate::CLASS, N);
    manager.reserve(Collectible::CLASS, N);
    load_all(&mut manager, &files);

    let for_n = load_all(&mut manager, &files[..N]);
    let for_2n = load_all(&mut manager, &files);
    assert_eq!(
        for_n, for_2n,
        "allocations grow with the number of entities"
    );
    assert_eq!(for_2n, 0, "steady-state loading allocated");

    // Control: the counter does see allocations (a `String` field allocates).
    let before = allocations();
    let sign = "; Kind\nTestSign\n; Text\n\"a fresh string\"\n";
    load_entity(&mut manager, path, sign.as_bytes()).unwrap();
    assert!(allocations() > before);
}
