//! A typed page read across the live layouts of its sort key: the typed condition said on each
//! layout ([`LiveLayouts::enclosing_conditions`]), the layouts read and merged by the paged
//! read the command makes ([`VersionsQuery`]), and the page given back as entities with a typed
//! cursor. What [`query_page`](super::query_page) does for a key with `legacy`.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use serde_core::de::DeserializeOwned;

use crate::dynamic::{DynLayout, LiveLayouts};
use crate::error::{QueryError, QueryErrorKind};
use crate::table::entity::Entity;
use crate::table::multi::ScalarValue;

use super::Attributes;
use super::entity_query::{AcrossVersions, EntityPage, EntityQuery};
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
    let Some(condition) = across.condition else {
        let kind = QueryErrorKind::MatchesEverything;
        return Err(fail(ItemErrorKind::Query(QueryError::new(across.key_name, None, kind))));
    };
    let conditions = live.enclosing_conditions(condition).map_err(|e| fail(ItemErrorKind::Query(e)))?;
    // The cursor's sort key, as the single Query would start after it.
    let cursor = match start {
        Some(start) => {
            let request = query.query_request(Some(start)).map_err(|e| fail(ItemErrorKind::Encode(e)))?;
            request.exclusive_start_key.unwrap_or_default().into_iter().find_map(|(name, value)| match value {
                ScalarValue::S(sk) if name == across.sort_attribute => Some(sk),
                _ => None,
            })
        }
        None => None,
    };
    let read = VersionsQuery {
        table,
        partition: across.partition,
        partition_attribute: across.partition_attribute,
        sort_attribute: across.sort_attribute,
        forward: true,
        limit: usize::try_from(limit).unwrap_or(0),
    };
    let page =
        read.run(client, &live, &conditions, cursor.as_deref()).await.map_err(|m| fail(ItemErrorKind::Request(m)))?;
    let entities = page.results.results.iter().map(|r| Q::Entity::from_item(&r.item)).collect::<Result<Vec<_>, _>>()?;
    let next = match page.next {
        Some(sk) => {
            let key = Attributes::from([
                (across.partition_attribute.to_owned(), AttributeValue::S(across.partition.to_owned())),
                (across.sort_attribute.to_owned(), AttributeValue::S(sk)),
            ]);
            Some(query.cursor(&key).map_err(|e| fail(ItemErrorKind::Decode(e)))?)
        }
        None => None,
    };
    Ok(EntityPage { entities, next, read: page.read, requests: page.requests })
}
