//! Entities: a domain struct that declares its table's primary key and its secondary indexes'
//! keys from its own fields (`#[derive(Entity)]`), so that every key attribute of an item is
//! written from the whole item and none can go stale.

use crate::error::EncodeError;
use crate::item::{ItemKey, KeyNames};
use crate::key::SortKey;
use crate::multi::{MultiKeys, ScalarValue};

/// A secondary index an entity belongs to: its name and its key attribute names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IndexNames {
    name: &'static str,
    keys: KeyNames,
    sparse: bool,
    multi: Option<MultiKeys>,
}

impl IndexNames {
    /// The index `name` with key attributes `keys`; `sparse` when an ingredient of its key is
    /// optional, so that an item can be absent from it.
    pub const fn new(name: &'static str, keys: KeyNames, sparse: bool) -> Self {
        IndexNames { name, keys, sparse, multi: None }
    }

    /// The multi-attribute index `name` whose key attributes are `keys`.
    pub const fn multi(name: &'static str, keys: MultiKeys, sparse: bool) -> Self {
        let (p, s) = (
            keys.partition[0].0,
            match keys.sort.first() {
                Some(first) => first.0,
                None => "",
            },
        );
        IndexNames { name, keys: KeyNames::new(p, s), sparse, multi: Some(keys) }
    }

    /// The key attributes of a multi-attribute index, `None` for one of two string keys.
    pub const fn multi_keys(&self) -> Option<MultiKeys> {
        self.multi
    }

    /// The index's name, its `IndexName`.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The index's key attribute names (of a multi-attribute index: its first partition and
    /// first sort attribute; see [`multi_keys`](Self::multi_keys)).
    pub const fn keys(&self) -> KeyNames {
        self.keys
    }

    /// Whether an item can be absent from the index.
    pub const fn sparse(&self) -> bool {
        self.sparse
    }
}

/// A domain struct stored under a typed primary key and indexed by typed secondary keys, all
/// computed from its own fields. Derive it with `#[derive(Entity)]`.
pub trait Entity {
    /// The primary partition key's type.
    type Partition: SortKey;
    /// The primary sort key's type.
    type Sort: SortKey;

    /// The entity's name, as errors show it.
    const NAME: &'static str;
    /// The primary key attribute names.
    const KEYS: KeyNames;
    /// The secondary indexes the entity declares, in declaration order.
    const INDEXES: &'static [IndexNames];

    /// The item's primary key.
    fn primary_key(&self) -> ItemKey<Self::Partition, Self::Sort>;

    /// Every key attribute of the item, primary and secondary, encoded; and the key attributes of
    /// the sparse indexes it is absent from. An error when any key cannot be encoded: then no
    /// attribute is given, never a part of the keys.
    fn key_attributes(&self) -> Result<EntityKeys, EncodeError>;
}

/// The key attributes of one item: the primary key's two, then each index's, in declaration
/// order, each an encoded string; and the attributes of the sparse indexes the item is not in.
///
/// Written into an item on PutItem (with the `dynamodb` feature, `to_item` gives the map to
/// merge into a `serde_dynamo::to_item` map), and the `SET`/`REMOVE` of an update
/// ([`update`](Self::update)).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EntityKeys {
    present: Vec<(&'static str, String)>,
    scalars: Vec<(&'static str, ScalarValue)>,
    absent: Vec<&'static str>,
}

impl EntityKeys {
    /// An empty set, with room for `n` attributes. Generated code fills it.
    #[doc(hidden)]
    pub fn with_capacity(n: usize) -> Self {
        EntityKeys { present: Vec::with_capacity(n), scalars: Vec::new(), absent: Vec::new() }
    }

    /// Adds the attribute `name` with the encoded key `value`.
    #[doc(hidden)]
    pub fn push(&mut self, name: &'static str, value: String) {
        self.present.push((name, value));
    }

    /// Adds the attribute `name` of a multi-attribute index, typed.
    #[doc(hidden)]
    pub fn push_scalar(&mut self, name: &'static str, value: ScalarValue) {
        if !self.scalars.iter().any(|(n, _)| *n == name) {
            self.scalars.push((name, value));
        }
    }

    /// Records that the item is absent from an index whose key attributes are `names`.
    #[doc(hidden)]
    pub fn push_absent(&mut self, names: &[&'static str]) {
        self.absent.extend_from_slice(names);
    }

    /// Every key attribute the item has, as `(name, encoded value)`: the primary key first.
    pub fn present(&self) -> &[(&'static str, String)] {
        &self.present
    }

    /// The attributes of multi-attribute indexes the item has, typed: fields of the entity
    /// written as they are (numbers as `N`), not as one composite string.
    pub fn scalars(&self) -> &[(&'static str, ScalarValue)] {
        &self.scalars
    }

    /// The key attributes of the sparse indexes the item is absent from.
    pub fn absent(&self) -> &[&'static str] {
        &self.absent
    }

    /// The encoded value of the attribute `name`, if the item has it.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.present.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str())
    }

    /// The update that makes an existing item's secondary keys those of this value: `SET` of
    /// every index key the item has, `REMOVE` of those of the sparse indexes it is absent from.
    /// The primary key, which an update cannot change, is left out: it is the update's `Key`.
    pub fn update(&self, primary: KeyNames) -> KeyUpdate {
        let is_primary = |n: &str| n == primary.partition() || n == primary.sort();
        let mut update = KeyUpdate::default();
        let strings = self.present.iter().map(|(n, v)| (n, ScalarValue::S(v.clone())));
        let scalars = self.scalars.iter().map(|(n, v)| (n, v.clone()));
        for (i, (name, value)) in strings.chain(scalars).filter(|(n, _)| !is_primary(n)).enumerate() {
            let (n, v) = (format!("#sk_k{i}"), format!(":sk_k{i}"));
            update.set.push(format!("{n} = {v}"));
            update.names.push((n, (*name).to_owned()));
            update.values.push((v, value));
        }
        for (i, name) in self.absent.iter().enumerate() {
            let n = format!("#sk_r{i}");
            update.remove.push(n.clone());
            update.names.push((n, (*name).to_owned()));
        }
        update
    }
}

/// The key part of an UpdateExpression: assignments for `SET`, attributes for `REMOVE`, and
/// their placeholders (`#sk_…`, `:sk_…`, which no other part of an update should use).
///
/// ```
/// use sortkey_core::KeyUpdate;
///
/// let update = KeyUpdate::default();
/// assert_eq!(update.expression_with(&["#total = :total"], &[]), "SET #total = :total");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KeyUpdate {
    /// `#name = :value` assignments.
    pub set: Vec<String>,
    /// `#name`s to remove.
    pub remove: Vec<String>,
    /// `ExpressionAttributeNames`: placeholder, attribute name.
    pub names: Vec<(String, String)>,
    /// `ExpressionAttributeValues`: placeholder, value (an encoded key is a string, `S`).
    pub values: Vec<(String, ScalarValue)>,
}

impl KeyUpdate {
    /// The whole `UpdateExpression`: the key assignments and `set` (the caller's own, such as
    /// `#total = :total`) in one `SET`, the key removals and `remove` in one `REMOVE`.
    pub fn expression_with(&self, set: &[&str], remove: &[&str]) -> String {
        let sets: Vec<&str> = self.set.iter().map(String::as_str).chain(set.iter().copied()).collect();
        let removes: Vec<&str> = self.remove.iter().map(String::as_str).chain(remove.iter().copied()).collect();
        let mut out = String::new();
        if !sets.is_empty() {
            out.push_str("SET ");
            out.push_str(&sets.join(", "));
        }
        if !removes.is_empty() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str("REMOVE ");
            out.push_str(&removes.join(", "));
        }
        out
    }

    /// The key part alone, as an `UpdateExpression`.
    pub fn expression(&self) -> String {
        self.expression_with(&[], &[])
    }
}
