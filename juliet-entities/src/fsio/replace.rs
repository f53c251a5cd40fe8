//! What a write of the write path ([`super::write_file`]) reports, the names of its
//! temporary files, and [`replace_if_unchanged`], the public form of the write path:
//! it replaces a file only while it still holds what was loaded.
//!
//! A temporary is named `.<name>.<6 random characters>.tmp` beside the file it
//! replaces ([`is_temp_name`] recognizes it wherever the tools list files); its writer
//! holds a lock on it while it lives, so [`remove_stale`] removes only the temporaries
//! of writers that are gone (killed), never renaming one into place.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use juliet_core::Error;

use super::read::read_regular;
use super::write::{write_file, Expect, Sync};

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

    /// The fingerprint of `len` bytes whose CRC-32 is `crc`.
    pub(crate) fn from_parts(len: u64, crc: u32) -> Fingerprint {
        Fingerprint { len, crc }
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
    /// The path is a symbolic link: never replaced by a copy (write its target).
    SymbolicLink,
    /// Not a regular file: a FIFO, a socket, a device or a folder.
    NotRegular,
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
            SkipReason::SymbolicLink => {
                "a symbolic link: not replaced by a copy (write its target instead)"
            }
            SkipReason::NotRegular => {
                "not a regular file (a FIFO, socket, device or folder): not written"
            }
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

/// How a temporary's name ends.
pub(crate) const TEMP_SUFFIX: &str = ".tmp";

/// How many random characters a temporary's name has before [`TEMP_SUFFIX`].
pub(crate) const TEMP_RANDOM_LEN: usize = 6;

/// Whether file name `name` (a name, not a path) is a temporary of a writer
/// ([`write_file`]): `.<name>.jasset.<random>.tmp` (the extension in any case, six
/// letters and digits), and the names older builds gave theirs, `.<name>.jasset.tmp`
/// and `.jasset-<random>.tmp`. A program that lists a project's files skips these (or
/// removes them with [`remove_stale`]).
///
/// # Example
/// ```
/// use juliet_entities::fsio::is_temp_name;
/// assert!(is_temp_name(".Rock.jasset.a1B2c3.tmp"));
/// assert!(!is_temp_name("Rock.jasset"));
/// assert!(!is_temp_name(".notes.txt.a1B2c3.tmp"));
/// ```
pub fn is_temp_name(name: &str) -> bool {
    let Some(inner) = name
        .strip_prefix('.')
        .and_then(|n| n.strip_suffix(TEMP_SUFFIX))
    else {
        return false;
    };
    let is_asset = |stem: &str| {
        Path::new(stem)
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case(super::EXTENSION))
    };
    let unique = inner.rsplit_once('.').is_some_and(|(stem, random)| {
        random.len() == TEMP_RANDOM_LEN
            && random.bytes().all(|b| b.is_ascii_alphanumeric())
            && is_asset(stem)
    });
    unique || inner.starts_with("jasset-") || is_asset(inner)
}

/// Removes the temporary file `path` (one [`is_temp_name`] recognizes) when it is
/// stale: its writer is gone (killed: no lock on it). `Ok(true)` when it is gone now
/// (removed, or gone already), `Ok(false)` when a live writer holds it (it is left
/// alone: that writer renames or removes it).
///
/// # Errors
/// [`juliet_core::ErrorKind::Io`] naming `path` (a removal the system refused).
pub fn remove_stale(path: &Path) -> Result<bool, Error> {
    let gone = |e: &io::Error| e.kind() == io::ErrorKind::NotFound;
    match super::open_no_follow(path) {
        // Held while it is removed: its writer cannot be half way.
        Ok(file) if super::lock::is_locked(&file) => return Ok(false),
        Ok(file) => {
            let removed = fs::remove_file(path);
            drop(file);
            match removed {
                Err(e) if !gone(&e) => return Err(Error::io(path, e)),
                _ => return Ok(true),
            }
        }
        Err(e) if gone(&e) => return Ok(true),
        // Not readable (or a link): removed by its name as before.
        Err(_) => {}
    }
    match fs::remove_file(path) {
        Err(e) if !gone(&e) => Err(Error::io(path, e)),
        _ => Ok(true),
    }
}

/// Replaces the file at `path` with `bytes` if it still holds what was loaded
/// (`expected`, the fingerprint of the bytes read then; `None` skips that check),
/// through the write path of every writer (docs/design.md, section 6.2): under an
/// advisory lock on the file, through a uniquely named temporary in its folder, synced,
/// checked again right before the rename, the folder synced after it.
///
/// A file that already holds `bytes` is left alone ([`ReplaceOutcome::Same`], whatever
/// `expected` says). A file that no longer holds what was loaded, a read-only file, a
/// symbolic link, and what is not a regular file are left as they are and reported in
/// the outcome ([`SkipReason`]). A [`ReplaceOutcome::Written`] is on disk.
///
/// # Errors
/// [`juliet_core::ErrorKind::Io`] naming `path` (not found, the lock held by another
/// writer for over 30 s, a failed write).
///
/// # Example
/// ```
/// use juliet_entities::{replace_if_unchanged, Fingerprint, ReplaceOutcome, SkipReason};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("a.jasset");
/// std::fs::write(&path, "Mass: 1\n").unwrap();
/// let loaded = Fingerprint::of(b"Mass: 1\n");
/// std::fs::write(&path, "Mass: 2\n").unwrap(); // another program saved it
/// let outcome = replace_if_unchanged(&path, Some(loaded), b"Mass: 3\n").unwrap();
/// assert_eq!(outcome, ReplaceOutcome::Skipped(SkipReason::ChangedOnDisk));
/// assert_eq!(std::fs::read(&path).unwrap(), b"Mass: 2\n");
/// ```
pub fn replace_if_unchanged(
    path: &Path,
    expected: Option<Fingerprint>,
    bytes: &[u8],
) -> Result<ReplaceOutcome, Error> {
    // Replaces a file: one that is not there is an error, not a new file.
    fs::symlink_metadata(path).map_err(|e| Error::io(path, e))?;
    let expect = expected.map_or(Expect::Any, Expect::Holds);
    write_file(path, expect, bytes, Sync::FileAndFolder)
}

/// Why the write path ([`write_file`]) would refuse the file at `path` whatever it
/// holds ([`SkipReason::SymbolicLink`], [`SkipReason::NotRegular`],
/// [`SkipReason::ReadOnly`]); `None` when it would write it (or it does not exist). For
/// writers that check before doing the work of an edit; the write checks again.
///
/// # Example
/// ```
/// use juliet_entities::fsio::write_refusal;
/// use juliet_entities::SkipReason;
///
/// let dir = tempfile::tempdir()?;
/// assert_eq!(write_refusal(&dir.path().join("new.jasset")), None);
/// assert_eq!(write_refusal(dir.path()), Some(SkipReason::NotRegular));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_refusal(path: &Path) -> Option<SkipReason> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Some(SkipReason::SymbolicLink),
        Ok(meta) if !meta.is_file() => Some(SkipReason::NotRegular),
        Ok(meta) if meta.permissions().readonly() => Some(SkipReason::ReadOnly),
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
pub(crate) mod tests {
    use super::*;

    /// The writers' temporaries left in `dir`.
    pub(crate) fn temps(dir: &Path) -> Vec<String> {
        (fs::read_dir(dir).unwrap())
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| is_temp_name(n))
            .collect()
    }

    #[test]
    fn replaces_only_what_was_loaded() {
        let (dir, path) = crate::fsio::temp_file("old");
        let loaded = Fingerprint::of(b"old");
        fs::write(&path, "edited").unwrap();
        let outcome = replace_if_unchanged(&path, Some(loaded), b"new").unwrap();
        assert_eq!(outcome, ReplaceOutcome::Skipped(SkipReason::ChangedOnDisk));
        assert_eq!(fs::read(&path).unwrap(), b"edited");
        let now = Fingerprint::of(b"edited");
        let outcome = replace_if_unchanged(&path, Some(now), b"new").unwrap();
        assert_eq!(outcome, ReplaceOutcome::Written);
        assert_eq!(fs::read(&path).unwrap(), b"new");
        let outcome = replace_if_unchanged(&path, None, b"new").unwrap();
        assert_eq!(outcome, ReplaceOutcome::Same);
        assert!(temps(dir.path()).is_empty());
        let err = replace_if_unchanged(&dir.path().join("none.jasset"), None, b"x").unwrap_err();
        assert!(err.to_string().contains("No such file"), "{err}");
    }

    /// What another run made of the file is what this one would write: already done,
    /// not a conflict.
    #[test]
    fn a_file_changed_into_the_new_bytes_is_the_same_not_changed_on_disk() {
        let (_dir, path) = crate::fsio::temp_file("canonical");
        let loaded = Fingerprint::of(b"not canonical");
        let outcome = replace_if_unchanged(&path, Some(loaded), b"canonical").unwrap();
        assert_eq!(outcome, ReplaceOutcome::Same);
    }

    #[cfg(unix)]
    #[test]
    fn keeps_the_mode_and_refuses_read_only_files() {
        use std::os::unix::fs::PermissionsExt;
        let (_dir, path) = crate::fsio::temp_file("old");
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        replace_if_unchanged(&path, None, b"new").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o640);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
        let outcome = replace_if_unchanged(&path, None, b"newer").unwrap();
        assert_eq!(outcome, ReplaceOutcome::Skipped(SkipReason::ReadOnly));
        assert_eq!(fs::read(&path).unwrap(), b"new");
    }

    /// Links, FIFOs and folders are refused alike, whatever the link leads to, and
    /// left as they are.
    #[cfg(unix)]
    #[test]
    fn links_fifos_and_folders_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::write(root.join("t.jasset"), "old").unwrap();
        std::os::unix::fs::symlink("t.jasset", root.join("link.jasset")).unwrap();
        let link = root.join("link.jasset");
        let outcome = replace_if_unchanged(&link, None, b"new").unwrap();
        assert_eq!(outcome, ReplaceOutcome::Skipped(SkipReason::SymbolicLink));
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(fs::read(root.join("t.jasset")).unwrap(), b"old");
        fs::create_dir(root.join("d.jasset")).unwrap();
        let outcome = replace_if_unchanged(&root.join("d.jasset"), None, b"new").unwrap();
        assert_eq!(outcome, ReplaceOutcome::Skipped(SkipReason::NotRegular));
        let fifo = root.join("fifo.jasset");
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            // Would block forever if the FIFO were opened to be read or written.
            let outcome = replace_if_unchanged(&fifo, None, b"new").unwrap();
            assert_eq!(outcome, ReplaceOutcome::Skipped(SkipReason::NotRegular));
            assert_eq!(write_refusal(&fifo), Some(SkipReason::NotRegular));
        }
        assert_eq!(write_refusal(&link), Some(SkipReason::SymbolicLink));
        assert!(temps(root).is_empty());
    }

    #[test]
    fn a_stale_temporary_is_removed_and_a_live_one_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let stale = dir.path().join(".a.jasset.Ab12Cd.tmp");
        fs::write(&stale, "stale").unwrap();
        assert!(remove_stale(&stale).unwrap());
        assert!(!stale.exists());
        assert!(remove_stale(&stale).unwrap(), "gone already is fine");
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            let live = dir.path().join(".a.jasset.Xy34Zw.tmp");
            fs::write(&live, "live").unwrap();
            let held = fs::File::open(&live).unwrap();
            assert!(super::super::lock::lock(&held, super::super::lock::LOCK_WAIT).unwrap());
            assert!(!remove_stale(&live).unwrap());
            assert_eq!(fs::read(&live).unwrap(), b"live");
            drop(held);
            assert!(remove_stale(&live).unwrap());
            assert!(!live.exists());
        }
    }

    #[test]
    fn temp_names_are_recognized() {
        for (name, is) in [
            (".a.jasset.Ab12Cd.tmp", true),
            (".A.JASSET.000000.tmp", true),
            (".a.jasset.tmp", true),
            (".jasset-Ab12Cd.tmp", true),
            (".a.jasset.Ab12C.tmp", false),
            (".a.jasset.Ab-2Cd.tmp", false),
            ("a.jasset.tmp", false),
            (".a.txt.tmp", false),
            (".a.txt.Ab12Cd.tmp", false),
            (".a.jasset", false),
        ] {
            assert_eq!(is_temp_name(name), is, "{name}");
        }
    }
}
