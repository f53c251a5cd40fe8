//! `#[derive(Construct)]`: finds the `Owned<..>` and `ConstructView<..>` fields of a
//! struct (marked `#[part(owned)]` / `#[part(view)]`, or by the last segment of their
//! type's path) and implements `ConstructParts`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Ident, Member, Type};

use super::runtime;
use crate::ctxt::Ctxt;

/// What a field is to the runtime.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Owned,
    View,
    Plain,
}

/// The part a field's `#[part(..)]` names (`owned`, `view`, `plain`), every problem
/// reported to `cx`; `None` without the attribute.
fn marked_part(cx: &Ctxt, field: &syn::Field) -> Option<Part> {
    let mut found = None;
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("part")) {
        let parsed = attr.parse_nested_meta(|meta| {
            let part = if meta.path.is_ident("owned") {
                Part::Owned
            } else if meta.path.is_ident("view") {
                Part::View
            } else if meta.path.is_ident("plain") {
                Part::Plain
            } else {
                return Err(meta.error("expected `owned`, `view` or `plain`"));
            };
            if found.replace(part).is_some() {
                return Err(meta.error("a field is one part: give `#[part(..)]` once"));
            }
            Ok(())
        });
        if let Err(e) = parsed {
            cx.syn_error(e);
        }
    }
    found
}

/// The part a field type names: `Owned<..>`, `ConstructView<..>` (any path ending so),
/// or neither.
fn part_of(ty: &Type) -> Part {
    let Type::Path(path) = ty else {
        return Part::Plain;
    };
    match path.path.segments.last() {
        Some(seg) if seg.ident == "Owned" => Part::Owned,
        Some(seg) if seg.ident == "ConstructView" => Part::View,
        _ => Part::Plain,
    }
}

/// The expansion of `#[derive(Construct)]`: the struct's fields and their parts, then
/// the impl of `ConstructParts` (or, on error, the errors and an empty impl).
pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let fields = struct_fields(&cx, input);
    let parts: Vec<Part> = fields
        .into_iter()
        .flatten()
        .map(|f| marked_part(&cx, f).unwrap_or_else(|| part_of(&f.ty)))
        .collect();
    if let Err(mut errors) = cx.check() {
        if fields.is_some() {
            // A struct with a bad mark still has its parts' impl (none), so that the
            // errors above are all there is.
            errors.extend(empty_impl(input));
        }
        return errors;
    }
    let fields = fields.expect("checked");
    parts_impl(input, fields, &parts)
}

/// The fields of the struct `input`; an enum or a union is an error.
fn struct_fields<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Option<&'a Fields> {
    let message = "#[derive(Construct)] needs a struct (a construct's parts are its fields)";
    match &input.data {
        Data::Struct(s) => Some(&s.fields),
        Data::Enum(e) => {
            cx.error_spanned_by(e.enum_token, message);
            None
        }
        Data::Union(u) => {
            cx.error_spanned_by(u.union_token, message);
            None
        }
    }
}

/// The impl of `ConstructParts` with no children and no views.
fn empty_impl(input: &DeriveInput) -> TokenStream {
    let rt = runtime();
    let private = quote!(#rt::__private);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        impl #impl_generics #rt::ConstructParts for #ident #ty_generics #where_clause {
            fn __register_children<R: #rt::Construct, P: #private::FieldPath<R, Target = Self>>(
                _: &mut impl #private::Registrar<R>,
            ) {}
            fn __for_each_child(&mut self, _: &mut dyn FnMut(&mut dyn #private::DynConstruct)) {}
            fn __for_each_view(&mut self, _: &mut dyn FnMut(&mut dyn #private::ViewHandle)) {}
        }
    }
}

/// The impl of `ConstructParts` for the struct `input` whose fields are `fields`, of
/// parts `parts`: each owned child registered through a marker type (its `FieldPath`
/// from the struct) and visited, each view visited.
fn parts_impl(input: &DeriveInput, fields: &Fields, parts: &[Part]) -> TokenStream {
    let rt = runtime();
    let private = quote!(#rt::__private);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut markers = Vec::new();
    let mut register = Vec::new();
    let mut children = Vec::new();
    let mut views = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        let member = match &field.ident {
            Some(name) => Member::Named(name.clone()),
            None => Member::from(i),
        };
        match parts[i] {
            Part::Owned => {
                let marker = format_ident!("__JulietOwnedField{}", i);
                markers.push(owned_marker(input, &marker, &field.ty, &member));
                register.push(quote! {
                    registrar.owned::<#private::Then<P, #marker>>();
                });
                children.push(quote! {
                    f(#private::OwnedField::child(&mut self.#member));
                });
            }
            Part::View => views.push(quote! { f(&mut self.#member); }),
            Part::Plain => {}
        }
    }
    quote! {
        const _: () = {
            #(#markers)*

            impl #impl_generics #rt::ConstructParts for #ident #ty_generics #where_clause {
                #[allow(unused_variables)]
                fn __register_children<R: #rt::Construct, P: #private::FieldPath<R, Target = Self>>(
                    registrar: &mut impl #private::Registrar<R>,
                ) {
                    #(#register)*
                }

                #[allow(unused_variables)]
                fn __for_each_child(&mut self, f: &mut dyn FnMut(&mut dyn #private::DynConstruct)) {
                    #(#children)*
                }

                #[allow(unused_variables)]
                fn __for_each_view(&mut self, f: &mut dyn FnMut(&mut dyn #private::ViewHandle)) {
                    #(#views)*
                }
            }
        };
    }
}

/// The marker type `marker` of the owned field `member` (of type `ty`): the
/// `FieldPath` from the struct to the field's child, spanned at the field type.
fn owned_marker(input: &DeriveInput, marker: &Ident, ty: &Type, member: &Member) -> TokenStream {
    let rt = runtime();
    let private = quote!(#rt::__private);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let span = ty.span();
    quote_spanned! {span=>
        #[doc(hidden)]
        #[allow(unreachable_pub)]
        pub struct #marker;
        impl #impl_generics #private::FieldPath<#ident #ty_generics> for #marker
        #where_clause
        {
            type Target = <#ty as #private::OwnedField>::Child;
            #[inline(always)]
            fn get(root: &mut #ident #ty_generics) -> &mut Self::Target {
                #private::OwnedField::child(&mut root.#member)
            }
        }
    }
}
