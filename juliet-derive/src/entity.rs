//! Expansion of `#[derive(Entity)]`: the `Reflect` impl (class descriptor, property
//! table, default-init stub, clone, save, load with one-pass CRC dispatch and the
//! migration call) and the registration with the class registry.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident, Path};

use crate::ast::{Container, Field};
use crate::ctxt::Ctxt;
use crate::key::normalize;
use crate::validate;

/// `#[derive(Entity)]`: parse -> validate -> expand. On error, the errors and a stub
/// impl (so that uses of the type's `Reflect` impl do not add errors of their own).
pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, input);
    validate::check(&cx, &cont);
    match cx.check() {
        Ok(()) => expand(&cont),
        Err(errors) => {
            let stub = stub(&cont);
            quote!(#errors #stub)
        }
    }
}

/// The `const KEY_...: u32` item name of a key (normalized keys are unique in a class).
fn key_const(key: &str) -> Ident {
    format_ident!("KEY_{}", normalize(key).to_ascii_uppercase())
}

/// The field's default-init expression: `default = expr`, else `Default::default()`
/// spanned at the field type (so a type without `Default` is reported there).
fn field_default(field: &Field<'_>) -> TokenStream {
    match &field.attrs.default {
        Some(expr) => quote!(#expr),
        None => {
            let ty = field.ty;
            quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default())
        }
    }
}

fn expand(cont: &Container<'_>) -> TokenStream {
    let krate = cont.krate();
    let ident = cont.ident();
    let class = class_const(cont, &krate);
    let default_value = default_value(cont);
    let clone_value = clone_value(cont);
    let save = save(cont, &krate);
    let load = load(cont, &krate);

    // One `T: Codec` predicate per distinct property type, each spanned at the field's
    // type: a type without a codec is then one error, at the type, instead of one per
    // use in the table, save and load.
    let mut seen = Vec::new();
    let mut bounds = Vec::new();
    for field in cont.properties() {
        let ty = field.ty;
        let text = quote!(#ty).to_string();
        if !seen.contains(&text) {
            seen.push(text);
            bounds.push(quote_spanned!(ty.span()=> #ty: #krate::Codec));
        }
    }

    quote! {
        const _: () = {
            #[automatically_derived]
            impl #krate::Reflect for #ident
            where
                #(#bounds,)*
            {
                #class
                #default_value
                #clone_value
                #save
                #load
            }

            #krate::inventory::submit! {
                #krate::ClassRegistration {
                    class: <#ident as #krate::Reflect>::CLASS,
                }
            }
        };
    }
}

fn class_const(cont: &Container<'_>, krate: &Path) -> TokenStream {
    let name = cont.class_name();
    let version = Literal::u32_unsuffixed(cont.version());
    let properties = cont.properties().map(|field| {
        let ty = field.ty;
        let member = field.ident;
        let key = &field.key.text;
        let field_name = field.name();
        let aliases = field.aliases.iter().map(|a| {
            let text = &a.text;
            quote!(#krate::Key::new(#text))
        });
        let new = quote_spanned!(ty.span()=> #krate::PropertyDescriptor::new::<#ty>);
        quote! {
            #new(
                #key,
                #field_name,
                ::core::mem::offset_of!(Self, #member),
                &[#(#aliases),*],
            )
        }
    });
    let deprecated = cont.attrs.deprecated.iter().map(|lit| {
        let text = lit.value();
        quote!(#krate::Key::new(#text))
    });
    quote! {
        const CLASS: &'static #krate::Class = &#krate::Class::of::<Self>(
            #name,
            #version,
            &[#(#properties),*],
            &[#(#deprecated),*],
        );
    }
}

fn default_value(cont: &Container<'_>) -> TokenStream {
    if cont.attrs.default.is_some() {
        return quote! {
            fn default_value() -> Self {
                <Self as ::core::default::Default>::default()
            }
        };
    }
    let inits = cont.fields.iter().map(|field| {
        let member = field.ident;
        let value = field_default(field);
        quote!(#member: #value)
    });
    quote! {
        fn default_value() -> Self {
            Self {
                #(#inits,)*
            }
        }
    }
}

fn clone_value(cont: &Container<'_>) -> TokenStream {
    let container_default = cont.attrs.default.is_some();
    let inits = cont.fields.iter().filter_map(|field| {
        let member = field.ident;
        if field.is_property() {
            Some(quote!(#member: ::core::clone::Clone::clone(&self.#member)))
        } else if container_default {
            None
        } else {
            let value = field_default(field);
            Some(quote!(#member: #value))
        }
    });
    let rest = (container_default && cont.fields.iter().any(|f| !f.is_property()))
        .then(|| quote!(..<Self as ::core::default::Default>::default()));
    quote! {
        fn clone_value(&self) -> Self {
            Self {
                #(#inits,)*
                #rest
            }
        }
    }
}

fn save(cont: &Container<'_>, krate: &Path) -> TokenStream {
    let version = Literal::u32_suffixed(cont.version());
    let writes = cont.properties().map(|field| {
        let member = field.ident;
        let key = &field.key.text;
        quote!(#krate::write_property(out, #key, &self.#member);)
    });
    quote! {
        fn save(&self, ar: &mut #krate::Archive<'_>) {
            let ::core::option::Option::Some(out) = ar.output() else {
                return;
            };
            #krate::write_property(out, #krate::CLASS_VERSION.name, &#version);
            #(#writes)*
        }
    }
}

fn load(cont: &Container<'_>, krate: &Path) -> TokenStream {
    let version = Literal::u32_suffixed(cont.version());
    let mut consts = Vec::new();
    let mut arms = Vec::new();
    for field in cont.properties() {
        let member = field.ident;
        let mut patterns = Vec::new();
        for key in std::iter::once(&field.key).chain(&field.aliases) {
            let name = key_const(&key.text);
            let text = &key.text;
            consts.push(quote!(const #name: u32 = #krate::key_crc(#text);));
            patterns.push(name);
        }
        arms.push(quote! {
            #(#patterns)|* => doc.decode_into(index, &mut self.#member)?,
        });
    }
    if !cont.attrs.deprecated.is_empty() {
        let mut patterns = Vec::new();
        for lit in &cont.attrs.deprecated {
            let text = lit.value();
            let name = key_const(&text);
            consts.push(quote!(const #name: u32 = #krate::key_crc(#text);));
            patterns.push(name);
        }
        arms.push(quote! {
            #(#patterns)|* => doc.consume(index),
        });
    }

    let dispatch = (!arms.is_empty()).then(|| {
        quote! {
            #(#consts)*
            if let ::core::option::Option::Some(doc) = ar.document_mut() {
                for index in 0..doc.len() {
                    let node = doc.node(index);
                    if node.consumed {
                        continue;
                    }
                    match node.key_crc {
                        #(#arms)*
                        _ => {}
                    }
                }
            }
        }
    });

    let (resolve, migrate) = match &cont.attrs.migrate {
        Some(path) => {
            let f = quote_spanned! {path.span()=>
                let migrate: fn(
                    &mut Self,
                    u32,
                    &mut #krate::Archive<'_>,
                ) -> ::core::result::Result<(), #krate::Error> = #path;
            };
            (
                quote!(let from = ar.resolve_class_version(#version)?;),
                quote! {
                    if from < #version {
                        #f
                        migrate(self, from, ar)?;
                    }
                },
            )
        }
        None => (quote!(ar.resolve_class_version(#version)?;), quote!()),
    };

    quote! {
        fn load(
            &mut self,
            ar: &mut #krate::Archive<'_>,
        ) -> ::core::result::Result<(), #krate::Error> {
            #resolve
            #dispatch
            #migrate
            ::core::result::Result::Ok(())
        }
    }
}

/// The impl emitted next to errors: the trait is implemented, so code using the type
/// compiles on, but nothing is generated from the faulty input.
fn stub(cont: &Container<'_>) -> TokenStream {
    if !cont.input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let krate = cont.krate();
    let ident = cont.ident();
    let name = cont.class_name();
    let message = "#[derive(Entity)] failed; see the errors above";
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #krate::Reflect for #ident {
                const CLASS: &'static #krate::Class =
                    &#krate::Class::of::<Self>(#name, 1, &[], &[]);
                fn default_value() -> Self {
                    ::core::unreachable!(#message)
                }
                fn clone_value(&self) -> Self {
                    ::core::unreachable!(#message)
                }
                fn save(&self, _: &mut #krate::Archive<'_>) {
                    ::core::unreachable!(#message)
                }
                fn load(
                    &mut self,
                    _: &mut #krate::Archive<'_>,
                ) -> ::core::result::Result<(), #krate::Error> {
                    ::core::unreachable!(#message)
                }
            }
        };
    }
}
