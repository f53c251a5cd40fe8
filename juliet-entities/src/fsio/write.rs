//! [`write_file`]: the one write path of every writer of a project (world and template
//! saves, `set`, `fmt`, `migrate`, `merge -o`, `renumber`, `schema export`, the
//! editor), docs/design.md, section 6.2.
//!
//! For one target it:
//! 1. opens the target without following a link or blocking, and refuses a symbolic
//!    link, a FIFO, a socket, a device or a folder ([`SkipReason::SymbolicLink`],
//!    [`SkipReason::NotRegular`]);
//! 2. takes the exclusive advisory lock on it (`flock`, see `lock.rs`), held until the
//!    end; when the path names another file once the lock is held (a writer renamed
//!    a new file over it meanwhile) it starts again on that one;
//! 3. reads what the target holds: the new bytes already ([`ReplaceOutcome::Same`],
//!    nothing written), or not what the writer read ([`SkipReason::ChangedOnDisk`]),
//!    or a read-only file ([`SkipReason::ReadOnly`]);
//! 4. writes a temporary file with a unique name, `.<name>.<6 random characters>.tmp`,
//!    in the target's folder, with the target's mode and owner, locked by its writer
//!    while it exists, and fsyncs it;
//! 5. checks again, immediately before the rename, that the path still names the file
//!    it locked and that the file still holds what was read (a program that does not
//!    lock may have saved it meanwhile);
//! 6. swaps the names of the temporary and the target in one step (Linux's
//!    `renameat2(RENAME_EXCHANGE)`), checks once more that what it took out of the
//!    path is the locked file, unchanged, and else swaps them back (a save made in the
//!    instant between the check and the swap is kept, and the write is a conflict); a
//!    plain rename where names cannot be swapped; a new file gets a rename that
//!    replaces nothing, so a file created meanwhile is a conflict. Then it fsyncs the
//!    folder.
//!
//! A writer killed on the way leaves the target old or new, never half written, and
//! maybe its temporary, which no other writer renames: [`super::remove_stale`] removes
//! a temporary only when its writer's lock is gone.

use std::fs::{self, File};
use std::io::{self, Read, Seek, Write};
use std::path::Path;

use juliet_core::Error;

use super::lock::{lock, LOCK_WAIT};
use super::replace::{Fingerprint, ReplaceOutcome, SkipReason};

/// What a writer of [`write_file`] expects the target to hold: the file is written only
/// while it does, else left as it is ([`SkipReason::ChangedOnDisk`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Anything (a file that is replaced whatever it holds, or a new one).
    Any,
    /// No file: the target is new, and a file created there meanwhile is a conflict.
    Absent,
    /// The bytes with this fingerprint (what the writer read).
    Holds(Fingerprint),
}

/// What [`write_file`] syncs to disk (`fsync`) before it reports a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sync {
    /// Nothing (`Durability::Fast`: a killed process is covered, a power cut is not).
    Nothing,
    /// The temporary file before its rename; the caller syncs the folder once after
    /// several writes (a world save) before it reports them.
    File,
    /// The temporary file and, after the rename, the folder.
    FileAndFolder,
}

/// Where a writer stops when a test asks it to (the proptest of the write path injects
/// pauses there; nothing happens there otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// The target is locked and read.
    Read,
    /// The temporary is written and synced; the final check comes next.
    TempWritten,
    /// The final check passed; the rename comes next.
    Checked,
    /// The temporary is renamed over the target; the locks go next.
    Renamed,
}

/// A pause a test injects at each [`Step`].
#[cfg(test)]
pub(crate) type Pause = Box<dyn FnMut(Step)>;

#[cfg(test)]
thread_local! {
    /// The pause a test injects into this thread's writes.
    pub(crate) static PAUSE: std::cell::RefCell<Option<Pause>> =
        std::cell::RefCell::new(None);
}

#[cfg(test)]
fn pause(step: Step) {
    PAUSE.with(|p| {
        if let Some(f) = p.borrow_mut().as_mut() {
            f(step);
        }
    });
}

#[cfg(not(test))]
#[inline(always)]
fn pause(_: Step) {}

/// Writes `bytes` to the file at `path` (created when absent) through the write path of
/// every writer of a project (docs/design.md, section 6.2: an advisory lock on the file,
/// a uniquely named temporary in its folder, a check right before the rename, so that a
/// killed writer leaves the old file or the new one, never half of it) when it holds
/// what `expect` says; `sync` says what is synced to
/// disk. A [`ReplaceOutcome::Written`] is on disk (with [`Sync::FileAndFolder`]; with
/// [`Sync::File`] once the caller synced the folder, [`sync_folder`]). A file that holds
/// `bytes` already is [`ReplaceOutcome::Same`], and nothing is written. A symbolic link,
/// what is not a regular file, a read-only file and a file that does not hold what
/// `expect` says are left as they are, and the outcome says why
/// ([`ReplaceOutcome::Skipped`]).
///
/// # Errors
/// [`juliet_core::ErrorKind::Io`] naming `path`: the folder does not exist, the file
/// cannot be read, another writer held the lock for over 30 s, a failed write (a full
/// disk). The target is then as it was, and the temporary removed.
///
/// # Example
/// ```
/// use juliet_entities::fsio::{write_file, Expect, Fingerprint, ReplaceOutcome, SkipReason, Sync};
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("a.jasset");
/// std::fs::write(&path, "; Mass\n1\n")?;
/// let loaded = Fingerprint::of(b"; Mass\n1\n");
/// let written = write_file(&path, Expect::Holds(loaded), b"; Mass\n2\n", Sync::FileAndFolder)?;
/// assert_eq!(written, ReplaceOutcome::Written);
/// // Written over a file that no longer holds what was loaded: left as it is.
/// let stale = write_file(&path, Expect::Holds(loaded), b"; Mass\n3\n", Sync::FileAndFolder)?;
/// assert_eq!(stale, ReplaceOutcome::Skipped(SkipReason::ChangedOnDisk));
/// assert_eq!(std::fs::read(&path)?, b"; Mass\n2\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_file(
    path: &Path,
    expect: Expect,
    bytes: &[u8],
    sync: Sync,
) -> Result<ReplaceOutcome, Error> {
    write_inner(path, expect, bytes, sync).map_err(|e| Error::io(path, e))
}

fn write_inner(
    path: &Path,
    expect: Expect,
    bytes: &[u8],
    sync: Sync,
) -> io::Result<ReplaceOutcome> {
    // A temporary removed by a cleaner in the instant between its creation and its
    // lock (`remove_stale` takes it for a killed writer's) fails the rename: the write
    // starts again. Each round is one read of the file and one write.
    for _round in 0..MAX_ROUNDS {
        let file = match open_target(path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                match write_new(path, expect, bytes, sync)? {
                    Some(outcome) => return Ok(outcome),
                    None => continue,
                }
            }
            Err(e) if is_link_error(&e) => {
                return Ok(ReplaceOutcome::Skipped(SkipReason::SymbolicLink))
            }
            Err(e) => return Err(e),
        };
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Ok(ReplaceOutcome::Skipped(SkipReason::NotRegular));
        }
        lock(&file, LOCK_WAIT)?;
        // Replaced while this writer waited: that file is the target now.
        if !names(path, &meta) {
            continue;
        }
        if let Some(outcome) = write_over(path, file, &meta, expect, bytes, sync)? {
            return Ok(outcome);
        }
    }
    Err(io::Error::other(format!(
        "the file or its temporary changed at each of {MAX_ROUNDS} tries: not written"
    )))
}

/// How many times [`write_file`] starts again before it gives up.
const MAX_ROUNDS: usize = 1000;

/// The rename of `temp` (by `rename`) over the target: `None` when the temporary was
/// removed meanwhile (the write starts again).
fn rename_temp<F>(
    temp: tempfile::NamedTempFile,
    rename: impl FnOnce(tempfile::NamedTempFile) -> Result<F, tempfile::PersistError<File>>,
) -> io::Result<Option<F>> {
    let temp_path = temp.path().to_path_buf();
    match rename(temp) {
        Ok(kept) => Ok(Some(kept)),
        Err(e) if e.error.kind() == io::ErrorKind::NotFound && !temp_path.exists() => Ok(None),
        Err(e) => Err(e.error),
    }
}

/// Replaces the locked file `file` (with metadata `meta`) at `path`; `None` when its
/// temporary was removed before the rename.
fn write_over(
    path: &Path,
    file: File,
    meta: &fs::Metadata,
    expect: Expect,
    bytes: &[u8],
    sync: Sync,
) -> io::Result<Option<ReplaceOutcome>> {
    let (held, same) = scan(&file, Some(bytes))?;
    pause(Step::Read);
    if same {
        return Ok(Some(ReplaceOutcome::Same));
    }
    if matches!(expect, Expect::Absent) || matches!(expect, Expect::Holds(f) if f != held) {
        return Ok(Some(ReplaceOutcome::Skipped(SkipReason::ChangedOnDisk)));
    }
    if meta.permissions().readonly() {
        return Ok(Some(ReplaceOutcome::Skipped(SkipReason::ReadOnly)));
    }
    let temp = write_temp(path, Some(meta), bytes, sync)?;
    pause(Step::TempWritten);
    // The final check, as late as the platform allows: right before the rename.
    let unchanged = |file: &File| Ok::<_, io::Error>(scan(file, None)?.0 == held);
    if !names(path, meta) || !unchanged(&file)? {
        return Ok(Some(ReplaceOutcome::Skipped(SkipReason::ChangedOnDisk)));
    }
    pause(Step::Checked);
    let kept = match exchange(temp, path)? {
        Exchange::Done(kept, replaced) => {
            // What the exchange took out of the path is at the temporary's name now: it
            // must be the locked file, unchanged. A save by a program that does not
            // lock, made between the check and the exchange, is put back.
            if !names(replaced.as_ref(), meta) || !unchanged(&file)? {
                let ours = kept.metadata()?;
                if names(path, &ours) {
                    swap(replaced.as_ref(), path)?;
                }
                return Ok(Some(ReplaceOutcome::Skipped(SkipReason::ChangedOnDisk)));
            }
            drop(replaced); // removes the replaced file
            kept
        }
        Exchange::Unsupported(temp) => match rename_temp(temp, |t| t.persist(path))? {
            Some(kept) => kept,
            None => return Ok(None),
        },
        Exchange::TempGone => return Ok(None),
    };
    pause(Step::Renamed);
    finish(path, sync)?;
    drop((kept, file));
    Ok(Some(ReplaceOutcome::Written))
}

/// What [`exchange`] did.
enum Exchange {
    /// The temporary and the target swapped names: the new file (still open and locked)
    /// is at the target's path, and what the target held is at the temporary's name,
    /// removed when that name is dropped.
    Done(File, tempfile::TempPath),
    /// The file system (or platform) cannot swap two names: rename instead.
    Unsupported(tempfile::NamedTempFile),
    /// The temporary was removed meanwhile (the write starts again).
    TempGone,
}

/// Swaps the names of `temp` and the existing file `path` in one step (Linux's
/// `renameat2(RENAME_EXCHANGE)`), so that what the rename replaced can still be
/// checked, and put back.
///
/// # Errors
/// The system's error.
fn exchange(temp: tempfile::NamedTempFile, path: &Path) -> io::Result<Exchange> {
    match swap(temp.path(), path) {
        Ok(true) => {
            let (file, name) = temp.into_parts();
            Ok(Exchange::Done(file, name))
        }
        Ok(false) => Ok(Exchange::Unsupported(temp)),
        Err(e) if e.kind() == io::ErrorKind::NotFound && !temp.path().exists() => {
            Ok(Exchange::TempGone)
        }
        Err(e) => Err(e),
    }
}

/// Swaps the names `a` and `b` in one step; `Ok(false)` where that is not supported.
///
/// # Errors
/// The system's error.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn swap(a: &Path, b: &Path) -> io::Result<bool> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    use rustix::io::Errno;
    match renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE) {
        Ok(()) => Ok(true),
        Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Without `renameat2`: not supported.
///
/// # Errors
/// None.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn swap(_a: &Path, _b: &Path) -> io::Result<bool> {
    Ok(false)
}

/// Writes the new file `path` (nothing is there now); `None` when its temporary was
/// removed before the rename.
fn write_new(
    path: &Path,
    expect: Expect,
    bytes: &[u8],
    sync: Sync,
) -> io::Result<Option<ReplaceOutcome>> {
    if let Expect::Holds(_) = expect {
        // Removed on disk since it was read.
        return Ok(Some(ReplaceOutcome::Skipped(SkipReason::ChangedOnDisk)));
    }
    let temp = write_temp(path, None, bytes, sync)?;
    pause(Step::TempWritten);
    let kept = match rename_temp(temp, |t| t.persist_noclobber(path)) {
        Ok(Some(kept)) => kept,
        Ok(None) => return Ok(None),
        // Created meanwhile by another program: what it wrote is kept.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            return Ok(Some(ReplaceOutcome::Skipped(SkipReason::ChangedOnDisk)));
        }
        Err(e) => return Err(e),
    };
    pause(Step::Renamed);
    finish(path, sync)?;
    drop(kept);
    Ok(Some(ReplaceOutcome::Written))
}

/// Syncs the folder of `path` when `sync` says so.
fn finish(path: &Path, sync: Sync) -> io::Result<()> {
    if sync == Sync::FileAndFolder {
        sync_folder(folder_of(path))?;
    }
    Ok(())
}

/// Syncs the folder `dir` to disk (`fsync` on Unix; elsewhere a rename is durable with
/// its file): after several [`write_file`]s with [`Sync::File`] into it, or a rename in
/// it, so that the new names survive a power cut.
///
/// # Errors
/// The system's error opening or syncing `dir` (not found, permission).
pub fn sync_folder(dir: &Path) -> io::Result<()> {
    if cfg!(unix) {
        File::open(dir)?.sync_all()?;
    }
    Ok(())
}

/// The folder a file at `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The temporary file that replaces `path`, written and locked: `bytes`, with the mode
/// and owner of `old` (the replaced file's metadata) when there is one.
fn write_temp(
    path: &Path,
    old: Option<&fs::Metadata>,
    bytes: &[u8],
    sync: Sync,
) -> io::Result<tempfile::NamedTempFile> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder
        .prefix(&prefix)
        .suffix(super::replace::TEMP_SUFFIX)
        .rand_bytes(super::replace::TEMP_RANDOM_LEN);
    // As `File::create` makes a file (0666 less the umask); a replaced file's mode is
    // set below.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut temp = builder.tempfile_in(folder_of(path))?;
    // Locked while its writer lives: a cleaner leaves it alone (`remove_stale`).
    lock(temp.as_file(), LOCK_WAIT)?;
    if let Some(old) = old {
        keep_mode_and_owner(temp.as_file(), old)?;
    }
    temp.write_all(bytes)?;
    if sync != Sync::Nothing {
        temp.as_file().sync_all()?;
    }
    Ok(temp)
}

/// Opens `path` for reading as the write path does: not following a link in the last
/// component, not blocking on a FIFO.
fn open_target(path: &Path) -> io::Result<File> {
    super::open_no_follow(path)
}

/// Whether `e` is the open's refusal of a symbolic link (`ELOOP` under `O_NOFOLLOW`).
fn is_link_error(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        e.raw_os_error() == Some(libc::ELOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// Whether `path` names the file with metadata `meta` now (not a file renamed over it).
fn names(path: &Path, meta: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        fs::symlink_metadata(path)
            .is_ok_and(|now| (now.dev(), now.ino()) == (meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        fs::symlink_metadata(path).is_ok()
    }
}

/// Reads `file` whole from its start in pieces: its fingerprint, and whether it holds
/// exactly `bytes` (`false` without them). No copy of the file is kept.
fn scan(mut file: &File, bytes: Option<&[u8]>) -> io::Result<(Fingerprint, bool)> {
    file.seek(io::SeekFrom::Start(0))?;
    let mut hasher = crc32fast::Hasher::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut len = 0usize;
    let mut same = bytes.is_some();
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hasher.update(&buf[..n]);
        if let Some(b) = bytes {
            same = same && b.get(len..len + n) == Some(&buf[..n]);
        }
        len += n;
    }
    let same = same && bytes.is_some_and(|b| b.len() == len);
    Ok((Fingerprint::from_parts(len as u64, hasher.finalize()), same))
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

/// [`write_file`] without a check of what the target holds: the file is created or
/// replaced whatever it holds, but refused (not written, reported as an error) when it
/// is a symbolic link, not a regular file, or read-only. For writers that own the file
/// outright (an export, a merge result).
///
/// # Errors
/// As [`write_file`], and [`juliet_core::ErrorKind::Io`] naming `path`, with the
/// refusal's reason ([`SkipReason`]'s text).
///
/// # Example
/// ```
/// use juliet_entities::fsio::{write_or_refuse, Sync};
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("export.jasset");
/// write_or_refuse(&path, b"; Mass\n1\n", Sync::FileAndFolder)?;
/// write_or_refuse(&path, b"; Mass\n2\n", Sync::FileAndFolder)?;
/// assert_eq!(std::fs::read(&path)?, b"; Mass\n2\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_or_refuse(path: &Path, bytes: &[u8], sync: Sync) -> Result<(), Error> {
    match write_file(path, Expect::Any, bytes, sync)? {
        ReplaceOutcome::Written | ReplaceOutcome::Same => Ok(()),
        ReplaceOutcome::Skipped(reason) => Err(Error::io(
            path,
            io::Error::new(io::ErrorKind::InvalidInput, reason.to_string()),
        )),
    }
}

#[cfg(test)]
#[path = "write_tests.rs"]
mod tests;
