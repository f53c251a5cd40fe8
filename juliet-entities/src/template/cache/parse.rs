//! Loading one template file into the cache: the chain of templates being loaded
//! checked (no cycle, not too deep), then the file's base keys, its parent (loaded
//! first when not cached), its class, and its archetype: a new slot of the kind's
//! storage, a clone of the parent's (or the class's default) with the file loaded
//! over it.

use std::path::Path;

use bumpalo::Bump;
use glam::Vec3;
use juliet_core::{
    Archive, Class, Document, Error, ErrorKind, Registry, TokenBuffer, Warning, WarningKind,
};

use super::{
    file_properties, migrated_properties, read_into, template_error, CachedTemplate, Origin,
    Source, TemplateCache, MAX_TEMPLATE_DEPTH,
};
use crate::entity::OverrideSet;
use crate::entity_file::{located, read_header, Header};

/// A template parsed into an archetype slot but not yet entered in the cache.
pub(super) struct Parsed(pub(super) CachedTemplate);

impl TemplateCache {
    /// Reads and parses one template (after its parents), returning it uncommitted.
    pub(super) fn load_chain(
        &mut self,
        scratch: &Bump,
        normalized: String,
        crc: u32,
        source: Source<'_>,
        origin: Option<Origin<'_>>,
        chain: &mut Vec<String>,
    ) -> Result<Parsed, Error> {
        let full = self.root.join(&normalized);
        if let Some(start) = chain.iter().position(|p| *p == normalized) {
            let mut names: Vec<&str> = chain[start..].iter().map(String::as_str).collect();
            names.push(&normalized);
            let reason = format!("templates form a cycle: {}", names.join(" -> "));
            return Err(template_error(origin, &full, &normalized, reason));
        }
        if chain.len() >= MAX_TEMPLATE_DEPTH {
            // Checked before the recursion goes deeper: a long chain must not exhaust
            // the stack.
            let reason = too_deep(chain, &normalized);
            return Err(template_error(origin, &full, &normalized, reason));
        }
        let bytes: &[u8] = match source {
            Source::Text(text) => text.as_bytes(),
            Source::File => {
                self.files_read += 1;
                read_into(
                    scratch,
                    &self.root,
                    &full,
                    self.max_file_size,
                    &mut self.near_names,
                )
                .map_err(|reason| template_error(origin, &full, &normalized, reason))?
            }
        };
        chain.push(normalized.clone());
        let parsed = self.parse(scratch, normalized, crc, None, &full, bytes, chain);
        chain.pop();
        parsed
    }

    /// Parses a template file into a new archetype slot, owned by entry `owner` (by
    /// default the next entry, which the caller commits next).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn parse(
        &mut self,
        scratch: &Bump,
        normalized: String,
        crc: u32,
        owner: Option<u32>,
        full: &Path,
        bytes: &[u8],
        chain: &mut Vec<String>,
    ) -> Result<Parsed, Error> {
        let registry = match self.registry {
            Some(r) => r,
            None => Registry::global().map_err(|e| e.with_path(full))?,
        };
        let mut buffer = TokenBuffer::new();
        let doc = buffer.tokenize(bytes, full)?;
        let mut ar = Archive::loading(doc);
        let header = read_template_header(&mut ar, registry)?;
        let doc = ar.document().expect("loading");
        let parent = match &header.template {
            Some((text, node)) => {
                let origin = Origin::of(doc, *node);
                Some(self.parent_index(scratch, text, origin, full, chain)?)
            }
            None => None,
        };
        let parent = parent.map(|p| &self.entries[p as usize]);
        check_depth(chain, parent, full)?;
        let class = template_class(&header, parent, doc, full)?;
        let parent_slot = parent.map(|p| p.slot as usize);
        let parent_crc = parent.map(|p| p.crc);
        let parent_depth = parent.map_or(0, |p| p.depth);
        let position = header
            .position
            .or(parent.map(|p| p.position))
            .unwrap_or(Vec3::ZERO);
        let owner = owner.unwrap_or_else(|| {
            u32::try_from(self.entries.len()).expect("fewer than 2^32 templates")
        });
        let (kind, slot, sets) = self.load_archetype(class, owner, parent_slot, &mut ar)?;
        ar.audit_unconsumed_suggesting(&crate::entity_file::known_keys(class));
        let warnings = ar.take_warnings();
        Ok(Parsed(CachedTemplate {
            crc,
            path: normalized,
            class,
            kind,
            slot,
            position,
            position_set: header.position.is_some(),
            sets,
            parent: parent_crc,
            depth: parent_depth + 1,
            warnings,
        }))
    }

    /// The entry index of the parent template `text` (named at `origin` in the file
    /// `full`), loaded with its own parents (continuing `chain`) when not cached.
    fn parent_index(
        &mut self,
        scratch: &Bump,
        text: &str,
        origin: Origin<'_>,
        full: &Path,
        chain: &mut Vec<String>,
    ) -> Result<u32, Error> {
        let (normalized, crc) = self.key_of(text, Some(origin), full)?;
        if let Some(&i) = self.by_crc.get(&crc) {
            return Ok(i);
        }
        let parsed = self.load_chain(
            scratch,
            normalized.into_owned(),
            crc,
            Source::File,
            Some(origin),
            chain,
        )?;
        Ok(self.commit(parsed))
    }

    /// A new archetype of `class` owned by entry `owner`: a slot of the kind's storage
    /// that starts as a clone of `parent_slot` (else the class's default), with `ar`'s
    /// file loaded over it. Returns the kind, the slot and the properties the file
    /// sets; on error the slot is removed again.
    fn load_archetype(
        &mut self,
        class: &'static Class,
        owner: u32,
        parent_slot: Option<usize>,
        ar: &mut Archive<'_>,
    ) -> Result<(u16, u32, OverrideSet), Error> {
        let kind = self.kind_index(class);
        let storage = &mut self.kinds[kind as usize];
        let slot = match parent_slot {
            Some(p) => storage.push_clone_of(owner, p),
            None => storage.push_default(owner),
        };
        if let Err(e) = storage.load(slot as usize, ar) {
            storage.swap_remove(slot as usize);
            return Err(e);
        }
        let doc = ar.document().expect("loading");
        let mut sets = file_properties(class, doc);
        // A migration may have set properties from deprecated keys: those it declares
        // (`migrated_from`) and those that differ from the parent's value are the
        // file's own too.
        if migrated_properties(class, doc, &mut sets) {
            if let Some(p) = parent_slot {
                for i in 0..storage.properties().len() {
                    if !storage.same_property(slot as usize, i, storage, p) {
                        sets.insert(i);
                    }
                }
            }
        }
        Ok((kind, slot, sets))
    }
}

/// The base keys of the template file of `ar` (checked as an entity file's), with the
/// warnings of a newer `BaseVersion` and of an `EntityID`, which a template ignores.
fn read_template_header(
    ar: &mut Archive<'_>,
    registry: &'static Registry,
) -> Result<Header, Error> {
    let mut header = read_header(ar, registry)?;
    ar.set_base_version(header.base_version);
    if let Some(w) = header.newer_base.take() {
        ar.warn(w);
    }
    let doc = ar.document().expect("loading");
    if let Some((_, node)) = header.id {
        let w = Warning::at_node(
            doc,
            node,
            WarningKind::Other("a template has no EntityID: ignored".into()),
        );
        ar.warn(w);
    }
    Ok(header)
}

/// A template whose chain (`chain`: this template and the ones being loaded that lead
/// to it, then `parent`'s own) is deeper than [`MAX_TEMPLATE_DEPTH`] is an
/// [`ErrorKind::Template`] error.
fn check_depth(
    chain: &[String],
    parent: Option<&CachedTemplate>,
    full: &Path,
) -> Result<(), Error> {
    let depth = chain.len() + parent.map_or(0, |p| p.depth);
    if depth <= MAX_TEMPLATE_DEPTH {
        return Ok(());
    }
    let parent = parent.expect("a parent when deeper than the chain");
    let reason = too_deep(
        chain,
        &format!("{} (a chain of {})", parent.path, parent.depth),
    );
    Err(template_error(
        None,
        full,
        chain.last().expect("this template"),
        reason,
    ))
}

/// The template's class: the one its `Kind` names, else its parent's.
///
/// # Errors
/// [`ErrorKind::KindMismatch`] at `Kind` when it names another class than the
/// parent's; `Kind` missing when there is neither.
fn template_class(
    header: &Header,
    parent: Option<&CachedTemplate>,
    doc: &Document<'_>,
    full: &Path,
) -> Result<&'static Class, Error> {
    match (header.class, parent) {
        (Some(class), Some(p)) if *class != *p.class => {
            let node = header.kind_node.expect("a Kind node");
            Err(located(
                doc,
                node,
                ErrorKind::KindMismatch {
                    found: class.name().into(),
                    template: p.class.name().into(),
                },
            ))
        }
        (Some(class), _) => Ok(class),
        (None, Some(p)) => Ok(p.class),
        (None, None) => Err(Error::file(full, ErrorKind::MissingKey("Kind"))),
    }
}

/// The reason of a chain deeper than [`MAX_TEMPLATE_DEPTH`]: the templates being
/// loaded (`chain`, outermost first) and the next one, `next`.
fn too_deep(chain: &[String], next: &str) -> String {
    let mut names: Vec<&str> = chain.iter().map(String::as_str).collect();
    names.push(next);
    format!(
        "the chain of templates is deeper than {MAX_TEMPLATE_DEPTH}, the limit: {}",
        names.join(" -> ")
    )
}
