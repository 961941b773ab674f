//! A game leaderboard in one DynamoDB partition: why hand-made sort keys go wrong, and how a
//! `#[derive(SortKey)]` type gets the order right and refuses the keys that would break it; and,
//! last, the season too hot for one partition, written to 16 shards and read back merged, equal
//! to the one partition (in memory, through `sortkey_core::query::Merge`, as
//! `dynamodb::query_merged` reads DynamoDB), and each player's rank in it, read from rank
//! counters (in memory, through `RankedField`, as `dynamodb::rank` reads DynamoDB).
//!
//! Run with `cargo run --example leaderboard`. With the `dynamodb` feature and
//! `-- --endpoint URL [--table NAME]` the runs are stored in and queried from a DynamoDB
//! endpoint instead (plain HTTP, for a local server); `examples/leaderboard-moto.sh` does all of
//! it against a local moto server.

mod store;

use sortkey_core::query::{Merge, MergeCursor, MergedPage, ShardRead};
use sortkey_core::{KeyCondition, RankedField, Sharded, SortKey};
use sortkey_examples::{MemTable, Order, Query, TextTable};
use store::Store;

/// The leaderboard's partition key: one partition per season.
const SEASON: &str = "SEASON#2024-06";

/// One finished run, as the game reports it.
#[derive(Debug, Clone, Copy)]
struct Run {
    player: &'static str,
    score: u64,
    timestamp: u64,
}

/// The runs of the season, in the order they were played in, not in any sorted order.
/// Four share the score 1500: p_5 and p_2 at different times, p_7 and p_6 at the same second.
const RUNS: [Run; 7] = [
    Run { player: "p_1", score: 10, timestamp: 1719100800 },
    Run { player: "p_2", score: 1500, timestamp: 1719104400 },
    Run { player: "p_3", score: 240, timestamp: 1719108000 },
    Run { player: "p_4", score: 9, timestamp: 1719111600 },
    Run { player: "p_5", score: 1500, timestamp: 1719097200 },
    Run { player: "p_7", score: 1500, timestamp: 1719115200 },
    Run { player: "p_6", score: 1500, timestamp: 1719115200 },
];

/// The same key ascending: every number zero-padded to its width.
#[derive(SortKey, Debug, PartialEq)]
#[key(prefix = "RUN")]
struct AscKey {
    #[key(width = 10)]
    score: u64,
    #[key(width = 16)]
    timestamp: u64,
    player_id: String,
}

/// The leaderboard's sort key: highest score first, then the earliest run, then the player.
#[derive(SortKey, Debug, PartialEq)]
#[key(prefix = "RUN")]
struct RankKey {
    #[key(width = 10, desc)]
    score: u64,
    #[key(width = 16)]
    timestamp: u64,
    player_id: String,
}

impl From<Run> for AscKey {
    fn from(r: Run) -> Self {
        AscKey { score: r.score, timestamp: r.timestamp, player_id: r.player.into() }
    }
}

impl From<Run> for RankKey {
    fn from(r: Run) -> Self {
        RankKey { score: r.score, timestamp: r.timestamp, player_id: r.player.into() }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("A leaderboard in DynamoDB: one partition ({SEASON}), one item per run,");
    println!("and a Query that should return the runs best first.");
    println!("DynamoDB orders string sort keys by their UTF-8 bytes; so does the table below.");

    let mut store = Store::from_args("leaderboard")?;

    stage_1_raw()?;
    stage_2_padded()?;
    println!("\nFrom here on the runs are stored in {}.", store.describe());
    stage_3_desc(&mut store)?;
    stage_4_tiebreak(&store)?;
    stage_5_overflow(&mut store)?;
    stage_6_top_of_the_season(&store)?;
    stage_7_sharded()?;
    stage_8_ranks()?;
    Ok(())
}

fn heading(title: &str) {
    println!("\n{title}\n{}", "=".repeat(title.chars().count()));
}

/// (1) The obvious key, `score#timestamp#player`, unpadded.
fn stage_1_raw() -> Result<(), Box<dyn std::error::Error>> {
    heading("1. Unpadded keys, \"score#timestamp#player\": WRONG");
    let mut table = MemTable::new();
    for run in RUNS {
        table.put(SEASON, format!("{}#{}#{}", run.score, run.timestamp, run.player), run);
    }
    let mut out = TextTable::new(["#", "sort key (as stored)", "first byte", "score"]).right(0).right(3);
    for (i, (sk, run)) in table.query(SEASON, Query::forward()).enumerate() {
        let first = sk.as_bytes()[0];
        out.row([(i + 1).to_string(), sk.into(), format!("'{}' 0x{first:X}", first as char), run.score.to_string()]);
    }
    print!("{out}");
    println!("Ascending byte order puts 10 first and 9 last, and 240 after 1500:");
    println!("bytes are compared left to right, so the first digit decides ('1' 0x31 < '2' 0x32");
    println!("< '9' 0x39) and the number of digits never counts. Reading it backwards does not help.");
    Ok(())
}

/// (2) Zero-padded numbers through a derived ascending key.
fn stage_2_padded() -> Result<(), Box<dyn std::error::Error>> {
    heading("2. Zero-padded keys (a derived AscKey): right, ascending");
    let mut table = MemTable::new();
    for run in RUNS {
        table.put_key(SEASON, &AscKey::from(run), run)?;
    }
    let mut out = TextTable::new(["#", "sort key (as stored)", "score"]).right(0).right(2);
    for (i, (sk, _)) in table.query(SEASON, Query::forward()).enumerate() {
        let key = AscKey::decode(sk)?;
        out.row([(i + 1).to_string(), sk.into(), key.score.to_string()]);
    }
    print!("{out}");
    println!("Byte order is numeric order now: 9, 10, 240, 1500 (AscKey pads the score to");
    println!("10 digits and the timestamp to 16).");
    println!("But a leaderboard wants the highest first. Reading backwards (ScanIndexForward =");
    println!("false, limit 4) gets the 1500s, with the tiebreak reversed too: latest run first.");
    let mut out =
        TextTable::new(["#", "sort key (read backwards)", "score", "timestamp", "player"]).right(0).right(2).right(3);
    for (i, (sk, _)) in table.query(SEASON, Query::backward().limit(4)).enumerate() {
        let key = AscKey::decode(sk)?;
        out.row([(i + 1).to_string(), sk.into(), key.score.to_string(), key.timestamp.to_string(), key.player_id]);
    }
    print!("{out}");
    println!("p_5 reached 1500 first and should rank first; backwards it ranks last.");
    Ok(())
}

/// Every run of the season: the condition of a query that fixes nothing but the prefix.
fn all_runs() -> Result<KeyCondition, sortkey_core::QueryError> {
    RankKey::query().begins_with()
}

/// (3) `RankKey`: `score` is `desc`, so the table's own order is best first.
fn stage_3_desc(store: &mut Store) -> Result<(), Box<dyn std::error::Error>> {
    heading("3. RankKey: score descending, timestamp and player ascending: highest first");
    for run in RUNS {
        store.put(SEASON, &RankKey::from(run))?;
    }
    let mut out =
        TextTable::new(["rank", "sort key (as stored)", "score", "timestamp", "player"]).right(0).right(2).right(3);
    for (i, sk) in store.query(SEASON, &all_runs()?, Order::Ascending, None)?.iter().enumerate() {
        let key = RankKey::decode(sk)?;
        assert!(RUNS.iter().any(|r| RankKey::from(*r) == key), "a key reads back as a run that was written");
        out.row([(i + 1).to_string(), sk.clone(), key.score.to_string(), key.timestamp.to_string(), key.player_id]);
    }
    print!("{out}");
    println!("Read forward, in the table's order. A desc field stores 9999999999 - score");
    println!("(1500 -> 9999998499, 9 -> 9999999990), so a higher score is a smaller key; the columns");
    println!("on the right are RankKey::decode of the stored key.");
    Ok(())
}

/// (4) Equal scores: the earlier run ranks higher, and at the same second the player id decides.
fn stage_4_tiebreak(store: &Store) -> Result<(), Box<dyn std::error::Error>> {
    heading("4. The tiebreak: equal scores by timestamp, then by player id");
    let mut out = TextTable::new(["rank", "score", "timestamp", "player", "ranked below the row above because"])
        .right(0)
        .right(1)
        .right(2);
    let mut above: Option<RankKey> = None;
    for (i, sk) in store.query(SEASON, &all_runs()?, Order::Ascending, None)?.iter().enumerate() {
        let key = RankKey::decode(sk)?;
        if key.score == 1500 {
            out.row([
                (i + 1).to_string(),
                key.score.to_string(),
                key.timestamp.to_string(),
                key.player_id.clone(),
                tiebreak_reason(above.as_ref(), &key),
            ]);
        }
        above = Some(key);
    }
    print!("{out}");
    println!("The four runs scoring 1500 were played in the order p_2, p_5, p_7, p_6; the key,");
    println!("not the insertion order, ranks them: the padded timestamp puts the earlier run first,");
    println!("and the player id, the last segment, breaks a tie within the same second.");
    Ok(())
}

/// Why `key` sorts after `above`, in the words of the key's fields.
fn tiebreak_reason(above: Option<&RankKey>, key: &RankKey) -> String {
    match above {
        None => "(top of the board)".into(),
        Some(a) if a.score != key.score => format!("lower score: {} < {}", key.score, a.score),
        Some(a) if a.timestamp != key.timestamp => {
            format!("same score, later run: {} > {}", key.timestamp, a.timestamp)
        }
        Some(a) => format!("same score and second, player {:?} > {:?}", key.player_id, a.player_id),
    }
}

/// (5) A score wider than its 10 digits is refused, and nothing is written.
fn stage_5_overflow(store: &mut Store) -> Result<(), Box<dyn std::error::Error>> {
    heading("5. A score that does not fit width 10: refused, nothing written");
    let run = Run { player: "p_8", score: 12_345_678_901, timestamp: 1719118800 };
    let count = |store: &Store| store.query(SEASON, &all_runs()?, Order::Ascending, None).map(|v| v.len());
    let before = count(store)?;
    let result = store.put(SEASON, &RankKey::from(run));
    let after = count(store)?;
    println!("{} scores {} at {}; writing its key returns", run.player, run.score, run.timestamp);
    match &result {
        Ok(_) => println!("  Ok (unexpected)"),
        Err(e) => println!("  Err: {e}"),
    }
    let mut out = TextTable::new(["items before", "items after"]).right(0).right(1);
    out.row([before, after]);
    print!("{out}");
    assert!(result.is_err() && before == after, "an overflowing key is never written");
    println!("A truncated or 11-digit score would sort as some other score; the key is refused");
    println!("instead, and the table is unchanged. Widen the field before such scores exist:");
    println!("a key written with the old width would then be rejected by decode, not misread.");
    Ok(())
}

/// (6) Typed queries: each condition is built from fields, never from hand-made strings.
fn stage_6_top_of_the_season(store: &Store) -> Result<(), Box<dyn std::error::Error>> {
    heading("6. Top of the season: typed query conditions");
    let queries: [(&str, KeyCondition, Option<usize>); 3] = [
        ("the 3 best runs", RankKey::query().begins_with()?, Some(3)),
        ("scores from 200 to 1500", RankKey::query().score_range().between(200, 1500)?, None),
        ("score 1500, at or after 1719104400", RankKey::query().score(1500).timestamp_range().gte(1719104400)?, None),
    ];
    for (what, cond, limit) in queries {
        let expr = cond.with_partition_key("pk", SEASON, "sk");
        println!("\n{what}{}:", limit.map(|l| format!(" (Limit {l})")).unwrap_or_default());
        println!("  condition  {cond}");
        println!("  expression {}", expr.expression);
        let mut out = TextTable::new(["rank", "score", "timestamp", "player"]).right(0).right(1).right(2);
        for (i, sk) in store.query(SEASON, &cond, Order::Ascending, limit)?.iter().enumerate() {
            let key = RankKey::decode(sk)?;
            out.row([(i + 1).to_string(), key.score.to_string(), key.timestamp.to_string(), key.player_id]);
        }
        print!("{out}");
    }
    println!("\nscore_range().between(200, 1500) swaps the bounds for the desc field (1500 is the smaller key),");
    println!("and every upper bound ends in '$', the successor of '#': above every key under the");
    println!("fixed fields, below every key of the next value, and itself never a key.");
    Ok(())
}

/// The season's partition key once it is too hot for one partition: 16 shards, each run's
/// calculated from its player (the sort key's `player_id`).
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(partition, prefix = "SEASON")]
struct SeasonPk {
    season: String,
    #[key(shards = 16, by = player_id)]
    shard: u16,
}

/// A season of `n` runs of `n` players, scores and times spread (deterministic).
fn busy_season(n: u64) -> Vec<RankKey> {
    (0..n)
        .map(|i| RankKey {
            score: (i * 7919) % 2000,
            timestamp: 1719100800 + (i * 104729) % 86400,
            player_id: format!("p_{i}"),
        })
        .collect()
}

/// One merged page of the season's shards in memory, as `dynamodb::query_merged` reads
/// DynamoDB: `Merge` says which shard to read (a Query with a Limit after a key), `MemTable::page`
/// answers as a Query would. Each item is its sort key.
fn merged_page(
    table: &MemTable<()>,
    shards: &[String],
    cond: &KeyCondition,
    limit: usize,
    cursor: Option<&MergeCursor>,
) -> MergedPage<String> {
    let mut merge = Merge::new(SeasonPk::SHARDS.count().get(), limit, true, cursor, false);
    while !merge.is_done() {
        for read in merge.reads() {
            let ShardRead::Query { shard, limit, after } = &read else { continue };
            let query = Query::forward().limit(*limit);
            let (page, next) = table.page(&shards[usize::from(*shard)], query, after.as_deref(), |sk| cond.matches(sk));
            let items = page.iter().map(|(sk, _)| ((*sk).to_owned(), (*sk).to_owned())).collect();
            merge.answer(&read, items, next.is_some());
        }
    }
    merge.finish()
}

/// (7) Sharded: the season written across 16 partitions and read back as one.
fn stage_7_sharded() -> Result<(), Box<dyn std::error::Error>> {
    heading("7. A season too hot for one partition: 16 shards, read back as one");
    let runs = busy_season(2000);
    let season = SeasonPk { season: "2024-06".into(), shard: 0 };
    let shards = season.every_shard()?;
    let (mut one, mut sharded) = (MemTable::new(), MemTable::new());
    for run in &runs {
        let sk = run.encode()?;
        one.put(SEASON, sk.clone(), ());
        let mut pk = season.clone();
        pk.set_shard(SeasonPk::SHARDS.of(run.player_id.as_bytes()));
        sharded.put(pk.encode()?, sk, ());
    }
    println!("DynamoDB serves one partition key at most 1,000 writes a second. {} runs of", runs.len());
    println!("{} players go to {} and the next 15 by the player's shard", runs.len(), shards[0]);
    println!("(shard_of(player_id) mod 16). The top 10 and the page after it, merged from the 16");
    println!("partitions, beside the same Query on one partition holding every run:");
    let all = RankKey::query().begins_with()?;
    let first = merged_page(&sharded, &shards, &all, 10, None);
    let second = merged_page(&sharded, &shards, &all, 10, first.next.as_ref());
    let single: Vec<&str> = one.query(SEASON, Query::forward().limit(20)).map(|(sk, _)| sk).collect();
    let mut out =
        TextTable::new(["rank", "score", "player", "shard", "one partition", "16 shards merged"]).right(0).right(1);
    let merged: Vec<&(u16, String)> = first.items.iter().chain(&second.items).collect();
    let mut equal = merged.len() == single.len();
    for (i, (shard, sk)) in merged.iter().enumerate() {
        // The merged read returns items; their sort keys are the table's.
        let key = RankKey::decode(sk)?;
        let mut pk = season.clone();
        pk.set_shard(*shard);
        let found = sharded.get(&pk.encode()?, sk.as_str()).is_some();
        let same = found && single.get(i) == Some(&sk.as_str());
        equal &= same;
        let mark = if same { "=" } else { "differs" };
        out.row([
            (i + 1).to_string(),
            key.score.to_string(),
            key.player_id,
            shard.to_string(),
            sk.clone(),
            mark.into(),
        ]);
    }
    print!("{out}");
    println!("The 20 runs are the same, in the same order: {}", if equal { "yes" } else { "NO" });
    let budget = 10 + 16 * 10usize.saturating_mul(3).div_ceil(32);
    println!(
        "The first page read {} items in {} Queries (each shard asked for ceil(1.5 x 10 / 16) = 1 at a time;",
        first.read, first.requests
    );
    println!("at most 10 + 16 x 1 = {budget}), where asking every shard for 10 reads 160. Its cursor is one key:");
    println!("  next = {}", first.next.as_ref().map(ToString::to_string).unwrap_or_default());
    let wanted = &runs[1234];
    let mut pk = season.clone();
    pk.set_shard(SeasonPk::SHARDS.of(wanted.player_id.as_bytes()));
    let (pk, sk) = (pk.encode()?, wanted.encode()?);
    let hit = sharded.get(&pk, &sk).is_some();
    println!(
        "{}'s run is one GetItem, no fan-out: its shard is its player's ({pk}, {sk}): {}",
        wanted.player_id,
        if hit { "found" } else { "MISSING" }
    );
    if !equal || !hit {
        return Err("the merged read differs from the single partition".into());
    }
    Ok(())
}

/// (8) Ranks: a player's place on the 16-shard season, from rank counters.
fn stage_8_ranks() -> Result<(), Box<dyn std::error::Error>> {
    heading("8. What is my rank? Counters kept beside the runs, read in a few requests");
    let runs = busy_season(2000);
    // The scores use the last 4 of the 10 digits (nines' complement: 99999979..99999999), so the
    // counters count the first 9: each finest bucket holds about one score's runs.
    let ranked = RankedField::of("RankKey", &RankKey::LAYOUT, "score", 9)?;
    let season = SeasonPk { season: "2024-06".into(), shard: 0 };
    let shards = season.every_shard()?;
    // Each shard's sort keys, and its counter items (node: ten counts), as write_ranked keeps
    // them in DynamoDB (one count a level changed by each put): what the keys stand for.
    let mut keys: Vec<std::collections::BTreeSet<String>> = vec![Default::default(); shards.len()];
    for run in &runs {
        keys[usize::from(SeasonPk::SHARDS.of(run.player_id.as_bytes()))].insert(run.encode()?);
    }
    let counters: Vec<_> = keys.iter().map(|k| ranked.tally(k.iter().map(String::as_str))).collect();
    println!("Each put of a run also adds one to a counter item a level, in the same transaction:");
    println!("counts of the runs by the first 1, 2, ... 9 digits of their score, per shard. A rank is");
    println!("the counts before the player's digits on its path, plus the runs of its finest bucket");
    println!("before it (a Select=COUNT Query a shard), plus one:");
    let mut out = TextTable::new([
        "player",
        "score",
        "rank",
        "by counters: requests",
        "items read",
        "by Query: items read",
        "same",
    ])
    .right(1)
    .right(2)
    .right(3)
    .right(4)
    .right(5);
    let mut all_same = true;
    for player in [1234, 17, 1999, 600] {
        let run = &runs[player];
        let sk = run.encode()?;
        let digits = ranked.digits(&sk).ok_or("a run's key holds its score's digits")?;
        let (low, high) = ranked.bucket(digits, &sk, true);
        let mut rank = 1;
        let mut read = 0;
        for (shard, keys) in keys.iter().enumerate() {
            rank += ranked.counted_before(digits, true, |node| counters[shard].get(node).copied().unwrap_or_default());
            read += ranked.path(digits).filter(|node| counters[shard].contains_key(*node)).count();
            let bucket: Vec<&String> = keys.range(low.clone()..=high.clone()).collect();
            read += bucket.len();
            rank += bucket.iter().filter(|k| ***k != sk).count() as u64;
        }
        // Point reads of every shard's path and the key (100 keys a request), a Query a shard,
        // a point read of every shard's write count.
        let requests = (shards.len() * (ranked.levels() + 1)).div_ceil(100) + shards.len() + 1;
        let before: usize = keys.iter().map(|k| k.range(..sk.clone()).count()).sum();
        let same = before as u64 + 1 == rank;
        all_same &= same;
        out.row([
            run.player_id.clone(),
            run.score.to_string(),
            rank.to_string(),
            requests.to_string(),
            read.to_string(),
            // Counting by Query reads every run up to the player's, in each shard.
            (before + 1).to_string(),
            (if same { "=" } else { "differs" }).to_string(),
        ]);
    }
    print!("{out}");
    println!("Read from the counters, a rank costs the same requests whatever the rank; counting the runs");
    println!("before a player by Query reads as many runs as its rank. dynamodb::write_ranked and");
    println!("dynamodb::rank do this on DynamoDB (the book's \"A player's rank\").");
    if !all_same {
        return Err("a rank from the counters differs from the count of the runs before it".into());
    }
    Ok(())
}
