//! The Query of one partition of an entity's table (`Order::query(&pk)`): the entity's key
//! types inferred, the sort condition bounded to the entity's own sort keys, and its pages read
//! back as the entity's primary keys (or, with the `dynamodb` feature, as entities).

use std::fmt;

use crate::encoding::key::{Queryable, SortKey};
use crate::error::EncodeError;
use crate::query::condition::{KeyCondition, KeyExpression};
use crate::table::entity::Entity;
use crate::table::item::{ItemKey, PartitionQuery};
use crate::table::request::QueryRequest;

/// The Query of one partition of the table of the entity `E`, under its primary key attribute
/// names. The generated `E::query(&partition)` makes one: without a sort condition it reads the
/// entity's own items of the partition (the keys its sort key type can hold: those that begin
/// with its prefix, when it has one), so that another entity sharing the partition is not read;
/// `.sort(condition)` narrows it with a condition from the sort key type's builder.
///
/// ```
/// use sortkey_core::{Entity, SortKey};
///
/// #[derive(Entity)]
/// #[entity(pk(prefix = "CUST", customer_id), sk(prefix = "ORDER", order_no(width = 8)))]
/// struct Order {
///     customer_id: String,
///     order_no: u32,
/// }
///
/// let all = Order::query(&OrderPk { customer_id: "c_1".into() }).unwrap();
/// assert_eq!(all.expression().expression, "#pk = :pk AND begins_with(#sk, :sk0)");
/// assert_eq!(all.expression().values[1].1, "ORDER#");
/// let some = all.sort(OrderSk::query().order_no_range().gte(100).unwrap());
/// assert!(some.matches("CUST#c_1", "ORDER#00000100"));
/// assert!(!some.matches("CUST#c_1", "ORDER#00000099"));
/// ```
pub struct TableQuery<E: Entity> {
    inner: PartitionQuery<E::Partition, E::Sort>,
}

// By hand, not derived: a query holds encoded keys only, whatever the entity is.
impl<E: Entity> fmt::Debug for TableQuery<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TableQuery").field("entity", &E::NAME).field("query", &self.inner).finish()
    }
}

impl<E: Entity> Clone for TableQuery<E> {
    fn clone(&self) -> Self {
        TableQuery { inner: self.inner.clone() }
    }
}

impl<E: Entity> PartialEq for TableQuery<E> {
    fn eq(&self, other: &Self) -> bool {
        self.inner == other.inner
    }
}

impl<E: Entity> Eq for TableQuery<E> {}

impl<E: Entity> TableQuery<E> {
    /// The query of the partition `partition`, its sort keys in `own` (the range of the entity's
    /// sort key type; `None` for the whole partition). Generated code calls it.
    pub(crate) fn new(partition: &E::Partition, own: Option<KeyCondition>) -> Result<Self, EncodeError> {
        let inner = E::KEYS.query(partition)?;
        Ok(TableQuery {
            inner: match own {
                Some(own) => inner.with_condition(own),
                None => inner,
            },
        })
    }

    /// The same query of another partition, encoded: a shard of a sharded partition.
    #[cfg(feature = "dynamodb")]
    pub(crate) fn in_partition(&self, partition: String) -> Self {
        TableQuery { inner: self.inner.in_partition(partition) }
    }

    /// The same query as one of a partition: names, partition and condition.
    pub fn partition_query(&self) -> &PartitionQuery<E::Partition, E::Sort> {
        &self.inner
    }

    /// The `KeyConditionExpression` with its placeholders.
    pub fn expression(&self) -> KeyExpression {
        self.inner.expression()
    }

    /// Whether an item with these encoded keys is in the query's result, by DynamoDB's rules.
    pub fn matches(&self, partition: &str, sort: &str) -> bool {
        self.inner.matches(partition, sort)
    }
}

impl<E: Entity> TableQuery<E>
where
    E::Sort: Queryable,
{
    /// Narrows the query with a condition from the sort key type's builder (`OrderSk::query()`),
    /// in place of the entity's whole range. An entity whose key is a partition key alone has
    /// no such method.
    pub fn sort(self, condition: KeyCondition) -> Self {
        TableQuery { inner: self.inner.sort(condition) }
    }
}

impl<E: Entity> TableQuery<E>
where
    E::Partition: SortKey,
    E::Sort: SortKey,
{
    /// The Query as data, starting after `start` (a page's last key) if given.
    pub fn request(&self, start: Option<&ItemKey<E::Partition, E::Sort>>) -> Result<QueryRequest, EncodeError> {
        self.inner.request(start)
    }
}
