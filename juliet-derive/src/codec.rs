//! `#[derive(Codec)]`: unit enums here (written by variant name, read ignoring ASCII
//! case through `juliet_core::decode_variant`, typed `PropertyType::Enum`, tokens);
//! structs go to `composite`, enums with data to `data_enum`.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Ident};

use crate::ast::crate_path;
use crate::attr::{ContainerAttrs, On, VariantAttrs};
use crate::ctxt::{with_stub, Ctxt};
use crate::key::key_problem;
use crate::validate::check_generics;
use crate::{composite, data_enum, record};

/// One unit variant and the name it is written as.
struct Variant<'a> {
    ident: &'a Ident,
    name: String,
}

/// `#[derive(Codec)]`: parse -> validate -> expand, with a stub impl on error.
pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let attrs = ContainerAttrs::parse(&cx, &input.attrs, On::CodecEnum);
    let krate = crate_path(attrs.krate.as_ref());
    check_generics(&cx, input);
    if let Data::Struct(data) = &input.data {
        let leaves = composite::parse(&cx, input, data);
        return match cx.check() {
            Ok(()) => {
                let mut out = composite::expand(input, &leaves, &krate);
                out.extend(record::expand(input, &leaves, &krate));
                out
            }
            Err(errors) => with_stub(errors, &input.generics, || composite::stub(input, &krate)),
        };
    }
    if let Data::Enum(data) = &input.data {
        if data
            .variants
            .iter()
            .any(|v| !matches!(v.fields, Fields::Unit))
        {
            let variants = data_enum::parse(&cx, data);
            return match cx.check() {
                Ok(()) => data_enum::expand(input, &variants, &krate),
                Err(errors) => with_stub(errors, &input.generics, || stub(input, &krate)),
            };
        }
    }
    let variants = parse_variants(&cx, input);
    match cx.check() {
        Ok(()) => expand(input, &variants, &krate),
        Err(errors) => with_stub(errors, &input.generics, || stub(input, &krate)),
    }
}

fn parse_variants<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Vec<Variant<'a>> {
    let data = match &input.data {
        Data::Enum(data) => data,
        Data::Struct(_) => return Vec::new(),
        Data::Union(data) => {
            cx.error_at(
                data.union_token.span(),
                "#[derive(Codec)] works on unit enums, not unions",
            );
            return Vec::new();
        }
    };
    if data.variants.is_empty() {
        cx.error_at(
            input.ident.span(),
            "#[derive(Codec)] needs at least one variant: an enum without variants has no \
             value to write",
        );
    }
    let mut out: Vec<Variant<'a>> = Vec::new();
    for v in &data.variants {
        let attrs = VariantAttrs::parse(cx, &v.attrs);
        let (name, span) = match &attrs.rename {
            Some(lit) => (lit.value(), lit.span()),
            None => (v.ident.to_string(), v.ident.span()),
        };
        if let Some(problem) = key_problem(&name) {
            cx.error_at(
                span,
                format!(
                    "variant name {name:?} {problem}: variants are written as bare ASCII \
                     identifiers (use `#[jasset(rename = \"Name\")]`)"
                ),
            );
            continue;
        }
        if let Some(other) = out.iter().find(|o| o.name.eq_ignore_ascii_case(&name)) {
            cx.error_at(
                span,
                format!(
                    "variant `{}` is written as `{name}`, which reads the same as `{}` of \
                     variant `{}`: variant names are read ignoring ASCII case",
                    v.ident, other.name, other.ident
                ),
            );
            continue;
        }
        out.push(Variant {
            ident: &v.ident,
            name,
        });
    }
    out
}

fn expand(input: &DeriveInput, variants: &[Variant<'_>], krate: &syn::Path) -> TokenStream {
    let ident = &input.ident;
    let type_name = ident.to_string();
    let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    let encode_arms = variants.iter().map(|v| {
        let (vi, name) = (v.ident, &v.name);
        quote!(Self::#vi => #name,)
    });
    let decode_arms = variants.iter().enumerate().map(|(i, v)| {
        let (vi, index) = (v.ident, Literal::usize_unsuffixed(i));
        quote!(#index => ::core::result::Result::Ok(Self::#vi),)
    });
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #krate::Codec for #ident {
                const PROPERTY_TYPE: #krate::PropertyType = #krate::PropertyType::Enum {
                    name: #type_name,
                    variants: &[#(#names),*],
                };

                fn encode(&self, out: &mut ::std::string::String) {
                    out.push_str(match self {
                        #(#encode_arms)*
                    });
                }

                fn decode<'a>(
                    value: #krate::Value<'a>,
                ) -> ::core::result::Result<Self, #krate::ValueError<'a>> {
                    const VARIANTS: &[&str] = &[#(#names),*];
                    match #krate::decode_variant(value.single()?, VARIANTS)? {
                        #(#decode_arms)*
                        _ => ::core::unreachable!("decode_variant returns an index into VARIANTS"),
                    }
                }
            }

            #[automatically_derived]
            impl #krate::Element for #ident {
                const TOKEN: bool = true;
            }

            #[automatically_derived]
            impl #krate::Token for #ident {}
        };
    }
}

/// The `Codec` impl emitted next to errors ([`with_stub`]).
fn stub(input: &DeriveInput, krate: &syn::Path) -> TokenStream {
    let ident = &input.ident;
    let type_name = ident.to_string();
    let message = "#[derive(Codec)] failed; see the errors above";
    quote! {
        impl #krate::Codec for #ident {
            const PROPERTY_TYPE: #krate::PropertyType = #krate::PropertyType::Custom(#type_name);
            fn encode(&self, _: &mut ::std::string::String) {
                ::core::unreachable!(#message)
            }
            fn decode<'a>(
                _: #krate::Value<'a>,
            ) -> ::core::result::Result<Self, #krate::ValueError<'a>> {
                ::core::unreachable!(#message)
            }
        }
    }
}
