//! `jasset inspect FILE [--root DIR] [--json]`: one entity file's resolved properties,
//! with its template chain and override markers (docs/design.md, section 7.8).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use std::collections::HashSet;

use juliet_core::{
    keys_equal, Archive, Class, PropertyDescriptor, Registry, UnknownProperties, Value,
};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{json, Map, Value as Json};

use super::output::{escape_path, note_unknown_kind, Paint, Style};
use super::project::{overridden_keys, require_paths, resolve_root, EntityView, Session};
use super::schema_kinds::registry_for;
use super::values::{self, float32, template_chain, ChainLink};
use super::{CliError, CliResult, Status};
use juliet_entities::load::{keys, ENTITY_BASE_VERSION};

/// Arguments of `jasset inspect`.
#[derive(Debug, Clone, Args)]
pub(crate) struct InspectArgs {
    /// The entity or template file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The project root (`Template` paths resolve against it). Default: the nearest
    /// ancestor of FILE holding an `Assets/` folder.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Print one JSON object: `path`, `kind`, `id` (hex string or null), `template`
    /// (path or null), `base_version`, `class_version`, `position` ([x, y, z]),
    /// `properties` (key -> value), `overridden` (keys), `unknown` (keys), `warnings`
    /// (strings).
    #[arg(long)]
    pub json: bool,
}

/// One resolved property, for display.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    /// The key (canonical spelling).
    pub key: &'static str,
    /// The value lines (canonical text).
    pub lines: Vec<String>,
    /// Whether the instance overrides it.
    pub overridden: bool,
    /// Where a non-overridden value comes from: a template path, or `None` for the
    /// file itself (standalone) or the class default.
    pub source: Source,
}

/// Where a property's value comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    /// The file itself.
    File,
    /// A template of the chain (its `Template` path).
    Template(String),
    /// The class's declared default.
    Default,
    /// The file's migration (the file is at an older version and does not hold it).
    Migration,
}

/// What `inspect` shows of one file.
#[derive(Debug, Clone)]
pub(crate) struct Inspection {
    /// The JSON object of `--json`.
    pub json: Json,
    /// The class.
    pub class: &'static Class,
    /// The properties, in declaration order.
    pub properties: Vec<Resolved>,
    /// The template chain, nearest first.
    pub chain: Vec<String>,
}

/// Runs `jasset inspect`.
///
/// # Errors
/// A usage error when FILE does not exist or is not a regular file, or `--root` is not
/// a folder; write errors.
pub(crate) fn run(args: &InspectArgs, out: &mut dyn Write) -> CliResult {
    let root = resolve_root(args.root.as_deref(), std::slice::from_ref(&args.file))?;
    require_paths(std::slice::from_ref(&args.file))?;
    match std::fs::metadata(&args.file) {
        Ok(meta) if meta.is_file() => {}
        Ok(_) => {
            return Err(CliError::usage(format!(
                "{}: not a regular file",
                escape_path(&args.file)
            )))
        }
        Err(e) => {
            return Err(CliError::failure(format!(
                "{}: {e}",
                escape_path(&args.file)
            )))
        }
    }
    let registry = registry_for(root.as_deref())?;
    let session = Session::load(
        root.clone(),
        registry,
        std::slice::from_ref(&args.file),
        0,
        &mut |_| {},
    );
    let Some(view) = session.entity(0) else {
        for e in &session.errors {
            writeln!(out, "{e}")?;
        }
        note_unknown_kind(&session.errors, session.root.as_deref());
        return Ok(Status::Problems);
    };
    // The file as written (the bytes the world holds, not a second read), with only the
    // keys a class or the header may read kept: a file may hold a million unknown keys.
    let file_props = match session.file_bytes(0) {
        Some(bytes) => {
            bytes.and_then(|b| values::properties_where(&b, &args.file, readable_key(registry)))
        }
        None => Ok(Vec::new()),
    };
    let warnings: Vec<String> = session.warnings.iter().map(|w| w.to_string()).collect();
    let mut chain_error = None;
    let inspection = inspect(
        &view,
        root.as_deref(),
        file_props?,
        warnings,
        &mut chain_error,
    )?;
    if args.json {
        let json = WithUnknown {
            json: &inspection.json,
            unknown: &view.data.unknown,
        };
        serde_json::to_writer_pretty(&mut *out, &json)
            .map_err(|e| CliError::failure(e.to_string()))?;
        writeln!(out)?;
    } else {
        print_text(out, &inspection, &view.data.unknown, Style::for_stdout())?;
        if let Some(err) = &chain_error {
            writeln!(out, "{err}")?;
        }
    }
    Ok(Status::from_problems(chain_error.is_some()))
}

/// Which properties of the inspected file [`inspect`] needs: those whose key a class of
/// `registry` reads (by CRC: [`inspect`] compares the text), and the header keys.
fn readable_key(registry: &Registry) -> impl Fn(&str, u32) -> bool {
    let crcs: HashSet<u32> = registry
        .classes()
        .iter()
        .flat_map(|c| c.properties())
        .flat_map(|p| std::iter::once(p.crc).chain(p.aliases.iter().map(|a| a.crc)))
        .collect();
    move |key, crc| {
        crcs.contains(&crc)
            || [
                keys::BASE_VERSION.name,
                "version",
                juliet_core::CLASS_VERSION.name,
                keys::TEMPLATE.name,
                keys::KIND.name,
                "class",
                "entity_type",
            ]
            .iter()
            .any(|k| keys_equal(key, k))
    }
}

/// The inspection's JSON object with `unknown` (null in it) written from the unknown
/// properties as it is printed: a file may hold a million.
struct WithUnknown<'a> {
    json: &'a Json,
    unknown: &'a UnknownProperties,
}

impl Serialize for WithUnknown<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Json::Object(fields) = self.json else {
            return self.json.serialize(serializer);
        };
        let mut map = serializer.serialize_map(Some(fields.len()))?;
        for (key, value) in fields {
            if key == "unknown" {
                let keys = UnknownKeys(self.unknown);
                map.serialize_entry(key, &keys)?;
            } else {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}

/// The keys of unknown properties, as a JSON array.
struct UnknownKeys<'a>(&'a UnknownProperties);

impl Serialize for UnknownKeys<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|u| u.key()))
    }
}

/// Builds the inspection of `view`, whose file holds `file_props` (at least the
/// properties a class or the header reads). A template chain that cannot be followed
/// is stored in `chain_error` (the properties are still shown). The JSON's `unknown` is
/// null: the keys are written from `view.data.unknown` as the object is printed.
///
/// # Errors
/// When the entity cannot be written (it is not live).
pub(crate) fn inspect(
    view: &EntityView<'_>,
    root: Option<&Path>,
    file_props: values::Properties,
    warnings: Vec<String>,
    chain_error: &mut Option<juliet_core::Error>,
) -> Result<Inspection, CliError> {
    let entity = view
        .manager
        .entity(view.id)
        .ok_or_else(|| CliError::failure("entity not loaded"))?;
    let class = entity.class();
    let header = values::header(&file_props);

    let chain: Vec<ChainLink> = match (&view.data.template, root) {
        (Some(t), Some(root)) => template_chain(root, view.path, t).unwrap_or_else(|e| {
            *chain_error = Some(e);
            Vec::new()
        }),
        _ => Vec::new(),
    };

    // The resolved values: the entity as the runtime holds it, written in full.
    let mut text = String::new();
    view.manager
        .save_derived(view.id, &mut Archive::saving(&mut text))?;
    let resolved_props = values::properties(text.as_bytes(), view.path)?;
    let overridden = overridden_keys(view);
    let sources = Sources {
        own_file: view.data.template.is_none(),
        file_props: &file_props,
        chain: &chain,
        class,
        defaults: super::migrate::defaults_of(class),
    };
    let mut properties = Vec::new();
    let mut json_props = Map::new();
    for p in class.properties() {
        let lines = values::find(&resolved_props, p.key, &[])
            .map(<[String]>::to_vec)
            .unwrap_or_default();
        if lines.iter().all(String::is_empty) {
            // A field of an enum's variant not in use: the entity has no such value.
            continue;
        }
        let joined = lines.join("\n");
        let json = values::to_json(&p.property_type, Value::from_text(&joined))
            .unwrap_or_else(|_| Json::String(joined.clone()));
        let source = sources.of(p, &json);
        json_props.insert(p.key.to_owned(), json);
        properties.push(Resolved {
            key: p.key,
            lines,
            overridden: overridden.contains(&p.key),
            source,
        });
    }

    let position = entity.position();
    let json = json!({
        "path": view.path.display().to_string(),
        "kind": class.name(),
        "id": if view.is_template { Json::Null } else { json!(view.id.to_string()) },
        "template": view.data.template,
        "base_version": header.base_version.unwrap_or(ENTITY_BASE_VERSION),
        "class_version": header.class_version.unwrap_or(class.version()),
        "position": [float32(position.x), float32(position.y), float32(position.z)],
        "properties": Json::Object(json_props),
        "overridden": overridden,
        "unknown": Json::Null,
        "warnings": warnings,
    });
    Ok(Inspection {
        json,
        class,
        properties,
        chain: chain.into_iter().map(|l| l.template).collect(),
    })
}

/// Where the values of an entity's properties come from: its own file, a template of
/// its chain, a migration, or the class's default.
struct Sources<'a> {
    /// Whether the entity is no template instance (its file holds its values).
    own_file: bool,
    /// The properties of the entity's file.
    file_props: &'a values::Properties,
    /// Its templates, nearest first.
    chain: &'a [ChainLink],
    class: &'static Class,
    /// The class's default values.
    defaults: super::migrate::Meaning,
}

impl Sources<'_> {
    /// The source of property `p`, whose resolved value is `json`.
    fn of(&self, p: &PropertyDescriptor, json: &Json) -> Source {
        let in_file = has_key(self.file_props, p);
        if self.own_file && in_file {
            Source::File
        } else if let Some(link) = self.chain.iter().find(|l| self.link_sets(l, p)) {
            Source::Template(link.template.clone())
        } else if in_file {
            Source::File
        } else if (self.defaults.get(p.key)).is_some_and(|(default, _)| default != json) {
            // Held nowhere and not the declared default: what a migration set.
            Source::Migration
        } else {
            Source::Default
        }
    }

    /// Whether a template of the chain sets `p`: it holds its key, or, at an older
    /// class version, a deprecated key its migration sets `p` from.
    fn link_sets(&self, link: &ChainLink, p: &PropertyDescriptor) -> bool {
        let older = values::header(&link.properties)
            .class_version
            .is_some_and(|v| v < self.class.version());
        has_key(&link.properties, p)
            || older
                && (link.properties.iter())
                    .any(|(key, crc, _)| p.migrated_from.iter().any(|k| k.matches(*crc, key)))
    }
}

/// Whether `props` holds a key of `p`.
fn has_key(props: &values::Properties, p: &PropertyDescriptor) -> bool {
    props.iter().any(|(key, crc, _)| p.matches(*crc, key))
}

fn print_text(
    out: &mut dyn Write,
    ins: &Inspection,
    unknown: &UnknownProperties,
    style: Style,
) -> std::io::Result<()> {
    let j = &ins.json;
    let s = |v: &Json| match v {
        Json::String(s) => esc(s),
        Json::Null => "-".to_owned(),
        other => other.to_string(),
    };
    writeln!(out, "{}", style.paint(Paint::Bold, &s(&j["path"])))?;
    let file_version = j["class_version"].as_u64().unwrap_or_default();
    if file_version == u64::from(ins.class.version()) {
        writeln!(
            out,
            "  kind       {} (class version {file_version})",
            ins.class.name()
        )?;
    } else {
        writeln!(
            out,
            "  kind       {} (class version {file_version} in the file, {} in this build)",
            ins.class.name(),
            ins.class.version()
        )?;
    }
    writeln!(out, "  id         {}", s(&j["id"]))?;
    if ins.chain.is_empty() {
        writeln!(out, "  template   {}", s(&j["template"]))?;
    } else {
        writeln!(out, "  template   {}", esc(&ins.chain.join(" -> ")))?;
    }
    let pos: Vec<String> = j["position"]
        .as_array()
        .map(|a| a.iter().map(|v| v.to_string()).collect())
        .unwrap_or_default();
    writeln!(out, "  position   {}", pos.join(" "))?;
    writeln!(
        out,
        "  properties ({} overridden, marked {})",
        ins.properties.iter().filter(|p| p.overridden).count(),
        style.paint(Paint::Yellow, "*")
    )?;
    print_rows(out, ins, style)?;
    if !unknown.is_empty() {
        write!(out, "  unknown keys (kept on save): ")?;
        for (i, u) in unknown.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(out, "{sep}{}", juliet_core::escape_controls(u.key()))?;
        }
        writeln!(out)?;
    }
    if let Some(warnings) = j["warnings"].as_array() {
        for w in warnings {
            writeln!(out, "{}", style.paint(Paint::Yellow, &s(w)))?;
        }
    }
    Ok(())
}

/// What comes from the file, its control characters escaped for printing.
fn esc(text: &str) -> String {
    juliet_core::escape_controls(text).into_owned()
}

/// The property rows of [`print_text`]: an override marked `*`, an inherited value
/// dimmed with where it comes from.
fn print_rows(out: &mut dyn Write, ins: &Inspection, style: Style) -> std::io::Result<()> {
    let width = ins
        .properties
        .iter()
        .map(|p| p.key.len())
        .max()
        .unwrap_or(0);
    for p in &ins.properties {
        let value = esc(&p.lines.join(" | "));
        let line = format!("{:width$}  {value}", p.key);
        if p.overridden {
            writeln!(
                out,
                "  {} {}",
                style.paint(Paint::Yellow, "*"),
                style.paint(Paint::Yellow, &line)
            )?;
        } else {
            let from = match &p.source {
                Source::File => String::new(),
                Source::Template(t) => format!("  <- {}", esc(t)),
                Source::Default => "  (default)".to_owned(),
                Source::Migration => "  (set by the migration)".to_owned(),
            };
            let line = if p.source == Source::File {
                line
            } else {
                style.paint(Paint::Dim, &format!("{line}{from}"))
            };
            writeln!(out, "    {line}")?;
        }
    }
    Ok(())
}
