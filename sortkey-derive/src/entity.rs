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
//! The attributes are read as written by entity_attr.rs; here each key's fields are looked up
//! in the struct and DynamoDB's rules applied. Each key becomes a key type of its own
//! (`OrderPk`, `OrderSk`, `OrderGsi1Pk`, …) deriving `SortKey` with the options as read, each
//! literal at the user's token, so every rule of key types (widths, `desc`, types that are
//! segments, lengths) applies, with errors there.

use std::collections::BTreeMap;

use proc_macro2::Span;
use syn::{Data, DeriveInput, Fields, Ident, Path, Type};

use crate::attr::{FieldOptions, closest};
use crate::entity_attr::{EntityAttrs, IndexAttrs, KeyAttrs, KeyOptions, RankAttrs, SegmentAttrs};
use crate::keywords::RenameRule;
use crate::messages::{ENTITY_METHODS, MULTI_ENDS_EVERY_STAGE, TABLE_QUERY};
use crate::model::Role;
use crate::types::option_inner;

/// An entity that passed every check the macro can make.
pub(crate) struct Entity {
    pub(crate) ident: Ident,
    pub(crate) vis: syn::Visibility,
    /// The runtime's path, and whether `crate = ...` gave it (then the key types get it too).
    pub(crate) krate: Path,
    pub(crate) krate_given: bool,
    pub(crate) pk: KeyDecl,
    /// `None`: the table's primary key is a partition key alone (its sort type `NoSort`).
    pub(crate) sk: Option<KeyDecl>,
    pub(crate) indexes: Vec<Index>,
    /// `version = field`: the field, which every write conditions on.
    pub(crate) version: Option<Ident>,
    /// `rank(field, levels = N)`: the primary sort key's ranked field and its levels.
    pub(crate) rank: Option<(Ident, usize)>,
}

/// A secondary index: its Rust name, its DynamoDB name and its two keys.
pub(crate) struct Index {
    pub(crate) rust: Ident,
    pub(crate) name: String,
    /// `multi`: each field of its keys is an attribute of its own, typed `S` or `N`.
    pub(crate) multi: bool,
    pub(crate) pk: KeyDecl,
    /// `None`: the index has a partition key alone (for a multi-attribute index: no sort
    /// attribute).
    pub(crate) sk: Option<KeyDecl>,
}

impl Index {
    /// Whether an ingredient of its key is optional, so that an item can be absent from it.
    pub(crate) fn sparse(&self) -> bool {
        self.segments().any(|s| s.optional)
    }

    /// The segments of its sort key, none when it has a partition key alone.
    pub(crate) fn sort_segments(&self) -> &[Segment] {
        self.sk.as_ref().map_or(&[], |k| &k.segments)
    }

    /// Every segment of its keys, partition first.
    pub(crate) fn segments(&self) -> impl Iterator<Item = &Segment> {
        self.pk.segments.iter().chain(self.sort_segments())
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
    /// `prefix`, `separator`, `max_len`, as read.
    pub(crate) options: KeyOptions,
    /// `type = CustomerPk`: the user's own key type, which must encode as declared (the
    /// primary partition key only).
    pub(crate) ty: Option<Path>,
    pub(crate) segments: Vec<Segment>,
}

/// A field of the entity as a segment of one key.
pub(crate) struct Segment {
    /// The field's name, spanned where the key names it.
    pub(crate) field: Ident,
    /// The segment's type: the field's, or `T` of an `Option<T>` field of an index key.
    pub(crate) ty: Type,
    /// The segment's options, as written in `field(...)`.
    pub(crate) options: FieldOptions,
    /// An `Option` field of an index key: the index is sparse.
    pub(crate) optional: bool,
    /// `shard(shards = N, by = field)` in the primary `pk`: no field of the entity but the
    /// shard of its partition, calculated from the sort key's `field`.
    pub(crate) shard: bool,
}

impl Entity {
    /// The entity's name, as messages show it.
    pub(crate) fn name(&self) -> String {
        self.ident.to_string()
    }

    /// Reads and checks a struct deriving `Entity`.
    pub(crate) fn from_input(input: &DeriveInput) -> Result<Entity, Failed> {
        let name = input.ident.to_string();
        let fields = check_shape(input, &name).map_err(|errors| Failed { errors, partial: None })?;
        let (attrs, read) = EntityAttrs::parse(input);
        let mut rules = Rules { entity: &name, fields: &fields, errors: darling::Error::accumulator() };
        rules.errors.handle(read);
        let primary = |role: Role| (format!("the primary key's `{}`", role.word()), role.word().to_owned());
        let pk_role = Role::Partition(input.ident.span());
        let pk = attrs.pk.map(|k| rules.key(k, pk_role, primary(pk_role), None, false));
        let sk = attrs.sk.map(|k| rules.key(k, Role::Sort, primary(Role::Sort), None, false));
        let indexes: Vec<Index> = attrs.indexes.into_iter().filter_map(|i| rules.index(i)).collect();
        let version = attrs.version.and_then(|path| rules.errors.handle(check_version(&name, &fields, &path)));
        let rank = attrs.rank.and_then(|r| rules.errors.handle(check_rank(&name, sk.as_ref(), r)));
        let mut errors = rules.errors;
        if pk.is_none() {
            errors.push(missing_key(&name, pk_role.word(), &input.ident));
        }
        check_names(&name, pk.iter().chain(&sk), &indexes, &mut errors);
        if let Some(pk) = &pk {
            check_shards(&name, &fields, pk, sk.as_ref(), &indexes, &mut errors);
        }
        check_methods(&name, &indexes, &mut errors);
        let Some(pk) = pk else {
            // Not empty: the missing key's error is in it.
            return Err(Failed { errors: darling::Error::multiple(errors.into_inner()), partial: None });
        };
        let krate_given = attrs.krate.is_some();
        let krate = attrs.krate.unwrap_or_else(crate::runtime::default_crate);
        let (ident, vis) = (input.ident.clone(), input.vis.clone());
        let entity = Entity { ident, vis, krate, krate_given, pk, sk, indexes, version, rank };
        match errors.finish() {
            Ok(()) => Ok(entity),
            Err(errors) => Err(Failed { errors, partial: Some(Box::new(entity.without_repeats())) }),
        }
    }

    /// The entity without the indexes whose Rust or DynamoDB name an earlier one has, or whose
    /// generated names clash, which are errors: what the fallback expands, so that it defines
    /// each item once.
    fn without_repeats(mut self) -> Entity {
        let mut seen = Vec::new();
        let mut names = GeneratedNames::default();
        self.indexes.retain(|i| {
            let fresh = !seen.iter().any(|(rust, name): &(String, String)| *rust == i.snake() || *name == i.name);
            seen.push((i.snake(), i.name.clone()));
            fresh && names.add(i).is_ok()
        });
        self
    }
}

/// The struct's named fields, or the error that it has none or is generic.
fn check_shape(input: &DeriveInput, name: &str) -> darling::Result<Vec<(Ident, Type)>> {
    let fields: Vec<(Ident, Type)> = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => named.named.iter().filter_map(|f| Some((f.ident.clone()?, f.ty.clone()))).collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    if fields.is_empty() {
        return Err(darling::Error::custom(format!(
            "`#[derive(Entity)]` on `{name}`: expected a struct with named fields, whose fields make up its keys"
        ))
        .with_span(&input.ident));
    }
    if let Some(param) = input.generics.params.first() {
        return Err(darling::Error::custom(format!(
            "entity `{name}` cannot have generic parameters: its key types are concrete; found a parameter"
        ))
        .with_span(param));
    }
    Ok(fields)
}

/// `version = field`: a field of the entity (its integer type is checked where the expansion
/// reads it as a `u64`).
fn check_version(entity: &str, fields: &[(Ident, Type)], path: &Path) -> darling::Result<Ident> {
    let found = path.get_ident().filter(|i| fields.iter().any(|(f, _)| f == *i));
    found.cloned().ok_or_else(|| {
        let names: Vec<String> = fields.iter().map(|(f, _)| f.to_string()).collect();
        let known: Vec<String> = names.iter().map(|f| format!("`{f}`")).collect();
        let written = quote::ToTokens::to_token_stream(path).to_string();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let hint = closest(&written, &refs).map(|f| format!(" (did you mean `{f}`?)")).unwrap_or_default();
        darling::Error::custom(format!(
            "`version` of entity `{entity}` names `{written}`, which is no field of it; expected one of {}, an \
             integer field that every write of the entity conditions on{hint}",
            known.join(", ")
        ))
        .with_span(path)
    })
}

/// The most levels of rank counters (`sortkey_core::MOST_RANK_LEVELS`).
const MOST_RANK_LEVELS: usize = 20;

/// `rank(field, levels = N)`: one field, the first of the entity's primary sort key, and 1 to
/// 20 levels (the field's width and type are checked where the runtime reads its layout).
fn check_rank(entity: &str, sk: Option<&KeyDecl>, rank: RankAttrs) -> darling::Result<(Ident, usize)> {
    let error = |message: String, span: Span| darling::Error::custom(message).with_span(&span);
    let [field] = rank.fields.as_slice() else {
        let found = match rank.fields.len() {
            0 => "none".to_owned(),
            n => format!("{n} fields"),
        };
        return Err(error(
            format!(
                "`rank` of entity `{entity}`: expected the one ranked field of the sort key and its levels, such as \
                 `rank(score, levels = 4)`; found {found}"
            ),
            rank.span,
        ));
    };
    let Some(levels) = rank.levels else {
        return Err(error(
            format!(
                "`rank` of entity `{entity}`: expected `levels = N`, how many leading digits of `{field}` its counters \
                 count by (1 to {MOST_RANK_LEVELS}), such as `rank({field}, levels = 4)`; found none"
            ),
            rank.span,
        ));
    };
    if *levels == 0 || *levels > MOST_RANK_LEVELS {
        return Err(error(
            format!(
                "`rank` of entity `{entity}`: expected 1 to {MOST_RANK_LEVELS} levels of counters; found {}",
                *levels
            ),
            levels.span(),
        ));
    }
    let Some(sk) = sk else {
        return Err(error(
            format!(
                "`rank` of entity `{entity}`: expected a primary sort key whose first field is `{field}`; found no `sk`"
            ),
            field.span(),
        ));
    };
    match sk.segments.iter().position(|s| s.field == *field) {
        Some(0) => Ok((field.clone(), *levels)),
        Some(at) => Err(error(
            format!(
                "`rank` of entity `{entity}`: expected the sort key's first field, `{}`; found `{field}`, its field {}",
                sk.segments[0].field,
                at + 1
            ),
            field.span(),
        )),
        None => {
            let names: Vec<String> = sk.segments.iter().map(|s| format!("`{}`", s.field)).collect();
            Err(error(
                format!(
                    "`rank` of entity `{entity}` names `{field}`, which is no field of its sort key; expected its \
                     first field, of {}",
                    names.join(", ")
                ),
                field.span(),
            ))
        }
    }
}

/// The error of a primary key that is not written at all.
fn missing_key(entity: &str, what: &str, at: &Ident) -> darling::Error {
    darling::Error::custom(format!(
        "entity `{entity}` has no {what}: expected `#[entity({what}(prefix = \"...\", field, ...))]` naming the \
         fields of its primary key"
    ))
    .with_span(at)
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
        for key in std::iter::once(&index.pk).chain(&index.sk) {
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

/// The names an entity's indexes generate (methods on the entity, type name stems), collected
/// in order so that the first clash is found at the later index.
#[derive(Default)]
struct GeneratedNames {
    methods: Vec<(String, String)>,
    stems: Vec<(String, String)>,
}

impl GeneratedNames {
    /// Adds `index`'s names, or says what one of them clashes with.
    fn add(&mut self, index: &Index) -> Result<(), String> {
        let rust = index.snake();
        let condition = index.sort_segments().iter().find(|s| index.multi && s.field == MULTI_ENDS_EVERY_STAGE);
        if let Some(f) = condition {
            return Err(format!(
                "the sort attribute `{}` of the multi-attribute index `{rust}` would name a method of its query \
                 builder `{MULTI_ENDS_EVERY_STAGE}`, which ends the query at every stage; expected a field with \
                 another name",
                f.field
            ));
        }
        let mut methods = vec![rust.clone()];
        if !index.multi {
            methods.push(format!("{rust}_key"));
        }
        for method in methods {
            if ENTITY_METHODS.contains(&method.as_str()) {
                return Err(format!(
                    "index `{rust}` would generate the method `{method}`, which every entity has from the `Entity` \
                     trait; expected another Rust name for the index (`name = \"...\"` keeps its DynamoDB name)"
                ));
            }
            if method == TABLE_QUERY {
                return Err(format!(
                    "index `{rust}` would generate the method `{TABLE_QUERY}`, which every entity has for a \
                     partition of its table (`{TABLE_QUERY}(&partition)`); expected another Rust name for the index \
                     (`name = \"...\"` keeps its DynamoDB name)"
                ));
            }
            if let Some((_, other)) = self.methods.iter().find(|(m, _)| *m == method) {
                return Err(format!(
                    "index `{rust}` would generate the method `{method}`, which index `{other}` generates too; \
                     expected another Rust name for one of them"
                ));
            }
            self.methods.push((method, rust.clone()));
        }
        let stem = RenameRule::Pascal.apply_to_field(&rust);
        if let Some((_, other)) = self.stems.iter().find(|(s, _)| *s == stem) {
            return Err(format!(
                "index `{rust}` would name its key types `...{stem}...`, as index `{other}` does; expected Rust \
                 names that differ in more than underscores and case"
            ));
        }
        self.stems.push((stem, rust));
        Ok(())
    }
}

/// An index whose generated methods or types clash with the `Entity` trait's, with another
/// index's or with its own builder's is an error at that index (the field, for a sort attribute
/// named like a builder method). Indexes repeated by name are reported by `check_names`.
fn check_methods(entity: &str, indexes: &[Index], errors: &mut darling::error::Accumulator) {
    let mut names = GeneratedNames::default();
    let mut seen: Vec<(String, String)> = Vec::new();
    for index in indexes {
        let repeated = seen.iter().any(|(rust, name)| *rust == index.snake() || *name == index.name);
        seen.push((index.snake(), index.name.clone()));
        if repeated {
            continue;
        }
        if let Err(message) = names.add(index) {
            let at = match index.sort_segments().iter().find(|s| index.multi && s.field == MULTI_ENDS_EVERY_STAGE) {
                Some(field) => field.field.span(),
                None => index.rust.span(),
            };
            errors.push(darling::Error::custom(format!("entity `{entity}`: {message}")).with_span(&at));
        }
    }
}

/// Checks what was read against the struct's fields and DynamoDB's rules, collecting every
/// error; what passes becomes the model.
struct Rules<'a> {
    entity: &'a str,
    fields: &'a [(Ident, Type)],
    errors: darling::error::Accumulator,
}

impl Rules<'_> {
    /// An index with its partition key and, if it has one, its sort key, its name resolved
    /// wherever `name = "..."` was written; `None` (and an error) for one without a partition
    /// key.
    fn index(&mut self, index: IndexAttrs) -> Option<Index> {
        let entity = self.entity;
        let rust = index.rust.to_string();
        let (name, name_span) = match &index.name {
            Some(n) => (n.as_str().to_owned(), n.span()),
            None => (rust.clone(), index.rust.span()),
        };
        self.check_index_name(&name, name_span);
        let multi = index.multi.is_some();
        let mut key = |k: KeyAttrs, role: Role| {
            let whose = format!("the `{}` of index `{name}`", role.word());
            self.key(k, role, (whose, format!("{name}{}", role.word())), Some(name_span), multi)
        };
        let pk = index.pk.map(|k| key(k, Role::Partition(index.rust.span())));
        let sk = index.sk.map(|k| key(k, Role::Sort));
        let Some(pk) = pk else {
            self.errors.push(
                darling::Error::custom(format!(
                    "index `{rust}` of entity `{entity}` has no pk: expected `pk(...)` naming its fields (its \
                     `sk(...)` may be left out, for an index of a partition key alone)"
                ))
                .with_span(&index.rust),
            );
            return None;
        };
        let sort = sk.as_ref().map_or(&[][..], |k| &k.segments);
        if let Some(twice) = pk.segments.iter().find(|p| sort.iter().any(|s| s.field == p.field)) {
            self.errors.push(
                darling::Error::custom(format!(
                    "index `{rust}` of entity `{entity}` names the field `{}` in both keys: expected each attribute \
                     once",
                    twice.field
                ))
                .with_span(&twice.field),
            );
            return None;
        }
        Some(Index { rust: index.rust, name, multi, pk, sk })
    }

    /// DynamoDB's rule for index names.
    fn check_index_name(&mut self, name: &str, span: Span) {
        let starts_well = name.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.');
        if !(3..=255).contains(&name.len()) || !starts_well || !name.chars().all(valid_name_char) {
            self.errors.push(
                darling::Error::custom(format!(
                    "index name {name:?} of entity `{}`: expected 3 to 255 letters, digits, `_`, `-` or `.`, as \
                     DynamoDB names indexes (`name = \"...\"` sets it apart from the Rust name)",
                    self.entity
                ))
                .with_span(&span),
            );
        }
    }

    /// A key's fields looked up in the struct, and the rules of a multi-attribute key.
    /// `(whose, default)`: how messages name the key, and its attribute's default name.
    fn key(
        &mut self,
        key: KeyAttrs,
        role: Role,
        (whose, default): (String, String),
        index_span: Option<Span>,
        multi: bool,
    ) -> KeyDecl {
        let entity = self.entity;
        if multi {
            self.check_multi(&key, role, &whose);
        }
        let (attribute, attribute_span) = match &key.name {
            Some(n) => (n.as_str().to_owned(), n.span()),
            None => (default, index_span.unwrap_or(key.span)),
        };
        let mut segments: Vec<Segment> = Vec::new();
        for SegmentAttrs { field, options } in key.segments {
            if options.shards.is_some() || options.by.is_some() || options.random.is_some() {
                // A shard: its options are checked by the key type's derive, where it is in the
                // entity by `check_shards`.
                let ty = syn::parse_quote!(u16);
                segments.push(Segment { field, ty, options, optional: false, shard: true });
                continue;
            }
            let Some((_, ty)) = self.fields.iter().find(|(f, _)| *f == field) else {
                self.errors.push(self.unknown_field(&whose, &field));
                continue;
            };
            if segments.iter().any(|s| s.field == field) {
                self.errors.push(
                    darling::Error::custom(format!(
                        "{whose} of entity `{entity}` names the field `{field}` twice: expected each field once"
                    ))
                    .with_span(&field),
                );
                continue;
            }
            let inner = index_span.and_then(|_| option_inner(ty));
            let ty = inner.cloned().unwrap_or_else(|| ty.clone());
            segments.push(Segment { field, ty, options, optional: inner.is_some(), shard: false });
        }
        if let (Some(ty), Some(old)) = (&key.ty, key.options.legacy.first()) {
            self.errors.push(
                darling::Error::custom(format!(
                    "{whose} of entity `{}` is the key type `{}` of your own, whose older layouts are its own: \
                     expected `legacy = {}` in `#[key(...)]` on `{}`, not here",
                    self.entity,
                    crate::attr::path_text(ty),
                    crate::attr::path_text(old),
                    crate::attr::path_text(ty)
                ))
                .with_span(old),
            );
        }
        let mut options = key.options;
        if key.ty.is_some() {
            // Reported above: the key type the entity declares is hidden, so it reads no older layout.
            options.legacy.clear();
        }
        let ty = key.ty.filter(|ty| self.check_own_type(ty, role, index_span.is_some(), &whose));
        KeyDecl { attribute, attribute_span, options, ty, segments }
    }

    /// `type = ...` names a shared type for the primary partition key only: the key every
    /// entity of a partition has.
    fn check_own_type(&mut self, ty: &Path, role: Role, in_index: bool, whose: &str) -> bool {
        let fine = matches!(role, Role::Partition(_)) && !in_index;
        if !fine {
            self.errors.push(
                darling::Error::custom(format!(
                    "{whose} of entity `{}` names a key type of its own; expected `type = ...` on the primary \
                     key's `pk` only, the partition key the entities of a partition share",
                    self.entity
                ))
                .with_span(ty),
            );
        }
        fine
    }

    /// A multi-attribute key takes no options, its fields no segment options, and has 1 to 4
    /// attributes (its sort key may have none).
    fn check_multi(&mut self, key: &KeyAttrs, role: Role, whose: &str) {
        let entity = self.entity;
        for (option, span) in key.options() {
            self.errors.push(
                darling::Error::custom(format!(
                    "{whose} of entity `{entity}` is a multi-attribute key: each field is an attribute of its own, \
                     named after the field, so it takes no options; expected fields only, found `{option}`"
                ))
                .with_span(&span),
            );
        }
        for s in key.segments.iter().filter(|s| !s.options.is_empty()) {
            self.errors.push(
                darling::Error::custom(format!(
                    "{whose} of entity `{entity}`: `{}` is an attribute of a multi-attribute key, written as it is \
                     (numbers as N, no padding); expected the field alone, found segment attributes",
                    s.field
                ))
                .with_span(&s.field),
            );
        }
        if let Some(fifth) = key.segments.get(4) {
            self.errors.push(
                darling::Error::custom(format!(
                    "{whose} of entity `{entity}` has {} attributes; DynamoDB allows at most 4",
                    key.segments.len()
                ))
                .with_span(&fifth.field),
            );
        }
        if matches!(role, Role::Partition(_)) && key.segments.is_empty() {
            self.errors.push(
                darling::Error::custom(format!("{whose} of entity `{entity}` names no field")).with_span(&key.span),
            );
        }
    }

    /// A key names a field the struct does not have.
    fn unknown_field(&self, whose: &str, field: &Ident) -> darling::Error {
        let entity = self.entity;
        let names: Vec<String> = self.fields.iter().map(|(f, _)| f.to_string()).collect();
        let known: Vec<String> = names.iter().map(|f| format!("`{f}`")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let hint = closest(&field.to_string(), &refs).map(|f| format!(" (did you mean `{f}`?)")).unwrap_or_default();
        darling::Error::custom(format!(
            "{whose} of entity `{entity}` names the field `{field}`, which `{entity}` does not have; expected one of \
             {}{hint}",
            known.join(", ")
        ))
        .with_span(field)
    }
}

/// A shard is in the primary `pk`, calculated `by` a field of the entity that is in its sort key
/// (whose segment it hashes, so that whoever knows the sort key knows the partition).
fn check_shards(
    entity: &str,
    fields: &[(Ident, Type)],
    pk: &KeyDecl,
    sk: Option<&KeyDecl>,
    indexes: &[Index],
    errors: &mut darling::error::Accumulator,
) {
    let elsewhere = indexes.iter().flat_map(|i| i.segments()).filter(|s| s.shard);
    for s in elsewhere {
        errors.push(
            darling::Error::custom(format!(
                "entity `{entity}`: the shard `{}` is in an index's key; the table's partition is sharded by its \
                 primary `pk(...)`, and an index is not; expected the shard in `pk(...)` alone",
                s.field
            ))
            .with_span(&s.field),
        );
    }
    let sort = sk.map_or(&[][..], |k| &k.segments);
    for s in pk.segments.iter().filter(|s| s.shard) {
        if let Some(random) = s.options.random {
            errors.push(
                darling::Error::custom(format!(
                    "entity `{entity}`: the shard `{}` is `random`, but an entity's key is calculated from its fields \
                     at every write (an update must find the item it wrote); expected `by = field`, a field of its \
                     sort key that spreads its items",
                    s.field
                ))
                .with_span(&random),
            );
            continue;
        }
        let Some(by) = s.options.by.as_ref().and_then(|p| p.get_ident()) else { continue };
        if sort.iter().any(|f| f.field == *by) {
            continue;
        }
        let in_entity = fields.iter().any(|(f, _)| f == by);
        let names: Vec<String> = sort.iter().map(|f| format!("`{}`", f.field)).collect();
        let refs: Vec<String> = sort.iter().map(|f| f.field.to_string()).collect();
        let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
        let hint = closest(&by.to_string(), &refs).map(|f| format!(" (did you mean `{f}`?)")).unwrap_or_default();
        let what = if in_entity { "a field of it that is not in its sort key" } else { "no field of it" };
        errors.push(
            darling::Error::custom(format!(
                "entity `{entity}`: the shard `{}` is calculated by `{by}`, {what}; expected a field of `sk(...)`, \
                 whose segment the shard hashes: {}{hint}",
                s.field,
                if names.is_empty() { "the entity has no sort key".to_owned() } else { names.join(", ") }
            ))
            .with_span(by),
        );
    }
}

/// A character DynamoDB allows in an index name.
fn valid_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}
