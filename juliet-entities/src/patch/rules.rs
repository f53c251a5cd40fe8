//! The rules of the patcher, one function each (numbered as in the module
//! documentation of [`super`]), over the [`Plan`] of one edit.

use std::collections::HashSet;

use juliet_core::{keys_equal, TextEdit, CLASS_VERSION};

use super::plan::{Node, Plan};
use super::separators::{restyle, separator_of};
use super::{block, ends_line_at, line_for_line, lines_between};
use crate::entity_file::keys;

/// The prefix that makes a `Key: value` line `; Key: value` (rule 8).
const GUARD: &str = "; ";

/// The version keys, which a migration brings to the current versions (rule 10).
pub(super) const VERSIONS: [&str; 2] = [keys::BASE_VERSION.name, CLASS_VERSION.name];

impl<'a> Plan<'a> {
    /// Rule 1: whether property `key` of the new text, at node `n` of the file, keeps
    /// its lines as written: its canonical value is the same in the old text and the new
    /// (a version line that a migration changes and a `Kind` named by an alias aside),
    /// or its lines are the new ones already.
    pub(super) fn keeps(&self, n: usize, key: &str, lines: &[&str]) -> bool {
        let node = &self.nodes[n];
        let unchanged = (self.old.at(key))
            .is_some_and(|o| self.old.doc.value(o).lines().eq(lines.iter().copied()));
        let is_version = VERSIONS.contains(&key);
        (unchanged && !(is_version && self.migrating) && !self.names_kind_by_alias(n, key, lines))
            || self.same_lines(node.index, lines)
    }

    /// Rule 2: the edits that give node `n` (property `key`) the value lines `lines`:
    /// its value lines replaced line for line ([`Plan::value_line_edits`]), or, for
    /// several lines where the property stands on one line, the property made a block
    /// under its own spelling (rule 8 guarding the line after it).
    pub(super) fn replace_value(&mut self, n: usize, key: &str, lines: &[&str]) {
        let styled = self.styled(key, Some(n), lines);
        let styled: Vec<&str> = styled.iter().map(String::as_str).collect();
        let node = &self.nodes[n];
        if lines.len() == 1 || !node.one_line {
            let index = node.index;
            self.value_line_edits(index, &styled);
            return;
        }
        let key = if node.alias { node.canonical } else { node.key };
        let (span, end) = (node.span.clone(), node.span.end);
        self.edits
            .push(TextEdit::new(span, block(key, &styled, self.eol)));
        self.guard_next(end);
    }

    /// Rule 2: the edits that give property `index` of the file the value lines
    /// `lines`, line for line ([`line_for_line`]).
    pub(super) fn value_line_edits(&mut self, index: usize, lines: &[&str]) {
        let old: Vec<_> = self.doc.value_spans(index).collect();
        let src = self.src();
        line_for_line(&mut self.edits, src, &old, lines, self.eol);
    }

    /// Rule 3: where a property new in the new text goes, `previous` the node after
    /// which it goes (the last, in the file, of the properties before it in the
    /// writer's order; `None`: before the first property): right after that node, or,
    /// when the node right after it goes, in that one's place, after the comments and
    /// blank lines before it and inside it (which stay). The position, and the node
    /// whose place it takes.
    pub(super) fn insertion_point(&self, previous: Option<usize>) -> (usize, Option<usize>) {
        let nodes = &self.nodes;
        let after = previous.map_or_else(
            || nodes.first().map_or(self.src().len(), |n| n.span.start),
            |p| nodes[p].span.end,
        );
        let next = nodes.partition_point(|n| n.span.start < after);
        match nodes.get(next) {
            Some(gone) if self.deleted[next] => (gone.span.end, Some(next)),
            _ => (after, None),
        }
    }

    /// Rule 4: the form of a property of one value line inserted at `at`, in the place
    /// of node `place` (one that goes) or not: the form of the one it replaces, else of
    /// its neighbours there. `Key: value` for a `Key: value` line where no block is
    /// open before `at` (it would swallow the line), `; Key: value` for a line on one
    /// line or before a `Key: value` line (which a block would swallow), a block
    /// otherwise (`None`: no prefix).
    pub(super) fn one_line_form(&self, at: usize, place: Option<usize>) -> Option<&'static str> {
        let nodes = &self.nodes;
        let before = nodes.partition_point(|n| n.span.start < at);
        let previous = (0..before).rev().find(|&j| !self.deleted[j]);
        let previous = previous.map(|j| &nodes[j]);
        let next = self.next_kept(at);
        let neighbours = match place {
            Some(j) => [Some(&nodes[j]), None],
            None => [previous, next],
        };
        let neighbours = neighbours.iter().flatten();
        // A block before `at`: one now, or a one-line value that becomes one.
        let block_open = previous.is_some_and(|n| {
            !n.one_line
                || (self.new.at(n.canonical))
                    .is_some_and(|p| self.new.doc.value_lines(p).count() > 1)
        });
        if neighbours.clone().any(|n| n.compact) {
            Some(if block_open { GUARD } else { "" })
        } else {
            (neighbours.clone().any(|n| n.one_line) || next.is_some_and(|n| n.compact))
                .then_some(GUARD)
        }
    }

    /// Rules 3, 4 and 7: the edits that insert property `key` with the value lines
    /// `lines` after node `previous` ([`Plan::insertion_point`]), in the form of
    /// [`Plan::one_line_form`] (a block otherwise, rule 8 guarding the line after it),
    /// after a line ending when it follows a last line without one and takes no
    /// property's place (the lines kept of that one end with a line ending).
    pub(super) fn insert(&mut self, key: &str, lines: &[&str], previous: Option<usize>) {
        let styled = self.styled(key, None, lines);
        let styled: Vec<&str> = styled.iter().map(String::as_str).collect();
        let (at, place) = self.insertion_point(previous);
        let eol = self.eol;
        let (mut text, opens_block) = match (styled.as_slice(), self.one_line_form(at, place)) {
            ([line], Some(prefix)) => (format!("{prefix}{key}: {line}{eol}"), false),
            _ => (block(key, &styled, eol), true),
        };
        if place.is_none() {
            text.insert_str(0, self.line_start(at));
        }
        // Pushed before the guard: edits at one place apply in the order pushed.
        self.edits.push(TextEdit::insert(at, text));
        if opens_block {
            self.guard_next(at);
        }
    }

    /// Rule 7: the line ending that text inserted at `at` needs first: one after a last
    /// line without a line ending, unless an edit there leaves one.
    pub(super) fn line_start(&self, at: usize) -> &'a str {
        let src = self.src().as_bytes();
        let ended = |e: &TextEdit| ends_line_at(src, e, at);
        if at > 0 && src[at - 1] != b'\n' && !self.edits.iter().any(ended) {
            self.eol
        } else {
            ""
        }
    }

    /// Rule 5: the edits that delete node `i`: its header and value lines go, the
    /// comment and blank lines inside it stay ([`lines_between`]); a `Key: value` line
    /// that it kept out of the block before it becomes `; Key: value` (rule 8).
    pub(super) fn delete(&mut self, i: usize) {
        let (nodes, deleted) = (&self.nodes, &self.deleted);
        let node = &nodes[i];
        let kept = if node.one_line {
            String::new()
        } else {
            let values: Vec<usize> = (self.doc.value_spans(node.index))
                .map(|r| r.start)
                .collect();
            let header = self.doc.key_span(node.index).start;
            lines_between(self.src(), header, node.span.end, &values)
        };
        let before = (0..i).rev().find(|&j| !deleted[j]);
        let after = (i + 1..nodes.len()).find(|&j| !deleted[j]);
        let guard = match (before, after) {
            (Some(b), Some(a)) => (!nodes[b].one_line
                && nodes[a].compact
                && (b + 1..a).all(|j| deleted[j])
                && i == a - 1)
                .then_some(nodes[a].span.start),
            _ => None,
        };
        self.edits.push(TextEdit::new(node.span.clone(), kept));
        self.edits
            .extend(guard.map(|at| TextEdit::insert(at, GUARD)));
    }

    /// Rule 6: the value lines `lines` of property `key` (at node `n` of the file, if
    /// any) as written: token lists in the separator style of the property's own lines,
    /// or of the file's (its first token list's) for a new one.
    pub(super) fn styled(&self, key: &str, n: Option<usize>, lines: &[&str]) -> Vec<String> {
        let sep = match n {
            Some(n) => self.separator(&self.nodes[n]),
            None if self.map.holds_token_lists(key) => *self
                .file_separator
                .get_or_init(|| self.nodes.iter().find_map(|n| self.separator(n))),
            None => None,
        };
        lines.iter().map(|l| restyle(l, sep).into_owned()).collect()
    }

    /// Rule 6: the separator of the token lists of `node`, as written, when they are
    /// some.
    fn separator(&self, node: &Node<'_>) -> Option<&'a str> {
        (self.map.holds_token_lists(node.canonical))
            .then(|| self.doc.value_lines(node.index).find_map(separator_of))
            .flatten()
    }

    /// Rule 8: the first node that stays at or after byte `at` (comments and blank
    /// lines between change nothing).
    pub(super) fn next_kept(&self, at: usize) -> Option<&Node<'a>> {
        // Nodes are in file order.
        let from = self.nodes.partition_point(|n| n.span.start < at);
        (from..self.nodes.len())
            .find(|&j| !self.deleted[j])
            .map(|j| &self.nodes[j])
    }

    /// Rule 8: after a block written at or ending at `at`, the first node that stays
    /// after it gets `; ` when it is a `Key: value` line, which the block would swallow.
    pub(super) fn guard_next(&mut self, at: usize) {
        if let Some(next) = self.next_kept(at).filter(|n| n.compact) {
            let at = next.span.start;
            self.edits.push(TextEdit::insert(at, GUARD));
        }
    }

    /// Rule 9: whether property `key` of the new text, with the value lines `lines`, is
    /// a `Kind` that node `n` names by an alias of the class (`#[jasset(name = "New",
    /// alias = "Old")]`), to be given the class's name; another spelling of the name
    /// stays.
    pub(super) fn names_kind_by_alias(&self, n: usize, key: &str, lines: &[&str]) -> bool {
        let index = self.nodes[n].index;
        key == keys::KIND.name
            && !(self.doc.value_lines(index).count() == lines.len()
                && (self.doc.value_lines(index).zip(lines)).all(|(a, b)| keys_equal(a, b)))
    }

    /// Rule 9: a property written under an alias of its key gets its current key: the
    /// key alone changes (one whose lines are replaced as a whole has it already).
    pub(super) fn rename_aliases(&mut self) {
        for (i, node) in self.nodes.iter().enumerate() {
            let whole = |e: &TextEdit| e.range == node.span;
            if node.alias && !self.deleted[i] && !self.edits.iter().any(whole) {
                let key = self.doc.key_span(node.index);
                self.edits.push(TextEdit::new(key, node.canonical));
            }
        }
    }

    /// Rule 10: whether the edit brings the file to the current versions: a version
    /// line of the file differs from the new text's, or from the current version where
    /// the new text has none (then it is set to that version).
    pub(super) fn is_migrating(&self) -> bool {
        VERSIONS.iter().any(
            |&version| match (self.node_of(version), self.new.at(version)) {
                (Some(n), Some(p)) => !self.same_lines(self.nodes[n].index, &self.new.lines(p)),
                (Some(n), None) => (self.map.current_version(version)).is_some_and(|v| {
                    !self.same_lines(self.nodes[n].index, &[v.to_string().as_str()])
                }),
                _ => false,
            },
        )
    }

    /// Rule 10: migrating, the current version of `node` when it is a version line the
    /// new text has none of (an instance that overrides nothing), which stays, at that
    /// version (a revert of the last override takes the line its first override
    /// added); `None` for other nodes.
    pub(super) fn version_now(&self, node: &Node<'_>) -> Option<u32> {
        (self.migrating && VERSIONS.contains(&node.canonical))
            .then(|| self.map.current_version(node.canonical))
            .flatten()
    }

    /// Rules 5 and 10: whether `node` goes: gone from the new text (a reverted
    /// override, or a deprecated key the migration consumed, gone only when the file is
    /// brought to the new version), and not a version line that stays.
    pub(super) fn is_gone(&self, node: &Node<'_>) -> bool {
        self.new.at(node.canonical).is_none()
            && (self.migrating || self.old.at(node.canonical).is_some())
            && self.version_now(node).is_none()
    }
}

/// Rule 8: a `; ` goes once before a `Key: value` line that stays as written: several
/// rules may ask for it, and a line whose lines are replaced (an edit whose range
/// starts there) gets none.
pub(super) fn prefix_once(edits: &mut Vec<TextEdit>) {
    let replaced: HashSet<usize> = (edits.iter())
        .filter(|e| !e.is_insertion())
        .map(|e| e.range.start)
        .collect();
    let mut prefixed = HashSet::new();
    edits.retain(|e| {
        !(e.is_insertion() && e.text == GUARD)
            || (!replaced.contains(&e.range.start) && prefixed.insert(e.range.start))
    });
}
