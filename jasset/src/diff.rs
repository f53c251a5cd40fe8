//! `jasset diff A B [--root DIR] [--resolved]`: the property-level diff of two versions of
//! one asset (docs/design.md, section 8.1), also usable as git's external diff command
//! (the seven arguments `path old-file old-hex old-mode new-file new-hex new-mode`).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::output::{escape_path, Paint, Style};
use super::project::{find_root, require_paths, resolve_root};
use super::props::{find_key, key_order, read_asset, show, write_shown, Asset};
use super::{CliError, CliResult, Status};

/// Arguments of `jasset diff`.
#[derive(Debug, Clone, Args)]
pub(crate) struct DiffArgs {
    /// The old and the new file (`A B`); or the seven arguments git gives an external
    /// diff command (`path old-file old-hex old-mode new-file new-hex new-mode`); or,
    /// with `--textconv`, one file.
    #[arg(value_name = "FILE", num_args = 1.., required = true)]
    pub files: Vec<PathBuf>,
    /// Print one file's properties, one `Key: value` line each (canonical keys and
    /// values, in the writer's order), for git's `diff.<driver>.textconv`: git's line
    /// diff of two such texts is a property diff.
    #[arg(long)]
    pub textconv: bool,
    /// The project root (`Template` paths resolve against it). Default: the nearest
    /// ancestor of the (first) file holding an `Assets/` folder, else of the current
    /// folder (where git runs its diff commands).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Compare every property's effective value, after the template chain and the
    /// defaults are applied, instead of the properties the files set.
    #[arg(long)]
    pub resolved: bool,
}

/// How one property differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change {
    /// Only in the new file: the key and its value.
    Added(String, Vec<String>),
    /// Only in the old file: the key and its value.
    Removed(String, Vec<String>),
    /// In both with other values: the key, the old and the new value.
    Changed(String, Vec<String>, Vec<String>),
}

/// What git passes an external diff command for a file that does not exist on one side.
const GIT_NO_FILE: &str = "/dev/null";

/// Runs `jasset diff`: exit 0 when the files hold the same properties, 1 when they
/// differ, 2 on bad input. Under git (seven arguments) the differences are printed with
/// a `diff --jasset a/PATH b/PATH` heading and the exit code is 0, as git expects of
/// an external diff.
///
/// # Errors
/// A usage error for a wrong number of files, a missing file or a file that does not
/// tokenize (or, with `--resolved`, whose entity does not load).
pub(crate) fn run(args: &DiffArgs, out: &mut dyn Write) -> CliResult {
    if args.textconv {
        let [file] = args.files.as_slice() else {
            return Err(CliError::usage("diff --textconv takes one file"));
        };
        // git gives a temporary copy of the file, from the repository's top folder.
        let root = resolve_root(args.root.as_deref(), std::slice::from_ref(file))?
            .or_else(|| find_root(Path::new(".")));
        let asset = read_side(file, root.as_deref())?;
        textconv(&asset, out)?;
        return Ok(Status::Success);
    }
    let (label, old, new) = match args.files.as_slice() {
        [a, b] => (None, a, b),
        // A rename adds the new path and git's similarity text.
        [path, old, _, _, new, _, _] | [path, old, _, _, new, _, _, _, _] => (Some(path), old, new),
        _ => {
            return Err(CliError::usage(
                "diff takes two files (A B), or the seven arguments of a git external diff",
            ))
        }
    };
    let root = match args.root.as_deref() {
        Some(_) => resolve_root(args.root.as_deref(), &[])?,
        None => label
            .and_then(|p| find_root(p))
            .or_else(|| find_root(old))
            .or_else(|| find_root(new))
            .or_else(|| find_root(Path::new("."))),
    };
    let a = read_side(old, root.as_deref())?;
    let b = read_side(new, root.as_deref())?;
    if !args.resolved {
        for (file, side) in [(old, &a), (new, &b)] {
            note_unloaded(file, label.map(PathBuf::as_path), side);
        }
    }
    let changes = if args.resolved {
        let (kept_a, kept_b) = (resolved_of(&a)?, resolved_of(&b)?);
        let (side_a, side_b) = (resolved_side(&a, &kept_a), resolved_side(&b, &kept_b));
        diff_by(&side_a, &side_b)
    } else {
        diff_assets(&a, &b)
    };
    let style = Style::for_stdout();
    if let Some(path) = label {
        if !changes.is_empty() {
            let p = path.display();
            writeln!(
                out,
                "{}",
                style.paint(Paint::Bold, &format!("diff --jasset a/{p} b/{p}"))
            )?;
        }
    }
    for change in &changes {
        writeln!(out, "{}", render(change, style))?;
    }
    Ok(if label.is_some() {
        Status::Success
    } else {
        Status::from_problems(!changes.is_empty())
    })
}

/// Says on stderr that `side`, read from `file`, did not load, so that a `~` for
/// `0.50` against `0.5` (values compared as written, without the class's codecs) is
/// explained; under git, `label` is the file's path in the repository. An empty side
/// (git's missing file) says nothing.
fn note_unloaded(file: &Path, label: Option<&Path>, side: &Asset) {
    let (Some(e), false) = (&side.load_error, side.props.is_empty()) else {
        return;
    };
    let shown = label.unwrap_or(file);
    let e = match e.location.path == file {
        true => e.clone().with_path(shown),
        false => e.clone(),
    };
    eprintln!("jasset: note: values compared as written, the entity does not load: {e}");
}

/// Reads one side: `/dev/null` (git's missing file) is an asset with no property.
fn read_side(path: &Path, root: Option<&Path>) -> Result<Asset, CliError> {
    let bytes = if path == Path::new(GIT_NO_FILE) {
        Vec::new()
    } else {
        require_paths(&[path.to_owned()])?;
        super::project::read(path, root)
            .map_err(|e| CliError::usage(format!("{}: {}", escape_path(path), e.kind)))?
    };
    read_asset(bytes, path, root)
}

/// The kept unknown keys of `asset` ([`Asset::kept`]), which follow its written
/// properties among its effective ones.
///
/// # Errors
/// A usage error with the load error when its entity did not load.
fn resolved_of(asset: &Asset) -> Result<Vec<u32>, CliError> {
    match &asset.load_error {
        _ if asset.resolved() => Ok(asset.kept()),
        // An empty file (git's missing side) has nothing to resolve.
        _ if asset.props.is_empty() => Ok(Vec::new()),
        Some(e) => Err(CliError::usage(format!("--resolved: {e}"))),
        None => Ok(Vec::new()),
    }
}

/// The changes from `a` to `b`, property by property (the properties each file sets):
/// removed and changed ones in `a`'s order, then added ones in `b`'s.
pub(crate) fn diff_assets(a: &Asset, b: &Asset) -> Vec<Change> {
    diff_by(&props_side(a), &props_side(b))
}

/// The properties of `x` as one side of a diff: each its [`Asset::name`] and
/// [`Asset::value_lines`].
fn props_side(x: &Asset) -> Side<'_> {
    Side {
        len: x.props.len(),
        key: Box::new(move |i| x.name(&x.props[i])),
        value: Box::new(move |i| Box::new(x.value_lines(&x.props[i]))),
    }
}

/// The effective properties of `x` as one side of a diff: its written properties,
/// then its kept unknown keys `kept` (see [`Asset::resolved`]).
fn resolved_side<'a>(x: &'a Asset, kept: &'a [u32]) -> Side<'a> {
    let written = x.written();
    let kept_prop = move |i: usize| &x.props[kept[i - written.len()] as usize];
    Side {
        len: written.len() + kept.len(),
        key: Box::new(move |i| match written.get(i) {
            Some((key, _)) => key,
            None => x.name(kept_prop(i)),
        }),
        value: Box::new(move |i| match written.get(i) {
            Some((_, lines)) => Box::new(lines.iter().map(String::as_str)),
            None => Box::new(x.value_lines(kept_prop(i))),
        }),
    }
}

/// The value lines of one item of a [`Side`], one at a time (a value may have millions).
type Lines<'a> = Box<dyn Iterator<Item = &'a str> + 'a>;

/// One side of a diff: `len` items, each a key and value lines.
struct Side<'a> {
    len: usize,
    key: Box<dyn Fn(usize) -> &'a str + 'a>,
    value: Box<dyn Fn(usize) -> Lines<'a> + 'a>,
}

/// The changes from the items of `a` to those of `b`: removed and changed ones in `a`'s
/// order, then added ones in `b`'s. Each key is found in the other list by a binary
/// search ([`key_order`]): a file of a million keys is not searched through for each of
/// its keys.
fn diff_by(a: &Side<'_>, b: &Side<'_>) -> Vec<Change> {
    let owned = |lines: Lines<'_>| lines.map(str::to_owned).collect::<Vec<_>>();
    let (order_a, order_b) = (key_order(a.len, &a.key), key_order(b.len, &b.key));
    let mut changes = Vec::new();
    for i in 0..a.len {
        let key = (a.key)(i);
        match find_key(&order_b, b.len, &b.key, key) {
            None => changes.push(Change::Removed(key.to_owned(), owned((a.value)(i)))),
            Some(j) => {
                if !(a.value)(i).eq((b.value)(j)) {
                    let (old, new) = (owned((a.value)(i)), owned((b.value)(j)));
                    changes.push(Change::Changed(key.to_owned(), old, new));
                }
            }
        }
    }
    for j in 0..b.len {
        let key = (b.key)(j);
        if find_key(&order_a, a.len, &a.key, key).is_none() {
            changes.push(Change::Added(key.to_owned(), owned((b.value)(j))));
        }
    }
    changes
}

/// Writes the properties `asset` sets to `out`, one `Key: value` line each (canonical
/// key and value), in the writer's order (base keys, `ClassVersion`, the class's
/// properties, unknown keys); in file order when the entity did not load.
///
/// # Errors
/// Writing to `out`.
fn textconv(asset: &Asset, out: &mut dyn Write) -> std::io::Result<()> {
    let written = asset.written();
    let order = key_order(written.len(), |i| &written[i].0);
    // The class's properties in the writer's order, then the kept unknown keys, then
    // the rest (deprecated keys a migration read), each in file order.
    let rank = |p: &super::props::Prop| match find_key(
        &order,
        written.len(),
        |i| &written[i].0,
        asset.name(p),
    ) {
        Some(at) => at as u32,
        None if p.kept() => written.len() as u32,
        None => u32::MAX,
    };
    // 8 bytes a property.
    let mut ranked: Vec<(u32, u32)> = (asset.props.iter().enumerate())
        .map(|(i, p)| (rank(p), i as u32))
        .collect();
    ranked.sort_unstable();
    let mut out = std::io::BufWriter::new(out);
    for (_, i) in ranked {
        let p = &asset.props[i as usize];
        write!(out, "{}: ", asset.name(p))?;
        write_shown(&mut out, asset.value_lines(p))?;
        writeln!(out)?;
    }
    out.flush()
}

/// One change as a line: `~ Key: old -> new`, `+ Key: value`, `- Key: value`.
fn render(change: &Change, style: Style) -> String {
    match change {
        Change::Added(k, v) => style.paint(Paint::Green, &format!("+ {k}: {}", show(v))),
        Change::Removed(k, v) => style.paint(Paint::Red, &format!("- {k}: {}", show(v))),
        Change::Changed(k, old, new) => style.paint(
            Paint::Yellow,
            &format!("~ {k}: {} -> {}", show(old), show(new)),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asset(text: &str) -> Asset {
        read_asset(text.as_bytes().to_vec(), Path::new("t.jasset"), None).unwrap()
    }

    const BASE: &str = "; EntityID\n0x0000000000000042\n; Kind\nInert\n; Mass\n0.50\n";

    #[test]
    fn respellings_moves_and_comments_are_no_change() {
        let other = "# moved, respelled\nkind: Inert\nmass: 0.5\nid: 66\n";
        assert_eq!(diff_assets(&asset(BASE), &asset(other)), []);
    }

    #[test]
    fn added_removed_and_changed_properties_are_listed() {
        let new = "; EntityID\n0x0000000000000042\n; Kind\nInert\n; Mass\n2\n; Health\n5\n";
        let changes = diff_assets(&asset(BASE), &asset(new));
        assert_eq!(
            changes,
            [
                Change::Changed("Mass".into(), vec!["0.5".into()], vec!["2.0".into()]),
                Change::Added("Health".into(), vec!["5.0".into()]),
            ]
        );
        let back = diff_assets(&asset(new), &asset(BASE));
        assert!(back.contains(&Change::Removed("Health".into(), vec!["5.0".into()])));
    }

    #[test]
    fn textconv_lists_canonical_properties_in_the_writers_order() {
        let a = asset("; Mass: 0.50\n; Kind: Inert\n; Glow: 1\nid: 66\n");
        let mut out = Vec::new();
        textconv(&a, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            [
                "EntityID: 0x0000000000000042",
                "Kind: Inert",
                "Mass: 0.5",
                "Glow: 1"
            ]
        );
    }

    #[test]
    fn textconv_lists_kept_unknown_keys_before_keys_a_migration_read() {
        let a =
            asset("; EntityID: 0x43\n; Kind: Projectile\n; ClassVersion: 1\n; Speed: 4\n; U1: 1\n");
        let mut out = Vec::new();
        textconv(&a, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let at = |key: &str| out.find(&format!("\n{key}:")).expect(key);
        assert!(
            at("ClassVersion") < at("U1") && at("U1") < at("Speed"),
            "{out}"
        );
        // The file's version, not the migrated entity's.
        assert!(out.contains("\nClassVersion: 1\n"), "{out}");
    }

    #[test]
    fn unknown_keys_compare_by_their_text() {
        let a = asset("; Kind\nInert\n; Glow\n1\n");
        let b = asset("; Kind\nInert\n; glow\n1.0\n");
        assert_eq!(
            diff_assets(&a, &b),
            [Change::Changed(
                "Glow".into(),
                vec!["1".into()],
                vec!["1.0".into()]
            )]
        );
    }
}
