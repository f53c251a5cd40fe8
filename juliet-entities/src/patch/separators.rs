//! The separator style of a file's token lists (vectors, arrays, inner lists): the
//! canonical writer separates their tokens by one space, and a file may separate them by
//! commas (`Position: 1, 2, 3`), which a save keeps (docs/design.md, section 6.2).

use std::borrow::Cow;

use juliet_core::PropertyType;

/// Whether the value lines of a property of type `ty` are lists of tokens (whose
/// separators a file chooses): vectors, arrays, and what holds them (options, lists and
/// sets of them, lists as elements).
pub(crate) fn holds_token_lists(ty: &PropertyType) -> bool {
    match ty {
        PropertyType::Floats(_) | PropertyType::Array(..) => true,
        PropertyType::Option(inner) | PropertyType::List(inner) | PropertyType::Set(inner) => {
            matches!(inner, PropertyType::List(_)) || holds_token_lists(inner)
        }
        _ => false,
    }
}

/// The separator between the first two tokens of value line `line` as written (`, `,
/// `,`, ` `...), or `None` for a line of one token or one holding a quoted token (whose
/// blanks and commas are not separators).
pub(crate) fn separator_of(line: &str) -> Option<&str> {
    let is_separator = |c: char| c == ' ' || c == '\t' || c == ',';
    let line = line.trim_matches(is_separator);
    if line.contains('"') {
        return None;
    }
    let start = line.find(is_separator)?;
    let len = line[start..].find(|c| !is_separator(c))?;
    Some(&line[start..start + len])
}

/// The canonical value line `line` with its tokens separated by `separator` (from
/// [`separator_of`]) instead of one space: as is when `separator` is a blank, or when
/// `line` holds a quoted token.
pub(crate) fn restyle<'a>(line: &'a str, separator: Option<&str>) -> Cow<'a, str> {
    match separator {
        Some(sep) if sep.contains(',') && !line.contains('"') && line.contains(' ') => {
            Cow::Owned(line.split(' ').collect::<Vec<_>>().join(sep))
        }
        _ => Cow::Borrowed(line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_separator_is_the_one_between_the_first_two_tokens() {
        assert_eq!(separator_of("1, 2, 3"), Some(", "));
        assert_eq!(separator_of("1,2,3"), Some(","));
        assert_eq!(separator_of("1 ,\t2"), Some(" ,\t"));
        assert_eq!(separator_of("1.0 2.0"), Some(" "));
        assert_eq!(separator_of("  1.0  "), None);
        assert_eq!(separator_of("\"a, b\", c"), None);
    }

    #[test]
    fn a_line_is_restyled_only_for_a_comma_separator() {
        assert_eq!(restyle("4.0 5.0 6.0", Some(", ")), "4.0, 5.0, 6.0");
        assert_eq!(restyle("4.0 5.0", Some(",")), "4.0,5.0");
        assert_eq!(restyle("4.0 5.0", Some("  ")), "4.0 5.0");
        assert_eq!(restyle("4.0 5.0", None), "4.0 5.0");
        assert_eq!(restyle("\"a b\" c", Some(", ")), "\"a b\" c");
        assert_eq!(restyle("7", Some(", ")), "7");
    }

    #[test]
    fn vectors_arrays_and_what_holds_them_hold_token_lists() {
        static F32: PropertyType = PropertyType::F32;
        static VEC3: PropertyType = PropertyType::Floats(3);
        static INNER: PropertyType = PropertyType::List(&F32);
        assert!(holds_token_lists(&VEC3));
        assert!(holds_token_lists(&PropertyType::Array(&F32, 4)));
        assert!(holds_token_lists(&PropertyType::List(&VEC3)));
        assert!(holds_token_lists(&PropertyType::List(&INNER)));
        assert!(holds_token_lists(&PropertyType::Option(&VEC3)));
        assert!(!holds_token_lists(&F32));
        assert!(!holds_token_lists(&INNER));
        assert!(!holds_token_lists(&PropertyType::String));
    }
}
