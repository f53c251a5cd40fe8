//! [`OverrideSet`]: which properties of an instance are its own, as a bitset over its
//! class's property table (docs/design.md, section 7.4).
//!
//! Kept per instance in the base record, outside the field types (no wrapper types in
//! game structs). Up to 64 properties fit inline, with no heap memory; a class with
//! more spills to a heap block on the first bit past 63.

use std::fmt;

/// A set of property indices (positions in a class's property table).
///
/// ```
/// use juliet_entities::template::OverrideSet;
///
/// let mut set = OverrideSet::new();
/// set.insert(3);
/// set.insert(0);
/// assert!(set.contains(3) && !set.contains(1));
/// assert_eq!(set.iter().collect::<Vec<_>>(), vec![0, 3]);
/// assert!(set.remove(3));
/// assert_eq!(set.len(), 1);
/// ```
#[derive(Default)]
pub struct OverrideSet {
    repr: Repr,
}

#[derive(Clone)]
enum Repr {
    /// Bits 0..64.
    Inline(u64),
    /// Word `w` holds bits `64 w .. 64 w + 64`; at least two words.
    Spilled(Box<Words>),
}

impl Default for Repr {
    fn default() -> Repr {
        Repr::Inline(0)
    }
}

/// The words of a spilled set (a newtype, so that the enum stays two words wide).
#[derive(Clone)]
struct Words(Vec<u64>);

// Two words: the base record stays within one cache line.
static_assertions::const_assert!(std::mem::size_of::<OverrideSet>() <= 16);

impl Clone for OverrideSet {
    /// A copy of the word for up to 64 properties (inlined); a new heap block beyond.
    #[inline]
    fn clone(&self) -> OverrideSet {
        match &self.repr {
            Repr::Inline(w) => OverrideSet {
                repr: Repr::Inline(*w),
            },
            Repr::Spilled(_) => self.clone_spilled(),
        }
    }
}

impl OverrideSet {
    /// [`Clone::clone`] of a spilled set, out of line.
    #[inline(never)]
    fn clone_spilled(&self) -> OverrideSet {
        OverrideSet {
            repr: self.repr.clone(),
        }
    }

    /// The empty set (no heap memory).
    pub const fn new() -> OverrideSet {
        OverrideSet {
            repr: Repr::Inline(0),
        }
    }

    /// The set's one word (index `i` is bit `i`) when it is held inline, as every set
    /// of a class with up to 64 properties is; `None` for a spilled set.
    #[inline]
    pub(crate) fn inline_word(&self) -> Option<u64> {
        match self.repr {
            Repr::Inline(w) => Some(w),
            Repr::Spilled(_) => None,
        }
    }

    /// The inline set of `word` (index `i` is bit `i`): equal to the set
    /// [`OverrideSet::inline_word`] took it from, and a copy with no heap memory.
    #[inline]
    pub(crate) const fn from_word(word: u64) -> OverrideSet {
        OverrideSet {
            repr: Repr::Inline(word),
        }
    }

    /// The set as words: index `i` is bit `i % 64` of word `i / 64` (the form
    /// [`juliet_core::Reflect::copy_properties`] takes).
    #[inline]
    pub(crate) fn words(&self) -> &[u64] {
        match &self.repr {
            Repr::Inline(w) => std::slice::from_ref(w),
            Repr::Spilled(words) => &words.0,
        }
    }

    /// Whether property `index` is in the set.
    pub fn contains(&self, index: usize) -> bool {
        self.words()
            .get(index / 64)
            .is_some_and(|w| w & (1 << (index % 64)) != 0)
    }

    /// Adds property `index`; returns whether it was absent. Allocates only for an index
    /// of 64 or more, the first time the set grows past a word.
    #[inline]
    pub fn insert(&mut self, index: usize) -> bool {
        let (word, bit) = (index / 64, 1u64 << (index % 64));
        let words: &mut [u64] = match &mut self.repr {
            Repr::Inline(w) if word == 0 => std::slice::from_mut(w),
            Repr::Inline(w) => {
                let mut spilled = vec![0; word + 1];
                spilled[0] = *w;
                self.repr = Repr::Spilled(Box::new(Words(spilled)));
                let Repr::Spilled(words) = &mut self.repr else {
                    unreachable!()
                };
                &mut words.0
            }
            Repr::Spilled(words) => {
                if words.0.len() <= word {
                    words.0.resize(word + 1, 0);
                }
                &mut words.0
            }
        };
        let absent = words[word] & bit == 0;
        words[word] |= bit;
        absent
    }

    /// Removes property `index`; returns whether it was present.
    pub fn remove(&mut self, index: usize) -> bool {
        let (word, bit) = (index / 64, 1u64 << (index % 64));
        let w = match &mut self.repr {
            Repr::Inline(w) if word == 0 => w,
            Repr::Inline(_) => return false,
            Repr::Spilled(words) => match words.0.get_mut(word) {
                Some(w) => w,
                None => return false,
            },
        };
        let present = *w & bit != 0;
        *w &= !bit;
        present
    }

    /// Empties the set (keeps a spilled block for reuse).
    pub fn clear(&mut self) {
        match &mut self.repr {
            Repr::Inline(w) => *w = 0,
            Repr::Spilled(words) => words.0.fill(0),
        }
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words().iter().all(|&w| w == 0)
    }

    /// Number of properties in the set.
    pub fn len(&self) -> usize {
        self.words().iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The property indices in the set, ascending (declaration order).
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words().iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(i * 64 + bit)
            })
        })
    }

    /// Adds, for each leaf in the set that is a field of an enum's variant
    /// (`Trigger.Radius`, whose parent `Trigger` is a property of `table`), that variant:
    /// an override of a field carries the variant it belongs to, so that the instance
    /// keeps both when its template switches to another variant.
    pub(crate) fn pin_variants(&mut self, table: &[juliet_core::PropertyDescriptor]) {
        // Most sets hold no leaf with a path (and loads allocate nothing then).
        if !self.iter().any(|i| table[i].key.contains('.')) {
            return;
        }
        let leaves: Vec<usize> = self.iter().collect();
        for index in leaves {
            if let Some(parent) = variant_of(table, index) {
                self.insert(parent);
            }
        }
    }

    /// Adds every property of `other`.
    #[inline]
    pub fn union_with(&mut self, other: &OverrideSet) {
        if let (Repr::Inline(a), Repr::Inline(b)) = (&mut self.repr, &other.repr) {
            *a |= *b;
            return;
        }
        self.union_with_spilled(other);
    }

    /// [`OverrideSet::union_with`] when either set is spilled (classes of more than 64
    /// properties): out of line, so that the common case inlines to one OR.
    #[inline(never)]
    fn union_with_spilled(&mut self, other: &OverrideSet) {
        for index in other.iter() {
            self.insert(index);
        }
    }
}

impl FromIterator<usize> for OverrideSet {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> OverrideSet {
        let mut set = OverrideSet::new();
        for index in iter {
            set.insert(index);
        }
        set
    }
}

/// Sets are equal when they hold the same indices, however they are stored.
impl PartialEq for OverrideSet {
    fn eq(&self, other: &OverrideSet) -> bool {
        let (a, b) = (self.words(), other.words());
        let n = a.len().max(b.len());
        (0..n).all(|i| a.get(i).copied().unwrap_or(0) == b.get(i).copied().unwrap_or(0))
    }
}

impl Eq for OverrideSet {}

impl fmt::Debug for OverrideSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Entry `index` and, when it is an enum's variant, the entries of its fields (those
/// keyed by its key and `.`).
pub(crate) fn enum_leaves(
    table: &[juliet_core::PropertyDescriptor],
    index: usize,
) -> impl Iterator<Item = usize> + '_ {
    let key = table[index].key;
    (0..table.len()).filter(move |&i| {
        i == index
            || table[i]
                .key
                .strip_prefix(key)
                .is_some_and(|rest| rest.starts_with('.'))
    })
}

/// The index in `table` of the variant whose field is entry `index` (the entry keyed by
/// its key's parent path), if there is one.
pub(crate) fn variant_of(table: &[juliet_core::PropertyDescriptor], index: usize) -> Option<usize> {
    let (parent, _) = table[index].key.rsplit_once('.')?;
    table.iter().position(|p| p.key == parent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_set_covers_64_properties() {
        let mut s = OverrideSet::new();
        assert!(s.is_empty());
        assert!(s.insert(0) && s.insert(63) && !s.insert(63));
        assert!(matches!(s.repr, Repr::Inline(_)));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 63]);
        assert_eq!(s.len(), 2);
        assert!(!s.remove(5) && s.remove(0) && !s.contains(0));
        assert!(!s.remove(200), "absent high index");
        s.clear();
        assert!(s.is_empty());
    }

    #[test]
    fn wide_classes_spill_and_keep_low_bits() {
        let mut s: OverrideSet = [1usize, 70].into_iter().collect();
        assert!(matches!(s.repr, Repr::Spilled(_)));
        assert!(s.contains(1) && s.contains(70) && !s.contains(69) && !s.contains(500));
        s.insert(200);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![1, 70, 200]);
        assert!(s.remove(70));
        assert_eq!(s.len(), 2);
        let mut t = OverrideSet::new();
        t.insert(2);
        t.union_with(&s);
        assert_eq!(t.iter().collect::<Vec<_>>(), vec![1, 2, 200]);
        assert_eq!(format!("{t:?}"), "{1, 2, 200}");
        // Equality goes by content: a spilled set with only low bits equals an inline one.
        assert!(t.remove(200));
        assert_eq!(t, [1usize, 2].into_iter().collect());
        assert_ne!(t, OverrideSet::new());
    }
}
