//! Rank counters held to their items, as the command reports them: a counter item that differs
//! from the count of its items (`sortkey rank --check`), and the check of every ranked partition
//! an audit's Scan came upon (`sortkey audit`), each with the command that repairs it.

use aws_sdk_dynamodb::Client;
use serde::{Deserialize, Serialize};
use sortkey_core::RankedField;
use sortkey_core::dynamodb::{CounterDifference, RankBoard, RankFailure, check_counters};

use crate::ask::{Context, RankAsk};
use crate::outcome::AskError;

/// A counter item that differs from the count of its items.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Difference {
    pub(crate) partition: String,
    /// The leading digits it counts under (empty: the root).
    pub(crate) node: String,
    pub(crate) counters: [u64; 10],
    pub(crate) items: [u64; 10],
}

impl From<CounterDifference> for Difference {
    fn from(d: CounterDifference) -> Self {
        Difference { partition: d.partition, node: d.node, counters: d.counters, items: d.items }
    }
}

/// A rank failure as the command's error: a request's own kind, anything else refused.
pub(crate) fn failed(e: RankFailure) -> AskError {
    match e {
        RankFailure::Request(e) => AskError::from(e),
        other => AskError::refused(other.to_string()),
    }
}

/// What an audit found of the rank counters: how many ranked partitions it checked, and those
/// whose counters differ from their items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct CountersReport {
    /// The ranked partitions (each partition, or shard, holding a layout's root counter item).
    pub(crate) checked: u64,
    /// The partitions whose counters differ, each with the command that repairs them.
    pub(crate) differ: Vec<PartitionCounters>,
}

/// One ranked partition whose counters differ from its items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct PartitionCounters {
    pub(crate) partition: String,
    pub(crate) layout: String,
    pub(crate) field: String,
    pub(crate) differences: Vec<Difference>,
    /// `sortkey rank --table T --pk PARTITION --layout L --repair`, as its arguments.
    pub(crate) repair: Vec<String>,
}

/// A ranked partition an audit came upon: the layout (by its name in the lock), its ranked
/// field, and the partition (a shard's, for a sharded partition key).
pub(crate) struct RankedPartition {
    pub(crate) layout: String,
    pub(crate) field: RankedField,
    pub(crate) partition: String,
}

/// Each ranked partition of `table` (key attributes `pk`, `sk`) read whole and its counters held
/// to its items: a consistent Query a partition, as `sortkey rank --check` reads it.
pub(crate) async fn check_partitions(
    client: &Client,
    ctx: &Context<'_>,
    (table, pk, sk): (&str, &str, &str),
    partitions: Vec<RankedPartition>,
) -> Result<CountersReport, AskError> {
    let mut report = CountersReport { checked: partitions.len() as u64, differ: Vec::new() };
    for p in partitions {
        let board = RankBoard {
            table: table.to_owned(),
            pk: pk.to_owned(),
            sk: sk.to_owned(),
            partitions: vec![p.partition.clone()],
            ranked: p.field.clone(),
        };
        let differences = check_counters(client, &board).await.map_err(failed)?;
        if differences.is_empty() {
            continue;
        }
        let ask = RankAsk {
            table: table.to_owned(),
            pk: p.partition.clone(),
            layout: Some(p.layout.clone()),
            reverse: false,
            check: false,
            repair: true,
            conditions: Vec::new(),
        };
        report.differ.push(PartitionCounters {
            partition: p.partition,
            layout: p.layout,
            field: p.field.field().to_owned(),
            differences: differences.into_iter().map(Difference::from).collect(),
            repair: ask.command_line(ctx).argv,
        });
    }
    Ok(report)
}
