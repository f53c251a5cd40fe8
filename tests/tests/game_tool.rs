//! A game's own `jasset`: the crate in `tests/game/` (kinds `Projectile`, which replaces
//! the stock one, `Monster2` renamed from `Monster`, `Door` with a migration) and its
//! three-line binary, built outside the workspace as a game builds them (see
//! `outside_crates/harness.rs`), then run over a project of the game's files. Skips,
//! saying why, only when cargo cannot be run.

#[path = "outside_crates/harness.rs"]
mod harness;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use harness::OutsideCrate;

const GAME_LIB: &str = include_str!("../game/src/lib.rs");
const GAME_BIN: &str = include_str!("../game/src/bin/jasset.rs");

const DEPENDENCIES: &str = "[dependencies]
juliet-entities = { path = \"{workspace}/juliet-entities\" }
jasset = { path = \"{workspace}/jasset\" }
";

const LEVEL: &str = "Assets/Worlds/Level01/Entities";

/// The game (library `lib`) with its tool as binary `bin`, built; `None` when cargo
/// cannot be run. Each variant of the game names its binary differently, as they share
/// one target folder.
fn game_tool_of(lib: &str, bin: &str) -> Option<std::path::PathBuf> {
    let bin_path = format!("src/bin/{bin}.rs");
    let files = [("src/lib.rs", lib), (bin_path.as_str(), GAME_BIN)];
    let game = OutsideCrate::new("my_game", DEPENDENCIES, &files)?;
    game.cargo_ok(&["build", "--bin", bin]);
    Some(OutsideCrate::binary(bin))
}

/// The game's `jasset`, built; `None` when cargo cannot be run.
fn game_tool() -> Option<std::path::PathBuf> {
    game_tool_of(GAME_LIB, "jasset")
}

fn run(tool: &Path, cwd: &Path, args: &[&str]) -> Output {
    Command::new(tool)
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .expect("run the game's jasset")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A project with one file of each game kind, an old-name `Monster` with an old-name key
/// (`Hp`), a version-1 `Door`
/// and a stock `Inert`.
fn project() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let level = root.path().join(LEVEL);
    fs::create_dir_all(&level).unwrap();
    fs::create_dir_all(root.path().join("Assets/Templates")).unwrap();
    let file = |name: &str, id: u64, kind: &str, rest: &str| {
        fs::write(
            level.join(name),
            format!("; EntityID\n{id}\n; Kind\n{kind}\n{rest}"),
        )
        .unwrap();
    };
    file(
        "shot.jasset",
        1,
        "Projectile",
        "; Damage\n12.5\n; Owner\nplayer\n",
    );
    file("orc.jasset", 2, "Monster", "# tough\n; Hp\n30\n");
    file(
        "door.jasset",
        3,
        "Door",
        "; ClassVersion\n1\n; Locked\ntrue\n",
    );
    file("rock.jasset", 4, "Inert", "; Mass\n250.0\n");
    root
}

#[test]
fn the_games_tool_checks_inspects_and_migrates_the_games_kinds() {
    let Some(tool) = game_tool() else { return };
    let root = project();
    let cwd = root.path();

    let o = run(&tool, cwd, &["check", "Assets"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("0 errors, 0 warnings"), "{}", text(&o));

    // The game's layout of `Projectile`, not the stock one's.
    let shot = format!("{LEVEL}/shot.jasset");
    let o = run(&tool, cwd, &["inspect", "--json", &shot]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let json = String::from_utf8_lossy(&o.stdout);
    assert!(
        json.contains("\"Damage\": 12.5") && json.contains("\"Owner\": \"player\""),
        "{json}"
    );
    assert!(!json.contains("VelocityX"), "{json}");

    // A bad value of a game kind is named with its line.
    fs::write(
        cwd.join(LEVEL).join("bad.jasset"),
        "; EntityID\n5\n; Kind\nProjectile\n; Damage\nlots\n",
    )
    .unwrap();
    let o = run(&tool, cwd, &["check", "Assets"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("bad.jasset:6:"), "{}", text(&o));
    assert!(text(&o).contains("Damage"), "{}", text(&o));
    fs::remove_file(cwd.join(LEVEL).join("bad.jasset")).unwrap();

    // migrate runs the game's migration and writes the old-name file's new names, of
    // its class and its key, changing nothing else.
    let o = run(&tool, cwd, &["migrate", "Assets"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("Hp -> Health"), "{}", text(&o));
    assert_eq!(
        fs::read_to_string(cwd.join(LEVEL).join("orc.jasset")).unwrap(),
        "; EntityID\n2\n; Kind\nMonster2\n# tough\n; Health\n30\n"
    );
    let door = fs::read_to_string(cwd.join(LEVEL).join("door.jasset")).unwrap();
    assert!(
        door.contains("; ClassVersion\n2\n") && door.contains("; LockCode\n1234\n"),
        "{door}"
    );
    assert!(!door.contains("Locked"), "{door}");
    let o = run(&tool, cwd, &["check", "--strict", "Assets"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn schema_check_catches_a_layout_change_made_without_a_version_bump() {
    let Some(tool) = game_tool_of(GAME_LIB, "jasset-schema") else {
        return;
    };
    let root = project();
    let cwd = root.path();
    let o = run(&tool, cwd, &["schema", "export"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let schema = fs::read_to_string(cwd.join("jasset.schema")).unwrap();
    for expected in [
        "; Projectile\nversion 1\nproperty Damage f32 5.0\nproperty Owner string \"\"\n",
        "; Monster2\nversion 1\nalias Monster\nproperty Health i32 10\n",
        "; Door\nversion 2\nproperty LockCode u32 0\nproperty LeadsTo floats3 0.0 0.0 0.0\ndeprecated Locked\n",
    ] {
        assert!(schema.contains(expected), "{expected:?} not in:\n{schema}");
    }
    // The stock kinds the game did not replace are every tool's: left out unless asked.
    assert!(!schema.contains("; Inert\n"), "{schema}");
    let o = run(
        &tool,
        cwd,
        &["schema", "export", "--stock-kinds", "-o", "all.schema"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let all = fs::read_to_string(cwd.join("all.schema")).unwrap();
    assert!(
        all.contains("; Inert\nversion 2\n") && all.contains("; Door\n"),
        "{all}"
    );
    // The stock Projectile was replaced: one class of that name.
    assert_eq!(schema.matches("; Projectile\n").count(), 1, "{schema}");
    let o = run(&tool, cwd, &["schema", "check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = run(&tool, cwd, &["schema", "export", "-o", "elsewhere.schema"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        fs::read_to_string(cwd.join("elsewhere.schema")).unwrap(),
        schema
    );

    // `Owner` becomes a number; the version stays 1.
    let changed = GAME_LIB.replace("pub owner: String,", "pub owner: u32,");
    assert_ne!(changed, GAME_LIB);
    let Some(tool) = game_tool_of(&changed, "jasset-changed") else {
        return;
    };
    let o = run(&tool, cwd, &["schema", "check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = text(&o);
    assert!(
        out.contains("class `Projectile`: property `Owner` changed type from string to u32"),
        "{out}"
    );
    assert_eq!(out.matches("error:").count(), 1, "{out}");

    // With a version bump the same change passes.
    let bumped = changed.replace(
        "#[derive(Entity, Debug)]\npub struct Projectile",
        "#[derive(Entity, Debug)]\n#[jasset(version = 2)]\npub struct Projectile",
    );
    assert_ne!(bumped, changed);
    let Some(tool) = game_tool_of(&bumped, "jasset-bumped") else {
        return;
    };
    let o = run(&tool, cwd, &["schema", "check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}
