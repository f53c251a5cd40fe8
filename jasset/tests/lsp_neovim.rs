//! `jasset lsp` driven by a real editor: Neovim, headless, through its built-in LSP
//! client, runs `editors/neovim/lsp_test.lua` on a copy of the demo whose
//! `RockLarge_042.jasset` has `Health` misspelt. The script waits for the diagnostic,
//! asks for hover and completion, applies the did-you-mean code action and checks the
//! buffer; it exits with 1 at the first step that fails.
//!
//! Needs `nvim` on the PATH (Debian's `neovim` package, which `.ci/run` installs), so it
//! is behind the `end-to-end` feature: `cargo test -p jasset --features end-to-end
//! --test lsp_neovim`.

use std::fs;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::demo_copy;

const JASSET: &str = env!("CARGO_BIN_EXE_jasset");

#[test]
fn neovim_shows_the_diagnostic_hovers_completes_and_applies_the_fix() {
    let (_dir, root) = demo_copy();
    let file = root.join("Assets/Worlds/Level01/Entities/RockLarge_042.jasset");
    let misspelt = fs::read_to_string(&file)
        .unwrap()
        .replace("Health: 50.0", "Helth: 50.0");
    fs::write(&file, &misspelt).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors/neovim/lsp_test.lua");

    let mut nvim = Command::new("nvim")
        .args(["--headless", "--clean", "-u", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("JASSET", JASSET)
        .env("JASSET_FILE", &file)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run nvim (Debian's `neovim` package)");
    let mut stderr = nvim.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut said = String::new();
        let _ = stderr.read_to_string(&mut said);
        said
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = nvim.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(300) {
            let _ = nvim.kill();
            panic!("nvim did not finish: {}", reader.join().unwrap());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let said = reader.join().unwrap();
    assert!(status.success(), "{status}: {said}");
    assert!(said.contains("lsp_test: passed"), "{said}");
    // The buffer was fixed, never written.
    assert_eq!(fs::read_to_string(&file).unwrap(), misspelt);
}
