//! The migration under simulation: a table's sort keys widened (`RankKeyV1` to `RankKey`, the
//! lock's two layouts, `DynMigration`) by several backfill workers sharing the segments through
//! leases in the table, while writers update the items under whichever key they have; workers
//! are killed at random moments and replaced (the new one takes the segment over once the dead
//! one's lease runs out), answers are lost after their writes are applied, requests throttled,
//! all by choices drawn from the seed. Whatever the seed: every item ends in the new layout,
//! once, and holds every increment a writer was told was written (and no more than those plus
//! the ones whose answers were lost).

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use sortkey_core::dynamodb::{Backfill, BackfillErrorKind, CheckpointError, TableCheckpoint};
use sortkey_core::{DynMigration, KeyNames, LockFile};
use sortkey_sim::{Faults, Sim};

const ITEMS: u64 = 40;
const SEGMENTS: i32 = 4;

fn old_key(i: u64) -> String {
    format!("RUN#{:010}#p_{i}", 9_999_999_999 - i * 1000)
}

fn new_key(i: u64) -> String {
    format!("RUN#{:012}#p_{i}", 999_999_999_999 - i * 1000)
}

fn migration() -> DynMigration {
    let lock = LockFile::parse(
        "RankKeyV1 = RUN#{score:u64 width=10 desc}#{player:text}\nRankKey = RUN#{score:u64 width=12 desc}#{player:text}\n",
    )
    .unwrap();
    let entry = |n: &str| (n.to_owned(), lock.get(n).unwrap().clone());
    DynMigration::new(entry("RankKeyV1"), entry("RankKey")).unwrap()
}

/// What the writers counted per item: increments acknowledged, and those whose answer was lost.
#[derive(Debug, Clone, Default, PartialEq)]
struct Counted {
    acknowledged: Vec<u64>,
    ambiguous: Vec<u64>,
}

/// One writer: `steps` increments of random items, each under the new key first, then the old
/// (the item is in one of them), conditional on the item being there, bumping its version.
async fn writer(sim: Sim, steps: usize) -> Counted {
    let client = sim.client();
    let mut counted = Counted { acknowledged: vec![0; ITEMS as usize], ambiguous: vec![0; ITEMS as usize] };
    for _ in 0..steps {
        let i = sim.below(ITEMS);
        'item: loop {
            for sk in [new_key(i), old_key(i)] {
                let sent = client
                    .update_item()
                    .table_name("runs")
                    .key("pk", AttributeValue::S("SEASON#7".into()))
                    .key("sk", AttributeValue::S(sk))
                    .update_expression("SET hits = hits + :one, version = version + :one")
                    .condition_expression("attribute_exists(pk)")
                    .expression_attribute_values(":one", AttributeValue::N("1".into()))
                    .send()
                    .await;
                match sent {
                    Ok(_) => {
                        counted.acknowledged[i as usize] += 1;
                        break 'item;
                    }
                    Err(e) if e.as_service_error().is_some_and(|s| s.is_conditional_check_failed_exception()) => {}
                    Err(e) if e.to_string().contains("Throttling") || format!("{e:?}").contains("Throttling") => {
                        continue 'item;
                    }
                    Err(_) => {
                        counted.ambiguous[i as usize] += 1;
                        break 'item;
                    }
                }
            }
            // In neither (moved between the two reads): look again.
        }
        tokio::time::sleep(Duration::from_millis(sim.below(20))).await;
    }
    counted
}

/// One worker of pass `pass`: every segment not done, taken through its lease, run to its end;
/// a segment another worker holds is waited for; a request that fails is run again from the
/// segment's last save.
async fn worker(sim: Sim, pass: u32, owner: String) {
    let client = sim.client();
    let migration = migration();
    let backfill = Backfill::new(&client, "runs", KeyNames::DEFAULT).version_attribute("version").page_size(7);
    let name = format!("widen-{pass}");
    let checkpoint =
        TableCheckpoint::new(client.clone(), "runs", KeyNames::DEFAULT, &name, &owner, Duration::from_secs(2));
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
            match backfill.run_rekey(&migration, segment, SEGMENTS, &mut mine, |_| {}).await {
                Ok(_) => {}
                Err(e) => match e.kind() {
                    BackfillErrorKind::Checkpoint(CheckpointError::Taken { .. }) => {
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                    _ => tokio::time::sleep(Duration::from_millis(10)).await,
                },
            }
        }
        if left == 0 {
            return;
        }
    }
}

/// Every item's (sort key, hits) by a direct Scan.
async fn items(client: &Client) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut start = None;
    loop {
        let page = client.scan().table_name("runs").set_exclusive_start_key(start.take()).send().await.unwrap();
        for item in page.items() {
            if item["pk"].as_s().unwrap().starts_with("BACKFILL#") {
                continue;
            }
            let hits = item["hits"].as_n().unwrap().parse().unwrap();
            out.push((item["sk"].as_s().unwrap().clone(), hits));
        }
        match page.last_evaluated_key() {
            Some(k) if !k.is_empty() => start = Some(k.clone()),
            _ => break,
        }
    }
    out
}

/// The run of one seed: the items, three workers and two writers; a killer that aborts a worker
/// at a random moment and starts another in its place, twice. After the writers stop, passes
/// run until no key is left in the old layout. Returns what the writers counted, the items at the
/// end and the passes it took.
async fn scenario(sim: Sim) -> (Counted, Vec<(String, u64)>, u32) {
    let direct = sim.direct_client();
    sortkey_test_server::create_table(&direct, "runs").await;
    for i in 0..ITEMS {
        let put = direct.put_item().table_name("runs").item("pk", AttributeValue::S("SEASON#7".into()));
        let put = put.item("sk", AttributeValue::S(old_key(i))).item("version", AttributeValue::N("1".into()));
        put.item("hits", AttributeValue::N("0".into())).send().await.unwrap();
    }
    let writers: Vec<_> = (0..2).map(|_| tokio::task::spawn_local(writer(sim.clone(), 30))).collect();
    let mut workers: Vec<_> =
        (0..3).map(|w| tokio::task::spawn_local(worker(sim.clone(), 1, format!("worker-{w}")))).collect();
    for kill in 0..2 {
        tokio::time::sleep(Duration::from_millis(50 + sim.below(400))).await;
        let victim = sim.below(workers.len() as u64) as usize;
        workers[victim].abort();
        sim.note(format!("killed worker {victim}"));
        workers.push(tokio::task::spawn_local(worker(sim.clone(), 1, format!("replacement-{kill}"))));
    }
    for w in workers {
        let _ = w.await;
    }
    let mut counted = Counted { acknowledged: vec![0; ITEMS as usize], ambiguous: vec![0; ITEMS as usize] };
    for w in writers {
        let c = w.await.unwrap();
        for i in 0..ITEMS as usize {
            counted.acknowledged[i] += c.acknowledged[i];
            counted.ambiguous[i] += c.ambiguous[i];
        }
    }
    // Items changed while being moved are left for the next pass, as `sortkey migrate` runs them.
    let mut pass = 1;
    let old = |sk: &str| sk.rsplit_once("#p_").and_then(|(_, i)| i.parse().ok()).is_some_and(|i| sk == old_key(i));
    while items(&direct).await.iter().any(|(sk, _)| old(sk)) {
        pass += 1;
        assert!(pass <= 6, "still old keys after 5 passes");
        worker(sim.clone(), pass, "finisher".into()).await;
    }
    (counted, items(&direct).await, pass)
}

fn check(seed: u64, counted: &Counted, items: &[(String, u64)]) {
    assert_eq!(items.len() as u64, ITEMS, "seed {seed}: every item once: {items:?}");
    for (sk, hits) in items {
        let i: usize = sk.rsplit_once("#p_").unwrap().1.parse().unwrap();
        assert_eq!(sk, &new_key(i as u64), "seed {seed}: item {i} is in the new layout");
        let (acked, maybe) = (counted.acknowledged[i], counted.ambiguous[i]);
        assert!(
            acked <= *hits && *hits <= acked + maybe,
            "seed {seed}, item {i}: {acked} increments acknowledged, {maybe} ambiguous, {hits} stored"
        );
    }
}

#[test]
fn a_migration_with_writers_kills_and_faults_loses_nothing() {
    let seeds: Vec<u64> = match std::env::var("SORTKEY_SIM_SEED") {
        Ok(seed) => vec![seed.parse().expect("SORTKEY_SIM_SEED is a number")],
        Err(_) => (0..16).collect(),
    };
    for seed in seeds {
        let ((counted, items, _), trace) = Sim::run(seed, Faults::SOME, scenario);
        if std::env::var_os("SORTKEY_SIM_TRACE").is_some() {
            eprintln!("{}", trace.join("\n"));
        }
        assert!(trace.iter().any(|l| l.contains("killed")), "seed {seed}: a worker was killed");
        check(seed, &counted, &items);
    }
}
