//! Keys as attributes: a key type as an `S` value, an item key as an attribute map and back.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::encoding::key::{DecodeKey, SortKey};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::table::item::{ItemKey, KeyNames};

use super::Attributes;

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
pub(super) fn attribute_type(value: &AttributeValue) -> &'static str {
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

impl<P: SortKey, S: SortKey> ItemKey<P, S> {
    /// The item's key as an attribute map under `names`: the `Key` of GetItem and DeleteItem, an
    /// `ExclusiveStartKey`, or the key attributes to merge into an item for PutItem.
    pub fn to_attributes(&self, names: KeyNames) -> Result<Attributes, EncodeError> {
        let (pk, sk) = self.encode()?;
        let mut out = HashMap::from([(names.partition().to_owned(), AttributeValue::S(pk))]);
        if let Some(sort) = names.sort() {
            out.insert(sort.to_owned(), AttributeValue::S(sk));
        }
        Ok(out)
    }

    /// Decodes the key attributes `names` of an item, a `Key` or a `LastEvaluatedKey` strictly
    /// (the partition alone when `names` has no sort attribute);
    /// other attributes are ignored. A missing attribute is a `MissingAttribute` error and one
    /// of another type than `S` a `NotAString` error, each naming the attribute.
    pub fn from_attributes(item: &Attributes, names: KeyNames) -> Result<Self, DecodeError>
    where
        P: for<'k> DecodeKey<'k>,
        S: for<'k> DecodeKey<'k>,
    {
        let sort = match names.sort() {
            Some(name) => attribute(item, name)?,
            // A key of a partition key alone: its sort type is `NoSort`, which reads nothing.
            None => S::decode("")?,
        };
        Ok(ItemKey { partition: attribute(item, names.partition())?, sort })
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
