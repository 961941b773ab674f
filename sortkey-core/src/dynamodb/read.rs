//! Reading entities: one by its primary key, and a Query's items a page at a time, decoded, with
//! the typed key the next page starts after.

use aws_sdk_dynamodb::Client;
use serde_core::de::DeserializeOwned;

use crate::table::entity::Entity;
use crate::table::item::ItemKey;

use super::entity_query::{EntityPage, EntityQuery};
use super::item::{EntityItem, ItemError, ItemErrorKind};
use super::written::request_error;

/// One page of `query` on `table`: at most `limit` items (DynamoDB's `Limit`; fewer when the
/// page reaches 1 MB), starting after `start` (the `next` of the page before; `None` for the
/// first), each read back as its entity, in DynamoDB's order. An item that does not read back as
/// the entity is an error naming it; so is a `LastEvaluatedKey` that does not decode; so is the
/// query of a sharded partition ([`ItemErrorKind::Sharded`]), which one Query would read one shard
/// of: `query_merged` reads it.
///
/// **During a migration.** When the query's sort key has older layouts (`legacy`), a page is
/// what the same page is once every item is in the current layout: each layout is read by its
/// own condition (the typed condition said on its fields), every older key is held to the
/// condition through its key in the current layout, the layouts merge in the current order (an
/// item copied but not yet deleted once), and `next` is one cursor across them. A condition no
/// older layout can be read by is refused ([`ItemErrorKind::Query`]). Without `legacy`, one
/// Query as before.
///
/// ```no_run
/// # use sortkey_core::{Entity, SortKey};
/// # #[derive(Entity, serde::Serialize, serde::Deserialize)]
/// # #[entity(pk(prefix = "CUST", customer_id), sk(prefix = "ORDER", order_no(width = 8)))]
/// # struct Order { customer_id: String, order_no: u32 }
/// # async fn run(client: aws_sdk_dynamodb::Client) -> Result<(), Box<dyn std::error::Error>> {
/// use sortkey_core::dynamodb::query_page;
///
/// let orders = Order::query(&OrderPk { customer_id: "c_1".into() })?;
/// let mut start = None;
/// loop {
///     let page = query_page(&client, "orders", &orders, start.as_ref(), 25).await?;
///     for order in &page.entities {
///         println!("order {}", order.order_no);
///     }
///     match page.next {
///         Some(next) => start = Some(next),
///         None => break,
///     }
/// }
/// # Ok(())
/// # }
/// ```
pub async fn query_page<Q>(
    client: &Client,
    table: &str,
    query: &Q,
    start: Option<&Q::Cursor>,
    limit: i32,
) -> Result<EntityPage<Q::Entity, Q::Cursor>, ItemError>
where
    Q: EntityQuery,
    Q::Entity: DeserializeOwned,
{
    let name = <Q::Entity as Entity>::NAME;
    if let Some(shards) = query.shards() {
        return Err(ItemError::new(name, ItemErrorKind::Sharded { shards: shards.count().get() }));
    }
    // An index's items are read across versions too while the table's own key has older layouts:
    // an item moved and not yet deleted is in the index twice, and is one entity.
    let moving =
        |a: &super::entity_query::AcrossVersions<'_>| a.index.is_some() && super::stored::has_older::<Q::Entity>();
    if let Some(across) = query.across_versions().filter(|a| !a.layout.legacy().is_empty() || moving(a)) {
        return super::typed_versions::page(client, table, query, &across, start, limit).await;
    }
    let request = query.query_request(start).map_err(|e| ItemError::new(name, ItemErrorKind::Encode(e)))?;
    let page = request
        .apply_to(client.query().table_name(table).limit(limit))
        .send()
        .await
        .map_err(|e| request_error::<Q::Entity, _, _>("Query", &e))?;
    let entities = page.items().iter().map(Q::Entity::from_item).collect::<Result<Vec<_>, _>>()?;
    let next = match page.last_evaluated_key().filter(|k| !k.is_empty()) {
        Some(key) => Some(query.cursor(key).map_err(|e| ItemError::new(name, ItemErrorKind::Decode(e)))?),
        None => None,
    };
    Ok(EntityPage { read: entities.len(), entities, next, requests: 1 })
}

/// The entity whose primary key is `key`, read from `table` (`GetItem`, strongly consistent:
/// what a write just made is read back); `None` when no item has it. During a migration an item
/// not yet moved is found under its older key (`legacy`): [`get_stored`](super::get_stored) says
/// which.
///
/// ```no_run
/// # use sortkey_core::{Entity, ItemKey};
/// # #[derive(Entity, serde::Serialize, serde::Deserialize)]
/// # #[entity(pk(prefix = "CUST", customer_id), sk(prefix = "ORDER", order_no(width = 8)))]
/// # struct Order { customer_id: String, order_no: u32 }
/// # async fn run(client: aws_sdk_dynamodb::Client) -> Result<(), Box<dyn std::error::Error>> {
/// use sortkey_core::dynamodb::get_item;
///
/// let key = ItemKey::new(OrderPk { customer_id: "c_1".into() }, OrderSk { order_no: 1002 });
/// let order: Option<Order> = get_item(&client, "orders", &key).await?;
/// # Ok(())
/// # }
/// ```
pub async fn get_item<E>(
    client: &Client,
    table: &str,
    key: &ItemKey<E::Partition, E::Sort>,
) -> Result<Option<E>, ItemError>
where
    E: Entity + DeserializeOwned,
{
    Ok(super::stored::get_stored::<E>(client, table, key).await?.map(|found| found.entity))
}
