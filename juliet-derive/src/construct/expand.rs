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
    // (forwarder signature, the hook's fn-pointer type, the call's arguments)
    let (sig, fn_ty, call) = match (hook.kind, hook.arity) {
        (HookKind::PreInput, 0) => (
            quote!(fn __pre_input(&mut self, cx: &mut #cx_ty)),
            quote!(fn(&mut Self)),
            quote!(self),
        ),
        (HookKind::PreInput, _) => (
            quote!(fn __pre_input(&mut self, cx: &mut #cx_ty)),
            quote!(fn(&mut Self, &mut #cx_ty)),
            quote!(self, cx),
        ),
        (HookKind::PhysicsStep | HookKind::ScalarUpdate, arity) => {
            let method = format_ident!("__{}", hook.kind.name());
            let sig = quote!(fn #method(&mut self, cx: &mut #cx_ty, dt: #dt_ty));
            if arity == 1 {
                (sig, quote!(fn(&mut Self, #dt_ty)), quote!(self, dt))
            } else {
                (
                    sig,
                    quote!(fn(&mut Self, &mut #cx_ty, #dt_ty)),
                    quote!(self, cx, dt),
                )
            }
        }
        (HookKind::InitializeViews, _) => (
            quote!(fn __initialize_views(&mut self, world: &mut #world)),
            quote!(fn(&mut Self, &mut #world)),
            quote!(self, world),
        ),
        (HookKind::OnWorldTeardown, 0) => (
            quote!(fn __on_world_teardown(&mut self, world: &mut #world)),
            quote!(fn(&mut Self)),
            quote!(self),
        ),
        (HookKind::OnWorldTeardown, _) => (
            quote!(fn __on_world_teardown(&mut self, world: &mut #world)),
            quote!(fn(&mut Self, &mut #world)),
            quote!(self, world),
        ),
        (HookKind::OnWorldInitialized, _) => (
            quote!(fn __on_world_initialized(&mut self, world: &mut #world)),
            quote!(fn(&mut Self, &mut #world)),
            quote!(self, world),
        ),
    };
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
