//! Rank counters held to the items: a check that reads a board's keys and its counter items and
//! names every counter that differs from the count of its items, and a repair that rewrites
//! them from that count without losing a write made meanwhile.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, ConditionCheck, Delete, Put, TransactWriteItem};

use super::rank::{RANK_ATTEMPTS, RankBoard, RankFailure, counts, number, root_item};
use super::{Attributes, RequestError};

/// A counter item that differs from the items it counts: its partition, its trie node, the
/// counts it holds and the counts of the items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterDifference {
    /// The partition (a shard of the board).
    pub partition: String,
    /// The trie node (the leading digits it counts under; empty for the root).
    pub node: String,
    /// The ten counts the counter item holds (zeros when there is none).
    pub counters: [u64; 10],
    /// The ten counts of the partition's items.
    pub items: [u64; 10],
}

/// One partition read whole: its board keys' tally, its counter items' counts, its write count.
struct Read {
    tally: BTreeMap<String, [u64; 10]>,
    counters: BTreeMap<String, [u64; 10]>,
    version: u64,
    /// The root's other attributes (a stream's marks, `apply_stream`), which its rewrite keeps.
    root_rest: Attributes,
}

/// Every sort key of `partition` (keys and counters only), page by page.
async fn read_partition(client: &Client, board: &RankBoard, partition: &str) -> Result<Read, RankFailure> {
    let (mut keys, mut counters, mut version, mut start) = (Vec::new(), BTreeMap::new(), 0, None);
    let mut root_rest = Attributes::new();
    loop {
        let page = client
            .query()
            .table_name(&board.table)
            .key_condition_expression("#p = :p")
            .expression_attribute_names("#p", &board.pk)
            .expression_attribute_values(":p", AttributeValue::S(partition.to_owned()))
            .consistent_read(true)
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(|e| RequestError::from_sdk("Query", &board.table, &e))?;
        for item in page.items() {
            let Some(AttributeValue::S(sk)) = item.get(&board.sk) else { continue };
            match board.ranked.node_of(sk) {
                Some(node) => {
                    if node.is_empty() {
                        version = number(Some(item), "v");
                        let ours = |name: &str| name == "v" || name == board.pk || name == board.sk || is_count(name);
                        root_rest =
                            item.iter().filter(|(n, _)| !ours(n)).map(|(n, v)| (n.clone(), v.clone())).collect();
                    }
                    counters.insert(node.to_owned(), counts(Some(item)));
                }
                None => keys.push(sk.clone()),
            }
        }
        match page.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => break,
        }
    }
    Ok(Read { tally: board.ranked.tally(keys.iter().map(String::as_str)), counters, version, root_rest })
}

/// Whether `name` is one of a counter item's ten counts (`c0`..`c9`).
fn is_count(name: &str) -> bool {
    name.len() == 2 && name.starts_with('c') && name.as_bytes()[1].is_ascii_digit()
}

/// The nodes whose counters differ from the items' counts (a node with no item counts zero).
fn differences(partition: &str, read: &Read) -> Vec<CounterDifference> {
    let nodes: BTreeSet<&String> = read.tally.keys().chain(read.counters.keys()).collect();
    nodes
        .into_iter()
        .filter_map(|node| {
            let counters = read.counters.get(node).copied().unwrap_or_default();
            let items = read.tally.get(node).copied().unwrap_or_default();
            (counters != items).then(|| CounterDifference {
                partition: partition.to_owned(),
                node: node.clone(),
                counters,
                items,
            })
        })
        .collect()
}

/// Every counter of the board that differs from the items it counts: each partition's keys
/// and counter items read whole (a consistent Query, page by page). Empty when the counters are
/// exact. The partition's write count is read before and after it: unchanged, no write ran
/// while the partition was read, and the comparison is of one state. A partition written
/// meanwhile is read again, up to [`RANK_ATTEMPTS`] times, then `Busy`.
pub async fn check_counters(client: &Client, board: &RankBoard) -> Result<Vec<CounterDifference>, RankFailure> {
    let mut found = Vec::new();
    for partition in &board.partitions {
        let mut attempts = 0;
        loop {
            let before = write_count(client, board, partition).await?;
            let read = read_partition(client, board, partition).await?;
            if write_count(client, board, partition).await? == before {
                found.extend(differences(partition, &read));
                break;
            }
            attempts += 1;
            if attempts == RANK_ATTEMPTS {
                return Err(RankFailure::Busy { table: board.table.clone(), attempts });
            }
        }
    }
    Ok(found)
}

/// The partition's write count now (`v` on its root counter; 0 without one), read consistently.
async fn write_count(client: &Client, board: &RankBoard, partition: &str) -> Result<u64, RankFailure> {
    Ok(number(root_item(client, board, partition).await?.as_ref(), "v"))
}

/// Rewrites every counter that differs from the items it counts, partition by partition: each
/// batch of up to 99 counter items is written (or deleted, when it counts nothing) in a
/// transaction conditional on the partition's write count being the one read, so that a write
/// made meanwhile cancels the batch and the partition is read again (up to
/// [`RANK_ATTEMPTS`] times) instead of being overwritten. Returns the counter items rewritten.
pub async fn repair_counters(client: &Client, board: &RankBoard) -> Result<usize, RankFailure> {
    let mut rewritten = 0;
    for partition in &board.partitions {
        let mut attempts = 0;
        loop {
            let read = read_partition(client, board, partition).await?;
            let wrong = differences(partition, &read);
            if wrong.is_empty() {
                break;
            }
            attempts += 1;
            match write_batches(client, board, partition, &read, &wrong).await {
                Ok(n) => rewritten += n,
                Err(_) if attempts < RANK_ATTEMPTS => continue,
                Err(e) => return Err(e),
            }
        }
    }
    Ok(rewritten)
}

/// The counter items of `wrong` written as the items count them, in batches conditional on the
/// partition's write count `read.version`.
async fn write_batches(
    client: &Client,
    board: &RankBoard,
    partition: &str,
    read: &Read,
    wrong: &[CounterDifference],
) -> Result<usize, RankFailure> {
    let key = |node: &str| board.key(partition, &board.ranked.counter_key(node));
    let build = |e: aws_sdk_dynamodb::error::BuildError| RankFailure::NotOnBoard {
        table: board.table.clone(),
        key: partition.to_owned(),
        expected: e.to_string(),
    };
    let mut written = 0;
    for batch in wrong.chunks(99) {
        let names = HashMap::from([("#v".to_owned(), "v".to_owned())]);
        let values = HashMap::from([(":v".to_owned(), AttributeValue::N(read.version.to_string()))]);
        // The write count as read: absent when the partition never had a ranked write.
        let condition = if read.version == 0 { "attribute_not_exists(#v) OR #v = :v" } else { "#v = :v" };
        let check = ConditionCheck::builder()
            .table_name(&board.table)
            .set_key(Some(key("")))
            .condition_expression(condition)
            .set_expression_attribute_names(Some(names))
            .set_expression_attribute_values(Some(values))
            .build()
            .map_err(build)?;
        let mut actions = Vec::new();
        let root_in_batch = batch.iter().any(|d| d.node.is_empty());
        if !root_in_batch {
            actions.push(TransactWriteItem::builder().condition_check(check).build());
        }
        for difference in batch {
            let mut item = key(&difference.node);
            let empty = difference.items.iter().all(|&c| c == 0) && !difference.node.is_empty();
            if empty {
                let delete = Delete::builder().table_name(&board.table).set_key(Some(item)).build().map_err(build)?;
                actions.push(TransactWriteItem::builder().delete(delete).build());
                continue;
            }
            for (d, count) in difference.items.iter().enumerate() {
                item.insert(format!("c{d}"), AttributeValue::N(count.to_string()));
            }
            let mut put = Put::builder().table_name(&board.table).set_item(Some(item));
            if difference.node.is_empty() {
                // The root keeps its write count, and is written only if it is still the one read.
                put = read.root_rest.iter().fold(put, |put, (n, v)| put.item(n, v.clone()));
                put = put
                    .item("v", AttributeValue::N(read.version.to_string()))
                    .condition_expression(condition)
                    .expression_attribute_names("#v", "v")
                    .expression_attribute_values(":v", AttributeValue::N(read.version.to_string()));
            }
            actions.push(TransactWriteItem::builder().put(put.build().map_err(build)?).build());
        }
        client
            .transact_write_items()
            .set_transact_items(Some(actions))
            .send()
            .await
            .map_err(|e| RequestError::from_sdk("TransactWriteItems", &board.table, &e))?;
        written += batch.len();
    }
    Ok(written)
}
