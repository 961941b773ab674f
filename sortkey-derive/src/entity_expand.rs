//! `#[derive(Entity)]`: a key type per declared key, deriving `SortKey` with the attributes as
//! written, the entity's constructors of its keys, and its `Entity` impl.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use crate::entity::{Entity, Index, KeyDecl, Segment};
use crate::keywords::RenameRule;
use crate::messages::MULTI_ENDS_EVERY_STAGE;
use crate::types::is_string;

/// What one index adds to the expansion.
struct IndexParts {
    /// Its key types, or its staged query builder.
    types: TokenStream,
    /// The entity's methods: its query, and (composite) its key.
    methods: TokenStream,
    /// The writes of its attributes in `key_attributes`.
    writes: TokenStream,
    /// Its constants, inside the `const` that names the runtime: its `IndexNames`, and its key
    /// attributes, each written once.
    consts: TokenStream,
    /// The name of its `IndexNames` constant, which `INDEXES` and its query use.
    names: Ident,
}

/// The whole expansion of an entity.
pub(crate) fn derive(entity: &Entity) -> TokenStream {
    let ident = &entity.ident;
    let name = entity.name();
    let (pk_ty, pk_type) = partition_type(entity);
    let sort = sort_side(entity, format_ident!("{}Sk", ident), entity.sk.as_ref(), |attribute| {
        format!("The sort key of [`{name}`], attribute `{attribute}`.")
    });
    let sk_type = &sort.definition;
    let parts: Vec<IndexParts> =
        entity.indexes.iter().map(|i| if i.multi { multi(entity, i) } else { composite(entity, i) }).collect();
    let (types, methods) = (parts.iter().map(|p| &p.types), parts.iter().map(|p| &p.methods));
    let consts = parts.iter().map(|p| &p.consts);
    let impl_entity = impl_entity(entity, &pk_ty, &sort, &parts);
    let table_query = table_query(entity, &pk_ty, &sort);
    let wrapped = crate::runtime::wrap_in_const(
        &entity.krate,
        quote! {
            #[automatically_derived]
            impl #ident {
                #(#consts)*
            }

            #impl_entity
        },
    );
    quote! {
        #pk_type
        #sk_type
        #(#types)*

        #[automatically_derived]
        impl #ident {
            #table_query
            #(#methods)*
        }

        #wrapped
    }
}

/// The primary partition key's type and its definition: `OrderPk`, or the user's own type
/// (`type = CustomerPk`) with the declared layout derived on a hidden type and a `const`
/// assertion, at the type, that the user's type encodes alike.
fn partition_type(entity: &Entity) -> (TokenStream, TokenStream) {
    let (ident, name, pk) = (&entity.ident, entity.name(), &entity.pk);
    let doc = format!("The partition key of [`{name}`], attribute `{}`.", pk.attribute);
    let Some(own) = &pk.ty else {
        let ty = format_ident!("{}Pk", ident);
        return (ty.to_token_stream(), key_type(entity, &ty, pk, true, &doc));
    };
    let declared = format_ident!("__{}PkDeclared", ident);
    let hidden = key_type(entity, &declared, pk, true, "The layout the entity declares for its partition key.");
    let message = format!(
        "entity `{name}`: the partition key type `{}` does not encode as the entity's `pk(...)` declares; expected \
         the same prefix, fields and options on both",
        own.to_token_stream().to_string().replace(' ', "")
    );
    let krate = &entity.krate;
    let check = quote_spanned! {own.span()=>
        const _: () = ::core::assert!(
            <#own as #krate::SortKey>::LAYOUT.encodes_like(&<#declared as #krate::SortKey>::LAYOUT),
            #message
        );
    };
    (own.to_token_stream(), quote!(#[doc(hidden)] #hidden #check))
}

/// The `Entity` impl: the primary key and every key attribute, from the whole item.
fn impl_entity(entity: &Entity, pk_ty: &TokenStream, sort: &SortSide, parts: &[IndexParts]) -> TokenStream {
    let (ident, name) = (&entity.ident, entity.name());
    let pk_attr = &entity.pk.attribute;
    let shard = shard_value(entity, pk_ty, sort);
    let (pk_value, sk_ty, sk_value) = (construct_with(pk_ty, &entity.pk, shard.as_ref()), &sort.ty, &sort.value);
    // The shard is calculated from a sort key field: a value that field refuses is the sort
    // key's error, said before the partition key's (whose shard it leaves out of range).
    let sort_first = shard.is_some().then(|| quote!(_sortkey::SortKey::encode(&__primary.sort)?;));
    let keys = key_names(pk_attr, sort.attribute.as_deref());
    let sk_write = sort.attribute.as_ref().map(|a| quote!(_sortkey::encode_attr(&mut __keys, #a, &__primary.sort)?;));
    let attrs_count = 2 + 2 * entity.indexes.len();
    let index_names = parts.iter().map(|p| &p.names);
    let writes = parts.iter().map(|p| &p.writes);
    let version = entity.version.as_ref().map(|field| {
        let attribute = field.to_string();
        // Spanned on the field, so that a type that is no unsigned integer is an error there.
        let read = quote_spanned!(field.span()=> ::core::convert::Into::<::core::primitive::u64>::into(self.#field));
        quote! {
            const VERSION: ::core::option::Option<&'static str> = ::core::option::Option::Some(#attribute);

            #[inline]
            fn version(&self) -> ::core::option::Option<::core::primitive::u64> {
                ::core::option::Option::Some(#read)
            }
        }
    });
    let rank = entity.rank.as_ref().map(|(field, levels)| {
        let field = field.to_string();
        quote! {
            const RANK: ::core::option::Option<_sortkey::EntityRank> =
                ::core::option::Option::Some(_sortkey::EntityRank { field: #field, levels: #levels });
        }
    });
    let layouts = key_layouts(entity, pk_ty, sort);
    quote! {
        #[automatically_derived]
        impl _sortkey::Entity for #ident {
            type Partition = #pk_ty;
            type Sort = #sk_ty;
            const NAME: &'static str = #name;
            const KEYS: _sortkey::KeyNames = #keys;
            const INDEXES: &'static [_sortkey::IndexNames] = &[#(Self::#index_names),*];
            const LAYOUTS: &'static [_sortkey::KeyLayout] = &[#(#layouts),*];

            #[inline]
            fn primary_key(&self) -> _sortkey::ItemKey<#pk_ty, #sk_ty> {
                _sortkey::ItemKey { partition: #pk_value, sort: #sk_value }
            }

            #[inline]
            fn key_attributes(&self) -> _sortkey::Result<_sortkey::EntityKeys, _sortkey::EncodeError> {
                let mut __keys = _sortkey::entity_keys(#attrs_count);
                let __primary = <Self as _sortkey::Entity>::primary_key(self);
                #sort_first
                _sortkey::encode_attr(&mut __keys, #pk_attr, &__primary.partition)?;
                #sk_write
                #(#writes)*
                _sortkey::Result::Ok(__keys)
            }

            #version
            #rank
        }
    }
}

/// Every composite key of the entity as a `KeyLayout`: the primary key's, then each composite
/// index's, each with its key type's name, its layout, its attribute and its index.
fn key_layouts(entity: &Entity, pk_ty: &TokenStream, sort: &SortSide) -> Vec<TokenStream> {
    let one = |name: String, ty: &TokenStream, attribute: &str, index: Option<&str>| {
        let index = match index {
            Some(i) => quote!(::core::option::Option::Some(#i)),
            None => quote!(::core::option::Option::None),
        };
        quote! {
            _sortkey::KeyLayout {
                name: #name,
                layout: <#ty as _sortkey::SortKey>::LAYOUT,
                attribute: #attribute,
                index: #index,
            }
        }
    };
    let pk_name = match &entity.pk.ty {
        Some(own) => own.segments.last().map_or_else(String::new, |s| s.ident.to_string()),
        None => format!("{}Pk", entity.ident),
    };
    let mut out = vec![one(pk_name, pk_ty, &entity.pk.attribute, None)];
    if let Some(attribute) = &sort.attribute {
        out.push(one(format!("{}Sk", entity.ident), &sort.ty, attribute, None));
    }
    for index in entity.indexes.iter().filter(|i| !i.multi) {
        let (ipk, isk) = index_types(&entity.ident, index);
        out.push(one(ipk.to_string(), &ipk.to_token_stream(), &index.pk.attribute, Some(&index.name)));
        if let Some(sk) = &index.sk {
            out.push(one(isk.to_string(), &isk.to_token_stream(), &sk.attribute, Some(&index.name)));
        }
    }
    out
}

/// `query(&partition)`: the Query of one partition of the entity's table, over the entity's own
/// sort keys (those its sort key type's `begins_with()` selects: its prefix's, or the whole
/// partition for a sort key without one).
fn table_query(entity: &Entity, pk_ty: &TokenStream, sort: &SortSide) -> TokenStream {
    let (krate, name) = (&entity.krate, entity.name());
    let private = crate::runtime::private(krate);
    let sk_ty = &sort.ty;
    let prefixed = entity.sk.as_ref().is_some_and(|sk| sk.options.prefix.is_some());
    let (own, doc) = match &sort.attribute {
        Some(_) if prefixed => (
            quote!(::core::result::Result::ok(<#sk_ty>::query().begins_with())),
            format!(
                "The Query of one partition of the table of `{name}`: its own items (the sort keys \
                 [`{sk_ty}`] holds), narrowed by `.sort(...)` with a condition from [`{sk_ty}::query()`]; its \
                 pages read back as `{name}`'s primary keys, or as entities with \
                 `sortkey_core::dynamodb::query_page`."
            )
            .replace(" :: ", "::"),
        ),
        Some(_) => (
            quote!(::core::option::Option::None),
            format!(
                "The Query of one partition of the table of `{name}` (its sort key has no prefix, so all of the \
                 partition), narrowed by `.sort(...)` with a condition from [`{sk_ty}::query()`]."
            ),
        ),
        None => (
            quote!(::core::option::Option::None),
            format!("The Query of one partition of the table of `{name}`, `=` on its partition key alone."),
        ),
    };
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn query(partition: &#pk_ty) -> ::core::result::Result<#krate::TableQuery<Self>, #krate::EncodeError> {
            #private::table_query::<Self>(partition, #own)
        }
    }
}

/// The sort side of a key: its key type and its value from the entity, or `NoSort` for a key
/// of a partition key alone.
struct SortSide {
    /// The key type's definition (none for `NoSort`).
    definition: TokenStream,
    /// The type: `OrderSk`, or the runtime's `NoSort`.
    ty: TokenStream,
    /// Its value, built from `self`.
    value: TokenStream,
    /// The attribute's name, `None` for `NoSort`.
    attribute: Option<String>,
}

/// The sort side of the key `key` (`None`: a partition key alone), its type named `ty`.
fn sort_side(entity: &Entity, ty: Ident, key: Option<&KeyDecl>, doc: impl Fn(&str) -> String) -> SortSide {
    let krate = &entity.krate;
    match key {
        Some(key) => SortSide {
            definition: key_type(entity, &ty, key, false, &doc(&key.attribute)),
            value: construct(&ty, key),
            ty: ty.into_token_stream(),
            attribute: Some(key.attribute.clone()),
        },
        None => SortSide {
            definition: TokenStream::new(),
            ty: quote!(#krate::NoSort),
            value: quote!(#krate::NoSort),
            attribute: None,
        },
    }
}

/// `KeyNames::new(pk, sk)`, or `KeyNames::partition_only(pk)`.
fn key_names(partition: &str, sort: Option<&str>) -> TokenStream {
    match sort {
        Some(sort) => quote!(_sortkey::KeyNames::new(#partition, #sort)),
        None => quote!(_sortkey::KeyNames::partition_only(#partition)),
    }
}

/// The names of an index's constants: `__SORTKEY_INDEX_GSI1`, `__SORTKEY_KEYS_GSI1`.
fn const_names(index: &Index) -> (Ident, Ident) {
    let upper = RenameRule::ScreamingSnake.apply_to_field(&index.snake());
    (format_ident!("__SORTKEY_INDEX_{}", upper), format_ident!("__SORTKEY_KEYS_{}", upper))
}

/// An index of two composite string keys: its key types, its query and key methods, and the
/// writes of its two attributes (none, and the attributes recorded absent, when it is sparse and
/// an ingredient is `None`).
fn composite(entity: &Entity, index: &Index) -> IndexParts {
    let (ident, krate, name) = (&entity.ident, &entity.krate, entity.name());
    let private = crate::runtime::private(krate);
    let (ipk, isk) = index_types(ident, index);
    let (names, keys) = const_names(index);
    let (ipk_attr, iname, sparse) = (&index.pk.attribute, &index.name, index.sparse());
    let sort = sort_side(entity, isk, index.sk.as_ref(), |attribute| {
        format!("The sort key of [`{name}`] in the index `{iname}`, attribute `{attribute}`.")
    });
    let key_names = key_names(ipk_attr, sort.attribute.as_deref());
    let consts = quote! {
        const #keys: _sortkey::KeyNames = #key_names;
        const #names: _sortkey::IndexNames = _sortkey::IndexNames::new(#iname, Self::#keys, #sparse);
    };
    let pk_doc = format!("The partition key of [`{name}`] in the index `{iname}`, attribute `{ipk_attr}`.");
    let types = [key_type(entity, &ipk, &index.pk, true, &pk_doc), sort.definition.clone()];
    let query = Ident::new(&index.snake(), index.rust.span());
    let isk = &sort.ty;
    let narrows = match &index.sk {
        Some(_) => format!("`.sort(...)` narrows it with a condition from [`{isk}::query()`]"),
        None => "the index has a partition key alone, so it is `=` on the partition".to_owned(),
    };
    let query_doc = format!(
        "The Query of one partition of the index `{iname}` of `{name}`: {narrows}; its pages read back as index \
         and primary keys."
    );
    let (key_method, key_value) = composite_key(entity, index, &ipk, &sort);
    let methods = quote! {
        #[doc = #query_doc]
        #[inline]
        pub fn #query(
            partition: &#ipk,
        ) -> ::core::result::Result<#krate::IndexQuery<Self, #ipk, #isk>, #krate::EncodeError> {
            #private::index_query(Self::#names, Self::#keys, partition)
        }

        #key_method
    };
    let sk_write = sort.attribute.as_ref().map(|a| quote!(_sortkey::encode_attr(&mut __keys, #a, &__k.sort)?;));
    let write = quote! {
        _sortkey::encode_attr(&mut __keys, #ipk_attr, &__k.partition)?;
        #sk_write
    };
    let attributes = std::iter::once(ipk_attr).chain(&sort.attribute);
    let writes = match sparse {
        true => quote! {
            match #key_value {
                ::core::option::Option::Some(__k) => { #write }
                ::core::option::Option::None => _sortkey::push_absent(&mut __keys, &[#(#attributes),*]),
            }
        },
        false => quote!(let __k = #key_value; #write),
    };
    IndexParts { types: quote!(#(#types)*), methods, writes, consts, names }
}

/// The entity's `<index>_key()` method of a composite index, and the call of it: `Option` of the
/// key for a sparse index, whose optional ingredients are bound first.
fn composite_key(entity: &Entity, index: &Index, ipk: &Ident, sort: &SortSide) -> (TokenStream, TokenStream) {
    let (name, iname, krate) = (entity.name(), &index.name, &entity.krate);
    let item = quote!(#krate::ItemKey);
    let method = format_ident!("{}_key", index.snake());
    let (p, isk, s) = (construct(ipk, &index.pk), &sort.ty, &sort.value);
    let call = quote!(self.#method());
    if !index.sparse() {
        let doc = format!("The key of this `{name}` in the index `{iname}`.");
        let method = quote! {
            #[doc = #doc]
            #[inline]
            pub fn #method(&self) -> #item<#ipk, #isk> {
                #item { partition: #p, sort: #s }
            }
        };
        return (method, call);
    }
    let binds = index.segments().filter(|s| s.optional).map(|s| {
        let (f, local) = (&s.field, local(&s.field));
        quote!(let #local = self.#f.as_ref()?;)
    });
    let doc = format!(
        "The key of this `{name}` in the sparse index `{iname}`: `None` when an optional field of it is `None`, \
         and then the item is not in the index."
    );
    let method = quote! {
        #[doc = #doc]
        #[inline]
        pub fn #method(&self) -> ::core::option::Option<#item<#ipk, #isk>> {
            #(#binds)*
            ::core::option::Option::Some(#item { partition: #p, sort: #s })
        }
    };
    (method, call)
}

/// The key types of an index: `OrderGsi1Pk`, `OrderGsi1Sk`.
fn index_types(ident: &Ident, index: &Index) -> (Ident, Ident) {
    let camel = RenameRule::Pascal.apply_to_field(&index.snake());
    (format_ident!("{}{}Pk", ident, camel), format_ident!("{}{}Sk", ident, camel))
}

/// The local an optional ingredient is bound to in a sparse index's constructor.
fn local(field: &Ident) -> Ident {
    Ident::new(&format!("__{field}"), Span::mixed_site())
}

/// `KeyType { field: <clone of self.field>, ... }` (a bound local for an optional ingredient).
fn construct(ty: &impl ToTokens, key: &KeyDecl) -> TokenStream {
    construct_with(ty, key, None)
}

/// [`construct`], with the value of the key's shard (the primary partition key's).
fn construct_with(ty: &impl ToTokens, key: &KeyDecl, shard: Option<&TokenStream>) -> TokenStream {
    let fields = key.segments.iter().map(|s| {
        let f = &s.field;
        if s.shard {
            let value = shard.cloned().unwrap_or_else(|| quote!(0));
            quote!(#f: #value)
        } else if s.optional {
            let l = local(f);
            quote!(#f: ::core::clone::Clone::clone(#l))
        } else {
            quote!(#f: ::core::clone::Clone::clone(&self.#f))
        }
    });
    quote!(#ty { #(#fields),* })
}

/// The primary partition key's shard, from the item: [`shard_of`] over the segment the sort
/// key's `by` field writes, in its place in the sort key. `None` when the key has no shard.
///
/// [`shard_of`]: https://docs.rs/sortkey-core/latest/sortkey_core/fn.shard_of.html
fn shard_value(entity: &Entity, pk_ty: &TokenStream, sort: &SortSide) -> Option<TokenStream> {
    let shard = entity.pk.segments.iter().find(|s| s.shard)?;
    let by = shard.options.by.as_ref()?.get_ident()?;
    let sk = entity.sk.as_ref()?;
    let k = sk.segments.iter().position(|s| s.field == *by)?;
    let (ty, sk_ty, spec) = (&sk.segments[k].ty, &sort.ty, crate::bodies::field_const(k));
    let seg = crate::bodies::segment_of(ty, k, sk_ty);
    let spec = if k + 1 == sk.segments.len() {
        quote!(_sortkey::field_in(<#sk_ty>::#spec, &_sortkey::WHOLE_KEY))
    } else {
        quote!(<#sk_ty>::#spec)
    };
    Some(quote! {{
        let mut __segment = _sortkey::String::new();
        match #seg::encode_segment(&self.#by, &#spec, &mut __segment) {
            _sortkey::Result::Ok(()) => <#pk_ty as _sortkey::Sharded>::SHARDS.of(__segment.as_bytes()),
            // The sort key refuses the same value, before the partition key is written.
            _sortkey::Result::Err(_) => ::core::primitive::u16::MAX,
        }
    }})
}

/// One declared key as a key type deriving `SortKey` with the attributes as written.
fn key_type(entity: &Entity, ty: &Ident, key: &KeyDecl, partition: bool, doc: &str) -> TokenStream {
    let krate = &entity.krate;
    let vis = &entity.vis;
    let mut options = key.options.to_tokens();
    if partition {
        options.push(quote!(partition));
    }
    if entity.krate_given {
        options.push(quote!(crate = #krate));
    }
    let fields = key.segments.iter().map(|s| {
        let (f, t, options) = (&s.field, &s.ty, s.options.to_tokens());
        let attr = (!options.is_empty()).then(|| quote!(#[key(#(#options),*)]));
        let doc = match s.options.by.as_ref().filter(|_| s.shard) {
            Some(by) => format!("The shard, calculated from the entity's `{}`.", quote!(#by)),
            None => format!("The entity's `{f}`."),
        };
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

/// A multi-attribute index: every field of its keys an attribute of its own, typed by
/// `KeyScalar`, and a staged builder whose stage `N` has fixed the first `N` sort attributes.
fn multi(entity: &Entity, index: &Index) -> IndexParts {
    let (ident, krate, vis, name) = (&entity.ident, &entity.krate, &entity.vis, entity.name());
    let private = crate::runtime::private(krate);
    let iname = &index.name;
    let query = format_ident!("{}{}Query", ident, RenameRule::Pascal.apply_to_field(&index.snake()));
    let (names, keys) = const_names(index);
    let attr_list = |key: &KeyDecl| {
        let items = key.segments.iter().map(|s| {
            let (f, t) = (s.field.to_string(), &s.ty);
            quote!((#f, <#t as _sortkey::KeyScalar>::TYPE))
        });
        quote!(&[#(#items),*])
    };
    let sort_list = index.sort_segments().iter().map(|s| {
        let (f, t) = (s.field.to_string(), &s.ty);
        quote!((#f, <#t as _sortkey::KeyScalar>::TYPE))
    });
    let (p_list, s_list, sparse) = (attr_list(&index.pk), quote!(&[#(#sort_list),*]), index.sparse());
    let consts = quote! {
        const #keys: _sortkey::MultiKeys = _sortkey::MultiKeys { partition: #p_list, sort: #s_list };
        const #names: _sortkey::IndexNames = _sortkey::IndexNames::multi(#iname, Self::#keys, #sparse);
    };
    let writes = index.segments().map(|s| {
        let (f, fname) = (&s.field, s.field.to_string());
        match s.optional {
            true => quote! {
                match &self.#f {
                    ::core::option::Option::Some(__v) => _sortkey::push_scalar(&mut __keys, #name, #fname, _sortkey::KeyScalar::to_scalar(__v))?,
                    ::core::option::Option::None => _sortkey::push_absent(&mut __keys, &[#fname]),
                }
            },
            false => quote!(_sortkey::push_scalar(&mut __keys, #name, #fname, _sortkey::KeyScalar::to_scalar(&self.#f))?;),
        }
    });
    let params = index.pk.segments.iter().map(|s| {
        let (f, t) = (&s.field, &s.ty);
        quote!(#f: impl ::core::convert::Into<#t>)
    });
    let values = index.pk.segments.iter().map(|s| {
        let (f, fname, t) = (&s.field, s.field.to_string(), &s.ty);
        quote!((#fname, #krate::KeyScalar::to_scalar(&::core::convert::Into::<#t>::into(#f))))
    });
    let method_name = Ident::new(&index.snake(), index.rust.span());
    let sort_names: Vec<String> = index.sort_segments().iter().map(|s| format!("`{}`", s.field)).collect();
    let method_doc = format!(
        "The Query of the multi-attribute index `{iname}` of `{name}`: `=` on its partition attributes; then the \
         sort attributes ({}) in order, `=` on each the query fixes and at most one range on the next, which \
         ends it; `.{MULTI_ENDS_EVERY_STAGE}()` ends it at any stage.",
        sort_names.join(", ")
    );
    let methods = quote! {
        #[doc = #method_doc]
        #[inline]
        pub fn #method_name(#(#params),*) -> #query<0> {
            #query { inner: #private::MultiQuery::new(Self::#names.name(), Self::#keys, ::std::vec![#(#values),*]) }
        }
    };
    let stages = index.sort_segments().iter().enumerate().map(|(k, s)| multi_stage(entity, &query, k, s));
    let type_doc = format!(
        "The staged Query of the multi-attribute index `{iname}` of [`{name}`]: stage `N` has fixed the first `N` \
         sort attributes ({}). Start it with [`{name}::{}`].",
        sort_names.join(", "),
        index.snake()
    );
    let condition = Ident::new(MULTI_ENDS_EVERY_STAGE, Span::call_site());
    let types = quote! {
        #[doc = #type_doc]
        #[derive(::core::fmt::Debug, ::core::clone::Clone)]
        #vis struct #query<const N: usize> {
            inner: #private::MultiQuery<#ident>,
        }

        #(#stages)*

        #[automatically_derived]
        impl<const N: usize> #query<N> {
            /// The condition with the equalities so far, and no range.
            #[inline]
            pub fn #condition(self) -> #krate::MultiCondition<#ident> {
                self.inner.finish()
            }
        }
    };
    IndexParts { types, methods, writes: quote!(#(#writes)*), consts, names }
}

/// Stage `k` of a multi-attribute query: `=` on the sort attribute `s`, which goes on to stage
/// `k + 1`, or a range on it, which ends the query.
fn multi_stage(entity: &Entity, query: &Ident, k: usize, s: &Segment) -> TokenStream {
    let (ident, krate) = (&entity.ident, &entity.krate);
    let scalar = quote!(#krate::KeyScalar);
    let (f, fname, t) = (&s.field, s.field.to_string(), &s.ty);
    let next = k + 1;
    let range = format_ident!("{}_range", f);
    let eq_doc = format!("`{fname}` equal to `value`; the query continues with the next sort attribute.");
    let range_doc = format!(
        "Ends the query with a range on `{fname}`: `gt`, `gte`, `lt`, `lte`, `between`{}.",
        if is_string(t) { " or `begins_with`" } else { "" }
    );
    quote! {
        #[automatically_derived]
        impl #query<#k> {
            #[doc = #eq_doc]
            #[inline]
            pub fn #f(self, value: impl ::core::convert::Into<#t>) -> #query<#next> {
                #query { inner: self.inner.eq(#fname, #scalar::to_scalar(&::core::convert::Into::<#t>::into(value))) }
            }
            #[doc = #range_doc]
            #[inline]
            pub fn #range(self) -> #krate::MultiRange<#ident, #t> {
                #krate::MultiRange::new(self.inner, #fname)
            }
        }
    }
}
