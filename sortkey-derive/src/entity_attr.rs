//! `#[entity(...)]` as written: its keys, its indexes, each key's options and fields, read with
//! the tables of attr.rs as `#[key(...)]` is, every mistake collected and the rest still read.
//!
//! Every reader returns what it read beside its errors, so that a mistake in one option leaves
//! the key, the index and the entity around it standing: the rules (entity.rs) and the
//! expansion go on with them, and one mistake is one error.

use darling::util::SpannedValue;
use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident, Path, Token};

use crate::attr::{FieldOptions, List, Owner, skip_value};

/// What was read, and the errors met reading it.
pub(crate) type Read<T> = (T, darling::Result<()>);

/// `#[entity(...)]` on the struct.
pub(crate) struct EntityAttrs {
    /// `crate = path`.
    pub(crate) krate: Option<Path>,
    /// `version = field`: the field whose value every write conditions on.
    pub(crate) version: Option<Path>,
    pub(crate) pk: Option<KeyAttrs>,
    pub(crate) sk: Option<KeyAttrs>,
    pub(crate) indexes: Vec<IndexAttrs>,
    /// `rank(score, levels = 4)`: the primary sort key's ranked field.
    pub(crate) rank: Option<RankAttrs>,
}

/// `rank(score, levels = 4)`: the field whose counters the entity's writes keep, and how many
/// leading digits they count by.
pub(crate) struct RankAttrs {
    /// Where `rank` is written.
    pub(crate) span: Span,
    /// The fields named (one is expected).
    pub(crate) fields: Vec<Ident>,
    /// `levels = N`.
    pub(crate) levels: Option<SpannedValue<usize>>,
}

impl RankAttrs {
    /// The list after `rank`: the field's name and `levels = N`, in any order.
    fn parse(entity: &str, meta: &ParseNestedMeta<'_>) -> Read<RankAttrs> {
        let owner = Owner::described(format!("`rank` of entity `{entity}`"));
        let mut fields = Vec::new();
        let mut field = |m: &ParseNestedMeta<'_>| {
            if m.input.peek(Token![=]) || m.input.peek(syn::token::Paren) {
                return None;
            }
            fields.push(m.path.get_ident()?.clone());
            Some(Ok(()))
        };
        let mut out = RankAttrs { span: meta.path.span(), fields: Vec::new(), levels: None };
        let result = owner.parse(
            List::Nested(meta),
            &mut [("levels", &mut |n, m| owner.int(n, m).map(|v| out.levels = Some(v)))],
            Some(&mut field),
        );
        out.fields = fields;
        (out, result)
    }
}

/// `gsi1(multi, name = "...", pk(...), sk(...))` inside `index(...)`, in any order.
pub(crate) struct IndexAttrs {
    /// The index's Rust name, which names its methods and key types.
    pub(crate) rust: Ident,
    /// Its DynamoDB name, when it is not the Rust name.
    pub(crate) name: Option<SpannedValue<String>>,
    /// `multi`: each field of its keys is an attribute of its own.
    pub(crate) multi: Option<Span>,
    pub(crate) pk: Option<KeyAttrs>,
    pub(crate) sk: Option<KeyAttrs>,
}

/// `pk(...)` or `sk(...)`: the key type's options and the entity's fields in order.
pub(crate) struct KeyAttrs {
    /// Where `pk` or `sk` is written.
    pub(crate) span: Span,
    /// `name = "..."`: the attribute's name.
    pub(crate) name: Option<SpannedValue<String>>,
    /// `type = CustomerPk`: a key type of the user's own, shared by the entities of a
    /// partition, instead of one generated for the entity.
    pub(crate) ty: Option<Path>,
    pub(crate) options: KeyOptions,
    pub(crate) segments: Vec<SegmentAttrs>,
}

/// The key type's own options, as `#[key(...)]` on a key struct takes them.
#[derive(Default)]
pub(crate) struct KeyOptions {
    pub(crate) prefix: Option<SpannedValue<String>>,
    pub(crate) separator: Option<SpannedValue<char>>,
    pub(crate) max_len: Option<SpannedValue<usize>>,
    /// `legacy = OldKey`, repeatable: older layouts of the key, newest first, which its key type
    /// reads too (`decode_any`) and the lock records as its versions.
    pub(crate) legacy: Vec<Path>,
}

impl KeyOptions {
    /// The options written, each with its name and span.
    pub(crate) fn written(&self) -> impl Iterator<Item = (&'static str, Span)> + '_ {
        let prefix = self.prefix.as_ref().map(|v| ("prefix", v.span()));
        let separator = self.separator.as_ref().map(|v| ("separator", v.span()));
        let max_len = self.max_len.as_ref().map(|v| ("max_len", v.span()));
        let legacy = self.legacy.iter().map(|p| ("legacy", p.span()));
        [prefix, separator, max_len].into_iter().flatten().chain(legacy)
    }

    /// The options as `#[key(...)]` writes them, each literal spanned where it was read.
    pub(crate) fn to_tokens(&self) -> Vec<TokenStream> {
        let mut out = Vec::new();
        if let Some(prefix) = &self.prefix {
            let lit = syn::LitStr::new(prefix, prefix.span());
            out.push(quote_spanned!(prefix.span()=> prefix = #lit));
        }
        if let Some(separator) = &self.separator {
            let lit = syn::LitChar::new(**separator, separator.span());
            out.push(quote_spanned!(separator.span()=> separator = #lit));
        }
        if let Some(max_len) = &self.max_len {
            let lit = syn::LitInt::new(&max_len.to_string(), max_len.span());
            out.push(quote_spanned!(max_len.span()=> max_len = #lit));
        }
        for old in &self.legacy {
            out.push(quote_spanned!(old.span()=> legacy = #old));
        }
        out
    }
}

/// A field named in a key, with its segment options: `placed_at(width = 10, desc)`.
pub(crate) struct SegmentAttrs {
    pub(crate) field: Ident,
    pub(crate) options: FieldOptions,
}

impl EntityAttrs {
    /// Every `#[entity(...)]` of the struct.
    pub(crate) fn parse(input: &DeriveInput) -> Read<EntityAttrs> {
        let entity = input.ident.to_string();
        let owner = Owner::new("entity", &entity);
        let (pk_owner, sk_owner) = key_owners(&format!("entity `{entity}`"));
        let mut out = EntityAttrs { krate: None, version: None, pk: None, sk: None, indexes: Vec::new(), rank: None };
        let result = owner.parse(
            List::Attrs(&input.attrs, "entity"),
            &mut [
                ("pk", &mut |_, m| set(&mut out.pk, KeyAttrs::parse(&pk_owner, m))),
                ("sk", &mut |_, m| set(&mut out.sk, KeyAttrs::parse(&sk_owner, m))),
                ("index", &mut |_, m| {
                    let (indexes, result) = IndexAttrs::parse_list(&entity, m);
                    out.indexes.extend(indexes);
                    result
                }),
                ("crate", &mut |n, m| owner.path(n, m).map(|v| out.krate = Some(v))),
                ("version", &mut |n, m| owner.path(n, m).map(|v| out.version = Some(v))),
                ("rank", &mut |_, m| set(&mut out.rank, RankAttrs::parse(&entity, m))),
            ],
            None,
        );
        (out, result)
    }
}

impl IndexAttrs {
    /// `index(gsi1(...), by_status(...))`.
    fn parse_list(entity: &str, meta: &ParseNestedMeta<'_>) -> Read<Vec<IndexAttrs>> {
        let mut errors = darling::Error::accumulator();
        let mut out = Vec::new();
        let parsed = meta.parse_nested_meta(|m| {
            match m.path.get_ident() {
                Some(rust) if m.input.peek(syn::token::Paren) => {
                    let (index, result) = IndexAttrs::parse(entity, rust.clone(), &m);
                    out.push(index);
                    errors.handle(result);
                }
                _ => {
                    errors.push(
                        darling::Error::custom(format!(
                            "`index(...)` of entity `{entity}`: expected an index's Rust name and then its keys, \
                             such as `gsi1(pk(status), sk(placed_at))`"
                        ))
                        .with_span(&m.path),
                    );
                    skip_value(&m)?;
                }
            }
            Ok(())
        });
        if let Err(e) = parsed {
            errors.push(e.into());
        }
        (out, errors.finish())
    }

    /// The list after an index's Rust name.
    fn parse(entity: &str, rust: Ident, meta: &ParseNestedMeta<'_>) -> Read<IndexAttrs> {
        let whose = format!("index `{rust}` of entity `{entity}`");
        let owner = Owner::described(whose.clone());
        let (pk_owner, sk_owner) = key_owners(&whose);
        let mut out = IndexAttrs { rust, name: None, multi: None, pk: None, sk: None };
        let result = owner.parse(
            List::Nested(meta),
            &mut [
                ("multi", &mut |n, m| owner.flag(n, m).map(|v| out.multi = Some(v))),
                ("name", &mut |n, m| owner.string(n, m).map(|v| out.name = Some(v))),
                ("pk", &mut |_, m| set(&mut out.pk, KeyAttrs::parse(&pk_owner, m))),
                ("sk", &mut |_, m| set(&mut out.sk, KeyAttrs::parse(&sk_owner, m))),
            ],
            None,
        );
        (out, result)
    }
}

impl KeyAttrs {
    /// The list after `pk` or `sk`: options (`name = value`) and fields (`field` or
    /// `field(options)`), in any order.
    fn parse(owner: &Owner, meta: &ParseNestedMeta<'_>) -> Read<KeyAttrs> {
        let mut segments = Vec::new();
        // A name with no `=` after it is a field of the entity, which the rules look up.
        let mut field = |m: &ParseNestedMeta<'_>| {
            if m.input.peek(Token![=]) {
                return None;
            }
            let ident = m.path.get_ident()?.clone();
            let field_owner = Owner::described(format!("field `{ident}` in {}", owner.desc()));
            let (options, result) = match m.input.peek(syn::token::Paren) {
                true => FieldOptions::parse(&field_owner, List::Nested(m)),
                false => (FieldOptions::default(), Ok(())),
            };
            segments.push(SegmentAttrs { field: ident, options });
            Some(result)
        };
        let mut key = KeyAttrs {
            span: meta.path.span(),
            name: None,
            ty: None,
            options: KeyOptions::default(),
            segments: Vec::new(),
        };
        let result = owner.parse(
            List::Nested(meta),
            &mut [
                ("name", &mut |n, m| owner.string(n, m).map(|v| key.name = Some(v))),
                ("type", &mut |n, m| owner.path(n, m).map(|v| key.ty = Some(v))),
                ("prefix", &mut |n, m| owner.string(n, m).map(|v| key.options.prefix = Some(v))),
                ("separator", &mut |n, m| owner.char(n, m).map(|v| key.options.separator = Some(v))),
                ("max_len", &mut |n, m| owner.int(n, m).map(|v| key.options.max_len = Some(v))),
                ("legacy", &mut |n, m| owner.path(n, m).map(|v| key.options.legacy.push(v))),
            ],
            Some(&mut field),
        );
        key.segments = segments;
        (key, result)
    }

    /// The options written, each with its name and span: a multi-attribute key takes none.
    pub(crate) fn options(&self) -> impl Iterator<Item = (&'static str, Span)> + '_ {
        let name = self.name.as_ref().map(|v| ("name", v.span()));
        let ty = self.ty.as_ref().map(|v| ("type", v.span()));
        name.into_iter().chain(ty).chain(self.options.written())
    }
}

/// How messages name the `pk` and the `sk` of `whose` ("entity `Order`", "index `gsi1` of
/// entity `Order`").
fn key_owners(whose: &str) -> (Owner, Owner) {
    (Owner::described(format!("the `pk` of {whose}")), Owner::described(format!("the `sk` of {whose}")))
}

/// Keeps what was read in `slot` and passes its errors on.
fn set<T>(slot: &mut Option<T>, (value, result): Read<T>) -> darling::Result<()> {
    *slot = Some(value);
    result
}
