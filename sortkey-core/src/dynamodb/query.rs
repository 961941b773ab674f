//! Queries on a Query builder: a condition, a partition's query and an index's query, with
//! their pages read back as typed keys.

use aws_sdk_dynamodb::operation::query::QueryOutput;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::encoding::key::{DecodeKey, SortKey};
use crate::error::{DecodeError, EncodeError};
use crate::query::condition::{KeyCondition, KeyExpression};
use crate::table::entity::Entity;
use crate::table::index::{IndexKey, IndexQuery};
use crate::table::item::{ItemKey, PartitionQuery};

use super::Attributes;
use super::multi::scalar;
use crate::table::request::QueryRequest;

impl KeyCondition {
    /// Sets the query's `KeyConditionExpression`, `ExpressionAttributeNames` and
    /// `ExpressionAttributeValues`: the partition key attribute `partition_key` equal to
    /// `partition_value`, and this condition on the sort key attribute `sort_key`.
    ///
    /// The placeholders are `#pk`, `#sk`, `:pk`, `:sk0` and `:sk1`; add your own filter
    /// expressions with other names.
    pub fn apply_to_query(
        &self,
        query: QueryFluentBuilder,
        partition_key: &str,
        partition_value: AttributeValue,
        sort_key: &str,
    ) -> QueryFluentBuilder {
        let expr = self.with_partition_key(partition_key, "", sort_key);
        let query =
            expr.names.into_iter().fold(query.key_condition_expression(expr.expression), |q, (placeholder, name)| {
                q.expression_attribute_names(placeholder, name)
            });
        expr.values.into_iter().fold(query, |q, (placeholder, value)| {
            let value = if placeholder == ":pk" { partition_value.clone() } else { AttributeValue::S(value) };
            q.expression_attribute_values(placeholder, value)
        })
    }
}

impl KeyExpression {
    /// Sets the query's `KeyConditionExpression`, `ExpressionAttributeNames` and
    /// `ExpressionAttributeValues` (each value a string, `S`).
    pub fn apply_to_query(&self, query: QueryFluentBuilder) -> QueryFluentBuilder {
        let query =
            self.names.iter().fold(query.key_condition_expression(&self.expression), |q, (placeholder, name)| {
                q.expression_attribute_names(placeholder, name)
            });
        self.values.iter().fold(query, |q, (placeholder, value)| {
            q.expression_attribute_values(placeholder, AttributeValue::S(value.clone()))
        })
    }
}

impl<P: SortKey, S: SortKey> PartitionQuery<P, S> {
    /// Sets the query's `KeyConditionExpression` with its names and values and, to resume after
    /// a page, `ExclusiveStartKey` from `start` (a key [`next_start`](Self::next_start) gave).
    pub fn apply_to_query(
        &self,
        query: QueryFluentBuilder,
        start: Option<&ItemKey<P, S>>,
    ) -> Result<QueryFluentBuilder, EncodeError> {
        Ok(self.request(start)?.apply_to(query))
    }

    /// The typed keys of the items of a page, in the order DynamoDB returned them.
    pub fn keys(&self, page: &QueryOutput) -> Result<Vec<ItemKey<P, S>>, DecodeError>
    where
        P: for<'k> DecodeKey<'k>,
        S: for<'k> DecodeKey<'k>,
    {
        page.items().iter().map(|item| ItemKey::from_attributes(item, self.names())).collect()
    }

    /// Where the next page starts: the page's `LastEvaluatedKey`, decoded; `None` after the
    /// last page.
    pub fn next_start(&self, page: &QueryOutput) -> Result<Option<ItemKey<P, S>>, DecodeError>
    where
        P: for<'k> DecodeKey<'k>,
        S: for<'k> DecodeKey<'k>,
    {
        page.last_evaluated_key().map(|key| ItemKey::from_attributes(key, self.names())).transpose()
    }
}

impl<E, P, S> IndexQuery<E, P, S>
where
    E: Entity,
    E::Partition: for<'k> DecodeKey<'k>,
    E::Sort: for<'k> DecodeKey<'k>,
    P: SortKey + for<'k> DecodeKey<'k>,
    S: SortKey + for<'k> DecodeKey<'k>,
{
    /// Sets `IndexName`, the `KeyConditionExpression` with its names and values and, to resume
    /// after a page, `ExclusiveStartKey` from `start` (index key and primary key).
    pub fn apply_to_query(
        &self,
        query: QueryFluentBuilder,
        start: Option<&IndexKey<E, P, S>>,
    ) -> Result<QueryFluentBuilder, EncodeError> {
        Ok(self.request(start)?.apply_to(query))
    }

    /// The typed keys (index and primary) of the items of a page, in the order DynamoDB
    /// returned them.
    pub fn keys(&self, page: &QueryOutput) -> Result<Vec<IndexKey<E, P, S>>, DecodeError> {
        page.items().iter().map(|item| self.key(item)).collect()
    }

    /// Where the next page starts: the page's `LastEvaluatedKey` (index key and primary key),
    /// decoded; `None` after the last page.
    pub fn next_start(&self, page: &QueryOutput) -> Result<Option<IndexKey<E, P, S>>, DecodeError> {
        page.last_evaluated_key().map(|key| self.key(key)).transpose()
    }

    pub(super) fn key(&self, item: &Attributes) -> Result<IndexKey<E, P, S>, DecodeError> {
        Ok(IndexKey {
            index: ItemKey::from_attributes(item, self.key_names())?,
            primary: ItemKey::from_attributes(item, E::KEYS)?,
        })
    }
}

impl<E, P, S> IndexQuery<E, P, S> {
    /// Whether `item` is in the query's result, by DynamoDB's rules: an item without the
    /// index's two key attributes as strings is not in the index (as a sparse index leaves it
    /// out), one with them is when [`matches`](Self::matches) says so.
    pub fn matches_item(&self, item: &Attributes) -> bool {
        let keys = self.key_names();
        let sort = match keys.sort() {
            Some(name) => item.get(name).and_then(|v| v.as_s().ok()).map(String::as_str),
            None => Some(""),
        };
        match (item.get(keys.partition()), sort) {
            (Some(AttributeValue::S(partition)), Some(sort)) => self.matches(partition, sort),
            _ => false,
        }
    }
}

impl QueryRequest {
    /// Sets the request on a Query (the table is the caller's): `IndexName`, the
    /// `KeyConditionExpression` with its names and typed values, and `ExclusiveStartKey`.
    pub fn apply_to(&self, query: QueryFluentBuilder) -> QueryFluentBuilder {
        let query = query.set_index_name(self.index_name.map(str::to_owned));
        let query = query.key_condition_expression(&self.key_condition_expression);
        let query = self.names.iter().fold(query, |q, (p, n)| q.expression_attribute_names(p, n));
        let query = self.values.iter().fold(query, |q, (p, v)| q.expression_attribute_values(p, scalar(v)));
        let start = self.exclusive_start_key.as_ref().map(|k| k.iter().map(|(n, v)| (n.clone(), scalar(v))).collect());
        query.set_exclusive_start_key(start)
    }
}
