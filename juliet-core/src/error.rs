//! The one error type of the format and runtime, and the warning type.
//!
//! Every [`Error`] says what (its [`ErrorKind`]), where (its [`Location`],
//! `path:line:column`, 1-based, columns counted in characters) and for which key.
//! `Display` renders `path:line:col: error: message`, the form editors and
//! `jasset check` understand; a [`Warning`] is located and rendered the same way.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How [`ValueErrorKind`] and error texts quote what was found: at most this many
/// characters, then `...`.
const FOUND_LIMIT: usize = 48;

/// A located error: a bad file, a bad value, a failed load. Boxed (one pointer wide) so
/// that `Result<_, Error>` stays small on the loading hot path; its fields are read
/// through [`ErrorInfo`] (`err.location.line`, `err.kind`, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    info: Box<ErrorInfo>,
}

/// Where an [`Error`] or a [`Warning`] is: a file and a place in it. `Display` renders
/// `path:line:column`; the order (derived) is by path, then line, then column, the
/// order of a listing.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Location {
    /// The file (empty when the input had no path, e.g. a string).
    pub path: PathBuf,
    /// 1-based line; 0 when it is about the whole file (I/O, size).
    pub line: u32,
    /// 1-based column in characters; 0 when it is about the whole file.
    pub column: u32,
}

impl Location {
    /// Line `line`, column `column` of `path` (both 1-based; 0 and 0 for the whole file).
    pub fn new(path: impl Into<PathBuf>, line: u32, column: u32) -> Location {
        Location {
            path: path.into(),
            line,
            column,
        }
    }
}

impl fmt::Display for Location {
    /// `path:line:column` (the path as [`Path::display`] shows it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.path.display(), self.line, self.column)
    }
}

/// The fields of an [`Error`].
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorInfo {
    /// The file and the place in it.
    pub location: Location,
    /// The property key involved, as written in the file, if any.
    pub key: Option<String>,
    /// What went wrong.
    pub kind: ErrorKind,
    /// The likely intended spelling (of a key, a kind, a directive), printed as
    /// `(did you mean `X`?)`.
    pub suggestion: Option<String>,
    /// Further problems of the same file, found after this one (a loader that stops at
    /// a bad value still checks the file's other values), each with its own location;
    /// not part of this error's message. [`Error::into_all`] lists them all.
    pub more: Vec<Error>,
}

impl std::ops::Deref for Error {
    type Target = ErrorInfo;
    fn deref(&self) -> &ErrorInfo {
        &self.info
    }
}

impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut ErrorInfo {
        &mut self.info
    }
}

impl Error {
    /// An error at `path:line:column`.
    pub fn new(path: impl Into<PathBuf>, line: u32, column: u32, kind: ErrorKind) -> Error {
        Error {
            info: Box::new(ErrorInfo {
                location: Location::new(path, line, column),
                key: None,
                kind,
                suggestion: None,
                more: Vec::new(),
            }),
        }
    }

    /// An error about a whole file (line and column 0, printed as `path:0:0`).
    pub fn file(path: impl Into<PathBuf>, kind: ErrorKind) -> Error {
        Error::new(path, 0, 0, kind)
    }

    /// Names the key the error is about.
    pub fn with_key(mut self, key: impl Into<String>) -> Error {
        self.info.key = Some(key.into());
        self
    }

    /// Adds the likely intended spelling ([`ErrorInfo::suggestion`]), when there is one.
    pub fn with_suggestion(mut self, suggestion: Option<&str>) -> Error {
        self.info.suggestion = suggestion.map(str::to_owned);
        self
    }

    /// Sets the path (for errors made before the path was known).
    pub fn with_path(mut self, path: impl Into<PathBuf>) -> Error {
        self.info.location.path = path.into();
        self
    }

    /// An I/O error about `path`.
    pub fn io(path: impl Into<PathBuf>, err: std::io::Error) -> Error {
        Error::file(path, ErrorKind::Io(Arc::new(err)))
    }

    /// Adds further problems of the same file ([`ErrorInfo::more`]).
    pub fn with_more(mut self, more: impl IntoIterator<Item = Error>) -> Error {
        self.info.more.extend(more);
        self
    }

    /// This error and every further problem of its file ([`ErrorInfo::more`]), in the
    /// order found, each without further problems of its own.
    pub fn into_all(mut self) -> Vec<Error> {
        let more = std::mem::take(&mut self.info.more);
        let mut all = Vec::with_capacity(1 + more.len());
        all.push(self);
        for e in more {
            all.extend(e.into_all());
        }
        all
    }

    /// The fields, owned.
    pub fn into_info(self) -> ErrorInfo {
        *self.info
    }
}

impl fmt::Display for Error {
    /// `path:line:col: error: message`; just `error: message` for errors with no file
    /// (such as a duplicate class at registry start-up).
    /// Control characters of the file name, key or message (a `Kind` value written
    /// with a line break, an escape sequence) are escaped ([`escape_controls`]), so
    /// that one error is always one line and cannot paint the terminal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        let mut f = EscapeControls(f);
        let at = &self.location;
        if !(at.path.as_os_str().is_empty() && at.line == 0) {
            write!(f, "{at}: ")?;
        }
        let (key, suggestion) = (self.key.as_deref(), self.suggestion.as_deref());
        write_message(&mut f, "error", key, &self.kind, suggestion)
    }
}

/// The message of an [`Error`] or a [`Warning`], after its location:
/// ``level: `key`: kind (did you mean `X`?)``, the key and the suggestion when there
/// are some.
fn write_message(
    f: &mut impl fmt::Write,
    level: &str,
    key: Option<&str>,
    kind: &dyn fmt::Display,
    suggestion: Option<&str>,
) -> fmt::Result {
    write!(f, "{level}: ")?;
    if let Some(key) = key {
        write!(f, "`{key}`: ")?;
    }
    write!(f, "{kind}")?;
    match suggestion {
        Some(s) => write!(f, " (did you mean `{s}`?)"),
        None => Ok(()),
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Io(err) => Some(err.as_ref()),
            _ => None,
        }
    }
}

/// What went wrong. Each variant is one entry of the error catalogue in
/// `docs/jasset-format.md`.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file could not be read or written.
    #[error("I/O error: {0}")]
    Io(Arc<std::io::Error>),
    /// The file is larger than the configured limit; it was not read whole.
    #[error("file is {size} bytes, over the limit of {limit} bytes")]
    FileTooLarge {
        /// Size of the file in bytes.
        size: u64,
        /// The configured limit in bytes.
        limit: u64,
    },
    /// The bytes are not UTF-8.
    #[error("invalid UTF-8 (a .jasset file must be UTF-8 text)")]
    InvalidUtf8,
    /// A NUL byte: the file is binary, not text.
    #[error("NUL byte in text (a .jasset file must be text)")]
    NulByte,
    /// A header or compact line whose key is not an identifier `[A-Za-z_][A-Za-z0-9_]*`.
    #[error("invalid key {found:?}: keys are identifiers [A-Za-z_][A-Za-z0-9_]*")]
    InvalidKey {
        /// The text in the key position (shortened).
        found: String,
    },
    /// A value line outside any property block.
    #[error("value line {found:?} has no open property (write `; Key` above it, or `Key: value`)")]
    ValueWithoutProperty {
        /// The line (shortened).
        found: String,
    },
    /// A header (`; Key`, `; Key:` or `Key:`) with no value.
    #[error("property has no value")]
    HeaderWithoutValue,
    /// A merge conflict marker line (`<<<<<<<`, `|||||||`, `=======` or `>>>>>>>`, seven
    /// characters alone or followed by a blank): an unresolved conflict of a merge.
    #[error("unresolved merge conflict: `{marker}` line (keep the lines of one side and delete the marker lines)")]
    ConflictMarker {
        /// The marker (its seven characters).
        marker: String,
    },
    /// A key written twice in one file (under any spelling).
    #[error("duplicate key: first written on line {first_line}")]
    DuplicateKey {
        /// 1-based line of the first occurrence.
        first_line: u32,
    },
    /// A value that does not parse as its property's type, or (with the reason
    /// [`ValueErrorKind::NotInVariant`], printed alone) a field an enum's variant in use
    /// does not have.
    #[error("{}", bad_value(expected, found, reason))]
    BadValue {
        /// The expected type, e.g. `f32`, `3 floats`, `Inert | Projectile`.
        expected: String,
        /// The text found (shortened).
        found: String,
        /// Why it does not parse.
        reason: ValueErrorKind,
    },
    /// A required key is missing (e.g. `Kind` with no `Template`).
    #[error("missing required key `{0}`")]
    MissingKey(&'static str),
    /// `Kind` names a class no registered type has.
    #[error("unknown kind `{0}`: no registered class has this name")]
    UnknownKind(String),
    /// Two registered classes share a name or a name CRC.
    #[error("class `{first}` and class `{second}` have the same name or name CRC ({crc:#010X})")]
    DuplicateClass {
        /// The first class's Rust type.
        first: &'static str,
        /// The second class's Rust type.
        second: &'static str,
        /// The shared CRC.
        crc: u32,
    },
    /// Two files carry the same `EntityID`.
    #[error("EntityID {id:#018X} is also used by {}", other.display())]
    DuplicateEntityId {
        /// The duplicated id.
        id: u64,
        /// The other file.
        other: PathBuf,
    },
    /// The file's `AssetType` is not one this loader accepts.
    #[error("asset type `{found}` where `{expected}` was expected")]
    WrongAssetType {
        /// What the loader accepts.
        expected: &'static str,
        /// What the file says.
        found: String,
    },
    /// A `Template` reference that cannot be used.
    #[error("template `{path}`: {reason}")]
    Template {
        /// The template path as written.
        path: String,
        /// Why it cannot be used.
        reason: String,
    },
    /// An instance's `Kind` differs from its template's.
    #[error("kind `{found}` differs from its template's kind `{template}`")]
    KindMismatch {
        /// The instance's kind.
        found: String,
        /// The template's kind.
        template: String,
    },
    /// A migration function failed.
    #[error("migration from class version {from} failed: {reason}")]
    Migration {
        /// The file's class version.
        from: u32,
        /// Why.
        reason: String,
    },
    /// A property key the class does not have (in reflection calls).
    #[error("class `{class}` has no property `{key}`")]
    NoSuchProperty {
        /// The class name.
        class: &'static str,
        /// The key asked for.
        key: String,
    },
    /// An entity id that is not alive.
    #[error("no entity with id {0:#018X}")]
    NoSuchEntity(u64),
    /// A template call (revert, overrides) on an entity that is no template's instance.
    #[error(
        "entity {0:#018X} is not an instance of a template (only an instance's properties \
         revert to a template's values)"
    )]
    NotAnInstance(u64),
    /// A class used as an entity kind has a property, alias or deprecated key spelled
    /// like one of the entity file's base keys (`Position`, `EntityID`/`id`,
    /// `Kind`/`class`/`entity_type`, ...), which the base tier would take: the class
    /// is refused instead of losing that property's value.
    #[error(
        "class `{class}` has a property keyed `{key}`, which entity files reserve for \
         the base key `{base}`: give the field another key (#[jasset(rename = \"...\")])"
    )]
    ReservedKey {
        /// The class name.
        class: &'static str,
        /// The class's key, as it spells it.
        key: &'static str,
        /// The base key it collides with (canonical spelling).
        base: &'static str,
    },
}

impl PartialEq for ErrorKind {
    fn eq(&self, other: &ErrorKind) -> bool {
        // I/O errors compare by kind; everything else by its rendered message, which
        // holds every field.
        match (self, other) {
            (ErrorKind::Io(a), ErrorKind::Io(b)) => a.kind() == b.kind(),
            _ => {
                std::mem::discriminant(self) == std::mem::discriminant(other)
                    && self.to_string() == other.to_string()
            }
        }
    }
}

/// Why a value did not parse (the `reason` of [`ErrorKind::BadValue`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValueErrorKind {
    /// Not a number of the expected kind.
    #[error("not a valid number")]
    InvalidNumber,
    /// A number outside the type's range.
    #[error("out of range for {0}")]
    OutOfRange(&'static str),
    /// Neither `true`/`false` nor `1`/`0`.
    #[error("expected true, false, 1 or 0")]
    InvalidBool,
    /// A vector with the wrong number of components.
    #[error("expected {expected} components, found {found}")]
    ComponentCount {
        /// How many the type has.
        expected: usize,
        /// How many were written.
        found: usize,
    },
    /// A quoted string with no closing quote.
    #[error("unterminated quoted string")]
    UnterminatedQuote,
    /// A backslash escape the format does not define.
    #[error("unknown escape `\\{0}` (known: \\\" \\\\ \\n \\t \\r \\u{{hex}})")]
    UnknownEscape(char),
    /// Text after a closing quote.
    #[error("unexpected text after the closing quote")]
    TrailingCharacters,
    /// A single-line type given several value lines, or none (a value that is all
    /// comment).
    #[error("{}", expected_one_line(*.0))]
    ExpectedOneLine(usize),
    /// A unit enum variant name that does not exist.
    #[error("unknown variant")]
    UnknownVariant,
    /// A `char` value that is not exactly one character.
    #[error("expected exactly one character")]
    NotOneChar,
    /// A line of a map or a record without the `key: value` colon, or with nothing on
    /// one side of it.
    #[error("expected a `key: value` entry")]
    ExpectedEntry,
    /// A map key, a set element, a record's leaf or an enum's field written twice.
    #[error("written twice in this value")]
    DuplicateEntry,
    /// A field of an enum with data that the variant in use does not have
    /// (`Trigger.Radius` after `Trigger: Timer`): the value may be right, its place is
    /// not.
    #[error(
        "`{field}` is a field of {owners}, not of `{in_use}`, the variant in use: write \
         the variant {owners} before it",
        owners = names_or(owners)
    )]
    NotInVariant {
        /// The field's key.
        field: String,
        /// The variants that have a field of that key.
        owners: Vec<String>,
        /// The variant in use.
        in_use: String,
    },
    /// A codec-specific reason.
    #[error("{0}")]
    Custom(String),
}

/// The message of [`ErrorKind::BadValue`]: what was expected and found, then why; the
/// reason alone when it is about the value's place, not its text
/// ([`ValueErrorKind::NotInVariant`]).
fn bad_value(expected: &str, found: &str, reason: &ValueErrorKind) -> String {
    match reason {
        ValueErrorKind::NotInVariant { .. } => reason.to_string(),
        _ => format!("expected {expected}, found {found:?}: {reason}"),
    }
}

/// `names` quoted and joined with ` or ` (`` `OnTouch` or `Proximity` ``).
fn names_or(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// The message of [`ValueErrorKind::ExpectedOneLine`]: with its likely cause, a
/// `Key: value` line read as a value line of the block above it, or a value that reads
/// as a comment.
fn expected_one_line(found: usize) -> String {
    match found {
        0 => "expected one value line, found none (a line starting with `#` or `//` is a \
              comment)"
            .to_owned(),
        n => format!(
            "expected one value line, found {n} (the type is written on one line; a \
             `Key: value` line under a `; Key` block is one of that block's value lines)"
        ),
    }
}

/// Shortens `text` for an error message (at most 48 characters, then `...`).
pub(crate) fn shorten(text: &str) -> String {
    match text.char_indices().nth(FOUND_LIMIT) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_owned(),
    }
}

/// `text` with its control characters escaped as Rust writes them: `\n`, `\r`, `\t`,
/// and `\u{1b}` for the others (an ANSI escape, a NUL). What a file holds (a `Kind` or
/// `Template` value, a file name) reaches messages through this, so that a value cannot
/// start a line that looks like another diagnostic, nor colour the terminal.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let _ = fmt::Write::write_str(&mut EscapeControls(&mut out), text);
    std::borrow::Cow::Owned(out)
}

/// A writer that escapes control characters on their way to `W` (see
/// [`escape_controls`]).
struct EscapeControls<W>(W);

impl<W: fmt::Write> fmt::Write for EscapeControls<W> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        let mut rest = text;
        while let Some(at) = rest.find(char::is_control) {
            self.0.write_str(&rest[..at])?;
            let c = rest[at..].chars().next().expect("found at `at`");
            match c {
                '\n' => self.0.write_str("\\n")?,
                '\r' => self.0.write_str("\\r")?,
                '\t' => self.0.write_str("\\t")?,
                c => write!(self.0, "\\u{{{:x}}}", u32::from(c))?,
            }
            rest = &rest[at + c.len_utf8()..];
        }
        self.0.write_str(rest)
    }
}

/// A located warning: an unknown key, a newer class version. Loading goes on.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    /// The key involved, as written.
    pub key: Option<String>,
    /// What it is about.
    pub kind: WarningKind,
    /// The file and the place in it (line and column 0: the whole file).
    pub location: Location,
    /// The likely intended spelling (of an unknown key), printed as
    /// `(did you mean `X`?)`.
    pub suggestion: Option<String>,
}

impl Warning {
    /// A warning at `path:line:column` about `key`.
    pub fn new(
        path: &Path,
        line: u32,
        column: u32,
        key: Option<&str>,
        kind: WarningKind,
    ) -> Warning {
        Warning {
            key: key.map(str::to_owned),
            kind,
            location: Location::new(path, line, column),
            suggestion: None,
        }
    }

    /// A warning at node `index` of `doc` (its line and column) about its key.
    pub fn at_node(doc: &crate::Document<'_>, index: usize, kind: WarningKind) -> Warning {
        let n = doc.node(index);
        Warning::new(doc.path(), n.line, n.column, Some(doc.key(index)), kind)
    }

    /// Adds the likely intended spelling ([`Warning::suggestion`]), when there is one.
    pub fn with_suggestion(mut self, suggestion: Option<&str>) -> Warning {
        self.suggestion = suggestion.map(str::to_owned);
        self
    }
}

impl fmt::Display for Warning {
    /// As [`Error`]'s: `path:line:col: warning: message`, control characters escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        let mut f = EscapeControls(f);
        write!(f, "{}: ", self.location)?;
        let (key, suggestion) = (self.key.as_deref(), self.suggestion.as_deref());
        write_message(&mut f, "warning", key, &self.kind, suggestion)
    }
}

/// What a [`Warning`] is about.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WarningKind {
    /// A key no property of the class reads; it is kept and written back on save.
    #[error("unknown key `{0}` (kept and written back on save)")]
    UnknownKey(String),
    /// More unknown keys in the file than get a warning each
    /// ([`crate::archive::UNKNOWN_KEY_WARNINGS`]): `count` more, kept and written back
    /// like the listed ones.
    #[error("{count} more unknown keys (kept and written back on save, not listed)")]
    UnknownKeysNotListed {
        /// Unknown keys of the file without a warning of their own.
        count: usize,
    },
    /// The file's `ClassVersion` is newer than the code's class version.
    #[error("class version {file} is newer than this build's version {code}")]
    NewerClassVersion {
        /// Version in the file.
        file: u32,
        /// Version in the code.
        code: u32,
    },
    /// The file's `BaseVersion` is newer than the engine's base version.
    #[error("base version {file} is newer than this build's version {code}")]
    NewerBaseVersion {
        /// Version in the file.
        file: u32,
        /// Version in the code.
        code: u32,
    },
    /// A reference (an [`crate::PropertyType::Reference`] value) to an id no entity of
    /// the world has.
    #[error("refers to entity {id:#018X}, which the world does not have")]
    DanglingReference {
        /// The id referred to.
        id: u64,
    },
    /// A reference to an entity of another kind than the field's.
    #[error("refers to entity {id:#018X} of kind `{found}`, not a `{expected}`")]
    ReferenceKindMismatch {
        /// The id referred to.
        id: u64,
        /// The kind the field refers to.
        expected: String,
        /// The kind of the entity with that id.
        found: String,
    },
    /// An asset path (a [`crate::PropertyType::Asset`] value) naming a file the
    /// project does not have.
    #[error("names `{path}`, which the project does not have")]
    MissingAsset {
        /// The path, as written.
        path: String,
    },
    /// A file skipped by a loader, with the reason.
    #[error("{0}")]
    Other(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Several value lines point at a `Key: value` line in a block; none at a comment.
    #[test]
    fn expected_one_line_names_the_likely_cause() {
        let several = ValueErrorKind::ExpectedOneLine(2).to_string();
        assert!(
            several.contains("found 2 (the type is written on one line; a `Key: value` line"),
            "{several}"
        );
        let none = ValueErrorKind::ExpectedOneLine(0).to_string();
        assert!(
            none.contains("found none (a line starting with `#`"),
            "{none}"
        );
        assert!(!none.contains("Key: value"), "{none}");
    }

    #[test]
    fn display_is_path_line_col_error_message() {
        let err = Error::new(
            "a/b.jasset",
            3,
            7,
            ErrorKind::DuplicateKey { first_line: 1 },
        )
        .with_key("Mass");
        assert_eq!(
            err.to_string(),
            "a/b.jasset:3:7: error: `Mass`: duplicate key: first written on line 1"
        );
    }

    #[test]
    fn bad_value_names_expected_type_and_found_text() {
        let err = Error::new(
            "x.jasset",
            2,
            1,
            ErrorKind::BadValue {
                expected: "f32".into(),
                found: "abc".into(),
                reason: ValueErrorKind::InvalidNumber,
            },
        );
        assert_eq!(
            err.to_string(),
            "x.jasset:2:1: error: expected f32, found \"abc\": not a valid number"
        );
    }

    #[test]
    fn shorten_cuts_long_text() {
        let long = "x".repeat(100);
        let short = shorten(&long);
        assert_eq!(short.len(), 48 + 3);
        assert!(short.ends_with("..."));
        assert_eq!(shorten("abc"), "abc");
    }

    #[test]
    fn control_characters_are_escaped_in_messages() {
        let err = Error::new(
            "dir/a\x1b[31m.jasset",
            2,
            1,
            ErrorKind::UnknownKind("Rock\nfake.jasset:9:9: warning: harmless".into()),
        );
        assert_eq!(
            err.to_string(),
            "dir/a\\u{1b}[31m.jasset:2:1: error: unknown kind \
             `Rock\\nfake.jasset:9:9: warning: harmless`: no registered class has this name"
        );
        let w = Warning::new(
            Path::new("w.jasset"),
            1,
            1,
            None,
            WarningKind::Other("tab\there\r\0".into()),
        );
        assert_eq!(w.to_string(), "w.jasset:1:1: warning: tab\\there\\r\\u{0}");
        assert_eq!(escape_controls("plain é"), "plain é");
        assert!(matches!(
            escape_controls("plain"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn warning_display() {
        let w = Warning::new(
            Path::new("w.jasset"),
            4,
            3,
            Some("Foo"),
            WarningKind::UnknownKey("Foo".into()),
        );
        assert_eq!(
            w.to_string(),
            "w.jasset:4:3: warning: `Foo`: unknown key `Foo` (kept and written back on save)"
        );
    }
}
