//! `#[derive(Construct)]`: finds the `Owned<..>` and `ConstructView<..>` fields of a
//! struct (by the last segment of their type's path) and implements `ConstructParts`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Member, Type};

use super::runtime;
use crate::ctxt::Ctxt;

/// What a field is to the runtime.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Owned,
    View,
    Plain,
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

/// The expansion of `#[derive(Construct)]`.
pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let fields = match &input.data {
        Data::Struct(s) => Some(&s.fields),
        Data::Enum(e) => {
            cx.error_spanned_by(
                e.enum_token,
                "#[derive(Construct)] needs a struct (a construct's parts are its fields)",
            );
            None
        }
        Data::Union(u) => {
            cx.error_spanned_by(
                u.union_token,
                "#[derive(Construct)] needs a struct (a construct's parts are its fields)",
            );
            None
        }
    };
    if let Err(errors) = cx.check() {
        return errors;
    }
    let fields = fields.expect("checked");
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
        let ty = &field.ty;
        match part_of(ty) {
            Part::Owned => {
                let marker = format_ident!("__JulietOwnedField{}", i);
                let span = ty.span();
                markers.push(quote_spanned! {span=>
                    #[doc(hidden)]
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
                });
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
