//! A typed page read across the live layouts of its sort key: the typed condition said on each
//! layout ([`LiveLayouts::enclosing_conditions`]), the layouts read and merged by the paged
//! read the command makes ([`VersionsQuery`]), and the page given back as entities with a typed
//! cursor. What [`query_page`](super::query_page) does for a key with `legacy`.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use serde_core::de::DeserializeOwned;

use crate::dynamic::{DynLayout, LiveLayouts};
use crate::table::entity::Entity;
use crate::table::multi::ScalarValue;

use super::Attributes;
use super::entity_query::{AcrossVersions, EntityPage, EntityQuery};
use super::index_versions::{self, IndexRead};
use super::item::{EntityItem, ItemError, ItemErrorKind};
use super::versions::VersionsQuery;

/// The page of `query` after `start`, at most `limit` entities, read across the current layout
/// of its sort key and every older one.
pub(super) async fn page<Q>(
    client: &Client,
    table: &str,
    query: &Q,
    across: &AcrossVersions<'_>,
    start: Option<&Q::Cursor>,
    limit: i32,
) -> Result<EntityPage<Q::Entity, Q::Cursor>, ItemError>
where
    Q: EntityQuery,
    Q::Entity: DeserializeOwned,
{
    let entity = <Q::Entity as Entity>::NAME;
    let fail = |kind| ItemError::new(entity, kind);
    let layouts: Vec<DynLayout> = std::iter::once(&across.layout)
        .chain(across.layout.legacy().iter().copied())
        .map(|l| DynLayout::from(l).named(across.key_name))
        .collect();
    let names: Vec<String> = (0..layouts.len())
        .map(|v| if v == 0 { across.key_name.to_owned() } else { format!("{}@v{v}", across.key_name) })
        .collect();
    let live = LiveLayouts::new(names.iter().map(String::as_str).zip(&layouts).collect());
    // Without a sort condition: every key of the current layout's prefix, as one Query reads them;
    // without a prefix, the whole partition.
    let prefix = layouts.first().and_then(|l| l.query().begins_with().ok());
    let condition = across.condition.or(prefix.as_ref());
    let conditions = match condition {
        Some(condition) => live.enclosing_conditions(condition).map_err(|e| fail(ItemErrorKind::Query(e)))?,
        None => Vec::new(),
    };
    // Where the single Query would start: its ExclusiveStartKey, by attribute.
    let start_key = match start {
        Some(start) => {
            let request = query.query_request(Some(start)).map_err(|e| fail(ItemErrorKind::Encode(e)))?;
            let values = request.exclusive_start_key.unwrap_or_default().into_iter();
            values
                .filter_map(|(name, value)| if let ScalarValue::S(s) = value { Some((name, s)) } else { None })
                .collect()
        }
        None => Vec::new(),
    };
    let value_of =
        |name: Option<&str>| start_key.iter().find(|(n, _)| Some(n.as_str()) == name).map(|(_, v)| v.clone());
    let limit = usize::try_from(limit).unwrap_or(0);
    if limit == 0 {
        return Err(fail(ItemErrorKind::Request(format!("a page of {table} reads at least one result, not 0"))));
    }
    let primary = <Q::Entity as Entity>::KEYS;
    // While the table's own key has older layouts, an index item's primary key as the current
    // layouts write it, from its fields.
    let current_of = |item: &Attributes| -> Option<(String, String)> {
        let (p, s) = Q::Entity::from_item(item).ok()?.primary_key().encode().ok()?;
        Some((p, s))
    };
    let current_primary: Option<&index_versions::CurrentPrimary> =
        (across.index.is_some() && super::stored::has_older::<Q::Entity>()).then_some(&current_of);
    let composite = |cursor: Option<String>| {
        cursor.map(|key| {
            let primary =
                (value_of(Some(primary.partition())).unwrap_or_default(), value_of(primary.sort()).unwrap_or_default());
            (key, primary)
        })
    };
    let (found, more, read, requests): (Vec<(String, Attributes)>, bool, usize, usize) = match (across.index, condition)
    {
        (index, None) => {
            let read = IndexRead {
                table,
                index,
                partition: (across.partition_attribute, across.partition),
                sort_attribute: across.sort_attribute,
                primary: (primary.partition(), primary.sort()),
                current_primary,
            };
            let cursor = composite(value_of(Some(across.sort_attribute)));
            let page = index_versions::page_whole(client, &read, &live, cursor.as_ref(), limit)
                .await
                .map_err(|failed| fail(ItemErrorKind::Request(failed.to_string())))?;
            (index_versions::keyed(page.items), page.more, page.read, page.requests)
        }
        (Some(index), Some(_)) => {
            let read = IndexRead {
                table,
                index: Some(index),
                partition: (across.partition_attribute, across.partition),
                sort_attribute: across.sort_attribute,
                primary: (primary.partition(), primary.sort()),
                current_primary,
            };
            let cursor = composite(value_of(Some(across.sort_attribute)));
            let page = index_versions::page(client, &read, &live, &conditions, (cursor.as_ref(), true), limit)
                .await
                .map_err(|failed| fail(ItemErrorKind::Request(failed.to_string())))?;
            (index_versions::keyed(page.items), page.more, page.read, page.requests)
        }
        (None, Some(_)) => {
            let read = VersionsQuery {
                table,
                partition: across.partition,
                partition_attribute: across.partition_attribute,
                sort_attribute: across.sort_attribute,
                forward: true,
                limit,
            };
            let cursor = value_of(Some(across.sort_attribute));
            let page = read
                .run(client, &live, &conditions, cursor.as_deref())
                .await
                .map_err(|failed| fail(ItemErrorKind::Request(failed.to_string())))?;
            let more = page.next.is_some();
            let found = page.results.results.into_iter().map(|r| (r.current_key, r.item)).collect();
            (found, more, page.read, page.requests)
        }
    };
    let entities = found.iter().map(|(_, item)| Q::Entity::from_item(item)).collect::<Result<Vec<_>, _>>()?;
    let next = match found.last().filter(|_| more) {
        Some((current_key, item)) => {
            // The last result's keys, its index or sort key as the current layout writes it (and
            // its primary key, when the table's has older layouts).
            let mut key = item.clone();
            key.insert(across.partition_attribute.to_owned(), AttributeValue::S(across.partition.to_owned()));
            key.insert(across.sort_attribute.to_owned(), AttributeValue::S(current_key.clone()));
            if let Some((p, s)) = current_primary.and_then(|current| current(item)) {
                key.insert(primary.partition().to_owned(), AttributeValue::S(p));
                if let Some(sort) = primary.sort() {
                    key.insert(sort.to_owned(), AttributeValue::S(s));
                }
            }
            Some(query.cursor(&key).map_err(|e| fail(ItemErrorKind::Decode(e)))?)
        }
        None => None,
    };
    Ok(EntityPage { entities, next, read, requests })
}
