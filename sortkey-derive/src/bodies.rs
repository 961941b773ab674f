//! The encode and decode bodies of a key, and its field specs: the code every key's
//! `KeySegment`/`DecodeSegment` impls (and through them `SortKey`/`DecodeKey`) run.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use crate::model::{Encoding, Field, Key, TimeFormat, TimeUnit};
use crate::types::is_builtin;

/// The literal the key starts with: the prefix and, when fields follow, a separator.
fn prefix_literal(key: &Key) -> Option<String> {
    let sep = if key.fields.is_empty() { String::new() } else { key.separator.to_string() };
    key.prefix.as_ref().map(|p| format!("{p}{sep}"))
}

/// The spec of a field, with the width resolved against the type's default: one named builder
/// call per attribute the field sets. A spec is the field's schema only; whether the field is
/// the last segment is the context it is used in, set where it is used (`field_ref`, and the
/// query builder's last stage).
fn field_spec(key: &Key, i: usize) -> TokenStream {
    let field = &key.fields[i];
    let ty = &field.ty;
    let seg = segment(key, i, &quote!(Self));
    let (key_name, field_name, sep) = (key.name(), field.ident.to_string(), key.separator);
    let given = given_width(field);
    let desc = field.desc.is_some().then(|| quote!(.with_desc(true)));
    let max = field.max.map(|(m, _)| quote!(.with_max(_sortkey::Option::Some(#m))));
    let (given, encoding) = match field.encoding {
        Encoding::Plain => (given, None),
        Encoding::Time(time, _) => {
            let format = time_format(time);
            (quote!(_sortkey::time_width(#given, #format)), Some(quote!(.with_time(#format))))
        }
        Encoding::Hex(_) => (given, Some(quote!(.with_hex(true)))),
        Encoding::Scale(scale, _) => (given, Some(quote!(.with_scale(#scale)))),
    };
    let shards = field.shards.as_ref().map(|s| {
        let count = s.count;
        match &s.by {
            Some(by) => {
                let by = by.to_string();
                quote!(.with_shards(_sortkey::Shards::by(#count, #by)))
            }
            None => quote!(.with_shards(_sortkey::Shards::random(#count))),
        }
    });
    quote_spanned! {ty.span()=>
        _sortkey::Field::new(#key_name, #field_name, #sep)
            .with_width(_sortkey::resolve_width(#seg::WIDTH, #given))
            #desc #max #encoding #shards
    }
}

/// The field's `width` as written, `Option<u32>`: what the runtime resolves against its type's.
pub(crate) fn given_width(field: &Field) -> TokenStream {
    match field.width {
        Some((w, _)) => quote!(_sortkey::Option::Some(#w)),
        None => quote!(_sortkey::Option::None),
    }
}

/// The fields' specs, as a private constant of the key type that only its generated impls see.
pub(crate) fn impl_fields(key: &Key) -> TokenStream {
    let ident = &key.ident;
    let (impl_generics, ty_generics, where_clause) = key.params.encode.split_for_impl();
    let names = (0..key.fields.len()).map(field_const);
    let specs = (0..key.fields.len()).map(|i| field_spec(key, i));
    let layouts = (0..key.fields.len()).map(|i| {
        let (seg, name) = (segment(key, i, &quote!(Self)), field_const(i));
        quote!(_sortkey::FieldLayout::new(Self::#name, #seg::SEGMENT_LAYOUT))
    });
    let segments = field_segments(key, &key.params.encode);
    quote! {
        #segments
        #[automatically_derived]
        impl #impl_generics #ident #ty_generics #where_clause {
            #(const #names: _sortkey::Field = #specs;)*
            const __SORTKEY_LAYOUT: &'static [_sortkey::FieldLayout] = &[#(#layouts),*];
        }
    }
}

/// How generated code names the segment type of field `i` (followed by `::WIDTH`,
/// `::encode_segment`, ...), where `key_ty` names the key: `<T as KeySegment>` for a type the macro
/// knows, which is one; `Of::<Key, i>` for any other, whose `FieldSegment` impl (`impl_fields`)
/// names the type once, so that a type that is no segment is one error, there.
pub(crate) fn segment(key: &Key, i: usize, key_ty: &TokenStream) -> TokenStream {
    segment_of(&key.fields[i].ty, i, key_ty)
}

/// [`segment`] for field `i` of type `ty` of the key `key_ty` names (an entity's generated key,
/// whose model it does not hold).
pub(crate) fn segment_of(ty: &syn::Type, i: usize, key_ty: &TokenStream) -> TokenStream {
    if is_builtin(ty) {
        quote!(<#ty as _sortkey::KeySegment>)
    } else {
        quote_spanned!(ty.span()=> _sortkey::Of::<#key_ty, #i>)
    }
}

/// `FieldSegment<i>` for each field `i` whose type the macro does not know: the one place that
/// names the type as a segment, see [`segment`].
pub(crate) fn field_segments(key: &Key, generics: &syn::Generics) -> TokenStream {
    let ident = &key.ident;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let impls = key.fields.iter().enumerate().filter(|(_, f)| !is_builtin(&f.ty)).map(|(i, field)| {
        let ty = &field.ty;
        let segment_type = quote_spanned!(ty.span()=> type Segment = #ty;);
        quote! {
            #[automatically_derived]
            impl #impl_generics _sortkey::FieldSegment<#i> for #ident #ty_generics #where_clause {
                #segment_type
            }
        }
    });
    quote!(#(#impls)*)
}

/// The name of the private constant that holds the spec of field `i`: one constant per field,
/// so that generated code names it by path, without indexing a slice (which every body using it
/// would have type-checked and bounds-checked again).
pub(crate) fn field_const(i: usize) -> Ident {
    format_ident!("__SORTKEY_FIELD{}", i)
}

/// The runtime's `TimeFormat` for a timestamp field's attributes.
fn time_format(time: TimeFormat) -> TokenStream {
    let (format, unit) = match time {
        TimeFormat::Unix(unit) => (quote!(Unix), unit),
        TimeFormat::Rfc3339(unit) => (quote!(Rfc3339), unit),
    };
    let unit = match unit {
        TimeUnit::Seconds => quote!(Seconds),
        TimeUnit::Millis => quote!(Millis),
        TimeUnit::Micros => quote!(Micros),
        TimeUnit::Nanos => quote!(Nanos),
    };
    quote!(_sortkey::TimeFormat::#format(_sortkey::TimeUnit::#unit))
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
        let seg = segment(key, i, &quote!(Self));
        quote_spanned! {ty.span()=>
            #before
            #seg::encode_segment(&self.#ident, &#spec, __out)?;
        }
    });
    quote!(#prefix #(#fields)*)
}

/// The spec of field `i` in its context: the last field is as last as the field `__segment` the
/// key is written in (`WHOLE_KEY` for a key on its own), the others never are.
fn field_ref(key: &Key, i: usize) -> TokenStream {
    let name = field_const(i);
    let spec = quote!(Self::#name);
    if i + 1 == key.fields.len() { quote!(_sortkey::field_in(#spec, __segment)) } else { spec }
}

/// Reads the prefix and the fields at `__cursor` into `__value`, stopping after the last one.
pub(crate) fn decode_fields(key: &Key) -> TokenStream {
    let prefix = prefix_literal(key).map(|p| quote!(_sortkey::expect_prefix(__cursor, #p)?;));
    let sep = key.separator.to_string();
    let locals: Vec<Ident> = (0..key.fields.len()).map(|i| format_ident!("__field{}", i)).collect();
    let reads = key.fields.iter().zip(&locals).enumerate().map(|(i, (field, local))| {
        let ty = &field.ty;
        let after = (i + 1 < key.fields.len()).then(|| {
            let name = field_const(i);
            quote! {
                _sortkey::expect_separator(__cursor, #sep, &Self::#name)?;
            }
        });
        let spec = field_ref(key, i);
        // A built-in type is a segment both ways, so it is decoded by a direct call, which costs
        // the user's crate less to check than the dispatch by method lookup the others need.
        let read = if is_builtin(ty) {
            quote_spanned!(ty.span()=> <#ty as _sortkey::DecodeSegment<'_>>::decode_segment(__cursor, &#spec)?)
        } else {
            quote_spanned!(ty.span()=> (&&&_sortkey::Decode::<#ty>::NEW).decode(__cursor, &#spec)?)
        };
        quote! {
            let #local = #read;
            #after
        }
    });
    let idents = key.fields.iter().map(|f| &f.ident);
    // The decode dispatch of `_sortkey::Decode` is by method lookup: its traits must be in scope.
    let dispatch = key.fields.iter().any(|f| !is_builtin(&f.ty)).then(|| {
        quote!(
            use _sortkey::{DecodeField as _, DecodeNoSegment as _, DecodeOnlyEncodes as _};
        )
    });
    quote! {
        #dispatch
        #prefix
        #(#reads)*
        let __value = _sortkey::Result::Ok(Self { #(#idents: #locals),* });
    }
}
