//! Construct tick dispatch, figures in `docs/performance.md` ("Construct tick
//! dispatch"): one physics step of 10,000 constructs through the flow manager's
//! batch (`construct_dispatch/batch`: type-erased entries, one plain function-pointer
//! call each) against a hand-written loop calling the same method directly on 10,000
//! constructs of the same type, each boxed the same way
//! (`construct_dispatch/hand_loop`). Target: the batch at most 1.2 times the loop.
//! The `_trivial` pair does the same with a tick that only increments a counter (the
//! dispatch's share at its largest).
//!
//! After the criterion runs, both pairs (and `trivial_interleaved`: two types spawned
//! alternately, so that every entry is a run of its own) are also timed alternately, round by round,
//! and the median ratio printed (`paired ...` lines): steadier on a shared machine.
//!
//! `cargo bench -p juliet-constructs --bench constructs`
// criterion_group! makes a public function that cannot carry a doc comment.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion, Throughput};
use juliet_constructs::{construct, Construct, FlowManager, SimFloat};
use juliet_entities::World;

/// Constructs per frame.
const COUNT: usize = 10_000;

/// A small body: the kind of per-tick work a gameplay object does (integrate, clamp,
/// count).
#[derive(Construct)]
struct Mover {
    pos: [SimFloat; 3],
    vel: [SimFloat; 3],
    bounces: u32,
}

#[construct]
impl Mover {
    #[inline]
    fn physics_step(&mut self, dt: SimFloat) {
        let gravity = SimFloat::from_bits(-42_131_561_349); // -9.81 m/s^2
        self.vel[1] += gravity * dt;
        for axis in 0..3 {
            self.pos[axis] += self.vel[axis] * dt;
        }
        if self.pos[1] < SimFloat::ZERO {
            self.pos[1] = -self.pos[1];
            self.vel[1] = -self.vel[1];
            self.bounces += 1;
        }
    }
}

/// The least a tick can do: the dispatch's own cost, as a share of the work, at its
/// largest.
#[derive(Construct)]
struct Counter {
    n: u64,
}

#[construct]
impl Counter {
    #[inline]
    fn physics_step(&mut self, _dt: SimFloat) {
        self.n += 1;
    }
}

/// A second type, to interleave with [`Counter`] (runs of one entry each).
#[derive(Construct)]
struct OtherCounter {
    n: u64,
}

#[construct]
impl OtherCounter {
    #[inline]
    fn physics_step(&mut self, _dt: SimFloat) {
        self.n += 2;
    }
}

fn mover(i: usize) -> Mover {
    let i = i as i32;
    Mover {
        pos: [
            SimFloat::from_int(i % 100),
            SimFloat::from_int(1 + i % 7),
            SimFloat::ZERO,
        ],
        vel: [SimFloat::ONE, SimFloat::ZERO, SimFloat::from_int(i % 3)],
        bounces: 0,
    }
}

fn dispatch(c: &mut Criterion) {
    let mut group = c.benchmark_group("construct_dispatch");
    group.throughput(Throughput::Elements(COUNT as u64));
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));

    let mut flow = FlowManager::new(World::with_project_root("unused", "unused"));
    for i in 0..COUNT {
        flow.spawn(mover(i));
    }
    group.bench_function("batch", |b| b.iter(|| flow.step_physics()));

    // The same objects by hand: one box each (as the flow manager keeps them), the
    // method called directly (inlinable) in a plain loop.
    let mut movers: Vec<Box<Mover>> = (0..COUNT).map(|i| Box::new(mover(i))).collect();
    let dt = flow.clock().step();
    group.bench_function("hand_loop", |b| {
        b.iter(|| {
            let dt = black_box(dt);
            for m in movers.iter_mut() {
                m.physics_step(dt);
            }
        })
    });
    black_box(movers.iter().map(|m| m.bounces).sum::<u32>());

    let mut flow = FlowManager::new(World::with_project_root("unused", "unused"));
    for _ in 0..COUNT {
        flow.spawn(Counter { n: 0 });
    }
    group.bench_function("batch_trivial", |b| b.iter(|| flow.step_physics()));
    let mut counters: Vec<Box<Counter>> = (0..COUNT).map(|_| Box::new(Counter { n: 0 })).collect();
    group.bench_function("hand_loop_trivial", |b| {
        b.iter(|| {
            let dt = black_box(dt);
            for c in counters.iter_mut() {
                c.physics_step(dt);
            }
        })
    });
    group.finish();
    black_box(counters.iter().map(|c| c.n).sum::<u64>());
}

/// The median of `v` (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times `batch` and `hand` alternately, `rounds` times: on a shared machine the
/// paired ratio (the median of the per-round ratios) is steadier than two separate
/// criterion runs. Prints the medians and the ratio.
fn paired(name: &str, rounds: usize, mut batch: impl FnMut(), mut hand: impl FnMut()) {
    let (mut b, mut h, mut r) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t = Instant::now();
        batch();
        let tb = t.elapsed().as_secs_f64();
        let t = Instant::now();
        hand();
        let th = t.elapsed().as_secs_f64();
        b.push(tb);
        h.push(th);
        r.push(tb / th);
    }
    println!(
        "paired {name}: batch {:.1} us, hand loop {:.1} us, ratio {:.2} (median of {rounds} rounds)",
        median(&mut b) * 1e6,
        median(&mut h) * 1e6,
        median(&mut r)
    );
}

/// The paired runs of both pairs.
fn paired_runs() {
    let mut flow = FlowManager::new(World::with_project_root("unused", "unused"));
    for i in 0..COUNT {
        flow.spawn(mover(i));
    }
    let dt = flow.clock().step();
    let mut movers: Vec<Box<Mover>> = (0..COUNT).map(|i| Box::new(mover(i))).collect();
    paired(
        "mover",
        400,
        || flow.step_physics(),
        || {
            let dt = black_box(dt);
            for m in movers.iter_mut() {
                m.physics_step(dt);
            }
        },
    );
    let mut flow = FlowManager::new(World::with_project_root("unused", "unused"));
    for _ in 0..COUNT {
        flow.spawn(Counter { n: 0 });
    }
    let mut counters: Vec<Box<Counter>> = (0..COUNT).map(|_| Box::new(Counter { n: 0 })).collect();
    paired(
        "trivial",
        2000,
        || flow.step_physics(),
        || {
            let dt = black_box(dt);
            for c in counters.iter_mut() {
                c.physics_step(dt);
            }
        },
    );
    black_box((movers.len(), counters.iter().map(|c| c.n).sum::<u64>()));

    // Two types spawned alternately: every run is one entry, one indirect call a tick.
    let mut flow = FlowManager::new(World::with_project_root("unused", "unused"));
    for _ in 0..COUNT / 2 {
        flow.spawn(Counter { n: 0 });
        flow.spawn(OtherCounter { n: 0 });
    }
    let mut pairs: Vec<(Box<Counter>, Box<OtherCounter>)> = (0..COUNT / 2)
        .map(|_| (Box::new(Counter { n: 0 }), Box::new(OtherCounter { n: 0 })))
        .collect();
    paired(
        "trivial_interleaved",
        2000,
        || flow.step_physics(),
        || {
            let dt = black_box(dt);
            for (a, b) in pairs.iter_mut() {
                a.physics_step(dt);
                b.physics_step(dt);
            }
        },
    );
    black_box(pairs.len());
}

criterion_group!(benches, dispatch);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    paired_runs();
}
