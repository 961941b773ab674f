//! `sortkey audit` against a plain parallel Scan that only counts items, on the same moto
//! server in the same run: items per second of each, so that decoding is never what limits an
//! audit (the target: at least 0.8x the plain Scan's rate).
//!
//! And `sortkey audit --export` against reading the same export by hand (gunzip, parse each
//! line's JSON, count the items with a string sort key), in one thread as a script would.
//!
//! `cargo bench -p sortkey-cli --features moto --bench audit_scan` seeds a table of
//! `SORTKEY_BENCH_ITEMS` items (20 000 by default) and times each side five times, alternating,
//! with the same segments and the same projection (the two key attributes); it prints the median
//! of each. Criterion is not used: one measurement is seconds of a server's work, not a
//! microbenchmark.

use std::collections::HashMap;
use std::process::Command;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use sortkey_test_server::{Server, client};

const SEGMENTS: i32 = 4;
const RUNS: usize = 5;
const LOCK: &str = "CustomerPk = partition CUST#{customer_id:u32 width=6}\n\
                    RankKey = RUN#{score:u64 width=12 desc}#{player:text}\n";

fn main() {
    let items: usize = std::env::var("SORTKEY_BENCH_ITEMS").ok().and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let Some(server) = Server::start() else {
        eprintln!("audit_scan: SKIPPED, no moto_server (see tests/requirements-dynamodb.txt)");
        return;
    };
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let client = client(&server.endpoint);
    runtime.block_on(seed(&client, items));
    let lock = std::env::temp_dir().join(format!("sortkey-bench-{}.lock", std::process::id()));
    std::fs::write(&lock, LOCK).expect("a lock file");

    let (mut audits, mut scans) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let started = Instant::now();
        let status = Command::new(env!("CARGO_BIN_EXE_sortkey"))
            .args(["--endpoint-url", &server.endpoint, "--lock"])
            .arg(&lock)
            .args(["audit", "--table", "Bench", "--segments", &SEGMENTS.to_string(), "-o", "json"])
            .stdout(std::process::Stdio::null())
            .status()
            .expect("sortkey runs");
        assert!(status.code() == Some(0), "the audit of a clean table exits 0");
        audits.push(started.elapsed());
        let started = Instant::now();
        let counted = runtime.block_on(count(&client));
        assert_eq!(counted, items as u64);
        scans.push(started.elapsed());
    }
    let rate = |mut times: Vec<Duration>| {
        times.sort();
        items as f64 / times[times.len() / 2].as_secs_f64()
    };
    let (audit, scan) = (rate(audits), rate(scans));
    println!("items: {items}, segments: {SEGMENTS}, median of {RUNS} runs each");
    println!("plain parallel Scan, counting: {scan:>10.0} items/s");
    println!("sortkey audit (whole process): {audit:>10.0} items/s");
    println!("ratio: {:.2}x", audit / scan);

    // An export of the same items: four gzip files of DynamoDB JSON lines.
    let export = std::env::temp_dir().join(format!("sortkey-bench-export-{}", std::process::id()));
    write_export(&export, items);
    let (mut audits, mut reads) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let started = Instant::now();
        let status = Command::new(env!("CARGO_BIN_EXE_sortkey"))
            .arg("--lock")
            .arg(&lock)
            .args(["audit", "--export"])
            .arg(&export)
            .args(["--pk", "pk", "--sk", "sk", "-o", "json"])
            .stdout(std::process::Stdio::null())
            .status()
            .expect("sortkey runs");
        assert!(status.code() == Some(0), "the audit of a clean export exits 0");
        audits.push(started.elapsed());
        let started = Instant::now();
        assert_eq!(read_export(&export), items as u64);
        reads.push(started.elapsed());
    }
    let (audit, read) = (rate(audits), rate(reads));
    println!("export read by hand, counting:   {read:>10.0} items/s");
    println!("sortkey audit --export:          {audit:>10.0} items/s");
    println!("ratio: {:.2}x", audit / read);
    std::fs::remove_dir_all(&export).expect("the export removed");
}

/// Writes `items` items as an export in DynamoDB JSON: `data/*.json.gz`, four files.
fn write_export(dir: &std::path::Path, items: usize) {
    use std::io::Write;
    let data = dir.join("data");
    std::fs::create_dir_all(&data).expect("the export folder");
    let per_file = items.div_ceil(4);
    for (n, chunk) in (0..items).collect::<Vec<_>>().chunks(per_file).enumerate() {
        let file = std::fs::File::create(data.join(format!("part-{n}.json.gz"))).expect("a data file");
        let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
        for &i in chunk {
            let line = serde_json::json!({ "Item": {
                "pk": { "S": format!("CUST#{:06}", i % 1000) },
                "sk": { "S": format!("RUN#{:012}#p_{i}", 999_999_999_999 - i as u64) },
                "payload": { "S": "x".repeat(200) },
            }});
            writeln!(gz, "{line}").expect("a line");
        }
        gz.finish().expect("a gzip file");
    }
}

/// The hand-written alternative: every data file gunzipped, every line parsed, the items with a
/// string sort key counted.
fn read_export(dir: &std::path::Path) -> u64 {
    use std::io::BufRead;
    let mut counted = 0;
    for entry in std::fs::read_dir(dir.join("data")).expect("the data folder") {
        let file = std::fs::File::open(entry.expect("an entry").path()).expect("a data file");
        for line in std::io::BufReader::new(flate2::read::MultiGzDecoder::new(file)).lines() {
            let doc: serde_json::Value = serde_json::from_str(&line.expect("a line")).expect("JSON");
            counted += u64::from(doc["Item"]["sk"]["S"].is_string());
        }
    }
    counted
}

/// A table `Bench` of `items` items whose keys the lock reads.
async fn seed(client: &Client, items: usize) {
    sortkey_test_server::create_table(client, "Bench").await;
    let all: Vec<usize> = (0..items).collect();
    for chunk in all.chunks(25) {
        let writes = chunk.iter().map(|&i| {
            let item = HashMap::from([
                ("pk".to_owned(), AttributeValue::S(format!("CUST#{:06}", i % 1000))),
                ("sk".to_owned(), AttributeValue::S(format!("RUN#{:012}#p_{i}", 999_999_999_999 - i as u64))),
                ("payload".to_owned(), AttributeValue::S("x".repeat(200))),
            ]);
            WriteRequest::builder().put_request(PutRequest::builder().set_item(Some(item)).build().unwrap()).build()
        });
        client.batch_write_item().request_items("Bench", writes.collect()).send().await.expect("seeded");
    }
}

/// The baseline: every segment scanned side by side with the audit's projection, items counted.
async fn count(client: &Client) -> u64 {
    let segments = (0..SEGMENTS).map(|segment| {
        let client = client.clone();
        tokio::spawn(async move {
            let (mut counted, mut start) = (0u64, None);
            loop {
                let page = client
                    .scan()
                    .table_name("Bench")
                    .segment(segment)
                    .total_segments(SEGMENTS)
                    .projection_expression("#k0, #k1")
                    .expression_attribute_names("#k0", "pk")
                    .expression_attribute_names("#k1", "sk")
                    .set_exclusive_start_key(start.take())
                    .send()
                    .await
                    .expect("a page");
                counted += page.items().len() as u64;
                start = page.last_evaluated_key().filter(|k| !k.is_empty()).cloned();
                if start.is_none() {
                    return counted;
                }
            }
        })
    });
    let mut total = 0;
    for segment in segments.collect::<Vec<_>>() {
        total += segment.await.expect("a segment");
    }
    total
}
