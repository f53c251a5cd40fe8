//! A composite as a *record*, for the containers that hold one: the `Item` impl (an
//! element of a `Vec`, a map's value: one `Key: value` line per leaf, nested leaves by
//! their path) and the `Optional` impl (an `Option`'s value). Both impls put their
//! needs in higher-ranked `where` clauses, which are checked where the impl is used: a
//! composite with a leaf that has no one-line form (a list of lists) still compiles as
//! a field, and `Vec<ThatComposite>` is the error, at the field that holds it.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident};

use crate::composite::Leaf;

/// The `Item` and `Optional` impls of the composite whose leaves are `leaves`.
pub(crate) fn expand(input: &DeriveInput, leaves: &[Leaf<'_>], krate: &syn::Path) -> TokenStream {
    item_and_optional(
        item_impl(&input.ident, leaves, krate),
        optional_impl(&input.ident, krate),
    )
}

/// An `Item` impl and an `Optional` impl in one `const _: () = { ... };` block.
pub(crate) fn item_and_optional(item_impl: TokenStream, optional_impl: TokenStream) -> TokenStream {
    quote! {
        const _: () = {
            #item_impl

            #optional_impl
        };
    }
}

/// `<Ty as Item>` for the type of `leaf`, spanned at that type.
fn leaf_item(leaf: &Leaf<'_>, krate: &syn::Path) -> TokenStream {
    let item = quote!(#krate::Item);
    let ty = leaf.ty;
    quote_spanned!(ty.span()=> <#ty as #item>)
}

/// The `Item` impl: a record of one entry per leaf.
fn item_impl(ident: &Ident, leaves: &[Leaf<'_>], krate: &syn::Path) -> TokenStream {
    let name = ident.to_string();
    let item = quote!(#krate::Item);
    let private = quote!(#krate::__private);
    let bounds = leaves.iter().map(|leaf| {
        let ty = leaf.ty;
        quote_spanned!(ty.span()=> #ty: #item)
    });
    let types = leaves.iter().map(|leaf| {
        let (key, ty) = (&leaf.key, leaf_item(leaf, krate));
        quote!((#key, &#ty::ITEM_TYPE))
    });
    let record = quote! {
        #krate::PropertyType::Record { name: #name, leaves: &[#(#types),*] }
    };
    let encodes = encode_entries(leaves, krate);
    let decodes = decode_entry(leaves, krate);
    let sames = leaves.iter().map(|leaf| {
        let (member, ty) = (&leaf.member, leaf_item(leaf, krate));
        quote!(&& #ty::same_item(&self.#member, &other.#member))
    });
    let bounds = quote! {
        for<'__juliet> #ident: ::core::default::Default,
        #(for<'__juliet> #bounds,)*
    };
    let bodies = ItemBodies {
        item_type: record,
        whole: [
            quote!(#private::write_record(self, out);),
            quote!(#private::decode_record(lines)),
        ],
        entries: [encodes, decodes],
        same_item: quote!(true #(#sames)*),
        read_written: Some(read_written(leaves, krate)),
    };
    item_impl_of(ident, krate, bounds, bodies)
}

/// What the `Item` impl of a record or of an enum with data holds: its `ITEM_TYPE` and
/// the bodies of its methods.
pub(crate) struct ItemBodies {
    /// `ITEM_TYPE`.
    pub(crate) item_type: TokenStream,
    /// `encode_item(&self, out)` and `decode_item(lines)`: the item as a whole.
    pub(crate) whole: [TokenStream; 2],
    /// `encode_entries(&self, path, out)` and `decode_entry(&mut self, path, key, text)`:
    /// the item's entries one by one.
    pub(crate) entries: [TokenStream; 2],
    /// `same_item(&self, other)`.
    pub(crate) same_item: TokenStream,
    /// `read_written(key, text)`, when the item has a body of its own for it.
    pub(crate) read_written: Option<TokenStream>,
}

/// The `Item` impl of `ident` (a record: `RECORD` is true) under the where clauses
/// `bounds`.
pub(crate) fn item_impl_of(
    ident: &Ident,
    krate: &syn::Path,
    bounds: TokenStream,
    bodies: ItemBodies,
) -> TokenStream {
    let ItemBodies {
        item_type,
        whole: [encode_item, decode_item],
        entries: [encode_entries, decode_entry],
        same_item,
        read_written,
    } = bodies;
    let read_written = read_written.map(|body| {
        quote! {
            fn read_written<'t>(
                key: &str,
                text: &'t str,
            ) -> ::core::option::Option<(Self, &'t str)> {
                #body
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #krate::Item for #ident
        where
            #bounds
        {
            const ITEM_TYPE: #krate::PropertyType = #item_type;
            const RECORD: bool = true;

            fn encode_item(&self, out: &mut ::std::string::String) {
                #encode_item
            }

            #[allow(unused_variables)]
            fn decode_item<'a>(
                lines: &[&'a str],
            ) -> ::core::result::Result<Self, #krate::ValueError<'a>> {
                #decode_item
            }

            fn encode_entries(
                &self,
                path: &mut ::std::string::String,
                out: &mut ::std::string::String,
            ) {
                #encode_entries
            }

            fn decode_entry<'a>(
                &mut self,
                path: &'a str,
                key: &'a str,
                text: &'a str,
            ) -> ::core::result::Result<(), #krate::ValueError<'a>> {
                #decode_entry
            }

            fn same_item(&self, other: &Self) -> bool {
                #same_item
            }

            #read_written
        }
    }
}

/// The body of `Item::read_written`: the record (`key` empty) read leaf by leaf, in
/// declaration order, each by its type's `read_written` under its key.
fn read_written(leaves: &[Leaf<'_>], krate: &syn::Path) -> TokenStream {
    let reads = leaves.iter().map(|leaf| {
        let (member, key, ty) = (&leaf.member, &leaf.key, leaf_item(leaf, krate));
        quote! {
            let (leaf, text) = #ty::read_written(#key, text)?;
            record.#member = leaf;
        }
    });
    quote! {
        if !key.is_empty() {
            return ::core::option::Option::None;
        }
        let mut record = <Self as ::core::default::Default>::default();
        #(#reads)*
        ::core::option::Option::Some((record, text))
    }
}

/// The body of `Item::encode_entries`: each leaf's entries under its path.
fn encode_entries(leaves: &[Leaf<'_>], krate: &syn::Path) -> TokenStream {
    let encodes = leaves.iter().map(|leaf| {
        let (member, key, ty) = (&leaf.member, &leaf.key, leaf_item(leaf, krate));
        quote! {
            path.truncate(len);
            if len > 0 {
                path.push('.');
            }
            path.push_str(#key);
            #ty::encode_entries(&self.#member, path, out);
        }
    });
    quote! {
        let len = path.len();
        #(#encodes)*
        path.truncate(len);
    }
}

/// The body of `Item::decode_entry`: the entry passed to the leaf its path starts
/// with, or an error naming the leaves.
fn decode_entry(leaves: &[Leaf<'_>], krate: &syn::Path) -> TokenStream {
    let private = quote!(#krate::__private);
    let keys: Vec<&str> = leaves.iter().map(|leaf| leaf.key.as_str()).collect();
    // The exact keys first (the writer's spelling, one compare each), then the other
    // spellings of each.
    let decodes = |exact: bool| {
        leaves.iter().map(move |leaf| {
            let (member, key, ty) = (&leaf.member, &leaf.key, leaf_item(leaf, krate));
            let matches = match exact {
                true => quote!(head == #key),
                false => quote!(#krate::keys_equal(head, #key)),
            };
            quote! {
                if #matches {
                    return #ty::decode_entry(&mut self.#member, rest, key, text);
                }
            }
        })
    };
    let (exact, spelt) = (decodes(true), decodes(false));
    quote! {
        let (head, rest) = #private::split_path(path);
        #(#exact)*
        #(#spelt)*
        ::core::result::Result::Err(#private::no_such_leaf(key, head, &[#(#keys),*]))
    }
}

/// The `Optional` impl: the record as an `Option`'s value.
fn optional_impl(ident: &Ident, krate: &syn::Path) -> TokenStream {
    let item = quote!(#krate::Item);
    let private = quote!(#krate::__private);
    quote! {
        #[automatically_derived]
        impl #krate::Optional for #ident
        where
            for<'__juliet> #ident: #item + ::core::default::Default,
        {
            const OPTIONAL_TYPE: #krate::PropertyType = <Self as #item>::ITEM_TYPE;

            fn encode_some(&self, out: &mut ::std::string::String) {
                #private::write_record(self, out);
            }

            fn decode_some(
                value: #krate::Value<'_>,
            ) -> ::core::result::Result<Self, #krate::ValueError<'_>> {
                #private::decode_record_value(value)
            }

            fn same_some(&self, other: &Self) -> bool {
                <Self as #item>::same_item(self, other)
            }
        }
    }
}
