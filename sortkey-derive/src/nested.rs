//! `KeySegment` and `DecodeSegment` for a key type, so that it can be a field of another key.
//! They hold the only encode and decode bodies of a key: `SortKey::encode_into` and
//! `DecodeKey::decode_borrowed` call them with `WHOLE_KEY` and add the whole-key rules.
//!
//! A nested key writes exactly what its own `encode` writes (prefix included) in the outer
//! key's field, without the whole-key checks (length, emptiness), which the outer key makes.
//! Its last field is the outer key's last segment only when the nested key's field is the
//! outer key's last field; otherwise that field obeys the non-final text rule too. The outer
//! derive checks at compile time that both use the same separator.

use proc_macro2::TokenStream;
use quote::quote;

use crate::bodies::{decode_fields, encode_body};
use crate::checks::generic_checks_ref;
use crate::model::Key;

/// Both impls, inside the derive's anonymous `const`.
pub(crate) fn impls(key: &Key) -> TokenStream {
    let segment = impl_key_segment(key);
    let decode = impl_decode_segment(key);
    quote!(#segment #decode)
}

fn impl_key_segment(key: &Key) -> TokenStream {
    let ident = &key.ident;
    let (impl_generics, ty_generics, where_clause) = key.params.encode.split_for_impl();
    let body = encode_body(key);
    let run_checks = generic_checks_ref(key);
    let sep = key.separator;
    // Only the last field is unchecked against the separator in the nested key's own derive.
    let least = match key.fields.last() {
        Some(f) => {
            let ty = &f.ty;
            quote!(<#ty as _sortkey::KeySegment>::CAPABILITIES.least_byte())
        }
        None => quote!(_sortkey::Option::None),
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics _sortkey::KeySegment for #ident #ty_generics #where_clause {
            const WIDTH: _sortkey::Width =
                _sortkey::nested_width(<Self as _sortkey::SortKey>::ENCODED_LEN);
            const REVERSIBLE: ::core::primitive::bool = false;
            const MAX_VALUE: _sortkey::Option<::core::primitive::u128> = _sortkey::Option::None;
            const CAPABILITIES: _sortkey::Capabilities = _sortkey::key_capabilities(#least, #sep);
            const SEGMENT_LAYOUT: _sortkey::SegmentLayout =
                _sortkey::SegmentLayout::Key(&<Self as _sortkey::SortKey>::LAYOUT);

            #[inline]
            fn encode_segment(
                &self,
                __segment: &_sortkey::Field,
                __out: &mut _sortkey::String,
            ) -> _sortkey::Result<(), _sortkey::EncodeError> {
                let _ = __segment;
                #run_checks
                #body
                _sortkey::Result::Ok(())
            }
        }
    }
}

fn impl_decode_segment(key: &Key) -> TokenStream {
    let ident = &key.ident;
    let lt = &key.params.lifetime;
    let (impl_generics, _, where_clause) = key.params.decode.split_for_impl();
    let (_, ty_generics, _) = key.generics.split_for_impl();
    let reads = decode_fields(key);
    let run_checks = generic_checks_ref(key);
    quote! {
        #[automatically_derived]
        impl #impl_generics _sortkey::DecodeSegment<#lt> for #ident #ty_generics #where_clause {
            #[inline]
            fn decode_segment(
                __cursor: &mut _sortkey::Cursor<#lt>,
                __segment: &_sortkey::Field,
            ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
                let _ = __segment;
                #run_checks
                #reads
                __value
            }
        }
    }
}
