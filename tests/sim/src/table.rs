//! A table held in memory: its key schema, its global secondary indexes, and its items by
//! partition key and sort key in DynamoDB's order; the reads a Query and a Scan make of it.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::error::DynamoError;
use crate::value::{Item, KeyVal, item_size};

/// A key schema: the partition key attribute and the sort key's, if any.
#[derive(Debug, Clone)]
pub(crate) struct Keys {
    pub(crate) partition: String,
    pub(crate) sort: Option<String>,
}

impl Keys {
    /// Reads a `KeySchema`.
    pub(crate) fn read(schema: &Value) -> Result<Keys, DynamoError> {
        let mut partition = None;
        let mut sort = None;
        for element in schema.as_array().into_iter().flatten() {
            let name = element["AttributeName"].as_str().map(str::to_owned);
            match element["KeyType"].as_str() {
                Some("HASH") => partition = name,
                Some("RANGE") => sort = name,
                _ => {}
            }
        }
        let partition =
            partition.ok_or_else(|| DynamoError::validation("Invalid KeySchema: no HASH key".to_owned()))?;
        Ok(Keys { partition, sort })
    }

    fn schema(&self) -> Value {
        let mut out = vec![json!({"AttributeName": self.partition, "KeyType": "HASH"})];
        if let Some(sort) = &self.sort {
            out.push(json!({"AttributeName": sort, "KeyType": "RANGE"}));
        }
        Value::Array(out)
    }

    /// The item's key values under this schema: `None` when it lacks one.
    pub(crate) fn of(&self, item: &Item) -> Option<(KeyVal, KeyVal)> {
        let pk = KeyVal::of(item.get(&self.partition)?)?;
        let sk = match &self.sort {
            Some(sort) => KeyVal::of(item.get(sort)?)?,
            None => KeyVal::Unit,
        };
        Some((pk, sk))
    }

    /// The key attributes of `item`.
    pub(crate) fn key_of(&self, item: &Item) -> Item {
        let mut key = Item::new();
        for name in std::iter::once(&self.partition).chain(self.sort.as_ref()) {
            if let Some(v) = item.get(name) {
                key.insert(name.clone(), v.clone());
            }
        }
        key
    }

    pub(crate) fn names(&self) -> impl Iterator<Item = &String> {
        std::iter::once(&self.partition).chain(self.sort.as_ref())
    }
}

/// A global secondary index.
#[derive(Debug, Clone)]
pub(crate) struct Index {
    pub(crate) name: String,
    pub(crate) keys: Keys,
    projection: Value,
}

/// A table.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    pub(crate) name: String,
    pub(crate) keys: Keys,
    definitions: Value,
    pub(crate) indexes: Vec<Index>,
    /// Items by partition key, then sort key.
    pub(crate) items: BTreeMap<KeyVal, BTreeMap<KeyVal, Item>>,
}

/// What one page of a Query or a Scan read.
pub(crate) struct PageRead {
    pub(crate) items: Vec<Item>,
    pub(crate) last: Option<Item>,
    /// The bytes of the items read (the capacity a read is charged for).
    pub(crate) bytes: usize,
}

/// An item's place in a Scan: the hash of its partition key, then its keys.
type Place = (u64, Vec<KeyVal>);

/// DynamoDB's page: a Query or a Scan stops after reading 1 MB.
const PAGE_BYTES: usize = 1024 * 1024;

impl Table {
    /// The table a `CreateTable` request describes.
    pub(crate) fn create(request: &Value) -> Result<Table, DynamoError> {
        let name = request["TableName"].as_str().unwrap_or_default().to_owned();
        let keys = Keys::read(&request["KeySchema"])?;
        let definitions = request["AttributeDefinitions"].clone();
        let defined = |n: &str| definitions.as_array().into_iter().flatten().any(|d| d["AttributeName"] == n);
        let mut indexes = Vec::new();
        for gsi in request["GlobalSecondaryIndexes"].as_array().into_iter().flatten() {
            let keys = Keys::read(&gsi["KeySchema"])?;
            let name = gsi["IndexName"].as_str().unwrap_or_default().to_owned();
            indexes.push(Index { name, keys, projection: gsi["Projection"].clone() });
        }
        for key in std::iter::once(&keys).chain(indexes.iter().map(|i| &i.keys)) {
            if let Some(missing) = key.names().find(|n| !defined(n)) {
                return Err(DynamoError::validation(format!(
                    "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [{missing}], AttributeDefinitions: [{}]",
                    definitions
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|d| d["AttributeName"].as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        }
        Ok(Table { name, keys, definitions, indexes, items: BTreeMap::new() })
    }

    /// DescribeTable's `Table`.
    pub(crate) fn describe(&self) -> Value {
        let count = self.items.values().map(BTreeMap::len).sum::<usize>();
        let bytes = self.items.values().flat_map(BTreeMap::values).map(item_size).sum::<usize>();
        let mut table = json!({
            "TableName": self.name,
            "TableArn": format!("arn:aws:dynamodb:us-east-1:123456789012:table/{}", self.name),
            "TableStatus": "ACTIVE",
            "KeySchema": self.keys.schema(),
            "AttributeDefinitions": self.definitions,
            "ItemCount": count,
            "TableSizeBytes": bytes,
            "CreationDateTime": 0,
            "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST"},
        });
        if !self.indexes.is_empty() {
            table["GlobalSecondaryIndexes"] = Value::Array(
                self.indexes
                    .iter()
                    .map(|i| {
                        json!({
                            "IndexName": i.name,
                            "KeySchema": i.keys.schema(),
                            "Projection": i.projection,
                            "IndexStatus": "ACTIVE",
                            "ItemCount": self.index_items(i).count(),
                        })
                    })
                    .collect(),
            );
        }
        table
    }

    /// The key schema of the index `name`, or the table's.
    pub(crate) fn keys_of(&self, index: Option<&str>) -> Result<(&Keys, Option<&Index>), DynamoError> {
        match index {
            None => Ok((&self.keys, None)),
            Some(name) => match self.indexes.iter().find(|i| i.name == name) {
                Some(i) => Ok((&i.keys, Some(i))),
                None => Err(DynamoError::validation(format!("The table does not have the specified index: {name}"))),
            },
        }
    }

    /// The items an index holds (those with its key attributes), as it projects them.
    fn index_items<'a>(&'a self, index: &'a Index) -> impl Iterator<Item = Item> + 'a {
        self.items.values().flat_map(BTreeMap::values).filter(|item| index.keys.of(item).is_some()).map(|item| {
            match index.projection["ProjectionType"].as_str() {
                Some("KEYS_ONLY") | Some("INCLUDE") => {
                    let mut out = self.keys.key_of(item);
                    out.extend(index.keys.key_of(item));
                    for name in index.projection["NonKeyAttributes"].as_array().into_iter().flatten() {
                        if let Some(n) = name.as_str()
                            && let Some(v) = item.get(n)
                        {
                            out.insert(n.to_owned(), v.clone());
                        }
                    }
                    out
                }
                _ => item.clone(),
            }
        })
    }

    /// The item under `key` (its key attributes).
    pub(crate) fn get(&self, key: &(KeyVal, KeyVal)) -> Option<&Item> {
        self.items.get(&key.0)?.get(&key.1)
    }

    /// Puts `item` (its key already checked).
    pub(crate) fn put(&mut self, key: (KeyVal, KeyVal), item: Item) {
        self.items.entry(key.0).or_default().insert(key.1, item);
    }

    /// Deletes the item under `key`.
    pub(crate) fn delete(&mut self, key: &(KeyVal, KeyVal)) {
        if let Some(partition) = self.items.get_mut(&key.0) {
            partition.remove(&key.1);
            if partition.is_empty() {
                self.items.remove(&key.0);
            }
        }
    }

    /// One page of the items of partition `pk` of the table or index `index` that `matches` (the
    /// key condition), in sort key order (reversed unless `forward`), after `start` (a page's
    /// last key), at most `limit` and 1 MB.
    pub(crate) fn query(
        &self,
        index: Option<&Index>,
        pk: &KeyVal,
        matches: &dyn Fn(&Item) -> Result<bool, DynamoError>,
        forward: bool,
        start: Option<&Item>,
        limit: Option<usize>,
    ) -> Result<PageRead, DynamoError> {
        let invalid = || DynamoError::validation("The provided starting key is invalid".to_owned());
        let Some(index) = index else {
            // The table's own partition, in place: only the page's items are copied.
            let start = match start {
                Some(s) => Some(self.keys.of(s).ok_or_else(invalid)?.1),
                None => None,
            };
            let partition = self.items.get(pk);
            let items = partition.into_iter().flat_map(|p| p.iter());
            let ordered: Box<dyn Iterator<Item = (&KeyVal, &Item)>> =
                if forward { Box::new(items) } else { Box::new(items.rev()) };
            let after = move |sk: &KeyVal| match &start {
                None => true,
                Some(s) if forward => sk > s,
                Some(s) => sk < s,
            };
            let rest = ordered.filter(move |(sk, _)| after(sk)).map(|(_, item)| Cow::Borrowed(item));
            return self.page(rest, matches, &|_| Ok(true), limit, None);
        };
        // An index's items, projected, in (index sort key, table keys) order.
        let mut all: Vec<(Vec<KeyVal>, Item)> = self
            .index_items(index)
            .filter_map(|item| {
                let (ipk, isk) = index.keys.of(&item)?;
                let (tpk, tsk) = self.keys.of(&item)?;
                (ipk == *pk).then_some((vec![isk, tpk, tsk], item))
            })
            .collect();
        all.sort_by(|a, b| a.0.cmp(&b.0));
        if !forward {
            all.reverse();
        }
        let start = match start {
            Some(s) => {
                let (_, isk) = index.keys.of(s).ok_or_else(invalid)?;
                let (tpk, tsk) = self.keys.of(s).ok_or_else(invalid)?;
                Some(vec![isk, tpk, tsk])
            }
            None => None,
        };
        let after = |place: &Vec<KeyVal>| match &start {
            None => true,
            Some(s) if forward => place > s,
            Some(s) => place < s,
        };
        let rest = all.into_iter().filter(|(p, _)| after(p)).map(|(_, i)| Cow::Owned(i));
        self.page(rest, matches, &|_| Ok(true), limit, Some(index))
    }

    /// One page of a Scan of segment `segment` of `total` (partitions are given to segments by
    /// a hash of their key, and read in its order), after `start`, at most `limit` and 1 MB.
    pub(crate) fn scan(
        &self,
        index: Option<&Index>,
        (segment, total): (u64, u64),
        start: Option<&Item>,
        limit: Option<usize>,
        matches: &dyn Fn(&Item) -> Result<bool, DynamoError>,
    ) -> Result<PageRead, DynamoError> {
        let keys = index.map_or(&self.keys, |i| &i.keys);
        let items: Vec<Cow<'_, Item>> = match index {
            None => self.items.values().flat_map(BTreeMap::values).map(Cow::Borrowed).collect(),
            Some(index) => self.index_items(index).map(Cow::Owned).collect(),
        };
        // (hash of the partition key, partition key, sort key[, table keys]) orders the Scan.
        let mut placed: Vec<(Place, Cow<'_, Item>)> = items
            .into_iter()
            .filter_map(|item| {
                let (pk, sk) = keys.of(&item)?;
                let hash = fnv(&pk.bytes());
                let mut place = vec![pk, sk];
                if index.is_some() {
                    let (tpk, tsk) = self.keys.of(&item)?;
                    place.extend([tpk, tsk]);
                }
                (hash % total.max(1) == segment).then_some(((hash, place), item))
            })
            .collect();
        placed.sort_by(|a, b| a.0.cmp(&b.0));
        let start = match start {
            Some(s) => {
                let (pk, sk) = keys
                    .of(s)
                    .ok_or_else(|| DynamoError::validation("The provided starting key is invalid".to_owned()))?;
                let mut place = vec![pk.clone(), sk];
                if index.is_some() {
                    let (tpk, tsk) = self
                        .keys
                        .of(s)
                        .ok_or_else(|| DynamoError::validation("The provided starting key is invalid".to_owned()))?;
                    place.extend([tpk, tsk]);
                }
                Some((fnv(&pk.bytes()), place))
            }
            None => None,
        };
        let rest = placed.into_iter().filter(|(p, _)| start.as_ref().is_none_or(|s| p > s)).map(|(_, i)| i);
        self.page(rest, &|_| Ok(true), matches, limit, index)
    }

    /// Reads items in order, those the key condition `selects` only (the others are not read at
    /// all), until `limit` are read or 1 MB: those that pass `filter` are returned, every one
    /// read is charged; the last one read's key when the page stopped short.
    fn page<'i>(
        &self,
        items: impl Iterator<Item = Cow<'i, Item>>,
        selects: &dyn Fn(&Item) -> Result<bool, DynamoError>,
        filter: &dyn Fn(&Item) -> Result<bool, DynamoError>,
        limit: Option<usize>,
        index: Option<&Index>,
    ) -> Result<PageRead, DynamoError> {
        let (mut out, mut read, mut bytes, mut last) = (Vec::new(), 0usize, 0usize, None);
        for item in items {
            if !selects(&item)? {
                continue;
            }
            let size = item_size(&item);
            read += 1;
            bytes += size;
            let key = {
                let mut key = self.keys.key_of(&item);
                if let Some(index) = index {
                    key.extend(index.keys.key_of(&item));
                }
                key
            };
            if filter(&item)? {
                out.push(item.into_owned());
            }
            // DynamoDB stops at the limit, or once it has read 1 MB, and gives the key of the
            // last item read whether or not more follow.
            if limit.is_some_and(|l| read >= l) || bytes >= PAGE_BYTES {
                last = Some(key);
                break;
            }
        }
        Ok(PageRead { items: out, last, bytes })
    }
}

/// FNV-1a 64 of `bytes`: which segment a partition is in, and the Scan's order.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3))
}
