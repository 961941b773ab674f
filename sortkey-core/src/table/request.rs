//! Read and table requests as plain data, built without an SDK: a Query (of a table or an
//! index, composite or multi-attribute) with its typed values and start key, an item's key for
//! GetItem and DeleteItem, and a CreateTable. The `dynamodb` feature sets them on the SDK's
//! builders; a test, another SDK or a tool reads them as they are.

use crate::encoding::key::SortKey;
use crate::error::EncodeError;
use crate::table::definition::{Billing, Projection, TableDefinition};
use crate::table::entity::{Entity, IndexKeys, IndexNames};
use crate::table::index::{IndexKey, IndexQuery, MultiKey};
use crate::table::item::{ItemKey, KeyNames, PartitionQuery};
use crate::table::multi::{MultiCondition, ScalarType, ScalarValue};

/// Key attributes and their values: a `Key`, or where a page starts (`ExclusiveStartKey`).
pub type KeyValues = Vec<(String, ScalarValue)>;

/// A Query as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryRequest {
    /// `IndexName`, for a query of an index.
    pub index_name: Option<&'static str>,
    /// `KeyConditionExpression`.
    pub key_condition_expression: String,
    /// `ExpressionAttributeNames`: placeholder, attribute name.
    pub names: Vec<(String, String)>,
    /// `ExpressionAttributeValues`: placeholder, typed value.
    pub values: Vec<(String, ScalarValue)>,
    /// `ExclusiveStartKey`: where the page starts, after the previous page's last item.
    pub exclusive_start_key: Option<KeyValues>,
}

impl<P: SortKey, S: SortKey> ItemKey<P, S> {
    /// The item's key under `names`, as data: the `Key` of GetItem and DeleteItem (the
    /// partition alone for a key without a sort attribute).
    pub fn key_values(&self, names: KeyNames) -> Result<KeyValues, EncodeError> {
        let (pk, sk) = self.encode()?;
        let mut out = vec![(names.partition().to_owned(), ScalarValue::S(pk))];
        out.extend(names.sort().map(|n| (n.to_owned(), ScalarValue::S(sk))));
        Ok(out)
    }
}

impl<P: SortKey, S: SortKey> PartitionQuery<P, S> {
    /// The Query as data, starting after `start` (a page's last key) if given.
    pub fn request(&self, start: Option<&ItemKey<P, S>>) -> Result<QueryRequest, EncodeError> {
        let expr = self.expression();
        Ok(QueryRequest {
            index_name: None,
            key_condition_expression: expr.expression,
            names: expr.names,
            values: expr.values.into_iter().map(|(p, v)| (p, ScalarValue::S(v))).collect(),
            exclusive_start_key: start.map(|k| k.key_values(self.names())).transpose()?,
        })
    }
}

impl<E: Entity, P: SortKey, S: SortKey> IndexQuery<E, P, S> {
    /// The Query of the index as data, starting after `start` (index key and primary key).
    pub fn request(&self, start: Option<&IndexKey<E, P, S>>) -> Result<QueryRequest, EncodeError> {
        let mut request = self.partition_query().request(None)?;
        request.index_name = Some(self.index().name());
        if let Some(key) = start {
            let mut values = key.index.key_values(self.key_names())?;
            values.extend(key.primary.key_values(E::KEYS)?);
            request.exclusive_start_key = Some(values);
        }
        Ok(request)
    }
}

impl<E: Entity> MultiCondition<E> {
    /// The Query of the multi-attribute index as data, starting after `start` (every key
    /// attribute of the index and the primary key).
    pub fn request(&self, start: Option<&MultiKey<E>>) -> Result<QueryRequest, EncodeError> {
        let expr = self.expression();
        let start = match start {
            Some(key) => {
                let mut values = key.primary.key_values(E::KEYS)?;
                values.extend(key.index.iter().map(|(name, value)| ((*name).to_owned(), value.clone())));
                Some(values)
            }
            None => None,
        };
        Ok(QueryRequest {
            index_name: Some(self.index()),
            key_condition_expression: expr.expression,
            names: expr.names,
            values: self.values(),
            exclusive_start_key: start,
        })
    }
}

/// The role of an attribute in a key schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyType {
    /// The partition key (`HASH`).
    Hash,
    /// The sort key (`RANGE`).
    Range,
}

impl KeyType {
    /// `"HASH"` or `"RANGE"`, as DynamoDB writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            KeyType::Hash => "HASH",
            KeyType::Range => "RANGE",
        }
    }
}

/// A key schema: each attribute with its role, in order.
pub type KeySchema = Vec<(&'static str, KeyType)>;

/// One global secondary index of a CreateTable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexRequest {
    /// `IndexName`.
    pub name: &'static str,
    /// Its `KeySchema`: HASH attributes, then RANGE attributes.
    pub key_schema: KeySchema,
    /// What it projects.
    pub projection: Projection,
}

/// A CreateTable as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateTableRequest {
    /// `TableName`.
    pub table_name: String,
    /// `AttributeDefinitions`: every key attribute once, with its type.
    pub attribute_definitions: Vec<(&'static str, ScalarType)>,
    /// The table's `KeySchema`.
    pub key_schema: KeySchema,
    /// `GlobalSecondaryIndexes`.
    pub indexes: Vec<IndexRequest>,
    /// The billing mode (and the throughput of the table and each index, when provisioned).
    pub billing: Billing,
}

/// A key schema of two composite attributes, or of a partition attribute alone.
pub(crate) fn key_schema(keys: KeyNames) -> KeySchema {
    std::iter::once((keys.partition(), KeyType::Hash)).chain(keys.sort().map(|s| (s, KeyType::Range))).collect()
}

/// An index's key schema: HASH attributes, then RANGE attributes, in order.
pub(crate) fn index_schema(index: &IndexNames) -> KeySchema {
    match index.keys() {
        IndexKeys::Composite(keys) => key_schema(keys),
        IndexKeys::Multi(multi) => {
            let hash = multi.partition.iter().map(|(n, _)| (*n, KeyType::Hash));
            hash.chain(multi.sort.iter().map(|(n, _)| (*n, KeyType::Range))).collect()
        }
    }
}

impl TableDefinition {
    /// The CreateTable of the definition, as data.
    pub fn create_request(&self) -> CreateTableRequest {
        let indexes = self
            .indexes()
            .iter()
            .map(|i| IndexRequest {
                name: i.names.name(),
                key_schema: index_schema(&i.names),
                projection: i.projection.clone(),
            })
            .collect();
        CreateTableRequest {
            table_name: self.name().to_owned(),
            attribute_definitions: self.attribute_types(),
            key_schema: key_schema(self.keys()),
            indexes,
            billing: self.billing_mode(),
        }
    }
}
