//! An enum with data as a field of a class: the `Variants` impl (the enum's shape and
//! one match per operation on a field leaf) and the `Field` impl whose leaves are the
//! variant (`Trigger`) and each distinct field key of the variants (`Trigger.Radius`),
//! through core's `VariantLeaf` and `FieldLeaf` wrappers.

use proc_macro2::{Literal, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::DeriveInput;

use crate::composite::{unsafe_field_impl, FieldBodies};
use crate::data_enum::Variant;
use crate::key::normalize;

/// The leaf index of each field of each variant: fields of several variants whose keys
/// are one key (ASCII case and `_` ignored) share one. Also the keys, first spelling.
fn leaf_indices(variants: &[Variant<'_>]) -> (Vec<Vec<usize>>, Vec<String>) {
    let mut keys: Vec<String> = Vec::new();
    let of = variants
        .iter()
        .map(|v| {
            v.fields
                .iter()
                .map(|f| {
                    let norm = normalize(&f.key);
                    match keys.iter().position(|k| normalize(k) == norm) {
                        Some(k) => k,
                        None => {
                            keys.push(f.key.clone());
                            keys.len() - 1
                        }
                    }
                })
                .collect()
        })
        .collect();
    (of, keys)
}

/// The `Variants` and `Field` impls of the enum with data `input`.
pub(crate) fn expand(
    input: &DeriveInput,
    variants: &[Variant<'_>],
    krate: &syn::Path,
) -> TokenStream {
    let ident = &input.ident;
    let type_name = ident.to_string();
    let private = quote!(#krate::__private);
    let (leaf_of, keys) = leaf_indices(variants);
    let shape = variants.iter().map(|v| {
        let name = &v.name;
        let fields = v.fields.iter().map(|f| {
            let (key, ty) = (&f.key, f.ty);
            let of = quote_spanned!(ty.span()=> <#ty as #krate::Codec>::PROPERTY_TYPE);
            quote!((#key, &#of))
        });
        quote!((#name, &[#(#fields),*]))
    });
    let names = variants.iter().map(|v| &v.name);
    let fields = variants.iter().map(|v| {
        let keys = v.fields.iter().map(|f| &f.key);
        quote!(&[#(#keys),*])
    });
    let leaf_of_tokens = leaf_of.iter().map(|ks| {
        let ks = ks.iter().map(|&k| Literal::usize_unsuffixed(k));
        quote!(&[#(#ks),*])
    });
    let ops = field_ops(variants, &leaf_of, krate);
    let leaves = leaf_table(ident, &keys, variants, &leaf_of, krate);
    let field_impl = field_impl(ident, keys.len(), krate);
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #private::Variants for #ident {
                const TYPE_NAME: &'static str = #type_name;
                const SHAPE: &'static [(&'static str, &'static [(&'static str, &'static #krate::PropertyType)])] =
                    &[#(#shape),*];
                const KEYS: &'static [&'static str] = &[#(#keys),*];
                const NAMES: &'static [&'static str] = &[#(#names),*];
                const FIELDS: &'static [&'static [&'static str]] = &[#(#fields),*];
                const LEAF_OF: &'static [&'static [usize]] = &[#(#leaf_of_tokens),*];
                #ops
            }

            #leaves
            #field_impl
        };
    }
}

/// The pattern `Self::Variant { member: binding, .. }`.
fn field_pattern(v: &Variant<'_>, member: &syn::Member, binding: &TokenStream) -> TokenStream {
    let vident = v.ident;
    quote!(Self::#vident { #member: #binding, .. })
}

/// The methods of `Variants` that look at the variant in use and its fields.
fn field_ops(variants: &[Variant<'_>], leaf_of: &[Vec<usize>], krate: &syn::Path) -> TokenStream {
    let codec = quote!(#krate::Codec);
    let (mut which, mut makes) = (Vec::new(), Vec::new());
    let (mut encodes, mut decodes, mut sames, mut clones) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (vi, v) in variants.iter().enumerate() {
        let (vident, index) = (v.ident, Literal::usize_unsuffixed(vi));
        which.push(quote!(Self::#vident { .. } => #index,));
        let inits = v.fields.iter().map(|f| {
            let (member, ty) = (&f.member, f.ty);
            let default = quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default());
            quote!(#member: #default)
        });
        makes.push(quote!(#index => Self::#vident { #(#inits),* },));
        for (f, &k) in v.fields.iter().zip(&leaf_of[vi]) {
            let (k, ty) = (Literal::usize_unsuffixed(k), f.ty);
            let of = quote_spanned!(ty.span()=> <#ty as #codec>);
            let (a, b) = (quote!(__a), quote!(__b));
            let (pa, pb) = (
                field_pattern(v, &f.member, &a),
                field_pattern(v, &f.member, &b),
            );
            encodes.push(quote!((#pa, #k) => { #of::encode(#a, out); true }));
            decodes.push(quote!((#pa, #k) => { #of::decode_into(#a, value)?; ::core::result::Result::Ok(true) }));
            sames.push(quote!((#pa, #pb, #k) => #of::same_value(#a, #b),));
            sames.push(quote!((Self::#vident { .. }, _, #k) => false,));
            clones.push(quote!((#pa, #pb, #k) => ::core::clone::Clone::clone_from(#a, #b),));
        }
    }
    quote! {
        fn variant(&self) -> usize {
            match self { #(#which)* }
        }

        fn to_variant(&mut self, v: usize) {
            *self = match v {
                #(#makes)*
                _ => ::core::unreachable!("a variant index is below NAMES.len()"),
            };
        }

        #[allow(unused_variables)]
        fn encode_field(&self, k: usize, out: &mut ::std::string::String) -> bool {
            match (self, k) { #(#encodes)* _ => false }
        }

        #[allow(unused_variables)]
        fn decode_field<'a>(
            &mut self,
            k: usize,
            value: #krate::Value<'a>,
        ) -> ::core::result::Result<bool, #krate::ValueError<'a>> {
            match (self, k) { #(#decodes)* _ => ::core::result::Result::Ok(false) }
        }

        #[allow(unused_variables)]
        fn same_field(&self, other: &Self, k: usize) -> bool {
            match (self, other, k) { #(#sames)* _ => true }
        }

        #[allow(unused_variables)]
        fn clone_field(&mut self, src: &Self, k: usize) {
            match (self, src, k) { #(#clones)* _ => {} }
        }
    }
}

/// The `static` leaf table: the variant, then one leaf per distinct field key, each
/// through its wrapper type at the enum's own offset.
fn leaf_table(
    ident: &syn::Ident,
    keys: &[String],
    variants: &[Variant<'_>],
    leaf_of: &[Vec<usize>],
    krate: &syn::Path,
) -> TokenStream {
    let private = quote!(#krate::__private);
    let fields = keys.iter().enumerate().map(|(k, key)| {
        // The Rust name of the first field with this key.
        let member = variants
            .iter()
            .zip(leaf_of)
            .find_map(|(v, ks)| ks.iter().position(|&x| x == k).map(|i| &v.fields[i].member))
            .map(|m| match m {
                syn::Member::Named(ident) => ident.to_string(),
                syn::Member::Unnamed(index) => index.index.to_string(),
            })
            .unwrap_or_default();
        let k = Literal::usize_unsuffixed(k);
        quote!(#krate::PropertyDescriptor::new::<#private::FieldLeaf<#ident, #k>>(#key, #member, 0, &[]))
    });
    let count = Literal::usize_unsuffixed(keys.len() + 1);
    quote! {
        static __JULIET_VARIANT_LEAVES: [#krate::PropertyDescriptor; #count] = [
            #krate::PropertyDescriptor::new::<#private::VariantLeaf<#ident>>("", "", 0, &[]),
            #(#fields),*
        ];
    }
}

/// The `Field` impl: the leaves above, read and written by core's functions on the
/// enum itself.
fn field_impl(ident: &syn::Ident, keys: usize, krate: &syn::Path) -> TokenStream {
    let private = quote!(#krate::__private);
    let reads = (0..keys).map(|k| {
        let (k, j) = (
            Literal::usize_unsuffixed(k),
            Literal::usize_unsuffixed(k + 1),
        );
        quote! {
            let header = properties.header(start + #j);
            #private::read_variant_field::<Self, #k>(properties, start + #j, header, self)?;
        }
    });
    let decodes = (0..keys).map(|k| {
        let (k, j) = (
            Literal::usize_unsuffixed(k),
            Literal::usize_unsuffixed(k + 1),
        );
        quote!(#j => #private::decode_variant_field::<Self, #k>(properties, self),)
    });
    let copies = (0..keys).map(|k| {
        let (k, j) = (
            Literal::usize_unsuffixed(k),
            Literal::usize_unsuffixed(k + 1),
        );
        quote! {
            if #private::in_set(set, start + #j) {
                #private::Variants::clone_field(self, src, #k);
            }
        }
    });
    // SAFETY (of the impl): every leaf is the enum itself, at offset 0, through a
    // `#[repr(transparent)]` wrapper of it (`VariantLeaf`, `FieldLeaf`) whose
    // operations the descriptor was made with.
    let bodies = FieldBodies {
        save: quote!(#private::save_variant_leaves(self, key, out);),
        read: quote! {
            properties.read_in_place(start, header, self, #private::read_variant_leaf::<Self>)?;
            #(#reads)*
        },
        decode: quote! {
            match leaf {
                0 => properties.decode_in_place(self, #private::read_variant_leaf::<Self>),
                #(#decodes)*
                _ => ::core::unreachable!("a leaf index is below LEAVES.len()"),
            }
        },
        copy: quote! {
            if #private::in_set(set, start)
                && #private::Variants::variant(self) != #private::Variants::variant(src)
            {
                ::core::clone::Clone::clone_from(self, src);
            }
            #(#copies)*
        },
    };
    unsafe_field_impl(ident, krate, quote!(__JULIET_VARIANT_LEAVES), bodies)
}
