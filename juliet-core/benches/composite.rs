//! The cost of composites: `cargo bench -p juliet-core --bench composite`.
//!
//! Three records, loaded through `#[derive(Entity)]` and [`juliet_core::from_text`]
//! from their canonical `.jasset` text and, for reference, through
//! `#[derive(Deserialize)]` from JSON with `serde_json::from_str` and with
//! `simd_json::serde::from_slice` (which parses a copy of the text in place):
//!
//! * `Unit`: the core bench's record (`common/unit.rs`), 12 plain fields (six `f32`, a
//!   `Vec3`, `u64`, `i32`, `bool`, two `String`s), the flat record the composite
//!   record's target is stated against;
//! * `Flat`: nine plain fields (five `f32`, `i32`, `bool`, `u64`, a `String`), fewer
//!   floats a field than `Unit`;
//! * `Squad`: 9 properties in composites and the new value types: a `Stats` struct
//!   (two leaves), a `Range` tuple struct (two), an `Option<f32>`, a `Quat`, a list of
//!   three `Waypoint { x, y }` structs (records), a `String` and an `f32`.
//!
//! It prints, for each record, the best of [`ROUNDS`] alternating rounds in ns per
//! record and per field or leaf, and the per-round medians of the ratios the targets
//! of docs/performance.md name: the composite record's cost per leaf over each flat
//! record's cost per field (a leaf as [`SQUAD_LEAVES`] counts them, and per table
//! entry over `Unit`'s), and `serde_json` and `simd-json` over the derived load for
//! each record. With `--once unit`, `--once flat` or `--once squad` it loads that set
//! once with each loader (for `valgrind --tool=callgrind --toggle-collect=...`, see
//! docs/performance.md).

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use glam::Quat;
use juliet_core::{from_text, Archive, Reflect, TokenBuffer};
use serde::Deserialize;

/// Distinct records per set.
const RECORDS: usize = 256;

/// Alternating rounds.
const ROUNDS: usize = 40;

/// Passes over a set per loader and round.
const BATCH: usize = 8;

/// The leaves of a `Squad`, each a value with a path of its own: its 9 table entries,
/// the list of three `Waypoint` records counted as its records' six leaves
/// (`Route[0].X`, ...).
const SQUAD_LEAVES: f64 = 14.0;

#[derive(Debug, Clone, PartialEq, Default, Deserialize, juliet_derive::Entity)]
#[jasset(crate = ::juliet_core)]
struct Flat {
    health: f32,
    armor: f32,
    reach: f32,
    cooldown: f32,
    speed: f32,
    level: i32,
    visible: bool,
    owner: u64,
    name: String,
}

#[derive(Debug, Clone, PartialEq, Default, Deserialize, juliet_derive::Codec)]
#[jasset(crate = ::juliet_core)]
struct Stats {
    hp: f32,
    armor: f32,
}

#[derive(Debug, Clone, PartialEq, Default, Deserialize, juliet_derive::Codec)]
#[jasset(crate = ::juliet_core)]
struct Range(f32, f32);

#[derive(Debug, Clone, PartialEq, Default, Deserialize, juliet_derive::Codec)]
#[jasset(crate = ::juliet_core)]
struct Waypoint {
    x: f32,
    y: f32,
}

#[derive(Debug, Clone, PartialEq, Default, Deserialize, juliet_derive::Entity)]
#[jasset(crate = ::juliet_core)]
struct Squad {
    stats: Stats,
    range: Range,
    shield: Option<f32>,
    #[serde(deserialize_with = "quat")]
    facing: Quat,
    waypoints: Vec<Waypoint>,
    name: String,
    speed: f32,
}

/// `Quat` from a JSON array of four numbers.
fn quat<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Quat, D::Error> {
    <[f32; 4]>::deserialize(d).map(Quat::from_array)
}

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;
#[path = "common/unit.rs"]
mod unit;
use unit::Unit;

fn flat(rng: &mut Rng, i: usize) -> Flat {
    Flat {
        health: rng.float(),
        armor: rng.float(),
        reach: rng.float(),
        cooldown: rng.float(),
        speed: rng.float(),
        level: (rng.next() % 100) as i32,
        visible: rng.next() % 2 == 0,
        owner: rng.next() >> 20,
        name: format!("Unit_{i:03}"),
    }
}

fn squad(rng: &mut Rng, i: usize) -> Squad {
    Squad {
        stats: Stats {
            hp: rng.float(),
            armor: rng.float(),
        },
        range: Range(rng.float(), rng.float()),
        shield: (i % 3 != 0).then(|| rng.float()),
        facing: Quat::from_xyzw(0.0, rng.float() / 1000.0, 0.0, 1.0),
        waypoints: (0..3)
            .map(|_| Waypoint {
                x: rng.float(),
                y: rng.float(),
            })
            .collect(),
        name: format!("Squad_{i:03}"),
        speed: rng.float(),
    }
}

/// The canonical text the derive's writer gives.
fn text<T: Reflect>(value: &T) -> String {
    let mut out = String::new();
    value.save(&mut Archive::saving(&mut out));
    out
}

fn flat_json(f: &Flat) -> String {
    format!(
        "{{\"health\":{},\"armor\":{},\"reach\":{},\"cooldown\":{},\"speed\":{},\"level\":{},\
         \"visible\":{},\"owner\":{},\"name\":\"{}\"}}",
        f.health, f.armor, f.reach, f.cooldown, f.speed, f.level, f.visible, f.owner, f.name
    )
}

fn squad_json(s: &Squad) -> String {
    let shield = s.shield.map_or("null".to_owned(), |v| v.to_string());
    let waypoints: Vec<String> = s
        .waypoints
        .iter()
        .map(|w| format!("{{\"x\":{},\"y\":{}}}", w.x, w.y))
        .collect();
    let q = s.facing.to_array();
    format!(
        "{{\"stats\":{{\"hp\":{},\"armor\":{}}},\"range\":[{},{}],\"shield\":{shield},\
         \"facing\":[{},{},{},{}],\"waypoints\":[{}],\"name\":\"{}\",\"speed\":{}}}",
        s.stats.hp,
        s.stats.armor,
        s.range.0,
        s.range.1,
        q[0],
        q[1],
        q[2],
        q[3],
        waypoints.join(","),
        s.name,
        s.speed
    )
}

/// Loads every text of `set` with the derive's loader; a checksum.
#[inline(never)]
fn load_all_derived<T: Reflect>(buffer: &mut TokenBuffer, set: &[String]) -> usize {
    let path = Path::new("Assets/Bench/Record.jasset");
    set.iter()
        .map(|t| {
            let (value, _) = from_text::<T>(buffer, t.as_bytes(), path).expect("loads");
            black_box(value);
            1
        })
        .sum()
}

/// Loads every JSON text of `set` with `serde_json`; a checksum.
#[inline(never)]
fn load_all_json<T: for<'de> Deserialize<'de>>(set: &[String]) -> usize {
    set.iter()
        .map(|t| {
            black_box(serde_json::from_str::<T>(t).expect("parses"));
            1
        })
        .sum()
}

/// Loads every JSON text of `set` with `simd-json`, each parsed in place from a copy in
/// `scratch`; a checksum.
#[inline(never)]
fn load_all_simd<T: for<'de> Deserialize<'de>>(scratch: &mut Vec<u8>, set: &[String]) -> usize {
    set.iter()
        .map(|t| {
            scratch.clear();
            scratch.extend_from_slice(t.as_bytes());
            black_box(simd_json::serde::from_slice::<T>(scratch).expect("parses"));
            1
        })
        .sum()
}

/// Nanoseconds `passes` passes of `f` take, per record.
fn per_record(passes: usize, mut f: impl FnMut() -> usize) -> f64 {
    let start = Instant::now();
    let records: usize = (0..passes).map(|_| f()).sum();
    start.elapsed().as_nanos() as f64 / records as f64
}

/// Per-record times of `passes` passes of each of a record's three loaders in turn:
/// derived, `serde_json`, `simd-json`.
fn round<T: Reflect + for<'de> Deserialize<'de>>(
    passes: usize,
    buffer: &mut TokenBuffer,
    scratch: &mut Vec<u8>,
    (text, json): (&[String], &[String]),
) -> [f64; 3] {
    [
        per_record(passes, || load_all_derived::<T>(buffer, text)),
        per_record(passes, || load_all_json::<T>(json)),
        per_record(passes, || load_all_simd::<T>(scratch, json)),
    ]
}

/// Every loader gives a few of `records` back from their `.jasset` text and their JSON
/// (the JSON of a float is Rust's shortest form), none through the loaders the
/// `--once` counts toggle.
fn check<T>(buffer: &mut TokenBuffer, records: &[T], (text, json): (&[String], &[String]))
where
    T: Reflect + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    let path = Path::new("Assets/Bench/Check.jasset");
    for i in [0, 1, records.len() - 1] {
        let (derived, _) = from_text::<T>(buffer, text[i].as_bytes(), path).expect("loads");
        assert_eq!(derived, records[i]);
        assert_eq!(serde_json::from_str::<T>(&json[i]).unwrap(), records[i]);
        let mut bytes = json[i].clone().into_bytes();
        assert_eq!(
            simd_json::serde::from_slice::<T>(&mut bytes).unwrap(),
            records[i]
        );
    }
}

/// The median of `v`.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let flats: Vec<Flat> = (0..RECORDS).map(|i| flat(&mut rng, i)).collect();
    let squads: Vec<Squad> = (0..RECORDS).map(|i| squad(&mut rng, i)).collect();
    let (units, unit_text, unit_js) = unit::records(RECORDS);
    let (flat_text, squad_text): (Vec<String>, Vec<String>) = (
        flats.iter().map(text).collect(),
        squads.iter().map(text).collect(),
    );
    let (flat_js, squad_js): (Vec<String>, Vec<String>) = (
        flats.iter().map(flat_json).collect(),
        squads.iter().map(squad_json).collect(),
    );
    let sets = [
        (&unit_text[..], &unit_js[..]),
        (&flat_text[..], &flat_js[..]),
        (&squad_text[..], &squad_js[..]),
    ];
    let (mut buffer, mut scratch) = (TokenBuffer::new(), Vec::new());
    check(&mut buffer, &units, sets[0]);
    check(&mut buffer, &flats, sets[1]);
    check(&mut buffer, &squads, sets[2]);

    // `--once unit`, `--once flat` or `--once squad`: one pass of that record's loaders.
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--once") {
        match args.get(at + 1).map(String::as_str) {
            Some("unit") => round::<Unit>(1, &mut buffer, &mut scratch, sets[0]),
            Some("flat") => round::<Flat>(1, &mut buffer, &mut scratch, sets[1]),
            _ => round::<Squad>(1, &mut buffer, &mut scratch, sets[2]),
        };
        return;
    }
    // `cargo test` runs bench targets once without `--bench`: the checks above suffice.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let entries = Squad::CLASS.properties().len() as f64;
    let fields = [
        Unit::CLASS.properties().len() as f64,
        Flat::CLASS.properties().len() as f64,
    ];
    // Best times: [record][loader], records `Unit`, `Flat`, `Squad`.
    let mut best = [[f64::MAX; 3]; 3];
    // Per-round ratios: leaf over a `Unit` field, leaf over a `Flat` field, table entry
    // over a `Unit` field, then `serde_json` and `simd-json` over derived per record.
    let mut ratios: [Vec<f64>; 9] = Default::default();
    for _ in 0..ROUNDS {
        let times = [
            round::<Unit>(BATCH, &mut buffer, &mut scratch, sets[0]),
            round::<Flat>(BATCH, &mut buffer, &mut scratch, sets[1]),
            round::<Squad>(BATCH, &mut buffer, &mut scratch, sets[2]),
        ];
        for (b, t) in best.iter_mut().zip(&times) {
            for (b, t) in b.iter_mut().zip(t) {
                *b = b.min(*t);
            }
        }
        let [u, f, s] = times.map(|t| t[0]);
        ratios[0].push((s / SQUAD_LEAVES) / (u / fields[0]));
        ratios[1].push((s / SQUAD_LEAVES) / (f / fields[1]));
        ratios[2].push((s / entries) / (u / fields[0]));
        for (r, t) in times.iter().enumerate() {
            ratios[3 + r].push(t[1] / t[0]);
            ratios[6 + r].push(t[2] / t[0]);
        }
    }
    let [leaf_unit, leaf_flat, entry_unit, sj_u, sj_f, sj_s, simd_u, simd_f, simd_s] =
        ratios.map(median);
    let [[u, uj, us], [f, fj, fs], [s, sj, ss]] = best;
    println!(
        "composite bench ({ROUNDS} rounds, best ns/record): unit derived {u:.1} ({:.1}/field), \
         unit serde_json {uj:.1}, unit simd-json {us:.1}, flat derived {f:.1} ({:.1}/field), \
         flat serde_json {fj:.1}, flat simd-json {fs:.1}, squad derived {s:.1} ({:.1}/leaf), \
         squad serde_json {sj:.1}, squad simd-json {ss:.1}; median ratios: squad per leaf / \
         unit per field {leaf_unit:.2}, / flat per field {leaf_flat:.2} (per table entry / \
         unit per field {entry_unit:.2}), serde_json/derived unit {sj_u:.2}, flat {sj_f:.2}, \
         squad {sj_s:.2}, simd-json/derived unit {simd_u:.2}, flat {simd_f:.2}, squad \
         {simd_s:.2}",
        u / fields[0],
        f / fields[1],
        s / SQUAD_LEAVES,
    );
}
