//! Builds a crate outside the workspace, as a game would: a folder of its own (in a temp
//! dir) with path dependencies on the workspace's crates, built by `cargo --offline`.
//! The workspace's `Cargo.lock` is copied in (so the same versions resolve, with no
//! network), and every such crate shares one target folder under `CARGO_TARGET_TMPDIR`,
//! so only the first build of a run compiles the dependencies.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace root.
pub(crate) fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_path_buf()
}

/// The cargo that runs these tests (`$CARGO`), else `cargo` on the `PATH`; `None`, with
/// the reason printed, when neither runs.
pub(crate) fn cargo() -> Option<OsString> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    match Command::new(&cargo).arg("--version").output() {
        Ok(o) if o.status.success() => Some(cargo),
        Ok(o) => {
            eprintln!(
                "SKIPPED: `{} --version` failed: {}",
                cargo.to_string_lossy(),
                String::from_utf8_lossy(&o.stderr)
            );
            None
        }
        Err(err) => {
            eprintln!("SKIPPED: cargo is not available ({err})");
            None
        }
    }
}

/// A crate in a temporary folder.
pub(crate) struct OutsideCrate {
    cargo: OsString,
    dir: tempfile::TempDir,
}

impl OutsideCrate {
    /// A crate named `name` whose `[dependencies]` section is `dependencies`, in which
    /// `{workspace}` stands for the workspace root; `files` are its other files (path,
    /// text). `None` when cargo is not available (the reason is printed).
    pub(crate) fn new(
        name: &str,
        dependencies: &str,
        files: &[(&str, &str)],
    ) -> Option<OutsideCrate> {
        let cargo = cargo()?;
        let dir = tempfile::tempdir().expect("temp dir");
        let workspace = workspace();
        let manifest = format!(
            "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
             # Not a member of any workspace around the temp dir.\n[workspace]\n\n{}\n",
            dependencies.replace("{workspace}", &workspace.to_string_lossy())
        );
        fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
        fs::copy(workspace.join("Cargo.lock"), dir.path().join("Cargo.lock")).unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        Some(OutsideCrate { cargo, dir })
    }

    /// The crate's folder.
    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The shared target folder.
    pub(crate) fn target_dir() -> PathBuf {
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("outside-crates")
    }

    /// Runs `cargo <args> --offline` in the crate's folder.
    pub(crate) fn cargo(&self, args: &[&str]) -> Output {
        Command::new(&self.cargo)
            .args(args)
            .arg("--offline")
            .current_dir(self.path())
            .env("CARGO_TARGET_DIR", Self::target_dir())
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .output()
            .expect("run cargo")
    }

    /// Runs `cargo <args> --offline` and panics, with cargo's output, unless it succeeds.
    pub(crate) fn cargo_ok(&self, args: &[&str]) -> Output {
        let out = self.cargo(args);
        assert!(
            out.status.success(),
            "cargo {args:?} failed in {}:\n{}\n{}",
            self.path().display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// The path of binary `name` after a build.
    pub(crate) fn binary(name: &str) -> PathBuf {
        Self::target_dir()
            .join("debug")
            .join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
    }
}
