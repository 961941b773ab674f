//! An index's sort key migrated in place under simulation: each run's `gsi1sk` widened from
//! `ByScoreV1` (10 digits) to `ByScore` (12), by three backfill workers in place
//! (`Backfill::index_attribute`) sharing the segments through leases in the table, two killed
//! and replaced, while a writer updates runs as the new code does: a new score now and then, the
//! index key written from it in the current layout, conditional on the version read. What must
//! hold:
//!
//! - no acknowledged write lost: each run's counter holds at least the increments the writer was
//!   told were written, and at most those plus the ones whose answers were lost;
//! - no stale index key: at the end every run's `gsi1sk` is the current layout's key of its own
//!   score, never one rewritten from a score read before the writer changed it;
//! - every run keeps its primary key, once;
//! - after each pass the verdict over `gsi1sk`, as `sortkey migrate --index` reads it, is true:
//!   complete exactly when no index key is left in the old layout.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use sortkey_core::dynamodb::{Backfill, BackfillErrorKind, CheckpointError, TableCheckpoint};
use sortkey_core::{DynMigration, DynValue, KeyNames, KeyRole, LockFile, VerdictAudit};

use super::{Outcome, create_table};
use crate::Sim;

const RUNS: u64 = 24;
const SEGMENTS: i32 = 4;
const LEASE: Duration = Duration::from_secs(2);
const STEPS: usize = 20;
const KILLS: u32 = 2;

const LOCK: &str = "ByScoreV1 = {score:u64 width=10 desc}#{player:text}\n\
                    ByScore = {score:u64 width=12 desc}#{player:text}\n\
                    ByScore > ByScoreV1\n";

fn lock() -> LockFile {
    LockFile::parse(LOCK).unwrap_or_else(|e| panic!("the lock: {e}"))
}

fn migration() -> DynMigration {
    let lock = lock();
    let entry = |n: &str| (n.to_owned(), lock.get(n).cloned().unwrap_or_else(|| panic!("{n}")));
    DynMigration::new(entry("ByScoreV1"), entry("ByScore")).unwrap_or_else(|e| panic!("{e}"))
}

/// Run `i`'s index key for `score` in the layout `name`.
fn index_key(name: &str, i: u64, score: u64) -> String {
    let value = DynValue::Key(vec![
        ("score", DynValue::Unsigned(u128::from(score))),
        ("player", DynValue::Text(format!("p_{i}"))),
    ]);
    lock().get(name).and_then(|l| l.encode(&value).ok()).unwrap_or_else(|| panic!("{name} of run {i}"))
}

/// The writer: `STEPS` updates of random runs, each read first (a consistent GetItem), then
/// written as the new code writes a run: its counter incremented, now and then a new score, and
/// the index key from the score in the current layout, conditional on the version read, writing
/// the next. A refused write is made again from a new read. Returns each run's acknowledged and
/// unanswered increments.
async fn writer(sim: Sim) -> (Vec<u64>, Vec<u64>) {
    let client = sim.client();
    let (mut acked, mut maybe) = (vec![0; RUNS as usize], vec![0; RUNS as usize]);
    for _ in 0..STEPS {
        let i = sim.below(RUNS);
        let key = |c: aws_sdk_dynamodb::operation::get_item::builders::GetItemFluentBuilder| {
            c.key("pk", AttributeValue::S("SEASON#7".into())).key("sk", AttributeValue::S(format!("RUN#p_{i}")))
        };
        loop {
            let Ok(got) = key(client.get_item().table_name("runs").consistent_read(true)).send().await else {
                continue;
            };
            let Some(item) = got.item() else { panic!("run {i} is gone") };
            let version = item.get("version").and_then(|v| v.as_n().ok()).cloned().unwrap_or_default();
            let score: u64 = item.get("score").and_then(|v| v.as_n().ok()).and_then(|n| n.parse().ok()).unwrap_or(0);
            let score = if sim.below(3) == 0 { score + 1 + sim.below(5000) } else { score };
            let sent = client
                .update_item()
                .table_name("runs")
                .key("pk", AttributeValue::S("SEASON#7".into()))
                .key("sk", AttributeValue::S(format!("RUN#p_{i}")))
                .update_expression("SET hits = hits + :one, version = version + :one, score = :s, gsi1sk = :g")
                .condition_expression("attribute_exists(pk) AND version = :read")
                .expression_attribute_values(":one", AttributeValue::N("1".into()))
                .expression_attribute_values(":read", AttributeValue::N(version))
                .expression_attribute_values(":s", AttributeValue::N(score.to_string()))
                .expression_attribute_values(":g", AttributeValue::S(index_key("ByScore", i, score)))
                .send()
                .await;
            match sent {
                Ok(_) => {
                    acked[i as usize] += 1;
                    break;
                }
                Err(e) if e.as_service_error().is_some_and(|s| s.is_conditional_check_failed_exception()) => {}
                Err(e) if format!("{e:?}").contains("Throttling") => {}
                Err(_) => {
                    maybe[i as usize] += 1;
                    break;
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(sim.below(20))).await;
    }
    (acked, maybe)
}

/// One worker of pass `pass`: every segment not done, taken through its lease, its index keys
/// rewritten in place to its end; a request that fails is run again from the last save.
async fn worker(sim: Sim, pass: u32, owner: String) {
    let client = sim.client();
    let migration = migration();
    let backfill = Backfill::new(&client, "runs", KeyNames::DEFAULT)
        .version_attribute("version")
        .index_attribute("gsi1sk")
        .page_size(5);
    let name = format!("index-{pass}");
    let checkpoint = TableCheckpoint::new(client.clone(), "runs", KeyNames::DEFAULT, &name, &owner, LEASE);
    let first = sim.below(SEGMENTS as u64) as i32;
    loop {
        let mut left = 0;
        for n in 0..SEGMENTS {
            let segment = (first + n) % SEGMENTS;
            match checkpoint.saved(segment, SEGMENTS).await {
                Ok(Some((cursor, _))) if cursor.done => continue,
                _ => left += 1,
            }
            let mut mine = checkpoint.clone();
            if let Err(e) = backfill.run_rekey(&migration, segment, SEGMENTS, &mut mine, |_| {}).await {
                let pause = match e.kind() {
                    BackfillErrorKind::Checkpoint(CheckpointError::Taken { .. }) => 200,
                    _ => 10,
                };
                tokio::time::sleep(Duration::from_millis(pause)).await;
            }
        }
        if left == 0 {
            return;
        }
    }
}

/// Every run's (sort key, score, hits, index key), read directly.
async fn runs(client: &Client) -> Vec<(String, u64, u64, String)> {
    let (mut out, mut start) = (Vec::new(), None);
    loop {
        let page = client.scan().table_name("runs").set_exclusive_start_key(start.take()).send().await;
        let page = page.unwrap_or_else(|e| panic!("a direct Scan: {e:?}"));
        for item in page.items() {
            let s = |n: &str| item.get(n).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
            let n = |n: &str| item.get(n).and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok()).unwrap_or(0);
            if s("pk").starts_with("BACKFILL#") {
                continue;
            }
            out.push((s("sk"), n("score"), n("hits"), s("gsi1sk")));
        }
        match page.last_evaluated_key() {
            Some(k) if !k.is_empty() => start = Some(k.clone()),
            _ => return out,
        }
    }
}

/// The verdict over the runs' index keys, as `sortkey migrate --index` gives it, is true.
fn verdict_holds(runs: &[(String, u64, u64, String)]) -> Outcome {
    let lock = lock();
    let migration = migration();
    let layouts = lock.entries.iter().filter(|(_, l)| l.role == KeyRole::Sort).cloned();
    let mut audit = VerdictAudit::new(layouts);
    for (_, _, _, gsi1sk) in runs {
        audit.observe_item(&migration, None, Some(gsi1sk));
    }
    let verdict = audit.verdict();
    let old_layout = lock.get("ByScoreV1").unwrap_or_else(|| panic!("ByScoreV1"));
    let old = runs.iter().filter(|r| old_layout.decode(&r.3).is_ok()).count() as u64;
    if verdict.complete != (old == 0) || verdict.in_old != old {
        return Err(format!(
            "the verdict is not true: complete {} with {} index keys counted old, and {old} are in the old layout",
            verdict.complete, verdict.in_old
        ));
    }
    Ok(())
}

/// One run of the scenario.
pub async fn run(sim: Sim) -> Outcome {
    let direct = sim.direct_client();
    create_table(&direct, "runs").await;
    for i in 0..RUNS {
        let score = i * 1000;
        let put = direct
            .put_item()
            .table_name("runs")
            .item("pk", AttributeValue::S("SEASON#7".into()))
            .item("sk", AttributeValue::S(format!("RUN#p_{i}")))
            .item("version", AttributeValue::N("1".into()))
            .item("hits", AttributeValue::N("0".into()))
            .item("score", AttributeValue::N(score.to_string()))
            .item("gsi1sk", AttributeValue::S(index_key("ByScoreV1", i, score)));
        put.send().await.unwrap_or_else(|e| panic!("{e:?}"));
    }
    let writer = tokio::task::spawn_local(writer(sim.clone()));
    let mut workers: Vec<_> =
        (0..3).map(|w| tokio::task::spawn_local(worker(sim.clone(), 1, format!("worker-{w}")))).collect();
    for kill in 0..KILLS {
        tokio::time::sleep(Duration::from_millis(20 + sim.below(400))).await;
        let victim = sim.below(workers.len() as u64) as usize;
        workers[victim].abort();
        sim.note(format!("killed worker {victim}"));
        workers.push(tokio::task::spawn_local(worker(sim.clone(), 1, format!("replacement-{kill}"))));
    }
    for w in workers {
        let _ = w.await;
    }
    let (acked, maybe) = writer.await.map_err(|e| format!("the writer failed: {e}"))?;
    super::leases::check(&sim.history())?;
    let mut pass = 1;
    loop {
        let now = runs(&direct).await;
        verdict_holds(&now)?;
        let old = lock().get("ByScoreV1").map_or(0, |l| now.iter().filter(|r| l.decode(&r.3).is_ok()).count());
        if old == 0 {
            break;
        }
        pass += 1;
        if pass > 6 {
            return Err("index keys still in the old layout after 5 more passes".to_owned());
        }
        worker(sim.clone(), pass, "finisher".into()).await;
    }
    let now = runs(&direct).await;
    if now.len() as u64 != RUNS {
        return Err(format!("{} runs at the end, expected {RUNS}", now.len()));
    }
    for (sk, score, hits, gsi1sk) in &now {
        let Some(i) = sk.strip_prefix("RUN#p_").and_then(|i| i.parse::<u64>().ok()) else {
            return Err(format!("a run of no known key: {sk}"));
        };
        let want = index_key("ByScore", i, *score);
        if *gsi1sk != want {
            return Err(format!("run {i}'s index key is {gsi1sk}, expected {want}, the key of its score {score}"));
        }
        let (a, m) = (acked[i as usize], maybe[i as usize]);
        if *hits < a || *hits > a + m {
            return Err(format!(
                "run {i} holds {hits} increments: {a} were acknowledged, {m} more were sent unanswered"
            ));
        }
    }
    Ok(())
}
