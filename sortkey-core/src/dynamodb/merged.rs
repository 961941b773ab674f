//! The merged read of a sharded partition on DynamoDB: [`Merge`]'s reads run as Queries (and,
//! after a cursor of `random` shards, GetItems), at most [`CONCURRENCY`] at a time. One driver,
//! [`ShardedQuery`], for raw items (the `sortkey` command's) and entities ([`query_merged`]).

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity};
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use serde_core::de::DeserializeOwned;

use crate::encoding::key::Sharded;
use crate::encoding::shard::ShardRule;
use crate::error::{QueryError, QueryErrorKind};
use crate::query::condition::KeyExpression;
use crate::query::{Merge, MergeCursor, MergedPage, ShardRead};
use crate::table::entity::Entity;
use crate::table::entity_query::TableQuery;

use super::Attributes;
use super::failed::RequestError;
use super::item::{EntityItem, ItemError, ItemErrorKind};

/// The most reads of one merged page in flight at once.
pub const CONCURRENCY: usize = 16;

/// The merged read of the partitions of one sharded partition of a table: which partitions (shard
/// `i` is `partitions[i]`), under which key attributes, in which direction, how many items a page,
/// and whether two shards can hold one sort key (`random` shards).
#[derive(Debug, Clone, Copy)]
pub struct ShardedQuery<'a> {
    /// The table.
    pub table: &'a str,
    /// The encoded partition key of each shard, in shard order.
    pub partitions: &'a [String],
    /// The partition key attribute.
    pub partition_attribute: &'a str,
    /// The sort key attribute.
    pub sort_attribute: &'a str,
    /// Ascending sort keys (`ScanIndexForward`), or descending.
    pub forward: bool,
    /// The items a page returns.
    pub limit: usize,
    /// Whether two shards can hold the same sort key: `random` shards.
    pub ties: bool,
    /// Whether the partitions are two shard counts' mid-move (the current count's first): a sort
    /// key in two of them is one item's copies, returned once ([`Merge::copies`]).
    pub copies: bool,
}

impl ShardedQuery<'_> {
    /// One page after `start`: every shard's Query under the key condition `expression` gives
    /// for its partition (the partition `=` and the sort condition), merged as one Query over the
    /// union would return them ([`Merge`]), with the read units the requests consumed. A request
    /// that fails is the error.
    pub async fn run(
        &self,
        client: &Client,
        expression: impl Fn(&str) -> KeyExpression,
        start: Option<&MergeCursor>,
    ) -> Result<MergedPage<Attributes>, RequestError> {
        let count = u16::try_from(self.partitions.len()).unwrap_or(u16::MAX);
        let mut merge: Merge<Attributes> = Merge::new(count, self.limit, self.forward, start, self.ties);
        if self.copies {
            merge = merge.copies();
        }
        let sort_of = |item: &Attributes| self.sort_of(item);
        let read = |read: ShardRead| {
            let pk = self.partitions.get(usize::from(read.shard())).cloned().unwrap_or_default();
            let key = move |sort: &str| {
                Attributes::from([
                    (self.partition_attribute.to_owned(), AttributeValue::S(pk.clone())),
                    (self.sort_attribute.to_owned(), AttributeValue::S(sort.to_owned())),
                ])
            };
            let expression = expression(self.partitions.get(usize::from(read.shard())).map_or("", String::as_str));
            async move {
                match &read {
                    ShardRead::Query { limit, after, .. } => {
                        let request = client
                            .query()
                            .table_name(self.table)
                            .limit(i32::try_from(*limit).unwrap_or(i32::MAX))
                            .scan_index_forward(self.forward)
                            .set_exclusive_start_key(after.as_deref().map(key))
                            .return_consumed_capacity(ReturnConsumedCapacity::Total);
                        let page = expression
                            .apply_to_query(request)
                            .send()
                            .await
                            .map_err(|e| RequestError::from_sdk("Query", self.table, &e))?;
                        let units = page.consumed_capacity().and_then(|c| c.capacity_units()).unwrap_or(0.0);
                        let more = page.last_evaluated_key().is_some_and(|k| !k.is_empty());
                        Ok::<_, RequestError>((read, page.items().to_vec(), more, units))
                    }
                    ShardRead::Tie { sort, .. } => {
                        let got = client
                            .get_item()
                            .table_name(self.table)
                            .set_key(Some(key(sort)))
                            .return_consumed_capacity(ReturnConsumedCapacity::Total)
                            .send()
                            .await
                            .map_err(|e| RequestError::from_sdk("GetItem", self.table, &e))?;
                        let units = got.consumed_capacity().and_then(|c| c.capacity_units()).unwrap_or(0.0);
                        Ok((read, got.item().cloned().into_iter().collect(), false, units))
                    }
                }
            }
        };
        let (mut waiting, mut running, mut read_units) = (Vec::new(), FuturesUnordered::new(), 0.0);
        loop {
            waiting.extend(merge.reads());
            while running.len() < CONCURRENCY {
                let Some(next) = waiting.pop() else { break };
                running.push(read(next));
            }
            // No read out: the merge has what it needs.
            let Some(answer) = running.next().await else { break };
            let (done, items, more, units) = answer?;
            read_units += units;
            merge.answer(&done, items.into_iter().map(|item| (sort_of(&item), item)).collect(), more);
        }
        let page = MergedPage { read_units, ..merge.finish() };
        if self.copies && !self.ties && !planted_bug!(MovingReadOnce) {
            return self.read_again(client, &expression, start, page).await;
        }
        Ok(page)
    }

    /// An item's sort key ("" when it has none as a string).
    fn sort_of(&self, item: &Attributes) -> String {
        item.get(self.sort_attribute).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default()
    }

    /// A page read while items move between the two shard counts, completed: a move copies an
    /// item to its new partition before it deletes the old one, so an item the page's reads
    /// missed in both (its new partition read before the copy, its old one after the delete) is
    /// in its new partition by the time they are all done. Each partition is read again over the
    /// page's range (after `start`, up to its last item), and an item found there that the page
    /// lacks joins it, in order; the page is cut to its limit again.
    async fn read_again(
        &self,
        client: &Client,
        expression: &impl Fn(&str) -> KeyExpression,
        start: Option<&MergeCursor>,
        mut page: MergedPage<Attributes>,
    ) -> Result<MergedPage<Attributes>, RequestError> {
        let sort_of = |item: &Attributes| self.sort_of(item);
        // The range the page covers: after `start`, up to its last item (to the end when it is
        // the last page).
        let last = match &page.next {
            Some(_) => page.items.last().map(|(_, item)| sort_of(item)),
            None => None,
        };
        let within = |sort: &str| match &last {
            Some(last) => {
                if self.forward {
                    sort <= last.as_str()
                } else {
                    sort >= last.as_str()
                }
            }
            None => true,
        };
        let mut seen: std::collections::HashSet<String> = page.items.iter().map(|(_, item)| sort_of(item)).collect();
        let mut extra = Vec::new();
        for (shard, partition) in self.partitions.iter().enumerate() {
            let key = |sort: String| {
                Attributes::from([
                    (self.partition_attribute.to_owned(), AttributeValue::S(partition.clone())),
                    (self.sort_attribute.to_owned(), AttributeValue::S(sort)),
                ])
            };
            let mut after = start.map(|c| key(c.sort.clone()));
            'partition: loop {
                let request = client
                    .query()
                    .table_name(self.table)
                    .limit(i32::try_from(self.limit + 1).unwrap_or(i32::MAX))
                    .scan_index_forward(self.forward)
                    .set_exclusive_start_key(after.take())
                    .return_consumed_capacity(ReturnConsumedCapacity::Total);
                let answer = expression(partition)
                    .apply_to_query(request)
                    .send()
                    .await
                    .map_err(|e| RequestError::from_sdk("Query", self.table, &e))?;
                page.requests += 1;
                page.read += answer.items().len();
                page.read_units += answer.consumed_capacity().and_then(|c| c.capacity_units()).unwrap_or(0.0);
                for item in answer.items() {
                    let sort = sort_of(item);
                    if !within(&sort) {
                        break 'partition;
                    }
                    if seen.insert(sort) {
                        extra.push((u16::try_from(shard).unwrap_or(u16::MAX), item.clone()));
                    }
                }
                match answer.last_evaluated_key().filter(|k| !k.is_empty()) {
                    Some(k) => after = Some(k.clone()),
                    None => break,
                }
            }
        }
        if extra.is_empty() {
            return Ok(page);
        }
        page.items.extend(extra);
        page.items.sort_by(|a, b| {
            let order = sort_of(&a.1).cmp(&sort_of(&b.1));
            if self.forward { order } else { order.reverse() }
        });
        if page.items.len() > self.limit {
            page.items.truncate(self.limit);
            page.next = page.items.last().map(|(shard, item)| MergeCursor { sort: sort_of(item), shard: *shard });
        }
        Ok(page)
    }
}

/// A page of a sharded partition's entities, read as one partition by [`query_merged`].
#[derive(Debug, Clone, PartialEq)]
pub struct MergedEntities<E> {
    /// The entities, each with its shard, in the order one Query over the union of the shards
    /// would return them.
    pub entities: Vec<(u16, E)>,
    /// Where the next page starts; `None` when no shard holds more.
    pub next: Option<MergeCursor>,
    /// The items the reads returned (those read and not returned included).
    pub read: usize,
    /// The requests made.
    pub requests: usize,
    /// The read units DynamoDB says the requests consumed (`ConsumedCapacity`).
    pub read_units: f64,
}

/// One page of the entities of the sharded partition `query` is of (`Run::query(&pk)`, with a
/// sort condition or not; the shard of `pk` is ignored), read as one partition: the `N` shards'
/// partitions queried concurrently, about `ceil(1.5 * limit / N)` items each at a time, and
/// merged into exactly what one Query over their union would return: `limit` entities (fewer on
/// the last page), forward (ascending sort keys) or not, after `start` (the previous page's
/// `next`). Ties between shards (one sort key in two shards, which only `random` shards allow)
/// are in shard order, reversed for a reverse read. A page reads at most
/// `limit + N * ceil(1.5 * limit / N)` items (260 for a top 100 over 16 shards), and says what
/// it read.
///
/// ```no_run
/// # use sortkey_core::{Entity, SortKey};
/// # #[derive(Entity, serde::Serialize, serde::Deserialize)]
/// # #[entity(pk(prefix = "SEASON", season, shard(shards = 16, by = player)), sk(prefix = "RUN", score(desc), player))]
/// # struct Run { season: u16, score: u64, player: String }
/// # async fn run(client: aws_sdk_dynamodb::Client) -> Result<(), Box<dyn std::error::Error>> {
/// use sortkey_core::dynamodb::query_merged;
///
/// let season = Run::query(&RunPk { season: 2026, shard: 0 })?;
/// let top = query_merged(&client, "runs", &season, true, 10, None).await?;
/// for (shard, run) in &top.entities {
///     println!("{} {} (shard {shard})", run.score, run.player);
/// }
/// let after = query_merged(&client, "runs", &season, true, 10, top.next.as_ref()).await?;
/// # Ok(())
/// # }
/// ```
pub async fn query_merged<E>(
    client: &Client,
    table: &str,
    query: &TableQuery<E>,
    forward: bool,
    limit: usize,
    start: Option<&MergeCursor>,
) -> Result<MergedEntities<E>, ItemError>
where
    E: Entity + DeserializeOwned,
    E::Partition: Sharded + Clone + for<'k> crate::encoding::key::DecodeKey<'k>,
{
    query_merged_moving(client, table, query, &[], forward, limit, start).await
}

/// A sort key with older layouts (`legacy`) is refused ([`ItemErrorKind::Query`]): the merged
/// read would say its condition on the current layout alone. Read it once the sort key's
/// migration is done, or a shard at a time through [`query_page`](super::query_page).
///
/// [`query_merged`] while the partition's items move from another shard count to the entity's
/// (`sortkey migrate --to` of the partition key's layouts): the entity's shards and `older`, the
/// partitions of the other count (its old key type's `every_shard()`), read merged as one, an
/// item found in both (copied, its old copy not yet deleted) returned once, from the entity's
/// shards ([`Merge::copies`]). A shard of `older` is numbered after the entity's (`N + i` for
/// `older[i]`). With `older` empty it is [`query_merged`].
///
/// ```no_run
/// # use sortkey_core::{Entity, SortKey};
/// # #[derive(Entity, serde::Serialize, serde::Deserialize)]
/// # #[entity(pk(prefix = "SEASON", season, shard(shards = 16, by = player)), sk(prefix = "RUN", score(desc), player))]
/// # struct Run { season: u16, score: u64, player: String }
/// # async fn run(client: aws_sdk_dynamodb::Client) -> Result<(), Box<dyn std::error::Error>> {
/// use sortkey_core::Sharded;
/// use sortkey_core::dynamodb::query_merged_moving;
///
/// /// The partition key as it was: 4 shards.
/// #[derive(SortKey, Clone)]
/// #[key(partition, prefix = "SEASON")]
/// struct RunPkV1 {
///     season: u16,
///     #[key(shards = 4, by = player)]
///     shard: u16,
/// }
///
/// let older = RunPkV1 { season: 2026, shard: 0 }.every_shard()?;
/// let season = Run::query(&RunPk { season: 2026, shard: 0 })?;
/// let top = query_merged_moving(&client, "runs", &season, &older, true, 10, None).await?;
/// # Ok(())
/// # }
/// ```
pub async fn query_merged_moving<E>(
    client: &Client,
    table: &str,
    query: &TableQuery<E>,
    older: &[String],
    forward: bool,
    limit: usize,
    start: Option<&MergeCursor>,
) -> Result<MergedEntities<E>, ItemError>
where
    E: Entity + DeserializeOwned,
    E::Partition: Sharded + Clone + for<'k> crate::encoding::key::DecodeKey<'k>,
{
    let error = |kind| ItemError::new(E::NAME, kind);
    // A sort key with older layouts would be read by its current layout's condition alone.
    if let Some(older) = <E::Sort as crate::encoding::key::SortKey>::LAYOUT.legacy().first() {
        let reason = QueryErrorKind::OutOfOrder {
            expected: "a sort key without older layouts, or a page of one shard through query_page".to_owned(),
            found: "a merged read of a sharded partition, which reads the current layout's keys alone".to_owned(),
        };
        let layout = crate::dynamic::DynLayout::from(*older).to_string();
        let kind = QueryErrorKind::OlderLayout { version: 1, layout, reason: Box::new(reason) };
        let key = E::LAYOUTS.iter().find(|l| l.index.is_none() && Some(l.attribute) == E::KEYS.sort());
        return Err(error(ItemErrorKind::Query(QueryError::new(key.map_or(E::NAME, |l| l.name), None, kind))));
    }
    let partition = <E::Partition as crate::encoding::key::SortKey>::decode(query.partition_query().partition())
        .map_err(|e| error(ItemErrorKind::Decode(e)))?;
    let mut partitions = partition.every_shard().map_err(|e| error(ItemErrorKind::Encode(e)))?;
    partitions.extend(older.iter().cloned());
    let sharded = ShardedQuery {
        table,
        partitions: &partitions,
        partition_attribute: E::KEYS.partition(),
        sort_attribute: E::KEYS.sort().unwrap_or_default(),
        forward,
        limit,
        ties: E::Partition::SHARDS.rule() == ShardRule::Random,
        copies: !older.is_empty(),
    };
    let page = sharded
        .run(client, |pk| query.in_partition(pk.to_owned()).expression(), start)
        .await
        .map_err(|failed| error(ItemErrorKind::Request(failed.to_string())))?;
    let entities = page
        .items
        .into_iter()
        .map(|(shard, item)| Ok((shard, E::from_item(&item)?)))
        .collect::<Result<Vec<_>, ItemError>>()?;
    Ok(MergedEntities {
        entities,
        next: page.next,
        read: page.read,
        requests: page.requests,
        read_units: page.read_units,
    })
}
