//! Every bad value of a file, not only the first: when a class's loader stops at a
//! value that does not decode, the file's other values of that class are still decoded
//! (into the value being abandoned) so that one report names every bad value of the
//! file (docs/design.md, section 2.6).

use juliet_core::{Document, Error, ErrorKind};

use crate::storage::KindStorage;

/// `first`, the error a class's loader stopped at, with the errors of the file's
/// properties the loader did not reach ([`Error::more`](juliet_core::ErrorInfo::more)):
/// each unconsumed node of `doc` that is a property of the class in `storage` is
/// decoded into the value in `slot`, which the caller then drops. Only a bad value
/// (`ErrorKind::BadValue` in this file) goes on; any other error is returned as it is.
pub(crate) fn with_further_value_errors(
    first: Error,
    storage: &mut KindStorage,
    slot: usize,
    doc: &Document<'_>,
) -> Error {
    if !matches!(first.kind, ErrorKind::BadValue { .. }) || first.location.path != doc.path() {
        return first;
    }
    let class = storage.class();
    let mut more = Vec::new();
    for index in doc.unconsumed() {
        let node = doc.node(index);
        let Some(p) = class.property_index(node.key_crc, doc.key(index)) else {
            continue;
        };
        if let Err(e) = storage.decode_property(slot, p, doc.value(index)) {
            let expected = storage.properties()[p].property_type.to_string();
            more.push(doc.value_error(index, &expected, e));
        }
    }
    first.with_more(more)
}
