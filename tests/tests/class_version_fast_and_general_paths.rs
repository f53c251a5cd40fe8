//! `Archive::resolve_class_version` wherever `ClassVersion` stands (first, as the writer
//! puts it, or anywhere else in the file): the same version or error, the same
//! warnings, ClassVersion consumed either way.

use juliet_core::{Archive, TokenBuffer};
use std::path::Path;

/// Version (or error text), warning texts, unconsumed node keys.
fn resolve(text: &str, code: u32) -> (Result<u32, String>, Vec<String>, Vec<String>) {
    let mut buffer = TokenBuffer::new();
    let doc = buffer
        .tokenize(text.as_bytes(), Path::new("v.jasset"))
        .unwrap();
    let mut ar = Archive::loading(doc);
    let first = ar.resolve_class_version(code).map_err(|e| e.kind_name());
    // Asking again gives the recorded answer.
    let again = ar.resolve_class_version(code).map_err(|e| e.kind_name());
    assert_eq!(first.is_ok(), again.is_ok());
    if let (Ok(a), Ok(b)) = (&first, &again) {
        assert_eq!(a, b);
    }
    let warnings = ar
        .warnings()
        .iter()
        .map(|w| format!("{:?}", w.kind))
        .collect();
    let doc = ar.into_document().unwrap();
    let unconsumed = doc.unconsumed().map(|i| doc.key(i).to_owned()).collect();
    (first, warnings, unconsumed)
}

trait KindName {
    fn kind_name(&self) -> String;
}
impl KindName for juliet_core::Error {
    fn kind_name(&self) -> String {
        format!("{:?}", self.kind)
    }
}

#[test]
fn class_version_first_or_late_resolves_alike() {
    for value in [
        "0",
        "1",
        "2",
        "3",
        "+2",
        "4294967295",
        "-1",
        "x",
        "2.0",
        "0x2",
    ] {
        for code in [0, 2, 3] {
            let first = format!("; ClassVersion\n{value}\n; Health\n1\n");
            let late = format!("; Health\n1\n; ClassVersion\n{value}\n");
            let (v1, w1, u1) = resolve(&first, code);
            let (v2, w2, u2) = resolve(&late, code);
            assert_eq!(v1, v2, "{value} code {code}");
            assert_eq!(w1, w2, "{value} code {code}");
            if v1.is_ok() {
                assert_eq!(u1, ["Health"], "{value} code {code}");
                assert_eq!(u2, ["Health"], "{value} code {code}");
            }
            // Newer than the code: a warning, the file's version kept.
            if let Ok(v) = v1 {
                assert_eq!(w1.len(), usize::from(v > code), "{value} code {code}");
            }
        }
    }
    // Absent: the code's version, no warning.
    assert_eq!(
        resolve("; Health\n1\n", 3),
        (Ok(3), vec![], vec!["Health".into()])
    );
}
