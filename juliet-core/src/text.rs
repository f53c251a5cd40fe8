//! Loading one value from a file's text: [`load_text`] over a value the caller keeps and
//! [`from_text`] into a new one. Each tries the direct path ([`crate::direct`]) on a
//! file in the writer's canonical form and loads every other file through the tokenizer,
//! [`Reflect::load`] and the unconsumed-key audit, with the same results; the report
//! ([`LoadTextReport`]) says which ran. docs/design.md, section 4.3.

use std::path::Path;

use crate::archive::{Archive, UnknownProperties};
use crate::class::Reflect;
use crate::direct::DirectCursor;
use crate::error::{Error, Warning};
use crate::token::{Document, TokenBuffer};

/// What a load reported besides the values (see [`load_text`] and [`from_text`]): how
/// the file was read, its warnings and its unknown properties. Two words (checked at
/// compile time); nothing is allocated when there are no warnings and no unknown keys
/// (every file the direct path reads). docs/design.md, section 2.6 (unknown keys kept).
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
    /// The report of a file the direct path read: nothing to report.
    const DIRECT: LoadTextReport = LoadTextReport {
        direct: true,
        findings: None,
    };

    /// A report of a load: `direct` when the direct path read the file (else the
    /// tokenizer and [`Archive`]), with its `warnings` and `unknown` properties.
    pub fn new(direct: bool, warnings: Vec<Warning>, unknown: UnknownProperties) -> Self {
        let findings = (!warnings.is_empty() || !unknown.is_empty())
            .then(|| Box::new(Findings { warnings, unknown }));
        LoadTextReport { direct, findings }
    }

    /// Whether the direct path read the file (`false`: tokenizer and [`Archive`]).
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

/// Loads the file `bytes` over `value` (missing keys keep their current values): first
/// through [`Reflect::load_direct`], and when that declines, by tokenizing the file into
/// `buffer` (from the scan the direct path made: the bytes are checked once) and
/// running [`Reflect::load`] over an [`Archive`], then the unconsumed-key audit. Both
/// ways give the same values, warnings, unknown properties and errors
/// (`tests/tests/direct_load_equivalence.rs` checks this on mutated files).
///
/// `path` only labels errors.
///
/// # Errors
/// Those of [`TokenBuffer::tokenize`] and [`Reflect::load`], with path, line and column.
/// On error `value` may be partly loaded, exactly as [`Reflect::load`] alone leaves it
/// (for a derived class; a hand-written [`Reflect::load_direct`] must decline without
/// writing, see there).
pub fn load_text<T: Reflect>(
    buffer: &mut TokenBuffer,
    bytes: &[u8],
    path: &Path,
    value: &mut T,
) -> Result<LoadTextReport, Error> {
    let Some(src) = buffer.scan_direct(bytes) else {
        return load_tokenized(buffer.tokenize(bytes, path)?, value);
    };
    let mut cursor = DirectCursor::new(src, buffer.masks());
    // A file that does not start with a header (a comment, a blank line, a compact
    // property) is not in canonical form: no attempt.
    let canonical_start = src.as_bytes().first().is_none_or(|&b| b == b';');
    if canonical_start && value.load_direct(&mut cursor) && cursor.is_done() {
        return Ok(LoadTextReport::DIRECT);
    }
    load_tokenized(buffer.tokenize_scanned(src, path)?, value)
}

/// A new `T` from the file `bytes`: [`Reflect::default_value`] (made once), then every
/// key the file has, and the load's [`LoadTextReport`]. A file in canonical form is read
/// through [`Reflect::load_direct_fresh`] (decoding as it goes, no find-everything-first
/// pass); any other file, or one that path declines part way, is loaded over the same
/// value through the tokenizer (into `buffer`), [`Reflect::load`] and the
/// unconsumed-key audit: the properties the direct path read hold the file's own values,
/// which [`Reflect::load`] writes again (every [`Codec::decode_into`](crate::Codec::decode_into) replaces the
/// value). Both ways give what [`load_text`] over [`Reflect::default_value`] gives
/// (`tests/tests/direct_load_equivalence.rs`, `tests/tests/from_text_hostile.rs`).
///
/// `path` only labels errors. docs/design.md, sections 4.3 (the symmetric serialize,
/// here straight from the text) and 2.6 (unknown keys kept).
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
/// Those of [`TokenBuffer::tokenize`] and [`Reflect::load`], with path, line and column.
/// The partly loaded value is dropped; it may hold values the direct path read from
/// the file before it declined (a tokenizer error further on).
#[inline]
pub fn from_text<T: Reflect>(
    buffer: &mut TokenBuffer,
    bytes: &[u8],
    path: &Path,
) -> Result<(T, LoadTextReport), Error> {
    let mut value = T::default_value();
    let scanned = buffer.scan_direct(bytes);
    if let Some(src) = scanned {
        // As in `load_text`: a file that does not start with a header is not attempted.
        if src.as_bytes().first().is_none_or(|&b| b == b';') {
            let mut cursor = DirectCursor::new(src, buffer.masks());
            if value.load_direct_fresh(&mut cursor) && cursor.is_done() {
                return Ok((value, LoadTextReport::DIRECT));
            }
        }
    }
    // Declined, perhaps part way: the properties read so far hold the file's own
    // values, which the general path writes again.
    from_text_general(buffer, bytes, scanned, path, value)
}

/// [`from_text`]'s general path, out of line: `value` (the default value, perhaps with
/// some properties read from this file) loaded through the tokenizer (from the direct
/// path's scan when there is one) and [`load_tokenized`]. `from_text` does not share
/// `load_text`'s body through a `&mut T` helper: the value then lives behind a pointer
/// and is moved into the result, which cost 110 instructions a record (2,779 against
/// 2,670, the core bench's `Unit`).
#[cold]
#[inline(never)]
fn from_text_general<T: Reflect>(
    buffer: &mut TokenBuffer,
    bytes: &[u8],
    scanned: Option<&str>,
    path: &Path,
    mut value: T,
) -> Result<(T, LoadTextReport), Error> {
    let doc = match scanned {
        Some(src) => buffer.tokenize_scanned(src, path)?,
        None => buffer.tokenize(bytes, path)?,
    };
    let report = load_tokenized(doc, &mut value)?;
    Ok((value, report))
}

/// [`load_text`]'s general path, out of line.
#[inline(never)]
fn load_tokenized<T: Reflect>(doc: Document<'_>, value: &mut T) -> Result<LoadTextReport, Error> {
    let mut ar = Archive::loading(doc);
    value.load(&mut ar)?;
    let known: Vec<&str> = T::CLASS.known_keys().collect();
    let unknown = ar.audit_unconsumed_suggesting(&known);
    Ok(LoadTextReport::new(false, ar.take_warnings(), unknown))
}
