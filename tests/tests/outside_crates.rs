//! Crates outside the workspace, built as a game builds them (`cargo build --offline`
//! with path dependencies, see `outside_crates/harness.rs`): the README's first example
//! exactly as the README gives it, and what a game with the default features builds.
//! Each test skips, saying why, only when cargo cannot be run.

#[path = "outside_crates/harness.rs"]
mod harness;

use harness::OutsideCrate;

const README: &str = include_str!("../../README.md");

/// The body of the first fenced block of `lang` after the heading `heading`.
fn block_after<'a>(text: &'a str, heading: &str, lang: &str) -> &'a str {
    let section = &text[text
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading:?}"))..];
    let fence = format!("```{lang}\n");
    let start = section
        .find(&fence)
        .unwrap_or_else(|| panic!("no {lang} block"))
        + fence.len();
    let len = section[start..].find("```\n").expect("closed block");
    &section[start..start + len]
}

/// The README's example as a crate: its lines for `[dependencies]` (under that
/// section, as `cargo new` writes it) with the path to the checkout made absolute, and
/// its Rust block, as shown (it hides no line), as the body of `main`.
fn readme_crate() -> Option<OutsideCrate> {
    let heading = "## Derive your first entity";
    let dependencies = block_after(README, heading, "toml");
    assert!(
        dependencies.contains("path = \"../juliet-rs/juliet-entities\""),
        "{dependencies}"
    );
    assert!(
        !dependencies.contains("[dependencies]"),
        "the README's lines go under the `[dependencies]` that `cargo new` writes:\n{dependencies}"
    );
    let dependencies = format!(
        "[dependencies]\n{}",
        dependencies.replace("../juliet-rs/", "{workspace}/")
    );
    let block = block_after(README, heading, "rust");
    // What a reader copies is the block as shown: no line rustdoc hides.
    assert!(
        !block
            .lines()
            .any(|line| line == "#" || line.starts_with("# ")),
        "the README's example hides lines from the reader:\n{block}"
    );
    let body: String = block.lines().map(|line| format!("    {line}\n")).collect();
    let main = format!("fn main() -> Result<(), Box<dyn std::error::Error>> {{\n{body}}}\n");
    OutsideCrate::new("readme-example", &dependencies, &[("src/main.rs", &main)])
}

#[test]
fn the_readme_example_builds_and_runs_in_a_new_crate() {
    let Some(krate) = readme_crate() else { return };
    krate.cargo_ok(&["build"]);
    let run = std::process::Command::new(OutsideCrate::binary("readme-example"))
        .output()
        .expect("run the example");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

#[test]
fn a_game_with_the_default_features_builds_none_of_the_tools_or_the_editors_dependencies() {
    let Some(krate) = readme_crate() else { return };
    let tree = krate.cargo_ok(&["tree", "-e", "normal", "--prefix", "none"]);
    let tree = String::from_utf8_lossy(&tree.stdout);
    assert!(tree.contains("juliet-entities v"), "{tree}");
    let editor = ["egui", "epaint", "juliet-editor"];
    for tool in ["clap", "indicatif", "serde_json", "tracing-subscriber"]
        .iter()
        .chain(&editor)
    {
        assert!(
            !tree.lines().any(|l| l.starts_with(&format!("{tool} v"))),
            "{tool} in a game's build:\n{tree}"
        );
    }
}
