//! The design's example files and inline inputs (`tests/fixtures/`, see its README) parse
//! as written: each is tokenized, its keys, value lines and positions are checked
//! against the example text, and its values are decoded to the types the design gives them.
//!
//! Expected values are read off the design's examples, not off the code.

use std::path::{Path, PathBuf};

use glam::{Vec2, Vec3};
use juliet_core::{key_crc, Codec, Document, ErrorKind, LineForm, TokenBuffer};

/// Reads `tests/fixtures/<rel>`.
fn fixture(rel: &str) -> (Vec<u8>, PathBuf) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (bytes, path)
}

/// One expected node: key as written, value lines, key line, key column, line form.
type Node<'a> = (&'a str, &'a [&'a str], u32, u32, LineForm);

/// Asserts the nodes of `doc`, in file order.
fn assert_nodes(doc: &Document<'_>, expected: &[Node<'_>]) {
    let found: Vec<(String, Vec<String>, u32, u32, LineForm)> = (0..doc.len())
        .map(|i| {
            let n = doc.node(i);
            (
                doc.key(i).to_owned(),
                doc.value(i).lines().map(str::to_owned).collect(),
                n.line,
                n.column,
                n.form,
            )
        })
        .collect();
    let expected: Vec<(String, Vec<String>, u32, u32, LineForm)> = expected
        .iter()
        .map(|(k, v, l, c, f)| {
            (
                (*k).to_owned(),
                v.iter().map(|s| (*s).to_owned()).collect(),
                *l,
                *c,
                *f,
            )
        })
        .collect();
    assert_eq!(found, expected, "nodes of {}", doc.path().display());
}

/// Finds `key` (any spelling) and decodes it as a `T` through `Document::decode`.
fn typed<T: Codec>(doc: &mut Document<'_>, key: &str) -> T {
    let index = doc
        .find_name(key)
        .unwrap_or_else(|| panic!("{}: no key {key}", doc.path().display()));
    doc.decode(index)
        .unwrap_or_else(|e| panic!("decoding {key}: {e}"))
}

use LineForm::{Block, Compact, Inline};

#[test]
fn format_entity_01() {
    let (bytes, path) = fixture("format/Entity_01.jasset");
    let mut buffer = TokenBuffer::new();
    let mut doc = buffer.tokenize(&bytes, &path).unwrap();
    assert_nodes(
        &doc,
        &[
            ("AssetType", &["Entity"], 4, 3, Block),
            ("BaseVersion", &["1"], 7, 3, Block),
            ("EntityID", &["0x0000000000000042"], 10, 3, Block),
            ("Kind", &["Inert"], 13, 3, Block),
            (
                "Position",
                &["100.000000 25.500000 -50.000000"],
                16,
                3,
                Block,
            ),
            ("ClassVersion", &["2"], 19, 3, Block),
            ("MeshInstance", &["4"], 22, 3, Block),
            (
                "MaterialOverride",
                &["\"Materials/M_Granite_Polished\""],
                25,
                3,
                Block,
            ),
            ("IsVisible", &["true"], 28, 3, Block),
        ],
    );
    assert_eq!(typed::<String>(&mut doc, "AssetType"), "Entity");
    assert_eq!(typed::<u32>(&mut doc, "BaseVersion"), 1);
    assert_eq!(typed::<u64>(&mut doc, "EntityID"), 0x42);
    assert_eq!(typed::<String>(&mut doc, "Kind"), "Inert");
    assert_eq!(
        typed::<Vec3>(&mut doc, "Position"),
        Vec3::new(100.0, 25.5, -50.0)
    );
    assert_eq!(typed::<u32>(&mut doc, "ClassVersion"), 2);
    assert_eq!(typed::<i32>(&mut doc, "MeshInstance"), 4);
    assert_eq!(
        typed::<String>(&mut doc, "MaterialOverride"),
        "Materials/M_Granite_Polished"
    );
    assert!(typed::<bool>(&mut doc, "IsVisible"));
    assert_eq!(doc.unconsumed().count(), 0, "every key was read");
}

#[test]
fn format_entity_01_value_lines_are_located() {
    // A value decoded as the wrong type is reported at its own line (the line after
    // its key), column 1, naming the key.
    let (bytes, path) = fixture("format/Entity_01.jasset");
    let mut buffer = TokenBuffer::new();
    let mut doc = buffer.tokenize(&bytes, &path).unwrap();
    let index = doc.find_name("MaterialOverride").unwrap();
    let err = doc.decode::<f32>(index).unwrap_err();
    assert_eq!((err.location.line, err.location.column), (26, 1));
    assert_eq!(err.key.as_deref(), Some("MaterialOverride"));
    assert!(matches!(err.kind, ErrorKind::BadValue { .. }));
    // A wrong component count is reported at the start of the value line.
    let index = doc.find_name("Position").unwrap();
    let err = doc.decode::<[f32; 2]>(index).unwrap_err();
    assert_eq!((err.location.line, err.location.column), (17, 1));
    let index = doc.find_name("IsVisible").unwrap();
    let err = doc.decode::<i8>(index).unwrap_err();
    assert_eq!((err.location.line, err.location.column), (29, 1));
}

#[test]
fn format_section2_2_scalars() {
    let mut buffer = TokenBuffer::new();

    let (bytes, path) = fixture("format/section2_2_float.jasset");
    let mut doc = buffer.tokenize(&bytes, &path).unwrap();
    assert_nodes(
        &doc,
        &[
            ("Health", &["100.000000"], 1, 3, Block),
            ("Mass", &["14.250000"], 4, 3, Block),
        ],
    );
    assert_eq!(typed::<f32>(&mut doc, "Health"), 100.0);
    assert_eq!(typed::<f32>(&mut doc, "Mass"), 14.25);
    assert_eq!(typed::<f64>(&mut doc, "Mass"), 14.25);

    let (bytes, path) = fixture("format/section2_2_int32.jasset");
    let mut doc = buffer.tokenize(&bytes, &path).unwrap();
    assert_nodes(
        &doc,
        &[
            ("AmmoCount", &["45"], 1, 3, Block),
            ("TeamIndex", &["-1"], 4, 3, Block),
        ],
    );
    assert_eq!(typed::<i32>(&mut doc, "AmmoCount"), 45);
    assert_eq!(typed::<i32>(&mut doc, "TeamIndex"), -1);

    let (bytes, path) = fixture("format/section2_2_uint64.jasset");
    let mut doc = buffer.tokenize(&bytes, &path).unwrap();
    assert_nodes(
        &doc,
        &[
            ("EntityID", &["0x00000000DEADBEEF"], 1, 3, Block),
            ("LayerMask", &["0x0000000000000001"], 4, 3, Block),
        ],
    );
    assert_eq!(typed::<u64>(&mut doc, "EntityID"), 0xDEAD_BEEF);
    assert_eq!(typed::<u64>(&mut doc, "LayerMask"), 1);

    let (bytes, path) = fixture("format/section2_2_bool.jasset");
    let mut doc = buffer.tokenize(&bytes, &path).unwrap();
    assert_nodes(
        &doc,
        &[
            ("IsStatic", &["true"], 1, 3, Block),
            ("CastShadows", &["false"], 4, 3, Block),
        ],
    );
    assert!(typed::<bool>(&mut doc, "IsStatic"));
    assert!(!typed::<bool>(&mut doc, "CastShadows"));
}

#[test]
fn format_section2_2_vectors_and_strings() {
    let mut buffer = TokenBuffer::new();

    let (bytes, path) = fixture("format/section2_2_vector3.jasset");
    let mut doc = buffer.tokenize(&bytes, &path).unwrap();
    assert_nodes(
        &doc,
        &[
            ("Position", &["10.500000 0.000000 -25.250000"], 1, 3, Block),
            ("Scale", &["1.000000 1.000000 1.000000"], 4, 3, Block),
        ],
    );
    assert_eq!(
        typed::<Vec3>(&mut doc, "Position"),
        Vec3::new(10.5, 0.0, -25.25)
    );
    assert_eq!(typed::<[f32; 3]>(&mut doc, "Scale"), [1.0, 1.0, 1.0]);

    let (bytes, path) = fixture("format/section2_2_vector2.jasset");
    let mut doc = buffer.tokenize(&bytes, &path).unwrap();
    assert_nodes(&doc, &[("UVOffset", &["0.000000 0.500000"], 1, 3, Block)]);
    assert_eq!(typed::<Vec2>(&mut doc, "UVOffset"), Vec2::new(0.0, 0.5));
    assert_eq!(typed::<[f32; 2]>(&mut doc, "uv_offset"), [0.0, 0.5]);

    let (bytes, path) = fixture("format/section2_2_string.jasset");
    let mut doc = buffer.tokenize(&bytes, &path).unwrap();
    assert_nodes(
        &doc,
        &[
            ("AssetName", &["Character_Mesh_Hero"], 1, 3, Block),
            ("DisplayName", &["\"Grand Citadel Knight\""], 4, 3, Block),
        ],
    );
    assert_eq!(
        typed::<String>(&mut doc, "AssetName"),
        "Character_Mesh_Hero"
    );
    assert_eq!(
        typed::<String>(&mut doc, "DisplayName"),
        "Grand Citadel Knight"
    );
}

#[test]
fn format_section3_1_buffer_slices_match_the_figure() {
    // The figure gives the value slices' sizes: 14 bytes for Position, 5 for Health.
    let (bytes, path) = fixture("format/section3_1_buffer.jasset");
    let mut buffer = TokenBuffer::new();
    let mut doc = buffer.tokenize(&bytes, &path).unwrap();
    assert_nodes(
        &doc,
        &[
            ("Position", &["10.0 20.0 30.0"], 1, 3, Block),
            ("Health", &["100.0"], 3, 3, Block),
        ],
    );
    assert_eq!(doc.value(0).single().unwrap().len(), 14);
    assert_eq!(doc.value(1).single().unwrap().len(), 5);
    assert_eq!(doc.node(0).key_crc, key_crc("Position"));
    assert_eq!(doc.node(1).key_crc, key_crc("Health"));
    assert!(!doc.node(0).consumed && !doc.node(1).consumed);
    assert_eq!(
        typed::<Vec3>(&mut doc, "Position"),
        Vec3::new(10.0, 20.0, 30.0)
    );
    assert_eq!(typed::<f32>(&mut doc, "Health"), 100.0);
    assert!(doc.node(0).consumed && doc.node(1).consumed);
}

#[test]
fn snake_case_section4_1_snake_case_entity() {
    let (bytes, path) = fixture("snake_case/section4_1_entity.jasset");
    let mut buffer = TokenBuffer::new();
    let mut doc = buffer.tokenize(&bytes, &path).unwrap();
    assert_nodes(
        &doc,
        &[
            ("asset_type", &["entity_instance"], 1, 3, Block),
            ("id", &["0x0100000000000042"], 3, 3, Block),
            ("class", &["Inert"], 5, 3, Block),
            ("version", &["1"], 7, 3, Block),
            ("class_version", &["1"], 9, 3, Block),
            ("position", &["0.43 0.32 1.56"], 11, 3, Block),
            ("mesh_instance", &["12"], 13, 3, Block),
        ],
    );
    // Key matching ignores case and underscores: the PascalCase keys find them.
    assert_eq!(typed::<String>(&mut doc, "AssetType"), "entity_instance");
    assert_eq!(typed::<u64>(&mut doc, "id"), 0x0100_0000_0000_0042);
    assert_eq!(typed::<String>(&mut doc, "class"), "Inert");
    assert_eq!(typed::<u32>(&mut doc, "version"), 1);
    assert_eq!(typed::<u32>(&mut doc, "ClassVersion"), 1);
    assert_eq!(
        typed::<Vec3>(&mut doc, "Position"),
        Vec3::new(0.43, 0.32, 1.56)
    );
    assert_eq!(typed::<i32>(&mut doc, "MeshInstance"), 12);
    assert_eq!(doc.unconsumed().count(), 0);
}

#[test]
fn templates_rock_large_template() {
    let (bytes, path) = fixture("templates/RockLarge.jasset");
    let mut buffer = TokenBuffer::new();
    let mut doc = buffer.tokenize(&bytes, &path).unwrap();
    assert_nodes(
        &doc,
        &[
            ("entity_type", &["Inert"], 5, 3, Inline),
            ("Position", &["0.0, 0.0, 0.0"], 7, 1, Compact),
            ("MeshAsset", &["Assets/Meshes/Rock_01.obj"], 8, 1, Compact),
            ("Scale", &["1.0, 1.0, 1.0"], 9, 1, Compact),
            ("Mass", &["250.0"], 10, 1, Compact),
            ("IsDestructible", &["true"], 11, 1, Compact),
            ("Health", &["100.0"], 12, 1, Compact),
        ],
    );
    assert_eq!(typed::<String>(&mut doc, "EntityType"), "Inert");
    assert_eq!(typed::<Vec3>(&mut doc, "Position"), Vec3::ZERO);
    assert_eq!(
        typed::<String>(&mut doc, "MeshAsset"),
        "Assets/Meshes/Rock_01.obj"
    );
    assert_eq!(typed::<Vec3>(&mut doc, "Scale"), Vec3::ONE);
    assert_eq!(typed::<f32>(&mut doc, "Mass"), 250.0);
    assert!(typed::<bool>(&mut doc, "IsDestructible"));
    assert_eq!(typed::<f32>(&mut doc, "Health"), 100.0);
    assert_eq!(doc.unconsumed().count(), 0);
}

#[test]
fn templates_rock_large_042_instance() {
    let (bytes, path) = fixture("templates/RockLarge_042.jasset");
    let mut buffer = TokenBuffer::new();
    let mut doc = buffer.tokenize(&bytes, &path).unwrap();
    assert_nodes(
        &doc,
        &[
            (
                "template",
                &["Assets/Templates/RockLarge.jasset"],
                5,
                3,
                Inline,
            ),
            ("Position", &["142.5, 12.0, -84.2"], 7, 1, Compact),
            ("Scale", &["1.4, 1.4, 1.4"], 8, 1, Compact),
            ("Health", &["50.0"], 9, 1, Compact),
        ],
    );
    assert_eq!(
        typed::<String>(&mut doc, "Template"),
        "Assets/Templates/RockLarge.jasset"
    );
    assert_eq!(
        typed::<Vec3>(&mut doc, "Position"),
        Vec3::new(142.5, 12.0, -84.2)
    );
    assert_eq!(typed::<Vec3>(&mut doc, "Scale"), Vec3::splat(1.4));
    assert_eq!(typed::<f32>(&mut doc, "Health"), 50.0);
    // The omitted properties (MeshAsset, Mass, IsDestructible) are absent, not empty.
    for key in ["MeshAsset", "Mass", "IsDestructible"] {
        assert_eq!(doc.peek_name(key), None, "{key}");
    }
}

#[test]
fn templates_test_kv_parser_input() {
    let (bytes, path) = fixture("templates/TestKvParser.jasset");
    let mut buffer = TokenBuffer::new();
    let mut doc = buffer.tokenize(&bytes, &path).unwrap();
    // The design's parser yields exactly these five pairs, then end of stream.
    assert_nodes(
        &doc,
        &[
            ("entity_type", &["Inert"], 1, 3, Inline),
            ("Position", &["10.5, -20.0, 30.25"], 3, 1, Compact),
            ("Scale", &["2.0, 2.0, 2.0"], 4, 1, Compact),
            ("MeshAsset", &["Assets/Meshes/Cube.obj"], 5, 1, Compact),
            ("IsActive", &["true"], 6, 1, Compact),
        ],
    );
    assert_eq!(typed::<String>(&mut doc, "entity_type"), "Inert");
    let pos: Vec3 = typed(&mut doc, "Position");
    assert_eq!((pos.x, pos.y, pos.z), (10.5, -20.0, 30.25));
    assert_eq!(typed::<Vec3>(&mut doc, "Scale"), Vec3::splat(2.0));
    assert_eq!(
        typed::<String>(&mut doc, "MeshAsset"),
        "Assets/Meshes/Cube.obj"
    );
    assert!(typed::<bool>(&mut doc, "IsActive"));
}

#[test]
fn one_buffer_tokenizes_every_fixture_in_a_row() {
    // The reusable buffer gives each file its own nodes, with nothing left over from
    // the previous file.
    let files = [
        ("format/Entity_01.jasset", 9),
        ("snake_case/section4_1_entity.jasset", 7),
        ("templates/RockLarge.jasset", 7),
        ("templates/RockLarge_042.jasset", 4),
        ("templates/TestKvParser.jasset", 5),
        ("format/section2_2_vector2.jasset", 1),
    ];
    let mut buffer = TokenBuffer::new();
    for (rel, count) in files {
        let (bytes, path) = fixture(rel);
        let doc = buffer.tokenize(&bytes, &path).unwrap();
        assert_eq!(doc.len(), count, "{rel}");
        assert!(doc.nodes().iter().all(|n| !n.consumed), "{rel}");
    }
}
