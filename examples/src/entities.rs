//! An embedded table of entities with its global secondary indexes, every index kept by the
//! entities' own `key_attributes`, as DynamoDB keeps a GSI from the attributes of each item.

use std::collections::BTreeMap;

use sortkey_core::{EncodeError, Entity, EntityKeys, IndexNames, IndexQuery, ItemKey, KeyNames, PartitionQuery};

use crate::{MemTable, Order, Query};

/// Entities of type `E` by primary key, and each of `E`'s indexes.
///
/// ```
/// use sortkey_core::Entity;
/// use sortkey_examples::{EntityTable, Order};
///
/// #[derive(Entity, Debug, Clone, PartialEq)]
/// #[entity(pk(prefix = "C", customer), sk(prefix = "O", id), index(tagged(pk(prefix = "T", tag), sk(id))))]
/// struct Item {
///     customer: u32,
///     id: u32,
///     tag: Option<String>,
/// }
///
/// let mut table = EntityTable::new();
/// table.put(Item { customer: 1, id: 7, tag: Some("x".into()) }).unwrap();
/// table.put(Item { customer: 1, id: 8, tag: None }).unwrap();
/// let tagged = Item::tagged(&ItemTaggedPk { tag: "x".into() }).unwrap();
/// let ids: Vec<u32> = table.query_index(&tagged, Order::Ascending).iter().map(|i| i.id).collect();
/// assert_eq!(ids, [7]);
/// table.put(Item { customer: 1, id: 7, tag: None }).unwrap(); // leaves the sparse index
/// assert!(table.query_index(&tagged, Order::Ascending).is_empty());
/// ```
#[derive(Debug, Clone)]
pub struct EntityTable<E> {
    items: MemTable<E>,
    /// Index name -> index partition -> index sort key -> the primary keys under it.
    indexes: BTreeMap<&'static str, MemTable<Vec<(String, String)>>>,
}

impl<E: Entity + Clone> Default for EntityTable<E> {
    fn default() -> Self {
        EntityTable { items: MemTable::new(), indexes: BTreeMap::new() }
    }
}

impl<E: Entity + Clone> EntityTable<E> {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes `entity` like PutItem: under its primary key, replacing the item there, and into
    /// every index it belongs to, out of those its former version belonged to. When a key does
    /// not encode, nothing changes.
    pub fn put(&mut self, entity: E) -> Result<(), EncodeError> {
        let keys = entity.key_attributes()?;
        let (pk, sk) = primary(&keys, E::KEYS);
        if let Some(old) = self.items.get(&pk, &sk) {
            let old_keys = old.key_attributes()?;
            for (index, names) in composite(E::INDEXES) {
                if let Some((ip, is)) = index_key(&old_keys, names) {
                    let table = self.indexes.entry(index.name()).or_default();
                    if let Some(list) = table.get_mut(&ip, &is) {
                        list.retain(|k| *k != (pk.clone(), sk.clone()));
                    }
                }
            }
        }
        for (index, names) in composite(E::INDEXES) {
            if let Some((ip, is)) = index_key(&keys, names) {
                let table = self.indexes.entry(index.name()).or_default();
                match table.get_mut(&ip, &is) {
                    Some(list) => list.push((pk.clone(), sk.clone())),
                    None => {
                        table.put(ip, is, vec![(pk.clone(), sk.clone())]);
                    }
                }
            }
        }
        self.items.put(pk, sk, entity);
        Ok(())
    }

    /// The entity under `key`.
    pub fn get(&self, key: &ItemKey<E::Partition, E::Sort>) -> Result<Option<&E>, EncodeError> {
        let (pk, sk) = key.encode()?;
        Ok(self.items.get(&pk, &sk))
    }

    /// The entities `query` returns from the table, in `order`.
    pub fn query<P, S>(&self, query: &PartitionQuery<P, S>, order: Order) -> Vec<&E> {
        let q = Query { order, limit: None };
        let (items, _) = self.items.page(query.partition(), q, None, |sk| query.matches(query.partition(), sk));
        items.into_iter().map(|(_, e)| e).collect()
    }

    /// The entities `query` returns from its index, in `order`.
    pub fn query_index<P, S>(&self, query: &IndexQuery<E, P, S>, order: Order) -> Vec<&E> {
        let Some(table) = self.indexes.get(query.index().name()) else { return Vec::new() };
        let pk = query.partition_query().partition();
        let (entries, _) = table.page(pk, Query { order, limit: None }, None, |sk| query.matches(pk, sk));
        entries.into_iter().flat_map(|(_, keys)| keys.iter()).filter_map(|(p, s)| self.items.get(p, s)).collect()
    }
}

/// The indexes of two composite keys, with their attributes: this table keeps those; a
/// multi-attribute index is queried through a DynamoDB server.
fn composite(indexes: &[IndexNames]) -> impl Iterator<Item = (&IndexNames, KeyNames)> {
    indexes.iter().filter_map(|i| Some((i, i.composite_keys()?)))
}

/// The item's primary key attributes, which `key_attributes` always holds (an empty sort key
/// for a table keyed by a partition key alone).
fn primary(keys: &EntityKeys, names: KeyNames) -> (String, String) {
    index_key(keys, names).unwrap_or_default()
}

/// The item's key in an index, when it is in it (an empty sort key for an index keyed by a
/// partition key alone).
fn index_key(keys: &EntityKeys, names: KeyNames) -> Option<(String, String)> {
    let sort = match names.sort() {
        Some(name) => keys.get(name)?.to_owned(),
        None => String::new(),
    };
    Some((keys.get(names.partition())?.to_owned(), sort))
}
