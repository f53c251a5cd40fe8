//! Listing and reading the entity files of a world (see the module documentation of
//! [`crate::world`], "What is loaded"): [`entity_files`] lists `Entities` in file-name
//! order, [`FileReader`] reads each file with the fewest system calls into one reused
//! buffer.

use std::cell::RefCell;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use juliet_core::{Error, ErrorKind};

use super::EXTENSION;
use crate::fsio::open_no_follow;

/// What [`entity_files`] found in an `Entities` directory.
#[derive(Debug, Default)]
pub(super) struct Listing {
    /// Regular `.jasset` files, sorted by name.
    pub(super) files: Vec<PathBuf>,
    /// `.jasset` entries that are not regular files (symbolic links, FIFOs, ...).
    pub(super) skipped: Vec<PathBuf>,
    /// Temporary files of an interrupted save (`.<name>.jasset.tmp`).
    pub(super) stale_temps: Vec<PathBuf>,
}

/// The entries of `dir` (see the module documentation); none when `dir` does not
/// exist.
pub(super) fn entity_files(dir: &Path) -> Result<Listing, Error> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Listing::default()),
        Err(e) => return Err(Error::io(dir, e)),
    };
    let mut listing = Listing::default();
    let dir_len = dir.as_os_str().len();
    // The files, each with its sort key (see `name_key`).
    let mut files: Vec<(u128, PathBuf)> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name();
        // `dir` joined with `name`, in one allocation (`DirEntry::path` makes two).
        let path = || {
            let mut path = PathBuf::with_capacity(dir_len + 1 + name.len());
            path.push(dir);
            path.push(&name);
            path
        };
        // The entry's own type: a symbolic link is not followed.
        let kind = entry.file_type().map_err(|e| Error::io(path(), e))?;
        if has_extension(name.as_encoded_bytes()) {
            if kind.is_file() {
                files.push((name_key(name.as_encoded_bytes()), path()));
            } else if !kind.is_dir() {
                listing.skipped.push(path());
            }
        } else if kind.is_file() && is_temp_name(&name.to_string_lossy()) {
            listing.stale_temps.push(path());
        }
    }
    // By file name: by the names' first bytes as a number, then, when those are equal,
    // by the raw bytes of the names (all paths are `dir` joined with a name). Much
    // cheaper than comparing path components, or whole byte strings every time.
    fn name_of(path: &Path, dir_len: usize) -> &[u8] {
        &path.as_os_str().as_encoded_bytes()[dir_len..]
    }
    files.sort_unstable_by(|(ka, a), (kb, b)| {
        ka.cmp(kb)
            .then_with(|| name_of(a, dir_len).cmp(name_of(b, dir_len)))
    });
    listing.files = files.into_iter().map(|(_, path)| path).collect();
    listing.skipped.sort();
    Ok(listing)
}

/// The first 16 bytes of `name`, zero-padded, as a big-endian number: names whose keys
/// differ are in the order of their keys (a name that is a prefix of another sorts
/// first, as its padding is zero), so only names with equal keys need comparing.
fn name_key(name: &[u8]) -> u128 {
    let mut key = [0u8; 16];
    let n = name.len().min(16);
    key[..n].copy_from_slice(&name[..n]);
    u128::from_be_bytes(key)
}

/// Whether file name `name` has the extension [`EXTENSION`] (any case), as
/// `Path::extension` sees it: `.jasset` is a name without an extension.
fn has_extension(name: &[u8]) -> bool {
    let suffix = EXTENSION.len() + 1;
    name.len() > suffix
        && name[name.len() - suffix] == b'.'
        && name[name.len() - EXTENSION.len()..].eq_ignore_ascii_case(EXTENSION.as_bytes())
}

/// Whether `name` is a temporary file name of [`super::write_atomic`]: `.<name>.jasset.tmp`
/// (extension in any case).
fn is_temp_name(name: &str) -> bool {
    let Some(inner) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) else {
        return false;
    };
    Path::new(inner)
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case(EXTENSION))
}

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
/// in since the listing, and without blocking on a FIFO: [`open_no_follow`]) and read
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
        let mut file = open_no_follow(path).map_err(io_err)?;
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
        let size = file.metadata().map_err(io_err)?.len();
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

    /// Makes the buffer at least `len` bytes long.
    fn grow_to(&mut self, len: usize) {
        if self.buf.len() < len {
            self.buf.resize(len, 0);
        }
    }
}

/// One `read`, retried when a signal interrupts it before any byte.
fn read_some(file: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match file.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            result => return result,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_keys_order_names_as_their_bytes() {
        let names: [&[u8]; 12] = [
            b"",
            b"a",
            b"a\0",
            b"ab",
            b"0000000000000001.jasset",
            b"0000000000000001.jasseu",
            b"0000000000000002.jasset",
            b"000000000000000.jasset",
            b"0123456789abcdef",
            b"0123456789abcdef0",
            b"\xff\xff",
            b"Z.jasset",
        ];
        for a in names {
            for b in names {
                let (ka, kb) = (name_key(a), name_key(b));
                if ka != kb {
                    assert_eq!(ka.cmp(&kb), a.cmp(b), "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn has_extension_agrees_with_path_extension() {
        for name in [
            "a.jasset",
            "A.JASSET",
            "0000000000000001.jAsSeT",
            "..jasset",
            ".jasset",
            "jasset",
            "a.jasset.tmp",
            ".a.jasset.tmp",
            "a.jassets",
            "a.xjasset",
            "ajasset",
            "a.",
            "",
            "é.jasset",
        ] {
            let expected = Path::new(name)
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case(EXTENSION));
            assert_eq!(has_extension(name.as_bytes()), expected, "{name:?}");
        }
    }
}
