//! Generics of the generated impls: bounds on the type parameters, the lifetime decoded text
//! borrows for, and the key's types with its lifetime made `'static` for free constants.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::quote;
use syn::{GenericParam, Generics, Ident, Lifetime, LifetimeParam, Type};

use crate::model::Key;

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

/// Whether the struct has type or const parameters, so that checks must wait for monomorphization.
pub(crate) fn is_generic(key: &Key) -> bool {
    key.generics.params.iter().any(|p| !matches!(p, GenericParam::Lifetime(_)))
}

/// The generic arguments of the key type (`'a, T`), without the angle brackets.
pub(crate) fn key_args(key: &Key) -> Vec<TokenStream> {
    key.generics
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

/// `ty` with the struct's lifetime replaced by `'static`, so a free `const` can name it.
pub(crate) fn static_type(key: &Key, ty: &Type) -> Type {
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
