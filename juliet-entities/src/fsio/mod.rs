//! Reading and writing the files of a project safely: what the world's loads and saves
//! do with their files, for any program that reads or writes project files beside them
//! (the `jasset` tool, a game's own tools).
//!
//! The rules (docs/jasset-format.md, "Hostile input"): regular files only, never
//! blocking on a FIFO, never following a symbolic link in the last path component at the
//! moment of the open, a symbolic link never replaced by a copy, and a file changed on
//! disk since it was loaded never overwritten. Every file is written through one write
//! path ([`write_file`]: a lock, a unique temporary, a check right before the rename),
//! so that writers of one project, in one process or several, never lose each other's
//! saves.
//!
//! * Reading: [`read_project_file`] (a whole file, within a size limit, a link only
//!   inside the project).
//! * Writing: [`write_file`] (with what the target must hold, [`Expect`], and what is
//!   synced, [`Sync`]), [`replace_if_unchanged`] (its common form), [`write_or_refuse`]
//!   (a file the caller owns outright), [`sync_folder`] (after several writes or a
//!   rename), [`write_refusal`] (asked before any work).
//! * Temporaries: [`is_temp_name`] tells a writer's temporary file when listing a
//!   folder, [`remove_stale`] removes one whose writer was killed.
//!
//! ```
//! use juliet_entities::fsio::{self, Expect, ReplaceOutcome, Sync};
//!
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("notes.jasset");
//! // A new file: a file created there meanwhile would be a conflict, not overwritten.
//! let outcome = fsio::write_file(&path, Expect::Absent, b"; Mass\n1\n", Sync::FileAndFolder)?;
//! assert_eq!(outcome, ReplaceOutcome::Written);
//! let text = fsio::read_project_file(&path, Some(dir.path()), fsio::DEFAULT_MAX_FILE_SIZE)?;
//! assert_eq!(text, b"; Mass\n1\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

mod lock;
mod read;
mod replace;
mod write;

pub use read::{read_project_file, DEFAULT_MAX_FILE_SIZE};
pub(crate) use read::{read_regular, ReadError};
pub(crate) use replace::fingerprint_now;
pub use replace::{
    is_temp_name, remove_stale, replace_if_unchanged, write_refusal, Fingerprint, ReplaceOutcome,
    SkipReason, Skipped,
};
pub use write::{sync_folder, write_file, write_or_refuse, Expect, Sync};

/// The extension of entity and template files: `jasset` (matched in any case when
/// reading).
pub const EXTENSION: &str = "jasset";

/// Opens `path` for reading when it is a regular file.
///
/// On Unix the open itself does not follow a symbolic link in the last component
/// (`O_NOFOLLOW`: a link swapped in after the caller's checks fails with `ELOOP`) and
/// does not block (`O_NONBLOCK`: a FIFO swapped in is opened without waiting for a
/// writer); the open file is then checked with `fstat`, so what is read is the file
/// that was checked, whatever happened to the path meanwhile.
///
/// # Errors
/// The open's own error (not found, permission, `ELOOP` for a symbolic link), or
/// [`io::ErrorKind::InvalidInput`] "not a regular file" for a directory, FIFO, socket or
/// device.
pub(crate) fn open_regular(path: &Path) -> io::Result<File> {
    let file = open_no_follow(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(file)
}

/// Opens `path` for reading without following a symbolic link in its last component
/// and without blocking (on Unix: `O_NOFOLLOW | O_NONBLOCK`), and without checking
/// what it opened: for callers that listed the file as a regular file a moment before
/// and only read it, where a FIFO swapped in since then reads as empty (or
/// `WouldBlock`) and a directory fails to read, instead of hanging.
///
/// # Errors
/// The open's own error (not found, permission, `ELOOP` for a symbolic link).
pub(crate) fn open_no_follow(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    options.open(path)
}

/// [`open_no_follow`] as a bare file descriptor, with the same flags
/// (`O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC`), made by a direct system call
/// (`rustix`), for readers that call `read` themselves.
///
/// # Errors
/// As [`open_no_follow`].
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn open_no_follow_fd(path: &Path) -> io::Result<rustix::fd::OwnedFd> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    Ok(rustix::fs::open(path, flags, Mode::empty())?)
}

/// A temporary folder holding one file, `a.jasset`, of `contents`, and that file's path.
#[cfg(test)]
pub(crate) fn temp_file(contents: impl AsRef<[u8]>) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.jasset");
    std::fs::write(&path, contents).unwrap();
    (dir, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_a_regular_file() {
        let (_dir, path) = crate::fsio::temp_file("x: 1\n");
        let mut text = String::new();
        io::Read::read_to_string(&mut open_regular(&path).unwrap(), &mut text).unwrap();
        assert_eq!(text, "x: 1\n");
    }

    #[test]
    fn refuses_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let err = open_regular(dir.path()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    }

    #[cfg(unix)]
    #[test]
    fn refuses_a_symbolic_link_and_a_fifo_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.jasset");
        std::fs::write(&target, "x: 1\n").unwrap();
        let link = dir.path().join("link.jasset");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let err = open_regular(&link).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::ELOOP), "{err}");
        let err = open_no_follow(&link).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::ELOOP), "{err}");
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            let err = open_no_follow_fd(&link).unwrap_err();
            assert_eq!(err.raw_os_error(), Some(libc::ELOOP), "{err}");
            let fd = open_no_follow_fd(&target).unwrap();
            let mut buf = [0u8; 8];
            assert_eq!(rustix::io::read(&fd, &mut buf).unwrap(), 5);
            assert_eq!(&buf[..5], b"x: 1\n");
        }

        let fifo = dir.path().join("fifo.jasset");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // `mkfifo` is POSIX; nothing more to check where it is missing.
        }
        // Would block forever without O_NONBLOCK (no writer ever comes).
        let err = open_regular(&fifo).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        // Opened without checking: reading it without a writer ends at once.
        let mut opened = open_no_follow(&fifo).unwrap();
        let mut buf = [0u8; 8];
        match io::Read::read(&mut opened, &mut buf) {
            Ok(n) => assert_eq!(n, 0),
            Err(e) => assert_eq!(e.kind(), io::ErrorKind::WouldBlock),
        }
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            let fd = open_no_follow_fd(&fifo).unwrap();
            match rustix::io::read(&fd, &mut buf) {
                Ok(n) => assert_eq!(n, 0),
                Err(e) => assert_eq!(e, rustix::io::Errno::AGAIN),
            }
        }
    }
}
