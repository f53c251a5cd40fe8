//! [`collect`]: the `.jasset` files named by the paths of `check`, `fmt` and `migrate`.
//!
//! A world's `Entities` folder is listed by the world loader's own listing
//! ([`world_files`]), so the tools see the files the game loads (hidden ones included)
//! and skip what it skips. Elsewhere folders are walked recursively,
//! following symbolic links to folders (a world folder may be one) but never into a
//! folder already listed (a link loop). Whatever is skipped is reported: entries that
//! are not regular files, link loops, hidden folders, unreadable folders; temporary
//! files left by an interrupted writer are returned apart, for the writers to remove
//! and the other commands to report.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use juliet_core::{Error, Warning, WarningKind};

use juliet_entities::fsio::is_temp_name;
use juliet_entities::world::{world_files, ENTITIES_DIR, EXTENSION, NOT_REGULAR};

/// Why a folder in a world's `Entities` is skipped (a world load says nothing of it).
const FOLDER: &str = "a folder in a world's `Entities` folder: skipped (a world loads only \
     the `.jasset` files right in `Entities`, none in its folders)";

/// Whether `path` has the `.jasset` extension (any case).
pub(crate) fn is_jasset(path: &Path) -> bool {
    path.extension()
        .is_some_and(|x| x.eq_ignore_ascii_case(EXTENSION))
}

/// What [`collect`] found.
#[derive(Debug, Default)]
pub(crate) struct Collected {
    /// The `.jasset` files, without duplicates, sorted by path.
    pub files: Vec<PathBuf>,
    /// Paths that do not exist or folders that cannot be read.
    pub errors: Vec<Error>,
    /// What was skipped, and why.
    pub warnings: Vec<Warning>,
    /// Temporary files of an interrupted writer (`.<name>.jasset.<random>.tmp`).
    pub stale_temps: Vec<PathBuf>,
}

impl Collected {
    /// Reports the stale temporaries: removed when `remove` (the writers do), else
    /// each named as a warning.
    pub(crate) fn handle_stale_temps(&mut self, remove: bool) {
        for temp in std::mem::take(&mut self.stale_temps) {
            if remove {
                match juliet_entities::fsio::remove_stale(&temp) {
                    // A live writer's: left to it.
                    Ok(false) => {}
                    Ok(true) => self.warnings.push(warning(
                        &temp,
                        "temporary file of an interrupted write: removed",
                    )),
                    Err(e) => self.errors.push(e),
                }
            } else {
                self.warnings.push(warning(
                    &temp,
                    "temporary file of an interrupted write (`jasset fmt` or a save removes it)",
                ));
            }
        }
    }
}

fn warning(path: &Path, text: &str) -> Warning {
    Warning::new(path, 0, 0, None, WarningKind::Other(text.into()))
}

/// The `.jasset` files named by `paths`: files as given, folders listed as the module
/// documentation says.
pub(crate) fn collect(paths: &[PathBuf]) -> Collected {
    let mut found = Collected::default();
    let mut seen = HashSet::new();
    for path in paths {
        match fs::metadata(path) {
            Ok(m) if m.is_dir() => walk(path, &mut found, &mut seen),
            Ok(_) => found.files.push(path.clone()),
            Err(e) => found.errors.push(Error::io(path, e)),
        }
    }
    found.files.sort();
    found.files.dedup();
    found.stale_temps.sort();
    found.stale_temps.dedup();
    found
}

/// What tells one folder from another, however it is reached: its device and inode
/// number (read from the folder's metadata, one lookup of its path, so a walk stays
/// linear in its entries at any depth; resolving the path instead costs a lookup per
/// component, each as long as the path). Where there are no inode numbers, the resolved
/// path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum FolderId {
    #[cfg(unix)]
    Inode(u64, u64),
    Path(PathBuf),
}

fn folder_id(dir: &Path) -> FolderId {
    #[cfg(unix)]
    if let Ok(m) = fs::metadata(dir) {
        use std::os::unix::fs::MetadataExt;
        return FolderId::Inode(m.dev(), m.ino());
    }
    FolderId::Path(fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()))
}

/// Lists folder `dir` into `found`; `seen` holds the folders listed so far.
fn walk(dir: &Path, found: &mut Collected, seen: &mut HashSet<FolderId>) {
    if !seen.insert(folder_id(dir)) {
        found.warnings.push(warning(
            dir,
            "folder already listed (a symbolic link loop or a second link to it): skipped",
        ));
        return;
    }
    if dir.file_name().is_some_and(|n| n == ENTITIES_DIR) {
        match world_files(dir) {
            Ok(listing) => {
                found.files.extend(listing.files);
                for skipped in listing.skipped {
                    found.warnings.push(warning(&skipped, NOT_REGULAR));
                }
                for folder in listing.folders {
                    found.warnings.push(warning(&folder, FOLDER));
                }
                found.stale_temps.extend(listing.stale_temps);
            }
            Err(e) => found.errors.push(e),
        }
        return;
    }
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return found.errors.push(Error::io(dir, e)),
    };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        // A link is followed for its type: to a folder, listed; to a file, read later
        // (only when it stays inside the project).
        let followed = if kind.is_symlink() {
            fs::metadata(&path).map(|m| m.file_type()).ok()
        } else {
            Some(kind)
        };
        match followed {
            Some(t) if t.is_dir() => {
                if name.starts_with('.') {
                    found
                        .warnings
                        .push(warning(&path, "hidden folder: skipped"));
                } else {
                    walk(&path, found, seen);
                }
            }
            _ if is_temp_name(&name) && kind.is_file() => found.stale_temps.push(path),
            _ if !is_jasset(&path) => {}
            Some(t) if t.is_file() => found.files.push(path),
            // A FIFO, socket, device, or a broken link.
            _ => found.warnings.push(warning(&path, NOT_REGULAR)),
        }
    }
}
