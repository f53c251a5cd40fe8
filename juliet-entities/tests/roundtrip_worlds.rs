//! Round trips at scale: a proptest over random worlds, written by hand-style writers
//! (any key spelling, block / inline / compact lines, CRLF, a BOM, comments), with
//! unknown keys and deprecated keys. Loading gives the modelled values; load -> save ->
//! load gives an equal world, whose second save is byte for byte the first; unknown
//! keys survive byte for byte; deprecated keys are migrated and never written again.

mod support;

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::Path;

use glam::Vec3;
use juliet_core::{normalize_key, WarningKind};
use juliet_entities::kinds::{Collectible, Inert, Projectile};
use juliet_entities::{Durability, EntityId, LoadOptions, World};
use proptest::prelude::*;
use support::Sign;

/// The derived values of one entity.
#[derive(Debug, Clone)]
enum Value {
    Inert(Inert),
    Collectible(Collectible),
    /// A projectile, and the `Speed` of a class-version-1 file (deprecated: migrated
    /// into `VelocityX`, with `VelocityY` 0).
    Projectile(Projectile, Option<f32>),
    Sign(Sign),
}

/// How a file is written.
#[derive(Debug, Clone)]
struct Style {
    /// 0: PascalCase, 1: snake_case, 2: lower case, 3: UPPER_SNAKE.
    spelling: u8,
    /// Per property: 0 block, 1 inline `; Key: value`, 2 compact `Key: value`.
    forms: Vec<u8>,
    crlf: bool,
    bom: bool,
    comments: bool,
}

#[derive(Debug, Clone)]
struct Model {
    id: u64,
    position: [f32; 3],
    value: Value,
    /// Unknown keys as written, with their value lines.
    unknown: Vec<(String, Vec<String>)>,
    style: Style,
}

fn finite() -> impl Strategy<Value = f32> {
    prop_oneof![
        -1e6f32..1e6,
        Just(0.0f32),
        Just(-0.0f32),
        any::<f32>().prop_filter("finite", |f| f.is_finite()),
    ]
}

fn vec3() -> impl Strategy<Value = Vec3> {
    [finite(), finite(), finite()].prop_map(Vec3::from_array)
}

/// Any text of one line (no LF, no NUL), as strings are.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-z0-9_./]{0,12}",
        "[ -~]{0,16}",
        "\\PC{0,8}".prop_map(|s| s.replace(['\n', '\0'], "")),
        Just("# not a comment".to_owned()),
        Just("\"quoted\" \\ back".to_owned()),
        Just("[]".to_owned()),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        (
            any::<u32>(),
            text(),
            text(),
            vec3(),
            finite(),
            any::<bool>(),
            any::<bool>(),
            finite()
        )
            .prop_map(|(mi, ma, mo, sc, m, d, v, h)| Value::Inert(Inert {
                mesh_instance: mi,
                mesh_asset: ma,
                material_override: mo,
                scale: sc,
                mass: m,
                is_destructible: d,
                is_visible: v,
                health: h,
            })),
        any::<u32>().prop_map(|value| Value::Collectible(Collectible { value })),
        (finite(), finite(), finite(), proptest::option::of(finite())).prop_map(
            |(vx, vy, d, speed)| Value::Projectile(
                Projectile {
                    velocity_x: vx,
                    velocity_y: vy,
                    damage: d,
                },
                speed
            )
        ),
        (text(), proptest::collection::vec(text(), 0..4), finite())
            .prop_map(|(text, lines, size)| Value::Sign(Sign { text, lines, size })),
    ]
}

/// An unknown key (never a known key or alias: they all lack a `Zz`), with one to
/// three value lines of any text (one-line values may look like comments or headers).
fn unknown() -> impl Strategy<Value = (String, Vec<String>)> {
    (
        "[A-Za-z][A-Za-z0-9_]{0,6}",
        proptest::collection::vec("[!-~][ -~]{0,10}[!-~]|[!-~]", 1..4),
    )
        .prop_map(|(k, mut lines)| {
            if lines.len() > 1 {
                // Block value lines cannot start like a comment or a header.
                for l in &mut lines {
                    if l.starts_with(['#', ';']) || l.starts_with("//") {
                        l.insert(0, 'v');
                    }
                }
            }
            (format!("Zz{k}"), lines)
        })
}

fn model() -> impl Strategy<Value = Model> {
    (
        1u64..u64::MAX,
        [finite(), finite(), finite()],
        value(),
        proptest::collection::vec(unknown(), 0..4),
        (
            0u8..4,
            proptest::collection::vec(0u8..3, 16),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        ),
    )
        .prop_map(
            |(id, position, value, unknown, (spelling, forms, crlf, bom, comments))| Model {
                id,
                position,
                value,
                unknown,
                style: Style {
                    spelling,
                    forms,
                    crlf,
                    bom,
                    comments,
                },
            },
        )
}

fn world() -> impl Strategy<Value = Vec<Model>> {
    proptest::collection::vec(model(), 1..12).prop_map(|mut models| {
        // Distinct ids, and unknown keys distinct within a file.
        let mut ids = HashSet::new();
        models.retain(|m| ids.insert(m.id));
        for m in &mut models {
            let mut keys = HashSet::new();
            m.unknown.retain(|(k, _)| keys.insert(normalize_key(k)));
        }
        models
    })
}

/// A codec's text of `v`.
fn enc<T: juliet_core::Codec>(v: &T) -> String {
    let mut s = String::new();
    v.encode(&mut s);
    s
}

/// The key `pascal` (PascalCase) in spelling `s`.
fn spell(pascal: &str, s: u8) -> String {
    let snake: String = pascal
        .chars()
        .enumerate()
        .flat_map(|(i, c)| {
            let sep = (i > 0 && c.is_ascii_uppercase()).then_some('_');
            sep.into_iter()
                .chain(std::iter::once(c.to_ascii_lowercase()))
        })
        .collect();
    match s {
        0 => pascal.to_owned(),
        1 => snake,
        2 => pascal.to_ascii_lowercase(),
        _ => snake.to_ascii_uppercase(),
    }
}

/// The properties of `m`'s file: (key as PascalCase or as written, value lines,
/// whether the key is spelled by the style).
fn properties(m: &Model) -> Vec<(String, Vec<String>, bool)> {
    let mut p: Vec<(String, Vec<String>, bool)> = Vec::new();
    let mut known = |k: &str, v: String| p.push((k.to_owned(), vec![v], true));
    known("EntityID", enc(&m.id));
    known("Position", enc(&Vec3::from_array(m.position)));
    match &m.value {
        Value::Inert(v) => {
            known("Kind", "Inert".into());
            known("MeshInstance", enc(&v.mesh_instance));
            known("MeshAsset", enc(&v.mesh_asset));
            known("MaterialOverride", enc(&v.material_override));
            known("Scale", enc(&v.scale));
            known("Mass", enc(&v.mass));
            known("IsDestructible", enc(&v.is_destructible));
            known("IsVisible", enc(&v.is_visible));
            known("Health", enc(&v.health));
        }
        Value::Collectible(v) => {
            known("Kind", "Collectible".into());
            known("Value", enc(&v.value));
        }
        Value::Projectile(v, speed) => {
            known("Kind", "Projectile".into());
            match speed {
                Some(speed) => {
                    // A version-1 file: `Speed`, no `VelocityX` / `VelocityY`.
                    known("ClassVersion", "1".into());
                    known("Speed", enc(speed));
                }
                None => {
                    known("VelocityX", enc(&v.velocity_x));
                    known("VelocityY", enc(&v.velocity_y));
                }
            }
            known("Damage", enc(&v.damage));
        }
        Value::Sign(v) => {
            known("Kind", "TestSign".into());
            known("Text", enc(&v.text));
            known("Size", enc(&v.size));
            let lines = enc(&v.lines).split('\n').map(str::to_owned).collect();
            p.push(("Lines".into(), lines, true));
        }
    }
    for (k, lines) in &m.unknown {
        p.push((k.clone(), lines.clone(), false));
    }
    p
}

/// Writes `m`'s file in its style.
fn write_file(m: &Model) -> Vec<u8> {
    let nl = if m.style.crlf { "\r\n" } else { "\n" };
    let mut out = String::new();
    if m.style.bom {
        out.push('\u{feff}');
    }
    let mut block_open = false;
    for (i, (key, lines, styled)) in properties(m).into_iter().enumerate() {
        let key = if styled {
            spell(&key, m.style.spelling)
        } else {
            key
        };
        if m.style.comments {
            out.push_str(&format!("  # about {key}{nl}{nl}"));
        }
        let looks_special = lines[0].starts_with(['#', ';']) || lines[0].starts_with("//");
        let mut form = m.style.forms[i % m.style.forms.len()];
        if lines.len() > 1 {
            form = 0;
        } else if looks_special && form == 0 {
            form = 1;
        }
        if form == 2 && block_open {
            form = 1; // a compact line inside a block would be a value line
        }
        match form {
            0 => {
                out.push_str(&format!("; {key}{nl}"));
                for l in &lines {
                    out.push_str(&format!("\t{l}{nl}"));
                }
                block_open = true;
            }
            1 => {
                out.push_str(&format!(";{key} : {}{nl}", lines[0]));
                block_open = false;
            }
            _ => {
                out.push_str(&format!("{key}:{}{nl}", lines[0]));
                block_open = false;
            }
        }
    }
    out.into_bytes()
}

/// Checks that entity `id` of `world` has `m`'s values.
fn check_values(world: &World, m: &Model) {
    let mgr = world.manager();
    let id = EntityId(m.id);
    let e = mgr.entity(id).expect("loaded");
    let bits = |v: Vec3| v.to_array().map(f32::to_bits);
    assert_eq!(bits(e.position()), m.position.map(f32::to_bits));
    let same = |a: String, b: String| assert_eq!(a, b, "entity {id}");
    match &m.value {
        Value::Inert(v) => same(
            format!("{:?}", mgr.get::<Inert>(id).unwrap()),
            format!("{v:?}"),
        ),
        Value::Collectible(v) => assert_eq!(mgr.get::<Collectible>(id), Some(v)),
        Value::Projectile(v, speed) => {
            let mut want = v.clone();
            if let Some(s) = speed {
                want.velocity_x = *s;
                want.velocity_y = 0.0;
            }
            same(
                format!("{:?}", mgr.get::<Projectile>(id).unwrap()),
                format!("{want:?}"),
            )
        }
        Value::Sign(v) => same(
            format!("{:?}", mgr.get::<Sign>(id).unwrap()),
            format!("{v:?}"),
        ),
    }
    let data = world.file_data(id).unwrap();
    let unknown: Vec<(String, Vec<String>)> = data
        .unknown
        .iter()
        .map(|u| (u.key().to_owned(), u.lines().map(str::to_owned).collect()))
        .collect();
    assert_eq!(unknown, m.unknown, "unknown keys of {id}, byte for byte");
}

/// Marks every entity dirty and saves.
fn save_all(world: &mut World) {
    world.set_durability(Durability::Fast);
    world.manager_mut().for_each_entity_mut(|e| e.mark_dirty());
    world.save_world().unwrap();
}

fn files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(root.join("Entities"))
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                fs::read(&p).unwrap(),
            )
        })
        .collect()
}

fn load(root: &Path, models: &[Model]) -> World {
    let (world, report) = World::load(root, &LoadOptions::default()).unwrap();
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.loaded, models.len());
    // Only unknown keys warn.
    for w in &report.warnings {
        assert!(matches!(w.kind, WarningKind::UnknownKey(_)), "{w}");
    }
    let unknown: usize = models.iter().map(|m| m.unknown.len()).sum();
    assert_eq!(report.warnings.len(), unknown);
    world.manager().check_invariants().unwrap();
    world
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn load_save_load_gives_an_equal_world(models in world()) {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("Entities");
        fs::create_dir_all(&dir).unwrap();
        for (i, m) in models.iter().enumerate() {
            fs::write(dir.join(format!("e{i}.jasset")), write_file(m)).unwrap();
        }

        let mut first = load(root.path(), &models);
        for m in &models {
            check_values(&first, m);
        }
        save_all(&mut first);
        let saved = files(root.path());
        // Deprecated keys the migration consumed are not written again (the files are
        // edited in place, so their header lines stay as written).
        for text in saved.values() {
            let text = String::from_utf8_lossy(text);
            prop_assert!(!text.contains("\n; Speed\n"));
        }

        // The saved world loads to the same values and unknown keys...
        let mut second = load(root.path(), &models);
        for m in &models {
            check_values(&second, m);
            // ...whose every key appears in the file as written.
            let file = second.file_of(EntityId(m.id)).unwrap().to_owned();
            let text = fs::read_to_string(file).unwrap();
            let mut buffer = juliet_core::TokenBuffer::new();
            let doc = buffer.tokenize(text.as_bytes(), Path::new("e.jasset")).unwrap();
            for (k, lines) in &m.unknown {
                let i = (0..doc.len()).find(|&i| doc.key(i) == k);
                let found: Option<Vec<&str>> = i.map(|i| doc.value(i).lines().collect());
                prop_assert_eq!(found, Some(lines.iter().map(String::as_str).collect()), "{} in {}", k, text);
            }
        }
        // ...and saves to the same bytes.
        save_all(&mut second);
        prop_assert_eq!(files(root.path()), saved);
    }
}
