//! [`Archive`]: one `serialize` call per field serves saving and loading
//! (docs/design.md, section 4.1), with two-tier versions (section 2.4), deprecated reads
//! (section 4.4) and the unconsumed-key audit (section 2.6).

use crate::codec::Codec;
use crate::crc::Key;
use crate::error::{Error, Warning, WarningKind};
use crate::token::Document;

mod unknown;
pub use unknown::{UnknownProperties, UnknownProperty};

/// The key every class writes its version under.
pub const CLASS_VERSION: Key = Key::new(juliet_key::CLASS_VERSION);

/// Which way an [`Archive`] moves data (docs/design.md, section 4.1; the format is text
/// only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveMode {
    /// Writing `.jasset` text.
    Saving,
    /// Reading a `.jasset` file's [`Document`].
    Loading,
}

enum Inner<'a> {
    Save(&'a mut String),
    Load(Document<'a>),
}

/// The serialization context: a text sink when saving, a file's [`Document`] when
/// loading, plus the two version tiers and the warnings gathered so far.
///
/// ```
/// use std::path::Path;
/// use juliet_core::{key, Archive, TokenBuffer};
///
/// #[derive(Default, PartialEq, Debug)]
/// struct Vehicle { max_speed: f32, gears: i32 }
///
/// fn serialize(ar: &mut Archive<'_>, v: &mut Vehicle) -> Result<(), juliet_core::Error> {
///     ar.serialize(key!("MaxSpeed"), &mut v.max_speed)?;
///     ar.serialize(key!("GearCount"), &mut v.gears)?;
///     Ok(())
/// }
///
/// let mut text = String::new();
/// serialize(&mut Archive::saving(&mut text), &mut Vehicle { max_speed: 120.0, gears: 6 })?;
/// assert_eq!(text, "; MaxSpeed\n120.0\n; GearCount\n6\n");
///
/// let mut buffer = TokenBuffer::new();
/// let doc = buffer.tokenize(text.as_bytes(), Path::new("vehicle.jasset"))?;
/// let mut loaded = Vehicle::default();
/// serialize(&mut Archive::loading(doc), &mut loaded)?;
/// assert_eq!(loaded, Vehicle { max_speed: 120.0, gears: 6 });
/// # Ok::<(), juliet_core::Error>(())
/// ```
pub struct Archive<'a> {
    inner: Inner<'a>,
    base_version: Option<u32>,
    class_version: Option<u32>,
    warnings: Vec<Warning>,
}

impl<'a> Archive<'a> {
    /// An archive that appends `.jasset` text to `out`.
    pub fn saving(out: &'a mut String) -> Archive<'a> {
        Archive {
            inner: Inner::Save(out),
            base_version: None,
            class_version: None,
            warnings: Vec::new(),
        }
    }

    /// An archive that reads the properties of `doc`.
    #[inline]
    pub fn loading(doc: Document<'a>) -> Archive<'a> {
        Archive {
            inner: Inner::Load(doc),
            base_version: None,
            class_version: None,
            warnings: Vec::new(),
        }
    }

    /// Saving or loading.
    pub fn mode(&self) -> ArchiveMode {
        match self.inner {
            Inner::Save(_) => ArchiveMode::Saving,
            Inner::Load(_) => ArchiveMode::Loading,
        }
    }

    /// Whether this archive writes.
    pub fn is_saving(&self) -> bool {
        self.mode() == ArchiveMode::Saving
    }

    /// Whether this archive reads.
    pub fn is_loading(&self) -> bool {
        self.mode() == ArchiveMode::Loading
    }

    /// Saves or loads one property.
    ///
    /// Saving writes `; Key` and the value and returns `Ok(true)`. Loading finds the key
    /// (under any spelling), decodes it into `value`, marks it consumed and returns
    /// `Ok(true)`; a missing key leaves `value` as it was (its default) and returns
    /// `Ok(false)`.
    ///
    /// # Errors
    /// When loading, [`crate::ErrorKind::BadValue`] at the value's line and column, and
    /// the tokenizer's errors for a document still being filled
    /// ([`Document::complete`]).
    pub fn serialize<T: Codec>(&mut self, key: Key, value: &mut T) -> Result<bool, Error> {
        match &mut self.inner {
            Inner::Save(out) => {
                write_property(out, key.name, value);
                Ok(true)
            }
            Inner::Load(doc) => {
                doc.complete()?;
                match doc.find(key) {
                    Some(index) => doc.decode_into(index, value).map(|()| true),
                    None => Ok(false),
                }
            }
        }
    }

    /// Reads a deprecated key for a migration (docs/design.md, section 4.4): `None` when
    /// saving or when the file lacks the key. Deprecated keys are never written.
    ///
    /// # Errors
    /// [`crate::ErrorKind::BadValue`] when the value does not parse as `T`;
    /// [`Document::complete`]'s errors.
    pub fn read_deprecated<T: Codec>(&mut self, key: &str) -> Result<Option<T>, Error> {
        match &mut self.inner {
            Inner::Save(_) => Ok(None),
            Inner::Load(doc) => {
                doc.complete()?;
                match doc.find_name(key) {
                    Some(index) => doc.decode(index).map(Some),
                    None => Ok(None),
                }
            }
        }
    }

    /// The document being loaded (`None` when saving).
    #[inline]
    pub fn document(&self) -> Option<&Document<'a>> {
        match &self.inner {
            Inner::Load(doc) => Some(doc),
            Inner::Save(_) => None,
        }
    }

    /// The document being loaded, mutably (to decode and consume nodes).
    #[inline]
    pub fn document_mut(&mut self) -> Option<&mut Document<'a>> {
        match &mut self.inner {
            Inner::Load(doc) => Some(doc),
            Inner::Save(_) => None,
        }
    }

    /// The text sink (`None` when loading).
    pub fn output(&mut self) -> Option<&mut String> {
        match &mut self.inner {
            Inner::Save(out) => Some(out),
            Inner::Load(_) => None,
        }
    }

    /// Consumes the archive, giving back the loaded document.
    pub fn into_document(self) -> Option<Document<'a>> {
        match self.inner {
            Inner::Load(doc) => Some(doc),
            Inner::Save(_) => None,
        }
    }

    /// The file's `BaseVersion` (engine tier), once the base loader has read it.
    pub fn base_version(&self) -> Option<u32> {
        self.base_version
    }

    /// Records the base-tier version.
    pub fn set_base_version(&mut self, version: u32) {
        self.base_version = Some(version);
    }

    /// The file's `ClassVersion` (derived tier), once read.
    pub fn class_version(&self) -> Option<u32> {
        self.class_version
    }

    /// Records the derived-tier version.
    pub fn set_class_version(&mut self, version: u32) {
        self.class_version = Some(version);
    }

    /// The derived-tier version of the file for a class whose code is at `code_version`
    /// (docs/design.md, section 2.4): the recorded one, else the file's `ClassVersion` key
    /// (consumed), else `code_version`. A version newer than the code adds a
    /// [`WarningKind::NewerClassVersion`] warning. When saving, `code_version`.
    ///
    /// A document still being filled is read to the end first: classes call this after
    /// their walk over the properties ([`crate::Properties`]).
    ///
    /// # Errors
    /// [`crate::ErrorKind::BadValue`] when `ClassVersion` is not a `u32`;
    /// [`Document::read_to_end`]'s errors.
    pub fn resolve_class_version(&mut self, code_version: u32) -> Result<u32, Error> {
        if let Some(v) = self.class_version {
            return Ok(v);
        }
        let Inner::Load(doc) = &mut self.inner else {
            return Ok(code_version);
        };
        doc.read_to_end()?;
        let found = match doc.version_node() {
            Some(index) => {
                doc.consume(index);
                Some(index)
            }
            // Read whole in canonical form: every node is a property or `ClassVersion`.
            None if !doc.tokenized() => None,
            None => doc.find(CLASS_VERSION),
        };
        let version = match found {
            Some(index) => {
                let v: u32 = doc.decode(index)?;
                if v > code_version {
                    let w = Warning::at_node(
                        doc,
                        index,
                        WarningKind::NewerClassVersion {
                            file: v,
                            code: code_version,
                        },
                    );
                    self.warn(w);
                }
                v
            }
            None => code_version,
        };
        self.class_version = Some(version);
        Ok(version)
    }

    /// Records a warning (also logged through `tracing`).
    pub fn warn(&mut self, warning: Warning) {
        tracing::warn!("{warning}");
        self.warnings.push(warning);
    }

    /// The warnings recorded so far.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Takes the warnings recorded so far.
    pub fn take_warnings(&mut self) -> Vec<Warning> {
        std::mem::take(&mut self.warnings)
    }

    /// The unconsumed-key audit (docs/design.md, section 2.6): every property no reader
    /// consumed, returned as data (to write back on save) and recorded as an
    /// [`WarningKind::UnknownKey`] warning each, up to [`UNKNOWN_KEY_WARNINGS`]; the rest
    /// of the file's unknown keys are counted in one [`WarningKind::UnknownKeysNotListed`]
    /// warning at the first of them. Empty when saving.
    ///
    /// # Panics
    /// When the document is not read to the end ([`Document::read_to_end`]; it is after
    /// a derived class's `load`).
    pub fn audit_unconsumed(&mut self) -> UnknownProperties {
        self.audit_unconsumed_suggesting(&[])
    }

    /// [`Archive::audit_unconsumed`], each warning suggesting the closest of `known`
    /// (the keys the file's class and its loader read: see [`crate::did_you_mean`]).
    pub fn audit_unconsumed_suggesting(&mut self, known: &[&str]) -> UnknownProperties {
        let Inner::Load(doc) = &self.inner else {
            return UnknownProperties::new();
        };
        let unknown = UnknownProperties::from_document(doc, doc.unconsumed());
        let path = doc.path();
        let mut warnings = Vec::new();
        for (listed, i) in doc.unconsumed().enumerate() {
            let n = doc.node(i);
            let key = doc.key(i);
            if listed == UNKNOWN_KEY_WARNINGS {
                warnings.push(Warning::new(
                    path,
                    n.line,
                    n.column,
                    None,
                    WarningKind::UnknownKeysNotListed {
                        count: unknown.len() - UNKNOWN_KEY_WARNINGS,
                    },
                ));
                break;
            }
            warnings.push(
                Warning::at_node(doc, i, WarningKind::UnknownKey(key.to_owned()))
                    .with_suggestion(crate::did_you_mean(key, known.iter().copied())),
            );
        }
        for w in warnings {
            self.warn(w);
        }
        unknown
    }
}

/// How many unknown keys of one file get a warning each (the unconsumed-key audit of
/// every loader, [`Archive::audit_unconsumed`]); past it one
/// [`WarningKind::UnknownKeysNotListed`] warning counts the rest, as a compiler stops
/// listing errors, so a file of a million unknown keys does not make a million
/// warnings. Every unknown key is still kept and written back.
pub const UNKNOWN_KEY_WARNINGS: usize = 100;

/// Appends the block header `; key\n`.
pub fn write_header(out: &mut String, key: &str) {
    out.push_str("; ");
    out.push_str(key);
    out.push('\n');
}

/// Appends a whole property in canonical block form: `; key\n`, the value, `\n`.
pub fn write_property<T: Codec>(out: &mut String, key: &str, value: &T) {
    write_header(out, key);
    value.encode(out);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{key, TokenBuffer};
    use std::path::Path;

    /// An archive loading `text`, read into `buf` as the file `path`.
    fn loading<'b>(buf: &'b mut TokenBuffer, text: &'b [u8], path: &'b str) -> Archive<'b> {
        Archive::loading(buf.tokenize(text, Path::new(path)).unwrap())
    }

    #[test]
    fn loading_missing_key_keeps_default_and_returns_false() {
        let mut buf = TokenBuffer::new();
        let mut ar = loading(&mut buf, b"; A\n1\n", "x");
        let mut b = 7i32;
        assert!(!ar.serialize(key!("B"), &mut b).unwrap());
        assert_eq!(b, 7);
        let mut a = 0i32;
        assert!(ar.serialize(key!("a"), &mut a).unwrap());
        assert_eq!(a, 1);
    }

    #[test]
    fn bad_value_error_is_located() {
        let mut buf = TokenBuffer::new();
        let mut ar = loading(&mut buf, b"# c\n; Mass\n   12.5kg\n", "rock.jasset");
        let err = ar.serialize(key!("Mass"), &mut 0.0f32).unwrap_err();
        assert_eq!((err.location.line, err.location.column), (3, 4));
        assert_eq!(err.key.as_deref(), Some("Mass"));
        assert_eq!(
            err.to_string(),
            "rock.jasset:3:4: error: `Mass`: expected f32, found \"12.5kg\": not a valid number"
        );
    }

    #[test]
    fn vector_component_error_points_at_component() {
        let mut buf = TokenBuffer::new();
        let mut ar = loading(&mut buf, b"Position: 1.0, oops, 3.0\n", "p");
        let err = ar
            .serialize(key!("Position"), &mut glam::Vec3::default())
            .unwrap_err();
        assert_eq!((err.location.line, err.location.column), (1, 16));
    }

    #[test]
    fn deprecated_reads_and_audit() {
        let mut buf = TokenBuffer::new();
        let mut ar = loading(
            &mut buf,
            b"; ClassVersion\n1\n; Speed\n75.5\n; Extra\nx\ny\n",
            "w",
        );
        assert_eq!(ar.resolve_class_version(2).unwrap(), 1);
        assert_eq!(ar.read_deprecated::<f32>("speed").unwrap(), Some(75.5));
        assert_eq!(ar.read_deprecated::<f32>("Missing").unwrap(), None);
        let unknown = ar.audit_unconsumed();
        assert_eq!(unknown.len(), 1);
        let extra = unknown.iter().next().unwrap();
        assert_eq!(extra.key(), "Extra");
        assert_eq!(extra.lines().collect::<Vec<_>>(), ["x", "y"]);
        assert_eq!(ar.warnings().len(), 1);
        let mut out = String::new();
        extra.write(&mut out);
        assert_eq!(out, "; Extra\nx\ny\n");
    }

    /// Fuzz finding (tests/fuzz-regressions/tokenize/unknown-value-starting-with-hash):
    /// a one-line value that starts with `#`, `//` or `;` was written in block form,
    /// where it reads back as a comment or a header, so the saved file lost the value
    /// and no longer loaded.
    #[test]
    fn unknown_value_that_looks_like_a_comment_header_or_conflict_survives() {
        for src in [
            "Note: # not a comment\n",
            "; Note: // nor this\n",
            "Note: ; nor a header\n",
            "Note:=======\n",
            "; Note: >>>>>>> nor a conflict\n",
        ] {
            let mut buf = TokenBuffer::new();
            let doc = buf.tokenize(src.as_bytes(), Path::new("n")).unwrap();
            let unknown = UnknownProperties::from_document(&doc, 0..1);
            let mut out = String::new();
            unknown.write(&mut out);
            let mut again = TokenBuffer::new();
            let doc = again.tokenize(out.as_bytes(), Path::new("n")).unwrap();
            assert_eq!(
                UnknownProperties::from_document(&doc, 0..1),
                unknown,
                "{out}"
            );
            assert_eq!(doc.len(), 1);
        }
    }

    #[test]
    fn newer_class_version_warns() {
        let mut buf = TokenBuffer::new();
        let mut ar = loading(&mut buf, b"; ClassVersion\n9\n", "n");
        assert_eq!(ar.resolve_class_version(2).unwrap(), 9);
        assert_eq!(
            ar.warnings()[0].kind,
            WarningKind::NewerClassVersion { file: 9, code: 2 }
        );
    }

    #[test]
    fn saving_never_reads_deprecated() {
        let mut out = String::new();
        let mut ar = Archive::saving(&mut out);
        assert_eq!(ar.read_deprecated::<f32>("Speed").unwrap(), None);
        assert!(ar.is_saving());
    }
}
