//! Counts in messages: `1 file`, `2 files`, `1 entity`, `3 entities`, as the reports of
//! the runtime and of the `jasset` tool write them.

/// `n` and `noun`, in the plural when `n != 1` (English rules for a regular noun: `file`
/// → `files`, `entity` → `entities`, `class` → `classes`, `key` → `keys`).
///
/// ```
/// use juliet_core::quantity;
/// assert_eq!(quantity(1, "entity"), "1 entity");
/// assert_eq!(quantity(3, "entity"), "3 entities");
/// ```
pub fn quantity(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {}", plural(noun))
    }
}

/// The plural of the regular English noun `noun`.
fn plural(noun: &str) -> String {
    let vowel = |c: char| "aeiou".contains(c);
    let mut chars = noun.chars().rev();
    match (chars.next(), chars.next()) {
        (Some('y'), Some(c)) if !vowel(c) => format!("{}ies", &noun[..noun.len() - 1]),
        (Some('s' | 'x'), _) | (Some('h'), Some('c' | 's')) => format!("{noun}es"),
        _ => format!("{noun}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::quantity;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(quantity(1, "file"), "1 file");
        assert_eq!(quantity(0, "error"), "0 errors");
        assert_eq!(quantity(2, "problem"), "2 problems");
        assert_eq!(quantity(1, "entity"), "1 entity");
        assert_eq!(quantity(3, "entity"), "3 entities");
        assert_eq!(quantity(2, "property"), "2 properties");
        assert_eq!(quantity(2, "class"), "2 classes");
        assert_eq!(quantity(2, "key"), "2 keys");
        assert_eq!(quantity(2, "match"), "2 matches");
    }
}
