//! Whole items: an entity's serde fields and every key attribute in one map, read back the same
//! way, and the PutItem that writes one (refusing to overwrite if asked).

use std::fmt;

use aws_sdk_dynamodb::operation::put_item::builders::PutItemFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;
use serde_core::Serialize;
use serde_core::de::DeserializeOwned;

use crate::error::{DecodeError, EncodeError, QueryError};
use crate::table::entity::Entity;
use crate::table::rank::RankError;

use super::Attributes;
use super::multi::scalar;
use super::request::{Conditions, DeleteRequest, MoveRequest, PutRequest, UpdateRequest};

/// What went wrong writing or reading an entity's item; it names the entity.
#[derive(Clone, PartialEq, Eq)]
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
    /// A key read back (a page's `LastEvaluatedKey`) does not decode as the entity's keys.
    Decode(DecodeError),
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
    /// An update whose primary key is not the one the item was read under: a changed primary key
    /// is a move (`move_from`), not an update, which would create or change another item.
    PrimaryKeyChanged {
        /// The primary key read, `(partition, sort)` encoded.
        from: (String, String),
        /// The primary key of the new value.
        to: (String, String),
    },
    /// A create of an item whose key exists already.
    AlreadyExists,
    /// An update of an item that does not exist: nothing was written (an update never creates
    /// an item).
    Missing,
    /// The item's version is not the one this value was read at: someone wrote it meanwhile,
    /// and nothing was written (optimistic locking).
    VersionConflict {
        /// The version this value was read at.
        expected: u64,
    },
    /// A move whose old item changed since it was read, or whose new key exists: nothing moved.
    Changed,
    /// A page of a sharded partition's query asked of `query_page`, which reads one partition:
    /// it would be one shard's items of `shards`, so nothing is read.
    Sharded {
        /// The partition key's shard count.
        shards: u16,
    },
    /// A read across the layout versions of a key (`legacy`) that cannot say its condition on
    /// one of them (a key family, an older layout with no condition of the fields): nothing is
    /// read, rather than a page that could miss or wrongly hold an item.
    Query(QueryError),
    /// The entity's ranked field (`#[entity(rank(...))]`) does not fit its sort key, or its sort
    /// key has older layouts whose keys the counters cannot count: nothing is written.
    Rank(RankError),
    /// The request failed otherwise: the SDK's or the server's message.
    Request(String),
}

impl ItemError {
    pub(super) fn new(entity: &'static str, kind: ItemErrorKind) -> Self {
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
            ItemErrorKind::Decode(e) => write!(f, "{e}"),
            ItemErrorKind::Serde(m) => write!(f, "serde: {m}"),
            ItemErrorKind::PrimaryKeyChanged { from, to } => write!(
                f,
                "the primary key changed from {from:?} to {to:?}; expected the same key for an update (a changed \
                 key is a move: `move_from`)"
            ),
            ItemErrorKind::AlreadyExists => f.write_str("an item with its key exists already; expected none"),
            ItemErrorKind::Missing => f.write_str("no item has its key; an update never creates one"),
            ItemErrorKind::VersionConflict { expected } => write!(
                f,
                "the item is no longer at version {expected}: it was written meanwhile; read it again and retry"
            ),
            ItemErrorKind::Changed => {
                f.write_str("the old item changed since it was read, or the new key exists; nothing moved")
            }
            ItemErrorKind::Rank(e) => write!(f, "{e}"),
            ItemErrorKind::Request(m) => write!(f, "{m}"),
            ItemErrorKind::Query(e) => write!(f, "{e}"),
            ItemErrorKind::Sharded { shards } => write!(
                f,
                "its partition key has {shards} shards, and query_page reads one partition, so it would return one \
                 shard's items; expected dynamodb::query_merged, which reads them all as one partition"
            ),
            ItemErrorKind::Disagrees { attribute, key, serde } => write!(
                f,
                "the key writes the attribute `{attribute}` as {key} and serde writes it as {serde}; expected the \
                 same value from both, or the item would not read back (give the field's type the same names in \
                 its `KeySegment` and serde derives)"
            ),
        }
    }
}

impl fmt::Debug for ItemError {
    /// The parts and the message: what `main` prints when it returns the error.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ItemError")
            .field("entity", &self.entity)
            .field("kind", &self.kind)
            .field("message", &format_args!("{self}"))
            .finish()
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

    /// The PutItem of the item, as data: [`to_item`](Self::to_item) under the conditions of
    /// `mode` and, for an entity with a version, written at the next version and conditioned on
    /// the one this value was read at (on no item having its key, for version 0).
    fn put_request(&self, mode: PutMode) -> Result<PutRequest, ItemError>
    where
        Self: Serialize,
    {
        let mut item = self.to_item()?;
        let mut conditions = Conditions::default();
        let versioned = versioned(self, &mut item, &mut conditions);
        if matches!(mode, PutMode::Create) || versioned == Some(0) {
            conditions.names.push(("#e_pk".to_owned(), Self::KEYS.partition().to_owned()));
            conditions.all.push("attribute_not_exists(#e_pk)".to_owned());
        }
        Ok(PutRequest { item, conditions })
    }

    /// Sets the item on a PutItem: [`put_request`](Self::put_request) applied.
    fn apply_to_put(&self, put: PutItemFluentBuilder, mode: PutMode) -> Result<PutItemFluentBuilder, ItemError>
    where
        Self: Serialize,
    {
        Ok(self.put_request(mode)?.apply_to(put))
    }

    /// The UpdateItem that makes the stored item this value, as data: `SET` of every attribute of
    /// [`to_item`](Self::to_item) but the primary key (each once, so no two paths overlap),
    /// `REMOVE` of the attributes of the sparse indexes it leaves, on the condition that the item
    /// exists (an update never creates a partial item) and, with a version, that it is at the
    /// version read (then it writes the next).
    fn update_request(&self) -> Result<UpdateRequest, ItemError>
    where
        Self: Serialize,
    {
        let mut item = self.to_item()?;
        let mut conditions = Conditions::default();
        conditions.names.push(("#e_pk".to_owned(), Self::KEYS.partition().to_owned()));
        conditions.all.push("attribute_exists(#e_pk)".to_owned());
        versioned(self, &mut item, &mut conditions);
        let key = take_key::<Self>(&mut item);
        let mut set = Vec::with_capacity(item.len());
        for (i, (name, value)) in sorted(item).into_iter().enumerate() {
            set.push(format!("#e_s{i} = :e_s{i}"));
            conditions.names.push((format!("#e_s{i}"), name));
            conditions.values.push((format!(":e_s{i}"), value));
        }
        let keys = self.key_attributes().map_err(|e| ItemError::new(Self::NAME, ItemErrorKind::Encode(e)))?;
        let mut remove = Vec::new();
        for (i, name) in keys.absent().iter().enumerate() {
            remove.push(format!("#e_r{i}"));
            conditions.names.push((format!("#e_r{i}"), (*name).to_owned()));
        }
        Ok(UpdateRequest { key, set, remove, conditions })
    }

    /// The DeleteItem of the item, as data: its primary key, on the condition that the item
    /// exists and, with a version, that it is at the version this value was read at (so that a
    /// delete never removes what another writer wrote since the read).
    fn delete_request(&self) -> Result<DeleteRequest, ItemError> {
        let (partition, sort) = (Self::KEYS.partition(), Self::KEYS.sort());
        let mut key = self
            .primary_key()
            .to_attributes(Self::KEYS)
            .map_err(|e| ItemError::new(Self::NAME, ItemErrorKind::Encode(e)))?;
        key.retain(|name, _| name == partition || Some(name.as_str()) == sort);
        let mut conditions = Conditions::default();
        conditions.names.push(("#e_pk".to_owned(), partition.to_owned()));
        conditions.all.push("attribute_exists(#e_pk)".to_owned());
        if let (Some(attribute), Some(version)) = (Self::VERSION, self.version()) {
            conditions.names.push(("#e_v".to_owned(), attribute.to_owned()));
            conditions.all.push("#e_v = :e_v".to_owned());
            conditions.values.push((":e_v".to_owned(), AttributeValue::N(version.to_string())));
        }
        Ok(DeleteRequest { key, conditions })
    }

    /// The update of the item that was read as `old` to this value: an error of its own kind when
    /// the primary key changed, which is a move ([`move_from`](Self::move_from)), not an update.
    fn update_from(&self, old: &Self) -> Result<UpdateRequest, ItemError>
    where
        Self: Serialize,
    {
        let (from, to) = (primary(old)?, primary(self)?);
        if from != to {
            return Err(ItemError::new(Self::NAME, ItemErrorKind::PrimaryKeyChanged { from, to }));
        }
        self.update_request()
    }

    /// The move of the item that was read as `old` to this value under a changed primary key:
    /// in one transaction, the delete of the old item on the condition that it is as read, and
    /// the put of the new one on the condition that no item has its key.
    ///
    /// "As read" is exact with a version (the old item's version is the one read). Without
    /// one, it is every attribute `old` writes having the value read: DynamoDB cannot say that
    /// an item has no other attributes, so an attribute another writer added since the read is
    /// not seen, and is not carried over to the new item. Declare a version
    /// (`#[entity(version = field)]`) where that matters.
    fn move_from(&self, old: &Self) -> Result<MoveRequest, ItemError>
    where
        Self: Serialize,
    {
        let mut before = old.to_item()?;
        let mut conditions = Conditions::default();
        if versioned(old, &mut before, &mut conditions).is_none() {
            for (i, (name, value)) in sorted(before.clone()).into_iter().enumerate() {
                conditions.all.push(format!("#e_o{i} = :e_o{i}"));
                conditions.names.push((format!("#e_o{i}"), name));
                conditions.values.push((format!(":e_o{i}"), value));
            }
        }
        let delete = DeleteRequest { key: take_key::<Self>(&mut before), conditions };
        let mut item = self.to_item()?;
        // The new key carries on from the old item's version.
        if let (Some(attribute), Some(version)) = (Self::VERSION, old.version()) {
            item.insert(attribute.to_owned(), AttributeValue::N((version + 1).to_string()));
        }
        let mut conditions = Conditions::default();
        conditions.names.push(("#e_pk".to_owned(), Self::KEYS.partition().to_owned()));
        conditions.all.push("attribute_not_exists(#e_pk)".to_owned());
        Ok(MoveRequest { delete, put: PutRequest { item, conditions } })
    }
}

impl<E: Entity> EntityItem for E {}

/// For an entity with a version: writes the next version into `item`, conditions on the one
/// read (`attribute_not_exists` of the version attribute at version 0), and gives the version
/// read; `None` without one.
fn versioned<E: Entity>(entity: &E, item: &mut Attributes, conditions: &mut Conditions) -> Option<u64> {
    let (attribute, version) = (E::VERSION?, entity.version()?);
    item.insert(attribute.to_owned(), AttributeValue::N((version + 1).to_string()));
    conditions.names.push(("#e_v".to_owned(), attribute.to_owned()));
    match version {
        0 => conditions.all.push("attribute_not_exists(#e_v)".to_owned()),
        v => {
            conditions.all.push("#e_v = :e_v".to_owned());
            conditions.values.push((":e_v".to_owned(), AttributeValue::N(v.to_string())));
        }
    }
    Some(version)
}

/// Takes the primary key attributes out of `item`: the key of an update or a delete.
fn take_key<E: Entity>(item: &mut Attributes) -> Attributes {
    std::iter::once(E::KEYS.partition()).chain(E::KEYS.sort()).filter_map(|n| item.remove_entry(n)).collect()
}

/// An item's attributes by name, so that a request's placeholders are the same every time.
fn sorted(item: Attributes) -> Vec<(String, AttributeValue)> {
    let mut attributes: Vec<(String, AttributeValue)> = item.into_iter().collect();
    attributes.sort_by(|a, b| a.0.cmp(&b.0));
    attributes
}

/// An entity's primary key, encoded, for messages and comparisons.
fn primary<E: Entity>(entity: &E) -> Result<(String, String), ItemError> {
    entity.primary_key().encode().map_err(|e| ItemError::new(E::NAME, ItemErrorKind::Encode(e)))
}

/// An attribute value as messages show it: `"fast_lane" (S)`, `2025 (N)`.
fn shown(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(s) => format!("{s:?} (S)"),
        AttributeValue::N(n) => format!("{n} (N)"),
        other => format!("{other:?}"),
    }
}
