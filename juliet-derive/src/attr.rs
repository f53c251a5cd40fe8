//! Parsing of `#[jasset(...)]` attributes on the struct, its fields and enum variants.
//!
//! Every problem is pushed to the [`Ctxt`] and parsing goes on, so that an unknown or
//! duplicated attribute is reported together with every other mistake.

use proc_macro2::Span;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, LitInt, LitStr, Path};

use crate::ctxt::Ctxt;

/// The attribute name.
pub(crate) const JASSET: &str = "jasset";

/// Sets `slot`, an attribute that may appear at most once, to `value`; a second one is
/// an error at its span.
fn once<T>(cx: &Ctxt, slot: &mut Option<T>, meta: &ParseNestedMeta<'_>, value: T) {
    if slot.is_some() {
        let message = format!("duplicate jasset attribute `{}`", name_of(meta));
        cx.error_spanned_by(&meta.path, message);
    } else {
        *slot = Some(value);
    }
}

/// Container attributes: `#[jasset(name = "..", version = N, deprecated = "..",
/// migrate = path, crate = path, default)]`.
#[derive(Default)]
pub(crate) struct ContainerAttrs {
    /// `name = "Kind"`: the class name (else the type's name).
    pub(crate) name: Option<LitStr>,
    /// `alias = "OldKind"`, in order (repeatable): former class names.
    pub(crate) aliases: Vec<LitStr>,
    /// `version = N`, with the literal for spans.
    pub(crate) version: Option<(u32, LitInt)>,
    /// `deprecated = "Key"`, in order (repeatable).
    pub(crate) deprecated: Vec<LitStr>,
    /// `migrate = path`.
    pub(crate) migrate: Option<Path>,
    /// `crate = path`.
    pub(crate) krate: Option<Path>,
    /// `default`: the default-init stub is `<Self as Default>::default()`.
    pub(crate) default: Option<Span>,
}

/// Which item the attributes are on, for messages and for which keys are accepted.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum On {
    /// `#[derive(Entity)]` struct.
    Entity,
    /// `#[derive(Codec)]` enum.
    CodecEnum,
}

const ENTITY_KEYS: &str = "name, alias, version, deprecated, migrate, crate, default";
const FIELD_KEYS: &str = "rename, alias, default, skip, flatten, with, migrated_from";

/// Where attributes are read, for the error on one that does not belong there.
struct Place {
    /// The place in messages: "the struct", "a field".
    name: &'static str,
    /// Its keys, `, `-separated.
    keys: &'static str,
    /// The keys of the other place and what they are ("a field attribute"): one of
    /// them is named as misplaced rather than unknown.
    elsewhere: Option<(&'static str, &'static str)>,
}

impl Place {
    const fn new(
        name: &'static str,
        keys: &'static str,
        elsewhere: Option<(&'static str, &'static str)>,
    ) -> Place {
        Place {
            name,
            keys,
            elsewhere,
        }
    }
}

const STRUCT: Place = Place::new(
    "the struct",
    ENTITY_KEYS,
    Some((FIELD_KEYS, "a field attribute")),
);
const FIELD: Place = Place::new(
    "a field",
    FIELD_KEYS,
    Some((ENTITY_KEYS, "a struct attribute")),
);
const CODEC_ENUM: Place = Place::new("an enum deriving Codec", "crate", None);
const VARIANT: Place = Place::new("a variant", "rename", None);

/// Reads a string literal value: `key = "text"`.
fn lit_str(meta: &ParseNestedMeta<'_>) -> syn::Result<LitStr> {
    meta.value()?.parse()
}

/// Reads a path value: `key = some::path` (a string literal holding a path is accepted
/// too, as serde spells `crate = "..."`).
fn path_value(meta: &ParseNestedMeta<'_>) -> syn::Result<Path> {
    let input = meta.value()?;
    if input.peek(LitStr) {
        let lit: LitStr = input.parse()?;
        lit.parse()
    } else {
        input.parse()
    }
}

/// Skips the value of an attribute that was refused (`= expr` or `(...)`), so that the
/// ones after it are still read.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// The attribute's name as written (`crate` included).
fn name_of(meta: &ParseNestedMeta<'_>) -> String {
    meta.path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_else(|| meta.path.to_token_stream().to_string().replace(' ', ""))
}

/// Reads the `#[jasset(...)]` items of `attrs` into a `T`, reporting malformed
/// attributes to `cx`: `key` reads one item into the `T`, or gives `false` for a key
/// that does not belong on `place`, which is then refused.
fn parse_into<T: Default>(
    cx: &Ctxt,
    attrs: &[Attribute],
    place: &Place,
    mut key: impl FnMut(&mut T, &ParseNestedMeta<'_>) -> syn::Result<bool>,
) -> T {
    let mut out = T::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident(JASSET)) {
        if let syn::Meta::Path(_) = attr.meta {
            cx.error_spanned_by(attr, "expected `#[jasset(...)]` with a list of attributes");
            continue;
        }
        let read = attr.parse_nested_meta(|meta| {
            if key(&mut out, &meta)? {
                Ok(())
            } else {
                refuse(cx, &meta, place)
            }
        });
        if let Err(err) = read {
            cx.syn_error(err);
        }
    }
    out
}

/// Reports an attribute that does not belong on `place`, then skips its value.
fn refuse(cx: &Ctxt, meta: &ParseNestedMeta<'_>, place: &Place) -> syn::Result<()> {
    let (name, known) = (name_of(meta), place.keys);
    let message = match place.elsewhere {
        Some((keys, what)) if keys.split(", ").any(|k| k == name) => {
            format!(
                "`{name}` is {what}; on {}, expected one of: {known}",
                place.name
            )
        }
        _ => format!(
            "unknown jasset attribute `{name}` on {}; expected one of: {known}",
            place.name
        ),
    };
    cx.error_spanned_by(&meta.path, message);
    skip_value(meta)
}

/// The span of an attribute's word (`skip`, `flatten`, `default`).
fn word_span(path: &Path) -> Span {
    path.get_ident().map_or_else(Span::call_site, |i| i.span())
}

impl ContainerAttrs {
    /// Reads the container attributes of a struct (`On::Entity`) or enum
    /// (`On::CodecEnum`).
    pub(crate) fn parse(cx: &Ctxt, attrs: &[Attribute], on: On) -> ContainerAttrs {
        let place = match on {
            On::Entity => &STRUCT,
            On::CodecEnum => &CODEC_ENUM,
        };
        parse_into(cx, attrs, place, |out: &mut ContainerAttrs, meta| {
            match name_of(meta).as_str() {
                "crate" => once(cx, &mut out.krate, meta, path_value(meta)?),
                _ if on == On::CodecEnum => return Ok(false),
                "name" => once(cx, &mut out.name, meta, lit_str(meta)?),
                "alias" => out.aliases.push(lit_str(meta)?),
                "version" => {
                    let lit: LitInt = meta.value()?.parse()?;
                    let n = lit.base10_parse::<u32>()?;
                    once(cx, &mut out.version, meta, (n, lit));
                }
                "deprecated" => out.deprecated.push(lit_str(meta)?),
                "migrate" => once(cx, &mut out.migrate, meta, path_value(meta)?),
                "default" if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) => {
                    cx.error_spanned_by(
                        &meta.path,
                        "on the struct, `default` takes no value: it makes the default-init \
                         stub `Default::default()`; give field defaults with \
                         `#[jasset(default = expr)]` on the field",
                    );
                    skip_value(meta)?;
                }
                "default" => once(cx, &mut out.default, meta, word_span(&meta.path)),
                _ => return Ok(false),
            }
            Ok(true)
        })
    }
}

/// Variant attributes of a `#[derive(Codec)]` enum: `#[jasset(rename = "Name")]`.
#[derive(Default)]
pub(crate) struct VariantAttrs {
    /// `rename = "Name"`: the written name (else the variant's name).
    pub(crate) rename: Option<LitStr>,
}

impl VariantAttrs {
    /// Reads the attributes of one variant.
    pub(crate) fn parse(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
        parse_into(cx, attrs, &VARIANT, |out: &mut VariantAttrs, meta| {
            let known = meta.path.is_ident("rename");
            if known {
                once(cx, &mut out.rename, meta, lit_str(meta)?);
            }
            Ok(known)
        })
    }
}

/// Field attributes: `#[jasset(rename = "Key", alias = "OldKey", default = expr, skip,
/// migrated_from = "DeprecatedKey")]`.
#[derive(Default)]
pub(crate) struct FieldAttrs {
    /// `rename = "Key"`.
    pub(crate) rename: Option<LitStr>,
    /// `alias = "OldKey"`, in order (repeatable).
    pub(crate) aliases: Vec<LitStr>,
    /// `migrated_from = "DeprecatedKey"`, in order (repeatable): deprecated keys of the
    /// struct the migration sets this field from.
    pub(crate) migrated_from: Vec<LitStr>,
    /// `default = expr`.
    pub(crate) default: Option<Expr>,
    /// `skip`, with the span of the word.
    pub(crate) skip: Option<Span>,
    /// `flatten`, with the span of the word: a composite's leaves become the class's
    /// own keys.
    pub(crate) flatten: Option<Span>,
    /// `with = path`: a module with `encode` and `decode` that reads and writes the
    /// field (a foreign type the orphan rule keeps from `Codec`).
    pub(crate) with: Option<Path>,
}

impl FieldAttrs {
    /// Reads the attributes of one field.
    pub(crate) fn parse(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
        parse_into(cx, attrs, &FIELD, |out: &mut FieldAttrs, meta| {
            match name_of(meta).as_str() {
                "rename" => once(cx, &mut out.rename, meta, lit_str(meta)?),
                "alias" => out.aliases.push(lit_str(meta)?),
                "migrated_from" => out.migrated_from.push(lit_str(meta)?),
                "default" => once(cx, &mut out.default, meta, meta.value()?.parse()?),
                "skip" => once(cx, &mut out.skip, meta, word_span(&meta.path)),
                "flatten" => once(cx, &mut out.flatten, meta, word_span(&meta.path)),
                "with" => once(cx, &mut out.with, meta, meta.value()?.parse()?),
                _ => return Ok(false),
            }
            Ok(true)
        })
    }
}
