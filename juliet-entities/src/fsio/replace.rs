//! Replacing a project file: the one temporary-file scheme of every writer (`fmt`,
//! `migrate`, world saves, template saves), and [`replace_if_unchanged`], which
//! replaces a file only while it still holds what was loaded.
//!
//! A file is written to `.<name>.tmp` in the folder of the file it replaces, then
//! renamed over it, so a crash leaves the old or the new file, never half of one. The
//! temporary file gets the mode (and, where the process may set it, the owner) of the
//! file it replaces. A temporary left by a killed writer is recognized by its name
//! ([`is_temp_name`]) wherever the tools list files, and removed by the next writer
//! (or reported by a command that writes nothing).

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use juliet_core::Error;

use super::read::{read_regular, resolve_inside, root_or_parent, ReadError};

/// What a file held when it was read: its length and the CRC-32 of its bytes. Two
/// fingerprints differ when the bytes differ (but for a CRC collision of two texts of
/// one length, which an edit saved by a person does not make).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint {
    len: u64,
    crc: u32,
}

impl Fingerprint {
    /// The fingerprint of `bytes`.
    pub fn of(bytes: &[u8]) -> Fingerprint {
        Fingerprint {
            len: bytes.len() as u64,
            crc: crc32fast::hash(bytes),
        }
    }
}

/// Why a writer left a file as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SkipReason {
    /// The file no longer holds what was loaded (another program saved it since).
    ChangedOnDisk,
    /// The file is read-only (no write permission bit).
    ReadOnly,
    /// Its `ClassVersion` or `BaseVersion` is newer than this build's: rewriting it
    /// would drop what the newer build wrote.
    NewerVersion,
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SkipReason::ChangedOnDisk => {
                "changed on disk since it was loaded: not overwritten (load it again)"
            }
            SkipReason::ReadOnly => "read-only: not rewritten",
            SkipReason::NewerVersion => {
                "written by a newer build (its version is newer than this build's): \
                 not rewritten"
            }
        })
    }
}

/// A file a writer left as it is, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The file.
    pub path: PathBuf,
    /// Why it was not written.
    pub reason: SkipReason,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display().to_string();
        write!(
            f,
            "{}: {}",
            juliet_core::escape_controls(&path),
            self.reason
        )
    }
}

/// What [`replace_if_unchanged`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplaceOutcome {
    /// The new bytes were written.
    Written,
    /// The file already held the new bytes: nothing was written.
    Same,
    /// Nothing was written, for this reason.
    Skipped(SkipReason),
}

/// The temporary file that replaces `path`: `.<name>.tmp` beside it.
pub(crate) fn temp_path(path: &Path) -> PathBuf {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    path.with_file_name(format!(".{name}.tmp"))
}

/// Whether file name `name` is a temporary of a writer: `.<name>.jasset.tmp` (the
/// extension in any case), or `.jasset-<random>.tmp`, the name older builds of
/// `jasset fmt` gave theirs.
pub(crate) fn is_temp_name(name: &str) -> bool {
    let Some(inner) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) else {
        return false;
    };
    inner.starts_with("jasset-")
        || Path::new(inner)
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case(super::EXTENSION))
}

/// Removes the stale temporary file `path` (gone already is fine).
///
/// # Errors
/// [`juliet_core::ErrorKind::Io`] naming it.
pub(crate) fn remove_stale(path: &Path) -> Result<(), Error> {
    match fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io(path, e)),
    }
}

/// Whether the existing file with metadata `meta` may be rewritten.
fn is_read_only(meta: &fs::Metadata) -> bool {
    meta.permissions().readonly()
}

/// Writes `bytes` to `path` through its temporary file and a rename, with the mode and
/// owner of the file replaced (a new file gets the usual mode, as `File::create`
/// makes it); `fsync` syncs the temporary file before the rename. `path` must not be a
/// symbolic link (the rename would replace the link with a copy): callers resolve it
/// first ([`replace_if_unchanged`]) or refuse it.
///
/// # Errors
/// [`juliet_core::ErrorKind::Io`] naming `path`; `path` is untouched and the temporary
/// removed.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8], fsync: bool) -> Result<(), Error> {
    let old = match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(Error::io(
                path,
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a symbolic link: not replaced by a copy (write its target instead)",
                ),
            ))
        }
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(Error::io(path, e)),
    };
    let tmp = temp_path(path);
    let result = (|| {
        let mut file = create_temp(&tmp)?;
        if let Some(old) = &old {
            keep_mode_and_owner(&file, old)?;
        }
        file.write_all(bytes)?;
        if fsync {
            file.sync_all()?;
        }
        drop(file);
        fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        Error::io(path, e)
    })
}

/// Creates the temporary file `tmp`, replacing a stale one of that name.
fn create_temp(tmp: &Path) -> io::Result<File> {
    let create = || OpenOptions::new().write(true).create_new(true).open(tmp);
    match create() {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            fs::remove_file(tmp)?;
            create()
        }
        other => other,
    }
}

/// Gives `file` the permission bits of `old`, and its owner where allowed (a process
/// may not give a file away; the mode is kept regardless).
fn keep_mode_and_owner(file: &File, old: &fs::Metadata) -> io::Result<()> {
    file.set_permissions(old.permissions())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let current = file.metadata()?;
        if (current.uid(), current.gid()) != (old.uid(), old.gid()) {
            // EPERM for another owner when not privileged: the mode is what matters.
            let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
        }
    }
    Ok(())
}

/// Replaces the file at `path` with `bytes` if it still holds what was loaded
/// (`expected`, the fingerprint of the bytes read then; `None` skips that check).
///
/// A symbolic link is written through to its target when that lies inside `root`
/// (the file's folder when `None`), never replaced; a link out of the root is an
/// error. A read-only file, or one whose bytes no longer match `expected`, is left as
/// it is and reported in the outcome. The file is written through `.<name>.tmp` and
/// a rename, with the mode and owner of the file it replaces (see the module docs).
/// Between the check and the rename there is no lock: an edit saved in that instant is
/// still lost (the window is one read of the file).
///
/// # Errors
/// [`juliet_core::ErrorKind::Io`] naming `path` (not found, a link out of the root, a
/// failed write).
pub fn replace_if_unchanged(
    path: &Path,
    root: Option<&Path>,
    expected: Option<Fingerprint>,
    bytes: &[u8],
) -> Result<ReplaceOutcome, Error> {
    let fail = |e: ReadError| e.into_error(path);
    let target = resolve_inside(path, root_or_parent(root, path)).map_err(fail)?;
    let meta = fs::metadata(&target).map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(fail(ReadError::NotRegular));
    }
    let unchanged = |current: &[u8]| expected.is_none_or(|f| f == Fingerprint::of(current));
    let limit = expected.map_or(u64::MAX, |f| f.len.max(bytes.len() as u64));
    let current = match read_regular(&target, limit) {
        Ok(current) => current,
        // Longer than both the loaded and the new text: it changed.
        Err(ReadError::TooLarge { .. }) => {
            return Ok(ReplaceOutcome::Skipped(SkipReason::ChangedOnDisk))
        }
        Err(e) => return Err(fail(e)),
    };
    if !unchanged(&current) {
        return Ok(ReplaceOutcome::Skipped(SkipReason::ChangedOnDisk));
    }
    if current == bytes {
        return Ok(ReplaceOutcome::Same);
    }
    if is_read_only(&meta) {
        return Ok(ReplaceOutcome::Skipped(SkipReason::ReadOnly));
    }
    write_atomic(&target, bytes, true).map_err(|e| e.with_path(path))?;
    Ok(ReplaceOutcome::Written)
}

/// Whether the file at `path` may be rewritten: it exists, is not a symbolic link and is
/// not read-only. `None` when it may (or does not exist).
pub(crate) fn write_refusal(path: &Path) -> Option<SkipReason> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_file() && is_read_only(&meta) => Some(SkipReason::ReadOnly),
        _ => None,
    }
}

/// The fingerprint of the file at `path` now, if it is a regular file that can be read
/// (not following a link in its last component).
pub(crate) fn fingerprint_now(path: &Path) -> Option<Fingerprint> {
    read_regular(path, u64::MAX)
        .ok()
        .map(|b| Fingerprint::of(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_only_what_was_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.jasset");
        fs::write(&path, "old").unwrap();
        let loaded = Fingerprint::of(b"old");
        fs::write(&path, "edited").unwrap();
        let outcome = replace_if_unchanged(&path, None, Some(loaded), b"new").unwrap();
        assert_eq!(outcome, ReplaceOutcome::Skipped(SkipReason::ChangedOnDisk));
        assert_eq!(fs::read(&path).unwrap(), b"edited");
        let now = Fingerprint::of(b"edited");
        let outcome = replace_if_unchanged(&path, None, Some(now), b"new").unwrap();
        assert_eq!(outcome, ReplaceOutcome::Written);
        assert_eq!(fs::read(&path).unwrap(), b"new");
        let outcome = replace_if_unchanged(&path, None, None, b"new").unwrap();
        assert_eq!(outcome, ReplaceOutcome::Same);
        assert!(!temp_path(&path).exists());
    }

    #[cfg(unix)]
    #[test]
    fn keeps_the_mode_and_refuses_read_only_files() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.jasset");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        replace_if_unchanged(&path, None, None, b"new").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o644);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
        let outcome = replace_if_unchanged(&path, None, None, b"newer").unwrap();
        assert_eq!(outcome, ReplaceOutcome::Skipped(SkipReason::ReadOnly));
        assert_eq!(fs::read(&path).unwrap(), b"new");
    }

    #[cfg(unix)]
    #[test]
    fn writes_through_links_inside_the_root_and_refuses_others() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::write(root.join("t.jasset"), "old").unwrap();
        fs::write(outside.path().join("o.jasset"), "out").unwrap();
        std::os::unix::fs::symlink("t.jasset", root.join("link.jasset")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("o.jasset"), root.join("out.jasset"))
            .unwrap();
        let link = root.join("link.jasset");
        replace_if_unchanged(&link, Some(root), None, b"new").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(root.join("t.jasset")).unwrap(), b"new");
        let err =
            replace_if_unchanged(&root.join("out.jasset"), Some(root), None, b"x").unwrap_err();
        assert!(
            err.to_string().contains("outside the project root"),
            "{err}"
        );
        assert_eq!(fs::read(outside.path().join("o.jasset")).unwrap(), b"out");
        let err = write_atomic(&link, b"x", false).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
    }

    #[test]
    fn a_stale_temporary_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.jasset");
        fs::write(temp_path(&path), "stale").unwrap();
        write_atomic(&path, b"new", false).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert!(!temp_path(&path).exists());
    }

    #[test]
    fn temp_names_are_recognized() {
        for (name, is) in [
            (".a.jasset.tmp", true),
            (".A.JASSET.tmp", true),
            (".jasset-Ab12Cd.tmp", true),
            ("a.jasset.tmp", false),
            (".a.txt.tmp", false),
            (".a.jasset", false),
        ] {
            assert_eq!(is_temp_name(name), is, "{name}");
        }
        assert_eq!(
            temp_path(Path::new("d/x.jasset")),
            Path::new("d/.x.jasset.tmp")
        );
    }
}
