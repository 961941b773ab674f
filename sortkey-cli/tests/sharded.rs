//! A sharded table through the command, against moto (feature `moto`): the lock says the season's
//! partition is spread over 8 shards by player; `sortkey browse` and `sortkey query --table`, given
//! the partition without its shard, read it merged (each item with its shard, page after page by
//! the merged cursor); `--shard I` reads one; and the answers equal the runs written, in order.
//! `sortkey audit` counts each logical partition's items and bytes per shard exactly, and a
//! partition one player fills is a skew finding.

#![cfg(feature = "moto")]

mod common;

use common::{sortkey, transcript};
use sortkey_core::dynamodb::{EntityItem, PutMode, put_item};
use sortkey_core::{Entity, LockedKeys, SortKey, TableDefinition};
use sortkey_test_server::{client, runtime, server_or_skip};

#[derive(sortkey_core::Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "SEASON", season(width = 4), shard(shards = 8, by = player)),
    sk(prefix = "RUN", score(width = 4, desc), player)
)]
struct Run {
    season: u16,
    score: u32,
    player: String,
}

/// An empty folder of this process for one test's files, and the path of its lock file.
fn fresh_dir(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let lock = dir.join("layouts.lock");
    (dir, lock)
}

fn json(out: &assert_cmd::assert::Assert) -> serde_json::Value {
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

#[test]
fn browse_and_query_read_a_sharded_partition_as_one() {
    let Some(server) = server_or_skip("browse_and_query_read_a_sharded_partition_as_one") else { return };
    let (_, lock) = fresh_dir("sortkey-cli-sharded");
    let table = TableDefinition::of::<Run>("Runs");
    std::fs::write(&lock, LockedKeys::new().table(&table).text()).unwrap();
    let text = std::fs::read_to_string(&lock).unwrap();
    assert!(text.contains("#{shard:u16 width=1 shards=8 by=player}"), "{text}");
    // The layouts say what the shards take together.
    let out = sortkey(&server.endpoint, &lock, &["layouts", "-o", "table"]).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let says =
        "RunPk: 8 shards (shard, by=player): a partition can take 8000 write units and 24000 read units a second";
    assert!(text.contains(says), "{text}");
    let runs: Vec<Run> =
        (0..40u32).map(|i| Run { season: 2026, score: (i * 7) % 100, player: format!("p_{i}") }).collect();
    let client = client(&server.endpoint);
    runtime().block_on(async {
        table.apply_to_create(client.create_table()).unwrap().send().await.unwrap();
        for run in &runs {
            put_item(&client, "Runs", run, PutMode::Create).await.unwrap();
        }
    });
    let mut expected: Vec<(String, u16)> =
        runs.iter().map(|r| (r.primary_key().sort.encode().unwrap(), r.primary_key().partition.shard)).collect();
    expected.sort();

    // The whole season, a page at a time, merged: the pages follow each other by the merged
    // cursor, and a full last page knows it is the last (no `next`, no empty page after it).
    let walk = |limit: &str| {
        let (mut got, mut after, mut pages) = (Vec::new(), None::<String>, 0);
        loop {
            let mut args = vec!["browse", "--table", "Runs", "--pk", "SEASON#2026", "--limit", limit, "-o", "json"];
            if let Some(a) = &after {
                args.extend(["--after", a.as_str()]);
            }
            let doc = json(&sortkey(&server.endpoint, &lock, &args).assert().success());
            assert_eq!((doc["format"].as_str(), doc["shards"].as_u64()), (Some("sortkey browse 4"), Some(8)), "{doc}");
            let items = doc["items"].as_array().unwrap();
            assert!(!items.is_empty(), "page {pages} of {limit} is empty: {doc}");
            for item in items {
                assert_eq!(item["layout"], "RunSk", "{item}");
                got.push((item["sk"].as_str().unwrap().to_owned(), item["shard"].as_u64().unwrap() as u16));
            }
            pages += 1;
            match doc["next"].as_str() {
                Some(next) => after = Some(next.to_owned()),
                None => break,
            }
        }
        (got, pages)
    };
    for (limit, pages) in [("20", 2), ("40", 1)] {
        assert_eq!(walk(limit), (expected.clone(), pages), "pages of {limit}");
    }
    let (got, _) = walk("15");
    assert_eq!(got, expected, "every run once, in sort key order, with its shard");

    // The terminal shows the shard column and says the read is merged.
    let out = sortkey(
        &server.endpoint,
        &lock,
        &["browse", "--table", "Runs", "--pk", "SEASON#2026", "--limit", "5", "-o", "table"],
    )
    .assert()
    .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("shard") && text.contains("sharded partition: merged over 8 shards"), "{text}");
    // The next page is a whole command line, quoted for a shell, after the merged cursor.
    let line = text.lines().find_map(|l| l.strip_prefix("next page: ")).unwrap_or_else(|| panic!("{text}"));
    let argv = shlex::split(line).unwrap();
    assert_eq!(argv[..2], ["sortkey", "browse"], "{line}");
    let cursor = &argv[argv.iter().position(|a| a == "--after").unwrap() + 1];
    assert!(sortkey_core::query::MergeCursor::parse(cursor).is_some(), "{line}");

    // One shard, by --shard or by the partition with its shard.
    let first = &expected.iter().find(|(_, s)| *s == 3).unwrap().0;
    for args in [
        vec!["browse", "--table", "Runs", "--pk", "SEASON#2026", "--shard", "3", "-o", "json"],
        vec!["browse", "--table", "Runs", "--pk", "SEASON#2026#3", "-o", "json"],
    ] {
        let doc = json(&sortkey(&server.endpoint, &lock, &args).assert().success());
        let items = doc["items"].as_array().unwrap();
        assert_eq!(items.len(), expected.iter().filter(|(_, s)| *s == 3).count(), "{doc}");
        assert!(items.iter().all(|i| i["shard"] == 3), "{doc}");
        assert_eq!(items[0]["sk"].as_str(), Some(first.as_str()));
    }
    let out = sortkey(&server.endpoint, &lock, &["browse", "--table", "Runs", "--pk", "SEASON#2026", "--shard", "8"])
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("--shard 8: the partition has 8 shards, 0 to 7"), "{err}");

    // A typed condition on the merged partition: scores 50 and up (desc: the keys up to 9949).
    let args = [
        "query",
        "--layout",
        "RunSk",
        "--table",
        "Runs",
        "--pk",
        "SEASON#2026",
        "--limit",
        "100",
        "score>=50",
        "-o",
        "json",
    ];
    let doc = json(&sortkey(&server.endpoint, &lock, &args).assert().success());
    let selected: Vec<&str> = doc["items"].as_array().unwrap().iter().map(|i| i["sk"].as_str().unwrap()).collect();
    let want: Vec<&str> =
        expected.iter().filter(|(k, _)| RunSk::decode(k).unwrap().score >= 50).map(|(k, _)| k.as_str()).collect();
    assert_eq!(selected, want);
    assert!(doc["command"].as_array().unwrap().iter().any(|a| a == "--table"), "{doc}");

    // The audit: each season's items per shard, exactly; 2027, whose 32 runs are one player's,
    // all in that player's shard, is a skew finding (exit 1).
    let hog: Vec<Run> = (0..32u32).map(|i| Run { season: 2027, score: i, player: "p_hog".into() }).collect();
    runtime().block_on(async {
        for run in &hog {
            put_item(&client, "Runs", run, PutMode::Create).await.unwrap();
        }
    });
    let out = sortkey(&server.endpoint, &lock, &["audit", "--table", "Runs", "-o", "json"]).assert().code(1);
    let doc = json(&out);
    assert_eq!(doc["format"], "sortkey audit 5", "{doc}");
    let shards = doc["attributes"][0]["shards"].as_array().unwrap_or_else(|| panic!("{doc}"));
    // Items and bytes (each item's size as DynamoDB counts it) per shard.
    let counted = |season: u16| {
        let (mut items, mut bytes) = (vec![0u64; 8], vec![0u64; 8]);
        for run in runs.iter().chain(&hog).filter(|r| r.season == season) {
            let shard = usize::from(run.primary_key().partition.shard);
            items[shard] += 1;
            bytes[shard] += sortkey_core::dynamodb::item_size(&run.to_item().unwrap()) as u64;
        }
        (items, bytes)
    };
    let reported = |partition: &str| -> (Vec<u64>, Vec<u64>) {
        let b = shards.iter().find(|b| b["partition"] == partition).unwrap_or_else(|| panic!("{partition}: {doc}"));
        assert_eq!(b["layout"], "RunPk", "{b}");
        (serde_json::from_value(b["items"].clone()).unwrap(), serde_json::from_value(b["bytes"].clone()).unwrap())
    };
    assert_eq!(reported("SEASON#2026"), counted(2026));
    assert_eq!(reported("SEASON#2027"), counted(2027));
    assert_eq!(shards[0]["partition"], "SEASON#2027", "the most skewed first: {doc}");
    let out = sortkey(&server.endpoint, &lock, &["audit", "--table", "Runs", "-o", "table"]).assert().code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("sharded partition") && text.contains("8.00") && text.contains("over 1.5"), "{text}");
    assert!(text.contains("largest (bytes)"), "{text}");
}

/// A shard-count move, mid-way: the lock says the season's partition key now has 16 shards and
/// had 4 (`RunPk > RunPk@v1`; two digits against one, so their partitions differ, as the lock
/// requires); some runs are still in their old shard, some moved, some in both (copied, not yet
/// deleted). `sortkey browse`, given the partition without its shard, reads the 16 new shards and
/// the 4 old ones merged: each run once, the new copy when there are two. A lock whose two counts
/// write the same digits (8 and 4) is refused.
#[test]
fn browse_reads_a_shard_count_move_each_item_once() {
    use sortkey_core::{ShardRule, Shards};
    let Some(server) = server_or_skip("browse_reads_a_shard_count_move_each_item_once") else { return };
    let (_, lock) = fresh_dir("sortkey-cli-sharded-move");
    let text = |new: u16, width: u16| {
        format!(
            "RunPk = partition SEASON#{{season:u16 width=4}}#{{shard:u16 width={width} shards={new} by=player}}\n\
             RunPk@v1 = partition SEASON#{{season:u16 width=4}}#{{shard:u16 width=1 shards=4 by=player}}\n\
             RunSk = RUN#{{score:u32 width=4 desc}}#{{player:text}}\n\
             RunPk > RunPk@v1\n"
        )
    };
    let e = sortkey_core::LockFile::parse(&text(8, 1)).unwrap_err().to_string();
    assert!(e.contains("a shard count whose partitions differ from `RunPk`'s"), "{e}");
    std::fs::write(&lock, text(16, 2)).unwrap();
    let (new, old) = (Shards::new(16, ShardRule::By("player")), Shards::new(4, ShardRule::By("player")));
    let client = client(&server.endpoint);
    // (sort key, the new shard's copy, the old shard's copy)
    let mut runs: Vec<(String, Option<u16>, Option<u16>)> = Vec::new();
    runtime().block_on(async {
        sortkey_test_server::create_table(&client, "Moving").await;
        for i in 0..30u32 {
            let player = format!("p_{i}");
            let sk = format!("RUN#{:04}#{player}", 9999 - (i * 13) % 100);
            let (n, o) = (new.of(player.as_bytes()), old.of(player.as_bytes()));
            let (in_new, in_old) = match i % 3 {
                0 => (Some(n), None),
                1 => (None, Some(o)),
                _ => (Some(n), Some(o)),
            };
            let partitions =
                [in_new.map(|s| format!("SEASON#2026#{s:02}")), in_old.map(|s| format!("SEASON#2026#{s}"))];
            for pk in partitions.into_iter().flatten() {
                let put = client.put_item().table_name("Moving");
                let put = put.item("pk", aws_sdk_dynamodb::types::AttributeValue::S(pk));
                put.item("sk", aws_sdk_dynamodb::types::AttributeValue::S(sk.clone())).send().await.unwrap();
            }
            runs.push((sk, in_new, in_old));
        }
    });
    runs.sort();
    let expected: Vec<(String, u16)> = runs.iter().map(|(sk, n, o)| (sk.clone(), n.or(*o).unwrap())).collect();
    for limit in ["7", "100"] {
        let (mut got, mut after) = (Vec::new(), None::<String>);
        loop {
            let mut args = vec!["browse", "--table", "Moving", "--pk", "SEASON#2026", "--limit", limit, "-o", "json"];
            if let Some(a) = &after {
                args.extend(["--after", a.as_str()]);
            }
            let doc = json(&sortkey(&server.endpoint, &lock, &args).assert().success());
            for item in doc["items"].as_array().unwrap() {
                got.push((item["sk"].as_str().unwrap().to_owned(), item["shard"].as_u64().unwrap() as u16));
            }
            match doc["next"].as_str() {
                Some(next) => after = Some(next.to_owned()),
                None => break,
            }
        }
        assert_eq!(got, expected, "each run once, limit {limit}, the new shard's copy when there are two");
    }
}

/// The shard-count move itself: a season written to 4 shards moves to 16 with `sortkey migrate
/// --to RunPk` (the lock's `RunPk > RunPk@v1`), each run's new shard calculated from the player in
/// its sort key, while a writer updates runs wherever they are (and adds runs to the new shards)
/// and a reader reads the season merged over both counts again and again. The migration is
/// killed once midway and resumed. No read ever returns a run twice; at the end every run is in
/// its new shard once, with every update the writer made, and the old shards are empty.
#[test]
fn migrate_moves_a_season_to_another_shard_count_with_a_writer_and_a_reader_running() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    use aws_sdk_dynamodb::types::AttributeValue;
    use sortkey_core::dynamodb::ShardedQuery;
    use sortkey_core::{KeyExpression, ShardRule, Shards};

    let test = "migrate_moves_a_season_to_another_shard_count_with_a_writer_and_a_reader_running";
    let Some(server) = sortkey_test_server::serialized_server_or_skip(test) else { return };
    const RUNS: u32 = 120;
    const ADDED: u32 = 20;
    let (dir, lock) = fresh_dir("sortkey-cli-sharded-migrate");
    std::fs::write(
        &lock,
        "RunPk = partition SEASON#{season:u16 width=4}#{shard:u16 width=2 shards=16 by=player}\n\
         RunPk@v1 = partition SEASON#{season:u16 width=4}#{shard:u16 width=1 shards=4 by=player}\n\
         RunSk = RUN#{score:u32 width=4 desc}#{player:text}\n\
         RunPk > RunPk@v1\n",
    )
    .unwrap();
    let (new, old) = (Shards::new(16, ShardRule::By("player")), Shards::new(4, ShardRule::By("player")));
    let sk = move |i: u32| format!("RUN#{:04}#p_{i}", 9999 - (i * 37) % 1000);
    let new_pk = move |i: u32| format!("SEASON#2026#{:02}", new.of(format!("p_{i}").as_bytes()));
    let old_pk = move |i: u32| format!("SEASON#2026#{}", old.of(format!("p_{i}").as_bytes()));
    let client = client(&server.endpoint);
    runtime().block_on(async {
        sortkey_test_server::create_table(&client, "Season").await;
        for i in 0..RUNS {
            let put = client.put_item().table_name("Season").item("pk", AttributeValue::S(old_pk(i)));
            let put = put.item("sk", AttributeValue::S(sk(i))).item("version", AttributeValue::N("1".into()));
            put.item("hits", AttributeValue::N("0".into())).send().await.unwrap();
        }
    });
    let migrate = |more: &[&str]| {
        let mut cmd = sortkey(&server.endpoint, &lock, &["migrate", "--table", "Season", "--to", "RunPk"]);
        let checkpoint = dir.join("checkpoint").display().to_string();
        cmd.args(["--checkpoint", &checkpoint, "--segments", "2", "-o", "json"]).args(more);
        cmd
    };
    let dry = json(&migrate(&["--dry-run"]).assert().code(1));
    // As a user sees it (one segment: the samples in a fixed order); the book shows it.
    let shown = ["migrate", "--table", "Season", "--to", "RunPk", "--dry-run", "--segments", "1", "-o", "table"];
    transcript("migrate_shards_dry_run.txt", (&server.endpoint, &lock), &shown, 1, &[]);
    assert_eq!(
        (dry["verdict"]["in_old"].as_u64(), dry["verdict"]["in_new"].as_u64()),
        (Some(u64::from(RUNS)), Some(0))
    );
    // Each sample names its run by its sort key: its old shard and its new one are the run's.
    let samples = dry["verdict"]["left_samples"].as_array().unwrap();
    assert_eq!(samples.len(), 5, "{dry}");
    for sample in samples {
        let i: u32 = (0..RUNS).find(|&i| sk(i) == sample["sort"].as_str().unwrap()).unwrap();
        assert_eq!(
            (old_pk(i).as_str(), new_pk(i).as_str()),
            (sample["from"].as_str().unwrap(), sample["to"].as_str().unwrap())
        );
    }

    let stop = Arc::new(AtomicBool::new(false));
    // The writer: an update of a run under whichever partition holds it now (the new shard
    // first), counted when it lands; every tenth step a new run, written to its new shard.
    let writer = {
        let (endpoint, stop) = (server.endpoint.clone(), stop.clone());
        std::thread::spawn(move || {
            let client = sortkey_test_server::client(&endpoint);
            let mut counts = vec![0u64; (RUNS + ADDED) as usize];
            let mut added = 0;
            runtime().block_on(async {
                let mut n = 0u32;
                while !stop.load(Ordering::Relaxed) {
                    if n % 10 == 9 && added < ADDED {
                        let i = RUNS + added;
                        let put = client.put_item().table_name("Season").item("pk", AttributeValue::S(new_pk(i)));
                        let put =
                            put.item("sk", AttributeValue::S(sk(i))).item("version", AttributeValue::N("1".into()));
                        put.item("hits", AttributeValue::N("0".into())).send().await.unwrap();
                        added += 1;
                    }
                    let i = (n * 7) % (RUNS + added);
                    n += 1;
                    if common::increment(&client, "Season", [(new_pk(i), sk(i)), (old_pk(i), sk(i))]).await {
                        counts[i as usize] += 1;
                    }
                }
            });
            (counts, added)
        })
    };
    // The reader: the season merged over the 16 new shards and the 4 old ones, 50 a page.
    let reader = {
        let (endpoint, stop) = (server.endpoint.clone(), stop.clone());
        std::thread::spawn(move || {
            let client = sortkey_test_server::client(&endpoint);
            let partitions: Vec<String> = (0..16u16)
                .map(|s| format!("SEASON#2026#{s:02}"))
                .chain((0..4u16).map(|s| format!("SEASON#2026#{s}")))
                .collect();
            let query = ShardedQuery {
                table: "Season",
                partitions: &partitions,
                partition_attribute: "pk",
                sort_attribute: "sk",
                forward: true,
                limit: 50,
                ties: false,
                copies: true,
            };
            let mut reads = 0;
            runtime().block_on(async {
                while !stop.load(Ordering::Relaxed) {
                    let (mut keys, mut after) = (Vec::new(), None);
                    loop {
                        let page =
                            query.run(&client, |pk| KeyExpression::partition("pk", pk), after.as_ref()).await.unwrap();
                        keys.extend(page.items.iter().map(|(_, item)| item["sk"].as_s().unwrap().clone()));
                        match page.next {
                            Some(next) => after = Some(next),
                            None => break,
                        }
                    }
                    let mut unique = keys.clone();
                    unique.dedup();
                    assert_eq!(unique.len(), keys.len(), "a merged read returned a run twice: {keys:?}");
                    assert!(keys.windows(2).all(|w| w[0] < w[1]), "a merged read out of order");
                    reads += 1;
                }
            });
            reads
        })
    };

    // Killed once midway (slowed to 20 items a second), then resumed to the end.
    let killed = migrate(&["--version-attribute", "version", "--rate", "20"]).timeout(Duration::from_secs(3)).output();
    assert!(!killed.unwrap().status.success(), "the migration ended before it was killed");
    let done = migrate(&["--version-attribute", "version", "--rate", "100"]).output().unwrap();
    stop.store(true, Ordering::Relaxed);
    let (counts, added) = writer.join().unwrap();
    let reads = reader.join().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&done.stdout).unwrap_or_else(|_| {
        panic!("{}", String::from_utf8_lossy(&done.stderr));
    });
    assert_eq!(done.status.code(), Some(0), "{doc}");
    let total = u64::from(RUNS + added);
    // The verdict read the table as the migration ended; the writer may have added runs since.
    let in_new = doc["verdict"]["in_new"].as_u64().unwrap_or_default();
    assert_eq!(doc["verdict"]["complete"].as_bool(), Some(true), "{doc}");
    assert!((u64::from(RUNS)..=total).contains(&in_new), "{in_new} runs in the new layout, of {total}: {doc}");
    assert!(counts.iter().sum::<u64>() > 0 && reads > 0, "the writer wrote and the reader read");

    // Every run once, in its new shard, with every update the writer counted.
    let items = runtime().block_on(async { client.scan().table_name("Season").send().await.unwrap().items().to_vec() });
    assert_eq!(items.len() as u64, total, "no run lost, none left twice");
    for item in items {
        let key = item["sk"].as_s().unwrap();
        let i: u32 = key.rsplit_once("#p_").unwrap().1.parse().unwrap();
        assert_eq!(item["pk"].as_s().unwrap(), &new_pk(i), "run {i} is in its new shard");
        let hits: u64 = item["hits"].as_n().unwrap().parse().unwrap();
        assert_eq!(
            hits, counts[i as usize],
            "run {i}: the writer made {} updates, the run has {hits}",
            counts[i as usize]
        );
    }
    // Reads after the move: the season merged over the new count alone is every run, in order.
    let mut out = sortkey(
        &server.endpoint,
        &lock,
        &["browse", "--table", "Season", "--pk", "SEASON#2026", "--limit", "1000", "-o", "json"],
    );
    let browsed = json(&out.assert().success());
    let mut want: Vec<String> = (0..RUNS + added).map(sk).collect();
    want.sort();
    let got: Vec<&str> = browsed["items"].as_array().unwrap().iter().map(|i| i["sk"].as_str().unwrap()).collect();
    assert_eq!(got, want);
}

/// Items written under a shard other than the one their sort key gives (by hand, or by a writer
/// that computed the shard otherwise) are where no point read looks: `sortkey audit` names them
/// (how many, a sample with the partition key it belongs under) and prints the move, which runs
/// as printed and puts each under its own shard; then the audit is clean and a point read finds
/// every item.
#[test]
fn audit_finds_items_in_the_wrong_shard_and_the_printed_move_places_them() {
    let test = "audit_finds_items_in_the_wrong_shard_and_the_printed_move_places_them";
    let Some(server) = server_or_skip(test) else { return };
    let (dir, lock) = fresh_dir("sortkey-cli-misplaced");
    let table = TableDefinition::of::<Run>("Placed");
    std::fs::write(&lock, LockedKeys::new().table(&table).text()).unwrap();
    let runs: Vec<Run> = (0..30u32).map(|i| Run { season: 2026, score: i * 3, player: format!("p_{i}") }).collect();
    let client = client(&server.endpoint);
    let (pk_attr, sk_attr) = ("pk", "sk");
    runtime().block_on(async {
        table.apply_to_create(client.create_table()).unwrap().send().await.unwrap();
        for run in &runs[..26] {
            put_item(&client, "Placed", run, PutMode::Create).await.unwrap();
        }
        // Four written by hand one shard over from their own.
        for run in &runs[26..] {
            let key = run.primary_key();
            let wrong = format!("SEASON#2026#{}", (key.partition.shard + 1) % 8);
            let mut item = run.to_item().unwrap();
            item.insert(pk_attr.into(), aws_sdk_dynamodb::types::AttributeValue::S(wrong));
            assert!(item.contains_key(sk_attr));
            client.put_item().table_name("Placed").set_item(Some(item)).send().await.unwrap();
        }
    });
    let audit = |code: i32| {
        json(&sortkey(&server.endpoint, &lock, &["audit", "--table", "Placed", "-o", "json"]).assert().code(code))
    };
    let doc = audit(1);
    let pk = doc["attributes"].as_array().unwrap().iter().find(|a| a["name"] == pk_attr).unwrap().clone();
    let misplaced = &pk["misplaced"][0];
    assert_eq!((misplaced["layout"].as_str(), misplaced["items"].as_u64()), (Some("RunPk"), Some(4)), "{doc}");
    let sample = &misplaced["samples"][0];
    let expected_home = |sort: &str| {
        let run = runs.iter().find(|r| r.primary_key().sort.encode().unwrap() == sort).unwrap();
        run.primary_key().partition.encode().unwrap()
    };
    assert_eq!(sample["expected"].as_str().unwrap(), expected_home(sample["sort"].as_str().unwrap()), "{doc}");
    let lock_path = lock.display().to_string();
    let moves = ["sortkey", "migrate", "--lock", &lock_path, "--endpoint-url", &server.endpoint, "--table", "Placed"];
    let moves = [&moves[..], &["--to", "RunPk", "--compare-attributes"]].concat();
    assert_eq!(pk["moves"], serde_json::json!([moves]), "{doc}");
    // The printed move, run as printed.
    let mut run = assert_cmd::Command::new(assert_cmd::cargo::cargo_bin("sortkey"));
    let out = run.args(&moves[1..]).args(["-o", "json"]).current_dir(&dir).env_remove("AWS_PROFILE").output().unwrap();
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(verdict["verdict"]["complete"], true, "{verdict} {}", String::from_utf8_lossy(&out.stderr));
    assert!(audit(0)["attributes"].as_array().unwrap().iter().all(|a| a.get("misplaced").is_none()));
    runtime().block_on(async {
        for run in &runs {
            let got: Option<Run> =
                sortkey_core::dynamodb::get_item(&client, "Placed", &run.primary_key()).await.unwrap();
            assert_eq!(got.as_ref(), Some(run), "a point read of {}", run.player);
        }
    });
}
