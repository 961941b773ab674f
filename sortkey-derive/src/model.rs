//! The model of a key that passed the rules: the key type, its fields and how each is written,
//! as the expansion reads them. `valid.rs` builds it from the attributes; nothing here checks.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::{Data, DeriveInput, Fields, Generics, Ident, Lifetime, Path, Type};

use crate::generics::Parameters;
pub(crate) use crate::keywords::TimeUnit;
use crate::messages::ENDS_EVERY_STAGE;

/// DynamoDB's partition key limit: the default and the largest `max_len` of a partition key.
pub(crate) const PARTITION_KEY_LIMIT: usize = 2048;
/// DynamoDB's sort key limit: the default and the largest `max_len` of a sort key.
pub(crate) const SORT_KEY_LIMIT: usize = 1024;
/// The `max_len` of a key that sets none: a sort key's limit.
pub(crate) const DEFAULT_MAX_LEN: usize = SORT_KEY_LIMIT;
/// The separator unless `#[key(separator = '...')]` says otherwise.
pub(crate) const DEFAULT_SEPARATOR: char = '#';

/// A key schema that passed every check the macro can make.
pub(crate) struct Key {
    pub(crate) ident: Ident,
    pub(crate) vis: syn::Visibility,
    pub(crate) generics: Generics,
    pub(crate) prefix: Option<String>,
    pub(crate) separator: char,
    pub(crate) max_len: usize,
    /// Sort key or partition key, `#[key(partition)]`.
    pub(crate) role: Role,
    pub(crate) krate: Path,
    /// The struct's one lifetime parameter, which decoded text borrows for.
    pub(crate) lifetime: Option<Lifetime>,
    pub(crate) fields: Vec<Field>,
    /// `legacy = OldKey`: older layouts it also reads, newest first.
    pub(crate) legacy: Vec<Path>,
    /// The generics of its impls, bounded once.
    pub(crate) params: Parameters,
}

/// What a key type keys in a table: the role decides its length limit and its queries.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Role {
    /// A sort key (the default): at most 1024 bytes, with range and prefix queries.
    Sort,
    /// `#[key(partition)]`, with the span of the flag: at most 2048 bytes, compared with `=` only.
    Partition(Span),
}

impl Role {
    /// The longest key of the role, DynamoDB's limit, and its `max_len` unless one is given.
    pub(crate) fn limit(self) -> usize {
        match self {
            Role::Sort => SORT_KEY_LIMIT,
            Role::Partition(_) => PARTITION_KEY_LIMIT,
        }
    }

    /// The entity attribute that declares a key of the role, and the default name of its
    /// DynamoDB attribute: `pk`, `sk`.
    pub(crate) fn word(self) -> &'static str {
        match self {
            Role::Sort => "sk",
            Role::Partition(_) => "pk",
        }
    }

    /// The role as messages name it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Role::Sort => "sort key",
            Role::Partition(_) => "partition key",
        }
    }
}

/// A validated field.
pub(crate) struct Field {
    pub(crate) ident: Ident,
    pub(crate) ty: Type,
    pub(crate) width: Option<(u32, Span)>,
    pub(crate) desc: Option<Span>,
    pub(crate) max: Option<(u128, Span)>,
    /// The attributes that only some types take, one kind per field.
    pub(crate) encoding: Encoding,
    /// `shards = N` with `by = field` or `random`: the shard of a sharded partition key.
    pub(crate) shards: Option<ShardDecl>,
}

/// A shard field's count and rule.
#[derive(Clone, Debug)]
pub(crate) struct ShardDecl {
    pub(crate) count: u16,
    /// The sort key's field the shard is calculated from; `None` for `random`.
    pub(crate) by: Option<Ident>,
    /// Where the count is written.
    pub(crate) span: Span,
}

/// How a field's value is written beyond its width, order and bound: the attributes that only
/// one kind of type takes, each with the span of the attribute that set it. A field has at most
/// one kind (the rules refuse a timestamp's `unit` beside a decimal's `scale`), so the
/// combinations that mean nothing cannot be represented.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Encoding {
    /// None of them: what the type writes by default.
    Plain,
    /// A timestamp's `unit` and `format = "rfc3339"`, with the span of the first of them.
    Time(TimeFormat, Span),
    /// A float's `format = "hex"`: its order-preserving bits.
    Hex(Span),
    /// A fixed-point decimal's `scale = N`.
    Scale(u32, Span),
}

/// How a timestamp field is written: Unix time (the default) or `format = "rfc3339"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TimeFormat {
    Unix(TimeUnit),
    Rfc3339(TimeUnit),
}

impl Key {
    /// The key type's name, as errors and messages show it.
    pub(crate) fn name(&self) -> String {
        self.ident.to_string()
    }

    /// The schema as far as it can be read without the attributes, for the fallback: the
    /// struct's own fields with the default attributes and the leniently read `crate` path.
    /// `None` for what is no struct with named fields.
    pub(crate) fn lenient(input: &DeriveInput) -> Option<Key> {
        let Data::Struct(s) = &input.data else { return None };
        let fields = match &s.fields {
            // A field named like the builder's `begins_with()` gets no method of its own in the
            // stub builder, where it would clash; its error says why.
            Fields::Named(named) => named
                .named
                .iter()
                .filter(|f| f.ident.as_ref().is_none_or(|i| i.unraw() != ENDS_EVERY_STAGE))
                .map(Field::lenient)
                .collect::<Option<Vec<_>>>()?,
            Fields::Unit => Vec::new(),
            Fields::Unnamed(_) => return None,
        };
        let lifetime = input.generics.lifetimes().next().map(|l| l.lifetime.clone());
        Some(Key {
            params: Parameters::new(&input.generics, lifetime.as_ref()),
            ident: input.ident.clone(),
            vis: input.vis.clone(),
            generics: input.generics.clone(),
            prefix: None,
            separator: DEFAULT_SEPARATOR,
            max_len: DEFAULT_MAX_LEN,
            role: Role::Sort,
            krate: crate::runtime::crate_path(&input.attrs),
            lifetime,
            fields,
            legacy: Vec::new(),
        })
    }
}

impl Field {
    /// A field with no attributes.
    fn lenient(field: &syn::Field) -> Option<Field> {
        let ident = field.ident.clone()?;
        Some(Field {
            ident,
            ty: field.ty.clone(),
            width: None,
            desc: None,
            max: None,
            encoding: Encoding::Plain,
            shards: None,
        })
    }
}

#[cfg(test)]
mod tests {
    /// The macro checks `max_len` against DynamoDB's limits as sortkey-core defines them.
    #[test]
    fn the_limits_are_the_runtimes() {
        assert_eq!(super::SORT_KEY_LIMIT, sortkey_core::SORT_KEY_LIMIT);
        assert_eq!(super::PARTITION_KEY_LIMIT, sortkey_core::PARTITION_KEY_LIMIT);
    }
}
