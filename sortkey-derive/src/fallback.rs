//! What the derive emits when the input is wrong: the errors, and stub impls (and, for a struct
//! with named fields, the query builder) so that uses of the type add no errors of their own.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::model::{DEFAULT_MAX_LEN, DEFAULT_SEPARATOR, Key};

pub(crate) fn derive(input: &DeriveInput, errors: darling::Error) -> TokenStream {
    let errors = errors.write_errors();
    let krate = crate::runtime::crate_path(&input.attrs);
    let stubs = key_stubs(input);
    let segment = segment_stubs(input);
    let (query_struct, query_impls) = query(input);
    let wrapped = crate::runtime::wrap_in_const(&krate, quote!(#stubs #segment #query_impls));
    quote!(#errors #query_struct #wrapped)
}

/// Stub `SortKey`, `DecodeKey` and `FromStr` impls.
fn key_stubs(input: &DeriveInput) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut decode_generics = input.generics.clone();
    decode_generics.params.insert(0, syn::parse_quote!('__k));
    let (decode_impl_generics, _, _) = decode_generics.split_for_impl();
    // `expand` derives `FromStr` only for keys that do not borrow; the stub does the same.
    let from_str = input.generics.lifetimes().next().is_none().then(|| {
        quote! {
            impl #impl_generics _sortkey::FromStr for #ident #ty_generics #where_clause {
                type Err = _sortkey::DecodeError;

                fn from_str(_: &::core::primitive::str) -> _sortkey::Result<Self, Self::Err> {
                    ::core::unreachable!()
                }
            }
        }
    });
    quote! {
        impl #impl_generics _sortkey::SortKey for #ident #ty_generics #where_clause {
            const PREFIX: _sortkey::Option<&'static ::core::primitive::str> = _sortkey::Option::None;
            const SEPARATOR: ::core::primitive::char = #DEFAULT_SEPARATOR;
            const ENCODED_LEN: _sortkey::Option<::core::primitive::usize> = _sortkey::Option::None;
            const MAX_LEN: ::core::primitive::usize = #DEFAULT_MAX_LEN;

            fn encode_into(&self, _: &mut _sortkey::String) -> _sortkey::Result<(), _sortkey::EncodeError> {
                ::core::unreachable!()
            }
        }

        impl #decode_impl_generics _sortkey::DecodeKey<'__k> for #ident #ty_generics #where_clause {
            fn decode_borrowed(_: &'__k ::core::primitive::str) -> _sortkey::Result<Self, _sortkey::DecodeError> {
                ::core::unreachable!()
            }
        }

        #from_str
    }
}

/// The query builder of a struct with named fields, as the derive would write it with no
/// attributes, over stub field specs: code that calls `query()` and the field methods gets no
/// error of its own. Nothing of it runs, as the crate does not compile.
fn query(input: &DeriveInput) -> (Option<TokenStream>, Option<TokenStream>) {
    let Some(key) = Key::lenient(input) else { return (None, None) };
    let query_struct = crate::query::query_struct(&key, &key.vis);
    let ident = &key.ident;
    let (impl_generics, ty_generics, where_clause) = key.generics.split_for_impl();
    let names = (0..key.fields.len()).map(crate::bodies::field_const);
    let sep = DEFAULT_SEPARATOR;
    let impls = crate::query::query_impls(&key);
    let segments = crate::bodies::field_segments(&key, &key.generics);
    let fields = quote! {
        #segments
        impl #impl_generics #ident #ty_generics #where_clause {
            #(const #names: _sortkey::Field = _sortkey::Field::new("", "", #sep);)*
        }
    };
    (Some(query_struct), Some(quote!(#fields #impls)))
}

/// Stub `KeySegment` and `DecodeSegment` impls, for a failed key derive (a key is also a segment)
/// and a failed enum derive; they go inside the `const` that names the runtime `_sortkey`.
pub(crate) fn segment_stubs(input: &DeriveInput) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut decode_generics = input.generics.clone();
    decode_generics.params.insert(0, syn::parse_quote!('__k));
    let (decode_impl_generics, _, _) = decode_generics.split_for_impl();
    quote! {
        impl #impl_generics _sortkey::KeySegment for #ident #ty_generics #where_clause {
            const REVERSIBLE: ::core::primitive::bool = true;

            fn encode_segment(&self, _: &_sortkey::Field, _: &mut _sortkey::String)
                -> _sortkey::Result<(), _sortkey::EncodeError> {
                ::core::unreachable!()
            }
        }

        impl #decode_impl_generics _sortkey::DecodeSegment<'__k> for #ident #ty_generics #where_clause {
            fn decode_segment(_: &mut _sortkey::Cursor<'__k>, _: &_sortkey::Field)
                -> _sortkey::Result<Self, _sortkey::DecodeError> {
                ::core::unreachable!()
            }
        }
    }
}
