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

const GAME_FILES: &[(&str, &str)] = &[
    ("src/lib.rs", include_str!("../game/src/lib.rs")),
    (
        "src/bin/jasset.rs",
        include_str!("../game/src/bin/jasset.rs"),
    ),
];

const DEPENDENCIES: &str =
    "[dependencies]\njuliet-entities = { path = \"{workspace}/juliet-entities\", features = [\"cli\"] }\n";

const LEVEL: &str = "Assets/Worlds/Level01/Entities";

/// The game's `jasset`, built; `None` when cargo cannot be run.
fn game_tool() -> Option<std::path::PathBuf> {
    let game = OutsideCrate::new("my_game", DEPENDENCIES, GAME_FILES)?;
    game.cargo_ok(&["build", "--bin", "jasset"]);
    // The game's binary is the only `jasset` of the shared target folder.
    Some(OutsideCrate::binary("jasset"))
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

/// A project with one file of each game kind, an old-name `Monster`, a version-1 `Door`
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
    file("orc.jasset", 2, "Monster", "; Health\n30\n");
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

    // migrate runs the game's migration and writes the old-name file's new name.
    let o = run(&tool, cwd, &["migrate", "Assets"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let door = fs::read_to_string(cwd.join(LEVEL).join("door.jasset")).unwrap();
    assert!(
        door.contains("; ClassVersion\n2\n") && door.contains("; LockCode\n1234\n"),
        "{door}"
    );
    assert!(!door.contains("Locked"), "{door}");
    let o = run(&tool, cwd, &["check", "--strict", "Assets"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}
