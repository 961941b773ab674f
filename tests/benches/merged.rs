//! The merged top 100 of a season spread over 16 shards, on moto, against the fan-out a service
//! writes by hand (`cargo bench -p sortkey-tests --features dynamodb --bench merged`). It starts
//! moto itself (tests/.venv, as the DynamoDB tests do).
//!
//! 3,200 runs of 3,200 players, written by the entity to their shards (about 200 a shard). Each
//! side returns the season's 100 best runs, best first, as entities:
//!
//! - `query_merged`: `dynamodb::query_merged(.., limit 100)`: 16 Queries of
//!   `ceil(1.5 * 100 / 16) = 10` items, concurrently, and again only for a shard all of whose
//!   items were returned;
//! - `by_hand`: every shard's partition queried for 100 items, concurrently (tokio tasks), the
//!   1,600 items merged in memory by sort key and the first 100 decoded.
//!
//! Both are checked to return the same runs, and the items and read units each read are printed
//! (the naive budget is the hand-written one: N x K).

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, ReturnConsumedCapacity, WriteRequest};
use criterion::{Criterion, SamplingMode, criterion_group};
use sortkey_core::dynamodb::{EntityItem, query_merged};
use sortkey_core::{Entity, Sharded, TableDefinition};
use sortkey_tests::server::{Server, client};

const TABLE: &str = "merged_bench";
const TOP: usize = 100;

#[derive(Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "SEASON", season(width = 4), shard(shards = 16, by = player)),
    sk(prefix = "RUN", score(width = 10, desc), player)
)]
struct Run {
    season: u16,
    score: u64,
    player: String,
}

async fn seed(client: &Client) {
    let runs: Vec<Run> =
        (0..3200u64).map(|i| Run { season: 2026, score: (i * 7919) % 1_000_000, player: format!("p_{i}") }).collect();
    for chunk in runs.chunks(25) {
        let requests = chunk.iter().map(|run| {
            let put = PutRequest::builder().set_item(Some(run.to_item().unwrap())).build().unwrap();
            WriteRequest::builder().put_request(put).build()
        });
        client.batch_write_item().request_items(TABLE, requests.collect()).send().await.expect("batch write");
    }
}

/// The library's merged read: the runs, the items read, the read units.
async fn merged(client: &Client) -> (Vec<Run>, usize, f64) {
    let season = Run::query(&RunPk { season: 2026, shard: 0 }).unwrap();
    let page = query_merged(client, TABLE, &season, true, TOP, None).await.unwrap();
    (page.entities.into_iter().map(|(_, r)| r).collect(), page.read, page.read_units)
}

/// The hand-written fan-out: every shard for `TOP`, merged in memory.
async fn by_hand(client: &Client) -> (Vec<Run>, usize, f64) {
    let mut tasks = tokio::task::JoinSet::new();
    for pk in (RunPk { season: 2026, shard: 0 }).every_shard().unwrap() {
        let client = client.clone();
        tasks.spawn(async move {
            let page = client
                .query()
                .table_name(TABLE)
                .key_condition_expression("pk = :pk")
                .expression_attribute_values(":pk", AttributeValue::S(pk))
                .limit(TOP as i32)
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .await
                .expect("query");
            let units = page.consumed_capacity().and_then(|c| c.capacity_units()).unwrap_or(0.0);
            (page.items().to_vec(), units)
        });
    }
    let (mut items, mut units) = (Vec::new(), 0.0);
    while let Some(done) = tasks.join_next().await {
        let (page, u) = done.expect("a task");
        items.extend(page);
        units += u;
    }
    let read = items.len();
    items.sort_by(|a, b| a["sk"].as_s().unwrap().cmp(b["sk"].as_s().unwrap()));
    let runs = items.iter().take(TOP).map(|i| Run::from_item(i).unwrap()).collect();
    (runs, read, units)
}

fn benches(c: &mut Criterion) {
    let Some(server) = Server::start() else {
        panic!("the merged benchmark needs moto (tests/.venv, or MOTO_SERVER), as the DynamoDB tests do")
    };
    let client = client(&server.endpoint);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let def = TableDefinition::of::<Run>(TABLE);
        def.apply_to_create(client.create_table()).unwrap().send().await.expect("create table");
        seed(&client).await;
        let (a, read_a, units_a) = merged(&client).await;
        let (b, read_b, units_b) = by_hand(&client).await;
        assert_eq!(a, b, "both sides return the same runs");
        assert!(read_a <= 260, "the merged read's budget");
        eprintln!("merged: query_merged read {read_a} items, {units_a} read units; by hand {read_b} items, {units_b} read units");
    });
    let mut g = c.benchmark_group("merged_top_100");
    g.sampling_mode(SamplingMode::Flat).sample_size(20).measurement_time(Duration::from_secs(6));
    g.bench_function("query_merged", |b| b.iter(|| rt.block_on(merged(&client))));
    g.bench_function("by_hand", |b| b.iter(|| rt.block_on(by_hand(&client))));
    g.finish();
}

criterion_group!(merged_group, benches);

fn main() {
    merged_group();
    Criterion::default().configure_from_args().final_summary();
}
