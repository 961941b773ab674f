//! Code generation from a validated [`Key`]: the `SortKey`, `DecodeKey` and `FromStr` impls,
//! put together with the field specs, the checks, the segment impls and the query builder in
//! the one wrapper every expansion goes in.

use proc_macro2::TokenStream;
use quote::quote;

use crate::bodies::impl_fields;
use crate::checks::checks;
use crate::model::{Key, Role};

/// All the generated items: the query struct, which users name, and everything else inside the
/// one anonymous `const` that names the runtime `_sortkey`.
pub(crate) fn derive(key: &Key) -> TokenStream {
    let fields = impl_fields(key);
    let sort_key = impl_sort_key(key);
    let decode_key = impl_decode_key(key);
    let from_str = impl_from_str(key);
    let checks = checks(key);
    let nested = crate::nested::impls(key);
    let query_struct = crate::query::query_struct(key, &key.vis);
    let query_impls = crate::query::query_impls(key);
    let display = impl_display(key);
    let legacy = impl_legacy(key);
    let sharded = impl_sharded(key);
    let items = quote!(#fields #checks #sort_key #decode_key #from_str #display #nested #query_impls #legacy #sharded);
    let wrapped = crate::runtime::wrap_in_const(&key.krate, items);
    quote!(#query_struct #wrapped)
}

/// The constant length when every segment has a fixed width.
fn encoded_len(key: &Key) -> TokenStream {
    let segments = key.fields.len() + usize::from(key.prefix.is_some());
    let fixed = key.prefix.as_ref().map_or(0, String::len) + segments.saturating_sub(1);
    (0..key.fields.len()).fold(quote!(_sortkey::Option::Some(#fixed)), |acc, i| {
        let (seg, name) = (crate::bodies::segment(key, i, &quote!(Self)), crate::bodies::field_const(i));
        quote! {
            _sortkey::add_len(#acc, _sortkey::segment_len_of(
                #seg::WIDTH,
                Self::#name.width(),
                #seg::VARIABLE_LEN,
            ))
        }
    })
}

fn impl_sort_key(key: &Key) -> TokenStream {
    let ident = &key.ident;
    let (impl_generics, ty_generics, where_clause) = key.params.encode.split_for_impl();
    let len = encoded_len(key);
    let (key_name, max_len, sep) = (key.name(), key.max_len, key.separator);
    let prefix = match &key.prefix {
        Some(p) => quote!(_sortkey::Option::Some(#p)),
        None => quote!(_sortkey::Option::None),
    };
    let role = match key.role {
        Role::Sort => quote!(Sort),
        Role::Partition(_) => quote!(Partition),
    };
    // The older layouts, for the lock: only a key without generic parameters has them (its
    // `Legacy` impl says so otherwise).
    let olds = &key.legacy;
    let legacy = if olds.is_empty() || !key.generics.params.is_empty() {
        TokenStream::new()
    } else {
        quote!(.with_legacy(&[#(&<#olds as _sortkey::SortKey>::LAYOUT),*]))
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics _sortkey::SortKey for #ident #ty_generics #where_clause {
            const PREFIX: _sortkey::Option<&'static ::core::primitive::str> = #prefix;
            const SEPARATOR: ::core::primitive::char = #sep;
            const ENCODED_LEN: _sortkey::Option<::core::primitive::usize> = #len;
            const MAX_LEN: ::core::primitive::usize = #max_len;
            const ROLE: _sortkey::KeyRole = _sortkey::KeyRole::#role;
            const LAYOUT: _sortkey::Layout = _sortkey::Layout::fields(
                #prefix,
                #sep,
                #max_len,
                _sortkey::KeyRole::#role,
                Self::__SORTKEY_LAYOUT,
            )#legacy;

            #[inline]
            fn encode_into(
                &self,
                __out: &mut _sortkey::String,
            ) -> _sortkey::Result<(), _sortkey::EncodeError> {
                // The body is the key's `KeySegment` impl (see nested.rs); this adds the
                // whole-key rules.
                _sortkey::encode_whole(self, __out, #key_name, #max_len)
            }
        }
    }
}

fn impl_decode_key(key: &Key) -> TokenStream {
    let ident = &key.ident;
    let lt = &key.params.lifetime;
    let (impl_generics, _, where_clause) = key.params.decode.split_for_impl();
    let (_, ty_generics, _) = key.generics.split_for_impl();
    let (key_name, max_len) = (key.name(), key.max_len);
    quote! {
        #[automatically_derived]
        impl #impl_generics _sortkey::DecodeKey<#lt> for #ident #ty_generics #where_clause {
            #[inline]
            fn decode_borrowed(
                __key: &#lt ::core::primitive::str,
            ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
                // The body is the key's `DecodeSegment` impl (see nested.rs); this adds the
                // whole-key rules.
                _sortkey::decode_whole::<Self>(__key, #key_name, #max_len)
            }
        }
    }
}

/// `FromStr` via `decode`, for types that do not borrow.
fn impl_from_str(key: &Key) -> TokenStream {
    match key.lifetime {
        Some(_) => TokenStream::new(),
        None => crate::templates::from_str(&key.ident, &key.params.owned),
    }
}

/// `Display` as the encoding, and serde through it for a type without generics, whose decode
/// owns its result.
fn impl_display(key: &Key) -> TokenStream {
    crate::templates::display(&key.ident, &key.params.encode, key.generics.params.is_empty())
}

/// `Sharded` for a key with a shard field.
fn impl_sharded(key: &Key) -> TokenStream {
    let Some((i, field)) = key.fields.iter().enumerate().find(|(_, f)| f.shards.is_some()) else {
        return TokenStream::new();
    };
    let ident = &key.ident;
    let (impl_generics, ty_generics, where_clause) = key.params.encode.split_for_impl();
    let (f, spec) = (&field.ident, crate::bodies::field_const(i));
    quote! {
        #[automatically_derived]
        impl #impl_generics _sortkey::Sharded for #ident #ty_generics #where_clause {
            const SHARDS: _sortkey::Shards = match Self::#spec.shards() {
                _sortkey::Option::Some(__shards) => __shards,
                _sortkey::Option::None => ::core::unreachable!(),
            };

            #[inline]
            fn shard(&self) -> ::core::primitive::u16 {
                self.#f
            }

            #[inline]
            fn set_shard(&mut self, __shard: ::core::primitive::u16) {
                self.#f = __shard;
            }
        }
    }
}

/// `Legacy` for a key with `#[key(legacy = OldKey)]`: the current layout, then each older one.
fn impl_legacy(key: &Key) -> TokenStream {
    if key.legacy.is_empty() {
        return TokenStream::new();
    }
    if let Some(param) = key.generics.params.first() {
        let message = format!(
            "struct `{}`: `legacy` needs a key type without generic parameters, which `decode_any` can name; found \
             a parameter",
            key.name()
        );
        return syn::Error::new_spanned(param, message).to_compile_error();
    }
    legacy(&key.ident, &key.legacy)
}

/// `Legacy` for the key type (or family) `ident` whose older layouts are the key types `olds`,
/// newest first, each `From` into it: `decode_any` tries the current layout, then each older one.
pub(crate) fn legacy(ident: &syn::Ident, olds: &[syn::Path]) -> TokenStream {
    let tries = olds.iter().enumerate().map(|(i, old)| {
        let version = i + 1;
        quote! {
            if let _sortkey::Result::Ok(__old) = <#old as _sortkey::SortKey>::decode(__key) {
                return _sortkey::Result::Ok(_sortkey::Versioned {
                    key: ::core::convert::From::from(__old),
                    version: #version,
                    layout: &<#old as _sortkey::SortKey>::LAYOUT,
                });
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #ident {
            /// Reads `key` in the current layout or any older one (`legacy`), newest first, and
            /// says which matched: `Legacy::decode_any`, without the trait in scope.
            #[inline]
            pub fn decode_any(key: &::core::primitive::str) -> _sortkey::Result<_sortkey::Versioned<Self>, _sortkey::DecodeError> {
                <Self as _sortkey::Legacy>::decode_any(key)
            }
        }

        #[automatically_derived]
        impl _sortkey::Legacy for #ident {
            const LEGACY_LAYOUTS: &'static [&'static _sortkey::Layout] = &[#(&<#olds as _sortkey::SortKey>::LAYOUT),*];

            #[inline]
            fn decode_any(__key: &::core::primitive::str) -> _sortkey::Result<_sortkey::Versioned<Self>, _sortkey::DecodeError> {
                let __current = match <Self as _sortkey::SortKey>::decode(__key) {
                    _sortkey::Result::Ok(__k) => {
                        return _sortkey::Result::Ok(_sortkey::Versioned {
                            key: __k,
                            version: 0,
                            layout: &<Self as _sortkey::SortKey>::LAYOUT,
                        });
                    }
                    _sortkey::Result::Err(__e) => __e,
                };
                #(#tries)*
                _sortkey::Result::Err(__current)
            }
        }
    }
}
