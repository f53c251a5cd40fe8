//! The derived loader against a hand-written one and `serde_json`, on one 12-field
//! record (`docs/performance.md`): the text of one record -> a struct, per record.
//!
//! - `derived`: `juliet_core::from_text` with `#[derive(Entity)]`'s loader, a new
//!   record per load (as `serde_json` makes): the record is in the writer's canonical
//!   form, so its document is read straight from the text as `Reflect::load` walks it;
//! - `derived_load_text`: `juliet_core::load_text` over one reused record (its strings
//!   keep their capacity), which tokenizes the file first;
//! - `derived_tokenized`: the same derive's `Reflect::load` (the same walk, over the
//!   tokenizer's nodes) into a new record after tokenizing the text into a reused
//!   `TokenBuffer`: what every file not in canonical form (comments, other order,
//!   aliases...) costs;
//! - `hand_written`: the one-call-per-field idiom, `Archive::serialize` per field
//!   (each call searches the nodes for its key), into a new record after the same
//!   tokenizing;
//! - `serde_json`: `serde_json::from_str` of the same record as JSON.
//!
//! After criterion's estimates, a paired summary (see [`paired_summary`]): the loaders
//! in alternation, best round of each and median of the per-round ratios, which a
//! shared machine's changing load disturbs far less than criterion's means.
//!
//! Run with `cargo bench -p juliet-core --bench derived`; the figures go to
//! `docs/performance.md`.
// criterion_group! makes a public function that cannot carry a doc comment.
#![allow(missing_docs)]

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use criterion::{criterion_group, Criterion, Throughput};
use juliet_core::{from_text, key, load_text, Archive, Error, Reflect, TokenBuffer};
use serde::{Deserialize, Serialize};

/// The record: 12 fields of the common property types.
#[derive(juliet_derive::Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[jasset(crate = ::juliet_core)]
struct Record {
    entity_no: u64,
    name: String,
    mesh_asset: String,
    location: [f32; 3],
    rotation: [f32; 4],
    scale: [f32; 3],
    health: f32,
    max_health: f32,
    level: i32,
    team: u32,
    visible: bool,
    speed: f64,
}

impl Default for Record {
    fn default() -> Record {
        Record::default_value()
    }
}

/// The hand-written symmetric serializer (docs/design.md, section 4.1).
fn serialize_by_hand(ar: &mut Archive<'_>, r: &mut Record) -> Result<(), Error> {
    ar.serialize(key!("EntityNo"), &mut r.entity_no)?;
    ar.serialize(key!("Name"), &mut r.name)?;
    ar.serialize(key!("MeshAsset"), &mut r.mesh_asset)?;
    ar.serialize(key!("Location"), &mut r.location)?;
    ar.serialize(key!("Rotation"), &mut r.rotation)?;
    ar.serialize(key!("Scale"), &mut r.scale)?;
    ar.serialize(key!("Health"), &mut r.health)?;
    ar.serialize(key!("MaxHealth"), &mut r.max_health)?;
    ar.serialize(key!("Level"), &mut r.level)?;
    ar.serialize(key!("Team"), &mut r.team)?;
    ar.serialize(key!("Visible"), &mut r.visible)?;
    ar.serialize(key!("Speed"), &mut r.speed)?;
    Ok(())
}

/// The `derived` case: a new record from the text, through [`from_text`].
fn load_new(buffer: &mut TokenBuffer, jasset: &str, path: &Path) -> Record {
    let (record, _report) = from_text::<Record>(buffer, jasset.as_bytes(), path).unwrap();
    record
}

/// The `derived_tokenized` case: a new record, through the tokenizer and the derive's
/// `Reflect::load`.
fn load_tokenized(buffer: &mut TokenBuffer, jasset: &str, path: &Path) -> Record {
    let doc = buffer.tokenize(jasset.as_bytes(), path).unwrap();
    let mut record = Record::default_value();
    record.load(&mut Archive::loading(doc)).unwrap();
    record
}

/// The `hand_written` case: a new record, through the tokenizer and
/// [`serialize_by_hand`].
fn load_by_hand(buffer: &mut TokenBuffer, jasset: &str, path: &Path) -> Record {
    let doc = buffer.tokenize(jasset.as_bytes(), path).unwrap();
    let mut record = Record::default_value();
    serialize_by_hand(&mut Archive::loading(doc), &mut record).unwrap();
    record
}

fn sample() -> Record {
    Record {
        entity_no: 0x42,
        name: "Grand Citadel Knight".to_owned(),
        mesh_asset: "Assets/Meshes/Knight_01.obj".to_owned(),
        location: [142.5, 12.0, -84.2],
        rotation: [0.0, 0.0, 0.70710677, 0.70710677],
        scale: [1.0, 1.0, 1.0],
        health: 87.5,
        max_health: 100.0,
        level: 12,
        team: 2,
        visible: true,
        speed: 4.25,
    }
}

/// The sample record, and its text as `.jasset` (the derive's writer) and as JSON.
fn inputs() -> (Record, String, String) {
    let record = sample();
    let mut jasset = String::new();
    record.save(&mut Archive::saving(&mut jasset));
    let json = serde_json::to_string(&record).unwrap();
    (record, jasset, json)
}

fn loaders(c: &mut Criterion) {
    let (record, jasset, json) = inputs();
    let path = Path::new("record.jasset");

    // The loaders agree before they are timed, and `from_text` reads the record straight
    // from its text.
    let mut buffer = TokenBuffer::new();
    let mut kept = Record::default_value();
    let report = load_text(&mut buffer, jasset.as_bytes(), path, &mut kept).unwrap();
    assert!(report.unknown().is_empty());
    assert_eq!(kept, record);
    let (fresh, report) = from_text::<Record>(&mut buffer, jasset.as_bytes(), path).unwrap();
    assert!(report.direct() && report.unknown().is_empty());
    assert_eq!(fresh, record);
    let mut derived = Record::default_value();
    derived
        .load(&mut Archive::loading(
            buffer.tokenize(jasset.as_bytes(), path).unwrap(),
        ))
        .unwrap();
    let mut by_hand = Record::default_value();
    serialize_by_hand(
        &mut Archive::loading(buffer.tokenize(jasset.as_bytes(), path).unwrap()),
        &mut by_hand,
    )
    .unwrap();
    assert_eq!(derived, record);
    assert_eq!(by_hand, record);
    assert_eq!(serde_json::from_str::<Record>(&json).unwrap(), record);

    let mut group = c.benchmark_group("load_12_field_record");
    group.throughput(Throughput::Elements(1));
    group.bench_function("derived", |b| {
        let mut buffer = TokenBuffer::new();
        b.iter(|| black_box(load_new(&mut buffer, black_box(&jasset), path)))
    });
    group.bench_function("derived_load_text", |b| {
        let mut buffer = TokenBuffer::new();
        let mut out = Record::default_value();
        b.iter(|| {
            load_text(&mut buffer, black_box(jasset.as_bytes()), path, &mut out).unwrap();
            black_box(&out);
        })
    });
    group.bench_function("derived_tokenized", |b| {
        let mut buffer = TokenBuffer::new();
        b.iter(|| black_box(load_tokenized(&mut buffer, black_box(&jasset), path)))
    });
    group.bench_function("hand_written", |b| {
        let mut buffer = TokenBuffer::new();
        b.iter(|| black_box(load_by_hand(&mut buffer, black_box(&jasset), path)))
    });
    group.bench_function("serde_json", |b| {
        b.iter(|| black_box(serde_json::from_str::<Record>(black_box(&json)).unwrap()))
    });
    group.finish();

    let mut group = c.benchmark_group("save_12_field_record");
    group.throughput(Throughput::Elements(1));
    group.bench_function("derived", |b| {
        let mut out = String::new();
        b.iter(|| {
            out.clear();
            black_box(&record).save(&mut Archive::saving(&mut out));
            black_box(&out);
        })
    });
    group.bench_function("serde_json", |b| {
        let mut out = Vec::new();
        b.iter(|| {
            out.clear();
            serde_json::to_writer(&mut out, black_box(&record)).unwrap();
            black_box(&out);
        })
    });
    group.finish();
}

/// Alternating rounds of the paired summary.
const PAIRED_ROUNDS: usize = 200;

/// Loads of the record per loader and round of the paired summary.
const PAIRED_BATCH: u32 = 2000;

/// Nanoseconds a load of the record takes on average over one batch of `load`.
fn per_load(mut load: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..PAIRED_BATCH {
        load();
    }
    start.elapsed().as_nanos() as f64 / f64::from(PAIRED_BATCH)
}

/// A load-robust summary printed after criterion's estimates: the four loaders, each
/// making a new record per load, run in alternation, [`PAIRED_ROUNDS`] rounds of
/// [`PAIRED_BATCH`] loads each; prints the best round of each (the least disturbed, in
/// ns a record) and the median of the per-round ratios to the derived loader.
fn paired_summary() {
    let (record, jasset, json) = inputs();
    let path = Path::new("record.jasset");
    let mut buffer = TokenBuffer::new();
    assert!(load_new(&mut buffer, &jasset, path) == record);
    assert!(load_tokenized(&mut buffer, &jasset, path) == record);
    assert!(load_by_hand(&mut buffer, &jasset, path) == record);
    let mut best = [f64::MAX; 4];
    let mut over_derived: [Vec<f64>; 3] = Default::default();
    for _ in 0..PAIRED_ROUNDS {
        let d = per_load(|| {
            black_box(load_new(&mut buffer, black_box(&jasset), path));
        });
        let t = per_load(|| {
            black_box(load_tokenized(&mut buffer, black_box(&jasset), path));
        });
        let h = per_load(|| {
            black_box(load_by_hand(&mut buffer, black_box(&jasset), path));
        });
        let s = per_load(|| {
            black_box(serde_json::from_str::<Record>(black_box(&json)).unwrap());
        });
        for (b, t) in best.iter_mut().zip([d, t, h, s]) {
            *b = b.min(t);
        }
        for (ratios, other) in over_derived.iter_mut().zip([s, t, h]) {
            ratios.push(other / d);
        }
    }
    let [over_serde, over_tokenized, over_hand] = over_derived.map(|mut v| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    });
    println!(
        "paired summary ({PAIRED_ROUNDS} rounds of {PAIRED_BATCH} loads): best round \
         derived {:.1} ns, derived_tokenized {:.1} ns, hand-written {:.1} ns, serde_json \
         {:.1} ns a record; median per-round ratio to derived: serde_json {over_serde:.2}, \
         derived_tokenized {over_tokenized:.2}, hand-written {over_hand:.2}",
        best[0], best[1], best[2], best[3],
    );
}

criterion_group!(benches, loaders);

fn main() {
    benches();
    // Only under `cargo bench` (not when `cargo test` runs the bench targets once).
    if std::env::args().any(|arg| arg == "--bench") {
        paired_summary();
    }
    Criterion::default().configure_from_args().final_summary();
}
