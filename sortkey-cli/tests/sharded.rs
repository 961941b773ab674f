//! A sharded table through the command, against moto (feature `moto`): the lock says the season's
//! partition is spread over 8 shards by player; `sortkey browse` and `sortkey query --table`, given
//! the partition without its shard, read it merged (each item with its shard, page after page by
//! the merged cursor); `--shard I` reads one; and the answers equal the runs written, in order.
//! `sortkey audit` counts each logical partition's items per shard exactly, and a partition one
//! player fills is a skew finding.

#![cfg(feature = "moto")]

mod common;

use common::sortkey;
use sortkey_core::dynamodb::{PutMode, put_item};
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

fn json(out: &assert_cmd::assert::Assert) -> serde_json::Value {
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

#[test]
fn browse_and_query_read_a_sharded_partition_as_one() {
    let Some(server) = server_or_skip("browse_and_query_read_a_sharded_partition_as_one") else { return };
    let dir = std::env::temp_dir().join(format!("sortkey-cli-sharded-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let lock = dir.join("layouts.lock");
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

    // The whole season, 15 a page, merged: the pages follow each other by the merged cursor.
    let (mut got, mut after) = (Vec::new(), None::<String>);
    loop {
        let mut args = vec!["browse", "--table", "Runs", "--pk", "SEASON#2026", "--limit", "15", "-o", "json"];
        if let Some(a) = &after {
            args.extend(["--after", a.as_str()]);
        }
        let doc = json(&sortkey(&server.endpoint, &lock, &args).assert().success());
        assert_eq!((doc["format"].as_str(), doc["shards"].as_u64()), (Some("sortkey browse 3"), Some(8)), "{doc}");
        for item in doc["items"].as_array().unwrap() {
            assert_eq!(item["layout"], "RunSk", "{item}");
            got.push((item["sk"].as_str().unwrap().to_owned(), item["shard"].as_u64().unwrap() as u16));
        }
        match doc["next"].as_str() {
            Some(next) => after = Some(next.to_owned()),
            None => break,
        }
    }
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
    assert_eq!(doc["format"], "sortkey audit 4", "{doc}");
    let shards = doc["attributes"][0]["shards"].as_array().unwrap_or_else(|| panic!("{doc}"));
    let counted = |season: u16| {
        let mut items = vec![0u64; 8];
        for run in runs.iter().chain(&hog).filter(|r| r.season == season) {
            items[usize::from(run.primary_key().partition.shard)] += 1;
        }
        items
    };
    let reported = |partition: &str| -> Vec<u64> {
        let b = shards.iter().find(|b| b["partition"] == partition).unwrap_or_else(|| panic!("{partition}: {doc}"));
        assert_eq!(b["layout"], "RunPk", "{b}");
        serde_json::from_value(b["items"].clone()).unwrap()
    };
    assert_eq!(reported("SEASON#2026"), counted(2026));
    assert_eq!(reported("SEASON#2027"), counted(2027));
    assert_eq!(shards[0]["partition"], "SEASON#2027", "the most skewed first: {doc}");
    let out = sortkey(&server.endpoint, &lock, &["audit", "--table", "Runs", "-o", "table"]).assert().code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("sharded partition") && text.contains("8.00") && text.contains("over 1.5"), "{text}");
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
    let dir = std::env::temp_dir().join(format!("sortkey-cli-sharded-move-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let lock = dir.join("layouts.lock");
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
