//! `jasset demo`: the whole pipeline on the bundled sample project (`demo/`).
//!
//! 1. copy the project to a temporary folder (the original is never written);
//! 2. load its templates and its world, and print a summary (entities per kind,
//!    templates with their instances, overrides);
//! 3. edit: move an entity, change a template (`RockLarge`'s `Mass`) and reload it so
//!    that every instance that does not override `Mass` takes the new value, and mark
//!    the version-1 projectile for saving at the current version;
//! 4. save (dirty entities only) and show each written file with its diff;
//! 5. load the saved world again and verify it: every file loads, every entity reads
//!    back as it was in memory, the edits are on disk, and no other file changed.
//!
//! Exit code 1 when a verification fails.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use glam::Vec3;
use juliet_core::{Reflect, TokenBuffer};

mod verify;

use super::line_diff::render;
use super::output::{count, Paint, Style};
use super::project::{
    copy_dir, load_template, load_world_dir, overridden_keys, project_relative, reload_template,
    EntityView, TEMPLATES_DIR, WORLDS_DIR,
};
use super::values::{self, template_chain};
use super::{CliError, CliResult, Status};
use juliet_entities::entity::EntityId;
use juliet_entities::kinds::{Inert, Projectile};
use juliet_entities::world::{LoadReport, World, ENTITIES_DIR};
use verify::{
    reload_position, verify, verify_migrated, verify_template_change, verify_untouched, Checks,
};

/// The bundled sample project, found through the source tree at compile time.
pub(crate) const DEFAULT_DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../demo");

/// The template the demo changes, and the property and value it sets.
pub(crate) const EDITED_TEMPLATE: &str = "Assets/Templates/RockLarge.jasset";
/// The property of [`EDITED_TEMPLATE`] the demo changes.
pub(crate) const EDITED_KEY: &str = "Mass";
/// The new value of [`EDITED_KEY`].
pub(crate) const EDITED_VALUE: f32 = 300.0;
/// The file of the entity the demo moves (the first entity when it is missing).
pub(crate) const MOVED_FILE: &str = "PlayerSpawn.jasset";
/// How far the demo moves it.
pub(crate) const MOVE_BY: Vec3 = Vec3::new(0.0, 0.0, 1.5);

/// Arguments of `jasset demo`.
#[derive(Debug, Clone, Args)]
pub(crate) struct DemoArgs {
    /// The sample project (a folder holding `Assets/`). Default: the `demo/` folder of
    /// the source tree this binary was built from.
    #[arg(long, value_name = "DIR")]
    pub path: Option<PathBuf>,
    /// Copy the project into DIR (which must not exist) and keep it, instead of a
    /// temporary folder removed at the end.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Lines of context around each change in the diffs.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub context: usize,
}

/// Runs `jasset demo`.
///
/// # Errors
/// When the sample project cannot be found or copied, or the world cannot be loaded or
/// saved at all; failed verifications are [`Status::Problems`].
pub(crate) fn run(args: &DemoArgs, out: &mut dyn Write) -> CliResult {
    let style = Style::for_stdout();
    let source = sample_project(args)?;
    let copy = copy_project(args, &source, out, style)?;
    let root = &copy.root;

    heading(out, style, 2, "load")?;
    let templates = load_templates(out, root)?;
    let world_dir = pick_world(root)?;
    let (mut world, report) = load_and_report(out, style, root, &world_dir)?;
    summarize(out, style, &world, root, &templates)?;

    heading(out, style, 3, "edit")?;
    let moved = move_entity(out, &mut world)?;
    let expectations = change_template(out, &mut world, root)?;
    let migrated = mark_old_projectiles(out, &mut world)?;

    heading(out, style, 4, "save")?;
    let template_written = expectations.is_some();
    let changed = save_and_show(
        out,
        style,
        args.context,
        &mut world,
        &copy,
        template_written,
    )?;

    heading(out, style, 5, "verify")?;
    let mut checks = Checks::default();
    verify(&mut checks, &world, &world_dir, root, &report)?;
    if let Some((id, position)) = moved {
        checks.check(
            format!("{id} is at its new position {}", vec3(position)),
            reload_position(&world_dir, root, id)? == Some(position),
        );
    }
    verify_template_change(&mut checks, &world_dir, root, expectations.as_deref())?;
    verify_migrated(&mut checks, root, &migrated)?;
    verify_untouched(&mut checks, root, &copy.before, &changed)?;
    let failed = checks.print(out, style)?;
    if let Some(dir) = &args.out {
        writeln!(out, "the edited copy is kept in {}", dir.display())?;
    }
    Ok(Status::from_problems(failed > 0))
}

/// The sample project's folder: `--path`, else [`DEFAULT_DEMO`].
///
/// # Errors
/// A failure when the folder holds no `Assets/`.
fn sample_project(args: &DemoArgs) -> Result<PathBuf, CliError> {
    let source = args
        .path
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DEMO));
    // Shown as the folder it is (`DEFAULT_DEMO` climbs out of the crate with `..`).
    let source = fs::canonicalize(&source).unwrap_or(source);
    if !source.join("Assets").is_dir() {
        return Err(CliError::failure(format!(
            "{}: no sample project here (no Assets/ folder); pass its folder with --path",
            source.display()
        )));
    }
    Ok(source)
}

/// The copy the demo works on: its folder, the temporary folder holding it (removed
/// when dropped) unless `--out` named one, and every file's bytes as copied.
struct Copy {
    _temp: Option<tempfile::TempDir>,
    root: PathBuf,
    before: BTreeMap<PathBuf, Vec<u8>>,
}

/// Step 1: copies `source` to `--out` (which must not exist) or a temporary folder.
///
/// # Errors
/// A usage error for an `--out` that exists; I/O errors.
fn copy_project(
    args: &DemoArgs,
    source: &Path,
    out: &mut dyn Write,
    style: Style,
) -> Result<Copy, CliError> {
    let (temp, root) = match &args.out {
        Some(dir) if dir.exists() => {
            return Err(CliError::usage(format!(
                "--out {}: already exists",
                dir.display()
            )))
        }
        Some(dir) => (None, dir.clone()),
        None => {
            let temp = tempfile::tempdir()?;
            let root = temp.path().join("demo");
            (Some(temp), root)
        }
    };
    copy_dir(source, &root)?;
    let before = snapshot(&root)?;
    heading(out, style, 1, "copy")?;
    writeln!(
        out,
        "copied {} ({}) to {}",
        source.display(),
        count(before.len(), "file"),
        root.display()
    )?;
    Ok(Copy {
        _temp: temp,
        root,
        before,
    })
}

/// Step 2's world: loads the world at `world_dir` and prints what loaded, with each
/// error and warning.
///
/// # Errors
/// A failure when the world cannot be loaded at all.
fn load_and_report(
    out: &mut dyn Write,
    style: Style,
    root: &Path,
    world_dir: &Path,
) -> Result<(World, LoadReport), CliError> {
    let (world, report) =
        load_world_dir(Some(root), world_dir).map_err(|e| CliError::failure(e.to_string()))?;
    writeln!(
        out,
        "world {}: {} loaded of {}",
        rel(world_dir, root),
        report.loaded,
        count(report.files, "file")
    )?;
    for e in &report.errors {
        writeln!(out, "  {}", style.paint(Paint::Red, &e.to_string()))?;
    }
    for w in &report.warnings {
        writeln!(out, "  {}", style.paint(Paint::Yellow, &w.to_string()))?;
    }
    Ok((world, report))
}

/// Step 4: saves the world and prints the diff of each file that changed on disk (the
/// save's, then the template step 3 wrote when `template_written`); returns those files.
///
/// # Errors
/// Save and I/O errors.
fn save_and_show(
    out: &mut dyn Write,
    style: Style,
    context: usize,
    world: &mut World,
    copy: &Copy,
    template_written: bool,
) -> Result<Vec<PathBuf>, CliError> {
    let saved = world.save_world()?;
    writeln!(
        out,
        "saved: {} written, {} deleted (only entities whose file changes are written; a \
         file loaded from disk is edited in place: the lines of changed values change, its \
         comments, blank lines and key spellings stay)",
        count(saved.written.len(), "file"),
        saved.deleted.len()
    )?;
    let mut changed: Vec<PathBuf> = saved.written.clone();
    if template_written {
        changed.push(copy.root.join(EDITED_TEMPLATE));
        writeln!(
            out,
            "the files that changed on disk: the {} the save wrote, then the template step 3 wrote",
            count(saved.written.len(), "file")
        )?;
    }
    for path in &changed {
        let key = rel_path(path, &copy.root);
        let old = copy
            .before
            .get(&key)
            .map(|b| String::from_utf8_lossy(b).into_owned());
        let new = fs::read_to_string(path)?;
        writeln!(
            out,
            "{}",
            style.paint(Paint::Bold, &format!("--- {}", key.display()))
        )?;
        match old {
            Some(old) if old == new => writeln!(out, "  (same bytes)")?,
            Some(old) => out.write_all(render(&old, &new, context, style).as_bytes())?,
            None => writeln!(out, "  (new file)")?,
        }
    }
    Ok(changed)
}

fn heading(out: &mut dyn Write, style: Style, n: usize, what: &str) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "{}",
        style.paint(Paint::Cyan, &format!("== {n}. {what}"))
    )
}

/// `path` relative to `root`, for printing.
fn rel(path: &Path, root: &Path) -> String {
    rel_path(path, root).display().to_string()
}

fn rel_path(path: &Path, root: &Path) -> PathBuf {
    path.strip_prefix(root).unwrap_or(path).to_path_buf()
}

/// Every file under `root`, relative path -> bytes.
fn snapshot(root: &Path) -> std::io::Result<BTreeMap<PathBuf, Vec<u8>>> {
    fn walk(dir: &Path, root: &Path, map: &mut BTreeMap<PathBuf, Vec<u8>>) -> std::io::Result<()> {
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                walk(&path, root, map)?;
            } else {
                map.insert(rel_path(&path, root), fs::read(&path)?);
            }
        }
        Ok(())
    }
    let mut map = BTreeMap::new();
    walk(root, root, &mut map)?;
    Ok(map)
}

/// A template as the summary shows it.
#[derive(Debug, Clone)]
struct TemplateInfo {
    /// Project-relative path.
    rel: String,
    /// Its kind (its own `Kind`, else its parent's).
    kind: String,
    /// Its own template, if any.
    parent: Option<String>,
}

/// Loads every template of the project, printing problems.
fn load_templates(out: &mut dyn Write, root: &Path) -> Result<Vec<TemplateInfo>, CliError> {
    let dir = root.join(TEMPLATES_DIR);
    let mut names: Vec<PathBuf> = match fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| super::listing::is_jasset(p))
            .collect(),
        Err(_) => Vec::new(),
    };
    names.sort();
    let mut infos = Vec::new();
    let mut problems = 0;
    for path in names {
        let rel = project_relative(&path, root).unwrap_or_default();
        if let Err(e) = load_template(root, &rel) {
            problems += 1;
            writeln!(out, "  {e}")?;
        }
        let props = values::properties(&fs::read(&path)?, &path)?;
        let header = values::header(&props);
        let mut kind = header.kind.clone();
        if kind.is_none() {
            if let Some(parent) = &header.template {
                kind = template_chain(root, &path, parent).ok().and_then(|chain| {
                    chain
                        .iter()
                        .find_map(|l| values::header(&l.properties).kind)
                });
            }
        }
        infos.push(TemplateInfo {
            rel,
            kind: kind.unwrap_or_else(|| "?".into()),
            parent: header.template,
        });
    }
    writeln!(
        out,
        "templates {}: {} loaded of {}",
        TEMPLATES_DIR,
        infos.len() - problems,
        infos.len()
    )?;
    Ok(infos)
}

/// `Assets/Worlds/Level01` when it exists, else the first world of the project.
fn pick_world(root: &Path) -> Result<PathBuf, CliError> {
    let worlds = root.join(WORLDS_DIR);
    let preferred = worlds.join("Level01");
    if preferred.join(ENTITIES_DIR).is_dir() {
        return Ok(preferred);
    }
    let mut all: Vec<PathBuf> = fs::read_dir(&worlds)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join(ENTITIES_DIR).is_dir())
        .collect();
    all.sort();
    all.into_iter()
        .next()
        .ok_or_else(|| CliError::failure(format!("no world in {}", worlds.display())))
}

/// The view of entity `id` of `world`.
fn view_of(world: &World, id: EntityId) -> Option<EntityView<'_>> {
    Some(EntityView {
        manager: world.manager(),
        templates: Some(world.templates()),
        id,
        data: world.file_data(id)?,
        path: world.file_of(id)?,
        is_template: false,
    })
}

fn summarize(
    out: &mut dyn Write,
    style: Style,
    world: &World,
    root: &Path,
    templates: &[TemplateInfo],
) -> std::io::Result<()> {
    writeln!(out, "{}", style.paint(Paint::Bold, "entities per kind"))?;
    let mut kinds: Vec<(&str, usize)> = world
        .manager()
        .kinds()
        .iter()
        .filter(|k| !k.is_empty())
        .map(|k| (k.class().name(), k.len()))
        .collect();
    kinds.sort();
    for (name, n) in &kinds {
        writeln!(out, "  {name:<12} {n:>4}")?;
    }
    writeln!(out, "  {:<12} {:>4}", "total", world.manager().len())?;

    let mut instances: HashMap<String, usize> = HashMap::new();
    let mut with_overrides = 0;
    let mut overridden = 0;
    let mut standalone = 0;
    for e in world.manager().entities() {
        let Some(view) = view_of(world, e.id()) else {
            continue;
        };
        match &view.data.template {
            Some(t) => {
                *instances.entry(t.replace('\\', "/")).or_default() += 1;
                let keys = overridden_keys(&view);
                if !keys.is_empty() {
                    with_overrides += 1;
                    overridden += keys.len();
                }
            }
            None => standalone += 1,
        }
    }
    writeln!(out, "{}", style.paint(Paint::Bold, "templates"))?;
    for t in templates {
        let parent = t
            .parent
            .as_deref()
            .map(|p| format!(" (variant of {})", short(p)))
            .unwrap_or_default();
        writeln!(
            out,
            "  {:<16} {:<12} {:>13}{parent}",
            short(&t.rel),
            t.kind,
            count(instances.get(&t.rel).copied().unwrap_or(0), "instance")
        )?;
    }
    writeln!(out, "{}", style.paint(Paint::Bold, "overrides"))?;
    let total_instances: usize = instances.values().sum();
    writeln!(
        out,
        "  {with_overrides} of {} {} {} in all; {}",
        count(total_instances, "instance"),
        if with_overrides == 1 {
            "overrides"
        } else {
            "override"
        },
        count(overridden, "property"),
        count(standalone, "standalone entity")
    )?;
    let _ = root;
    Ok(())
}

/// `n` `noun`s and the verb that agrees (`1 instance inherits`, `2 instances inherit`).
fn agreeing(n: usize, noun: &str, one: &str, many: &str) -> String {
    format!("{} {}", count(n, noun), if n == 1 { one } else { many })
}

/// A position as files write it (`2.0 0.0 1.5`).
fn vec3(v: Vec3) -> String {
    let mut text = String::new();
    juliet_core::Codec::encode(&v, &mut text);
    text
}

/// `Assets/Templates/RockLarge.jasset` -> `RockLarge`.
fn short(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".jasset").unwrap_or(name)
}

/// Moves the [`MOVED_FILE`] entity (or the first entity) by [`MOVE_BY`].
fn move_entity(
    out: &mut dyn Write,
    world: &mut World,
) -> Result<Option<(EntityId, Vec3)>, CliError> {
    let ids: Vec<EntityId> = world.manager().entities().iter().map(|e| e.id()).collect();
    let Some(id) = ids
        .iter()
        .copied()
        .find(|&id| {
            world
                .file_of(id)
                .and_then(Path::file_name)
                .is_some_and(|n| n == MOVED_FILE)
        })
        .or_else(|| ids.first().copied())
    else {
        writeln!(out, "move: the world is empty, nothing to move")?;
        return Ok(None);
    };
    let name = world
        .file_of(id)
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let entity = world.manager_mut().entity_mut(id).expect("live");
    let from = entity.position();
    let to = from + MOVE_BY;
    entity.set_position(to);
    writeln!(
        out,
        "moved {name} ({id}) from {} to {}",
        vec3(from),
        vec3(to)
    )?;
    Ok(Some((id, to)))
}

/// What the template edit should give each Inert instance: `(id, file, Mass)`.
type Expectations = Vec<(EntityId, PathBuf, f32)>;

/// Sets [`EDITED_KEY`] of [`EDITED_TEMPLATE`] to [`EDITED_VALUE`] on disk and reloads
/// the template. Returns what each instance's `Mass` should then be (`None` when the
/// project has no such template).
fn change_template(
    out: &mut dyn Write,
    world: &mut World,
    root: &Path,
) -> Result<Option<Expectations>, CliError> {
    let path = root.join(EDITED_TEMPLATE);
    let Ok(text) = fs::read_to_string(&path) else {
        writeln!(
            out,
            "template: {EDITED_TEMPLATE} is not in this project; skipped"
        )?;
        return Ok(None);
    };
    let mut value = String::new();
    juliet_core::Codec::encode(&EDITED_VALUE, &mut value);
    let Some(edited) = set_in_text(&text, EDITED_KEY, &value) else {
        writeln!(
            out,
            "template: {EDITED_TEMPLATE} has no `{EDITED_KEY}`; skipped"
        )?;
        return Ok(None);
    };
    // Through the writers' one scheme (a temporary file beside it, mode kept, a file
    // changed since it was read left alone).
    let loaded = juliet_entities::fsio::Fingerprint::of(text.as_bytes());
    match juliet_entities::fsio::replace_if_unchanged(&path, Some(loaded), edited.as_bytes())? {
        juliet_entities::fsio::ReplaceOutcome::Skipped(reason) => {
            writeln!(out, "template: {EDITED_TEMPLATE}: {reason}; skipped")?;
            return Ok(None);
        }
        juliet_entities::fsio::ReplaceOutcome::Written
        | juliet_entities::fsio::ReplaceOutcome::Same => {}
    }
    writeln!(out, "set {EDITED_KEY} = {value} in {EDITED_TEMPLATE}")?;

    // Which instances should take the new value: those whose nearest template that sets
    // the key is the edited one, and that do not override it themselves.
    let mut expect = Vec::new();
    let ids: Vec<EntityId> = world.manager().entities().iter().map(|e| e.id()).collect();
    for id in ids {
        let Some(view) = view_of(world, id) else {
            continue;
        };
        let (Some(t), Some(inert)) = (&view.data.template, world.manager().get::<Inert>(id)) else {
            continue;
        };
        let Ok(chain) = template_chain(root, view.path, t) else {
            continue;
        };
        let setter = chain
            .iter()
            .find(|l| values::find(&l.properties, EDITED_KEY, &[]).is_some());
        let from_edited = setter.is_some_and(|l| l.template.replace('\\', "/") == EDITED_TEMPLATE);
        let overrides = overridden_keys(&view).contains(&EDITED_KEY);
        let mass = if from_edited && !overrides {
            EDITED_VALUE
        } else {
            inert.mass
        };
        expect.push((id, view.path.to_path_buf(), mass));
    }
    let n = reload_template(world, EDITED_TEMPLATE)?;
    writeln!(
        out,
        "reloaded {EDITED_TEMPLATE}: {} took the new {EDITED_KEY} (the others override it or inherit it from a nearer template)",
        count(n, "instance")
    )?;
    Ok(Some(expect))
}

/// Sets the value of `key` in the `.jasset` `text` to `value`, keeping everything else
/// (comments, the line's form). `None` when the key is absent.
pub(crate) fn set_in_text(text: &str, key: &str, value: &str) -> Option<String> {
    let mut buffer = TokenBuffer::new();
    let doc = buffer.tokenize(text.as_bytes(), Path::new("")).ok()?;
    let index = doc.peek_name(key)?;
    let node = *doc.node(index);
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let at = node.line as usize - 1;
    match node.form {
        juliet_core::LineForm::Block => {
            // The first value line after the header (comments and blanks skipped).
            let target = (at + 1..lines.len()).find(|&i| {
                let t = lines[i].trim();
                !(t.is_empty() || t.starts_with('#') || t.starts_with("//"))
            })?;
            let indent: String = lines[target]
                .chars()
                .take_while(|c| c.is_whitespace())
                .collect();
            lines[target] = format!("{indent}{value}");
        }
        _ => {
            let line = &lines[at];
            let colon = line.find(':')?;
            lines[at] = format!("{} {value}", &line[..=colon]);
        }
    }
    let mut out = lines.join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    Some(out)
}

/// Marks every projectile whose file is at an older class version dirty, so the save
/// writes it at the current version. Returns them with their files.
fn mark_old_projectiles(
    out: &mut dyn Write,
    world: &mut World,
) -> Result<Vec<(EntityId, PathBuf)>, CliError> {
    let mut found = Vec::new();
    let ids: Vec<EntityId> = world.manager().entities().iter().map(|e| e.id()).collect();
    for id in ids {
        if world.manager().get::<Projectile>(id).is_none() {
            continue;
        }
        let Some(path) = world.file_of(id).map(Path::to_path_buf) else {
            continue;
        };
        let props = values::properties(&fs::read(&path)?, &path)?;
        if values::header(&props)
            .class_version
            .is_some_and(|v| v < Projectile::CLASS.version())
        {
            world
                .manager_mut()
                .entity_mut(id)
                .expect("live")
                .mark_dirty();
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            writeln!(
                out,
                "migrate {name} ({id}): class version {} -> {} (its migration already ran at load)",
                values::header(&props).class_version.unwrap_or(0),
                Projectile::CLASS.version()
            )?;
            found.push((id, path));
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_in_text_keeps_form_and_comments() {
        let text = "# c\n; Mass\n# note\n  250.0\n; Health\n1.0\n";
        assert_eq!(
            set_in_text(text, "mass", "300.0").unwrap(),
            "# c\n; Mass\n# note\n  300.0\n; Health\n1.0\n"
        );
        let text = "Position: 0.0, 0.0, 0.0\nMass: 250.0\n";
        assert_eq!(
            set_in_text(text, "Mass", "300.0").unwrap(),
            "Position: 0.0, 0.0, 0.0\nMass: 300.0\n"
        );
        assert_eq!(set_in_text(text, "Health", "1.0"), None);
    }

    #[test]
    fn short_names_templates() {
        assert_eq!(short("Assets/Templates/RockLarge.jasset"), "RockLarge");
    }
}
