//! What a rank read costs on boards of 1,000 to 1,000,000 items over 1 and 16 shards, on the
//! simulation's in-memory DynamoDB (which the differential test holds to moto and which charges
//! read units as DynamoDB does), against the hand-written way, a `Select = COUNT` Query of every
//! item before the key; and what a write costs with and without counters, kept in its own
//! transaction or from the stream's records (`apply_stream`). Every rank read
//! equals the hand-written count, in N + 2 requests over N shards. The tests' run measures boards of 1,000 and 10,000 items;
//! `SORTKEY_RANK_COSTS=full` those of BENCHMARKS.md (1,000, 100,000 and 1,000,000, about three
//! minutes), and `--nocapture` prints the table.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity, Select};
use serde_json::{Value, json};
use sortkey_core::dynamodb::{RankBoard, rank, write_ranked};
use sortkey_core::{RankedField, SortKey};
use sortkey_sim::MemoryDynamo;
use sortkey_tests::leaderboard::RankKeyV1;
use sortkey_tests::rng::Rng;
use sortkey_tests::server::{create_table, runtime};

/// Writes `items` (partition, sort key) straight into the in-memory table, 25 a request.
fn load(dynamo: &MemoryDynamo, items: impl Iterator<Item = (String, String, Value)>) {
    let mut batch = Vec::new();
    let flush = |batch: &mut Vec<Value>| {
        if batch.is_empty() {
            return;
        }
        let body = json!({ "RequestItems": { "Board": std::mem::take(batch) } });
        let (status, answer) = dynamo.answer("BatchWriteItem", &body);
        assert_eq!(status, 200, "{answer}");
    };
    for (pk, sk, more) in items {
        let mut item = json!({ "pk": { "S": pk }, "sk": { "S": sk } });
        if let (Some(item), Value::Object(more)) = (item.as_object_mut(), more) {
            item.extend(more);
        }
        batch.push(json!({ "PutRequest": { "Item": item } }));
        if batch.len() == 25 {
            flush(&mut batch);
        }
    }
    flush(&mut batch);
}

/// The hand-written rank: a `Select = COUNT` Query a shard of every key up to `key`, page by
/// page (`key` is a player's own, so the count is its rank).
async fn counted(client: &Client, board: &RankBoard, key: &str) -> (u64, u32, u64, f64) {
    let (mut rank, mut requests, mut items, mut units) = (0, 0, 0, 0.0);
    for partition in &board.partitions {
        let mut start = None;
        loop {
            let page = client
                .query()
                .table_name(&board.table)
                .key_condition_expression("pk = :p AND sk BETWEEN :low AND :high")
                .expression_attribute_values(":p", AttributeValue::S(partition.clone()))
                .expression_attribute_values(":low", AttributeValue::S("RUN#".into()))
                .expression_attribute_values(":high", AttributeValue::S(key.into()))
                .select(Select::Count)
                .consistent_read(true)
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .set_exclusive_start_key(start)
                .send()
                .await
                .unwrap();
            requests += 1;
            rank += page.count() as u64;
            items += page.scanned_count() as u64;
            units += page.consumed_capacity().and_then(|c| c.capacity_units()).unwrap_or(0.0);
            match page.last_evaluated_key() {
                Some(k) if !k.is_empty() => start = Some(k.clone()),
                _ => break,
            }
        }
    }
    (rank, requests, items, units)
}

fn board(shards: usize, levels: usize) -> RankBoard {
    RankBoard {
        table: "Board".into(),
        pk: "pk".into(),
        sk: "sk".into(),
        partitions: (0..shards).map(|s| format!("SEASON#2026#{s:02}")).collect(),
        ranked: RankedField::of("RankKeyV1", &RankKeyV1::LAYOUT, "score", levels).unwrap(),
    }
}

/// A board of `items` runs (scores over the whole ten digits, 200 bytes of attributes each, as
/// a leaderboard's run holds a name and a time) and its counters, loaded; then the rank of the
/// players at the top, the middle and the end, read both ways.
fn measure(items: usize, shards: usize, levels: usize) -> Vec<String> {
    let dynamo = MemoryDynamo::new();
    let client = dynamo.client();
    let board = board(shards, levels);
    let rt = runtime();
    rt.block_on(create_table(&client, "Board"));
    let mut rng = Rng(items as u64 ^ shards as u64);
    let keys: Vec<(usize, String)> = (0..items)
        .map(|player| {
            let score = rng.bits() % 10_000_000_000;
            let key = RankKeyV1 { score, player: format!("p_{player}") }.encode().unwrap();
            (player % shards, key)
        })
        .collect();
    let padding = "x".repeat(200);
    load(
        &dynamo,
        keys.iter().map(|(s, k)| (board.partitions[*s].clone(), k.clone(), json!({ "name": { "S": padding } }))),
    );
    let counters: Vec<_> = (0..shards)
        .map(|s| board.ranked.tally(keys.iter().filter(|(k, _)| *k == s).map(|(_, key)| key.as_str())))
        .collect();
    load(
        &dynamo,
        counters.iter().enumerate().flat_map(|(shard, nodes)| {
            let board = &board;
            nodes.iter().map(move |(node, counts)| {
                let mut more = serde_json::Map::new();
                for (d, c) in counts.iter().enumerate() {
                    more.insert(format!("c{d}"), json!({ "N": c.to_string() }));
                }
                (board.partitions[shard].clone(), board.ranked.counter_key(node), Value::Object(more))
            })
        }),
    );
    let mut sorted: Vec<&String> = keys.iter().map(|(_, k)| k).collect();
    sorted.sort();
    let mut rows = Vec::new();
    for (place, at) in [("top", 0), ("middle", items / 2), ("end", items - 1)] {
        let key = sorted[at];
        let read = rt.block_on(rank(&client, &board, key, true)).unwrap();
        assert_eq!(read.rank, at as u64 + 1, "{items} items, {shards} shards: the {place} player");
        assert_eq!(read.requests as usize, shards + 2, "a point read, a Query a shard, a point read: {read:?}");
        let back = rt.block_on(rank(&client, &board, key, false)).unwrap();
        assert_eq!(back.rank, (items - at) as u64, "read backward");
        let (by_hand, requests, scanned, units) = rt.block_on(counted(&client, &board, key));
        assert_eq!(by_hand, read.rank, "the hand-written count");
        rows.push(format!(
            "| {items} | {shards} | {levels} | {place} ({}) | {} | {} + {} | {:.1} | {requests} | {scanned} | {units:.1} |",
            read.rank, read.requests, read.counters, read.bucket_items, read.read_units
        ));
    }
    rows
}

/// The units of one put with and without counters: a plain PutItem, and write_ranked's
/// transaction (the item and one counter item a level).
fn write_units(levels: usize) -> String {
    let dynamo = MemoryDynamo::new();
    let client = dynamo.client();
    let board = board(1, levels);
    runtime().block_on(async {
        create_table(&client, "Board").await;
        let key = RankKeyV1 { score: 1500, player: "p_1".into() }.encode().unwrap();
        let item = |sk: &str| {
            std::collections::HashMap::from([
                ("pk".to_owned(), AttributeValue::S(board.partitions[0].clone())),
                ("sk".to_owned(), AttributeValue::S(sk.to_owned())),
                ("name".to_owned(), AttributeValue::S("x".repeat(200))),
            ])
        };
        let plain = client
            .put_item()
            .table_name("Board")
            .set_item(Some(item("RUN#plain")))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await
            .unwrap();
        let plain = plain.consumed_capacity().and_then(|c| c.capacity_units()).unwrap_or(0.0);
        let actions = write_ranked(&client, &board, &board.partitions[0], None, Some(item(&key))).await.unwrap();
        // A transaction's write units: two a write of up to 1 KB, each action (DynamoDB's rule).
        format!("| {levels} | {plain:.1} | {actions} actions, {} |", actions * 2)
    })
}

#[test]
fn a_rank_read_costs_a_query_a_shard_and_two_point_reads_whatever_the_rank() {
    let mut rows = vec![
        "| items | shards | levels | player (rank) | requests | counter items + bucket items | read units | by Query: requests | items | read units |".to_owned(),
        "|---|---|---|---|---|---|---|---|---|---|".to_owned(),
    ];
    let full = std::env::var("SORTKEY_RANK_COSTS").as_deref() == Ok("full");
    let boards: &[(usize, usize)] =
        if full { &[(1_000, 2), (100_000, 4), (1_000_000, 5)] } else { &[(1_000, 2), (10_000, 3)] };
    for &(items, levels) in boards {
        for shards in [1, 16] {
            rows.extend(measure(items, shards, levels));
        }
    }
    rows.push(String::new());
    rows.push("| levels | a plain put's write units | a ranked put: transaction actions, write units |".to_owned());
    rows.push("|---|---|---|".to_owned());
    rows.extend([2, 4, 5].map(write_units));
    println!("{}", rows.join("\n"));
}

/// The eventually exact way: 1,000 runs written as plain puts (one write unit each) and their
/// stream records handed to `apply_stream` in batches of 100 (records of one stream shard);
/// the same batches delivered again change nothing; a round of 200 new scores (each a REMOVE
/// and an INSERT record) applied. After each, every counter equals the items. `--nocapture`
/// prints what the counters cost a write, against `write_ranked`'s transaction.
#[test]
fn counters_kept_from_a_stream_equal_the_items_once_every_record_is_applied() {
    println!(
        "| levels | a write: plain put | + counters in its transaction (write_ranked) | + counters from the stream, batches of 100 |"
    );
    println!("|---|---|---|---|");
    for levels in [2, 4] {
        println!("{}", stream_costs(levels));
    }
}

/// The stream's run at `levels`, checked; its row of the table.
fn stream_costs(levels: usize) -> String {
    use sortkey_core::dynamodb::{StreamedChange, apply_stream, check_counters};
    let dynamo = MemoryDynamo::new();
    let client = dynamo.client();
    let board = board(1, levels);
    let partition = board.partitions[0].clone();
    let mut rng = Rng(7);
    runtime().block_on(async move {
        create_table(&client, "Board").await;
        let mut scores: Vec<u64> = (0..1_000).map(|_| rng.bits() % 10_000_000_000).collect();
        let mut records = Vec::new();
        let mut put_units = 0.0;
        for (player, score) in scores.iter().enumerate() {
            let sk = RankKeyV1 { score: *score, player: format!("p_{player:04}") }.encode().unwrap();
            let put = client.put_item().table_name("Board").item("pk", AttributeValue::S(partition.clone()));
            let put = put.item("sk", AttributeValue::S(sk.clone())).return_consumed_capacity(ReturnConsumedCapacity::Total);
            let answer = put.send().await.unwrap();
            put_units += answer.consumed_capacity().and_then(|c| c.capacity_units()).unwrap_or(0.0);
            let sequence = format!("{}", 1_000_000 + records.len());
            records.push(StreamedChange { sequence, partition: partition.clone(), before: None, after: Some(sk) });
        }
        let (mut actions, mut transactions) = (0, 0);
        for batch in records.chunks(100) {
            let done = apply_stream(&client, &board, "shardId-1", batch).await.unwrap();
            assert_eq!((done.applied, done.skipped), (100, 0), "{done:?}");
            assert!(done.transactions >= 1 && done.actions <= 100 * done.transactions, "{done:?}");
            (actions, transactions) = (actions + done.actions, transactions + done.transactions);
        }
        assert_eq!(check_counters(&client, &board).await.unwrap(), vec![], "after the inserts");
        // Delivered again (a consumer that failed after writing): applied once.
        for batch in records.chunks(100) {
            let done = apply_stream(&client, &board, "shardId-1", batch).await.unwrap();
            assert_eq!((done.applied, done.skipped, done.transactions), (0, 100, 0), "{done:?}");
        }
        assert_eq!(check_counters(&client, &board).await.unwrap(), vec![], "after the redelivery");
        // 200 new scores: the new key put, the old deleted, two records each.
        let mut moves = Vec::new();
        for (player, score) in scores.iter_mut().enumerate().take(200) {
            let old = RankKeyV1 { score: *score, player: format!("p_{player:04}") }.encode().unwrap();
            *score = (*score + 1 + rng.bits() % 100_000) % 10_000_000_000;
            let new = RankKeyV1 { score: *score, player: format!("p_{player:04}") }.encode().unwrap();
            let put = client.put_item().table_name("Board").item("pk", AttributeValue::S(partition.clone()));
            put.item("sk", AttributeValue::S(new.clone())).send().await.unwrap();
            let delete = client.delete_item().table_name("Board").key("pk", AttributeValue::S(partition.clone()));
            delete.key("sk", AttributeValue::S(old.clone())).send().await.unwrap();
            let next = |records: &Vec<StreamedChange>| format!("{}", 1_000_000 + 1_000 + records.len());
            let p = partition.clone();
            moves.push(StreamedChange { sequence: next(&moves), partition: p.clone(), before: None, after: Some(new) });
            moves.push(StreamedChange { sequence: next(&moves), partition: p, before: Some(old), after: None });
        }
        for batch in moves.chunks(100) {
            apply_stream(&client, &board, "shardId-1", batch).await.unwrap();
        }
        assert_eq!(check_counters(&client, &board).await.unwrap(), vec![], "after the moves");
        let per_write = put_units / 1_000.0;
        // A transaction's write units: two an action of up to 1 KB (DynamoDB's rule).
        let stream = f64::from(actions) * 2.0 / 1_000.0;
        format!(
            "| {levels} | {per_write:.1} unit | {} actions, {} units | {:.2} units ({actions} counter actions for 1,000 inserts in {transactions} transactions) |",
            levels + 1,
            2 * (levels + 1),
            per_write + stream
        )
    })
}

/// The repair's race: a counter corrupted by hand, and another client's ranked write (its
/// partition's write count moved) committed between the repair's read of the partition and its
/// first batch. The batch, conditional on the write count read, is cancelled; the repair reads
/// the partition again and rewrites the counter from it, keeping the other write's count.
#[test]
fn a_repair_that_a_write_overtakes_reads_again_and_keeps_the_write() {
    use sortkey_core::dynamodb::{check_counters, repair_counters};
    let dynamo = MemoryDynamo::new();
    let client = dynamo.client();
    let board = board(1, 2);
    let partition = board.partitions[0].clone();
    let root = board.ranked.counter_key("");
    let version = |dynamo: &MemoryDynamo| {
        let key = json!({ "pk": { "S": partition }, "sk": { "S": root } });
        let (_, got) = dynamo.answer("GetItem", &json!({ "TableName": "Board", "Key": key, "ConsistentRead": true }));
        got["Item"]["v"]["N"].as_str().unwrap_or("0").parse::<u64>().unwrap()
    };
    runtime().block_on(async {
        create_table(&client, "Board").await;
        for player in 0..20u64 {
            let sk = RankKeyV1 { score: player * 499_999_999, player: format!("p_{player}") }.encode().unwrap();
            let item = std::collections::HashMap::from([
                ("pk".to_owned(), AttributeValue::S(partition.clone())),
                ("sk".to_owned(), AttributeValue::S(sk)),
            ]);
            write_ranked(&client, &board, &partition, None, Some(item)).await.unwrap();
        }
        assert_eq!(version(&dynamo), 20);
        // A count changed by hand (no write count moved).
        let key = json!({ "pk": { "S": partition }, "sk": { "S": root } });
        let corrupt = json!({ "TableName": "Board", "Key": key, "UpdateExpression": "ADD c9 :two",
            "ExpressionAttributeValues": { ":two": { "N": "2" } } });
        assert_eq!(dynamo.answer("UpdateItem", &corrupt).0, 200);
        assert_eq!(check_counters(&client, &board).await.unwrap().len(), 1);
        // Another client's write of the partition lands just before the repair's first batch.
        let other = json!({ "TableName": "Board", "Key": key, "UpdateExpression": "ADD v :one",
            "ExpressionAttributeValues": { ":one": { "N": "1" } } });
        dynamo.before_next("TransactWriteItems", "UpdateItem", other);
        let repaired = repair_counters(&client, &board).await.unwrap();
        assert_eq!(dynamo.pending(), 0, "the other write landed between the repair's read and its batch");
        assert_eq!(repaired, 1, "the root, rewritten once, after the cancelled batch was read again");
        assert_eq!(check_counters(&client, &board).await.unwrap(), vec![]);
        assert_eq!(version(&dynamo), 21, "the other write's count kept, not overwritten by the repair");
        // A write while the check reads the partition: the check reads it again, and compares
        // one state (the write count before and after its read the same).
        let other = json!({ "TableName": "Board", "Key": key, "UpdateExpression": "ADD v :one",
            "ExpressionAttributeValues": { ":one": { "N": "1" } } });
        dynamo.before_next("Query", "UpdateItem", other);
        let (queries, gets) = (dynamo.counted("Query"), dynamo.counted("GetItem"));
        assert_eq!(check_counters(&client, &board).await.unwrap(), vec![]);
        assert_eq!(dynamo.pending(), 0);
        let (queries, gets) = (dynamo.counted("Query") - queries, dynamo.counted("GetItem") - gets);
        assert_eq!((queries, gets), (2, 4), "two reads of the partition, each between two of its write count");
    });
}

/// What keeping the counters costs a migration: 1,000 runs in the older 10-digit layout moved
/// to the 12-digit one by the backfill, with and without the current layout's counters
/// (`Backfill::ranked`); the transactions and their actions (two write units each up to 1 KB).
/// After the ranked one, the counters equal the items. `--nocapture` prints the rows.
#[test]
fn a_migration_keeping_the_counters_costs_their_updates() {
    use sortkey_core::KeyNames;
    use sortkey_core::dynamodb::{Backfill, check_counters};
    use sortkey_tests::leaderboard::RankKey;
    println!("| levels | runs moved | transactions | actions | write units (2 an action) |");
    println!("|---|---|---|---|---|");
    for levels in [None, Some(2), Some(4)] {
        let dynamo = MemoryDynamo::new();
        let client = dynamo.client();
        let mut rng = Rng(11);
        let runs = (0..1_000u64).map(|p| {
            let sk = RankKeyV1 { score: rng.bits() % 10_000_000_000, player: format!("p_{p:04}") }.encode().unwrap();
            ("SEASON#2026#00".to_owned(), sk, json!({}))
        });
        runtime().block_on(create_table(&client, "Board"));
        load(&dynamo, runs);
        let ranked: Vec<RankedField> =
            levels.map(|l| RankedField::of("RankKey", &RankKey::LAYOUT, "score", l).unwrap()).into_iter().collect();
        let (before, actions_before) = (dynamo.counted("TransactWriteItems"), dynamo.counted("transaction actions"));
        let backfill =
            Backfill::new(&client, "Board", KeyNames::DEFAULT).compare_attributes(&[]).ranked(ranked.clone());
        let verdict = runtime().block_on(backfill.run_until_clean::<RankKey>(1, 3)).unwrap();
        assert!(verdict.complete, "{verdict}");
        assert_eq!(verdict.passes[0].rewritten, 1_000, "{verdict:?}");
        let transactions = dynamo.counted("TransactWriteItems") - before;
        let actions = dynamo.counted("transaction actions") - actions_before;
        if let Some(field) = ranked.first() {
            let board = RankBoard {
                table: "Board".into(),
                pk: "pk".into(),
                sk: "sk".into(),
                partitions: vec!["SEASON#2026#00".into()],
                ranked: field.clone(),
            };
            assert_eq!(runtime().block_on(check_counters(&client, &board)).unwrap(), vec![]);
        }
        let shown = levels.map_or("none".to_owned(), |l| l.to_string());
        println!("| {shown} | 1000 | {transactions} | {actions} | {} |", actions * 2);
    }
}
