//! What the derive emits when the input is wrong: the errors, and a stub impl so that uses of
//! the type do not add errors of their own.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

pub(crate) fn derive(input: &DeriveInput, errors: darling::Error) -> TokenStream {
    let errors = errors.write_errors();
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut decode_generics = input.generics.clone();
    decode_generics.params.insert(0, syn::parse_quote!('__k));
    let (decode_impl_generics, _, _) = decode_generics.split_for_impl();
    // `expand` derives `FromStr` only for keys that do not borrow; the stub does the same.
    let from_str = input.generics.lifetimes().next().is_none().then(|| {
        quote! {
            impl #impl_generics ::core::str::FromStr for #ident #ty_generics #where_clause {
                type Err = _sortkey::DecodeError;

                fn from_str(_: &::core::primitive::str) -> ::core::result::Result<Self, Self::Err> {
                    ::core::unreachable!()
                }
            }
        }
    });
    let segment = segment_stubs(input);
    let default_private = crate::runtime::private(&crate::runtime::default_crate());
    quote! {
        #errors
        #[allow(unused_qualifications)]
        const _: () = {
            use #default_private as _sortkey;

            impl #impl_generics _sortkey::SortKey for #ident #ty_generics #where_clause {
                const PREFIX: ::core::option::Option<&'static ::core::primitive::str> = ::core::option::Option::None;
                const SEPARATOR: ::core::primitive::char = '#';
                const ENCODED_LEN: ::core::option::Option<::core::primitive::usize> = ::core::option::Option::None;
                const MAX_LEN: ::core::primitive::usize = 1024;

                fn encode_into(&self, _: &mut ::std::string::String)
                    -> ::core::result::Result<(), _sortkey::EncodeError> {
                    ::core::unreachable!()
                }
            }

            impl #decode_impl_generics _sortkey::DecodeKey<'__k> for #ident #ty_generics #where_clause {
                fn decode_borrowed(_: &'__k ::core::primitive::str) -> ::core::result::Result<Self, _sortkey::DecodeError> {
                    ::core::unreachable!()
                }
            }

            #segment
            #from_str
        };
    }
}

/// Stub `KeySegment` and `DecodeSegment` impls, for a failed key derive (a key is also a segment)
/// and a failed enum derive; they go inside a `const` that names the runtime `_sortkey`.
pub(crate) fn segment_stubs(input: &DeriveInput) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut decode_generics = input.generics.clone();
    decode_generics.params.insert(0, syn::parse_quote!('__k));
    let (decode_impl_generics, _, _) = decode_generics.split_for_impl();
    quote! {
            impl #impl_generics _sortkey::KeySegment for #ident #ty_generics #where_clause {
                const WIDTH: _sortkey::Width = _sortkey::Width::Variable;
                const REVERSIBLE: ::core::primitive::bool = true;
                const MAX_VALUE: ::core::option::Option<::core::primitive::u128> = ::core::option::Option::None;

                fn encode_segment(&self, _: &_sortkey::Field, _: &mut ::std::string::String)
                    -> ::core::result::Result<(), _sortkey::EncodeError> {
                    ::core::unreachable!()
                }
            }

            impl #decode_impl_generics _sortkey::DecodeSegment<'__k> for #ident #ty_generics #where_clause {
                fn decode_segment(_: &mut _sortkey::Cursor<'__k>, _: &_sortkey::Field)
                    -> ::core::result::Result<Self, _sortkey::DecodeError> {
                    ::core::unreachable!()
                }
            }
    }
}
