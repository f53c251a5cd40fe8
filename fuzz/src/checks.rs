// The checks behind the fuzz targets. This file is compiled twice: as the library of the
// `fuzz/` crate (nightly, libFuzzer) and, through `#[path]`, by
// `tests/tests/fuzz_regressions.rs` (stable), which replays the saved findings. It names
// only `juliet_core`, `juliet_entities` and `glam`, which both have.
//
// Each check panics when an invariant of the format breaks; an input that is merely bad
// must give a typed, located error, never a panic.

use std::path::Path;

use glam::{Vec2, Vec3, Vec4};
use juliet_core::{Codec, Document, Error, TokenBuffer, UnknownProperties, Value};
use juliet_entities::{load_entity as load_one, save_entity, EntityManager, LoadedEntity};

/// The label every fuzzed file gets in errors.
pub const FUZZ_PATH: &str = "fuzz.jasset";

/// A unit enum with a derived codec, so that enum decoding is fuzzed too.
#[derive(juliet_entities::Codec, Clone, Copy, PartialEq, Debug, Default)]
pub enum FuzzTeam {
    /// The default.
    #[default]
    Neutral,
    /// A variant.
    Red,
    /// A renamed variant.
    #[jasset(rename = "Blu")]
    Blue,
}

/// A kind with a field of every stock codec type, loaded by the `load_entity` target
/// next to the stock kinds.
#[derive(juliet_entities::Entity, Debug, Clone, PartialEq)]
#[jasset(version = 3, deprecated = "OldName")]
pub struct FuzzEveryType {
    /// bool.
    pub flag: bool,
    /// i8.
    pub small: i8,
    /// i16.
    pub short: i16,
    /// i32.
    pub int: i32,
    /// i64.
    pub long: i64,
    /// u8.
    pub byte: u8,
    /// u16.
    pub word: u16,
    /// u32.
    pub count: u32,
    /// u64.
    pub mask: u64,
    /// f32.
    pub ratio: f32,
    /// f64.
    pub precise: f64,
    /// Vec2.
    pub uv: Vec2,
    /// Vec4.
    pub color: Vec4,
    /// `[f32; 3]`.
    pub triple: [f32; 3],
    /// String.
    pub name: String,
    /// A unit enum.
    pub team: FuzzTeam,
    /// A list of strings.
    pub tags: Vec<String>,
    /// A list of floats.
    pub weights: Vec<f32>,
    /// A list of ids.
    pub links: Vec<u64>,
}

/// Checks the location of an error about a file of `src_len` bytes: line and column are
/// both 0 (the whole file) or both 1-based and inside the file; the message renders.
pub fn check_error(err: &Error, bytes: &[u8]) {
    let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    if err.location.line == 0 {
        assert_eq!(
            err.location.column, 0,
            "a whole-file error has no column: {err}"
        );
    } else {
        assert!(
            err.location.line <= lines,
            "line past the end ({lines} lines): {err}"
        );
        assert!(err.location.column >= 1, "columns are 1-based: {err}");
        assert!(
            err.location.column as usize <= bytes.len() + 1,
            "column past the end of the file: {err}"
        );
    }
    assert_eq!(
        err.location.path,
        Path::new(FUZZ_PATH),
        "the error names the file"
    );
    let _ = err.to_string();
}

/// Decodes node `i` as `T`; when that works, writes the value and reads the text back:
/// it must decode, and write the same text again (encode is a fixpoint after one round).
/// A failed `decode_into` must leave the place unchanged.
fn decode_round_trip<T: Codec + Default + std::fmt::Debug>(
    doc: &mut Document<'_>,
    i: usize,
    src: &[u8],
) {
    let decoded = doc.decode::<T>(i);
    let value = doc.value(i);
    let mut place = T::default();
    match decoded {
        Err(err) => {
            check_error(&err, src);
            assert!(
                place.decode_into(value).is_err(),
                "decode and decode_into agree"
            );
            assert!(
                place.same_value(&T::default()),
                "a failed decode_into left {place:?}"
            );
        }
        Ok(decoded) => {
            let mut first = String::new();
            decoded.encode(&mut first);
            let again = T::decode(Value::from_text(&first)).unwrap_or_else(|e| {
                panic!("{decoded:?} was written as {first:?}, which does not read back: {e:?}")
            });
            let mut second = String::new();
            again.encode(&mut second);
            assert_eq!(first, second, "{decoded:?} and {again:?} write differently");
            place
                .decode_into(value)
                .expect("decode and decode_into agree");
            let mut third = String::new();
            place.encode(&mut third);
            assert_eq!(first, third, "decode and decode_into agree");
        }
    }
}

/// The `tokenize` target: tokenizes `data`; on success decodes every node as each stock
/// codec type (round-tripping what decodes), and writes every node back the way unknown
/// keys are written on save, which must tokenize to the same keys and value lines.
pub fn tokenize(data: &[u8]) {
    let path = Path::new(FUZZ_PATH);
    // A warm buffer (its key cache filled by this very input, so that the scanner's
    // fast paths run) and a cold one agree on everything.
    let mut warm = TokenBuffer::new();
    let _ = warm.tokenize(data, path);
    let warm_result = summary(warm.tokenize(data, path));
    let mut buffer = TokenBuffer::new();
    assert_eq!(
        summary(buffer.tokenize(data, path)),
        warm_result,
        "cold and warm tokenization differ"
    );
    let mut doc = match buffer.tokenize(data, path) {
        Ok(doc) => doc,
        Err(err) => {
            check_error(&err, data);
            return;
        }
    };
    let mut rewritten = String::new();
    let mut expected = Vec::new();
    for i in 0..doc.len() {
        let value = doc.value(i);
        assert!(value.line_count() >= 1, "a property has a value");
        for line in value.lines() {
            assert!(!line.is_empty() && !line.contains('\n'));
            // Documented trimming: spaces and tabs in front; spaces, tabs, CRs behind.
            let trimmed = line
                .trim_start_matches([' ', '\t'])
                .trim_end_matches([' ', '\t', '\r']);
            assert_eq!(line, trimmed, "lines are trimmed");
        }
        let unknown = UnknownProperties::from_document(&doc, i..i + 1);
        unknown.write(&mut rewritten);
        expected.extend(
            unknown
                .iter()
                .map(|u| (u.key().to_owned(), u.lines().map(str::to_owned).collect())),
        );

        decode_round_trip::<bool>(&mut doc, i, data);
        decode_round_trip::<i8>(&mut doc, i, data);
        decode_round_trip::<i16>(&mut doc, i, data);
        decode_round_trip::<i32>(&mut doc, i, data);
        decode_round_trip::<i64>(&mut doc, i, data);
        decode_round_trip::<u8>(&mut doc, i, data);
        decode_round_trip::<u16>(&mut doc, i, data);
        decode_round_trip::<u32>(&mut doc, i, data);
        decode_round_trip::<u64>(&mut doc, i, data);
        decode_round_trip::<f32>(&mut doc, i, data);
        decode_round_trip::<f64>(&mut doc, i, data);
        decode_round_trip::<Vec2>(&mut doc, i, data);
        decode_round_trip::<Vec3>(&mut doc, i, data);
        decode_round_trip::<Vec4>(&mut doc, i, data);
        decode_round_trip::<[f32; 5]>(&mut doc, i, data);
        decode_round_trip::<String>(&mut doc, i, data);
        decode_round_trip::<FuzzTeam>(&mut doc, i, data);
        decode_round_trip::<Vec<String>>(&mut doc, i, data);
        decode_round_trip::<Vec<f32>>(&mut doc, i, data);
        decode_round_trip::<Vec<u64>>(&mut doc, i, data);
        decode_round_trip::<Vec<FuzzTeam>>(&mut doc, i, data);
    }
    let mut again = TokenBuffer::new();
    let doc2 = again
        .tokenize(rewritten.as_bytes(), path)
        .unwrap_or_else(|e| panic!("rewritten properties do not tokenize: {e}\n{rewritten}"));
    let got: Vec<(String, Vec<String>)> = UnknownProperties::from_document(&doc2, 0..doc2.len())
        .iter()
        .map(|u| (u.key().to_owned(), u.lines().map(str::to_owned).collect()))
        .collect();
    assert_eq!(got, expected, "rewritten properties differ:\n{rewritten}");
}

/// Every node of a tokenized document (key, value lines, line, column, form), or the
/// error.
type Summary = Result<Vec<(String, Vec<String>, u32, u32, juliet_core::LineForm)>, Error>;

fn summary(result: Result<Document<'_>, Error>) -> Summary {
    result.map(|doc| {
        (0..doc.len())
            .map(|i| {
                let n = doc.node(i);
                let lines = doc.value(i).lines().map(str::to_owned).collect();
                (doc.key(i).to_owned(), lines, n.line, n.column, n.form)
            })
            .collect()
    })
}

/// The `Kind` lines the first byte of a `load_entity` input chooses from; the last
/// choice puts nothing in front (the input names its own kind, as the seed corpus does).
pub const KIND_PREFIXES: &[&str] = &[
    "; Kind\nInert\n",
    "; Kind\nCollectible\n",
    "; Kind\nProjectile\n",
    "; Kind\nFuzzEveryType\n",
    "",
];

/// The bytes `load_entity` loads for input `data`: the `Kind` line picked by the first
/// byte, then the rest.
pub fn entity_file(data: &[u8]) -> Vec<u8> {
    let Some((&selector, rest)) = data.split_first() else {
        return Vec::new();
    };
    let prefix = KIND_PREFIXES[selector as usize % KIND_PREFIXES.len()];
    let mut bytes = Vec::with_capacity(prefix.len() + rest.len());
    bytes.extend_from_slice(prefix.as_bytes());
    bytes.extend_from_slice(rest);
    bytes
}

/// Loads `bytes` into a new manager and saves the entity back.
fn load_and_save(bytes: &[u8]) -> Result<(EntityManager, LoadedEntity, String), Error> {
    let mut manager = EntityManager::new();
    let loaded = match load_one(&mut manager, Path::new(FUZZ_PATH), bytes) {
        Ok(loaded) => loaded,
        Err(err) => {
            assert!(manager.is_empty(), "a failed load leaves nothing allocated");
            manager
                .check_invariants()
                .expect("invariants after a failed load");
            return Err(err);
        }
    };
    manager.check_invariants().expect("invariants after a load");
    let mut text = String::new();
    save_entity(&manager, loaded.id, &loaded.data, &mut text).expect("a loaded entity saves");
    Ok((manager, loaded, text))
}

/// The `load_entity` target: loads the entity file [`entity_file`]`(data)`; an error
/// must be located and leave the manager empty; a load must save to text that loads
/// again to the same entity (the same saved text) with the same unknown keys, byte for
/// byte.
pub fn load_entity(data: &[u8]) {
    let bytes = entity_file(data);
    let (_, first, text) = match load_and_save(&bytes) {
        Ok(done) => done,
        Err(err) => {
            check_error(&err, &bytes);
            return;
        }
    };
    let (_, second, text2) = load_and_save(text.as_bytes())
        .unwrap_or_else(|e| panic!("the saved file does not load again: {e}\n{text}"));
    assert_eq!(text, text2, "load -> save -> load -> save changed the file");
    assert_eq!(first.id, second.id);
    assert_eq!(first.data.template, second.data.template);
    let keys = |l: &LoadedEntity| -> Vec<(String, Vec<String>)> {
        l.data
            .unknown
            .iter()
            .map(|u| (u.key().to_owned(), u.lines().map(str::to_owned).collect()))
            .collect()
    };
    assert_eq!(keys(&first), keys(&second), "unknown keys changed");
}

/// Where the `load_instance` target puts its templates (in a cache whose project root
/// does not exist: nothing is read from disk).
pub const FUZZ_TEMPLATE: &str = "Assets/Templates/Fuzz.jasset";
/// The parent template of [`FUZZ_TEMPLATE`] when the input has three parts.
pub const FUZZ_PARENT: &str = "Assets/Templates/FuzzParent.jasset";

/// The texts the `load_instance` target loads for input `data`, split at NUL bytes
/// (which no `.jasset` file holds): `template NUL instance`, or `parent NUL template
/// NUL instance`. A `Template` line naming the next template up is put in front of the
/// instance and, with a parent, of the template.
pub fn instance_parts(data: &[u8]) -> (Option<String>, String, Vec<u8>) {
    let mut parts = data.splitn(3, |&b| b == 0);
    let first = parts.next().unwrap_or_default();
    let (parent, template, instance) = match (parts.next(), parts.next()) {
        (Some(t), Some(i)) => (Some(first), t, i),
        (Some(i), None) => (None, first, i),
        _ => (None, first, &[][..]),
    };
    let mut template = String::from_utf8_lossy(template).into_owned();
    if parent.is_some() {
        template.insert_str(0, &format!("; Template\n{FUZZ_PARENT}\n"));
    }
    let mut bytes = format!("; Template\n{FUZZ_TEMPLATE}\n").into_bytes();
    bytes.extend_from_slice(instance);
    (
        parent.map(|p| String::from_utf8_lossy(p).into_owned()),
        template,
        bytes,
    )
}

/// Loads the instance `bytes` of the templates in `cache` into a new manager and saves
/// it sparsely; on error checks that nothing stays allocated.
fn load_instance_and_save(
    cache: &mut juliet_entities::TemplateCache,
    bytes: &[u8],
) -> Result<(EntityManager, LoadedEntity, String), Error> {
    let mut manager = EntityManager::new();
    let mut buffer = TokenBuffer::new();
    let path = Path::new(FUZZ_PATH);
    let loaded = match juliet_entities::load_entity_with_templates(
        &mut buffer,
        &mut manager,
        cache,
        path,
        bytes,
    ) {
        Ok(loaded) => loaded,
        Err(err) => {
            assert!(manager.is_empty(), "a failed load leaves nothing allocated");
            manager
                .check_invariants()
                .expect("invariants after a failed load");
            return Err(err);
        }
    };
    manager.check_invariants().expect("invariants after a load");
    let mut text = String::new();
    juliet_entities::template::save_instance(
        &mut manager,
        cache,
        loaded.id,
        &loaded.data,
        &mut text,
    )
    .expect("a loaded instance saves");
    Ok((manager, loaded, text))
}

/// The `load_instance` target: caches the template (and its parent) of
/// [`instance_parts`]`(data)` from text and loads the instance over it. Errors must be
/// located and leave nothing allocated. A loaded instance must save sparsely to text
/// that loads again to the same entity (same sparse text, same full text, same unknown
/// keys); after `revert_to_template` it must show no override.
pub fn load_instance(data: &[u8]) {
    let (parent, template, bytes) = instance_parts(data);
    let mut cache = juliet_entities::TemplateCache::new("/nonexistent/juliet-fuzz-project");
    if let Some(parent) = &parent {
        if let Err(err) = cache.insert_text(FUZZ_PARENT, parent) {
            let _ = err.to_string();
            return;
        }
    }
    if let Err(err) = cache.insert_text(FUZZ_TEMPLATE, &template) {
        let _ = err.to_string();
        return;
    }
    let (first_manager, first, text) = match load_instance_and_save(&mut cache, &bytes) {
        Ok(done) => done,
        Err(err) => {
            check_error(&err, &bytes);
            return;
        }
    };
    let (mut manager, second, text2) = load_instance_and_save(&mut cache, text.as_bytes())
        .unwrap_or_else(|e| panic!("the saved instance does not load again: {e}\n{text}"));
    assert_eq!(
        text, text2,
        "load -> save -> load -> save changed the instance"
    );
    assert_eq!(first.id, second.id);
    let full = |m: &EntityManager, l: &LoadedEntity| {
        let mut out = String::new();
        save_entity(m, l.id, &l.data, &mut out).expect("saves");
        out
    };
    assert_eq!(
        full(&first_manager, &first),
        full(&manager, &second),
        "the reloaded instance has other values"
    );
    let keys = |l: &LoadedEntity| -> Vec<(String, Vec<String>)> {
        l.data
            .unknown
            .iter()
            .map(|u| (u.key().to_owned(), u.lines().map(str::to_owned).collect()))
            .collect()
    };
    assert_eq!(keys(&first), keys(&second), "unknown keys changed");
    juliet_entities::template::revert_to_template(&mut manager, &cache, second.id)
        .expect("reverts");
    let left =
        juliet_entities::template::overrides(&manager, &cache, second.id).expect("an instance");
    assert!(left.is_empty(), "overrides left after a revert: {left:?}");
}
