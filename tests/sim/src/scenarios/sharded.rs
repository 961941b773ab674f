//! Merged reads of a sharded partition: 48 runs written to 8 shards by player, and 30 notes
//! written to 8 shards at random (so that one sort key is in several shards: ties), read back by
//! four readers at once (two of each) through `ShardedQuery`, page after page by the merged cursor, each with a
//! limit and a direction drawn from the seed, through lost answers and throttles (a page that
//! fails is read again from the same cursor). What must hold: each reader's pages, end to end,
//! are exactly the partition's items in sort key order, ties in shard order (all reversed for a
//! reverse read), each once.

use aws_sdk_dynamodb::types::AttributeValue;
use sortkey_core::dynamodb::ShardedQuery;
use sortkey_core::{ShardRule, Shards};

use super::{Outcome, create_table, merged_keys};
use crate::Sim;

const SHARDS: u16 = 8;
const RUNS: u64 = 48;

/// One reader: the whole partition, `limit` a page, forward or not, its shards `random` (`ties`)
/// or not; the sort keys it read, each with its shard.
async fn reader(sim: Sim, partitions: Vec<String>, limit: usize, forward: bool, ties: bool) -> Vec<(String, u16)> {
    let client = sim.client();
    let query = ShardedQuery {
        table: "runs",
        partitions: &partitions,
        partition_attribute: "pk",
        sort_attribute: "sk",
        forward,
        limit,
        ties,
        copies: false,
    };
    merged_keys(&client, &query).await
}

/// One run of the scenario.
pub async fn run(sim: Sim) -> Outcome {
    let direct = sim.direct_client();
    create_table(&direct, "runs").await;
    let shards = Shards::new(SHARDS, ShardRule::By("player"));
    let put = async |pk: String, sk: &str| {
        let put = direct.put_item().table_name("runs").item("pk", AttributeValue::S(pk));
        put.item("sk", AttributeValue::S(sk.to_owned())).send().await.unwrap_or_else(|e| panic!("{e:?}"));
    };
    let mut runs = Vec::new();
    // A player's runs share its shard; some shards get many, some few.
    for i in 0..RUNS {
        let player = format!("p_{}", sim.below(12));
        let sk = format!("RUN#{:04}#{player}#{i:03}", 9999 - sim.below(300));
        let shard = shards.of(player.as_bytes());
        put(format!("SEASON#2026#{shard}"), &sk).await;
        runs.push((sk, shard));
    }
    // Notes in random shards, 10 sort keys among 30 of them: most sort keys in several shards.
    let mut notes = Vec::new();
    for _ in 0..30 {
        let (sk, shard) = (format!("NOTE#{:02}", sim.below(10)), sim.below(u64::from(SHARDS)) as u16);
        if !notes.contains(&(sk.clone(), shard)) {
            put(format!("NOTES#2026#{shard}"), &sk).await;
            notes.push((sk, shard));
        }
    }
    // In sort key order, ties in shard order.
    runs.sort();
    notes.sort();
    let partitions = |of: &str| (0..SHARDS).map(|s| format!("{of}#2026#{s}")).collect::<Vec<_>>();
    let readers: Vec<_> = [false, false, true, true]
        .into_iter()
        .map(|ties| {
            let (limit, forward) = (1 + sim.below(25) as usize, sim.below(2) == 0);
            let of = partitions(if ties { "NOTES" } else { "SEASON" });
            let task = tokio::task::spawn_local(reader(sim.clone(), of, limit, forward, ties));
            (limit, forward, ties, task)
        })
        .collect();
    for (limit, forward, ties, task) in readers {
        let read = task.await.map_err(|e| format!("a reader failed: {e}"))?;
        let mut want = if ties { notes.clone() } else { runs.clone() };
        if !forward {
            want.reverse();
        }
        if read != want {
            let missing: Vec<&(String, u16)> = want.iter().filter(|k| !read.contains(k)).collect();
            let first = read.iter().zip(&want).position(|(r, w)| r != w);
            return Err(format!(
                "a merged read of the {} (limit {limit}, {}) returned {} of {} items; missing {missing:?}; first \
                 out of place at {first:?}: read {:?}, expected {:?}",
                if ties { "notes (random shards, ties)" } else { "runs" },
                if forward { "forward" } else { "reverse" },
                read.len(),
                want.len(),
                first.map(|i| &read[i]),
                first.map(|i| &want[i]),
            ));
        }
    }
    Ok(())
}
