//! [`read_project_file`]: the one way a project file is read whole (templates, loose
//! files, the files the writers compare against): regular files only, within the size
//! limit, never blocking, and a symbolic link followed only while it stays inside the
//! project root.

use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use juliet_core::{Error, ErrorKind};

use super::open_regular;

/// The largest project file read, in bytes, unless a caller says otherwise: 16 MiB, as
/// [`crate::world::LoadOptions::max_file_size`] and the template cache. The limit to
/// give [`read_project_file`] for a file the world or the templates would read.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 16 << 20;

/// Why [`read_regular`] or [`resolve_inside`] refused a file.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The system's error (not found, permission, ...).
    Io(io::Error),
    /// A directory, FIFO, socket or device.
    NotRegular,
    /// Over the limit (`size` is what the metadata or the reading showed).
    TooLarge { size: u64, limit: u64 },
    /// A symbolic link whose target (`real`) is outside the project root.
    OutsideRoot { real: PathBuf },
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> ReadError {
        ReadError::Io(e)
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::NotRegular => {
                f.write_str("not a regular file (a directory, FIFO, socket or device)")
            }
            ReadError::TooLarge { size, limit } => {
                write!(f, "{size} bytes, over the limit of {limit} bytes")
            }
            ReadError::OutsideRoot { real } => write!(
                f,
                "a symbolic link leading outside the project root (to {})",
                real.display()
            ),
        }
    }
}

impl ReadError {
    /// The located error about `path`: [`ErrorKind::FileTooLarge`] for a file over the
    /// limit, else [`ErrorKind::Io`] with this reason (so `not found` stays a
    /// [`io::ErrorKind::NotFound`]).
    pub(crate) fn into_error(self, path: &Path) -> Error {
        match self {
            ReadError::TooLarge { size, limit } => {
                Error::file(path, ErrorKind::FileTooLarge { size, limit })
            }
            ReadError::Io(e) => Error::io(path, e),
            other => Error::io(
                path,
                io::Error::new(io::ErrorKind::InvalidInput, other.to_string()),
            ),
        }
    }
}

/// The path to open for `path`: `path` itself unless its last component is a
/// symbolic link, else the link's resolved target, which must lie inside `root`
/// (resolved too).
///
/// # Errors
/// [`ReadError::OutsideRoot`] for a link out of `root`; the system's error for a
/// broken link or an unreadable root.
pub(crate) fn resolve_inside(path: &Path, root: &Path) -> Result<PathBuf, ReadError> {
    let meta = std::fs::symlink_metadata(path)?;
    if !meta.file_type().is_symlink() {
        return Ok(path.to_path_buf());
    }
    let real = std::fs::canonicalize(path)?;
    let real_root = std::fs::canonicalize(root)?;
    if real.starts_with(&real_root) {
        Ok(real)
    } else {
        Err(ReadError::OutsideRoot { real })
    }
}

/// The root a file is held to when no project root is known: its own folder.
pub(crate) fn root_or_parent<'a>(root: Option<&'a Path>, path: &'a Path) -> &'a Path {
    root.unwrap_or_else(|| match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    })
}

/// Reads the regular file at `path` whole (opened as [`open_regular`] does: not
/// following a link in the last component, not blocking), refusing it from its
/// metadata when over `limit` bytes and reading at most `limit + 1` bytes should it
/// grow meanwhile.
///
/// # Errors
/// See [`ReadError`].
pub(crate) fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let file = open_regular(path).map_err(|e| {
        if e.kind() == io::ErrorKind::InvalidInput {
            ReadError::NotRegular
        } else {
            ReadError::Io(e)
        }
    })?;
    let size = file.metadata()?.len();
    if size > limit {
        return Err(ReadError::TooLarge { size, limit });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        let size = bytes.len() as u64;
        return Err(ReadError::TooLarge { size, limit });
    }
    Ok(bytes)
}

/// Reads the project file `path` whole, as the templates and the saves read theirs: a
/// symbolic link is followed only to a target inside `root` (the project root; the
/// file's folder when `None`); the file must be a regular file (a FIFO is refused
/// without waiting for a writer) of at most `limit` bytes
/// ([`DEFAULT_MAX_FILE_SIZE`] for the world's limit).
///
/// # Errors
/// [`ErrorKind::FileTooLarge`] over the limit; [`ErrorKind::Io`] naming `path` for
/// everything else (not found, not a regular file, a link out of the root).
///
/// # Example
/// ```
/// use juliet_entities::fsio::{read_project_file, DEFAULT_MAX_FILE_SIZE};
/// use juliet_entities::juliet_core::ErrorKind;
///
/// let root = tempfile::tempdir()?;
/// let path = root.path().join("Rock.jasset");
/// std::fs::write(&path, "; Mass\n2.5\n")?;
/// let bytes = read_project_file(&path, Some(root.path()), DEFAULT_MAX_FILE_SIZE)?;
/// assert_eq!(bytes, b"; Mass\n2.5\n");
/// let err = read_project_file(&path, Some(root.path()), 4).unwrap_err();
/// assert!(matches!(err.kind, ErrorKind::FileTooLarge { size: 11, limit: 4 }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_project_file(path: &Path, root: Option<&Path>, limit: u64) -> Result<Vec<u8>, Error> {
    resolve_inside(path, root_or_parent(root, path))
        .and_then(|real| read_regular(&real, limit))
        .map_err(|e| e.into_error(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_within_the_limit_and_refuses_over_it() {
        let (dir, path) = crate::fsio::temp_file("0123456789");
        assert_eq!(read_project_file(&path, None, 10).unwrap(), b"0123456789");
        let err = read_project_file(&path, None, 9).unwrap_err();
        assert!(
            matches!(err.kind, ErrorKind::FileTooLarge { size: 10, limit: 9 }),
            "{err}"
        );
        let err = read_project_file(&dir.path().join("none.jasset"), None, 9).unwrap_err();
        assert!(err.to_string().contains("No such file"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn follows_links_inside_the_root_only() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("t.jasset"), "x").unwrap();
        std::fs::write(outside.path().join("o.jasset"), "o").unwrap();
        std::os::unix::fs::symlink("t.jasset", root.join("in.jasset")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("o.jasset"), root.join("out.jasset"))
            .unwrap();
        std::os::unix::fs::symlink("/dev/zero", root.join("zero.jasset")).unwrap();
        assert_eq!(
            read_project_file(&root.join("in.jasset"), Some(root), 10).unwrap(),
            b"x"
        );
        for name in ["out.jasset", "zero.jasset"] {
            let err = read_project_file(&root.join(name), Some(root), 10).unwrap_err();
            assert!(
                err.to_string().contains("outside the project root"),
                "{err}"
            );
        }
        // /dev/zero named directly is not a regular file (never read until memory ends).
        let err = read_project_file(Path::new("/dev/zero"), Some(Path::new("/")), 10).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }
}
