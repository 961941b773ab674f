//! `#[derive(SortKey)]` for `sortkey-core`: use it through `sortkey_core::SortKey`, which
//! re-exports it and names the runtime the generated code calls.
//!
//! The macro parses the input with darling (`attr.rs`), checks the rules it can see in the
//! tokens (`valid.rs`) and generates the impls (`expand.rs`, `query.rs`, `nested.rs`,
//! `segment.rs`); on any error it emits the errors and stub impls (`fallback.rs`) so the user
//! sees the real mistake and not follow-on errors. Every expansion reaches the runtime through
//! `runtime.rs`: the crate path (`#[key(crate = path)]`, read on its own so that it survives
//! other errors), the runtime's versioned private module, and the one `const _` wrapper.

#![warn(missing_docs)]

mod attr;
mod expand;
mod fallback;
mod nested;
mod query;
mod runtime;
mod segment;
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

/// Derives `sortkey_core::KeySegment` and `DecodeSegment` for an enum of unit variants, so that
/// it can be a field of a key: each variant is written as its name.
///
/// `#[key(rename = "...")]` on a variant sets its encoding; `#[key(rename_all = "...")]` on the
/// enum converts every other name (`"lowercase"`, `"UPPERCASE"`, `"PascalCase"`, `"camelCase"`,
/// `"snake_case"`, `"SCREAMING_SNAKE_CASE"`, `"kebab-case"`, `"SCREAMING-KEBAB-CASE"`). Keys
/// sort by the byte order of the names, not by the order of declaration.
#[proc_macro_derive(KeySegment, attributes(key))]
pub fn derive_key_segment(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    segment::derive(&input).into()
}
