//! Code generation for a key family: `SortKey`, `DecodeKey`, `FromStr`, the segment impls (a
//! family can be a field of another key), the checks on the variants' key types, and the
//! family's query builder, one method per variant.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::Generics;

use crate::checks::assert_at;
use crate::family::{Family, VariantKind, first_segment, overlap_message, type_span};
use crate::templates::NestedKey;

/// All the generated items of a family.
pub(crate) fn derive(family: &Family) -> TokenStream {
    let (ident, vis) = (&family.ident, &family.vis);
    let query = format_ident!("{}Query", ident);
    let doc = format!(
        "Typed query conditions on [`{ident}`] keys, from [`{ident}::query`]: one method per variant, which \
         continues with that variant's own builder."
    );
    let query_struct = quote! {
        #[doc = #doc]
        #[must_use = "a query does nothing until it ends with a condition"]
        #[derive(Clone, Copy, Debug)]
        #vis struct #query {
            _private: (),
        }
    };
    let items = items(family, &query);
    let wrapped = crate::runtime::wrap_in_const(&family.krate, items);
    quote!(#query_struct #wrapped)
}

/// The literal a variant's keys start with: a unit's literal, or its key type's `PREFIX`.
fn literal(kind: &VariantKind) -> TokenStream {
    match kind {
        VariantKind::Unit(lit) => quote!(#lit),
        VariantKind::Key(ty) => quote!(_sortkey::prefix_of(<#ty as _sortkey::SortKey>::PREFIX)),
    }
}

fn items(family: &Family, query: &syn::Ident) -> TokenStream {
    let checks = checks(family);
    let info = impl_info(family);
    let sort_key = impl_sort_key(family);
    let decode_key = impl_decode_key(family);
    let display = crate::templates::display(&family.ident, &Generics::default(), true);
    let from_str = crate::templates::from_str(&family.ident, &Generics::default());
    let segment = impl_segment(family);
    let query = impl_query(family, query);
    let legacy = (!family.legacy.is_empty()).then(|| crate::expand::legacy(&family.ident, &family.legacy));
    quote!(#checks #info #sort_key #decode_key #display #from_str #segment #query #legacy)
}

/// What a variant's first segment is compared with: a unit's literal up to its first
/// separator, or its key type's prefix.
fn firsts(family: &Family) -> Vec<TokenStream> {
    let sep = family.separator;
    family
        .variants
        .iter()
        .map(|v| match &v.kind {
            VariantKind::Unit(lit) => {
                let first = first_segment(lit, sep);
                quote!(#first)
            }
            VariantKind::Key(_) => literal(&v.kind),
        })
        .collect()
}

/// The family's layout and the facts its decode errors report.
fn impl_info(family: &Family) -> TokenStream {
    let ident = &family.ident;
    let (name, sep) = (family.name(), family.separator);
    let literals = family.variants.iter().map(|v| literal(&v.kind));
    let variant_layouts = family.variants.iter().map(|v| match &v.kind {
        VariantKind::Unit(lit) => quote!(_sortkey::VariantLayout::Unit(#lit)),
        VariantKind::Key(ty) => quote!(_sortkey::VariantLayout::Key(&<#ty as _sortkey::SortKey>::LAYOUT)),
    });
    quote! {
        #[automatically_derived]
        impl #ident {
            const __SORTKEY_VARIANTS: &'static [_sortkey::VariantLayout] = &[#(#variant_layouts),*];
            const __SORTKEY_FAMILY: _sortkey::FamilyInfo = _sortkey::FamilyInfo {
                name: #name,
                separator: #sep,
                prefixes: &[#(#literals),*],
            };
        }
    }
}

/// `SortKey`: the variant's own encoding.
fn impl_sort_key(family: &Family) -> TokenStream {
    let ident = &family.ident;
    let (name, sep) = (family.name(), family.separator);
    let max_lens = family.variants.iter().map(|v| match &v.kind {
        VariantKind::Unit(lit) => {
            let len = lit.len();
            quote!(#len)
        }
        VariantKind::Key(ty) => quote!(<#ty as _sortkey::SortKey>::MAX_LEN),
    });
    // The older layouts, for the lock.
    let olds = &family.legacy;
    let legacy = (!olds.is_empty()).then(|| quote!(.with_legacy(&[#(&<#olds as _sortkey::SortKey>::LAYOUT),*])));
    let encode_arms = family.variants.iter().map(|v| {
        let vi = &v.ident;
        match &v.kind {
            VariantKind::Key(ty) => quote!(#ident::#vi(k) => <#ty as _sortkey::SortKey>::encode_into(k, __out)),
            VariantKind::Unit(lit) => quote!(#ident::#vi => _sortkey::encode_unit(__out, #name, #lit)),
        }
    });
    quote! {
        #[automatically_derived]
        impl _sortkey::SortKey for #ident {
            const PREFIX: _sortkey::Option<&'static ::core::primitive::str> = _sortkey::Option::None;
            const SEPARATOR: ::core::primitive::char = #sep;
            const ENCODED_LEN: _sortkey::Option<::core::primitive::usize> = _sortkey::Option::None;
            const MAX_LEN: ::core::primitive::usize = _sortkey::max_of(&[#(#max_lens),*]);
            const LAYOUT: _sortkey::Layout = _sortkey::Layout::family(
                #sep,
                <Self as _sortkey::SortKey>::MAX_LEN,
                Self::__SORTKEY_VARIANTS,
            )#legacy;

            #[inline]
            fn encode_into(&self, __out: &mut _sortkey::String) -> _sortkey::Result<(), _sortkey::EncodeError> {
                match self {
                    #(#encode_arms,)*
                }
            }
        }
    }
}

/// `DecodeKey`: dispatch on the first byte and the first segment, then the variant's decode.
fn impl_decode_key(family: &Family) -> TokenStream {
    let (ident, sep) = (&family.ident, family.separator);
    let decode_arms = family.variants.iter().zip(firsts(family)).enumerate().map(|(index, (v, first))| {
        let vi = &v.ident;
        let call = match &v.kind {
            VariantKind::Key(ty) => {
                quote!(_sortkey::decode_variant::<#ty, Self>(__key, #ident::#vi))
            }
            VariantKind::Unit(_) => {
                quote!(_sortkey::decode_unit(__key, &Self::__SORTKEY_FAMILY, #index, || #ident::#vi))
            }
        };
        quote! {
            if __first == _sortkey::first_byte(#first) && _sortkey::has_first_segment(__key, #first, #sep) {
                return #call;
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl<'__k> _sortkey::DecodeKey<'__k> for #ident {
            #[inline]
            fn decode_borrowed(__key: &'__k ::core::primitive::str) -> _sortkey::Result<Self, _sortkey::DecodeError> {
                let __first = _sortkey::first_byte(__key);
                #(#decode_arms)*
                _sortkey::unknown_variant(__key, &Self::__SORTKEY_FAMILY)
            }
        }
    }
}

/// `KeySegment` and `DecodeSegment`: the family as a field of another key.
fn impl_segment(family: &Family) -> TokenStream {
    let (ident, sep) = (&family.ident, family.separator);
    let firsts = firsts(family);
    let leasts = family.variants.iter().filter_map(|v| match &v.kind {
        VariantKind::Key(ty) => Some(quote!(<#ty as _sortkey::KeySegment>::CAPABILITIES.least_byte())),
        VariantKind::Unit(_) => None,
    });
    let segment_arms = family.variants.iter().map(|v| {
        let vi = &v.ident;
        match &v.kind {
            VariantKind::Key(ty) => {
                quote!(#ident::#vi(k) => <#ty as _sortkey::KeySegment>::encode_segment(k, __segment, __out))
            }
            VariantKind::Unit(lit) => quote!(#ident::#vi => {
                __out.push_str(#lit);
                _sortkey::Result::Ok(())
            }),
        }
    });
    let decode_arms = family.variants.iter().zip(&firsts).map(|(v, first)| {
        let vi = &v.ident;
        let read = match &v.kind {
            VariantKind::Key(ty) => quote! {
                return <#ty as _sortkey::DecodeSegment<'__k>>::decode_segment(__cursor, __segment).map(#ident::#vi);
            },
            VariantKind::Unit(lit) => quote! {
                _sortkey::expect_prefix(__cursor, #lit)?;
                return _sortkey::Result::Ok(#ident::#vi);
            },
        };
        quote!(if _sortkey::has_first_segment(__cursor.rest(), #first, #sep) { #read })
    });
    let lifetime: syn::Lifetime = syn::parse_quote!('__k);
    crate::templates::nested_key(&NestedKey {
        ident,
        encode: &Generics::default(),
        decode: &syn::parse_quote!(<'__k>),
        own: &Generics::default(),
        lifetime: &lifetime,
        width: quote!(_sortkey::nested_width(_sortkey::Option::None)),
        capabilities: quote!(_sortkey::key_capabilities(_sortkey::least_of(&[#(#leasts),*], &[#(#firsts),*]), #sep)),
        encode_body: quote! {
            match self {
                #(#segment_arms,)*
            }
        },
        decode_body: quote! {
            #(#decode_arms)*
            _sortkey::Result::Err(_sortkey::unknown_variant_here(__cursor, __segment, #sep, Self::__SORTKEY_FAMILY.prefixes))
        },
    })
}

/// `query()` and the query builder: one method per variant.
fn impl_query(family: &Family, query: &syn::Ident) -> TokenStream {
    let ident = &family.ident;
    let methods = family.variants.iter().map(|v| {
        let (vi, method) = (&v.ident, v.method());
        match &v.kind {
            VariantKind::Key(ty) => {
                let doc = format!("Queries `{vi}` keys: continues with the builder of its key type.");
                quote! {
                    #[doc = #doc]
                    #[inline]
                    pub fn #method(self) -> <#ty as _sortkey::Queryable>::Query {
                        <#ty as _sortkey::Queryable>::query()
                    }
                }
            }
            VariantKind::Unit(lit) => {
                let doc = format!("Queries the one `{vi}` key, {lit:?}.");
                quote! {
                    #[doc = #doc]
                    #[inline]
                    pub fn #method(self) -> _sortkey::UnitQuery {
                        _sortkey::unit_query(#lit)
                    }
                }
            }
        }
    });
    let query_doc = format!("Starts a typed query condition on `{ident}` keys: see [`{query}`].");
    quote! {
        #[automatically_derived]
        impl #ident {
            #[doc = #query_doc]
            #[inline]
            pub fn query() -> #query {
                #query { _private: () }
            }
        }

        #[automatically_derived]
        impl _sortkey::Queryable for #ident {
            type Query = #query;

            #[inline]
            fn query() -> #query {
                #query { _private: () }
            }
        }

        #[automatically_derived]
        impl #query {
            #(#methods)*
        }
    }
}

/// The rules on the variants' key types: each a sort key with a literal prefix and the family's
/// separator, and no two variants with one first segment.
fn checks(family: &Family) -> TokenStream {
    let (name, sep) = (family.name(), family.separator);
    let mut out = Vec::new();
    for (i, v) in family.variants.iter().enumerate() {
        let VariantKind::Key(ty) = &v.kind else { continue };
        let span = type_span(ty);
        let vi = &v.ident;
        let tyname = crate::types::type_name(ty);
        let key = quote_spanned!(span=> <#ty as _sortkey::SortKey>);
        out.push(assert_at(
            span,
            quote!(#key::PREFIX.is_some()),
            format!(
                "variant `{vi}` of key family `{name}`: `{tyname}` has no literal prefix; expected \
                 `#[key(prefix = \"...\")]` on it, so that the family can tell its keys from the other variants'"
            ),
        ));
        out.push(assert_at(
            span,
            quote!(#key::SEPARATOR == #sep),
            format!(
                "variant `{vi}` of key family `{name}`: `{tyname}` uses another separator than the family's \
                 {sep:?}; expected the same separator on both"
            ),
        ));
        out.push(assert_at(
            span,
            quote!(_sortkey::is_sort_role(#key::ROLE)),
            format!(
                "variant `{vi}` of key family `{name}`: `{tyname}` is a partition key; expected a sort key, as a \
                 family is"
            ),
        ));
        for earlier in &family.variants[..i] {
            let a = literal(&earlier.kind);
            let shown = match &earlier.kind {
                VariantKind::Unit(lit) => format!("{lit:?}"),
                VariantKind::Key(t) => format!("the prefix of `{}`", crate::types::type_name(t)),
            };
            let mine = format!("the prefix of `{tyname}`");
            let message = overlap_message(&name, vi, &mine, &earlier.ident, &shown, None, sep);
            out.push(assert_at(
                span,
                quote!(!_sortkey::same_first_segment(_sortkey::prefix_of(#key::PREFIX), #a, #sep)),
                message,
            ));
        }
    }
    // A unit variant after a key type is checked against it too, at the unit.
    for (i, v) in family.variants.iter().enumerate() {
        let VariantKind::Unit(lit) = &v.kind else { continue };
        for earlier in &family.variants[..i] {
            let VariantKind::Key(ty) = &earlier.kind else { continue };
            let a = literal(&earlier.kind);
            let shown = format!("the prefix of `{}`", crate::types::type_name(ty));
            let mine = format!("{lit:?}");
            let first = Some(first_segment(lit, sep));
            let message = overlap_message(&name, &v.ident, &mine, &earlier.ident, &shown, first, sep);
            out.push(assert_at(v.ident.span(), quote!(!_sortkey::same_first_segment(#lit, #a, #sep)), message));
        }
    }
    quote!(#(const _: () = { #out };)*)
}
