//! The `dynamodb` feature: keys as `AttributeValue::S`, and conditions applied to a Query
//! builder of the official `aws-sdk-dynamodb` crate, so that no expression string is written by hand.
//!
//! ```no_run
//! # async fn run(client: aws_sdk_dynamodb::Client) -> Result<(), Box<dyn std::error::Error>> {
//! use aws_sdk_dynamodb::types::AttributeValue;
//! use sortkey_core::{SortKey, dynamodb::KeyAttribute};
//!
//! #[derive(SortKey, Debug, Clone, PartialEq)]
//! #[key(prefix = "RUN")]
//! struct RankKey {
//!     #[key(width = 10, desc)]
//!     score: u64,
//!     #[key(width = 16)]
//!     timestamp: u64,
//!     player_id: String,
//! }
//!
//! let key = RankKey { score: 1500, timestamp: 1719100800, player_id: "p_8842".into() };
//! client
//!     .put_item()
//!     .table_name("runs")
//!     .item("pk", AttributeValue::S("SEASON#7".into()))
//!     .item("sk", key.to_attribute_value()?)
//!     .send()
//!     .await?;
//!
//! let top = RankKey::query().score_gte(1000)?;
//! let page = top
//!     .apply_to_query(client.query().table_name("runs"), "pk", AttributeValue::S("SEASON#7".into()), "sk")
//!     .send()
//!     .await?;
//! for item in page.items() {
//!     let run = RankKey::from_attribute_value(&item["sk"])?;
//!     println!("{run:?}");
//! }
//! # Ok(())
//! # }
//! ```

use std::collections::HashMap;

use aws_sdk_dynamodb::operation::query::QueryOutput;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::operation::update_item::builders::UpdateItemFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::condition::KeyCondition;
use crate::entity::{Entity, EntityKeys, KeyUpdate};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::item::{ItemKey, KeyNames, PartitionQuery};
use crate::key::{DecodeKey, SortKey};

/// An item, a `Key` or a page cursor, as the SDK holds them.
pub type Attributes = HashMap<String, AttributeValue>;

/// A sort key as a DynamoDB attribute value of type `S`. Implemented for every [`SortKey`].
pub trait KeyAttribute: SortKey + Sized {
    /// The encoded key as `AttributeValue::S`.
    fn to_attribute_value(&self) -> Result<AttributeValue, EncodeError> {
        self.encode().map(AttributeValue::S)
    }

    /// Decodes an `AttributeValue::S`; any other type is a [`DecodeError`] at offset 0.
    fn from_attribute_value(value: &AttributeValue) -> Result<Self, DecodeError>
    where
        Self: for<'k> DecodeKey<'k>,
    {
        match value {
            AttributeValue::S(s) => Self::decode(s),
            other => Err(DecodeError::new(
                std::any::type_name::<Self>(),
                None,
                0,
                crate::error::DecodeErrorKind::NotAString,
                "a string attribute value (S)",
                attribute_type(other),
            )),
        }
    }
}

impl<T: SortKey> KeyAttribute for T {}

/// The DynamoDB type letter of a value, for errors.
fn attribute_type(value: &AttributeValue) -> &'static str {
    match value {
        AttributeValue::B(_) => "a binary value (B)",
        AttributeValue::Bool(_) => "a boolean (BOOL)",
        AttributeValue::Bs(_) => "a binary set (BS)",
        AttributeValue::L(_) => "a list (L)",
        AttributeValue::M(_) => "a map (M)",
        AttributeValue::N(_) => "a number (N)",
        AttributeValue::Ns(_) => "a number set (NS)",
        AttributeValue::Null(_) => "NULL",
        AttributeValue::S(_) => "a string (S)",
        AttributeValue::Ss(_) => "a string set (SS)",
        _ => "an unknown attribute type",
    }
}

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

impl<P: SortKey, S: SortKey> ItemKey<P, S> {
    /// The item's key as an attribute map under `names`: the `Key` of GetItem and DeleteItem, an
    /// `ExclusiveStartKey`, or the key attributes to merge into an item for PutItem.
    pub fn to_attributes(&self, names: KeyNames) -> Result<Attributes, EncodeError> {
        let (pk, sk) = self.encode()?;
        Ok(HashMap::from([
            (names.partition().to_owned(), AttributeValue::S(pk)),
            (names.sort().to_owned(), AttributeValue::S(sk)),
        ]))
    }

    /// Decodes the key attributes `names` of an item, a `Key` or a `LastEvaluatedKey` strictly;
    /// other attributes are ignored. A missing attribute is a `MissingAttribute` error and one
    /// of another type than `S` a `NotAString` error, each naming the attribute.
    pub fn from_attributes(item: &Attributes, names: KeyNames) -> Result<Self, DecodeError>
    where
        P: for<'k> DecodeKey<'k>,
        S: for<'k> DecodeKey<'k>,
    {
        Ok(ItemKey { partition: attribute(item, names.partition())?, sort: attribute(item, names.sort())? })
    }
}

/// The key type `T` in the attribute `name` of `item`.
fn attribute<T: SortKey + for<'k> DecodeKey<'k>>(item: &Attributes, name: &'static str) -> Result<T, DecodeError> {
    match item.get(name) {
        Some(AttributeValue::S(s)) => T::decode(s),
        Some(other) => Err(DecodeError::new(
            std::any::type_name::<T>(),
            None,
            0,
            DecodeErrorKind::NotAString,
            format!("the attribute `{name}` as a string (S)"),
            attribute_type(other),
        )),
        None => Err(DecodeError::new(
            std::any::type_name::<T>(),
            None,
            0,
            DecodeErrorKind::MissingAttribute,
            format!("the attribute `{name}`"),
            "no such attribute",
        )),
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
        let expr = self.expression();
        let query = expr
            .names
            .into_iter()
            .fold(query.key_condition_expression(expr.expression), |q, (p, n)| q.expression_attribute_names(p, n));
        let query =
            expr.values.into_iter().fold(query, |q, (p, v)| q.expression_attribute_values(p, AttributeValue::S(v)));
        Ok(match start {
            Some(key) => query.set_exclusive_start_key(Some(key.to_attributes(self.names())?)),
            None => query,
        })
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

impl EntityKeys {
    /// Every key attribute of the item as `S` attributes: merged into the item of a PutItem (for
    /// example over a `serde_dynamo::to_item` map of its other fields), they write every index
    /// key the item belongs to.
    pub fn to_item(&self) -> Attributes {
        self.present().iter().map(|(name, value)| ((*name).to_owned(), AttributeValue::S(value.clone()))).collect()
    }
}

impl KeyUpdate {
    /// Sets `UpdateExpression` on an UpdateItem to the key part with the caller's own `set`
    /// assignments and `remove` attributes (their placeholders the caller adds to the builder),
    /// and adds the key part's names and values.
    pub fn apply_to_update(
        &self,
        update: UpdateItemFluentBuilder,
        set: &[&str],
        remove: &[&str],
    ) -> UpdateItemFluentBuilder {
        let update = update.update_expression(self.expression_with(set, remove));
        let update = self.names.iter().fold(update, |u, (p, n)| u.expression_attribute_names(p, n));
        self.values.iter().fold(update, |u, (p, v)| u.expression_attribute_values(p, AttributeValue::S(v.clone())))
    }
}

/// The `Key` of an entity's item: its primary key under the entity's attribute names.
pub fn entity_key<E: Entity>(entity: &E) -> Result<Attributes, EncodeError> {
    entity.primary_key().to_attributes(E::KEYS)
}
