//! `#[derive(Codec)]` on an enum whose variants have fields. As a field of a class its
//! variant and its fields are leaves of their own (`variant_leaves`); held whole (in an
//! `Option`) its value is the variant's name, then the fields of that variant,
//! `Field: value`, each written by its type's one-line form (`juliet_core::Element`).
//! Fields not written take their type's `Default`; a field of another variant is an
//! error at its line (`juliet_core::__private::read_variant`).

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DataEnum, DeriveInput, Fields, Ident, Type};

use crate::attr::{FieldAttrs, VariantAttrs};
use crate::ctxt::Ctxt;
use crate::key::{key_problem, normalize, pascal_case};
use crate::record::{item_and_optional, item_impl_of, ItemBodies};

/// One variant: its name as written and its fields.
pub(crate) struct Variant<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) name: String,
    named: bool,
    pub(crate) fields: Vec<VariantField<'a>>,
}

/// One field of a variant: its binding, its key and its type.
pub(crate) struct VariantField<'a> {
    binding: Ident,
    pub(crate) member: syn::Member,
    pub(crate) key: String,
    pub(crate) ty: &'a Type,
}

/// The variants of `data`, every problem reported to `cx`.
pub(crate) fn parse<'a>(cx: &Ctxt, data: &'a DataEnum) -> Vec<Variant<'a>> {
    let mut out: Vec<Variant<'a>> = Vec::new();
    for v in &data.variants {
        let attrs = VariantAttrs::parse(cx, &v.attrs);
        let name = attrs
            .rename
            .as_ref()
            .map_or_else(|| v.ident.to_string(), |l| l.value());
        if let Some(problem) = key_problem(&name) {
            cx.error_spanned_by(&v.ident, format!("variant name {name:?} {problem}"));
        }
        if let Some(other) = out.iter().find(|o| o.name.eq_ignore_ascii_case(&name)) {
            cx.error_spanned_by(
                &v.ident,
                format!(
                    "variant `{}` is written as `{name}`, which reads the same as `{}` of \
                     variant `{}`: variant names are read ignoring ASCII case",
                    v.ident, other.name, other.ident
                ),
            );
        }
        let mut fields: Vec<VariantField<'a>> = Vec::new();
        for (i, f) in v.fields.iter().enumerate() {
            let fa = FieldAttrs::parse(cx, &f.attrs);
            if fa.skip.is_some()
                || fa.flatten.is_some()
                || !fa.aliases.is_empty()
                || fa.default.is_some()
            {
                cx.error_spanned_by(&f.ty, "a variant's field takes only `rename`");
            }
            let (key, member) = match (&f.ident, &fa.rename) {
                (_, Some(lit)) => (lit.value(), member(f, i)),
                (Some(ident), None) => (pascal_case(&ident.to_string()), member(f, i)),
                (None, None) => (i.to_string(), member(f, i)),
            };
            if f.ident.is_some() || fa.rename.is_some() {
                if let Some(problem) = key_problem(&key) {
                    cx.error_spanned_by(f, format!("key {key:?} {problem}"));
                }
            }
            if fields.iter().any(|o| normalize(&o.key) == normalize(&key)) {
                cx.error_spanned_by(
                    f,
                    format!("key `{key}` is written twice in variant `{name}`"),
                );
            }
            fields.push(VariantField {
                binding: format_ident!("__field{}", i),
                member,
                key,
                ty: &f.ty,
            });
        }
        out.push(Variant {
            ident: &v.ident,
            name,
            named: matches!(v.fields, Fields::Named(_)),
            fields,
        });
    }
    out
}

/// The member (`radius`, `0`) of field `i` of a variant.
fn member(field: &syn::Field, i: usize) -> syn::Member {
    match &field.ident {
        Some(ident) => syn::Member::Named(ident.clone()),
        None => syn::Member::Unnamed(syn::Index::from(i)),
    }
}

/// The pattern that binds every field of `v`.
fn pattern(v: &Variant<'_>) -> TokenStream {
    let ident = v.ident;
    let bindings = v.fields.iter().map(|f| {
        let (member, binding) = (&f.member, &f.binding);
        quote!(#member: #binding)
    });
    if v.fields.is_empty() {
        quote!(Self::#ident { .. })
    } else {
        quote!(Self::#ident { #(#bindings),* })
    }
}

/// The `Field` and `Variants` impls of an enum with data (`variant_leaves`), and its
/// `Item` and `Optional` impls (`whole`).
pub(crate) fn expand(
    input: &DeriveInput,
    variants: &[Variant<'_>],
    krate: &syn::Path,
) -> TokenStream {
    let leaves = crate::variant_leaves::expand(input, variants, krate);
    let whole = whole(input, variants, krate);
    quote! {
        #leaves
        #whole
    }
}

/// The enum held whole. As a list element or a map's value (`Item`) and in an `Option`
/// (`Optional`): the variant's name, then one `Field: value` line per field of that
/// variant (each field's one-line form). As a leaf of a record (a list element's
/// field): one `Path: Variant` line, then one `Path.Field: value` line per field.
fn whole(input: &DeriveInput, variants: &[Variant<'_>], krate: &syn::Path) -> TokenStream {
    item_and_optional(
        item_impl(&input.ident, variants, krate),
        optional_impl(&input.ident, krate),
    )
}

/// The `Item` impl: the enum as a list element or a map's value, and as a leaf of a
/// record.
fn item_impl(ident: &Ident, variants: &[Variant<'_>], krate: &syn::Path) -> TokenStream {
    let type_name = ident.to_string();
    let element = quote!(#krate::Element);
    let variants_trait = quote!(#krate::__private::Variants);
    let encodes = variants
        .iter()
        .map(|v| encode_arm(v, quote!(out.push('\n');), krate));
    let entry_encodes = variants.iter().map(|v| {
        encode_arm(
            v,
            quote! { out.push('\n'); out.push_str(path); out.push('.'); },
            krate,
        )
    });
    let bounds = variants.iter().flat_map(|v| &v.fields).map(|f| {
        let ty = f.ty;
        quote_spanned!(ty.span()=> for<'__juliet> #ty: #element)
    });
    let bodies = ItemBodies {
        item_type: quote! {
            #krate::PropertyType::EnumWithData {
                name: #type_name,
                variants: <Self as #variants_trait>::SHAPE,
            }
        },
        whole: [
            quote!(match self { #(#encodes)* }),
            decode_item(variants, krate),
        ],
        entries: [
            quote! {
                out.push('\n');
                out.push_str(path);
                out.push_str(": ");
                match self { #(#entry_encodes)* }
            },
            decode_entry(variants, krate),
        ],
        same_item: quote! {
            #variants_trait::variant(self) == #variants_trait::variant(other)
                && (0..<Self as #variants_trait>::KEYS.len())
                    .all(|k| #variants_trait::same_field(self, other, k))
        },
        read_written: None,
    };
    item_impl_of(ident, krate, quote!(#(#bounds,)*), bodies)
}

/// The arm of a `match self` that writes variant `v`: its name, then each field as
/// `prefix`, `Field: ` and the field's one-line form.
fn encode_arm(v: &Variant<'_>, prefix: TokenStream, krate: &syn::Path) -> TokenStream {
    let element = quote!(#krate::Element);
    let (pat, name) = (pattern(v), &v.name);
    let writes = v.fields.iter().map(|f| {
        let (binding, ty, key) = (&f.binding, f.ty, format!("{}: ", f.key));
        let enc = quote_spanned!(ty.span()=> <#ty as #element>::encode_element);
        quote! {
            #prefix
            out.push_str(#key);
            #enc(#binding, out);
        }
    });
    quote!(#pat => { out.push_str(#name); #(#writes)* })
}

/// The body of `Item::decode_item`: the variant and its field lines read by
/// `read_variant`, then the arm of that variant ([`decode_variant_arm`]).
fn decode_item(variants: &[Variant<'_>], krate: &syn::Path) -> TokenStream {
    let variants_trait = quote!(#krate::__private::Variants);
    let decodes = variants
        .iter()
        .enumerate()
        .map(|(vi, v)| decode_variant_arm(v, vi, krate));
    quote! {
        let lines = #krate::__private::read_variant(
            lines.iter().copied(),
            <Self as #variants_trait>::NAMES,
            <Self as #variants_trait>::FIELDS,
        )?;
        let fields = lines.fields;
        match lines.variant {
            #(#decodes)*
            _ => ::core::unreachable!("read_variant returns an index into VARIANTS"),
        }
    }
}

/// The body of `Item::decode_entry`: the record's variant line (an empty path), or the
/// line of one field of the variant in use.
fn decode_entry(variants: &[Variant<'_>], krate: &syn::Path) -> TokenStream {
    let element = &quote!(#krate::Element);
    let private = &quote!(#krate::__private);
    let entry_decodes = variants.iter().flat_map(|v| {
        let vident = v.ident;
        v.fields.iter().enumerate().map(move |(fi, f)| {
            let (member, ty, fi) = (&f.member, f.ty, Literal::usize_unsuffixed(fi));
            let dec = quote_spanned!(ty.span()=> <#ty as #element>::decode_element);
            quote! {
                (Self::#vident { #member: field, .. }, #fi) => {
                    *field = #dec(#krate::Value::from_line(text))?;
                }
            }
        })
    });
    quote! {
        if path.is_empty() {
            return #private::read_record_variant(self, text);
        }
        let field = #private::record_field(self, path, key)?;
        match (self, field) {
            #(#entry_decodes)*
            _ => ::core::unreachable!("record_field returns a field of the variant in use"),
        }
        ::core::result::Result::Ok(())
    }
}

/// The `Optional` impl: the enum as an `Option`'s value, in its `Item` form.
fn optional_impl(ident: &Ident, krate: &syn::Path) -> TokenStream {
    quote! {
        #[automatically_derived]
        impl #krate::Optional for #ident
        where
            for<'__juliet> #ident: #krate::Item,
        {
            const OPTIONAL_TYPE: #krate::PropertyType = <Self as #krate::Item>::ITEM_TYPE;

            fn encode_some(&self, out: &mut ::std::string::String) {
                <Self as #krate::Item>::encode_item(self, out);
            }

            fn decode_some(
                value: #krate::Value<'_>,
            ) -> ::core::result::Result<Self, #krate::ValueError<'_>> {
                let lines: ::std::vec::Vec<&str> = value.lines().collect();
                <Self as #krate::Item>::decode_item(&lines)
            }

            fn same_some(&self, other: &Self) -> bool {
                <Self as #krate::Item>::same_item(self, other)
            }
        }
    }
}

/// The arm of `decode_item` that builds variant `v` (index `vi`) from its field lines.
fn decode_variant_arm(v: &Variant<'_>, vi: usize, krate: &syn::Path) -> TokenStream {
    let element = quote!(#krate::Element);
    let (vident, index) = (v.ident, Literal::usize_unsuffixed(vi));
    let inits = v.fields.iter().map(|f| {
        let (binding, ty) = (&f.binding, f.ty);
        let default = quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default());
        quote!(let mut #binding: #ty = #default;)
    });
    let arms = v.fields.iter().enumerate().map(|(fi, f)| {
        let (binding, ty, fi) = (&f.binding, f.ty, Literal::usize_unsuffixed(fi));
        let dec = quote_spanned!(ty.span()=> <#ty as #element>::decode_element);
        quote!(#fi => #binding = #dec(#krate::Value::from_line(text))?,)
    });
    let build = if v.fields.is_empty() {
        if v.named {
            quote!(Self::#vident {})
        } else {
            quote!(Self::#vident)
        }
    } else {
        let members = v.fields.iter().map(|f| {
            let (member, binding) = (&f.member, &f.binding);
            quote!(#member: #binding)
        });
        quote!(Self::#vident { #(#members),* })
    };
    quote! {
        #index => {
            #(#inits)*
            for (field, text) in fields {
                match field {
                    #(#arms)*
                    _ => {}
                }
            }
            ::core::result::Result::Ok(#build)
        }
    }
}
