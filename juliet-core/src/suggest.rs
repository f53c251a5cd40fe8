//! "Did you mean" suggestions for a misspelled key, kind or directive: the closest
//! candidate by edit distance ([`strsim`]), compared as keys are (ASCII case and `_`
//! ignored), when it is close enough to be the likely intent.

use crate::crc::normalize_key;

/// The candidate closest to `word`, when one is within about a third of its length in
/// edits (at least one edit; swapped neighbours count once). `None` for an exact match
/// (as a key: nothing to suggest) and when nothing is close.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let word = normalize_key(word);
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(&word, &normalize_key(c)), c))
        .filter(|&(d, _)| d > 0 && d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn the_closest_key_is_suggested_in_its_own_spelling() {
        let keys = ["Health", "MaxHealth", "Mass", "MeshAsset"];
        assert_eq!(did_you_mean("Helth", keys), Some("Health"));
        assert_eq!(did_you_mean("mesh_aset", keys), Some("MeshAsset"));
        assert_eq!(did_you_mean("Mas", keys), Some("Mass"));
        assert_eq!(
            did_you_mean("templat", ["Template", "Kind"]),
            Some("Template")
        );
        assert_eq!(
            did_you_mean("Projetcile", ["Inert", "Projectile"]),
            Some("Projectile")
        );
    }

    #[test]
    fn nothing_is_suggested_for_far_words_or_exact_keys() {
        let keys = ["Health", "Mass"];
        assert_eq!(did_you_mean("Velocity", keys), None);
        assert_eq!(did_you_mean("HEALTH", keys), None);
        assert_eq!(did_you_mean("x", keys), None);
        assert_eq!(did_you_mean("Health", []), None);
    }
}
