//! The typed query builder: `Key::query()` and one stage per number of fixed fields.
//!
//! `KeyQuery<.., N>` has fixed the first `N` fields. On stage `N` the method named after field
//! `N` fixes it (and moves to stage `N + 1`), and `<field>_range()` ends the query with a range
//! on it (core's `FieldRange` or `TextRange`); every stage can end with `begins_with()`, the
//! last with `eq()`. Fields can only be fixed in declaration
//! order because no other stage has the method.

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use crate::generics::type_args;
use crate::model::{Field, Key, Role};
use crate::types::is_text;

/// The name of the query type of `key`.
fn query_ident(key: &Key) -> Ident {
    format_ident!("{}Query", key.ident)
}

/// The query struct, outside the anonymous `const` so that users can name it.
pub(crate) fn query_struct(key: &Key, vis: &syn::Visibility) -> TokenStream {
    let (private, ident, query) = (crate::runtime::private(&key.krate), &key.ident, query_ident(key));
    let params = key.generics.params.iter();
    let where_clause = &key.generics.where_clause;
    let args = type_args(&key.generics);
    let order: Vec<String> = key.fields.iter().enumerate().map(|(i, f)| format!("{i}: `{}`", f.ident)).collect();
    let doc = format!(
        "Typed query conditions on [`{ident}`] keys, from [`{ident}::query`].\n\n\
         Fields are fixed in this order, stage `__N` having fixed the first `__N`: {}. \
         A method of a later field on an earlier stage does not exist (\"no method named ... found \
         for `{ident}Query<0>`\"): fix the fields before it first.\n\n\
         `__N` counts the fields fixed so far, in declaration order. Fix the next field with the \
         method named after it, or end with a range on it through `<field>_range()` (`gt`, \
         `gte`, `lt`, `lte`, `between`, and `begins_with` for text), or with `begins_with()`; \
         once every field is fixed, `eq()`. Each ending returns a `KeyCondition`, or the \
         `QueryError` of any value that does not fit its field.",
        order.join(", ")
    );
    quote! {
        #[doc = #doc]
        #[must_use = "a query does nothing until it ends with a condition"]
        #vis struct #query<#(#params,)* const __N: ::core::primitive::usize> #where_clause {
            head: #private::QueryHead,
            key: ::core::marker::PhantomData<fn() -> #ident<#(#args),*>>,
        }
    }
}

/// The `impl`s of the builder, inside the anonymous `const`.
pub(crate) fn query_impls(key: &Key) -> TokenStream {
    let (ident, query) = (&key.ident, query_ident(key));
    let (impl_generics, ty_generics, where_clause) = key.params.encode.split_for_impl();
    let args = type_args(&key.generics);
    let (key_name, max_len) = (ident.to_string(), key.max_len);
    let stages = (0..key.fields.len()).map(|k| stage(key, k));
    let mut with_n = key.generics.clone();
    with_n.params.push(syn::parse_quote!(const __N: ::core::primitive::usize));
    let (clone_generics, _, clone_where) = with_n.split_for_impl();
    let last = last_stage(key);
    let doc = format!("Starts a typed query condition on `{ident}` keys: see [`{query}`].");
    quote! {
        #[automatically_derived]
        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc = #doc]
            #[inline]
            pub fn query() -> #query<#(#args,)* 0> {
                #query {
                    head: _sortkey::QueryHead::new(
                        #key_name,
                        <Self as _sortkey::SortKey>::PREFIX,
                        <Self as _sortkey::SortKey>::SEPARATOR,
                        #max_len,
                        <Self as _sortkey::SortKey>::ROLE,
                    ),
                    key: ::core::marker::PhantomData,
                }
            }
        }

        #[automatically_derived]
        impl #impl_generics _sortkey::Queryable for #ident #ty_generics #where_clause {
            type Query = #query<#(#args,)* 0>;

            #[inline]
            fn query() -> #query<#(#args,)* 0> {
                <#ident #ty_generics>::query()
            }
        }

        #[automatically_derived]
        impl #clone_generics ::core::clone::Clone for #query<#(#args,)* __N> #clone_where {
            #[inline]
            fn clone(&self) -> Self {
                #query { head: ::core::clone::Clone::clone(&self.head), key: ::core::marker::PhantomData }
            }
        }

        #(#stages)*
        #last
    }
}

/// The methods of stage `k`, whose next field is field `k`.
/// How a stage's methods hand the field's value to its segment impl.
struct Encoder {
    /// The type whose `KeySegment` impl writes the value: `str` for text.
    seg_ty: TokenStream,
    /// `&` where the value is taken by value (everything but text, which is `&str` already).
    by_ref: Option<TokenStream>,
    /// The impl's `encode_segment`.
    encode: TokenStream,
    /// The impl itself, followed by `::SEGMENT_LAYOUT`.
    seg: TokenStream,
}

/// The arguments carry the field's span, so that a type error points at the field. The value is
/// written by the field type's impl, named as the key's other uses name it
/// ([`crate::bodies::segment`]): a type that is no segment is then the one error they report.
fn encoder(key: &Key, k: usize, key_ty: &TokenStream) -> Encoder {
    let field = &key.fields[k];
    let span = field.ty.span();
    let text = is_text(&field.ty);
    let seg_ty = if text { quote_spanned!(span=> ::core::primitive::str) } else { field.ty.to_token_stream() };
    let by_ref = (!text).then(|| quote_spanned!(span=> &));
    let seg = if text {
        quote_spanned!(span=> <#seg_ty as _sortkey::KeySegment>)
    } else {
        crate::bodies::segment(key, k, key_ty)
    };
    let encode = quote_spanned!(span=> #seg::encode_segment);
    Encoder { seg_ty, by_ref, encode, seg }
}

fn stage(key: &Key, k: usize) -> TokenStream {
    let (ident, query) = (&key.ident, query_ident(key));
    let (impl_generics, ty_generics, where_clause) = key.params.encode.split_for_impl();
    let args = type_args(&key.generics);
    let field = &key.fields[k];
    let next = k + 1;
    let field_const = crate::bodies::field_const(k);
    // The query is on a key on its own, whose last field is the key's last segment.
    let spec = if next == key.fields.len() {
        quote!(&_sortkey::field_in(<#ident #ty_generics>::#field_const, &_sortkey::WHOLE_KEY))
    } else {
        quote!(&<#ident #ty_generics>::#field_const)
    };
    let param = param_type(field);
    let key_ty = quote!(#ident #ty_generics);
    let (span, Encoder { seg_ty, by_ref, encode, seg }) = (field.ty.span(), encoder(key, k, &key_ty));
    let cond = quote!(_sortkey::Result<_sortkey::KeyCondition, _sortkey::QueryError>);
    let f = &field.ident;
    let name = f.to_string();
    let (range_generics, range_bound) = sort_key_only(key);
    let range = format_ident!("{}_range", f);
    let spec_value = quote!(*#spec);
    // The comparisons themselves are written once, in core's `FieldRange` and `TextRange`: a
    // stage has two methods per field, not seven.
    let range_body = if is_text(&field.ty) {
        quote_spanned!(span=> _sortkey::TextRange::new(self.head, #spec_value))
    } else {
        quote_spanned!(span=> _sortkey::FieldRange::new(self.head, #spec_value, #seg::SEGMENT_LAYOUT, #encode))
    };
    let range_ty = if is_text(&field.ty) { quote!(_sortkey::TextRange) } else { quote!(_sortkey::FieldRange<#seg_ty>) };
    let fix = quote_spanned!(span=> self.head.fix(#by_ref value, #spec, #encode));
    let fix_doc = format!("Fixes `{name}` to `value` and moves on to the next field.");
    let range_doc = format!(
        "Ends the query with a range on `{name}`: `gt`, `gte`, `lt`, `lte`, `between`{} (the bounds of a \
         `desc` field are swapped for you).",
        if is_text(&field.ty) { " or `begins_with`" } else { "" }
    );
    quote! {
        #[automatically_derived]
        impl #impl_generics #query<#(#args,)* #k> #where_clause {
            #[doc = #fix_doc]
            #[inline]
            pub fn #f(self, value: #param) -> #query<#(#args,)* #next> {
                #query { head: #fix, key: ::core::marker::PhantomData }
            }

            #[doc = #range_doc]
            #[inline]
            pub fn #range #range_generics(self) -> #range_ty #range_bound {
                #range_body
            }

            /// Ends the query with every key whose fields equal the ones fixed so far.
            #[inline]
            pub fn begins_with #range_generics(self) -> #cond #range_bound {
                self.head.begins_with()
            }
        }
    }
}

/// For a partition key, the generics and `where` clause that make its range and prefix methods
/// a compile error where they are called, spanned on `partition`: a partition key is compared
/// with `=` only. The lifetime keeps the bound from being checked (and failing) where the
/// method is defined.
fn sort_key_only(key: &Key) -> (Option<TokenStream>, Option<TokenStream>) {
    let Role::Partition(span) = key.role else { return (None, None) };
    let ident = &key.ident;
    let (_, ty_generics, _) = key.generics.split_for_impl();
    let bound = quote_spanned!(span=> #ident #ty_generics: _sortkey::SortKeyRange<'__q>);
    (Some(quote!(<'__q>)), Some(quote!(where #bound)))
}

/// The parameter type of a field's builder methods: `&str` for text, the field's type otherwise.
fn param_type(field: &Field) -> TokenStream {
    let ty = &field.ty;
    if is_text(ty) { quote!(&::core::primitive::str) } else { quote!(#ty) }
}

/// The stage with every field fixed.
fn last_stage(key: &Key) -> TokenStream {
    let query = query_ident(key);
    let (impl_generics, _, where_clause) = key.params.encode.split_for_impl();
    let args = type_args(&key.generics);
    let n = key.fields.len();
    let cond = quote!(_sortkey::Result<_sortkey::KeyCondition, _sortkey::QueryError>);
    quote! {
        #[automatically_derived]
        impl #impl_generics #query<#(#args,)* #n> #where_clause {
            /// Ends the query with the one key whose fields are all fixed.
            #[inline]
            pub fn eq(self) -> #cond {
                self.head.eq()
            }

            /// Every field is fixed, so this is the one key: the same as [`eq`](Self::eq).
            #[inline]
            pub fn begins_with(self) -> #cond {
                self.head.eq()
            }
        }
    }
}
