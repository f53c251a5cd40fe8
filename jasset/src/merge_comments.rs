//! The comment lines of `jasset merge` (docs/design.md, section 8.2): a comment is no
//! property, so the property-by-property merge alone would keep only OURS's. Comment
//! lines (`#` or `//` first) are merged as a multiset of their trimmed text, three-way:
//!
//! * a comment THEIRS has more often than BASE and OURS (one THEIRS added, or the new
//!   text of one THEIRS edited) is inserted into OURS's text, after the nearest
//!   property before it in THEIRS that OURS has (at the top when there is none);
//! * a comment of OURS that BASE has and THEIRS has fewer times (one THEIRS removed, or
//!   the old text of one THEIRS edited) is removed, when it stands between properties
//!   (the comments inside a property stay with its lines).
//!
//! So a comment both sides edited differently is there in both versions, OURS's where
//! it was and THEIRS's where THEIRS's insertions go.

use std::collections::HashMap;

use crate::props::Asset;

/// The comment edits of one merge.
#[derive(Debug, Default)]
pub(super) struct Comments<'a> {
    /// THEIRS's comment lines to insert: the byte of OURS's text they go in at, their
    /// byte in THEIRS's text (their order at one point), and the line as written
    /// (without its line ending).
    pub(super) insert: Vec<(usize, usize, &'a str)>,
    /// OURS's comment lines to remove, as byte ranges of its text (line ending
    /// included).
    pub(super) remove: Vec<(usize, usize)>,
}

/// One comment line of a text: its byte range (line ending included), and its text
/// (trimmed), which tells comments apart.
struct Line<'a> {
    start: usize,
    end: usize,
    text: &'a str,
}

/// The comment lines of `text`, in file order.
fn comment_lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with('#') || trimmed.starts_with("//") {
            out.push(Line {
                start,
                end: start + line.len(),
                text: trimmed,
            });
        }
        start += line.len();
    }
    out
}

/// How many times each comment text occurs in `lines`.
fn counts<'a>(lines: &[Line<'a>]) -> HashMap<&'a str, usize> {
    let mut counts = HashMap::new();
    for l in lines {
        *counts.entry(l.text).or_insert(0) += 1;
    }
    counts
}

/// The comment edits of the merge of `base`, `ours` and `theirs` (see the module
/// documentation).
pub(super) fn merge_comments<'a>(base: &Asset, ours: &Asset, theirs: &'a Asset) -> Comments<'a> {
    let (b, o, t) = (
        comment_lines(base.text()),
        comment_lines(ours.text()),
        comment_lines(theirs.text()),
    );
    let (in_base, in_ours, in_theirs) = (counts(&b), counts(&o), counts(&t));
    let count = |map: &HashMap<&str, usize>, text: &str| map.get(text).copied().unwrap_or(0);
    let mut comments = Comments::default();
    // THEIRS's copies past what BASE and OURS hold, the last ones of each text, each
    // after the last property before it that OURS has (one walk of THEIRS's properties).
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let (mut next, mut at) = (0, 0);
    for line in &t {
        while let Some(p) = theirs
            .props
            .get(next)
            .filter(|p| p.key_start() < line.start)
        {
            if let Some(o) = ours.get(theirs.name(p)) {
                at = ours.span(o).1;
            }
            next += 1;
        }
        let nth = seen.entry(line.text).or_insert(0);
        *nth += 1;
        let kept = count(&in_base, line.text).max(count(&in_ours, line.text));
        if *nth > kept {
            let written = theirs.text()[line.start..line.end].trim_end_matches(['\n', '\r']);
            comments.insert.push((at, line.start, written));
        }
    }
    // OURS's copies that THEIRS removed, between properties, the first ones of each.
    let mut removed: HashMap<&str, usize> = HashMap::new();
    for line in &o {
        let gone = (count(&in_base, line.text).min(count(&in_ours, line.text)))
            .saturating_sub(count(&in_theirs, line.text));
        let done = removed.entry(line.text).or_insert(0);
        if *done < gone && !inside_property(ours, line.start) {
            *done += 1;
            comments.remove.push((line.start, line.end));
        }
    }
    comments
}

/// Whether byte `at` of OURS's text is inside one of its properties (after its header
/// line's start, before its last value line's end).
fn inside_property(ours: &Asset, at: usize) -> bool {
    let after = ours.props.partition_point(|p| p.key_start() < at);
    after > 0 && ours.span(&ours.props[after - 1]).1 > at
}
