//! Keys of `jasset set` that name one element of a list or map property: `Route[1]`
//! (element 1 of a list, from 0), `Spawns[orc]` (the map's entry `orc`), and a leaf of
//! a record element, `Route[1].Wait` or `Spawns[orc].Count`. The property stays one
//! value (docs/design.md, section 3.4): `set` reads its text, changes the element's
//! line (or the leaf's line of the element's record) and sets the whole property from
//! the new text, which the property's codec checks as any value.

use juliet_core::{is_identifier, is_record_key, keys_equal, needs_quotes, PropertyType, Value};
use juliet_core::{record_groups, split_entry, EMPTY_LIST, EMPTY_MAP, ITEM_MARK};

/// A key naming an element: the property's key, the element's index or map key as
/// written between `[` and `]`, and the leaf's path inside a record element (`""` for
/// the element itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ElementPath<'a> {
    pub(crate) property: &'a str,
    pub(crate) selector: &'a str,
    pub(crate) leaf: &'a str,
}

/// `key` as an element's path; `None` for a key without `[`.
///
/// # Errors
/// A message for a `[` without its `]`, an empty selector, text between `]` and `.`, or
/// a property key or leaf path that is not identifiers joined by `.`.
pub(crate) fn parse(key: &str) -> Option<Result<ElementPath<'_>, String>> {
    let (property, rest) = key.split_once('[')?;
    let Some((selector, after)) = rest.split_once(']') else {
        return Some(Err(format!("`{key}`: `[` without its `]`")));
    };
    let leaf = match after.strip_prefix('.') {
        Some(leaf) => leaf,
        None if after.is_empty() => "",
        None => {
            return Some(Err(format!(
                "`{key}`: after `]` comes `.` and a leaf's path (`{property}[{selector}].Leaf`)"
            )))
        }
    };
    let bad_path = |p: &str| !is_identifier(p.as_bytes()) || p.split('.').any(str::is_empty);
    let bad_leaf = after.starts_with('.') && !is_record_key(leaf);
    Some(
        if bad_path(property) || selector.trim().is_empty() || bad_leaf {
            Err(format!(
                "`{key}`: an element is `Key[index]` (a list, from 0) or `Key[map key]`, then \
             `.Leaf` for a leaf of a record"
            ))
        } else {
            Ok(ElementPath {
                property,
                selector: selector.trim(),
                leaf,
            })
        },
    )
}

/// The text of a property of type `ty` whose text is `old`, with the element (or the
/// element's leaf) `path` names set to the one-line `value`. A map entry that does not
/// exist is added; a list element must exist.
///
/// # Errors
/// A message when `ty` is no list or map, the index is out of range or no number, a
/// record element is named without a leaf, a one-line element with one, or `old` is
/// no list or map of records.
pub(crate) fn with_element(
    ty: &PropertyType,
    old: &str,
    path: &ElementPath<'_>,
    value: &str,
) -> Result<String, String> {
    let ElementPath {
        property, selector, ..
    } = *path;
    match ty {
        PropertyType::List(inner) => {
            let index: usize = selector
                .parse()
                .map_err(|_| "a list's element is named by its index, from 0".to_owned())?;
            let mut items = items_of(inner, old)?;
            let count = items.len();
            let item = items.get_mut(index).ok_or_else(|| {
                format!(
                    "the list has {count} element{} (set the whole list to add one)",
                    if count == 1 { "" } else { "s" }
                )
            })?;
            set_item(inner, item, path, value)?;
            Ok(list_text(inner, &items))
        }
        PropertyType::Map(_, inner) => {
            let mut entries = entries_of(inner, old)?;
            let at = entries
                .iter()
                .position(|(k, _)| unquoted(k) == unquoted(selector));
            // A new entry goes where the writer's key order puts it.
            let at = at.unwrap_or_else(|| {
                let before = |(k, _): &(String, Vec<String>)| key_order(k, selector).is_lt();
                let at = entries.iter().take_while(|e| before(e)).count();
                entries.insert(at, (quoted(selector), Vec::new()));
                at
            });
            set_item(inner, &mut entries[at].1, path, value)?;
            Ok(map_text(inner, &entries))
        }
        _ => Err(format!("`{property}` is not a list or a map; set it whole")),
    }
}

/// Whether elements of `inner` are records (a `-` line, then `Key: value` lines).
fn holds_records(inner: &PropertyType) -> bool {
    matches!(
        inner,
        PropertyType::Record { .. } | PropertyType::EnumWithData { .. }
    )
}

/// The lines of each element of a list of `inner`.
fn items_of(inner: &PropertyType, old: &str) -> Result<Vec<Vec<String>>, String> {
    if old.trim() == EMPTY_LIST {
        return Ok(Vec::new());
    }
    if !holds_records(inner) {
        return Ok(old.lines().map(|l| vec![l.to_owned()]).collect());
    }
    let value = Value::from_text(old);
    let groups = record_groups(&value).map_err(|e| format!("`{}`: {}", e.found, e.kind))?;
    Ok(groups.iter().map(|(_, lines)| owned(lines)).collect())
}

/// Each entry of a map of `inner`: its key as written, and its lines (a record's
/// lines, or the one value).
fn entries_of(inner: &PropertyType, old: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    if old.trim() == EMPTY_MAP {
        return Ok(Vec::new());
    }
    if holds_records(inner) {
        let value = Value::from_text(old);
        let groups = record_groups(&value).map_err(|e| format!("`{}`: {}", e.found, e.kind))?;
        return Ok(groups
            .iter()
            .map(|(key, lines)| ((*key).to_owned(), owned(lines)))
            .collect());
    }
    old.lines()
        .map(|line| {
            let (key, value) =
                split_entry(line).ok_or_else(|| format!("`{line}`: not a `key: value` line"))?;
            Ok((key.to_owned(), vec![value.to_owned()]))
        })
        .collect()
}

fn owned(lines: &[&str]) -> Vec<String> {
    lines.iter().map(|l| (*l).to_owned()).collect()
}

/// Sets `value` in the element whose lines are `item`: its leaf `path.leaf` of a
/// record (that line replaced, or added), else its one line.
fn set_item(
    inner: &PropertyType,
    item: &mut Vec<String>,
    path: &ElementPath<'_>,
    value: &str,
) -> Result<(), String> {
    let ElementPath {
        property,
        selector,
        leaf,
    } = *path;
    match (holds_records(inner), leaf.is_empty()) {
        (true, true) => Err(format!(
            "the element is a record: set one of its leaves, `{property}[{selector}].Leaf=value`"
        )),
        (false, false) => Err(format!(
            "the element is one value, with no leaf `{leaf}`: set `{property}[{selector}]=value`"
        )),
        (false, true) => {
            *item = vec![value.to_owned()];
            Ok(())
        }
        (true, false) => {
            let line = format!("{leaf}: {value}");
            let at = item
                .iter()
                .position(|l| split_entry(l).is_some_and(|(k, _)| keys_equal(k, leaf)));
            match at {
                Some(at) => item[at] = line,
                None => item.push(line),
            }
            Ok(())
        }
    }
}

/// The text of a list of `inner` whose elements' lines are `items`.
fn list_text(inner: &PropertyType, items: &[Vec<String>]) -> String {
    if items.is_empty() {
        return EMPTY_LIST.to_owned();
    }
    let lines = items.iter().flat_map(|item| {
        let mark = holds_records(inner).then(|| ITEM_MARK.to_owned());
        mark.into_iter().chain(item.iter().cloned())
    });
    lines.collect::<Vec<_>>().join("\n")
}

/// The text of a map of `inner` whose entries are `entries`.
fn map_text(inner: &PropertyType, entries: &[(String, Vec<String>)]) -> String {
    let mut lines = Vec::new();
    for (key, item) in entries {
        if holds_records(inner) {
            lines.push(format!("{ITEM_MARK} {key}"));
            lines.extend(item.iter().cloned());
        } else {
            lines.push(format!("{key}: {}", item.join("")));
        }
    }
    lines.join("\n")
}

/// The order of two map keys as written: integers by value, other keys by their text.
fn key_order(a: &str, b: &str) -> std::cmp::Ordering {
    let (a, b) = (unquoted(a), unquoted(b));
    match (a.parse::<i128>(), b.parse::<i128>()) {
        (Ok(a), Ok(b)) => a.cmp(&b),
        _ => a.cmp(b),
    }
}

/// A map key as written without its quotes.
fn unquoted(key: &str) -> &str {
    key.strip_prefix('"')
        .and_then(|k| k.strip_suffix('"'))
        .unwrap_or(key)
}

/// A map key as a file writes it: quoted when it needs quotes.
fn quoted(key: &str) -> String {
    match needs_quotes(key) {
        true => format!("\"{key}\""),
        false => key.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static F32: PropertyType = PropertyType::F32;
    static WAYPOINT: PropertyType = PropertyType::Record {
        name: "Waypoint",
        leaves: &[
            ("Wait", &PropertyType::F32),
            ("Pos", &PropertyType::Floats(3)),
        ],
    };

    fn path(key: &str) -> ElementPath<'_> {
        parse(key).unwrap().unwrap()
    }

    #[test]
    fn element_paths_name_a_property_an_element_and_a_leaf() {
        assert_eq!(parse("Route"), None);
        assert_eq!(
            path("Route[1].Wait"),
            ElementPath {
                property: "Route",
                selector: "1",
                leaf: "Wait"
            }
        );
        assert_eq!(path("Spawns[big orc]").selector, "big orc");
        assert_eq!(path("Route[0].Stats.Hp").leaf, "Stats.Hp");
        // A tuple struct's leaves are `0`, `1`, ...
        assert_eq!(path("Spans[0].1").leaf, "1");
        for bad in [
            "Route[1",
            "Route[]",
            "Route[1]x",
            "Route[1].",
            "Route[1]..Hp",
            "Route[1].Hp-x",
            "[1]",
        ] {
            assert!(parse(bad).unwrap().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_leaf_of_a_list_element_changes_that_line_alone() {
        static ROUTE: PropertyType = PropertyType::List(&WAYPOINT);
        let old = "-\nWait: 1.0\nPos: 0 0 0\n-\nWait: 2.0";
        let new = with_element(&ROUTE, old, &path("Route[1].wait"), "3").unwrap();
        assert_eq!(new, "-\nWait: 1.0\nPos: 0 0 0\n-\nwait: 3");
        // A leaf the record does not write is added to it.
        let new = with_element(&ROUTE, old, &path("Route[1].Pos"), "1 2 3").unwrap();
        assert_eq!(new, "-\nWait: 1.0\nPos: 0 0 0\n-\nWait: 2.0\nPos: 1 2 3");
        let err = with_element(&ROUTE, old, &path("Route[2].Wait"), "1").unwrap_err();
        assert!(err.contains("2 elements"), "{err}");
        let err = with_element(&ROUTE, old, &path("Route[x].Wait"), "1").unwrap_err();
        assert!(err.contains("index"), "{err}");
        let err = with_element(&ROUTE, old, &path("Route[0]"), "1").unwrap_err();
        assert!(err.contains("Route[0].Leaf"), "{err}");
    }

    #[test]
    fn one_line_elements_and_map_entries_are_set_and_added() {
        static SPEEDS: PropertyType = PropertyType::List(&F32);
        let new = with_element(&SPEEDS, "1.0\n2.0", &path("Speeds[0]"), "5").unwrap();
        assert_eq!(new, "5\n2.0");
        let err = with_element(&SPEEDS, "1.0", &path("Speeds[0].X"), "5").unwrap_err();
        assert!(err.contains("no leaf `X`"), "{err}");

        static WEIGHTS: PropertyType = PropertyType::Map(&PropertyType::String, &F32);
        let new = with_element(&WEIGHTS, "\"big tree\": 1.0", &path("W[big tree]"), "2").unwrap();
        assert_eq!(new, "\"big tree\": 2");
        let new = with_element(&WEIGHTS, "{}", &path("W[big rock]"), "2").unwrap();
        assert_eq!(new, "\"big rock\": 2");
        let new = with_element(&WEIGHTS, "a: 1\nc: 3", &path("W[b]"), "2").unwrap();
        assert_eq!(new, "a: 1\nb: 2\nc: 3");
        static BY_ID: PropertyType = PropertyType::Map(&PropertyType::U32, &F32);
        let new = with_element(&BY_ID, "2: 1\n10: 3", &path("W[9]"), "2").unwrap();
        assert_eq!(new, "2: 1\n9: 2\n10: 3");

        static SPAWNS: PropertyType = PropertyType::Map(&PropertyType::String, &WAYPOINT);
        let old = "- orc\nWait: 1.0";
        let new = with_element(&SPAWNS, old, &path("S[elf].Wait"), "2").unwrap();
        assert_eq!(new, "- elf\nWait: 2\n- orc\nWait: 1.0");
        let err = with_element(&F32, "1.0", &path("Speed[0]"), "2").unwrap_err();
        assert!(err.contains("not a list or a map"), "{err}");
    }
}
