//! The generated world of the runtime benchmarks (`benches/runtime.rs`) and of the
//! `world_load_ratio` example: 10,000 canonical `Inert` entity files of about 300
//! bytes in `<root>/Entities`, named by id.

use std::fs;
use std::path::{Path, PathBuf};

/// Files in the generated world.
pub(crate) const WORLD_SIZE: u64 = 10_000;

/// A canonical `Inert` entity file of about 300 bytes, as the writer emits it.
pub(crate) fn entity_file(i: u64) -> String {
    let f = i as f32;
    format!(
        "; AssetType\nEntity\n; BaseVersion\n1\n; EntityID\n0x{i:016X}\n; Kind\nInert\n\
         ; Position\n{:?} {:?} {:?}\n; ClassVersion\n2\n; MeshInstance\n{}\n\
         ; MeshAsset\nAssets/Meshes/Rock_{:02}.obj\n; MaterialOverride\nMaterials/M_Granite_{}\n\
         ; Scale\n1.25 1.25 1.25\n; Mass\n{:?}\n; IsDestructible\ntrue\n; IsVisible\ntrue\n\
         ; Health\n{:?}\n",
        f * 0.5 + 0.125,
        12.0f32,
        -f * 0.25 - 0.375,
        i % 64,
        i % 16,
        i % 8,
        100.0 + f * 0.5,
        50.0 + (i % 50) as f32,
    )
}

pub(crate) fn write_world(root: &Path) -> Vec<PathBuf> {
    let dir = root.join("Entities");
    fs::create_dir_all(&dir).unwrap();
    (1..=WORLD_SIZE)
        .map(|i| {
            let path = dir.join(format!("{i:016X}.jasset"));
            fs::write(&path, entity_file(i)).unwrap();
            path
        })
        .collect()
}
