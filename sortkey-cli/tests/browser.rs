//! `sortkey serve` in a real Chromium, driven through WebDriver (Debian's chromium and
//! chromium-driver), against moto: open the printed URL, browse a partition, type a condition in
//! the query builder and see the expression and the matching rows change, try a width on the
//! table's keys, start an audit's Scan from the page and watch it finish, open the migration
//! page, as a person would.
//! Screenshots of each page go to target/screenshots/ for review. CI installs the browser and
//! runs it (feature `browser`); without chromedriver it is skipped, and fails under CI.

#![cfg(feature = "browser")]

use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::AttributeValue;
use fantoccini::{ClientBuilder, Locator};
use sortkey_test_server::{client, runtime, server_or_skip};

const LOCK: &str = "RankKey = RUN#{score:u64 width=10 desc}#{player:text}\n\
                    RankKeyV1 = RUN#{score:u64 width=8 desc}#{player:text}\n\
                    RankKey > RankKeyV1\n\
                    rank RankKey.score levels=6\n";

/// A child process killed when the test ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn screenshots() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// chromedriver on a free port, or `None` (skipped; a failure under CI).
fn chromedriver() -> Option<(Killed, u16)> {
    let port = std::net::TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
    match Command::new("chromedriver").arg(format!("--port={port}")).stdout(Stdio::null()).spawn() {
        Ok(child) => Some((Killed(child), port)),
        Err(e) => {
            assert!(std::env::var_os("CI").is_none(), "chromedriver not found ({e}): CI must run the browser test");
            eprintln!("the_web_view_in_chromium: SKIPPED, no chromedriver (apt-get install chromium chromium-driver)");
            None
        }
    }
}

#[test]
fn the_web_view_in_chromium() {
    let Some(server) = server_or_skip("the_web_view_in_chromium") else { return };
    let Some((_driver, port)) = chromedriver() else { return };
    runtime().block_on(async {
        let dynamo = client(&server.endpoint);
        sortkey_test_server::create_table(&dynamo, "Runs").await;
        let keys = (0..12u64)
            .map(|i| format!("RUN#{:010}#p_{i}", 9_999_999_999 - i * 1000))
            .chain((0..4u64).map(|i| format!("RUN#{:08}#old_{i}", 99_999_999 - i * 3000)))
            .chain(["<script>alert(1)</script>".to_owned()]);
        // The current layout's runs are written with their rank counters (`rank RankKey.score`).
        let ranked = sortkey_core::LockFile::parse(LOCK).unwrap().ranked("RankKey").unwrap();
        let board = sortkey_core::dynamodb::RankBoard {
            table: "Runs".into(),
            pk: "pk".into(),
            sk: "sk".into(),
            partitions: vec!["SEASON#7".into()],
            ranked,
        };
        for sk in keys {
            let item = std::collections::HashMap::from([
                ("pk".to_owned(), AttributeValue::S("SEASON#7".into())),
                ("sk".to_owned(), AttributeValue::S(sk.clone())),
            ]);
            if board.ranked.digits(&sk).is_some() {
                sortkey_core::dynamodb::write_ranked(&dynamo, &board, "SEASON#7", None, Some(item)).await.unwrap();
            } else {
                dynamo.put_item().table_name("Runs").set_item(Some(item)).send().await.unwrap();
            }
        }
        // A hostile partition, in a table of its own: markup, a command, quotes, a bidirectional
        // override, a 1000-byte key.
        sortkey_test_server::create_table(&dynamo, "Hostile").await;
        for sk in hostile_keys() {
            let put = dynamo.put_item().table_name("Hostile").item("pk", AttributeValue::S("O'Brien $(id)".into()));
            put.item("sk", AttributeValue::S(sk)).send().await.unwrap();
        }
    });
    let dir = std::env::temp_dir().join(format!("sortkey-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("layouts.lock"), LOCK).unwrap();
    let mut serve = Command::new(assert_cmd::cargo::cargo_bin("sortkey"))
        .args(["--endpoint-url", &server.endpoint, "--lock"])
        .arg(dir.join("layouts.lock"))
        .args(["serve", "--port", "0", "--audit-dir"])
        .arg(dir.join("audits"))
        .env_remove("AWS_ACCESS_KEY_ID")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(serve.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let _serve = Killed(serve);
    let url = line.trim().strip_prefix("sortkey serve: ").unwrap().to_owned();
    let base = url.split("/?").next().unwrap().to_owned();
    runtime().block_on(drive(port, &url, &base));
}

async fn drive(port: u16, url: &str, base: &str) {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,1000",
    ];
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), serde_json::json!({ "binary": "/usr/bin/chromium", "args": args }));
    let mut browser = None;
    let started = Instant::now();
    while browser.is_none() {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let mut builder = ClientBuilder::new(connector);
        builder.capabilities(caps.clone());
        match builder.connect(&format!("http://127.0.0.1:{port}")).await {
            Ok(c) => browser = Some(c),
            Err(e) if started.elapsed() < Duration::from_secs(20) => {
                let _ = e;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("cannot start Chromium through chromedriver: {e}"),
        }
    }
    let c = browser.unwrap();
    let shot = |name: &'static str| {
        let c = c.clone();
        async move { std::fs::write(screenshots().join(name), c.screenshot().await.unwrap()).unwrap() }
    };
    // The printed URL: its token traded for the cookie, the overview.
    c.goto(url).await.unwrap();
    assert_eq!(c.current_url().await.unwrap().as_str(), format!("{base}/"));
    assert!(
        c.source().await.unwrap().contains("RankKey &gt; RankKeyV1")
            || c.find(Locator::Css("main")).await.unwrap().text().await.unwrap().contains("RankKey > RankKeyV1")
    );
    shot("overview.png").await;
    // Browse the partition: decoded, the key holding markup shown as text.
    c.goto(&format!("{base}/browse?table=Runs&pk=SEASON%237&limit=50")).await.unwrap();
    let main = c.find(Locator::Css("main")).await.unwrap().text().await.unwrap();
    assert!(main.contains("RUN#9999999999#p_0") && main.contains("<script>alert(1)</script>"), "{main}");
    assert!(main.contains("RankKeyV1"), "the old keys, read by their own layout: {main}");
    assert!(main.contains("older version of RankKey"), "flagged inline: {main}");
    assert!(main.contains("rank counters of RankKey.score"), "the counter items, named: {main}");
    assert!(!main.contains("found \"#RAN"), "no counter item shown as an unread key: {main}");
    shot("browse.png").await;
    // The rank box: a score typed and sent, the rank page answers from the counters.
    // p_i scored i * 1000: the eight of p_4..p_11 are ahead of a 3500. (The old layout's keys,
    // which the counters do not count, share no 6-digit bucket with it that sorts before it.)
    c.find(Locator::Css("#rank-box input[name=value]")).await.unwrap().send_keys("3500").await.unwrap();
    c.find(Locator::Css("#rank-box button")).await.unwrap().click().await.unwrap();
    let rank = c.wait().for_element(Locator::Css("#rank")).await.unwrap().text().await.unwrap();
    assert!(rank.starts_with("Rank 9 of RUN#9999996499"), "{rank}");
    shot("rank.png").await;
    // The builder: type a bound, see the expression and the matches change.
    c.goto(&format!("{base}/query?layout=RankKey&table=Runs&pk=SEASON%237")).await.unwrap();
    let before = c.find(Locator::Id("expression")).await.unwrap().text().await.unwrap();
    assert_eq!(before, "#pk = :pk AND begins_with(#sk, :sk0)");
    c.find(Locator::Css("select[name=op_score]")).await.unwrap().select_by_value(">=").await.unwrap();
    c.find(Locator::Id("v_score")).await.unwrap().send_keys("9000").await.unwrap();
    let started = Instant::now();
    loop {
        let now = c.find(Locator::Id("expression")).await.unwrap().text().await.unwrap();
        if now != before {
            assert_eq!(now, "#pk = :pk AND #sk BETWEEN :sk0 AND :sk1");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "the expression did not change as the bound was typed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let started = Instant::now();
    loop {
        let rows = c.find_all(Locator::Css("#matches tbody tr")).await.unwrap().len();
        // Scores >= 9000: p_9 to p_11 of the current layout and old_3 (9000) of the old one.
        if rows == 4 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "expected 4 matching rows, found {rows}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The footer's command follows the result (an out-of-band swap).
    let footer = c.find(Locator::Id("frame-command")).await.unwrap().text().await.unwrap();
    assert!(footer.contains("score>=9000"), "{footer}");
    shot("query.png").await;
    // The same matches two a page, by clicking each page's link to the next: the four rows once,
    // highest score first, then no link.
    c.goto(&format!("{base}/query?layout=RankKey&table=Runs&pk=SEASON%237&op_score=%3E%3D&v_score=9000&limit=2"))
        .await
        .unwrap();
    let mut paged = Vec::new();
    for n in 0..4 {
        for row in c.find_all(Locator::Css("#matches tbody tr td.key:nth-child(2)")).await.unwrap() {
            paged.push(row.text().await.unwrap());
        }
        let Ok(next) = c.find(Locator::LinkText("next page →")).await else { break };
        assert!(n < 3, "the pages do not end: {paged:?}");
        next.click().await.unwrap();
    }
    assert_eq!(
        paged,
        ["RUN#9999988999#p_11", "RUN#9999989999#p_10", "RUN#99990999#old_3", "RUN#9999990999#p_9"],
        "each match once, in the current layout's order (old_3's score ties p_9's: by player)"
    );
    c.goto(&format!("{base}/layouts")).await.unwrap();
    shot("layouts.png").await;
    // The lab on the table's keys: the score written 12 digits wide, without desc.
    c.goto(&format!("{base}/layouts?table=Runs&pk=SEASON%237&field=RankKey%3Ascore&new_width=12")).await.unwrap();
    let lab = c.find(Locator::Css("main")).await.unwrap().text().await.unwrap();
    assert!(lab.contains("RUN#{score:u64 width=12}#{player:text}") && lab.contains("12 change place"), "{lab}");
    shot("layouts-table.png").await;
    // The audit: a Scan started from the page runs to its end; the dashboard draws its bars.
    c.goto(&format!("{base}/audit")).await.unwrap();
    c.find(Locator::Css("#start-scan input[name=table]")).await.unwrap().send_keys("Runs").await.unwrap();
    c.find(Locator::Css("#start-scan button")).await.unwrap().click().await.unwrap();
    let started = Instant::now();
    loop {
        let status = match c.find(Locator::Id("scan-status")).await {
            Ok(e) => e.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        if status.starts_with("finished") {
            // 17 keys, and the 6 counter items of the runs' common path (a root and 5 nodes).
            assert!(status.contains("23 items read"), "{status}");
            break;
        }
        if started.elapsed() > Duration::from_secs(20) {
            let page = c.source().await.unwrap_or_default();
            panic!("the scan did not finish: {status}\n{}\n{page}", c.current_url().await.unwrap());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let audit = c.find(Locator::Css("main")).await.unwrap().text().await.unwrap();
    assert!(audit.contains("older version RankKeyV1 of RankKey"), "{audit}");
    assert!(!c.find_all(Locator::Css("svg rect")).await.unwrap().is_empty(), "the bars");
    // The header's read units follow the Scan as the page refreshes (an out-of-band swap).
    let units = c.find(Locator::Id("read-units")).await.unwrap().text().await.unwrap();
    let spent: f64 = units.split(' ').next().unwrap().parse().unwrap();
    assert!(spent > 0.0, "{units} after the Scan");
    shot("audit.png").await;
    // The hostile partition, two keys a page: every key shown as text, escaped where a browser
    // would act on it, the page no wider than the window, and each footer, read by a shell,
    // exactly the arguments of the page (the key a page starts after among them).
    let mut page = format!("{base}/browse?table=Hostile&pk=O%27Brien%20%24%28id%29&limit=2");
    let (mut afters, mut long_seen) = (Vec::new(), false);
    for n in 0..3 {
        c.goto(&page).await.unwrap();
        let width: serde_json::Value = c.execute("return document.documentElement.scrollWidth", vec![]).await.unwrap();
        assert!(width.as_u64().unwrap() <= 1280, "page {n} is {width} px wide");
        let html = c.source().await.unwrap();
        assert!(!html.contains('\u{202e}') && !html.contains("<b>bold</b>"), "page {n}: {html}");
        let footer = c.find(Locator::Id("frame-command")).await.unwrap().text().await.unwrap();
        let words = shlex::split(footer.trim_start_matches("$ ").split(" · ").next().unwrap()).unwrap();
        let at = |name: &str| words.iter().position(|w| w == name).map(|i| words[i + 1].clone());
        assert_eq!(at("--pk").as_deref(), Some("O'Brien $(id)"), "{footer}");
        afters.push(at("--after"));
        // The 1000-byte key shows shortened, the whole of it a hover away.
        if let Ok(span) = c.find(Locator::Css("span.long")).await {
            assert_eq!(span.attr("title").await.unwrap(), Some("K".repeat(1000)), "page {n}");
            long_seen = true;
        }
        shot(["hostile-1.png", "hostile-2.png", "hostile-3.png"][n]).await;
        let Ok(next) = c.find(Locator::LinkText("next page →")).await else { break };
        page = next.attr("href").await.unwrap().map(|h| format!("{base}{h}")).unwrap();
    }
    let mut sorted = hostile_keys();
    sorted.sort();
    assert_eq!(afters, [None, Some(sorted[1].clone()), Some(sorted[3].clone())], "the footers' --after");
    assert!(long_seen, "the long key, shortened");
    // The migration page, before any migration: read only, nothing to show yet.
    c.goto(&format!("{base}/migration?table=Runs&to=RankKey")).await.unwrap();
    let migration = c.find(Locator::Id("migration-state")).await.unwrap().text().await.unwrap();
    assert!(migration.starts_with("not started"), "{migration}");
    shot("migration.png").await;
    c.close().await.unwrap();
}

/// The keys of the hostile partition.
fn hostile_keys() -> Vec<String> {
    vec![
        "<b>bold</b>".to_owned(),
        "$(touch pwned)".to_owned(),
        "it's \"quoted\"".to_owned(),
        "p_\u{202e}exe.live".to_owned(),
        "K".repeat(1000),
        "a&b#c?d".to_owned(),
    ]
}
