//! The derived `load` is one walk over the file's properties (`juliet_core::Properties`,
//! which binds them by exact key, with a fast path for the declaration order), then the
//! class version. Whatever the order of the file, it must do what a plain pass over the
//! file's properties in file order, dispatching on the key CRC, does: same values, same
//! first error, same consumed properties (deprecated keys, which only a migration
//! reads, unknown keys and properties consumed before the load left alone).

use std::path::Path;

use juliet_core::{key_crc, Archive, Document, Error, Reflect, TokenBuffer};
use juliet_entities::Entity;
use proptest::prelude::RngExt;
use proptest::test_runner::{RngAlgorithm, TestRng};

#[derive(Entity, Debug, Clone, PartialEq)]
#[jasset(deprecated = "Legacy")]
struct Probe {
    health: f32,
    level: i32,
    #[jasset(alias = "Pos")]
    location: [f32; 3],
    name: String,
    visible: bool,
    ident: u64,
}

/// One pass over the file's properties in file order, then the class version.
fn load_in_file_order(probe: &mut Probe, ar: &mut Archive<'_>) -> Result<(), Error> {
    let Some(doc) = ar.document_mut() else {
        return Ok(());
    };
    for index in 0..doc.len() {
        let node = doc.node(index);
        if node.consumed {
            continue;
        }
        match node.key_crc {
            c if c == key_crc("Health") => doc.decode_into(index, &mut probe.health)?,
            c if c == key_crc("Level") => doc.decode_into(index, &mut probe.level)?,
            c if c == key_crc("Location") || c == key_crc("Pos") => {
                doc.decode_into(index, &mut probe.location)?
            }
            c if c == key_crc("Name") => doc.decode_into(index, &mut probe.name)?,
            c if c == key_crc("Visible") => doc.decode_into(index, &mut probe.visible)?,
            c if c == key_crc("Ident") => doc.decode_into(index, &mut probe.ident)?,
            _ => {}
        }
    }
    ar.resolve_class_version(1)?;
    Ok(())
}

/// The loaded value (or the error's text) and the indices of the unconsumed nodes.
type Outcome = (Result<Probe, String>, Vec<usize>);

/// Tokenizes `text`, marks `consumed_first` consumed (as a base loader would), then
/// loads a default `Probe` with `load`.
fn run(
    text: &str,
    consumed_first: Option<usize>,
    load: impl Fn(&mut Probe, &mut Archive<'_>) -> Result<(), Error>,
) -> Outcome {
    let mut buffer = TokenBuffer::new();
    let doc = buffer
        .tokenize(text.as_bytes(), Path::new("probe.jasset"))
        .expect("valid file");
    let mut ar = Archive::loading(doc);
    if let Some(index) = consumed_first {
        let doc: &mut Document<'_> = ar.document_mut().expect("loading");
        if index < doc.len() {
            doc.consume(index);
        }
    }
    let mut probe = Probe::default_value();
    let result = load(&mut probe, &mut ar)
        .map(|()| probe)
        .map_err(|e| e.to_string());
    let doc = ar.into_document().expect("loading");
    (result, doc.unconsumed().collect())
}

#[test]
fn any_order_loads_like_one_pass_in_file_order() {
    // Key spellings (the first is the declared key), a good and a bad value each.
    let properties: [(&[&str], &str, &str); 9] = [
        (&["Health", "health"], "87.5", "8x"),
        (&["Level", "LEVEL"], "12", "1.5"),
        (&["Location", "Pos", "pos"], "1.0 2.5 -3.0", "1 2"),
        (&["Name"], "\"A Name\"", "\"open"),
        (&["Visible"], "true", "yes"),
        (&["Ident", "ident"], "0x0000000000000042", "0xZZ"),
        (&["Legacy"], "whatever", "whatever"),
        (&["Extra", "Other"], "kept", "kept"),
        (&["ClassVersion"], "1", "1"),
    ];
    let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut next = move |n: usize| rng.random_range(0..n);
    let mut in_declaration_order = 0;
    for round in 0..20_000 {
        // Declaration order in one round in three, else a random order; a random
        // subset; now and then a bad value or a property consumed before the load.
        let mut order: Vec<usize> = (0..properties.len()).collect();
        if round % 3 != 0 {
            for i in (1..order.len()).rev() {
                order.swap(i, next(i + 1));
            }
        } else {
            in_declaration_order += 1;
        }
        let mut text = String::new();
        let mut used_keys: Vec<String> = Vec::new();
        for &p in &order {
            if next(5) == 0 {
                continue;
            }
            let (keys, good, bad) = properties[p];
            let key = keys[next(keys.len())];
            // One spelling per property: two are a duplicate key (tested apart).
            let normalized = keys[0].to_ascii_lowercase();
            if used_keys.contains(&normalized) {
                continue;
            }
            used_keys.push(normalized);
            let value = if next(12) == 0 { bad } else { good };
            if next(2) == 0 {
                text.push_str(&format!("; {key}\n{value}\n"));
            } else {
                text.push_str(&format!("{key}: {value}\n"));
            }
        }
        let consumed_first = (next(4) == 0).then(|| next(6));
        let derived = run(&text, consumed_first, |p, ar| p.load(ar));
        let reference = run(&text, consumed_first, load_in_file_order);
        assert_eq!(
            derived, reference,
            "{text}(consumed first: {consumed_first:?})"
        );
    }
    assert!(in_declaration_order > 5000);
}

/// A key and its alias in one file are one key written twice: the duplicate-key error at
/// the later of the two, naming the earlier's line, whatever the order.
#[test]
fn a_key_and_its_alias_are_a_duplicate_key() {
    for (text, line, first_line) in [
        ("; Location\n1 2 3\n; Pos\n4 5 6\n", 3, 1),
        ("; Pos\n4 5 6\n; Location\n1 2 3\n", 3, 1),
        (
            "; Health\n1.0\n; pos: 1 2 3\n; Level\n2\n; Location: 4 5 6\n",
            6,
            3,
        ),
        (
            "; Health\n1.0\n; Location\n1 2 3\n# a comment\n; Level\n2\n; pos\n4 5 6\n",
            8,
            3,
        ),
    ] {
        let (result, _) = run(text, None, |p, ar| p.load(ar));
        let message = result.expect_err(text);
        assert!(
            message.starts_with(&format!("probe.jasset:{line}:")),
            "{text}: {message}"
        );
        assert!(
            message.contains(&format!("line {first_line}")),
            "{text}: {message}"
        );
    }
}
