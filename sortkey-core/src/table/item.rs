//! Item keys: a partition key and a sort key (or family) with the names of their attributes, and
//! the query of one partition. With the `dynamodb` feature they convert to and from attribute
//! maps (the `Key` of GetItem and DeleteItem, page cursors) in the `dynamodb` module.

use std::marker::PhantomData;

use crate::encoding::key::SortKey;
use crate::error::EncodeError;
use crate::query::condition::{KeyCondition, KeyExpression};

/// The names of the key attributes of a table or index: `pk` and `sk` unless given.
///
/// Declare them once, as a constant, and pass it wherever a key meets the table:
///
/// ```
/// use sortkey_core::KeyNames;
/// const TABLE: KeyNames = KeyNames::new("PK", "SK");
/// assert_eq!((TABLE.partition(), TABLE.sort()), ("PK", "SK"));
/// assert_eq!(KeyNames::default(), KeyNames::new("pk", "sk"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyNames {
    partition: &'static str,
    sort: &'static str,
}

impl KeyNames {
    /// `pk` and `sk`.
    pub const DEFAULT: KeyNames = KeyNames::new("pk", "sk");

    /// The partition key attribute `partition` and the sort key attribute `sort`.
    pub const fn new(partition: &'static str, sort: &'static str) -> Self {
        KeyNames { partition, sort }
    }

    /// The partition key attribute's name.
    pub const fn partition(&self) -> &'static str {
        self.partition
    }

    /// The sort key attribute's name.
    pub const fn sort(&self) -> &'static str {
        self.sort
    }

    /// The query of the partition `partition`, every item in it until a sort condition narrows it.
    pub fn query<P: SortKey, S>(&self, partition: &P) -> Result<PartitionQuery<P, S>, EncodeError> {
        Ok(PartitionQuery { names: *self, partition: partition.encode()?, sort: None, key: PhantomData })
    }
}

impl Default for KeyNames {
    fn default() -> Self {
        KeyNames::DEFAULT
    }
}

/// The primary key of one item: a partition key and a sort key, typed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemKey<P, S> {
    /// The partition key.
    pub partition: P,
    /// The sort key, or a key family.
    pub sort: S,
}

impl<P: SortKey, S: SortKey> ItemKey<P, S> {
    /// The key of the item in partition `partition` under sort key `sort`.
    pub fn new(partition: P, sort: S) -> Self {
        ItemKey { partition, sort }
    }

    /// Both keys encoded: the partition key value, then the sort key value.
    pub fn encode(&self) -> Result<(String, String), EncodeError> {
        Ok((self.partition.encode()?, self.sort.encode()?))
    }
}

/// A Query of one partition (`#pk = :pk`), with an optional condition on the sort key; typed
/// by the partition key `P` and the sort key `S` its pages hold, so that page cursors
/// (`LastEvaluatedKey`) decode as `ItemKey<P, S>`.
///
/// ```
/// use sortkey_core::{KeyNames, SortKey};
///
/// #[derive(SortKey)]
/// #[key(prefix = "CUST", partition)]
/// struct CustomerPk {
///     customer_id: u64,
/// }
///
/// #[derive(SortKey)]
/// #[key(prefix = "ORDER")]
/// struct OrderKey {
///     order_id: String,
/// }
///
/// const TABLE: KeyNames = KeyNames::new("PK", "SK");
/// let q = TABLE.query::<_, OrderKey>(&CustomerPk { customer_id: 42 }).unwrap();
/// let q = q.sort(OrderKey::query().begins_with().unwrap());
/// let e = q.expression();
/// assert_eq!(e.expression, "#pk = :pk AND begins_with(#sk, :sk0)");
/// assert_eq!(e.names, [("#pk".to_string(), "PK".to_string()), ("#sk".to_string(), "SK".to_string())]);
/// assert_eq!(e.values[0], (":pk".to_string(), "CUST#00000000000000000042".to_string()));
/// ```
pub struct PartitionQuery<P, S> {
    names: KeyNames,
    partition: String,
    sort: Option<KeyCondition>,
    key: PhantomData<fn() -> (P, S)>,
}

// By hand, not derived: a query holds encoded keys only, so it is `Debug`, `Clone` and `Eq`
// whatever its key types are.
impl<P, S> std::fmt::Debug for PartitionQuery<P, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PartitionQuery")
            .field("names", &self.names)
            .field("partition", &self.partition)
            .field("sort", &self.sort)
            .finish()
    }
}

impl<P, S> Clone for PartitionQuery<P, S> {
    fn clone(&self) -> Self {
        PartitionQuery {
            names: self.names,
            partition: self.partition.clone(),
            sort: self.sort.clone(),
            key: PhantomData,
        }
    }
}

impl<P, S> PartialEq for PartitionQuery<P, S> {
    fn eq(&self, other: &Self) -> bool {
        (self.names, &self.partition, &self.sort) == (other.names, &other.partition, &other.sort)
    }
}

impl<P, S> Eq for PartitionQuery<P, S> {}

impl<P, S> PartitionQuery<P, S> {
    /// Narrows the query with a condition on the sort key, from the sort key type's builder.
    pub fn sort(mut self, condition: KeyCondition) -> Self {
        self.sort = Some(condition);
        self
    }

    /// The attribute names the query uses.
    pub fn names(&self) -> KeyNames {
        self.names
    }

    /// The encoded partition key.
    pub fn partition(&self) -> &str {
        &self.partition
    }

    /// The sort key condition, if any.
    pub fn condition(&self) -> Option<&KeyCondition> {
        self.sort.as_ref()
    }

    /// The `KeyConditionExpression` with its placeholders: `#pk = :pk`, and the sort
    /// condition on `#sk` when there is one.
    pub fn expression(&self) -> KeyExpression {
        match &self.sort {
            Some(cond) => cond.with_partition_key(self.names.partition, &self.partition, self.names.sort),
            None => KeyExpression {
                expression: "#pk = :pk".to_owned(),
                names: vec![("#pk".to_owned(), self.names.partition.to_owned())],
                values: vec![(":pk".to_owned(), self.partition.clone())],
            },
        }
    }

    /// Whether an item with these encoded keys is in the query's result, by DynamoDB's rules.
    pub fn matches(&self, partition: &str, sort: &str) -> bool {
        partition == self.partition && self.sort.as_ref().is_none_or(|c| c.matches(sort))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partition_alone_is_one_equality() {
        let q: PartitionQuery<(), ()> = PartitionQuery {
            names: KeyNames::new("PK", "SK"),
            partition: "CUST#1".into(),
            sort: None,
            key: PhantomData,
        };
        let e = q.expression();
        assert_eq!(e.expression, "#pk = :pk");
        assert_eq!(e.names, [("#pk".to_owned(), "PK".to_owned())]);
        assert!(q.matches("CUST#1", "anything") && !q.matches("CUST#2", "anything"));
        let q = q.sort(KeyCondition::BeginsWith("ORDER#".into()));
        assert!(q.matches("CUST#1", "ORDER#1") && !q.matches("CUST#1", "PROFILE"));
    }
}
