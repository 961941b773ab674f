//! A global secondary index read across two layouts of its sort key, page by page, against the
//! same read written by hand, on moto, in one run (`cargo bench -p sortkey-tests --features
//! dynamodb --bench index_versions`). It starts moto itself (tests/.venv, as the DynamoDB tests
//! do).
//!
//! One index partition holds 600 items mid-migration of their index key: 400 under the current
//! layout (12-digit descending score), 200 under the old one (10 digits), every index key on two
//! items (an index key is not unique). Each side reads `score >= 500_000` in the current order,
//! pages of 100, to the end, every item once:
//!
//! - `library`: `IndexVersionsQuery` (each layout's Query narrowed to start at the cursor, read
//!   until the page and its ties are read), its `IndexCursor` from page to page;
//! - `by_hand_pages`: what a service without the library does for each page it is asked for:
//!   both layouts' conditions built with each type's builder, each layout's Query read to its
//!   end, each key decoded with `decode_any` and kept when it is in the queried layout, ordered by
//!   the key in the current layout and then the item's primary key, and the page after the
//!   cursor cut from it (no Query can start at a cursor that one layout wrote for the other);
//! - `by_hand_once`: the same read once, every page cut from it in memory (a process that holds
//!   the whole partition).
//!
//! Both are checked to return the same items before the timings; the items each read and the
//! requests it made are printed.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use criterion::{Criterion, SamplingMode, Throughput, criterion_group};
use sortkey_core::dynamodb::{IndexCursor, IndexVersionsQuery};
use sortkey_core::query::Comparison;
use sortkey_core::{DynValue, FieldCondition, KeyCondition, LiveLayouts, LockFile, SortKey};
use sortkey_tests::index_table::create_gsi1_table;
use sortkey_tests::leaderboard::{RankKey, RankKeyV1};
use sortkey_tests::server::{Server, client, runtime};

const TABLE: &str = "index_versions_bench";
const PK: &str = "SEASON#1";
const BOUND: u64 = 500_000;
const PAGE: usize = 100;

/// What a read returned and cost: (index key in the current layout, item's partition key) in
/// order, the items the Queries returned, the requests.
type Read = (Vec<(String, String)>, usize, usize);

async fn seed(client: &Client) {
    create_gsi1_table(client, TABLE, None).await;
    let keys: Vec<String> = (0..200u64)
        .map(|i| RankKey { score: i * 5_000, player: format!("n{i}") }.encode().unwrap())
        .chain((0..100u64).map(|i| RankKeyV1 { score: i * 10_000 + 1, player: format!("o{i}") }.encode().unwrap()))
        .collect();
    let items: Vec<(String, String)> =
        keys.iter().flat_map(|k| (0..2).map(move |copy| (format!("ITEM#{copy}#{k}"), k.clone()))).collect();
    for chunk in items.chunks(25) {
        let requests = chunk.iter().map(|(pk, sk)| {
            let put = PutRequest::builder()
                .item("pk", AttributeValue::S(pk.clone()))
                .item("gsi1pk", AttributeValue::S(PK.into()))
                .item("gsi1sk", AttributeValue::S(sk.clone()))
                .build()
                .unwrap();
            WriteRequest::builder().put_request(put).build()
        });
        client.batch_write_item().request_items(TABLE, requests.collect()).send().await.expect("batch write");
    }
}

async fn library(client: &Client, live: &LiveLayouts<'_>) -> Read {
    let condition = FieldCondition::new().compare("score", Comparison::Ge, DynValue::Unsigned(BOUND.into()));
    let conditions = live.conditions(&condition).unwrap();
    let query = IndexVersionsQuery {
        table: TABLE,
        index: "gsi1",
        partition: PK,
        partition_attribute: "gsi1pk",
        sort_attribute: "gsi1sk",
        table_keys: ("pk", None),
        forward: true,
        limit: PAGE,
    };
    let (mut out, mut read, mut requests, mut cursor) = (Vec::new(), 0, 0, None::<IndexCursor>);
    loop {
        let page = query.run(client, live, &conditions, cursor.as_ref()).await.expect("a page");
        read += page.read;
        requests += page.requests;
        out.extend(page.results.results.iter().map(|r| (r.current_key.clone(), r.item["pk"].as_s().unwrap().clone())));
        match page.next {
            Some(next) => cursor = Some(next),
            None => return (out, read, requests),
        }
    }
}

/// Every page, each read as `by_hand_once` reads the whole, then cut after the cursor.
async fn by_hand_pages(client: &Client) -> Read {
    let (mut out, mut read, mut requests) = (Vec::new(), 0, 0);
    loop {
        let (all, r, n) = by_hand_once(client).await;
        read += r;
        requests += n;
        let page: Vec<(String, String)> = all.into_iter().filter(|k| Some(k) > out.last()).take(PAGE).collect();
        let last = page.len() < PAGE;
        out.extend(page);
        if last {
            return (out, read, requests);
        }
    }
}

async fn by_hand_once(client: &Client) -> Read {
    let conditions =
        [RankKey::query().score_range().gte(BOUND).unwrap(), RankKeyV1::query().score_range().gte(BOUND).unwrap()];
    let (mut all, mut read, mut requests) = (Vec::new(), 0, 0);
    for (version, c) in conditions.iter().enumerate() {
        let (items, n) = index_items(client, c).await;
        read += items.len();
        requests += n;
        for (pk, sk) in items {
            if let Ok(found) = RankKey::decode_any(&sk)
                && found.version == version
            {
                all.push((found.key.encode().unwrap(), pk));
            }
        }
    }
    all.sort();
    // The pages a service shows, one after another: the same order, cut.
    let pages: Vec<Vec<(String, String)>> = all.chunks(PAGE).map(<[_]>::to_vec).collect();
    (pages.concat(), read, requests)
}

/// Every item of the index partition under `condition`: (its partition key, its index key), and
/// the requests it took.
async fn index_items(client: &Client, condition: &KeyCondition) -> (Vec<(String, String)>, usize) {
    let (mut out, mut start, mut requests) = (Vec::new(), None, 0);
    loop {
        let q = client.query().table_name(TABLE).index_name("gsi1").set_exclusive_start_key(start);
        let page = condition.apply_to_query(q, "gsi1pk", AttributeValue::S(PK.into()), "gsi1sk").send().await;
        let page = page.expect("query");
        requests += 1;
        let pair = |i: &std::collections::HashMap<String, AttributeValue>| {
            (i["pk"].as_s().unwrap().clone(), i["gsi1sk"].as_s().unwrap().clone())
        };
        out.extend(page.items().iter().map(pair));
        match page.last_evaluated_key() {
            Some(k) if !k.is_empty() => start = Some(k.clone()),
            _ => return (out, requests),
        }
    }
}

fn benches(c: &mut Criterion) {
    let Some(server) = Server::start() else {
        panic!("the index versions benchmark needs moto (tests/.venv, or MOTO_SERVER), as the DynamoDB tests do")
    };
    let client = client(&server.endpoint);
    let rt = runtime();
    let lock = LockFile::parse(&format!(
        "RankKey = {}\nRankKeyV1 = {}\nRankKey > RankKeyV1\n",
        RankKey::LAYOUT,
        RankKeyV1::LAYOUT
    ))
    .unwrap();
    let live = LiveLayouts::new(lock.live("RankKey"));
    let results = rt.block_on(async {
        seed(&client).await;
        let (a, b, c) = (library(&client, &live).await, by_hand_pages(&client).await, by_hand_once(&client).await);
        assert!(a.0 == b.0 && a.0 == c.0, "every side returns the same items");
        for (name, (items, read, requests)) in [("library", &a), ("by_hand_pages", &b), ("by_hand_once", &c)] {
            println!("{name}: {} items, {read} items read, {requests} requests", items.len());
        }
        a.0.len()
    });
    assert_eq!(results, 2 * (100 + 50), "100 current keys and 50 old ones at or above the bound, two items each");
    let mut g = c.benchmark_group("index_versions");
    g.sampling_mode(SamplingMode::Flat).sample_size(10).measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(results as u64));
    g.bench_function("library", |b| b.iter(|| rt.block_on(library(&client, &live))));
    g.bench_function("by_hand_pages", |b| b.iter(|| rt.block_on(by_hand_pages(&client))));
    g.bench_function("by_hand_once", |b| b.iter(|| rt.block_on(by_hand_once(&client))));
    g.finish();
}

criterion_group!(index_versions, benches);

fn main() {
    index_versions();
    Criterion::default().configure_from_args().final_summary();
}
