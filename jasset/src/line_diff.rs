//! A small line diff (longest common subsequence), printed as unified-style hunks:
//! `-old`, `+new`, and a few unchanged lines of context around each change. Enough for
//! `.jasset` files, which are short; files past [`MAX_CELLS`] line pairs are shown as a
//! whole replacement.

use super::output::{Paint, Style};

/// Above this many `old x new` line pairs, the diff is "all old lines removed, all new
/// lines added" (the table would be too large).
pub(crate) const MAX_CELLS: usize = 4_000_000;

/// One line of a diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Line<'a> {
    /// In both texts.
    Same(&'a str),
    /// Only in the old text.
    Removed(&'a str),
    /// Only in the new text.
    Added(&'a str),
}

/// The line diff of `old` and `new`: a shortest edit script from the longest common
/// subsequence of their lines.
pub(crate) fn diff<'a>(old: &'a str, new: &'a str) -> Vec<Line<'a>> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    // Common prefix and suffix first: most edits are small.
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut lines: Vec<Line<'a>> = a[..prefix].iter().map(|l| Line::Same(l)).collect();
    if ma.len().saturating_mul(mb.len()) > MAX_CELLS {
        lines.extend(ma.iter().map(|l| Line::Removed(l)));
        lines.extend(mb.iter().map(|l| Line::Added(l)));
    } else {
        // lcs[i][j]: length of the LCS of ma[i..] and mb[j..].
        let w = mb.len() + 1;
        let mut lcs = vec![0u32; (ma.len() + 1) * w];
        for i in (0..ma.len()).rev() {
            for j in (0..mb.len()).rev() {
                lcs[i * w + j] = if ma[i] == mb[j] {
                    lcs[(i + 1) * w + j + 1] + 1
                } else {
                    lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < ma.len() || j < mb.len() {
            if i < ma.len() && j < mb.len() && ma[i] == mb[j] {
                lines.push(Line::Same(ma[i]));
                i += 1;
                j += 1;
            } else if i < ma.len() && (j == mb.len() || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])
            {
                // Removals first, as unified diffs show them.
                lines.push(Line::Removed(ma[i]));
                i += 1;
            } else {
                lines.push(Line::Added(mb[j]));
                j += 1;
            }
        }
    }
    lines.extend(a[a.len() - suffix..].iter().map(|l| Line::Same(l)));
    lines
}

/// The diff of `old` and `new` as text: changed lines with `-`/`+`, `context` unchanged
/// lines around each change, `...` between hunks. Empty when the texts have the same
/// lines.
pub(crate) fn render(old: &str, new: &str, context: usize, style: Style) -> String {
    let lines = diff(old, new);
    let changed: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !matches!(l, Line::Same(_)))
        .map(|(i, _)| i)
        .collect();
    let mut out = String::new();
    if changed.is_empty() {
        return out;
    }
    let mut shown_until = 0; // lines[..shown_until] are printed or skipped
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(context).max(shown_until);
        // Extend the hunk while the next change is within 2 * context lines.
        let mut end_change = changed[k];
        while k + 1 < changed.len() && changed[k + 1] <= end_change + 2 * context + 1 {
            k += 1;
            end_change = changed[k];
        }
        let end = (end_change + context + 1).min(lines.len());
        if start > shown_until || (start > 0 && shown_until == 0) {
            out.push_str(&style.paint(Paint::Cyan, "..."));
            out.push('\n');
        }
        for line in &lines[start..end] {
            let text = match line {
                Line::Same(l) => format!(" {l}"),
                Line::Removed(l) => style.paint(Paint::Red, &format!("-{l}")),
                Line::Added(l) => style.paint(Paint::Green, &format!("+{l}")),
            };
            out.push_str(&text);
            out.push('\n');
        }
        shown_until = end;
        k += 1;
    }
    if shown_until < lines.len() {
        out.push_str(&style.paint(Paint::Cyan, "..."));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_texts_have_no_diff() {
        assert_eq!(render("a\nb\n", "a\nb\n", 2, Style::plain()), "");
    }

    #[test]
    fn a_changed_line_is_removed_then_added() {
        let d = diff("a\nb\nc\n", "a\nB\nc\n");
        assert_eq!(
            d,
            [
                Line::Same("a"),
                Line::Removed("b"),
                Line::Added("B"),
                Line::Same("c")
            ]
        );
    }

    #[test]
    fn insertions_and_deletions_keep_common_lines() {
        let d = diff("x\na\nb\nc\n", "a\nb\nz\nc\nd\n");
        let same: Vec<&str> = d
            .iter()
            .filter_map(|l| match l {
                Line::Same(s) => Some(*s),
                _ => None,
            })
            .collect();
        assert_eq!(same, ["a", "b", "c"]);
        assert!(d.contains(&Line::Removed("x")));
        assert!(d.contains(&Line::Added("z")));
        assert!(d.contains(&Line::Added("d")));
    }

    #[test]
    fn render_shows_context_and_elides_the_rest() {
        let old: String = (0..20).map(|i| format!("l{i}\n")).collect();
        let new = old.replace("l10\n", "L10\n");
        let text = render(&old, &new, 1, Style::plain());
        assert_eq!(text, "...\n l9\n-l10\n+L10\n l11\n...\n");
    }
}
