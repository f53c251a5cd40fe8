//! `jasset merge BASE OURS THEIRS [PATH] [-o OUT] [--root DIR]`: the three-way merge of
//! one asset, property by property (docs/design.md, section 8.2), usable as git's merge
//! driver (`jasset merge %O %A %B %P`: the result goes into OURS, exit 1 on a conflict;
//! messages name the asset's PATH, not git's temporary files).
//!
//! Each property (keys matched as the format matches them, values compared as the
//! codecs read them) takes the value of the side that changed it; both sides changing
//! it alike is no conflict; both changing it differently (a removal counts as a change)
//! is a conflict, written as a block in the file:
//!
//! ```text
//! <<<<<<< ours
//! ; Mass: 300.0
//! =======
//! ; Mass: 400.0
//! >>>>>>> theirs
//! ```
//!
//! The result is OURS's text edited in place, as a save edits a file: the properties
//! that take THEIRS's value get their value lines replaced line for line (in OURS's
//! spelling and line form, the comments between value lines kept), THEIRS's new
//! properties are inserted after their nearest preceding neighbour, a property THEIRS
//! removed loses its header and value lines but not the comments inside it, and
//! comments, blank lines, order and line endings stay. Comments THEIRS added or edited
//! are inserted, those it removed between properties removed (`merge_comments.rs`). Where the edit would not read
//! back as the merged properties (a mix of line forms it cannot keep), the properties
//! are written one block each instead.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::project::resolve_root;
use super::props::{compare_keys, read_asset, read_text, show, Asset, Prop};
use super::{CliError, CliResult, Status};
use comments::{merge_comments, Comments};
use juliet_core::{apply_edits, TextEdit};
use juliet_entities::patch::{block, ends_line_at, line_for_line, lines_between};

/// Arguments of `jasset merge`.
#[derive(Debug, Clone, Args)]
pub(crate) struct MergeArgs {
    /// The common ancestor (git's `%O`).
    #[arg(value_name = "BASE")]
    pub base: PathBuf,
    /// Our version (git's `%A`); the result is written here unless `-o` is given.
    #[arg(value_name = "OURS")]
    pub ours: PathBuf,
    /// Their version (git's `%B`).
    #[arg(value_name = "THEIRS")]
    pub theirs: PathBuf,
    /// The asset's path (git's `%P`), which conflicts and errors name instead of the
    /// three files (git's temporary `.merge_file_*` copies). Default: OUT, else OURS.
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,
    /// Where to write the result (default: OURS).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// The project root (`Template` paths resolve against it). Default: the nearest
    /// ancestor of OURS holding an `Assets/` folder.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// The first line of a conflict block.
pub(crate) const OURS_MARKER: &str = "<<<<<<< ours";
/// The line between the two sides of a conflict block.
pub(crate) const SIDES_MARKER: &str = "=======";
/// The last line of a conflict block.
pub(crate) const THEIRS_MARKER: &str = ">>>>>>> theirs";

/// One property both sides changed differently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Conflict {
    /// The key (OURS's spelling, else THEIRS's).
    pub key: String,
    /// 1-based line of the block's first marker in the result.
    pub line: u32,
    /// OURS's value lines (`None`: OURS removed the property).
    pub ours: Option<Vec<String>>,
    /// THEIRS's value lines (`None`: THEIRS removed the property).
    pub theirs: Option<Vec<String>>,
}

/// The result of [`merge`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Merged {
    /// The merged file (OURS's byte-order mark and line endings).
    pub bytes: Vec<u8>,
    /// The conflicts, in file order (each a block in [`Merged::bytes`]).
    pub conflicts: Vec<Conflict>,
}

/// Runs `jasset merge`: exit 0 for a clean merge, 1 when the result has conflict
/// blocks, 2 on bad input or a result that cannot be written.
///
/// # Errors
/// A usage error for a file that cannot be read or does not tokenize (a conflict block
/// from an earlier merge included), or a result that cannot be written (a folder of
/// OUT that does not exist, a read-only file).
pub(crate) fn run(args: &MergeArgs, out: &mut dyn Write) -> CliResult {
    // git's temporary files sit in the repository's top folder, where it runs drivers.
    let root = resolve_root(args.root.as_deref(), std::slice::from_ref(&args.ours))?
        .or_else(|| super::project::find_root(std::path::Path::new(".")));
    // A problem in a version is named at the asset's PATH when given, with the version.
    let read = |path: &PathBuf, version: &str| -> Result<Asset, CliError> {
        let bytes = super::project::read(path, root.as_deref())
            .map_err(|e| CliError::usage(e.to_string()))?;
        let named = args.path.as_ref().unwrap_or(path);
        read_asset(bytes, named, root.as_deref()).map_err(|e| match args.path {
            Some(_) => e.with_context(&format!(" (in {version})")),
            None => e,
        })
    };
    let base = read(&args.base, "the common ancestor, BASE")?;
    let ours = read(&args.ours, "our version, OURS")?;
    let theirs = read(&args.theirs, "their version, THEIRS")?;
    let merged = merge(&base, &ours, &theirs);
    let target = args.output.as_ref().unwrap_or(&args.ours);
    write_result(target, &merged.bytes)?;
    let shown = args.path.as_ref().unwrap_or(target);
    for c in &merged.conflicts {
        let side = |v: &Option<Vec<String>>| v.as_deref().map_or("(removed)".into(), show);
        writeln!(
            out,
            "{}:{}:1: conflict: `{}`: ours {}, theirs {}",
            super::output::escape_path(shown),
            c.line,
            c.key,
            side(&c.ours),
            side(&c.theirs)
        )?;
    }
    Ok(Status::from_problems(!merged.conflicts.is_empty()))
}

/// Writes the merge's result to `target` through a temporary file and a rename (a link
/// followed to its file), so that a failed write leaves the file as it was; straight
/// to a `target` that is no regular file (a device, a FIFO).
///
/// # Errors
/// A usage error (exit 2: not written is no conflict, which exit 1 is to git) for a
/// read-only `target` or a failed write (a folder that does not exist, a full disk).
fn write_result(target: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let file = std::fs::canonicalize(target).unwrap_or_else(|_| target.to_path_buf());
    let shown = target.display();
    match std::fs::metadata(&file) {
        Ok(m) if m.permissions().readonly() => {
            return Err(CliError::usage(format!("{shown}: read-only: not written")));
        }
        // A device or a FIFO (`-o /dev/stdout`) is written to, not replaced.
        Ok(m) if !m.is_file() => {
            return std::fs::write(target, bytes)
                .map_err(|e| CliError::usage(format!("{shown}: {e}")));
        }
        _ => {}
    }
    juliet_entities::fsio::write_or_refuse(&file, bytes, juliet_entities::fsio::Sync::FileAndFolder)
        .map_err(|e| {
            let reason = match &e.kind {
                juliet_core::ErrorKind::Io(reason) => reason.to_string(),
                other => other.to_string(),
            };
            CliError::usage(format!("{}: {reason}", target.display()))
        })
}

/// What [`Plan::edit`] inserts into OURS's text at one point.
#[derive(Debug, Clone, Copy)]
enum Insert<'a> {
    /// A property only THEIRS has.
    Prop(&'a Prop, Pick<'a>),
    /// A comment line of THEIRS (without its line ending).
    Note(&'a str),
}

/// What the result holds for one property.
#[derive(Debug, Clone, Copy)]
enum Pick<'a> {
    /// OURS's lines, as they are (also when OURS has no such property).
    Ours,
    /// THEIRS's value (`None`: removed).
    Theirs(Option<&'a Prop>),
    /// Both changed it differently.
    Conflict(Option<&'a Prop>, Option<&'a Prop>),
}

/// The three-way merge of `base`, `ours` and `theirs` (see the module documentation).
pub(crate) fn merge(base: &Asset, ours: &Asset, theirs: &Asset) -> Merged {
    let plan = Plan::new(base, ours, theirs);
    let plain = plan.edit(false);
    let reads_back = plain
        .is_some_and(|plain| read_text(plain, &ours.path).is_ok_and(|got| plan.reads_back(&got)));
    let text = match reads_back.then(|| plan.edit(true)).flatten() {
        Some(text) => text,
        None => plan.blocks(),
    };
    let mut conflicts = plan.conflicts();
    let lines = (text.lines().enumerate())
        .filter(|(_, l)| l.trim_end() == OURS_MARKER)
        .map(|(i, _)| i as u32 + 1);
    for (c, line) in conflicts.iter_mut().zip(lines) {
        c.line = line;
    }
    let bytes = if ours.bom {
        [&b"\xEF\xBB\xBF"[..], text.as_bytes()].concat()
    } else {
        text.into_bytes()
    };
    Merged { bytes, conflicts }
}

/// The decisions of one merge.
struct Plan<'a> {
    ours: &'a Asset,
    theirs: &'a Asset,
    /// One per property of OURS.
    picks: Vec<Pick<'a>>,
    /// THEIRS's properties that OURS does not have, in THEIRS's order, with their pick
    /// and the byte of OURS's text they go in at.
    added: Vec<(&'a Prop, Pick<'a>, usize)>,
    /// For each property of OURS, the first at or after it that stays in the result
    /// (`u32::MAX`: none).
    next_staying: Vec<u32>,
    /// THEIRS's comments to insert and OURS's to remove.
    comments: Comments<'a>,
}

impl<'a> Plan<'a> {
    /// The decisions of the merge of `base`, `ours` and `theirs`: each property takes
    /// the value of the side that changed it, or is a conflict.
    fn new(base: &'a Asset, ours: &'a Asset, theirs: &'a Asset) -> Plan<'a> {
        let pick = |name: &str| -> Pick<'_> {
            let (b, o, t) = ((base, name), (ours, name), (theirs, name));
            if same(o, t) || same(t, b) {
                Pick::Ours
            } else if same(o, b) {
                Pick::Theirs(theirs.get(name))
            } else {
                Pick::Conflict(ours.get(name), theirs.get(name))
            }
        };
        let picks: Vec<Pick<'_>> = ours.props.iter().map(|p| pick(ours.name(p))).collect();
        // THEIRS's new properties, each after the nearest property before it in THEIRS that
        // OURS has (before OURS's first property when there is none): one pass.
        let mut added = Vec::new();
        let mut after = None;
        for t in &theirs.props {
            match ours.get(theirs.name(t)) {
                Some(o) => after = Some(o),
                None => {
                    let at = match (after, ours.props.first()) {
                        (Some(o), _) => ours.span(o).1,
                        (None, Some(first)) => ours.span(first).0,
                        (None, None) => ours.text().len(),
                    };
                    added.push((t, pick(theirs.name(t)), at));
                }
            }
        }
        // The next property of OURS that stays in the result, for each (past the removed).
        let mut next_staying = vec![u32::MAX; picks.len()];
        let mut next = u32::MAX;
        for i in (0..picks.len()).rev() {
            if !matches!(picks[i], Pick::Theirs(None)) {
                next = i as u32;
            }
            next_staying[i] = next;
        }
        Plan {
            ours,
            theirs,
            picks,
            added,
            next_staying,
            comments: merge_comments(base, ours, theirs),
        }
    }
    /// The properties of the result with conflicts resolved to OURS, each the
    /// property whose key is written and the property whose value lines are: `(side,
    /// index)` pairs, `side` 0 for OURS and 1 for THEIRS (8 bytes a property).
    fn expected(&self) -> Vec<[(u8, u32); 2]> {
        let index = |a: &Asset, p: &Prop| a.index_of(p).unwrap_or(0) as u32;
        let mut out = Vec::with_capacity(self.picks.len());
        for (i, pick) in self.picks.iter().enumerate() {
            let key = (0, i as u32);
            match pick {
                Pick::Ours | Pick::Conflict(..) => out.push([key, key]),
                Pick::Theirs(Some(t)) => out.push([key, (1, index(self.theirs, t))]),
                Pick::Theirs(None) => {}
            }
        }
        for (t, pick, _) in &self.added {
            if let Pick::Theirs(Some(_)) = pick {
                let t = (1, index(self.theirs, t));
                out.push([t, t]);
            }
        }
        out
    }

    /// Whether `got` (the edited text, tokenized) holds the properties of
    /// [`Plan::expected`]: the same keys as written (as keys compare) with the same value
    /// lines, in any order.
    fn reads_back(&self, got: &Asset) -> bool {
        let expected = self.expected();
        if expected.len() != got.props.len() {
            return false;
        }
        let side = |s: u8| if s == 0 { self.ours } else { self.theirs };
        let want = |[(ks, k), (vs, v)]: [(u8, u32); 2]| {
            let (ka, va) = (side(ks), side(vs));
            (ka.key(&ka.props[k as usize]), va.raw(&va.props[v as usize]))
        };
        let have = |i: u32| {
            let p = &got.props[i as usize];
            (got.key(p), got.raw(p))
        };
        let by = |(ka, la): (&str, Vec<&str>), (kb, lb): (&str, Vec<&str>)| {
            compare_keys(ka, kb).then_with(|| la.cmp(&lb))
        };
        let mut expected = expected;
        expected.sort_unstable_by(|&a, &b| by(want(a), want(b)));
        let mut order: Vec<u32> = (0..got.props.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| by(have(a), have(b)));
        (expected.into_iter().zip(order)).all(|(e, i)| by(want(e), have(i)).is_eq())
    }

    /// The conflicts, in the order their blocks appear (lines filled in by the caller).
    fn conflicts(&self) -> Vec<Conflict> {
        // By position; at one position THEIRS's insertions come first, as the edit
        // writes them.
        let mut at: Vec<(usize, bool, Conflict)> = Vec::new();
        let conflict = |o: Option<&Prop>, t: Option<&Prop>| Conflict {
            key: match (o, t) {
                (Some(o), _) => self.ours.name(o).to_owned(),
                (None, Some(t)) => self.theirs.name(t).to_owned(),
                (None, None) => String::new(),
            },
            line: 0,
            ours: o.map(|p| owned(self.ours.raw(p))),
            theirs: t.map(|p| owned(self.theirs.raw(p))),
        };
        for (p, pick) in self.ours.props.iter().zip(&self.picks) {
            if let Pick::Conflict(o, t) = pick {
                at.push((self.ours.span(p).0, true, conflict(*o, *t)));
            }
        }
        for (_, pick, insert_at) in &self.added {
            if let Pick::Conflict(o, th) = pick {
                at.push((*insert_at, false, conflict(*o, *th)));
            }
        }
        at.sort_by_key(|(pos, replaced, _)| (*pos, *replaced));
        at.into_iter().map(|(.., c)| c).collect()
    }

    /// The `; ` to put before the first property of OURS at or after byte `at` (a line
    /// start) that stays, when it stays a `Key: value` line (a block written before it
    /// would take it for a value line): not when the edit replaces it whole (a conflict
    /// block when `markers`, or a block of several value lines).
    fn guard_compact(&self, at: usize, markers: bool, edits: &mut Edits) {
        // Properties are in file order; a key is on its property's first line.
        let from = (self.ours.props).partition_point(|p| p.key_start() < at);
        let Some(&next) = self.next_staying.get(from) else {
            return;
        };
        let Some(p) = self.ours.props.get(next as usize) else {
            return;
        };
        let replaced = match self.picks[next as usize] {
            Pick::Conflict(..) => markers,
            Pick::Theirs(Some(t)) => self.theirs.raw_len(t) > 1,
            _ => false,
        };
        if p.form == juliet_core::LineForm::Compact && !replaced {
            edits.guard(self.ours.span(p).0);
        }
    }

    /// OURS's text with the merge made in place; conflict blocks when `markers`, else
    /// OURS's lines where the sides conflict. `None` when its edits overlap (which the
    /// plan does not make): the merge is then written one block a property.
    fn edit(&self, markers: bool) -> Option<String> {
        let (ours, theirs) = (self.ours, self.theirs);
        let src = ours.text();
        let eol = ours.eol();
        let mut edits = Edits::default();
        // The form of the last property of OURS before this one that stays.
        let mut staying_form = None;
        for (p, pick) in ours.props.iter().zip(&self.picks) {
            let span = ours.span(p);
            let form_before = staying_form.replace(p.form);
            match pick {
                Pick::Ours => {}
                Pick::Conflict(o, t) => {
                    if markers {
                        // OURS's comments inside the property stay, after the block.
                        let text = self.conflict_block(*o, *t, eol) + &self.inside(p);
                        edits.list.push(TextEdit::new(span.0..span.1, text));
                        // Resolved to a side of several lines (a block), or to an empty
                        // side right after a block: what follows stands under a block.
                        let removal = o.is_none() || t.is_none();
                        if several(o, ours)
                            || several(t, theirs)
                            || removal && form_before == Some(juliet_core::LineForm::Block)
                        {
                            self.guard_compact(span.1, markers, &mut edits);
                        }
                    }
                }
                Pick::Theirs(None) => {
                    edits
                        .list
                        .push(TextEdit::new(span.0..span.1, self.inside(p)));
                    staying_form = form_before;
                    if form_before == Some(juliet_core::LineForm::Block) {
                        self.guard_compact(span.1, markers, &mut edits);
                    }
                }
                Pick::Theirs(Some(t)) => {
                    match theirs.raw(t).as_slice() {
                        // A block's value line would read as something else.
                        [line]
                            if p.form == juliet_core::LineForm::Block && !is_value_line(line) =>
                        {
                            let inline =
                                format!("; {}: {line}{eol}{}", ours.key(p), self.inside(p));
                            edits.list.push(TextEdit::new(span.0..span.1, inline));
                        }
                        lines if lines.len() == 1 || p.form == juliet_core::LineForm::Block => {
                            let old = ours.value_ranges(p);
                            line_for_line(&mut edits.list, src, &old, lines, eol);
                        }
                        lines => {
                            let text = block(ours.key(p), lines, eol);
                            edits.list.push(TextEdit::new(span.0..span.1, text));
                            self.guard_compact(span.1, markers, &mut edits);
                        }
                    }
                }
            }
        }
        self.insert_theirs(markers, &mut edits);
        for &(start, end) in &self.comments.remove {
            edits.list.push(TextEdit::remove(start..end));
        }
        // Insertions at one point keep THEIRS's order, before a replacement there.
        // A `; ` after the insertions at its byte, right before the line it guards.
        edits.list.extend(edits.guards);
        apply(src, edits.list)
    }

    /// The edits inserting THEIRS's new properties (a conflict block when `markers`)
    /// and comments into OURS's text, in THEIRS's order at each point.
    fn insert_theirs(&self, markers: bool, edits: &mut Edits) {
        let (ours, theirs) = (self.ours, self.theirs);
        let eol = ours.eol();
        let mut inserts: Vec<(usize, usize, Insert<'_>)> = (self.added.iter())
            .map(|&(t, pick, at)| (at, theirs.span(t).0, Insert::Prop(t, pick)))
            .chain(
                (self.comments.insert.iter())
                    .map(|&(at, from, line)| (at, from, Insert::Note(line))),
            )
            .collect();
        inserts.sort_by_key(|&(at, from, _)| (at, from));
        for (at, _, insert) in inserts {
            let (t, pick) = match insert {
                Insert::Prop(t, pick) => (t, pick),
                Insert::Note(line) => {
                    let text = format!("{}{line}{eol}", self.line_start(edits, at));
                    edits.list.push(TextEdit::insert(at, text));
                    continue;
                }
            };
            let mut text = match pick {
                // THEIRS's form, but never `Key: value`, which only some places allow.
                Pick::Theirs(Some(t)) if t.form == juliet_core::LineForm::Block => {
                    block_or_inline(theirs.key(t), &theirs.raw(t), eol)
                }
                Pick::Theirs(Some(t)) => property(theirs, t, eol),
                Pick::Conflict(o, th) if markers => self.conflict_block(o, th, eol),
                _ => continue,
            };
            text.insert_str(0, self.line_start(edits, at));
            // A block left open (the text, or a side of a conflict once resolved).
            let opens_block = match pick {
                Pick::Conflict(o, th) => several(&o, ours) || several(&th, theirs),
                _ => !(text.trim_start()).starts_with(&format!("; {}:", theirs.key(t))),
            };
            edits.list.push(TextEdit::insert(at, text));
            if opens_block {
                self.guard_compact(at, markers, edits);
            }
        }
    }

    /// The line ending to write before text inserted at byte `at` of OURS's text: one
    /// after a last line without a line ending, unless an edit there (a property
    /// inserted before, a value line removed) leaves one.
    fn line_start(&self, edits: &Edits, at: usize) -> &'static str {
        let src = self.ours.text();
        let ended = |e: &TextEdit| ends_line_at(src.as_bytes(), e, at);
        if at > 0 && !src[..at].ends_with('\n') && !edits.list.iter().any(ended) {
            self.ours.eol()
        } else {
            ""
        }
    }

    /// The merged properties one block each (comments dropped), in OURS's order with
    /// THEIRS's new ones after their neighbours: what is written when the in-place edit
    /// would not read back.
    fn blocks(&self) -> String {
        let (ours, theirs) = (self.ours, self.theirs);
        let eol = ours.eol();
        let mut out = String::new();
        let mut added: Vec<(usize, String)> = Vec::new();
        for &(_, pick, at) in &self.added {
            let text = match pick {
                Pick::Theirs(Some(t)) => block_or_inline(theirs.key(t), &theirs.raw(t), eol),
                Pick::Conflict(o, th) => self.conflict_block(o, th, eol),
                _ => continue,
            };
            added.push((at, text));
        }
        // By insertion point, THEIRS's order at one point: written in one pass.
        added.sort_by_key(|(at, _)| *at);
        let mut next = added.into_iter().peekable();
        let mut flush = |out: &mut String, upto: usize| {
            while let Some((_, text)) = next.next_if(|(at, _)| *at <= upto) {
                out.push_str(&text);
            }
        };
        for (p, pick) in ours.props.iter().zip(&self.picks) {
            flush(&mut out, ours.span(p).0);
            let key = ours.key(p);
            match pick {
                Pick::Ours => out.push_str(&block_or_inline(key, &ours.raw(p), eol)),
                Pick::Theirs(Some(t)) => out.push_str(&block_or_inline(key, &theirs.raw(t), eol)),
                Pick::Theirs(None) => {}
                Pick::Conflict(o, t) => out.push_str(&self.conflict_block(*o, *t, eol)),
            }
        }
        flush(&mut out, usize::MAX);
        out
    }

    /// The comment and blank lines inside OURS's property `p` (between its header and
    /// its last value line), which stay when its lines are removed or replaced whole:
    /// none unless `p` is a block.
    fn inside(&self, p: &Prop) -> String {
        if p.form != juliet_core::LineForm::Block {
            return String::new();
        }
        let values: Vec<usize> = self.ours.value_ranges(p).iter().map(|r| r.start).collect();
        lines_between(
            self.ours.text(),
            p.key_start(),
            self.ours.span(p).1,
            &values,
        )
    }

    /// The conflict block of OURS's `o` and THEIRS's `t` (an absent side is empty).
    fn conflict_block(&self, o: Option<&Prop>, t: Option<&Prop>, eol: &str) -> String {
        let side =
            |a: &Asset, p: Option<&Prop>| p.map_or_else(String::new, |p| property(a, p, eol));
        format!(
            "{OURS_MARKER}{eol}{}{SIDES_MARKER}{eol}{}{THEIRS_MARKER}{eol}",
            side(self.ours, o),
            side(self.theirs, t)
        )
    }
}

/// The edits of [`Plan::edit`]: edits of OURS's text, and the positions given a `; `
/// ([`Plan::guard_compact`]), each once.
#[derive(Default)]
struct Edits {
    list: Vec<TextEdit>,
    /// The `; ` insertions, applied after the others at their byte.
    guards: Vec<TextEdit>,
    guarded: std::collections::HashSet<usize>,
}

impl Edits {
    /// Puts `; ` at `at`, unless it is there already.
    fn guard(&mut self, at: usize) {
        if self.guarded.insert(at) {
            self.guards.push(TextEdit::insert(at, "; "));
        }
    }
}

/// Whether `line` (a trimmed value line) reads back as a value line of a block: not a
/// header (`;`), a comment (`#`, `//`) or what may be a conflict marker (seven `<`,
/// `|`, `=` or `>`).
fn is_value_line(line: &str) -> bool {
    let marker = match line.as_bytes() {
        [c @ (b'<' | b'|' | b'=' | b'>'), ..] => {
            line.bytes().take(7).filter(|b| b == c).count() == 7
        }
        _ => false,
    };
    !(marker || line.starts_with([';', '#']) || line.starts_with("//"))
}

/// Whether `o` (of `a`) has several value lines.
fn several(o: &Option<&Prop>, a: &Asset) -> bool {
    o.is_some_and(|p| a.raw_len(p) > 1)
}

/// `key` and `lines` as a block, or as `; Key: value` when its one line would not read
/// back as a block's value line ([`is_value_line`]).
fn block_or_inline(key: &str, lines: &[&str], eol: &str) -> String {
    match lines {
        [line] if !is_value_line(line) => format!("; {key}: {line}{eol}"),
        lines => block(key, lines, eol),
    }
}

/// `p` (of `asset`) as a property that can stand anywhere: `; Key: value` for one line
/// (no block opened, so a `Key: value` line after it stays a property), else a block.
fn property(asset: &Asset, p: &Prop, eol: &str) -> String {
    match asset.raw(p).as_slice() {
        [line] => format!("; {}: {line}{eol}", asset.key(p)),
        lines => block(asset.key(p), lines, eol),
    }
}

/// Whether the property `name` has the same value in the two assets (absent in both
/// included), compared one value line at a time.
fn same((a, name_a): (&Asset, &str), (b, name_b): (&Asset, &str)) -> bool {
    match (a.get(name_a), b.get(name_b)) {
        (Some(pa), Some(pb)) => a.value_lines(pa).eq(b.value_lines(pb)),
        (None, None) => true,
        _ => false,
    }
}

/// `lines`, owned.
fn owned(lines: Vec<&str>) -> Vec<String> {
    lines.into_iter().map(str::to_owned).collect()
}

#[path = "merge_comments.rs"]
mod comments;

/// `src` with `edits` made ([`apply_edits`] on text); `None` when they overlap.
fn apply(src: &str, edits: Vec<TextEdit>) -> Option<String> {
    let bytes = apply_edits(src.as_bytes(), edits).ok()?;
    Some(match String::from_utf8(bytes) {
        Ok(out) => out,
        // Edits made at character boundaries keep the text UTF-8.
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

#[cfg(test)]
#[path = "merge_tests.rs"]
mod tests;
