//! Loading one value from a file's text: [`load_text`] over a value the caller keeps and
//! [`from_text`] into a new one. Both read the file into a [`Document`] that fills
//! itself as the class's [`Reflect::load`] walks it (straight from the text while the
//! file is in canonical form or close to it, through the tokenizer from the first
//! other line), then
//! run the unconsumed-key audit; the report ([`LoadTextReport`]) says which way the
//! nodes were made. docs/design.md, section 4.3.

use std::path::Path;

use crate::archive::{Archive, UnknownProperties};
use crate::class::{Class, Reflect};
use crate::error::{Error, Warning};
use crate::token::{Document, TokenBuffer};

/// What a load reported besides the values (see [`load_text`] and [`from_text`]): how
/// the file was read, its warnings and its unknown properties. Two words (checked at
/// compile time); nothing is allocated when there are no warnings and no unknown keys
/// (every file read in canonical form). docs/design.md, section 2.6 (unknown keys kept).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LoadTextReport {
    direct: bool,
    /// `None` when there is nothing to report.
    findings: Option<Box<Findings>>,
}

static_assertions::assert_eq_size!(LoadTextReport, [usize; 2]);

/// The warnings and unknown properties of a [`LoadTextReport`] (never both empty).
#[derive(Debug, Clone, PartialEq)]
struct Findings {
    warnings: Vec<Warning>,
    unknown: UnknownProperties,
}

impl LoadTextReport {
    /// A report of a load: `direct` when the file was read whole in canonical form,
    /// straight from its text (else the tokenizer made its nodes), with its `warnings`
    /// and `unknown` properties.
    pub fn new(direct: bool, warnings: Vec<Warning>, unknown: UnknownProperties) -> Self {
        let findings = (!warnings.is_empty() || !unknown.is_empty())
            .then(|| Box::new(Findings { warnings, unknown }));
        LoadTextReport { direct, findings }
    }

    /// Whether the file was read whole in canonical form, straight from its text
    /// (`false`: the tokenizer made its nodes, from the first line that is not).
    pub fn direct(&self) -> bool {
        self.direct
    }

    /// The warnings, also logged through `tracing` (a newer class version, unknown
    /// keys), in file order.
    pub fn warnings(&self) -> &[Warning] {
        self.findings.as_ref().map_or(&[], |f| &f.warnings)
    }

    /// The properties no reader consumed, in file order, kept to be written back (seed
    /// 01 section 3.4).
    pub fn unknown(&self) -> &UnknownProperties {
        static NONE: UnknownProperties = UnknownProperties::new();
        self.findings.as_ref().map_or(&NONE, |f| &f.unknown)
    }

    /// The warnings and the unknown properties, by value.
    pub fn into_parts(self) -> (Vec<Warning>, UnknownProperties) {
        self.findings
            .map_or_else(Default::default, |f| (f.warnings, f.unknown))
    }
}

/// Loads the file `bytes` over `value` (missing keys keep their current values): the
/// tokenizer's [`Document`] of the file, the class's [`Reflect::load`] over an
/// [`Archive`], then the unconsumed-key audit. The file is tokenized before any value
/// is written, so a file the tokenizer rejects leaves `value` as it was; [`from_text`],
/// which makes a new value, reads a canonical file straight from its text instead.
///
/// `path` only labels errors.
///
/// # Errors
/// Those of [`TokenBuffer::tokenize`] (nothing written) and [`Reflect::load`], with
/// path, line and column. After a [`Reflect::load`] error `value` holds the values the
/// file gives before the error.
pub fn load_text<T: Reflect>(
    buffer: &mut TokenBuffer,
    bytes: &[u8],
    path: &Path,
    value: &mut T,
) -> Result<LoadTextReport, Error> {
    load_document(buffer.tokenize(bytes, path)?, value)
}

/// A new `T` from the file `bytes`: [`Reflect::default_value`], then every key the file
/// has, and the load's [`LoadTextReport`]. The file's [`Document`] is filled as the
/// class's [`Reflect::load`] reads it ([`TokenBuffer::document`]): straight from the
/// text while it is in canonical form, through the tokenizer from the first line that
/// is not. The result is what [`load_text`] over [`Reflect::default_value`] gives.
///
/// `path` only labels errors. docs/design.md, sections 4.3 (the symmetric serialize)
/// and 2.6 (unknown keys kept).
///
/// ```
/// use std::path::Path;
/// use juliet_core::{from_text, TokenBuffer};
///
/// #[derive(juliet_derive::Entity, Debug, PartialEq)]
/// #[jasset(crate = ::juliet_core)] // `juliet_entities::Entity` needs no `crate`
/// struct Door {
///     #[jasset(default = 1.0)]
///     width: f32,
///     locked: bool,
/// }
///
/// let mut buffer = TokenBuffer::new();
/// let path = Path::new("door.jasset");
/// let (door, report) = from_text::<Door>(&mut buffer, b"; Locked\ntrue\n", path)?;
/// assert_eq!(door, Door { width: 1.0, locked: true });
/// assert!(report.direct() && report.unknown().is_empty());
///
/// let edited = b"# edited\n; Locked\nfalse\n; Color\nred\n";
/// let (door, report) = from_text::<Door>(&mut buffer, edited, path)?;
/// assert!(!report.direct() && !door.locked);
/// let color = report.unknown().iter().next().unwrap();
/// assert_eq!(color.key(), "Color"); // kept, to be written back
/// # Ok::<(), juliet_core::Error>(())
/// ```
///
/// # Errors
/// Those of [`TokenBuffer::tokenize`] and [`Reflect::load`], with path, line and
/// column; a tokenizer error anywhere in the file comes first, as in [`load_text`].
#[inline]
pub fn from_text<T: Reflect>(
    buffer: &mut TokenBuffer,
    bytes: &[u8],
    path: &Path,
) -> Result<(T, LoadTextReport), Error> {
    let mut value = T::default_value();
    let report = load_document(buffer.document(bytes, path)?, &mut value)?;
    Ok((value, report))
}

/// [`load_text`] and [`from_text`] once the document is made: `T`'s load is the one
/// generic step; what follows it ([`finish_load`]) is compiled once for every class.
#[inline]
fn load_document<T: Reflect>(doc: Document<'_>, value: &mut T) -> Result<LoadTextReport, Error> {
    let mut ar = Archive::loading(doc);
    let loaded = value.load(&mut ar);
    finish_load(&mut ar, loaded, T::CLASS)
}

/// The end of [`load_document`] after [`Reflect::load`] gave `loaded`: the document
/// read to the end, then the audit unless the file was read whole straight from its
/// text with nothing to report.
#[inline(never)]
fn finish_load(
    ar: &mut Archive<'_>,
    loaded: Result<(), Error>,
    class: &'static Class,
) -> Result<LoadTextReport, Error> {
    let doc = ar.document_mut().expect("loading");
    if let Err(err) = loaded {
        // An error met before the tokenizer read the whole file: its errors come first.
        doc.read_to_end()?;
        return Err(err);
    }
    doc.read_to_end()?;
    let direct = !doc.tokenized();
    let all_read = doc.unconsumed().next().is_none();
    if direct && all_read && ar.warnings().is_empty() {
        // Read whole in canonical form: every property bound, nothing to report.
        return Ok(LoadTextReport {
            direct,
            findings: None,
        });
    }
    Ok(audit(ar, direct, class))
}

/// The unconsumed-key audit of a load, out of line.
#[inline(never)]
fn audit(ar: &mut Archive<'_>, direct: bool, class: &'static Class) -> LoadTextReport {
    let doc = ar.document().expect("loading");
    let unknown = if doc.unconsumed().next().is_none() {
        UnknownProperties::new()
    } else {
        let known: Vec<&str> = class.known_keys().collect();
        ar.audit_unconsumed_suggesting(&known)
    };
    LoadTextReport::new(direct, ar.take_warnings(), unknown)
}
