//! The stock `jasset` on a game's kinds through `<root>/jasset.schema`: the game of
//! `tests/game` (its own `Projectile`, `Monster2` renamed from `Monster`, `Door` at
//! version 2) exports its schema with its own tool, then the stock binary, which was
//! built without the game, checks, inspects, sets and formats the game's files. Without
//! the schema they are of unknown kinds. Skips, saying why, only when cargo cannot be
//! run to build the game.

#[path = "../../tests/tests/outside_crates/harness.rs"]
mod harness;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use harness::OutsideCrate;

const GAME_LIB: &str = include_str!("../../tests/game/src/lib.rs");
const GAME_BIN: &str = include_str!("../../tests/game/src/bin/jasset.rs");
const DEPENDENCIES: &str = "[dependencies]
juliet-entities = { path = \"{workspace}/juliet-entities\" }
jasset = { path = \"{workspace}/jasset\" }
";

const LEVEL: &str = "Assets/Worlds/Level01/Entities";
const DOOR: &str = "# the cellar door\n; EntityID\n3\n; Kind\nDoor\n; ClassVersion: 2\nLockCode: 7\nLeadsTo: 1, 2, 3\n";

/// The game's own `jasset`, built outside the workspace as a game builds it.
fn game_tool() -> Option<std::path::PathBuf> {
    let files = [
        ("src/lib.rs", GAME_LIB),
        ("src/bin/jasset-game.rs", GAME_BIN),
    ];
    let game = OutsideCrate::new("my_game", DEPENDENCIES, &files)?;
    game.cargo_ok(&["build", "--bin", "jasset-game"]);
    Some(OutsideCrate::binary("jasset-game"))
}

fn run(tool: &Path, cwd: &Path, args: &[&str]) -> Output {
    Command::new(tool)
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .expect("run jasset")
}

fn stock(cwd: &Path, args: &[&str]) -> Output {
    run(Path::new(env!("CARGO_BIN_EXE_jasset")), cwd, args)
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// A project with one file of each game kind and a stock `Inert`.
fn project() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let level = root.path().join(LEVEL);
    fs::create_dir_all(&level).unwrap();
    fs::create_dir_all(root.path().join("Assets/Templates")).unwrap();
    fs::write(
        level.join("shot.jasset"),
        "; EntityID\n1\n; Kind\nProjectile\n; Damage\n12.5\n; Owner\nplayer\n",
    )
    .unwrap();
    fs::write(
        level.join("orc.jasset"),
        "; EntityID\n2\n; Kind\nMonster\n; Health\n30\n",
    )
    .unwrap();
    fs::write(level.join("door.jasset"), DOOR).unwrap();
    fs::write(
        level.join("rock.jasset"),
        "; EntityID\n4\n; Kind\nInert\n; Mass\n250.0\n",
    )
    .unwrap();
    root
}

#[test]
fn with_the_games_schema_the_stock_tool_works_on_the_games_kinds() {
    let root = project();
    let cwd = root.path();
    let door_path = cwd.join(LEVEL).join("door.jasset");
    let door = format!("{LEVEL}/door.jasset");

    // Without the schema the game's kinds are unknown, as they always were.
    let o = stock(cwd, &["check", "Assets"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("unknown kind `Door`"), "{}", text(&o));
    assert!(text(&o).contains("unknown kind `Monster`"), "{}", text(&o));

    let Some(game) = game_tool() else { return };
    let o = run(&game, cwd, &["schema", "export"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(cwd.join("jasset.schema").is_file());

    // check: every file loads, the game's `Projectile` with the game's keys.
    let o = stock(cwd, &["check", "--strict", "Assets"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("0 errors, 0 warnings"), "{}", text(&o));

    // inspect: the values by the schema's types.
    let o = stock(cwd, &["inspect", "--json", &door]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["kind"], "Door");
    assert_eq!(json["properties"]["LockCode"], 7);
    assert_eq!(
        json["properties"]["LeadsTo"],
        serde_json::json!([1.0, 2.0, 3.0])
    );

    // set: one line changes; a value the game's codec refuses is refused, nothing written.
    let o = stock(cwd, &["set", &door, "LockCode=99"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let after_set = DOOR.replace("LockCode: 7", "LockCode: 99");
    assert_eq!(fs::read_to_string(&door_path).unwrap(), after_set);
    let o = stock(cwd, &["set", &door, "LockCode=-1"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("LockCode"), "{}", text(&o));
    assert_eq!(fs::read_to_string(&door_path).unwrap(), after_set);

    // fmt: canonical form in the game's layout; the old class name becomes the new one.
    let o = stock(cwd, &["fmt", "Assets"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let formatted = fs::read_to_string(&door_path).unwrap();
    assert!(
        formatted.ends_with(
            "; Kind\nDoor\n; Position\n0.0 0.0 0.0\n; ClassVersion\n2\n; LockCode\n99\n; LeadsTo\n1.0 2.0 3.0\n"
        ),
        "{formatted}"
    );
    let orc = fs::read_to_string(cwd.join(LEVEL).join("orc.jasset")).unwrap();
    assert!(orc.contains("; Kind\nMonster2\n"), "{orc}");
    let o = stock(cwd, &["fmt", "--check", "Assets"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    // A bad value of a game kind is named at its line and column, as for a stock kind.
    fs::write(
        cwd.join(LEVEL).join("bad.jasset"),
        "; EntityID\n5\n; Kind\nDoor\n; LeadsTo\n1 2 x\n",
    )
    .unwrap();
    let o = stock(cwd, &["check", "Assets"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("bad.jasset:6:5: error: `LeadsTo`: expected 3 floats"),
        "{}",
        text(&o)
    );
    fs::remove_file(cwd.join(LEVEL).join("bad.jasset")).unwrap();

    // migrate needs the game's code: a version-1 door is refused and left as it is.
    let old = "; EntityID\n6\n; Kind\nDoor\n; ClassVersion\n1\n; Locked\ntrue\n";
    fs::write(cwd.join(LEVEL).join("old.jasset"), old).unwrap();
    let o = stock(cwd, &["migrate", "Assets"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("needs the game's code"), "{}", text(&o));
    assert_eq!(
        fs::read_to_string(cwd.join(LEVEL).join("old.jasset")).unwrap(),
        old
    );
    // The game's own tool migrates it.
    let o = run(&game, cwd, &["migrate", "Assets"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    // diff: a game kind's values compare through the schema's codecs, so a respelled
    // vector is no change and only the real edit is listed.
    let respelled = formatted.replace("1.0 2.0 3.0", "1 2 3");
    fs::write(cwd.join("respelled.jasset"), &respelled).unwrap();
    let o = stock(cwd, &["diff", &door, "respelled.jasset", "--root", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    fs::write(
        cwd.join("edited.jasset"),
        respelled.replace("; LockCode\n99\n", "; LockCode\n100\n"),
    )
    .unwrap();
    let o = stock(cwd, &["diff", &door, "edited.jasset", "--root", "."]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("LockCode: 99 -> 100"), "{}", text(&o));
    assert!(!text(&o).contains("LeadsTo"), "{}", text(&o));
}

#[test]
fn the_stock_export_leaves_a_schema_with_the_games_kinds_as_it_is() {
    let root = project();
    let cwd = root.path();
    let schema = "; AssetType\nSchema\n; Door\nversion 2\nproperty LockCode u32 0\n";
    fs::write(cwd.join("jasset.schema"), schema).unwrap();
    let o = stock(cwd, &["schema", "export"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("(Door)"), "{}", text(&o));
    assert!(text(&o).contains("--force"), "{}", text(&o));
    assert_eq!(
        fs::read_to_string(cwd.join("jasset.schema")).unwrap(),
        schema
    );
    // The stock tool registers the stock kinds alone, which a schema leaves out unless
    // asked: nothing to export, and it says where a schema comes from.
    let o = stock(cwd, &["schema", "export", "--force"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("the game's own jasset") && text(&o).contains("--stock-kinds"),
        "{}",
        text(&o)
    );
    assert_eq!(
        fs::read_to_string(cwd.join("jasset.schema")).unwrap(),
        schema
    );
    // Asked to, it writes the classes this build registers.
    let o = stock(cwd, &["schema", "export", "--force", "--stock-kinds"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let written = fs::read_to_string(cwd.join("jasset.schema")).unwrap();
    assert!(
        written.contains("; Inert") && !written.contains("; Door"),
        "{written}"
    );
    // A schema of the build's own classes is replaced without asking.
    let o = stock(cwd, &["schema", "export", "--stock-kinds"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // `-o -` prints the schema and writes no file.
    fs::write(cwd.join("jasset.schema"), schema).unwrap();
    let o = stock(cwd, &["schema", "export", "--stock-kinds", "-o", "-"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let printed = String::from_utf8_lossy(&o.stdout);
    assert!(
        printed.starts_with("# The entity classes") && printed.contains("; Inert"),
        "{printed}"
    );
    assert!(!cwd.join("-").exists());
    assert_eq!(
        fs::read_to_string(cwd.join("jasset.schema")).unwrap(),
        schema
    );
}

#[test]
fn a_schema_with_an_unknown_type_is_refused_naming_its_line() {
    let root = project();
    let cwd = root.path();
    fs::write(
        cwd.join("jasset.schema"),
        "; AssetType\nSchema\n; Door\nversion 2\nproperty LockCode u32 0\nproperty LeadsTo quaternion 0\n",
    )
    .unwrap();
    let o = stock(cwd, &["check", "Assets"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = text(&o);
    assert!(
        out.contains(
            "jasset.schema:6:18: class `Door`: property `LeadsTo`: unknown type `quaternion`"
        ),
        "{out}"
    );
}
