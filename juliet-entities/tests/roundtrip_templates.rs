//! Round trips at scale with templates: a proptest over random projects (templates of
//! the stock kinds, variants of templates, instances with random overrides, some equal
//! to the template's value, positions, unknown keys, plain entities beside them, any
//! key spelling and line form). Loading gives the modelled values and overrides; load ->
//! save -> load gives an equal world whose instance files hold exactly their overrides
//! and unknown keys (byte for byte); a second save writes the same bytes.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fs;
use std::path::Path;

use glam::Vec3;
use juliet_core::{normalize_key, Codec, Reflect, TokenBuffer, WarningKind};
use juliet_entities::kinds::{Collectible, Inert, Projectile};
use juliet_entities::{Durability, EntityId, LoadOptions, World};
use proptest::prelude::*;

/// Property values as their canonical text, by key, in declaration order.
type Props = Vec<(&'static str, String)>;

fn enc<T: Codec>(v: &T) -> String {
    let mut s = String::new();
    v.encode(&mut s);
    s
}

/// The stock kinds: name and the canonical text of their defaults.
fn defaults(kind: usize) -> (&'static str, Props) {
    match kind {
        0 => {
            let d = Inert::default_value();
            (
                "Inert",
                vec![
                    ("MeshInstance", enc(&d.mesh_instance)),
                    ("MeshAsset", enc(&d.mesh_asset)),
                    ("MaterialOverride", enc(&d.material_override)),
                    ("Scale", enc(&d.scale)),
                    ("Mass", enc(&d.mass)),
                    ("IsDestructible", enc(&d.is_destructible)),
                    ("IsVisible", enc(&d.is_visible)),
                    ("Health", enc(&d.health)),
                ],
            )
        }
        1 => (
            "Collectible",
            vec![("Value", enc(&Collectible::default_value().value))],
        ),
        _ => {
            let d = Projectile::default_value();
            (
                "Projectile",
                vec![
                    ("VelocityX", enc(&d.velocity_x)),
                    ("VelocityY", enc(&d.velocity_y)),
                    ("Damage", enc(&d.damage)),
                ],
            )
        }
    }
}

fn finite() -> impl Strategy<Value = f32> {
    prop_oneof![
        (-1000i32..1000).prop_map(|i| i as f32 / 4.0),
        any::<f32>().prop_filter("finite", |f| f.is_finite()),
    ]
}

/// A random value (canonical text) for property `key`.
fn value_of(key: &'static str) -> BoxedStrategy<String> {
    match key {
        "MeshInstance" | "Value" => any::<u32>().prop_map(|v| enc(&v)).boxed(),
        "MeshAsset" | "MaterialOverride" => prop_oneof![
            "[A-Za-z0-9_/.]{1,16}",
            "[ -~]{0,12}",
            Just("# hash".to_owned())
        ]
        .prop_map(|s| enc(&s))
        .boxed(),
        "Scale" => [finite(), finite(), finite()]
            .prop_map(|a| enc(&Vec3::from_array(a)))
            .boxed(),
        "IsDestructible" | "IsVisible" => any::<bool>().prop_map(|v| enc(&v)).boxed(),
        _ => finite().prop_map(|v| enc(&v)).boxed(),
    }
}

/// Random values for a subset of the properties of `kind` (each with probability 1/2),
/// or, with `pin_from`, some of them equal to `pin_from`'s value for that key.
fn some_props(kind: usize) -> BoxedStrategy<Props> {
    let keys: Vec<&'static str> = defaults(kind).1.into_iter().map(|(k, _)| k).collect();
    let per_key: Vec<BoxedStrategy<Option<(&'static str, String)>>> = keys
        .into_iter()
        .map(|k| proptest::option::of(value_of(k).prop_map(move |v| (k, v))).boxed())
        .collect();
    per_key
        .prop_map(|props| props.into_iter().flatten().collect())
        .boxed()
}

#[derive(Debug, Clone)]
struct TemplateModel {
    kind: usize,
    /// Index of the parent template (an earlier template of the same kind).
    parent: Option<usize>,
    own: Props,
}

#[derive(Debug, Clone)]
struct InstanceModel {
    id: u64,
    template: usize,
    /// Overrides written in the file (declaration order); some may equal the
    /// template's value (pinned).
    own: Props,
    /// Keys of `own` to set to the template's own value instead (pinned overrides).
    pin: Vec<bool>,
    position: Option<[f32; 3]>,
    /// Whether the file names `Kind` too.
    with_kind: bool,
    unknown: Vec<(String, String)>,
    /// Key spelling: 0 as declared, 1 lower case, 2 snake_case-ish (`_` added).
    spelling: u8,
    /// 0: block lines, 1: `; Key: value`, 2: `Key: value`.
    form: u8,
}

#[derive(Debug, Clone)]
struct ProjectModel {
    templates: Vec<TemplateModel>,
    instances: Vec<InstanceModel>,
}

fn template_models() -> impl Strategy<Value = Vec<TemplateModel>> {
    proptest::collection::vec((0usize..3, any::<prop::sample::Index>()), 1..6).prop_flat_map(
        |picks| {
            // Parents: an earlier template of the same kind, chosen by the index.
            let mut shapes = Vec::new();
            for (i, (kind, pick)) in picks.iter().enumerate() {
                let same: Vec<usize> = (0..i).filter(|&j| picks[j].0 == *kind).collect();
                let parent =
                    (!same.is_empty() && pick.index(3) > 0).then(|| same[pick.index(same.len())]);
                shapes.push((*kind, parent));
            }
            shapes
                .into_iter()
                .map(|(kind, parent)| {
                    some_props(kind).prop_map(move |own| TemplateModel { kind, parent, own })
                })
                .collect::<Vec<_>>()
        },
    )
}

fn instance_model(templates: &[TemplateModel]) -> impl Strategy<Value = InstanceModel> {
    let kinds: Vec<usize> = templates.iter().map(|t| t.kind).collect();
    (0..templates.len()).prop_flat_map(move |template| {
        (
            1u64..1 << 40,
            some_props(kinds[template]),
            proptest::collection::vec(any::<bool>(), 8),
            proptest::option::of([finite(), finite(), finite()]),
            any::<bool>(),
            proptest::collection::vec(("[A-Za-z][A-Za-z0-9]{0,5}", "[!-~]{1,8}"), 0..3),
            0u8..3,
            0u8..3,
        )
            .prop_map(
                move |(id, own, pin, position, with_kind, unknown, spelling, form)| InstanceModel {
                    id,
                    template,
                    own,
                    pin,
                    position,
                    with_kind,
                    unknown: unknown
                        .into_iter()
                        .map(|(k, v)| (format!("Zz{k}"), v))
                        .collect(),
                    spelling,
                    form,
                },
            )
    })
}

fn project() -> impl Strategy<Value = ProjectModel> {
    template_models().prop_flat_map(|templates| {
        let instance = instance_model(&templates);
        (Just(templates), proptest::collection::vec(instance, 1..10)).prop_map(
            |(templates, mut instances)| {
                let mut ids = HashSet::new();
                instances.retain(|i| ids.insert(i.id));
                for i in &mut instances {
                    let mut keys = HashSet::new();
                    i.unknown
                        .retain(|(k, _)| keys.insert(k.to_ascii_lowercase()));
                }
                ProjectModel {
                    templates,
                    instances,
                }
            },
        )
    })
}

/// Overlays `over` on `base` (by key).
fn overlay(base: &Props, over: &Props) -> Props {
    base.iter()
        .map(|(k, v)| {
            let v = over.iter().find(|(o, _)| o == k).map_or(v, |(_, o)| o);
            (*k, v.clone())
        })
        .collect()
}

/// The archetype of template `t`: class defaults, then each ancestor's own values.
fn archetype(p: &ProjectModel, t: usize) -> Props {
    let m = &p.templates[t];
    let base = match m.parent {
        Some(parent) => archetype(p, parent),
        None => defaults(m.kind).1,
    };
    overlay(&base, &m.own)
}

/// An instance's file overrides after pinning: the chosen ones take the archetype's
/// value (an override equal to the template's, kept because the file names it).
fn overrides_of(p: &ProjectModel, i: &InstanceModel) -> Props {
    let arch = archetype(p, i.template);
    i.own
        .iter()
        .enumerate()
        .map(|(n, (k, v))| {
            if i.pin[n % i.pin.len()] {
                let same = arch.iter().find(|(a, _)| a == k).unwrap();
                (*k, same.1.clone())
            } else {
                (*k, v.clone())
            }
        })
        .collect()
}

fn spell(key: &str, s: u8) -> String {
    match s {
        0 => key.to_owned(),
        1 => key.to_ascii_lowercase(),
        _ => key.chars().flat_map(|c| [c, '_']).collect(),
    }
}

fn template_path(t: usize) -> String {
    format!("Assets/Templates/T{t}.jasset")
}

fn write_property(out: &mut String, key: &str, value: &str, form: u8, block_open: &mut bool) {
    let special = value.starts_with(['#', ';']) || value.starts_with("//");
    match form {
        0 if !special => {
            out.push_str(&format!("; {key}\n{value}\n"));
            *block_open = true;
            return;
        }
        2 if !*block_open => out.push_str(&format!("{key}: {value}\n")),
        _ => out.push_str(&format!("; {key}: {value}\n")),
    }
    *block_open = false;
}

fn write_project(root: &Path, p: &ProjectModel) -> std::path::PathBuf {
    let templates = root.join("Assets/Templates");
    let world = root.join("Assets/Worlds/W");
    fs::create_dir_all(&templates).unwrap();
    fs::create_dir_all(world.join("Entities")).unwrap();
    for (t, m) in p.templates.iter().enumerate() {
        let mut text = String::new();
        match m.parent {
            Some(parent) => text.push_str(&format!("Template: {}\n", template_path(parent))),
            None => text.push_str(&format!("Kind: {}\n", defaults(m.kind).0)),
        }
        for (k, v) in &m.own {
            text.push_str(&format!("; {k}\n{v}\n"));
        }
        fs::write(root.join(template_path(t)), text).unwrap();
    }
    for i in &p.instances {
        let mut text = String::new();
        let mut open = false;
        let form = i.form;
        write_property(
            &mut text,
            &spell("EntityID", i.spelling),
            &enc(&i.id),
            form,
            &mut open,
        );
        let path = template_path(i.template);
        write_property(
            &mut text,
            &spell("Template", i.spelling),
            &path,
            form,
            &mut open,
        );
        if i.with_kind {
            let kind = defaults(p.templates[i.template].kind).0;
            write_property(&mut text, &spell("Kind", i.spelling), kind, form, &mut open);
        }
        if let Some(pos) = i.position {
            let v = enc(&Vec3::from_array(pos));
            write_property(
                &mut text,
                &spell("Position", i.spelling),
                &v,
                form,
                &mut open,
            );
        }
        for (k, v) in overrides_of(p, i) {
            write_property(&mut text, &spell(k, i.spelling), &v, form, &mut open);
        }
        for (k, v) in &i.unknown {
            write_property(&mut text, k, v, form, &mut open);
        }
        fs::write(world.join(format!("Entities/{:016X}.jasset", i.id)), text).unwrap();
    }
    world
}

fn load(world: &Path, root: &Path, p: &ProjectModel) -> World {
    let options = LoadOptions {
        project_root: Some(root.to_owned()),
        ..LoadOptions::default()
    };
    let (world, report) = World::load(world, &options).unwrap();
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.loaded, p.instances.len());
    for w in &report.warnings {
        assert!(matches!(w.kind, WarningKind::UnknownKey(_)), "{w}");
    }
    world.manager().check_invariants().unwrap();
    world
}

/// Checks every instance's values, position, overrides and unknown keys.
fn check(world: &World, p: &ProjectModel) {
    for i in &p.instances {
        let id = EntityId(i.id);
        let expected = overlay(&archetype(p, i.template), &overrides_of(p, i));
        for (k, v) in &expected {
            assert_eq!(
                &world.manager().property_text(id, k).unwrap(),
                v,
                "{id} {k}"
            );
        }
        let position = i.position.unwrap_or([0.0; 3]).map(f32::to_bits);
        let e = world.manager().entity(id).unwrap();
        assert_eq!(e.position().to_array().map(f32::to_bits), position);
        let pinned: BTreeSet<&str> = world
            .overrides(id)
            .unwrap()
            .iter()
            .map(|o| {
                assert!(o.pinned, "{id}: {} differs unrecorded", o.key);
                o.key
            })
            .collect();
        let own: BTreeSet<&str> = i.own.iter().map(|(k, _)| *k).collect();
        assert_eq!(pinned, own, "overrides of {id}");
        let unknown: Vec<(String, String)> = world
            .file_data(id)
            .unwrap()
            .unknown
            .iter()
            .map(|u| (u.key().to_owned(), u.lines().collect::<Vec<_>>().join("\n")))
            .collect();
        assert_eq!(unknown, i.unknown, "unknown keys of {id}");
    }
}

fn save_all(world: &mut World) {
    world.set_durability(Durability::Fast);
    world.manager_mut().for_each_entity_mut(|e| e.mark_dirty());
    world.save_world().unwrap();
}

fn files(dir: &Path) -> BTreeMap<String, String> {
    fs::read_dir(dir.join("Entities"))
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// The keys of a file, in order.
fn keys(text: &str) -> Vec<String> {
    let mut buffer = TokenBuffer::new();
    let doc = buffer
        .tokenize(text.as_bytes(), Path::new("k.jasset"))
        .unwrap();
    (0..doc.len()).map(|i| doc.key(i).to_owned()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn instances_round_trip_with_their_overrides(p in project()) {
        let root = tempfile::tempdir().unwrap();
        let world_dir = write_project(root.path(), &p);
        let mut first = load(&world_dir, root.path(), &p);
        check(&first, &p);
        save_all(&mut first);
        let saved = files(&world_dir);

        // Sparse files: the position when the instance has its own, the overrides and
        // the unknown keys (under the file's spellings: saves edit the files in place).
        let header = [
            "assettype", "baseversion", "version", "entityid", "id", "kind", "class",
            "entitytype", "template", "classversion",
        ];
        for i in &p.instances {
            let text = &saved[&format!("{:016X}.jasset", i.id)];
            let mut want: Vec<String> = i.own.iter().map(|(k, _)| normalize_key(k)).collect();
            if i.position.is_some() {
                want.push("position".into());
            }
            want.extend(i.unknown.iter().map(|(k, _)| normalize_key(k)));
            want.sort();
            want.dedup();
            let mut got: Vec<String> = keys(text)
                .iter()
                .map(|k| normalize_key(k))
                .filter(|k| !header.contains(&k.as_str()))
                .collect();
            got.sort();
            prop_assert_eq!(got, want, "{}", text);
        }

        let mut second = load(&world_dir, root.path(), &p);
        check(&second, &p);
        save_all(&mut second);
        prop_assert_eq!(files(&world_dir), saved);
    }
}
