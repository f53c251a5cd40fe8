//! Template paths: project-relative, normalized, identified by their CRC-32
//! (docs/design.md, section 7.1).
//!
//! Files store paths relative to the project root (the folder that holds `Assets/`),
//! as written by a person; the runtime normalizes them (`\` to `/`, `.` and `..`
//! resolved, empty components dropped) so that every spelling of one file gets one
//! CRC, and refuses paths that are absolute or climb above the project root.

use std::borrow::Cow;

use juliet_core::{crc32, Error, ErrorKind};

/// "No template": no template has this CRC (a path that hashes to it
/// is refused).
pub const INVALID_TEMPLATE_CRC: u32 = 0;

/// Normalizes a project-relative template path (docs/design.md, section 7.1): surrounding
/// spaces trimmed, `\` read as `/`, empty and `.` components dropped, `..` removing the
/// component before it. The result joins the components with `/`
/// (`Assets\Templates\.\Rocks\..\RockLarge.jasset` gives
/// `Assets/Templates/RockLarge.jasset`). Case is kept: paths are case-sensitive.
///
/// # Errors
/// [`ErrorKind::Template`] (with the path as given) when the path is empty, absolute
/// (`/...`, `C:...`, `\\server\...`), or a `..` climbs above the project root.
pub fn normalize_template_path(path: &str) -> Result<String, Error> {
    normalize(path).map(Cow::into_owned)
}

/// Whether `path` is already in normal form (so that normalizing it need not copy).
fn is_normal(path: &str) -> bool {
    let bytes = path.as_bytes();
    let has_drive = bytes.len() >= 2 && bytes[1] == b':';
    !path.is_empty()
        && !has_drive
        && !path.contains('\\')
        && !path.starts_with([' ', '\t'])
        && !path.ends_with([' ', '\t'])
        && path.split('/').all(|c| !matches!(c, "" | "." | ".."))
}

/// [`normalize_template_path`] without a copy when the path is already normal (the
/// common case: paths written by the tools), so that loading instances allocates
/// nothing for it.
pub(crate) fn normalize(path: &str) -> Result<Cow<'_, str>, Error> {
    if is_normal(path) {
        return Ok(Cow::Borrowed(path));
    }
    let fail = |reason: &str| {
        Err(Error::file(
            "",
            ErrorKind::Template {
                path: path.to_owned(),
                reason: reason.to_owned(),
            },
        ))
    };
    let trimmed = path.trim_matches(|c| c == ' ' || c == '\t');
    if trimmed.is_empty() {
        return fail("empty path");
    }
    let slashed = trimmed.replace('\\', "/");
    let bytes = slashed.as_bytes();
    let has_drive = bytes.len() >= 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic();
    if slashed.starts_with('/') || has_drive {
        return fail("absolute path: template paths are relative to the project root");
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in slashed.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return fail("`..` goes above the project root");
                }
            }
            _ => parts.push(part),
        }
    }
    if parts.is_empty() {
        return fail("the path names the project root, not a file");
    }
    Ok(Cow::Owned(parts.join("/")))
}

/// The runtime identifier of a normalized template path: CRC-32 of its bytes (seed
/// 04's `HashTemplatePath`). Call it on the output of [`normalize_template_path`].
pub fn template_crc(normalized: &str) -> u32 {
    crc32(normalized.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(p: &str) -> String {
        normalize_template_path(p).unwrap()
    }

    fn reason(p: &str) -> String {
        match normalize_template_path(p).unwrap_err().kind.clone() {
            ErrorKind::Template { path, reason } => {
                assert_eq!(path, p);
                reason
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn spellings_of_one_file_normalize_to_one_path() {
        let canonical = "Assets/Templates/RockLarge.jasset";
        for p in [
            canonical,
            "Assets\\Templates\\RockLarge.jasset",
            "./Assets/Templates/RockLarge.jasset",
            "Assets//Templates/./RockLarge.jasset",
            "Assets/Templates/Rocks/../RockLarge.jasset",
            "Assets/Worlds/../Templates/x/y/../../RockLarge.jasset",
            "  Assets/Templates/RockLarge.jasset\t",
        ] {
            assert_eq!(norm(p), canonical, "{p}");
        }
        assert_eq!(
            template_crc(&norm("Assets\\Templates\\RockLarge.jasset")),
            crc32(canonical.as_bytes())
        );
        assert!(matches!(normalize(canonical).unwrap(), Cow::Borrowed(_)));
        assert!(matches!(normalize("a\\b").unwrap(), Cow::Owned(_)));
        // Case matters (case-sensitive file systems).
        assert_ne!(norm("assets/templates/rocklarge.jasset"), canonical);
    }

    #[test]
    fn paths_outside_the_project_are_refused() {
        assert!(reason("../Other/Rock.jasset").contains("above the project root"));
        assert!(reason("Assets/../../Rock.jasset").contains("above the project root"));
        assert!(reason("/etc/passwd").contains("absolute"));
        assert!(reason("\\\\server\\share\\Rock.jasset").contains("absolute"));
        assert!(reason("C:\\Game\\Rock.jasset").contains("absolute"));
        assert!(reason("").contains("empty"));
        assert!(reason("Assets/..").contains("project root"));
    }
}
