//! The paged read across a key's layout versions through the server: a season's runs written in
//! four layouts (the current one, a narrower one that sorts the same, one whose keys sort the
//! other way up, read whole, and an oldest one with its fields in the other order, which no
//! condition on the score can be said of: read whole by the widest condition it can express),
//! some copied into the current layout and not yet deleted, read page by page by `VersionsQuery`
//! with several conditions, limits and both directions, and compared with the oracle: every run
//! the condition selects, once, in the current layout's order.

use aws_sdk_dynamodb::types::AttributeValue;
use sortkey_core::dynamodb::{VersionsError, VersionsQuery};
use sortkey_core::query::Comparison;
use sortkey_core::{DynValue, FieldCondition, KeyNames, LiveLayouts, LockFile, TableDefinition};
use sortkey_tests::server::{client, runtime, server_or_skip};

const LOCK: &str = "Rank = RUN#{score:u64 width=12 desc}#{player:text}\n\
                    Rank@v2 = RUN#{score:u64 width=8 desc}#{player:text}\n\
                    Rank@v1 = RUN#{score:u64 width=7}#{player:text}\n\
                    Rank@v0 = BY#{player:text}#{score:u64 width=7}\n\
                    Rank > Rank@v2 > Rank@v1 > Rank@v0\n";

/// A run's value: its score and player.
fn value(score: u64, player: &str) -> DynValue {
    DynValue::Key(vec![("score", DynValue::Unsigned(u128::from(score))), ("player", DynValue::Text(player.to_owned()))])
}

/// Every condition, both ways, at 1, 7, 25 and 200 a page, on the simulation's in-memory
/// DynamoDB (held to moto by its differential test): at one run a page this sweep was about 45 s
/// of moto's time.
#[test]
fn a_read_across_versions_pages_exactly() {
    let client = sortkey_sim::MemoryDynamo::new().client();
    assert_eq!(runtime().block_on(sweep(&client, &[1, 7, 25, 200])), 32);
}

/// The same reads on moto at 25 and 200 a page.
#[test]
fn a_read_across_versions_pages_exactly_on_moto() {
    let Some(server) = server_or_skip("a_read_across_versions_pages_exactly_on_moto") else { return };
    assert_eq!(runtime().block_on(sweep(&client(&server.endpoint), &[25, 200])), 16);
}

/// Writes the season in its four layouts to a new table, reads it by every condition, both ways,
/// at each of `limits` a page, each read compared with the oracle; a page of nothing refused.
/// Returns the reads compared.
async fn sweep(client: &aws_sdk_dynamodb::Client, limits: &[usize]) -> usize {
    let lock = LockFile::parse(LOCK).unwrap();
    let live = LiveLayouts::new(lock.live("Rank"));
    let layout = |n: &str| lock.get(n).unwrap();
    let def = TableDefinition::new("runs_versions", KeyNames::DEFAULT);
    {
        super::create(client, &def).await;
        // 90 runs of 90 players, a quarter in each layout; every tenth also copied into the
        // current layout (a migration's move not yet finished).
        let runs: Vec<(u64, String)> = (0..90u64).map(|i| ((i * 37) % 500 * 1000, format!("p_{i:02}"))).collect();
        for (i, (score, player)) in runs.iter().enumerate() {
            let value = value(*score, player);
            let mut names = vec![["Rank", "Rank@v2", "Rank@v1", "Rank@v0"][i % 4]];
            if i % 10 == 0 && i % 4 != 0 {
                names.push("Rank");
            }
            for name in names {
                let sk = layout(name).encode(&value).unwrap();
                let put = client.put_item().table_name("runs_versions");
                let put = put.item("pk", AttributeValue::S("SEASON#7".into())).item("sk", AttributeValue::S(sk));
                put.send().await.unwrap();
            }
        }
        let conditions = [
            ("none", FieldCondition::new()),
            ("score >= 200000", FieldCondition::new().compare("score", Comparison::Ge, DynValue::Unsigned(200_000))),
            (
                "between",
                FieldCondition::new().between("score", DynValue::Unsigned(120_000), DynValue::Unsigned(340_000)),
            ),
            (
                "score = 111000, player ^= p_0 (a run of the oldest layout)",
                FieldCondition::new().fix("score", DynValue::Unsigned(111_000)).text_begins_with("player", "p_0"),
            ),
        ];
        let mut checked = 0;
        for (name, condition) in &conditions {
            let per_version = live.conditions(condition).unwrap();
            // The oracle: the runs the condition selects, in the current layout's order.
            let mut want: Vec<String> = runs
                .iter()
                .map(|(score, player)| layout("Rank").encode(&value(*score, player)).unwrap())
                .filter(|k| per_version[0].as_ref().is_some_and(|c| c.matches(k)))
                .collect();
            want.sort();
            assert!(!want.is_empty(), "{name}: the condition selects some runs");
            for forward in [true, false] {
                if !forward {
                    want.reverse();
                }
                for &limit in limits {
                    let query = VersionsQuery {
                        table: "runs_versions",
                        partition: "SEASON#7",
                        partition_attribute: "pk",
                        sort_attribute: "sk",
                        forward,
                        limit,
                    };
                    let (mut got, mut cursor, mut pages) = (Vec::new(), None::<String>, 0);
                    loop {
                        let page = query.run(client, &live, &per_version, cursor.as_deref()).await.unwrap();
                        assert!(page.results.results.len() <= limit, "{name}, limit {limit}: a page over its limit");
                        got.extend(page.results.results.iter().map(|r| r.current_key.clone()));
                        pages += 1;
                        match page.next {
                            Some(next) => cursor = Some(next),
                            None => break,
                        }
                    }
                    assert_eq!(got, want, "{name}, forward {forward}, limit {limit}, {pages} pages");
                    checked += 1;
                }
                if !forward {
                    want.reverse();
                }
            }
        }
        // A page of nothing is no page: refused before any request.
        let none = VersionsQuery {
            table: "runs_versions",
            partition: "SEASON#7",
            partition_attribute: "pk",
            sort_attribute: "sk",
            forward: true,
            limit: 0,
        };
        let conditions = live.conditions(&FieldCondition::new()).unwrap();
        let refused = none.run(client, &live, &conditions, None).await.unwrap_err();
        assert_eq!(refused, VersionsError::NoLimit { table: "runs_versions".to_owned() });
        assert_eq!(refused.to_string(), "a page of runs_versions reads at least one result, not 0");
        checked
    }
}

/// An index across its sort key's versions, by `IndexVersionsQuery`: 60 items under one index
/// partition, their index keys in the four layouts, three items on each index key (ties), paged
/// by every condition both ways and compared with the oracle: every item once, in the current
/// layout's order of its index key, then its primary key's (backward both reversed).
#[test]
fn an_index_read_across_versions_pages_every_item_exactly() {
    let client = sortkey_sim::MemoryDynamo::new().client();
    assert_eq!(runtime().block_on(index_sweep(&client, &[1, 4, 100])), 24);
}

/// The same reads on moto at 4 and 100 a page.
#[test]
fn an_index_read_across_versions_pages_every_item_exactly_on_moto() {
    let Some(server) = server_or_skip("an_index_read_across_versions_pages_every_item_exactly_on_moto") else {
        return;
    };
    assert_eq!(runtime().block_on(index_sweep(&client(&server.endpoint), &[4, 100])), 16);
}

async fn index_sweep(client: &aws_sdk_dynamodb::Client, limits: &[usize]) -> usize {
    use sortkey_core::dynamodb::{IndexCursor, IndexVersionsQuery};
    let lock = LockFile::parse(LOCK).unwrap();
    let live = LiveLayouts::new(lock.live("Rank"));
    let layout = |n: &str| lock.get(n).unwrap();
    sortkey_tests::index_table::create_gsi1_table(client, "runs_by_index", Some("sk")).await;
    // 20 runs, each run's index key on three items (three players' copies of it), in the
    // layout of the run's number modulo 4.
    let runs: Vec<(u64, String)> = (0..20u64).map(|i| ((i * 37) % 100 * 1000, format!("p_{i:02}"))).collect();
    let mut items = Vec::new();
    for (i, (score, player)) in runs.iter().enumerate() {
        let name = ["Rank", "Rank@v2", "Rank@v1", "Rank@v0"][i % 4];
        let index_key = layout(name).encode(&value(*score, player)).unwrap();
        let current = layout("Rank").encode(&value(*score, player)).unwrap();
        for copy in 0..3 {
            let pk = format!("ITEM#{copy}#{i:02}");
            let put = client.put_item().table_name("runs_by_index").item("pk", AttributeValue::S(pk.clone()));
            let put = put.item("sk", AttributeValue::S("RUN".into()));
            let put = put.item("gsi1pk", AttributeValue::S("SEASON#7".into()));
            put.item("gsi1sk", AttributeValue::S(index_key.clone())).send().await.unwrap();
            items.push((current.clone(), pk));
        }
    }
    let conditions = [
        ("none", FieldCondition::new().compare("score", Comparison::Ge, DynValue::Unsigned(0))),
        ("score >= 40000", FieldCondition::new().compare("score", Comparison::Ge, DynValue::Unsigned(40_000))),
        ("between", FieldCondition::new().between("score", DynValue::Unsigned(12_000), DynValue::Unsigned(74_000))),
        ("score < 30000", FieldCondition::new().compare("score", Comparison::Lt, DynValue::Unsigned(30_000))),
    ];
    let mut checked = 0;
    for (name, condition) in &conditions {
        let per_version = live.conditions(condition).unwrap();
        let mut want: Vec<(String, String)> =
            items.iter().filter(|(k, _)| per_version[0].as_ref().is_some_and(|c| c.matches(k))).cloned().collect();
        want.sort();
        assert!(!want.is_empty(), "{name}: the condition selects some items");
        for forward in [true, false] {
            let want: Vec<(String, String)> = if forward { want.clone() } else { want.iter().rev().cloned().collect() };
            for &limit in limits {
                let query = IndexVersionsQuery {
                    table: "runs_by_index",
                    index: "gsi1",
                    partition: "SEASON#7",
                    partition_attribute: "gsi1pk",
                    sort_attribute: "gsi1sk",
                    table_keys: ("pk", Some("sk")),
                    forward,
                    limit,
                };
                let (mut got, mut cursor, mut pages) = (Vec::new(), None::<IndexCursor>, 0);
                loop {
                    let page = query.run(client, &live, &per_version, cursor.as_ref()).await.unwrap();
                    assert!(page.results.results.len() <= limit, "{name}, limit {limit}: a page over its limit");
                    let pk = |r: &sortkey_core::LiveKey<_>| {
                        let item: &std::collections::HashMap<String, AttributeValue> = &r.item;
                        item["pk"].as_s().unwrap().clone()
                    };
                    got.extend(page.results.results.iter().map(|r| (r.current_key.clone(), pk(r))));
                    pages += 1;
                    assert!(pages <= 200, "{name}: pages without end");
                    match page.next {
                        Some(next) => cursor = Some(next),
                        None => break,
                    }
                }
                assert_eq!(got, want, "{name}, forward {forward}, limit {limit}, {pages} pages");
                checked += 1;
            }
        }
    }
    checked
}
