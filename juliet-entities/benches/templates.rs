//! Template benchmarks, figures in `docs/performance.md` ("Templates"):
//! instantiating 10,000 instances of one template with a 3-property delta, against a
//! hand-written baseline that clones the archetype struct, sets the three fields and
//! pushes it onto a `Vec`, in the same run.
//!
//! - `instantiate_10k/inert_*`: the design's `RockLarge` template (an `Inert`, whose
//!   `MeshAsset` string makes every clone allocate), delta `Scale`, `Mass`, `Health`;
//! - `instantiate_10k/projectile_*`: a `Projectile` template (no heap-typed field),
//!   delta `VelocityX`, `VelocityY`, `Damage`;
//! - `*_template_batch`: the same instances with the typed delta, made by one
//!   `instantiate_many` call per 10,000 (ids appended to a `Vec` with room);
//! - `*_template_text`: the same delta as `.jasset` text, parsed per instance (for
//!   scale: what a spawn from an editor or a script costs);
//! - `*_baseline_clone_value` and `*_template_no_delta`: where the time goes (the
//!   baseline cloning through the derive's `Reflect::clone_value`, which the template
//!   path's archetype copy runs; the template path without a delta).
//!
//! After each case's criterion estimates, a paired summary: the baseline, the single
//! calls and the batch in alternation, best round of each and median of the per-round
//! ratios.
//!
//! Both sides work in warm capacity, as a game spawning waves does: one manager (one
//! `Vec`) with room for 10,000, emptied outside the timed part after each batch (every
//! entity destroyed, the `Vec` cleared).
// criterion_group! makes a public function that cannot carry a doc comment.
#![allow(missing_docs)]

use std::hint::black_box;

use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion, Throughput};
use glam::Vec3;
use juliet_entities::juliet_core::Reflect;
use juliet_entities::kinds::{Inert, Projectile};
use juliet_entities::template::{
    instantiate_from_template, instantiate_many, PropertyDelta, TemplateCache,
};
use juliet_entities::{EntityId, EntityManager};

const COUNT: usize = 10_000;

/// Alternating rounds of the paired summary (each of [`COUNT`] instances a case).
const PAIRED_ROUNDS: usize = 300;

const ROCK_LARGE: &str = "; entity_type: Inert\n\nPosition: 0.0, 0.0, 0.0\n\
    MeshAsset: Assets/Meshes/Rock_01.obj\nScale: 1.0, 1.0, 1.0\nMass: 250.0\n\
    IsDestructible: true\nHealth: 100.0\n";

const FIREBALL: &str = "; Kind\nProjectile\n; VelocityX\n30.0\n; VelocityY\n0.0\n; Damage\n75.0\n";

/// One benchmark case: a template of kind `T`, the baseline's three field writes (a
/// closure type, so they inline as hand-written code would), and the same three
/// properties as a typed and as a text delta.
struct Case<'c, T: Reflect, F: Fn(&mut T)> {
    name: &'static str,
    cache: &'c TemplateCache,
    crc: u32,
    set_fields: F,
    delta: PropertyDelta<T>,
    text: &'static str,
}

fn bench_case<T: Reflect + Clone, F: Fn(&mut T)>(c: &mut Criterion, case: Case<'_, T, F>) {
    let template = case.cache.find(case.crc).unwrap();
    let archetype = template.archetype::<T>().unwrap().clone();
    let reserved = || {
        let mut m = EntityManager::new();
        m.reserve(T::CLASS, COUNT);
        Warm {
            m,
            dead: Vec::with_capacity(COUNT + 2),
        }
    };
    let mut group = c.benchmark_group("instantiate_10k");
    group.throughput(Throughput::Elements(COUNT as u64));
    let baseline = |iters: u64, all: &mut Vec<T>| {
        baseline_rounds(iters, all, || {
            let mut value = black_box(&archetype).clone();
            (case.set_fields)(&mut value);
            value
        })
    };
    let single = |iters: u64, w: &mut Warm| {
        w.timed(iters, |m| {
            for _ in 0..COUNT {
                instantiate_from_template(m, template, black_box(&case.delta)).unwrap();
            }
        })
    };
    let batch = |iters: u64, w: &mut Warm, ids: &mut Vec<EntityId>| {
        w.timed(iters, |m| {
            instantiate_many(m, template, black_box(&case.delta), COUNT, ids).unwrap();
            ids.clear();
        })
    };
    group.bench_function(format!("{}_baseline", case.name), |b| {
        let mut all = Vec::<T>::with_capacity(COUNT);
        b.iter_custom(|iters| baseline(iters, &mut all))
    });
    // Where the time goes: the same baseline cloning through the derive's
    // `Reflect::clone_value` (what `ClassOps::clone_in_place` runs), and the template
    // path with no delta.
    group.bench_function(format!("{}_baseline_clone_value", case.name), |b| {
        let mut all = Vec::<T>::with_capacity(COUNT);
        b.iter_custom(|iters| {
            baseline_rounds(iters, &mut all, || {
                let mut value = black_box(&archetype).clone_value();
                (case.set_fields)(&mut value);
                value
            })
        })
    });
    group.bench_function(format!("{}_template_no_delta", case.name), |b| {
        let mut warm = reserved();
        b.iter_custom(|iters| {
            warm.timed(iters, |m| {
                for _ in 0..COUNT {
                    instantiate_from_template(m, template, &()).unwrap();
                }
            })
        })
    });
    group.bench_function(format!("{}_template", case.name), |b| {
        let mut warm = reserved();
        b.iter_custom(|iters| single(iters, &mut warm))
    });
    // The same instances made by one batch call (ids into a `Vec` with room).
    group.bench_function(format!("{}_template_batch", case.name), |b| {
        let mut warm = reserved();
        let mut ids = Vec::with_capacity(COUNT);
        b.iter_custom(|iters| batch(iters, &mut warm, &mut ids))
    });
    group.bench_function(format!("{}_template_text", case.name), |b| {
        let mut warm = reserved();
        b.iter_custom(|iters| {
            warm.timed(iters, |m| {
                for _ in 0..COUNT {
                    instantiate_from_template(m, template, black_box(case.text)).unwrap();
                }
            })
        })
    });
    group.finish();

    // Paired summary (only under `cargo bench`): the baseline, the single calls and
    // the batch in alternation, best round of each and median of per-round ratios,
    // which a shared machine's changing load disturbs far less than criterion's means.
    if std::env::args().any(|arg| arg == "--bench") {
        let (mut all, mut warm, mut ids) = (Vec::with_capacity(COUNT), reserved(), Vec::new());
        ids.reserve(COUNT);
        let mut best = [f64::MAX; 3];
        let (mut over_single, mut over_batch) = (Vec::new(), Vec::new());
        for _ in 0..PAIRED_ROUNDS {
            let per_instance = |d: Duration| d.as_nanos() as f64 / COUNT as f64;
            let base = per_instance(baseline(1, &mut all));
            let one = per_instance(single(1, &mut warm));
            let many = per_instance(batch(1, &mut warm, &mut ids));
            for (b, t) in best.iter_mut().zip([base, one, many]) {
                *b = b.min(t);
            }
            over_single.push(one / base);
            over_batch.push(many / base);
        }
        let median = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        println!(
            "{} paired summary ({PAIRED_ROUNDS} rounds of {COUNT}): best round baseline \
             {:.1} ns, template {:.1} ns, batch {:.1} ns an instance; median per-round \
             ratio template/baseline {:.2}, batch/baseline {:.2}",
            case.name,
            best[0],
            best[1],
            best[2],
            median(over_single),
            median(over_batch),
        );
    }

    // The three ways build the same value.
    let m = &mut reserved().m;
    let mut expected = archetype.clone();
    (case.set_fields)(&mut expected);
    let typed = instantiate_from_template(m, template, &case.delta).unwrap();
    let text = instantiate_from_template(m, template, case.text).unwrap();
    let mut batch = Vec::new();
    instantiate_many(m, template, &case.delta, 2, &mut batch).unwrap();
    for id in [typed, text].into_iter().chain(batch) {
        let got = m.get::<T>(id).unwrap();
        assert!(T::CLASS
            .properties()
            .iter()
            .all(|p| p.same_value(got, &expected)));
    }
}

/// Times `iters` rounds of the baseline: [`COUNT`] values made by `make` (the
/// archetype cloned, its three fields set) pushed onto `all` (warm capacity), which is
/// cleared (untimed) after each round.
fn baseline_rounds<T>(iters: u64, all: &mut Vec<T>, mut make: impl FnMut() -> T) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let start = Instant::now();
        for _ in 0..COUNT {
            all.push(make());
        }
        total += start.elapsed();
        all.clear();
    }
    total
}

/// A manager with room for [`COUNT`] instances, and the buffer its ids go through
/// when it is emptied.
struct Warm {
    m: EntityManager,
    dead: Vec<EntityId>,
}

impl Warm {
    /// Times `iters` batches of `spawn`, which makes `COUNT` instances in the manager
    /// (warm capacity), emptying it (untimed) after each batch.
    ///
    /// The ids to destroy go through a buffer allocated once, with the manager: a
    /// fresh 80 KB `Vec` per batch would make glibc's allocator consolidate its free
    /// lists, and every `String` clone of the next batch would then take malloc's slow
    /// path (about 80 more instructions per instance than the baseline's allocations,
    /// whose `Vec::clear` frees nothing that large).
    fn timed(&mut self, iters: u64, mut spawn: impl FnMut(&mut EntityManager)) -> Duration {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let start = Instant::now();
            spawn(&mut self.m);
            total += start.elapsed();
            self.dead.clear();
            self.dead.extend(self.m.entities().iter().map(|e| e.id()));
            for &id in &self.dead {
                self.m.destroy_entity(id).unwrap();
            }
        }
        total
    }
}

fn delta<T: Reflect>(values: T, keys: [&str; 3]) -> PropertyDelta<T> {
    keys.iter()
        .fold(PropertyDelta::new(values), |d, k| d.with(k).unwrap())
}

fn templates(c: &mut Criterion) {
    let mut cache = TemplateCache::new(".");
    let rock = cache
        .insert_text("Assets/Templates/RockLarge.jasset", ROCK_LARGE)
        .unwrap()
        .crc();
    let fireball = cache
        .insert_text("Assets/Templates/Fireball.jasset", FIREBALL)
        .unwrap()
        .crc();
    let set_rock = |v: &mut Inert| {
        (v.scale, v.mass, v.health) = (Vec3::splat(1.4), 300.0, 50.0);
    };
    let mut rock_values = Inert::default_value();
    set_rock(&mut rock_values);
    bench_case(
        c,
        Case {
            name: "inert",
            cache: &cache,
            crc: rock,
            set_fields: set_rock,
            delta: delta(rock_values, ["Scale", "Mass", "Health"]),
            text: "Scale: 1.4, 1.4, 1.4\nMass: 300.0\nHealth: 50.0\n",
        },
    );
    let set_fireball = |v: &mut Projectile| {
        (v.velocity_x, v.velocity_y, v.damage) = (-30.0, 2.5, 60.0);
    };
    let mut fireball_values = Projectile::default_value();
    set_fireball(&mut fireball_values);
    bench_case(
        c,
        Case {
            name: "projectile",
            cache: &cache,
            crc: fireball,
            set_fields: set_fireball,
            delta: delta(fireball_values, ["VelocityX", "VelocityY", "Damage"]),
            text: "VelocityX: -30.0\nVelocityY: 2.5\nDamage: 60.0\n",
        },
    );
}

criterion_group!(benches, templates);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
