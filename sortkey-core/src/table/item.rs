//! Item keys: a partition key and a sort key (or family) with the names of their attributes, and
//! the query of one partition. With the `dynamodb` feature they convert to and from attribute
//! maps (the `Key` of GetItem and DeleteItem, page cursors) in the `dynamodb` module.

use std::marker::PhantomData;

use crate::encoding::key::{DecodeKey, Queryable, SortKey};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::query::condition::{KeyCondition, KeyExpression};

/// The names of the key attributes of a table or index: `pk` and `sk` unless given.
///
/// Declare them once, as a constant, and pass it wherever a key meets the table:
///
/// ```
/// use sortkey_core::KeyNames;
/// const TABLE: KeyNames = KeyNames::new("PK", "SK");
/// assert_eq!((TABLE.partition(), TABLE.sort()), ("PK", Some("SK")));
/// assert_eq!(KeyNames::default(), KeyNames::new("pk", "sk"));
/// // A table keyed by a partition key alone, or an index of one ("users by email"):
/// assert_eq!(KeyNames::partition_only("email").sort(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyNames {
    partition: &'static str,
    sort: Option<&'static str>,
}

impl KeyNames {
    /// `pk` and `sk`.
    pub const DEFAULT: KeyNames = KeyNames::new("pk", "sk");

    /// The partition key attribute `partition` and the sort key attribute `sort`.
    pub const fn new(partition: &'static str, sort: &'static str) -> Self {
        KeyNames { partition, sort: Some(sort) }
    }

    /// A key of the partition key attribute `partition` alone: a table's simple primary key, or
    /// an index with a partition key only (its items are then keyed by [`NoSort`]).
    pub const fn partition_only(partition: &'static str) -> Self {
        KeyNames { partition, sort: None }
    }

    /// The partition key attribute's name.
    pub const fn partition(&self) -> &'static str {
        self.partition
    }

    /// The sort key attribute's name; `None` for a key of a partition key alone.
    pub const fn sort(&self) -> Option<&'static str> {
        self.sort
    }

    /// The query of the partition `partition`, every item in it until a sort condition narrows it.
    pub fn query<P: SortKey, S>(&self, partition: &P) -> Result<PartitionQuery<P, S>, EncodeError> {
        Ok(PartitionQuery { names: *self, partition: partition.encode()?, sort: None, key: PhantomData })
    }
}

impl std::fmt::Display for KeyNames {
    /// `(pk, sk)`, or `(pk)` for a partition key alone.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.sort {
            Some(sort) => write!(f, "({}, {sort})", self.partition),
            None => write!(f, "({})", self.partition),
        }
    }
}

/// The sort key of a table or an index whose key is a partition key alone: it has no
/// attribute, encodes to nothing and decodes from nothing. An entity without `sk(...)` has it as
/// its [`Sort`](crate::Entity::Sort), and an index without one as its sort key type; it has no
/// query builder, so such a query is `=` on the partition alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct NoSort;

impl SortKey for NoSort {
    const PREFIX: Option<&'static str> = None;
    const SEPARATOR: char = '#';
    const ENCODED_LEN: Option<usize> = Some(0);
    const MAX_LEN: usize = 0;

    fn encode_into(&self, _out: &mut String) -> Result<(), EncodeError> {
        Ok(())
    }
}

impl DecodeKey<'_> for NoSort {
    /// Only the empty string: a key of a partition key alone has no sort value to read.
    fn decode_borrowed(key: &str) -> Result<Self, DecodeError> {
        match key.is_empty() {
            true => Ok(NoSort),
            false => Err(DecodeError::new(
                "NoSort",
                None,
                0,
                DecodeErrorKind::TrailingInput,
                "no sort key (the key is a partition key alone)",
                key,
            )),
        }
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

impl<P, S: Queryable> PartitionQuery<P, S> {
    /// Narrows the query with a condition on the sort key, from the sort key type's builder. A
    /// key without a sort key ([`NoSort`]) has no builder and no such method: its query is `=`
    /// on the partition alone.
    pub fn sort(mut self, condition: KeyCondition) -> Self {
        self.sort = Some(condition);
        self
    }
}

impl<P, S> PartitionQuery<P, S> {
    /// The same query of another partition, encoded: a shard of a sharded partition.
    #[cfg(feature = "dynamodb")]
    pub(crate) fn in_partition(&self, partition: String) -> Self {
        PartitionQuery { partition, ..self.clone() }
    }

    /// The same query with the sort condition `condition`, whatever the sort key type is (an
    /// entity's own range, which its generated code gives).
    pub(crate) fn with_condition(mut self, condition: KeyCondition) -> Self {
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
            // A query whose names have no sort attribute (`KeyNames::partition_only`) and a
            // condition nonetheless names the empty attribute, which DynamoDB refuses by name.
            Some(cond) => cond.with_partition_key(self.names.partition, &self.partition, self.names.sort.unwrap_or("")),
            None => KeyExpression::partition(self.names.partition, &self.partition),
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

    /// A sort key type with a builder, as derived ones have.
    struct Sorted;

    impl Queryable for Sorted {
        type Query = ();

        fn query() {}
    }

    #[test]
    fn a_partition_alone_is_one_equality() {
        let q: PartitionQuery<(), Sorted> = PartitionQuery {
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

#[cfg(test)]
mod no_sort {
    use super::*;

    #[test]
    fn a_key_of_a_partition_key_alone_has_no_sort_attribute() {
        let names = KeyNames::partition_only("email");
        assert_eq!((names.partition(), names.sort()), ("email", None));
        assert_eq!(names.to_string(), "(email)");
        assert_eq!(KeyNames::DEFAULT.to_string(), "(pk, sk)");
        assert_eq!(NoSort.encode().unwrap(), "");
        assert_eq!(NoSort::decode("").unwrap(), NoSort);
        let e = NoSort::decode("x").unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::TrailingInput);
        let q: PartitionQuery<NoSort, NoSort> = names.query(&NoSort).unwrap();
        assert_eq!(q.expression().expression, "#pk = :pk");
        assert!(q.matches("", ""));
    }
}
