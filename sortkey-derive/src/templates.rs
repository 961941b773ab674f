//! The impls a key type and a key family both get, written once: `Display` (and serde) as the
//! encoding, `FromStr` through the strict decoder, and `KeySegment`/`DecodeSegment` that nest
//! the key as its own encoding. Each takes the type, the generics of its impl and the bodies
//! that differ.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Generics, Ident, Lifetime};

/// `Display` as the encoding; `serde`: also `Serialize`/`Deserialize` through it (feature
/// `serde` of the runtime), for a type whose decode owns its result.
pub(crate) fn display(ident: &Ident, generics: &Generics, serde: bool) -> TokenStream {
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let serde = serde.then(|| quote!(_sortkey::serde_impls!(#ident);));
    quote! {
        #[automatically_derived]
        impl #impl_generics ::core::fmt::Display for #ident #ty_generics #where_clause {
            /// The key's encoding; a value that cannot be encoded is a `fmt::Error`.
            #[inline]
            fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                _sortkey::display_key(self, __f)
            }
        }

        #serde
    }
}

/// `FromStr` via `SortKey::decode`.
pub(crate) fn from_str(ident: &Ident, generics: &Generics) -> TokenStream {
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics _sortkey::FromStr for #ident #ty_generics #where_clause {
            type Err = _sortkey::DecodeError;

            #[inline]
            fn from_str(__key: &::core::primitive::str) -> _sortkey::Result<Self, Self::Err> {
                <Self as _sortkey::SortKey>::decode(__key)
            }
        }
    }
}

/// What differs between the segment impls of a key type and of a family.
pub(crate) struct NestedKey<'a> {
    pub(crate) ident: &'a Ident,
    /// The generics of the `KeySegment` impl.
    pub(crate) encode: &'a Generics,
    /// The generics of the `DecodeSegment` impl (with the decode lifetime `lifetime`), and the
    /// type's own, which name it.
    pub(crate) decode: &'a Generics,
    pub(crate) own: &'a Generics,
    pub(crate) lifetime: &'a Lifetime,
    /// `KeySegment::WIDTH` and `CAPABILITIES`.
    pub(crate) width: TokenStream,
    pub(crate) capabilities: TokenStream,
    /// The body of `encode_segment`, with `self`, `__segment` and `__out`.
    pub(crate) encode_body: TokenStream,
    /// The body of `decode_segment`, with `__cursor` and `__segment`.
    pub(crate) decode_body: TokenStream,
}

/// `KeySegment` and `DecodeSegment`: the key nested in another as its own encoding, its layout
/// the key's layout.
pub(crate) fn nested_key(n: &NestedKey<'_>) -> TokenStream {
    let (ident, lt) = (n.ident, n.lifetime);
    let (impl_generics, ty_generics, where_clause) = n.encode.split_for_impl();
    let (decode_generics, _, decode_where) = n.decode.split_for_impl();
    let (_, own_generics, _) = n.own.split_for_impl();
    let (width, capabilities, encode_body, decode_body) = (&n.width, &n.capabilities, &n.encode_body, &n.decode_body);
    quote! {
        #[automatically_derived]
        impl #impl_generics _sortkey::KeySegment for #ident #ty_generics #where_clause {
            const WIDTH: _sortkey::Width = #width;
            const CAPABILITIES: _sortkey::Capabilities = #capabilities;
            const SEGMENT_LAYOUT: _sortkey::SegmentLayout =
                _sortkey::SegmentLayout::Key(&<Self as _sortkey::SortKey>::LAYOUT);

            #[inline]
            fn encode_segment(
                &self,
                __segment: &_sortkey::Field,
                __out: &mut _sortkey::String,
            ) -> _sortkey::Result<(), _sortkey::EncodeError> {
                #encode_body
            }
        }

        #[automatically_derived]
        impl #decode_generics _sortkey::DecodeSegment<#lt> for #ident #own_generics #decode_where {
            #[inline]
            fn decode_segment(
                __cursor: &mut _sortkey::Cursor<#lt>,
                __segment: &_sortkey::Field,
            ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
                #decode_body
            }
        }
    }
}
