//! `sortkey rank`: a value's rank on a table's partition (every shard of it), read from the
//! rank counters the lock's `rank` line says the layout keeps (sortkey-core's `dynamodb::rank`):
//! N + 2 requests over N shards, whatever the rank.

use aws_sdk_dynamodb::Client;
use serde::{Deserialize, Serialize};
use sortkey_core::dynamodb::{RankBoard, RankFailure, rank};

use crate::ask::{AskError, Context, RankAsk};
use crate::output::{Answer, Document, format_tag, outln};
use crate::session::Session;
use crate::sharded::{self, Partition, Place};
use crate::table;

format_tag! {
    /// The rank's format.
    RankFormat = "sortkey rank 1"
}

/// The report of `sortkey rank`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct RankDocument {
    pub(crate) format: RankFormat,
    /// The `sortkey rank` command line that gives this document, as its arguments.
    pub(crate) command: Vec<String>,
    pub(crate) table: String,
    /// The partition as asked.
    pub(crate) pk: String,
    /// The partitions ranked over: the partition, or each shard.
    pub(crate) partitions: Vec<String>,
    pub(crate) layout: String,
    /// The ranked field and its levels of counters.
    pub(crate) field: String,
    pub(crate) levels: usize,
    /// The key ranked (the layout's encoding of the values given).
    pub(crate) key: String,
    /// `forward` (ascending keys) or `reverse`.
    pub(crate) order: String,
    /// One more than the items that sort before the key in that order.
    pub(crate) rank: u64,
    /// What the read cost.
    pub(crate) requests: u32,
    pub(crate) counters: u32,
    pub(crate) bucket_items: u64,
    pub(crate) read_units: f64,
}

/// Ranks the ask's key and prints its report.
pub(crate) fn run(session: &Session, ask: &RankAsk) -> Result<Answer, AskError> {
    let doc = session.runtime.block_on(async {
        let client = session.client().await;
        answer(&client, &session.context(), ask).await
    })?;
    Ok(Answer::of(doc))
}

/// The rank of the ask's key on its table's partition, read from the counters.
pub(crate) async fn answer(client: &Client, ctx: &Context<'_>, ask: &RankAsk) -> Result<RankDocument, AskError> {
    let ranked = ask.validate(ctx)?;
    let place = Place { table: &ask.table, index: None, pk: &ask.pk };
    let partitions = match sharded::resolve(client, ctx.lock, &place, None).await? {
        Partition::One { pk, .. } => vec![pk],
        Partition::Merged(sharded, _) => sharded.partitions,
    };
    let (pk, sk) = table::key_names(client, &ask.table, None).await?;
    let sk = sk.ok_or_else(|| AskError::bad(format!("table {} has no sort key to rank by", ask.table)))?;
    let board = RankBoard { table: ask.table.clone(), pk, sk, partitions, ranked: ranked.field.clone() };
    let read = rank(client, &board, &ranked.key, !ask.reverse).await.map_err(|e| match e {
        RankFailure::Request(e) => AskError::from(e),
        other => AskError::refused(other.to_string()),
    })?;
    Ok(RankDocument {
        format: RankFormat,
        command: ask.command_line(ctx).argv,
        table: ask.table.clone(),
        pk: ask.pk.clone(),
        partitions: board.partitions,
        layout: ranked.layout,
        field: ranked.field.field().to_owned(),
        levels: ranked.field.levels(),
        key: ranked.key,
        order: (if ask.reverse { "reverse" } else { "forward" }).to_owned(),
        rank: read.rank,
        requests: read.requests,
        counters: read.counters,
        bucket_items: read.bucket_items,
        read_units: read.read_units,
    })
}

impl Document for RankDocument {
    fn print_table(&self) {
        let over = match self.partitions.len() {
            1 => String::new(),
            n => format!(" over {n} shards"),
        };
        outln!("{} `{}`{over}: rank {} of {} ({})", self.table, self.pk, self.rank, self.key, self.order);
        outln!(
            "read: {} requests, {} counter items of `{}.{}` ({} levels), {} items in the finest buckets, {} read units",
            self.requests,
            self.counters,
            self.layout,
            self.field,
            self.levels,
            self.bucket_items,
            self.read_units
        );
    }
}
