//! `sortkey audit --export` against the floor and against what an analyst would write instead,
//! on the same files in the same run:
//!
//! - the floor: `zcat` of the data files, as many at a time as there are cores (decompression
//!   alone, nothing parsed);
//! - DuckDB's `read_json` of the same files with two `regexp_full_match` counts and a `max`
//!   (no mixed widths, no headroom, no errors: a fraction of the audit's work), timed inside
//!   Python around the query alone;
//! - the whole `sortkey audit --export` process (release build).
//!
//! `cargo bench -p sortkey-cli --bench export_audit` writes a seeded export of
//! `SORTKEY_BENCH_ITEMS` items (1,000,000 by default) in 8 gzip files of DynamoDB JSON, seven
//! attributes an item (90 % current keys, 9 % of an older width, 1 % unpadded), under
//! target/export-bench (kept for the next run), and prints the median wall time of `RUNS` runs
//! of each, taken in turn. DuckDB comes from `SORTKEY_BENCH_PYTHON` (tests/.venv/bin/python by
//! default) with `pip install duckdb`; without it that line says so.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const FILES: usize = 8;
const RUNS: usize = 7;
const LOCK: &str = "RankKey = RUN#{score:u64 width=12 desc}#{player:text}\n";

fn main() {
    let items: usize = std::env::var("SORTKEY_BENCH_ITEMS").ok().and_then(|n| n.parse().ok()).unwrap_or(1_000_000);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../target/export-bench/{items}"));
    let export = root.join("export");
    if !export.join("data").exists() {
        write_export(&export, items);
    }
    let lock = root.join("layouts.lock");
    std::fs::write(&lock, LOCK).expect("a lock file");
    let files: Vec<PathBuf> = {
        let mut files: Vec<PathBuf> = std::fs::read_dir(export.join("data"))
            .expect("the data folder")
            .map(|e| e.expect("an entry").path())
            .collect();
        files.sort();
        files
    };
    let compressed: u64 = files.iter().map(|f| std::fs::metadata(f).expect("a file").len()).sum();
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let python = std::env::var("SORTKEY_BENCH_PYTHON").unwrap_or_else(|_| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/.venv/bin/python").display().to_string()
    });
    let duckdb_ready =
        Command::new(&python).args(["-c", "import duckdb"]).stderr(Stdio::null()).status().is_ok_and(|s| s.success());

    let (mut floor, mut duck, mut audit) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RUNS {
        floor.push(zcat(&files, cores));
        if duckdb_ready {
            duck.push(duckdb(&python, &export));
        }
        audit.push(sortkey(&lock, &export));
    }
    println!("{items} items, {FILES} files, {:.1} MB compressed, {cores} cores, median of {RUNS} runs", mb(compressed));
    let floor = median(floor);
    println!("zcat, {cores} files at a time (the floor)  {:>7.3} s", floor.as_secs_f64());
    if duckdb_ready {
        let duck = median(duck);
        println!("DuckDB read_json, 2 regexp counts + max  {:>7.3} s", duck.as_secs_f64());
    } else {
        println!("DuckDB: not measured ({python} -m pip install duckdb)");
    }
    let audit = median(audit);
    println!("sortkey audit --export, whole process     {:>7.3} s", audit.as_secs_f64());
    println!("sortkey / floor: {:.2}x", audit.as_secs_f64() / floor.as_secs_f64());
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Decompression alone: `zcat` of each file, `cores` at a time, the output thrown away.
fn zcat(files: &[PathBuf], cores: usize) -> Duration {
    let started = Instant::now();
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("printf '%s\\n' \"$@\" | xargs -P{cores} -n1 zcat > /dev/null"))
        .arg("zcat")
        .args(files)
        .status()
        .expect("sh runs");
    assert!(status.success(), "zcat failed");
    started.elapsed()
}

/// What an analyst would write: the sort keys of each width counted, the largest score taken.
fn duckdb(python: &str, export: &Path) -> Duration {
    let script = r#"
import sys, time, duckdb
files = sys.argv[1] + "/data/*.json.gz"
started = time.perf_counter()
row = duckdb.sql(f"""
SELECT count(*) FILTER (WHERE regexp_full_match(Item.sk.S, 'RUN#[0-9]{{12}}#.*')) AS current,
       count(*) FILTER (WHERE regexp_full_match(Item.sk.S, 'RUN#[0-9]{{10}}#.*')) AS older,
       max(CAST(Item.score.N AS BIGINT)) AS top
FROM read_json('{files}', format = 'newline_delimited', compression = 'gzip')
""").fetchall()
print(time.perf_counter() - started, row)
"#;
    let out = Command::new(python).args(["-c", script]).arg(export).output().expect("python runs");
    assert!(out.status.success(), "duckdb failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let seconds: f64 = text.split_whitespace().next().and_then(|s| s.parse().ok()).expect("the query's time");
    Duration::from_secs_f64(seconds)
}

/// The whole `sortkey audit --export` process.
fn sortkey(lock: &Path, export: &Path) -> Duration {
    let started = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_sortkey"))
        .arg("--lock")
        .arg(lock)
        .args(["audit", "--export"])
        .arg(export)
        .args(["--pk", "pk", "--sk", "sk", "-o", "json"])
        .stdout(Stdio::null())
        .status()
        .expect("sortkey runs");
    assert_eq!(status.code(), Some(1), "the export has mixed widths and unpadded keys: findings, exit 1");
    started.elapsed()
}

/// A seeded export of `items` items in `FILES` gzip files of DynamoDB JSON lines, seven
/// attributes an item: 90 % current keys (12 digits), 9 % of an older width (10), 1 % unpadded.
fn write_export(dir: &Path, items: usize) {
    let data = dir.join("data");
    std::fs::create_dir_all(&data).expect("the export folder");
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        // xorshift64*
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        seed.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let per_file = items.div_ceil(FILES);
    for n in 0..FILES {
        let file = std::fs::File::create(data.join(format!("{n:04}-export.json.gz"))).expect("a data file");
        let mut gz = std::io::BufWriter::new(flate2::write::GzEncoder::new(file, flate2::Compression::default()));
        for i in n * per_file..((n + 1) * per_file).min(items) {
            let r = next();
            let score = r % 1_000_000_000;
            let sk = match r % 100 {
                0 => format!("RUN#{score}#p_{i}"),
                1..=9 => format!("RUN#{:010}#p_{i}", 9_999_999_999 - score),
                _ => format!("RUN#{:012}#p_{i}", 999_999_999_999 - score),
            };
            let season = r >> 40;
            writeln!(
                gz,
                r#"{{"Item":{{"pk":{{"S":"SEASON#{:04}"}},"sk":{{"S":"{sk}"}},"score":{{"N":"{score}"}},"player":{{"S":"p_{i}"}},"at":{{"N":"{}"}},"region":{{"S":"eu-west-{}"}},"note":{{"S":"a run of the season, kept for the leaderboard"}}}}}}"#,
                season % 1000,
                1_719_100_800 + (r >> 20) % 10_000_000,
                r % 3
            )
            .expect("a line");
        }
        gz.into_inner().map_err(|e| e.into_error()).expect("flushed").finish().expect("a gzip file");
    }
}
