//! Runtime benchmarks, figures in `docs/performance.md` ("Runtime"):
//!
//! - `world_load/*`: a generated world of 10,000 entity files (about 300 bytes each,
//!   page cache warm), `World::load` on a one-thread rayon pool against listing the
//!   directory and `std::fs::read` of every file (unsorted) on one thread, and against
//!   the fewest system calls that read the files (`open`, one `read` into a reused
//!   buffer, `close`: what `World::load` does on one thread);
//! - `manager/allocate_destroy`: allocate then destroy 1,000 entities;
//! - `manager/load_entity_from_memory`: one entity file parsed and loaded in place.
// criterion_group! makes a public function that cannot carry a doc comment.
#![allow(missing_docs)]

use std::fs;
use std::hint::black_box;
use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion, Throughput};
use glam::Vec3;
use juliet_entities::juliet_core::Reflect;
use juliet_entities::kinds::Inert;
use juliet_entities::{load_entity, EntityId, EntityManager, LoadOptions, World};

#[path = "support/world_gen.rs"]
mod world_gen;

use world_gen::{entity_file, write_world, WORLD_SIZE};

/// The generated world, written on first use (not when a filter skips these benches).
static WORLD: OnceLock<tempfile::TempDir> = OnceLock::new();

fn generated_world() -> &'static Path {
    WORLD
        .get_or_init(|| {
            let root = tempfile::tempdir().unwrap();
            let paths = write_world(root.path());
            // Write the new files back now: the kernel's writeback of 10,000 new files
            // would otherwise run during the first timed runs (the `fs::read`
            // baseline's), slowing them.
            let _ = std::process::Command::new("sync").status();
            let bytes: u64 = paths.iter().map(|p| fs::metadata(p).unwrap().len()).sum();
            eprintln!(
                "world_load: {WORLD_SIZE} files, {:.0} bytes on average",
                bytes as f64 / WORLD_SIZE as f64
            );
            root
        })
        .path()
}

fn world_load(c: &mut Criterion) {
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();

    let mut group = c.benchmark_group("world_load");
    group.sample_size(20);
    group.throughput(Throughput::Elements(WORLD_SIZE));
    group.bench_function("fs_read_baseline", |b| {
        let dir = generated_world().join("Entities");
        b.iter(|| {
            let mut total = 0;
            for entry in fs::read_dir(&dir).unwrap() {
                total += fs::read(entry.unwrap().path()).unwrap().len();
            }
            black_box(total)
        })
    });
    group.bench_function("open_read_close_baseline", |b| {
        let dir = generated_world().join("Entities");
        let mut buf = vec![0u8; 64 << 10];
        b.iter(|| {
            let mut total = 0;
            for entry in fs::read_dir(&dir).unwrap() {
                let mut file = fs::File::open(entry.unwrap().path()).unwrap();
                // One read: the files are far smaller than the buffer.
                total += file.read(&mut buf).unwrap();
            }
            black_box(total)
        })
    });
    group.bench_function("world_load_1_thread", |b| {
        b.iter(|| {
            // The world is not `Send` (kinds are only known by their classes): it is
            // made and dropped on the pool's thread.
            one_thread.install(|| {
                let (world, report) =
                    World::load(generated_world(), &LoadOptions::default()).unwrap();
                assert_eq!(report.loaded as u64, WORLD_SIZE);
                black_box(world.manager().len())
            })
        })
    });
    group.bench_function("world_load_all_threads", |b| {
        b.iter(|| {
            let (world, report) = World::load(generated_world(), &LoadOptions::default()).unwrap();
            assert_eq!(report.loaded as u64, WORLD_SIZE);
            black_box(world)
        })
    });
    group.finish();
}

fn manager(c: &mut Criterion) {
    let mut group = c.benchmark_group("manager");
    const BATCH: usize = 1_000;
    group.throughput(Throughput::Elements(2 * BATCH as u64));
    group.bench_function("allocate_destroy", |b| {
        let mut m = EntityManager::new();
        m.reserve(Inert::CLASS, BATCH);
        let mut ids: Vec<EntityId> = Vec::with_capacity(BATCH);
        b.iter(|| {
            for i in 0..BATCH {
                ids.push(m.make_entity::<Inert>(Vec3::splat(i as f32)));
            }
            // Destroy in an order that moves records (every other one, then the rest).
            for i in (0..BATCH).step_by(2).chain((1..BATCH).step_by(2)) {
                m.destroy_entity(ids[i]).unwrap();
            }
            ids.clear();
            black_box(m.len())
        })
    });

    let files: Vec<String> = (1..=BATCH as u64).map(entity_file).collect();
    let path = Path::new("Entities/bench.jasset");
    group.throughput(Throughput::Elements(1));
    group.bench_function("load_entity_from_memory", |b| {
        let mut m = EntityManager::new();
        m.reserve(Inert::CLASS, BATCH);
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut done = 0u64;
            while done < iters {
                let n = (iters - done).min(BATCH as u64) as usize;
                let start = Instant::now();
                for file in &files[..n] {
                    black_box(load_entity(&mut m, path, file.as_bytes()).unwrap());
                }
                total += start.elapsed();
                let ids: Vec<EntityId> = m.entities().iter().map(|e| e.id()).collect();
                for id in ids {
                    m.destroy_entity(id).unwrap();
                }
                done += n as u64;
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, world_load, manager);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    // The static world is never dropped: remove its files here.
    if let Some(world) = WORLD.get() {
        let _ = fs::remove_dir_all(world.path());
    }
}
