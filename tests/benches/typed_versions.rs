//! A service's typed read across two layouts of its sort key against the same read once the
//! migration is done, on moto, in one run (`cargo bench -p sortkey-tests --features dynamodb
//! --bench typed_versions`). It starts moto itself (tests/.venv, as the DynamoDB tests do).
//!
//! A season of 600 runs: in partition `SEASON#1` mid-migration, 400 under the current key
//! (12-digit descending score) and 200 under the old one (10 digits); in `SEASON#2` the same
//! 600 all under the current key. Each read is `score >= 500_000` through `query_page`, pages
//! of 100, to the end:
//!
//! - `across_versions`: the entity with `legacy`, on the partition mid-migration (one Query per
//!   layout a page, merged, one typed cursor);
//! - `after_with_legacy`: the same entity on the migrated partition (`legacy` not yet removed:
//!   the older layout's Query returns nothing);
//! - `single_version`: the entity without `legacy`, as the code is once the migration is done, on
//!   the migrated partition: one Query a page.
//!
//! Items read and requests are counted from `EntityPage::read` and `requests` first.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use criterion::{Criterion, SamplingMode, Throughput, criterion_group};
use serde::{Deserialize, Serialize};
use sortkey_core::dynamodb::{EntityItem, EntityQuery, query_page};
use sortkey_core::{Entity, SortKey, TableDefinition};
use sortkey_tests::server::{Server, client, runtime};

const TABLE: &str = "typed_versions_bench";
const BOUND: u64 = 500_000;

/// The sort key the old runs were written with.
#[derive(SortKey)]
#[key(prefix = "RUN")]
struct RunSkV1 {
    #[key(width = 10, desc)]
    score: u64,
    player: String,
}

impl From<RunSkV1> for RunSk {
    fn from(old: RunSkV1) -> Self {
        RunSk { score: old.score, player: old.player }
    }
}

/// A run, during the migration.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(pk(prefix = "SEASON", season(width = 1)), sk(prefix = "RUN", legacy = RunSkV1, score(width = 12, desc), player))]
struct Run {
    season: u8,
    score: u64,
    player: String,
}

/// The same run once the migration is done: `legacy` removed.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(pk(prefix = "SEASON", season(width = 1)), sk(prefix = "RUN", score(width = 12, desc), player))]
struct RunDone {
    season: u8,
    score: u64,
    player: String,
}

async fn seed(client: &Client) {
    let mut items = Vec::new();
    for season in [1u8, 2] {
        for i in 0..600u64 {
            let run = Run { season, score: i * 2_500 + (i % 2), player: format!("p{i}") };
            let mut item = run.to_item().unwrap();
            if season == 1 && i % 3 == 0 {
                let old = RunSkV1 { score: run.score, player: run.player.clone() }.encode().unwrap();
                item.insert("sk".into(), AttributeValue::S(old));
            }
            items.push(item);
        }
    }
    for chunk in items.chunks(25) {
        let requests = chunk.iter().map(|item| {
            let put = PutRequest::builder().set_item(Some(item.clone())).build().unwrap();
            WriteRequest::builder().put_request(put).build()
        });
        client.batch_write_item().request_items(TABLE, requests.collect()).send().await.expect("batch write");
    }
}

/// Every page of `query`, 100 a page: the players, the items read and the requests made.
async fn read<Q, T>(client: &Client, query: &Q, player: impl Fn(&Q::Entity) -> T) -> (Vec<T>, usize, usize)
where
    Q: EntityQuery,
    Q::Entity: serde::de::DeserializeOwned,
{
    let (mut players, mut start, mut items, mut requests) = (Vec::new(), None, 0, 0);
    loop {
        let page = query_page(client, TABLE, query, start.as_ref(), 100).await.expect("a page");
        players.extend(page.entities.iter().map(&player));
        items += page.read;
        requests += page.requests;
        match page.next {
            Some(next) => start = Some(next),
            None => return (players, items, requests),
        }
    }
}

fn benches(c: &mut Criterion) {
    let Some(server) = Server::start() else {
        panic!("the typed versions benchmark needs moto (tests/.venv, or MOTO_SERVER), as the DynamoDB tests do")
    };
    let client = client(&server.endpoint);
    let rt = runtime();
    let across = Run::query(&RunPk { season: 1 }).unwrap().sort(RunSk::query().score_range().gte(BOUND).unwrap());
    let after = Run::query(&RunPk { season: 2 }).unwrap().sort(RunSk::query().score_range().gte(BOUND).unwrap());
    let single =
        RunDone::query(&RunDonePk { season: 2 }).unwrap().sort(RunDoneSk::query().score_range().gte(BOUND).unwrap());
    let expected = rt.block_on(async {
        TableDefinition::of::<Run>(TABLE).apply_to_create(client.create_table()).unwrap().send().await.unwrap();
        seed(&client).await;
        let a = read(&client, &across, |r| r.player.clone()).await;
        let b = read(&client, &after, |r| r.player.clone()).await;
        let s = read(&client, &single, |r| r.player.clone()).await;
        assert_eq!(a.0, s.0, "the read mid-migration returns what the read after it does");
        assert_eq!(b.0, s.0);
        println!("| read | results | items read | requests |");
        println!("|---|---|---|---|");
        for (name, (players, items, requests)) in
            [("across_versions", &a), ("after_with_legacy", &b), ("single_version", &s)]
        {
            println!("| {name} | {} | {items} | {requests} |", players.len());
        }
        s.0.len()
    });
    assert_eq!(expected, 400, "the runs at or above the bound");
    let mut g = c.benchmark_group("typed_versions");
    g.sampling_mode(SamplingMode::Flat).sample_size(20).measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(expected as u64));
    g.bench_function("across_versions", |b| b.iter(|| rt.block_on(read(&client, &across, |r| r.score))));
    g.bench_function("after_with_legacy", |b| b.iter(|| rt.block_on(read(&client, &after, |r| r.score))));
    g.bench_function("single_version", |b| b.iter(|| rt.block_on(read(&client, &single, |r| r.score))));
    g.finish();
}

criterion_group!(typed_versions, benches);

fn main() {
    typed_versions();
    Criterion::default().configure_from_args().final_summary();
}
