//! The parsed form of a `#[derive(Entity)]` struct: its attributes and fields, with
//! the key of every field resolved (PascalCase of the name unless renamed).

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Ident, LitStr, Path, Type};

use crate::attr::{ContainerAttrs, FieldAttrs, On};
use crate::ctxt::Ctxt;
use crate::key::pascal_case;

/// The default path of the runtime in generated code: users depend on
/// `juliet-entities`, which re-exports `juliet_core`.
pub(crate) const DEFAULT_CRATE: &str = "::juliet_entities::juliet_core";

/// The class version when `version` is not given.
pub(crate) const DEFAULT_VERSION: u32 = 1;

/// A key with the span that defines it.
#[derive(Clone)]
pub(crate) struct SpannedKey {
    /// The key text.
    pub(crate) text: String,
    /// Where it comes from: the field name or the string literal.
    pub(crate) span: Span,
}

impl SpannedKey {
    fn of_lit(lit: &LitStr) -> SpannedKey {
        SpannedKey {
            text: lit.value(),
            span: lit.span(),
        }
    }
}

/// One named field of the struct.
pub(crate) struct Field<'a> {
    /// The field name.
    pub(crate) ident: &'a Ident,
    /// The field type.
    pub(crate) ty: &'a Type,
    /// Its attributes.
    pub(crate) attrs: FieldAttrs,
    /// The key the writer emits: `rename`, else the PascalCase field name.
    pub(crate) key: SpannedKey,
    /// Keys read as this field (`alias`).
    pub(crate) aliases: Vec<SpannedKey>,
}

impl Field<'_> {
    /// Whether the field is a property (not `skip`).
    pub(crate) fn is_property(&self) -> bool {
        self.attrs.skip.is_none()
    }

    /// The field name without a raw-identifier prefix.
    pub(crate) fn name(&self) -> String {
        let s = self.ident.to_string();
        s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
    }
}

/// The struct being derived.
pub(crate) struct Container<'a> {
    /// The derive input.
    pub(crate) input: &'a DeriveInput,
    /// The container attributes.
    pub(crate) attrs: ContainerAttrs,
    /// The named fields, in declaration order (empty when the input has none).
    pub(crate) fields: Vec<Field<'a>>,
}

impl<'a> Container<'a> {
    /// Parses `input`; shape errors (not a struct with named fields) go to `cx`, but
    /// the attributes are still read so that their errors show too.
    pub(crate) fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Container<'a> {
        let attrs = ContainerAttrs::parse(cx, &input.attrs, On::Entity);
        let fields = match &input.data {
            Data::Struct(data) => match &data.fields {
                Fields::Named(named) => {
                    named.named.iter().map(|f| Field::from_ast(cx, f)).collect()
                }
                Fields::Unnamed(unnamed) => {
                    cx.error_spanned_by(
                        unnamed,
                        "#[derive(Entity)] needs a struct with named fields: each field \
                         becomes a property keyed by its name (this is a tuple struct)",
                    );
                    Vec::new()
                }
                Fields::Unit => {
                    cx.error_at(
                        input.ident.span(),
                        "#[derive(Entity)] needs a struct with named fields: each field \
                         becomes a property keyed by its name (this is a unit struct; \
                         write `struct Name {}` for a class without properties)",
                    );
                    Vec::new()
                }
            },
            Data::Enum(data) => {
                cx.error_at(
                    data.enum_token.span(),
                    "#[derive(Entity)] needs a struct with named fields, not an enum \
                     (a unit enum used as a field type derives `Codec` instead)",
                );
                Vec::new()
            }
            Data::Union(data) => {
                cx.error_at(
                    data.union_token.span(),
                    "#[derive(Entity)] needs a struct with named fields, not a union",
                );
                Vec::new()
            }
        };
        Container {
            input,
            attrs,
            fields,
        }
    }

    /// The type name.
    pub(crate) fn ident(&self) -> &'a Ident {
        &self.input.ident
    }

    /// The class name: `name = ".."`, else the type name.
    pub(crate) fn class_name(&self) -> String {
        self.attrs
            .name
            .as_ref()
            .map_or_else(|| self.input.ident.to_string(), LitStr::value)
    }

    /// The class version.
    pub(crate) fn version(&self) -> u32 {
        self.attrs
            .version
            .as_ref()
            .map_or(DEFAULT_VERSION, |(v, _)| *v)
    }

    /// The runtime's path: `crate = ..`, else [`DEFAULT_CRATE`].
    pub(crate) fn krate(&self) -> Path {
        crate_path(self.attrs.krate.as_ref())
    }

    /// The fields that are properties, in declaration order.
    pub(crate) fn properties(&self) -> impl Iterator<Item = &Field<'a>> {
        self.fields.iter().filter(|f| f.is_property())
    }
}

/// `krate` or the default runtime path.
pub(crate) fn crate_path(krate: Option<&Path>) -> Path {
    krate
        .cloned()
        .unwrap_or_else(|| syn::parse_str(DEFAULT_CRATE).expect("the default crate path parses"))
}

impl<'a> Field<'a> {
    fn from_ast(cx: &Ctxt, field: &'a syn::Field) -> Field<'a> {
        let ident = field.ident.as_ref().expect("named fields have names");
        let attrs = FieldAttrs::parse(cx, &field.attrs);
        let key = attrs.rename.as_ref().map_or_else(
            || SpannedKey {
                text: pascal_case(&ident.to_string()),
                span: ident.span(),
            },
            SpannedKey::of_lit,
        );
        let aliases = attrs.aliases.iter().map(SpannedKey::of_lit).collect();
        Field {
            ident,
            ty: &field.ty,
            attrs,
            key,
            aliases,
        }
    }
}
