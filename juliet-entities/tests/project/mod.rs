//! A throw-away project (a temporary folder with `Assets/Templates` and one world,
//! `Assets/Worlds/Level01`) for the template tests.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use juliet_entities::{Durability, LoadOptions, LoadReport, World};

pub(crate) struct Project {
    pub dir: tempfile::TempDir,
}

impl Project {
    pub(crate) fn new() -> Project {
        let project = Project {
            dir: tempfile::tempdir().unwrap(),
        };
        fs::create_dir_all(project.templates_dir()).unwrap();
        fs::create_dir_all(project.entities_dir()).unwrap();
        project
    }

    pub(crate) fn root(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn templates_dir(&self) -> PathBuf {
        self.root().join("Assets/Templates")
    }

    pub(crate) fn world_dir(&self) -> PathBuf {
        self.root().join("Assets/Worlds/Level01")
    }

    pub(crate) fn entities_dir(&self) -> PathBuf {
        self.world_dir().join("Entities")
    }

    /// Writes `Assets/Templates/<name>.jasset`; returns its project-relative path.
    pub(crate) fn template(&self, name: &str, text: &str) -> String {
        fs::write(self.templates_dir().join(format!("{name}.jasset")), text).unwrap();
        format!("Assets/Templates/{name}.jasset")
    }

    /// Writes `Entities/<name>.jasset` of the world; returns its path.
    pub(crate) fn entity(&self, name: &str, text: &str) -> PathBuf {
        let path = self.entities_dir().join(format!("{name}.jasset"));
        fs::write(&path, text).unwrap();
        path
    }

    pub(crate) fn read_entity(&self, name: &str) -> String {
        fs::read_to_string(self.entities_dir().join(format!("{name}.jasset"))).unwrap()
    }

    /// Loads the world (project root found from the world directory), fast saves.
    pub(crate) fn load(&self) -> (World, LoadReport) {
        let (mut world, report) = World::load(self.world_dir(), &LoadOptions::default()).unwrap();
        world.set_durability(Durability::Fast);
        world.manager().check_invariants().unwrap();
        (world, report)
    }

    /// Loads the world and asserts a clean report.
    pub(crate) fn load_clean(&self) -> World {
        let (world, report) = self.load();
        assert!(report.is_clean(), "{report:?}");
        world
    }
}

/// Every file under `dir` with its bytes, sorted by path.
pub(crate) fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = fs::read(&path).unwrap();
                files.push((path, bytes));
            }
        }
    }
    files.sort();
    files
}

/// The keys of an instance file that carry the instance's own values, normalized (ASCII
/// lower case, no `_`) and sorted: `Position` when present and the properties; the base
/// keys and `ClassVersion` are left out, since an in-place save keeps however the file
/// wrote (or left out) those.
pub(crate) fn keys_of(text: &str) -> Vec<String> {
    let mut buffer = juliet_core::TokenBuffer::new();
    let doc = buffer
        .tokenize(text.as_bytes(), std::path::Path::new("instance.jasset"))
        .expect("a saved file tokenizes");
    let header = [
        "assettype",
        "baseversion",
        "version",
        "entityid",
        "id",
        "kind",
        "class",
        "entitytype",
        "template",
        "classversion",
    ];
    let mut keys: Vec<String> = (0..doc.len())
        .map(|i| juliet_core::normalize_key(doc.key(i)))
        .filter(|k| !header.contains(&k.as_str()))
        .collect();
    keys.sort();
    keys
}

/// The value lines of `key` (any spelling, any line form) in `text`, joined by `\n`.
pub(crate) fn value_of(text: &str, key: &str) -> Option<String> {
    let mut buffer = juliet_core::TokenBuffer::new();
    let doc = buffer
        .tokenize(text.as_bytes(), std::path::Path::new("instance.jasset"))
        .expect("a saved file tokenizes");
    let i = doc.peek_name(key)?;
    Some(doc.value(i).lines().collect::<Vec<_>>().join("\n"))
}

/// What [`keys_of`] gives for a sparse instance file (docs/design.md, section 7.3):
/// `Position` when the instance's own, and the overridden properties.
pub(crate) fn sparse_keys(position: bool, overrides: &[&str]) -> Vec<String> {
    let mut keys: Vec<String> = overrides
        .iter()
        .map(|k| juliet_core::normalize_key(k))
        .chain(position.then(|| "position".to_owned()))
        .collect();
    keys.sort();
    keys
}

/// The design's `RockLarge` template (an `Inert`), in `Key: value` style.
pub(crate) const ROCK_LARGE: &str = "; entity_type: Inert\n\nPosition: 0.0, 0.0, 0.0\n\
    MeshAsset: Assets/Meshes/Rock_01.obj\nScale: 1.0, 1.0, 1.0\nMass: 250.0\n\
    IsDestructible: true\nHealth: 100.0\n";

/// An instance file of `template` with id `id` and `body` (more `Key: value` lines).
pub(crate) fn instance(template: &str, id: u64, body: &str) -> String {
    format!("; template: {template}\nEntityID: 0x{id:016X}\n{body}")
}
