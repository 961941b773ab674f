//! `#[derive(KeySegment)]` on an enum of unit variants: each variant is encoded as its name.
//!
//! The names are checked here, where their spans are: not empty, distinct, and no character
//! at or below `#` (which no separator could then follow). Whether they fit the separator of a
//! key that uses the enum before another field is checked there, through its least byte (`Capabilities`).

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Data, DeriveInput, Ident, Path};

use crate::attr::{SegmentInput, SegmentVariant};
use crate::keywords::RenameRule;

/// A validated unit enum: its variants and their encodings.
pub(crate) struct Segment {
    ident: Ident,
    krate: Path,
    variants: Vec<(Ident, String)>,
}

/// The derive: the impls, or the errors and stub impls.
pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    match validate(input) {
        Ok(segment) => expand(&segment),
        Err(errors) => fallback(input, errors),
    }
}

fn validate(input: &DeriveInput) -> darling::Result<Segment> {
    check_shape(input)?;
    let parsed = SegmentInput::parse(input)?;
    let mut errors = darling::Error::accumulator();
    let case = parsed.rename_all.as_ref().map(|c| **c);
    let variants = parsed.variants;
    let mut named: Vec<(Ident, String)> = Vec::new();
    for variant in variants {
        if let Some(name) = errors.handle(variant_name(&variant, case, &named)) {
            named.push((variant.ident, name));
        }
    }
    errors.finish()?;
    let krate = parsed.krate.unwrap_or_else(crate::runtime::default_crate);
    Ok(Segment { ident: parsed.ident, krate, variants: named })
}

/// An enum with at least one variant and no generics.
fn check_shape(input: &DeriveInput) -> darling::Result<()> {
    let name = &input.ident;
    let enumeration = match &input.data {
        Data::Enum(e) => e,
        Data::Struct(s) => {
            return Err(darling::Error::custom(format!(
                "`KeySegment` can be derived for an enum of unit variants, found struct `{name}`; \
                 expected `#[derive(SortKey)]`, which makes a key struct usable as a field of another key"
            ))
            .with_span(&s.struct_token));
        }
        Data::Union(u) => {
            return Err(darling::Error::custom(format!(
                "`KeySegment` can be derived for an enum of unit variants, found union `{name}`"
            ))
            .with_span(&u.union_token));
        }
    };
    if enumeration.variants.is_empty() {
        return Err(darling::Error::custom(format!(
            "enum `{name}` has no variants, so no value to encode: expected at least one unit variant"
        ))
        .with_span(name));
    }
    if let Some(param) = input.generics.params.first() {
        return Err(darling::Error::custom(format!(
            "`KeySegment` cannot be derived for generic enum `{name}`: expected an enum of unit variants \
             without generic parameters"
        ))
        .with_span(param));
    }
    Ok(())
}

/// The encoding of a unit variant: its `rename`, or its name in the `rename_all` case.
fn variant_name(
    variant: &SegmentVariant,
    case: Option<RenameRule>,
    earlier: &[(Ident, String)],
) -> darling::Result<String> {
    let ident = &variant.ident;
    if !variant.is_unit {
        return Err(darling::Error::custom(format!(
            "variant `{ident}` has fields: a `KeySegment` enum encodes only its variant's name; \
             expected a unit variant, found fields"
        ))
        .with_span(ident));
    }
    let (name, span) = match &variant.rename {
        Some(r) => (r.to_string(), r.span()),
        None => {
            let ident_name = ident.to_string();
            (case.map_or_else(|| ident_name.clone(), |rule| rule.apply_to_variant(&ident_name)), ident.span())
        }
    };
    check_name(ident, &name, span)?;
    match earlier.iter().find(|(_, n)| *n == name) {
        Some((other, _)) => Err(darling::Error::custom(format!(
            "variant `{ident}` is encoded as {name:?}, as `{other}` is; expected distinct names, \
             which decoding tells apart"
        ))
        .with_span(&span)),
        None => Ok(name),
    }
}

/// A name is not empty and has no character at or below `#`.
fn check_name(ident: &Ident, name: &str, span: Span) -> darling::Result<()> {
    if name.is_empty() {
        return Err(darling::Error::custom(format!(
            "variant `{ident}` would be encoded as the empty string; expected a name of at least one character"
        ))
        .with_span(&span));
    }
    match name.chars().find(|&c| c <= crate::model::DEFAULT_SEPARATOR) {
        None => Ok(()),
        Some(c) => Err(darling::Error::custom(format!(
            "variant `{ident}`: name {name:?} contains {c:?} (U+{:04X}); expected only characters greater \
             than '#' (no control characters, space, '!', '\"' or '#'), so that a separator can follow it",
            c as u32
        ))
        .with_span(&span)),
    }
}

fn expand(segment: &Segment) -> TokenStream {
    let ident = &segment.ident;
    let variants: Vec<&Ident> = segment.variants.iter().map(|(v, _)| v).collect();
    let names: Vec<&str> = segment.variants.iter().map(|(_, n)| n.as_str()).collect();
    // `check_shape` saw at least one variant and `check_name` no empty name.
    let least = names.iter().flat_map(|n| n.bytes()).min().unwrap_or(0);
    let impls = quote! {

            #[automatically_derived]
            impl _sortkey::KeySegment for #ident {
                const WIDTH: _sortkey::Width = _sortkey::Width::Variable;
                const REVERSIBLE: ::core::primitive::bool = false;
                const MAX_VALUE: _sortkey::Option<::core::primitive::u128> =
                    _sortkey::Option::None;
                const CAPABILITIES: _sortkey::Capabilities =
                    _sortkey::Capabilities::PLAIN.with_least_byte(#least);
                const SEGMENT_LAYOUT: _sortkey::SegmentLayout =
                    _sortkey::SegmentLayout::Enum(&[#(#names),*]);

                #[inline]
                fn encode_segment(
                    &self,
                    __field: &_sortkey::Field,
                    __out: &mut _sortkey::String,
                ) -> _sortkey::Result<(), _sortkey::EncodeError> {
                    let __name = match self { #(Self::#variants => #names,)* };
                    _sortkey::encode_name(__name, __field, __out)
                }
            }

            #[automatically_derived]
            impl<'__k> _sortkey::DecodeSegment<'__k> for #ident {
                #[inline]
                fn decode_segment(
                    __cursor: &mut _sortkey::Cursor<'__k>,
                    __field: &_sortkey::Field,
                ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
                    let (__start, __text) = _sortkey::take_name(__cursor, __field)?;
                    match __text {
                        #(#names => _sortkey::Result::Ok(Self::#variants),)*
                        _ => _sortkey::Result::Err(_sortkey::unknown_name(
                            __cursor, __start, __field, &[#(#names),*], __text,
                        )),
                    }
                }
            }

            #[automatically_derived]
            impl _sortkey::KeyScalar for #ident {
                const TYPE: _sortkey::ScalarType = _sortkey::ScalarType::S;

                #[inline]
                fn to_scalar(&self) -> _sortkey::ScalarValue {
                    let __name = match self { #(Self::#variants => #names,)* };
                    _sortkey::ScalarValue::S(::std::borrow::ToOwned::to_owned(__name))
                }
            }
    };
    crate::runtime::wrap_in_const(&segment.krate, impls)
}

/// The errors, and stub impls so that uses of the enum add no errors of their own.
fn fallback(input: &DeriveInput, errors: darling::Error) -> TokenStream {
    let errors = errors.write_errors();
    let stubs = crate::fallback::segment_stubs(input);
    let stubs = crate::runtime::wrap_in_const(&crate::runtime::crate_path(&input.attrs), stubs);
    quote!(#errors #stubs)
}
