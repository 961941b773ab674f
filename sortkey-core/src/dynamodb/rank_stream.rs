//! Rank counters kept from a DynamoDB stream instead of in each write's transaction: the
//! eventually exact way. The application writes its items as it would without counters (one
//! write unit a put); a stream consumer (a Lambda, say) hands each batch of the table's stream
//! records to [`apply_stream`], which sums the batch's key changes by partition and writes each
//! partition's counters in one transaction, with the stream shard's last applied sequence number
//! on the root counter, so that a batch delivered again is applied once. The counters lag the
//! items by the stream's delay, and equal them once every record is applied.

use aws_sdk_dynamodb::Client;

use super::RequestError;
use super::rank::{RankBoard, RankFailure, root_item};
use crate::migrate::counters::{CounterTable, MoveCounts};

/// One stream record of an item of the board: its sequence number, its partition, and its sort
/// key before (`OldImage`; `None` for an `INSERT`) and after (`NewImage`; `None` for a
/// `REMOVE`). A move to another key is two records, a `REMOVE` and an `INSERT`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamedChange {
    /// The record's `SequenceNumber` (a string of digits).
    pub sequence: String,
    /// The item's partition key.
    pub partition: String,
    /// Its sort key before the write.
    pub before: Option<String>,
    /// Its sort key after the write.
    pub after: Option<String>,
}

/// What [`apply_stream`] did with a batch.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StreamApplied {
    /// The records applied now.
    pub applied: usize,
    /// The records a delivery before had applied already, left out.
    pub skipped: usize,
    /// The transactions written (one a partition whose counters change).
    pub transactions: u32,
    /// Their actions (counter items updated).
    pub actions: u32,
}

/// The most a partition's counters are tried again after another consumer's batch moved its
/// mark meanwhile.
const STREAM_ATTEMPTS: usize = 4;

/// Applies one batch of stream records of `stream_shard` (the stream's shard id; records of a
/// shard arrive in order) to the board's counters: per partition, the records after the mark
/// the root counter holds for the shard, summed, in one transaction conditional on the mark,
/// which it moves to the batch's last record. Records of keys that are not on the board change
/// nothing but the mark.
pub async fn apply_stream(
    client: &Client,
    board: &RankBoard,
    stream_shard: &str,
    changes: &[StreamedChange],
) -> Result<StreamApplied, RankFailure> {
    let mark = format!("stream {stream_shard}");
    let mut done = StreamApplied::default();
    let mut partitions: Vec<&str> = changes.iter().map(|c| c.partition.as_str()).collect();
    partitions.sort_unstable();
    partitions.dedup();
    for partition in partitions {
        let mine: Vec<&StreamedChange> = changes.iter().filter(|c| c.partition == partition).collect();
        let (mut attempt, mut applied_before) = (0, 0);
        loop {
            let applied = applied_mark(client, board, partition, &mark).await?;
            let fresh: Vec<&StreamedChange> = mine
                .iter()
                .copied()
                .filter(|c| applied.as_deref().is_none_or(|a| padded(&c.sequence).as_str() > a))
                .collect();
            if fresh.is_empty() {
                done.skipped += mine.len() - applied_before;
                break;
            }
            // As many records as one transaction's 100 counter items hold.
            let group = within_one_transaction(board, &fresh);
            let mut counts = MoveCounts::default();
            let ranked = std::slice::from_ref(&board.ranked);
            for c in &group {
                let (before, after) = (c.before.as_deref(), c.after.as_deref());
                counts.add(ranked, before.map(|sk| (partition, sk)), after.map(|sk| (partition, sk)));
            }
            let changes = counts.by_partition().into_iter().map(|(_, _, c)| c).next().unwrap_or_default();
            let table = CounterTable { table: &board.table, pk: &board.pk, sk: &board.sk };
            let to = padded(&group[group.len() - 1].sequence);
            let actions = table
                .updates_marked(&board.ranked, partition, changes, Some((&mark, applied.as_deref(), &to)))
                .map_err(|e| RankFailure::NotOnBoard {
                    table: board.table.clone(),
                    key: partition.to_owned(),
                    expected: e.to_string(),
                })?;
            let count = actions.len() as u32;
            match client.transact_write_items().set_transact_items(Some(actions)).send().await {
                Ok(_) => {
                    done.applied += group.len();
                    applied_before += group.len();
                    done.transactions += 1;
                    done.actions += count;
                }
                // Another consumer moved the mark, or wrote the counters, meanwhile: read again.
                Err(e)
                    if attempt + 1 < STREAM_ATTEMPTS
                        && e.as_service_error().is_some_and(|s| s.is_transaction_canceled_exception()) =>
                {
                    attempt += 1;
                }
                Err(e) => return Err(RequestError::from_sdk("TransactWriteItems", &board.table, &e).into()),
            }
        }
    }
    Ok(done)
}

/// The first records of `fresh` whose counter items (the nodes on their keys' paths) number at
/// most 100, one transaction's actions; at least one record.
fn within_one_transaction<'c>(board: &RankBoard, fresh: &[&'c StreamedChange]) -> Vec<&'c StreamedChange> {
    let mut nodes = std::collections::BTreeSet::new();
    let mut group = Vec::new();
    for c in fresh {
        let mut more = nodes.clone();
        for sk in c.before.iter().chain(&c.after) {
            if let Some(digits) = board.ranked.digits(sk) {
                more.extend(board.ranked.path(digits).map(str::to_owned));
            }
        }
        more.insert(String::new());
        if more.len() > 100 && !group.is_empty() {
            break;
        }
        nodes = more;
        group.push(*c);
    }
    group
}

/// The last sequence number of the shard applied to `partition`'s counters (padded).
async fn applied_mark(
    client: &Client,
    board: &RankBoard,
    partition: &str,
    mark: &str,
) -> Result<Option<String>, RankFailure> {
    let root = root_item(client, board, partition).await?;
    Ok(root.as_ref().and_then(|i| i.get(mark)).and_then(|v| v.as_s().ok()).cloned())
}

/// A sequence number padded to 40 digits, so that strings compare as the numbers do.
fn padded(sequence: &str) -> String {
    format!("{sequence:0>40}")
}
