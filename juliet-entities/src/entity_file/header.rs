//! Reading the base tier of an entity or template file: [`read_header`].

use std::borrow::Cow;
use std::cell::Cell;
use std::path::Path;

use glam::Vec3;
use juliet_core::{
    keys_equal, Archive, Class, Codec, Document, Error, ErrorKind, Registry, ValueError,
    ValueErrorKind, Warning, WarningKind,
};

use super::{keys, located, reserved, ENTITY_ASSET_TYPE, ENTITY_BASE_VERSION};
use crate::entity::EntityId;

/// The base tier of an entity (or template) file.
pub(crate) struct Header {
    /// The class named by `Kind`, if the file has one.
    pub(crate) class: Option<&'static Class>,
    /// The node `Kind` was read from.
    pub(crate) kind_node: Option<usize>,
    /// The id and the node it was read from.
    pub(crate) id: Option<(EntityId, usize)>,
    /// `Position`, if the file has one.
    pub(crate) position: Option<Vec3>,
    /// The `Template` path as written and its node.
    pub(crate) template: Option<(String, usize)>,
    /// The file's `BaseVersion` (the engine's when absent).
    pub(crate) base_version: u32,
    /// The warning for a `BaseVersion` newer than this build's.
    pub(crate) newer_base: Option<Warning>,
    /// Whether the base keys were read in canonical form from a document still being
    /// filled: a base key further on (which only the tokenizer can show) means the
    /// file must be read again from its complete document.
    pub(crate) in_order: bool,
}

/// Reads (and consumes) the base keys. A missing `Kind` is left to the caller (an
/// instance takes its template's).
///
/// A document still being filled gives its base keys in canonical form and order when
/// it has them so ([`BaseNodes::in_order`]); else one pass over the complete document's
/// nodes finds every spelling of them ([`BaseNodes::scan`]). The keys are then checked
/// in the order of the file format (`AssetType`, `BaseVersion`, `EntityID`, `Kind`,
/// `Template`, `Position`), so the first problem reported is the same as when each key
/// and alias was looked up on its own.
///
/// # Errors
/// The tokenizer's errors when the document is completed here, and the base keys'
/// problems, located.
pub(crate) fn read_header(
    ar: &mut Archive<'_>,
    registry: &'static Registry,
) -> Result<Header, Error> {
    let doc = ar.document_mut().expect("loading archive");
    let (nodes, in_order) = match BaseNodes::in_order(doc) {
        Some(nodes) => (nodes, true),
        None => {
            doc.complete()?;
            (BaseNodes::scan(doc), false)
        }
    };
    if let Some(i) = nodes.take(doc, BaseNodes::ASSET_TYPE)? {
        check_asset_type(doc, i)?;
    }
    let (base_version, newer_base) = match nodes.take(doc, BaseNodes::BASE_VERSION)? {
        Some(i) => base_version(doc, i)?,
        None => (ENTITY_BASE_VERSION, None),
    };
    let id = match nodes.take(doc, BaseNodes::ENTITY_ID)? {
        Some(i) => Some((entity_id(doc, i)?, i)),
        None => None,
    };
    let kind = nodes.take(doc, BaseNodes::KIND)?;
    let template = match nodes.take(doc, BaseNodes::TEMPLATE)? {
        Some(i) => Some((doc.decode::<String>(i)?, i)),
        None => None,
    };
    let class = match kind {
        Some(i) => Some(kind_class(doc, i, registry)?),
        None => None,
    };
    let position = match nodes.take(doc, BaseNodes::POSITION)? {
        Some(i) => Some(doc.decode::<Vec3>(i)?),
        None => None,
    };
    Ok(Header {
        class,
        kind_node: kind,
        id,
        position,
        template,
        base_version,
        newer_base,
        in_order,
    })
}

/// Node `i`'s `AssetType` must name an entity file.
///
/// # Errors
/// [`ErrorKind::WrongAssetType`] at node `i`.
fn check_asset_type(doc: &Document<'_>, i: usize) -> Result<(), Error> {
    let text = text_value(doc, i)?;
    let expected = *text == *ENTITY_ASSET_TYPE // the canonical spelling, quickly
        || keys_equal(&text, ENTITY_ASSET_TYPE)
        || keys_equal(&text, "entity_instance");
    if !expected {
        return Err(located(
            doc,
            i,
            ErrorKind::WrongAssetType {
                expected: ENTITY_ASSET_TYPE,
                found: text.into_owned(),
            },
        ));
    }
    Ok(())
}

/// Node `i`'s `BaseVersion`, and the warning when it is newer than this build's.
///
/// # Errors
/// A value that is not a `u32`.
fn base_version(doc: &mut Document<'_>, i: usize) -> Result<(u32, Option<Warning>), Error> {
    let version: u32 = doc.decode(i)?;
    if version <= ENTITY_BASE_VERSION {
        return Ok((version, None));
    }
    let newer = Warning::at_node(
        doc,
        i,
        WarningKind::NewerBaseVersion {
            file: version,
            code: ENTITY_BASE_VERSION,
        },
    );
    Ok((version, Some(newer)))
}

/// Node `i`'s `EntityID`.
///
/// # Errors
/// A value that is not a `u64`, or 0 (which means unassigned).
fn entity_id(doc: &mut Document<'_>, i: usize) -> Result<EntityId, Error> {
    let raw: u64 = doc.decode(i)?;
    if raw == 0 {
        let text = doc.value(i).single().unwrap_or("0");
        return Err(doc.value_error(
            i,
            "a non-zero EntityID",
            ValueError::new(ValueErrorKind::Custom("0 means unassigned".into()), text),
        ));
    }
    Ok(EntityId(raw))
}

/// The class node `i`'s `Kind` names in `registry`.
///
/// # Errors
/// At node `i`: [`ErrorKind::UnknownKind`] (with the closest class name or alias as a
/// suggestion), or the reserved-key problem of a class that cannot be an entity kind.
fn kind_class(
    doc: &Document<'_>,
    i: usize,
    registry: &'static Registry,
) -> Result<&'static Class, Error> {
    let name = text_value(doc, i)?;
    match find_class(registry, &name) {
        Some(Ok(class)) => Ok(class),
        Some(Err(reserved)) => Err(located(doc, i, reserved)),
        None => {
            let names = registry
                .classes()
                .iter()
                .flat_map(|c| std::iter::once(c.name()).chain(c.aliases().iter().map(|a| a.name)));
            let suggestion = juliet_core::did_you_mean(&name, names);
            Err(located(doc, i, ErrorKind::UnknownKind(name.into_owned()))
                .with_suggestion(suggestion))
        }
    }
}

/// Whether the complete document `doc` has a base key no reader consumed (one after
/// the properties of a file whose base keys were read in order).
pub(crate) fn base_key_left(doc: &Document<'_>) -> bool {
    BaseNodes::scan(doc)
        .at
        .iter()
        .any(|&at| at != BaseNodes::ABSENT && !doc.node(at as usize).consumed)
}

/// Where the spellings of the base keys are in a document: for each spelling (a key or
/// one of its aliases, in [`keys`] order), the first node with its key CRC, as
/// [`Document::find`] finds it, or [`BaseNodes::ABSENT`].
struct BaseNodes {
    at: [u32; 10],
}

impl BaseNodes {
    /// No node has this spelling.
    const ABSENT: u32 = u32::MAX;
    /// The spellings of `AssetType`: indices into `at`.
    const ASSET_TYPE: std::ops::Range<usize> = 0..1;
    /// `BaseVersion`, `version`.
    const BASE_VERSION: std::ops::Range<usize> = 1..3;
    /// `EntityID`, `id`.
    const ENTITY_ID: std::ops::Range<usize> = 3..5;
    /// `Kind`, `class`, `entity_type`.
    const KIND: std::ops::Range<usize> = 5..8;
    /// `Template`.
    const TEMPLATE: std::ops::Range<usize> = 8..9;
    /// `Position`.
    const POSITION: std::ops::Range<usize> = 9..10;

    /// The base keys of a document still being filled, when its file starts with them in
    /// canonical form and order, each spelled as the writer spells it (any of them
    /// absent but `Kind`); `None` otherwise (the nodes made stay, unconsumed).
    fn in_order(doc: &mut Document<'_>) -> Option<BaseNodes> {
        if doc.is_complete() {
            return None;
        }
        let mut at = [BaseNodes::ABSENT; 10];
        for (key, spelling) in [
            (keys::ASSET_TYPE, BaseNodes::ASSET_TYPE.start),
            (keys::BASE_VERSION, BaseNodes::BASE_VERSION.start),
            (keys::ENTITY_ID, BaseNodes::ENTITY_ID.start),
            (keys::KIND, BaseNodes::KIND.start),
            (keys::TEMPLATE, BaseNodes::TEMPLATE.start),
            (keys::POSITION, BaseNodes::POSITION.start),
        ] {
            if let Some(i) = doc.take_canonical(key) {
                at[spelling] = i as u32;
            }
        }
        (at[BaseNodes::KIND.start] != BaseNodes::ABSENT).then_some(BaseNodes { at })
    }

    /// One pass over the complete `doc`'s nodes, dispatching on the key CRC.
    fn scan(doc: &Document<'_>) -> BaseNodes {
        const ASSET_TYPE: u32 = keys::ASSET_TYPE.crc;
        const BASE_VERSION: u32 = keys::BASE_VERSION.crc;
        const VERSION: u32 = keys::BASE_VERSION_ALIASES[0].crc;
        const ENTITY_ID: u32 = keys::ENTITY_ID.crc;
        const ID: u32 = keys::ENTITY_ID_ALIASES[0].crc;
        const KIND: u32 = keys::KIND.crc;
        const CLASS: u32 = keys::KIND_ALIASES[0].crc;
        const ENTITY_TYPE: u32 = keys::KIND_ALIASES[1].crc;
        const TEMPLATE: u32 = keys::TEMPLATE.crc;
        const POSITION: u32 = keys::POSITION.crc;
        // The spellings above are every one of `keys` (a new alias needs a slot here).
        const _: () = assert!(
            keys::BASE_VERSION_ALIASES.len() == 1
                && keys::ENTITY_ID_ALIASES.len() == 1
                && keys::KIND_ALIASES.len() == 2
        );
        let mut at = [BaseNodes::ABSENT; 10];
        for (i, n) in doc.nodes().iter().enumerate() {
            let spelling = match n.key_crc {
                ASSET_TYPE => 0,
                BASE_VERSION => 1,
                VERSION => 2,
                ENTITY_ID => 3,
                ID => 4,
                KIND => 5,
                CLASS => 6,
                ENTITY_TYPE => 7,
                TEMPLATE => 8,
                POSITION => 9,
                _ => continue,
            };
            // The CRC picked the spelling; the text confirms it (a CRC-32 twin of a
            // base key is an unknown key).
            const SPELLINGS: [&str; 10] = [
                keys::ASSET_TYPE.name,
                keys::BASE_VERSION.name,
                keys::BASE_VERSION_ALIASES[0].name,
                keys::ENTITY_ID.name,
                keys::ENTITY_ID_ALIASES[0].name,
                keys::KIND.name,
                keys::KIND_ALIASES[0].name,
                keys::KIND_ALIASES[1].name,
                keys::TEMPLATE.name,
                keys::POSITION.name,
            ];
            if !doc.key_is(i, SPELLINGS[spelling]) {
                continue;
            }
            if at[spelling] == BaseNodes::ABSENT {
                at[spelling] = i as u32;
            }
        }
        BaseNodes { at }
    }

    /// The node of the key whose spellings are `spellings`, consumed; two spellings in
    /// one file are a [`ErrorKind::DuplicateKey`] error at the later one (the pair met
    /// first in spelling order, as looking each spelling up in turn finds it).
    fn take(
        &self,
        doc: &mut Document<'_>,
        spellings: std::ops::Range<usize>,
    ) -> Result<Option<usize>, Error> {
        let mut found: Option<usize> = None;
        for &at in &self.at[spellings] {
            if at == BaseNodes::ABSENT {
                continue;
            }
            let i = at as usize;
            doc.consume(i);
            if let Some(first) = found {
                let (early, late) = if first < i { (first, i) } else { (i, first) };
                let first_line = doc.node(early).line;
                return Err(located(doc, late, ErrorKind::DuplicateKey { first_line }));
            }
            found = Some(i);
        }
        Ok(found)
    }
}

thread_local! {
    /// The class [`find_class`] found last, and the registry it came from.
    static LAST_KIND: Cell<Option<(&'static Registry, &'static Class)>> =
        const { Cell::new(None) };
}

/// `Kind` is missing and so is `Template`: at the line of a key that looks like a
/// misspelling of either (`; templat: ...`), naming it; else about the whole file.
pub(crate) fn missing_kind(doc: &Document<'_>, path: &Path) -> Error {
    let wanted = [keys::TEMPLATE.name, keys::KIND.name];
    (0..doc.len())
        .find_map(|i| {
            let suggestion = juliet_core::did_you_mean(doc.key(i), wanted)?;
            Some(
                located(doc, i, ErrorKind::MissingKey(keys::KIND.name))
                    .with_suggestion(Some(suggestion)),
            )
        })
        .unwrap_or_else(|| Error::file(path, ErrorKind::MissingKey(keys::KIND.name)))
}

/// `registry.find_by_name(name)`, checked with [`reserved::check_class`] (`Err` with
/// [`ErrorKind::ReservedKey`] for a class that cannot be an entity kind), remembering
/// the last class found that passed: the files of a world are mostly of a few kinds,
/// and a name spelled exactly as the class's skips the hash lookup and the check.
/// Registries behind a `&'static` are never changed, so the answer stays right.
pub(crate) fn find_class(
    registry: &'static Registry,
    name: &str,
) -> Option<Result<&'static Class, ErrorKind>> {
    if let Some((r, class)) = LAST_KIND.get() {
        if std::ptr::eq(r, registry) && class.name() == name {
            return Some(Ok(class));
        }
    }
    let class = registry.find_by_name(name)?;
    Some(reserved::check_class(class).map(|()| {
        LAST_KIND.set(Some((registry, class)));
        class
    }))
}

/// The one-line text value of node `i`: borrowed when bare, decoded when quoted.
fn text_value<'d>(doc: &'d Document<'_>, i: usize) -> Result<Cow<'d, str>, Error> {
    let value = doc.value(i);
    let line = value
        .single()
        .map_err(|e| doc.value_error(i, "a name", e))?;
    if line.starts_with('"') {
        String::decode(value)
            .map(Cow::Owned)
            .map_err(|e| doc.value_error(i, "a name", e))
    } else {
        Ok(Cow::Borrowed(line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::{Collectible, Inert};
    use juliet_core::Reflect;

    #[test]
    fn find_class_remembers_per_registry_and_spelling() {
        let both: &'static Registry = Box::leak(Box::new(
            Registry::new([Inert::CLASS, Collectible::CLASS]).unwrap(),
        ));
        let only_collectible: &'static Registry =
            Box::leak(Box::new(Registry::new([Collectible::CLASS]).unwrap()));
        let is = |found: Option<Result<&'static Class, ErrorKind>>, class: &'static Class| {
            found.is_some_and(|c| c.is_ok_and(|c| std::ptr::eq(c, class)))
        };
        assert!(is(find_class(both, "Inert"), Inert::CLASS));
        // The remembered class is not answered for another registry...
        assert!(find_class(only_collectible, "Inert").is_none());
        assert!(is(find_class(both, "Inert"), Inert::CLASS));
        // ...nor for another name, and other spellings still resolve.
        assert!(is(find_class(both, "Collectible"), Collectible::CLASS));
        assert!(is(find_class(both, "inert"), Inert::CLASS));
        assert!(is(find_class(both, "INERT"), Inert::CLASS));
        assert!(find_class(both, "Inertia").is_none());
        assert!(is(
            find_class(only_collectible, "collectible"),
            Collectible::CLASS
        ));
    }
}
