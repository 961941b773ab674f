//! Queries of an entity's secondary index: the index's key attributes and `IndexName`, and page
//! cursors that carry both the index key and the primary key, as a GSI's `LastEvaluatedKey` does.

use std::marker::PhantomData;

use crate::condition::{KeyCondition, KeyExpression};
use crate::entity::{Entity, IndexNames};
use crate::error::EncodeError;
use crate::item::{ItemKey, PartitionQuery};
use crate::key::SortKey;

/// The key of an item as an index holds it: its key in the index and its primary key. A page
/// of an index query reads back as these, and its cursor is one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IndexKey<E: Entity, P, S> {
    /// The item's key in the index.
    pub index: ItemKey<P, S>,
    /// The item's primary key.
    pub primary: ItemKey<E::Partition, E::Sort>,
}

/// A Query of one partition of the entity `E`'s index, typed by the index's key types `P` and
/// `S`. Generated as `Order::gsi1(&partition)` for each index `gsi1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexQuery<E, P, S> {
    index: IndexNames,
    inner: PartitionQuery<P, S>,
    entity: PhantomData<fn() -> E>,
}

impl<E: Entity, P: SortKey, S> IndexQuery<E, P, S> {
    /// The query of the partition `partition` of the index `index`. Generated code calls it.
    #[doc(hidden)]
    pub fn new(index: IndexNames, partition: &P) -> Result<Self, EncodeError> {
        Ok(IndexQuery { index, inner: index.keys().query(partition)?, entity: PhantomData })
    }
}

impl<E, P, S> IndexQuery<E, P, S> {
    /// Narrows the query with a condition on the index's sort key, from its key type's builder.
    pub fn sort(mut self, condition: KeyCondition) -> Self {
        self.inner = self.inner.sort(condition);
        self
    }

    /// The index's name and key attributes.
    pub fn index(&self) -> IndexNames {
        self.index
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
}
