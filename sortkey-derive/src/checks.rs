//! The type-dependent rules as `const` assertions spanned on the attribute or field they are
//! about: what the macro cannot see in the tokens (a width the type cannot fill, `desc` on a
//! type that cannot reverse, a nested key's separator, enum names before another field).

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::Type;
use syn::spanned::Spanned;

use crate::bodies::given_width;
use crate::generics::static_type;
use crate::messages;
use crate::model::{Encoding, Field, Key, TimeFormat};
use crate::types::{is_builtin, is_text, type_name};

/// In a generic struct the checks live in an associated constant that encode and decode evaluate.
pub(crate) fn generic_checks_ref(key: &Key) -> Option<TokenStream> {
    key.params.generic.then(|| quote!(let () = Self::__SORTKEY_CHECKS;))
}

/// The type-dependent rules, as `const` assertions.
pub(crate) fn checks(key: &Key) -> TokenStream {
    let asserts: Vec<TokenStream> = key
        .fields
        .iter()
        .enumerate()
        .flat_map(|(i, f)| field_checks(key, f, i))
        // A text field makes the length variable, and the check is then always true.
        .chain((!key.fields.iter().any(|f| is_text(&f.ty))).then(|| length_check(key)))
        .collect();
    if !key.params.generic {
        return quote!(#(const _: () = { #asserts };)*);
    }
    let ident = &key.ident;
    let (impl_generics, ty_generics, where_clause) = key.params.encode.split_for_impl();
    quote! {
        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc(hidden)]
            const __SORTKEY_CHECKS: () = { #(#asserts)* };
        }
    }
}

/// One `assert!` with the field's message, spanned on the attribute it is about.
pub(crate) fn assert_at(span: Span, cond: TokenStream, message: String) -> TokenStream {
    quote_spanned! {span=> _sortkey::assert!(#cond, #message); }
}

/// How the checks name field `i`'s segment type ([`crate::bodies::segment`]): outside the key's
/// impls, so with the key's lifetime `'static`.
fn segment(key: &Key, field: &Field, i: usize) -> TokenStream {
    if is_builtin(&field.ty) {
        let ty = static_type(key.lifetime.as_ref(), &field.ty);
        return quote!(<#ty as _sortkey::KeySegment>);
    }
    crate::bodies::segment(key, i, &static_key_type(key).to_token_stream())
}

/// The key type as the checks name it, outside its impls: its lifetime `'static`.
fn static_key_type(key: &Key) -> Type {
    let ident = &key.ident;
    let (_, ty_generics, _) = key.generics.split_for_impl();
    static_type(key.lifetime.as_ref(), &syn::parse_quote!(#ident #ty_generics))
}

fn field_checks(key: &Key, field: &Field, i: usize) -> Vec<TokenStream> {
    let (name, tyname) = (field.ident.to_string(), type_name(&field.ty));
    let seg = segment(key, field, i);
    let mut out = type_checks(key, field, i);
    // A type spelled as a built-in one was checked by the macro itself (valid.rs), with
    // ordinary errors at the attributes; the assertions are for every other type.
    if crate::types::builtin(&field.ty).is_some() {
        return out;
    }
    if let Some(span) = field.desc {
        out.push(assert_at(span, quote!(#seg::REVERSIBLE), messages::desc_not_reversible(&name, &tyname)));
    }
    if let Some((w, span)) = field.width {
        let msg = messages::width_not_applicable(&name, &tyname, w);
        out.push(assert_at(span, quote!(_sortkey::width_configurable(#seg::WIDTH)), msg));
        // Split so the message says which bound; both pass for types without a digit width.
        let expected = "at most the digits of its largest value (u8: 3, u16: 5, u32: 10, u64 and usize: 20, u128: \
                        39; signed types one more, for the sign)";
        let msg = messages::width_too_wide(&name, w, &tyname, expected);
        let cond = quote!(match #seg::WIDTH { _sortkey::Width::Digits { max: __max, .. } => #w <= __max, _ => true });
        out.push(assert_at(span, cond, msg));
        let expected = "at least its narrowest width (2 for a signed integer: a sign position and one digit)";
        let msg = messages::width_too_narrow(&name, w, &tyname, expected);
        let cond = quote!(match #seg::WIDTH { _sortkey::Width::Digits { min: __min, .. } => #w >= __min, _ => true });
        out.push(assert_at(span, cond, msg));
    }
    if let Some((m, span)) = field.max {
        out.push(assert_at(span, quote!(#seg::MAX_VALUE.is_some()), messages::max_needs_integer(&name, &tyname)));
        let msg = messages::max_above_type(&name, m, &tyname, &format!("`{tyname}::MAX`"));
        let cond = quote!(match #seg::MAX_VALUE { _sortkey::Option::Some(__t) => #m <= __t, _ => true });
        out.push(assert_at(span, cond, msg));
        // Only when the checks above pass, so that one mistake is one error.
        // `valid.rs` already checked that the digits fit a given width, so only a sign position
        // can make it fail.
        let given = given_width(field);
        let msg = messages::signed_max_too_wide(&name, m, &tyname, field.width.map(|(w, _)| w));
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
fn type_checks(key: &Key, field: &Field, i: usize) -> Vec<TokenStream> {
    let last = i + 1 == key.fields.len();
    let (name, tyname, sep) = (field.ident.to_string(), type_name(&field.ty), key.separator);
    let seg = segment(key, field, i);
    let mut out = Vec::new();
    // The built-in types are no nested keys and no enums: these two checks cannot fail for them
    // (a float's position the macro checked itself, valid.rs), and skipping them saves the
    // compiler hundreds of constants in a crate of many keys. The attribute checks of the types
    // the macro knows are its own too.
    let builtin = is_builtin(&field.ty);
    let known = crate::types::builtin(&field.ty).is_some();
    let msg = format!(
        "field `{name}`: the nested key `{tyname}` must use this key's separator {sep:?}; expected \
         `#[key(separator = {sep:?})]` on `{tyname}`, found another separator"
    );
    let cond = quote!(_sortkey::nested_separator_matches(#seg::CAPABILITIES, #sep));
    if !builtin {
        out.push(assert_at(field.ty.span(), cond, msg));
    }
    if !last && !builtin {
        let msg = format!(
            "field `{name}`: `{tyname}` is not the last field, so its encodings may contain only characters \
             greater than the separator {sep:?}, but one of them (a variant name, or a float's digits) contains a \
             character at or below it; expected a separator below '0' such as '#', other names \
             (`#[key(rename = \"...\")]`), or this field last"
        );
        let cond = quote!(_sortkey::least_byte_fits(#seg::CAPABILITIES, #sep));
        out.push(assert_at(field.ty.span(), cond, msg));
    }
    if known {
        return out;
    }
    let (capability, span, message) = match field.encoding {
        Encoding::Plain => return out,
        Encoding::Scale(_, span) => (quote!(takes_scale), span, messages::scale_needs_decimal(&name, &tyname)),
        Encoding::Hex(span) => (quote!(takes_hex), span, messages::hex_needs_float(&name, &tyname)),
        Encoding::Time(time, span) => {
            let attr = if matches!(time, TimeFormat::Rfc3339(_)) { "format" } else { "unit" };
            (quote!(takes_time), span, messages::needs_timestamp(&name, attr, &tyname))
        }
    };
    out.push(assert_at(span, quote!(#seg::CAPABILITIES.#capability()), message));
    out
}

/// A key whose segments all have fixed widths must fit `max_len`.
fn length_check(key: &Key) -> TokenStream {
    let ty = static_key_type(key);
    let msg = format!(
        "key `{}`: its segments all have fixed widths, and with the prefix and separators they are longer than \
         max_len = {} bytes; expected narrower widths, fewer fields or a larger max_len (at most {} for a {})",
        key.ident,
        key.max_len,
        key.role.limit(),
        key.role.name()
    );
    let cond = quote! {
        _sortkey::len_within(<#ty as _sortkey::SortKey>::ENCODED_LEN, <#ty as _sortkey::SortKey>::MAX_LEN)
    };
    assert_at(key.ident.span(), cond, msg)
}
