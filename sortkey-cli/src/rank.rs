//! `sortkey rank`: a value's rank on a table's partition (every shard of it), read from the
//! rank counters the lock's `rank` line says the layout keeps (sortkey-core's `dynamodb::rank`):
//! N + 2 requests over N shards, whatever the rank.

use aws_sdk_dynamodb::Client;
use serde::{Deserialize, Serialize};
use sortkey_core::dynamodb::{RankBoard, check_counters, rank, repair_counters};

use crate::counters::{Difference, failed};

use crate::ask::{AskError, Context, RankAsk};
use crate::display::shown;
use crate::outcome::Outcome;
use crate::output::{Answer, Document, format_tag, outln};
use crate::session::Session;
use crate::sharded::{self, Partition, Place};
use crate::table;
use sortkey_core::RankedField;

format_tag! {
    /// The rank's format.
    RankFormat = "sortkey rank 1"
}

format_tag! {
    /// The counters' check's format.
    RankCheckFormat = "sortkey rank check 1"
}

/// The report of `sortkey rank --check` (and `--repair`): the counter items that differ from
/// the count of their items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct RankCheckDocument {
    pub(crate) format: RankCheckFormat,
    /// The command line that gives this document, as its arguments.
    pub(crate) command: Vec<String>,
    #[serde(flatten)]
    pub(crate) board: Board,
    /// The counter items `--repair` rewrote (0 for `--check`).
    pub(crate) repaired: usize,
    /// The counter items that differ, after the repair when there was one.
    pub(crate) differences: Vec<Difference>,
    /// The command that repairs them, as its arguments (none when nothing differs).
    pub(crate) repair: Option<Vec<String>>,
}

/// The board a rank document is of: the table, the partition as asked and the partitions it
/// spans (the partition, or each shard), the layout, its ranked field and levels of counters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Board {
    pub(crate) table: String,
    pub(crate) pk: String,
    pub(crate) partitions: Vec<String>,
    pub(crate) layout: String,
    pub(crate) field: String,
    pub(crate) levels: usize,
}

impl Board {
    fn of(ask: &RankAsk, board: &RankBoard, layout: String) -> Board {
        Board {
            table: ask.table.clone(),
            pk: ask.pk.clone(),
            partitions: board.partitions.clone(),
            layout,
            field: board.ranked.field().to_owned(),
            levels: board.ranked.levels(),
        }
    }

    /// `Runs `SEASON#2026` over 16 shards`, as the table output titles its report.
    fn title(&self) -> String {
        match self.partitions.len() {
            1 => format!("{} `{}`", shown(&self.table), shown(&self.pk)),
            n => format!("{} `{}` over {n} shards", shown(&self.table), shown(&self.pk)),
        }
    }
}

/// The report of `sortkey rank`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct RankDocument {
    pub(crate) format: RankFormat,
    /// The `sortkey rank` command line that gives this document, as its arguments.
    pub(crate) command: Vec<String>,
    #[serde(flatten)]
    pub(crate) board: Board,
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

/// Ranks the ask's key (or checks or repairs the counters) and prints its report.
pub(crate) fn run(session: &Session, ask: &RankAsk) -> Result<Answer, AskError> {
    session.runtime.block_on(async {
        let client = session.client().await;
        let ctx = session.context();
        Ok(match ask.check || ask.repair {
            true => Answer::of(check(&client, &ctx, ask).await?),
            false => Answer::of(answer(&client, &ctx, ask).await?),
        })
    })
}

/// The board the ask names: its table's key attributes and the partitions of its partition
/// (every shard of a sharded one).
async fn board(client: &Client, ctx: &Context<'_>, ask: &RankAsk, field: RankedField) -> Result<RankBoard, AskError> {
    let place = Place { table: &ask.table, index: None, pk: &ask.pk };
    let partitions = match sharded::resolve(client, ctx.lock, &place, None).await? {
        Partition::One { pk, .. } => vec![pk],
        Partition::Merged(sharded, _) => sharded.partitions,
    };
    let (pk, sk) = table::key_names(client, &ask.table, None).await?;
    let sk = sk.ok_or_else(|| AskError::bad(format!("table {} has no sort key to rank by", ask.table)))?;
    Ok(RankBoard { table: ask.table.clone(), pk, sk, partitions, ranked: field })
}

/// The counters of the ask's board held to its items, repaired first with `--repair`.
pub(crate) async fn check(client: &Client, ctx: &Context<'_>, ask: &RankAsk) -> Result<RankCheckDocument, AskError> {
    let ranked = ask.validate(ctx)?;
    let board = board(client, ctx, ask, ranked.field.clone()).await?;
    let repaired = match ask.repair {
        true => repair_counters(client, &board).await.map_err(failed)?,
        false => 0,
    };
    let differences: Vec<Difference> =
        check_counters(client, &board).await.map_err(failed)?.into_iter().map(Difference::from).collect();
    let repair = (!differences.is_empty()).then(|| {
        let again = RankAsk { check: false, repair: true, ..ask.clone() };
        again.command_line(ctx).argv
    });
    Ok(RankCheckDocument {
        format: RankCheckFormat,
        command: ask.command_line(ctx).argv,
        board: Board::of(ask, &board, ranked.layout),
        repaired,
        differences,
        repair,
    })
}

/// The rank of the ask's key on its table's partition, read from the counters.
pub(crate) async fn answer(client: &Client, ctx: &Context<'_>, ask: &RankAsk) -> Result<RankDocument, AskError> {
    let ranked = ask.validate(ctx)?;
    let key = ranked.key.clone().ok_or_else(|| AskError::bad("expected a value to rank, `field=value`"))?;
    let board = board(client, ctx, ask, ranked.field.clone()).await?;
    let read = rank(client, &board, &key, !ask.reverse).await.map_err(failed)?;
    Ok(RankDocument {
        format: RankFormat,
        command: ask.command_line(ctx).argv,
        board: Board::of(ask, &board, ranked.layout),
        key,
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
        outln!("{}: rank {} of {} ({})", self.board.title(), self.rank, shown(&self.key), self.order);
        outln!(
            "read: {} requests, {} counter items of `{}.{}` ({} levels), {} items in the finest buckets, {} read units",
            self.requests,
            self.counters,
            shown(&self.board.layout),
            shown(&self.board.field),
            self.board.levels,
            self.bucket_items,
            self.read_units
        );
    }
}

impl Document for RankCheckDocument {
    /// A counter that differs is a finding: exit status 1.
    fn outcome(&self) -> Outcome {
        if self.differences.is_empty() { Outcome::Clean } else { Outcome::Found }
    }

    fn print_table(&self) {
        let b = &self.board;
        outln!("{}: the counters of `{}.{}` ({} levels)", b.title(), shown(&b.layout), shown(&b.field), b.levels);
        if self.repaired > 0 {
            outln!("repaired: {} counter items rewritten from the items", self.repaired);
        }
        if self.differences.is_empty() {
            outln!("every counter equals the count of its items");
            return;
        }
        let mut t = crate::output::table(&["partition", "node", "counters", "items"]);
        for d in &self.differences {
            let counts = |c: &[u64; 10]| c.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
            t.add_row([shown(&d.partition).into_owned(), d.node.clone(), counts(&d.counters), counts(&d.items)]);
        }
        outln!("{t}");
        if let Some(repair) = &self.repair {
            outln!("repair: {}", crate::ask::CommandLine { argv: repair.clone() });
        }
    }
}
