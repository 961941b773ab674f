//! The backfill against a plain SDK loop doing the same rewrites, on moto, in one run
//! (`cargo bench -p sortkey-tests --features dynamodb --bench backfill`, then
//! `python3 tests/benches/report.py backfill`). It starts moto itself (tests/.venv, as the
//! DynamoDB tests do).
//!
//! Each iteration writes 100 leaderboard items in the old layout (10-digit descending score)
//! over 8 partitions, outside the timing, then times one of:
//!
//! - `backfill`: [`Backfill::run_segment`] over the whole table, one segment: per Scan page one
//!   consistent BatchGetItem for the current keys, then per item a conditional
//!   `TransactWriteItems` (put the current key if absent, delete the old one if unchanged);
//! - `plain`: what services write by hand: Scan page by page, decode the old key, PutItem under
//!   the new key, DeleteItem of the old one, no conditions;
//! - `plain_transact`: the same loop with the put and the delete in one `TransactWriteItems`, no
//!   conditions and no look: what the backfill's atomic move costs on the server by itself;
//! - `backfill_file_checkpoint` / `backfill_table_checkpoint`: the backfill as a worker runs it,
//!   [`Backfill::run_checkpointed`] saving its cursor after every page to a JSON file, or to a
//!   lease item of a DynamoDB table (one more conditional UpdateItem per page);
//! - `migration_file_checkpoint`: what `sortkey migrate` runs, [`Backfill::run_rekey`] with a
//!   [`DynMigration`] between the two layouts as a lock holds them (each key decoded and encoded
//!   through the layouts' text, fields matched by name), saving to a JSON file per page: the same
//!   requests as `backfill_file_checkpoint`, the key rule read at run time.
//!
//! Both are checked to leave the same table (every item in the new layout, none lost) before
//! the timings.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeValue, Delete, DeleteRequest, Put, PutRequest, TransactWriteItem, WriteRequest,
};
use criterion::{Criterion, SamplingMode, Throughput, criterion_group};
use sortkey_core::dynamodb::{Attributes, Backfill, FileCheckpoint, SegmentCursor, TableCheckpoint};
use sortkey_core::{DynLayout, DynMigration, KeyNames, Layout, SortKey, TableDefinition};
use sortkey_tests::leaderboard::{RankKey, RankKeyV1};
use sortkey_tests::server::{Server, client, runtime};

const TABLE: &str = "backfill_bench";
const ITEMS: u64 = 100;

fn item(season: u64, sk: String, points: u64) -> Attributes {
    HashMap::from([
        ("pk".to_owned(), AttributeValue::S(format!("SEASON#{season}"))),
        ("sk".to_owned(), AttributeValue::S(sk)),
        ("points".to_owned(), AttributeValue::N(points.to_string())),
    ])
}

async fn batch(client: &Client, requests: Vec<WriteRequest>) {
    for chunk in requests.chunks(25) {
        let out = client.batch_write_item().request_items(TABLE, chunk.to_vec()).send().await.expect("batch write");
        assert!(out.unprocessed_items().is_none_or(|u| u.is_empty()), "moto left items unprocessed");
    }
}

/// Writes the old-layout items.
async fn seed(client: &Client) {
    let requests = (0..ITEMS)
        .map(|i| {
            let sk = RankKeyV1 { score: i * 37, player: format!("p{i:03}") }.encode().unwrap();
            let put = PutRequest::builder().set_item(Some(item(i % 8, sk, i))).build().unwrap();
            WriteRequest::builder().put_request(put).build()
        })
        .collect();
    batch(client, requests).await;
}

/// Every item of the table.
async fn scan_all(client: &Client) -> Vec<Attributes> {
    let (mut out, mut start) = (Vec::new(), None);
    loop {
        let page = client.scan().table_name(TABLE).set_exclusive_start_key(start.take()).send().await.unwrap();
        out.extend(page.items().iter().cloned());
        match page.last_evaluated_key() {
            Some(k) if !k.is_empty() => start = Some(k.clone()),
            _ => return out,
        }
    }
}

/// Empties the table, and checks first that every item is in the current layout.
async fn check_and_clear(client: &Client) {
    let all = scan_all(client).await;
    assert_eq!(all.len() as u64, ITEMS, "none lost, none duplicated");
    for i in &all {
        let read = RankKey::decode_any(i["sk"].as_s().unwrap()).unwrap();
        assert!(read.is_current(), "left in the old layout: {i:?}");
    }
    let requests = all
        .into_iter()
        .map(|i| {
            let key = HashMap::from([("pk".to_owned(), i["pk"].clone()), ("sk".to_owned(), i["sk"].clone())]);
            WriteRequest::builder().delete_request(DeleteRequest::builder().set_key(Some(key)).build().unwrap()).build()
        })
        .collect();
    batch(client, requests).await;
}

async fn run_backfill(client: &Client) {
    let bf = Backfill::new(client, TABLE, KeyNames::DEFAULT).compare_attributes(&[]);
    let (cursor, done) = bf.run_segment::<RankKey>(SegmentCursor::start(0, 1), None, |_, _| {}).await.unwrap();
    assert!(cursor.done && done.rewritten == ITEMS, "{done:?}");
}

/// The hand-written rewrite: no look, no conditions; the put and the delete as two requests or
/// as one transaction.
async fn run_plain(client: &Client, transact: bool) {
    let mut start = None;
    loop {
        let page = client.scan().table_name(TABLE).set_exclusive_start_key(start.take()).send().await.unwrap();
        for old in page.items() {
            let Ok(key) = RankKeyV1::decode(old["sk"].as_s().unwrap()) else { continue };
            let new_sk = RankKey::from(key).encode().unwrap();
            let mut moved = old.clone();
            moved.insert("sk".to_owned(), AttributeValue::S(new_sk));
            let key = HashMap::from([("pk".to_owned(), old["pk"].clone()), ("sk".to_owned(), old["sk"].clone())]);
            if transact {
                let put = Put::builder().table_name(TABLE).set_item(Some(moved)).build().unwrap();
                let delete = Delete::builder().table_name(TABLE).set_key(Some(key)).build().unwrap();
                let both = vec![
                    TransactWriteItem::builder().put(put).build(),
                    TransactWriteItem::builder().delete(delete).build(),
                ];
                client.transact_write_items().set_transact_items(Some(both)).send().await.unwrap();
            } else {
                client.put_item().table_name(TABLE).set_item(Some(moved)).send().await.unwrap();
                client.delete_item().table_name(TABLE).set_key(Some(key)).send().await.unwrap();
            }
        }
        match page.last_evaluated_key() {
            Some(k) if !k.is_empty() => start = Some(k.clone()),
            _ => return,
        }
    }
}

/// The ways to rewrite the table, by benchmark name.
const WAYS: [&str; 6] = [
    "backfill",
    "backfill_file_checkpoint",
    "backfill_table_checkpoint",
    "migration_file_checkpoint",
    "plain",
    "plain_transact",
];

async fn run(client: &Client, way: &str) {
    match way {
        "backfill" => run_backfill(client).await,
        "backfill_file_checkpoint" | "backfill_table_checkpoint" | "migration_file_checkpoint" => {
            run_checkpointed(client, way).await
        }
        "plain" => run_plain(client, false).await,
        _ => run_plain(client, true).await,
    }
}

/// The backfill saving its cursor after every page, each run under a checkpoint of its own (a
/// fresh directory, or a fresh backfill name in the lease table).
async fn run_checkpointed(client: &Client, way: &str) {
    static RUNS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let bf = Backfill::new(client, TABLE, KeyNames::DEFAULT).compare_attributes(&[]);
    let (cursor, done) = if way != "backfill_table_checkpoint" {
        let dir = std::env::temp_dir().join(format!("sortkey-bench-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut checkpoint = FileCheckpoint::new(&dir);
        let out = match way {
            "backfill_file_checkpoint" => bf.run_checkpointed::<RankKey, _>(0, 1, &mut checkpoint).await,
            _ => {
                // The layouts as a lock holds them: their text, read back.
                let lock =
                    |name: &str, layout: &Layout| (name.to_owned(), DynLayout::parse(&layout.to_string()).unwrap());
                let migration =
                    DynMigration::new(lock("RankKeyV1", &RankKeyV1::LAYOUT), lock("RankKey", &RankKey::LAYOUT))
                        .unwrap();
                bf.run_rekey(&migration, 0, 1, &mut checkpoint, |_| {}).await
            }
        };
        std::fs::remove_dir_all(&dir).unwrap();
        out.unwrap()
    } else {
        let name = format!("bench-{n}");
        let mut lease =
            TableCheckpoint::new(client.clone(), LEASES, KeyNames::DEFAULT, &name, "bench", Duration::from_secs(60));
        bf.run_checkpointed::<RankKey, _>(0, 1, &mut lease).await.unwrap()
    };
    assert!(cursor.done && done.rewritten == ITEMS, "{done:?}");
}

/// The lease table of the table checkpoint.
const LEASES: &str = "backfill_bench_leases";

fn benches(c: &mut Criterion) {
    let Some(server) = Server::start() else {
        panic!(
            "the backfill benchmark needs moto: `python3 -m venv tests/.venv && \
             tests/.venv/bin/pip install -r tests/requirements-dynamodb.txt` (or MOTO_SERVER)"
        )
    };
    let client = client(&server.endpoint);
    let rt = runtime();
    rt.block_on(async {
        let def = TableDefinition::new(TABLE, KeyNames::DEFAULT);
        def.apply_to_create(client.create_table()).unwrap().send().await.expect("create table");
        let leases = TableDefinition::new(LEASES, KeyNames::DEFAULT);
        leases.apply_to_create(client.create_table()).unwrap().send().await.expect("create lease table");
        // All of them leave the same table.
        for way in WAYS {
            seed(&client).await;
            run(&client, way).await;
            check_and_clear(&client).await;
        }
    });

    let mut g = c.benchmark_group("backfill");
    g.sampling_mode(SamplingMode::Flat).sample_size(10).measurement_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(ITEMS));
    for way in WAYS {
        g.bench_function(way, |b| {
            b.iter_custom(|iters| {
                let mut timed = Duration::ZERO;
                for _ in 0..iters {
                    rt.block_on(seed(&client));
                    let start = Instant::now();
                    rt.block_on(run(&client, way));
                    timed += start.elapsed();
                    rt.block_on(check_and_clear(&client));
                }
                timed
            })
        });
    }
    g.finish();
}

criterion_group!(backfill, benches);

fn main() {
    backfill();
    Criterion::default().configure_from_args().final_summary();
}
