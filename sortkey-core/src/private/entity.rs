//! What the code of an entity calls: its keys encoded into their attributes.

use crate::encoding::key::SortKey;
use crate::error::{EncodeError, EncodeErrorKind};
use crate::query::condition::KeyCondition;
use crate::table::entity::{Entity, EntityKeys, IndexNames};
use crate::table::entity_query::TableQuery;
use crate::table::family::UnitQuery;
use crate::table::index::IndexQuery;
use crate::table::item::KeyNames;
use crate::table::multi::ScalarValue;

/// An empty set of key attributes, with room for `n`.
#[inline]
pub fn entity_keys(n: usize) -> EntityKeys {
    EntityKeys::with_capacity(n)
}

/// Adds the attribute `name` of a multi-attribute index of the entity `entity`, typed (once,
/// however many indexes share it); an empty string is an `Empty` error naming the field, as
/// DynamoDB refuses an empty key attribute.
#[inline]
pub fn push_scalar(
    keys: &mut EntityKeys,
    entity: &'static str,
    name: &'static str,
    value: ScalarValue,
) -> Result<(), EncodeError> {
    if matches!(&value, ScalarValue::S(s) if s.is_empty()) {
        return Err(EncodeError::new(entity, name, EncodeErrorKind::Empty));
    }
    keys.push_scalar(name, value);
    Ok(())
}

/// Records that the item is absent from an index whose key attributes are `names`.
#[inline]
pub fn push_absent(keys: &mut EntityKeys, names: &[&'static str]) {
    keys.push_absent(names);
}

/// The query of the partition `partition` of the entity's table, its sort keys in `own` (the
/// range of the entity's sort key type, `None` for the whole partition): an entity's `query()`.
#[inline]
pub fn table_query<E: Entity>(
    partition: &E::Partition,
    own: Option<KeyCondition>,
) -> Result<TableQuery<E>, EncodeError> {
    TableQuery::new(partition, own)
}

/// The query of the partition `partition` of the composite index `index`, whose key attributes
/// are `keys`: an entity's `<index>()` method.
#[inline]
pub fn index_query<E: Entity, P: SortKey, S>(
    index: IndexNames,
    keys: KeyNames,
    partition: &P,
) -> Result<IndexQuery<E, P, S>, EncodeError> {
    IndexQuery::new(index, keys, partition)
}

/// The query of a family's unit variant written as `literal`.
#[inline]
pub const fn unit_query(literal: &'static str) -> UnitQuery {
    UnitQuery::new(literal)
}

/// Encodes `key` as the attribute `name` of an entity's item.
#[inline]
pub fn encode_attr<K: SortKey>(keys: &mut EntityKeys, name: &'static str, key: &K) -> Result<(), EncodeError> {
    keys.push(name, key.encode()?);
    Ok(())
}
