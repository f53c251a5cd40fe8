//! The error context: every check pushes its error here with the span it blames, and
//! the derive reports all of them at once (serde_derive's `internals/ctxt.rs` model).

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};

/// Collects errors during parsing and validation.
///
/// Dropping a context that still holds errors is a bug in the derive (they would be
/// lost), so [`Ctxt::check`] must be called; the drop check panics otherwise.
#[derive(Default)]
pub(crate) struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    /// An empty context.
    pub(crate) fn new() -> Ctxt {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Records an error at the span of `tokens` (all of it, first to last token).
    pub(crate) fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.syn_error(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records an error at `span`.
    pub(crate) fn error_at<M: Display>(&self, span: Span, message: M) {
        self.syn_error(syn::Error::new(span, message));
    }

    /// Records an error made by `syn` (a parse error of an attribute value).
    pub(crate) fn syn_error(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check()")
            .push(error);
    }

    /// Ends the context: `Ok` when no error was recorded, else every error in the order
    /// recorded, as one `compile_error!` per error.
    pub(crate) fn check(self) -> Result<(), TokenStream> {
        let errors = self
            .errors
            .borrow_mut()
            .take()
            .expect("Ctxt::check called twice");
        if errors.is_empty() {
            return Ok(());
        }
        Err(errors.into_iter().map(|e| e.to_compile_error()).collect())
    }
}

/// What a derive emits for input with errors: the `errors`, then the impl of the derived
/// trait that `stub` makes (methods that are `unreachable!`) in `const _: () = { ... }`,
/// so that code using the type compiles on and only the derive's errors are reported.
/// A generic type gets no stub: its impl would need bounds the faulty input may not give.
pub(crate) fn with_stub(
    errors: TokenStream,
    generics: &syn::Generics,
    stub: impl FnOnce() -> TokenStream,
) -> TokenStream {
    if !generics.params.is_empty() {
        return errors;
    }
    let stub = stub();
    quote! {
        #errors
        const _: () = {
            #[automatically_derived]
            #stub
        };
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("juliet-derive: Ctxt dropped without check()");
        }
    }
}
