//! Reading a template file: inside the project root, a regular file, within the size
//! limit (`docs/jasset-format.md`, "Hostile input").

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use bumpalo::Bump;

use crate::fsio::{read_regular, ReadError};

/// Reads the whole file `full` (under the project root `root`) into `scratch`, or gives
/// the reason it cannot.
///
/// Symbolic links are followed only while they stay inside the project root: the path
/// is resolved (`canonicalize`), checked against the resolved root, and the resolved
/// path is opened without following a link in its last component and without blocking
/// (see [`read_regular`]), so a FIFO, device, directory or a link swapped in after the
/// check is refused. A file over `limit` bytes is refused from its metadata before it
/// is read, and one that grows past `limit` while being read is refused after reading
/// at most `limit + 1` bytes. A missing file's error names a similar file of its
/// folder, found through `near`.
pub(super) fn read_into<'s>(
    scratch: &'s Bump,
    root: &Path,
    full: &Path,
    limit: u64,
    near: &mut NearNames,
) -> Result<&'s [u8], String> {
    let fail = |e: std::io::Error| format!("cannot read {}: {e}", full.display());
    let real = std::fs::canonicalize(full).map_err(|e| {
        let missing = e.kind() == std::io::ErrorKind::NotFound;
        let near = if missing {
            near.similar(root, full)
        } else {
            None
        };
        match near {
            Some(near) => format!("{} (did you mean `{near}`?)", fail(e)),
            None => fail(e),
        }
    })?;
    let real_root = std::fs::canonicalize(root)
        .map_err(|e| format!("cannot read the project root {}: {e}", root.display()))?;
    if !real.starts_with(&real_root) {
        return Err(format!(
            "{} leads outside the project root (through a symbolic link) to {}",
            full.display(),
            real.display()
        ));
    }
    read_regular(&real, limit)
        .map(|bytes| &*scratch.alloc_slice_copy(&bytes))
        .map_err(|e| match e {
            ReadError::NotRegular => format!("{} is not a regular file", full.display()),
            ReadError::TooLarge { size, .. } => format!(
                "{} is {size} bytes, over the limit of {limit} bytes",
                full.display()
            ),
            ReadError::Io(e) => fail(e),
            other => format!("cannot read {}: {other}", full.display()),
        })
}

/// The "did you mean" of each missing template path, worked out once: a world whose
/// instances name one missing template lists its folder (and compares every name
/// there) once, not once per instance. An answer is worked out again when the
/// folder's modification time has changed (a file added, removed or renamed there).
#[derive(Debug, Default)]
pub(super) struct NearNames {
    /// Missing path -> its folder's modification time and the answer.
    answers: HashMap<PathBuf, (Option<SystemTime>, Option<String>)>,
    /// How many folders were listed.
    #[cfg(test)]
    listings: u64,
}

impl NearNames {
    /// [`similar_file`] of `full`, from the answers kept while its folder is unchanged.
    fn similar(&mut self, root: &Path, full: &Path) -> Option<String> {
        let modified = (full.parent())
            .and_then(|dir| std::fs::metadata(dir).ok())
            .and_then(|m| m.modified().ok());
        if let Some((when, answer)) = self.answers.get(full) {
            if *when == modified && modified.is_some() {
                return answer.clone();
            }
        }
        #[cfg(test)]
        {
            self.listings += 1;
        }
        let answer = similar_file(root, full);
        (self.answers).insert(full.to_path_buf(), (modified, answer.clone()));
        answer
    }
}

/// A `.jasset` file beside the missing `full` whose name is close to its name
/// ([`juliet_core::did_you_mean`]), as a path relative to `root` with `/` separators
/// (how a `Template` value names it). `None` when nothing is close, or the folder is
/// not inside the project root.
fn similar_file(root: &Path, full: &Path) -> Option<String> {
    let name = full.file_name()?.to_str()?;
    // Only folders inside the project root are listed (as only files there are read).
    let dir = std::fs::canonicalize(full.parent()?).ok()?;
    if !dir.starts_with(std::fs::canonicalize(root).ok()?) {
        return None;
    }
    let names: Vec<String> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".jasset"))
        .collect();
    let near = juliet_core::did_you_mean(name, names.iter().map(String::as_str))?;
    let relative = full.with_file_name(near);
    let relative = relative.strip_prefix(root).unwrap_or(&relative);
    let parts: Vec<_> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::super::TemplateCache;

    /// The error of loading the missing template `path`.
    fn missing(cache: &mut TemplateCache, path: &str) -> String {
        cache.get_or_load(path).map(|_| ()).unwrap_err().to_string()
    }

    #[test]
    fn a_missing_template_lists_its_folder_once_until_the_folder_changes() {
        let project = tempfile::tempdir().unwrap();
        let templates = project.path().join("Assets/Templates");
        fs::create_dir_all(&templates).unwrap();
        for name in ["RockLarge", "Tree", "Bush"] {
            fs::write(templates.join(format!("{name}.jasset")), "; Kind\nInert\n").unwrap();
        }
        let mut cache = TemplateCache::new(project.path());
        // Three instances of one missing template: one listing, the same suggestion.
        for _ in 0..3 {
            let error = missing(&mut cache, "Assets/Templates/RockLage.jasset");
            assert!(
                error.contains("(did you mean `Assets/Templates/RockLarge.jasset`?)"),
                "{error}"
            );
        }
        assert_eq!(cache.near_names.listings, 1);
        // Another missing name in the folder is a listing of its own.
        let error = missing(&mut cache, "Assets/Templates/Tre.jasset");
        assert!(error.contains("did you mean `Assets/Templates/Tree.jasset`"));
        assert_eq!(cache.near_names.listings, 2);
        // A file removed from the folder (its modification time moved on) is seen.
        fs::remove_file(templates.join("RockLarge.jasset")).unwrap();
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
        fs::File::open(&templates)
            .unwrap()
            .set_modified(later)
            .unwrap();
        let error = missing(&mut cache, "Assets/Templates/RockLage.jasset");
        assert!(!error.contains("did you mean"), "{error}");
        assert_eq!(cache.near_names.listings, 3);
    }
}
