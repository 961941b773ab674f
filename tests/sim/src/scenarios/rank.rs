//! Rank counters under simulation: 16 players' runs over 2 shards, written by two writers (each
//! its own players: new runs, new scores, deletes) through `write_ranked` with lost answers and
//! throttles (a write whose answer is lost is resolved by reading both its keys), two rank
//! readers reading the rank of random keys both ways meanwhile, and a migration: 4 more players'
//! runs in an older 3-digit layout moved to the ranked one by a backfill that keeps the counters
//! (`Backfill::ranked`), through the same faults, run again when a request fails. What must
//! hold: after every committed write (the run's history, replayed) the counter items equal the
//! counts of the items of the ranked layout; no write is half applied; each rank read lies
//! between the least and the greatest rank of the states the table went through while it read
//! (the first state it could see to the last; a run not yet migrated counts at most where its
//! bytes sort); at the end, the migration finished, the table holds each player's last
//! acknowledged run in the ranked layout.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use serde_json::Value;
use sortkey_core::dynamodb::{Backfill, RankBoard, rank, write_ranked};
use sortkey_core::{KeyNames, RankedField, SortKey};

use super::{Outcome, create_table};
use crate::Sim;

const PLAYERS: u64 = 16;
/// Players whose runs are in the older layout until the migration moves them.
const OLD_PLAYERS: std::ops::Range<u64> = 16..20;

/// The runs' older layout: scores 3 digits wide.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN")]
struct RunV1 {
    #[key(width = 3, desc)]
    score: u16,
    player: String,
}

/// The ranked layout, `key`'s: scores 4 digits wide; it reads the older one too.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN", legacy = RunV1)]
struct Run {
    #[key(width = 4, desc)]
    score: u16,
    player: String,
}

impl From<RunV1> for Run {
    fn from(old: RunV1) -> Self {
        Run { score: old.score, player: old.player }
    }
}
const SHARDS: u64 = 2;
/// Writes each writer attempts.
const STEPS: u64 = 12;
/// Rank reads each reader makes.
const READS: u64 = 8;

fn board() -> RankBoard {
    RankBoard {
        table: "board".into(),
        pk: "pk".into(),
        sk: "sk".into(),
        partitions: (0..SHARDS).map(|s| format!("SEASON#{s}")).collect(),
        // `RUN#{score:u16 width=4 desc}#{player:text}`, counted by its first two digits.
        ranked: RankedField::new("Run", "score", "RUN#", 4, 2).expect("a ranked field"),
    }
}

/// A run's sort key: the score in nines' complement (descending), then the player.
fn key(score: u64, player: u64) -> String {
    format!("RUN#{:04}#p_{player:02}", 9999 - score)
}

fn shard(player: u64) -> String {
    format!("SEASON#{}", player % SHARDS)
}

fn item(player: u64, score: u64) -> HashMap<String, AttributeValue> {
    HashMap::from([
        ("pk".to_owned(), AttributeValue::S(shard(player))),
        ("sk".to_owned(), AttributeValue::S(key(score, player))),
    ])
}

/// Whether the item `(player's shard, key)` is in the table (a read without faults).
async fn exists(direct: &Client, player: u64, key: &str) -> bool {
    let got = direct
        .get_item()
        .table_name("board")
        .key("pk", AttributeValue::S(shard(player)))
        .key("sk", AttributeValue::S(key.to_owned()))
        .consistent_read(true)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e:?}"));
    got.item().is_some()
}

/// One writer: `STEPS` writes to its own players (those of its parity), each a new run, a new
/// score or a delete; a write that fails is resolved by reading both its keys. Its players'
/// scores at the end.
async fn writer(
    sim: Sim,
    which: u64,
    mut scores: BTreeMap<u64, Option<u64>>,
) -> Result<BTreeMap<u64, Option<u64>>, String> {
    let (client, direct, board) = (sim.client(), sim.direct_client(), board());
    let mine: Vec<u64> = scores.keys().copied().filter(|p| p % 2 == which).collect();
    for _ in 0..STEPS {
        let player = mine[sim.below(mine.len() as u64) as usize];
        let now = scores[&player];
        let next = match (now, sim.below(4)) {
            (Some(_), 0) => None,
            _ => Some(sim.below(10_000)).filter(|s| Some(*s) != now).or(Some((now.unwrap_or(0) + 1) % 10_000)),
        };
        let before = now.map(|s| key(s, player));
        let after = next.map(|s| key(s, player));
        let at = shard(player);
        let written = write_ranked(&client, &board, &at, before.as_deref(), next.map(|s| item(player, s)));
        if written.await.is_err() {
            // Lost or refused: the table says which, and never half of it.
            let old = match &before {
                Some(k) => exists(&direct, player, k).await,
                None => false,
            };
            let new = match &after {
                Some(k) => exists(&direct, player, k).await,
                None => false,
            };
            match (old, new) {
                (true, false) if before.is_some() => continue,
                (false, false) if before.is_none() => continue,
                (false, true) | (false, false) => {}
                _ => return Err(format!("a write of p_{player:02} from {before:?} to {after:?} is half applied")),
            }
        }
        scores.insert(player, next);
    }
    Ok(scores)
}

/// A rank read: its key, direction, answer, and the run's history length before and after it.
struct Read {
    key: String,
    forward: bool,
    rank: u64,
    from: usize,
    to: usize,
}

/// One reader: `READS` rank reads of random keys (a score and a player), both ways; a read that
/// fails is left out.
async fn reader(sim: Sim) -> Vec<Read> {
    let (client, board) = (sim.client(), board());
    let mut reads = Vec::new();
    for _ in 0..READS {
        let key = key(sim.below(10_000), sim.below(PLAYERS));
        let forward = sim.below(2) == 0;
        let from = sim.history().len();
        let Ok(read) = rank(&client, &board, &key, forward).await else { continue };
        let to = sim.history().len();
        reads.push(Read { key, forward, rank: read.rank, from, to });
    }
    reads
}

/// The migration: the backfill, keeping the counters, through the run's faults, run again
/// (it does nothing twice) while a request fails, a few times.
async fn migrator(sim: Sim) {
    let client = sim.client();
    let backfill = Backfill::new(&client, "board", KeyNames::DEFAULT).compare_attributes(&[]).page_size(5);
    let backfill = backfill.ranked(vec![board().ranked]);
    for _ in 0..4 {
        match backfill.run_until_clean::<Run>(1, 2).await {
            Ok(verdict) if verdict.complete => return,
            Ok(_) => {}
            Err(e) => sim.note(format!("the migration stopped: {e}")),
        }
    }
}

/// The items (shard, sort key) and counter items (shard, node: counts) a run's history leaves
/// after each of its committed writes, replayed one at a time; `each` sees every state.
fn replay(
    history: &[crate::Applied],
    mut each: impl FnMut(usize, &BTreeSet<(String, String)>, &BTreeMap<(String, String), [i64; 10]>) -> Outcome,
) -> Outcome {
    let ranked = board().ranked;
    let mut items = BTreeSet::new();
    let mut counters: BTreeMap<(String, String), [i64; 10]> = BTreeMap::new();
    each(0, &items, &counters)?;
    for (k, applied) in history.iter().enumerate() {
        let s = |v: &Value| v["S"].as_str().unwrap_or_default().to_owned();
        // A single write (the setup's old runs, the migration's delete of a stale one), or a
        // transaction's actions.
        let single = match applied.op.as_str() {
            "PutItem" => Some(serde_json::json!({"Put": applied.request})),
            "DeleteItem" => Some(serde_json::json!({"Delete": applied.request})),
            _ => None,
        };
        let actions = applied.request["TransactItems"].as_array().into_iter().flatten().chain(single.as_ref());
        for action in actions {
            if let Some(put) = action.get("Put") {
                items.insert((s(&put["Item"]["pk"]), s(&put["Item"]["sk"])));
            } else if let Some(delete) = action.get("Delete") {
                items.remove(&(s(&delete["Key"]["pk"]), s(&delete["Key"]["sk"])));
            } else if let Some(update) = action.get("Update") {
                let at = (s(&update["Key"]["pk"]), s(&update["Key"]["sk"]));
                let node = ranked.node_of(&at.1).unwrap_or_default().to_owned();
                let counts = counters.entry((at.0, node)).or_default();
                let values = update["ExpressionAttributeValues"].as_object().into_iter().flatten();
                // `:c3` a count's change; `:v` the root's write count.
                for (name, value) in values.filter(|(n, _)| n.starts_with(":c")) {
                    let digit: usize = name.trim_start_matches(":c").parse().unwrap_or(0);
                    counts[digit] += value["N"].as_str().and_then(|n| n.parse::<i64>().ok()).unwrap_or(0);
                }
            }
        }
        each(k + 1, &items, &counters)?;
    }
    Ok(())
}

/// The counts the items of a state stand for, by partition and node (`RankedField::tally`).
fn counted(items: &BTreeSet<(String, String)>) -> BTreeMap<(String, String), [i64; 10]> {
    let ranked = board().ranked;
    let mut out = BTreeMap::new();
    for partition in board().partitions {
        let keys = items.iter().filter(|(p, _)| *p == partition).map(|(_, sk)| sk.as_str());
        for (node, counts) in ranked.tally(keys) {
            out.insert((partition.clone(), node), counts.map(|c| c as i64));
        }
    }
    out
}

/// One run of the scenario.
pub async fn run(sim: Sim) -> Outcome {
    let direct = sim.direct_client();
    create_table(&direct, "board").await;
    let board = board();
    let mut scores = BTreeMap::new();
    // Through the run's history (a direct client's writes are not in it), without faults.
    let setup = sim.client_without_faults();
    for player in 0..PLAYERS {
        let score = sim.below(10_000);
        let at = shard(player);
        let put = write_ranked(&setup, &board, &at, None, Some(item(player, score)));
        put.await.map_err(|e| format!("the setup's put of p_{player:02}: {e}"))?;
        scores.insert(player, Some(score));
    }
    // The older layout's runs, in no counter until the migration moves them.
    let mut last = BTreeMap::new();
    for player in OLD_PLAYERS {
        let score = sim.below(1_000);
        let sk = RunV1 { score: score as u16, player: format!("p_{player:02}") }.encode().map_err(|e| e.to_string())?;
        let put = setup.put_item().table_name("board").item("pk", AttributeValue::S(shard(player)));
        put.item("sk", AttributeValue::S(sk)).send().await.map_err(|e| format!("the setup's old run: {e:?}"))?;
        last.insert(player, Some(score));
    }
    let migration = tokio::task::spawn_local(migrator(sim.clone()));
    let writers: Vec<_> = (0..2).map(|w| tokio::task::spawn_local(writer(sim.clone(), w, scores.clone()))).collect();
    let readers: Vec<_> = (0..2).map(|_| tokio::task::spawn_local(reader(sim.clone()))).collect();
    for (w, task) in writers.into_iter().enumerate() {
        let theirs = task.await.map_err(|e| format!("a writer failed: {e}"))??;
        last.extend(theirs.into_iter().filter(|(p, _)| p % 2 == w as u64));
    }
    let mut reads = Vec::new();
    for task in readers {
        reads.extend(task.await.map_err(|e| format!("a reader failed: {e}"))?);
    }
    migration.await.map_err(|e| format!("the migration failed: {e}"))?;
    // The migration finished without faults, its moves in the history too.
    let backfill = Backfill::new(&setup, "board", KeyNames::DEFAULT).compare_attributes(&[]);
    let backfill = backfill.ranked(vec![board.ranked.clone()]);
    let verdict = backfill.run_until_clean::<Run>(1, 3).await.map_err(|e| format!("the migration's end: {e}"))?;
    if !verdict.complete {
        return Err(format!("the migration's end is not complete: {verdict}"));
    }
    // Every state: the counters equal the items; each read within its window's ranks.
    let history = sim.history();
    let mut bounds: Vec<(u64, u64)> = vec![(u64::MAX, 0); reads.len()];
    replay(&history, |k, items, counters| {
        let held: BTreeMap<_, _> =
            counters.iter().filter(|(_, c)| c.iter().any(|&n| n != 0)).map(|(n, c)| (n.clone(), *c)).collect();
        let want = counted(items);
        if held != want {
            let nodes: BTreeSet<_> = held.keys().chain(want.keys()).filter(|n| held.get(*n) != want.get(*n)).collect();
            let wrong: Vec<String> =
                nodes.iter().map(|n| format!("{n:?}: counters {:?}, items {:?}", held.get(*n), want.get(*n))).collect();
            return Err(format!(
                "after committed write {k} of {} ({}), the counters differ from the items: {}",
                history.len(),
                history[k - 1].op,
                wrong.join("; ")
            ));
        }
        for (read, bound) in reads.iter().zip(bounds.iter_mut()) {
            if (read.from..=read.to).contains(&k) {
                let before: Vec<&str> = items
                    .iter()
                    .map(|(_, sk)| sk.as_str())
                    .filter(|sk| sk.starts_with("RUN#"))
                    .filter(|sk| if read.forward { *sk < read.key.as_str() } else { *sk > read.key.as_str() })
                    .collect();
                // The ranked layout's runs count; a run not yet migrated may, where its bytes
                // fall inside the finest bucket's Query.
                let ranked = before.iter().filter(|sk| board.ranked.digits(sk).is_some()).count() as u64;
                let all = before.len() as u64;
                *bound = (bound.0.min(ranked + 1), bound.1.max(all + 1));
            }
        }
        Ok(())
    })?;
    for (read, (least, most)) in reads.iter().zip(bounds) {
        if !(least..=most).contains(&read.rank) {
            return Err(format!(
                "the rank of {} ({}) read {}, outside the ranks {least} to {most} of the states it read through",
                read.key,
                if read.forward { "forward" } else { "backward" },
                read.rank
            ));
        }
    }
    // The table holds each player's last acknowledged run, and nothing else on the board.
    let mut held = BTreeSet::new();
    for partition in &board.partitions {
        let page = direct
            .query()
            .table_name("board")
            .key_condition_expression("pk = :p AND begins_with(sk, :r)")
            .expression_attribute_values(":p", AttributeValue::S(partition.clone()))
            .expression_attribute_values(":r", AttributeValue::S("RUN#".into()))
            .send()
            .await
            .map_err(|e| format!("the end's read: {e:?}"))?;
        held.extend(page.items().iter().filter_map(|i| Some((partition.clone(), i.get("sk")?.as_s().ok()?.clone()))));
    }
    let want: BTreeSet<(String, String)> = last.iter().filter_map(|(p, s)| Some((shard(*p), key((*s)?, *p)))).collect();
    if held != want {
        return Err(format!("the table holds {held:?}, the writers' last runs are {want:?}"));
    }
    Ok(())
}
