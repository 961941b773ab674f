//! Merged reads of a sharded partition: 48 runs written to 8 shards by player, read back by three
//! readers at once through `ShardedQuery`, page after page by the merged cursor, each with a
//! limit and a direction drawn from the seed, through lost answers and throttles (a page that
//! fails is read again from the same cursor). What must hold: each reader's pages, end to end,
//! are exactly the partition's items in sort key order (reversed for a reverse read), each once.

use aws_sdk_dynamodb::types::AttributeValue;
use sortkey_core::dynamodb::ShardedQuery;
use sortkey_core::{ShardRule, Shards};

use super::{Outcome, create_table, merged_sort_keys};
use crate::Sim;

const SHARDS: u16 = 8;
const RUNS: u64 = 48;

/// One reader: the whole partition, `limit` a page, forward or not; the sort keys it read.
async fn reader(sim: Sim, partitions: Vec<String>, limit: usize, forward: bool) -> Vec<String> {
    let client = sim.client();
    let query = ShardedQuery {
        table: "runs",
        partitions: &partitions,
        partition_attribute: "pk",
        sort_attribute: "sk",
        forward,
        limit,
        ties: false,
        copies: false,
    };
    merged_sort_keys(&client, &query).await
}

/// One run of the scenario.
pub async fn run(sim: Sim) -> Outcome {
    let direct = sim.direct_client();
    create_table(&direct, "runs").await;
    let shards = Shards::new(SHARDS, ShardRule::By("player"));
    let mut all = Vec::new();
    // A player's runs share its shard; some shards get many, some few.
    for i in 0..RUNS {
        let player = format!("p_{}", sim.below(12));
        let sk = format!("RUN#{:04}#{player}#{i:03}", 9999 - sim.below(300));
        let pk = format!("SEASON#2026#{}", shards.of(player.as_bytes()));
        let put = direct.put_item().table_name("runs").item("pk", AttributeValue::S(pk));
        put.item("sk", AttributeValue::S(sk.clone())).send().await.unwrap_or_else(|e| panic!("{e:?}"));
        all.push(sk);
    }
    all.sort();
    let partitions: Vec<String> = (0..SHARDS).map(|s| format!("SEASON#2026#{s}")).collect();
    let readers: Vec<_> = (0..3)
        .map(|_| {
            let (limit, forward) = (1 + sim.below(25) as usize, sim.below(2) == 0);
            let task = tokio::task::spawn_local(reader(sim.clone(), partitions.clone(), limit, forward));
            (limit, forward, task)
        })
        .collect();
    for (limit, forward, task) in readers {
        let read = task.await.map_err(|e| format!("a reader failed: {e}"))?;
        let mut want = all.clone();
        if !forward {
            want.reverse();
        }
        if read != want {
            let missing: Vec<&String> = want.iter().filter(|k| !read.contains(k)).collect();
            return Err(format!(
                "a merged read (limit {limit}, {}) returned {} of {} items; missing {missing:?}",
                if forward { "forward" } else { "reverse" },
                read.len(),
                want.len()
            ));
        }
    }
    Ok(())
}
