//! `#[derive(Construct)]` (a construct's parts: `parts`) and `#[construct]` on its
//! impl block (its hooks: parsed and checked in `hooks`, generated in `expand`).

mod expand;
mod hooks;
mod parts;

pub(crate) use parts::derive;

/// The expansion of `#[construct(args)] impl ..`: parsed and checked by `hooks`, the
/// impl of `Construct` written by `expand`.
pub(crate) fn attribute(
    args: proc_macro2::TokenStream,
    item: proc_macro2::TokenStream,
) -> proc_macro2::TokenStream {
    let cx = crate::ctxt::Ctxt::new();
    let Some((block, parsed, hooks)) = hooks::parse(&cx, args, item.clone()) else {
        let mut out = cx.check().expect_err("an error was recorded");
        out.extend(item);
        return out;
    };
    let generated = expand::construct_impl(&block, &parsed, &hooks);
    match cx.check() {
        Ok(()) => quote::quote!(#block #generated),
        // The impl of the hooks that are right too, so that one bad hook does not make
        // every use of the type an error.
        Err(errors) => quote::quote!(#block #generated #errors),
    }
}

/// The runtime path the generated code names.
fn runtime() -> proc_macro2::TokenStream {
    quote::quote!(::juliet_constructs)
}
