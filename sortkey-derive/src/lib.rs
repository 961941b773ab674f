//! `#[derive(SortKey)]` for `sortkey-core`: use it through `sortkey_core::SortKey`, which
//! re-exports it and names the runtime the generated code calls.
//!
//! The macro parses the input with darling ([`attr`]), checks the rules it can see in the
//! tokens ([`valid`]) and generates the impls ([`expand`]); on any error it emits the errors
//! and a stub impl ([`fallback`]) so the user sees the real mistake and not follow-on errors.

#![warn(missing_docs)]

mod attr;
mod expand;
mod fallback;
mod query;
mod valid;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `sortkey_core::SortKey`, `DecodeKey` and `FromStr` for a struct with named fields.
///
/// See the `sortkey_core` crate documentation for the attributes and the key format.
#[proc_macro_derive(SortKey, attributes(key))]
pub fn derive_sort_key(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match valid::Key::from_input(&input) {
        Ok(key) => expand::derive(&key),
        Err(errors) => fallback::derive(&input, errors),
    }
    .into()
}
