//! Expansion of `#[derive(Entity)]`: the `Reflect` impl (class descriptor, property
//! table, default-init stub, clone, save, load in one pass over the properties with
//! the migration call) and the registration with the class registry.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, LitStr, Path};

use crate::ast::{Container, Field};
use crate::ctxt::{with_stub, Ctxt};
use crate::validate;

/// `#[derive(Entity)]`: parse -> validate -> expand. On error, the errors and a stub
/// impl (so that uses of the type's `Reflect` impl do not add errors of their own).
pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, input);
    validate::check(&cx, &cont);
    match cx.check() {
        Ok(()) => expand(&cont),
        Err(errors) => with_stub(errors, &input.generics, || stub(&cont)),
    }
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

/// `<Ty as juliet_core::__private::Field>`: every use of a property's type goes through
/// this qualified path (a value with a codec is one leaf, a composite several), so that
/// a type without a codec fails the same obligation at the same span (the field type)
/// everywhere, which rustc reports once.
fn codec(field: &Field<'_>, krate: &Path) -> TokenStream {
    let ty = field.ty;
    if field.attrs.with.is_some() {
        let wrapper = with_wrapper(field);
        return quote!(<#wrapper as #krate::__private::Field>);
    }
    quote_spanned!(ty.span()=> <#ty as #krate::__private::Field>)
}

/// The hidden type of a `with = module` field: the field's type behind
/// `#[repr(transparent)]`, whose codec is the module's `encode` and `decode`. The
/// property table reaches the field through it (the same layout); the derived load,
/// save and copies call the module on the field itself.
fn with_wrapper(field: &Field<'_>) -> proc_macro2::Ident {
    format_ident!("__JulietWith_{}", field.name())
}

/// The functions of a `with` field's module as the derived code calls them: each module
/// function is named once (`__juliet_encode_<field>`, `__juliet_decode_<field>`), so a
/// missing one is one error at the attribute.
fn with_functions(field: &Field<'_>) -> (proc_macro2::Ident, proc_macro2::Ident) {
    (
        format_ident!("__juliet_encode_{}", field.name()),
        format_ident!("__juliet_decode_{}", field.name()),
    )
}

/// The wrapper types of the class's `with` fields ([`with_wrapper`]).
fn with_wrappers(cont: &Container<'_>, krate: &Path) -> TokenStream {
    let wrappers = cont.properties().filter_map(|field| {
        let module = field.attrs.with.as_ref()?;
        let (ty, wrapper) = (field.ty, with_wrapper(field));
        let name = quote!(#ty).to_string().replace(' ', "");
        let (encode, decode) = with_functions(field);
        let module_encode = quote_spanned!(module.span()=> #module::encode);
        let module_decode = quote_spanned!(module.span()=> #module::decode);
        Some(quote! {
            fn #encode(value: &#ty, out: &mut ::std::string::String) {
                #module_encode(value, out)
            }

            fn #decode(
                value: #krate::Value<'_>,
            ) -> ::core::result::Result<#ty, #krate::ValueError<'_>> {
                #module_decode(value)
            }

            #[repr(transparent)]
            struct #wrapper(#ty);

            impl ::core::clone::Clone for #wrapper {
                fn clone(&self) -> Self {
                    Self(::core::clone::Clone::clone(&self.0))
                }
            }

            /// Values are the same when they write the same text.
            impl ::core::cmp::PartialEq for #wrapper {
                fn eq(&self, other: &Self) -> bool {
                    let (mut a, mut b) = (::std::string::String::new(), ::std::string::String::new());
                    #encode(&self.0, &mut a);
                    #encode(&other.0, &mut b);
                    a == b
                }
            }

            impl #krate::Codec for #wrapper {
                const PROPERTY_TYPE: #krate::PropertyType = #krate::PropertyType::Custom(#name);
                fn encode(&self, out: &mut ::std::string::String) {
                    #encode(&self.0, out)
                }
                fn decode<'a>(
                    value: #krate::Value<'a>,
                ) -> ::core::result::Result<Self, #krate::ValueError<'a>> {
                    #decode(value).map(Self)
                }
            }
        })
    });
    quote!(#(#wrappers)*)
}

/// The key a field's leaves are written under: its key, or none for a `flatten` field
/// (whose composite's leaves are then the class's own keys).
fn written_key<'f>(field: &'f Field<'_>) -> &'f str {
    if field.attrs.flatten.is_some() {
        ""
    } else {
        &field.key.text
    }
}

/// The name of the constant holding the table index of property `i`'s first leaf.
fn start_const(i: usize) -> proc_macro2::Ident {
    format_ident!("__JULIET_START_{}", i)
}

/// The name of the constant holding the table index of property `i`'s last leaf.
fn last_const(i: usize) -> proc_macro2::Ident {
    format_ident!("__JULIET_LAST_{}", i)
}

/// The constants `__JULIET_START_i` (the table index of property `i`'s first leaf:
/// the leaves of the properties before it) and `__JULIET_LAST_i` (its last leaf).
fn start_consts(cont: &Container<'_>, krate: &Path) -> TokenStream {
    let mut out = Vec::new();
    let mut previous: Option<(proc_macro2::Ident, TokenStream)> = None;
    for (i, field) in cont.properties().enumerate() {
        let (start, last) = (start_const(i), last_const(i));
        let codec = codec(field, krate);
        let value = match &previous {
            None => quote!(0),
            Some((before, leaves)) => quote!(#before + #leaves.len()),
        };
        out.push(quote! {
            const #start: usize = #value;
            #[allow(dead_code)]
            const #last: usize = #start + #codec::LEAVES.len().saturating_sub(1);
        });
        previous = Some((start, quote!(#codec::LEAVES)));
    }
    quote!(#(#out)*)
}

fn expand(cont: &Container<'_>) -> TokenStream {
    let krate = cont.krate();
    let ident = cont.ident();
    let (class_item, class) = class_static(cont, &krate);
    let default_value = default_value(cont);
    let clone_value = clone_value(cont, &krate);
    let copy_properties = copy_properties(cont, &krate);
    let save = save(cont, &krate);
    let load = load(cont, &krate);

    quote! {
        const _: () = {
            #class_item

            // SAFETY: the property table is made here from the struct's own fields, each
            // descriptor with `offset_of!` that field and the operations of its type (of
            // a composite's leaf type at the leaf's offset within it; of the field type's
            // `#[repr(transparent)]` wrapper for a `with` field).
            #[automatically_derived]
            unsafe impl #krate::Reflect for #ident {
                #class
                #default_value
                #clone_value
                #copy_properties
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

/// The class descriptor as a `static`, and the `Reflect::CLASS` constant pointing at
/// it: every use of `Reflect::CLASS`, from any crate, is then one address (a `const`
/// table may be copied at each use), which the registry's identity test and the
/// property accessors' fast path rely on: one global `Class` per kind.
fn class_static(cont: &Container<'_>, krate: &Path) -> (TokenStream, TokenStream) {
    let ident = cont.ident();
    let name = cont.class_name();
    let version = Literal::u32_unsuffixed(cont.version());
    let parts = cont.properties().map(|field| {
        let member = field.ident;
        let key = written_key(field);
        let field_name = field.name();
        let codec = codec(field, krate);
        let mut part = quote! {
            #krate::__private::Part::new(
                #key,
                #field_name,
                ::core::mem::offset_of!(#ident, #member),
                #codec::LEAVES,
            )
        };
        if !field.aliases.is_empty() {
            let aliases = field.aliases.iter().map(|a| {
                let text = &a.text;
                quote!(#krate::Key::new(#text))
            });
            part = quote!(#part.with_aliases(&[#(#aliases),*]));
        }
        if !field.attrs.migrated_from.is_empty() {
            let from = field.attrs.migrated_from.iter().map(|lit| {
                let text = lit.value();
                quote!(#krate::Key::new(#text))
            });
            part = quote!(#part.with_migrated_from(&[#(#from),*]));
        }
        part
    });
    let deprecated = cont.attrs.deprecated.iter().map(|lit| {
        let text = lit.value();
        quote!(#krate::Key::new(#text))
    });
    // Former class names (`alias` on the struct): only written when there are some.
    let aliases = (!cont.attrs.aliases.is_empty()).then(|| {
        let texts = cont.attrs.aliases.iter().map(LitStr::value);
        quote!(.with_aliases(&[#(#krate::Key::new(#texts)),*]))
    });
    let starts = start_consts(cont, krate);
    let wrappers = with_wrappers(cont, krate);
    let item = quote! {
        #wrappers
        const __JULIET_PARTS: &[#krate::__private::Part] = &[#(#parts),*];
        const __JULIET_HEADER_BYTES: usize = #krate::__private::header_bytes(__JULIET_PARTS);
        static __JULIET_HEADERS: [u8; __JULIET_HEADER_BYTES] =
            #krate::__private::headers::<__JULIET_HEADER_BYTES>(__JULIET_PARTS);
        const __JULIET_LEAVES: usize = #krate::__private::leaf_count(__JULIET_PARTS);
        const __JULIET_DEPRECATED: &[#krate::Key] = &[#(#deprecated),*];
        static __JULIET_TABLE: [#krate::PropertyDescriptor; __JULIET_LEAVES] =
            #krate::__private::class_table::<__JULIET_LEAVES>(
                __JULIET_PARTS,
                &__JULIET_HEADERS,
                __JULIET_DEPRECATED,
            );
        #starts
        // SAFETY: the table is made from the struct's own fields, each part at
        // `offset_of!` its field with the leaves of the field's type (`Field`'s
        // contract: each at its offset within the field, with the operations of its
        // type).
        static __JULIET_CLASS: #krate::Class = unsafe { #krate::Class::of::<#ident>(#name, #version, &__JULIET_TABLE, __JULIET_DEPRECATED) }#aliases;
    };
    let constant = quote! {
        const CLASS: &'static #krate::Class = &__JULIET_CLASS;
    };
    (item, constant)
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

/// `Reflect::clone_value`, written field by field with no property table and no
/// indirect call:
///
/// - every property is cloned (`Clone::clone`, which `Codec` implies);
/// - a `skip` field gets what `default_value` gives it: its declared default
///   (`#[jasset(default = expr)]`, else `Default::default()`), so skipped fields need
///   no `Clone`;
/// - with the struct-level `default` and some `skip` field, skipped fields come from
///   `<Self as Default>::default()`: that value is built and each of its properties is
///   replaced by a clone of `self`'s.
///
/// The value is `default_value()` with every property clone-assigned over it; the
/// default expressions of properties (and a struct-level `Default` when no field is
/// skipped) are not run, as their values would be overwritten anyway.
///
/// The clone goes through a local `__juliet_clone::<Ty>` whose bound is `Ty: Field`,
/// spanned at the field type and preceded in the same body by the codec path's own
/// use (`<Ty as Field>::LEAVES`): rustc then reports a type without a codec once,
/// as for every other use (with a `Clone::clone` call, a type with neither trait would
/// get a second error).
fn clone_value(cont: &Container<'_>, krate: &Path) -> TokenStream {
    let mut obligations = Vec::new();
    let mut clones = Vec::new();
    for field in cont.properties() {
        let (ty, member) = (field.ty, field.ident);
        let codec = codec(field, krate);
        obligations.push(quote!(let _ = #codec::LEAVES;));
        if field.attrs.with.is_some() {
            clones.push((member, quote!(::core::clone::Clone::clone(&self.#member))));
            continue;
        }
        let helper = quote_spanned!(ty.span()=> __juliet_clone::<#ty>);
        clones.push((member, quote!(#helper(&self.#member))));
    }
    let helper = (!clones.is_empty()).then(|| {
        quote! {
            #[inline]
            fn __juliet_clone<T: #krate::__private::Field>(value: &T) -> T {
                ::core::clone::Clone::clone(value)
            }
            #(#obligations)*
        }
    });
    let has_skipped = cont.fields.iter().any(|f| !f.is_property());
    if cont.attrs.default.is_some() && has_skipped {
        let assigns = clones
            .iter()
            .map(|(member, clone)| quote!(copy.#member = #clone;));
        return quote! {
            #[inline]
            fn clone_value(&self) -> Self {
                #helper
                let mut copy = <Self as ::core::default::Default>::default();
                #(#assigns)*
                copy
            }
        };
    }
    let mut clones = clones.into_iter();
    let inits = cont.fields.iter().map(|field| {
        let member = field.ident;
        if field.is_property() {
            let (_, clone) = clones.next().expect("one clone per property");
            quote!(#member: #clone)
        } else {
            let value = field_default(field);
            quote!(#member: #value)
        }
    });
    quote! {
        #[inline]
        fn clone_value(&self) -> Self {
            #helper
            Self {
                #(#inits,)*
            }
        }
    }
}

/// `Reflect::copy_properties`, field by field: leaf `i` (in table order) is
/// clone-assigned when bit `i % 64` of word `i / 64` of `set` is set, through each
/// property type's `Field::copy_leaves` (`Clone::clone_from` for a `with` field); no
/// table and no indirect call. The codec paths' own uses come first, as in
/// `clone_value`.
fn copy_properties(cont: &Container<'_>, krate: &Path) -> TokenStream {
    let mut obligations = Vec::new();
    let mut copies = Vec::new();
    for (index, field) in cont.properties().enumerate() {
        let (ty, member) = (field.ty, field.ident);
        let codec = codec(field, krate);
        obligations.push(quote!(let _ = #codec::LEAVES;));
        let start = start_const(index);
        if field.attrs.with.is_some() {
            copies.push(quote! {
                if #krate::__private::in_set(set, #start) {
                    ::core::clone::Clone::clone_from(&mut self.#member, &src.#member);
                }
            });
            continue;
        }
        let copy = quote_spanned!(ty.span()=> <#ty as #krate::__private::Field>::copy_leaves);
        copies.push(quote! {
            #copy(&mut self.#member, &src.#member, set, #start);
        });
    }
    if copies.is_empty() {
        return quote! {
            #[inline]
            fn copy_properties(&mut self, _: &Self, _: &[u64]) {}
        };
    }
    quote! {
        #[inline]
        fn copy_properties(&mut self, src: &Self, set: &[u64]) {
            #(#obligations)*
            #(#copies)*
        }
    }
}

fn save(cont: &Container<'_>, krate: &Path) -> TokenStream {
    let version = Literal::u32_suffixed(cont.version());
    let writes = cont.properties().map(|field| {
        let member = field.ident;
        let key = written_key(field);
        let codec = codec(field, krate);
        if field.attrs.with.is_some() {
            let (encode, _) = with_functions(field);
            return quote! {
                #krate::write_header(out, #key);
                #encode(&self.#member, out);
                out.push('\n');
            };
        }
        quote! {
            #codec::save_field(&self.#member, #key, out);
        }
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

/// `Reflect::load`: one walk over the file's properties in file order
/// (`juliet_core::Properties`, which binds each to the property table by exact key and
/// reads a canonical file straight from its text): first the properties in
/// declaration order (the writer's), each one `Properties::read` with its constant
/// header, then whatever is left through a `match` and `Properties::decode_later`. Both
/// are out of line and generic over the property type only, so a crate compiles one
/// decoder for each property type, not one for each field of each class. Then the
/// class version and the migration.
fn load(cont: &Container<'_>, krate: &Path) -> TokenStream {
    let (helper, dispatch) = load_properties(cont, krate);
    let (resolve, migrate) = migration(cont, krate);
    quote! {
        fn load(
            &mut self,
            ar: &mut #krate::Archive<'_>,
        ) -> ::core::result::Result<(), #krate::Error> {
            #helper
            if let ::core::option::Option::Some(doc) = ar.document_mut() {
                // The `static` of this `const` block: naming `Self::CLASS` here would
                // repeat a `Send`/`Sync` error that the class item already reports.
                let mut properties = doc.properties(__JULIET_CLASS.properties());
                #dispatch
            }
            #resolve
            #migrate
            ::core::result::Result::Ok(())
        }
    }
}

/// The walk of `load` over the properties: the codec obligations of every property
/// type (so that a type without a codec is reported once), then the walk itself, the
/// properties in declaration order first and the rest by table index.
fn load_properties(cont: &Container<'_>, krate: &Path) -> (TokenStream, TokenStream) {
    let mut obligations = Vec::new();
    let mut straight = Vec::new();
    let mut arms = Vec::new();
    for (i, field) in cont.properties().enumerate() {
        let member = field.ident;
        let ty = field.ty;
        let key = &field.key.text;
        let header = Literal::string(&format!("; {key}\n"));
        let codec = codec(field, krate);
        obligations.push(quote!(let _ = #codec::LEAVES;));
        let (start, last) = (start_const(i), last_const(i));
        if field.attrs.with.is_some() {
            let (_, decode) = with_functions(field);
            let assign = quote!(|place: &mut #ty, value| {
                *place = #decode(value)?;
                ::core::result::Result::Ok(())
            });
            straight.push(quote! {
                properties.read_in_place(#start, #header, &mut self.#member, #assign)?;
            });
            arms.push(quote! {
                #start..=#last => properties.decode_in_place(&mut self.#member, #assign)?,
            });
            continue;
        }
        // Spanned at the field type: a type without a codec is reported there.
        straight.push(quote_spanned! {ty.span()=>
            <#ty as #krate::__private::Field>::read_field(
                &mut self.#member, &mut properties, #start, #header,
            )?;
        });
        let later = quote_spanned!(ty.span()=> <#ty as #krate::__private::Field>::decode_leaf);
        arms.push(quote! {
            #start..=#last => #later(&mut self.#member, &mut properties, index - #start)?,
        });
    }
    // Deprecated keys, `ClassVersion`, the base keys, unknown keys and CRC-32 twins of
    // keys bind to no arm: the walk leaves them unconsumed, for the migration
    // (`Archive::read_deprecated`), `resolve_class_version` and the audit, which keeps
    // an unknown key and warns instead of it vanishing from the file.
    let helper = quote!(#(#obligations)*);
    let dispatch = if arms.is_empty() {
        quote!(while properties.next_property()?.is_some() {})
    } else {
        quote! {
            loop {
                #(#straight)*
                if !properties.again() {
                    break;
                }
            }
            while let ::core::option::Option::Some(index) = properties.next_property()? {
                match index {
                    #(#arms)*
                    _ => {}
                }
            }
        }
    };
    (helper, dispatch)
}

/// The end of `load`: the file's class version resolved, and with `migrate` the
/// migration called when the file is older than the class.
fn migration(cont: &Container<'_>, krate: &Path) -> (TokenStream, TokenStream) {
    let version = Literal::u32_suffixed(cont.version());
    match &cont.attrs.migrate {
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
    }
}

/// The `Reflect` impl emitted next to errors ([`with_stub`]): nothing is generated from
/// the faulty input.
fn stub(cont: &Container<'_>) -> TokenStream {
    let krate = cont.krate();
    let ident = cont.ident();
    let name = cont.class_name();
    let message = "#[derive(Entity)] failed; see the errors above";
    quote! {
        // SAFETY: an empty property table describes no field.
        unsafe impl #krate::Reflect for #ident {
            const CLASS: &'static #krate::Class =
                &unsafe { #krate::Class::of::<Self>(#name, 1, &[], &[]) };
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
    }
}
