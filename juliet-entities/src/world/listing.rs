//! Listing the entity files of a world (see the module documentation of
//! [`crate::world`], "What is loaded"): [`entity_files`] lists `Entities` in file-name
//! order.
//!
//! On Linux the directory is read with `getdents64` into one buffer (`rustix`'s
//! `RawDir`), so an entry costs no allocation; `std::fs::read_dir` allocates each
//! entry's name, and `DirEntry::file_name` copies it again. Elsewhere `read_dir` is used.

use std::ffi::{OsStr, OsString};
use std::fs;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
use std::io;
use std::path::{Path, PathBuf};

use juliet_core::Error;

use super::records::FilePath;
use super::EXTENSION;
use crate::fsio::is_temp_name;

/// What [`entity_files`] found in an `Entities` directory.
#[derive(Debug, Default)]
pub(super) struct Listing {
    /// Regular `.jasset` files, sorted by name (mostly paths in `paths`).
    pub(super) files: Vec<FilePath>,
    /// The paths of `files` that are UTF-8, one after the other.
    pub(super) paths: String,
    /// `.jasset` entries that are not regular files (symbolic links, FIFOs, ...).
    pub(super) skipped: Vec<PathBuf>,
    /// Temporary files of an interrupted save (`.<name>.jasset.<random>.tmp`).
    pub(super) stale_temps: Vec<PathBuf>,
    /// Folders, which a world does not look into (those whose type the listing gives).
    pub(super) folders: Vec<PathBuf>,
}

/// The type of a directory entry, not following a symbolic link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EntryType {
    File,
    Dir,
    /// A symbolic link, FIFO, socket or device.
    Other,
}

impl From<fs::FileType> for EntryType {
    fn from(t: fs::FileType) -> EntryType {
        if t.is_file() {
            EntryType::File
        } else if t.is_dir() {
            EntryType::Dir
        } else {
            EntryType::Other
        }
    }
}

/// Builds a [`Listing`] entry by entry.
struct Lister {
    /// What every path starts with: `dir` and a separator (`dir.join(name)` is `dir`,
    /// a separator unless `dir` ends with one, and `name`, which has no separator).
    prefix: PathBuf,
    listing: Listing,
    /// The sort key of each file (see `name_key`) with its index in `listing.files`.
    keys: Vec<(u128, u32)>,
}

impl Lister {
    fn new(dir: &Path) -> Lister {
        Lister {
            prefix: dir.join(""),
            listing: Listing::default(),
            keys: Vec::new(),
        }
    }

    /// `dir` joined with `name`, in one allocation (`DirEntry::path` makes two),
    /// without `PathBuf::push`'s parsing of both paths.
    fn join(&self, name: &OsStr) -> PathBuf {
        let prefix = self.prefix.as_os_str();
        let mut path = OsString::with_capacity(prefix.len() + name.len());
        path.push(prefix);
        path.push(name);
        PathBuf::from(path)
    }

    /// Takes entry `name` of type `kind` (`None`: not known from the listing, asked
    /// without following a symbolic link).
    fn add(&mut self, name: &OsStr, kind: Option<EntryType>) -> Result<(), Error> {
        let extension = has_extension(name.as_encoded_bytes());
        if !extension && !name.as_encoded_bytes().ends_with(b".tmp") {
            // Not ours; a folder is listed for the tools to report (what they skip).
            if kind == Some(EntryType::Dir) {
                let path = self.join(name);
                self.listing.folders.push(path);
            }
            return Ok(());
        }
        let kind = match kind {
            Some(kind) => kind,
            None => {
                let path = self.join(name);
                let meta = fs::symlink_metadata(&path).map_err(|e| Error::io(path, e))?;
                EntryType::from(meta.file_type())
            }
        };
        if extension {
            match kind {
                EntryType::File => {
                    let index = u32::try_from(self.listing.files.len()).expect("under 2^32 files");
                    self.keys.push((name_key(name.as_encoded_bytes()), index));
                    let path = self.path(name);
                    self.listing.files.push(path);
                }
                EntryType::Dir => {
                    let path = self.join(name);
                    self.listing.folders.push(path);
                }
                EntryType::Other => {
                    let path = self.join(name);
                    self.listing.skipped.push(path);
                }
            }
        } else if kind == EntryType::File && is_temp_name(&name.to_string_lossy()) {
            let path = self.join(name);
            self.listing.stale_temps.push(path);
        } else if kind == EntryType::Dir {
            let path = self.join(name);
            self.listing.folders.push(path);
        }
        Ok(())
    }

    /// The path of file `name`: in `listing.paths` (no allocation a file) when UTF-8.
    fn path(&mut self, name: &OsStr) -> FilePath {
        let paths = &mut self.listing.paths;
        match (self.prefix.to_str(), name.to_str()) {
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
            _ => FilePath::Owned(self.join(name)),
        }
    }

    /// The listing, files sorted by name: by the names' first bytes as a number, then,
    /// when those are equal, by the raw bytes of the names (all paths are `prefix` and
    /// a name). Much cheaper than comparing path components, or whole byte strings
    /// every time.
    fn finish(self) -> Listing {
        let Lister {
            prefix,
            mut listing,
            mut keys,
        } = self;
        sort_keys(&mut keys);
        let prefix_len = prefix.as_os_str().len();
        let name_of = |i: u32| {
            let path = listing.files[i as usize].resolve(&listing.paths);
            &path.as_os_str().as_encoded_bytes()[prefix_len..]
        };
        for run in keys.chunk_by_mut(|a, b| a.0 == b.0) {
            if run.len() > 1 {
                run.sort_unstable_by(|a, b| name_of(a.1).cmp(name_of(b.1)));
            }
        }
        let mut files: Vec<Option<FilePath>> = listing.files.drain(..).map(Some).collect();
        listing.files = keys
            .iter()
            .map(|&(_, i)| files[i as usize].take().expect("each index once"))
            .collect();
        listing.skipped.sort();
        listing.folders.sort();
        listing
    }
}

/// The text of the warning ([`juliet_core::WarningKind::Other`]) that [`crate::World::load`]
/// gives each entry of `Entities` that is not a regular file (a symbolic link, FIFO,
/// socket or device): it is skipped, and never written or deleted. Programs that list
/// project files say the same of what they skip.
pub const NOT_REGULAR: &str =
    "not a regular file (a symbolic link, FIFO, socket or device): skipped, \
     and never written or deleted";

/// What a world's entity folder holds, as [`crate::World::load`] sees it ([`world_files`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WorldFiles {
    /// The `.jasset` files the world loads, in load order (by name; hidden ones
    /// included).
    pub files: Vec<PathBuf>,
    /// The `.jasset` entries that are not regular files, which the world skips and
    /// never writes or deletes ([`NOT_REGULAR`]).
    pub skipped: Vec<PathBuf>,
    /// The temporary files of an interrupted save, which the next save removes
    /// ([`crate::fsio::remove_stale`]).
    pub stale_temps: Vec<PathBuf>,
    /// The folders in it, which the world does not look into.
    pub folders: Vec<PathBuf>,
}

/// What belongs to the world whose entity folder (`<world>/Entities`) is `dir`, as
/// [`crate::World::load`] sees it: the files it loads, the entries it skips and the
/// temporaries of an interrupted save. A program that works on a world's files lists
/// them through this, so that it sees what the game loads.
///
/// # Errors
/// [`juliet_core::ErrorKind::Io`] when `dir` cannot be read (a missing `dir` is an
/// empty world).
///
/// # Example
/// ```
/// use juliet_entities::world::world_files;
///
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("b.jasset"), "")?;
/// std::fs::write(dir.path().join("a.jasset"), "")?;
/// std::fs::write(dir.path().join("notes.txt"), "")?;
/// let listed = world_files(dir.path())?;
/// assert_eq!(listed.files, [dir.path().join("a.jasset"), dir.path().join("b.jasset")]);
/// assert!(world_files(&dir.path().join("none"))?.files.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn world_files(dir: &Path) -> Result<WorldFiles, Error> {
    let listing = entity_files(dir)?;
    let files = (listing.files.iter())
        .map(|f| f.resolve(&listing.paths).to_path_buf())
        .collect();
    Ok(WorldFiles {
        files,
        skipped: listing.skipped,
        stale_temps: listing.stale_temps,
        folders: listing.folders,
    })
}

/// The entries of `dir` (see the module documentation); none when `dir` does not
/// exist.
pub(super) fn entity_files(dir: &Path) -> Result<Listing, Error> {
    let mut lister = Lister::new(dir);
    match list(dir, &mut lister) {
        Ok(()) => Ok(lister.finish()),
        Err(Listed::NotFound) => Ok(Listing::default()),
        Err(Listed::Error(e)) => Err(e),
    }
}

/// Why [`list`] stopped.
enum Listed {
    /// `dir` does not exist.
    NotFound,
    Error(Error),
}

impl From<Error> for Listed {
    fn from(e: Error) -> Listed {
        Listed::Error(e)
    }
}

/// Gives every entry of `dir` but `.` and `..` to `lister`, with `getdents64`.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn list(dir: &Path, lister: &mut Lister) -> Result<(), Listed> {
    use rustix::fs::{FileType, Mode, OFlags, RawDir};
    use std::os::unix::ffi::OsStrExt;

    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let fd = match rustix::fs::open(dir, flags, Mode::empty()) {
        Ok(fd) => fd,
        Err(rustix::io::Errno::NOENT) => return Err(Listed::NotFound),
        Err(e) => return Err(Error::io(dir, e.into()).into()),
    };
    // Room for a few hundred entries a call; an entry takes at most 280 bytes.
    let mut buf = Vec::with_capacity(32 << 10);
    let mut entries = RawDir::new(fd, buf.spare_capacity_mut());
    while let Some(entry) = entries.next() {
        let entry = entry.map_err(|e| Error::io(dir, e.into()))?;
        let name = OsStr::from_bytes(entry.file_name().to_bytes());
        if name == "." || name == ".." {
            continue;
        }
        let kind = match entry.file_type() {
            FileType::RegularFile => Some(EntryType::File),
            FileType::Directory => Some(EntryType::Dir),
            FileType::Unknown => None,
            _ => Some(EntryType::Other),
        };
        lister.add(name, kind)?;
    }
    Ok(())
}

/// Gives every entry of `dir` to `lister`, with `std::fs::read_dir`.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn list(dir: &Path, lister: &mut Lister) -> Result<(), Listed> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(Listed::NotFound),
        Err(e) => return Err(Error::io(dir, e).into()),
    };
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name();
        // The entry's own type: a symbolic link is not followed.
        let kind = entry
            .file_type()
            .map_err(|e| Error::io(lister.join(&name), e))?;
        lister.add(&name, Some(EntryType::from(kind)))?;
    }
    Ok(())
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

    /// Entries whose type the listing does not give (`DT_UNKNOWN`) are asked without
    /// following links, and sorted like the others.
    #[cfg(unix)]
    #[test]
    fn entries_of_unknown_type_are_asked() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path();
        for file in ["b.jasset", "a.jasset", ".c.jasset.tmp", "d.tmp"] {
            fs::write(dir.join(file), "").unwrap();
        }
        fs::create_dir(dir.join("sub.jasset")).unwrap();
        std::os::unix::fs::symlink(dir.join("a.jasset"), dir.join("link.jasset")).unwrap();
        let mut lister = Lister::new(dir);
        for name in [
            "b.jasset",
            "sub.jasset",
            "link.jasset",
            "a.jasset",
            ".c.jasset.tmp",
            "d.tmp",
            "gone.txt",
        ] {
            lister.add(OsStr::new(name), None).unwrap();
        }
        // Folders named otherwise, their type given by the listing.
        lister
            .add(OsStr::new("Props"), Some(EntryType::Dir))
            .unwrap();
        lister
            .add(OsStr::new("old.tmp"), Some(EntryType::Dir))
            .unwrap();
        // A vanished entry of ours is an error naming it.
        let err = lister.add(OsStr::new("gone.jasset"), None).unwrap_err();
        assert_eq!(err.location.path, dir.join("gone.jasset"));
        let listing = lister.finish();
        let files: Vec<PathBuf> = listing
            .files
            .iter()
            .map(|f| f.resolve(&listing.paths).to_path_buf())
            .collect();
        assert_eq!(files, [dir.join("a.jasset"), dir.join("b.jasset")]);
        assert_eq!(listing.skipped, [dir.join("link.jasset")]);
        assert_eq!(listing.stale_temps, [dir.join(".c.jasset.tmp")]);
        assert_eq!(
            listing.folders,
            [
                dir.join("Props"),
                dir.join("old.tmp"),
                dir.join("sub.jasset")
            ]
        );
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
