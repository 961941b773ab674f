//! The subcommands that read a table, against a moto server the test starts (feature `moto`):
//! `audit` on a table with keys of the current layout, keys of an older width and keys no
//! layout reads; `browse` and `query --table` on a partition of a key family.

#![cfg(feature = "moto")]

mod common;

use std::path::PathBuf;
use std::time::Duration;

use assert_cmd::Command;
use aws_sdk_dynamodb::types::AttributeValue;
use common::{snapshot, sortkey, table, transcript};
use sortkey_test_server::{client, runtime, server_or_skip};

const LOCK: &str = "CustomerPk = partition CUST#{customer_id:u32 width=6}\n\
                    RankKey = RUN#{score:u64 width=12 desc}#{player:text}\n";

const FAMILY_LOCK: &str = "CustomerItem = family(PROFILE | ORDER#{placed:timestamp width=13 desc unit=ms}#{order_id:text} \
                           | ADDR#{n:u16 width=3})\n";

/// A lock file in a directory of the test's own.
fn lock_file(test: &str) -> PathBuf {
    lock_file_of(test, LOCK)
}

fn lock_file_of(test: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sortkey-cli-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("layouts.lock");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn audit_reports_layouts_mixed_widths_and_unread_keys() {
    let Some(server) = server_or_skip("audit_reports_layouts_mixed_widths_and_unread_keys") else { return };
    let mut keys: Vec<(String, String)> = (0..30)
        .map(|i| (format!("CUST#{:06}", i % 3), format!("RUN#{:012}#p_{i}", 999_999_999_999u64 - i * 1000)))
        .collect();
    keys.extend((0..5).map(|i| ("CUST#000001".to_owned(), format!("RUN#{:010}#old_{i}", 9_999_999_999u64 - i))));
    keys.push(("CUST#000001".into(), "garbage".into()));
    keys.push(("CUST#1".into(), "RUN#999999999999#short_pk".into()));
    runtime().block_on(table(&client(&server.endpoint), "Runs", &keys));
    let lock = lock_file("mixed");

    let out = sortkey(&server.endpoint, &lock, &["audit", "--table", "Runs", "-o", "json"]).assert().code(1);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["findings"], true);
    let [pk, sk] = [&doc["attributes"][0], &doc["attributes"][1]];
    assert_eq!((pk["name"].as_str(), pk["values"].as_u64()), (Some("pk"), Some(37)));
    assert_eq!(pk["layouts"][0]["keys"], 36);
    assert_eq!(pk["mixed_widths"][0]["seen"], 1, "CUST#1 is CustomerPk with a 1-digit id");
    assert_eq!((sk["layouts"][0]["name"].as_str(), sk["layouts"][0]["keys"].as_u64()), (Some("RankKey"), Some(31)));
    let mixed = &sk["mixed_widths"][0];
    assert_eq!(
        (mixed["field"].as_str(), mixed["width"].as_u64(), mixed["seen"].as_u64()),
        (Some("score"), Some(12), Some(10))
    );
    assert_eq!(mixed["keys"], 5);
    assert_eq!((sk["unread"][0]["kind"].as_str(), sk["unread"][0]["keys"].as_u64()), (Some("WrongPrefix"), Some(1)));
    assert_eq!(sk["unread"][0]["samples"][0]["key"], "garbage");
    let score = &sk["layouts"][0]["fields"][0];
    assert_eq!((score["largest"].as_u64(), score["headroom"]["digits_left"].as_u64()), (Some(29_000), Some(7)));

    // Rate-limited (small pages, pauses): the same report.
    let args = ["audit", "--table", "Runs", "-o", "json", "--rate", "40", "--segments", "2"];
    let limited = sortkey(&server.endpoint, &lock, &args).assert().code(1);
    let limited: serde_json::Value = serde_json::from_slice(&limited.get_output().stdout).unwrap();
    assert_eq!(asked(&limited), asked(&doc), "the same keys read in other pages and another order: the same report");
    let argv = limited["command"].as_array().unwrap();
    assert!(argv.windows(2).any(|w| w == ["--rate", "40"]) && argv.windows(2).any(|w| w == ["--segments", "2"]));

    // The table, as a user sees it (one segment: the samples in a fixed order).
    let run = (server.endpoint.as_str(), lock.as_path());
    transcript("audit_table.txt", run, &["audit", "--table", "Runs", "--segments", "1", "-o", "table"], 1, &[]);
    let out = sortkey(&server.endpoint, &lock, &["audit", "--table", "Runs", "--segments", "1", "-o", "json"])
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    snapshot("audit.json", &text.replace(&lock.display().to_string(), "LOCK").replace(&server.endpoint, "ENDPOINT"));
}

#[test]
fn a_clean_table_exits_0_and_a_missing_one_is_one_line_and_exit_2() {
    let Some(server) = server_or_skip("a_clean_table_exits_0_and_a_missing_one_is_one_line_and_exit_2") else { return };
    let keys = [("CUST#000042".to_owned(), "RUN#999999998499#p_8842".to_owned())];
    runtime().block_on(table(&client(&server.endpoint), "Clean", &keys));
    let lock = lock_file("clean");
    sortkey(&server.endpoint, &lock, &["audit", "--table", "Clean", "-o", "json"]).assert().code(0);
    let out = sortkey(&server.endpoint, &lock, &["audit", "--table", "Nope"]).assert().code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.starts_with("sortkey: cannot describe table Nope: ") && stderr.lines().count() == 1, "{stderr}");
}

const VERSIONED_LOCK: &str = "RankKey = RUN#{score:u64 width=10 desc}#{player:text}\n\
                              RankKeyV1 = RUN#{score:u64 width=8 desc}#{player:text}\n\
                              RankKey > RankKeyV1\n";

/// A service's one lock, with the tables each layout belongs to (as `LockedKeys::table` writes
/// them): the runs table's attributes hold `CustomerPk` and `RankKey`, the orders table's its
/// own keys, one of which reads some of the runs' keys too.
const SERVICE_LOCK: &str = "CustomerPk = partition CUST#{customer_id:u32 width=6}\n\
                            RankKey = RUN#{score:u64 width=12 desc}#{player:text}\n\
                            OrderPk = partition CUST#{customer_id:text}\n\
                            OrderSk = RUN#{order:text}\n\
                            table Runs pk: CustomerPk\n\
                            table Runs sk: RankKey\n\
                            table Orders pk: OrderPk\n\
                            table Orders sk: OrderSk\n";

/// The audit and browse of one table with a service's whole lock read it through that table's
/// layouts only: no other table's key reported against it, no key read by another table's layout;
/// a table the lock says nothing of is read by every layout of a role, as with a plain lock.
#[test]
fn a_lock_that_knows_its_tables_reads_each_table_through_its_own_layouts() {
    let Some(server) = server_or_skip("a_lock_that_knows_its_tables_reads_each_table_through_its_own_layouts") else {
        return;
    };
    let keys: Vec<(String, String)> =
        (0..12u64).map(|i| (format!("CUST#{:06}", i % 2), format!("RUN#{:012}#p_{i}", 999_999_999_999 - i))).collect();
    runtime().block_on(table(&client(&server.endpoint), "Runs", &keys));
    runtime().block_on(table(&client(&server.endpoint), "Other", &keys));
    let lock = lock_file_of("service", SERVICE_LOCK);
    let out = sortkey(&server.endpoint, &lock, &["audit", "--table", "Runs", "-o", "json"]).assert().code(0);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let layouts = |attribute: &serde_json::Value| -> Vec<String> {
        attribute["layouts"].as_array().unwrap().iter().map(|l| l["name"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(layouts(&doc["attributes"][0]), ["CustomerPk"], "{doc}");
    assert_eq!(layouts(&doc["attributes"][1]), ["RankKey"], "{doc}");
    assert_eq!(doc["findings"], false, "{doc}");
    // Browse reads each key by the table's own layout, never by the orders' `RUN#{order:text}`.
    let args = ["browse", "--table", "Runs", "--pk", "CUST#000000", "-o", "json"];
    let doc: serde_json::Value =
        serde_json::from_slice(&sortkey(&server.endpoint, &lock, &args).assert().code(0).get_output().stdout).unwrap();
    let read: Vec<&str> = doc["items"].as_array().unwrap().iter().map(|i| i["layout"].as_str().unwrap()).collect();
    assert!(!read.is_empty() && read.iter().all(|l| *l == "RankKey"), "{doc}");
    // A table the lock names no layout of: every layout of a role, as a plain lock does.
    let out = sortkey(&server.endpoint, &lock, &["audit", "--table", "Other", "-o", "json"]).assert();
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(layouts(&doc["attributes"][1]), ["RankKey", "OrderSk"], "{doc}");
}

/// A partition holding two widths of one key (the trap): `query --table` runs the condition on
/// both versions and returns exactly the keys it selects, in the current layout's order, each
/// once; a key in a query's byte range that is outside the condition, or in no version, is
/// counted beside and never a result; `--limit` counts results.
#[test]
fn a_query_across_versions_returns_exactly_the_keys_the_condition_selects() {
    let test = "a_query_across_versions_returns_exactly_the_keys_the_condition_selects";
    let Some(server) = server_or_skip(test) else { return };
    let pk = "SEASON#2025";
    runtime().block_on(table(&client(&server.endpoint), "Versions", &versioned_keys(pk)));
    let lock = lock_file_of("versions", VERSIONED_LOCK);
    let args = ["query", "--table", "Versions", "--layout", "RankKey", "--pk", pk, "score>=5000000", "-o", "json"];
    let out = sortkey(&server.endpoint, &lock, &args).assert().code(0);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let items = doc["items"].as_array().unwrap();
    let scores: Vec<u64> = items.iter().map(|i| i["fields"]["score"].as_u64().unwrap()).collect();
    let mut expected: Vec<u64> = (13..30u64).map(|i| i * 400_000).chain((1..20u64).map(|i| i * 5_000_000)).collect();
    expected.sort_by(|a, b| b.cmp(a));
    assert_eq!(scores, expected, "every key the condition selects, highest first, each once: {doc}");
    assert!(items.iter().all(|i| i["fields"]["score"].as_u64().unwrap() >= 5_000_000));
    let versions: Vec<(&str, u64)> = doc["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["layout"].as_str().unwrap(), v["items"].as_u64().unwrap()))
        .collect();
    assert_eq!(versions, [("RankKey", 17), ("RankKeyV1", 19)]);
    let outside: Vec<&str> =
        doc["outside"]["samples"].as_array().unwrap().iter().map(|o| o["key"].as_str().unwrap()).collect();
    assert_eq!(outside, ["RUN#0garbage", "RUN#98999999#old_low"], "{doc}");
    assert_eq!(doc["outside"]["keys"], 2);

    // --limit counts results: the five highest are old keys.
    let limited = sortkey(&server.endpoint, &lock, &args).args(["--limit", "5"]).assert().code(0);
    let doc: serde_json::Value = serde_json::from_slice(&limited.get_output().stdout).unwrap();
    let scores: Vec<u64> =
        doc["items"].as_array().unwrap().iter().map(|i| i["fields"]["score"].as_u64().unwrap()).collect();
    assert_eq!(scores, &expected[..5]);
    // Page by page, by each page's `next` (the last result's key in the current layout): the
    // pages end to end are every result once, in order, each version's Query started after the
    // cursor as its own layout writes it. An older version's key as `--after` is read as its
    // value's current key.
    let page = |after: Option<&str>| {
        let mut cmd = sortkey(&server.endpoint, &lock, &args);
        cmd.args(["--limit", "4"]);
        if let Some(after) = after {
            cmd.args(["--after", after]);
        }
        let out = cmd.assert().code(0);
        let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        let scores: Vec<u64> =
            doc["items"].as_array().unwrap().iter().map(|i| i["fields"]["score"].as_u64().unwrap()).collect();
        (scores, doc["next"].as_str().map(str::to_owned))
    };
    let (mut paged, mut after, mut pages) = (Vec::new(), None, 0);
    loop {
        let (scores, next) = page(after.as_deref());
        assert!(scores.len() <= 4);
        paged.extend(scores);
        pages += 1;
        match next {
            Some(next) => after = Some(next),
            None => break,
        }
    }
    assert_eq!(paged, expected, "{pages} pages");
    assert!(pages >= 9, "{pages} pages of 4");
    let (after_old, _) = page(Some("RUN#04999999#old_19"));
    assert_eq!(after_old, &expected[1..5], "after the old key of 95000000");
    let shown = [&args[..args.len() - 2], &["--limit", "4", "-o", "table"]].concat();
    transcript("query_versions.txt", (&server.endpoint, &lock), &shown, 0, &[]);
    let out = sortkey(&server.endpoint, &lock, &args).args(["--limit", "2"]).assert().code(0);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    snapshot(
        "query_versions.json",
        &text.replace(&lock.display().to_string(), "LOCK").replace(&server.endpoint, "ENDPOINT"),
    );

    // browse --layout: every key of both versions, one Query each, in the current order.
    let browse = ["browse", "--table", "Versions", "--pk", pk, "--layout", "RankKey", "-o", "json"];
    let out = sortkey(&server.endpoint, &lock, &browse).assert().code(0);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let scores: Vec<u64> =
        doc["items"].as_array().unwrap().iter().map(|i| i["fields"]["score"].as_u64().unwrap()).collect();
    let mut all: Vec<u64> = (0..30u64).map(|i| i * 400_000).chain((0..20u64).map(|i| i * 5_000_000)).collect();
    all.push(1_000_000);
    all.sort_by(|a, b| b.cmp(a));
    assert_eq!(scores, all, "{doc}");
    assert_eq!(doc["outside"]["keys"], 1, "the key of no version");

    // The audit names the old keys: how many, in how many partitions (this one holds both
    // versions: the trap), and the command that moves them.
    let out = sortkey(&server.endpoint, &lock, &["audit", "--table", "Versions", "-o", "json"]).assert().code(1);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let sk = &doc["attributes"][0];
    assert_eq!(sk["name"], "sk", "{doc}");
    let old = &sk["old_keys"][0];
    assert_eq!((old["layout"].as_str(), old["current"].as_str()), (Some("RankKeyV1"), Some("RankKey")), "{doc}");
    assert_eq!((old["keys"].as_u64(), old["partitions"].as_u64()), (Some(21), Some(1)));
    assert_eq!(old["partitions_with_current"], 1);
    let (lock_path, endpoint) = (lock.display().to_string(), server.endpoint.as_str());
    let moves = ["sortkey", "migrate", "--lock", &lock_path, "--endpoint-url", endpoint, "--table", "Versions"];
    let moves = [&moves[..], &["--to", "RankKey", "--compare-attributes"]].concat();
    assert_eq!(sk["moves"], serde_json::json!([moves]), "{doc}");
    // Audited in two parts and merged by a command line that names no server: the merged moves
    // name the server the parts were read from, as the whole audit's do.
    let part = |i: u32| lock.parent().unwrap().join(format!("versions-part-{i}.json")).display().to_string();
    for i in 0..2 {
        let args = ["audit", "--table", "Versions", "--total", "2", "--segment", &i.to_string(), "--report", &part(i)];
        let out = sortkey(&server.endpoint, &lock, &args).args(["-o", "json"]).output().unwrap();
        assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    }
    let mut merge = assert_cmd::Command::new(assert_cmd::cargo::cargo_bin("sortkey"));
    merge.args(["--lock", &lock_path, "audit", "merge", &part(0), &part(1), "-o", "json"]).env_remove("AWS_PROFILE");
    let merged: serde_json::Value = serde_json::from_slice(&merge.assert().code(1).get_output().stdout).unwrap();
    assert_eq!(merged["attributes"][0]["moves"], serde_json::json!([moves]), "{merged}");
    let shown = ["audit", "--table", "Versions", "--segments", "1", "-o", "table"];
    transcript("audit_versions.txt", (endpoint, &lock), &shown, 1, &[]);

    // The printed move runs as printed (in a folder of its own for its checkpoints), and then no
    // old key is left.
    let dir = lock.parent().unwrap().join("printed-move");
    std::fs::create_dir_all(&dir).unwrap();
    let mut run = assert_cmd::Command::new(assert_cmd::cargo::cargo_bin("sortkey"));
    let out = run.args(&moves[1..]).args(["-o", "json"]).current_dir(&dir).env_remove("AWS_PROFILE").output();
    let out = out.unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(doc["verdict"]["in_old"], 0, "{doc} {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(doc["verdict"]["in_new"], 51, "{doc}");
}

/// A partition holding two versions of `RankKey`: 30 current keys (scores 0 to 11,600,000 by
/// 400,000), 20 keys of `RankKeyV1` (0 to 95,000,000 by 5,000,000), an old key of 1,000,000
/// and a key of no version.
fn versioned_keys(pk: &str) -> Vec<(String, String)> {
    let mut keys: Vec<(String, String)> =
        (0..30u64).map(|i| (pk.to_owned(), format!("RUN#{:010}#new_{i}", 9_999_999_999 - i * 400_000))).collect();
    keys.extend((0..20u64).map(|i| (pk.to_owned(), format!("RUN#{:08}#old_{i}", 99_999_999 - i * 5_000_000))));
    // In the current layout's byte range, but an old key below the bound; and a key of no version.
    keys.push((pk.to_owned(), format!("RUN#{:08}#old_low", 99_999_999 - 1_000_000)));
    keys.push((pk.to_owned(), "RUN#0garbage".to_owned()));
    keys
}

/// The web view pages across a layout's versions as the command does: the browse page of one
/// layout and the query page on a table each link their next page (the layout, the condition and
/// the limit kept, `after` the document's `next`), and the pages end to end are the command's
/// whole answer, each result once, in order.
#[test]
fn the_pages_page_across_versions_by_their_next_links() {
    let Some(server) = server_or_skip("the_pages_page_across_versions_by_their_next_links") else { return };
    let pk = "SEASON#2025";
    runtime().block_on(table(&client(&server.endpoint), "VersionsWeb", &versioned_keys(pk)));
    let lock = lock_file_of("versions-web", VERSIONED_LOCK);
    let (child, address, cookie) = serve(&server.endpoint, &lock, &[]);
    let (address, cookie) = (address.as_str(), cookie.as_str());
    let scores = |doc: &serde_json::Value| -> Vec<u64> {
        doc["items"].as_array().unwrap().iter().map(|i| i["fields"]["score"].as_u64().unwrap()).collect()
    };
    // Each page's results (its JSON) and the address of its next page (its HTML's link).
    let walk = |first: &str| {
        let (mut all, mut at, mut pages) = (Vec::new(), Some(first.to_owned()), 0);
        while let Some(page) = at.take() {
            let (code, _, body) = http_get(address, &format!("{page}&format=json"), Some(cookie));
            assert_eq!(code, 200, "{page}: {body}");
            all.extend(scores(&serde_json::from_str(&body).unwrap()));
            let (code, _, html) = http_get(address, &page, Some(cookie));
            assert_eq!(code, 200, "{page}: {html}");
            at = html
                .split("<a href=\"")
                .filter_map(|a| a.split_once("\">next page →</a>"))
                .map(|(h, _)| unescaped(h))
                .next();
            pages += 1;
            assert!(pages <= 60, "the pages do not end: {page}");
        }
        (all, pages)
    };
    let whole = |args: &[&str]| {
        let out = sortkey(&server.endpoint, &lock, args).args(["--limit", "1000", "-o", "json"]).assert().code(0);
        scores(&serde_json::from_slice(&out.get_output().stdout).unwrap())
    };
    let browse = ["browse", "--table", "VersionsWeb", "--pk", pk, "--layout", "RankKey"];
    let (paged, pages) = walk("/browse?table=VersionsWeb&pk=SEASON%232025&layout=RankKey&limit=7");
    assert_eq!(paged, whole(&browse), "the browse pages end to end, {pages} pages");
    assert!(pages >= 8, "{pages} pages of 7 of 51 keys");
    let query = ["query", "--table", "VersionsWeb", "--layout", "RankKey", "--pk", pk, "score>=5000000"];
    let first = "/query?layout=RankKey&table=VersionsWeb&pk=SEASON%232025&op_score=%3E%3D&v_score=5000000&limit=4";
    let (paged, pages) = walk(first);
    let forward = whole(&query);
    assert_eq!(paged, forward, "the query pages end to end, {pages} pages");
    assert!(pages >= 9, "{pages} pages of 4 of 36 results");
    // Read backward (the page's checkbox, the command's --reverse), the pages end to end are
    // the same results, lowest first.
    let backward: Vec<u64> = forward.iter().rev().copied().collect();
    assert_eq!(whole(&[&query[..], &["--reverse"]].concat()), backward, "sortkey query --reverse");
    let (paged, pages) = walk(&format!("{first}&reverse=on"));
    assert_eq!(paged, backward, "the query pages read backward, {pages} pages");
    let all: Vec<u64> = whole(&browse).into_iter().rev().collect();
    assert_eq!(whole(&[&browse[..], &["--reverse"]].concat()), all, "sortkey browse --layout --reverse");
    let (paged, pages) = walk("/browse?table=VersionsWeb&pk=SEASON%232025&layout=RankKey&limit=7&reverse=true");
    assert_eq!(paged, all, "the browse pages read backward, {pages} pages");
    // The query page prints every Query it ran: the current version's and the older one's.
    let (_, _, html) = http_get(address, first, Some(cookie));
    let queries =
        unescaped(html.split("id=\"aws-queries\"").nth(1).and_then(|h| h.split("</pre>").next()).unwrap_or_default());
    assert_eq!(queries.matches("aws dynamodb query").count(), 2, "{html}");
    assert!(queries.contains("# RankKeyV1, an older version:"), "{queries}");
    drop(child);
}

/// A plain browse flags each key as the audit would: an older version of the current layout,
/// a key no layout reads that one would with a field of another width (the trap); a current key
/// has no flag.
#[test]
fn browse_flags_older_versions_and_mixed_widths_inline() {
    let Some(server) = server_or_skip("browse_flags_older_versions_and_mixed_widths_inline") else { return };
    let pk = "SEASON#2026";
    let sks = ["RUN#9999999000#now", "RUN#99999000#then", "RUN#999999999000#wide"];
    let keys: Vec<(String, String)> = sks.iter().map(|sk| (pk.to_owned(), (*sk).to_owned())).collect();
    runtime().block_on(table(&client(&server.endpoint), "Flags", &keys));
    let lock = lock_file_of("flags", VERSIONED_LOCK);
    let out = sortkey(&server.endpoint, &lock, &["browse", "--table", "Flags", "--pk", pk]).assert().code(0);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let flags: Vec<(&str, &serde_json::Value, &serde_json::Value)> = doc["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["sk"].as_str().unwrap(), &i["older_version_of"], &i["mixed_width"]))
        .collect();
    let null = serde_json::Value::Null;
    let wide = serde_json::json!({"layout": "RankKey", "field": "score", "width": 10, "seen": 12});
    // In the bytes' order: `#` sorts before `9`.
    let expected = [
        ("RUN#99999000#then", &serde_json::json!("RankKey"), &null),
        ("RUN#9999999000#now", &null, &null),
        ("RUN#999999999000#wide", &null, &wide),
    ];
    assert_eq!(flags, expected, "{doc}");
    let shown = ["browse", "--table", "Flags", "--pk", pk, "-o", "table"];
    transcript("browse_flags.txt", (&server.endpoint, &lock), &shown, 0, &[]);
}

/// `sortkey migrate` on a ranked layout keeps its counters: 15 runs in the old 6-digit layout and
/// 5 in the current one (written with their counters); after the migration `sortkey rank
/// --check` finds every counter equal to its items, and ranks count the moved runs.
#[test]
fn migrate_keeps_the_rank_counters_of_a_ranked_layout() {
    let Some(server) = server_or_skip("migrate_keeps_the_rank_counters_of_a_ranked_layout") else { return };
    let lock = "RankKey = RUN#{score:u64 width=8 desc}#{player:text}\n\
                RankKeyV1 = RUN#{score:u64 width=6 desc}#{player:text}\n\
                RankKey > RankKeyV1\n\
                rank RankKey.score levels=3\n";
    let lock = lock_file_of("migrate_ranked", lock);
    let pk = "SEASON#3";
    let old: Vec<(String, String)> =
        (0..15u64).map(|i| (pk.to_owned(), format!("RUN#{:06}#old_{i:02}", 999_999 - i * 70))).collect();
    let parsed = sortkey_core::LockFile::parse(&std::fs::read_to_string(&lock).unwrap()).unwrap();
    let board = sortkey_core::dynamodb::RankBoard {
        table: "RankedMoves".into(),
        pk: "pk".into(),
        sk: "sk".into(),
        partitions: vec![pk.into()],
        ranked: parsed.ranked("RankKey").unwrap(),
    };
    runtime().block_on(async {
        let client = client(&server.endpoint);
        table(&client, "RankedMoves", &old).await;
        for i in 0..5u64 {
            let sk = format!("RUN#{:08}#new_{i}", 99_999_999 - i * 333);
            let item = std::collections::HashMap::from([
                ("pk".to_owned(), AttributeValue::S(pk.into())),
                ("sk".to_owned(), AttributeValue::S(sk)),
            ]);
            sortkey_core::dynamodb::write_ranked(&client, &board, pk, None, Some(item)).await.unwrap();
        }
    });
    let dir = lock.parent().unwrap().join("checkpoints").display().to_string();
    let args = ["migrate", "--table", "RankedMoves", "--to", "RankKey", "--compare-attributes", "--checkpoint", &dir];
    let out = sortkey(&server.endpoint, &lock, &args).args(["-o", "json"]).assert().code(0);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["verdict"]["complete"], true, "{doc}");
    assert_eq!(doc["passes"][0]["moved"], 15, "{doc}");
    sortkey(&server.endpoint, &lock, &["rank", "--table", "RankedMoves", "--pk", pk, "--check"]).assert().code(0);
    // Old run i scored i * 70 (now 8 digits); the new runs scored i * 333: 6 runs above 300.
    let rank = ["rank", "--table", "RankedMoves", "--pk", pk, "score=300", "--reverse", "-o", "json"];
    let out = sortkey(&server.endpoint, &lock, &rank).assert().code(0);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let below = (0..15u64).filter(|i| i * 70 < 300).count() + (0..5u64).filter(|i| i * 333 < 300).count();
    assert_eq!(doc["rank"], below as u64 + 1, "reverse: one more than the runs that score less: {doc}");
}

/// `sortkey migrate --to RankKey` moves every older version of it that the lock records, each
/// key from the layout that reads it, and the verdict finds them all in the current layout.
#[test]
fn migrate_to_the_current_layout_moves_every_older_version() {
    let Some(server) = server_or_skip("migrate_to_the_current_layout_moves_every_older_version") else { return };
    let lock = "RankKey = RUN#{score:u64 width=12 desc}#{player:text}\n\
                RankKeyV2 = RUN#{score:u64 width=10 desc}#{player:text}\n\
                RankKeyV1 = RUN#{score:u64 width=8 desc}#{player:text}\n\
                RankKey > RankKeyV2 > RankKeyV1\n";
    let lock = lock_file_of("migrate_versions", lock);
    let pk = "SEASON#1";
    let mut keys: Vec<(String, String)> =
        (0..10u64).map(|i| (pk.to_owned(), format!("RUN#{:010}#v2_{i}", 9_999_999_999 - i * 1000))).collect();
    keys.extend((0..10u64).map(|i| (pk.to_owned(), format!("RUN#{:08}#v1_{i}", 99_999_999 - i * 1000))));
    keys.push((pk.to_owned(), format!("RUN#{:012}#now", 999_999_999_999u64 - 7)));
    runtime().block_on(table(&client(&server.endpoint), "Generations", &keys));
    let dir = lock.parent().unwrap().join("checkpoints").display().to_string();
    // The migration as a user sees it (one Scan page: every key read once); its document is the
    // report the status below reads back.
    let args = ["migrate", "--table", "Generations", "--to", "RankKey", "--compare-attributes", "--checkpoint", &dir];
    let run = (server.endpoint.as_str(), lock.as_path());
    transcript("migrate_run.txt", run, &[&args[..], &["-o", "table"]].concat(), 0, &[(&dir, "checkpoints")]);

    // Where it stands, by its checkpoints: the command's --status and the web view's page.
    let status = ["migrate", "--table", "Generations", "--to", "RankKey", "--checkpoint", &dir, "--status"];
    let out = sortkey(&server.endpoint, &lock, &status).args(["-o", "json"]).assert().code(0);
    let command: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(command["format"], "sortkey migrate status 2");
    assert_eq!(command["command"].as_array().unwrap().last().unwrap(), "--status", "{command}");
    assert!(command["state"].as_str().unwrap().starts_with("finished after pass 1: complete"), "{command}");
    let pass = &command["passes"][0];
    assert_eq!((pass["total"].as_u64(), pass["finished"].as_u64()), (Some(4), Some(4)), "{command}");
    assert_eq!(pass["totals"]["moved"], 20);
    let pages: u64 = pass["segments"].as_array().unwrap().iter().map(|s| s["pages"].as_u64().unwrap()).sum();
    assert!(pages >= 4, "a page at least per segment: {command}");
    let doc = &command["report"];
    assert_eq!(doc["from"], serde_json::json!(["RankKeyV2", "RankKeyV1"]), "the report the migration kept: {doc}");
    let verdict = &doc["verdict"];
    assert_eq!((verdict["complete"].as_bool(), verdict["in_new"].as_u64()), (Some(true), Some(21)), "{doc}");
    assert_eq!(doc["passes"][0]["moved"], 20, "{doc}");
    let shown = [&status[..], &["-o", "table"]].concat();
    transcript("migrate_status.txt", (&server.endpoint, &lock), &shown, 0, &[(&dir, "checkpoints")]);
    let (_child, address, cookie) = serve(&server.endpoint, &lock, &["--checkpoint", &dir]);
    let path = "/migration?table=Generations&to=RankKey&format=json";
    let (code, _, body) = http_get(&address, path, Some(&cookie));
    assert_eq!(code, 200, "{body}");
    assert_eq!(serde_json::from_str::<serde_json::Value>(&body).unwrap(), command, "the page's JSON is the command's");
    let (_, _, html) = http_get(&address, "/migration?table=Generations&to=RankKey", Some(&cookie));
    assert!(html.contains("Verdict: <strong>complete</strong>") && !html.contains("hx-trigger"), "{html}");

    // The folder is this migration's: another table's status, or migration, through it is refused
    // with the migration it holds, never "finished" for a table whose keys have not moved.
    runtime().block_on(table(&client(&server.endpoint), "Other", &keys));
    let other = ["migrate", "--table", "Other", "--to", "RankKey", "--checkpoint", &dir];
    for extra in [&["--status"][..], &["--compare-attributes"][..]] {
        let out = sortkey(&server.endpoint, &lock, &other).args(extra).assert().code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(
            stderr.contains(
                "holds the checkpoints of the migration of table Generations from RankKeyV2, RankKeyV1 to RankKey"
            ),
            "{extra:?}: {stderr}"
        );
    }
    let (code, _, body) = http_get(&address, "/migration?table=Other&to=RankKey&format=json", Some(&cookie));
    assert!(
        code == 400 && body.contains("holds the checkpoints of the migration of table Generations"),
        "{code} {body}"
    );
}

/// Keys are text from the table: one holding escape sequences (a window title, a colour) or a
/// bidirectional override reaches the terminal escaped and quoted, in tables and samples alike,
/// and a key holding a backslash is quoted too, so a quoted key is always an escaped one.
#[test]
fn keys_holding_escape_sequences_are_shown_escaped() {
    let Some(server) = server_or_skip("keys_holding_escape_sequences_are_shown_escaped") else { return };
    let sks = [
        "RUN#999999998499#p_\u{1b}]0;pwned\u{7}",
        "RUN#999999998498#\u{1b}[31mred",
        "\u{1b}[2Jjunk",
        "RUN#999999998497#back\\slash",
        "RUN#999999998496#evil\u{202e}txt",
    ];
    let keys: Vec<(String, String)> = sks.iter().map(|sk| ("CUST#000001".to_owned(), (*sk).to_owned())).collect();
    runtime().block_on(table(&client(&server.endpoint), "Escapes", &keys));
    let lock = lock_file("escapes");
    let run = |args: &[&str], code: i32| {
        let out = sortkey(&server.endpoint, &lock, args).args(["-o", "table"]).assert().code(code);
        String::from_utf8_lossy(&out.get_output().stdout).into_owned()
    };
    let browse = run(&["browse", "--table", "Escapes", "--pk", "CUST#000001"], 0);
    let audit = run(&["audit", "--table", "Escapes", "--segments", "1"], 1);
    for out in [&browse, &audit] {
        assert!(!out.contains(['\u{1b}', '\u{7}', '\u{202e}']), "raw control characters reached the terminal:\n{out}");
    }
    assert!(browse.contains(r#""p_\u{1b}]0;pwned\u{7}""#), "{browse}");
    assert!(browse.contains(r#""\u{1b}[31mred""#), "{browse}");
    assert!(browse.contains(r#""RUN#999999998497#back\\slash""#), "{browse}");
    assert!(browse.contains(r#""RUN#999999998496#evil\u{202e}txt""#), "{browse}");
    assert!(browse.contains(r#""\u{1b}[2Jjunk""#), "{browse}");
    assert!(audit.contains(r#""\u{1b}[2Jjunk""#), "{audit}");
    // The JSON holds the keys themselves (JSON escapes them).
    let mut out =
        sortkey(&server.endpoint, &lock, &["browse", "--table", "Escapes", "--pk", "CUST#000001", "-o", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.assert().code(0).get_output().stdout).unwrap();
    let read: Vec<&str> = doc["items"].as_array().unwrap().iter().map(|i| i["sk"].as_str().unwrap()).collect();
    assert!(sks.iter().all(|sk| read.contains(sk)), "{read:?}");
}

#[test]
fn browse_shows_a_partition_by_layout_and_query_runs_its_condition() {
    let Some(server) = server_or_skip("browse_shows_a_partition_by_layout_and_query_runs_its_condition") else {
        return;
    };
    let sks = ["PROFILE", "ORDER#8280899199876#o-1", "ORDER#8280899199000#o-2", "ADDR#001", "ADDR#002", "junk"];
    let keys: Vec<(String, String)> = sks.iter().map(|sk| ("CUST#000009".to_owned(), (*sk).to_owned())).collect();
    runtime().block_on(table(&client(&server.endpoint), "Items", &keys));
    let lock = lock_file_of("browse", FAMILY_LOCK);

    let run = (server.endpoint.as_str(), lock.as_path());
    transcript("browse_table.txt", run, &["browse", "--table", "Items", "--pk", "CUST#000009", "-o", "table"], 0, &[]);
    let args = ["browse", "--table", "Items", "--pk", "CUST#000009", "--group", "-o", "table"];
    transcript("browse_grouped.txt", run, &args, 0, &[]);
    let mut out = sortkey(&server.endpoint, &lock, &["browse", "--table", "Items", "--pk", "CUST#000009"]);
    let text = String::from_utf8_lossy(&out.assert().code(0).get_output().stdout).into_owned();
    snapshot("browse.json", &text.replace(&lock.display().to_string(), "LOCK").replace(&server.endpoint, "ENDPOINT"));
    let mut out = sortkey(
        &server.endpoint,
        &lock,
        &["browse", "--table", "Items", "--pk", "CUST#000009", "--limit", "2", "--reverse", "-o", "json"],
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.assert().code(0).get_output().stdout).unwrap();
    let items = doc["items"].as_array().unwrap();
    assert_eq!(
        (items[0]["sk"].as_str(), items[1]["layout"].as_str(), items[1]["variant"].as_str()),
        (Some("junk"), Some("CustomerItem"), Some("PROFILE"))
    );
    assert_eq!(items.len(), 2);

    let args = ["query", "--layout", "CustomerItem", "--variant", "ORDER", "--pk", "CUST#000009", "--table", "Items"];
    let out = sortkey(&server.endpoint, &lock, &args)
        .args(["placed>=2024-06-23T00:00:00.500Z", "-o", "json"])
        .assert()
        .code(0);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let items = doc["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{doc}");
    assert_eq!(items[0]["fields"]["placed"], "2024-06-23T00:00:00.999Z");
    assert_eq!(items[0]["fields"]["order_id"], "o-2");
}

/// An audit split into segments, each its own process with its partial report, merges into the
/// report of the whole table; one taken from the job's index is the same; an audit killed midway
/// resumes from its report; an export reads as the table does, its data files in any order. Each
/// is the same document, byte for byte, but for what was read (the table or the export).
#[test]
fn split_resumed_and_exported_audits_report_what_the_whole_table_does() {
    let test = "split_resumed_and_exported_audits_report_what_the_whole_table_does";
    let Some(server) = server_or_skip(test) else { return };
    let mut keys: Vec<(String, String)> = (0..200)
        .map(|i| (format!("CUST#{:06}", i % 7), format!("RUN#{:012}#p_{i}", 999_999_999_999u64 - i * 1000)))
        .collect();
    keys.extend((0..12).map(|i| ("CUST#000001".to_owned(), format!("RUN#{:010}#old_{i}", 9_999_999_999u64 - i))));
    keys.extend([("CUST#000002".into(), "garbage".into()), ("CUST#1".into(), "RUN#999999999999#short".into())]);
    runtime().block_on(table(&client(&server.endpoint), "Runs", &keys));
    let lock = lock_file("split");
    let dir = lock.parent().unwrap().to_owned();
    let json = |cmd: &mut Command, code: i32| -> serde_json::Value {
        serde_json::from_slice(&cmd.assert().code(code).get_output().stdout).unwrap()
    };
    let whole = json(&mut sortkey(&server.endpoint, &lock, &["audit", "--table", "Runs", "-o", "json"]), 1);
    assert_eq!(whole["attributes"][1]["values"], 214);

    // Three workers, the second by its job index, then the merge of their partial reports.
    let part = |i: usize| dir.join(format!("part-{i}.json")).display().to_string();
    for i in 0..3 {
        let mut cmd = sortkey(&server.endpoint, &lock, &["audit", "--table", "Runs", "--total", "3", "-o", "json"]);
        match i {
            1 => cmd.env("JOB_COMPLETION_INDEX", "1"),
            _ => cmd.args(["--segment", &i.to_string()]),
        };
        // A part exits 1 when its segment holds a finding, 0 otherwise.
        let out = cmd.args(["--report", &part(i)]).output().unwrap();
        assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(doc["attributes"][1]["values"].as_u64().unwrap() < 214);
    }
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(part(1)).unwrap()).unwrap();
    assert_eq!((&saved["segments"][0]["segment"], &saved["segments"][0]["done"]), (&1.into(), &true.into()));
    let merged = json(&mut sortkey(&server.endpoint, &lock, &["audit", "merge", &part(2), &part(0), &part(1)]), 1);
    assert_eq!(asked(&merged), asked(&whole));
    assert_eq!(merged["command"].as_array().unwrap()[1..3], ["audit", "merge"], "{merged}");
    let out = sortkey(&server.endpoint, &lock, &["audit", "merge", &part(0), &part(1)]).assert().code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert_eq!(stderr, "sortkey: no partial report of segment 2 of 3; expected every segment of the table\n");
    // As the book shows it, the parts named from their folder.
    let folder = format!("{}/", dir.display());
    let run = (server.endpoint.as_str(), lock.as_path());
    transcript("audit_merge_missing.txt", run, &["audit", "merge", &part(0), &part(1)], 2, &[(&folder, "")]);

    // Killed midway (slowed to 20 items a second, stopped after 3), then resumed.
    let report = dir.join("resumed.json").display().to_string();
    let args = ["audit", "--table", "Runs", "--segments", "2", "--report", &report, "-o", "json"];
    let killed =
        sortkey(&server.endpoint, &lock, &args).args(["--rate", "20"]).timeout(Duration::from_secs(3)).output();
    assert!(!killed.unwrap().status.success());
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let read = saved["attributes"][1]["values"].as_u64().unwrap();
    assert!(read > 0 && read < 214, "the killed audit saved {read} keys");
    assert!(saved["segments"].as_array().unwrap().iter().any(|s| s["done"] == false));
    let resumed = json(&mut sortkey(&server.endpoint, &lock, &args), 1);
    assert_eq!(asked(&resumed), asked(&whole));

    // The table's export (point-in-time recovery on), to moto's S3 and down to a folder.
    let export = dir.join("export");
    let python = sortkey_test_server::python().unwrap();
    let status = std::process::Command::new(python)
        .args(["-c", EXPORT, &server.endpoint, "Runs"])
        .arg(&export)
        .status()
        .unwrap();
    assert!(status.success(), "the export failed");
    // Its items in three data files, in another order than the table's.
    shuffle_export(&export);
    let export = export.display().to_string();
    let args = ["audit", "--export", &export, "--pk", "pk", "--sk", "sk"];
    let exported = json(&mut sortkey(&server.endpoint, &lock, &args), 1);
    assert_eq!(exported["attributes"], whole["attributes"]);
    assert_eq!(exported["findings"], whole["findings"]);
    // The same export read where it lies, in moto's S3: without a manifest (as moto writes it),
    // every data/*.gz; with one (as DynamoDB writes it), the files it names alone (a stray data
    // file beside them is not read); two exports under the prefix are refused.
    let in_s3 = |prefix: &str| {
        let args = ["audit", "--export", prefix, "--pk", "pk", "--sk", "sk"];
        sortkey(&server.endpoint, &lock, &args).args(["-o", "json"]).assert()
    };
    let doc = |out: assert_cmd::assert::Assert| -> serde_json::Value {
        serde_json::from_slice(&out.code(1).get_output().stdout).unwrap()
    };
    let s3 = doc(in_s3("s3://exports/runs"));
    assert_eq!((&s3["attributes"], &s3["export"]), (&whole["attributes"], &serde_json::json!("s3://exports/runs")));
    let status = std::process::Command::new(sortkey_test_server::python().unwrap())
        .args(["-c", MANIFEST, &server.endpoint, "one"])
        .status()
        .unwrap();
    assert!(status.success(), "the manifest was not written");
    assert_eq!(doc(in_s3("s3://exports/runs/"))["attributes"], whole["attributes"], "the manifest's files alone");
    let out = in_s3("s3://no-such-bucket/x").code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.starts_with("sortkey: cannot list s3://no-such-bucket/x: ") && stderr.lines().count() == 1,
        "{stderr}"
    );
    // As tables too, but for the title (the table's name or the export's folder).
    let table = |args: &[&str]| {
        let out = sortkey(&server.endpoint, &lock, args).args(["-o", "table"]).assert().code(1);
        String::from_utf8_lossy(&out.get_output().stdout).into_owned()
    };
    let exported = table(&args).replace(&export, "Runs");
    assert_eq!(exported, table(&["audit", "--table", "Runs"]));
    assert_eq!(table(&["audit", "merge", &part(1), &part(0), &part(2)]), table(&["audit", "--table", "Runs"]));

    // Beyond one machine: each of three workers audits a share of the export's files into a
    // partial report, and their merge is the whole export's report, byte for byte; the same
    // for the export in S3, in two shares.
    let whole_text = |at: &str| {
        let args = ["audit", "--export", at, "--pk", "pk", "--sk", "sk", "-o", "json"];
        String::from_utf8_lossy(&sortkey(&server.endpoint, &lock, &args).assert().code(1).get_output().stdout)
            .into_owned()
    };
    for (at, total) in [(export.as_str(), 3), ("s3://exports/runs", 2)] {
        let share = |i: u32| dir.join(format!("share-{total}-{i}.json")).display().to_string();
        for i in 0..total {
            let args = ["audit", "--export", at, "--pk", "pk", "--sk", "sk", "--report", &share(i)];
            let out = sortkey(&server.endpoint, &lock, &args)
                .args(["--total", &total.to_string(), "--segment", &i.to_string(), "-o", "json"])
                .assert();
            let doc: serde_json::Value =
                serde_json::from_slice(&out.get_output().stdout).unwrap_or_else(|e| panic!("{e}: {at} {i}"));
            assert_eq!(doc["segment"], serde_json::json!({"segment": i, "total": total}), "{doc}");
        }
        let mut parts: Vec<String> = (0..total).rev().map(share).collect();
        parts.insert(0, "merge".to_owned());
        let mut merge = vec!["audit"];
        merge.extend(parts.iter().map(String::as_str));
        merge.extend(["-o", "json"]);
        let merged = sortkey(&server.endpoint, &lock, &merge).assert().code(1);
        let merged: serde_json::Value = serde_json::from_slice(&merged.get_output().stdout).unwrap();
        let whole: serde_json::Value = serde_json::from_str(&whole_text(at)).unwrap();
        assert_eq!(asked(&merged), asked(&whole), "{at} in {total} shares");
    }
    let status = std::process::Command::new(sortkey_test_server::python().unwrap())
        .args(["-c", MANIFEST, &server.endpoint, "two"])
        .status()
        .unwrap();
    assert!(status.success(), "the second manifest was not written");
    let out = in_s3("s3://exports/runs").code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("s3://exports/runs holds 2 exports"), "{stderr}");
}

/// Rewrites the export's data files as three, their lines dealt round-robin from the last line
/// back: the same items in another order and other files.
fn shuffle_export(export: &std::path::Path) {
    use std::io::{Read, Write};
    let data = std::fs::read_dir(export.join("runs"))
        .unwrap()
        .flat_map(|e| walk(&e.unwrap().path()))
        .filter(|p| p.extension().is_some_and(|x| x == "gz"))
        .collect::<Vec<_>>();
    let mut lines = Vec::new();
    for file in &data {
        let mut text = String::new();
        flate2::read::MultiGzDecoder::new(std::fs::File::open(file).unwrap()).read_to_string(&mut text).unwrap();
        lines.extend(text.lines().map(str::to_owned));
        std::fs::remove_file(file).unwrap();
    }
    let folder = data[0].parent().unwrap();
    for n in 0..3 {
        let file = std::fs::File::create(folder.join(format!("shuffled-{n}.json.gz"))).unwrap();
        let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::fast());
        for line in lines.iter().rev().skip(n).step_by(3) {
            writeln!(gz, "{line}").unwrap();
        }
        gz.finish().unwrap();
    }
}

/// Every file under `path` (or `path` itself).
fn walk(path: &std::path::Path) -> Vec<PathBuf> {
    if path.is_dir() {
        std::fs::read_dir(path).unwrap().flat_map(|e| walk(&e.unwrap().path())).collect()
    } else {
        vec![path.to_owned()]
    }
}

/// Exports table `argv[2]` of the moto server `argv[1]` in DynamoDB JSON to its S3, and copies
/// the export's files into the folder `argv[3]`, as `aws s3 cp --recursive` does.
const EXPORT: &str = r#"
import boto3, os, sys, time
endpoint, table, out = sys.argv[1:4]
kw = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test")
dynamodb, s3 = boto3.client("dynamodb", **kw), boto3.client("s3", **kw)
s3.create_bucket(Bucket="exports")
dynamodb.update_continuous_backups(
    TableName=table, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
arn = dynamodb.describe_table(TableName=table)["Table"]["TableArn"]
export = dynamodb.export_table_to_point_in_time(
    TableArn=arn, S3Bucket="exports", S3Prefix="runs", ExportFormat="DYNAMODB_JSON")["ExportDescription"]
for _ in range(200):
    status = dynamodb.describe_export(ExportArn=export["ExportArn"])["ExportDescription"]["ExportStatus"]
    if status != "IN_PROGRESS":
        break
    time.sleep(0.05)
assert status == "COMPLETED", status
for obj in s3.list_objects_v2(Bucket="exports", Prefix="runs")["Contents"]:
    path = os.path.join(out, obj["Key"])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    s3.download_file("exports", obj["Key"], path)
"#;

/// Writes a manifest beside moto's export in S3, as DynamoDB writes one (`manifest-files.json`
/// naming its data files), and a stray data file it does not name; with `two`, a second export's
/// manifest under the same prefix.
const MANIFEST: &str = r#"
import boto3, gzip, json, sys
endpoint, which = sys.argv[1:3]
kw = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test")
s3 = boto3.client("s3", **kw)
keys = [o["Key"] for o in s3.list_objects_v2(Bucket="exports", Prefix="runs")["Contents"]]
data = [k for k in keys if "/data/" in k]
folder = data[0].split("/data/")[0]
if which == "one":
    stray = gzip.compress(b'{"Item":{"pk":{"S":"X"},"sk":{"S":"junk"}}}\n')
    s3.put_object(Bucket="exports", Key=folder + "/data/stray.json.gz", Body=stray)
    lines = "".join(json.dumps({"itemCount": 0, "md5Checksum": "", "etag": "", "dataFileS3Key": k}) + "\n" for k in data)
    s3.put_object(Bucket="exports", Key=folder + "/manifest-files.json", Body=lines.encode())
    s3.put_object(Bucket="exports", Key=folder + "/manifest-summary.json", Body=b'{"outputFormat": "DYNAMODB_JSON"}')
else:
    s3.put_object(Bucket="exports", Key="runs/AWSDynamoDB/other/manifest-files.json", Body=b"")
"#;

/// An audit's document but the command line that asked it: what two ways of reading the same
/// items (split, resumed, merged, exported) must agree on.
fn asked(doc: &serde_json::Value) -> serde_json::Value {
    let mut doc = doc.clone();
    doc.as_object_mut().unwrap().remove("command").expect("an audit's document names its command line");
    doc
}

/// `sortkey migrate` widens RankKey's score from 10 to 12 digits while a writer updates the
/// items (each update bumps the item's version, under whichever key the item has): killed twice
/// midway, resumed, it leaves every item in the new layout, once, with every update the writer
/// made. A dry run first reports what would move.
#[test]
fn migrate_widens_a_key_with_a_writer_running_killed_twice_and_resumed() {
    let test = "migrate_widens_a_key_with_a_writer_running_killed_twice_and_resumed";
    let Some(server) = sortkey_test_server::serialized_server_or_skip(test) else { return };
    const ITEMS: u64 = 120;
    let old = |i: u64| format!("RUN#{:010}#p_{i}", 9_999_999_999 - i * 1000);
    let keys: Vec<(String, String)> = (0..ITEMS).map(|i| ("SEASON#7".to_owned(), old(i))).collect();
    let client = client(&server.endpoint);
    runtime().block_on(async {
        table(&client, "Runs", &keys).await;
        for (pk, sk) in &keys {
            let key = client.update_item().table_name("Runs").key("pk", AttributeValue::S(pk.clone()));
            let set =
                key.key("sk", AttributeValue::S(sk.clone())).update_expression("SET version = :one, hits = :zero");
            let set = set.expression_attribute_values(":one", AttributeValue::N("1".into()));
            set.expression_attribute_values(":zero", AttributeValue::N("0".into())).send().await.unwrap();
        }
    });
    let lock = lock_file_of(
        "migrate",
        "RankKeyV1 = RUN#{score:u64 width=10 desc}#{player:text}\nRankKey = RUN#{score:u64 width=12 desc}#{player:text}\n",
    );
    let checkpoint = lock.parent().unwrap().join("checkpoint").display().to_string();
    let migrate = |more: &[&str]| {
        let mut cmd = sortkey(&server.endpoint, &lock, &["migrate", "--table", "Runs", "--from", "RankKeyV1"]);
        cmd.args(["--to", "RankKey", "--checkpoint", &checkpoint, "--segments", "2", "-o", "json"]).args(more);
        cmd
    };

    let dry: serde_json::Value =
        serde_json::from_slice(&migrate(&["--dry-run"]).assert().code(1).get_output().stdout).unwrap();
    // As a user sees it (one segment: the samples in a fixed order), and as a program does.
    let args = ["migrate", "--table", "Runs", "--from", "RankKeyV1", "--to", "RankKey", "--dry-run", "--segments", "1"];
    transcript("migrate_dry_run.txt", (&server.endpoint, &lock), &[&args[..], &["-o", "table"]].concat(), 1, &[]);
    let out = sortkey(&server.endpoint, &lock, &args).args(["-o", "json"]).assert().code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    snapshot(
        "migrate_dry_run.json",
        &text.replace(&lock.display().to_string(), "LOCK").replace(&server.endpoint, "ENDPOINT"),
    );
    assert_eq!((dry["verdict"]["in_old"].as_u64(), dry["verdict"]["in_new"].as_u64()), (Some(ITEMS), Some(0)));
    let sample = &dry["verdict"]["left_samples"][0];
    assert_eq!(sample["to"].as_str().unwrap().len(), sample["from"].as_str().unwrap().len() + 2);

    // The writer: updates item after item under whichever key it has now, counting each update.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (endpoint, stop) = (server.endpoint.clone(), stop.clone());
        std::thread::spawn(move || {
            let client = sortkey_test_server::client(&endpoint);
            let mut counts = vec![0u64; ITEMS as usize];
            runtime().block_on(async {
                let mut n = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let i = (n * 7) % ITEMS;
                    n += 1;
                    let new = format!("RUN#{:012}#p_{i}", 999_999_999_999 - i * 1000);
                    let pk = || "SEASON#7".to_owned();
                    if common::increment(&client, "Runs", [(pk(), old(i)), (pk(), new)]).await {
                        counts[i as usize] += 1;
                    }
                }
            });
            counts
        })
    };

    // Killed twice midway (slowed to 20 items a second), then resumed to the end.
    for _ in 0..2 {
        let killed =
            migrate(&["--version-attribute", "version", "--rate", "20"]).timeout(Duration::from_secs(3)).output();
        assert!(!killed.unwrap().status.success(), "the migration ended before it was killed");
    }
    let saved = std::fs::read_dir(format!("{checkpoint}/pass-1")).unwrap().count();
    assert_eq!(saved, 2, "a checkpoint per segment");
    let done = migrate(&["--version-attribute", "version"]).output().unwrap();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let counts = writer.join().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&done.stdout).unwrap();
    assert_eq!(done.status.code(), Some(0), "{doc}");
    assert_eq!((doc["verdict"]["complete"].as_bool(), doc["verdict"]["in_new"].as_u64()), (Some(true), Some(ITEMS)));
    assert!(counts.iter().sum::<u64>() > 0, "the writer wrote");

    // Every item once, in the new layout, with every update the writer counted.
    let items = runtime().block_on(async { client.scan().table_name("Runs").send().await.unwrap().items().to_vec() });
    assert_eq!(items.len() as u64, ITEMS);
    for item in items {
        let sk = item["sk"].as_s().unwrap();
        let (_, player) = sk.rsplit_once("#p_").unwrap();
        let i: usize = player.parse().unwrap();
        assert_eq!(sk.len(), old(i as u64).len() + 2, "{sk} is in the new layout");
        let hits: u64 = item["hits"].as_n().unwrap().parse().unwrap();
        assert_eq!(hits, counts[i], "item {i}: the writer made {} updates, the item has {hits}", counts[i]);
    }
}

/// Workers on many machines share one migration through leases in the table itself: a worker
/// killed midway holds its segments until its lease runs out; two more workers started at once,
/// each over every segment, wait for it, take the segments over from the last page saved, share
/// them, and both end with the verdict that every item is in the new layout (the checkpoint items
/// count as other layouts).
#[test]
fn migration_workers_share_the_segments_through_leases() {
    let test = "migration_workers_share_the_segments_through_leases";
    let Some(server) = sortkey_test_server::serialized_server_or_skip(test) else { return };
    let keys: Vec<(String, String)> =
        (0..60u64).map(|i| ("SEASON#7".to_owned(), format!("RUN#{:010}#p_{i}", 9_999_999_999 - i * 1000))).collect();
    runtime().block_on(table(&client(&server.endpoint), "Runs", &keys));
    let lock = lock_file_of(
        "leases",
        "RankKeyV1 = RUN#{score:u64 width=10 desc}#{player:text}\nRankKey = RUN#{score:u64 width=12 desc}#{player:text}\n",
    );
    let migrate = ["migrate", "--table", "Runs", "--from", "RankKeyV1", "--to", "RankKey"];
    // A worker over every segment, as each machine would run it (a process to spawn).
    let worker = |name: &str| {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("sortkey"));
        cmd.args(["--endpoint-url", &server.endpoint, "--lock"]).arg(&lock).args(migrate);
        cmd.args(["--compare-attributes", "--segments", "2", "--checkpoint-table", "Runs", "--lease", "3"]);
        cmd.args(["--worker", name, "-o", "json"]).env_remove("AWS_ACCESS_KEY_ID").env_remove("AWS_PROFILE");
        cmd.stdout(std::process::Stdio::piped());
        cmd
    };

    let mut killed = worker("a").args(["--rate", "10"]).spawn().unwrap();
    std::thread::sleep(Duration::from_secs(3));
    assert!(killed.try_wait().unwrap().is_none(), "the worker ended before it was killed");
    killed.kill().unwrap();
    killed.wait().unwrap();
    let workers: Vec<_> = ["b", "c"].map(|name| worker(name).spawn().unwrap()).into_iter().collect();
    for child in workers {
        let out = child.wait_with_output().unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(0), "{doc}");
        assert_eq!(doc["verdict"]["complete"], true, "{doc}");
    }
    let out = sortkey(&server.endpoint, &lock, &migrate).args(["--dry-run", "-o", "json"]).assert().code(0);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let verdict = &doc["verdict"];
    assert_eq!((verdict["complete"].as_bool(), verdict["in_new"].as_u64()), (Some(true), Some(60)), "{doc}");
    assert_eq!(verdict["in_other"], 3, "the two segments' checkpoint items and the report kept beside");
    // --status reads the leases without taking them: b and c ran the segments, a's work resumed.
    let out = sortkey(&server.endpoint, &lock, &migrate)
        .args(["--checkpoint-table", "Runs", "--status", "-o", "json"])
        .assert()
        .code(0);
    let status: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let segments = status["passes"][0]["segments"].as_array().unwrap();
    assert_eq!(segments.len(), 2, "{status}");
    let owners: Vec<&str> = segments.iter().map(|s| s["lease"]["owner"].as_str().unwrap()).collect();
    assert!(segments.iter().all(|s| s["done"] == true), "{status}");
    assert!(owners.iter().all(|o| ["a", "b", "c"].contains(o)) && owners != ["a", "a"], "{status}");
    assert_eq!(status["passes"][0]["totals"]["moved"], 60, "every old item moved once over the runs: {status}");
    assert_eq!(status["report"]["verdict"]["complete"], true, "{status}");
}

/// A GET of `path` on the server at `address`, with `cookie`: the status line's code, the
/// headers and the body (HTTP/1.1, the connection closed after).
fn http_get(address: &str, path: &str, cookie: Option<&str>) -> (u16, String, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    let cookie = cookie.map(|c| format!("Cookie: {c}\r\n")).unwrap_or_default();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\n{cookie}Connection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let code = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (code, head.to_owned(), body.to_owned())
}

/// `sortkey serve --port 0` with `args` against the server at `endpoint`, its token traded: the
/// process (killed when dropped), its address and the session cookie.
fn serve(endpoint: &str, lock: &std::path::Path, args: &[&str]) -> (KilledOnDrop, String, String) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sortkey"))
        .args(["--endpoint-url", endpoint, "--lock"])
        .arg(lock)
        .args(["serve", "--port", "0"])
        .args(args)
        .env_remove("AWS_ACCESS_KEY_ID")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.take().unwrap()), &mut line).unwrap();
    // The server is stopped however the test ends.
    let child = KilledOnDrop(child);
    assert_eq!(shape(&line), shape(&book_serve_line()), "the line the book shows: {line}");
    let url = line.trim().strip_prefix("sortkey serve: http://").unwrap().to_owned();
    let (address, token_path) = url.split_once('/').unwrap();
    let (code, head, _) = http_get(address, &format!("/{token_path}"), None);
    assert_eq!(code, 303, "{head}");
    let cookie =
        head.lines().find_map(|l| l.strip_prefix("set-cookie: ")).unwrap().split(';').next().unwrap().to_owned();
    (child, address.to_owned(), cookie)
}

/// The line the book's serve page shows after `$ sortkey serve ...`.
fn book_serve_line() -> String {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/src/command/serve.md")).unwrap();
    let mut lines = page.lines().skip_while(|l| !l.starts_with("$ sortkey serve"));
    lines.nth(1).expect("the line after `$ sortkey serve` on the book's serve page").to_owned()
}

/// `line` with its port and its token (the parts that change each run) as `PORT` and `TOKEN`.
fn shape(line: &str) -> String {
    let (head, token) = line.trim().split_once("?token=").unwrap_or((line.trim(), ""));
    let head = head.trim_end_matches('/').trim_end_matches(|c: char| c.is_ascii_digit());
    let token = if token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit()) { "TOKEN" } else { token };
    format!("{head}PORT/?token={token}")
}

/// A form POSTed to the server, from `origin`: the status, head and body.
fn http_post(address: &str, path: &str, form: &str, cookie: &str, origin: &str) -> (u16, String, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nCookie: {cookie}\r\nOrigin: {origin}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
        form.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let code = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (code, head.to_owned(), body.to_owned())
}

/// The audit page against moto: an export folder the server was started with reads as `sortkey
/// audit --export` does; a Scan started from the page (a same-origin POST; a cross-site one is
/// refused) runs to its end with its progress shown, and its report is the command's, which
/// goes on from the partial report the page saved.
#[test]
fn the_audit_page_reads_an_export_and_runs_a_scan_as_the_command_does() {
    let test = "the_audit_page_reads_an_export_and_runs_a_scan_as_the_command_does";
    let Some(server) = server_or_skip(test) else { return };
    let mut keys: Vec<(String, String)> =
        (0..40u64).map(|i| (format!("SEASON#{}", i % 3), format!("RUN#{:010}#p_{i}", 9_999_999_999 - i))).collect();
    keys.extend((0..5u64).map(|i| ("SEASON#0".to_owned(), format!("RUN#{:08}#old_{i}", 99_999_999 - i))));
    keys.push(("SEASON#1".to_owned(), "RUN#999999999999#wide".to_owned()));
    runtime().block_on(table(&client(&server.endpoint), "Audited", &keys));
    let lock = lock_file_of("serve-audit", VERSIONED_LOCK);
    let dir = lock.parent().unwrap().to_owned();
    let export = dir.join("export");
    let python = sortkey_test_server::python().unwrap();
    let status = std::process::Command::new(python)
        .args(["-c", EXPORT, &server.endpoint, "Audited"])
        .arg(&export)
        .status()
        .unwrap();
    assert!(status.success(), "the export failed");
    let export = export.display().to_string();
    let audits = dir.join("audits").display().to_string();
    let (_child, address, cookie) = serve(&server.endpoint, &lock, &["--export", &export, "--audit-dir", &audits]);
    let (address, cookie) = (address.as_str(), cookie.as_str());
    let json = |args: &[&str]| -> serde_json::Value {
        let out = sortkey(&server.endpoint, &lock, args).args(["-o", "json"]).assert().code(1);
        serde_json::from_slice(&out.get_output().stdout).unwrap()
    };

    let (code, _, body) = http_get(address, "/audit?source=export&pk=pk&sk=sk&format=json", Some(cookie));
    assert_eq!(code, 200, "{body}");
    let command = json(&["audit", "--export", &export, "--pk", "pk", "--sk", "sk"]);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&body).unwrap(), command);
    let (_, _, html) = http_get(address, "/audit?source=export&pk=pk&sk=sk", Some(cookie));
    assert!(html.contains("older version RankKeyV1 of RankKey") && html.contains("mixed width"), "{html}");
    // An export names no table: its moves say so until --table names the export's table.
    let moves = |doc: &serde_json::Value| -> Vec<serde_json::Value> {
        let attributes = doc["attributes"].as_array().unwrap();
        attributes
            .iter()
            .flat_map(|a| a["moves"].as_array().unwrap().iter().map(|m| m.as_array().unwrap()[4..].into()))
            .collect()
    };
    let to = |table: &str| {
        serde_json::json!([
            "--endpoint-url",
            server.endpoint,
            "--table",
            table,
            "--to",
            "RankKey",
            "--compare-attributes"
        ])
    };
    assert_eq!(moves(&command), [to("TABLE")], "{command}");
    let out =
        sortkey(&server.endpoint, &lock, &["audit", "--export", &export, "--pk", "pk", "--sk", "sk", "-o", "table"])
            .assert()
            .code(1);
    assert!(String::from_utf8_lossy(&out.get_output().stdout).contains("give the export's with --table T"));
    let named = json(&["audit", "--export", &export, "--pk", "pk", "--sk", "sk", "--table", "Audited"]);
    assert_eq!(moves(&named), [to("Audited")], "{named}");
    // The same export where it lies, in moto's S3, through a server started with its address.
    let (_s3_child, s3_address, s3_cookie) = serve(&server.endpoint, &lock, &["--export", "s3://exports/runs"]);
    let (code, _, body) = http_get(&s3_address, "/audit?source=export&pk=pk&sk=sk&format=json", Some(&s3_cookie));
    assert_eq!(code, 200, "{body}");
    let command = json(&["audit", "--export", "s3://exports/runs", "--pk", "pk", "--sk", "sk"]);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&body).unwrap(), command);
    assert_eq!(command["attributes"], json(&["audit", "--export", &export, "--pk", "pk", "--sk", "sk"])["attributes"]);

    let form = "table=Audited&rate=1000&segments=2";
    let (code, _, body) = http_post(address, "/audit/scan", form, cookie, "http://evil.example");
    assert_eq!(code, 403, "a cross-site POST starts nothing: {body}");
    let (code, _, body) =
        http_post(address, "/audit/scan", "table=..%2Fetc&rate=1", cookie, &format!("http://{address}"));
    assert_eq!(code, 400, "no table name, no scan: {body}");
    let (code, head, _) = http_post(address, "/audit/scan", form, cookie, &format!("http://{address}"));
    assert_eq!(code, 303, "{head}");
    assert!(head.contains("location: /audit?source=scan&table=Audited"), "{head}");
    let mut html = String::new();
    for _ in 0..100 {
        html = http_get(address, "/audit?source=scan&table=Audited", Some(cookie)).2;
        if html.contains("finished:") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(html.contains("finished: 46 items read") && html.contains("2 of 2 segments"), "{html}");
    assert!(html.contains("<progress max=\"100\" value=\"100\">"), "{html}");
    // The Scan's read units, DynamoDB's ConsumedCapacity of its pages (before: 0 on this page).
    let units = html.split("<span id=\"read-units\">").nth(1).unwrap().split(' ').next().unwrap();
    assert!(units.parse::<f64>().unwrap() > 0.0, "{units} read units after a Scan");
    let (code, _, body) = http_get(address, "/audit?source=scan&table=Audited&format=json", Some(cookie));
    assert_eq!(code, 200, "{body}");
    let page: serde_json::Value = serde_json::from_str(&body).unwrap();
    let command = json(&["audit", "--table", "Audited", "--segments", "2"]);
    assert_eq!(asked(&page), asked(&command), "the page's scan is the command's");
    // The page's command line, run as it stands (its --lock and --endpoint-url included), resumes
    // the page's saved report and gives the page's document.
    let argv: Vec<String> = serde_json::from_value(page["command"].clone()).unwrap();
    let saved_in = ["--report".to_owned(), format!("{audits}/Audited.json")];
    let segments = ["--segments".to_owned(), "2".to_owned()];
    assert!(argv.windows(2).any(|w| w == saved_in) && argv.windows(2).any(|w| w == segments), "{argv:?}");
    let mut run = Command::cargo_bin("sortkey").unwrap();
    run.args(&argv[1..]).args(["-o", "json"]).env_remove("AWS_ACCESS_KEY_ID").env_remove("AWS_PROFILE");
    let again: serde_json::Value = serde_json::from_slice(&run.assert().code(1).get_output().stdout).unwrap();
    assert_eq!(again, page, "the page's command line gives the page's document");
    assert_eq!(page["attributes"][0]["old_keys"][0]["keys"], 5, "the old keys survive the partial report: {page}");

    // The sort lab on the table's keys: RankKey's score narrowed to 1 digit does not hold most
    // of them; desc dropped reverses the order of every key; the lock lines and commands beside.
    let lab = "/layouts?table=Audited&pk=SEASON%230&field=RankKey%3Ascore&new_width=1&desc=on";
    let (code, _, html) = http_get(address, lab, Some(cookie));
    assert_eq!(code, 200, "{html}");
    assert!(
        html.contains(
            "14 keys of the layout on the page, <strong id=\"not-fit\">10 would not fit</strong>, 0 change place"
        ),
        "{html}"
    );
    assert!(html.contains("RUN#{score:u64 width=1 desc}#{player:text}"), "{html}");
    let lab = "/layouts?table=Audited&pk=SEASON%230&field=RankKey%3Ascore&new_width=10";
    let (_, _, html) = http_get(address, lab, Some(cookie));
    assert!(html.contains("<strong id=\"not-fit\">0 would not fit</strong>, 14 change place"), "{html}");
    // The width kept and desc dropped: the layout reads its new keys too, so that no migration
    // could tell a moved key from one still to move; the lab says so and prints no command.
    assert!(html.contains("id=\"no-migration\">no migration gets the table there: the new key `RUN#"), "{html}");
    assert!(!html.contains("sortkey migrate"), "{html}");
    let lab = "/layouts?table=Audited&pk=SEASON%230&field=RankKey%3Ascore&new_width=12";
    let (_, _, html) = http_get(address, lab, Some(cookie));
    assert!(html.contains("RankKey &#62; RankKeyV2 &#62; RankKeyV1"), "the lock lines: {html}");
    // What the lab prints, done as printed: its lock lines in the lock, then its two commands,
    // whose --lock and --endpoint-url are the server's. The count finds the 45 keys of the two
    // older layouts (and the one 12-digit key, which the new layout reads); the move leaves none.
    let blocks: Vec<String> =
        html.split("<pre><code>").skip(1).map(|b| unescaped(b.split("</code>").next().unwrap())).collect();
    let [lines, commands] = &blocks[blocks.len() - 2..] else { panic!("{html}") };
    let lines: Vec<&str> = lines.lines().collect();
    assert_eq!(lines[2], "RankKey > RankKeyV2 > RankKeyV1", "{html}");
    let named = |l: &str| l.split([' ', '=']).next().unwrap().to_owned();
    let replaced: Vec<String> = lines.iter().map(|l| named(l)).collect();
    let mut text: Vec<&str> = VERSIONED_LOCK.lines().filter(|l| !replaced.contains(&named(l))).collect();
    text.extend(&lines);
    std::fs::write(&lock, text.join("\n") + "\n").unwrap();
    let commands: Vec<Vec<String>> =
        commands.lines().map(|c| shlex::split(c.strip_prefix("$ ").unwrap()).unwrap()).collect();
    let at_lock = ["--lock".to_owned(), lock.display().to_string()];
    assert!(commands[0].ends_with(&["--dry-run".to_owned()]), "{commands:?}");
    assert!(commands.iter().all(|c| c.windows(2).any(|w| w == at_lock)), "{commands:?}");
    let run = |argv: &[String], code: i32| -> serde_json::Value {
        let mut run = Command::cargo_bin("sortkey").unwrap();
        run.args(&argv[1..])
            .args(["-o", "json"])
            .current_dir(&dir)
            .env_remove("AWS_ACCESS_KEY_ID")
            .env_remove("AWS_PROFILE");
        serde_json::from_slice(&run.assert().code(code).get_output().stdout).unwrap()
    };
    let verdict = |doc: &serde_json::Value| (doc["verdict"]["in_old"].as_u64(), doc["verdict"]["in_new"].as_u64());
    let counted = run(&commands[0], 1);
    assert_eq!(verdict(&counted), (Some(45), Some(1)), "{counted}");
    let moved = run(&commands[1], 0);
    assert_eq!(verdict(&moved), (Some(0), Some(46)), "{moved}");
    assert_eq!(moved["verdict"]["complete"], true, "{moved}");
}

/// `sortkey serve` against moto: the printed URL's token traded for the cookie, the browse page's
/// JSON equal to `sortkey browse`'s for the same partition, the page itself with a key holding
/// markup shown as text, and the next page after the first.
#[test]
fn the_browse_page_answers_as_the_command_does() {
    let Some(server) = server_or_skip("the_browse_page_answers_as_the_command_does") else { return };
    let pk = "CUST#000009";
    let sks = ["PROFILE", "ORDER#8280899199876#o-1", "ADDR#001", "ADDR#002", "<script>alert(1)</script>"];
    let keys: Vec<(String, String)> = sks.iter().map(|sk| (pk.to_owned(), (*sk).to_owned())).collect();
    runtime().block_on(table(&client(&server.endpoint), "Web", &keys));
    let lock = lock_file_of("serve", FAMILY_LOCK);
    // A saved audit of the table, for the audit page.
    let report = lock.parent().unwrap().join("web-audit.json").display().to_string();
    let audit = ["audit", "--table", "Web", "--report", &report, "-o", "json"];
    sortkey(&server.endpoint, &lock, &audit).assert().code(1);
    let (child, address, cookie) = serve(&server.endpoint, &lock, &["--report", &report]);
    let (address, cookie) = (address.as_str(), cookie.as_str());
    let (code, _, body) = http_get(address, "/browse?table=Web&pk=CUST%23000009&limit=50&format=json", Some(cookie));
    assert_eq!(code, 200, "{body}");
    let page: serde_json::Value = serde_json::from_str(&body).unwrap();
    let out =
        sortkey(&server.endpoint, &lock, &["browse", "--table", "Web", "--pk", pk, "--limit", "50", "-o", "json"])
            .assert()
            .code(0);
    let command: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(page, command, "the page's JSON is the command's");
    let (code, _, html) = http_get(address, "/browse?table=Web&pk=CUST%23000009&limit=2", Some(cookie));
    assert_eq!(code, 200);
    assert!(html.contains("ADDR#001") && html.contains("next page"), "{html}");
    assert!(!html.contains("<script>alert"), "a key is text: {html}");
    let (_, _, all) = http_get(address, "/browse?table=Web&pk=CUST%23000009&limit=50", Some(cookie));
    assert!(all.contains("&#60;script&#62;alert(1)&#60;/script&#62;"), "{all}");
    let (code, _, _) = http_get(address, "/browse?table=Web&pk=CUST%23000009", None);
    assert_eq!(code, 401, "no cookie, no page");
    // The overview's JSON is `sortkey tables`'.
    let (code, _, body) = http_get(address, "/?format=json", Some(cookie));
    assert_eq!(code, 200, "{body}");
    let out = sortkey(&server.endpoint, &lock, &["tables", "-o", "json"]).assert().code(0);
    let command: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(serde_json::from_str::<serde_json::Value>(&body).unwrap(), command);
    assert!(command["tables"].as_array().unwrap().iter().any(|t| t["name"] == "Web" && t["sort_key"] == "sk"));
    // The audit page's JSON is `sortkey audit merge`'s of the same report; the page draws bars.
    let (code, _, body) = http_get(address, "/audit?format=json", Some(cookie));
    assert_eq!(code, 200, "{body}");
    let out = sortkey(&server.endpoint, &lock, &["audit", "merge", &report, "-o", "json"]).assert().code(1);
    let command: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(serde_json::from_str::<serde_json::Value>(&body).unwrap(), command);
    let (_, _, html) = http_get(address, "/audit", Some(cookie));
    assert!(html.contains("<svg") && html.contains("no layout reads: "), "{html}");
    assert!(!html.contains("<script>alert"), "{html}");
    drop(child);
}

/// HTML's escapes of a page read back (askama writes `&#38;`, `&#60;`, `&#62;`, `&#34;`, `&#39;`).
fn unescaped(html: &str) -> String {
    let mut text = html.to_owned();
    for (escape, c) in [("&#39;", "'"), ("&#34;", "\""), ("&#60;", "<"), ("&#62;", ">")] {
        text = text.replace(escape, c);
    }
    text.replace("&#38;", "&")
}

/// The text of the first `<code>` after `after` in a page.
fn code_after(html: &str, after: &str) -> String {
    let rest = html.split(after).nth(1).unwrap_or_else(|| panic!("no {after:?} in {html}"));
    unescaped(rest.split("<code>").nth(1).unwrap().split("</code>").next().unwrap())
}

/// The query page's printed commands, pasted into a shell: `aws dynamodb query` through the real
/// AWS CLI (tests/.venv, installed with moto) and `sortkey query` both give the page's items, for
/// a partition key holding a quote, `$()`, `#`, `&` and backticks; nothing runs but them.
#[test]
fn the_printed_commands_run_in_a_shell_as_the_page_ran_them() {
    let Some(server) = server_or_skip("the_printed_commands_run_in_a_shell_as_the_page_ran_them") else { return };
    let aws = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/.venv/bin/aws");
    if !aws.exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "the AWS CLI is missing: pip install -r tests/requirements-dynamodb.txt"
        );
        eprintln!("skipped: no AWS CLI in tests/.venv");
        return;
    }
    let pk = "O'Brien $(touch pwned) #1 & `touch pwned2`";
    let keys: Vec<(String, String)> =
        (0..6u64).map(|i| (pk.to_owned(), format!("RUN#{:012}#p_{i}", 999_999_999_999 - i * 100))).collect();
    runtime().block_on(table(&client(&server.endpoint), "Hostile", &keys));
    let lock = lock_file("printed");
    let dir = lock.parent().unwrap().join("shell");
    std::fs::create_dir_all(&dir).unwrap();
    let (_child, address, cookie) = serve(&server.endpoint, &lock, &["--table", "Hostile"]);
    let path = format!(
        "/query?layout=RankKey&table=Hostile&pk={}&op_score=%3E%3D&v_score=200",
        serde_urlencoded::to_string([("", pk)]).unwrap().trim_start_matches('=')
    );
    let (code, _, html) = http_get(&address, &path, Some(&cookie));
    assert_eq!(code, 200, "{html}");
    let (_, _, body) = http_get(&address, &format!("{path}&format=json"), Some(&cookie));
    let page: serde_json::Value = serde_json::from_str(&body).unwrap();
    let shown: Vec<&str> = page["items"].as_array().unwrap().iter().map(|i| i["sk"].as_str().unwrap()).collect();
    assert_eq!(shown.len(), 4, "scores 200 to 500: {page}");

    let shell = |line: &str| {
        let bin = assert_cmd::cargo::cargo_bin("sortkey");
        let paths = [bin.parent().unwrap(), aws.parent().unwrap()];
        let path = std::env::join_paths(
            paths.iter().copied().chain(
                std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
                    .collect::<Vec<_>>()
                    .iter()
                    .map(|p| p.as_path()),
            ),
        )
        .unwrap();
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(line)
            .current_dir(&dir)
            .env("PATH", path)
            .env("AWS_ACCESS_KEY_ID", "test")
            .env("AWS_SECRET_ACCESS_KEY", "test")
            .env("AWS_DEFAULT_REGION", "us-east-1")
            .env_remove("AWS_PROFILE")
            .output()
            .unwrap();
        assert!(out.status.success(), "{line}: {}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let aws_line = code_after(&html, "As an AWS CLI command:");
    assert!(aws_line.starts_with("aws dynamodb query --table-name Hostile"), "{aws_line}");
    let by_aws = shell(&aws_line);
    let read: Vec<&str> = by_aws["Items"].as_array().unwrap().iter().map(|i| i["sk"]["S"].as_str().unwrap()).collect();
    assert_eq!(read, shown, "{aws_line}");
    let sortkey_line = code_after(&html, "As a sortkey command:").trim_start_matches("$ ").to_owned();
    let by_sortkey = shell(&format!("{sortkey_line} -o json"));
    assert_eq!(by_sortkey["items"], page["items"], "{sortkey_line}");

    // A browse page ending at a key that is a command: the next page's footer passes it as one
    // argument, and gives the page's items.
    let sks = ["!a&b", "$(touch pwned3)", "c'd", "e#f"];
    runtime().block_on(async {
        let client = client(&server.endpoint);
        for sk in sks {
            let item = client.put_item().table_name("Hostile").item("pk", AttributeValue::S("P2".into()));
            item.item("sk", AttributeValue::S(sk.into())).send().await.unwrap();
        }
    });
    let (_, _, html) = http_get(&address, "/browse?table=Hostile&pk=P2&limit=2", Some(&cookie));
    let next = html.split("href=\"").find(|h| h.starts_with("/browse?") && h.contains("after=")).unwrap();
    let next = unescaped(next.split('"').next().unwrap());
    let (code, _, page2) = http_get(&address, &next, Some(&cookie));
    assert_eq!(code, 200, "{next}: {page2}");
    let footer = code_after(&page2, "<footer id=\"frame-command\">");
    assert!(footer.contains("--after"), "{footer}");
    let by_sortkey = shell(&format!("{footer} -o json"));
    let (_, _, json) = http_get(&address, &format!("{next}&format=json"), Some(&cookie));
    let page2: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(by_sortkey["items"], page2["items"], "{footer}");
    let read: Vec<&str> = page2["items"].as_array().unwrap().iter().map(|i| i["sk"].as_str().unwrap()).collect();
    assert_eq!(read, ["c'd", "e#f"], "after {next}");
    assert!(next.contains("after=%24%28touch+pwned3%29") || next.contains("after=%24%28touch%20pwned3%29"), "{next}");
    for file in ["pwned", "pwned2", "pwned3"] {
        assert!(!dir.join(file).exists(), "a key ran in the shell: {file}");
    }
}

/// Pay for what is shown: a page of 10 of a partition of 491 items reads at most 11 of them, and
/// a query of 50 at most 51, as the command and as the page; each document says what it read.
#[test]
fn a_page_reads_no_more_items_than_it_shows_and_one() {
    let Some(server) = server_or_skip("a_page_reads_no_more_items_than_it_shows_and_one") else { return };
    runtime().block_on(async {
        let client = client(&server.endpoint);
        sortkey_test_server::create_table(&client, "Paid").await;
        for chunk in (0..491u64).collect::<Vec<_>>().chunks(25) {
            let puts = chunk.iter().map(|i| {
                let put = aws_sdk_dynamodb::types::PutRequest::builder()
                    .item("pk", AttributeValue::S("SEASON#1".into()))
                    .item("sk", AttributeValue::S(format!("RUN#{:012}#p_{i}", 999_999_999_999 - i)))
                    .build()
                    .unwrap();
                aws_sdk_dynamodb::types::WriteRequest::builder().put_request(put).build()
            });
            client.batch_write_item().request_items("Paid", puts.collect()).send().await.unwrap();
        }
    });
    let lock = lock_file("paid");
    let run = |args: &[&str]| {
        let out = sortkey(&server.endpoint, &lock, args).args(["-o", "json"]).assert().code(0);
        serde_json::from_slice::<serde_json::Value>(&out.get_output().stdout).unwrap()
    };
    let doc = run(&["browse", "--table", "Paid", "--pk", "SEASON#1", "--limit", "10"]);
    assert_eq!(doc["items"].as_array().unwrap().len(), 10);
    assert!(doc["read"]["items"].as_u64().unwrap() <= 11, "{}", doc["read"]);
    let doc =
        run(&["query", "--layout", "RankKey", "--pk", "SEASON#1", "--table", "Paid", "--limit", "50", "score>=0"]);
    assert_eq!(doc["items"].as_array().unwrap().len(), 50);
    assert!(doc["read"]["items"].as_u64().unwrap() <= 51, "{}", doc["read"]);
    let (_child, address, cookie) = serve(&server.endpoint, &lock, &[]);
    let (code, _, body) = http_get(&address, "/browse?table=Paid&pk=SEASON%231&limit=10&format=json", Some(&cookie));
    assert_eq!(code, 200, "{body}");
    let page: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert!(page["read"]["items"].as_u64().unwrap() <= 11, "{}", page["read"]);
}

/// A child process killed when dropped (a failed assertion must not leave a server running).
struct KilledOnDrop(std::process::Child);

impl Drop for KilledOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `sortkey rank` on moto: runs written with their rank counters (`write_ranked`), each rank the
/// command reads equal to the count of the keys before it, both ways, by value and by whole key;
/// the book shows its transcript.
#[test]
fn rank_reads_a_players_place_from_the_counters() {
    let Some(server) = server_or_skip("rank_reads_a_players_place_from_the_counters") else { return };
    let lock =
        lock_file_of("rank", "RankKey = RUN#{score:u64 width=6 desc}#{player:text}\nrank RankKey.score levels=3\n");
    let lock_text = std::fs::read_to_string(&lock).unwrap();
    let parsed = sortkey_core::LockFile::parse(&lock_text).unwrap();
    let board = sortkey_core::dynamodb::RankBoard {
        table: "Ranked".into(),
        pk: "pk".into(),
        sk: "sk".into(),
        partitions: vec!["SEASON#7".into()],
        ranked: parsed.ranked("RankKey").unwrap(),
    };
    let key = |score: u64, player: u64| format!("RUN#{:06}#p_{player:02}", 999_999 - score);
    let scores: Vec<u64> = (0..30).map(|p| [1500, 900, 2400, 300, 1500, 7000][p % 6] + (p as u64 / 6) * 10).collect();
    runtime().block_on(async {
        let client = client(&server.endpoint);
        sortkey_test_server::create_table(&client, "Ranked").await;
        for (player, score) in scores.iter().enumerate() {
            let item = std::collections::HashMap::from([
                ("pk".to_owned(), AttributeValue::S("SEASON#7".into())),
                ("sk".to_owned(), AttributeValue::S(key(*score, player as u64))),
            ]);
            sortkey_core::dynamodb::write_ranked(&client, &board, "SEASON#7", None, Some(item)).await.unwrap();
        }
    });
    let mut keys: Vec<String> = scores.iter().enumerate().map(|(p, s)| key(*s, p as u64)).collect();
    keys.sort();
    let ranked = |args: &[&str]| -> serde_json::Value {
        let out = sortkey(&server.endpoint, &lock, args).args(["-o", "json"]).assert().code(0);
        serde_json::from_slice(&out.get_output().stdout).unwrap()
    };
    for (score, player) in [(1500u64, 0u64), (7000, 5), (300, 3), (1510, 10)] {
        let value = format!("score={score}");
        let whole = format!("player=p_{player:02}");
        let prefix = format!("RUN#{:06}#", 999_999 - score);
        let own = key(score, player);
        for (args, probe) in [(vec![value.as_str()], prefix.clone()), (vec![value.as_str(), whole.as_str()], own)] {
            let mut ask = vec!["rank", "--table", "Ranked", "--pk", "SEASON#7"];
            ask.extend(&args);
            let doc = ranked(&ask);
            let before = keys.iter().filter(|k| k.as_str() < probe.as_str()).count() as u64;
            assert_eq!(doc["rank"], before + 1, "{args:?}: {doc}");
            assert_eq!(doc["format"], "sortkey rank 1");
            assert_eq!(doc["requests"], 3, "a point read, a Query, a point read: {doc}");
            ask.push("--reverse");
            let back = ranked(&ask);
            let after = keys.iter().filter(|k| k.as_str() > probe.as_str()).count() as u64;
            assert_eq!(back["rank"], after + 1, "{args:?} reversed: {back}");
        }
    }
    // The audit leaves the counter items (`#RANK#...`) out: no key of the sort key is unread.
    let out = sortkey(&server.endpoint, &lock, &["audit", "--table", "Ranked", "-o", "json"]).output().unwrap();
    let audit: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let sk = audit["attributes"].as_array().unwrap().iter().find(|a| a["name"] == "sk").unwrap();
    assert_eq!(sk["unread"], serde_json::json!([]), "{sk}");
    assert_eq!(sk["values"], 30, "the 30 runs, not their counters: {sk}");
    assert_eq!(audit["counters"], serde_json::json!({"checked": 1, "differ": []}), "the one ranked partition");
    // A partition and a player that a terminal would act on are shown escaped, never raw.
    let hostile = ["rank", "--table", "Ranked", "--pk", "SEASON#\u{1b}[2J", "score=1500", "player=p_\u{1b}]0;x\u{7}"];
    let out = sortkey(&server.endpoint, &lock, &hostile).args(["-o", "table"]).assert().code(0);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'), "{text:?}");
    assert!(text.contains(r"SEASON#\u{1b}[2J") && text.contains(r"p_\u{1b}]0;x\u{7}"), "{text}");
    assert!(text.contains("rank 1 of"), "an empty partition: {text}");
    let run = (server.endpoint.as_str(), lock.as_path());
    let shown = ["rank", "--table", "Ranked", "--pk", "SEASON#7", "score=1500", "player=p_00", "-o", "table"];
    transcript("rank.txt", run, &shown, 0, &[]);

    // Browse names the counter items for what they are, not as keys no layout reads.
    let browse = ranked(&["browse", "--table", "Ranked", "--pk", "SEASON#7", "--limit", "3"]);
    assert_eq!(browse["format"], "sortkey browse 4");
    let first = &browse["items"][0];
    assert_eq!(first["counter"], serde_json::json!({"layout": "RankKey", "field": "score", "node": ""}), "{browse}");
    assert_eq!((&first["layout"], &first["error"]), (&serde_json::Value::Null, &serde_json::Value::Null), "{browse}");
    // The web view: the browse page's rank box asks the rank page, whose JSON is the command's
    // document and whose page shows the same rank; a value the layout does not read is refused.
    let (_child, address, cookie) = serve(&server.endpoint, &lock, &[]);
    let (code, _, body) = http_get(&address, "/browse?table=Ranked&pk=SEASON%237", Some(&cookie));
    assert_eq!(code, 200, "{body}");
    assert!(body.contains(r#"<form method="get" action="/rank" id="rank-box">"#), "{body}");
    assert!(body.contains(r#"name="pk" value="SEASON#7""#) && body.contains("Rank of RankKey.score"), "{body}");
    let asked = "/rank?table=Ranked&pk=SEASON%237&value=1500&then=player%3Dp_00";
    let (code, _, body) = http_get(&address, &format!("{asked}&format=json"), Some(&cookie));
    assert_eq!(code, 200, "{body}");
    let page: serde_json::Value = serde_json::from_str(&body).unwrap();
    let command = ranked(&["rank", "--table", "Ranked", "--pk", "SEASON#7", "score=1500", "player=p_00"]);
    assert_eq!((&page["format"], &page["rank"], &page["key"]), (&command["format"], &command["rank"], &command["key"]));
    let (code, _, body) = http_get(&address, asked, Some(&cookie));
    assert_eq!(code, 200, "{body}");
    assert!(body.contains(&format!("Rank <strong>{}</strong>", command["rank"])), "{body}");
    let from_here = "/browse?table=Ranked&#38;pk=SEASON%237&#38;limit=100&#38;after=RUN%23998499%23p_00";
    assert!(body.contains(from_here), "the partition from the key on: {body}");
    let (code, _, body) = http_get(&address, "/rank?table=Ranked&pk=SEASON%237&value=lots", Some(&cookie));
    assert_eq!(code, 400, "{body}");
    assert!(body.contains(r#"<p role="alert">"#) && body.contains("lots"), "{body}");

    // A counter changed by hand: --check names it (exit 1) and the command that repairs it,
    // --repair rewrites it from the items.
    runtime().block_on(async {
        let root = std::collections::HashMap::from([
            ("pk".to_owned(), AttributeValue::S("SEASON#7".into())),
            ("sk".to_owned(), AttributeValue::S(board.ranked.counter_key(""))),
        ]);
        let corrupt = client(&server.endpoint).update_item().table_name("Ranked").set_key(Some(root));
        let corrupt = corrupt.update_expression("ADD c9 :two");
        corrupt.expression_attribute_values(":two", AttributeValue::N("2".into())).send().await.unwrap();
    });
    let check = ["rank", "--table", "Ranked", "--pk", "SEASON#7", "--check"];
    let out = sortkey(&server.endpoint, &lock, &check).args(["-o", "json"]).assert().code(1);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["format"], "sortkey rank check 1");
    assert_eq!(doc["differences"].as_array().unwrap().len(), 1, "{doc}");
    assert_eq!(doc["differences"][0]["node"], "", "{doc}");
    let repair: Vec<String> = serde_json::from_value(doc["repair"].clone()).unwrap();
    assert_eq!(repair.last().map(String::as_str), Some("--repair"), "{doc}");
    transcript("rank_check.txt", run, &[&check[..], &["-o", "table"]].concat(), 1, &[]);
    // The audit holds the counters of every ranked partition its Scan came upon to the items,
    // and names the one that differs with the command that repairs it (exit 1).
    let out = sortkey(&server.endpoint, &lock, &["audit", "--table", "Ranked", "-o", "json"]).assert().code(1);
    let audit: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let differ = &audit["counters"]["differ"];
    assert_eq!((differ[0]["partition"].as_str(), differ[0]["layout"].as_str()), (Some("SEASON#7"), Some("RankKey")));
    assert_eq!(differ[0]["differences"][0]["node"], "", "the root counter: {audit}");
    let repair: Vec<String> = serde_json::from_value(differ[0]["repair"].clone()).unwrap();
    let asks = ["--table", "Ranked", "--pk", "SEASON#7", "--layout", "RankKey", "--repair"];
    assert!(repair.starts_with(&["sortkey".to_owned(), "rank".to_owned()]), "{repair:?}");
    assert!(repair.ends_with(&asks.map(String::from)), "{repair:?}");
    transcript("audit_counters.txt", run, &["audit", "--table", "Ranked", "-o", "table"], 1, &[]);
    let out =
        sortkey(&server.endpoint, &lock, &["rank", "--table", "Ranked", "--pk", "SEASON#7", "--repair", "-o", "json"])
            .assert()
            .code(0);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!((doc["repaired"].as_u64(), doc["differences"].as_array().map(Vec::len)), (Some(1), Some(0)), "{doc}");
    sortkey(&server.endpoint, &lock, &check).assert().code(0);
}
