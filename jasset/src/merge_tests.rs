//! Tests of `jasset merge` (`merge.rs`): the cases by hand, then a proptest over random
//! documents.

use std::path::Path;

use proptest::prelude::*;

use super::*;

fn asset(text: &str) -> Asset {
    read_asset(text.as_bytes().to_vec(), Path::new("m.jasset"), None).unwrap()
}

fn merged(base: &str, ours: &str, theirs: &str) -> (String, Vec<Conflict>) {
    let m = merge(&asset(base), &asset(ours), &asset(theirs));
    (String::from_utf8(m.bytes).unwrap(), m.conflicts)
}

/// The properties of `text` as `(key, value)` (values as the codecs read them), sorted.
fn semantic(text: &str) -> Vec<(String, Vec<String>)> {
    let a = asset(text);
    let mut props: Vec<_> = (a.props.iter())
        .map(|p| {
            (
                juliet_core::normalize_key(a.name(p)),
                owned(a.value_lines(p).collect()),
            )
        })
        .collect();
    props.sort();
    props
}

const BASE: &str =
    "# a rock\n; EntityID\n0x0000000000000042\n; Kind\nInert\n\n; Mass\n250.0\n; Health: 40.0\n";

#[test]
fn changes_of_different_properties_both_land_and_the_layout_stays() {
    let ours = BASE.replace("250.0", "300.0");
    let theirs = BASE.replace("40.0", "55.0");
    let (text, conflicts) = merged(BASE, &ours, &theirs);
    assert!(conflicts.is_empty());
    assert_eq!(
        text,
        "# a rock\n; EntityID\n0x0000000000000042\n; Kind\nInert\n\n; Mass\n300.0\n; Health: 55.0\n"
    );
}

#[test]
fn the_same_change_on_both_sides_is_no_conflict() {
    let ours = BASE.replace("250.0", "300.0");
    let theirs = BASE.replace("250.0", "300.00");
    let (text, conflicts) = merged(BASE, &ours, &theirs);
    assert!(conflicts.is_empty());
    assert_eq!(text, ours);
}

#[test]
fn different_changes_of_one_property_are_a_conflict_block_check_refuses() {
    let ours = BASE.replace("250.0", "300.0");
    let theirs = BASE.replace("250.0", "400.0");
    let (text, conflicts) = merged(BASE, &ours, &theirs);
    assert_eq!(conflicts.len(), 1);
    assert_eq!((conflicts[0].key.as_str(), conflicts[0].line), ("Mass", 7));
    assert!(text.contains(
        "\n<<<<<<< ours\n; Mass: 300.0\n=======\n; Mass: 400.0\n>>>>>>> theirs\n; Health: 40.0\n"
    ));
    let err = juliet_core::TokenBuffer::new()
        .tokenize(text.as_bytes(), Path::new("m"))
        .unwrap_err();
    assert_eq!((err.location.line, err.location.column), (7, 1));
    // Keeping either side (deleting the other and the markers) gives a valid file.
    let keep_theirs = text.replace("<<<<<<< ours\n; Mass: 300.0\n=======\n", "");
    let keep_theirs = keep_theirs.replace(">>>>>>> theirs\n", "");
    assert_eq!(semantic(&keep_theirs), semantic(&theirs));
}

#[test]
fn identity_keys_changed_on_both_sides_conflict() {
    let ours = BASE
        .replace("Inert", "Collectible")
        .replace("; Mass\n250.0\n", "");
    let theirs = BASE
        .replace("Inert", "Projectile")
        .replace("; Mass\n250.0\n", "");
    let (_, conflicts) = merged(BASE, &ours, &theirs);
    assert!(conflicts.iter().any(|c| c.key == "Kind"), "{conflicts:?}");
    let ours = BASE.replace("0x0000000000000042", "0x0000000000000043");
    let theirs = BASE.replace("0x0000000000000042", "0x0000000000000044");
    let (_, conflicts) = merged(BASE, &ours, &theirs);
    assert_eq!(conflicts[0].key, "EntityID");
}

#[test]
fn additions_and_removals_on_one_side_are_applied() {
    // THEIRS adds an unknown key after Kind and removes Health; OURS respells Mass.
    let ours = BASE.replace("; Mass\n250.0", "; mass\n250.00");
    let theirs = BASE
        .replace("; Kind\nInert\n", "; Kind\nInert\n; Glow\n1 2\n")
        .replace("; Health: 40.0\n", "");
    let (text, conflicts) = merged(BASE, &ours, &theirs);
    assert!(conflicts.is_empty());
    assert_eq!(
        text,
        "# a rock\n; EntityID\n0x0000000000000042\n; Kind\nInert\n; Glow\n1 2\n\n; mass\n250.00\n"
    );
}

#[test]
fn a_removal_against_a_change_is_a_conflict_with_an_empty_side() {
    let ours = BASE.replace("; Health: 40.0\n", "");
    let theirs = BASE.replace("40.0", "41.0");
    let (text, conflicts) = merged(BASE, &ours, &theirs);
    assert_eq!(conflicts[0].ours, None);
    assert!(text.ends_with("<<<<<<< ours\n=======\n; Health: 41.0\n>>>>>>> theirs\n"));
}

/// An entity whose unknown `Notes` block has a comment and a blank line between its
/// value lines: `notes` are its value lines, one a string.
fn with_notes(notes: &[&str]) -> String {
    let mut text = String::from("; Kind: Inert\n; Notes\n");
    for (i, line) in notes.iter().enumerate() {
        text.push_str(line);
        text.push('\n');
        match i {
            0 => text.push_str("# keep this\n"),
            1 => text.push('\n'),
            _ => {}
        }
    }
    text + "; Mass: 1.0\n"
}

#[test]
fn a_value_taken_from_theirs_replaces_value_lines_and_keeps_the_comments_between() {
    let base = with_notes(&["first", "second", "third"]);
    for (theirs, want) in [
        (
            with_notes(&["first", "changed", "third"]),
            "; Notes\nfirst\n# keep this\nchanged\n\nthird\n",
        ),
        // Fewer lines: the lines past THEIRS's go, the comment and blank line stay.
        (
            "; Kind: Inert\n; Notes\nonly\n; Mass: 1.0\n".to_owned(),
            "; Notes\nonly\n# keep this\n\n",
        ),
        // More lines: after OURS's last.
        (
            "; Kind: Inert\n; Notes\na\nb\nc\nd\n; Mass: 1.0\n".to_owned(),
            "; Notes\na\n# keep this\nb\n\nc\nd\n",
        ),
    ] {
        let (text, conflicts) = merged(&base, &base, &theirs);
        assert!(conflicts.is_empty());
        assert_eq!(text, format!("; Kind: Inert\n{want}; Mass: 1.0\n"));
        assert_eq!(semantic(&text), semantic(&theirs));
    }
}

#[test]
fn a_block_theirs_removes_leaves_the_comments_inside_it() {
    let base = with_notes(&["first", "second", "third"]);
    let theirs = "; Kind: Inert\n; Mass: 1.0\n";
    let (text, conflicts) = merged(&base, &base, theirs);
    assert!(conflicts.is_empty());
    assert_eq!(text, "; Kind: Inert\n# keep this\n\n; Mass: 1.0\n");
}

#[test]
fn a_conflicting_block_keeps_ours_comments_after_the_conflict_then_theirs() {
    let base = with_notes(&["first", "second", "third"]);
    let ours = with_notes(&["first", "ours", "third"]);
    let theirs = with_notes(&["first", "theirs", "third"]).replace("keep this", "their note");
    let (text, conflicts) = merged(&base, &ours, &theirs);
    assert_eq!(conflicts.len(), 1);
    // THEIRS's edit of the comment inside the block is kept after OURS's comments.
    assert!(
        text.contains(">>>>>>> theirs\n# keep this\n\n# their note\n; Mass: 1.0\n"),
        "{text}"
    );
}

#[test]
fn comments_theirs_added_land_after_the_property_before_them() {
    let ours = BASE.replace("250.0", "300.0");
    let theirs = BASE
        .replace("; Mass\n", "# heavy\n; Mass\n")
        .replace("; Health: 40.0\n", "; Health: 40.0\n// the end\n");
    let (text, conflicts) = merged(BASE, &ours, &theirs);
    assert!(conflicts.is_empty());
    assert_eq!(
        text,
        "# a rock\n; EntityID\n0x0000000000000042\n; Kind\nInert\n# heavy\n\n; Mass\n300.0\n; Health: 40.0\n// the end\n"
    );
}

#[test]
fn a_comment_one_side_edited_is_replaced_and_one_both_edited_keeps_both() {
    let edit = |text: &str| BASE.replace("# a rock", text);
    // THEIRS edited it, OURS changed a value: THEIRS's text, at the top.
    let (text, _) = merged(BASE, &BASE.replace("250.0", "1.0"), &edit("# a big rock"));
    assert_eq!(text, edit("# a big rock").replace("250.0", "1.0"));
    // OURS edited it: OURS's text.
    let (text, _) = merged(BASE, &edit("# a small rock"), BASE);
    assert_eq!(text, edit("# a small rock"));
    // Both, differently: both texts, THEIRS's first (it goes in at the top).
    let (text, conflicts) = merged(BASE, &edit("# a small rock"), &edit("# a big rock"));
    assert!(conflicts.is_empty());
    assert_eq!(text, edit("# a big rock\n# a small rock"));
    // Both, alike: once.
    let (text, _) = merged(BASE, &edit("# a big rock"), &edit("# a big rock"));
    assert_eq!(text, edit("# a big rock"));
}

#[test]
fn a_comment_theirs_added_after_an_unterminated_last_line_starts_a_line() {
    let base = "; Kind: Inert\n; Mass: 1.0";
    let theirs = "; Kind: Inert\n; Mass: 1.0\n# done\n";
    let (text, _) = merged(base, base, theirs);
    assert_eq!(text, "; Kind: Inert\n; Mass: 1.0\n# done\n");
    // CRLF: the added line too.
    let base = "; Kind: Inert\r\n; Mass: 1.0\r\n";
    let theirs = "# top\r\n; Kind: Inert\r\n; Mass: 1.0\r\n";
    let (text, _) = merged(base, base, theirs);
    assert_eq!(text, theirs);
}

#[test]
fn a_block_taking_a_value_that_reads_as_a_comment_keeps_its_comments() {
    // THEIRS's one line would read as a comment under a block header: `; Key: value`.
    let base = with_notes(&["first", "second", "third"]);
    let theirs = "; Kind: Inert\n; Notes: #tag\n; Mass: 1.0\n";
    let (text, conflicts) = merged(&base, &base, theirs);
    assert!(conflicts.is_empty());
    assert_eq!(
        text,
        "; Kind: Inert\n; Notes: #tag\n# keep this\n\n; Mass: 1.0\n"
    );
    assert_eq!(semantic(&text), semantic(theirs));
}

#[test]
fn a_value_that_shrinks_at_an_unterminated_end_takes_no_blank_line_before_an_addition() {
    let base = "; Kind: Inert\n; Notes\na\nb";
    let theirs = "; Kind: Inert\n; Notes\na\n; Mass: 3.0\n";
    let (text, conflicts) = merged(base, base, theirs);
    assert!(conflicts.is_empty());
    assert_eq!(text, theirs);
}

#[test]
fn properties_theirs_adds_after_an_unterminated_end_are_not_split_by_a_blank_line() {
    let base = "; EntityID\n0x0000000000000002\n; Kind\nInert\n";
    let ours = base.trim_end();
    let theirs = format!("{base}; Mass\n3.0\n; Health\n4.0\n");
    let (text, conflicts) = merged(base, ours, &theirs);
    assert!(conflicts.is_empty());
    assert_eq!(text, theirs);
}

#[test]
fn a_new_one_line_property_is_written_so_that_it_fits_anywhere() {
    // Between a block and a `Key: value` line: `; Key: value`, a property anywhere.
    let base = "; Kind: Inert\nMass: 1.0\n";
    let theirs = "; Kind: Inert\nGlow: 3\nMass: 1.0\n";
    let (text, _) = merged(base, base, theirs);
    assert_eq!(text, "; Kind: Inert\n; Glow: 3\nMass: 1.0\n");
}

#[test]
fn a_block_taken_before_a_compact_line_keeps_it_a_property() {
    let base = "; Kind: Inert\n; Tags: a\nMass: 1.0\n";
    let theirs = "; Kind: Inert\n; Tags\na\nb\nMass: 1.0\n";
    let (text, conflicts) = merged(base, base, theirs);
    assert!(conflicts.is_empty());
    assert_eq!(semantic(&text), semantic(theirs));
}

#[test]
fn crlf_and_byte_order_mark_of_ours_are_kept() {
    let base = "\u{feff}; Kind\r\nInert\r\n; Mass\r\n1.0\r\n";
    // THEIRS's new property comes in THEIRS's block form, with OURS's line endings.
    let theirs = "; Kind\nInert\n; Mass\n2.0\n; Health\n3.0\n";
    let m = merge(&asset(base), &asset(base), &asset(theirs));
    assert_eq!(
        m.bytes,
        "\u{feff}; Kind\r\nInert\r\n; Mass\r\n2.0\r\n; Health\r\n3.0\r\n".as_bytes()
    );
}

#[test]
fn a_side_with_a_bad_value_still_compares_its_other_values_canonically() {
    // OURS does not load (Health), yet its `Mass: 1` is BASE's `1.0`: THEIRS's change
    // lands, and OURS's Health stays.
    let base = "; Kind: Inert\n; Mass: 1.0\n; Health: 5\n";
    let ours = "; Kind: Inert\n; Mass: 1\n; Health: abc\n";
    let theirs = "; Kind: Inert\n; Mass: 3\n; Health: 5\n";
    assert!(asset(ours).load_error.is_some());
    let (text, conflicts) = merged(base, ours, theirs);
    assert!(conflicts.is_empty(), "{conflicts:?}");
    assert_eq!(text, "; Kind: Inert\n; Mass: 3\n; Health: abc\n");
}

#[test]
fn a_side_that_does_not_load_compares_its_base_keys_canonically_too() {
    let base = "; EntityID: 0x42\n; Kind: Inert\n; Mass: 1\n";
    let ours = "; id: 0x42\n; class: inert\n; Mass: 1\n; Health: abc\n";
    let theirs = "; EntityID: 0x43\n; Kind: Inert\n; Mass: 1\n";
    let (text, conflicts) = merged(base, ours, theirs);
    assert!(conflicts.is_empty(), "{conflicts:?}");
    assert_eq!(
        text,
        "; id: 0x43\n; class: inert\n; Mass: 1\n; Health: abc\n"
    );
}

/// The conflict block that starts at 1-based `line` of `text`, through its last marker.
fn block_at(text: &str, line: u32) -> String {
    let lines: Vec<&str> = text.lines().skip(line as usize - 1).collect();
    assert_eq!(
        lines.first().copied(),
        Some(OURS_MARKER),
        "line {line} of:\n{text}"
    );
    let end = lines.iter().position(|l| *l == THEIRS_MARKER).unwrap();
    lines[..=end].join("\n")
}

#[test]
fn conflicts_at_one_place_are_listed_at_their_own_lines() {
    // OURS removed Health, which THEIRS changed: THEIRS's block goes in before OURS's
    // first property, whose own conflict (Mass) starts at the same byte.
    let base = "; Health: 1\n; Mass: 1\n; Kind: Inert\n";
    let ours = "; Mass: 2\n; Kind: Inert\n";
    let theirs = "; Health: 5\n; Mass: 3\n; Kind: Inert\n";
    let (text, conflicts) = merged(base, ours, theirs);
    assert_eq!(conflicts.len(), 2, "{conflicts:?}");
    for c in &conflicts {
        assert!(
            block_at(&text, c.line).contains(&format!("; {}:", c.key)),
            "{c:?}\n{text}"
        );
    }
    assert!(conflicts[0].line < conflicts[1].line);
}

#[test]
fn a_conflict_after_a_block_is_not_taken_for_a_compact_line() {
    // THEIRS reads `Aura: 1` as a value line of Notes (Aura removed), and removes Mass;
    // OURS changed Aura: the conflict block replaces OURS's `Aura: 5` line whole.
    let base = "; Kind: Inert\n; Notes\na\n; Mass: 2\nAura: 1\n";
    let ours = "; Kind: Inert\n; Notes\nb\n; Mass: 2\nAura: 5\n";
    let theirs = "; Kind: Inert\n; Notes\na\nAura: 1\n";
    let (text, conflicts) = merged(base, ours, theirs);
    assert!(!text.contains("; <<<<<<<"), "{text}");
    let aura = conflicts
        .iter()
        .find(|c| c.key == "Aura")
        .expect("Aura conflicts");
    assert!(block_at(&text, aura.line).contains("; Aura: 5"), "{text}");
    for c in &conflicts {
        block_at(&text, c.line);
    }
}

#[test]
fn a_guard_goes_after_the_insertions_at_its_line() {
    // THEIRS adds a block (N1) and changes N2, which OURS removed, both before `Y: 1`:
    // the `; ` that keeps Y a property stands right before Y, after both insertions.
    let base = "; Kind: Inert\nX: 1\nN2: 1\nY: 1\n";
    let ours = "; Kind: Inert\nX: 1\nY: 1\n";
    let theirs = "; Kind: Inert\nX: 1\n; N1\nv\n; N2: 2\nY: 1\n";
    let (text, conflicts) = merged(base, ours, theirs);
    assert!(!text.contains("; <<<<<<<"), "{text}");
    assert!(text.contains("\n; Y: 1\n"), "{text}");
    let [c] = conflicts.as_slice() else {
        panic!("{conflicts:?}")
    };
    assert!(block_at(&text, c.line).contains("; N2: 2"), "{text}");
    // Keeping OURS's (empty) side leaves a file whose Y is still a property.
    let kept = text.replace("<<<<<<< ours\n=======\n; N2: 2\n>>>>>>> theirs\n", "");
    assert!(semantic(&kept).iter().any(|(k, _)| k == "y"), "{kept}");
}

#[test]
fn a_conflict_with_an_empty_side_after_a_block_keeps_the_next_line_a_property() {
    let base = "; Kind: Inert\n; Notes\nn\n; Mass: 1.0\n";
    let ours = "; Kind: Inert\n; Notes\nn\n; Mass: 2.0\nHealth: 30.0\n";
    let theirs = "; Kind: Inert\n; Notes\nn\n";
    let (text, conflicts) = merged(base, ours, theirs);
    let [c] = conflicts.as_slice() else {
        panic!("{conflicts:?}")
    };
    assert_eq!(c.theirs, None);
    // Either side kept, Health is still a property of its own.
    let sides = block_at(&text, c.line);
    let ours_kept = text.replace(&sides, "; Mass: 2.0\n");
    let theirs_kept = text.replace(&sides, "");
    for resolved in [ours_kept, theirs_kept] {
        let props = semantic(&resolved);
        assert!(
            props.contains(&("health".into(), vec!["30.0".into()])),
            "{resolved}"
        );
        assert!(
            props.contains(&("notes".into(), vec!["n".into()])),
            "{resolved}"
        );
    }
}

#[test]
fn a_value_that_would_read_as_a_comment_or_marker_is_written_inline() {
    let base = "; Kind: Inert\n; MeshAsset\na.obj\n; Notes\na\n; Mass: 1\n";
    let theirs = "; Kind: Inert\n; MeshAsset: #x.obj\n; Notes: <<<<<<< ours\n; Mass: 1\n";
    let (text, conflicts) = merged(base, base, theirs);
    assert!(conflicts.is_empty(), "{conflicts:?}");
    assert_eq!(semantic(&text), semantic(theirs), "{text}");
    // The same through the one-block-a-property rewrite.
    let (base, ours, theirs) = (asset(base), asset(base), asset(theirs));
    let blocks = Plan::new(&base, &ours, &theirs).blocks();
    assert_eq!(semantic(&blocks), semantic(theirs.text()), "{blocks}");
}

/// A property of a random document: a key (a known `Inert` property under some
/// spelling, or an unknown key), value lines and a form.
#[derive(Debug, Clone)]
struct GenProp {
    key: &'static str,
    lines: Vec<String>,
    form: u8,
    /// The comment line before the property: none for 0, else `# note <key> <note>`.
    note: u8,
}

const KEYS: &[(&str, &[&str])] = &[
    ("Mass", &["1.0", "2.50", "3", "-0.5"]),
    ("health", &["10.0", "20", "1e2"]),
    ("IsVisible", &["true", "0", "false"]),
    ("MeshAsset", &["a.obj", "\"b c.obj\"", "d/e.obj"]),
    ("Scale", &["1 1 1", "2.0, 2.0, 2.0"]),
    ("Glow", &["1", "2", "x y"]),
    ("Note", &["hello", "\"a b\""]),
];

fn gen_prop() -> impl Strategy<Value = GenProp> {
    (0..KEYS.len(), 0usize..4, 0u8..3, 1usize..3, 0u8..3).prop_map(|(k, v, form, n, note)| {
        let (key, values) = KEYS[k];
        // Unknown keys may have several lines; known ones have one.
        let n = if key == "Glow" || key == "Note" { n } else { 1 };
        let lines = (0..n)
            .map(|i| values[(v + i) % values.len()].to_owned())
            .collect();
        GenProp {
            key,
            lines,
            form,
            note,
        }
    })
}

/// A document of distinct keys from `props`, with a comment before those that have a
/// note and between the value lines of a block of several.
fn render(props: &[GenProp]) -> String {
    let mut out = String::from("; EntityID\n0x0000000000000042\n; Kind: Inert\n");
    let mut seen = Vec::new();
    let mut block_open = false;
    for p in props {
        if seen.contains(&p.key) {
            continue;
        }
        seen.push(p.key);
        if p.note != 0 {
            out.push_str(&format!("# note {} {}\n", p.key, p.note));
        }
        match (p.form, p.lines.as_slice()) {
            (1, [line]) => {
                out.push_str(&format!("; {}: {line}\n", p.key));
                block_open = false;
            }
            (2, [line]) if !block_open => out.push_str(&format!("{}: {line}\n", p.key)),
            (_, lines) => {
                // A comment between value lines, which stays with them.
                let between = format!("\n# note {} inside\n", p.key);
                out.push_str(&format!("; {}\n{}\n", p.key, lines.join(&between)));
                block_open = true;
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// A side that did not change gives the other side: merge(base, x, base) == x,
    /// merge(base, base, x) == x, and merge(base, x, x) == x, compared by properties;
    /// x's comments all stay, whether OURS or THEIRS has them.
    #[test]
    fn an_unchanged_side_gives_the_other(
        base in prop::collection::vec(gen_prop(), 0..6),
        x in prop::collection::vec(gen_prop(), 0..6),
    ) {
        let (base, x) = (render(&base), render(&x));
        let want = semantic(&x);
        for (o, t) in [(&x, &base), (&base, &x), (&x, &x)] {
            let (text, conflicts) = merged(&base, o, t);
            prop_assert!(conflicts.is_empty());
            prop_assert_eq!(semantic(&text), want.clone(), "{}", text);
            let kept = comments(&text);
            for (c, n) in comments(&x) {
                prop_assert!(kept.get(&c) >= Some(&n), "`{}` lost:\n{}", c, text);
            }
        }
    }
}

/// The comment lines of `text`, each with its number of copies.
fn comments(text: &str) -> std::collections::BTreeMap<&str, usize> {
    let mut counts = std::collections::BTreeMap::new();
    for line in text.lines().filter(|l| l.starts_with('#')) {
        *counts.entry(line).or_insert(0) += 1;
    }
    counts
}

/// `p` with every value line replaced by the next value of its key's list.
fn changed(p: &GenProp) -> GenProp {
    let values = KEYS
        .iter()
        .find(|(k, _)| *k == p.key)
        .map_or(&[][..], |k| k.1);
    let next = |line: &String| {
        let at = values.iter().position(|v| v == line).unwrap_or(0);
        values[(at + 1) % values.len()].to_owned()
    };
    GenProp {
        lines: p.lines.iter().map(next).collect(),
        ..p.clone()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Changes to different properties, some on each side, all land, with no conflict;
    /// so do the comments each side added or edited (a property's comment edited on at
    /// most one side), and the comments neither side touched stay.
    #[test]
    fn changes_to_different_properties_all_land(
        base in prop::collection::vec(gen_prop(), 1..7),
        sides in prop::collection::vec(0u8..3, 7),
        notes in prop::collection::vec(0u8..3, 7),
    ) {
        let mut seen = Vec::new();
        let base: Vec<GenProp> = base.into_iter().filter(|p| {
            let new = !seen.contains(&p.key);
            seen.push(p.key);
            new
        }).collect();
        // Side n (1 OURS, 2 THEIRS) edits (or adds) the comments its notes name.
        let note = |p: &GenProp, n: u8| GenProp { note: n + 2, ..p.clone() };
        let side = |n: u8| -> Vec<GenProp> {
            (base.iter().zip(&sides))
                .map(|(p, s)| if *s == n { changed(p) } else { p.clone() })
                .zip(&notes)
                .map(|(p, c)| if *c == n { note(&p, n) } else { p })
                .collect()
        };
        let (ours, theirs) = (side(1), side(2));
        let want: Vec<GenProp> = (base.iter().zip(&sides).zip(&notes)).map(|((p, s), c)| {
            let p = if *s == 0 { p.clone() } else { changed(p) };
            if *c == 0 { p } else { note(&p, *c) }
        }).collect();
        let (text, conflicts) = merged(&render(&base), &render(&ours), &render(&theirs));
        prop_assert!(conflicts.is_empty(), "{:?}", conflicts);
        prop_assert_eq!(semantic(&text), semantic(&render(&want)), "{}", text);
        // Every comment of either side, edited or not, and no other.
        let want = render(&want);
        prop_assert_eq!(comments(&text), comments(&want), "{}", text);
    }
}
