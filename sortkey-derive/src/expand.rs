//! Code generation from a validated [`Key`]: the `SortKey`, `DecodeKey` and `FromStr` impls and
//! the type-dependent checks as `const` assertions spanned on the field.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{GenericParam, Generics, Ident, Lifetime, LifetimeParam, Type};

use crate::valid::{Field, Key};

/// All the generated items, inside one anonymous `const` that names the runtime `_sortkey`.
pub(crate) fn derive(key: &Key) -> TokenStream {
    let krate = &key.krate;
    let sort_key = impl_sort_key(key);
    let decode_key = impl_decode_key(key);
    let from_str = impl_from_str(key);
    let checks = checks(key);
    let query_struct = crate::query::query_struct(key, &key.vis);
    let query_impls = crate::query::query_impls(key);
    quote! {
        #query_struct

        #[doc(hidden)]
        #[allow(unused_qualifications, non_local_definitions, clippy::all)]
        const _: () = {
            use #krate as _sortkey;
            #checks
            #sort_key
            #decode_key
            #from_str
            #query_impls
        };
    }
}

/// The literal the key starts with: the prefix and, when fields follow, a separator.
fn prefix_literal(key: &Key) -> Option<String> {
    let sep = if key.fields.is_empty() { String::new() } else { key.separator.to_string() };
    key.prefix.as_ref().map(|p| format!("{p}{sep}"))
}

fn name(key: &Key) -> String {
    key.ident.to_string()
}

/// `Field::new(..)` for field `i`, with the width resolved against the type's default.
fn field_spec(key: &Key, i: usize, field: &Field) -> TokenStream {
    let ty = &field.ty;
    let (key_name, field_name, sep) = (name(key), field.ident.to_string(), key.separator);
    let given = match field.width {
        Some((w, _)) => quote!(_sortkey::__private::Option::Some(#w)),
        None => quote!(_sortkey::__private::Option::None),
    };
    let desc = field.desc.map(|_| quote!(.desc()));
    let max = field.max.map(|(m, _)| quote!(.max(#m)));
    let last = (i + 1 == key.fields.len()).then(|| quote!(.last()));
    quote_spanned! {ty.span()=>
        _sortkey::Field::new(#key_name, #field_name, #sep)
            .width(_sortkey::__private::resolve_width(<#ty as _sortkey::KeySegment>::WIDTH, #given))
            #desc #max #last
    }
}

/// The constant length when every segment has a fixed width.
fn encoded_len(key: &Key) -> TokenStream {
    let segments = key.fields.len() + usize::from(key.prefix.is_some());
    let fixed = key.prefix.as_ref().map_or(0, String::len) + segments.saturating_sub(1);
    key.fields.iter().enumerate().fold(quote!(_sortkey::__private::Option::Some(#fixed)), |acc, (i, field)| {
        let ty = &field.ty;
        quote! {
            _sortkey::__private::add_len(#acc, _sortkey::__private::segment_len(
                <#ty as _sortkey::KeySegment>::WIDTH,
                <Self as _sortkey::SortKey>::FIELDS[#i].get_width(),
            ))
        }
    })
}

/// Adds `bound` to every type parameter.
pub(crate) fn bounded(generics: &Generics, bound: TokenStream) -> Generics {
    let mut generics = generics.clone();
    let params: Vec<Ident> = generics.type_params().map(|p| p.ident.clone()).collect();
    let clause = generics.make_where_clause();
    for param in params {
        clause.predicates.push(syn::parse_quote!(#param: #bound));
    }
    generics
}

fn impl_sort_key(key: &Key) -> TokenStream {
    let ident = &key.ident;
    let generics = bounded(&key.generics, quote!(_sortkey::KeySegment));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let specs = key.fields.iter().enumerate().map(|(i, f)| field_spec(key, i, f));
    let len = encoded_len(key);
    let (key_name, max_len, sep) = (name(key), key.max_len, key.separator);
    let prefix = match &key.prefix {
        Some(p) => quote!(_sortkey::__private::Option::Some(#p)),
        None => quote!(_sortkey::__private::Option::None),
    };
    let body = encode_body(key);
    let run_checks = generic_checks_ref(key);
    quote! {
        #[automatically_derived]
        impl #impl_generics _sortkey::SortKey for #ident #ty_generics #where_clause {
            const PREFIX: _sortkey::__private::Option<&'static ::core::primitive::str> = #prefix;
            const SEPARATOR: ::core::primitive::char = #sep;
            const FIELDS: &'static [_sortkey::Field] = &[#(#specs),*];
            const ENCODED_LEN: _sortkey::__private::Option<::core::primitive::usize> = #len;
            const MAX_LEN: ::core::primitive::usize = #max_len;

            #[inline]
            fn encode_into(
                &self,
                __out: &mut _sortkey::__private::String,
            ) -> _sortkey::__private::Result<(), _sortkey::EncodeError> {
                #run_checks
                _sortkey::__private::encode_key(__out, #key_name, #max_len, |__out| {
                    #body
                    _sortkey::__private::Result::Ok(())
                })
            }
        }
    }
}

/// Pushes the prefix, then each field's segment, with separators between.
fn encode_body(key: &Key) -> TokenStream {
    let prefix = prefix_literal(key).map(|p| quote!(__out.push_str(#p);));
    let sep = key.separator;
    let fields = key.fields.iter().enumerate().map(|(i, field)| {
        let (ident, ty) = (&field.ident, &field.ty);
        let before = (i > 0).then(|| quote!(__out.push(#sep);));
        quote_spanned! {ty.span()=>
            #before
            <#ty as _sortkey::KeySegment>::encode_segment(
                &self.#ident,
                &<Self as _sortkey::SortKey>::FIELDS[#i],
                __out,
            )?;
        }
    });
    quote!(#prefix #(#fields)*)
}

/// The lifetime decoded text borrows for: the struct's own, or a fresh `'__k`.
fn decode_lifetime(key: &Key) -> (Lifetime, Generics) {
    match &key.lifetime {
        Some(lt) => (lt.clone(), key.generics.clone()),
        None => {
            let lt = Lifetime::new("'__k", Span::call_site());
            let mut generics = key.generics.clone();
            generics.params.insert(0, GenericParam::Lifetime(LifetimeParam::new(lt.clone())));
            (lt, generics)
        }
    }
}

fn impl_decode_key(key: &Key) -> TokenStream {
    let ident = &key.ident;
    let (lt, generics) = decode_lifetime(key);
    let generics = bounded(&generics, quote!(_sortkey::DecodeSegment<#lt>));
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = key.generics.split_for_impl();
    let body = decode_body(key, &lt);
    let run_checks = generic_checks_ref(key);
    quote! {
        #[automatically_derived]
        impl #impl_generics _sortkey::DecodeKey<#lt> for #ident #ty_generics #where_clause {
            fn decode_borrowed(
                __key: &#lt ::core::primitive::str,
            ) -> _sortkey::__private::Result<Self, _sortkey::DecodeError> {
                #run_checks
                #body
            }
        }
    }
}

fn decode_body(key: &Key, lt: &Lifetime) -> TokenStream {
    let (key_name, max_len) = (name(key), key.max_len);
    let prefix =
        prefix_literal(key).map(|p| quote!(__cursor.expect(#p, _sortkey::__private::Option::None, "the prefix")?;));
    let sep = key.separator.to_string();
    let locals: Vec<Ident> = (0..key.fields.len()).map(|i| format_ident!("__field{}", i)).collect();
    let reads = key.fields.iter().zip(&locals).enumerate().map(|(i, (field, local))| {
        let ty = &field.ty;
        let after = (i + 1 < key.fields.len()).then(|| {
            quote! {
                _sortkey::__private::expect_separator(
                    &mut __cursor, #sep, &<Self as _sortkey::SortKey>::FIELDS[#i],
                )?;
            }
        });
        quote_spanned! {ty.span()=>
            let #local = <#ty as _sortkey::DecodeSegment<#lt>>::decode_segment(
                &mut __cursor,
                &<Self as _sortkey::SortKey>::FIELDS[#i],
            )?;
            #after
        }
    });
    let idents = key.fields.iter().map(|f| &f.ident);
    quote! {
        let mut __cursor = _sortkey::__private::decode_start(__key, #key_name, #max_len)?;
        #prefix
        #(#reads)*
        __cursor.expect_end()?;
        _sortkey::__private::Result::Ok(Self { #(#idents: #locals),* })
    }
}

/// `FromStr` via `decode`, for types that do not borrow.
fn impl_from_str(key: &Key) -> TokenStream {
    if key.lifetime.is_some() {
        return TokenStream::new();
    }
    let ident = &key.ident;
    let generics = bounded(&key.generics, quote!(for<'__k> _sortkey::DecodeSegment<'__k>));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics _sortkey::__private::FromStr for #ident #ty_generics #where_clause {
            type Err = _sortkey::DecodeError;

            fn from_str(__key: &::core::primitive::str) -> _sortkey::__private::Result<Self, Self::Err> {
                <Self as _sortkey::SortKey>::decode(__key)
            }
        }
    }
}

/// Whether the struct has type or const parameters, so that checks must wait for monomorphization.
fn is_generic(key: &Key) -> bool {
    key.generics.params.iter().any(|p| !matches!(p, GenericParam::Lifetime(_)))
}

/// In a generic struct the checks live in an associated constant that encode and decode evaluate.
fn generic_checks_ref(key: &Key) -> Option<TokenStream> {
    is_generic(key).then(|| quote!(let () = Self::__SORTKEY_CHECKS;))
}

/// The type-dependent rules, as `const` assertions.
fn checks(key: &Key) -> TokenStream {
    let asserts: Vec<TokenStream> =
        key.fields.iter().flat_map(|f| field_checks(key, f)).chain(std::iter::once(length_check(key))).collect();
    if !is_generic(key) {
        return quote!(#(const _: () = { #asserts };)*);
    }
    let ident = &key.ident;
    let generics = bounded(&key.generics, quote!(_sortkey::KeySegment));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc(hidden)]
            const __SORTKEY_CHECKS: () = { #(#asserts)* };
        }
    }
}

/// A type as written, for messages.
fn type_name(ty: &Type) -> String {
    quote!(#ty).to_string().replace(" < ", "<").replace(" >", ">").replace("& ", "&").replace(" ,", ",")
}

/// One `assert!` with the field's message, spanned on the attribute it is about.
fn assert_at(span: Span, cond: TokenStream, message: String) -> TokenStream {
    quote_spanned! {span=> _sortkey::__private::assert!(#cond, #message); }
}

fn field_checks(key: &Key, field: &Field) -> Vec<TokenStream> {
    let ty = static_type(key, &field.ty);
    let (name, tyname) = (field.ident.to_string(), type_name(&field.ty));
    let seg = quote!(<#ty as _sortkey::KeySegment>);
    let mut out = Vec::new();
    if let Some(span) = field.desc {
        let msg = format!(
            "field `{name}`: `desc` needs a type whose order can be reversed (integers, bool); found `{tyname}`, which cannot"
        );
        out.push(assert_at(span, quote!(#seg::REVERSIBLE), msg));
    }
    if let Some((w, span)) = field.width {
        let msg = format!(
            "field `{name}`: `width` does not apply to `{tyname}`, whose segments have a length of their own; \
             expected no width, found width = {w}"
        );
        out.push(assert_at(span, quote!(_sortkey::__private::width_configurable(#seg::WIDTH)), msg));
        // Split so the message says which bound; both pass for types without a digit width.
        let msg = format!(
            "field `{name}`: width {w} is wider than `{tyname}` can fill; expected at most the digits of its \
             largest value (u8: 3, u16: 5, u32: 10, u64 and usize: 20, u128: 39; signed types one more, for the sign)"
        );
        let cond = quote!(match #seg::WIDTH { _sortkey::Width::Digits { max: __max, .. } => #w <= __max, _ => true });
        out.push(assert_at(span, cond, msg));
        let msg = format!(
            "field `{name}`: width {w} is too narrow for `{tyname}`; expected at least its narrowest width \
             (2 for a signed integer: a sign position and one digit)"
        );
        let cond = quote!(match #seg::WIDTH { _sortkey::Width::Digits { min: __min, .. } => #w >= __min, _ => true });
        out.push(assert_at(span, cond, msg));
    }
    if let Some((m, span)) = field.max {
        let msg = format!("field `{name}`: `max` needs an integer type; found `{tyname}`, expected no max");
        out.push(assert_at(span, quote!(#seg::MAX_VALUE.is_some()), msg));
        let msg = format!("field `{name}`: max = {m} is larger than any `{tyname}`; expected at most `{tyname}::MAX`");
        let cond = quote!(match #seg::MAX_VALUE { _sortkey::__private::Option::Some(__t) => #m <= __t, _ => true });
        out.push(assert_at(span, cond, msg));
        // Only when the checks above pass, so that one mistake is one error.
        let digits = m.checked_ilog10().map_or(1, |d| d + 1);
        let (given, msg) = match field.width {
            // `valid.rs` already checked digits <= w, so only a sign position can make it fail.
            Some((w, _)) => (
                quote!(_sortkey::__private::Option::Some(#w)),
                format!(
                    "field `{name}`: max = {m} needs {digits} digits, but width {w} of the signed `{tyname}` holds {} \
                     after the sign position; expected width = {} or a max of at most {}",
                    w.saturating_sub(1),
                    digits + 1,
                    "9".repeat(w.saturating_sub(1) as usize)
                ),
            ),
            None => (
                quote!(_sortkey::__private::Option::None),
                format!(
                    "field `{name}`: max = {m} needs {digits} digits, more than the default width of `{tyname}` holds; \
                     expected a `width` that holds it"
                ),
            ),
        };
        let resolved = quote!(_sortkey::__private::resolve_width(#seg::WIDTH, #given));
        let cond = quote! {
            !_sortkey::__private::max_in_type(#seg::MAX_VALUE, #m)
                || !_sortkey::__private::width_in_range(#seg::WIDTH, #resolved)
                || _sortkey::__private::max_fits_width(#seg::WIDTH, #resolved, #m)
        };
        out.push(assert_at(span, cond, msg));
    }
    out
}

/// A key whose segments all have fixed widths must fit `max_len`.
fn length_check(key: &Key) -> TokenStream {
    let ident = &key.ident;
    let ty: Type = {
        let (_, ty_generics, _) = key.generics.split_for_impl();
        static_type(key, &syn::parse_quote!(#ident #ty_generics))
    };
    let msg = format!(
        "key `{}`: its segments all have fixed widths, and with the prefix and separators they are longer than \
         max_len = {} bytes; expected narrower widths, fewer fields or a larger max_len (at most 2048)",
        key.ident, key.max_len
    );
    let cond = quote! {
        _sortkey::__private::len_within(<#ty as _sortkey::SortKey>::ENCODED_LEN, <#ty as _sortkey::SortKey>::MAX_LEN)
    };
    assert_at(key.ident.span(), cond, msg)
}

/// `ty` with the struct's lifetime replaced by `'static`, so a free `const` can name it.
fn static_type(key: &Key, ty: &Type) -> Type {
    let Some(lt) = &key.lifetime else { return ty.clone() };
    let tokens = replace_lifetime(quote!(#ty), &lt.ident);
    syn::parse2(tokens).unwrap_or_else(|_| ty.clone())
}

fn replace_lifetime(tokens: TokenStream, lt: &Ident) -> TokenStream {
    let mut out = Vec::new();
    let mut iter = tokens.into_iter().peekable();
    while let Some(tt) = iter.next() {
        match tt {
            TokenTree::Punct(p) if p.as_char() == '\'' => {
                if let Some(TokenTree::Ident(i)) = iter.peek()
                    && i == lt
                {
                    iter.next();
                    out.extend(quote!('static));
                    continue;
                }
                out.push(TokenTree::Punct(p));
            }
            TokenTree::Group(g) => {
                let mut group = proc_macro2::Group::new(g.delimiter(), replace_lifetime(g.stream(), lt));
                group.set_span(g.span());
                out.push(TokenTree::Group(group));
            }
            other => out.push(other),
        }
    }
    out.into_iter().collect()
}
