//! `#[derive(SortKey)]` for `sortkey-core`: use it through `sortkey_core::SortKey`, which
//! re-exports it and names the runtime the generated code calls.
//!
//! Parse -> validate -> expand, in layers: a module uses only modules of its own layer or of
//! the layers above it in this list (tests/layering.rs checks it, and that no two depend on each
//! other):
//!
//! 1. what the others build on: `keywords.rs` (the words attribute values are spelled with, as
//!    enums: `unit`, `format`, `rename_all`, and the one case converter), `attr.rs` (the attributes as written: one table of (name,
//!    reader) per position, read with syn's `parse_nested_meta` into darling's error accumulator),
//!    `entity_attr.rs` (`#[entity(...)]` as written, through the same tables), `messages.rs`
//!    (the texts of the type-dependent rules), `types.rs` (what a field's type is as written),
//!    `runtime.rs` (how generated code names the runtime: the crate path, its versioned private
//!    module, the one `const _` wrapper), `generics.rs` (the bounded generics of the impls, from a
//!    type's own generics: `Parameters`, computed once per derive);
//! 2. the model: `model.rs` (the validated `Key` and `Field`, a field's `Encoding`, the time
//!    unit and format as enums, DynamoDB's limits, the key's `Parameters`);
//! 3. the rules: `valid.rs` (the rules the macro can see in the tokens, each at its token, and
//!    the reading of the attributes into the model);
//! 4. helpers of the expansion: `bodies.rs` (field specs, encode and decode bodies),
//!    `checks.rs` (the type-dependent `const` assertions), `templates.rs` (the impls a key type
//!    and a family both get: `Display`, `FromStr`, the nested `KeySegment`/`DecodeSegment`);
//! 5. the key derive: `nested.rs` (a key as a segment), `query.rs` (the typed builder),
//!    `expand.rs` (which puts them together), `fallback.rs` (on any error, the errors and stub
//!    impls, so that the user sees the real mistake and not follow-on errors), `segment.rs` (the
//!    enum derive);
//! 6. key families (`#[derive(SortKey)]` on an enum): `family.rs` (the model and its rules),
//!    `family_expand.rs` (its impls, checks and query builder); entities (`#[derive(Entity)]`):
//!    `entity.rs` (the model and its rules), `entity_expand.rs` (a key type per key, its
//!    constructors and the `Entity` impl).

#![warn(missing_docs)]

mod attr;
mod bodies;
mod checks;
mod entity;
mod entity_attr;
mod entity_expand;
mod expand;
mod fallback;
mod family;
mod family_expand;
mod generics;
mod keywords;
mod messages;
mod model;
mod nested;
mod query;
mod runtime;
mod segment;
mod templates;
mod types;
mod valid;

#[cfg(test)]
mod output_tests;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `sortkey_core::SortKey`, `DecodeKey` and `FromStr` for a struct with named fields.
///
/// See the `sortkey_core` crate documentation for the attributes and the key format.
#[proc_macro_derive(SortKey, attributes(key))]
pub fn derive_sort_key(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    sort_key(&input).into()
}

/// `#[derive(SortKey)]` on parsed input: the impls, or the errors and the fallback.
fn sort_key(input: &DeriveInput) -> proc_macro2::TokenStream {
    if matches!(input.data, syn::Data::Enum(_)) {
        return match family::Family::from_input(input) {
            Ok(family) => family_expand::derive(&family),
            Err(errors) => fallback::derive(input, errors),
        };
    }
    match model::Key::from_input(input) {
        Ok(key) => expand::derive(&key),
        Err(errors) => fallback::derive(input, errors),
    }
}

/// Derives `sortkey_core::Entity` for a domain struct: `#[entity(pk(...), sk(...), index(...))]`
/// names the fields of its primary key and of each secondary index's key; each key becomes a key
/// type of its own (`OrderPk`, `OrderSk`, `OrderGsi1Pk`, ...).
///
/// See the `sortkey_core` crate documentation for the attributes.
#[proc_macro_derive(Entity, attributes(entity))]
pub fn derive_entity(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    entity_derive(&input).into()
}

/// `#[derive(Entity)]` on parsed input: the impls, or the errors and the entity as far as it was
/// read, expanded, so that its uses (its key types, `key_attributes`, the index methods) add no
/// errors of their own.
fn entity_derive(input: &DeriveInput) -> proc_macro2::TokenStream {
    match entity::Entity::from_input(input) {
        Ok(entity) => entity_expand::derive(&entity),
        Err(failed) => {
            let errors = failed.errors.write_errors();
            let partial = failed.partial.as_deref().map(entity_expand::derive);
            quote::quote!(#errors #partial)
        }
    }
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
