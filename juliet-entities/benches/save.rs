//! Save-time change detection, figures in `docs/performance.md` ("Saving"): a world of
//! 10,000 loaded `Inert` entity files (the generated world of `benches/runtime.rs`), and
//! `World::save_world` finding what changed by itself (docs/design.md, section 6.2):
//!
//! - `save/unchanged`: nothing changed, so nothing is written: the cost of comparing
//!   every entity with what its file holds;
//! - `save/one_edited_through_slice_mut`: one entity's `Mass` changed through
//!   `slice_mut` (no `mark_dirty`), so the save finds it and writes one file (no
//!   `fsync`);
//! - `save/all_edited`: every entity's `Mass` changed, so the save writes all 10,000
//!   files, each edited in place (one value line changed).
// criterion_group! makes a public function that cannot carry a doc comment.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, Criterion, Throughput};
use juliet_entities::kinds::Inert;
use juliet_entities::{Durability, LoadOptions, World};

#[path = "support/world_gen.rs"]
mod world_gen;

use world_gen::{write_world, WORLD_SIZE};

fn save(c: &mut Criterion) {
    let root = tempfile::tempdir().unwrap();
    write_world(root.path());
    let (mut world, report) = World::load(root.path(), &LoadOptions::default()).unwrap();
    assert_eq!(report.loaded as u64, WORLD_SIZE);
    world.set_durability(Durability::Fast);
    // The first save records each file's text fingerprint; the timed ones then run as
    // every save after a game's first does.
    assert!(world.save_world().unwrap().written.is_empty());

    let mut group = c.benchmark_group("save");
    group.sample_size(20);
    group.throughput(Throughput::Elements(WORLD_SIZE));
    group.bench_function("unchanged", |b| {
        b.iter(|| {
            let report = world.save_world().unwrap();
            assert!(report.written.is_empty());
            black_box(report)
        })
    });
    let mut mass = 1.0f32;
    group.bench_function("one_edited_through_slice_mut", |b| {
        b.iter(|| {
            mass += 1.0;
            world.manager_mut().slice_mut::<Inert>()[WORLD_SIZE as usize / 2].mass = mass;
            let report = world.save_world().unwrap();
            assert_eq!(report.written.len(), 1);
            black_box(report)
        })
    });
    group.sample_size(10);
    // Negative masses: none of the generated entities has one, so every save changes
    // every entity.
    let mut all_mass = -0.25f32;
    group.bench_function("all_edited", |b| {
        b.iter(|| {
            all_mass -= 1.0;
            for inert in world.manager_mut().slice_mut::<Inert>() {
                inert.mass = all_mass;
            }
            let report = world.save_world().unwrap();
            assert_eq!(report.written.len() as u64, WORLD_SIZE);
            black_box(report)
        })
    });
    group.finish();
}

criterion_group!(benches, save);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
