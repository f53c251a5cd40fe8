//! `#[construct]` on an impl block: parses the attribute's arguments and the
//! `#[tick(..)]` attributes, finds the hook methods and checks their shapes. The
//! types are checked by the compiler, at the method, through the code `expand`
//! writes.

use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned;
use syn::{FnArg, ImplItem, ImplItemFn, ItemImpl};

use crate::ctxt::Ctxt;

/// The hooks the macro knows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum HookKind {
    PreInput,
    PhysicsStep,
    ScalarUpdate,
    InitializeViews,
    OnWorldTeardown,
    OnWorldInitialized,
}

impl HookKind {
    const ALL: [HookKind; 6] = [
        HookKind::PreInput,
        HookKind::PhysicsStep,
        HookKind::ScalarUpdate,
        HookKind::InitializeViews,
        HookKind::OnWorldTeardown,
        HookKind::OnWorldInitialized,
    ];

    pub(super) fn name(self) -> &'static str {
        match self {
            HookKind::PreInput => "pre_input",
            HookKind::PhysicsStep => "physics_step",
            HookKind::ScalarUpdate => "scalar_update",
            HookKind::InitializeViews => "initialize_views",
            HookKind::OnWorldTeardown => "on_world_teardown",
            HookKind::OnWorldInitialized => "on_world_initialized",
        }
    }

    /// Whether the hook runs in a tick batch (and so takes `#[tick(..)]`).
    pub(super) fn is_tick(self) -> bool {
        matches!(
            self,
            HookKind::PreInput | HookKind::PhysicsStep | HookKind::ScalarUpdate
        )
    }

    /// The numbers of arguments after `&mut self` that the hook may take.
    fn arities(self) -> &'static [usize] {
        match self {
            HookKind::PreInput | HookKind::OnWorldTeardown => &[0, 1],
            HookKind::PhysicsStep | HookKind::ScalarUpdate => &[1, 2],
            HookKind::InitializeViews | HookKind::OnWorldInitialized => &[1],
        }
    }

    /// The accepted signatures, for error messages.
    fn signatures(self) -> &'static str {
        match self {
            HookKind::PreInput => "`fn pre_input(&mut self)` or `fn pre_input(&mut self, cx: &mut TickContext<'_>)`",
            HookKind::PhysicsStep => "`fn physics_step(&mut self, dt: SimFloat)` or `fn physics_step(&mut self, cx: &mut TickContext<'_>, dt: SimFloat)`",
            HookKind::ScalarUpdate => "`fn scalar_update(&mut self, dt: SimFloat)` or `fn scalar_update(&mut self, cx: &mut TickContext<'_>, dt: SimFloat)`",
            HookKind::InitializeViews => "`fn initialize_views(&mut self, world: &mut World)`",
            HookKind::OnWorldTeardown => "`fn on_world_teardown(&mut self)` or `fn on_world_teardown(&mut self, world: &mut World)`",
            HookKind::OnWorldInitialized => "`fn on_world_initialized(&mut self, world: &mut World)`",
        }
    }

    fn of(name: &str) -> Option<HookKind> {
        HookKind::ALL.into_iter().find(|h| h.name() == name)
    }
}

/// A group and order, as written (`None`: inherited).
#[derive(Clone, Default)]
pub(super) struct Slot {
    pub(super) group: Option<syn::Ident>,
    pub(super) order: Option<i16>,
}

/// The attribute's arguments.
#[derive(Default)]
pub(super) struct Args {
    pub(super) lifetime: Option<syn::Ident>,
    pub(super) slot: Slot,
}

/// One hook method found.
pub(super) struct Hook {
    pub(super) kind: HookKind,
    /// The method's name (its span is where type errors point).
    pub(super) ident: syn::Ident,
    /// Arguments after `&mut self`.
    pub(super) arity: usize,
    pub(super) slot: Slot,
}

const LIFETIMES: [&str; 4] = ["Level", "World", "Session", "Persistent"];
const GROUPS: [&str; 5] = ["PreInput", "Default", "PostDefault", "Camera", "Late"];

/// Reads the value of `meta`, a word that must be one of `known` (`what` names them in
/// the error).
fn one_of(
    meta: &syn::meta::ParseNestedMeta<'_>,
    known: &[&str],
    what: &str,
) -> syn::Result<syn::Ident> {
    let ident: syn::Ident = meta.value()?.parse()?;
    if known.iter().any(|k| ident == k) {
        Ok(ident)
    } else {
        let message = format!(
            "unknown {what} `{ident}` (expected one of {})",
            known.join(", ")
        );
        Err(syn::Error::new(ident.span(), message))
    }
}

/// Parses `group = ..` and `order = ..` (and, when `args` is given, `lifetime = ..`).
fn parse_slot_meta(
    meta: &syn::meta::ParseNestedMeta<'_>,
    slot: &mut Slot,
    lifetime: Option<&mut Option<syn::Ident>>,
) -> syn::Result<()> {
    let dup = |what: &str| meta.error(format!("duplicate `{what}`"));
    if meta.path.is_ident("group") {
        let ident = one_of(meta, &GROUPS, "tick group")?;
        if slot.group.replace(ident).is_some() {
            return Err(dup("group"));
        }
        Ok(())
    } else if meta.path.is_ident("order") {
        let expr: syn::Expr = meta.value()?.parse()?;
        let order = parse_order(&expr)?;
        if slot.order.replace(order).is_some() {
            return Err(dup("order"));
        }
        Ok(())
    } else if let (true, Some(lifetime)) = (meta.path.is_ident("lifetime"), lifetime) {
        let ident = one_of(meta, &LIFETIMES, "construct lifetime")?;
        if lifetime.replace(ident).is_some() {
            return Err(dup("lifetime"));
        }
        Ok(())
    } else {
        Err(meta.error("unknown argument (expected `lifetime`, `group` or `order`)"))
    }
}

/// An `i16` literal, possibly negative.
fn parse_order(expr: &syn::Expr) -> syn::Result<i16> {
    let (negative, lit) = match expr {
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => (true, &**expr),
        other => (false, other),
    };
    let syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Int(int),
        ..
    }) = lit
    else {
        return Err(syn::Error::new_spanned(
            expr,
            "`order` must be an integer literal",
        ));
    };
    let value: i32 = int.base10_parse()?;
    let value = if negative { -value } else { value };
    i16::try_from(value)
        .map_err(|_| syn::Error::new_spanned(expr, "`order` must fit in an i16 (-32768 to 32767)"))
}

/// Takes the `#[tick(..)]` attributes off `method`, parsed.
fn take_tick_attr(cx: &Ctxt, method: &mut ImplItemFn) -> Option<(Span, Slot)> {
    let mut found: Option<(Span, Slot)> = None;
    let mut kept = Vec::new();
    for attr in std::mem::take(&mut method.attrs) {
        if !attr.path().is_ident("tick") {
            kept.push(attr);
            continue;
        }
        if found.is_some() {
            cx.error_spanned_by(&attr, "duplicate #[tick] attribute");
            continue;
        }
        let mut slot = Slot::default();
        if let Err(e) = attr.parse_nested_meta(|meta| parse_slot_meta(&meta, &mut slot, None)) {
            cx.syn_error(e);
        }
        found = Some((attr.span(), slot));
    }
    method.attrs = kept;
    found
}

/// Checks a hook method's shape: `&mut self`, no generics, not async/unsafe/const,
/// an accepted number of arguments.
fn check_shape(cx: &Ctxt, kind: HookKind, method: &ImplItemFn) -> Option<usize> {
    let sig = &method.sig;
    let mut ok = true;
    let mut complain = |tokens: &dyn quote::ToTokens, what: &str| {
        cx.error_spanned_by(
            tokens.to_token_stream(),
            format!(
                "construct hook `{}` {what}; expected {}",
                kind.name(),
                kind.signatures()
            ),
        );
        ok = false;
    };
    if let Some(t) = &sig.asyncness {
        complain(t, "cannot be async");
    }
    if let Some(t) = &sig.unsafety {
        complain(t, "cannot be unsafe");
    }
    if let Some(t) = &sig.constness {
        complain(t, "cannot be const");
    }
    if !sig.generics.params.is_empty() {
        complain(&sig.generics, "cannot be generic");
    }
    match sig.inputs.first() {
        Some(FnArg::Receiver(r)) if r.reference.is_some() && r.mutability.is_some() => {}
        Some(FnArg::Receiver(r)) => complain(r, "must take `&mut self`"),
        _ => complain(&sig.ident, "must take `&mut self`"),
    }
    let arity = sig.inputs.len().saturating_sub(1);
    if !kind.arities().contains(&arity) {
        complain(
            &sig.inputs,
            &format!("takes {arity} argument(s) after `&mut self`"),
        );
    }
    ok.then_some(arity)
}

/// Parses `#[construct(args)]` and its impl block `item`: the block (its `#[tick]`
/// attributes taken off), the arguments and the hooks whose shapes are right. `None`
/// when `item` is not an impl block. Every error found is recorded in `cx`.
pub(super) fn parse(
    cx: &Ctxt,
    args: TokenStream,
    item: TokenStream,
) -> Option<(ItemImpl, Args, Vec<Hook>)> {
    let mut parsed = Args::default();
    let parser = syn::meta::parser(|meta| {
        parse_slot_meta(&meta, &mut parsed.slot, Some(&mut parsed.lifetime))
    });
    if let Err(e) = syn::parse::Parser::parse2(parser, args) {
        cx.syn_error(e);
    }
    let mut block: ItemImpl = match syn::parse2(item) {
        Ok(block) => block,
        Err(_) => {
            cx.error_at(
                Span::call_site(),
                "#[construct] goes on an impl block of the construct type (`#[construct] impl Player { .. }`)",
            );
            return None;
        }
    };
    if let Some((_, path, _)) = &block.trait_ {
        cx.error_spanned_by(
            path,
            "#[construct] goes on an inherent impl block (`impl Player { .. }`), not a trait impl",
        );
    }
    let mut hooks = Vec::new();
    for item in &mut block.items {
        let ImplItem::Fn(method) = item else {
            continue;
        };
        let tick = take_tick_attr(cx, method);
        let Some(kind) = HookKind::of(&method.sig.ident.to_string()) else {
            if let Some((span, _)) = tick {
                cx.error_at(
                    span,
                    "#[tick] goes on a tick hook (`pre_input`, `physics_step` or `scalar_update`)",
                );
            }
            continue;
        };
        if let (Some((span, _)), false) = (&tick, kind.is_tick()) {
            cx.error_at(
                *span,
                format!("`{}` is not a tick hook: #[tick] goes on `pre_input`, `physics_step` or `scalar_update`", kind.name()),
            );
        }
        if let Some(arity) = check_shape(cx, kind, method) {
            hooks.push(Hook {
                kind,
                ident: method.sig.ident.clone(),
                arity,
                slot: tick.map(|(_, s)| s).unwrap_or_default(),
            });
        }
    }
    Some((block, parsed, hooks))
}
