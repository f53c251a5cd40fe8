//! The advisory lock of the write path: an exclusive `flock` on an open file, taken
//! without blocking and retried until a deadline, so that a writer never hangs on a
//! lock another program forgot.
//!
//! `flock` locks belong to an open file (not to a process), so two threads of one
//! process that open a file each exclude each other as two processes do. Programs that
//! do not take the lock (a text editor) are not held back by it: the write path's final
//! check covers them (`docs/reliability.md`, "Concurrent writers").
//!
//! Where the file system has no locks (`flock` fails with `ENOLCK`, `EOPNOTSUPP` or
//! `ENOSYS`, as on some network and FUSE file systems), and on platforms other than
//! Linux and Android, the writer goes on without a lock: the check that the file still
//! holds what was read, made again immediately before the rename, is then the only
//! guard, and two writers in that window can still lose one write.

use std::fs::File;
use std::io;
use std::time::{Duration, Instant};

/// How long a writer waits for another writer's lock before it gives up: far longer
/// than any write of a project file takes.
pub(crate) const LOCK_WAIT: Duration = Duration::from_secs(30);

/// Takes the exclusive advisory lock on `file`, retrying until `wait` has passed. The
/// lock is released when `file` is closed. `Ok(false)`: the file system has no locks
/// (the writer goes on without one).
///
/// # Errors
/// [`io::ErrorKind::WouldBlock`] "locked by another writer" after `wait`; another
/// error of `flock`.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn lock(file: &File, wait: Duration) -> io::Result<bool> {
    use rustix::fs::{flock, FlockOperation};
    use rustix::io::Errno;
    let start = Instant::now();
    let mut pause = Duration::from_micros(50);
    loop {
        match flock(file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => return Ok(true),
            Err(Errno::NOLCK | Errno::OPNOTSUPP | Errno::NOSYS) => return Ok(false),
            Err(Errno::WOULDBLOCK | Errno::INTR) if start.elapsed() < wait => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(5));
            }
            Err(Errno::WOULDBLOCK) => {
                return Err(io::Error::new(
                    io::ErrorKind::WouldBlock,
                    format!(
                        "locked by another writer for over {} s: not written",
                        wait.as_secs()
                    ),
                ))
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// Without `flock` (see the module docs): no lock is taken.
///
/// # Errors
/// None.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn lock(_file: &File, _wait: Duration) -> io::Result<bool> {
    let _ = Instant::now;
    Ok(false)
}

/// Whether `file` is locked by another open file now (`false` where locks are not
/// available): a temporary whose writer is alive is locked, a stale one is not.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn is_locked(file: &File) -> bool {
    use rustix::fs::{flock, FlockOperation};
    flock(file, FlockOperation::NonBlockingLockExclusive) == Err(rustix::io::Errno::WOULDBLOCK)
}

/// Without `flock`: never locked.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn is_locked(_file: &File) -> bool {
    false
}

#[cfg(all(test, any(target_os = "linux", target_os = "android")))]
mod tests {
    use super::*;

    #[test]
    fn a_second_open_file_waits_for_the_first_and_gives_up_after_the_deadline() {
        let (_dir, path) = crate::fsio::temp_file("x");
        let first = File::open(&path).unwrap();
        assert!(lock(&first, LOCK_WAIT).unwrap());
        let second = File::open(&path).unwrap();
        assert!(is_locked(&second));
        let err = lock(&second, Duration::from_millis(20)).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
        assert!(
            err.to_string().contains("locked by another writer"),
            "{err}"
        );
        drop(first);
        assert!(lock(&second, Duration::from_millis(20)).unwrap());
    }
}
