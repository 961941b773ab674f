//! The `dynamodb` feature: keys as `AttributeValue::S`, and conditions applied to a Query
//! builder of the official `aws-sdk-dynamodb` crate, so that no expression string is written by hand.
//!
//! ```no_run
//! # async fn run(client: aws_sdk_dynamodb::Client) -> Result<(), Box<dyn std::error::Error>> {
//! use aws_sdk_dynamodb::types::{self as ddb, AttributeValue};
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

use aws_sdk_dynamodb::error::BuildError;
use aws_sdk_dynamodb::operation::create_table::builders::CreateTableFluentBuilder;
use aws_sdk_dynamodb::operation::query::QueryOutput;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::operation::update_item::builders::UpdateItemFluentBuilder;
use aws_sdk_dynamodb::types::{self as ddb, AttributeValue};

use crate::encoding::key::{DecodeKey, SortKey};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
pub use crate::migrate::backfill::{Backfill, BackfillError, BackfillErrorKind, Progress, SegmentCursor};
use crate::query::condition::KeyCondition;
use crate::table::definition::{Billing, Projection, TableDefinition};
use crate::table::entity::{Entity, EntityKeys, IndexKeys, KeyUpdate};
use crate::table::index::{IndexKey, IndexQuery, MultiKey};
use crate::table::item::{ItemKey, KeyNames, PartitionQuery};
use crate::table::multi::{MultiCondition, ScalarType, ScalarValue};

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
        self.present().iter().map(|(name, value)| ((*name).to_owned(), scalar(value))).collect()
    }

    /// Writes the key attributes into `item` (a `serde_dynamo::to_item` map of the entity, say)
    /// and removes from it the attributes of the indexes the item is absent from, so that no
    /// `NULL` or stale value is left where an index expects a key.
    pub fn write_into(&self, item: &mut Attributes) {
        for name in self.absent() {
            item.remove(*name);
        }
        item.extend(self.to_item());
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
        self.values.iter().fold(update, |u, (p, v)| u.expression_attribute_values(p, scalar(v)))
    }
}

/// The `Key` of an entity's item: its primary key under the entity's attribute names.
pub fn entity_key<E: Entity>(entity: &E) -> Result<Attributes, EncodeError> {
    entity.primary_key().to_attributes(E::KEYS)
}

impl TableDefinition {
    /// Sets the table's name, `AttributeDefinitions`, `KeySchema`, global secondary indexes
    /// (with their key schema and projection) and billing mode on a CreateTable.
    pub fn apply_to_create(&self, create: CreateTableFluentBuilder) -> Result<CreateTableFluentBuilder, BuildError> {
        let mut create = create.table_name(self.name());
        for (name, t) in self.attribute_types() {
            let def = ddb::AttributeDefinition::builder()
                .attribute_name(name)
                .attribute_type(scalar_attribute_type(t))
                .build()?;
            create = create.attribute_definitions(def);
        }
        for key in key_schema(self.keys())? {
            create = create.key_schema(key);
        }
        let throughput = match self.billing_mode() {
            Billing::PayPerRequest => {
                create = create.billing_mode(ddb::BillingMode::PayPerRequest);
                None
            }
            Billing::Provisioned { read, write } => {
                let t = ddb::ProvisionedThroughput::builder()
                    .read_capacity_units(read)
                    .write_capacity_units(write)
                    .build()?;
                create = create.billing_mode(ddb::BillingMode::Provisioned).provisioned_throughput(t.clone());
                Some(t)
            }
        };
        for index in self.indexes() {
            let projection = match &index.projection {
                Projection::All => ddb::Projection::builder().projection_type(ddb::ProjectionType::All).build(),
                Projection::KeysOnly => {
                    ddb::Projection::builder().projection_type(ddb::ProjectionType::KeysOnly).build()
                }
                Projection::Include(attrs) => ddb::Projection::builder()
                    .projection_type(ddb::ProjectionType::Include)
                    .set_non_key_attributes(Some(attrs.clone()))
                    .build(),
            };
            let gsi = ddb::GlobalSecondaryIndex::builder()
                .index_name(index.names.name())
                .set_key_schema(Some(index_schema(&index.names)?))
                .projection(projection)
                .set_provisioned_throughput(throughput.clone())
                .build()?;
            create = create.global_secondary_indexes(gsi);
        }
        Ok(create)
    }

    /// How a described table differs from this definition: its key schema, attribute types and
    /// indexes (their key schema and projection type); empty when it matches. A check for a
    /// deployed table, or one created from this definition.
    pub fn differences(&self, table: &ddb::TableDescription) -> Vec<String> {
        let mut out = Vec::new();
        let schema = |keys: &[ddb::KeySchemaElement]| -> Vec<(String, String)> {
            keys.iter().map(|k| (k.attribute_name().to_owned(), k.key_type().as_str().to_owned())).collect()
        };
        let want = |k: KeyNames| {
            vec![(k.partition().to_owned(), "HASH".to_owned()), (k.sort().to_owned(), "RANGE".to_owned())]
        };
        if schema(table.key_schema()) != want(self.keys()) {
            out.push(format!("key schema: expected {:?}, found {:?}", want(self.keys()), schema(table.key_schema())));
        }
        for (name, t) in self.attribute_types() {
            let found = table.attribute_definitions().iter().find(|d| d.attribute_name() == name);
            match found.map(|d| d.attribute_type().as_str()) {
                Some(x) if x == t.as_str() => {}
                other => out.push(format!("attribute `{name}`: expected type {}, found {other:?}", t.as_str())),
            }
        }
        let gsis = table.global_secondary_indexes();
        for index in self.indexes() {
            let Some(found) = gsis.iter().find(|g| g.index_name() == Some(index.names.name())) else {
                out.push(format!("index `{}`: expected it, found none", index.names.name()));
                continue;
            };
            let expected: Vec<(String, String)> = match index_schema(&index.names) {
                Ok(keys) => schema(&keys),
                Err(e) => vec![(e.to_string(), String::new())],
            };
            if schema(found.key_schema()) != expected {
                out.push(format!(
                    "index `{}` key schema: expected {expected:?}, found {:?}",
                    index.names.name(),
                    schema(found.key_schema())
                ));
            }
            let expected = match index.projection {
                Projection::All => "ALL",
                Projection::KeysOnly => "KEYS_ONLY",
                Projection::Include(_) => "INCLUDE",
            };
            let projected = found.projection().and_then(|p| p.projection_type()).map(|t| t.as_str());
            if projected != Some(expected) {
                out.push(format!(
                    "index `{}` projection: expected {expected}, found {projected:?}",
                    index.names.name()
                ));
            }
        }
        for g in gsis {
            let name = g.index_name().unwrap_or_default();
            if !self.indexes().iter().any(|i| i.names.name() == name) {
                out.push(format!("index `{name}`: not in the definition, found in the table"));
            }
        }
        out
    }
}

/// An index's key schema: HASH attributes, then RANGE attributes, in order.
fn index_schema(index: &crate::table::entity::IndexNames) -> Result<Vec<ddb::KeySchemaElement>, BuildError> {
    let multi = match index.keys() {
        IndexKeys::Composite(keys) => return key_schema(keys),
        IndexKeys::Multi(multi) => multi,
    };
    let hash = multi.partition.iter().map(|(n, _)| (n, ddb::KeyType::Hash));
    let range = multi.sort.iter().map(|(n, _)| (n, ddb::KeyType::Range));
    hash.chain(range).map(|(n, t)| ddb::KeySchemaElement::builder().attribute_name(*n).key_type(t).build()).collect()
}

fn key_schema(keys: KeyNames) -> Result<Vec<ddb::KeySchemaElement>, BuildError> {
    Ok(vec![
        ddb::KeySchemaElement::builder().attribute_name(keys.partition()).key_type(ddb::KeyType::Hash).build()?,
        ddb::KeySchemaElement::builder().attribute_name(keys.sort()).key_type(ddb::KeyType::Range).build()?,
    ])
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
        let query = self.partition_query().apply_to_query(query.index_name(self.index().name()), None)?;
        Ok(match start {
            Some(key) => {
                let mut attrs = key.index.to_attributes(self.key_names())?;
                attrs.extend(key.primary.to_attributes(E::KEYS)?);
                query.set_exclusive_start_key(Some(attrs))
            }
            None => query,
        })
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

    fn key(&self, item: &Attributes) -> Result<IndexKey<E, P, S>, DecodeError> {
        Ok(IndexKey {
            index: ItemKey::from_attributes(item, self.key_names())?,
            primary: ItemKey::from_attributes(item, E::KEYS)?,
        })
    }
}

/// A key attribute value as the SDK's `AttributeValue`.
fn scalar(value: &ScalarValue) -> AttributeValue {
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
        let expr = self.expression();
        let query = query.index_name(self.index()).key_condition_expression(expr.expression);
        let query = expr.names.into_iter().fold(query, |q, (p, n)| q.expression_attribute_names(p, n));
        let query = self.values().into_iter().fold(query, |q, (p, v)| q.expression_attribute_values(p, scalar(&v)));
        Ok(match start {
            Some(key) => {
                let mut attrs = key.primary.to_attributes(E::KEYS)?;
                attrs.extend(key.index.iter().map(|(name, value)| ((*name).to_owned(), scalar(value))));
                query.set_exclusive_start_key(Some(attrs))
            }
            None => query,
        })
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

    fn key(&self, item: &Attributes) -> Result<MultiKey<E>, DecodeError>
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

fn scalar_attribute_type(t: ScalarType) -> ddb::ScalarAttributeType {
    match t {
        ScalarType::S => ddb::ScalarAttributeType::S,
        ScalarType::N => ddb::ScalarAttributeType::N,
    }
}
