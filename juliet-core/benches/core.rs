//! juliet-core benchmarks (`docs/performance.md`): `cargo bench -p juliet-core`.
//!
//! * `tokenize/entities_1mb`: tokenizer throughput over about 1 MB of generated
//!   entity-like `.jasset` files (block headers, value lines, comments, inline and
//!   compact properties, vectors, quoted and bare strings, lists), every file tokenized
//!   in turn with one warm [`TokenBuffer`], as a world load does.
//! * `typed_load/{juliet,juliet_derived,juliet_tokenized,juliet_edited,serde_json}`: the
//!   same 12-field record loaded from `.jasset` text and from JSON (`serde_json::from_str`
//!   into the same struct through `#[derive(Deserialize)]`). `juliet` is a hand-written
//!   loader: the walk of [`juliet_core::Properties`] over the file's document
//!   ([`TokenBuffer::document`], read straight from the text in canonical form), one
//!   `match` arm a field, as the derive's `load` is. `juliet_tokenized` is the same walk
//!   over a document the tokenizer made (what a file that is not canonical costs).
//!   `juliet_derived` is the record through `#[derive(Entity)]` and
//!   [`juliet_core::from_text`], and `juliet_edited` the same on the records written
//!   by hand (a comment, a blank line, one-line `; Key: value` forms, two keys swapped).
//!   Each builds a fresh record, strings included, for each of the [`RECORDS`] distinct
//!   inputs of an iteration.
//! * After criterion's estimates, a paired summary (see [`paired_summary`]) that is
//!   robust to a machine whose load changes between two benchmarks.
//!
//! The whole run takes about a minute. The figures and the machine are in
//! `docs/performance.md`.
// criterion_group! makes a public function that cannot carry a doc comment.
#![allow(missing_docs)]

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use juliet_core::{from_text, Codec, Document, Error, Reflect, TokenBuffer};

/// Target size of the tokenizer input, in bytes.
const TOKENIZER_BYTES: usize = 1 << 20;

/// Distinct records loaded per iteration of the typed-load benchmarks.
const RECORDS: usize = 256;

/// Alternating rounds of the paired summary.
const PAIRED_ROUNDS: usize = 60;

/// Passes over the [`RECORDS`] records per loader and round of the paired summary.
const PAIRED_BATCH: usize = 8;

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;
#[path = "common/unit.rs"]
mod unit;
use unit::{records, Unit, MESHES, NAMES};

/// Appends `v` in the writer's form (shortest round-trip text).
fn float_text(out: &mut String, v: f32) {
    v.encode(out);
}

const KINDS: [&str; 4] = ["Inert", "Pickup", "Light", "Trigger"];
/// One entity file in the block form with `; Key: value` directives mixed in
/// (docs/design.md, section 2.1).
fn entity_file(rng: &mut Rng, index: usize, out: &mut String) {
    use std::fmt::Write as _;
    out.push_str("# Juliet Game Engine Asset File\n");
    out.push_str("# Generated automatically by AssetPipeline. Do not manually corrupt keys.\n\n");
    out.push_str("; AssetType\nEntity\n\n; BaseVersion\n1\n\n");
    let _ = writeln!(out, "; EntityID\n0x{:016X}\n", rng.next() >> 20);
    let kind = KINDS[index % KINDS.len()];
    let _ = writeln!(out, "; Kind\n{kind}\n");
    if index % 3 == 0 {
        out.push_str("; Template: Assets/Templates/RockLarge.jasset\n");
    }
    out.push_str("; Position\n");
    for i in 0..3 {
        if i > 0 {
            out.push(' ');
        }
        float_text(out, rng.float());
    }
    out.push_str("\n\n; Rotation\n0.0 0.7071068 0.0 0.7071068\n\n");
    out.push_str("; ClassVersion\n2\n\n");
    let _ = writeln!(
        out,
        "; MeshAsset\n{}\n",
        MESHES[rng.below(MESHES.len() as u64) as usize]
    );
    let _ = writeln!(
        out,
        "; DisplayName\n\"{} {}\"\n",
        NAMES[rng.below(NAMES.len() as u64) as usize],
        index
    );
    out.push_str("; Health\n");
    float_text(out, rng.float().abs());
    out.push_str("\n\n; Tags\nstatic\n// designers: keep destructible last\ndestructible\n\n");
    out.push_str("  ; Scale: 1.5, 1.5, 1.5\n");
    let _ = writeln!(out, "; IsVisible: {}", rng.below(2) == 0);
    let _ = writeln!(out, "mesh_instance: {}", rng.below(16));
}

/// About [`TOKENIZER_BYTES`] of entity files.
fn entity_files() -> Vec<String> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut files = Vec::new();
    let mut total = 0;
    while total < TOKENIZER_BYTES {
        let mut file = String::new();
        entity_file(&mut rng, files.len(), &mut file);
        total += file.len();
        files.push(file);
    }
    files
}

/// One measured pass of the tokenizer benchmark: every file, in turn, into `buffer`.
fn tokenize_all(buffer: &mut TokenBuffer, files: &[String], path: &Path) -> usize {
    let mut count = 0;
    for file in files {
        let doc = buffer
            .tokenize(black_box(file.as_bytes()), path)
            .expect("bench input");
        count += doc.len();
    }
    count
}

fn bench_tokenizer(c: &mut Criterion) {
    let files = entity_files();
    let bytes: usize = files.iter().map(String::len).sum();
    let path = Path::new("Assets/Worlds/Bench/Entity.jasset");
    let mut buffer = TokenBuffer::new();
    // Check the input once (and warm the buffer): every file tokenizes.
    let nodes: usize = files
        .iter()
        .map(|f| {
            buffer
                .tokenize(f.as_bytes(), path)
                .expect("bench input")
                .len()
        })
        .sum();
    // 14 properties a file, plus `Template` in every third file.
    assert_eq!(nodes, files.len() * 14 + files.len().div_ceil(3));

    let mut group = c.benchmark_group("tokenize");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(30);
    group.warm_up_time(Duration::from_secs(2));
    group.measurement_time(Duration::from_secs(8));
    group.bench_function(BenchmarkId::new("entities_1mb", files.len()), |b| {
        b.iter(|| tokenize_all(&mut buffer, &files, path))
    });
    group.finish();
}

/// The hand-written loader: the walk over the file's document, filled as it is read
/// (straight from the text while it is canonical).
fn load_unit(buffer: &mut TokenBuffer, text: &str, path: &Path) -> Result<Unit, Error> {
    walk_unit(buffer.document(text.as_bytes(), path)?)
}

/// The derived loader: [`from_text`], a new `Unit`.
fn load_unit_derived(buffer: &mut TokenBuffer, text: &str, path: &Path) -> Result<Unit, Error> {
    let (unit, _report) = from_text(buffer, text.as_bytes(), path)?;
    Ok(unit)
}

/// [`load_unit`] over the tokenizer's document (every node made before the walk).
#[inline(never)]
fn load_unit_tokenized(buffer: &mut TokenBuffer, text: &str, path: &Path) -> Result<Unit, Error> {
    walk_unit(buffer.tokenize(text.as_bytes(), path)?)
}

/// One walk over `doc`'s properties ([`juliet_core::Properties`]), decoding each into
/// its field of a new `Unit`.
#[inline(always)]
fn walk_unit(mut doc: Document<'_>) -> Result<Unit, Error> {
    let mut unit = Unit::default();
    let mut p = doc.properties(Unit::CLASS.properties());
    while let Some(index) = p.next_property()? {
        match index {
            0 => p.decode_into(&mut unit.entity_no)?,
            1 => p.decode_into(&mut unit.health)?,
            2 => p.decode_into(&mut unit.max_speed)?,
            3 => p.decode_into(&mut unit.acceleration)?,
            4 => p.decode_into(&mut unit.turn_rate)?,
            5 => p.decode_into(&mut unit.mass)?,
            6 => p.decode_into(&mut unit.sight_radius)?,
            7 => p.decode_into(&mut unit.location)?,
            8 => p.decode_into(&mut unit.team_index)?,
            9 => p.decode_into(&mut unit.is_visible)?,
            10 => p.decode_into(&mut unit.display_name)?,
            11 => p.decode_into(&mut unit.mesh_asset)?,
            _ => {}
        }
    }
    Ok(unit)
}

/// The canonical file `text` as a designer edits it: a comment first, a blank line, the
/// short properties written `; Key: value` on one line, and `Health` moved after
/// `MaxSpeed`.
fn hand_edited(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut pairs: Vec<(&str, &str)> = lines.chunks(2).map(|kv| (&kv[0][2..], kv[1])).collect();
    pairs.swap(1, 2);
    let mut out = String::from("# tuned by hand\n");
    for (i, (key, value)) in pairs.iter().enumerate() {
        if i == 6 {
            out.push('\n');
        }
        if value.len() <= 8 {
            out.push_str(&format!("; {key}: {value}\n"));
        } else {
            out.push_str(&format!("; {key}\n{value}\n"));
        }
    }
    out
}

/// The records' files as edited by hand ([`hand_edited`]).
fn edited_records(jasset: &[String]) -> Vec<String> {
    jasset.iter().map(|t| hand_edited(t)).collect()
}

/// One measured pass of `typed_load/juliet`: every record, each into a new `Unit`.
fn load_all_jasset(buffer: &mut TokenBuffer, jasset: &[String], path: &Path) -> f32 {
    load_all_with(load_unit, buffer, jasset, path)
}

/// One measured pass of `typed_load/juliet_tokenized`: as [`load_all_jasset`], always
/// through the tokenizer.
fn load_all_tokenized(buffer: &mut TokenBuffer, jasset: &[String], path: &Path) -> f32 {
    load_all_with(load_unit_tokenized, buffer, jasset, path)
}

/// One measured pass of `typed_load/juliet_derived`: as [`load_all_jasset`], through the
/// derive.
fn load_all_derived(buffer: &mut TokenBuffer, jasset: &[String], path: &Path) -> f32 {
    load_all_with(load_unit_derived, buffer, jasset, path)
}

/// Every record through `load`, each into a new `Unit`.
#[inline(always)]
fn load_all_with(
    load: impl Fn(&mut TokenBuffer, &str, &Path) -> Result<Unit, Error>,
    buffer: &mut TokenBuffer,
    jasset: &[String],
    path: &Path,
) -> f32 {
    let mut sum = 0.0;
    for text in jasset {
        let unit = load(buffer, black_box(text), path).expect("jasset");
        sum += unit.health;
        black_box(unit);
    }
    sum
}

/// One measured pass of `typed_load/serde_json`: every record, each into a new `Unit`.
fn load_all_json(json: &[String]) -> f32 {
    let mut sum = 0.0;
    for text in json {
        let unit: Unit = serde_json::from_str(black_box(text)).expect("json");
        sum += unit.health;
        black_box(unit);
    }
    sum
}

fn bench_typed_load(c: &mut Criterion) {
    let (units, jasset, json) = records(RECORDS);
    let path = Path::new("Assets/Units/Unit.jasset");
    let mut buffer = TokenBuffer::new();
    // Both loaders read back exactly the records the inputs were made from.
    for ((u, j), s) in units.iter().zip(&jasset).zip(&json) {
        assert_eq!(&load_unit(&mut buffer, j, path).expect("jasset record"), u);
        assert_eq!(
            &load_unit_tokenized(&mut buffer, j, path).expect("jasset"),
            u
        );
        let (derived, report) = from_text::<Unit>(&mut buffer, j.as_bytes(), path).expect("jasset");
        assert!(report.direct() && &derived == u);
        let edited = hand_edited(j);
        let (derived, report) =
            from_text::<Unit>(&mut buffer, edited.as_bytes(), path).expect("edited");
        // Comments, blank lines, inline headers and another order are read straight
        // from the text too.
        assert!(report.direct() && report.unknown().is_empty() && &derived == u);
        assert_eq!(&serde_json::from_str::<Unit>(s).expect("json record"), u);
    }
    let jasset_bytes = jasset.iter().map(String::len).sum::<usize>() / RECORDS;
    let json_bytes = json.iter().map(String::len).sum::<usize>() / RECORDS;
    println!(
        "typed_load: {RECORDS} records per iteration, {jasset_bytes} bytes a record as \
         .jasset, {json_bytes} as JSON"
    );

    let mut group = c.benchmark_group("typed_load");
    group.throughput(Throughput::Elements(RECORDS as u64));
    group.sample_size(40);
    group.warm_up_time(Duration::from_secs(2));
    group.measurement_time(Duration::from_secs(6));
    group.bench_function("juliet", |b| {
        b.iter(|| load_all_jasset(&mut buffer, &jasset, path))
    });
    group.bench_function("juliet_derived", |b| {
        b.iter(|| load_all_derived(&mut buffer, &jasset, path))
    });
    group.bench_function("juliet_tokenized", |b| {
        b.iter(|| load_all_tokenized(&mut buffer, &jasset, path))
    });
    let edited = edited_records(&jasset);
    group.bench_function("juliet_edited", |b| {
        b.iter(|| load_all_derived(&mut buffer, &edited, path))
    });
    group.bench_function("serde_json", |b| b.iter(|| load_all_json(&json)));
    group.finish();
}

/// Nanoseconds `f` takes, and its result.
fn timed<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let start = Instant::now();
    let result = f();
    (start.elapsed().as_nanos() as f64, result)
}

/// A load-robust summary printed after criterion's estimates: on a shared machine the
/// load changes between two criterion benchmarks, so here juliet, juliet_derived,
/// juliet_tokenized and serde_json run in alternation, [`PAIRED_ROUNDS`] times, and the
/// best round of each (the least disturbed) and the median of the per-round ratios are
/// printed; likewise the best of [`PAIRED_ROUNDS`] tokenizer passes. juliet and
/// juliet_derived swap places every round, so that neither always follows the
/// tokenizer pass (which evicts the records from the cache).
fn paired_summary() {
    let files = entity_files();
    let bytes: usize = files.iter().map(String::len).sum();
    let entity_path = Path::new("Assets/Worlds/Bench/Entity.jasset");
    let (_, jasset, json) = records(RECORDS);
    let edited = edited_records(&jasset);
    let path = Path::new("Assets/Units/Unit.jasset");
    let mut buffer = TokenBuffer::new();
    tokenize_all(&mut buffer, &files, entity_path);
    load_all_jasset(&mut buffer, &jasset, path);
    load_all_derived(&mut buffer, &jasset, path);
    load_all_json(&json);

    let mut best_pass = f64::MAX;
    let (mut best_juliet, mut best_tokenized, mut best_serde) = (f64::MAX, f64::MAX, f64::MAX);
    let mut best_derived = f64::MAX;
    let (mut ratios, mut tokenized_ratios) = (Vec::new(), Vec::new());
    let mut derived_ratios = Vec::new();
    let (mut best_edited, mut edited_ratios) = (f64::MAX, Vec::new());
    for round in 0..PAIRED_ROUNDS {
        let (pass, _) = timed(|| tokenize_all(&mut buffer, &files, entity_path));
        best_pass = best_pass.min(pass);
        let juliet_round = |buffer: &mut TokenBuffer| {
            timed(|| {
                (0..PAIRED_BATCH)
                    .map(|_| load_all_jasset(buffer, &jasset, path))
                    .sum::<f32>()
            })
            .0
        };
        let derived_round = |buffer: &mut TokenBuffer| {
            timed(|| {
                (0..PAIRED_BATCH)
                    .map(|_| load_all_derived(buffer, &jasset, path))
                    .sum::<f32>()
            })
            .0
        };
        let (juliet, derived) = if round % 2 == 0 {
            let juliet = juliet_round(&mut buffer);
            (juliet, derived_round(&mut buffer))
        } else {
            let derived = derived_round(&mut buffer);
            (juliet_round(&mut buffer), derived)
        };
        let (tokenized, _) = timed(|| {
            (0..PAIRED_BATCH)
                .map(|_| load_all_tokenized(&mut buffer, &jasset, path))
                .sum::<f32>()
        });
        let (serde, _) = timed(|| (0..PAIRED_BATCH).map(|_| load_all_json(&json)).sum::<f32>());
        let (edited_time, _) = timed(|| {
            (0..PAIRED_BATCH)
                .map(|_| load_all_derived(&mut buffer, &edited, path))
                .sum::<f32>()
        });
        let per_record = (PAIRED_BATCH * RECORDS) as f64;
        best_edited = best_edited.min(edited_time / per_record);
        edited_ratios.push(edited_time / derived);
        best_juliet = best_juliet.min(juliet / per_record);
        best_tokenized = best_tokenized.min(tokenized / per_record);
        best_derived = best_derived.min(derived / per_record);
        derived_ratios.push(derived / juliet);
        best_serde = best_serde.min(serde / per_record);
        ratios.push(serde / juliet);
        tokenized_ratios.push(serde / tokenized);
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "paired summary ({PAIRED_ROUNDS} rounds): tokenizer best pass {:.3} GB/s; typed \
         load best round: juliet {best_juliet:.1} ns/record, juliet_tokenized \
         {best_tokenized:.1}, juliet_derived {best_derived:.1}, juliet_edited \
         {best_edited:.1}, serde_json {best_serde:.1} (ratios of bests {:.2}, {:.2} and \
         {:.2}); median per-round ratio serde_json/juliet {:.2}, serde_json/juliet_tokenized \
         {:.2}, juliet_derived/juliet {:.2}, serde_json/juliet_derived {:.2}, \
         juliet_edited/juliet_derived {:.2}",
        bytes as f64 / best_pass,
        best_serde / best_juliet,
        best_serde / best_tokenized,
        best_serde / best_derived,
        median(ratios.clone()),
        median(tokenized_ratios),
        median(derived_ratios.clone()),
        median(
            ratios
                .iter()
                .zip(&derived_ratios)
                .map(|(r, d)| r / d)
                .collect()
        ),
        median(edited_ratios),
    );
}

criterion_group!(benches, bench_tokenizer, bench_typed_load);

fn main() {
    benches();
    // Only under `cargo bench` (not when `cargo test` runs the bench targets once), and
    // not in criterion's profiling mode (`--profile-time`), where docs/performance.md
    // counts instructions inside the loaders: they then run the named benchmark's
    // records alone.
    let args: Vec<String> = std::env::args().collect();
    let profiling = args
        .iter()
        .any(|a| a.split('=').next() == Some("--profile-time"));
    if args.iter().any(|a| a == "--bench") && !profiling {
        paired_summary();
    }
    Criterion::default().configure_from_args().final_summary();
}
