//! `#[derive(Construct)]` (a construct's parts: `parts`) and `#[construct]` on its
//! impl block (its hooks: parsed and checked in `hooks`, generated in `expand`).

mod expand;
mod hooks;
mod parts;

pub(crate) use hooks::attribute;
pub(crate) use parts::derive;

/// The runtime path the generated code names.
fn runtime() -> proc_macro2::TokenStream {
    quote::quote!(::juliet_entities::construct)
}
