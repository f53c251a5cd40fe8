//! The world-load target of `docs/performance.md` measured by interleaving:
//! `World::load` of the benchmark's generated world (10,000 files, `benches/support/world_gen.rs`) on a one-thread pool
//! and a plain `std::fs::read` of the same files, one after the other, `ROUNDS` times;
//! prints the median of the per-round ratios. On a shared machine whose load changes
//! from second to second this is steadier than criterion's figures, taken one
//! benchmark after the other (see `docs/performance.md`, "Runtime").
//!
//! `cargo run --release -p juliet-entities --example world_load_ratio [-- ROUNDS [DIR]]`
//! (default 30 rounds; the world is written to a temporary directory unless `DIR`
//! already holds one).

use std::fs;
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use juliet_entities::{LoadOptions, World};

#[path = "../benches/support/world_gen.rs"]
mod world_gen;

use world_gen::{write_world, WORLD_SIZE};

/// Lists the directory and reads every file with `std::fs::read` (the baseline).
fn fs_read(entities: &Path) -> usize {
    let mut total = 0;
    for entry in fs::read_dir(entities).unwrap() {
        total += fs::read(entry.unwrap().path()).unwrap().len();
    }
    total
}

/// Loads and drops the world.
fn load(root: &Path) -> usize {
    let (world, report) = World::load(root, &LoadOptions::default()).unwrap();
    assert_eq!(report.loaded as u64, WORLD_SIZE);
    world.manager().len()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().map_or(30, |n| n.parse().expect("ROUNDS"));
    let temp;
    let root = match args.next() {
        Some(dir) => dir.into(),
        None => {
            temp = tempfile::tempdir().unwrap();
            temp.path().to_path_buf()
        }
    };
    let entities = root.join("Entities");
    if !entities.is_dir() {
        write_world(&root);
        // Write the files back before timing (see `benches/runtime.rs`).
        let _ = std::process::Command::new("sync").status();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| {
        // Warm up both.
        black_box(fs_read(&entities));
        black_box(load(&root));
        let (mut ratios, mut reads, mut loads) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..rounds {
            let start = Instant::now();
            black_box(fs_read(&entities));
            let read = start.elapsed().as_secs_f64();
            let start = Instant::now();
            black_box(load(&root));
            let loaded = start.elapsed().as_secs_f64();
            ratios.push(loaded / read);
            reads.push(read);
            loads.push(loaded);
        }
        println!(
            "{rounds} rounds: median ratio {:.3} (World::load {:.1} ms, fs::read {:.1} ms, medians)",
            median(&mut ratios),
            median(&mut loads) * 1e3,
            median(&mut reads) * 1e3,
        );
    });
}
