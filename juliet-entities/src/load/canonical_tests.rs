//! Entity loading from a document filled as it is read against loading from the
//! tokenizer's document: the same files (canonical ones written by `World::save_world`,
//! then mutated in every way that matters) are loaded by `load_impl` into one manager
//! and by `read_again` (the tokenizer's document from the start) into another; the
//! results, the warnings, the unknown keys, the errors and the whole state of both
//! managers (and of their template caches) must be the same after each file. Canonical
//! files must be read straight from their text.

use std::fmt::Write as _;
use std::path::Path;

use glam::Vec3;
use juliet_core::{Reflect, TokenBuffer};
use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, TestRng};

use super::*;
use crate::kinds::{Collectible, Inert, Projectile};
use crate::support::{Crate, Marker, Sign};
use crate::world::World;

/// Everything a load can leave in a manager, as text.
fn manager_state(m: &EntityManager) -> String {
    m.check_invariants().unwrap();
    let mut out = String::new();
    for e in m.entities() {
        let mut derived = String::new();
        m.save_derived(e.id, &mut Archive::saving(&mut derived))
            .unwrap();
        writeln!(
            out,
            "{} {} {:?} slot {} template {:?} overrides {:?} kind {} dirty {} po {} | {derived:?}",
            e.id,
            e.class.name(),
            e.position.to_array().map(f32::to_bits),
            e.slot,
            e.template,
            e.overrides,
            e.kind,
            e.dirty,
            e.position_overridden,
        )
        .unwrap();
        assert_eq!(m.index_of(e.id).map(|b| m.entities()[b].id), Some(e.id));
    }
    for k in m.kinds() {
        writeln!(out, "kind {} {:?}", k.class().name(), k.bases()).unwrap();
        assert!(m.kind_storage(k.class()).is_some());
    }
    writeln!(out, "next {}", m.next_id()).unwrap();
    out
}

/// A load's result, with [`LoadedEntity::direct`] left out (the one field that says
/// which path ran).
fn result_text(r: &Result<LoadedEntity, Error>) -> String {
    match r {
        Ok(l) => format!("Ok {:?} {:?} {:?}", l.id, l.data, l.warnings),
        Err(e) => format!("Err {e:?} / {e}"),
    }
}

/// Two managers (and template caches) loading the same files, one through `load_impl`
/// (direct first), the other through `load_general` only.
struct Pair {
    fast: EntityManager,
    general: EntityManager,
    fast_templates: TemplateCache,
    general_templates: TemplateCache,
    buffer: TokenBuffer,
    /// Files the canonical reading read.
    direct: usize,
}

impl Pair {
    fn new() -> Pair {
        let templates = || {
            let mut cache = TemplateCache::new("/nonexistent-project");
            cache
                .insert_text(
                    "Assets/Templates/Rock.jasset",
                    "; Kind\nInert\n; Mass\n250.0\n; Health\n80.0\n",
                )
                .unwrap();
            cache
        };
        Pair {
            fast: EntityManager::new(),
            general: EntityManager::new(),
            fast_templates: templates(),
            general_templates: templates(),
            buffer: TokenBuffer::new(),
            direct: 0,
        }
    }

    /// Loads `text` both ways (with the template caches when `with_templates`), checks
    /// that everything is the same, and returns whether the canonical reading read it.
    fn load(&mut self, text: &[u8], with_templates: bool) -> bool {
        let path = Path::new("Entities/test.jasset");
        let registry = self.general.registry().unwrap();
        let fast = load_impl(
            &mut self.buffer,
            &mut self.fast,
            with_templates.then_some(&mut self.fast_templates),
            path,
            text,
        );
        let kinds = self.general.kinds().len();
        let again = READ_AGAIN.get();
        let general = read_again(
            &mut TokenBuffer::new(),
            &mut self.general,
            registry,
            with_templates.then_some(&mut self.general_templates),
            path,
            text,
            kinds,
        );
        READ_AGAIN.set(again);
        let shown = String::from_utf8_lossy(text);
        assert_eq!(result_text(&fast), result_text(&general), "{shown}");
        assert_eq!(
            manager_state(&self.fast),
            manager_state(&self.general),
            "{shown}"
        );
        assert_eq!(
            format!(
                "{} {} {:?}",
                self.fast_templates.len(),
                self.fast_templates.files_read(),
                self.fast_templates.take_new_warnings()
            ),
            format!(
                "{} {} {:?}",
                self.general_templates.len(),
                self.general_templates.files_read(),
                self.general_templates.take_new_warnings()
            ),
            "{shown}"
        );
        assert!(general.as_ref().map_or(true, |l| !l.direct));
        let direct = fast.as_ref().is_ok_and(|l| l.direct);
        self.direct += usize::from(direct);
        direct
    }
}

/// Canonical files of several kinds, written by `World::save_world` (ids 1 to 9).
fn saved_world_files() -> Vec<String> {
    let root = tempfile::tempdir().unwrap();
    save_world_at(root.path())
}

/// Saves a world of nine entities of several kinds at `root`; returns its files' text
/// in file-name order (ids 1 to 9).
fn save_world_at(root: &Path) -> Vec<String> {
    let mut world = World::new(root);
    let m = world.manager_mut();
    let rock = m.make_entity::<Inert>(Vec3::new(1.5, -2.0, 1e-7));
    let inert = m.get_mut::<Inert>(rock).unwrap();
    inert.mesh_asset = "Assets/Meshes/Rock 01.obj".into();
    inert.material_override = "say \"granite\"".into();
    inert.mass = f32::NAN;
    m.make_entity::<Inert>(Vec3::ZERO);
    let coin = m.make_entity::<Collectible>(Vec3::splat(3.0));
    m.get_mut::<Collectible>(coin).unwrap().value = 7;
    let arrow = m.make_entity::<Projectile>(Vec3::new(0.0, 1.0, 2.0));
    m.get_mut::<Projectile>(arrow).unwrap().velocity_x = -3.25;
    let crate_ = m.make_entity::<Crate>(Vec3::new(-0.0, 5.0, 6.0));
    m.get_mut::<Crate>(crate_).unwrap().is_visible = false;
    m.make_entity::<Marker>(Vec3::ONE);
    m.make_entity::<Sign>(Vec3::ZERO);
    // Several value lines: the tokenizer completes it after the allocation.
    let sign = m.make_entity::<Sign>(Vec3::ZERO);
    m.get_mut::<Sign>(sign).unwrap().lines = vec!["a".into(), "b c".into()];
    let named = m.make_entity::<Sign>(Vec3::ZERO);
    m.get_mut::<Sign>(named).unwrap().text = "Café ×2".into();
    world.save_world().unwrap();
    let mut paths: Vec<_> = std::fs::read_dir(world.entities_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    assert_eq!(paths.len(), 9);
    paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

/// The lines of `text`, each with its `\n`.
fn lines(text: &str) -> Vec<String> {
    text.split_inclusive('\n').map(str::to_owned).collect()
}

/// Variants of the canonical `text` (an entity file with ids `id`), each changing one
/// thing the canonical reading must notice (or, for a few, may accept).
fn mutations(text: &str, id: u64) -> Vec<String> {
    let l = lines(text);
    let hex = format!("0x{id:016X}");
    let other = format!("0x{:016X}", id + 100);
    let replace = |from: &str, to: &str| text.replacen(from, to, 1);
    let mut out = vec![
        format!("# comment\n{text}"),
        format!("\u{FEFF}{text}"),
        text.replace('\n', "\r\n"),
        format!("{text}; Extra\n5\n"),
        format!("{text}# trailing comment\n"),
        format!("{text}\n"),
        text.trim_end_matches('\n').to_owned(),
        replace("; AssetType\nEntity\n", "; AssetType\nentity\n"),
        replace("; AssetType\nEntity\n", "; AssetType\nentity_instance\n"),
        replace("; AssetType\nEntity\n", "; AssetType\n\"Entity\"\n"),
        replace("; AssetType\nEntity\n", "; AssetType\nPrefab\n"),
        replace("; AssetType\nEntity\n", ""),
        replace("; AssetType\nEntity\n", "; asset_type\nEntity\n"),
        replace("; BaseVersion\n1\n", "; BaseVersion\n2\n"),
        replace("; BaseVersion\n1\n", "; BaseVersion\n0\n"),
        replace("; BaseVersion\n1\n", "; BaseVersion\n0x1\n"),
        replace("; BaseVersion\n1\n", "; BaseVersion\none\n"),
        replace("; BaseVersion\n1\n", "; version\n1\n"),
        replace("; BaseVersion\n1\n", ""),
        replace(&hex, "0x0000000000000000"),
        replace(&hex, "0xZZ"),
        replace(&hex, &other),
        replace(&hex, &(id + 100).to_string()),
        replace(&format!("; EntityID\n{hex}\n"), ""),
        replace("; EntityID\n", "; id\n"),
        format!("{text}; id\n{other}\n"),
        replace("; Position\n", "; position\n"),
        format!("{text}; Kind\nInert\n"),
        format!("{text}; Template\nAssets/Templates/Rock.jasset\n"),
    ];
    // Kind: other spellings, an unknown or quoted name, an alias, a Template after it.
    if let Some(k) = l.iter().position(|x| x == "; Kind\n") {
        let name = l[k + 1].trim_end().to_owned();
        for to in [
            name.to_lowercase(),
            format!("\"{name}\""),
            "NoSuchKind".to_owned(),
            format!("{name} "),
        ] {
            out.push(replace(
                &format!("; Kind\n{name}\n"),
                &format!("; Kind\n{to}\n"),
            ));
        }
        out.push(replace("; Kind\n", "; class\n"));
        out.push(replace(
            &format!("; Kind\n{name}\n"),
            &format!("; Kind\n{name}\n; Template\nAssets/Templates/Rock.jasset\n"),
        ));
        out.push(replace(
            &format!("; Kind\n{name}\n"),
            "; Template\nAssets/Templates/Rock.jasset\n",
        ));
        out.push(replace(&format!("; Kind\n{name}\n"), ""));
    }
    // Position: bad, absent, moved to the end.
    if let Some(p) = l.iter().position(|x| x == "; Position\n") {
        let block = format!("{}{}", l[p], l[p + 1]);
        out.push(replace(&block, "; Position\n1 2\n"));
        out.push(replace(&block, ""));
        out.push(format!("{}{block}", replace(&block, "")));
    }
    // The class part: ClassVersion other or absent, properties swapped, doubled, bad,
    // with two value lines or an unknown key between them.
    if let Some(c) = l.iter().position(|x| x == "; ClassVersion\n") {
        let version = l[c + 1].trim_end().to_owned();
        let block = format!("; ClassVersion\n{version}\n");
        out.push(replace(&block, ""));
        out.push(replace(&block, "; ClassVersion\n1\n"));
        out.push(replace(&block, "; ClassVersion\n99\n"));
        out.push(replace(&block, "; ClassVersion\nx\n"));
        out.push(format!("{}{block}", replace(&block, "")));
        let props: Vec<usize> = (c + 2..l.len())
            .filter(|&i| l[i].starts_with("; "))
            .collect();
        for (n, &i) in props.iter().enumerate() {
            let end = props.get(n + 1).copied().unwrap_or(l.len());
            let prop = l[i..end].concat();
            let before = l[..i].concat();
            let after = l[end..].concat();
            out.push(format!("{before}{after}")); // absent
            out.push(format!("{before}{prop}{prop}{after}")); // twice
            out.push(format!("{before}{prop}; Unknown_{n}\n1\n{after}"));
            out.push(format!(
                "{before}{}\nnot a value ]\n{after}",
                l[i].trim_end()
            ));
            out.push(format!("{before}{prop}{}{after}", l[i + 1]));
            out.push(format!(
                "{before}{}\n\n{}{after}",
                l[i].trim_end(),
                &l[i + 1]
            ));
            // The key (and value) in lower case: the same key to the general path.
            out.push(format!("{before}{}{after}", prop.to_lowercase()));
            if let Some(&j) = props.get(n + 1) {
                let end2 = props.get(n + 2).copied().unwrap_or(l.len());
                let next = l[j..end2].concat();
                out.push(format!("{before}{next}{prop}{}", l[end2..].concat()));
            }
        }
    }
    // Cut anywhere.
    for cut in [1, 10, 25, text.len() / 2, text.len() - 1] {
        if text.is_char_boundary(cut) {
            out.push(text[..cut].to_owned());
        }
    }
    out
}

/// Random edits of `text`: lines dropped, doubled, swapped, characters changed.
fn random_edit(rng: &mut TestRng, text: &str) -> String {
    let mut l = lines(text);
    for _ in 0..rng.random_range(1..4) {
        if l.is_empty() {
            break;
        }
        let i = rng.random_range(0..l.len());
        match rng.random_range(0..6) {
            0 => {
                l.remove(i);
            }
            1 => l.insert(i, l[i].clone()),
            2 => {
                let j = rng.random_range(0..l.len());
                l.swap(i, j);
            }
            3 => {
                let picks = [" ", "\t", "#", ";", "0", "x", "\"", "\r", ":", "-"];
                let mut line: Vec<char> = l[i].chars().collect();
                let at = rng.random_range(0..line.len());
                line[at] = picks[rng.random_range(0..picks.len())]
                    .chars()
                    .next()
                    .unwrap();
                l[i] = line.into_iter().collect();
            }
            4 => l.insert(i, "; Mass\n1.5\n".to_owned()),
            _ => l[i] = l[i].to_uppercase(),
        }
    }
    l.concat()
}

#[test]
fn canonical_files_take_the_direct_path_with_the_general_paths_result() {
    let files = saved_world_files();
    let mut pair = Pair::new();
    let mut direct = Vec::new();
    for file in &files {
        direct.push(pair.load(file.as_bytes(), true));
    }
    // Every file, the sign with two value lines too.
    let multi_line = files
        .iter()
        .any(|f| f.contains("\n\"b c\"\n") || f.contains("\nb c\n"));
    assert!(multi_line, "{files:?}");
    for (i, d) in direct.iter().enumerate() {
        assert!(*d, "{}", files[i]);
    }
    // Loaded again: every id is live, so no file reads directly (each is an error).
    for file in &files {
        assert!(!pair.load(file.as_bytes(), false));
    }
    // And the canonical reading gives what was saved: the same bytes back.
    let mut fresh = EntityManager::new();
    for file in &files {
        let loaded = load_entity(&mut fresh, Path::new("f.jasset"), file.as_bytes()).unwrap();
        let mut out = String::new();
        save_entity(&fresh, loaded.id, &loaded.data, &mut out).unwrap();
        assert_eq!(&out, file);
    }
}

#[test]
fn mutated_files_load_as_the_general_path_loads_them() {
    let files = saved_world_files();
    let late_before = READ_AGAIN.get();
    let (mut cases, mut read_directly) = (0, 0);
    for (n, file) in files.iter().enumerate() {
        let id = n as u64 + 1;
        assert!(file.contains(&format!("0x{id:016X}")), "{file}");
        for mutated in mutations(file, id) {
            // Each alone in a fresh manager (the first entity of its kind), with and
            // without templates...
            for with_templates in [false, true] {
                let mut pair = Pair::new();
                read_directly += usize::from(pair.load(mutated.as_bytes(), with_templates));
                cases += 1;
            }
            // ...and after the canonical files, whose ids and kinds are then taken.
            let mut pair = Pair::new();
            for other in &files {
                pair.load(other.as_bytes(), true);
            }
            pair.load(mutated.as_bytes(), true);
        }
    }
    assert!(cases > 900, "{cases}");
    // A few variants are canonical too (a position written elsewhere, a property
    // left out, no final newline...), most are not.
    assert!(
        read_directly > 0 && read_directly < cases / 2,
        "{read_directly} of {cases}"
    );
    // Declines after the allocation (its undo) were exercised.
    assert!(READ_AGAIN.get() - late_before > 50);
}

#[test]
fn random_edits_load_as_the_general_path_loads_them() {
    let files = saved_world_files();
    let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut pair = Pair::new();
    let mut read_directly = 0;
    for round in 0..3000 {
        let file = &files[rng.random_range(0..files.len())];
        let text = random_edit(&mut rng, file);
        read_directly += usize::from(pair.load(text.as_bytes(), round % 2 == 0));
        // Now and then a fresh pair, so that ids and kinds come free again.
        if round % 50 == 49 {
            pair = Pair::new();
        }
    }
    assert!(read_directly > 0, "some edits keep a canonical file");
}

#[test]
fn a_file_read_again_leaves_no_kind_storage_of_its_first_reading() {
    // The sign with a comment between its two lines (not canonical): the walk goes on
    // over the tokenizer's nodes, no second reading.
    let text = "; AssetType\nEntity\n; BaseVersion\n1\n; EntityID\n0x0000000000000005\n\
                ; Kind\nTestSign\n; ClassVersion\n1\n; Lines\na\n# b next\nb\n";
    let late_before = READ_AGAIN.get();
    let mut m = EntityManager::new();
    let loaded = load_entity(&mut m, Path::new("s.jasset"), text.as_bytes()).unwrap();
    assert!(!loaded.direct);
    assert_eq!(READ_AGAIN.get(), late_before);
    assert_eq!(m.get::<Sign>(EntityId(5)).unwrap().lines, ["a", "b"]);
    assert_eq!(m.kinds().len(), 1);
    // An error after the tokenizer took over: read again, and the entity is gone.
    let bad = text.replace("\nb\n", "\nb\n; Size\nbig\n");
    let mut m = EntityManager::new();
    let before = READ_AGAIN.get();
    assert!(load_entity(&mut m, Path::new("s.jasset"), bad.as_bytes()).is_err());
    assert_eq!(READ_AGAIN.get(), before + 1);
    assert!(m.is_empty());
    assert_eq!(
        m.kinds().len(),
        1,
        "the general path's allocation made it, as before"
    );
    // A duplicate key after the class part: the general path fails before allocating,
    // so the canonical reading's kind storage must not stay.
    let dup = format!("{text}; id\n0x0000000000000006\n").replace("; Lines\na\n# b next\nb\n", "");
    let mut m = EntityManager::new();
    let err = load_entity(&mut m, Path::new("s.jasset"), dup.as_bytes()).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::DuplicateKey { .. }), "{err}");
    assert!(m.kinds().is_empty());
}

#[test]
fn the_direct_path_reads_what_the_file_says() {
    let text = "; AssetType\nEntity\n; BaseVersion\n1\n; EntityID\n0x00000000000000A1\n\
                ; Kind\nCollectible\n; Position\n1.0 2.0 3.0\n; ClassVersion\n1\n; Value\n42\n";
    let mut m = EntityManager::new();
    let loaded = load_entity(&mut m, Path::new("c.jasset"), text.as_bytes()).unwrap();
    assert!(loaded.direct);
    assert_eq!(loaded.id, EntityId(0xA1));
    assert!(loaded.warnings.is_empty() && loaded.data == EntityFileData::default());
    let (e, c) = m.get_with_entity::<Collectible>(EntityId(0xA1)).unwrap();
    assert_eq!((e.position(), c.value), (Vec3::new(1.0, 2.0, 3.0), 42));
    assert!(!e.is_dirty() && e.template().is_none());
    assert_eq!(m.next_id(), EntityId(0xA2));
    assert_eq!(Collectible::CLASS.name(), "Collectible");
}

#[test]
fn a_saved_world_loads_back_through_the_direct_path() {
    let root = tempfile::tempdir().unwrap();
    let files = save_world_at(root.path());
    let (mut world, report) = World::load(root.path(), &crate::LoadOptions::default()).unwrap();
    assert!(report.is_clean(), "{report:?}");
    // All of them, the sign with two value lines too.
    assert_eq!((report.loaded, report.direct), (9, 9));
    let mut texts = Vec::new();
    for e in world.manager().entities() {
        assert!(!e.is_dirty());
        let mut out = String::new();
        save_entity(
            world.manager(),
            e.id,
            world.file_data(e.id).unwrap(),
            &mut out,
        )
        .unwrap();
        texts.push(out);
    }
    texts.sort();
    let mut expected = files.clone();
    expected.sort();
    assert_eq!(texts, expected);
    assert!(world.save_world().unwrap().written.is_empty());
}

/// Every prefix of an entity file's class part followed by a hostile tail (a decline
/// after the allocation and after some properties were found, or an error the general
/// path reports), loaded into managers that already hold entities of every kind, with
/// holes left by destroyed ones: both paths give the same result and the same state,
/// and the loaded entity, destroyed again after each file, leaves both the same too.
#[test]
fn a_decline_after_any_prefix_of_the_class_part_leaves_the_general_paths_state() {
    let files = saved_world_files();
    let mut pair = Pair::new();
    for file in &files {
        pair.load(file.as_bytes(), true);
    }
    // Holes: the first rock and the crate go (records move into their places).
    for id in [EntityId(1), EntityId(5)] {
        pair.fast.destroy_entity(id).unwrap();
        pair.general.destroy_entity(id).unwrap();
    }
    let tails = [
        "",
        "\n",
        "# c\n",
        "; Unknown\n1\n",
        "; ClassVersion\n1\n",
        "; ClassVersion\nx\n",
        "; Position\n1 2 3\n",
        "; Kind\nInert\n",
        "; EntityID\n0x0000000000000002\n",
        "; Template\nAssets/Templates/Rock.jasset\n",
        "; Mass\nheavy\n",
        "; Mass\n1.5\n",
        "; X\n\"open\n",
        ";\n",
        "stray\n",
        "; Mass\n",
        "\r\n",
    ];
    let late_before = READ_AGAIN.get();
    let mut case = 0u64;
    let mut read_directly = 0;
    for (n, file) in files.iter().enumerate() {
        let hex = format!("0x{:016X}", n + 1);
        let l = lines(file);
        let Some(c) = l.iter().position(|x| x == "; ClassVersion\n") else {
            continue;
        };
        let starts: Vec<usize> = (c..=l.len())
            .filter(|&i| i == l.len() || l[i].starts_with("; "))
            .collect();
        for &cut in &starts {
            for tail in tails {
                case += 1;
                let id = EntityId(0x1000 + case);
                let text = format!("{}{tail}{}", l[..cut].concat(), l[cut..].concat()).replacen(
                    &hex,
                    &format!("0x{:016X}", id.0),
                    1,
                );
                read_directly += usize::from(pair.load(text.as_bytes(), case % 2 == 0));
                // Take the entity back (when it loaded), in both managers alike.
                let fast = pair.fast.destroy_entity(id).is_ok();
                assert_eq!(fast, pair.general.destroy_entity(id).is_ok(), "{text}");
                assert_eq!(manager_state(&pair.fast), manager_state(&pair.general));
            }
        }
    }
    assert!(case > 300, "{case}");
    assert!(read_directly > 0);
    assert!(READ_AGAIN.get() - late_before > 100);
}

/// A derived kind whose drop panics for `fuse == 13` (as the support kind `Exploding`,
/// but derived, with the derive's loader).
#[derive(crate::Entity, Debug, Clone, PartialEq)]
struct Volatile {
    fuse: u32,
    label: String,
}

impl Drop for Volatile {
    fn drop(&mut self) {
        assert_ne!(self.fuse, 13, "a Volatile with fuse 13 dropped");
    }
}

/// A file the canonical reading gives up on after the allocation (at `Unknown`, after
/// `Fuse`): the walk goes on over the tokenizer's nodes, so the entity read so far is
/// kept (`Ok`, `fuse` 13, `Unknown` kept), not destroyed and read again: its value made
/// from the file is never dropped, which would panic here.
#[test]
fn a_file_completed_by_the_tokenizer_drops_no_value_made_from_the_file() {
    let text = "; AssetType\nEntity\n; BaseVersion\n1\n; EntityID\n0x0000000000000077\n\
                ; Kind\nVolatile\n; ClassVersion\n1\n; Fuse\n13\n; Unknown\n1\n";
    let id = EntityId(0x77);
    let mut general = EntityManager::new();
    let registry = general.registry().unwrap();
    let want = read_again(
        &mut TokenBuffer::new(),
        &mut general,
        registry,
        None,
        Path::new("v.jasset"),
        text.as_bytes(),
        0,
    );
    assert!(want.is_ok(), "{}", result_text(&want));
    assert_eq!(general.get::<Volatile>(id).unwrap().fuse, 13);
    let mut fast = EntityManager::new();
    let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        load_entity(&mut fast, Path::new("v.jasset"), text.as_bytes()).map(|l| result_text(&Ok(l)))
    }));
    // Defuse what is alive, so that the managers drop quietly.
    for m in [&mut general, &mut fast] {
        if let Some(v) = m.get_mut::<Volatile>(id) {
            v.fuse = 0;
        }
    }
    // After the panic `fast` is consistent and empty, but keeps the `Volatile` kind
    // storage the canonical reading made (the panic skips `forget_kinds_from`).
    let got =
        got.expect("load_entity panicked: the canonical reading dropped the half-read entity");
    assert_eq!(got, Ok(result_text(&want)));
    assert_eq!(manager_state(&fast), manager_state(&general));
}

thread_local! {
    /// `Ticket` values alive on this thread.
    static TICKETS: std::cell::Cell<i64> = const { std::cell::Cell::new(0) };
}

/// A `u32` property whose live values are counted.
#[derive(Debug, PartialEq)]
struct Ticket(u32);

impl Ticket {
    fn new(v: u32) -> Ticket {
        TICKETS.set(TICKETS.get() + 1);
        Ticket(v)
    }
}

impl Clone for Ticket {
    fn clone(&self) -> Ticket {
        Ticket::new(self.0)
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        TICKETS.set(TICKETS.get() - 1);
    }
}

impl juliet_core::Codec for Ticket {
    const PROPERTY_TYPE: juliet_core::PropertyType = juliet_core::PropertyType::Custom("ticket");

    fn encode(&self, out: &mut String) {
        juliet_core::Codec::encode(&self.0, out);
    }

    fn decode<'a>(value: juliet_core::Value<'a>) -> Result<Self, juliet_core::ValueError<'a>> {
        <u32 as juliet_core::Codec>::decode(value).map(Ticket::new)
    }
}

/// A derived kind holding counted values, one heap field between them.
#[derive(crate::Entity, Debug, Clone, PartialEq)]
#[jasset(version = 2)]
struct Tally {
    #[jasset(default = Ticket::new(1))]
    first: Ticket,
    note: String,
    #[jasset(default = Ticket::new(2))]
    second: Ticket,
}

/// Files of the derived `Tally` declined after each property (and the canonical one),
/// loaded both ways: the same results and states, and once the managers are dropped
/// every counted value is gone (the entities the canonical reading destroyed included).
#[test]
fn declined_entities_leak_nothing() {
    let base = "; AssetType\nEntity\n; BaseVersion\n1\n; EntityID\n0x0000000000000042\n\
                ; Kind\nTally\n; Position\n1.0 2.0 3.0\n";
    let class = [
        "; ClassVersion\n2\n",
        "; First\n10\n",
        "; Note\nhi\n",
        "; Second\n20\n",
    ];
    let tails = [
        "",
        "; Unknown\n1\n",
        "; First\n11\n",
        "; Second\nx\n",
        "\n",
        "; Note\n\"open\n",
    ];
    let live = TICKETS.get();
    let late_before = READ_AGAIN.get();
    let mut direct = 0;
    for cut in 0..=class.len() {
        for tail in tails {
            let text = format!(
                "{base}{}{tail}{}",
                class[..cut].concat(),
                class[cut..].concat()
            );
            let mut pair = Pair::new();
            direct += usize::from(pair.load(text.as_bytes(), false));
            drop(pair);
            assert_eq!(TICKETS.get(), live, "{text}");
        }
    }
    // No tail, or a blank line (read straight from the text as well).
    assert_eq!(direct, 2 * (class.len() + 1), "the files with no tail");
    assert!(READ_AGAIN.get() - late_before >= 10);
}
