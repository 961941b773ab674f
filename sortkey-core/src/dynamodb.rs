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

use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::condition::KeyCondition;
use crate::error::{DecodeError, EncodeError};
use crate::key::{DecodeKey, SortKey};

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
