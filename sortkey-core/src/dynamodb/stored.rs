//! An item under whichever layout of its primary key it is stored in: during a migration an
//! item not yet moved keeps its older key (`legacy`). A point read finds it there (the current
//! key first, then each older key computed from the same fields, each read consistently), and
//! an update or a delete acts on the key it is stored under; an update moves it to the current
//! key in the same conditional transaction.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use serde_core::Serialize;
use serde_core::de::DeserializeOwned;

use crate::dynamic::{DynBody, DynLayout, DynValue};
use crate::encoding::key::SortKey;
use crate::encoding::layout::Layout;
use crate::encoding::shard::ShardRule;
use crate::error::EncodeError;
use crate::table::entity::Entity;
use crate::table::item::ItemKey;

use super::Attributes;
use super::item::{EntityItem, ItemError, ItemErrorKind};
use super::request::{Conditions, DeleteRequest, MoveRequest, PutRequest};

/// An entity read under the key it is stored under, and which layouts that key is in.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored<E> {
    /// The entity.
    pub entity: E,
    /// The key it is stored under, `(partition, sort)` encoded (the sort key `""` for a table
    /// without one).
    pub key: (String, String),
    /// The layout of its partition key: 0 for the current one, 1 for the newest older one, ...
    pub partition_version: usize,
    /// The layout of its sort key, numbered the same way.
    pub sort_version: usize,
}

impl<E> Stored<E> {
    /// Whether the item is under its current key, so that no migration has to move it.
    pub fn is_current(&self) -> bool {
        self.partition_version == 0 && self.sort_version == 0
    }
}

/// One key an item may be stored under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct StoredKey {
    pub(super) partition: String,
    pub(super) sort: String,
    pub(super) partition_version: usize,
    pub(super) sort_version: usize,
}

impl StoredKey {
    /// The key as a `Key` under the entity's attribute names.
    pub(super) fn attributes<E: Entity>(&self) -> Attributes {
        let mut key = Attributes::from([(E::KEYS.partition().to_owned(), AttributeValue::S(self.partition.clone()))]);
        if let Some(sort) = E::KEYS.sort() {
            key.insert(sort.to_owned(), AttributeValue::S(self.sort.clone()));
        }
        key
    }
}

/// Whether an entity's primary key has older layouts an item may still be stored under.
pub(super) fn has_older<E: Entity>() -> bool {
    !<E::Partition as SortKey>::LAYOUT.legacy().is_empty() || !<E::Sort as SortKey>::LAYOUT.legacy().is_empty()
}

/// Every key an item with the primary key `key` may be stored under: the current key first, then
/// the key in each older layout of the sort key, then of the partition key (with each sort key
/// layout), each from the same fields. An older layout that cannot hold the values (a field
/// wider than it was) holds no such item and gives no key. An older sharded partition key's
/// shard is its own count's, calculated from the sort key the item would be stored with; an
/// older shard chosen at random cannot be known from the key, and gives none.
pub(super) fn stored_keys<P: SortKey, S: SortKey>(key: &ItemKey<P, S>) -> Result<Vec<StoredKey>, EncodeError> {
    let (partition, sort) = key.encode()?;
    let sorts = versions(&S::LAYOUT, &sort);
    let mut keys = Vec::with_capacity(sorts.len());
    for (sort_version, s) in &sorts {
        keys.push(StoredKey {
            partition: partition.clone(),
            sort: s.clone(),
            partition_version: 0,
            sort_version: *sort_version,
        });
    }
    let older = P::LAYOUT.legacy();
    if older.is_empty() {
        return Ok(keys);
    }
    let Ok(value) = DynLayout::from(&P::LAYOUT).decode(&partition) else { return Ok(keys) };
    for (i, old) in older.iter().enumerate() {
        let old = DynLayout::from(*old);
        for (sort_version, s) in &sorts {
            let sort_layout = match sort_version {
                0 => DynLayout::from(&S::LAYOUT),
                v => DynLayout::from(S::LAYOUT.legacy()[v - 1]),
            };
            if let Some(p) = in_older_partition(&old, &value, (&sort_layout, s)) {
                keys.push(StoredKey {
                    partition: p,
                    sort: s.clone(),
                    partition_version: i + 1,
                    sort_version: *sort_version,
                });
            }
        }
    }
    Ok(keys)
}

/// The key `encoded` of the layout `layout` in each of its layouts: itself (version 0), then in
/// each older layout that holds its values.
fn versions(layout: &Layout, encoded: &str) -> Vec<(usize, String)> {
    let mut out = vec![(0, encoded.to_owned())];
    let older = layout.legacy();
    if older.is_empty() {
        return out;
    }
    let Ok(value) = DynLayout::from(layout).decode(encoded) else { return out };
    for (i, old) in older.iter().enumerate() {
        if let Ok(old_key) = DynLayout::from(*old).encode(&value) {
            out.push((i + 1, old_key));
        }
    }
    out
}

/// A partition key's `value` (its current layout's fields) in the older layout `old`, for an
/// item whose sort key is `sort` (encoded, with its layout): the current shard dropped, the older
/// layout's calculated by its own count and rule. `None` when `old` cannot hold the value or its
/// shard is chosen at random.
fn in_older_partition(old: &DynLayout, value: &DynValue, sort: (&DynLayout, &str)) -> Option<String> {
    let DynValue::Key(fields) = value else { return old.encode(value).ok() };
    let DynBody::Fields(old_fields) = &old.key.body else { return old.encode(value).ok() };
    // The current layout's shard field is no field of the older layout's but under the same name.
    let mut values: Vec<(&'static str, DynValue)> = fields
        .iter()
        .filter(|(name, _)| old_fields.iter().any(|f| f.name == *name && f.shards.is_none()))
        .cloned()
        .collect();
    if let Some((at, shards)) = old.shard_field() {
        let ShardRule::By(field) = shards.rule() else { return None };
        let (layout, encoded) = sort;
        let segment = layout.field_segment(&layout.decode(encoded).ok()?, field)?.ok()?;
        values.insert(
            at.min(values.len()),
            (old_fields[at].name, DynValue::Unsigned(u128::from(shards.of(segment.as_bytes())))),
        );
    }
    old.encode(&DynValue::Key(values)).ok()
}

/// The first of `keys` an item is stored under, with the item: one consistent GetItem each, in
/// order, until one finds it.
pub(super) async fn find<E: Entity>(
    client: &Client,
    table: &str,
    keys: &[StoredKey],
) -> Result<Option<(StoredKey, Attributes)>, ItemError> {
    for key in keys {
        let got = client
            .get_item()
            .table_name(table)
            .set_key(Some(key.attributes::<E>()))
            .consistent_read(true)
            .send()
            .await
            .map_err(|e| {
                let message = format!("GetItem failed: {}", crate::error::sdk_error_line(&e));
                ItemError::new(E::NAME, ItemErrorKind::Request(message))
            })?;
        if let Some(item) = got.item().filter(|i| !i.is_empty()) {
            return Ok(Some((key.clone(), item.clone())));
        }
    }
    Ok(None)
}

/// The entity whose primary key is `key`, read from `table` under whichever layout of the key it
/// is stored in, and that layout: the current key first (what [`get_item`](super::get_item)
/// reads when the key has no older layout), then the same fields in each older layout
/// (`legacy`), each strongly consistent. `None` when no item has any of them.
///
/// ```no_run
/// # use sortkey_core::{Entity, ItemKey, SortKey};
/// # #[derive(SortKey)]
/// # #[key(prefix = "ORDER")]
/// # struct OrderSkV1 { #[key(width = 6)] order_no: u32 }
/// # impl From<OrderSkV1> for OrderSk { fn from(o: OrderSkV1) -> Self { OrderSk { order_no: o.order_no } } }
/// # #[derive(Entity, serde::Serialize, serde::Deserialize)]
/// # #[entity(pk(prefix = "CUST", customer_id), sk(prefix = "ORDER", legacy = OrderSkV1, order_no(width = 10)))]
/// # struct Order { customer_id: String, order_no: u32 }
/// # async fn run(client: aws_sdk_dynamodb::Client) -> Result<(), Box<dyn std::error::Error>> {
/// use sortkey_core::dynamodb::get_stored;
///
/// let key = ItemKey::new(OrderPk { customer_id: "c_1".into() }, OrderSk { order_no: 1002 });
/// if let Some(found) = get_stored::<Order>(&client, "orders", &key).await? {
///     println!("stored under {:?}, current: {}", found.key, found.is_current());
/// }
/// # Ok(())
/// # }
/// ```
pub async fn get_stored<E>(
    client: &Client,
    table: &str,
    key: &ItemKey<E::Partition, E::Sort>,
) -> Result<Option<Stored<E>>, ItemError>
where
    E: Entity + DeserializeOwned,
{
    let keys = stored_keys(key).map_err(|e| ItemError::new(E::NAME, ItemErrorKind::Encode(e)))?;
    let Some((at, item)) = find::<E>(client, table, &keys).await? else { return Ok(None) };
    Ok(Some(Stored {
        entity: E::from_item(&item)?,
        key: (at.partition, at.sort),
        partition_version: at.partition_version,
        sort_version: at.sort_version,
    }))
}

/// The move of the item stored under the older key `at` (read as `stored`) to `entity` under its
/// current key, as an update of it would leave it: in one transaction, the delete of the old item
/// on the condition that it is as read (its version, for an entity with one; otherwise every
/// attribute read), and the put of the stored item with `entity`'s attributes set over it (its
/// sparse index attributes it leaves removed, its version the next) on the condition that no
/// item has the current key.
pub(super) fn move_stored<E: EntityItem + Serialize>(
    entity: &E,
    at: &StoredKey,
    stored: &Attributes,
) -> Result<MoveRequest, ItemError> {
    let fail = |kind| ItemError::new(E::NAME, kind);
    let mut conditions = Conditions::default();
    match (E::VERSION, entity.version()) {
        (Some(attribute), Some(version)) => {
            let read = stored.get(attribute).and_then(|v| v.as_n().ok()).and_then(|n| n.parse::<u64>().ok());
            if read.unwrap_or(0) != version {
                return Err(fail(ItemErrorKind::VersionConflict { expected: version }));
            }
            conditions.names.push(("#e_v".to_owned(), attribute.to_owned()));
            match version {
                _ if planted_bug!(MoveStoredUnconditioned) => conditions.all.push("attribute_exists(#e_v)".to_owned()),
                0 => conditions.all.push("attribute_not_exists(#e_v)".to_owned()),
                v => {
                    conditions.all.push("#e_v = :e_v".to_owned());
                    conditions.values.push((":e_v".to_owned(), AttributeValue::N(v.to_string())));
                }
            }
            conditions.names.push(("#e_pk".to_owned(), E::KEYS.partition().to_owned()));
            conditions.all.push("attribute_exists(#e_pk)".to_owned());
        }
        _ if planted_bug!(MoveStoredUnconditioned) => {}
        _ => {
            let mut attributes: Vec<(&String, &AttributeValue)> = stored.iter().collect();
            attributes.sort_by(|a, b| a.0.cmp(b.0));
            for (i, (name, value)) in attributes.into_iter().enumerate() {
                conditions.all.push(format!("#e_o{i} = :e_o{i}"));
                conditions.names.push((format!("#e_o{i}"), name.clone()));
                conditions.values.push((format!(":e_o{i}"), value.clone()));
            }
        }
    }
    let delete = DeleteRequest { key: at.attributes::<E>(), conditions };
    let mut item = stored.clone();
    item.extend(entity.to_item()?);
    if let (Some(attribute), Some(version)) = (E::VERSION, entity.version()) {
        item.insert(attribute.to_owned(), AttributeValue::N((version + 1).to_string()));
    }
    let keys = entity.key_attributes().map_err(|e| fail(ItemErrorKind::Encode(e)))?;
    for absent in keys.absent() {
        item.remove(*absent);
    }
    let mut conditions = Conditions::default();
    conditions.names.push(("#e_pk".to_owned(), E::KEYS.partition().to_owned()));
    conditions.all.push("attribute_not_exists(#e_pk)".to_owned());
    Ok(MoveRequest { delete, put: PutRequest { item, conditions } })
}

/// The delete of the item stored under the older key `at`: `entity`'s delete, at that key.
pub(super) fn delete_stored<E: EntityItem>(entity: &E, at: &StoredKey) -> Result<DeleteRequest, ItemError> {
    let mut request = entity.delete_request()?;
    request.key = at.attributes::<E>();
    Ok(request)
}
