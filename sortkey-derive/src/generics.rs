//! Generics of the generated impls, from a type's own generics alone: bounds on the type
//! parameters, the lifetime decoded text borrows for, and types with that lifetime made
//! `'static` for free constants.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::quote;
use syn::{GenericParam, Generics, Ident, Lifetime, LifetimeParam, Type};

/// The generics of a key's impls, computed once per derive (as serde's `Parameters`) from the
/// struct's own: each impl builder splits the one it needs instead of bounding its own copy.
pub(crate) struct Parameters {
    /// Every type parameter bound by `KeySegment`: the encode side and the query builder.
    pub(crate) encode: Generics,
    /// The lifetime decoded text borrows for: the struct's own, or a fresh `'__k`.
    pub(crate) lifetime: Lifetime,
    /// `lifetime` first (unless it is the struct's own) and every type parameter bound by
    /// `DecodeSegment<'lifetime>`: the decode side.
    pub(crate) decode: Generics,
    /// Every type parameter bound by `for<'__k> DecodeSegment<'__k>`: `FromStr`.
    pub(crate) owned: Generics,
    /// Whether the struct has type or const parameters, so that checks must wait for
    /// monomorphization.
    pub(crate) generic: bool,
}

impl Parameters {
    /// The parameters of a type with these generics, whose text borrows for `lifetime` (its one
    /// lifetime parameter, if any).
    pub(crate) fn new(generics: &Generics, lifetime: Option<&Lifetime>) -> Parameters {
        let (lifetime, with_lifetime) = match lifetime {
            Some(lt) => (lt.clone(), generics.clone()),
            None => {
                let lt = Lifetime::new("'__k", Span::call_site());
                let mut with_lifetime = generics.clone();
                with_lifetime.params.insert(0, GenericParam::Lifetime(LifetimeParam::new(lt.clone())));
                (lt, with_lifetime)
            }
        };
        Parameters {
            encode: bounded(generics, quote!(_sortkey::KeySegment)),
            decode: bounded(&with_lifetime, quote!(_sortkey::DecodeSegment<#lifetime>)),
            lifetime,
            owned: bounded(generics, quote!(for<'__k> _sortkey::DecodeSegment<'__k>)),
            generic: generics.params.iter().any(|p| !matches!(p, GenericParam::Lifetime(_))),
        }
    }
}

/// Adds `bound` to every type parameter.
fn bounded(generics: &Generics, bound: TokenStream) -> Generics {
    let mut generics = generics.clone();
    let params: Vec<Ident> = generics.type_params().map(|p| p.ident.clone()).collect();
    let clause = generics.make_where_clause();
    for param in params {
        clause.predicates.push(syn::parse_quote!(#param: #bound));
    }
    generics
}

/// The generic arguments of a type with these generics (`'a, T`), without the angle brackets.
pub(crate) fn type_args(generics: &Generics) -> Vec<TokenStream> {
    generics
        .params
        .iter()
        .map(|p| match p {
            GenericParam::Lifetime(l) => {
                let lt = &l.lifetime;
                quote!(#lt)
            }
            GenericParam::Type(t) => {
                let id = &t.ident;
                quote!(#id)
            }
            GenericParam::Const(c) => {
                let id = &c.ident;
                quote!(#id)
            }
        })
        .collect()
}

/// `ty` with `lifetime` replaced by `'static`, so a free `const` can name it.
pub(crate) fn static_type(lifetime: Option<&Lifetime>, ty: &Type) -> Type {
    let Some(lt) = lifetime else { return ty.clone() };
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
