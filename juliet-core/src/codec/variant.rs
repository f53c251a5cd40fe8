//! Reading an enum with data (`#[derive(Codec)]` on an enum whose variants have
//! fields): the variant's name on the first value line, then one `Field: value` line
//! per field of that variant. The derive calls [`read_variant`] and decodes each field's
//! text with the field's own codec.

use super::inline::split_entry;
use super::text::decode_variant;
use crate::crc::keys_equal;
use crate::error::ValueErrorKind;
use crate::value::ValueError;

/// What [`read_variant`] reads: the variant, and its fields' values as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantLines<'a> {
    /// The index of the variant in `variants`.
    pub variant: usize,
    /// For each field line, the index of the field in `fields[variant]` and the
    /// value's text.
    pub fields: Vec<(usize, &'a str)>,
}

/// The variant and its field lines of an enum-with-data value (its lines: an `Option`'s
/// value lines, or a list element's record lines): the index in `variants`
/// of the first line's name (any ASCII case), and for each following `Field: value`
/// line the index of the field in `fields[variant]` (keys compared as keys are) and the
/// value's text. Fields not written keep their defaults (the caller's).
///
/// # Errors
/// [`ValueErrorKind::ExpectedOneLine`] for no line, [`ValueErrorKind::UnknownVariant`],
/// [`ValueErrorKind::ExpectedEntry`] for a field line without `:`,
/// [`ValueErrorKind::DuplicateEntry`] for a field written twice, and a
/// [`ValueErrorKind::Custom`] naming the variant for a field it does not have (and the
/// variant that has it, if one does), each at the text at fault.
pub fn read_variant<'a>(
    lines: impl IntoIterator<Item = &'a str>,
    variants: &[&str],
    fields: &[&[&str]],
) -> Result<VariantLines<'a>, ValueError<'a>> {
    let mut lines = lines.into_iter();
    let first = lines
        .next()
        .ok_or(ValueError::new(ValueErrorKind::ExpectedOneLine(0), ""))?;
    let variant = decode_variant(first, variants)?;
    let own = fields[variant];
    let mut found: Vec<(usize, &'a str)> = Vec::with_capacity(own.len());
    for line in lines {
        let (key, text) =
            split_entry(line).ok_or(ValueError::new(ValueErrorKind::ExpectedEntry, line))?;
        let Some(field) = own.iter().position(|f| keys_equal(f, key)) else {
            return Err(ValueError::new(
                not_a_field(key, variant, variants, fields),
                key,
            ));
        };
        if found.iter().any(|&(f, _)| f == field) {
            return Err(ValueError::new(ValueErrorKind::DuplicateEntry, key));
        }
        found.push((field, text));
    }
    Ok(VariantLines {
        variant,
        fields: found,
    })
}

/// The reason for a field line `key` that variant `variant` does not have.
#[cold]
pub(crate) fn not_a_field(
    key: &str,
    variant: usize,
    variants: &[&str],
    fields: &[&[&str]],
) -> ValueErrorKind {
    let owners: Vec<String> = (0..variants.len())
        .filter(|&v| fields[v].iter().any(|f| keys_equal(f, key)))
        .map(|v| variants[v].to_owned())
        .collect();
    let here = variants[variant];
    if !owners.is_empty() {
        return ValueErrorKind::NotInVariant {
            field: key.to_owned(),
            owners,
            in_use: here.to_owned(),
        };
    }
    ValueErrorKind::Custom(if fields[variant].is_empty() {
        format!("variant `{here}` has no fields")
    } else {
        format!(
            "variant `{here}` has no field `{key}` (its fields: {})",
            fields[variant].join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    const VARIANTS: &[&str] = &["None", "OnTouch", "Timer"];
    const FIELDS: &[&[&str]] = &[&[], &["Radius", "Once"], &["0"]];

    fn read(text: &str) -> Result<VariantLines<'_>, ValueErrorKind> {
        read_variant(Value::from_text(text).lines(), VARIANTS, FIELDS).map_err(|e| e.kind)
    }

    /// The expected reading: `variant` and `fields`.
    fn lines(variant: usize, fields: Vec<(usize, &str)>) -> VariantLines<'_> {
        VariantLines { variant, fields }
    }

    #[test]
    fn the_first_line_is_the_variant_and_the_others_its_fields() {
        assert_eq!(read("none"), Ok(lines(0, vec![])));
        assert_eq!(
            read("OnTouch\nonce: true\nRadius: 2.5"),
            Ok(lines(1, vec![(1, "true"), (0, "2.5")]))
        );
        assert_eq!(read("Timer\n0: 3.0"), Ok(lines(2, vec![(0, "3.0")])));
    }

    #[test]
    fn a_field_of_another_variant_names_both_at_the_key() {
        let text = "Timer\nRadius: 2.0";
        let err = read_variant(Value::from_text(text).lines(), VARIANTS, FIELDS).unwrap_err();
        assert_eq!(err.found.as_ptr(), text[6..].as_ptr());
        assert_eq!(
            err.kind,
            ValueErrorKind::NotInVariant {
                field: "Radius".into(),
                owners: vec!["OnTouch".into()],
                in_use: "Timer".into(),
            }
        );
        assert!(matches!(
            read("None\nx: 1").unwrap_err(),
            ValueErrorKind::Custom(_)
        ));
        assert_eq!(
            read("OnTouch\nRadius: 1\nradius: 2").unwrap_err(),
            ValueErrorKind::DuplicateEntry
        );
        assert_eq!(
            read("OnTouch\nRadius 1").unwrap_err(),
            ValueErrorKind::ExpectedEntry
        );
        assert_eq!(
            read("Sometimes").unwrap_err(),
            ValueErrorKind::UnknownVariant
        );
    }
}
