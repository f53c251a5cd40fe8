//! `jasset lsp` spoken to as an editor does: the built binary spawned, JSON-RPC with
//! `Content-Length` framing on its stdin and stdout, over a copy of the bundled demo
//! project. Each request the server offers, on the demo's files as unsaved buffers, and
//! hostile buffers (a half-typed header, a NUL byte, 10 MB, a template cycle), after
//! which every request must still be answered.

use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::{json, Value as Json};

mod common;
mod lsp_client;
use common::demo_copy;
use lsp_client::{uri, Server};

const JASSET: &str = env!("CARGO_BIN_EXE_jasset");
const LEVEL: &str = "Assets/Worlds/Level01/Entities";

/// `text` with the `TextEdit`s `edits` applied (ASCII text: characters are bytes).
fn apply(text: &str, edits: &Json) -> String {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let offset = |p: &Json| {
        let line = p["line"].as_u64().unwrap() as usize;
        let start = starts.get(line).copied().unwrap_or(text.len());
        (start + p["character"].as_u64().unwrap() as usize).min(text.len())
    };
    let mut edits: Vec<(usize, usize, String)> = (edits.as_array().unwrap().iter())
        .map(|e| {
            let (a, b) = (offset(&e["range"]["start"]), offset(&e["range"]["end"]));
            (a, b, e["newText"].as_str().unwrap().to_owned())
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_owned();
    for (a, b, new) in edits {
        out.replace_range(a..b, &new);
    }
    out
}

/// What `jasset check FILE` prints for the file at `path` holding `text` (written to a
/// second copy of the demo), as `(line, column, level, message)`.
fn check_of(relative: &str, text: &str) -> Vec<(u32, u32, String, String)> {
    check_with(&[(relative, text)], relative)
}

/// What `jasset check` prints for the file `relative` of a second copy of the demo in
/// which each file of `written` holds its text, as `(line, column, level, message)`.
fn check_with(written: &[(&str, &str)], relative: &str) -> Vec<(u32, u32, String, String)> {
    let (_dir, root) = demo_copy();
    for (file, text) in written {
        fs::write(root.join(file), text).unwrap();
    }
    let out = Command::new(JASSET)
        .args(["check", relative])
        .current_dir(&root)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let printed = String::from_utf8(out.stdout).unwrap();
    printed
        .lines()
        .map(|l| {
            let rest = l.strip_prefix(&format!("{relative}:")).expect(l);
            let mut parts = rest.splitn(4, ':');
            let line = parts.next().unwrap().parse().unwrap();
            let column = parts.next().unwrap().parse().unwrap();
            let (level, message) = parts.next().zip(parts.next()).unwrap();
            (
                line,
                column,
                level.trim().to_owned(),
                message.trim().to_owned(),
            )
        })
        .collect()
}

/// `diagnostics` as `(line, column, level, message)`, 1-based as `check` prints them.
fn as_check(diagnostics: &[Json]) -> Vec<(u32, u32, String, String)> {
    diagnostics
        .iter()
        .map(|d| {
            let start = &d["range"]["start"];
            let level = if d["severity"] == 1 {
                "error"
            } else {
                "warning"
            };
            (
                start["line"].as_u64().unwrap() as u32 + 1,
                start["character"].as_u64().unwrap() as u32 + 1,
                level.to_owned(),
                d["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

const ROCK_042: &str = "Assets/Worlds/Level01/Entities/RockLarge_042.jasset";

#[test]
fn diagnostics_of_the_buffer_are_checks_at_the_same_places() {
    let (_dir, root) = demo_copy();
    let path = root.join(ROCK_042);
    let on_disk = fs::read_to_string(&path).unwrap();
    let mut server = Server::start();
    assert_eq!(server.open(&path, &on_disk), Vec::<Json>::new());

    // A misspelt key: a warning with its did-you-mean, as `check` prints it.
    let misspelt = on_disk.replace("Health: 50.0", "Helth: 50.0");
    let shown = server.change(&path, &misspelt);
    let expected = check_of(ROCK_042, &misspelt);
    assert_eq!(expected.len(), 1, "{expected:?}");
    assert!(expected[0].3.contains("did you mean `Health`?"));
    assert_eq!(as_check(&shown), expected);
    assert_eq!(shown[0]["range"]["end"]["character"], json!(5), "{shown:?}");

    // A bad value: an error at the value's column.
    let bad = on_disk.replace("Scale: 1.4, 1.4, 1.4", "Scale: 1.4, x, 1.4");
    let shown = server.change(&path, &bad);
    let expected = check_of(ROCK_042, &bad);
    assert_eq!(expected.len(), 1, "{expected:?}");
    assert_eq!(expected[0].2, "error");
    assert_eq!(as_check(&shown), expected);

    // The buffer, not the file: the file on disk is still clean and unchanged.
    assert_eq!(fs::read_to_string(&path).unwrap(), on_disk);
    assert_eq!(server.change(&path, &on_disk), Vec::<Json>::new());
    server.stop();
}

#[test]
fn an_unsaved_template_buffer_is_the_template_of_the_open_instances() {
    let (_dir, root) = demo_copy();
    let path = root.join(ROCK_042);
    let instance = fs::read_to_string(&path).unwrap();
    let template = root.join("Assets/Templates/RockLarge.jasset");
    let on_disk = fs::read_to_string(&template).unwrap();
    let mut server = Server::start();
    assert_eq!(server.open(&path, &instance), Vec::<Json>::new());
    assert_eq!(server.open(&template, &on_disk), Vec::<Json>::new());
    // Opening the template checks its open instance again.
    let uri_of_instance = uri(&path);
    assert_eq!(server.diagnostics(&uri_of_instance), Vec::<Json>::new());

    // The template becomes a `Collectible` in its buffer: the instance's overrides of
    // `Inert` properties are now unknown keys, as `check` says once the file is saved.
    let collectible = "; entity_type: Collectible\nPosition: 0.0, 0.0, 0.0\n";
    server.change(&template, collectible);
    let shown = server.diagnostics(&uri_of_instance);
    let written = [("Assets/Templates/RockLarge.jasset", collectible)];
    let expected = check_with(&written, ROCK_042);
    assert_eq!(expected.len(), 2, "{expected:?}");
    assert_eq!(as_check(&shown), expected);

    // The template's buffer back as the file is: the instance is clean again, and the
    // template file was never written.
    server.change(&template, &on_disk);
    assert_eq!(server.diagnostics(&uri_of_instance), Vec::<Json>::new());
    assert_eq!(fs::read_to_string(&template).unwrap(), on_disk);
    server.stop();
}

#[test]
fn a_template_buffer_shows_its_problems_in_the_instances_that_are_not_open() {
    let (_dir, root) = demo_copy();
    let template = root.join("Assets/Templates/RockLarge.jasset");
    let on_disk = fs::read_to_string(&template).unwrap();
    let instance = uri(&root.join(ROCK_042));
    let mut server = Server::start();
    assert_eq!(server.open(&template, &on_disk), Vec::<Json>::new());
    assert_eq!(server.diagnostics(&instance), Vec::<Json>::new());
    // The template becomes a `Collectible` in its buffer: the closed instance's
    // overrides of `Inert` properties are unknown keys, as `check` says once saved.
    let collectible = "; entity_type: Collectible\nPosition: 0.0, 0.0, 0.0\n";
    server.change(&template, collectible);
    let shown = server.diagnostics(&instance);
    let written = [("Assets/Templates/RockLarge.jasset", collectible)];
    let expected = check_with(&written, ROCK_042);
    assert_eq!(expected.len(), 2, "{expected:?}");
    assert_eq!(as_check(&shown), expected);
    // Closing the buffer unsaved: the instance is checked against the file again.
    server.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": uri(&template) } }),
    );
    assert_eq!(server.diagnostics(&instance), Vec::<Json>::new());
    assert_eq!(fs::read_to_string(&template).unwrap(), on_disk);
    server.stop();
}

#[test]
fn hover_on_an_id_names_the_entity_of_the_world_that_has_it() {
    let (_dir, root) = demo_copy();
    let path = root.join(ROCK_042);
    let text = fs::read_to_string(&path).unwrap();
    let mut server = Server::start();
    server.open(&path, &text);
    let line = text
        .lines()
        .position(|l| l.starts_with("EntityID:"))
        .unwrap() as u32;
    let shown = server.at("textDocument/hover", &path, line, 14);
    let value = shown["contents"]["value"].as_str().unwrap();
    assert!(value.contains("`RockLarge_042`"), "{value}");
    assert!(
        value.contains("an instance of `Assets/Templates/RockLarge.jasset`"),
        "{value}"
    );
    // An id in another value (a reference typed into a buffer), and one no file has.
    let other = root.join(LEVEL).join("RockLarge_007.jasset");
    let typed = format!(
        "{}Watch: 0x0001000000001042\nLost: 0x00000000DEADBEEF\n",
        fs::read_to_string(&other).unwrap()
    );
    server.open(&other, &typed);
    let lines = typed.lines().count() as u32;
    let shown = server.at("textDocument/hover", &other, lines - 2, 10);
    let value = shown["contents"]["value"].as_str().unwrap();
    assert!(value.contains("`RockLarge_042`"), "{value}");
    let shown = server.at("textDocument/hover", &other, lines - 1, 10);
    let value = shown["contents"]["value"].as_str().unwrap();
    assert!(
        value.contains("no file of this world has that id"),
        "{value}"
    );
    server.stop();
}

#[test]
fn hover_names_type_default_template_value_and_chain() {
    let (_dir, root) = demo_copy();
    let path = root.join(LEVEL).join("RockLargeMossy_001.jasset");
    let text = fs::read_to_string(&path).unwrap() + "Health: 5.0\n";
    let mut server = Server::start();
    assert_eq!(server.open(&path, &text), Vec::<Json>::new());
    let health = text.lines().position(|l| l.starts_with("Health")).unwrap() as u32;

    let shown = server.at("textDocument/hover", &path, health, 2);
    let shown = shown["contents"]["value"].as_str().unwrap().to_owned();
    // The nearest template that sets it is the variant, not its parent.
    assert!(shown.contains("`f32`"), "{shown}");
    assert!(shown.contains("`Inert`"), "{shown}");
    assert!(
        shown.contains("`120.0` set by `Assets/Templates/RockLargeMossy.jasset`"),
        "{shown}"
    );
    assert!(shown.contains("overrides"), "{shown}");
    let chain = "Assets/Templates/RockLargeMossy.jasset -> Assets/Templates/RockLarge.jasset";
    assert!(shown.contains(&format!("chain: {chain}")), "{shown}");
    assert!(shown.contains("default: `"), "{shown}");

    let template = text.lines().position(|l| l.contains("template:")).unwrap() as u32;
    let shown = server.at("textDocument/hover", &path, template, 20);
    let shown = shown["contents"]["value"].as_str().unwrap().to_owned();
    assert!(shown.contains("kind `Inert`"), "{shown}");
    assert!(
        shown.contains(
            "Assets/Templates/RockLargeMossy.jasset -> Assets/Templates/RockLarge.jasset"
        ),
        "{shown}"
    );
    server.stop();
}

/// The labels of a completion answer.
fn labels(answer: &Json) -> Vec<String> {
    let items = answer.as_array().expect("a list of items");
    items
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn completion_offers_missing_keys_kinds_templates_and_values() {
    let (_dir, root) = demo_copy();
    let path = root.join(ROCK_042);
    let text = fs::read_to_string(&path).unwrap();
    let mut server = Server::start();
    server.open(&path, &text);
    let end = text.lines().count() as u32;

    let keys = server.at("textDocument/completion", &path, end, 0);
    let offered = labels(&keys);
    assert!(offered.contains(&"Mass".to_owned()), "{offered:?}");
    assert!(offered.contains(&"MeshAsset".to_owned()), "{offered:?}");
    assert!(!offered.contains(&"Health".to_owned()), "{offered:?}");
    assert!(!offered.contains(&"Scale".to_owned()), "{offered:?}");
    let mass = keys
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "Mass");
    assert!(mass.unwrap()["detail"].as_str().unwrap().contains("f32"));

    let with = |line: &str| format!("{text}{line}");
    server.change(&path, &with("IsDestructible: "));
    let values = server.at("textDocument/completion", &path, end, 16);
    assert_eq!(labels(&values), ["true", "false"]);

    let standalone = "; AssetType\nEntity\n; Kind\n\n";
    let loose = root.join(LEVEL).join("New.jasset");
    server.open(&loose, standalone);
    let kinds = labels(&server.at("textDocument/completion", &loose, 3, 0));
    for kind in ["Inert", "Collectible", "Projectile"] {
        assert!(kinds.contains(&kind.to_owned()), "{kinds:?}");
    }
    server.change(&loose, "; AssetType\nEntity\n; template: ");
    let templates = labels(&server.at("textDocument/completion", &loose, 2, 12));
    assert!(
        templates.contains(&"Assets/Templates/RockLargeMossy.jasset".to_owned()),
        "{templates:?}"
    );
    assert_eq!(templates.len(), 8, "{templates:?}");
    server.stop();
}

#[test]
fn completion_offers_the_variants_of_a_schema_kinds_enum() {
    let (_dir, root) = demo_copy();
    let schema = "; AssetType\nSchema\n; Turret\nversion 1\nproperty Mode enum(Idle|Hunt) Idle\n";
    fs::write(root.join("jasset.schema"), schema).unwrap();
    let path = root.join(LEVEL).join("Turret.jasset");
    let mut server = Server::start();
    let text = "; Kind: Turret\nEntityID: 0x0001000000000999\nMode: ";
    server.open(&path, text);
    let values = labels(&server.at("textDocument/completion", &path, 2, 6));
    assert_eq!(values, ["Idle", "Hunt"]);
    server.stop();
}

#[test]
fn definition_opens_the_template_and_the_line_that_sets_a_value() {
    let (_dir, root) = demo_copy();
    let path = root.join(LEVEL).join("RockLargeMossy_001.jasset");
    let text = fs::read_to_string(&path).unwrap() + "Mass: 3.0\n";
    let mut server = Server::start();
    server.open(&path, &text);
    let template = text.lines().position(|l| l.contains("template:")).unwrap() as u32;
    let found = server.at("textDocument/definition", &path, template, 20);
    let mossy = root.join("Assets/Templates/RockLargeMossy.jasset");
    assert_eq!(found["uri"], json!(uri(&mossy)));

    // `Mass` is set by the variant's parent, at its `Mass:` line.
    let mass = text.lines().position(|l| l.starts_with("Mass")).unwrap() as u32;
    let found = server.at("textDocument/definition", &path, mass, 1);
    let parent = root.join("Assets/Templates/RockLarge.jasset");
    assert_eq!(found["uri"], json!(uri(&parent)));
    let parent_text = fs::read_to_string(&parent).unwrap();
    let line = parent_text.lines().position(|l| l.starts_with("Mass:"));
    assert_eq!(found["range"]["start"]["line"], json!(line.unwrap()));
    server.stop();
}

/// The code actions at line `line` of the open buffer `path`.
fn actions(server: &mut Server, path: &Path, line: u32) -> Vec<Json> {
    let params = json!({
        "textDocument": { "uri": uri(path) },
        "range": { "start": { "line": line, "character": 0 }, "end": { "line": line, "character": 0 } },
        "context": { "diagnostics": [] },
    });
    server
        .result("textDocument/codeAction", params)
        .as_array()
        .unwrap()
        .clone()
}

/// The edits of the action titled with `title` for `path`.
fn edits_of(found: &[Json], title: &str, path: &Path) -> Json {
    let action = found
        .iter()
        .find(|a| a["title"].as_str().unwrap().contains(title))
        .unwrap_or_else(|| panic!("no `{title}` action in {found:?}"));
    action["edit"]["changes"][uri(path)].clone()
}

#[test]
fn code_actions_fix_a_misspelt_key_revert_an_override_and_format() {
    let (_dir, root) = demo_copy();
    let path = root.join(ROCK_042);
    let on_disk = fs::read_to_string(&path).unwrap();
    let misspelt = on_disk.replace("Health: 50.0", "Helth: 50.0");
    let mut server = Server::start();
    server.open(&path, &misspelt);
    let health = misspelt
        .lines()
        .position(|l| l.starts_with("Helth"))
        .unwrap() as u32;

    let found = actions(&mut server, &path, health);
    let fixed = apply(&misspelt, &edits_of(&found, "Change to `Health`", &path));
    assert_eq!(fixed, on_disk);

    // Reverting `Health` removes its line: the instance takes the template's value.
    server.change(&path, &on_disk);
    let found = actions(&mut server, &path, health);
    let reverted = apply(&on_disk, &edits_of(&found, "to template", &path));
    assert_eq!(reverted, on_disk.replace("Health: 50.0\n", ""));

    // "Format file" and formatting give what `jasset fmt` writes.
    let formatted = apply(&on_disk, &edits_of(&found, "Format file", &path));
    let params = json!({
        "textDocument": { "uri": uri(&path) },
        "options": { "tabSize": 4, "insertSpaces": true },
    });
    let edits = server.result("textDocument/formatting", params);
    assert_eq!(apply(&on_disk, &edits), formatted);
    let fmt = Command::new(JASSET)
        .args(["fmt", ROCK_042])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(fmt.status.success());
    let canonical = fs::read_to_string(&path).unwrap();
    assert_ne!(canonical, on_disk);
    assert_eq!(formatted, canonical);
    server.stop();
}

/// "Apply to template" on `line` of the open buffer `path` holding `text`: the new texts
/// of the buffer and of the template file `template` it names.
fn applied(
    server: &mut Server,
    path: &Path,
    text: &str,
    line: u32,
    template: &Path,
) -> (String, String) {
    let found = actions(server, path, line);
    let action = found
        .iter()
        .find(|a| a["title"].as_str().unwrap().starts_with("Apply `"))
        .unwrap_or_else(|| panic!("no apply action in {found:?}"));
    let changes = &action["edit"]["changes"];
    let before = fs::read_to_string(template).unwrap();
    (
        apply(text, &changes[uri(path)]),
        apply(&before, &changes[uri(template)]),
    )
}

#[test]
fn apply_to_template_moves_the_value_into_the_template() {
    let (_dir, root) = demo_copy();
    let templates = root.join("Assets/Templates");
    let mut server = Server::start();

    // The template sets `Health` on a `Key: value` line: that line takes the value.
    let path = root.join(ROCK_042);
    let text = fs::read_to_string(&path).unwrap();
    server.open(&path, &text);
    let health = text.lines().position(|l| l.starts_with("Health")).unwrap() as u32;
    let rock = templates.join("RockLarge.jasset");
    let (instance, template) = applied(&mut server, &path, &text, health, &rock);
    assert_eq!(instance, text.replace("Health: 50.0\n", ""));
    let before = fs::read_to_string(&rock).unwrap();
    assert_eq!(template, before.replace("Health: 100.0", "Health: 50.0"));

    // The variant does not set `Mass`: it is added to it, and its instances take it.
    let path = root.join(LEVEL).join("RockLargeMossy_001.jasset");
    let text = fs::read_to_string(&path).unwrap() + "Mass: 3.0\n";
    server.open(&path, &text);
    let mass = text.lines().position(|l| l.starts_with("Mass")).unwrap() as u32;
    let mossy = templates.join("RockLargeMossy.jasset");
    let (instance, template) = applied(&mut server, &path, &text, mass, &mossy);
    fs::write(&path, &instance).unwrap();
    fs::write(&mossy, &template).unwrap();
    let check = Command::new(JASSET)
        .args(["check", "."])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let inspect = Command::new(JASSET)
        .args([
            "inspect",
            "--json",
            &format!("{LEVEL}/RockLargeMossy_002.jasset"),
        ])
        .current_dir(&root)
        .output()
        .unwrap();
    let json: Json = serde_json::from_slice(&inspect.stdout).unwrap();
    assert_eq!(json["properties"]["Mass"], json!(3.0), "{json}");
    server.stop();
}

/// Sends every request of the server at line `line` of the open buffer `path` and
/// checks that each gets an answer (a result or an error response).
fn every_request_answers(server: &mut Server, path: &Path, line: u32) {
    let at = json!({ "textDocument": { "uri": uri(path) }, "position": { "line": line, "character": 3 } });
    for method in [
        "textDocument/hover",
        "textDocument/completion",
        "textDocument/definition",
    ] {
        let answer = server.request(method, at.clone());
        assert!(answer.get("result").is_some() || answer.get("error").is_some());
    }
    actions(server, path, line);
    let params = json!({ "textDocument": { "uri": uri(path) }, "options": { "tabSize": 4, "insertSpaces": true } });
    server.result("textDocument/formatting", params);
}

#[test]
fn hostile_buffers_get_answers_and_never_stop_the_server() {
    let (_dir, root) = demo_copy();
    let path = root.join(ROCK_042);
    let on_disk = fs::read_to_string(&path).unwrap();
    let mut server = Server::start();
    server.open(&path, &on_disk);

    // A half-typed header and a half-typed key.
    for half in ["; ", ";", "; Hea", "Hea", "; Kind:", ": 5"] {
        let text = format!("{on_disk}{half}");
        server.change(&path, &text);
        every_request_answers(&mut server, &path, on_disk.lines().count() as u32);
    }

    // A NUL byte: the tokenizer's error, at its place.
    let nul = on_disk.replace("Health: 50.0", "Health: 5\u{0}0.0");
    let shown = server.change(&path, &nul);
    assert_eq!(as_check(&shown), check_of(ROCK_042, &nul));
    assert_eq!(shown.len(), 1, "{shown:?}");
    every_request_answers(&mut server, &path, 8);

    // 10 MB: a buffer of 500,000 unknown keys.
    let mut big = on_disk.clone();
    for i in 0..500_000 {
        big.push_str(&format!("Unknown_{i:07}: 1.5\n"));
    }
    assert!(big.len() > 10_000_000);
    let shown = server.change(&path, &big);
    assert!(!shown.is_empty());
    every_request_answers(&mut server, &path, 8);

    // A template cycle: two templates naming each other.
    let templates = root.join("Assets/Templates");
    fs::write(
        templates.join("A.jasset"),
        "; Template\nAssets/Templates/B.jasset\n",
    )
    .unwrap();
    fs::write(
        templates.join("B.jasset"),
        "; Template\nAssets/Templates/A.jasset\n",
    )
    .unwrap();
    let cyclic = "; template: Assets/Templates/A.jasset\nEntityID: 0x0001000000007777\nMass: 1.0\n";
    let shown = server.change(&path, cyclic);
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(
        shown[0]["message"].as_str().unwrap().contains("cycle"),
        "{shown:?}"
    );
    every_request_answers(&mut server, &path, 0);
    every_request_answers(&mut server, &path, 2);

    // Template paths that name what must not be read: a device outside the project, a
    // FIFO inside it (no writer ever comes), a folder.
    let fifo = templates.join("Pipe.jasset");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for template in [
        "/dev/zero",
        "../../../../../../dev/zero",
        "Assets/Templates/Pipe.jasset",
        "Assets/Templates",
    ] {
        let text = format!("; template: {template}\nEntityID: 0x0001000000007777\nMass: 1.0\n");
        let shown = server.change(&path, &text);
        assert_eq!(shown.len(), 1, "{template}: {shown:?}");
        assert_eq!(shown[0]["severity"], json!(1), "{template}: {shown:?}");
        every_request_answers(&mut server, &path, 0);
        every_request_answers(&mut server, &path, 2);
    }

    // And a clean buffer is clean again.
    assert_eq!(server.change(&path, &on_disk), Vec::<Json>::new());
    server.stop();
}

/// The guide shows the editor snippets of `editors/` (the Neovim one is what the Neovim
/// test runs): each block must be the file as it is.
#[test]
fn the_guides_editor_snippets_are_the_files_in_editors() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let guide = fs::read_to_string(repo.join("docs/guide.md")).unwrap();
    for (fence, file) in [
        ("```lua\n", "editors/neovim/jasset.lua"),
        ("```toml\n", "editors/helix/languages.toml"),
    ] {
        let snippet = fs::read_to_string(repo.join(file)).unwrap();
        let block = format!("{fence}{snippet}```\n");
        assert!(
            guide.contains(&block),
            "the guide does not show {file} as it is"
        );
    }
}
