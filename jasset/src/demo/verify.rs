//! Step 5 of `jasset demo`: the saved world loaded again and checked against the one in
//! memory, the edits found on disk, and every other file byte for byte as copied.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use glam::Vec3;
use juliet_core::{Archive, Reflect};
use juliet_entities::entity::EntityId;
use juliet_entities::kinds::{Inert, Projectile};
use juliet_entities::world::{LoadReport, World};

use super::{agreeing, rel, EDITED_KEY, EDITED_TEMPLATE, EDITED_VALUE};
use crate::output::{count, Paint, Style};
use crate::project::load_world_dir;
use crate::values;
use crate::CliError;

/// The verifications, printed as a list.
#[derive(Debug, Default)]
pub(super) struct Checks {
    results: Vec<(String, bool)>,
}

impl Checks {
    pub(super) fn check(&mut self, what: impl Into<String>, ok: bool) {
        self.results.push((what.into(), ok));
    }

    fn failed(&self) -> usize {
        self.results.iter().filter(|(_, ok)| !ok).count()
    }

    /// Prints each check with its mark, then the verdict; returns how many failed.
    pub(super) fn print(&self, out: &mut dyn Write, style: Style) -> std::io::Result<usize> {
        for (what, ok) in &self.results {
            let mark = if *ok {
                style.paint(Paint::Green, "ok    ")
            } else {
                style.paint(Paint::Red, "FAILED")
            };
            writeln!(out, "  {mark} {what}")?;
        }
        let (failed, checks) = (self.failed(), count(self.results.len(), "check"));
        let verdict = match failed {
            0 => style.paint(Paint::Green, &format!("demo verified ({checks})")),
            _ => style.paint(
                Paint::Red,
                &format!("demo verification failed: {failed} of {checks}"),
            ),
        };
        writeln!(out, "{verdict}")?;
        Ok(failed)
    }
}

/// Reloads the saved world and compares it with the edited one in memory.
pub(super) fn verify(
    checks: &mut Checks,
    world: &World,
    world_dir: &Path,
    root: &Path,
    first: &LoadReport,
) -> Result<(), CliError> {
    let (reloaded, report) =
        load_world_dir(Some(root), world_dir).map_err(|e| CliError::failure(e.to_string()))?;
    checks.check(
        format!(
            "the saved world loads: {} of {}, {} (first load: {})",
            report.loaded,
            count(report.files, "file"),
            count(report.errors.len(), "error"),
            count(first.errors.len(), "error")
        ),
        report.errors.is_empty() && report.files == first.files,
    );
    checks.check(
        "the reloaded world keeps the manager invariants",
        reloaded.manager().check_invariants().is_ok(),
    );
    let mut differ = Vec::new();
    for e in world.manager().entities() {
        let same = reloaded.manager().entity(e.id()).is_some_and(|r| {
            r.class() == e.class()
                && r.position() == e.position()
                && full_text(world, e.id()) == full_text(&reloaded, e.id())
        });
        if !same {
            differ.push(e.id().to_string());
        }
    }
    checks.check(
        format!(
            "{} {} back as in memory{}",
            match world.manager().len() {
                1 => "the 1 entity".to_owned(),
                n => format!("all {n} entities"),
            },
            if world.manager().len() == 1 {
                "reads"
            } else {
                "read"
            },
            listed("differ", &differ, ", ")
        ),
        differ.is_empty() && reloaded.manager().len() == world.manager().len(),
    );
    Ok(())
}

/// ` (what: a, b)`: `items` joined by `separator` after `what`, in parentheses; nothing
/// when there is none.
fn listed(what: &str, items: &[String], separator: &str) -> String {
    if items.is_empty() {
        String::new()
    } else {
        format!(" ({what}: {})", items.join(separator))
    }
}

/// Every property of entity `id`, written in full (the resolved values).
fn full_text(world: &World, id: EntityId) -> Option<String> {
    let mut text = String::new();
    world
        .manager()
        .save_derived(id, &mut Archive::saving(&mut text))
        .ok()?;
    Some(text)
}

pub(super) fn reload_position(
    world_dir: &Path,
    root: &Path,
    id: EntityId,
) -> Result<Option<Vec3>, CliError> {
    let (world, _) =
        load_world_dir(Some(root), world_dir).map_err(|e| CliError::failure(e.to_string()))?;
    Ok(world.manager().entity(id).map(|e| e.position()))
}

pub(super) fn verify_template_change(
    checks: &mut Checks,
    world_dir: &Path,
    root: &Path,
    expect: Option<&[(EntityId, PathBuf, f32)]>,
) -> Result<(), CliError> {
    let Some(expect) = expect else {
        return Ok(());
    };
    let (world, _) =
        load_world_dir(Some(root), world_dir).map_err(|e| CliError::failure(e.to_string()))?;
    let mut wrong = Vec::new();
    let mut took = 0;
    for (id, path, mass) in expect {
        let got = world.manager().get::<Inert>(*id).map(|i| i.mass);
        if got != Some(*mass) {
            wrong.push(format!(
                "{}: {got:?} instead of {mass}",
                path.file_name().unwrap_or_default().to_string_lossy()
            ));
        }
        if *mass == EDITED_VALUE {
            took += 1;
        }
    }
    checks.check(
        format!(
            "after reload, {} {EDITED_KEY} {EDITED_VALUE} from {EDITED_TEMPLATE}; the other {} their own (an override, or another template's){}",
            agreeing(took, "instance", "inherits", "inherit"),
            agreeing(expect.len() - took, "Inert instance", "keeps", "keep"),
            listed("wrong", &wrong, "; ")
        ),
        wrong.is_empty(),
    );
    Ok(())
}

/// Checks that each projectile step 3 marked (`migrated`: ids and files) is saved at
/// the current class version without the deprecated `Speed`.
pub(super) fn verify_migrated(
    checks: &mut Checks,
    root: &Path,
    migrated: &[(EntityId, PathBuf)],
) -> Result<(), CliError> {
    for (id, path) in migrated {
        let text = fs::read(path)?;
        let props = values::properties(&text, path)?;
        let header = values::header(&props);
        checks.check(
            format!(
                "{} ({id}) is saved at class version {} without `Speed`",
                rel(path, root),
                Projectile::CLASS.version()
            ),
            header.class_version == Some(Projectile::CLASS.version())
                && values::find(&props, "Speed", &[]).is_none(),
        );
    }
    Ok(())
}

/// Checks that every file of the copy (`before`: as copied) but the `changed` ones has
/// the bytes it had.
pub(super) fn verify_untouched(
    checks: &mut Checks,
    root: &Path,
    before: &BTreeMap<PathBuf, Vec<u8>>,
    changed: &[PathBuf],
) -> Result<(), CliError> {
    let mut untouched = 0;
    let mut touched = Vec::new();
    let now = super::snapshot(root)?;
    for (path, bytes) in before {
        if changed.contains(&root.join(path)) {
            continue;
        }
        if now.get(path) == Some(bytes) {
            untouched += 1;
        } else {
            touched.push(path.display().to_string());
        }
    }
    checks.check(
        format!(
            "the other {} byte for byte as before{}",
            agreeing(untouched + touched.len(), "file", "is", "are"),
            listed("changed", &touched, ", ")
        ),
        touched.is_empty(),
    );
    Ok(())
}
