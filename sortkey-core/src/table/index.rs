//! Queries of an entity's secondary index: the index's key attributes and `IndexName`, and page
//! cursors that carry both the index key and the primary key, as a GSI's `LastEvaluatedKey` does.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

use crate::encoding::key::{Queryable, SortKey};
use crate::error::EncodeError;
use crate::query::condition::{KeyCondition, KeyExpression};
use crate::table::entity::{Entity, EntityKeys, IndexNames};
use crate::table::item::{ItemKey, KeyNames, PartitionQuery};
use crate::table::multi::{MultiCondition, ScalarValue};

/// The key of an item as an index holds it: its key in the index and its primary key. A page
/// of an index query reads back as these, and its cursor is one. It is `Debug`, `Clone`, `Eq`
/// and `Hash` when its keys are, whatever the entity is.
pub struct IndexKey<E: Entity, P, S> {
    /// The item's key in the index.
    pub index: ItemKey<P, S>,
    /// The item's primary key.
    pub primary: ItemKey<E::Partition, E::Sort>,
}

impl<E: Entity, P, S> fmt::Debug for IndexKey<E, P, S>
where
    ItemKey<P, S>: fmt::Debug,
    ItemKey<E::Partition, E::Sort>: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IndexKey").field("index", &self.index).field("primary", &self.primary).finish()
    }
}

impl<E: Entity, P, S> Clone for IndexKey<E, P, S>
where
    ItemKey<P, S>: Clone,
    ItemKey<E::Partition, E::Sort>: Clone,
{
    fn clone(&self) -> Self {
        IndexKey { index: self.index.clone(), primary: self.primary.clone() }
    }
}

impl<E: Entity, P, S> PartialEq for IndexKey<E, P, S>
where
    ItemKey<P, S>: PartialEq,
    ItemKey<E::Partition, E::Sort>: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index && self.primary == other.primary
    }
}

impl<E: Entity, P, S> Eq for IndexKey<E, P, S>
where
    ItemKey<P, S>: Eq,
    ItemKey<E::Partition, E::Sort>: Eq,
{
}

impl<E: Entity, P, S> Hash for IndexKey<E, P, S>
where
    ItemKey<P, S>: Hash,
    ItemKey<E::Partition, E::Sort>: Hash,
{
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.index.hash(state);
        self.primary.hash(state);
    }
}

/// A Query of one partition of the entity `E`'s index, typed by the index's key types `P` and
/// `S`. Generated as `Order::gsi1(&partition)` for each index `gsi1`.
pub struct IndexQuery<E, P, S> {
    index: IndexNames,
    keys: KeyNames,
    inner: PartitionQuery<P, S>,
    entity: PhantomData<fn() -> E>,
}

impl<E, P, S> fmt::Debug for IndexQuery<E, P, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IndexQuery").field("index", &self.index).field("inner", &self.inner).finish()
    }
}

impl<E, P, S> Clone for IndexQuery<E, P, S> {
    fn clone(&self) -> Self {
        IndexQuery { index: self.index, keys: self.keys, inner: self.inner.clone(), entity: PhantomData }
    }
}

impl<E, P, S> PartialEq for IndexQuery<E, P, S> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index && self.inner == other.inner
    }
}

impl<E, P, S> Eq for IndexQuery<E, P, S> {}

impl<E: Entity, P: SortKey, S> IndexQuery<E, P, S> {
    /// The query of the partition `partition` of the index `index`, whose composite key
    /// attributes are `keys`. Generated code calls it with the index's two constants.
    pub(crate) fn new(index: IndexNames, keys: KeyNames, partition: &P) -> Result<Self, EncodeError> {
        Ok(IndexQuery { index, keys, inner: keys.query(partition)?, entity: PhantomData })
    }
}

impl<E, P, S: Queryable> IndexQuery<E, P, S> {
    /// Narrows the query with a condition on the index's sort key, from its key type's builder.
    /// An index with a partition key alone has no such method.
    pub fn sort(mut self, condition: KeyCondition) -> Self {
        self.inner = self.inner.sort(condition);
        self
    }
}

impl<E, P, S> IndexQuery<E, P, S> {
    /// The index's name and key attributes.
    pub fn index(&self) -> IndexNames {
        self.index
    }

    /// The index's two key attributes.
    pub fn key_names(&self) -> KeyNames {
        self.keys
    }

    /// The same query as one of the index's partition: names, partition and condition.
    pub fn partition_query(&self) -> &PartitionQuery<P, S> {
        &self.inner
    }

    /// The `KeyConditionExpression` on the index's key attributes, with its placeholders.
    pub fn expression(&self) -> KeyExpression {
        self.inner.expression()
    }

    /// Whether an item with these encoded index keys is in the query's result.
    pub fn matches(&self, partition: &str, sort: &str) -> bool {
        self.inner.matches(partition, sort)
    }

    /// Whether the item whose key attributes are `keys` (its entity's
    /// [`key_attributes`](crate::Entity::key_attributes)) is in the query's result, by
    /// DynamoDB's rules: an item without the index's two key attributes (absent from a sparse
    /// index) is not; one with them is when [`matches`](Self::matches) says so.
    pub fn matches_keys(&self, keys: &EntityKeys) -> bool {
        let sort = match self.keys.sort() {
            Some(name) => keys.get(name),
            None => Some(""),
        };
        match (keys.get(self.keys.partition()), sort) {
            (Some(partition), Some(sort)) => self.matches(partition, sort),
            _ => false,
        }
    }
}

/// The key of an item as a multi-attribute index holds it: the index's key attributes, typed,
/// and the item's primary key. A page of a [`MultiCondition`](crate::MultiCondition) query reads back as these with
/// the `dynamodb` feature, and its cursor (`LastEvaluatedKey`, `ExclusiveStartKey`) is one.
pub struct MultiKey<E: Entity> {
    /// The index's key attributes in key schema order (the partition attributes, then the sort
    /// attributes), each with its typed value.
    pub index: Vec<(&'static str, ScalarValue)>,
    /// The item's primary key.
    pub primary: ItemKey<E::Partition, E::Sort>,
}

impl<E: Entity> MultiKey<E> {
    /// The value of the index attribute `name`, if the index has it.
    pub fn get(&self, name: &str) -> Option<&ScalarValue> {
        self.index.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
}

impl<E: Entity> fmt::Debug for MultiKey<E>
where
    ItemKey<E::Partition, E::Sort>: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MultiKey").field("index", &self.index).field("primary", &self.primary).finish()
    }
}

impl<E: Entity> Clone for MultiKey<E>
where
    ItemKey<E::Partition, E::Sort>: Clone,
{
    fn clone(&self) -> Self {
        MultiKey { index: self.index.clone(), primary: self.primary.clone() }
    }
}

impl<E: Entity> PartialEq for MultiKey<E>
where
    ItemKey<E::Partition, E::Sort>: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index && self.primary == other.primary
    }
}

impl<E: Entity> Eq for MultiKey<E> where ItemKey<E::Partition, E::Sort>: Eq {}

/// The index query of a multi-attribute index, against an entity's key attributes (here, where
/// both are known).
impl<E> MultiCondition<E> {
    /// Whether the item whose key attributes are `keys` (its entity's
    /// [`key_attributes`](crate::Entity::key_attributes)) is in the query's result, by
    /// DynamoDB's rules: see [`matches`](Self::matches).
    pub fn matches_keys(&self, keys: &EntityKeys) -> bool {
        self.matches(|name| keys.present().iter().find(|(n, _)| *n == name).map(|(_, v)| v))
    }
}
