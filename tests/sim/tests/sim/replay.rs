//! One seed, one run: writers that follow the writers' contract (read, change, write on the
//! version read) run side by side against the simulated DynamoDB, whose latencies and faults
//! (answers lost after the write is applied, throttling) are drawn from the seed. The same seed
//! gives the same trace, byte for byte; another seed another; and in every run no acknowledged
//! write is lost (each counter holds at least the increments acknowledged, and at most those
//! plus the ones whose answers were lost).

use sortkey_core::dynamodb::{ItemErrorKind, PutMode, get_item, put_item, update_item};
use sortkey_core::{Entity, TableDefinition};
use sortkey_sim::{Faults, Sim};

#[derive(Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(pk(prefix = "C", bucket), sk(prefix = "N", slot(width = 2)), version = revision)]
struct Counter {
    bucket: u16,
    slot: u8,
    hits: u64,
    revision: u64,
}

const SLOTS: u8 = 4;

/// Acknowledged and ambiguous increments of each slot, by the writers.
#[derive(Debug, Default, Clone, PartialEq)]
struct Counted {
    acknowledged: Vec<u64>,
    ambiguous: Vec<u64>,
}

/// `writers` writers, each making `steps` increments of random slots, read-change-write, retried
/// on a version conflict or a throttle; an answer lost is counted as ambiguous. Returns what they
/// counted and the counters at the end.
async fn counters(sim: Sim, writers: usize, steps: usize) -> Result<(Counted, Vec<u64>), String> {
    let direct = sim.direct_client();
    TableDefinition::of::<Counter>("counters").apply_to_create(direct.create_table()).unwrap().send().await.unwrap();
    for slot in 0..SLOTS {
        let c = Counter { bucket: 1, slot, hits: 0, revision: 0 };
        put_item(&direct, "counters", &c, PutMode::Create).await.unwrap();
    }
    let mut tasks = Vec::new();
    for _ in 0..writers {
        let (sim, client) = (sim.clone(), sim.client());
        tasks.push(tokio::spawn(async move {
            let mut counted = Counted { acknowledged: vec![0; SLOTS as usize], ambiguous: vec![0; SLOTS as usize] };
            for _ in 0..steps {
                let slot = sim.below(u64::from(SLOTS)) as u8;
                let key = Counter { bucket: 1, slot, hits: 0, revision: 0 }.primary_key();
                loop {
                    let read: Counter = match get_item(&client, "counters", &key).await {
                        Ok(Some(c)) => c,
                        Ok(None) => panic!("slot {slot} is gone"),
                        Err(_) => continue,
                    };
                    let next = Counter { hits: read.hits + 1, ..read };
                    match update_item(&client, "counters", &next).await {
                        Ok(()) => {
                            counted.acknowledged[slot as usize] += 1;
                            break;
                        }
                        Err(e) if matches!(e.kind(), ItemErrorKind::VersionConflict { .. }) => continue,
                        Err(e) if e.to_string().contains("Throttling") => continue,
                        Err(_) => {
                            // No answer: applied or not, nobody knows.
                            counted.ambiguous[slot as usize] += 1;
                            break;
                        }
                    }
                }
            }
            counted
        }));
    }
    let mut all = Counted { acknowledged: vec![0; SLOTS as usize], ambiguous: vec![0; SLOTS as usize] };
    for task in tasks {
        let counted = task.await.unwrap();
        for i in 0..SLOTS as usize {
            all.acknowledged[i] += counted.acknowledged[i];
            all.ambiguous[i] += counted.ambiguous[i];
        }
    }
    let mut stored = Vec::new();
    for slot in 0..SLOTS {
        let key = Counter { bucket: 1, slot, hits: 0, revision: 0 }.primary_key();
        stored.push(get_item::<Counter>(&direct, "counters", &key).await.unwrap().unwrap().hits);
    }
    Ok((all, stored))
}

#[test]
fn the_same_seed_gives_the_same_trace_and_no_acknowledged_write_is_lost() {
    let run = |seed| {
        let (outcome, trace) = Sim::run(seed, Faults::SOME, |sim| counters(sim, 4, 25));
        (outcome.unwrap_or_else(|e| panic!("seed {seed}: {e}")), trace)
    };
    let ((counted, stored), trace) = run(7);
    let (again, trace_again) = run(7);
    assert_eq!(trace, trace_again, "seed 7 twice: the same trace");
    assert_eq!(again, (counted.clone(), stored.clone()));
    let (_, other) = run(8);
    assert_ne!(trace, other, "another seed, another run");
    assert!(trace.len() > 200, "a run of hundreds of requests: {}", trace.len());
    assert!(trace.iter().any(|l| l.contains("answer lost")) && trace.iter().any(|l| l.contains("Throttling")));
    for seed in 0..20 {
        let ((counted, stored), _) = run(seed);
        for (slot, &held) in stored.iter().enumerate() {
            let (acked, maybe) = (counted.acknowledged[slot], counted.ambiguous[slot]);
            assert!(
                acked <= held && held <= acked + maybe,
                "seed {seed}, slot {slot}: {acked} acknowledged and {maybe} ambiguous increments, {held} stored"
            );
        }
    }
}

/// A run that does not end is stopped at its bounds and fails, saying which: an actor that loops
/// at its request bound, one that waits for what never comes at its time bound.
#[test]
fn a_run_that_does_not_end_fails_at_its_bounds() {
    use sortkey_sim::Bounds;
    let bounds = Bounds { requests: 300, time: std::time::Duration::from_secs(600) };
    let (outcome, trace) = Sim::run_bounded(3, Faults::SOME, bounds, |sim| async move {
        let direct = sim.direct_client();
        TableDefinition::of::<Counter>("counters")
            .apply_to_create(direct.create_table())
            .unwrap()
            .send()
            .await
            .unwrap();
        let client = sim.client();
        let key = Counter { bucket: 1, slot: 0, hits: 0, revision: 0 }.primary_key();
        // Waits for an item nobody writes.
        while !matches!(get_item::<Counter>(&client, "counters", &key).await, Ok(Some(_))) {}
        Ok::<(), String>(())
    });
    let e = outcome.unwrap_err();
    assert!(e.starts_with("the run did not end: over 300 requests"), "{e}");
    assert!(trace.last().is_some_and(|l| l.contains("the run did not end")), "{:?}", trace.last());
    let (outcome, _) = Sim::run_bounded(3, Faults::NONE, bounds, |_| async move {
        tokio::time::sleep(std::time::Duration::from_secs(86_400)).await;
        Ok::<(), String>(())
    });
    assert!(outcome.unwrap_err().contains("600 s of virtual time after 0 requests"));
}
