//! The attributes as written: what darling reads from `#[key(...)]`.

use darling::util::{Flag, SpannedValue};
use darling::{FromDeriveInput, FromField, FromVariant, ast};
use syn::{Generics, Ident, Path, Type};

/// `#[key(...)]` on the struct, and its fields.
#[derive(FromDeriveInput)]
#[darling(attributes(key), and_then = Self::validate)]
pub(crate) struct KeyInput {
    pub(crate) ident: Ident,
    pub(crate) vis: syn::Visibility,
    pub(crate) generics: Generics,
    /// The fields as written; [`KeyField`] parses each on its own, so that an error in one
    /// field hides neither the others nor the struct's own attributes.
    pub(crate) data: ast::Data<darling::util::Ignored, syn::Field>,
    /// A literal first segment.
    pub(crate) prefix: Option<SpannedValue<String>>,
    /// The character between segments.
    pub(crate) separator: Option<SpannedValue<char>>,
    /// The longest key in bytes.
    pub(crate) max_len: Option<SpannedValue<usize>>,
    /// The path of the runtime crate.
    #[darling(rename = "crate")]
    pub(crate) krate: Option<Path>,
}

/// `#[key(...)]` on a field.
#[derive(FromField)]
#[darling(attributes(key), and_then = Self::validate)]
pub(crate) struct KeyField {
    pub(crate) ident: Option<Ident>,
    pub(crate) ty: Type,
    /// Characters of an integer segment.
    pub(crate) width: Option<SpannedValue<u32>>,
    /// Reverse order.
    pub(crate) desc: Flag,
    /// The largest allowed value.
    pub(crate) max: Option<SpannedValue<u128>>,
    /// The precision of a timestamp: `"s"`, `"ms"`, `"us"` or `"ns"`.
    pub(crate) unit: Option<SpannedValue<String>>,
    /// How a timestamp is written: `"rfc3339"` (Unix time when absent).
    pub(crate) format: Option<SpannedValue<String>>,
}

/// `#[key(...)]` on an enum that derives `KeySegment`, and its variants.
#[derive(FromDeriveInput)]
#[darling(attributes(key))]
pub(crate) struct SegmentInput {
    pub(crate) ident: Ident,
    pub(crate) data: ast::Data<SegmentVariant, darling::util::Ignored>,
    /// How variant names become encodings: `"snake_case"`, `"kebab-case"`, ...
    pub(crate) rename_all: Option<SpannedValue<String>>,
    /// The path of the runtime crate.
    #[darling(rename = "crate")]
    pub(crate) krate: Option<Path>,
}

/// `#[key(...)]` on a variant.
#[derive(FromVariant)]
#[darling(attributes(key))]
pub(crate) struct SegmentVariant {
    pub(crate) ident: Ident,
    pub(crate) fields: ast::Fields<darling::util::Ignored>,
    /// The variant's encoding, instead of its name.
    pub(crate) rename: Option<SpannedValue<String>>,
}
