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

/// One attribute that may appear at most once; a second one is an error at its span.
pub(crate) struct Once<'c, T> {
    cx: &'c Ctxt,
    name: &'static str,
    value: Option<T>,
}

impl<'c, T> Once<'c, T> {
    fn new(cx: &'c Ctxt, name: &'static str) -> Once<'c, T> {
        Once {
            cx,
            name,
            value: None,
        }
    }

    fn set<S: ToTokens>(&mut self, at: S, value: T) {
        if self.value.is_some() {
            self.cx
                .error_spanned_by(at, format!("duplicate jasset attribute `{}`", self.name));
        } else {
            self.value = Some(value);
        }
    }

    fn get(self) -> Option<T> {
        self.value
    }
}

/// Container attributes: `#[jasset(name = "..", version = N, deprecated = "..",
/// migrate = path, crate = path, default)]`.
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
const CODEC_KEYS: &str = "crate";
const FIELD_KEYS: &str = "rename, alias, default, skip, flatten, with, migrated_from";
const VARIANT_KEYS: &str = "rename";

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

/// Calls `each` on every `#[jasset(...)]` item of `attrs`, reporting malformed
/// attributes to `cx`.
fn for_each_jasset(
    cx: &Ctxt,
    attrs: &[Attribute],
    mut each: impl FnMut(&ParseNestedMeta<'_>) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident(JASSET)) {
        if let syn::Meta::Path(_) = attr.meta {
            cx.error_spanned_by(attr, "expected `#[jasset(...)]` with a list of attributes");
            continue;
        }
        if let Err(err) = attr.parse_nested_meta(|meta| each(&meta)) {
            cx.syn_error(err);
        }
    }
}

/// Reports an attribute that does not belong where it is, then skips its value.
fn unknown(cx: &Ctxt, meta: &ParseNestedMeta<'_>, place: &str, known: &str) -> syn::Result<()> {
    cx.error_spanned_by(
        &meta.path,
        format!(
            "unknown jasset attribute `{}` on {place}; expected one of: {known}",
            name_of(meta)
        ),
    );
    skip_value(meta)
}

impl ContainerAttrs {
    /// Reads the container attributes of a struct (`On::Entity`) or enum
    /// (`On::CodecEnum`).
    pub(crate) fn parse(cx: &Ctxt, attrs: &[Attribute], on: On) -> ContainerAttrs {
        let mut name = Once::new(cx, "name");
        let mut version = Once::new(cx, "version");
        let mut migrate = Once::new(cx, "migrate");
        let mut krate = Once::new(cx, "crate");
        let mut default = Once::new(cx, "default");
        let mut deprecated = Vec::new();
        let mut aliases = Vec::new();
        for_each_jasset(cx, attrs, |meta| {
            let path = &meta.path;
            if path.is_ident("crate") {
                krate.set(path, path_value(meta)?);
                return Ok(());
            }
            if on == On::CodecEnum {
                return unknown(cx, meta, "an enum deriving Codec", CODEC_KEYS);
            }
            if path.is_ident("name") {
                name.set(path, lit_str(meta)?);
            } else if path.is_ident("alias") {
                aliases.push(lit_str(meta)?);
            } else if path.is_ident("version") {
                let lit: LitInt = meta.value()?.parse()?;
                let n = lit.base10_parse::<u32>()?;
                version.set(path, (n, lit));
            } else if path.is_ident("deprecated") {
                deprecated.push(lit_str(meta)?);
            } else if path.is_ident("migrate") {
                migrate.set(path, path_value(meta)?);
            } else if path.is_ident("default") {
                if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
                    cx.error_spanned_by(
                        path,
                        "on the struct, `default` takes no value: it makes the default-init \
                         stub `Default::default()`; give field defaults with \
                         `#[jasset(default = expr)]` on the field",
                    );
                    return skip_value(meta);
                }
                default.set(
                    path,
                    path.get_ident().map_or_else(Span::call_site, |i| i.span()),
                );
            } else if FIELD_KEYS.split(", ").any(|k| path.is_ident(k)) {
                cx.error_spanned_by(
                    path,
                    format!(
                        "`{}` is a field attribute; on the struct, expected one of: {ENTITY_KEYS}",
                        name_of(meta)
                    ),
                );
                return skip_value(meta);
            } else {
                return unknown(cx, meta, "the struct", ENTITY_KEYS);
            }
            Ok(())
        });
        ContainerAttrs {
            name: name.get(),
            aliases,
            version: version.get(),
            deprecated,
            migrate: migrate.get(),
            krate: krate.get(),
            default: default.get(),
        }
    }
}

/// Field attributes: `#[jasset(rename = "Key", alias = "OldKey", default = expr, skip,
/// migrated_from = "DeprecatedKey")]`.
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
        let mut rename = Once::new(cx, "rename");
        let mut default = Once::new(cx, "default");
        let mut skip = Once::new(cx, "skip");
        let mut flatten = Once::new(cx, "flatten");
        let mut with = Once::new(cx, "with");
        let mut aliases = Vec::new();
        let mut migrated_from = Vec::new();
        for_each_jasset(cx, attrs, |meta| {
            let path = &meta.path;
            if path.is_ident("rename") {
                rename.set(path, lit_str(meta)?);
            } else if path.is_ident("alias") {
                aliases.push(lit_str(meta)?);
            } else if path.is_ident("migrated_from") {
                migrated_from.push(lit_str(meta)?);
            } else if path.is_ident("default") {
                let expr: Expr = meta.value()?.parse()?;
                default.set(path, expr);
            } else if path.is_ident("skip") {
                skip.set(
                    path,
                    path.get_ident().map_or_else(Span::call_site, |i| i.span()),
                );
            } else if path.is_ident("with") {
                let module: Path = meta.value()?.parse()?;
                with.set(path, module);
            } else if path.is_ident("flatten") {
                flatten.set(
                    path,
                    path.get_ident().map_or_else(Span::call_site, |i| i.span()),
                );
            } else if ["name", "version", "deprecated", "migrate", "crate"]
                .iter()
                .any(|k| path.is_ident(k))
            {
                cx.error_spanned_by(
                    path,
                    format!(
                        "`{}` is a struct attribute; on a field, expected one of: {FIELD_KEYS}",
                        name_of(meta)
                    ),
                );
                return skip_value(meta);
            } else {
                return unknown(cx, meta, "a field", FIELD_KEYS);
            }
            Ok(())
        });
        FieldAttrs {
            rename: rename.get(),
            aliases,
            migrated_from,
            default: default.get(),
            skip: skip.get(),
            flatten: flatten.get(),
            with: with.get(),
        }
    }
}

/// Variant attributes of a `#[derive(Codec)]` enum: `#[jasset(rename = "Name")]`.
pub(crate) struct VariantAttrs {
    /// `rename = "Name"`: the written name (else the variant's name).
    pub(crate) rename: Option<LitStr>,
}

impl VariantAttrs {
    /// Reads the attributes of one variant.
    pub(crate) fn parse(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
        let mut rename = Once::new(cx, "rename");
        for_each_jasset(cx, attrs, |meta| {
            if meta.path.is_ident("rename") {
                rename.set(&meta.path, lit_str(meta)?);
                Ok(())
            } else {
                unknown(cx, meta, "a variant", VARIANT_KEYS)
            }
        });
        VariantAttrs {
            rename: rename.get(),
        }
    }
}
