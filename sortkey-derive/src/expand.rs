//! Code generation from a validated [`Key`]: the `SortKey`, `DecodeKey` and `FromStr` impls and
//! the type-dependent checks as `const` assertions spanned on the field.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{GenericParam, Generics, Ident, Lifetime, LifetimeParam, Type};

use crate::valid::{Field, Key, Time};

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
    let items = quote!(#fields #checks #sort_key #decode_key #from_str #nested #query_impls);
    let wrapped = crate::runtime::wrap_in_const(&key.krate, items);
    quote!(#query_struct #wrapped)
}

/// The literal the key starts with: the prefix and, when fields follow, a separator.
fn prefix_literal(key: &Key) -> Option<String> {
    let sep = if key.fields.is_empty() { String::new() } else { key.separator.to_string() };
    key.prefix.as_ref().map(|p| format!("{p}{sep}"))
}

fn name(key: &Key) -> String {
    key.ident.to_string()
}

/// The spec of field `i`, with the width resolved against the type's default.
fn field_spec(key: &Key, i: usize, field: &Field) -> TokenStream {
    let ty = &field.ty;
    let (key_name, field_name, sep) = (name(key), field.ident.to_string(), key.separator);
    let given = match field.width {
        Some((w, _)) => quote!(_sortkey::Option::Some(#w)),
        None => quote!(_sortkey::Option::None),
    };
    let desc = field.desc.is_some();
    let max = match field.max {
        Some((m, _)) => quote!(_sortkey::Option::Some(#m)),
        None => quote!(_sortkey::Option::None),
    };
    let last = i + 1 == key.fields.len();
    let (given, time) = match field.time {
        Some((time, _)) => {
            let format = time_format(time);
            (quote!(_sortkey::time_width(#given, #format)), format)
        }
        None => (given, quote!(_sortkey::TimeFormat::DEFAULT)),
    };
    quote_spanned! {ty.span()=>
        _sortkey::field(
            #key_name, #field_name, #sep,
            _sortkey::resolve_width(<#ty as _sortkey::KeySegment>::WIDTH, #given),
            #desc, #max, #last, #time,
        )
    }
}

/// The fields' specs, as a private constant of the key type that only its generated impls see.
pub(crate) fn impl_fields(key: &Key) -> TokenStream {
    let ident = &key.ident;
    let generics = bounded(&key.generics, quote!(_sortkey::KeySegment));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let specs = key.fields.iter().enumerate().map(|(i, f)| field_spec(key, i, f));
    quote! {
        #[automatically_derived]
        impl #impl_generics #ident #ty_generics #where_clause {
            const __SORTKEY_FIELDS: &'static [_sortkey::Field] = &[#(#specs),*];
        }
    }
}

/// The runtime's `TimeFormat` for a timestamp field's attributes.
fn time_format(time: Time) -> TokenStream {
    let unit = match time.unit {
        "ms" => quote!(Millis),
        "us" => quote!(Micros),
        "ns" => quote!(Nanos),
        _ => quote!(Seconds),
    };
    let format = if time.rfc3339 { quote!(Rfc3339) } else { quote!(Unix) };
    quote!(_sortkey::TimeFormat::#format(_sortkey::TimeUnit::#unit))
}

/// The constant length when every segment has a fixed width.
fn encoded_len(key: &Key) -> TokenStream {
    let segments = key.fields.len() + usize::from(key.prefix.is_some());
    let fixed = key.prefix.as_ref().map_or(0, String::len) + segments.saturating_sub(1);
    key.fields.iter().enumerate().fold(quote!(_sortkey::Option::Some(#fixed)), |acc, (i, field)| {
        let ty = &field.ty;
        quote! {
            _sortkey::add_len(#acc, _sortkey::segment_len_of(
                <#ty as _sortkey::KeySegment>::WIDTH,
                Self::__SORTKEY_FIELDS[#i].width(),
                <#ty as _sortkey::KeySegment>::VARIABLE_LEN,
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
    let len = encoded_len(key);
    let (key_name, max_len, sep) = (name(key), key.max_len, key.separator);
    let prefix = match &key.prefix {
        Some(p) => quote!(_sortkey::Option::Some(#p)),
        None => quote!(_sortkey::Option::None),
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics _sortkey::SortKey for #ident #ty_generics #where_clause {
            const PREFIX: _sortkey::Option<&'static ::core::primitive::str> = #prefix;
            const SEPARATOR: ::core::primitive::char = #sep;
            const ENCODED_LEN: _sortkey::Option<::core::primitive::usize> = #len;
            const MAX_LEN: ::core::primitive::usize = #max_len;

            #[inline]
            fn encode_into(
                &self,
                __out: &mut _sortkey::String,
            ) -> _sortkey::Result<(), _sortkey::EncodeError> {
                // The body is the key's `KeySegment` impl (see nested.rs); this adds the
                // whole-key rules.
                _sortkey::encode_key(__out, #key_name, #max_len, |__out| {
                    <Self as _sortkey::KeySegment>::encode_segment(self, &_sortkey::WHOLE_KEY, __out)
                })
            }
        }
    }
}

/// Pushes the prefix, then each field's segment, with separators between. The last field is
/// the key's last segment only when the field `__segment` the key is written in is.
pub(crate) fn encode_body(key: &Key) -> TokenStream {
    let prefix = prefix_literal(key).map(|p| quote!(__out.push_str(#p);));
    let sep = key.separator;
    let fields = key.fields.iter().enumerate().map(|(i, field)| {
        let (ident, ty) = (&field.ident, &field.ty);
        let before = (i > 0).then(|| quote!(__out.push(#sep);));
        let spec = field_ref(key, i);
        quote_spanned! {ty.span()=>
            #before
            <#ty as _sortkey::KeySegment>::encode_segment(&self.#ident, &#spec, __out)?;
        }
    });
    quote!(#prefix #(#fields)*)
}

/// The spec of field `i`; the last field is as last as the field `__segment` the key is written in
/// (`WHOLE_KEY` for a key on its own).
fn field_ref(key: &Key, i: usize) -> TokenStream {
    let spec = quote!(Self::__SORTKEY_FIELDS[#i]);
    if i + 1 == key.fields.len() { quote!(_sortkey::field_in(#spec, __segment)) } else { spec }
}

/// The lifetime decoded text borrows for: the struct's own, or a fresh `'__k`.
pub(crate) fn decode_lifetime(key: &Key) -> (Lifetime, Generics) {
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
    let (key_name, max_len) = (name(key), key.max_len);
    quote! {
        #[automatically_derived]
        impl #impl_generics _sortkey::DecodeKey<#lt> for #ident #ty_generics #where_clause {
            fn decode_borrowed(
                __key: &#lt ::core::primitive::str,
            ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
                // The body is the key's `DecodeSegment` impl (see nested.rs); this adds the
                // whole-key rules.
                let mut __cursor = _sortkey::decode_start(__key, #key_name, #max_len)?;
                let __value = <Self as _sortkey::DecodeSegment<#lt>>::decode_segment(
                    &mut __cursor,
                    &_sortkey::WHOLE_KEY,
                )?;
                _sortkey::expect_end(&__cursor)?;
                _sortkey::Result::Ok(__value)
            }
        }
    }
}

/// Reads the prefix and the fields at `__cursor` into `__value`, stopping after the last one.
pub(crate) fn decode_fields(key: &Key, lt: &Lifetime) -> TokenStream {
    let prefix = prefix_literal(key).map(|p| quote!(_sortkey::expect_prefix(__cursor, #p)?;));
    let sep = key.separator.to_string();
    let locals: Vec<Ident> = (0..key.fields.len()).map(|i| format_ident!("__field{}", i)).collect();
    let reads = key.fields.iter().zip(&locals).enumerate().map(|(i, (field, local))| {
        let ty = &field.ty;
        let after = (i + 1 < key.fields.len()).then(|| {
            quote! {
                _sortkey::expect_separator(__cursor, #sep, &Self::__SORTKEY_FIELDS[#i])?;
            }
        });
        let spec = field_ref(key, i);
        quote_spanned! {ty.span()=>
            let #local = <#ty as _sortkey::DecodeSegment<#lt>>::decode_segment(__cursor, &#spec)?;
            #after
        }
    });
    let idents = key.fields.iter().map(|f| &f.ident);
    quote! {
        #prefix
        #(#reads)*
        let __value = _sortkey::Result::Ok(Self { #(#idents: #locals),* });
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
        impl #impl_generics _sortkey::FromStr for #ident #ty_generics #where_clause {
            type Err = _sortkey::DecodeError;

            fn from_str(__key: &::core::primitive::str) -> _sortkey::Result<Self, Self::Err> {
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
pub(crate) fn generic_checks_ref(key: &Key) -> Option<TokenStream> {
    is_generic(key).then(|| quote!(let () = Self::__SORTKEY_CHECKS;))
}

/// The type-dependent rules, as `const` assertions.
fn checks(key: &Key) -> TokenStream {
    let asserts: Vec<TokenStream> = key
        .fields
        .iter()
        .enumerate()
        .flat_map(|(i, f)| field_checks(key, f, i + 1 == key.fields.len()))
        // A text field makes the length variable, and the check is then always true.
        .chain((!key.fields.iter().any(|f| crate::query::is_text(&f.ty))).then(|| length_check(key)))
        .collect();
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
    quote_spanned! {span=> _sortkey::assert!(#cond, #message); }
}

fn field_checks(key: &Key, field: &Field, last: bool) -> Vec<TokenStream> {
    let ty = static_type(key, &field.ty);
    let (name, tyname) = (field.ident.to_string(), type_name(&field.ty));
    let seg = quote!(<#ty as _sortkey::KeySegment>);
    let mut out = type_checks(key, field, last);
    if let Some(span) = field.desc {
        let msg = format!(
            "field `{name}`: `desc` needs a type whose order can be reversed (integers, bool, timestamps in Unix time); found `{tyname}`, which cannot"
        );
        out.push(assert_at(span, quote!(#seg::REVERSIBLE), msg));
    }
    if let Some((w, span)) = field.width {
        let msg = format!(
            "field `{name}`: `width` does not apply to `{tyname}`, whose segments have a length of their own; \
             expected no width, found width = {w}"
        );
        out.push(assert_at(span, quote!(_sortkey::width_configurable(#seg::WIDTH)), msg));
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
        let cond = quote!(match #seg::MAX_VALUE { _sortkey::Option::Some(__t) => #m <= __t, _ => true });
        out.push(assert_at(span, cond, msg));
        // Only when the checks above pass, so that one mistake is one error.
        let digits = m.checked_ilog10().map_or(1, |d| d + 1);
        let (given, msg) = match field.width {
            // `valid.rs` already checked digits <= w, so only a sign position can make it fail.
            Some((w, _)) => (
                quote!(_sortkey::Option::Some(#w)),
                format!(
                    "field `{name}`: max = {m} needs {digits} digits, but width {w} of the signed `{tyname}` holds {} \
                     after the sign position; expected width = {} or a max of at most {}",
                    w.saturating_sub(1),
                    digits + 1,
                    "9".repeat(w.saturating_sub(1) as usize)
                ),
            ),
            None => (
                quote!(_sortkey::Option::None),
                format!(
                    "field `{name}`: max = {m} needs {digits} digits, more than the default width of `{tyname}` holds; \
                     expected a `width` that holds it"
                ),
            ),
        };
        let resolved = quote!(_sortkey::resolve_width(#seg::WIDTH, #given));
        let cond = quote! {
            !_sortkey::max_in_type(#seg::MAX_VALUE, #m)
                || !_sortkey::width_in_range(#seg::WIDTH, #resolved)
                || _sortkey::max_fits_width(#seg::WIDTH, #resolved, #m)
        };
        out.push(assert_at(span, cond, msg));
    }
    out
}

/// The rules of the field's type that no attribute asks for: the separator of a nested key,
/// the names of an enum in a non-final position, and which types take `unit` and `format`.
fn type_checks(key: &Key, field: &Field, last: bool) -> Vec<TokenStream> {
    let ty = static_type(key, &field.ty);
    let (name, tyname, sep) = (field.ident.to_string(), type_name(&field.ty), key.separator);
    let seg = quote!(<#ty as _sortkey::KeySegment>);
    let mut out = Vec::new();
    // The built-in types are no nested keys and no enums: these two checks cannot fail for them,
    // and skipping them saves the compiler hundreds of constants in a crate of many keys.
    let builtin = is_builtin(&field.ty);
    let msg = format!(
        "field `{name}`: the nested key `{tyname}` must use this key's separator {sep:?}; expected \
         `#[key(separator = {sep:?})]` on `{tyname}`, found another separator"
    );
    let cond = quote!(_sortkey::nested_separator_matches(#seg::NESTED_SEPARATOR, #sep));
    if !builtin {
        out.push(assert_at(field.ty.span(), cond, msg));
    }
    if !last && !builtin {
        let msg = format!(
            "field `{name}`: `{tyname}` is not the last field, so its encodings may contain only characters \
             greater than the separator {sep:?}, but one of them (a variant name) contains a character at or below \
             it; expected other names (`#[key(rename = \"...\")]`) or this field last"
        );
        let cond = quote!(_sortkey::least_byte_fits(#seg::LEAST_BYTE, #sep));
        out.push(assert_at(field.ty.span(), cond, msg));
    }
    if let Some((time, span)) = field.time {
        let attr = if time.rfc3339 { "format" } else { "unit" };
        let msg = format!(
            "field `{name}`: `{attr}` needs a timestamp type (std::time::SystemTime, chrono::DateTime<Utc>, \
             time::OffsetDateTime, or an Option of one); found `{tyname}`"
        );
        out.push(assert_at(span, quote!(#seg::TIMESTAMP), msg));
    }
    out
}

/// Whether `ty` is spelled as one of the runtime's own segment types (integers, `bool`, `char`,
/// `String`, `&str`, `Cow<str>`). A type alias is not, and keeps every check.
fn is_builtin(ty: &Type) -> bool {
    const NAMES: [&str; 15] = [
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "bool", "char",
        "String",
    ];
    match ty {
        Type::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            NAMES.iter().any(|n| p.path.segments[0].ident == n) && p.path.segments[0].arguments.is_empty()
        }
        _ => crate::query::is_text(ty),
    }
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
        _sortkey::len_within(<#ty as _sortkey::SortKey>::ENCODED_LEN, <#ty as _sortkey::SortKey>::MAX_LEN)
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
