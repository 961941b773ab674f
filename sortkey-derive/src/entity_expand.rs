//! `#[derive(Entity)]`: a key type per declared key, deriving `SortKey` with the attributes as
//! written, the entity's constructors of its keys, and its `Entity` impl.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::Ident;

use crate::entity::{Entity, Index, KeyDecl, camel};

/// The whole expansion of an entity.
pub(crate) fn derive(entity: &Entity) -> TokenStream {
    let ident = &entity.ident;
    let name = entity.name();
    let krate = &entity.krate;
    // The index methods are outside the `const` that names the runtime `_sortkey`.
    let item = quote!(#krate::ItemKey);
    let pk_ty = format_ident!("{}Pk", ident);
    let sk_ty = format_ident!("{}Sk", ident);
    let mut types = vec![
        key_type(
            entity,
            &pk_ty,
            &entity.pk,
            true,
            &format!("The partition key of [`{name}`], attribute `{}`.", entity.pk.attribute),
        ),
        key_type(
            entity,
            &sk_ty,
            &entity.sk,
            false,
            &format!("The sort key of [`{name}`], attribute `{}`.", entity.sk.attribute),
        ),
    ];
    let mut methods = Vec::new();
    let mut writes = Vec::new();
    let mut index_names = Vec::new();
    let attrs_count = 2 + 2 * entity.indexes.len();
    let (pk_attr, sk_attr) = (&entity.pk.attribute, &entity.sk.attribute);
    let pk_value = construct(&pk_ty, &entity.pk);
    let sk_value = construct(&sk_ty, &entity.sk);
    for (position, index) in entity.indexes.iter().enumerate() {
        let (ipk, isk) = index_types(ident, index);
        let query = Ident::new(&index.snake(), index.rust.span());
        let query_doc = format!(
            "The Query of one partition of the index `{}` of `{name}`: `.sort(...)` narrows it with a \
             condition from [`{isk}::query()`]; its pages read back as index and primary keys.",
            index.name
        );
        methods.push(quote! {
            #[doc = #query_doc]
            pub fn #query(
                partition: &#ipk,
            ) -> ::core::result::Result<#krate::IndexQuery<Self, #ipk, #isk>, #krate::EncodeError> {
                #krate::IndexQuery::new(<Self as #krate::Entity>::INDEXES[#position], partition)
            }
        });
        let what = |role: &str, key: &KeyDecl| {
            format!("The {role} key of [`{name}`] in the index `{}`, attribute `{}`.", index.name, key.attribute)
        };
        types.push(key_type(entity, &ipk, &index.pk, true, &what("partition", &index.pk)));
        types.push(key_type(entity, &isk, &index.sk, false, &what("sort", &index.sk)));
        let method = format_ident!("{}_key", index.snake());
        let (ipk_attr, isk_attr, iname) = (&index.pk.attribute, &index.sk.attribute, &index.name);
        let (p, s) = (construct(&ipk, &index.pk), construct(&isk, &index.sk));
        let sparse = index.sparse();
        index_names.push(quote! {
            _sortkey::IndexNames::new(#iname, _sortkey::KeyNames::new(#ipk_attr, #isk_attr), #sparse)
        });
        if sparse {
            let binds = index.pk.segments.iter().chain(&index.sk.segments).filter(|s| s.optional).map(|s| {
                let (f, local) = (&s.field, local(&s.field));
                quote!(let #local = self.#f.as_ref()?;)
            });
            let doc = format!(
                "The key of this `{name}` in the sparse index `{iname}`: `None` when an optional field of it is \
                 `None`, and then the item is not in the index."
            );
            methods.push(quote! {
                #[doc = #doc]
                pub fn #method(&self) -> ::core::option::Option<#item<#ipk, #isk>> {
                    #(#binds)*
                    ::core::option::Option::Some(#item { partition: #p, sort: #s })
                }
            });
            writes.push(quote! {
                match self.#method() {
                    ::core::option::Option::Some(__k) => {
                        _sortkey::encode_attr(&mut __keys, #ipk_attr, &__k.partition)?;
                        _sortkey::encode_attr(&mut __keys, #isk_attr, &__k.sort)?;
                    }
                    ::core::option::Option::None => __keys.push_absent(&[#ipk_attr, #isk_attr]),
                }
            });
        } else {
            let doc = format!("The key of this `{name}` in the index `{iname}`.");
            methods.push(quote! {
                #[doc = #doc]
                pub fn #method(&self) -> #item<#ipk, #isk> {
                    #item { partition: #p, sort: #s }
                }
            });
            writes.push(quote! {
                let __k = self.#method();
                _sortkey::encode_attr(&mut __keys, #ipk_attr, &__k.partition)?;
                _sortkey::encode_attr(&mut __keys, #isk_attr, &__k.sort)?;
            });
        }
    }
    let impls = quote! {
        #[automatically_derived]
        impl _sortkey::Entity for #ident {
            type Partition = #pk_ty;
            type Sort = #sk_ty;
            const NAME: &'static str = #name;
            const KEYS: _sortkey::KeyNames = _sortkey::KeyNames::new(#pk_attr, #sk_attr);
            const INDEXES: &'static [_sortkey::IndexNames] = &[#(#index_names),*];

            fn primary_key(&self) -> _sortkey::ItemKey<#pk_ty, #sk_ty> {
                _sortkey::ItemKey { partition: #pk_value, sort: #sk_value }
            }

            fn key_attributes(&self) -> _sortkey::Result<_sortkey::EntityKeys, _sortkey::EncodeError> {
                let mut __keys = _sortkey::EntityKeys::with_capacity(#attrs_count);
                let __primary = <Self as _sortkey::Entity>::primary_key(self);
                _sortkey::encode_attr(&mut __keys, #pk_attr, &__primary.partition)?;
                _sortkey::encode_attr(&mut __keys, #sk_attr, &__primary.sort)?;
                #(#writes)*
                _sortkey::Result::Ok(__keys)
            }
        }
    };
    let wrapped = crate::runtime::wrap_in_const(krate, impls);
    quote! {
        #(#types)*

        #[automatically_derived]
        impl #ident {
            #(#methods)*
        }

        #wrapped
    }
}

/// The key types of an index: `OrderGsi1Pk`, `OrderGsi1Sk`.
fn index_types(ident: &Ident, index: &Index) -> (Ident, Ident) {
    let camel = camel(&index.snake());
    (format_ident!("{}{}Pk", ident, camel), format_ident!("{}{}Sk", ident, camel))
}

/// The local an optional ingredient is bound to in a sparse index's constructor.
fn local(field: &Ident) -> Ident {
    Ident::new(&format!("__{field}"), Span::mixed_site())
}

/// `KeyType { field: <clone of self.field>, ... }` (a bound local for an optional ingredient).
fn construct(ty: &Ident, key: &KeyDecl) -> TokenStream {
    let fields = key.segments.iter().map(|s| {
        let f = &s.field;
        if s.optional {
            let l = local(f);
            quote!(#f: ::core::clone::Clone::clone(#l))
        } else {
            quote!(#f: ::core::clone::Clone::clone(&self.#f))
        }
    });
    quote!(#ty { #(#fields),* })
}

/// One declared key as a key type deriving `SortKey` with the attributes as written.
fn key_type(entity: &Entity, ty: &Ident, key: &KeyDecl, partition: bool, doc: &str) -> TokenStream {
    let krate = &entity.krate;
    let vis = &entity.vis;
    let mut options = key.options.clone();
    if partition {
        options.push(quote!(partition));
    }
    if entity.krate_given {
        options.push(quote!(crate = #krate));
    }
    let fields = key.segments.iter().map(|s| {
        let (f, t, attrs) = (&s.field, &s.ty, &s.attrs);
        let attr = (!attrs.is_empty()).then(|| quote!(#[key(#attrs)]));
        let doc = format!("The entity's `{f}`.");
        quote! {
            #[doc = #doc]
            #attr
            pub #f: #t
        }
    });
    quote! {
        #[doc = #doc]
        #[derive(#krate::SortKey, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
        #[key(#(#options),*)]
        #vis struct #ty {
            #(#fields),*
        }
    }
}
