//! One backfill worker of a job, as a process, for the multi-machine test of tests/dynamodb.rs:
//! its segment from `JOB_COMPLETION_INDEX`, its place in a lease table, its share of the rate.
//!
//! `backfill-worker <endpoint> <table> <segments> <items per second>`; exits 0 when its segment
//! is done, 3 when another worker holds the segment's lease (to be restarted later), 1 on any
//! other error.

use std::time::Duration;

use sortkey_core::KeyNames;
use sortkey_core::dynamodb::{Backfill, BackfillErrorKind, CheckpointError, TableCheckpoint};
use sortkey_tests::leaderboard::RankKey;
use sortkey_tests::server::{client, runtime};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, endpoint, table, segments, rate] = args.as_slice() else {
        eprintln!("usage: backfill-worker <endpoint> <table> <segments> <items per second>");
        std::process::exit(2);
    };
    let (segments, rate): (i32, f64) = (segments.parse().expect("segments"), rate.parse().expect("rate"));
    let client = client(endpoint);
    let owner = format!("worker-{}", std::process::id());
    let mut lease = TableCheckpoint::new(
        client.clone(),
        "leases",
        KeyNames::DEFAULT,
        "rank-v2",
        &owner,
        Duration::from_millis(800),
    );
    let backfill = Backfill::new(&client, table, KeyNames::DEFAULT)
        .version_attribute("rev")
        .page_size(4)
        .rate_share(rate, segments);
    match runtime().block_on(backfill.run_worker::<RankKey, _>(segments, &mut lease)) {
        Ok((cursor, done)) => println!("{} done: {done:?}", cursor.segment),
        Err(e) if matches!(e.kind(), BackfillErrorKind::Checkpoint(CheckpointError::Taken { .. })) => {
            eprintln!("{e}");
            std::process::exit(3);
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
