//! `jasset bench ROOT`: load and save timings of worlds, with throughput.
//!
//! ROOT is a world folder (holding `Entities/`) or a project root (every world under
//! `Assets/Worlds/`). The project is first copied to a temporary folder (not timed):
//! saves write there, never under ROOT. For each world: the load (read, tokenize, load
//! in place), the canonical writer alone (to memory), and the save of every entity
//! (temporary file and rename per file; no `fsync` unless `--fsync`), each the best and
//! the mean of `--iterations` runs.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::ProgressBar;

use super::output::{count, steps_bar};
use super::project::{copy_dir, find_root, load_world_dir, WORLDS_DIR};
use super::{CliError, CliResult, Status};
use juliet_entities::world::{Durability, World, ENTITIES_DIR};

/// Arguments of `jasset bench`.
#[derive(Debug, Clone, Args)]
pub(crate) struct BenchArgs {
    /// A world folder (holding `Entities/`) or a project root (holding `Assets/Worlds/`).
    #[arg(value_name = "ROOT")]
    pub root: PathBuf,
    /// Runs of each measurement (the best and the mean are printed).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub iterations: u32,
    /// `fsync` each file and the folder when saving (measures the disk, not the writer).
    #[arg(long)]
    pub fsync: bool,
}

/// Timings of one measurement.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Timing {
    /// The fastest run.
    pub best: Duration,
    /// The mean of the runs.
    pub mean: Duration,
}

impl Timing {
    fn of(runs: &[Duration]) -> Timing {
        let best = runs.iter().copied().min().unwrap_or_default();
        let total: Duration = runs.iter().sum();
        Timing {
            best,
            mean: total / runs.len().max(1) as u32,
        }
    }

    /// `best (N files/s, M MB/s), mean` for `files` files of `bytes` bytes in all.
    pub(crate) fn describe(&self, files: usize, bytes: u64) -> String {
        let secs = self.best.as_secs_f64().max(1e-9);
        format!(
            "best {:>9.2?} ({:>10.0} files/s, {:>7.1} MB/s), mean {:.2?}",
            self.best,
            files as f64 / secs,
            bytes as f64 / 1e6 / secs,
            self.mean
        )
    }
}

/// Runs `jasset bench`.
///
/// # Errors
/// A usage error when ROOT holds no world; I/O and load errors.
pub(crate) fn run(args: &BenchArgs, out: &mut dyn Write) -> CliResult {
    let (project, worlds) = locate(&args.root)?;
    if cfg!(debug_assertions) {
        eprintln!("jasset: warning: {DEBUG_BUILD}");
    }
    // One step per copy and per timed run: a large world's load takes seconds.
    let runs_per_world = 3 * u64::from(args.iterations);
    let bar = steps_bar(1 + worlds.len() as u64 * runs_per_world, "steps", true);
    bar.set_message(format!("copying {}", project.display()));
    let copy = tempfile::tempdir()?;
    copy_dir(&project, copy.path())?;
    bar.inc(1);
    let result = bench_worlds(args, &project, &worlds, copy.path(), &bar, out);
    bar.finish_and_clear();
    result
}

/// What `bench` says when the binary is a debug build (`cfg!(debug_assertions)`).
const DEBUG_BUILD: &str = "this jasset is a debug build: its timings are several times \
                           slower than a release build's (build with `--release`, or \
                           `cargo install --locked --path jasset`, for figures)";

/// The timings of each of `worlds` (of `project`, copied to `copy`), moving `bar` one
/// step per run.
fn bench_worlds(
    args: &BenchArgs,
    project: &Path,
    worlds: &[PathBuf],
    copy: &Path,
    bar: &ProgressBar,
    out: &mut dyn Write,
) -> CliResult {
    let mut failed = false;
    for world in worlds {
        let rel = world.strip_prefix(project).unwrap_or(world).to_path_buf();
        let dir = copy.join(&rel);
        let (files, bytes) = tree_size(&dir.join(ENTITIES_DIR))?;
        writeln!(
            out,
            "world {}: {}, {:.2} MB",
            world.display(),
            count(files, "file"),
            bytes as f64 / 1e6
        )?;
        let runs = Runs { args, bar, rel };
        let (mut world_state, load_failed) = runs.load(copy, &dir, (files, bytes), out)?;
        failed |= load_failed;
        runs.write(&mut world_state, out)?;
        runs.save(&mut world_state, &dir, out)?;
    }
    Ok(Status::from_problems(failed))
}

/// The timed runs of one world (`rel`, its path in the project).
struct Runs<'a> {
    args: &'a BenchArgs,
    bar: &'a ProgressBar,
    rel: PathBuf,
}

impl Runs<'_> {
    /// Shows run `i` of `what` on the progress bar.
    fn step(&self, what: &str, i: u32) {
        self.bar.set_message(format!(
            "{what} {}/{} of {}",
            i + 1,
            self.args.iterations,
            self.rel.display()
        ));
    }

    /// Loads the world at `dir` (in the project copy `copy`; `size`: its entity files
    /// and bytes) once a run and prints the timing; the last load, and whether a file
    /// did not load.
    fn load(
        &self,
        copy: &Path,
        dir: &Path,
        (files, bytes): (usize, u64),
        out: &mut dyn Write,
    ) -> Result<(World, bool), CliError> {
        let mut runs = Vec::new();
        let mut last = None;
        for i in 0..self.args.iterations {
            self.step("load", i);
            let start = Instant::now();
            let loaded =
                load_world_dir(Some(copy), dir).map_err(|e| CliError::failure(e.to_string()))?;
            runs.push(start.elapsed());
            last = Some(loaded);
            self.bar.inc(1);
        }
        let (world, report) = last.expect("at least one iteration");
        writeln!(
            out,
            "  load          {}",
            Timing::of(&runs).describe(files, bytes)
        )?;
        let failed = !report.errors.is_empty();
        if failed {
            writeln!(
                out,
                "  ({} of {} did not load; `jasset check` lists them)",
                report.errors.len(),
                count(report.files, "file")
            )?;
        }
        Ok((world, failed))
    }

    /// Times the canonical writer alone: every entity's text, in memory.
    fn write(&self, world: &mut World, out: &mut dyn Write) -> Result<(), CliError> {
        let ids: Vec<_> = world.manager().entities().iter().map(|e| e.id()).collect();
        let mut runs = Vec::new();
        let mut written = 0u64;
        for i in 0..self.args.iterations {
            self.step("write", i);
            let start = Instant::now();
            written = 0;
            let mut text = String::new();
            for &id in &ids {
                text.clear();
                if world.entity_text(id, &mut text).is_ok() {
                    written += text.len() as u64;
                }
            }
            runs.push(start.elapsed());
            self.bar.inc(1);
        }
        writeln!(
            out,
            "  write (memory) {}",
            Timing::of(&runs).describe(ids.len(), written)
        )?;
        Ok(())
    }

    /// Times saving every entity, each moved by one unit (back and forth), so that every
    /// file is edited and written: a save writes only the files whose bytes change.
    fn save(&self, world: &mut World, dir: &Path, out: &mut dyn Write) -> Result<(), CliError> {
        world.set_durability(if self.args.fsync {
            Durability::Fsync
        } else {
            Durability::Fast
        });
        let mut runs = Vec::new();
        let mut saved = 0;
        for i in 0..self.args.iterations {
            self.step("save", i);
            let offset = if i % 2 == 0 {
                glam::Vec3::X
            } else {
                -glam::Vec3::X
            };
            world
                .manager_mut()
                .for_each_entity_mut(|e| e.set_position(e.position() + offset));
            let start = Instant::now();
            let report = world.save_world()?;
            runs.push(start.elapsed());
            saved = report.written.len();
            self.bar.inc(1);
        }
        let (_, saved_bytes) = tree_size(&dir.join(ENTITIES_DIR))?;
        writeln!(
            out,
            "  save{}   {}",
            if self.args.fsync {
                " (fsync)"
            } else {
                "        "
            },
            Timing::of(&runs).describe(saved, saved_bytes)
        )?;
        Ok(())
    }
}

/// The project root to copy and the worlds to measure.
fn locate(root: &Path) -> Result<(PathBuf, Vec<PathBuf>), CliError> {
    if root.join(ENTITIES_DIR).is_dir() {
        let project = find_root(root).unwrap_or_else(|| root.to_path_buf());
        return Ok((project, vec![root.to_path_buf()]));
    }
    let worlds_dir = root.join(WORLDS_DIR);
    let mut worlds = Vec::new();
    if let Ok(entries) = fs::read_dir(&worlds_dir) {
        for entry in entries.flatten() {
            if entry.path().join(ENTITIES_DIR).is_dir() {
                worlds.push(entry.path());
            }
        }
    }
    worlds.sort();
    if worlds.is_empty() {
        return Err(CliError::usage(format!(
            "{}: no world here (a world folder holds Entities/; a project root holds {WORLDS_DIR}/<Name>/Entities/)",
            root.display()
        )));
    }
    Ok((root.to_path_buf(), worlds))
}

/// Number and total size of the `.jasset` files of `dir`.
fn tree_size(dir: &Path) -> std::io::Result<(usize, u64)> {
    let mut files = 0;
    let mut bytes = 0;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if super::listing::is_jasset(&entry.path()) {
            files += 1;
            bytes += entry.metadata()?.len();
        }
    }
    Ok((files, bytes))
}
