//! Entities: a domain struct that declares its table's primary key and its secondary indexes'
//! keys from its own fields (`#[derive(Entity)]`), so that every key attribute of an item is
//! written from the whole item and none can go stale.

use crate::encoding::key::SortKey;
use crate::encoding::layout::Layout;
use crate::error::EncodeError;
use crate::table::item::{ItemKey, KeyNames};
use crate::table::multi::{MultiKeys, ScalarType, ScalarValue};

use std::fmt;

/// What a secondary index's key is made of: two composite string attributes (each a key
/// type's encoding), or the typed attributes of a multi-attribute key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndexKeys {
    /// A partition and a sort attribute, each a composite string (`S`).
    Composite(KeyNames),
    /// Up to four partition and four sort attributes, each a field of the entity, typed.
    Multi(MultiKeys),
}

impl fmt::Display for IndexKeys {
    /// `(gsi1pk, gsi1sk)` (`(gsi1pk)` for a partition key alone); `(region S, tenant N; year N,
    /// dock N)` for a multi-attribute key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexKeys::Composite(keys) => write!(f, "{keys}"),
            IndexKeys::Multi(keys) => {
                let list = |attrs: &[(&str, ScalarType)]| {
                    attrs.iter().map(|(n, t)| format!("{n} {}", t.as_str())).collect::<Vec<_>>().join(", ")
                };
                write!(f, "({}; {})", list(keys.partition), list(keys.sort))
            }
        }
    }
}

/// A secondary index an entity belongs to: its name, its key attributes and whether an item
/// can be absent from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IndexNames {
    name: &'static str,
    keys: IndexKeys,
    sparse: bool,
}

impl IndexNames {
    /// The index `name` with the composite key attributes `keys`; `sparse` when an ingredient
    /// of its key is optional, so that an item can be absent from it.
    pub const fn new(name: &'static str, keys: KeyNames, sparse: bool) -> Self {
        IndexNames { name, keys: IndexKeys::Composite(keys), sparse }
    }

    /// The multi-attribute index `name` whose key attributes are `keys`.
    pub const fn multi(name: &'static str, keys: MultiKeys, sparse: bool) -> Self {
        IndexNames { name, keys: IndexKeys::Multi(keys), sparse }
    }

    /// The index's name, its `IndexName`.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The index's key attributes, composite or multi-attribute.
    pub const fn keys(&self) -> IndexKeys {
        self.keys
    }

    /// The key attributes of an index of two composite strings, `None` for a multi-attribute one.
    pub const fn composite_keys(&self) -> Option<KeyNames> {
        match self.keys {
            IndexKeys::Composite(keys) => Some(keys),
            IndexKeys::Multi(_) => None,
        }
    }

    /// The key attributes of a multi-attribute index, `None` for one of two composite strings.
    pub const fn multi_keys(&self) -> Option<MultiKeys> {
        match self.keys {
            IndexKeys::Multi(keys) => Some(keys),
            IndexKeys::Composite(_) => None,
        }
    }

    /// Whether an item can be absent from the index.
    pub const fn sparse(&self) -> bool {
        self.sparse
    }
}

/// One composite key of an entity, as its lock line and its table know it: the key type's name
/// and layout, the attribute that holds it, and the index it is a key of (`None`: the table's
/// primary key). A multi-attribute index's keys have no layout (each field is an attribute of its
/// own) and no `KeyLayout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyLayout {
    /// The key type's name: `OrderSk`, `OrderByStatusPk`, or a shared partition key type's own.
    pub name: &'static str,
    /// Its layout (with its older ones, `legacy`).
    pub layout: Layout,
    /// The attribute that holds it: `sk`, `gsi1pk`.
    pub attribute: &'static str,
    /// The index it is a key of, by its DynamoDB name; `None` for the primary key.
    pub index: Option<&'static str>,
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
    /// Every composite key of the entity (the primary key's, then each index's in declaration
    /// order), with its key type's name, layout and attribute: what a lock of the entity holds,
    /// so that a key added later (a new index) is locked or the lock test fails.
    const LAYOUTS: &'static [KeyLayout];

    /// The item's primary key.
    fn primary_key(&self) -> ItemKey<Self::Partition, Self::Sort>;

    /// Every key attribute of the item, primary and secondary, encoded; and the key attributes of
    /// the sparse indexes it is absent from. An error when any key cannot be encoded: then no
    /// attribute is given, never a part of the keys.
    fn key_attributes(&self) -> Result<EntityKeys, EncodeError>;

    /// The attribute of the entity's version (`#[entity(version = field)]`), which makes every
    /// write conditional on the version read (optimistic locking); `None` without one.
    const VERSION: Option<&'static str> = None;

    /// The version this value was read at (0 for one never written); `None` without a version
    /// attribute. A write of it conditions on this version and writes the next.
    fn version(&self) -> Option<u64> {
        None
    }

    /// The ranked field of the primary sort key (`#[entity(rank(score, levels = 4))]`): every
    /// write of the entity keeps the partition's rank counters in the same transaction as the
    /// item (feature `dynamodb`); `None` without one.
    const RANK: Option<EntityRank> = None;
}

/// A field of an entity's primary sort key declared ranked (`#[entity(rank(score, levels = 4))]`):
/// the field's name and how many leading digits its counters count by. The field must be the
/// sort key's first, a fixed-width unsigned integer ([`RankedField::of`](crate::RankedField::of)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EntityRank {
    /// The ranked field.
    pub field: &'static str,
    /// The levels of counters: 1 to the field's width, at most [`MOST_RANK_LEVELS`](crate::MOST_RANK_LEVELS).
    pub levels: usize,
}

/// The key attributes of one item, in one list: the primary key's two, then each index's, in
/// declaration order (a composite key as its encoded string, `S`; a multi-attribute key's
/// fields as they are, numbers as `N`, each once however many indexes share it); and the
/// attributes of the sparse indexes the item is not in.
///
/// Written into an item on PutItem (with the `dynamodb` feature, `to_item` gives the map to
/// merge into a `serde_dynamo::to_item` map), and the `SET`/`REMOVE` of an update
/// ([`update`](Self::update)).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EntityKeys {
    present: Vec<(&'static str, ScalarValue)>,
    absent: Vec<&'static str>,
}

impl EntityKeys {
    /// An empty set, with room for `n` attributes. Generated code fills it.
    pub(crate) fn with_capacity(n: usize) -> Self {
        EntityKeys { present: Vec::with_capacity(n), absent: Vec::new() }
    }

    /// Adds the attribute `name` with the encoded key `value`.
    pub(crate) fn push(&mut self, name: &'static str, value: String) {
        self.present.push((name, ScalarValue::S(value)));
    }

    /// Adds the attribute `name` of a multi-attribute index, typed, unless an earlier index
    /// that shares it added it.
    pub(crate) fn push_scalar(&mut self, name: &'static str, value: ScalarValue) {
        if !self.present.iter().any(|(n, _)| *n == name) {
            self.present.push((name, value));
        }
    }

    /// Records that the item is absent from an index whose key attributes are `names`.
    pub(crate) fn push_absent(&mut self, names: &[&'static str]) {
        self.absent.extend_from_slice(names);
    }

    /// Every key attribute the item has, as `(name, value)`: the primary key first, then each
    /// index's in declaration order.
    pub fn present(&self) -> &[(&'static str, ScalarValue)] {
        &self.present
    }

    /// The key attributes of the sparse indexes the item is absent from.
    pub fn absent(&self) -> &[&'static str] {
        &self.absent
    }

    /// The value of the attribute `name` as DynamoDB holds it (an encoded key, or a number's
    /// decimal text), if the item has it.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.present.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str())
    }

    /// The update that makes an existing item's secondary keys those of this value: `SET` of
    /// every index key the item has, `REMOVE` of those of the sparse indexes it is absent from.
    /// The primary key, which an update cannot change, is left out: it is the update's `Key`.
    pub fn update(&self, primary: KeyNames) -> KeyUpdate {
        let is_primary = |n: &str| n == primary.partition() || Some(n) == primary.sort();
        let mut update = KeyUpdate::default();
        for (i, (name, value)) in self.present.iter().filter(|(n, _)| !is_primary(n)).enumerate() {
            let (n, v) = (format!("#sk_k{i}"), format!(":sk_k{i}"));
            update.set.push(format!("{n} = {v}"));
            update.names.push((n, (*name).to_owned()));
            update.values.push((v, value.clone()));
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
