//! End-to-end tests of the `jasset` binary: the built executable run over copies of the
//! bundled sample project (`demo/`), over broken copies of it (a bad value, a missing
//! template, a duplicate id, an unknown kind), and over generated trees. They check exit
//! codes, messages with line and column, and, by hashing every file before and after,
//! that nothing outside what a command should write changes.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value as Json;

mod common;
use common::{demo_copy, demo_source};

const JASSET: &str = env!("CARGO_BIN_EXE_jasset");
const LEVEL: &str = "Assets/Worlds/Level01/Entities";

/// Runs `jasset args...` in `cwd`, with colours off.
fn jasset(cwd: &Path, args: &[&str]) -> Output {
    Command::new(JASSET)
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .expect("run jasset")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

/// CRC-32 of every file under `root`, by relative path.
fn hashes(root: &Path) -> BTreeMap<PathBuf, u32> {
    fn walk(dir: &Path, root: &Path, map: &mut BTreeMap<PathBuf, u32>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, map);
            } else {
                let bytes = fs::read(&path).unwrap();
                map.insert(
                    path.strip_prefix(root).unwrap().to_path_buf(),
                    juliet_entities::juliet_core::crc32(&bytes),
                );
            }
        }
    }
    let mut map = BTreeMap::new();
    walk(root, root, &mut map);
    map
}

/// The relative paths whose hash differs between `a` and `b` (or that are in one only).
fn changed(a: &BTreeMap<PathBuf, u32>, b: &BTreeMap<PathBuf, u32>) -> Vec<PathBuf> {
    let mut keys: Vec<&PathBuf> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .cloned()
        .collect()
}

/// 1-based line and column of the first occurrence of `needle` in `text`.
fn position_of(text: &str, needle: &str) -> (usize, usize) {
    for (i, line) in text.lines().enumerate() {
        if let Some(at) = line.find(needle) {
            return (i + 1, line[..at].chars().count() + 1);
        }
    }
    panic!("{needle:?} not in the text");
}

fn entity(root: &Path, name: &str) -> PathBuf {
    root.join(LEVEL).join(name)
}

// ---------------------------------------------------------------------------------------
// The clean demo.
// ---------------------------------------------------------------------------------------

#[test]
fn demo_runs_and_verifies() {
    let before = hashes(&demo_source());
    let o = jasset(Path::new(env!("CARGO_MANIFEST_DIR")), &["demo"]);
    let out = stdout(&o);
    assert_eq!(code(&o), 0, "{out}\n{}", stderr(&o));
    for section in [
        "== 1. copy",
        "== 2. load",
        "== 3. edit",
        "== 4. save",
        "== 5. verify",
    ] {
        assert!(out.contains(section), "{section} missing:\n{out}");
    }
    assert!(out.contains("entities per kind"), "{out}");
    assert!(out.contains("Inert") && out.contains("Collectible") && out.contains("Projectile"));
    assert!(out.contains("moved PlayerSpawn.jasset"), "{out}");
    assert!(
        out.contains("set Mass = 300.0 in Assets/Templates/RockLarge.jasset"),
        "{out}"
    );
    // The diff of the moved entity: its old and new position lines.
    assert!(
        out.contains("-2.0 0.0 0.0") && out.contains("+2.0 0.0 1.5"),
        "{out}"
    );
    assert!(out.contains("demo verified"), "{out}");
    assert!(!out.contains("FAILED"), "{out}");
    // The bundled sample itself is never written.
    assert_eq!(hashes(&demo_source()), before);
}

#[test]
fn demo_without_a_project_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = jasset(dir.path(), &["demo", "--path", "."]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("no sample project here"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn check_demo_is_clean() {
    let (_dir, root) = demo_copy();
    let before = hashes(&root);
    let o = jasset(root.parent().unwrap(), &["check", "demo"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("checked 64 files: 0 errors, 0 warnings"),
        "{}",
        stderr(&o)
    );
    assert_eq!(hashes(&root), before, "check wrote something");
}

#[test]
fn check_of_one_file_finds_the_root_and_the_world() {
    let (_dir, root) = demo_copy();
    let o = jasset(&root.join(LEVEL), &["check", "RockLarge_042.jasset"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("checked 1 file: 0 errors"),
        "{}",
        stderr(&o)
    );
}

// ---------------------------------------------------------------------------------------
// Broken copies.
// ---------------------------------------------------------------------------------------

/// Runs check, `fmt --check` and migrate over a broken copy and checks: exit 1, the one
/// expected error line, and that check and `fmt --check` write nothing while migrate
/// writes only the v1 projectile (never the bad file).
fn broken_copy_is_reported(root: &Path, bad: &Path, expected: &str) {
    let cwd = root.parent().unwrap();
    let before = hashes(root);

    let o = jasset(cwd, &["check", "demo"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let out = stdout(&o);
    let errors: Vec<&str> = out.lines().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(errors.len(), 1, "{out}");
    assert!(
        errors[0].starts_with(expected),
        "{}\nexpected: {expected}",
        errors[0]
    );
    assert!(stderr(&o).contains("1 error"), "{}", stderr(&o));
    assert_eq!(hashes(root), before, "check changed files");

    let o = jasset(cwd, &["fmt", "--check", "demo"]);
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).contains(expected), "{}", stdout(&o));
    assert_eq!(hashes(root), before, "fmt --check changed files");

    let o = jasset(cwd, &["migrate", "demo"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(stdout(&o).contains(expected), "{}", stdout(&o));
    assert!(stdout(&o).contains("(not migrated)"), "{}", stdout(&o));
    let bad_rel = bad.strip_prefix(root).unwrap().to_path_buf();
    let after = hashes(root);
    assert_eq!(
        after.get(&bad_rel),
        before.get(&bad_rel),
        "the bad file was rewritten"
    );
    let changed = changed(&before, &after);
    assert_eq!(
        changed,
        [Path::new(LEVEL).join("Cannonball_001.jasset")],
        "migrate changed more than the v1 projectile"
    );
}

#[test]
fn bad_value_is_reported_at_its_line_and_column() {
    let (_dir, root) = demo_copy();
    let bad = entity(&root, "Crate_Supply.jasset");
    let text = fs::read_to_string(&bad).unwrap().replace("35.0", "35 kg");
    fs::write(&bad, &text).unwrap();
    let (line, col) = position_of(&text, "35 kg");
    let expected = format!(
        "demo/{LEVEL}/Crate_Supply.jasset:{line}:{col}: error: `mass`: expected f32, found \"35 kg\""
    );
    broken_copy_is_reported(&root, &bad, &expected);
}

#[test]
fn missing_template_is_reported_at_the_template_line() {
    let (_dir, root) = demo_copy();
    let bad = entity(&root, "RockLarge_042.jasset");
    let text = fs::read_to_string(&bad)
        .unwrap()
        .replace("Templates/RockLarge.jasset", "Templates/RockHuge.jasset");
    fs::write(&bad, &text).unwrap();
    let (line, _) = position_of(&text, "; template:");
    let expected = format!("demo/{LEVEL}/RockLarge_042.jasset:{line}:");
    broken_copy_is_reported(&root, &bad, &expected);
    let o = jasset(root.parent().unwrap(), &["check", "demo"]);
    assert!(
        stdout(&o).contains("Assets/Templates/RockHuge.jasset"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn duplicate_id_names_both_files() {
    let (_dir, root) = demo_copy();
    let bad = entity(&root, "SecretGem_Copy.jasset");
    fs::copy(entity(&root, "SecretGem.jasset"), &bad).unwrap();
    let text = fs::read_to_string(&bad).unwrap();
    let (line, col) = position_of(&text, "EntityID");
    let expected = format!("demo/{LEVEL}/SecretGem_Copy.jasset:{line}:{col}: error: `EntityID`: EntityID 0x0001000000003E01 is also used by demo/{LEVEL}/SecretGem.jasset");
    broken_copy_is_reported(&root, &bad, &expected);
}

#[test]
fn unknown_kind_is_reported_and_never_rewritten() {
    let (_dir, root) = demo_copy();
    let bad = entity(&root, "PlayerSpawn.jasset");
    let text = fs::read_to_string(&bad)
        .unwrap()
        .replace("; Kind\nInert", "; Kind\nBoulder");
    fs::write(&bad, &text).unwrap();
    let (line, col) = position_of(&text, "Kind");
    let expected = format!(
        "demo/{LEVEL}/PlayerSpawn.jasset:{line}:{col}: error: `Kind`: unknown kind `Boulder`"
    );
    broken_copy_is_reported(&root, &bad, &expected);

    // fmt (writing) leaves it as it is too.
    let before = fs::read(&bad).unwrap();
    let o = jasset(root.parent().unwrap(), &["fmt", "demo"]);
    assert_eq!(code(&o), 1);
    assert_eq!(fs::read(&bad).unwrap(), before);
}

#[test]
fn unknown_key_warns_and_strict_fails() {
    let (_dir, root) = demo_copy();
    let file = entity(&root, "SecretGem.jasset");
    let mut text = fs::read_to_string(&file).unwrap();
    text.push_str("; GlowColour\n1 0.8 0.2\n");
    fs::write(&file, &text).unwrap();
    let (line, col) = position_of(&text, "GlowColour");
    let cwd = root.parent().unwrap();
    let o = jasset(cwd, &["check", "demo"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert_eq!(
        stdout(&o).trim(),
        format!("demo/{LEVEL}/SecretGem.jasset:{line}:{col}: warning: `GlowColour`: unknown key `GlowColour` (kept and written back on save)")
    );
    let o = jasset(cwd, &["check", "--strict", "demo"]);
    assert_eq!(code(&o), 1);

    // The unknown key survives fmt.
    let o = jasset(cwd, &["fmt", &format!("demo/{LEVEL}/SecretGem.jasset")]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let formatted = fs::read_to_string(&file).unwrap();
    assert!(
        formatted.ends_with("; GlowColour\n1 0.8 0.2\n"),
        "{formatted}"
    );
}

// ---------------------------------------------------------------------------------------
// fmt, inspect, migrate.
// ---------------------------------------------------------------------------------------

#[test]
fn fmt_check_lists_files_and_fmt_is_idempotent() {
    let (_dir, root) = demo_copy();
    let cwd = root.parent().unwrap();
    let before = hashes(&root);

    let o = jasset(cwd, &["fmt", "--check", "demo"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let listed: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
    assert!(
        listed.contains(&format!("demo/{LEVEL}/Crate_Supply.jasset")),
        "{listed:?}"
    );
    assert_eq!(hashes(&root), before, "fmt --check wrote files");

    let o = jasset(cwd, &["fmt", "demo"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let once = hashes(&root);
    let rewritten = changed(&before, &once);
    assert_eq!(
        rewritten.len(),
        listed.len(),
        "fmt wrote other files than --check listed"
    );

    let o = jasset(cwd, &["fmt", "--check", "demo"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert_eq!(stdout(&o), "");
    let o = jasset(cwd, &["fmt", "demo"]);
    assert_eq!(code(&o), 0);
    assert_eq!(hashes(&root), once, "a second fmt changed files");

    // Formatted files still say the same thing.
    let o = jasset(cwd, &["check", "demo"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
}

#[test]
fn fmt_writes_the_canonical_form() {
    let (_dir, root) = demo_copy();
    let file = entity(&root, "Crate_Supply.jasset");
    let o = jasset(&root, &["fmt", &file.to_string_lossy()]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let text = fs::read_to_string(&file).unwrap();
    assert!(text.starts_with(
        "; AssetType\nEntity\n; BaseVersion\n1\n; EntityID\n0x0001000000000004\n; Kind\nInert\n; Position\n80.0 4.0 -2.5\n; ClassVersion\n2\n; MeshInstance\n12\n"
    ), "{text}");
    assert!(text.contains("; IsDestructible\ntrue\n"), "{text}");
}

#[test]
fn inspect_json_of_an_instance() {
    let (_dir, root) = demo_copy();
    let o = jasset(
        &root,
        &[
            "inspect",
            "--json",
            &format!("{LEVEL}/RockLarge_042.jasset"),
        ],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let j: Json = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["path"], format!("{LEVEL}/RockLarge_042.jasset"));
    assert_eq!(j["kind"], "Inert");
    assert_eq!(j["id"], "0x0001000000001042");
    assert_eq!(j["template"], "Assets/Templates/RockLarge.jasset");
    assert_eq!(j["base_version"], 1);
    assert_eq!(j["class_version"], 2);
    assert_eq!(j["position"], serde_json::json!([142.5, 12.0, -84.2]));
    let p = &j["properties"];
    // From the instance file.
    assert_eq!(p["Scale"], serde_json::json!([1.4, 1.4, 1.4]));
    assert_eq!(p["Health"], 50.0);
    // Inherited from the template.
    assert_eq!(p["MeshAsset"], "Assets/Meshes/Rock_01.obj");
    assert_eq!(p["Mass"], 250.0);
    assert_eq!(p["IsDestructible"], true);
    // The class defaults nobody sets.
    assert_eq!(p["MeshInstance"], u32::MAX);
    assert_eq!(p["IsVisible"], true);
    let mut overridden: Vec<&str> = j["overridden"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    overridden.sort();
    assert_eq!(overridden, ["Health", "Scale"]);
    assert_eq!(j["unknown"], serde_json::json!([]));
    assert_eq!(j["warnings"], serde_json::json!([]));
}

#[test]
fn inspect_json_of_a_v1_file_with_an_unknown_key() {
    let (_dir, root) = demo_copy();
    let file = entity(&root, "Cannonball_001.jasset");
    let mut text = fs::read_to_string(&file).unwrap();
    text.push_str("; Trail\nsmoke\n");
    fs::write(&file, text).unwrap();
    let o = jasset(&root, &["inspect", "--json", &file.to_string_lossy()]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let j: Json = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["kind"], "Projectile");
    assert_eq!(j["id"], "0x000100000000F003");
    assert_eq!(j["template"], Json::Null);
    assert_eq!(j["class_version"], 1, "the file's version");
    assert_eq!(j["position"], serde_json::json!([95.0, 8.0, -3.0]));
    assert_eq!(
        j["properties"],
        serde_json::json!({"VelocityX": 75.5, "VelocityY": 0.0, "Damage": 40.0})
    );
    assert_eq!(j["overridden"], serde_json::json!([]));
    assert_eq!(j["unknown"], serde_json::json!(["Trail"]));
    let warnings = j["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0]
        .as_str()
        .unwrap()
        .contains("unknown key `Trail`"));
}

/// In a version-1 file, the value the migration set is marked as such, not as the
/// default; a property it did not touch is the default.
#[test]
fn inspect_text_names_the_values_a_migration_set() {
    let (_dir, root) = demo_copy();
    let file = entity(&root, "Cannonball_001.jasset");
    let o = jasset(&root, &["inspect", &file.to_string_lossy()]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let line = |key: &str| {
        let out = stdout(&o);
        let found = out.lines().find(|l| l.trim_start().starts_with(key));
        found.map(str::to_owned).unwrap_or_default()
    };
    assert!(
        line("VelocityX").ends_with("75.5  (set by the migration)"),
        "{}",
        stdout(&o)
    );
    assert!(line("VelocityY").ends_with("(default)"), "{}", stdout(&o));
}

#[test]
fn inspect_text_marks_overrides_and_names_the_chain() {
    let (_dir, root) = demo_copy();
    let o = jasset(
        &root,
        &["inspect", &format!("{LEVEL}/RockLargeMossy_001.jasset")],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Assets/Templates/RockLargeMossy.jasset -> Assets/Templates/RockLarge.jasset"),
        "{out}"
    );
    assert!(
        out.contains("<- Assets/Templates/RockLargeMossy.jasset"),
        "{out}"
    );
    assert!(
        out.contains("<- Assets/Templates/RockLarge.jasset"),
        "{out}"
    );
    assert!(!out.contains('\x1b'), "colours on a pipe:\n{out}");
}

#[test]
fn migrate_the_v1_projectile() {
    let (_dir, root) = demo_copy();
    let file = entity(&root, "Cannonball_001.jasset");
    let arg = file.to_string_lossy().into_owned();
    let o = jasset(&root, &["migrate", "--dry-run", &arg]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(
        stdout(&o).contains("ClassVersion: 1 -> 2"),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        fs::read(&file).unwrap(),
        fs::read(demo_source().join(LEVEL).join("Cannonball_001.jasset")).unwrap(),
        "--dry-run wrote"
    );

    let o = jasset(&root, &["migrate", &arg]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("ClassVersion: 1 -> 2"), "{out}");
    assert!(
        out.contains("- Speed: 75.5 (deprecated key, consumed by the migration)"),
        "{out}"
    );
    assert!(out.contains("+ VelocityX: 75.5"), "{out}");
    assert!(stderr(&o).contains("1 file migrated"), "{}", stderr(&o));
    let text = fs::read_to_string(&file).unwrap();
    // The new key in the deprecated key's place, the blank lines around it kept.
    assert!(
        text.contains("; ClassVersion\n2\n\n; VelocityX\n75.5\n\n; Damage\n"),
        "{text}"
    );
    // Edited in place: the key is gone, the designer's comments and layout stay.
    assert!(!text.contains("; Speed"), "{text}");
    assert!(text.contains("# Saved by an older build"), "{text}");
    assert!(text.contains("95.000000 8.000000 -3.000000"), "{text}");

    let o = jasset(&root, &["migrate", &arg]);
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("0 files migrated, 1 already current"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn migrate_demo_changes_only_the_v1_projectile() {
    let (_dir, root) = demo_copy();
    let before = hashes(&root);
    let o = jasset(root.parent().unwrap(), &["migrate", "demo"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("1 file migrated, 63 already current"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        changed(&before, &hashes(&root)),
        [Path::new(LEVEL).join("Cannonball_001.jasset")]
    );
}

// ---------------------------------------------------------------------------------------
// gen, bench, usage.
// ---------------------------------------------------------------------------------------

#[test]
fn gen_then_check_is_clean_and_gen_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let o = jasset(
        dir.path(),
        &["gen", "--entities", "300", "--templates", "7", "a"],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("generated 7 templates and 300 entities"),
        "{}",
        stdout(&o)
    );
    let a = hashes(&dir.path().join("a"));
    assert_eq!(a.len(), 307);
    assert_eq!(
        a.keys()
            .filter(|k| k.starts_with("Assets/Worlds/Gen/Entities"))
            .count(),
        300
    );

    let o = jasset(dir.path(), &["check", "a"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("checked 307 files: 0 errors, 0 warnings"),
        "{}",
        stderr(&o)
    );
    let o = jasset(dir.path(), &["fmt", "--check", "a"]);
    assert_eq!(
        code(&o),
        0,
        "generated files are not canonical:\n{}",
        stdout(&o)
    );

    let o = jasset(
        dir.path(),
        &["gen", "--entities", "300", "--templates", "7", "b"],
    );
    assert_eq!(code(&o), 0);
    assert_eq!(
        hashes(&dir.path().join("b")),
        a,
        "same arguments, different bytes"
    );
    let o = jasset(
        dir.path(),
        &[
            "gen",
            "--entities",
            "300",
            "--templates",
            "7",
            "--seed",
            "2",
            "c",
        ],
    );
    assert_eq!(code(&o), 0);
    assert_ne!(hashes(&dir.path().join("c")), a, "the seed changes nothing");

    // Into an existing project: a usage error, nothing written.
    let o = jasset(dir.path(), &["gen", "--entities", "5", "a"]);
    assert_eq!(code(&o), 2);
    assert_eq!(hashes(&dir.path().join("a")), a);
}

#[test]
fn bench_reports_throughput_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let o = jasset(
        dir.path(),
        &["gen", "--entities", "200", "--templates", "5", "p"],
    );
    assert_eq!(code(&o), 0);
    let before = hashes(&dir.path().join("p"));
    let o = jasset(dir.path(), &["bench", "--iterations", "1", "p"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("200 files"), "{out}");
    for what in ["load", "write (memory)", "save"] {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(what))
            .unwrap_or_else(|| panic!("{what}: {out}"));
        assert!(line.contains("files/s") && line.contains("MB/s"), "{line}");
    }
    assert_eq!(hashes(&dir.path().join("p")), before);
    // A debug build says its timings are not a release build's.
    assert_eq!(
        stderr(&o).contains("warning: this jasset is a debug build"),
        cfg!(debug_assertions),
        "{}",
        stderr(&o)
    );
    let o = jasset(dir.path(), &["bench", "."]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}

#[test]
fn usage_errors_exit_with_2() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(code(&jasset(dir.path(), &["check"])), 2);
    assert_eq!(code(&jasset(dir.path(), &["frobnicate"])), 2);
    assert_eq!(
        code(&jasset(dir.path(), &["check", "--root", "nowhere", "."])),
        2
    );
    assert_eq!(code(&jasset(dir.path(), &[])), 2);
}

#[test]
fn a_missing_path_is_a_usage_error_like_a_bad_root() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["check", "fmt", "migrate", "inspect"] {
        let o = jasset(dir.path(), &[command, "nothing.jasset"]);
        assert_eq!(code(&o), 2, "{command}");
        assert_eq!(
            stderr(&o),
            "jasset: error: nothing.jasset: no such file or folder\n",
            "{command}"
        );
        assert_eq!(
            code(&jasset(dir.path(), &[command, "--root", "nowhere", "."])),
            2
        );
    }
    fs::write(dir.path().join("here.jasset"), "; Kind: Inert\n").unwrap();
    for args in [
        &["diff", "nothing.jasset", "here.jasset"][..],
        &["diff", "here.jasset", "nothing.jasset"][..],
        &["set", "nothing.jasset", "Mass=1"][..],
    ] {
        let o = jasset(dir.path(), args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert_eq!(
            stderr(&o),
            "jasset: error: nothing.jasset: no such file or folder\n",
            "{args:?}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_link_to_a_missing_target_is_a_usage_error_naming_the_link() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        dir.path().join("gone.jasset"),
        dir.path().join("link.jasset"),
    )
    .unwrap();
    fs::write(dir.path().join("here.jasset"), "; Kind: Inert\n").unwrap();
    for args in [
        &["check", "link.jasset"][..],
        &["fmt", "link.jasset"][..],
        &["migrate", "link.jasset"][..],
        &["inspect", "link.jasset"][..],
        &["set", "link.jasset", "Mass=1"][..],
        &["diff", "here.jasset", "link.jasset"][..],
    ] {
        let o = jasset(dir.path(), args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert_eq!(
            stderr(&o),
            "jasset: error: link.jasset: a symbolic link to a missing target\n",
            "{args:?}"
        );
    }
}

#[test]
fn help_documents_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let o = jasset(dir.path(), &["--help"]);
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    for sub in [
        "demo", "check", "inspect", "fmt", "migrate", "set", "diff", "merge", "renumber", "mv",
        "gen", "bench", "schema", "edit",
    ] {
        assert!(
            out.lines().any(|l| l.trim_start().starts_with(sub)),
            "{sub}:\n{out}"
        );
        let o = jasset(dir.path(), &[sub, "--help"]);
        assert_eq!(code(&o), 0);
        assert!(stdout(&o).contains("Usage: jasset"), "{sub}");
    }
    let o = jasset(dir.path(), &["check", "--help"]);
    assert!(stdout(&o).contains("--strict") && stdout(&o).contains("--root"));
    // The tool describes itself, not the library it is built from.
    for flag in ["-h", "--help"] {
        let o = jasset(dir.path(), &[flag]);
        let first = stdout(&o).lines().next().unwrap_or_default().to_owned();
        assert!(
            first.starts_with("`jasset`: check, format, inspect, migrate"),
            "{flag}: {first}"
        );
        assert!(
            !stdout(&o).contains("Entity runtime"),
            "{flag}: {}",
            stdout(&o)
        );
    }
}

/// An unknown kind is followed by a note saying where a game's kinds come from: its own
/// jasset, which exports them to `jasset.schema`; with a schema there, that it may be
/// out of date.
#[test]
fn an_unknown_kind_says_how_a_game_exports_its_kinds() {
    let dir = tempfile::tempdir().unwrap();
    let entities = dir.path().join("Assets/Worlds/L/Entities");
    std::fs::create_dir_all(&entities).unwrap();
    std::fs::write(
        entities.join("torch.jasset"),
        "; Kind: Torch\nEntityID: 0x7\n",
    )
    .unwrap();
    let file = "Assets/Worlds/L/Entities/torch.jasset";
    for args in [
        &["check", "Assets"][..],
        &["set", file, "Lit=true"],
        &["inspect", file],
    ] {
        let o = jasset(dir.path(), args);
        assert_eq!(code(&o), 1, "{args:?}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("unknown kind `Torch`"),
            "{args:?}: {}",
            stdout(&o)
        );
        assert!(
            stderr(&o).contains("note: `Torch` is no kind of this jasset.")
                && stderr(&o).contains(
                    "writes them to jasset.schema at the project root with `jasset schema export`"
                ),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    std::fs::write(dir.path().join("jasset.schema"), "; AssetType\nSchema\n").unwrap();
    let o = jasset(dir.path(), &["check", "Assets"]);
    assert!(
        stderr(&o).contains("`Torch` is neither a kind of this jasset nor of jasset.schema"),
        "{}",
        stderr(&o)
    );
}

/// Counts read as counts: one of a thing is singular, any other number plural.
#[test]
fn counts_of_one_are_singular() {
    let dir = tempfile::tempdir().unwrap();
    let o = jasset(
        dir.path(),
        &["gen", "--entities", "1", "--templates", "1", "p"],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).starts_with("generated 1 template and 1 entity ("),
        "{}",
        stdout(&o)
    );
    std::fs::write(
        dir.path().join("p/bad.jasset"),
        "; Kind: Inert\nMass: heavy\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("p/odd.jasset"),
        "; Kind: Inert\nEntityID: 0x5\nGlow: 1\n",
    )
    .unwrap();
    let o = jasset(dir.path(), &["check", "p/bad.jasset", "p/odd.jasset"]);
    assert_eq!(
        stderr(&o),
        "checked 2 files: 1 error, 1 warning\n",
        "{}",
        stdout(&o)
    );
    let o = jasset(dir.path(), &["bench", "--iterations", "1", "p"]);
    assert!(stdout(&o).contains(": 1 file, "), "{}", stdout(&o));
}

/// Whether this build of `jasset` has the editor (the workspace's test runs build it
/// with it; `cargo test -p jasset` alone, as `.ci/run` also runs it, without).
fn has_editor(dir: &std::path::Path) -> bool {
    let o = jasset(dir, &["edit", "no-such-folder"]);
    !String::from_utf8_lossy(&o.stderr).contains("built without the editor")
}

#[test]
fn edit_without_the_editor_says_how_to_build_it() {
    let dir = tempfile::tempdir().unwrap();
    if has_editor(dir.path()) {
        return;
    }
    let o = jasset(dir.path(), &["edit", ".", "--world", "Level01"]);
    assert_eq!(code(&o), 2, "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--features editor -- edit"), "{err}");
    assert!(err.contains("cargo install --locked"), "{err}");
}

#[test]
fn edit_refuses_a_missing_root_or_world_before_opening_a_window() {
    let dir = tempfile::tempdir().unwrap();
    if !has_editor(dir.path()) {
        return;
    }
    let o = jasset(dir.path(), &["edit", "no-such-folder"]);
    assert_eq!(code(&o), 2, "{o:?}");
    std::fs::create_dir_all(dir.path().join("Assets/Worlds/Level01/Entities")).unwrap();
    let o = jasset(dir.path(), &["edit", ".", "--world", "Level02"]);
    assert_eq!(code(&o), 2, "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("Level02"),
        "{o:?}"
    );
}
