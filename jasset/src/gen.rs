//! `jasset gen --entities N --templates M [--references R] OUT`: a synthetic project for
//! benchmarks and stress tests, deterministic (a seeded SplitMix64 generator: the same
//! arguments give the same bytes).
//!
//! Layout: `OUT/Assets/Templates/Gen<Kind><i>.jasset` (M templates of the stock kinds,
//! three Inert for each Collectible and Projectile) and
//! `OUT/Assets/Worlds/Gen/Entities/<id>.jasset` (N entities: four in five are instances
//! of a template with zero to three overrides when there are templates, the others
//! standalone; with R, the last R are `Beacon`s of `OUT/jasset.schema`, which refer to
//! each other). Every file is in canonical form.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use glam::Vec3;
use juliet_core::{write_header, write_property, Codec, Reflect, CLASS_VERSION};

use super::output::{count, escape_path, steps_bar, PROGRESS_THRESHOLD};
use super::project::{TEMPLATES_DIR, WORLDS_DIR};
use super::schema::SCHEMA_FILE;
use super::{CliError, CliResult, Status};
use juliet_entities::entity::EntityId;
use juliet_entities::kinds::{Collectible, Inert, Projectile};
use juliet_entities::load::write_base_lines;
use juliet_entities::world::ENTITIES_DIR;

/// The first id of generated entities (ids are consecutive from here).
pub(crate) const FIRST_ID: u64 = 0x0002_0000_0000_0001;

/// The name of the generated world.
pub(crate) const WORLD_NAME: &str = "Gen";

/// Arguments of `jasset gen`.
#[derive(Debug, Clone, Args)]
pub(crate) struct GenArgs {
    /// Number of entity files.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub entities: usize,
    /// Number of templates.
    #[arg(long, value_name = "M", default_value_t = 10)]
    pub templates: usize,
    /// Seed of the generator.
    #[arg(long, default_value_t = 0x5EED)]
    pub seed: u64,
    /// Of the N entities, R (the last ones) are `Beacon`s, a kind of the project's
    /// `jasset.schema` (written too) with entity references: `Next` to another beacon,
    /// `Watch` to any generated entity or none.
    #[arg(long, value_name = "R", default_value_t = 0)]
    pub references: usize,
    /// The project folder to create (must not hold an `Assets/` folder yet).
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
}

/// SplitMix64: small, fast and good enough for test data.
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A multiple of 0.25 in `lo..hi` (short, exact decimal text).
    pub(crate) fn quarter(&mut self, lo: f32, hi: f32) -> f32 {
        let steps = ((hi - lo) * 4.0) as u64;
        lo + self.below(steps.max(1)) as f32 * 0.25
    }
}

/// What was generated.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Generated {
    /// Template files written.
    pub templates: usize,
    /// Entity files written.
    pub entities: usize,
    /// Of which template instances.
    pub instances: usize,
    /// Bytes written in all.
    pub bytes: u64,
}

/// Runs `jasset gen`.
///
/// # Errors
/// A usage error when OUT already holds `Assets/`; I/O errors.
pub(crate) fn run(args: &GenArgs, out: &mut dyn Write) -> CliResult {
    if args.out.join("Assets").exists() {
        return Err(CliError::usage(format!(
            "{}: already holds an Assets/ folder (choose a new or empty folder)",
            args.out.display()
        )));
    }
    if args.out.exists() && !args.out.is_dir() {
        return Err(CliError::usage(format!(
            "{}: not a folder (OUT is the folder the project is written to)",
            escape_path(&args.out)
        )));
    }
    let start = std::time::Instant::now();
    let total = args.entities.saturating_add(args.templates);
    let bar = steps_bar(total as u64, "files", total >= PROGRESS_THRESHOLD);
    let g = generate_with(
        &args.out,
        Counts {
            entities: args.entities,
            templates: args.templates,
            references: args.references.min(args.entities),
        },
        args.seed,
        &mut |done| bar.set_position(done as u64),
    );
    bar.finish_and_clear();
    let g = g?;
    writeln!(
        out,
        "generated {} and {} ({}) in {}, {} bytes, {:.2?}",
        count(g.templates, "template"),
        count(g.entities, "entity"),
        count(g.instances, "instance"),
        args.out.display(),
        g.bytes,
        start.elapsed()
    )?;
    writeln!(
        out,
        "world: {}",
        args.out.join(WORLDS_DIR).join(WORLD_NAME).display()
    )?;
    Ok(Status::Success)
}

/// Writes one generated file; the error names it.
fn write_file(path: &Path, text: &str) -> Result<(), CliError> {
    fs::write(path, text)
        .map_err(|e| CliError::failure(format!("{}: cannot write: {e}", escape_path(path))))
}

/// A kind of generated template, by index: three Inert for each Collectible and
/// Projectile.
fn kind_of_template(i: usize) -> &'static str {
    match i % 5 {
        3 => Collectible::CLASS.name(),
        4 => Projectile::CLASS.name(),
        _ => Inert::CLASS.name(),
    }
}

/// Writes the project under `out` ([`generate_with`] without progress).
///
/// # Errors
/// The first I/O error.
#[cfg(test)]
pub(crate) fn generate(
    out: &Path,
    entities: usize,
    templates: usize,
    seed: u64,
) -> Result<Generated, CliError> {
    let counts = Counts {
        entities,
        templates,
        references: 0,
    };
    generate_with(out, counts, seed, &mut |_| {})
}

/// How many files [`generate_with`] writes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Counts {
    /// Entity files.
    pub entities: usize,
    /// Template files.
    pub templates: usize,
    /// Of the entities, how many (the last) are `Beacon`s ([`GenArgs::references`]).
    pub references: usize,
}

/// The `jasset.schema` of a project with beacons: the kind `Beacon` and its references.
pub(crate) const BEACON_SCHEMA: &str = "; AssetType\nSchema\n; Beacon\nversion 1\n\
    property Next ref(Beacon) 0x0000000000000000\nproperty Watch option(ref(*)) ~\n";

/// Files between two calls of [`generate_with`]'s `progress`.
const PROGRESS_EVERY: usize = 256;

/// Writes the project under `out`, calling `progress` with the number of files
/// written so far every [`PROGRESS_EVERY`] files and at the end.
///
/// # Errors
/// The first I/O error.
pub(crate) fn generate_with(
    out: &Path,
    counts: Counts,
    seed: u64,
    progress: &mut dyn FnMut(usize),
) -> Result<Generated, CliError> {
    let Counts {
        entities,
        templates,
        references,
    } = counts;
    let mut rng = Rng::new(seed);
    let tdir = out.join(TEMPLATES_DIR);
    let edir = out.join(WORLDS_DIR).join(WORLD_NAME).join(ENTITIES_DIR);
    let mkdir = |dir: &Path| {
        fs::create_dir_all(dir).map_err(|e| {
            CliError::failure(format!(
                "{}: cannot create the folder: {e}",
                escape_path(dir)
            ))
        })
    };
    mkdir(&tdir)?;
    mkdir(&edir)?;
    if references > 0 {
        write_file(&out.join(SCHEMA_FILE), BEACON_SCHEMA)?;
    }
    let mut g = Generated::default();
    let mut names = Vec::with_capacity(templates);
    let mut text = String::new();
    for i in 0..templates {
        let kind = kind_of_template(i);
        let name = format!("Gen{kind}{i:03}.jasset");
        text.clear();
        begin(&mut text, None, kind, None, Vec3::ZERO);
        properties(&mut text, kind, &mut rng, None);
        write_file(&tdir.join(&name), &text)?;
        g.bytes += text.len() as u64;
        names.push((format!("{TEMPLATES_DIR}/{name}"), kind));
        g.templates += 1;
    }
    for i in 0..entities {
        let id = EntityId(FIRST_ID + i as u64);
        let position = Vec3::new(
            rng.quarter(-500.0, 500.0),
            rng.quarter(0.0, 20.0),
            rng.quarter(-500.0, 500.0),
        );
        text.clear();
        let first_beacon = entities - references;
        if i >= first_beacon {
            let beacon = |r: u64| EntityId(FIRST_ID + first_beacon as u64 + r);
            let next = beacon(rng.below(references as u64));
            begin(&mut text, Some(id), "Beacon", None, position);
            text.push_str(&format!("; ClassVersion\n1\n; Next\n{next}\n; Watch\n"));
            match rng.below(4) {
                0 => text.push_str("~\n"),
                _ => text.push_str(&format!(
                    "{}\n",
                    EntityId(FIRST_ID + rng.below(entities as u64))
                )),
            }
        } else if !names.is_empty() && rng.below(5) != 0 {
            let (template, kind) = &names[rng.below(names.len() as u64) as usize];
            begin(&mut text, Some(id), kind, Some(template), position);
            let overrides = rng.below(4) as usize;
            properties(&mut text, kind, &mut rng, Some(overrides));
            g.instances += 1;
        } else {
            let kind = kind_of_template(rng.below(5) as usize);
            begin(&mut text, Some(id), kind, None, position);
            properties(&mut text, kind, &mut rng, None);
        }
        write_file(&edir.join(id.file_name()), &text)?;
        g.bytes += text.len() as u64;
        g.entities += 1;
        if g.entities % PROGRESS_EVERY == 0 {
            progress(g.templates + g.entities);
        }
    }
    progress(g.templates + g.entities);
    Ok(g)
}

/// The base keys in canonical order.
fn begin(
    out: &mut String,
    id: Option<EntityId>,
    kind: &str,
    template: Option<&String>,
    position: Vec3,
) {
    write_base_lines(out, id, kind, template.map(String::as_str), Some(position));
}

/// `ClassVersion` and the properties of `kind` with random values: all of them, or
/// `Some(n)` of them (an instance's overrides, in declaration order).
fn properties(out: &mut String, kind: &str, rng: &mut Rng, only: Option<usize>) {
    let values: Vec<(&'static str, String)> = if kind == Inert::CLASS.name() {
        let s = rng.quarter(0.5, 3.0);
        vec![
            ("MeshInstance", enc(&u32::MAX)),
            (
                "MeshAsset",
                enc(&format!("Assets/Meshes/Gen_{:02}.obj", rng.below(40))),
            ),
            (
                "MaterialOverride",
                enc(&format!("Materials/M_Gen_{:02}", rng.below(12))),
            ),
            ("Scale", enc(&Vec3::splat(s))),
            ("Mass", enc(&rng.quarter(0.0, 500.0))),
            ("IsDestructible", enc(&(rng.below(2) == 0))),
            ("IsVisible", enc(&(rng.below(10) != 0))),
            ("Health", enc(&rng.quarter(1.0, 300.0))),
        ]
    } else if kind == Collectible::CLASS.name() {
        vec![("Value", enc(&(10 * (1 + rng.below(100)) as u32)))]
    } else {
        vec![
            ("VelocityX", enc(&rng.quarter(-60.0, 60.0))),
            ("VelocityY", enc(&rng.quarter(-10.0, 10.0))),
            ("Damage", enc(&rng.quarter(1.0, 200.0))),
        ]
    };
    let version = match kind {
        k if k == Inert::CLASS.name() => Inert::CLASS.version(),
        k if k == Collectible::CLASS.name() => Collectible::CLASS.version(),
        _ => Projectile::CLASS.version(),
    };
    let chosen: Vec<bool> = match only {
        None => vec![true; values.len()],
        Some(n) => {
            let mut chosen = vec![false; values.len()];
            for _ in 0..n {
                let at = rng.below(values.len() as u64) as usize;
                chosen[at] = true;
            }
            chosen
        }
    };
    // A sparse instance without overrides writes no `ClassVersion` (as the runtime's
    // writer does).
    if chosen.iter().any(|&c| c) {
        write_property(out, CLASS_VERSION.name, &version);
    }
    for ((key, value), keep) in values.iter().zip(chosen) {
        if keep {
            write_header(out, key);
            out.push_str(value);
            out.push('\n');
        }
    }
}

fn enc<T: Codec>(value: &T) -> String {
    let mut s = String::new();
    value.encode(&mut s);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let xs: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(Rng::new(8).next_u64(), xs[0]);
        let q = Rng::new(1).quarter(-1.0, 1.0);
        assert!((-1.0..1.0).contains(&q) && (q * 4.0).fract() == 0.0);
    }

    #[test]
    fn same_seed_same_bytes() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        let ga = generate(a.path(), 30, 5, 9).unwrap();
        let gb = generate(b.path(), 30, 5, 9).unwrap();
        assert_eq!(ga, gb);
        assert_eq!((ga.templates, ga.entities), (5, 30));
        let e = |d: &Path| d.join("Assets/Worlds/Gen/Entities");
        for entry in fs::read_dir(e(a.path())).unwrap() {
            let entry = entry.unwrap();
            let other = e(b.path()).join(entry.file_name());
            assert_eq!(fs::read(entry.path()).unwrap(), fs::read(other).unwrap());
        }
    }
}
