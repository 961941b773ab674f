//! DynamoDB held in memory behind the real AWS SDK for Rust, for sortkey's tests: the SDK takes
//! its HTTP client from its config, so the library's own code, unchanged, talks to tables held
//! here. It answers the operations the project makes (CreateTable, DescribeTable, ListTables,
//! DeleteTable, PutItem, GetItem, UpdateItem, DeleteItem with condition expressions, Query with
//! key conditions, `Limit`, `ExclusiveStartKey`, both directions, 1 MB pages and global secondary
//! indexes, Scan with segments, BatchGetItem (its read units per key, found or not), TransactGetItems, BatchWriteItem, TransactWriteItems all or nothing
//! with cancellation reasons) and their `ConsumedCapacity`, with DynamoDB's errors.
//!
//! Where DynamoDB's behaviour is documented and moto's differs, this follows DynamoDB: a Query or
//! Scan that stops at its `Limit` returns a `LastEvaluatedKey` whether or not more items follow
//! (moto looks ahead and returns none at the end).
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let dynamo = sortkey_sim::MemoryDynamo::new();
//! let client = dynamo.client();
//! let tables = client.list_tables().send().await.unwrap();
//! assert!(tables.table_names().is_empty());
//! # });
//! ```

mod error;
mod expr;
mod http;
mod ops;
mod rng;
pub mod scenarios;
mod sim;
mod table;
mod trace;
mod value;

use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};

pub use error::DynamoError;
pub use rng::Rng;
pub use sim::{Applied, Bounded, Bounds, Faults, Sim};
pub use trace::Namer;

/// The seeds a simulation test runs: `SORTKEY_SIM_SEED=N` that one (a replay),
/// `SORTKEY_SIM_SEEDS=N` the first `N` (a soak), else the first `budget` (CI's).
pub fn seeds(budget: u64) -> Vec<u64> {
    if let Some(seed) = std::env::var("SORTKEY_SIM_SEED").ok().and_then(|s| s.parse().ok()) {
        return vec![seed];
    }
    let count = std::env::var("SORTKEY_SIM_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(budget);
    (0..count).collect()
}

/// Runs `run` for every seed of `seeds` on as many threads as the machine has cores (each run is
/// single-threaded and independent), and returns the first seed (the least) whose run failed,
/// with its failure; `None` when every run passed.
pub fn run_seeds<E: Send>(seeds: &[u64], run: impl Fn(u64) -> Result<(), E> + Sync) -> Option<(u64, E)> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(seeds.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&seed) = seeds.get(i) else { return };
                    if let Err(e) = run(seed) {
                        failures.lock().unwrap_or_else(|p| p.into_inner()).push((seed, e));
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap_or_else(|p| p.into_inner());
    failures.sort_by_key(|(seed, _)| *seed);
    failures.into_iter().next()
}

/// Shrinks a run that failed: runs `run` for each of `smaller` (smaller sizes of the same seed)
/// and returns the one that still fails with the shortest trace, with its failure and its
/// trace's length in lines; `None` when none fails (the failure needs the full size).
pub fn shrink<S: Copy>(smaller: &[S], run: impl Fn(S) -> (Result<(), String>, usize)) -> Option<(S, String, usize)> {
    smaller
        .iter()
        .filter_map(|&size| match run(size) {
            (Err(broken), length) => Some((size, broken, length)),
            (Ok(()), _) => None,
        })
        .min_by_key(|(_, _, length)| *length)
}

/// One DynamoDB in memory: its clients share its tables.
#[derive(Debug, Clone)]
pub struct MemoryDynamo {
    connector: http::Connector,
}

impl Default for MemoryDynamo {
    fn default() -> Self {
        MemoryDynamo::new()
    }
}

impl MemoryDynamo {
    /// An empty DynamoDB.
    pub fn new() -> Self {
        let (state, before) = (Arc::new(Mutex::new(ops::State::default())), Arc::new(Mutex::new(Vec::new())));
        let counted = Arc::new(Mutex::new(std::collections::BTreeMap::new()));
        MemoryDynamo { connector: http::Connector { state, before, counted } }
    }

    /// The requests answered so far of operation `op` (`TransactWriteItems`), or with `op`
    /// `"transaction actions"`, the actions of every transaction.
    pub fn counted(&self, op: &str) -> u64 {
        let counted = self.connector.counted.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        counted.get(op).copied().unwrap_or(0)
    }

    /// Applies the write `write` (an operation, `UpdateItem`) with `body` just before the next
    /// request of operation `op` arrives, as another client's write committed between two of a
    /// caller's requests: what a test of a race needs, deterministically.
    pub fn before_next(&self, op: &str, write: &str, body: serde_json::Value) {
        let mut before = self.connector.before.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        before.push((op.to_owned(), write.to_owned(), body));
    }

    /// The writes [`before_next`](Self::before_next) registered that no request has met yet.
    pub fn pending(&self) -> usize {
        self.connector.before.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).len()
    }

    /// A client of this DynamoDB: the real SDK's, with test credentials, its HTTP client this
    /// one, and no retries (a simulation decides what fails).
    pub fn client(&self) -> Client {
        let conf = aws_sdk_dynamodb::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new("us-east-1"))
            .credentials_provider(Credentials::new("test", "test", None, None, "sortkey-sim"))
            .endpoint_url("http://dynamodb.memory")
            .http_client(self.connector.clone())
            .retry_config(aws_sdk_dynamodb::config::retry::RetryConfig::disabled())
            .build();
        Client::from_conf(conf)
    }

    /// Answers one request as the service's wire format has it: the operation (`PutItem`) and
    /// its JSON body; the HTTP status and the answer's JSON.
    pub fn answer(&self, operation: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
        let target = format!("DynamoDB_20120810.{operation}");
        self.connector.answer(Some(&target), body.to_string().as_bytes())
    }

    /// [`answer`](Self::answer) of a request as the SDK sends it: its `X-Amz-Target` and its
    /// body, read as JSON.
    pub(crate) fn answer_json(&self, target: Option<&str>, body: &serde_json::Value) -> (u16, serde_json::Value) {
        self.connector.answer_json(target, body)
    }
}
