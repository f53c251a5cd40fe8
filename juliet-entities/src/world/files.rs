//! Listing and reading the entity files of a world (see the module documentation of
//! [`crate::world`], "What is loaded"): [`entity_files`] lists `Entities` in file-name
//! order, [`FileReader`] reads each file with the fewest system calls into one reused
//! buffer.

use std::cell::RefCell;
use std::ffi::{OsStr, OsString};
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use juliet_core::{Error, ErrorKind};

use super::records::FilePath;
use super::EXTENSION;
use crate::fsio::open_no_follow;

/// What [`entity_files`] found in an `Entities` directory.
#[derive(Debug, Default)]
pub(super) struct Listing {
    /// Regular `.jasset` files, sorted by name (mostly paths in `paths`).
    pub(super) files: Vec<FilePath>,
    /// The paths of `files` that are UTF-8, one after the other.
    pub(super) paths: String,
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
    // What every path starts with: `dir` and a separator (`dir.join(name)` is `dir`,
    // a separator unless `dir` ends with one, and `name`, which has no separator).
    let prefix = dir.join("");
    let prefix = prefix.as_os_str();
    // `dir` joined with `name`, in one allocation (`DirEntry::path` makes two), without
    // `PathBuf::push`'s parsing of both paths.
    let join = |name: &OsStr| {
        let mut path = OsString::with_capacity(prefix.len() + name.len());
        path.push(prefix);
        path.push(name);
        PathBuf::from(path)
    };
    // The files' paths go to `paths` (no allocation a file) when UTF-8.
    let utf8_prefix = prefix.to_str();
    let mut paths = String::new();
    let mut add = |name: &OsStr| match (utf8_prefix, name.to_str()) {
        (Some(prefix), Some(name))
            if paths.len() + prefix.len() + name.len() <= u32::MAX as usize =>
        {
            let start = paths.len() as u32;
            paths.push_str(prefix);
            paths.push_str(name);
            FilePath::Listed {
                start,
                len: paths.len() as u32 - start,
            }
        }
        _ => FilePath::Owned(join(name)),
    };
    // The files, and the sort key of each (see `name_key`) with its index.
    let mut files: Vec<FilePath> = Vec::new();
    let mut keys: Vec<(u128, u32)> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name();
        // The entry's own type: a symbolic link is not followed.
        let kind = entry.file_type().map_err(|e| Error::io(join(&name), e))?;
        if has_extension(name.as_encoded_bytes()) {
            if kind.is_file() {
                let index = u32::try_from(files.len()).expect("fewer than 2^32 files");
                keys.push((name_key(name.as_encoded_bytes()), index));
                files.push(add(&name));
            } else if !kind.is_dir() {
                listing.skipped.push(join(&name));
            }
        } else if kind.is_file() && is_temp_name(&name.to_string_lossy()) {
            listing.stale_temps.push(join(&name));
        }
    }
    // By file name: by the names' first bytes as a number, then, when those are equal,
    // by the raw bytes of the names (all paths are `prefix` and a name). Much cheaper
    // than comparing path components, or whole byte strings every time.
    sort_keys(&mut keys);
    let name_of = |i: u32| {
        let path = files[i as usize].resolve(&paths);
        &path.as_os_str().as_encoded_bytes()[prefix.len()..]
    };
    for run in keys.chunk_by_mut(|a, b| a.0 == b.0) {
        if run.len() > 1 {
            run.sort_unstable_by(|a, b| name_of(a.1).cmp(name_of(b.1)));
        }
    }
    let mut files: Vec<Option<FilePath>> = files.into_iter().map(Some).collect();
    listing.files = keys
        .iter()
        .map(|&(_, i)| files[i as usize].take().expect("each index once"))
        .collect();
    listing.paths = paths;
    listing.skipped.sort();
    Ok(listing)
}

/// Sorts `keys` by their first field; equal keys keep no particular order. A radix sort
/// (least significant byte first, skipping the bytes all keys share, such as the
/// leading zeros of names made of a 16-digit id) for many keys, a comparison sort for
/// a few.
fn sort_keys(keys: &mut Vec<(u128, u32)>) {
    if keys.len() < 256 {
        keys.sort_unstable();
        return;
    }
    let first = keys[0].0;
    let differ = keys.iter().fold(0u128, |acc, &(k, _)| acc | (k ^ first));
    let mut other = vec![(0u128, 0u32); keys.len()];
    for shift in (0..128).step_by(8) {
        if (differ >> shift) & 0xff == 0 {
            continue;
        }
        let digit = |k: u128| ((k >> shift) & 0xff) as usize;
        let mut starts = [0usize; 256];
        for &(k, _) in keys.iter() {
            starts[digit(k)] += 1;
        }
        let mut sum = 0;
        for start in starts.iter_mut() {
            let count = *start;
            *start = sum;
            sum += count;
        }
        for &item in keys.iter() {
            let d = digit(item.0);
            other[starts[d]] = item;
            starts[d] += 1;
        }
        std::mem::swap(keys, &mut other);
    }
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
    fn sort_keys_sorts_few_and_many_keys() {
        // A small linear congruential generator: reproducible, no dependency.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            state >> 16
        };
        for n in [0, 1, 2, 255, 256, 257, 5000] {
            // Keys as names of ids (few bytes differ), random keys, and many equal keys.
            let kinds: [&dyn Fn(u64) -> u128; 3] = [
                &|r| name_key(format!("{:016X}.jasset", r % 100_000).as_bytes()),
                &|r| (u128::from(r) << 64) | u128::from(r.rotate_left(17) ^ 0x5555),
                &|r| u128::from(r % 3) << 120,
            ];
            for make in kinds {
                let mut keys: Vec<(u128, u32)> = (0..n).map(|i| (make(next()), i as u32)).collect();
                let mut expected = keys.clone();
                expected.sort_by_key(|&(k, _)| k);
                sort_keys(&mut keys);
                let got: Vec<u128> = keys.iter().map(|&(k, _)| k).collect();
                let want: Vec<u128> = expected.iter().map(|&(k, _)| k).collect();
                assert_eq!(got, want, "{n} keys");
                // Every index is still there once.
                let mut indices: Vec<u32> = keys.iter().map(|&(_, i)| i).collect();
                indices.sort_unstable();
                assert!(indices.iter().copied().eq(0..n as u32));
            }
        }
    }

    #[test]
    fn listing_sorts_by_name_and_joins_as_path_join() {
        let root = tempfile::tempdir().unwrap();
        let mut names: Vec<String> = (0..300u32)
            .map(|i| format!("{:016X}.jasset", i.wrapping_mul(2_654_435_761) % 1000))
            .collect();
        // Names equal in their first 16 bytes, and one that is a prefix of another.
        names.extend(
            [
                "same_first_16_b_2.jasset",
                "same_first_16_b_10.jasset",
                "same_first_16_b.jasset",
            ]
            .map(String::from),
        );
        names.extend(["a.jasset", "a.jasset.jasset", "B.JASSET"].map(String::from));
        names.sort();
        names.dedup();
        for name in &names {
            fs::write(root.path().join(name), "").unwrap();
        }
        fs::write(root.path().join("notes.txt"), "").unwrap();
        let with_slash = format!("{}/", root.path().display());
        for dir in [root.path(), Path::new(&with_slash)] {
            let listing = entity_files(dir).unwrap();
            let expected: Vec<PathBuf> = names.iter().map(|n| dir.join(n)).collect();
            let files: Vec<PathBuf> = listing
                .files
                .iter()
                .map(|f| f.resolve(&listing.paths).to_path_buf())
                .collect();
            assert_eq!(files, expected, "{}", dir.display());
            assert!(listing
                .files
                .iter()
                .all(|f| matches!(f, FilePath::Listed { .. })));
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
