//! Reading the entity files of a world: [`FileReader`] reads each file with the fewest
//! system calls into one reused buffer.

use std::cell::RefCell;
use std::io;
use std::path::Path;

use juliet_core::{Error, ErrorKind};

use self::sys::{open, read, size};

thread_local! {
    /// One read buffer per thread, for the parallel reads of [`World::load`].
    pub(super) static READER: RefCell<FileReader> = RefCell::new(FileReader::default());
}

/// The first read of a file asks for this many bytes (or the size limit plus one, when
/// smaller): entity files are a few hundred bytes.
const FIRST_READ: usize = 64 << 10;

/// Reads whole files into one reused buffer: what `std::fs::read` does, with fewer
/// system calls and no allocation per file.
///
/// `std::fs::read` asks the file's size (`fstat`), reads, then reads again to see the
/// end of the file. Here a file is opened (without following a symbolic link swapped
/// in since the listing, and without blocking on a FIFO: `crate::fsio::open_no_follow`) and read
/// asking for more than an entity file holds ([`FIRST_READ`] bytes), then read until a
/// read returns nothing, as `std::fs::read` does: a short read is not taken for the
/// end of the file (a network or FUSE file system may return one mid-file, and a
/// truncated file loaded and saved again would lose data). A small file costs `open`,
/// two `read`s and `close`, no `fstat`. Only when the first read fills its request is
/// the size asked, and a file over the limit is refused from its metadata, before more
/// is read; the reading itself stops one byte past the limit should the file grow
/// meanwhile.
#[derive(Debug, Default)]
pub(super) struct FileReader {
    /// Always initialized to its full length (zeroed once when it grows).
    buf: Vec<u8>,
}

impl FileReader {
    /// The bytes of the file at `path`, refused with [`ErrorKind::FileTooLarge`] when
    /// over `limit` bytes; valid until the next read.
    pub(super) fn read(&mut self, path: &Path, limit: u64) -> Result<&[u8], Error> {
        let io_err = |e| Error::io(path, e);
        let mut file = open(path).map_err(io_err)?;
        // The most bytes ever read: one past the limit shows a file over it.
        let cap = usize::try_from(limit)
            .unwrap_or(usize::MAX)
            .saturating_add(1);
        let first = cap.min(FIRST_READ.max(self.buf.len()));
        self.grow_to(first);
        let mut filled = 0;
        while filled < first {
            let n = read_some(&mut file, &mut self.buf[filled..first]).map_err(io_err)?;
            if n == 0 {
                return Ok(&self.buf[..filled]);
            }
            filled += n;
        }
        let size = size(&file).map_err(io_err)?;
        if size > limit {
            return Err(Error::file(path, ErrorKind::FileTooLarge { size, limit }));
        }
        loop {
            if filled == self.buf.len() {
                if filled == cap {
                    break;
                }
                let want = usize::try_from(size)
                    .unwrap_or(usize::MAX)
                    .saturating_add(1)
                    .max(filled.saturating_mul(2))
                    .min(cap);
                self.grow_to(want);
            }
            let n = read_some(&mut file, &mut self.buf[filled..]).map_err(io_err)?;
            if n == 0 {
                break;
            }
            filled += n;
        }
        if filled as u64 > limit {
            let size = filled as u64;
            return Err(Error::file(path, ErrorKind::FileTooLarge { size, limit }));
        }
        Ok(&self.buf[..filled])
    }

    /// Gives back a buffer grown past 1 MiB for a large file (kept, a thread's reader
    /// would hold a copy of the largest file for the rest of the process).
    pub(super) fn release_large(&mut self) {
        if self.buf.len() > 1 << 20 {
            self.buf = Vec::new();
        }
    }

    /// Makes the buffer at least `len` bytes long.
    fn grow_to(&mut self, len: usize) {
        if self.buf.len() < len {
            self.buf.resize(len, 0);
        }
    }
}

/// One `read`, retried when a signal interrupts it before any byte.
fn read_some(file: &mut sys::Handle, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match read(file, buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            result => return result,
        }
    }
}

/// The system calls of [`FileReader`]: on Linux made directly (`rustix`: no C library
/// wrapper, no copy of the path beyond the one making it a C string), elsewhere
/// through `std::fs::File`. The same calls either way: `open` (no following of a
/// symbolic link, no blocking on a FIFO: [`crate::fsio`]), `read`s, `fstat` only for a
/// file filling the first read, `close`.
#[cfg(any(target_os = "linux", target_os = "android"))]
mod sys {
    use std::io;
    use std::path::Path;

    /// An open file, closed when dropped.
    pub(super) type Handle = rustix::fd::OwnedFd;

    pub(super) fn open(path: &Path) -> io::Result<Handle> {
        crate::fsio::open_no_follow_fd(path)
    }

    pub(super) fn read(file: &mut Handle, buf: &mut [u8]) -> io::Result<usize> {
        Ok(rustix::io::read(&*file, buf)?)
    }

    pub(super) fn size(file: &Handle) -> io::Result<u64> {
        Ok(u64::try_from(rustix::fs::fstat(file)?.st_size).unwrap_or(0))
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
mod sys {
    use std::fs::File;
    use std::io::{self, Read};
    use std::path::Path;

    /// An open file, closed when dropped.
    pub(super) type Handle = File;

    pub(super) fn open(path: &Path) -> io::Result<Handle> {
        crate::fsio::open_no_follow(path)
    }

    pub(super) fn read(file: &mut Handle, buf: &mut [u8]) -> io::Result<usize> {
        file.read(buf)
    }

    pub(super) fn size(file: &Handle) -> io::Result<u64> {
        Ok(file.metadata()?.len())
    }
}
