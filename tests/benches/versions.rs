//! A query across two layouts of one key against the same two Queries written by hand, on moto,
//! in one run (`cargo bench -p sortkey-tests --features dynamodb --bench versions`). It starts
//! moto itself (tests/.venv, as the DynamoDB tests do).
//!
//! One partition holds 600 leaderboard keys mid-migration: 400 in the current layout (12-digit
//! descending score), 200 in the old one (10 digits). Each side answers `score >= 500_000` in
//! the current order, each key once:
//!
//! - `library`: one `FieldCondition` on the fields, `on_versions::<RankKey>()` for both layouts'
//!   conditions, one Query per layout (pages of 100), `merge_version_pages` to decode, keep each
//!   query's own keys, merge and order;
//! - `by_hand`: `RankKey::query().score_range().gte(..)` and `RankKeyV1::query().score_range().gte(..)` built by
//!   hand, the same two Queries, each key decoded with `decode_any` and kept when it is in the
//!   queried layout, the copies merged by their current key, sorted.
//!
//! Both are checked to return the same keys before the timings.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use criterion::{Criterion, SamplingMode, Throughput, criterion_group};
use sortkey_core::query::Comparison;
use sortkey_core::{DynValue, FieldCondition, KeyCondition, KeyNames, SortKey, TableDefinition, merge_version_pages};
use sortkey_tests::leaderboard::{RankKey, RankKeyV1};
use sortkey_tests::server::{Server, client, runtime};

const TABLE: &str = "versions_bench";
const PK: &str = "SEASON#1";
const BOUND: u64 = 500_000;

async fn seed(client: &Client) {
    let keys: Vec<String> = (0..400u64)
        .map(|i| RankKey { score: i * 2_500, player: format!("n{i}") }.encode().unwrap())
        .chain((0..200u64).map(|i| RankKeyV1 { score: i * 5_000 + 1, player: format!("o{i}") }.encode().unwrap()))
        .collect();
    for chunk in keys.chunks(25) {
        let requests = chunk.iter().map(|sk| {
            let put = PutRequest::builder()
                .item("pk", AttributeValue::S(PK.into()))
                .item("sk", AttributeValue::S(sk.clone()))
                .build()
                .unwrap();
            WriteRequest::builder().put_request(put).build()
        });
        client.batch_write_item().request_items(TABLE, requests.collect()).send().await.expect("batch write");
    }
}

/// Every sort key of the partition under `condition`, in pages of 100.
async fn keys(client: &Client, condition: &KeyCondition) -> Vec<String> {
    let (mut out, mut start) = (Vec::new(), None);
    loop {
        let q = client.query().table_name(TABLE).limit(100).set_exclusive_start_key(start);
        let page = condition.apply_to_query(q, "pk", AttributeValue::S(PK.into()), "sk").send().await.expect("query");
        out.extend(page.items().iter().map(|i| i["sk"].as_s().unwrap().clone()));
        match page.last_evaluated_key() {
            Some(k) if !k.is_empty() => start = Some(k.clone()),
            _ => return out,
        }
    }
}

async fn library(client: &Client) -> Vec<RankKey> {
    let condition = FieldCondition::new().compare("score", Comparison::Ge, DynValue::Unsigned(BOUND.into()));
    let mut pages = Vec::new();
    for c in condition.on_versions::<RankKey>().unwrap() {
        let page = match c {
            Some(c) => keys(client, &c).await,
            None => Vec::new(),
        };
        pages.push(page.into_iter().map(|k| (k, ())).collect());
    }
    merge_version_pages::<RankKey, ()>(pages, true).into_iter().map(|(k, ())| k.key).collect()
}

async fn by_hand(client: &Client) -> Vec<RankKey> {
    let conditions =
        [RankKey::query().score_range().gte(BOUND).unwrap(), RankKeyV1::query().score_range().gte(BOUND).unwrap()];
    let mut all: Vec<(String, usize, RankKey)> = Vec::new();
    for (version, c) in conditions.iter().enumerate() {
        for key in keys(client, c).await {
            if let Ok(read) = RankKey::decode_any(&key)
                && read.version == version
            {
                all.push((read.key.encode().unwrap(), version, read.key));
            }
        }
    }
    all.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    all.dedup_by(|later, first| later.0 == first.0);
    all.into_iter().map(|(_, _, k)| k).collect()
}

fn benches(c: &mut Criterion) {
    let Some(server) = Server::start() else {
        panic!("the versions benchmark needs moto (tests/.venv, or MOTO_SERVER), as the DynamoDB tests do")
    };
    let client = client(&server.endpoint);
    let rt = runtime();
    let expected = rt.block_on(async {
        let def = TableDefinition::new(TABLE, KeyNames::DEFAULT);
        def.apply_to_create(client.create_table()).unwrap().send().await.expect("create table");
        seed(&client).await;
        let (a, b) = (library(&client).await, by_hand(&client).await);
        assert_eq!(a, b, "both sides return the same keys");
        a.len()
    });
    assert_eq!(expected, 200 + 100, "200 current keys and 100 old ones at or above the bound");
    let mut g = c.benchmark_group("versions");
    g.sampling_mode(SamplingMode::Flat).sample_size(20).measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(expected as u64));
    g.bench_function("library", |b| b.iter(|| rt.block_on(library(&client))));
    g.bench_function("by_hand", |b| b.iter(|| rt.block_on(by_hand(&client))));
    g.finish();
}

criterion_group!(versions, benches);

fn main() {
    versions();
    Criterion::default().configure_from_args().final_summary();
}
