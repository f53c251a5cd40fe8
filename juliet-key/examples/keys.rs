//! The key rules on field names: the key the writer emits for each, the form two
//! spellings are compared in, its CRC-32 and whether a class may use it.
//!
//! `cargo run -p juliet-key --example keys -- max_speed r#type Position "max speed"`
//! (without arguments, a few names of each case).

fn main() {
    let mut names: Vec<String> = std::env::args().skip(1).collect();
    if names.is_empty() {
        names = [
            "max_speed",
            "mesh_instance",
            "r#type",
            "position",
            "max speed",
        ]
        .map(String::from)
        .to_vec();
    }
    println!(
        "{:<16} {:<16} {:<16} {:>10}  use",
        "field", "key", "compared as", "crc"
    );
    for name in &names {
        let key = juliet_key::pascal_case(name);
        let reserved = juliet_key::BASE_KEYS.iter().any(|(base, aliases)| {
            juliet_key::keys_equal(base, &key)
                || aliases.iter().any(|a| juliet_key::keys_equal(a, &key))
        }) || juliet_key::keys_equal(juliet_key::CLASS_VERSION, &key);
        let verdict = match juliet_key::key_problem(&key) {
            Some(problem) => format!("refused: the key {problem}"),
            None if reserved => "refused: a base key of every entity".to_owned(),
            None => "ok".to_owned(),
        };
        println!(
            "{:<16} {:<16} {:<16} {:>10}  {verdict}",
            name,
            key,
            juliet_key::normalize_key(&key),
            format!("{:08x}", juliet_key::key_crc(&key)),
        );
    }
}
