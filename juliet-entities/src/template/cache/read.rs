//! Reading a template file: inside the project root, a regular file, within the size
//! limit (issue 7's hostile-input rules; `docs/jasset-format.md`, "Hostile input").

use std::path::Path;

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
/// at most `limit + 1` bytes.
pub(super) fn read_into<'s>(
    scratch: &'s Bump,
    root: &Path,
    full: &Path,
    limit: u64,
) -> Result<&'s [u8], String> {
    let fail = |e: std::io::Error| format!("cannot read {}: {e}", full.display());
    let real = std::fs::canonicalize(full).map_err(|e| {
        let missing = e.kind() == std::io::ErrorKind::NotFound;
        match similar_file(root, full).filter(|_| missing) {
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
