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
use crate::templates::NestedKey;

/// Both impls, inside the derive's anonymous `const`.
pub(crate) fn impls(key: &Key) -> TokenStream {
    let run_checks = generic_checks_ref(key);
    let (body, reads) = (encode_body(key), decode_fields(key));
    let sep = key.separator;
    // Only the last field is unchecked against the separator in the nested key's own derive.
    let least = match key.fields.len() {
        0 => quote!(_sortkey::Option::None),
        n => {
            let seg = crate::bodies::segment(key, n - 1, &quote!(Self));
            quote!(#seg::CAPABILITIES.least_byte())
        }
    };
    crate::templates::nested_key(&NestedKey {
        ident: &key.ident,
        encode: &key.params.encode,
        decode: &key.params.decode,
        own: &key.generics,
        lifetime: &key.params.lifetime,
        width: quote!(_sortkey::nested_width(<Self as _sortkey::SortKey>::ENCODED_LEN)),
        capabilities: quote!(_sortkey::key_capabilities(#least, #sep)),
        encode_body: quote! {
            let _ = __segment;
            #run_checks
            #body
            _sortkey::Result::Ok(())
        },
        decode_body: quote! {
            let _ = __segment;
            #run_checks
            #reads
            __value
        },
    })
}
