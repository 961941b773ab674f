//! Whole items: an entity's serde fields and every key attribute in one map, read back the same
//! way, and the PutItem that writes one (refusing to overwrite if asked).

use std::fmt;

use aws_sdk_dynamodb::operation::put_item::builders::PutItemFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;
use serde_core::Serialize;
use serde_core::de::DeserializeOwned;

use crate::error::EncodeError;
use crate::table::entity::Entity;

use super::Attributes;
use super::multi::scalar;

/// What went wrong writing or reading an entity's item; it names the entity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemError {
    entity: &'static str,
    kind: ItemErrorKind,
}

/// The kind of an [`ItemError`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ItemErrorKind {
    /// A key of the item cannot be encoded.
    Encode(EncodeError),
    /// serde cannot write the entity as an item, or read one back: serde_dynamo's message.
    Serde(String),
    /// A key attribute that serde writes too, with another value (a multi-attribute key's enum
    /// field whose `KeySegment` name is not its serde name, say): the item would not read back,
    /// so it is not written.
    Disagrees {
        /// The attribute.
        attribute: String,
        /// What the key writes.
        key: String,
        /// What serde writes.
        serde: String,
    },
}

impl ItemError {
    fn new(entity: &'static str, kind: ItemErrorKind) -> Self {
        ItemError { entity, kind }
    }

    /// The entity's name.
    pub fn entity(&self) -> &'static str {
        self.entity
    }

    /// What went wrong.
    pub fn kind(&self) -> &ItemErrorKind {
        &self.kind
    }
}

impl fmt::Display for ItemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "item of entity `{}`: ", self.entity)?;
        match &self.kind {
            ItemErrorKind::Encode(e) => write!(f, "{e}"),
            ItemErrorKind::Serde(m) => write!(f, "serde: {m}"),
            ItemErrorKind::Disagrees { attribute, key, serde } => write!(
                f,
                "the key writes the attribute `{attribute}` as {key} and serde writes it as {serde}; expected the \
                 same value from both, or the item would not read back (give the field's type the same names in \
                 its `KeySegment` and serde derives)"
            ),
        }
    }
}

impl std::error::Error for ItemError {}

/// Whether a PutItem may replace an item under the same primary key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PutMode {
    /// Write the item whether or not one exists under its key (DynamoDB's default).
    Overwrite,
    /// Write it only if no item has its key (`attribute_not_exists` on the partition key): a
    /// second create of one entity fails with `ConditionalCheckFailed`.
    Create,
}

/// An entity's whole item: its serde fields and every key attribute. Implemented for every
/// [`Entity`] that serde can write (and read back).
pub trait EntityItem: Entity + Sized {
    /// The item: the entity's fields as `serde_dynamo` writes them, every key attribute
    /// (primary and every index the entity is in), and no attribute of a sparse index it is
    /// absent from (never `NULL`, never `""`). A key attribute that serde writes too must have
    /// the key's value, or the item would not read back: then an error naming it.
    fn to_item(&self) -> Result<Attributes, ItemError>
    where
        Self: Serialize,
    {
        let mut item: Attributes = serde_dynamo::aws_sdk_dynamodb_1::to_item(self)
            .map_err(|e| ItemError::new(Self::NAME, ItemErrorKind::Serde(e.to_string())))?;
        let keys = self.key_attributes().map_err(|e| ItemError::new(Self::NAME, ItemErrorKind::Encode(e)))?;
        for (name, value) in keys.present() {
            let key = scalar(value);
            match item.get(*name) {
                Some(written) if *written != key => {
                    let kind = ItemErrorKind::Disagrees {
                        attribute: (*name).to_owned(),
                        key: shown(&key),
                        serde: shown(written),
                    };
                    return Err(ItemError::new(Self::NAME, kind));
                }
                _ => {}
            }
        }
        keys.write_into(&mut item);
        Ok(item)
    }

    /// The entity an item holds, through serde (the key attributes it does not name are
    /// ignored, as serde ignores unknown fields unless told otherwise).
    fn from_item(item: &Attributes) -> Result<Self, ItemError>
    where
        Self: DeserializeOwned,
    {
        serde_dynamo::aws_sdk_dynamodb_1::from_item(item.clone())
            .map_err(|e| ItemError::new(Self::NAME, ItemErrorKind::Serde(e.to_string())))
    }

    /// Sets the table's item on a PutItem: [`to_item`](Self::to_item), and with
    /// [`PutMode::Create`] the condition that no item has its key.
    fn apply_to_put(&self, put: PutItemFluentBuilder, mode: PutMode) -> Result<PutItemFluentBuilder, ItemError>
    where
        Self: Serialize,
    {
        let put = put.set_item(Some(self.to_item()?));
        Ok(match mode {
            PutMode::Overwrite => put,
            PutMode::Create => put
                .condition_expression("attribute_not_exists(#pk)")
                .expression_attribute_names("#pk", Self::KEYS.partition()),
        })
    }
}

impl<E: Entity> EntityItem for E {}

/// An attribute value as messages show it: `"fast_lane" (S)`, `2025 (N)`.
fn shown(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(s) => format!("{s:?} (S)"),
        AttributeValue::N(n) => format!("{n} (N)"),
        other => format!("{other:?}"),
    }
}
