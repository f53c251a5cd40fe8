//! The `Construct` impl that `#[construct]` writes: the lifetime, the hook set (which
//! tick hooks exist, with their group and order) and one forwarding method per hook
//! written. Each forwarder first coerces the method to the fn-pointer type the hook
//! must have, with the method name's span, so a wrong signature is a type error at
//! the method.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::ItemImpl;

use super::hooks::{Args, Hook, HookKind};
use super::runtime;

/// `Some(TickSlot { .. })` for a tick hook that was written, else `None`.
fn slot_tokens(args: &Args, hooks: &[Hook], kind: HookKind) -> TokenStream {
    let rt = runtime();
    let Some(hook) = hooks.iter().find(|h| h.kind == kind) else {
        return quote!(::core::option::Option::None);
    };
    let group = hook
        .slot
        .group
        .clone()
        .or_else(|| args.slot.group.clone())
        .unwrap_or_else(|| format_ident!("Default"));
    let order = hook.slot.order.or(args.slot.order).unwrap_or(0);
    quote! {
        ::core::option::Option::Some(#rt::__private::TickSlot {
            group: #rt::TickGroup::#group,
            order: #order,
        })
    }
}

/// The forwarding method of one hook.
fn forwarder(hook: &Hook) -> TokenStream {
    let rt = runtime();
    let world = quote!(#rt::__private::World);
    let cx_ty = quote!(#rt::TickContext<'_>);
    let dt_ty = quote!(#rt::SimFloat);
    let name = &hook.ident;
    let span = name.span();
    // The forwarder's parameters (name, type); the hook takes the last `arity` of them
    // (`dt` alone, or `cx` and `dt`, ...).
    let params = match hook.kind {
        HookKind::PreInput => vec![(quote!(cx), quote!(&mut #cx_ty))],
        HookKind::PhysicsStep | HookKind::ScalarUpdate => {
            vec![(quote!(cx), quote!(&mut #cx_ty)), (quote!(dt), dt_ty)]
        }
        HookKind::InitializeViews | HookKind::OnWorldTeardown | HookKind::OnWorldInitialized => {
            vec![(quote!(world), quote!(&mut #world))]
        }
    };
    let method = format_ident!("__{}", hook.kind.name());
    let (names, types): (Vec<_>, Vec<_>) = params.into_iter().unzip();
    let sig = quote!(fn #method(&mut self, #(#names: #types),*));
    let (taken_names, taken_types) = (
        &names[names.len() - hook.arity..],
        &types[types.len() - hook.arity..],
    );
    let fn_ty = quote!(fn(&mut Self #(, #taken_types)*));
    let call = quote!(self #(, #taken_names)*);
    let coerce = quote_spanned! {span=>
        let hook: #fn_ty = Self::#name;
    };
    quote! {
        #[inline(always)]
        #[allow(unused_variables)]
        #sig {
            #coerce
            hook(#call)
        }
    }
}

/// `impl Construct for <the block's type>`.
pub(super) fn construct_impl(block: &ItemImpl, args: &Args, hooks: &[Hook]) -> TokenStream {
    let rt = runtime();
    let self_ty = &block.self_ty;
    let (impl_generics, _, where_clause) = block.generics.split_for_impl();
    let lifetime = args
        .lifetime
        .clone()
        .unwrap_or_else(|| format_ident!("Level"));
    let pre_input = slot_tokens(args, hooks, HookKind::PreInput);
    let physics_step = slot_tokens(args, hooks, HookKind::PhysicsStep);
    let scalar_update = slot_tokens(args, hooks, HookKind::ScalarUpdate);
    let forwarders = hooks.iter().map(forwarder);
    quote! {
        const _: () = {
            impl #impl_generics #rt::Construct for #self_ty #where_clause {
                const LIFETIME: #rt::ConstructLifetime = #rt::ConstructLifetime::#lifetime;
                const HOOKS: #rt::__private::HookSet = #rt::__private::HookSet {
                    pre_input: #pre_input,
                    physics_step: #physics_step,
                    scalar_update: #scalar_update,
                };
                #(#forwarders)*
            }
        };
    }
}
