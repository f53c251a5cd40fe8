//! [`Records`]: the file record of each entity of a [`super::World`], by id.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::path::{Path, PathBuf};

use crate::entity::EntityId;
use crate::manager::IdHasher;

use super::FileRecord;

/// Where the path of a file record is kept.
///
/// The paths of the files a load lists are kept in one string per world (the world's
/// `listed_paths`), not in a `PathBuf` each: one allocation instead of one a file when
/// loading, and none to free a file when the world is dropped.
#[derive(Debug, Clone)]
pub(crate) enum FilePath {
    /// `listed_paths[start..start + len]`.
    Listed {
        /// Byte offset in the listed paths.
        start: u32,
        /// Length in bytes.
        len: u32,
    },
    /// A path of its own (a name that is not UTF-8, or a file a save made).
    Owned(PathBuf),
}

impl FilePath {
    /// The path, with `listed` the world's listed paths.
    pub(crate) fn resolve<'a>(&'a self, listed: &'a str) -> &'a Path {
        match self {
            FilePath::Listed { start, len } => {
                Path::new(&listed[*start as usize..][..*len as usize])
            }
            FilePath::Owned(path) => path,
        }
    }
}

/// File records by entity id: a map with cheap inserts in increasing id order.
///
/// A world's files are usually named by id (`Entities/<id as 16 hex digits>.jasset`, as
/// saves name new files), so loading them in file-name order inserts ids in increasing
/// order. Those records are appended to a vector sorted by id (no hashing, and memory
/// written in order instead of one cache line anywhere in a table for each file) and
/// found by binary search; a record whose id is not above every id in the vector goes
/// to a hash map. A removed record of the vector leaves an empty slot, which a later
/// insert of the same id fills again.
#[derive(Debug, Default)]
pub(crate) struct Records {
    /// Increasing ids; `None` for a removed record.
    sorted: Vec<(EntityId, Option<FileRecord>)>,
    /// Records whose id was not above the last id of `sorted` when inserted (it never
    /// decreases, so no id is in both).
    other: HashMap<EntityId, FileRecord, BuildHasherDefault<IdHasher>>,
}

impl Records {
    /// Makes room for `additional` more records inserted in increasing id order.
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.sorted.reserve(additional);
    }

    /// The index of `id` in `sorted`, if it has a slot there.
    fn slot(&self, id: EntityId) -> Option<usize> {
        match self.sorted.last() {
            Some(&(last, _)) if id <= last => {
                self.sorted.binary_search_by_key(&id, |&(id, _)| id).ok()
            }
            _ => None,
        }
    }

    /// Inserts or replaces the record of `id`; returns the one it replaced.
    pub(crate) fn insert(&mut self, id: EntityId, record: FileRecord) -> Option<FileRecord> {
        if self.sorted.last().is_none_or(|&(last, _)| id > last) {
            self.sorted.push((id, Some(record)));
            return None;
        }
        match self.slot(id) {
            Some(i) => self.sorted[i].1.replace(record),
            None => self.other.insert(id, record),
        }
    }

    /// The record of `id`.
    pub(crate) fn get(&self, id: &EntityId) -> Option<&FileRecord> {
        match self.slot(*id) {
            Some(i) => self.sorted[i].1.as_ref(),
            None => self.other.get(id),
        }
    }

    /// The record of `id`, mutably.
    pub(crate) fn get_mut(&mut self, id: &EntityId) -> Option<&mut FileRecord> {
        match self.slot(*id) {
            Some(i) => self.sorted[i].1.as_mut(),
            None => self.other.get_mut(id),
        }
    }

    /// Removes and returns the record of `id`.
    pub(crate) fn remove(&mut self, id: &EntityId) -> Option<FileRecord> {
        match self.slot(*id) {
            Some(i) => self.sorted[i].1.take(),
            None => self.other.remove(id),
        }
    }

    /// The id of every record, in no particular order.
    pub(crate) fn ids(&self) -> impl Iterator<Item = EntityId> + '_ {
        self.sorted
            .iter()
            .filter(|(_, r)| r.is_some())
            .map(|&(id, _)| id)
            .chain(self.other.keys().copied())
    }

    /// Every record, in no particular order.
    pub(crate) fn values(&self) -> impl Iterator<Item = &FileRecord> {
        self.sorted
            .iter()
            .filter_map(|(_, r)| r.as_ref())
            .chain(self.other.values())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::load::EntityFileData;

    fn record(n: u64) -> FileRecord {
        FileRecord {
            path: FilePath::Owned(PathBuf::from(format!("{n}.jasset"))),
            data: EntityFileData::default(),
            original: None,
            text: None,
            fingerprint: None,
            newer: false,
        }
    }

    fn owned(path: FilePath) -> PathBuf {
        path.resolve("").to_path_buf()
    }

    #[test]
    fn listed_paths_resolve_in_the_string() {
        let listed = "dir/a.jasset".to_owned() + "dir/bb.jasset";
        let a = FilePath::Listed { start: 0, len: 12 };
        let b = FilePath::Listed { start: 12, len: 13 };
        assert_eq!(a.resolve(&listed), Path::new("dir/a.jasset"));
        assert_eq!(b.resolve(&listed), Path::new("dir/bb.jasset"));
        let c = FilePath::Owned(PathBuf::from("x.jasset"));
        assert_eq!(c.resolve(&listed), Path::new("x.jasset"));
    }

    /// Random inserts (in order, out of order, again), gets and removes agree with a
    /// `BTreeMap` doing the same.
    #[test]
    fn records_behave_as_a_map() {
        let mut records = Records::default();
        let mut model: BTreeMap<u64, PathBuf> = BTreeMap::new();
        // A small linear congruential generator: reproducible, no dependency.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        let mut rising = 0;
        for step in 0..20_000u64 {
            let id = match next(4) {
                // Mostly increasing ids, as when loading a world named by id.
                0 | 1 => {
                    rising += 1 + next(3);
                    rising
                }
                _ => 1 + next(rising + 10),
            };
            let key = EntityId(id);
            match next(6) {
                0..=2 => {
                    let old = records.insert(key, record(step));
                    let model_old = model.insert(id, owned(record(step).path));
                    assert_eq!(old.map(|r| owned(r.path)), model_old, "insert {id}");
                }
                3 => {
                    let old = records.remove(&key).map(|r| owned(r.path));
                    assert_eq!(old, model.remove(&id), "remove {id}");
                }
                4 => {
                    if let Some(r) = records.get_mut(&key) {
                        r.path = FilePath::Owned(r.path.resolve("").join("x"));
                        model.get_mut(&id).unwrap().push("x");
                    }
                    assert_eq!(records.get_mut(&key).is_some(), model.contains_key(&id));
                }
                _ => {
                    let got = records.get(&key).map(|r| r.path.resolve("").to_path_buf());
                    assert_eq!(got, model.get(&id).cloned(), "get {id}");
                }
            }
        }
        assert!(!records.other.is_empty(), "out-of-order ids were tried");
        let mut all: Vec<PathBuf> = records.values().map(|r| owned(r.path.clone())).collect();
        let mut expected: Vec<PathBuf> = model.into_values().collect();
        all.sort();
        expected.sort();
        assert_eq!(all, expected);
    }
}
