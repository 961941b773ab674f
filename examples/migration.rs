//! Changing a key layout in production: the leaderboard's score widened from 10 to 12 digits.
//! The runs are in the old layout; the new key type reads both (`#[key(legacy = ...)]`), the
//! top of the board is answered correctly while the backfill runs (one range per live layout,
//! merged), the backfill rewrites every old run with a progress bar, and afterwards one layout
//! is left.
//!
//! Run with `cargo run --example migration`. With the `dynamodb` feature and `-- --endpoint URL
//! [--table NAME]` it runs against a DynamoDB table with `Backfill` over two Scan segments;
//! `SORTKEY_EXAMPLE=migration bash examples/leaderboard-moto.sh` does it against moto.

use indicatif::{ProgressBar, ProgressStyle};
use sortkey_core::{KeyCondition, SortKey, merge_layouts};
use sortkey_examples::{MemTable, Query, Target, TextTable};

/// The old layout: scores up to 9 999 999 999.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN")]
struct RankKeyV1 {
    #[key(width = 10, desc)]
    score: u64,
    player: String,
}

/// The new layout: 12 digits, for scores up to 999 999 999 999; it reads the old one too.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN", legacy = RankKeyV1)]
struct RankKey {
    #[key(width = 12, desc)]
    score: u64,
    player: String,
}

impl From<RankKeyV1> for RankKey {
    fn from(old: RankKeyV1) -> Self {
        RankKey { score: old.score, player: old.player }
    }
}

/// The season's partition.
const SEASON: &str = "SEASON#7";

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn main() -> Result<()> {
    let mut board = Board::from_args()?;
    println!("Store: {}", board.describe());
    println!("old layout: {}", RankKeyV1::LAYOUT);
    println!("new layout: {}", RankKey::LAYOUT);

    // 40 runs written before the change, in the old layout.
    for i in 0..40u64 {
        let key = RankKeyV1 { score: (i * 7919) % 10_000 * 1000, player: format!("p{i:02}") };
        board.put(key.encode()?)?;
    }
    // A score the old layout cannot hold, written after the deploy in the new one.
    board.put(RankKey { score: 123_456_789_012, player: "record".into() }.encode()?)?;
    println!(
        "\nThe old layout refuses the record: {}",
        RankKeyV1 { score: 123_456_789_012, player: "x".into() }.encode().unwrap_err()
    );

    top(&board, "The top 5 during the migration: one range per live layout, merged")?;

    println!("\n== The backfill ==\n");
    let done = board.backfill()?;
    // (A Scan also reaches the keys it has just written, so its count of items already in the
    // current layout depends on the store; what was rewritten does not.)
    println!("rewritten {}, superseded {}, changed {}", done.0, done.1, done.2);

    top(&board, "The top 5 after the migration")?;
    let left = board.all()?.iter().filter(|sk| !RankKey::decode_any(sk).is_ok_and(|k| k.is_current())).count();
    println!("\nKeys left in the old layout: {left}");
    Ok(())
}

/// The 5 best runs: `score >= 0` in each live layout, merged in the new layout's order.
fn top(board: &Board, title: &str) -> Result<()> {
    println!("\n== {title} ==\n");
    let conditions = [RankKey::query().score_range().gte(0)?, RankKeyV1::query().score_range().gte(0)?];
    let mut pages = Vec::new();
    for cond in &conditions {
        let keys = board.query(cond)?;
        pages.push(keys.into_iter().map(|sk| Ok((RankKey::decode_any(&sk)?, sk))).collect::<Result<Vec<_>>>()?);
    }
    let merged = merge_layouts(pages, true);
    let mut out = TextTable::new(["rank", "score", "player", "stored as", "layout"]).right(0).right(1);
    for (i, (key, sk)) in merged.iter().take(5).enumerate() {
        let layout = if key.is_current() { "new" } else { "old" };
        out.row([(i + 1).to_string(), key.key.score.to_string(), key.key.player.clone(), sk.clone(), layout.into()]);
    }
    print!("{out}");
    Ok(())
}

/// A progress bar over `total` items.
fn bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    if let Ok(style) = ProgressStyle::with_template("  [{bar:40}] {pos}/{len} items") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// The leaderboard: the embedded table, or a DynamoDB table.
enum Board {
    Memory(MemTable<()>),
    #[cfg(feature = "dynamodb")]
    Dynamo(sortkey_examples::Remote, String),
}

impl Board {
    fn from_args() -> Result<Board> {
        match Target::from_args("migration")? {
            Target::Embedded => Ok(Board::Memory(MemTable::new())),
            #[cfg(feature = "dynamodb")]
            target => Ok(Board::Dynamo(sortkey_examples::Remote::connect(&target)?, target.to_string())),
            #[cfg(not(feature = "dynamodb"))]
            target => Err(format!("{target} needs the `dynamodb` feature").into()),
        }
    }

    fn describe(&self) -> String {
        match self {
            Board::Memory(_) => Target::Embedded.to_string(),
            #[cfg(feature = "dynamodb")]
            Board::Dynamo(_, described) => described.clone(),
        }
    }

    fn put(&mut self, sk: String) -> Result<()> {
        match self {
            Board::Memory(t) => {
                t.put(SEASON, sk, ());
            }
            #[cfg(feature = "dynamodb")]
            Board::Dynamo(r, _) => {
                use aws_sdk_dynamodb::types::AttributeValue;
                let put = r
                    .client
                    .put_item()
                    .table_name(&r.table)
                    .item("pk", AttributeValue::S(SEASON.into()))
                    .item("sk", AttributeValue::S(sk));
                r.block_on(put.send())?;
            }
        }
        Ok(())
    }

    /// The sort keys `cond` selects, in key order.
    fn query(&self, cond: &KeyCondition) -> Result<Vec<String>> {
        match self {
            Board::Memory(t) => {
                Ok(t.query_where(SEASON, cond, Query::forward()).map(|(sk, ())| sk.to_owned()).collect())
            }
            #[cfg(feature = "dynamodb")]
            Board::Dynamo(r, _) => r.block_on(async {
                use aws_sdk_dynamodb::types::AttributeValue;
                let (mut out, mut start) = (Vec::new(), None);
                loop {
                    let q = r.client.query().table_name(&r.table).set_exclusive_start_key(start.take());
                    let page = cond.apply_to_query(q, "pk", AttributeValue::S(SEASON.into()), "sk").send().await?;
                    out.extend(page.items().iter().filter_map(|i| i.get("sk")?.as_s().ok().cloned()));
                    match page.last_evaluated_key() {
                        Some(k) if !k.is_empty() => start = Some(k.clone()),
                        _ => return Ok(out),
                    }
                }
            }),
        }
    }

    /// Every sort key of the season.
    fn all(&self) -> Result<Vec<String>> {
        let mut keys = self.query(&RankKey::query().score_range().gte(0)?)?;
        keys.extend(self.query(&RankKeyV1::query().score_range().gte(0)?)?);
        Ok(keys)
    }

    /// Rewrites every old run under its new key: (rewritten, superseded, changed).
    fn backfill(&mut self) -> Result<(u64, u64, u64)> {
        match self {
            Board::Memory(t) => {
                let keys: Vec<String> = t.query(SEASON, Query::forward()).map(|(sk, ())| sk.to_owned()).collect();
                let bar = bar(keys.len() as u64);
                let mut rewritten = 0;
                for sk in keys {
                    let read = RankKey::decode_any(&sk)?;
                    if !read.is_current() {
                        // The embedded table is one writer: put the new key, remove the old one.
                        t.put(SEASON, read.key.encode()?, ());
                        t.remove(SEASON, &sk);
                        rewritten += 1;
                    }
                    bar.inc(1);
                }
                bar.finish();
                Ok((rewritten, 0, 0))
            }
            #[cfg(feature = "dynamodb")]
            Board::Dynamo(r, _) => {
                use sortkey_core::dynamodb::{Backfill, Progress, SegmentCursor};
                let total = self_count(r)?;
                let bar = bar(total);
                // Nothing else writes the runs while the example migrates them, so the moves
                // compare the attributes the Scan saw (a service would declare a version).
                let backfill = Backfill::new(&r.client, &r.table, sortkey_core::KeyNames::DEFAULT)
                    .page_size(10)
                    .rate(500.0)
                    .compare_attributes(&[]);
                let mut sum = Progress::default();
                for cursor in SegmentCursor::all(2) {
                    let mut seen = 0;
                    let (cursor, done) = r.block_on(backfill.run_segment::<RankKey>(cursor, None, |p, _| {
                        bar.inc(p.scanned - seen);
                        seen = p.scanned;
                    }))?;
                    assert!(cursor.done);
                    sum.add(&done);
                }
                bar.finish();
                Ok((sum.rewritten, sum.superseded, sum.changed))
            }
        }
    }
}

/// The number of items in the table, for the progress bar.
#[cfg(feature = "dynamodb")]
fn self_count(r: &sortkey_examples::Remote) -> Result<u64> {
    let out = r.block_on(r.client.scan().table_name(&r.table).select(aws_sdk_dynamodb::types::Select::Count).send())?;
    Ok(out.count() as u64)
}
