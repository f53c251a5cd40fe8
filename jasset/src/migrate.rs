//! `jasset migrate PATH...`: brings files to the current versions (docs/design.md,
//! section 4.4).
//!
//! Every file is loaded (a file at an older `ClassVersion` runs its class's migration,
//! which consumes the deprecated keys; unknown keys are kept) and its canonical text is
//! compared with the file by meaning: each key's value is read by its type, so
//! re-spellings (`1` for `true`, `128.000000` for `128.0`, snake_case keys, comments)
//! are not changes; a key or `Kind` written as an alias is, and gets its current name.
//! Files that change are edited in place (the version lines, the migrated keys and the
//! aliases; `Session::migrated_file`) and reported key by key; the others are left
//! alone (`jasset fmt` rewrites those).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use juliet_core::{
    key_crc_runtime, keys_equal, Archive, Class, PropertyType, Value, CLASS_VERSION,
};
use serde_json::Value as Json;

use super::output::escape_path;
use super::output::{count, note_unknown_kind, Paint, Style};
use super::project::{pause_after_load, Session};
use super::tree::TreeArgs;
use super::values::{properties, properties_where, to_json, Properties};
use super::{CliResult, Status};
use juliet_entities::fsio::{ReplaceOutcome, SkipReason, Skipped};
use juliet_entities::load::{keys, ENTITY_ASSET_TYPE, ENTITY_BASE_VERSION};
use juliet_entities::manager::EntityManager;

/// Arguments of `jasset migrate`.
#[derive(Debug, Clone, Args)]
pub(crate) struct MigrateArgs {
    /// The files and folders to migrate, and the project root.
    #[command(flatten)]
    pub tree: TreeArgs,
    /// Report what would change, write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// One change of one key.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Change {
    /// The value changed (old, new), e.g. `ClassVersion` 1 -> 2.
    Changed(String, Json, Json),
    /// The key is gone; `true` when it was a deprecated key consumed by a migration.
    Removed(String, Json, bool),
    /// The key is new.
    Added(String, Json),
    /// The key is written under an alias (old), which becomes its current key (new).
    Renamed(String, String),
}

/// Runs `jasset migrate`.
///
/// # Errors
/// A usage error when a PATH does not exist or `--root` is not a folder; write errors.
pub(crate) fn run(args: &MigrateArgs, out: &mut dyn Write) -> CliResult {
    let (collected, mut session) = args.tree.load(!args.dry_run)?;
    let path_errors = collected.errors;
    let style = Style::for_stdout();
    for w in &collected.warnings {
        writeln!(out, "{w}")?;
    }
    let mut tally = Tally {
        failed: path_errors.len() + session.errors.len(),
        ..Tally::default()
    };
    for e in path_errors.iter().chain(&session.errors) {
        writeln!(out, "{e} (not migrated)")?;
    }
    note_unknown_kind(&session.errors, session.root.as_deref());
    if !args.dry_run {
        pause_after_load();
    }
    for i in 0..session.files.len() {
        if let Some(result) = migrate_file(&mut session, i, args.dry_run) {
            let path = session.files[i].path.clone();
            tally.report(path, result, style, out)?;
        }
    }
    let newer = match tally.newer {
        0 => String::new(),
        n => format!(", {n} of a newer build left as written"),
    };
    eprintln!(
        "{} {}, {} already current, {} not migrated{newer}",
        count(tally.migrated, "file"),
        if args.dry_run {
            "would be migrated"
        } else {
            "migrated"
        },
        tally.current,
        tally.failed
    );
    Ok(Status::from_problems(tally.failed > 0))
}

/// What migrating one file did: its changes (none for a current file), the reason the
/// write path left it alone, or the error that stopped it.
type FileResult = Result<Result<Vec<Change>, SkipReason>, juliet_core::Error>;

/// Migrates file `i` of `session` (a dry run writes nothing); `None` for a file that did
/// not load.
fn migrate_file(session: &mut Session, i: usize, dry_run: bool) -> Option<FileResult> {
    let (class, is_instance) = session.entity(i).and_then(|v| {
        let e = v.manager.entity(v.id)?;
        Some((e.class(), e.template().is_some()))
    })?;
    // Standalone entities and templates leave defaults out: they are not changes.
    let defaults = (!is_instance).then(|| defaults_of(class));
    let text = session.canonical_text(i)?;
    // A world file without `EntityID` gets none: versions and migrated keys change,
    // nothing else.
    let text = match session.entity(i).map(|v| v.id) {
        Some(id) if !session.files[i].has_id => {
            text.map(|t| juliet_entities::load::without_entity_id(&t, id))
        }
        _ => text,
    };
    let path = session.files[i].path.clone();
    Some(text.and_then(|new| {
        if session.is_newer(i) {
            return Ok(Err(SkipReason::NewerVersion));
        }
        // The bytes the file was loaded from (the world's copy, not a second read).
        let changes = match session.file_bytes(i) {
            Some(old) => changes(class, defaults.as_ref(), &old?, new.as_bytes(), &path)?,
            None => Vec::new(),
        };
        if !changes.is_empty() && !dry_run {
            // Edited in place: versions and migrated keys change, nothing else.
            if let Some(bytes) = session.migrated_file(i, new).transpose()? {
                if let ReplaceOutcome::Skipped(reason) = session.replace_file(i, &bytes)? {
                    return Ok(Err(reason));
                }
            }
        }
        Ok(Ok(changes))
    }))
}

/// How many files a run migrated, found current, left as a newer build's, or failed on.
#[derive(Debug, Default)]
struct Tally {
    migrated: usize,
    current: usize,
    newer: usize,
    failed: usize,
}

impl Tally {
    /// Prints what migrating the file at `path` did, and counts it.
    fn report(
        &mut self,
        path: PathBuf,
        result: FileResult,
        style: Style,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        match result {
            // A newer build's file is left alone by design, not a failure.
            Ok(Err(SkipReason::NewerVersion)) => {
                self.newer += 1;
                let reason = SkipReason::NewerVersion;
                writeln!(out, "{} (left as it is)", Skipped { path, reason })?;
            }
            Ok(Err(reason)) => {
                self.failed += 1;
                writeln!(out, "{} (not migrated)", Skipped { path, reason })?;
            }
            Ok(Ok(changes)) if changes.is_empty() => self.current += 1,
            Ok(Ok(changes)) => {
                self.migrated += 1;
                writeln!(out, "{}", style.paint(Paint::Bold, &escape_path(&path)))?;
                for change in &changes {
                    writeln!(out, "  {}", describe(change, style))?;
                }
            }
            Err(e) => {
                self.failed += 1;
                writeln!(out, "{e} (not migrated)")?;
            }
        }
        Ok(())
    }
}

/// One line for `change`.
pub(crate) fn describe(change: &Change, style: Style) -> String {
    match change {
        Change::Changed(key, old, new) => format!("{key}: {} -> {}", show(old), show(new)),
        Change::Removed(key, old, deprecated) => style.paint(
            Paint::Red,
            &format!(
                "- {key}: {}{}",
                show(old),
                if *deprecated {
                    " (deprecated key, consumed by the migration)"
                } else {
                    ""
                }
            ),
        ),
        Change::Added(key, new) => style.paint(Paint::Green, &format!("+ {key}: {}", show(new))),
        Change::Renamed(old, new) => format!("{old} -> {new} (an alias, renamed)"),
    }
}

fn show(value: &Json) -> String {
    match value {
        Json::String(s) => juliet_core::escape_controls(s).into_owned(),
        Json::Array(items) => items.iter().map(show).collect::<Vec<_>>().join(" "),
        other => other.to_string(),
    }
}

/// The changes, by meaning, from the entity file text `old` to `new` (both of class
/// `class`), in key order of `new`, then the removed keys, then the keys `old` writes
/// under an alias.
///
/// # Errors
/// A tokenizer error in either text.
pub(crate) fn changes(
    class: &Class,
    defaults: Option<&Meaning>,
    old: &[u8],
    new: &[u8],
    path: &std::path::Path,
) -> Result<Vec<Change>, juliet_core::Error> {
    let (old_props, new_props) = read_both(class, old, new, path)?;
    // A key written under an alias of a property is written under the property's key.
    let renamed: Vec<Change> = (old_props.iter())
        .filter_map(|(key, crc, _)| {
            let property = &class.properties()[class.property_index(*crc, key)?];
            (!keys_equal(key, property.key))
                .then(|| Change::Renamed(key.clone(), property.key.to_owned()))
        })
        .collect();
    let mut out = compare(
        meaning(class, &old_props),
        meaning(class, &new_props),
        defaults,
    );
    // A class name is shown as written (`Monster -> Monster2`), not as compared.
    let kind_of = |props: &Properties| {
        let is_kind = |k: &str, crc: u32| {
            keys::KIND.matches(crc, k) || keys::KIND_ALIASES.iter().any(|a| a.matches(crc, k))
        };
        (props.iter().find(|(k, crc, _)| is_kind(k, *crc)))
            .map(|(_, _, l)| Json::String(l.join("\n")))
    };
    for change in &mut out {
        if let Change::Changed(key, before, after) = change {
            if key == keys::KIND.name {
                *before = kind_of(&old_props).unwrap_or(before.take());
                *after = kind_of(&new_props).unwrap_or(after.take());
            }
        }
    }
    out.extend(renamed);
    Ok(out)
}

/// The properties of the texts `old` and `new` that a class or loader reads; every
/// property of both when one of them holds a key no declaration names that the other
/// does not (read by a hand-written migration, or added).
fn read_both(
    class: &Class,
    old: &[u8],
    new: &[u8],
    path: &std::path::Path,
) -> Result<(Properties, Properties), juliet_core::Error> {
    // A key no class or loader reads is written back as it was read: it means the
    // same on both sides, and is not copied (a file may hold a million).
    let read_key = |key: &str, crc: u32| {
        keys::BASE
            .iter()
            .chain([&CLASS_VERSION])
            .chain(keys::BASE_VERSION_ALIASES)
            .chain(keys::ENTITY_ID_ALIASES)
            .chain(keys::KIND_ALIASES)
            .any(|k| k.matches(crc, key))
            || class.property_index(crc, key).is_some()
            || class.is_deprecated(crc, key)
    };
    let left_out = std::cell::Cell::new([0usize; 2]);
    let kept = |side: usize| {
        let left_out = &left_out;
        move |key: &str, crc: u32| {
            let keep = read_key(key, crc);
            if !keep {
                let mut n = left_out.get();
                n[side] += 1;
                left_out.set(n);
            }
            keep
        }
    };
    let old_props = properties_where(old, path, kept(0))?;
    let new_props = properties_where(new, path, kept(1))?;
    let [old_left, new_left] = left_out.get();
    if old_left != new_left {
        return Ok((properties(old, path)?, properties(new, path)?));
    }
    Ok((old_props, new_props))
}

/// The changes from `old` to `new` by meaning: the changed and added keys in key order,
/// then the removed ones. A key left out means its default (`defaults`): filled in on
/// both sides, but a key the old file left out and the new one sets to another value is
/// reported as added.
fn compare(mut old: Meaning, mut new: Meaning, defaults: Option<&Meaning>) -> Vec<Change> {
    let mut implicit = Vec::new();
    for (key, value) in defaults.into_iter().flatten() {
        if !old.contains_key(key) {
            implicit.push(key.clone());
            old.insert(key.clone(), value.clone());
        }
        new.entry(key.clone()).or_insert_with(|| value.clone());
    }
    let mut out = Vec::new();
    for (key, (value, _)) in &new {
        match old.get(key) {
            Some((before, _)) if before == value => {}
            Some(_) if implicit.contains(key) => {
                out.push(Change::Added(key.clone(), value.clone()))
            }
            Some((before, _)) => {
                out.push(Change::Changed(key.clone(), before.clone(), value.clone()))
            }
            None => out.push(Change::Added(key.clone(), value.clone())),
        }
    }
    for (key, (value, deprecated)) in &old {
        if !new.contains_key(key) {
            out.push(Change::Removed(key.clone(), value.clone(), *deprecated));
        }
    }
    out
}

/// Keys by canonical name, with their values read by type and whether they are
/// deprecated keys.
pub(crate) type Meaning = BTreeMap<String, (Json, bool)>;

/// The declared default of every property of `class`, read like a file's values.
pub(crate) fn defaults_of(class: &'static Class) -> Meaning {
    let mut manager = EntityManager::new();
    let id = manager.allocate_entity(class);
    let mut text = String::new();
    let _ = manager.save_derived(id, &mut Archive::saving(&mut text));
    let props = properties(text.as_bytes(), std::path::Path::new("")).unwrap_or_default();
    let mut map = meaning(class, &props);
    map.retain(|key, _| class.property(key).is_some());
    map
}

/// Each key of an entity file by its canonical name, with its value read by type and
/// whether it is deprecated; header keys that are absent take the value they mean
/// (`BaseVersion` and `ClassVersion` the current versions, `Kind` the class, `Position`
/// the origin, `AssetType` `Entity`).
fn meaning(class: &Class, props: &Properties) -> Meaning {
    static U32: PropertyType = PropertyType::U32;
    static U64: PropertyType = PropertyType::U64;
    static VEC3: PropertyType = PropertyType::Floats(3);
    static TEXT: PropertyType = PropertyType::String;
    let base: [(&juliet_core::Key, &[juliet_core::Key], &PropertyType); 7] = [
        (&keys::ASSET_TYPE, &[], &TEXT),
        (&keys::BASE_VERSION, keys::BASE_VERSION_ALIASES, &U32),
        (&keys::ENTITY_ID, keys::ENTITY_ID_ALIASES, &U64),
        (&keys::KIND, keys::KIND_ALIASES, &TEXT),
        (&keys::TEMPLATE, &[], &TEXT),
        (&keys::POSITION, &[], &VEC3),
        (&CLASS_VERSION, &[], &U32),
    ];
    let mut map = BTreeMap::new();
    for (key, crc, lines) in props {
        let raw = || Json::String(lines.join("\n"));
        let text = lines.join("\n");
        let read =
            |ty: &PropertyType| to_json(ty, Value::from_text(&text)).unwrap_or_else(|_| raw());
        let entry = if let Some((k, _, ty)) = base.iter().find(|(k, aliases, _)| {
            k.matches(*crc, key) || aliases.iter().any(|a| a.matches(*crc, key))
        }) {
            let mut value = read(ty);
            if k.crc == keys::KIND.crc || k.crc == keys::ASSET_TYPE.crc {
                // Names compare ignoring case and `_` (`entity_instance` is `Entity`).
                if let Json::String(s) = &value {
                    let is_entity = k.crc == keys::ASSET_TYPE.crc
                        && key_crc_runtime(s.as_bytes()) == key_crc_runtime(b"entity_instance");
                    let name = if is_entity {
                        ENTITY_ASSET_TYPE
                    } else {
                        s.as_str()
                    };
                    value = Json::String(juliet_core::normalize_key(name).to_string());
                }
            }
            (k.name.to_owned(), (value, false))
        } else if let Some(p) = class
            .property_index(*crc, key)
            .map(|i| &class.properties()[i])
        {
            (p.key.to_owned(), (read(&p.property_type), false))
        } else {
            (key.clone(), (raw(), class.is_deprecated(*crc, key)))
        };
        map.insert(entry.0, entry.1);
    }
    let defaults = [
        (
            keys::ASSET_TYPE.name,
            Json::String(juliet_core::normalize_key(ENTITY_ASSET_TYPE).to_string()),
        ),
        (keys::BASE_VERSION.name, Json::from(ENTITY_BASE_VERSION)),
        (
            keys::KIND.name,
            Json::String(juliet_core::normalize_key(class.name()).to_string()),
        ),
        (keys::POSITION.name, serde_json::json!([0.0, 0.0, 0.0])),
        (CLASS_VERSION.name, Json::from(class.version())),
    ];
    for (key, value) in defaults {
        map.entry(key.to_owned()).or_insert((value, false));
    }
    map
}
