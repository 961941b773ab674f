//! The in-memory DynamoDB against moto: seeded sequences of requests, made by the library's own
//! calls (put, update with its version condition, delete, move, get, typed queries of the table
//! and of an index a page at a time, and raw Scans and transactions), run against both servers
//! through the same SDK; every answer must agree: the same entities in the same order, the same
//! pages, the same error kinds and cancellation reasons, and at the end the same items.
//!
//! One difference is DynamoDB's own and kept: a page that stops at its `Limit` has a
//! `LastEvaluatedKey` in DynamoDB (and here) even when no item follows, where moto looks ahead
//! and gives none; pages are compared with a trailing empty page dropped.
//!
//! Needs moto and runs only when asked, `SORTKEY_SIM_MOTO=1 cargo test -p sortkey-sim --test sim
//! differential::` (CI does, after installing moto), so that the workspace's tests build it once.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, Delete, Put, TransactWriteItem};
use sortkey_core::dynamodb::{
    EntityItem, EntityQuery, ItemError, PutMode, delete_item, get_item, move_item, put_item, query_page, update_item,
};
use sortkey_core::{Entity, KeyCondition, SortKey, TableDefinition};
use sortkey_sim::MemoryDynamo;
use sortkey_test_server::{client, runtime, server_or_skip};

#[derive(Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "SEASON", season),
    sk(prefix = "RUN", score(width = 4, desc), player),
    index(by_player(pk(prefix = "PLAYER", player), sk(score(width = 4)))),
    version = revision
)]
struct Run {
    season: u16,
    score: u32,
    player: String,
    revision: u64,
    note: String,
}

/// A small deterministic generator (xorshift64*): the same seed, the same sequence.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

fn run(rng: &mut Rng) -> Run {
    Run {
        season: 1 + rng.below(2) as u16,
        score: rng.below(6) as u32 * 125,
        player: format!("p_{}", rng.below(4)),
        // Mostly a new entity's version (0), so that the table fills; sometimes a stale one.
        revision: if rng.below(4) == 0 { 1 + rng.below(2) } else { 0 },
        note: "x".repeat(rng.below(3) as usize),
    }
}

/// An outcome as both servers must give it: the value, or the error's kind (its variant).
fn outcome<T: std::fmt::Debug>(result: Result<T, ItemError>) -> String {
    match result {
        Ok(v) => format!("ok {v:?}"),
        Err(e) => {
            let kind = format!("{:?}", e.kind());
            let variant = kind.split(['(', ' ', '{']).next().unwrap_or_default().to_owned();
            format!("error {variant}")
        }
    }
}

/// A sort condition drawn at random (or none).
fn condition(rng: &mut Rng) -> Option<KeyCondition> {
    let score = rng.below(8) as u32 * 100;
    let other = rng.below(8) as u32 * 100;
    match rng.below(5) {
        0 => None,
        1 => RunSk::query().score_range().gte(score).ok(),
        2 => RunSk::query().score_range().lt(score).ok(),
        3 => RunSk::query().score_range().between(score.min(other), score.max(other)).ok(),
        _ => RunSk::query().score(score).begins_with().ok(),
    }
}

/// The pages of a query, each page's entities; a trailing empty page (after a `Limit` that
/// DynamoDB stops at) dropped.
fn pages(mut pages: Vec<Vec<Run>>) -> Vec<Vec<Run>> {
    if pages.len() > 1 && pages.last().is_some_and(Vec::is_empty) {
        pages.pop();
    }
    pages
}

/// One step against one server, its outcome as text.
/// Every page of `query`, `limit` items a page, by its cursor to the end: each page's entities.
async fn all_pages<Q: EntityQuery>(
    client: &Client,
    table: &str,
    query: &Q,
    limit: i32,
) -> Result<Vec<Vec<Q::Entity>>, ItemError>
where
    Q::Entity: serde::de::DeserializeOwned,
{
    let (mut all, mut start) = (Vec::new(), None);
    loop {
        let page = query_page(client, table, query, start.as_ref(), limit).await?;
        all.push(page.entities);
        match page.next {
            Some(next) => start = Some(next),
            None => return Ok(all),
        }
    }
}

async fn step(client: &Client, table: &str, op: u64, rng: &mut Rng) -> String {
    match op {
        0 => outcome(put_item(client, table, &run(rng), PutMode::Create).await),
        1 => outcome(put_item(client, table, &run(rng), PutMode::Overwrite).await),
        2 | 3 => outcome(update_item(client, table, &run(rng)).await),
        4 => outcome(delete_item(client, table, &run(rng)).await),
        5 => {
            let r = run(rng);
            outcome(get_item::<Run>(client, table, &r.primary_key()).await)
        }
        6 => {
            let (old, new) = (run(rng), run(rng));
            outcome(move_item(client, table, &old, &Run { season: old.season, ..new }).await)
        }
        7 | 8 => {
            let season = 1 + rng.below(2) as u16;
            let mut query = Run::query(&RunPk { season }).unwrap();
            if let Some(c) = condition(rng) {
                query = query.sort(c);
            }
            let limit = 1 + rng.below(6) as i32;
            match all_pages(client, table, &query, limit).await {
                Ok(all) => format!("pages {:?}", pages(all)),
                Err(e) => outcome::<()>(Err(e)),
            }
        }
        9 => {
            let player = format!("p_{}", rng.below(4));
            let query = Run::by_player(&RunByPlayerPk { player }).unwrap();
            let limit = 1 + rng.below(4) as i32;
            match all_pages(client, table, &query, limit).await {
                Ok(all) => format!("index pages {:?}", pages(all)),
                Err(e) => outcome::<()>(Err(e)),
            }
        }
        10 => {
            // A transaction of a create and a conditional delete: all or nothing, the reasons.
            let (a, b) = (run(rng), run(rng));
            let item = a.to_item().unwrap();
            let put = Put::builder()
                .table_name(table)
                .set_item(Some(item))
                .condition_expression("attribute_not_exists(pk)")
                .build()
                .unwrap();
            let key = b.primary_key().to_attributes(Run::KEYS).unwrap();
            let delete = Delete::builder()
                .table_name(table)
                .set_key(Some(key))
                .condition_expression("revision = :r")
                .expression_attribute_values(":r", AttributeValue::N(b.revision.to_string()))
                .build()
                .unwrap();
            let actions = vec![
                TransactWriteItem::builder().put(put).build(),
                TransactWriteItem::builder().delete(delete).build(),
            ];
            match client.transact_write_items().set_transact_items(Some(actions)).send().await {
                Ok(_) => "transaction ok".to_owned(),
                Err(e) => match e.as_service_error() {
                    Some(aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError::TransactionCanceledException(c)) => {
                        let codes: Vec<&str> = c.cancellation_reasons().iter().map(|r| r.code().unwrap_or("?")).collect();
                        format!("transaction cancelled {codes:?}")
                    }
                    _ => format!("transaction error {:?}", aws_sdk_dynamodb::error::ProvideErrorMetadata::code(&e)),
                },
            }
        }
        12..=14 => {
            // The writers' contract: read, change, write conditionally on the version read.
            let key = run(rng).primary_key();
            let (note, score) = ("y".repeat(rng.below(4) as usize), rng.below(6) as u32 * 125);
            let read = match get_item::<Run>(client, table, &key).await {
                Ok(Some(read)) => read,
                other => return format!("read {}", outcome(other)),
            };
            let changed = Run { note, ..read.clone() };
            match op {
                12 => format!("read and update {}", outcome(update_item(client, table, &changed).await)),
                13 => {
                    let moved = Run { score, ..changed };
                    format!("read and move {}", outcome(move_item(client, table, &read, &moved).await))
                }
                _ => format!("read and delete {}", outcome(delete_item(client, table, &read).await)),
            }
        }
        _ => {
            // A raw Query, `Limit` 1 to 3, backwards, page by page: items and the last key.
            let season = 1 + rng.below(2) as u16;
            let limit = 1 + rng.below(3) as i32;
            let (mut got, mut start) = (Vec::new(), None);
            loop {
                let page = client
                    .query()
                    .table_name(table)
                    .key_condition_expression("pk = :pk")
                    .expression_attribute_values(":pk", AttributeValue::S(RunPk { season }.encode().unwrap()))
                    .scan_index_forward(false)
                    .limit(limit)
                    .set_exclusive_start_key(start.take())
                    .send()
                    .await
                    .unwrap();
                let keys: Vec<String> = page.items().iter().map(|i| i["sk"].as_s().unwrap().clone()).collect();
                got.push(keys);
                match page.last_evaluated_key() {
                    Some(k) if !k.is_empty() => start = Some(k.clone()),
                    _ => break,
                }
            }
            if got.len() > 1 && got.last().is_some_and(Vec::is_empty) {
                got.pop();
            }
            format!("raw pages {got:?}")
        }
    }
}

/// Every item of the table, sorted by its keys.
async fn everything(client: &Client, table: &str) -> Vec<String> {
    let mut items = Vec::new();
    for segment in 0..3 {
        let mut start = None;
        loop {
            let page = client
                .scan()
                .table_name(table)
                .segment(segment)
                .total_segments(3)
                .limit(4)
                .set_exclusive_start_key(start.take())
                .send()
                .await
                .unwrap();
            items.extend(page.items().iter().map(|i| {
                let mut pairs: Vec<String> = i.iter().map(|(k, v)| format!("{k}={v:?}")).collect();
                pairs.sort();
                pairs.join(" ")
            }));
            match page.last_evaluated_key() {
                Some(k) if !k.is_empty() => start = Some(k.clone()),
                _ => break,
            }
        }
    }
    items.sort();
    items
}

#[test]
fn the_memory_dynamodb_answers_as_moto_does() {
    if std::env::var_os("SORTKEY_SIM_MOTO").is_none() {
        eprintln!("the_memory_dynamodb_answers_as_moto_does: SKIPPED, set SORTKEY_SIM_MOTO=1 (moto installed)");
        return;
    }
    let Some(server) = server_or_skip("the_memory_dynamodb_answers_as_moto_does") else { return };
    let moto = client(&server.endpoint);
    let memory = MemoryDynamo::new().client();
    const SEEDS: u64 = 12;
    const STEPS: u64 = 100;
    runtime().block_on(async {
        for seed in 0..SEEDS {
            let table = format!("runs_{seed}");
            let definition = TableDefinition::of::<Run>(&table);
            for c in [&moto, &memory] {
                definition.apply_to_create(c.create_table()).unwrap().send().await.unwrap();
            }
            let mut rng = Rng::new(seed);
            for n in 0..STEPS {
                let op = rng.below(16);
                let state = rng.0;
                let on_moto = step(&moto, &table, op, &mut rng).await;
                rng.0 = state;
                let in_memory = step(&memory, &table, op, &mut rng).await;
                assert_eq!(in_memory, on_moto, "seed {seed}, step {n} (operation {op}): memory against moto");
            }
            assert_eq!(everything(&memory, &table).await, everything(&moto, &table).await, "seed {seed}: the items");
        }
    });
}
