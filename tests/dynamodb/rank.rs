//! Rank counters through the server: a season of runs over 2 shards, written, moved and deleted
//! with their counters in one transaction each (`write_ranked`), and every rank read (`rank`)
//! compared with a sorted list of the keys the table holds, in N + 2 requests; at the
//! end the counter items equal the counts recomputed from a Query of every item.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use sortkey_core::dynamodb::{RankBoard, check_counters, rank, rank_page, repair_counters, write_ranked};
use sortkey_core::{RankedField, SortKey};
use sortkey_tests::server::{client, runtime, server_or_skip};

#[derive(SortKey)]
#[key(prefix = "RUN")]
struct RankKey {
    #[key(width = 6, desc)]
    score: u32,
    player: String,
}

fn key(score: u32, player: u32) -> String {
    RankKey { score, player: format!("p_{player}") }.encode().unwrap()
}

fn item(partition: &str, sort: &str) -> HashMap<String, AttributeValue> {
    HashMap::from([
        ("pk".to_owned(), AttributeValue::S(partition.to_owned())),
        ("sk".to_owned(), AttributeValue::S(sort.to_owned())),
    ])
}

/// Every sort key of `partition`, in the server's order.
async fn keys(client: &aws_sdk_dynamodb::Client, partition: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = None;
    loop {
        let page = client
            .query()
            .table_name("Ranked")
            .key_condition_expression("pk = :p")
            .expression_attribute_values(":p", AttributeValue::S(partition.to_owned()))
            .set_exclusive_start_key(start)
            .send()
            .await
            .unwrap();
        out.extend(page.items().iter().map(|i| i["sk"].as_s().unwrap().clone()));
        match page.last_evaluated_key() {
            Some(k) if !k.is_empty() => start = Some(k.clone()),
            _ => return out,
        }
    }
}

#[test]
fn rank_reads_agree_with_a_sorted_list_and_the_counters_with_the_items() {
    let Some(server) = server_or_skip("rank_reads_agree_with_a_sorted_list_and_the_counters_with_the_items") else {
        return;
    };
    let client = client(&server.endpoint);
    let ranked = RankedField::of("RankKey", &RankKey::LAYOUT, "score", 3).unwrap();
    let partitions = vec!["SEASON#1#0".to_owned(), "SEASON#1#1".to_owned()];
    let board = RankBoard { table: "Ranked".into(), pk: "pk".into(), sk: "sk".into(), partitions, ranked };
    runtime().block_on(async {
        sortkey_tests::server::create_table(&client, "Ranked").await;
        // 80 players, scores with ties (20 values over the whole range, and close ones).
        let mut scores: Vec<Option<u32>> = Vec::new();
        for player in 0..80u32 {
            let score = [player % 20 * 37_000, 500 + player % 7][usize::from(player % 3 == 0)];
            let shard = &board.partitions[(player % 2) as usize];
            let actions =
                write_ranked(&client, &board, shard, None, Some(item(shard, &key(score, player)))).await.unwrap();
            assert!(actions <= 4, "a put and one counter a level: {actions}");
            scores.push(Some(score));
        }
        // A put over a key that is taken changes nothing.
        let shard = &board.partitions[0];
        let taken = write_ranked(&client, &board, shard, None, Some(item(shard, &key(scores[0].unwrap(), 0)))).await;
        assert!(taken.is_err(), "the key is taken: the transaction is refused");
        // An item of another partition than the one whose counters it would change is refused.
        let other = &board.partitions[1];
        let astray = write_ranked(&client, &board, shard, None, Some(item(other, &key(1, 999)))).await.unwrap_err();
        assert_eq!(
            astray.to_string(),
            format!(
                "rank on table `Ranked`: key `{}` is not on the board: expected an item of partition `{shard}` \
                 (attribute `pk`), found partition `{other}`",
                key(1, 999)
            )
        );
        // Moves (a new score) and deletes, each with its counters.
        for step in 0..30u32 {
            let player = step * 7 % 80;
            let Some(old) = scores[player as usize] else { continue };
            let shard = &board.partitions[(player % 2) as usize];
            let before = key(old, player);
            if step % 5 == 4 {
                write_ranked(&client, &board, shard, Some(&before), None).await.unwrap();
                scores[player as usize] = None;
            } else {
                let score = (old + 13_001 * (step + 1)) % 1_000_000;
                write_ranked(&client, &board, shard, Some(&before), Some(item(shard, &key(score, player))))
                    .await
                    .unwrap();
                scores[player as usize] = Some(score);
            }
        }
        // The sorted list: every key of the board, from the table itself.
        let mut all: Vec<String> = Vec::new();
        for partition in &board.partitions {
            all.extend(keys(&client, partition).await.into_iter().filter(|k| k.starts_with("RUN#")));
        }
        all.sort();
        let live = scores.iter().filter(|s| s.is_some()).count();
        assert_eq!(all.len(), live, "one item a live player");
        let mut probes: Vec<String> = all.iter().step_by(3).cloned().collect();
        probes.extend([0u32, 500, 37_000, 999_999, 444_444].map(|s| format!("RUN#{}", &key(s, 0)[4..10])));
        for probe in &probes {
            for forward in [true, false] {
                let read = rank(&client, &board, probe, forward).await.unwrap();
                let before = match forward {
                    true => all.iter().filter(|k| k.as_str() < probe.as_str()).count(),
                    false => all.iter().filter(|k| k.as_str() > probe.as_str()).count(),
                };
                assert_eq!(read.rank, before as u64 + 1, "{probe} forward {forward}: {read:?}");
                assert_eq!(read.requests, 2 + 2, "a point read, a Query a shard, a point read: {read:?}");
            }
        }
        // The board around a player: its rank, the 3 runs ahead of it and from it on, both ways.
        for probe in all.iter().step_by(7) {
            for forward in [true, false] {
                let page = rank_page(&client, &board, probe, forward, 3).await.unwrap();
                let mut order = all.clone();
                if !forward {
                    order.reverse();
                }
                let at = order.iter().position(|k| k == probe).unwrap();
                let sk = |side: &[(usize, HashMap<String, AttributeValue>)]| -> Vec<String> {
                    side.iter().map(|(_, item)| item["sk"].as_s().unwrap().clone()).collect()
                };
                assert_eq!(page.rank.rank, at as u64 + 1, "{probe} forward {forward}");
                assert_eq!(sk(&page.above), order[at.saturating_sub(3)..at], "{probe} forward {forward}: above");
                assert_eq!(sk(&page.below), order[at..(at + 3).min(order.len())], "{probe} forward {forward}: below");
                assert_eq!(page.requests, 2 * 2, "a Query a side a shard");
            }
        }
        // A counter changed behind the library's back is found, and repaired from the items.
        assert_eq!(check_counters(&client, &board).await.unwrap(), Vec::new(), "the counters are exact");
        let root = item(&board.partitions[1], &board.ranked.counter_key(""));
        let corrupt = client.update_item().table_name("Ranked").set_key(Some(root)).update_expression("ADD c3 :five");
        corrupt.expression_attribute_values(":five", AttributeValue::N("5".into())).send().await.unwrap();
        let wrong = check_counters(&client, &board).await.unwrap();
        assert_eq!(wrong.len(), 1, "{wrong:?}");
        assert_eq!((wrong[0].partition.as_str(), wrong[0].node.as_str()), ("SEASON#1#1", ""));
        assert_eq!(wrong[0].counters[3], wrong[0].items[3] + 5);
        assert_eq!(repair_counters(&client, &board).await.unwrap(), 1);
        assert_eq!(check_counters(&client, &board).await.unwrap(), Vec::new(), "repaired");
        // The counter items equal the counts of the items they stand for.
        for partition in &board.partitions {
            let held = keys(&client, partition).await;
            let expected = board.ranked.tally(held.iter().map(String::as_str));
            for counter in held.iter().filter_map(|k| board.ranked.node_of(k)) {
                let got = client
                    .get_item()
                    .table_name("Ranked")
                    .set_key(Some(item(partition, &board.ranked.counter_key(counter))))
                    .consistent_read(true)
                    .send()
                    .await
                    .unwrap();
                let got = got.item().unwrap();
                let counts: [u64; 10] = std::array::from_fn(|d| {
                    got.get(&format!("c{d}")).map_or(0, |n| n.as_n().unwrap().parse().unwrap())
                });
                assert_eq!(counts, expected.get(counter).copied().unwrap_or_default(), "{partition} node {counter:?}");
            }
        }
    });
}

/// A migration of a ranked layout keeps its counters: 40 runs in the old 10-digit layout (ranked
/// too, `RankKeyV1.score`) and 10 in the current 12-digit one, over two partitions, one player
/// in both; the backfill, given both ranked fields, moves every old run with its counter
/// changes in the move's transaction (off the old layout's counters, onto the current one's)
/// and deletes the stale one. Afterwards both layouts' counters equal their items (the old
/// one's all zero) and every rank equals a sorted list's.
#[test]
fn a_backfill_keeps_the_rank_counters_of_the_layouts_it_moves_between() {
    use sortkey_core::KeyNames;
    use sortkey_core::dynamodb::Backfill;
    use sortkey_tests::leaderboard::{RankKey as Current, RankKeyV1 as Old};
    let Some(server) = server_or_skip("a_backfill_keeps_the_rank_counters_of_the_layouts_it_moves_between") else {
        return;
    };
    let client = client(&server.endpoint);
    let current = RankedField::of("RankKey", &Current::LAYOUT, "score", 3).unwrap();
    let old = RankedField::of("RankKeyV1", &Old::LAYOUT, "score", 3).unwrap();
    let partitions = vec!["SEASON#1".to_owned(), "SEASON#2".to_owned()];
    let board = |ranked: &RankedField| RankBoard {
        table: "RankedMigration".into(),
        pk: "pk".into(),
        sk: "sk".into(),
        partitions: partitions.clone(),
        ranked: ranked.clone(),
    };
    runtime().block_on(async {
        sortkey_tests::server::create_table(&client, "RankedMigration").await;
        let mut expected: Vec<(String, String)> = Vec::new();
        for p in 0..40u64 {
            let shard = &partitions[(p % 2) as usize];
            let (score, player) = (p % 9 * 1_000 + p, format!("p_{p:02}"));
            let sk = Old { score, player: player.clone() }.encode().unwrap();
            write_ranked(&client, &board(&old), shard, None, Some(item(shard, &sk))).await.unwrap();
            expected.push((shard.clone(), Current { score, player }.encode().unwrap()));
        }
        for p in 39..49u64 {
            // p_39 is in both layouts: the application wrote its current key meanwhile.
            let shard = &partitions[(p % 2) as usize];
            let score = if p == 39 { p % 9 * 1_000 + p } else { p * 100 };
            let sk = Current { score, player: format!("p_{p:02}") }.encode().unwrap();
            write_ranked(&client, &board(&current), shard, None, Some(item(shard, &sk))).await.unwrap();
            expected.retain(|(s, k)| !(s == shard && *k == sk));
            expected.push((shard.clone(), sk));
        }
        let backfill = Backfill::new(&client, "RankedMigration", KeyNames::DEFAULT).page_size(20);
        let backfill = backfill.compare_attributes(&[]).ranked(vec![current.clone(), old.clone()]);
        let verdict = backfill.run_until_clean::<Current>(2, 3).await.unwrap();
        assert!(verdict.complete, "{verdict}");
        assert_eq!(verdict.passes[0].superseded, 1, "p_39's old run, deleted as stale: {verdict:?}");
        for ranked in [&current, &old] {
            let differences = check_counters(&client, &board(ranked)).await.unwrap();
            assert_eq!(differences, vec![], "the counters of {}", ranked.counter_key(""));
        }
        let mut keys: Vec<String> = expected.iter().map(|(_, k)| k.clone()).collect();
        keys.sort();
        for probe in [0u64, 1_005, 4_000, 8_039, 9_000] {
            let key = Current { score: probe, player: String::new() }.encode().unwrap();
            let key = key.trim_end_matches('#').to_owned();
            let read = rank(&client, &board(&current), &key, true).await.unwrap();
            let before = keys.iter().filter(|k| k.as_str() < key.as_str()).count() as u64;
            assert_eq!(read.rank, before + 1, "the rank of score {probe}");
        }
    });
}

/// Counters kept from a stream, through the server: 30 runs written as plain puts, their
/// records applied by `apply_stream` in two batches, the first delivered twice; the counters
/// then equal the items and every rank equals a sorted list's.
#[test]
fn counters_from_stream_records_equal_the_items_on_the_server() {
    use sortkey_core::dynamodb::{StreamedChange, apply_stream};
    let Some(server) = server_or_skip("counters_from_stream_records_equal_the_items_on_the_server") else { return };
    let client = client(&server.endpoint);
    let ranked = RankedField::of("RankKey", &RankKey::LAYOUT, "score", 3).unwrap();
    let partition = "SEASON#9".to_owned();
    let board = RankBoard {
        table: "Streamed".into(),
        pk: "pk".into(),
        sk: "sk".into(),
        partitions: vec![partition.clone()],
        ranked,
    };
    runtime().block_on(async {
        sortkey_tests::server::create_table(&client, "Streamed").await;
        let mut records = Vec::new();
        for player in 0..30u32 {
            let sk = key(player * 3_331 % 100_000, player);
            client.put_item().table_name("Streamed").set_item(Some(item(&partition, &sk))).send().await.unwrap();
            let sequence = format!("{}", 5_000 + player);
            records.push(StreamedChange { sequence, partition: partition.clone(), before: None, after: Some(sk) });
        }
        let first = apply_stream(&client, &board, "shardId-7", &records[..20]).await.unwrap();
        assert_eq!((first.applied, first.skipped), (20, 0), "{first:?}");
        // The consumer failed after writing, and the stream hands it the batch again, and more.
        let again = apply_stream(&client, &board, "shardId-7", &records[..]).await.unwrap();
        assert_eq!((again.applied, again.skipped), (10, 20), "{again:?}");
        assert_eq!(check_counters(&client, &board).await.unwrap(), vec![]);
        let keys: Vec<String> = records.iter().filter_map(|r| r.after.clone()).collect();
        for probe in [0u32, 33_310, 99_999] {
            let at = key(probe, 0);
            let read = rank(&client, &board, &at, true).await.unwrap();
            assert_eq!(read.rank, keys.iter().filter(|k| **k < at).count() as u64 + 1, "score {probe}");
        }
    });
}
