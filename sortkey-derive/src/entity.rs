//! Entities: `#[derive(Entity)]` on a domain struct. The model and the rules the macro can see:
//! which fields make up each key, in which order, with which segment attributes.
//!
//! ```text
//! #[entity(
//!     pk(prefix = "CUST", customer_id(width = 8)),
//!     sk(prefix = "ORDER", placed_at(width = 10, desc), order_id),
//!     index(gsi1(pk(prefix = "STATUS", status), sk(placed_at(width = 10)))),
//! )]
//! ```
//!
//! Each key becomes a key type of its own (`OrderPk`, `OrderSk`, `OrderGsi1Pk`, …) deriving
//! `SortKey` with the attributes as written, so every rule of key types (widths, `desc`, types
//! that are segments, lengths) applies, with errors at the user's tokens.

use std::collections::BTreeMap;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Ident, LitStr, Path, Token, Type};

/// An entity that passed every check the macro can make.
pub(crate) struct Entity {
    pub(crate) ident: Ident,
    pub(crate) vis: syn::Visibility,
    /// The runtime's path, and whether `crate = ...` gave it (then the key types get it too).
    pub(crate) krate: Path,
    pub(crate) krate_given: bool,
    pub(crate) pk: KeyDecl,
    pub(crate) sk: KeyDecl,
    pub(crate) indexes: Vec<Index>,
}

/// A secondary index: its Rust name, its DynamoDB name and its two keys.
pub(crate) struct Index {
    pub(crate) rust: Ident,
    pub(crate) name: String,
    /// `multi`: each field of its keys is an attribute of its own, typed `S` or `N`.
    pub(crate) multi: bool,
    pub(crate) pk: KeyDecl,
    pub(crate) sk: KeyDecl,
}

impl Index {
    /// Whether an ingredient of its key is optional, so that an item can be absent from it.
    pub(crate) fn sparse(&self) -> bool {
        self.pk.segments.iter().chain(&self.sk.segments).any(|s| s.optional)
    }

    /// The index's Rust name: `gsi1`, `by_status`.
    pub(crate) fn snake(&self) -> String {
        self.rust.to_string()
    }
}

/// One key: its attribute name, the key type's own options, and its segments in order.
pub(crate) struct KeyDecl {
    pub(crate) attribute: String,
    pub(crate) attribute_span: Span,
    /// `prefix = "…"`, `separator = '…'`, `max_len = …`, passed to the key type as written.
    pub(crate) options: Vec<TokenStream>,
    pub(crate) segments: Vec<Segment>,
}

/// A field of the entity as a segment of one key.
pub(crate) struct Segment {
    /// The field's name, spanned where the key names it.
    pub(crate) field: Ident,
    /// The segment's type: the field's, or `T` of an `Option<T>` field of an index key.
    pub(crate) ty: Type,
    /// The segment attributes, as written in `field(...)`.
    pub(crate) attrs: TokenStream,
    /// An `Option` field of an index key: the index is sparse.
    pub(crate) optional: bool,
}

/// Which key is being read, for defaults and messages.
#[derive(Clone, Copy)]
enum Role {
    Partition,
    Sort,
}

impl Role {
    fn word(self) -> &'static str {
        match self {
            Role::Partition => "pk",
            Role::Sort => "sk",
        }
    }
}

/// What an `#[entity(...)]` may contain at the top.
const ENTITY_ITEMS: &str = "`pk(...)`, `sk(...)`, `index(name(pk(...), sk(...)))` or `crate = path`";
/// What a key may contain.
const KEY_ITEMS: &str = "`name = \"...\"`, `prefix = \"...\"`, `separator = '...'`, `max_len = N`, or a field \
                         such as `order_id` or `placed_at(width = 10, desc)`";

impl Entity {
    /// The entity's name, as messages show it.
    pub(crate) fn name(&self) -> String {
        self.ident.to_string()
    }

    /// Reads and checks a struct deriving `Entity`.
    pub(crate) fn from_input(input: &DeriveInput) -> Result<Entity, Failed> {
        let name = input.ident.to_string();
        let fields = match &input.data {
            Data::Struct(s) => match &s.fields {
                Fields::Named(named) => named.named.iter().map(|f| (f.ident.clone().unwrap(), f.ty.clone())).collect(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        if fields.is_empty() {
            let errors = darling::Error::custom(format!(
                "`#[derive(Entity)]` on `{name}`: expected a struct with named fields, whose fields make up its keys"
            ))
            .with_span(&input.ident);
            return Err(Failed { errors, partial: None });
        }
        if let Some(param) = input.generics.params.first() {
            let errors = darling::Error::custom(format!(
                "entity `{name}` cannot have generic parameters: its key types are concrete; found a parameter"
            ))
            .with_span(param);
            return Err(Failed { errors, partial: None });
        }
        let mut reader = Reader { entity: &name, fields: &fields, errors: darling::Error::accumulator() };
        let mut pk = None;
        let mut sk = None;
        let mut indexes: Vec<Index> = Vec::new();
        let mut krate = None;
        for attr in input.attrs.iter().filter(|a| a.path().is_ident("entity")) {
            let result = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("pk") {
                    pk = Some(reader.key(&meta, Role::Partition, None, false)?);
                } else if meta.path.is_ident("sk") {
                    sk = Some(reader.key(&meta, Role::Sort, None, false)?);
                } else if meta.path.is_ident("index") {
                    reader.indexes(&meta, &mut indexes)?;
                } else if meta.path.is_ident("crate") {
                    let value = meta.value()?;
                    krate = Some(match value.parse::<LitStr>() {
                        Ok(s) => s.parse::<Path>()?,
                        Err(_) => value.parse::<Path>()?,
                    });
                } else {
                    let path = &meta.path;
                    let found = quote!(#path).to_string().replace(' ', "");
                    return Err(
                        meta.error(format!("unknown attribute `{found}` on entity `{name}`: expected {ENTITY_ITEMS}"))
                    );
                }
                Ok(())
            });
            if let Err(e) = result {
                reader.errors.push(e.into());
            }
        }
        let mut errors = reader.errors;
        let missing = |what: &str| {
            darling::Error::custom(format!(
                "entity `{name}` has no {what}: expected `#[entity({what}(prefix = \"...\", field, ...))]` naming \
                 the fields of its primary key"
            ))
            .with_span(&input.ident)
        };
        if pk.is_none() {
            errors.push(missing("pk"));
        }
        if sk.is_none() {
            errors.push(missing("sk"));
        }
        check_names(&name, pk.iter().chain(&sk), &indexes, &mut errors);
        let krate_given = krate.is_some();
        let (Some(pk), Some(sk)) = (pk, sk) else {
            // Not empty: the missing key's error is in it.
            return Err(Failed { errors: darling::Error::multiple(errors.into_inner()), partial: None });
        };
        let entity = Entity {
            ident: input.ident.clone(),
            vis: input.vis.clone(),
            krate: krate.unwrap_or_else(crate::runtime::default_crate),
            krate_given,
            pk,
            sk,
            indexes,
        };
        match errors.finish() {
            Ok(()) => Ok(entity),
            Err(errors) => Err(Failed { errors, partial: Some(Box::new(entity.without_repeats())) }),
        }
    }

    /// The entity without the indexes whose Rust or DynamoDB name an earlier one has, which are
    /// errors: what the fallback expands, so that it defines each item once.
    fn without_repeats(mut self) -> Entity {
        let mut seen = Vec::new();
        self.indexes.retain(|i| {
            let fresh = !seen.iter().any(|(rust, name): &(String, String)| *rust == i.snake() || *name == i.name);
            seen.push((i.snake(), i.name.clone()));
            fresh
        });
        self
    }
}

/// A failed `#[derive(Entity)]`: its errors, and the entity as far as it could be read (every
/// key and index that parsed, without the fields in error), when it has both primary keys.
pub(crate) struct Failed {
    pub(crate) errors: darling::Error,
    pub(crate) partial: Option<Box<Entity>>,
}

/// Two indexes with one name, or one attribute name for two keys, are errors at the later one.
fn check_names<'a>(
    entity: &str,
    primary: impl Iterator<Item = &'a KeyDecl>,
    indexes: &'a [Index],
    errors: &mut darling::error::Accumulator,
) {
    let mut index_names: BTreeMap<&str, ()> = BTreeMap::new();
    let mut rust_names: BTreeMap<String, ()> = BTreeMap::new();
    let mut unique = Vec::new();
    for index in indexes {
        let rust_fresh = rust_names.insert(index.snake(), ()).is_none();
        let name_fresh = index_names.insert(&index.name, ()).is_none();
        if name_fresh && rust_fresh {
            unique.push(index);
        } else if !name_fresh {
            errors.push(
                darling::Error::custom(format!(
                    "entity `{entity}` declares the index `{}` twice: expected one name per index",
                    index.name
                ))
                .with_span(&index.rust),
            );
        } else {
            errors.push(
                darling::Error::custom(format!(
                    "entity `{entity}` declares two indexes named `{}` in Rust: expected one Rust name per index, as \
                     each has its methods and key types",
                    index.rust
                ))
                .with_span(&index.rust),
            );
        }
    }
    // A multi-attribute key's fields are attributes of their own, which other multi-attribute
    // indexes may share (the same field, so the same type); nothing else may use their names.
    let mut named: Vec<(String, String, Span, bool)> = Vec::new();
    for key in primary {
        named.push((key.attribute.clone(), "the primary key".to_owned(), key.attribute_span, false));
    }
    // A repeated index is one mistake, reported above, not also two repeated attributes.
    for index in unique {
        let owner = format!("index `{}`", index.name);
        for key in [&index.pk, &index.sk] {
            if index.multi {
                for s in &key.segments {
                    named.push((s.field.to_string(), owner.clone(), s.field.span(), true));
                }
            } else {
                named.push((key.attribute.clone(), owner.clone(), key.attribute_span, false));
            }
        }
    }
    let mut owners: BTreeMap<String, (String, bool)> = BTreeMap::new();
    for (attribute, owner, span, multi) in named {
        match owners.get(&attribute) {
            Some((_, true)) if multi => {}
            Some((first, _)) => errors.push(
                darling::Error::custom(format!(
                    "entity `{entity}`: the attribute `{attribute}` of {owner} is already a key attribute of {first}; \
                     expected one attribute per key (give this one `name = \"...\"`)"
                ))
                .with_span(&span),
            ),
            None => {
                owners.insert(attribute, (owner, multi));
            }
        }
    }
}

/// Reads keys and indexes, collecting every error.
struct Reader<'a> {
    entity: &'a str,
    fields: &'a [(Ident, Type)],
    errors: darling::error::Accumulator,
}

impl Reader<'_> {
    /// `index(gsi1(pk(...), sk(...)), ...)`: each index named by its Rust name, with
    /// `name = "..."` when its DynamoDB name differs.
    fn indexes(&mut self, meta: &syn::meta::ParseNestedMeta<'_>, out: &mut Vec<Index>) -> syn::Result<()> {
        meta.parse_nested_meta(|m| {
            let Some(ident) = m.path.get_ident().cloned() else {
                return Err(m.error("expected `index(gsi1(pk(...), sk(...)))`: an index's Rust name, then its keys"));
            };
            let rust = ident.to_string();
            let mut name = rust.clone();
            let mut name_span = ident.span();
            let mut pk = None;
            let mut sk = None;
            let mut multi = false;
            m.parse_nested_meta(|k| {
                if k.path.is_ident("multi") {
                    if pk.is_some() || sk.is_some() {
                        return Err(k.error("expected `multi` before the keys of the index"));
                    }
                    multi = true;
                } else if k.path.is_ident("name") {
                    let lit: LitStr = k.value()?.parse()?;
                    (name, name_span) = (lit.value(), lit.span());
                } else if k.path.is_ident("pk") {
                    pk = Some(self.key(&k, Role::Partition, Some((&name, name_span)), multi)?);
                } else if k.path.is_ident("sk") {
                    sk = Some(self.key(&k, Role::Sort, Some((&name, name_span)), multi)?);
                } else {
                    let path = &k.path;
                    let found = quote!(#path).to_string().replace(' ', "");
                    return Err(k.error(format!(
                        "unknown attribute `{found}` in index `{rust}` of entity `{}`: expected `multi`, \
                         `name = \"...\"`, `pk(...)` and `sk(...)`",
                        self.entity
                    )));
                }
                Ok(())
            })?;
            let starts_well = name.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.');
            if !(3..=255).contains(&name.len()) || !starts_well || !name.chars().all(valid_name_char) {
                return Err(syn::Error::new(
                    name_span,
                    format!(
                        "index name {name:?} of entity `{}`: expected 3 to 255 letters, digits, `_`, `-` or `.`, as \
                         DynamoDB names indexes (`name = \"...\"` sets it apart from the Rust name)",
                        self.entity
                    ),
                ));
            }
            match (pk, sk) {
                (Some(pk), Some(sk)) => {
                    if let Some(twice) = pk.segments.iter().find(|p| sk.segments.iter().any(|s| s.field == p.field)) {
                        return Err(syn::Error::new(
                            twice.field.span(),
                            format!(
                                "index `{rust}` of entity `{}` names the field `{}` in both keys: expected each \
                                 attribute once",
                                self.entity, twice.field
                            ),
                        ));
                    }
                    out.push(Index { rust: ident, name, multi, pk, sk })
                }
                (pk, _) => {
                    let what = if pk.is_none() { "pk" } else { "sk" };
                    return Err(syn::Error::new(
                        ident.span(),
                        format!(
                            "index `{rust}` of entity `{}` has no {what}: expected `{what}(...)` naming its fields",
                            self.entity
                        ),
                    ));
                }
            }
            Ok(())
        })
    }

    /// `pk(...)` or `sk(...)`, of the table (`index` None) or of an index.
    fn key(
        &mut self,
        meta: &syn::meta::ParseNestedMeta<'_>,
        role: Role,
        index: Option<(&str, Span)>,
        multi: bool,
    ) -> syn::Result<KeyDecl> {
        let (default_name, span) = match index {
            None => (role.word().to_owned(), meta.path.span()),
            Some((name, span)) => (format!("{name}{}", role.word()), span),
        };
        let whose = match index {
            None => format!("the primary key's `{}`", role.word()),
            Some((name, _)) => format!("the `{}` of index `{name}`", role.word()),
        };
        let mut key =
            KeyDecl { attribute: default_name, attribute_span: span, options: Vec::new(), segments: Vec::new() };
        let entity = self.entity;
        let fields = self.fields;
        let mut errors = Vec::new();
        meta.parse_nested_meta(|m| {
            let Some(ident) = m.path.get_ident().cloned() else {
                return Err(m.error(format!("expected {KEY_ITEMS} in {whose} of entity `{entity}`")));
            };
            if m.input.peek(Token![=]) && multi {
                return Err(m.error(format!(
                    "{whose} of entity `{entity}` is a multi-attribute key: each field is an attribute of its own, \
                     named after the field, so it takes no options; expected fields only"
                )));
            }
            if m.input.peek(Token![=]) {
                let word = ident.to_string();
                match word.as_str() {
                    "name" => {
                        let lit: LitStr = m.value()?.parse()?;
                        key.attribute = lit.value();
                        key.attribute_span = lit.span();
                    }
                    "prefix" | "separator" | "max_len" => {
                        let value: syn::Expr = m.value()?.parse()?;
                        key.options.push(quote!(#ident = #value));
                    }
                    _ => {
                        return Err(m.error(format!(
                            "unknown option `{word}` of {whose} of entity `{entity}`: expected {KEY_ITEMS}"
                        )));
                    }
                }
                return Ok(());
            }
            let attrs = if m.input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in m.input);
                content.parse::<TokenStream>()?
            } else {
                TokenStream::new()
            };
            if multi && !attrs.is_empty() {
                errors.push(syn::Error::new(
                    ident.span(),
                    format!(
                        "{whose} of entity `{entity}`: `{ident}` is an attribute of a multi-attribute key, written as \
                         it is (numbers as N, no padding); expected the field alone, found segment attributes"
                    ),
                ));
                return Ok(());
            }
            let Some((_, ty)) = fields.iter().find(|(f, _)| *f == ident) else {
                let known: Vec<String> = fields.iter().map(|(f, _)| format!("`{f}`")).collect();
                errors.push(syn::Error::new(
                    ident.span(),
                    format!(
                        "{whose} of entity `{entity}` names the field `{ident}`, which `{entity}` does not have; \
                         expected one of {}",
                        known.join(", ")
                    ),
                ));
                return Ok(());
            };
            if key.segments.iter().any(|s| s.field == ident) {
                errors.push(syn::Error::new(
                    ident.span(),
                    format!("{whose} of entity `{entity}` names the field `{ident}` twice: expected each field once"),
                ));
                return Ok(());
            }
            let inner = index.and_then(|_| option_inner(ty));
            key.segments.push(Segment {
                field: ident,
                ty: inner.cloned().unwrap_or_else(|| ty.clone()),
                attrs,
                optional: inner.is_some(),
            });
            Ok(())
        })?;
        if multi && key.segments.len() > 4 {
            errors.push(syn::Error::new(
                key.segments[4].field.span(),
                format!(
                    "{whose} of entity `{entity}` has {} attributes; DynamoDB allows at most 4",
                    key.segments.len()
                ),
            ));
        }
        if multi && role.word() == "pk" && key.segments.is_empty() && errors.is_empty() {
            errors.push(syn::Error::new(key.attribute_span, format!("{whose} of entity `{entity}` names no field")));
        }
        for e in errors {
            self.errors.push(e.into());
        }
        Ok(key)
    }
}

/// A character DynamoDB allows in an index name.
fn valid_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// `T` of a type written `Option<T>`.
fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(args) if args.args.len() == 1 => match args.args.first()? {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

/// `gsi1` as `Gsi1`, `by_status` as `ByStatus`: a type name part.
pub(crate) fn camel(name: &str) -> String {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut cs = w.chars();
            match cs.next() {
                Some(first) => first.to_ascii_uppercase().to_string() + cs.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_identifiers() {
        assert_eq!(camel("gsi1"), "Gsi1");
        assert_eq!(camel("by_status"), "ByStatus");
        assert_eq!(camel("orders-by.coupon"), "OrdersByCoupon");
    }

    #[test]
    fn option_fields_are_found() {
        let ty: Type = syn::parse_quote!(Option<String>);
        assert!(option_inner(&ty).is_some());
        let ty: Type = syn::parse_quote!(std::option::Option<u64>);
        assert!(option_inner(&ty).is_some());
        let ty: Type = syn::parse_quote!(Vec<u8>);
        assert!(option_inner(&ty).is_none());
    }
}
