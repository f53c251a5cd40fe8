//! A game's own tool with the editor: the game of `tests/game/` and its three-line
//! `jasset` binary, built outside the workspace with the `editor` feature of `jasset`
//! as the guide's "Your game's own `jasset`" says, offers `edit`. (That the editor then
//! offers the game's kinds is `editor_ui`'s `add_entity_offers_the_games_own_kinds`:
//! the registry is the linked binary's, the same in both.) Skips, saying why, only when
//! cargo cannot be run.

#[path = "outside_crates/harness.rs"]
mod harness;

use std::process::Command;

use harness::OutsideCrate;

const GAME_LIB: &str = include_str!("../game/src/lib.rs");
const GAME_BIN: &str = include_str!("../game/src/bin/jasset.rs");

const DEPENDENCIES: &str = "[dependencies]
juliet-entities = { path = \"{workspace}/juliet-entities\" }
jasset = { path = \"{workspace}/jasset\", features = [\"editor\"] }
";

#[test]
fn the_games_tool_built_with_the_editor_offers_edit() {
    // Its own binary name: the crates built by these tests share one target folder.
    let files = [
        ("src/lib.rs", GAME_LIB),
        ("src/bin/jasset-edit.rs", GAME_BIN),
    ];
    let Some(game) = OutsideCrate::new("my_game", DEPENDENCIES, &files) else {
        return;
    };
    game.cargo_ok(&["build", "--bin", "jasset-edit"]);
    let tool = OutsideCrate::binary("jasset-edit");

    let help = Command::new(&tool).arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(help.status.success(), "{text}");
    assert!(
        text.lines().any(|l| l.trim_start().starts_with("edit ")),
        "{text}"
    );
    let edit = Command::new(&tool)
        .args(["edit", "--help"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&edit.stdout);
    assert!(edit.status.success(), "{text}");
    assert!(text.contains("--select"), "{text}");

    // The game's kinds are the tool's: `schema export` lists them.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("schema");
    let schema = Command::new(&tool)
        .args(["schema", "export", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(schema.status.success(), "{schema:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("Monster2") && text.contains("Door"), "{text}");
}
