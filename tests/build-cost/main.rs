//! The build-cost generator: writes two crates of `N` kinds of 10 fields each, one with
//! `#[derive(Entity)]` and one with serde's derives, so that their release builds and
//! their expansions can be compared (docs/performance.md, "Build cost").
//!
//! ```sh
//! cargo run -p juliet-tests --bin build-cost -- 200 target/build-cost [--composite]
//! ```
//!
//! With `--composite`, each kind's last two fields are a composite `stats: Stats`
//! (`#[derive(Codec)]` on `Stats { hp: f32, armor: f32 }`, one type shared by the kinds;
//! `#[derive(Serialize, Deserialize)]` in the serde crate) and `shield: Option<f32>`.
//!
//! writes `target/build-cost/juliet` and `target/build-cost/serde`. Each crate is a
//! workspace of its own with this repository's `Cargo.lock` (the same dependency
//! versions), and each type is used once to load and once to save, so that the
//! compiler cannot drop the generated code: through `juliet_core::from_text` and
//! `Reflect::save` in one, `serde_json::from_str` and `serde_json::to_string` in the
//! other. The fields cycle through `f32`, `u32`, `bool`, `String`, `Vec3`, `i32` and
//! `u64` (`Vec3` is `glam::Vec3` in both; the serde crate turns on glam's `serde`
//! feature).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The field types, in the order the fields cycle through them.
const FIELD_TYPES: [&str; 7] = ["f32", "u32", "bool", "String", "Vec3", "i32", "u64"];
/// Fields per kind.
const FIELDS: usize = 10;

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let composite = args.iter().any(|a| a == "--composite");
    args.retain(|a| a != "--composite");
    let (Some(n), Some(out)) = (args.first(), args.get(1)) else {
        eprintln!("usage: build-cost N OUT_DIR [--composite]   (N kinds of {FIELDS} fields each)");
        return ExitCode::from(2);
    };
    let Ok(n) = n.parse::<usize>() else {
        eprintln!("build-cost: N must be a whole number, not `{n}`");
        return ExitCode::from(2);
    };
    match write_crates(n, Path::new(out), composite) {
        Ok(dirs) => {
            for dir in dirs {
                println!("{}", dir.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("build-cost: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Writes both crates under `out` (kinds with a composite and an `Option` when
/// `composite`); returns their folders.
fn write_crates(n: usize, out: &Path, composite: bool) -> std::io::Result<Vec<PathBuf>> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate is inside the repository")
        .canonicalize()?;
    let lock = std::fs::read(repo.join("Cargo.lock"))?;
    let juliet_dep = format!(
        "juliet-entities = {{ path = {:?} }}\n",
        repo.join("juliet-entities").display().to_string()
    );
    let crates = [
        ("juliet", juliet_dep, juliet_source(n, composite)),
        (
            "serde",
            "serde = { version = \"1.0\", features = [\"derive\"] }\nserde_json = \"1.0\"\n\
             glam = { version = \"0.30\", features = [\"serde\"] }\n"
                .to_owned(),
            serde_source(n, composite),
        ),
    ];
    let mut dirs = Vec::new();
    for (name, deps, source) in crates {
        let dir = out.join(name);
        std::fs::create_dir_all(dir.join("src"))?;
        let manifest = format!(
            "[package]\nname = \"build-cost-{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\
             publish = false\n\n[workspace]\n\n[dependencies]\n{deps}\n\
             [profile.release]\ndebug = 1\n"
        );
        std::fs::write(dir.join("Cargo.toml"), manifest)?;
        std::fs::write(dir.join("Cargo.lock"), &lock)?;
        std::fs::write(dir.join("src/lib.rs"), source)?;
        dirs.push(dir);
    }
    Ok(dirs)
}

/// The fields of one kind: `(name, type)`; the last two `stats: Stats` and
/// `shield: Option<f32>` when `composite`.
fn fields(kind: usize, composite: bool) -> impl Iterator<Item = (String, &'static str)> {
    (0..FIELDS).map(move |f| match f {
        _ if composite && f == FIELDS - 2 => ("stats".to_owned(), "Stats"),
        _ if composite && f == FIELDS - 1 => ("shield".to_owned(), "Option<f32>"),
        _ => (
            format!("field_{f}"),
            FIELD_TYPES[(kind + f) % FIELD_TYPES.len()],
        ),
    })
}

/// The struct body shared by both crates.
fn struct_body(out: &mut String, kind: usize, composite: bool) {
    writeln!(out, "pub struct Kind{kind} {{").unwrap();
    for (name, ty) in fields(kind, composite) {
        writeln!(out, "    pub {name}: {ty},").unwrap();
    }
    out.push_str("}\n\n");
}

/// The composite `Stats`, derived by `derive` (`juliet_entities::Codec` or serde's).
fn stats_struct(out: &mut String, derive: &str) {
    writeln!(
        out,
        "#[derive({derive}, Clone, Debug, Default)]\npub struct Stats {{\n    pub hp: f32,\n    pub armor: f32,\n}}\n"
    )
    .unwrap();
}

/// The `#[derive(Entity)]` crate.
fn juliet_source(n: usize, composite: bool) -> String {
    let mut out = String::from(
        "//! Generated by `build-cost`: do not edit.\n\
         use juliet_entities::glam::Vec3;\n\
         use juliet_entities::juliet_core::{from_text, Archive, Error, Reflect, TokenBuffer};\n\n",
    );
    if composite {
        stats_struct(&mut out, "juliet_entities::Codec");
    }
    for kind in 0..n {
        out.push_str("#[derive(juliet_entities::Entity, Debug)]\n");
        struct_body(&mut out, kind, composite);
        writeln!(
            out,
            "/// Loads a `Kind{kind}` and saves it again.\n\
             pub fn round_trip_{kind}(text: &str) -> Result<String, Error> {{\n\
             \x20   let mut buffer = TokenBuffer::new();\n\
             \x20   let path = std::path::Path::new(\"kind.jasset\");\n\
             \x20   let (value, _) = from_text::<Kind{kind}>(&mut buffer, text.as_bytes(), path)?;\n\
             \x20   let mut out = String::new();\n\
             \x20   value.save(&mut Archive::saving(&mut out));\n\
             \x20   Ok(out)\n}}\n"
        )
        .unwrap();
    }
    out
}

/// The serde crate.
fn serde_source(n: usize, composite: bool) -> String {
    let mut out = String::from("//! Generated by `build-cost`: do not edit.\nuse glam::Vec3;\n\n");
    if composite {
        stats_struct(&mut out, "serde::Serialize, serde::Deserialize");
    }
    for kind in 0..n {
        out.push_str("#[derive(serde::Serialize, serde::Deserialize, Debug)]\n");
        struct_body(&mut out, kind, composite);
        writeln!(
            out,
            "/// Loads a `Kind{kind}` and saves it again.\n\
             pub fn round_trip_{kind}(text: &str) -> Result<String, serde_json::Error> {{\n\
             \x20   let value: Kind{kind} = serde_json::from_str(text)?;\n\
             \x20   serde_json::to_string(&value)\n}}\n"
        )
        .unwrap();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The struct lines of a source: what the two crates must agree on.
    fn struct_lines(source: &str) -> Vec<&str> {
        source
            .lines()
            .filter(|l| l.starts_with("pub struct") || l.starts_with("    pub "))
            .collect()
    }

    #[test]
    fn both_crates_declare_the_same_kinds_with_ten_fields_of_every_type() {
        let juliet = juliet_source(7, false);
        let serde = serde_source(7, false);
        let lines = struct_lines(&juliet);
        assert_eq!(lines, struct_lines(&serde));
        assert_eq!(lines.len(), 7 * (FIELDS + 1));
        for ty in FIELD_TYPES {
            assert!(
                lines.iter().any(|l| l.ends_with(&format!(": {ty},"))),
                "{ty}"
            );
        }
        assert_eq!(
            juliet.matches("#[derive(juliet_entities::Entity").count(),
            7
        );
        assert_eq!(juliet.matches("pub fn round_trip_").count(), 7);
        assert_eq!(serde.matches("serde_json::from_str").count(), 7);
        assert_eq!(serde.matches("serde_json::to_string").count(), 7);
    }

    #[test]
    fn the_composite_variant_gives_every_kind_a_composite_and_an_option() {
        let juliet = juliet_source(3, true);
        let serde = serde_source(3, true);
        assert_eq!(struct_lines(&juliet), struct_lines(&serde));
        assert_eq!(juliet.matches("    pub stats: Stats,").count(), 3);
        assert_eq!(juliet.matches("    pub shield: Option<f32>,").count(), 3);
        assert!(juliet.contains("#[derive(juliet_entities::Codec, Clone, Debug, Default)]"));
        assert!(serde.contains("#[derive(serde::Serialize, serde::Deserialize, Clone"));
    }

    #[test]
    fn writes_two_crates_with_the_repository_lock_file() {
        let dir = tempfile::tempdir().unwrap();
        let dirs = write_crates(3, dir.path(), false).unwrap();
        assert_eq!(dirs.len(), 2);
        let lock = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock"));
        for d in &dirs {
            assert_eq!(
                std::fs::read(d.join("Cargo.lock")).ok(),
                lock.as_ref().ok().cloned()
            );
            let manifest = std::fs::read_to_string(d.join("Cargo.toml")).unwrap();
            assert!(manifest.contains("[workspace]"), "{manifest}");
            let lib = std::fs::read_to_string(d.join("src/lib.rs")).unwrap();
            assert_eq!(lib.matches("pub struct Kind").count(), 3);
        }
    }
}
