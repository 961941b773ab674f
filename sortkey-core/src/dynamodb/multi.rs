//! Multi-attribute index keys: typed values as attribute values, a multi-attribute condition
//! on a Query builder, its pages read back.

use aws_sdk_dynamodb::operation::query::QueryOutput;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::encoding::key::DecodeKey;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::table::entity::Entity;
use crate::table::index::MultiKey;
use crate::table::item::ItemKey;
use crate::table::multi::{MultiCondition, ScalarType, ScalarValue};

use super::Attributes;
use super::keys::attribute_type;

/// A key attribute value as the SDK's `AttributeValue`.
pub(super) fn scalar(value: &ScalarValue) -> AttributeValue {
    match value {
        ScalarValue::S(s) => AttributeValue::S(s.clone()),
        ScalarValue::N(n) => AttributeValue::N(n.clone()),
    }
}

impl From<&ScalarValue> for AttributeValue {
    fn from(value: &ScalarValue) -> Self {
        scalar(value)
    }
}

impl ScalarValue {
    /// The value of an `S` or `N` attribute; `None` for another type.
    pub fn from_attribute_value(value: &AttributeValue) -> Option<ScalarValue> {
        match value {
            AttributeValue::S(s) => Some(ScalarValue::S(s.clone())),
            AttributeValue::N(n) => Some(ScalarValue::N(n.clone())),
            _ => None,
        }
    }
}

impl<E: Entity> MultiCondition<E> {
    /// Sets `IndexName` and the multi-attribute `KeyConditionExpression` with its names and
    /// typed values and, to resume after a page, `ExclusiveStartKey` from `start` (a key
    /// [`next_start`](Self::next_start) gave: every key attribute of the index and the primary
    /// key). An error when the primary key of `start` cannot be encoded.
    pub fn apply_to_query(
        &self,
        query: QueryFluentBuilder,
        start: Option<&MultiKey<E>>,
    ) -> Result<QueryFluentBuilder, EncodeError> {
        Ok(self.request(start)?.apply_to(query))
    }

    /// The typed keys (index attributes and primary key) of the items of a page, in the order
    /// DynamoDB returned them.
    pub fn keys(&self, page: &QueryOutput) -> Result<Vec<MultiKey<E>>, DecodeError>
    where
        E::Partition: for<'k> DecodeKey<'k>,
        E::Sort: for<'k> DecodeKey<'k>,
    {
        page.items().iter().map(|item| self.key(item)).collect()
    }

    /// Where the next page starts: the page's `LastEvaluatedKey` (index attributes and primary
    /// key), decoded and type-checked; `None` after the last page.
    pub fn next_start(&self, page: &QueryOutput) -> Result<Option<MultiKey<E>>, DecodeError>
    where
        E::Partition: for<'k> DecodeKey<'k>,
        E::Sort: for<'k> DecodeKey<'k>,
    {
        page.last_evaluated_key().filter(|k| !k.is_empty()).map(|key| self.key(key)).transpose()
    }

    pub(super) fn key(&self, item: &Attributes) -> Result<MultiKey<E>, DecodeError>
    where
        E::Partition: for<'k> DecodeKey<'k>,
        E::Sort: for<'k> DecodeKey<'k>,
    {
        let keys = self.attributes();
        let index = keys
            .partition
            .iter()
            .chain(keys.sort)
            .map(|&(name, ty)| Ok((name, scalar_attribute(item, E::NAME, self.index(), name, ty)?)))
            .collect::<Result<_, DecodeError>>()?;
        Ok(MultiKey { index, primary: ItemKey::from_attributes(item, E::KEYS)? })
    }

    /// Whether `item` is in the query's result, by DynamoDB's rules.
    pub fn matches_item(&self, item: &Attributes) -> bool {
        let values: Vec<(&str, ScalarValue)> =
            item.iter().filter_map(|(k, v)| Some((k.as_str(), ScalarValue::from_attribute_value(v)?))).collect();
        self.matches(|name| values.iter().find(|(n, _)| *n == name).map(|(_, v)| v))
    }
}

/// The attribute `name` of the multi-attribute index `index` of `entity` in `item`, of the type
/// `ty`: a missing one is a `MissingAttribute` error, one of another type a `NotAString` error
/// (for `S`) or a `NotANumber` one (for `N`), each naming the attribute and the index.
fn scalar_attribute(
    item: &Attributes,
    entity: &'static str,
    index: &'static str,
    name: &'static str,
    ty: ScalarType,
) -> Result<ScalarValue, DecodeError> {
    let (kind, expected) = match ty {
        ScalarType::S => (DecodeErrorKind::NotAString, "a string (S)"),
        ScalarType::N => (DecodeErrorKind::NotANumber, "a number (N)"),
    };
    let error = |kind, expected: String, found: &str| DecodeError::new(entity, None, 0, kind, expected, found);
    match (item.get(name), ty) {
        (Some(AttributeValue::S(s)), ScalarType::S) => Ok(ScalarValue::S(s.clone())),
        (Some(AttributeValue::N(n)), ScalarType::N) => Ok(ScalarValue::N(n.clone())),
        (Some(other), _) => {
            Err(error(kind, format!("the attribute `{name}` of index `{index}` as {expected}"), attribute_type(other)))
        }
        (None, _) => Err(error(
            DecodeErrorKind::MissingAttribute,
            format!("the attribute `{name}` of index `{index}`"),
            "no such attribute",
        )),
    }
}
