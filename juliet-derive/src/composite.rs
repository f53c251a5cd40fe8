//! `#[derive(Codec)]` on a struct: a *composite*, each of whose fields is a leaf of its
//! own in the property table of the class that holds it (`Stats.Hp`, `Range.0`), read,
//! written, overridden and merged alone. Parse -> validate -> expand: the fields (named
//! or positional, `rename`, `skip`), their keys checked, then the `Field` impl whose
//! `LEAVES` the derive of the holding class joins to its own table.

use std::collections::HashMap;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DataStruct, DeriveInput, Fields, Ident, Member, Type};

use crate::attr::FieldAttrs;
use crate::ctxt::Ctxt;
use crate::key::{key_problem, normalize, pascal_case};

/// One leaf-bearing field of the composite.
pub(crate) struct Leaf<'a> {
    pub(crate) member: Member,
    pub(crate) ty: &'a Type,
    pub(crate) key: String,
}

/// The fields of `data` that are properties (not `skip`), with their keys, reporting
/// every attribute a composite's field does not take and every bad or repeated key.
fn parse_leaves<'a>(cx: &Ctxt, data: &'a DataStruct) -> Vec<Leaf<'a>> {
    let mut leaves = Vec::new();
    let mut seen: HashMap<String, String> = HashMap::new();
    for (i, field) in data.fields.iter().enumerate() {
        let attrs = FieldAttrs::parse(cx, &field.attrs);
        if let Some(first) = attrs.aliases.first().or(attrs.migrated_from.first()) {
            cx.error_spanned_by(
                first,
                "`alias` and `migrated_from` are for fields of a class, not of a composite",
            );
        }
        if let Some(span) = attrs.flatten {
            cx.error_at(
                span,
                "`flatten` is for fields of a class: a composite's fields are its leaves \
                 already, keyed by their path",
            );
        }
        if let Some(with) = &attrs.with {
            cx.error_spanned_by(with, "`with` is for fields of a class, not of a composite");
        }
        if let Some(default) = &attrs.default {
            cx.error_spanned_by(
                default,
                "a composite's fields take their defaults from its `Default` impl",
            );
        }
        if attrs.skip.is_some() {
            continue;
        }
        let (member, key, span) = match (&field.ident, &attrs.rename) {
            (_, Some(lit)) => (member(field, i), lit.value(), lit.span()),
            (Some(ident), None) => (
                member(field, i),
                pascal_case(&ident.to_string()),
                ident.span(),
            ),
            (None, None) => (member(field, i), i.to_string(), field.ty.span()),
        };
        let positional = field.ident.is_none() && attrs.rename.is_none();
        if !positional {
            if let Some(problem) = key_problem(&key) {
                cx.error_at(
                    span,
                    format!("key {key:?} {problem}: keys are ASCII identifiers"),
                );
                continue;
            }
        }
        if let Some(other) = seen.insert(normalize(&key), key.clone()) {
            cx.error_at(
                span,
                format!(
                    "key `{key}` is the same key as `{other}` (keys ignore ASCII case and `_`)"
                ),
            );
            continue;
        }
        leaves.push(Leaf {
            member,
            ty: &field.ty,
            key,
        });
    }
    if leaves.is_empty() {
        cx.error_spanned_by(
            &data.fields,
            "a composite needs at least one field that is not skipped: it has no leaf to write",
        );
    }
    leaves
}

/// The member (`self.hp`, `self.0`) of field `i`.
fn member(field: &syn::Field, i: usize) -> Member {
    match &field.ident {
        Some(ident) => Member::Named(ident.clone()),
        None => Member::Unnamed(syn::Index::from(i)),
    }
}

/// The leaves of `#[derive(Codec)]` on a struct, every problem reported to `cx`.
pub(crate) fn parse<'a>(cx: &Ctxt, input: &DeriveInput, data: &'a DataStruct) -> Vec<Leaf<'a>> {
    if matches!(data.fields, Fields::Unit) {
        cx.error_at(
            input.ident.span(),
            "#[derive(Codec)] on a struct needs fields: each is a leaf of the composite",
        );
        return Vec::new();
    }
    parse_leaves(cx, data)
}

/// The `Field` impl emitted next to errors: no leaves, nothing generated from the
/// faulty input.
pub(crate) fn stub(input: &DeriveInput, krate: &syn::Path) -> TokenStream {
    let message = "#[derive(Codec)] failed; see the errors above";
    // SAFETY (of the impl): no leaves describe no field.
    unsafe_field_impl(
        &input.ident,
        krate,
        quote!([]),
        FieldBodies {
            save: quote!(let _ = (key, out); ::core::unreachable!(#message)),
            read: quote!(let _ = (properties, start, header);),
            decode: quote!(let _ = (properties, leaf); ::core::unreachable!(#message)),
            copy: quote!(let _ = (src, set, start); ::core::unreachable!(#message)),
        },
    )
}

/// The `Field` impl of a composite whose leaves are `leaves`.
pub(crate) fn expand(input: &DeriveInput, leaves: &[Leaf<'_>], krate: &syn::Path) -> TokenStream {
    let ident = &input.ident;
    let starts: Vec<_> = (0..leaves.len())
        .map(|i| format_ident!("__JULIET_LEAF_{}", i))
        .collect();
    let table = leaf_table(ident, leaves, krate);
    let consts = start_consts(leaves, &starts, krate);
    let field_impl = field_impl(ident, leaves, &starts, krate);
    quote! {
        const _: () = {
            #table
            #consts

            #field_impl
        };
    }
}

/// `<Ty as Field>` for the type of `leaf`, spanned at that type.
fn leaf_field(leaf: &Leaf<'_>, krate: &syn::Path) -> TokenStream {
    let field = quote!(#krate::__private::Field);
    let ty = leaf.ty;
    quote_spanned!(ty.span()=> <#ty as #field>)
}

/// The constants `starts` naming the table index of each field's first leaf.
fn start_consts(leaves: &[Leaf<'_>], starts: &[Ident], krate: &syn::Path) -> TokenStream {
    let consts = starts.iter().enumerate().map(|(i, start)| {
        let value = match i {
            0 => quote!(0),
            _ => {
                let (before, ty) = (&starts[i - 1], leaf_field(&leaves[i - 1], krate));
                quote!(#before + #ty::LEAVES.len())
            }
        };
        quote!(const #start: usize = #value;)
    });
    quote!(#(#consts)*)
}

/// The composite's property table: one `Part` per field, its headers and its leaves.
fn leaf_table(ident: &Ident, leaves: &[Leaf<'_>], krate: &syn::Path) -> TokenStream {
    let parts = leaves.iter().map(|leaf| {
        let (member, key, ty) = (&leaf.member, &leaf.key, leaf_field(leaf, krate));
        let name = match member {
            Member::Named(ident) => ident.to_string(),
            Member::Unnamed(index) => index.index.to_string(),
        };
        quote!(#krate::__private::Part::new(#key, #name, ::core::mem::offset_of!(#ident, #member), #ty::LEAVES))
    });
    let count = Literal::usize_unsuffixed(leaves.len());
    quote! {
        const __JULIET_PARTS: [#krate::__private::Part; #count] = [#(#parts),*];
        const __JULIET_HEADER_BYTES: usize = #krate::__private::header_bytes(&__JULIET_PARTS);
        static __JULIET_HEADERS: [u8; __JULIET_HEADER_BYTES] =
            #krate::__private::headers::<__JULIET_HEADER_BYTES>(&__JULIET_PARTS);
        const __JULIET_LEAVES: usize = #krate::__private::leaf_count(&__JULIET_PARTS);
        static __JULIET_TABLE: [#krate::PropertyDescriptor; __JULIET_LEAVES] =
            #krate::__private::table::<__JULIET_LEAVES>(&__JULIET_PARTS, &__JULIET_HEADERS);
    }
}

/// The `Field` impl: each operation passed on to every field's own, its leaves found
/// from the `starts` constants.
fn field_impl(
    ident: &Ident,
    leaves: &[Leaf<'_>],
    starts: &[Ident],
    krate: &syn::Path,
) -> TokenStream {
    let saves = leaves.iter().map(|leaf| {
        let (member, ty) = (&leaf.member, leaf_field(leaf, krate));
        let suffix = format!(".{}", leaf.key);
        quote! {
            path.truncate(key.len());
            // A flattened composite's leaves have no field key in front.
            path.push_str(if key.is_empty() { &#suffix[1..] } else { #suffix });
            #ty::save_field(&self.#member, &path, out);
        }
    });
    let reads = leaves.iter().zip(starts).map(|(leaf, start)| {
        let (member, ty) = (&leaf.member, leaf_field(leaf, krate));
        quote! {
            let header = properties.header(start + #start);
            #ty::read_field(&mut self.#member, properties, start + #start, header)?;
        }
    });
    // Last field first: the first whose leaves start at or before `leaf` holds it.
    let decodes = leaves.iter().enumerate().rev().map(|(i, leaf)| {
        let (member, ty, start) = (&leaf.member, leaf_field(leaf, krate), &starts[i]);
        let call = quote!(#ty::decode_leaf(&mut self.#member, properties, leaf - #start));
        if i == 0 {
            quote!(#call)
        } else {
            quote!(if leaf >= #start { return #call; })
        }
    });
    let copies = leaves.iter().zip(starts).map(|(leaf, start)| {
        let (member, ty) = (&leaf.member, leaf_field(leaf, krate));
        quote!(#ty::copy_leaves(&mut self.#member, &src.#member, set, start + #start);)
    });
    // SAFETY (of the impl): the leaves are made here from the struct's own fields, each
    // at `offset_of!` that field (plus the leaf's own offset within it) with the
    // operations of the leaf's type.
    unsafe_field_impl(
        ident,
        krate,
        quote!(__JULIET_TABLE),
        FieldBodies {
            save: quote! {
                let mut path = ::std::string::String::with_capacity(key.len() + 16);
                path.push_str(key);
                #(#saves)*
            },
            read: quote! {
                let _ = header;
                #(#reads)*
            },
            decode: quote!(#(#decodes)*),
            copy: quote!(#(#copies)*),
        },
    )
}

/// The bodies of the four methods of a `Field` impl.
pub(crate) struct FieldBodies {
    /// `save_field(&self, key, out)`.
    pub(crate) save: TokenStream,
    /// `read_field(&mut self, properties, start, header)`, before its `Ok(())`.
    pub(crate) read: TokenStream,
    /// `decode_leaf(&mut self, properties, leaf)`, whole.
    pub(crate) decode: TokenStream,
    /// `copy_leaves(&mut self, src, set, start)`.
    pub(crate) copy: TokenStream,
}

/// The `unsafe impl Field` of `ident` whose `LEAVES` is the constant `table`: the
/// caller states why its leaves describe the type (each descriptor's offset and
/// operations).
pub(crate) fn unsafe_field_impl(
    ident: &syn::Ident,
    krate: &syn::Path,
    table: TokenStream,
    bodies: FieldBodies,
) -> TokenStream {
    let (save, read, decode, copy) = (bodies.save, bodies.read, bodies.decode, bodies.copy);
    quote! {
        #[automatically_derived]
        unsafe impl #krate::__private::Field for #ident {
            const LEAVES: &'static [#krate::PropertyDescriptor] = &#table;

            fn save_field(&self, key: &str, out: &mut ::std::string::String) {
                #save
            }

            fn read_field(
                &mut self,
                properties: &mut #krate::Properties<'_, '_>,
                start: usize,
                header: &'static str,
            ) -> ::core::result::Result<(), #krate::Error> {
                #read
                ::core::result::Result::Ok(())
            }

            fn decode_leaf(
                &mut self,
                properties: &mut #krate::Properties<'_, '_>,
                leaf: usize,
            ) -> ::core::result::Result<(), #krate::Error> {
                #decode
            }

            fn copy_leaves(&mut self, src: &Self, set: &[u64], start: usize) {
                #copy
            }
        }
    }
}
