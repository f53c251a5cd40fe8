//! Tests of the patcher: whole edits, then each rule of the module documentation (one
//! test a rule, `rule_N_...`): its function on a plan, and the whole edit.

use juliet_core::{keys_equal, TextEdit};

use super::plan::{Canonical, Plan};
use super::rules::prefix_once;
use super::*;

/// The keys of a class of `Mass`, `List` (several value lines) and `Health`; an
/// absent key means nothing.
struct Keys;

impl KeyMap for Keys {
    fn canonical(&self, _crc: u32, key: &str) -> Option<&'static str> {
        ["Kind", "Mass", "List", "Health"]
            .into_iter()
            .find(|k| juliet_core::keys_equal(k, key))
    }

    fn absent_means(&self, _key: &str, _lines: &[&str]) -> bool {
        false
    }
}

/// `original` edited from `old` to `new` with the keys of [`Keys`].
fn edited(original: &str, old: &str, new: &str) -> String {
    edited_as(&Keys, original, old, new)
}

/// `original` edited from `old` to `new` with the keys of `map`.
fn edited_as(map: &dyn KeyMap, original: &str, old: &str, new: &str) -> String {
    let bytes = edit(original.as_bytes(), Path::new("e"), old, new, map).unwrap();
    String::from_utf8(bytes).unwrap()
}

/// A reverted one-line property between a block and a `Key: value` line, with a
/// block inserted in its place: the `Key: value` line gets one `; `.
#[test]
fn a_line_two_rules_prefix_gets_one_prefix() {
    let original = "; Kind\nInert\n; Health: 5\nMass: 1\n";
    let old = "; Kind\nInert\n; Health\n5\n; Mass\n1\n";
    let new = "; Kind\nInert\n; List\na\nb\n; Mass\n1\n";
    assert_eq!(
        edited(original, old, new),
        "; Kind\nInert\n; List\na\nb\n; Mass: 1\n"
    );
}

/// A new property of several value lines inserted among `Key: value` lines is a
/// block, and the `Key: value` line after it becomes `; Key: value`, which the
/// block cannot swallow.
#[test]
fn a_block_inserted_before_a_compact_line_does_not_swallow_it() {
    let original = "Kind: Inert\nMass: 1\nHealth: 2\n";
    let old = "; Kind\nInert\n; Mass\n1\n; Health\n2\n";
    let new = "; Kind\nInert\n; Mass\n1\n; List\na\nb\n; Health\n2\n";
    assert_eq!(
        edited(original, old, new),
        "Kind: Inert\nMass: 1\n; List\na\nb\n; Health: 2\n"
    );
}

/// A value that loses its last line at an unterminated end, with a property added
/// after it: the line before the one that goes ends the value, no blank line.
#[test]
fn a_property_added_after_a_shrunk_value_at_an_unterminated_end() {
    let original = "; Kind\nInert\n; List\nq\nr";
    let old = "; Kind\nInert\n; List\nq\nr\n";
    let new = "; Kind\nInert\n; List\nz\n; Mass\n1\n";
    assert_eq!(
        edited(original, old, new),
        "; Kind\nInert\n; List\nz\n; Mass\n1\n"
    );
}

/// Two properties added after an unterminated last line: one line ending goes
/// before the first, none between them (LF and CRLF).
#[test]
fn properties_added_at_an_unterminated_end_are_not_split_by_a_blank_line() {
    for eol in ["\n", "\r\n"] {
        let original = format!("; Kind{eol}Inert{eol}; Mass{eol}5.0");
        let old = "; Kind\nInert\n; Mass\n5.0\n";
        let new = "; Kind\nInert\n; Mass\n5.0\n; List\na\nb\n; Health\n9\n";
        assert_eq!(
            edited(&original, old, new),
            format!("{original}{eol}; List{eol}a{eol}b{eol}; Health{eol}9{eol}")
        );
    }
}

/// A changed value of several lines is replaced line for line: the comments and
/// blank lines between its value lines stay, lines beyond the old ones follow the
/// last, and old lines beyond the new ones go (CRLF kept).
#[test]
fn value_lines_are_replaced_line_for_line_and_comments_between_stay() {
    let original = "; Kind\nInert\n; List\nalpha\n# keep me\n\nbeta\n; Mass\n1\n";
    let old = "; Kind\nInert\n; List\nalpha\nbeta\n; Mass\n1\n";
    let longer = "; Kind\nInert\n; List\nalpha\nbeta\ngamma\n; Mass\n1\n";
    assert_eq!(
        edited(original, old, longer),
        "; Kind\nInert\n; List\nalpha\n# keep me\n\nbeta\ngamma\n; Mass\n1\n"
    );
    let shorter = "; Kind\nInert\n; List\ndelta\n; Mass\n1\n";
    assert_eq!(
        edited(original, old, shorter),
        "; Kind\nInert\n; List\ndelta\n# keep me\n\n; Mass\n1\n"
    );
    let crlf = original.replace('\n', "\r\n");
    assert_eq!(
        edited(&crlf, old, longer),
        "; Kind\nInert\n; List\nalpha\n# keep me\n\nbeta\ngamma\n; Mass\n1\n".replace('\n', "\r\n")
    );
}

/// Added lines end as most lines of the file do: one stray CRLF line in an LF file
/// does not make them CRLF, and one LF line in a CRLF file does not make them LF.
#[test]
fn added_lines_take_the_line_ending_of_most_lines() {
    let old = "; Kind\nInert\n; Mass\n1\n";
    let new = "; Kind\nInert\n; Mass\n1\n; Health\n5\n";
    let mostly_lf = "; Kind\r\nInert\n; Mass\n1\n";
    assert_eq!(
        edited(mostly_lf, old, new),
        "; Kind\r\nInert\n; Mass\n1\n; Health\n5\n"
    );
    let mostly_crlf = "; Kind\r\nInert\r\n; Mass\r\n1\n";
    assert_eq!(
        edited(mostly_crlf, old, new),
        "; Kind\r\nInert\r\n; Mass\r\n1\n; Health\r\n5\r\n"
    );
    // Half is not most; a last line without a line ending has no say.
    assert_eq!(line_ending(b"a\r\nb\n"), "\n");
    assert_eq!(line_ending(b"a\r\nb\nc"), "\n");
    assert_eq!(line_ending(b"a\r\nb"), "\r\n");
    assert_eq!(line_ending(b"a\r\nb\r\nc"), "\r\n");
    assert_eq!(line_ending(b"a"), "\n");
    assert_eq!(line_ending(b""), "\n");
    // A CRLF file whose last line is unterminated gets CRLF lines.
    let unterminated = "; Kind\r\nInert\r\n; Mass\r\n1";
    assert_eq!(
        edited(unterminated, old, new),
        "; Kind\r\nInert\r\n; Mass\r\n1\r\n; Health\r\n5\r\n"
    );
}

/// A class of `Kind`, `Mass` (alias `Weight`), `List` and `Position` (token lists),
/// `Health` and `ClassVersion` (current: 2); an absent key means nothing.
struct Class;

impl KeyMap for Class {
    fn canonical(&self, _crc: u32, key: &str) -> Option<&'static str> {
        if keys_equal(key, "Weight") {
            return Some("Mass");
        }
        ["Kind", "Mass", "List", "Position", "Health", "ClassVersion"]
            .into_iter()
            .find(|k| keys_equal(k, key))
    }

    fn absent_means(&self, _key: &str, _lines: &[&str]) -> bool {
        false
    }

    fn current_version(&self, key: &str) -> Option<u32> {
        (key == "ClassVersion").then_some(2)
    }

    fn holds_token_lists(&self, key: &str) -> bool {
        key == "List" || key == "Position"
    }

    fn is_alias(&self, _crc: u32, key: &str) -> bool {
        keys_equal(key, "Weight")
    }
}

/// `check` of the plan of the edit of `original` from `old` to `new` (LF lines).
fn with_plan<R>(original: &str, old: &str, new: &str, check: impl FnOnce(&mut Plan<'_>) -> R) -> R {
    let (mut file, mut before, mut after) =
        (TokenBuffer::new(), TokenBuffer::new(), TokenBuffer::new());
    let doc = file.tokenize(original.as_bytes(), Path::new("t")).unwrap();
    let old = Canonical::read(&mut before, old).unwrap();
    let new = Canonical::read(&mut after, new).unwrap();
    check(&mut Plan::new(doc, old, new, &Class, "\n"))
}

/// The byte range of `part` in `text` (its first occurrence).
fn range_of(text: &str, part: &str) -> std::ops::Range<usize> {
    let at = text.find(part).unwrap();
    at..at + part.len()
}

#[test]
fn rule_1_an_unchanged_property_keeps_its_lines() {
    let original = "; Kind\nInert\n; mass: 1.000\n; List\na\n";
    let old = "; Kind\nInert\n; Mass\n1\n; List\na\n";
    let new = "; Kind\nInert\n; Mass\n1\n; List\nb\n";
    with_plan(original, old, new, |plan| {
        let mass = plan.node_of("Mass").unwrap();
        assert!(plan.keeps(mass, "Mass", &["1"]));
        assert!(!plan.keeps(mass, "Mass", &["2"]));
    });
    assert_eq!(
        edited_as(&Class, original, old, new),
        "; Kind\nInert\n; mass: 1.000\n; List\nb\n"
    );
}

#[test]
fn rule_2_a_value_of_several_lines_on_one_line_becomes_a_block_under_its_spelling() {
    let original = "Kind: Inert\nlist: a\nHealth: 2\n";
    let old = "; Kind\nInert\n; List\na\n; Health\n2\n";
    let new = "; Kind\nInert\n; List\na\nb\n; Health\n2\n";
    with_plan(original, old, new, |plan| {
        let list = plan.node_of("List").unwrap();
        plan.replace_value(list, "List", &["a", "b"]);
        let health = original.find("Health").unwrap();
        let expected = [
            TextEdit::new(range_of(original, "list: a\n"), "; list\na\nb\n"),
            TextEdit::insert(health, "; "),
        ];
        assert_eq!(plan.edits, expected);
    });
    assert_eq!(
        edited_as(&Class, original, old, new),
        "Kind: Inert\n; list\na\nb\n; Health: 2\n"
    );
}

#[test]
fn rule_3_a_new_property_goes_after_its_neighbour_or_in_the_place_of_one_that_goes() {
    let original = "# top\n; Kind\nInert\n# about health\n; Health\n5\n; Mass\n1\n";
    let old = "; Kind\nInert\n; Mass\n1\n; Health\n5\n";
    let new = "; Kind\nInert\n; List\na\nb\n; Mass\n1\n";
    with_plan(original, old, new, |plan| {
        let (kind, health, mass) = (0, 1, 2);
        let health_end = range_of(original, "; Health\n5\n").end;
        assert_eq!(plan.insertion_point(Some(kind)), (health_end, Some(health)));
        assert_eq!(plan.insertion_point(Some(mass)), (original.len(), None));
        assert_eq!(
            plan.insertion_point(None),
            (original.find("; Kind").unwrap(), None)
        );
    });
    assert_eq!(
        edited_as(&Class, original, old, new),
        "# top\n; Kind\nInert\n# about health\n; List\na\nb\n; Mass\n1\n"
    );
}

#[test]
fn rule_4_a_new_line_takes_the_form_of_its_neighbours() {
    let old = "; Kind\nInert\n; Mass\n1\n";
    let form = |original: &str, new: &str| {
        with_plan(original, old, new, |plan| {
            plan.one_line_form(original.len(), None)
        })
    };
    assert_eq!(form("Kind: Inert\nMass: 1\n", old), Some(""));
    assert_eq!(form("; Kind: Inert\n; Mass: 1\n", old), Some("; "));
    assert_eq!(form("; Kind\nInert\n; Mass\n1\n", old), None);
    // A one-line value that becomes a block opens one before `at`.
    let original = "Kind: Inert\nList: a\nMass: 1\n";
    let old = "; Kind\nInert\n; List\na\n; Mass\n1\n";
    let new = "; Kind\nInert\n; List\na\nb\n; Mass\n1\n";
    let after_list = original.find("Mass").unwrap();
    let form = with_plan(original, old, new, |plan| {
        plan.one_line_form(after_list, None)
    });
    assert_eq!(form, Some("; "));
    let added = "; Kind\nInert\n; Mass\n1\n; Health\n5\n";
    assert_eq!(
        edited_as(&Class, "Kind: Inert\nMass: 1\n", old, added),
        "Kind: Inert\nMass: 1\nHealth: 5\n"
    );
}

#[test]
fn rule_5_a_property_that_goes_leaves_the_comments_inside_it() {
    let original = "; Kind\nInert\n; List\na\n# note\nb\n; Mass\n1\n";
    let old = "; Kind\nInert\n; List\na\nb\n; Mass\n1\n";
    let new = "; Kind\nInert\n; Mass\n1\n";
    with_plan(original, old, new, |plan| {
        let list = plan.node_of("List").unwrap();
        assert!(plan.deleted[list]);
        plan.delete(list);
        let whole = range_of(original, "; List\na\n# note\nb\n");
        assert_eq!(plan.edits, [TextEdit::new(whole, "# note\n")]);
    });
    assert_eq!(
        edited_as(&Class, original, old, new),
        "; Kind\nInert\n# note\n; Mass\n1\n"
    );
    // A `Key: value` line it kept out of the block before it gets `; `.
    let original = "; List\na\nb\n; Health: 5\nMass: 1\n";
    let old = "; List\na\nb\n; Health\n5\n; Mass\n1\n";
    let new = "; List\na\nb\n; Mass\n1\n";
    assert_eq!(
        edited_as(&Class, original, old, new),
        "; List\na\nb\n; Mass: 1\n"
    );
}

#[test]
fn rule_6_token_lists_keep_the_files_separators() {
    let original = "; Kind\nInert\n; Position\n1, 2, 3\n";
    let old = "; Kind\nInert\n; Position\n1 2 3\n";
    let new = "; Kind\nInert\n; Position\n4 5 6\n; List\n7 8\n; Mass\n1 2\n";
    with_plan(original, old, new, |plan| {
        let position = plan.node_of("Position");
        assert_eq!(plan.styled("Position", position, &["4 5 6"]), ["4, 5, 6"]);
        assert_eq!(plan.styled("List", None, &["7 8"]), ["7, 8"]);
        assert_eq!(plan.styled("Mass", None, &["1 2"]), ["1 2"]);
    });
    assert_eq!(
        edited_as(&Class, original, old, new),
        "; Kind\nInert\n; Position\n4, 5, 6\n; List\n7, 8\n; Mass\n1 2\n"
    );
}

#[test]
fn rule_7_text_added_after_an_unterminated_last_line_gets_a_line_ending_first() {
    let original = "; Kind\nInert\n; Mass\n1";
    let old = "; Kind\nInert\n; Mass\n1\n";
    with_plan(original, old, old, |plan| {
        assert_eq!(plan.line_start(original.len()), "\n");
        assert_eq!(plan.line_start(original.find("; Mass").unwrap()), "");
        let last = range_of(original, "1");
        plan.edits.push(TextEdit::new(last, "2\n"));
        assert_eq!(plan.line_start(original.len()), "");
    });
    let new = "; Kind\nInert\n; Mass\n1\n; Health\n5\n";
    assert_eq!(
        edited_as(&Class, original, old, new),
        format!("{original}\n; Health\n5\n")
    );
    // In the place of a property that goes, the lines kept of it end one already.
    let original = "; Kind\nInert\n; Health\n5";
    let old = "; Kind\nInert\n; Health\n5\n";
    let new = "; Kind\nInert\n; List\na\nb\n";
    assert_eq!(
        edited_as(&Class, original, old, new),
        "; Kind\nInert\n; List\na\nb\n"
    );
}

#[test]
fn rule_8_a_compact_line_after_a_block_gets_one_prefix_unless_replaced() {
    let original = "; Kind: Inert\nMass: 1\n";
    with_plan(original, "", "", |plan| {
        plan.guard_next(0);
        assert!(plan.edits.is_empty(), "`; Kind: Inert` needs no prefix");
        plan.guard_next(original.find("Mass").unwrap());
        assert_eq!(
            plan.edits,
            [TextEdit::insert(original.find("Mass").unwrap(), "; ")]
        );
    });
    let mut edits = vec![
        TextEdit::insert(5, "; "),
        TextEdit::insert(5, "; "),
        TextEdit::insert(9, "; "),
        TextEdit::new(9..12, "x"),
        TextEdit::insert(14, "# "),
        TextEdit::insert(14, "# "),
    ];
    prefix_once(&mut edits);
    let once = [
        TextEdit::insert(5, "; "),
        TextEdit::new(9..12, "x"),
        TextEdit::insert(14, "# "),
        TextEdit::insert(14, "# "),
    ];
    assert_eq!(edits, once);
}

#[test]
fn rule_9_an_alias_gets_the_current_key_and_a_kind_alias_the_class_name() {
    let original = "; Kind\nOldInert\n; Weight: 2\n";
    let old = "; Kind\nInert\n; Mass\n2\n";
    let new = "; Kind\nInert\n; Mass\n2\n; Health\n1\n";
    with_plan(original, old, new, |plan| {
        assert!(plan.names_kind_by_alias(0, "Kind", &["Inert"]));
        assert!(!plan.names_kind_by_alias(0, "Kind", &["old_inert"]));
        plan.rename_aliases();
        assert_eq!(
            plan.edits,
            [TextEdit::new(range_of(original, "Weight"), "Mass")]
        );
    });
    assert_eq!(
        edited_as(&Class, original, old, new),
        "; Kind\nInert\n; Mass: 2\n; Health: 1\n"
    );
    // A value made a block is written under the current key: no second rename.
    let several = "; Kind\nInert\n; Mass\n2\n3\n";
    assert_eq!(
        edited_as(&Class, "; Kind\nInert\n; Weight: 2\n", old, several),
        "; Kind\nInert\n; Mass\n2\n3\n"
    );
}

#[test]
fn rule_10_a_file_at_an_older_version_is_brought_to_the_current_one() {
    // A key neither text has goes only when the file is migrated.
    let original = "; ClassVersion\n1\n; Speed\n5\n";
    let migrated = with_plan(
        original,
        "; ClassVersion\n1\n",
        "; ClassVersion\n2\n",
        |plan| (plan.migrating, plan.deleted.clone()),
    );
    assert_eq!(migrated, (true, vec![false, true]));
    let current = with_plan(
        original,
        "; ClassVersion\n1\n",
        "; ClassVersion\n1\n",
        |plan| (plan.migrating, plan.deleted.clone()),
    );
    assert_eq!(current, (false, vec![false, false]));
    // A version line the new text has none of stays, at the current version.
    let original = "; Kind\nInert\n; ClassVersion\n1\n";
    let new = "; Kind\nInert\n";
    with_plan(original, new, new, |plan| {
        assert!(plan.migrating);
        let version = plan.node_of("ClassVersion").unwrap();
        assert_eq!(plan.version_now(&plan.nodes[version]), Some(2));
        assert!(!plan.deleted[version]);
    });
    assert_eq!(
        edited_as(&Class, original, new, new),
        "; Kind\nInert\n; ClassVersion\n2\n"
    );
    assert_eq!(
        edited_as(
            &Class,
            "; ClassVersion\n1\n; Speed\n5\n",
            "; ClassVersion\n1\n",
            "; ClassVersion\n2\n; Mass\n5\n"
        ),
        "; ClassVersion\n2\n; Mass\n5\n"
    );
}
