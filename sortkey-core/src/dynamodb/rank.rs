//! Rank counters on DynamoDB: a write of a ranked item and its counters in one transaction, and
//! a rank read in N + 2 requests over N shards (one snapshot of every shard's counters, a
//! TransactGetItems, one `Select = COUNT` Query a shard inside the finest bucket, one point read
//! of every shard's write count to tell that no write ran between them). The arithmetic is [`RankedField`]'s.

use std::collections::HashMap;
use std::fmt;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeValue, Delete, Get, KeysAndAttributes, Put, ReturnConsumedCapacity, TransactGetItem, TransactWriteItem,
};

use super::{Attributes, RequestError};
use crate::migrate::counters::CounterTable;
use crate::query::MergeCursor;
use crate::table::rank::RankedField;

/// A ranked board: the table, its key attributes, the partitions it spans (one, or every shard
/// of a sharded partition key) and the ranked field of its sort key.
#[derive(Debug, Clone)]
pub struct RankBoard {
    /// The table.
    pub table: String,
    /// The partition key attribute.
    pub pk: String,
    /// The sort key attribute.
    pub sk: String,
    /// The board's partitions: its partition key, or each shard's.
    pub partitions: Vec<String>,
    /// The ranked field and its counters.
    pub ranked: RankedField,
}

/// What a rank read found and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct RankRead {
    /// One more than the items of the board that sort before the key, in the read's order.
    pub rank: u64,
    /// The requests it sent: N + 2 for N partitions while the finest buckets fit a Query's
    /// page, more when it was made again because the board changed under it.
    pub requests: u32,
    /// The counter items it read.
    pub counters: u32,
    /// The items the Queries inside the finest buckets counted (DynamoDB's `ScannedCount`).
    pub bucket_items: u64,
    /// The read units DynamoDB says it spent (none when the server does not say).
    pub read_units: f64,
}

/// Why a rank write or read failed: a key that is not on the board, or a request.
#[derive(Debug)]
pub enum RankFailure {
    /// The key holds no digits of the ranked field where its layout writes them.
    NotOnBoard {
        /// The board's table.
        table: String,
        /// The key.
        key: String,
        /// What the board expected.
        expected: String,
    },
    /// A request failed (the write's transaction changed nothing).
    Request(RequestError),
    /// Writes of the board ran between a rank read's requests in each of its attempts.
    Busy {
        /// The board's table.
        table: String,
        /// The attempts made.
        attempts: u32,
    },
}

impl fmt::Display for RankFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RankFailure::NotOnBoard { table, key, expected } => {
                write!(f, "rank on table `{table}`: key `{key}` is not on the board: expected {expected}")
            }
            RankFailure::Request(e) => write!(f, "rank: {e}"),
            RankFailure::Busy { table, attempts } => write!(
                f,
                "rank on table `{table}`: expected a moment without writes of the board between a read's requests, \
                 found writes in each of {attempts} attempts"
            ),
        }
    }
}

impl std::error::Error for RankFailure {}

impl From<RequestError> for RankFailure {
    fn from(e: RequestError) -> Self {
        RankFailure::Request(e)
    }
}

impl RankBoard {
    /// The digits of the ranked field in the sort key `key` of the board.
    pub(super) fn digits<'k>(&self, key: &'k str) -> Result<&'k str, RankFailure> {
        self.ranked.digits(key).ok_or_else(|| RankFailure::NotOnBoard {
            table: self.table.clone(),
            key: key.to_owned(),
            expected: format!("`{}` then {} digits of the ranked field", self.ranked.key_prefix(), self.ranked.width()),
        })
    }

    /// The counter updates of a write in `partition` whose ranked digits go from `old` to `new`
    /// (`None`: no item), one `ADD` a changed trie node, to join the item's own action in one
    /// transaction. The root's write count `v` grows by one at every write of the partition, so
    /// that a rank read tells whether any write ran between its requests (its counts alone can
    /// change and change back).
    pub(super) fn counter_actions(
        &self,
        partition: &str,
        old: Option<&str>,
        new: Option<&str>,
    ) -> Result<Vec<TransactWriteItem>, RankFailure> {
        let moved = old.is_some() && new.is_some();
        let changes = match moved && planted_bug!(RankMoveWithoutCounters) {
            true => Default::default(),
            false => self.ranked.changes(old, new),
        };
        let table = CounterTable { table: &self.table, pk: &self.pk, sk: &self.sk };
        table.updates(&self.ranked, partition, changes).map_err(|e| RankFailure::NotOnBoard {
            table: self.table.clone(),
            key: partition.to_owned(),
            expected: e.to_string(),
        })
    }

    pub(super) fn key(&self, partition: &str, sort_key: &str) -> Attributes {
        HashMap::from([
            (self.pk.clone(), AttributeValue::S(partition.to_owned())),
            (self.sk.clone(), AttributeValue::S(sort_key.to_owned())),
        ])
    }
}

/// Writes one item of `partition` with its counters in one transaction: `before`, the sort key
/// the item has now (`None`: a new item), and `after`, the whole item it becomes (`None`: it is
/// deleted; its key attributes name where it goes: a move when its sort key differs; its
/// partition key must be `partition`, or nothing is written: `NotOnBoard`). The item
/// must be where `before` says and its new key free, or nothing changes (a conditional
/// transaction), so that at every committed state the counters equal the items. Returns the
/// actions the transaction held.
pub async fn write_ranked(
    client: &Client,
    board: &RankBoard,
    partition: &str,
    before: Option<&str>,
    after: Option<Attributes>,
) -> Result<usize, RankFailure> {
    if let Some(item) = &after {
        // The counters are kept in `partition`: an item of another partition would be counted
        // where it is not.
        let found = match item.get(&board.pk) {
            Some(AttributeValue::S(pk)) if pk == partition => None,
            Some(AttributeValue::S(pk)) => Some(format!("partition `{pk}`")),
            Some(_) => Some("a partition key that is no string".to_owned()),
            None => Some("no partition key".to_owned()),
        };
        if let Some(found) = found {
            return Err(RankFailure::NotOnBoard {
                table: board.table.clone(),
                key: item.get(&board.sk).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default(),
                expected: format!("an item of partition `{partition}` (attribute `{}`), found {found}", board.pk),
            });
        }
    }
    let after_key = match &after {
        Some(item) => match item.get(&board.sk) {
            Some(AttributeValue::S(sk)) => Some(sk.clone()),
            _ => {
                return Err(RankFailure::NotOnBoard {
                    table: board.table.clone(),
                    key: String::new(),
                    expected: format!("an item with the string sort key attribute `{}`", board.sk),
                });
            }
        },
        None => None,
    };
    let old = before.map(|k| board.digits(k)).transpose()?;
    let new = after_key.as_deref().map(|k| board.digits(k)).transpose()?;
    let build = |e: aws_sdk_dynamodb::error::BuildError| RankFailure::NotOnBoard {
        table: board.table.clone(),
        key: partition.to_owned(),
        expected: e.to_string(),
    };
    let mut actions = Vec::new();
    let names = HashMap::from([("#k".to_owned(), board.pk.clone())]);
    let same = before.is_some() && before == after_key.as_deref();
    if let Some(item) = after {
        let condition = if same { "attribute_exists(#k)" } else { "attribute_not_exists(#k)" };
        let put = Put::builder()
            .table_name(&board.table)
            .set_item(Some(item))
            .condition_expression(condition)
            .set_expression_attribute_names(Some(names.clone()))
            .build()
            .map_err(build)?;
        actions.push(TransactWriteItem::builder().put(put).build());
    }
    if let Some(before) = before.filter(|_| !same) {
        let delete = Delete::builder()
            .table_name(&board.table)
            .set_key(Some(board.key(partition, before)))
            .condition_expression("attribute_exists(#k)")
            .set_expression_attribute_names(Some(names.clone()))
            .build()
            .map_err(build)?;
        actions.push(TransactWriteItem::builder().delete(delete).build());
    }
    actions.extend(board.counter_actions(partition, old, new)?);
    let count = actions.len();
    client
        .transact_write_items()
        .set_transact_items(Some(actions))
        .send()
        .await
        .map_err(|e| RequestError::from_sdk("TransactWriteItems", &board.table, &e))?;
    Ok(count)
}

/// The attempts a rank read makes before it says the board kept changing under it.
pub const RANK_ATTEMPTS: u32 = 4;

/// The rank of `key` (a sort key of the board, whole or only as far as the ranked field) over
/// every partition of the board: one more than the items that sort before it, in the read's
/// order (`forward`: ascending bytes, as a Query reads by default). One snapshot
/// (TransactGetItems, 100 keys a request) of every partition's counters on the key's path (and
/// of `key` itself, which is no item before it), then a `Select = COUNT` Query a partition over
/// the items sharing the key's first `levels` digits that sort before it, then a point read of
/// every partition's write count: N + 2 requests for N partitions (while the snapshot's keys
/// fit one request). When a write of the board ran between the first and the last
/// (a write count moved), the read is made again, up to [`RANK_ATTEMPTS`] times; so the rank is
/// always that of one state of the board.
pub async fn rank(client: &Client, board: &RankBoard, key: &str, forward: bool) -> Result<RankRead, RankFailure> {
    let digits = board.digits(key)?;
    let mut spent = RankRead { rank: 0, requests: 0, counters: 0, bucket_items: 0, read_units: 0.0 };
    for _ in 0..RANK_ATTEMPTS {
        let mut wanted: Vec<Attributes> = Vec::new();
        for partition in &board.partitions {
            wanted.extend(board.ranked.path(digits).map(|node| board.key(partition, &board.ranked.counter_key(node))));
            wanted.push(board.key(partition, key));
        }
        // One snapshot (a TransactGetItems of 100 keys, each partition's root first), not a
        // BatchGetItem, whose reads are each their own: a write between two of them would be
        // half seen, and the last read's write counts would not tell.
        let Some(first) = snapshot_reads(client, board, &wanted, &mut spent).await? else { continue };
        let mut read = RankRead { rank: 1, ..spent.clone() };
        let mut own: HashMap<&str, u64> = HashMap::new();
        for partition in &board.partitions {
            let nodes = |node: &str| first.counts(partition, &board.ranked.counter_key(node));
            read.rank += board.ranked.counted_before(digits, forward, nodes);
            read.counters +=
                board.ranked.path(digits).filter(|n| first.has(partition, &board.ranked.counter_key(n))).count() as u32;
            own.insert(partition, u64::from(first.has(partition, key)));
        }
        let (low, high) = board.ranked.bucket(digits, key, forward);
        for partition in &board.partitions {
            let counted = bucket_count(client, board, partition, (&low, &high), &mut read).await?;
            // The key itself is in its bucket's range but sorts before nothing.
            read.rank += counted.saturating_sub(own[partition.as_str()]);
        }
        let roots: Vec<Attributes> =
            board.partitions.iter().map(|p| board.key(p, &board.ranked.counter_key(""))).collect();
        let last = point_reads(client, board, &roots, &mut read).await?;
        let unchanged = board.partitions.iter().all(|p| {
            let root = board.ranked.counter_key("");
            first.version(p, &root) == last.version(p, &root)
        });
        spent = RankRead { rank: 0, counters: 0, bucket_items: 0, ..read.clone() };
        if unchanged {
            return Ok(read);
        }
    }
    Err(RankFailure::Busy { table: board.table.clone(), attempts: RANK_ATTEMPTS })
}

/// The board around a key: its rank and the items just before and just after it in the read's
/// order, merged over every partition (ties between partitions in partition order, as a merged
/// read orders them).
#[derive(Debug, Clone, PartialEq)]
pub struct RankPage {
    /// The key's rank and what reading it cost.
    pub rank: RankRead,
    /// Up to `around` items before the key, nearest last: the first has rank
    /// `rank.rank - above.len()`. Each with the index of its partition in the board.
    pub above: Vec<(usize, Attributes)>,
    /// Up to `around` items after the key (the key's own item first, when it is one), nearest
    /// first.
    pub below: Vec<(usize, Attributes)>,
    /// The Queries the two sides took (two a partition).
    pub requests: u32,
}

impl RankPage {
    /// Where the board goes on after the page, as a merged read's cursor (`<shard>:<sort key>` of
    /// its last item below the key): a merged read of the partition's shards
    /// ([`query_merged`](super::query_merged)) from it, in the same order, reads the players
    /// ranked next. `None` when nothing is below the key.
    pub fn next(&self, board: &RankBoard) -> Option<MergeCursor> {
        cursor(board, self.below.last())
    }

    /// Where the board goes on before the page: the cursor of its first item above the key,
    /// for a merged read the other way. `None` when nothing is above the key.
    pub fn previous(&self, board: &RankBoard) -> Option<MergeCursor> {
        cursor(board, self.above.first())
    }
}

/// The merged read's cursor at `item`, the index of its partition being its shard.
fn cursor(board: &RankBoard, item: Option<&(usize, Attributes)>) -> Option<MergeCursor> {
    let (partition, item) = item?;
    let sort = item.get(&board.sk)?.as_s().ok()?.clone();
    Some(MergeCursor { sort, shard: u16::try_from(*partition).ok()? })
}

/// The page of the board around `key`: its [`rank`] and the `around` items on each side of it,
/// in the read's order, each side one Query a partition (`Limit` of `around`) merged. The items
/// above a player are the ones ranked just ahead of it: `above[i]` has rank
/// `rank - above.len() + i`, `below[j]` rank `rank + j`.
pub async fn rank_page(
    client: &Client,
    board: &RankBoard,
    key: &str,
    forward: bool,
    around: u16,
) -> Result<RankPage, RankFailure> {
    let rank = rank(client, board, key, forward).await?;
    let limit = i32::from(around.max(1));
    let mut sides: [Vec<(String, usize, Attributes)>; 2] = [Vec::new(), Vec::new()];
    let mut requests = 0;
    for (p, partition) in board.partitions.iter().enumerate() {
        // Before the key in the read's order: below it ascending when forward, so read down.
        for (side, (operator, ascending)) in [("<", !forward), (">=", forward)].into_iter().enumerate() {
            let (operator, ascending) = if forward { (operator, ascending) } else { ([">", "<="][side], ascending) };
            let answer = client
                .query()
                .table_name(&board.table)
                .key_condition_expression(format!("#p = :p AND #s {operator} :k"))
                .expression_attribute_names("#p", &board.pk)
                .expression_attribute_names("#s", &board.sk)
                .expression_attribute_values(":p", AttributeValue::S(partition.clone()))
                .expression_attribute_values(":k", AttributeValue::S(key.to_owned()))
                .scan_index_forward(ascending)
                .limit(limit)
                .consistent_read(true)
                .send()
                .await
                .map_err(|e| RequestError::from_sdk("Query", &board.table, &e))?;
            requests += 1;
            for item in answer.items() {
                if let Some(AttributeValue::S(sk)) = item.get(&board.sk)
                    && board.ranked.digits(sk).is_some()
                {
                    sides[side].push((sk.clone(), p, item.clone()));
                }
            }
        }
    }
    // Nearest first on both sides. The read's order is ascending (key, partition) forward and
    // its reverse backward: walking away from the key, above goes against it and below with it.
    let [mut above, mut below] = sides;
    let ascending = |a: &(String, usize, Attributes), b: &(String, usize, Attributes)| (&a.0, a.1).cmp(&(&b.0, b.1));
    above.sort_by(|a, b| if forward { ascending(b, a) } else { ascending(a, b) });
    below.sort_by(|a, b| if forward { ascending(a, b) } else { ascending(b, a) });
    above.truncate(usize::from(around));
    above.reverse();
    below.truncate(usize::from(around));
    let strip = |side: Vec<(String, usize, Attributes)>| side.into_iter().map(|(_, p, item)| (p, item)).collect();
    Ok(RankPage { rank, above: strip(above), below: strip(below), requests })
}

/// The items a batch of point reads found, by partition and sort key.
struct Found {
    table: HashMap<(String, String), Attributes>,
}

impl Found {
    fn has(&self, partition: &str, sort_key: &str) -> bool {
        self.table.contains_key(&(partition.to_owned(), sort_key.to_owned()))
    }

    /// A counter item's ten counts (zeros when there is none).
    fn counts(&self, partition: &str, sort_key: &str) -> [u64; 10] {
        let item = self.table.get(&(partition.to_owned(), sort_key.to_owned()));
        counts(item)
    }

    /// A root counter's write count (0 when there is none).
    fn version(&self, partition: &str, sort_key: &str) -> u64 {
        number(self.table.get(&(partition.to_owned(), sort_key.to_owned())), "v")
    }
}

/// The root counter item of `partition` (its counts, the write count `v`, a stream's marks),
/// read consistently; `None` when the partition has none.
pub(super) async fn root_item(
    client: &Client,
    board: &RankBoard,
    partition: &str,
) -> Result<Option<Attributes>, RankFailure> {
    let root = client
        .get_item()
        .table_name(&board.table)
        .set_key(Some(board.key(partition, &board.ranked.counter_key(""))))
        .consistent_read(true)
        .send()
        .await
        .map_err(|e| RequestError::from_sdk("GetItem", &board.table, &e))?;
    Ok(root.item)
}

/// A counter item's ten counts `c0`..`c9` (zeros for a missing item or attribute).
pub(super) fn counts(item: Option<&Attributes>) -> [u64; 10] {
    std::array::from_fn(|d| number(item, &format!("c{d}")))
}

/// A number attribute of a counter item (0 for a missing item or attribute).
pub(super) fn number(item: Option<&Attributes>, name: &str) -> u64 {
    match item.and_then(|i| i.get(name)) {
        Some(AttributeValue::N(n)) => n.parse().unwrap_or(0),
        _ => 0,
    }
}

/// Consistent point reads of `keys`, 100 a BatchGetItem, unprocessed keys asked again; the
/// requests and read units added to `read`.
async fn point_reads(
    client: &Client,
    board: &RankBoard,
    keys: &[Attributes],
    read: &mut RankRead,
) -> Result<Found, RankFailure> {
    let text = |item: &Attributes, name: &str| match item.get(name) {
        Some(AttributeValue::S(s)) => Some(s.clone()),
        _ => None,
    };
    let mut found = Found { table: HashMap::new() };
    for batch in keys.chunks(100) {
        let mut asked = batch.to_vec();
        while !asked.is_empty() {
            let keys =
                KeysAndAttributes::builder().set_keys(Some(asked)).consistent_read(true).build().map_err(|e| {
                    RankFailure::NotOnBoard { table: board.table.clone(), key: String::new(), expected: e.to_string() }
                })?;
            let answer = client
                .batch_get_item()
                .request_items(&board.table, keys)
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .await
                .map_err(|e| RequestError::from_sdk("BatchGetItem", &board.table, &e))?;
            read.requests += 1;
            read.read_units += answer.consumed_capacity().iter().filter_map(|c| c.capacity_units()).sum::<f64>();
            for item in answer.responses().and_then(|r| r.get(&board.table)).into_iter().flatten() {
                if let (Some(p), Some(s)) = (text(item, &board.pk), text(item, &board.sk)) {
                    found.table.insert((p, s), item.clone());
                }
            }
            asked = answer
                .unprocessed_keys()
                .and_then(|u| u.get(&board.table))
                .map(|k| k.keys().to_vec())
                .unwrap_or_default();
        }
    }
    Ok(found)
}

/// Point reads of `keys` as serializable snapshots, 100 keys a TransactGetItems (a key's root
/// counter is asked before the rest of its partition's, so that a write between two snapshots
/// moves the root's write count the last read compares); the requests and read units added to
/// `read`. `None` when a write in progress cancelled one (the read is made again).
async fn snapshot_reads(
    client: &Client,
    board: &RankBoard,
    keys: &[Attributes],
    read: &mut RankRead,
) -> Result<Option<Found>, RankFailure> {
    let mut found = Found { table: HashMap::new() };
    for batch in keys.chunks(100) {
        let mut gets = Vec::with_capacity(batch.len());
        for key in batch {
            let get = Get::builder().table_name(&board.table).set_key(Some(key.clone())).build().map_err(|e| {
                RankFailure::NotOnBoard { table: board.table.clone(), key: String::new(), expected: e.to_string() }
            })?;
            gets.push(TransactGetItem::builder().get(get).build());
        }
        let sent = client
            .transact_get_items()
            .set_transact_items(Some(gets))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await;
        read.requests += 1;
        let answer = match sent {
            Ok(answer) => answer,
            Err(e) if e.as_service_error().is_some_and(|s| s.is_transaction_canceled_exception()) => return Ok(None),
            Err(e) => return Err(RequestError::from_sdk("TransactGetItems", &board.table, &e).into()),
        };
        read.read_units += answer.consumed_capacity().iter().filter_map(|c| c.capacity_units()).sum::<f64>();
        for (key, response) in batch.iter().zip(answer.responses()) {
            if let (Some(item), Some(AttributeValue::S(p)), Some(AttributeValue::S(s))) =
                (response.item(), key.get(&board.pk), key.get(&board.sk))
            {
                found.table.insert((p.clone(), s.clone()), item.clone());
            }
        }
    }
    Ok(Some(found))
}

/// The items of `partition` between `low` and `high` (both included), by `Select = COUNT`
/// Queries page after page; the requests, items and read units added to `read`.
async fn bucket_count(
    client: &Client,
    board: &RankBoard,
    partition: &str,
    (low, high): (&str, &str),
    read: &mut RankRead,
) -> Result<u64, RankFailure> {
    let (mut count, mut start) = (0, None);
    loop {
        let answer = client
            .query()
            .table_name(&board.table)
            .key_condition_expression("#p = :p AND #s BETWEEN :low AND :high")
            .expression_attribute_names("#p", &board.pk)
            .expression_attribute_names("#s", &board.sk)
            .expression_attribute_values(":p", AttributeValue::S(partition.to_owned()))
            .expression_attribute_values(":low", AttributeValue::S(low.to_owned()))
            .expression_attribute_values(":high", AttributeValue::S(high.to_owned()))
            .select(aws_sdk_dynamodb::types::Select::Count)
            .consistent_read(true)
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(|e| RequestError::from_sdk("Query", &board.table, &e))?;
        read.requests += 1;
        count += u64::try_from(answer.count()).unwrap_or(0);
        read.bucket_items += u64::try_from(answer.scanned_count()).unwrap_or(0);
        read.read_units += answer.consumed_capacity().and_then(|c| c.capacity_units()).unwrap_or(0.0);
        match answer.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => return Ok(count),
        }
    }
}
