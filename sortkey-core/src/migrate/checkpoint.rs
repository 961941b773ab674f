//! Where a backfill worker keeps its place: a [`Checkpoint`] saves a segment's cursor and totals
//! after every page, so a worker that dies resumes where it saved, and (in a table) leases the
//! segment, so that two workers never run one segment and a dead worker's segment is taken over
//! once its lease expires, as the Kinesis Client Library's lease table does.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::sdk_error_line;
use crate::migrate::progress::{Progress, SegmentCursor};
use crate::table::item::KeyNames;

/// Why a checkpoint could not be loaded or saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckpointError {
    /// Another worker holds the segment's lease until `until` (milliseconds since the Unix
    /// epoch): this worker must not run it (or, on a save, has lost it and must stop).
    Taken {
        /// The segment.
        segment: i32,
        /// The worker that holds it.
        owner: String,
        /// When its lease expires.
        until: u64,
    },
    /// The checkpoint could not be read or written: what went wrong, in one line.
    Store(String),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Taken { segment, owner, until } => write!(
                f,
                "segment {segment} is leased to worker `{owner}` until {until} ms since the epoch; expected it free, \
                 or held by this worker"
            ),
            CheckpointError::Store(m) => write!(f, "checkpoint: {m}"),
        }
    }
}

impl std::error::Error for CheckpointError {}

/// A place to keep a segment's cursor and totals between pages and runs.
pub trait Checkpoint {
    /// The cursor and totals saved for segment `segment` of `total` (its start and zero when
    /// nothing was saved), taking the segment for this worker where the checkpoint leases.
    fn load(
        &mut self,
        segment: i32,
        total: i32,
    ) -> impl Future<Output = Result<(SegmentCursor, Progress), CheckpointError>> + Send;

    /// Saves the cursor and totals after a page (renewing a lease).
    fn save(
        &mut self,
        cursor: &SegmentCursor,
        progress: &Progress,
    ) -> impl Future<Output = Result<(), CheckpointError>> + Send;
}

/// What a checkpoint holds of one segment, read without taking it: where it stands, what it did,
/// and who holds it (a table's checkpoints lease their segments).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentState {
    /// Where the segment stands.
    pub cursor: SegmentCursor,
    /// What it did so far.
    pub progress: Progress,
    /// The segment's lease, in a table; `None` in files, which lease nothing.
    pub lease: Option<Lease>,
}

/// A worker's hold on a segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    /// The worker's name.
    pub owner: String,
    /// When the lease ends unless renewed, in milliseconds since the Unix epoch.
    pub until: u64,
}

impl Lease {
    /// Whether the lease still holds at `now` (milliseconds since the Unix epoch).
    pub fn holds_at(&self, now: u64) -> bool {
        self.until >= now
    }
}

/// The cursor and totals of one segment, as a checkpoint stores them.
#[derive(serde::Serialize, serde::Deserialize)]
struct Saved {
    cursor: SegmentCursor,
    progress: Progress,
}

/// A checkpoint in a JSON file per segment (`<dir>/segment-<n>-of-<total>.json`), written to a
/// temporary file and renamed, so that a worker killed mid-write leaves the previous save. No
/// lease: one worker per segment is the caller's to arrange (a job index per worker).
#[derive(Debug, Clone)]
pub struct FileCheckpoint {
    dir: PathBuf,
    path: Option<PathBuf>,
}

impl FileCheckpoint {
    /// Checkpoints in the directory `dir`, which must exist.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        FileCheckpoint { dir: dir.into(), path: None }
    }

    /// Every segment saved in the directory, by segment (none when it does not exist): what a
    /// view of a running backfill reads.
    pub fn segments(&self) -> Result<Vec<SegmentState>, CheckpointError> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(CheckpointError::Store(format!("{}: {e}", self.dir.display()))),
        };
        let mut segments = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !(name.starts_with("segment-") && name.ends_with(".json")) {
                continue;
            }
            let path = entry.path();
            let text = std::fs::read_to_string(&path)
                .map_err(|e| CheckpointError::Store(format!("{}: {e}", path.display())))?;
            let saved: Saved =
                serde_json::from_str(&text).map_err(|e| CheckpointError::Store(format!("{}: {e}", path.display())))?;
            segments.push(SegmentState { cursor: saved.cursor, progress: saved.progress, lease: None });
        }
        segments.sort_by_key(|s| (s.cursor.total, s.cursor.segment));
        Ok(segments)
    }
}

impl Checkpoint for FileCheckpoint {
    async fn load(&mut self, segment: i32, total: i32) -> Result<(SegmentCursor, Progress), CheckpointError> {
        let path = self.dir.join(format!("segment-{segment}-of-{total}.json"));
        self.path = Some(path.clone());
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let saved: Saved = serde_json::from_str(&text)
                    .map_err(|e| CheckpointError::Store(format!("{}: {e}", path.display())))?;
                Ok((saved.cursor, saved.progress))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Ok((SegmentCursor::start(segment, total), Progress::default()))
            }
            Err(e) => Err(CheckpointError::Store(format!("{}: {e}", path.display()))),
        }
    }

    async fn save(&mut self, cursor: &SegmentCursor, progress: &Progress) -> Result<(), CheckpointError> {
        let path = self
            .path
            .clone()
            .unwrap_or_else(|| self.dir.join(format!("segment-{}-of-{}.json", cursor.segment, cursor.total)));
        let text = serde_json::to_string(&Saved { cursor: cursor.clone(), progress: *progress })
            .map_err(|e| CheckpointError::Store(e.to_string()))?;
        let temporary = path.with_extension("json.tmp");
        let store = |e: std::io::Error| CheckpointError::Store(format!("{}: {e}", path.display()));
        std::fs::write(&temporary, text).map_err(store)?;
        std::fs::rename(&temporary, &path).map_err(store)
    }
}

/// A checkpoint in an item of a DynamoDB table (the backfilled table itself, or one of its own),
/// one item per segment under the partition `BACKFILL#<name>`, which is also the segment's lease:
/// `load` takes it only when it is free, this worker's, or expired; every `save` renews it on the
/// condition that this worker still holds it. A worker that dies stops renewing, and another
/// takes the segment over after `lease`, from the last cursor saved. Leases are measured by the
/// client's clock: its config's time source, the system's unless the client was given another.
#[derive(Debug, Clone)]
pub struct TableCheckpoint {
    client: Client,
    table: String,
    keys: KeyNames,
    name: String,
    owner: String,
    lease: Duration,
    segment: Option<(i32, i32)>,
}

impl TableCheckpoint {
    /// Checkpoints of the backfill `name` in `table` (whose key attributes are `keys`, a
    /// partition and a sort key of type `S`), for the worker `owner`, each lease lasting `lease`
    /// from the last save.
    pub fn new(client: Client, table: &str, keys: KeyNames, name: &str, owner: &str, lease: Duration) -> Self {
        let (table, name, owner) = (table.to_owned(), name.to_owned(), owner.to_owned());
        TableCheckpoint { client, table, keys, name, owner, lease, segment: None }
    }

    /// The key of the segment's item.
    fn key(&self, segment: i32, total: i32) -> HashMap<String, AttributeValue> {
        let mut key =
            HashMap::from([(self.keys.partition().to_owned(), AttributeValue::S(format!("BACKFILL#{}", self.name)))]);
        if let Some(sort) = self.keys.sort() {
            key.insert(sort.to_owned(), AttributeValue::S(format!("SEGMENT#{segment:06}#OF#{total:06}")));
        }
        key
    }

    /// What is saved for segment `segment` of `total`, read without taking its lease: `None`
    /// when nothing is (no worker has saved a page of it).
    pub async fn saved(&self, segment: i32, total: i32) -> Result<Option<(SegmentCursor, Progress)>, CheckpointError> {
        let got = self.client.get_item().table_name(&self.table).set_key(Some(self.key(segment, total)));
        let out = got
            .consistent_read(true)
            .send()
            .await
            .map_err(|e| CheckpointError::Store(format!("GetItem failed: {}", sdk_error_line(&e))))?;
        let Some(text) = out.item().and_then(|item| item.get("saved")).and_then(|v| v.as_s().ok()) else {
            return Ok(None);
        };
        let saved: Saved = serde_json::from_str(text).map_err(|e| CheckpointError::Store(e.to_string()))?;
        Ok(Some((saved.cursor, saved.progress)))
    }

    /// Every segment saved under the backfill's name, by segment, with its lease, read without
    /// taking any (one consistent Query); and the read units it spent. What a view of a running
    /// backfill reads.
    pub async fn segments(&self) -> Result<(Vec<SegmentState>, f64), CheckpointError> {
        let (mut segments, mut units, mut start) = (Vec::new(), 0.0, None);
        loop {
            let page = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("#pk = :pk")
                .expression_attribute_names("#pk", self.keys.partition())
                .expression_attribute_values(":pk", AttributeValue::S(format!("BACKFILL#{}", self.name)))
                .consistent_read(true)
                .return_consumed_capacity(aws_sdk_dynamodb::types::ReturnConsumedCapacity::Total)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(|e| CheckpointError::Store(format!("Query failed: {}", sdk_error_line(&e))))?;
            units += page.consumed_capacity().and_then(|c| c.capacity_units()).unwrap_or_default();
            for item in page.items() {
                let Some(text) = item.get("saved").and_then(|v| v.as_s().ok()) else { continue };
                let saved: Saved = serde_json::from_str(text).map_err(|e| CheckpointError::Store(e.to_string()))?;
                let owner = item.get("owner").and_then(|v| v.as_s().ok()).cloned();
                let until = item.get("lease_until").and_then(|v| v.as_n().ok()).and_then(|n| n.parse().ok());
                let lease = owner.map(|owner| Lease { owner, until: until.unwrap_or(0) });
                segments.push(SegmentState { cursor: saved.cursor, progress: saved.progress, lease });
            }
            start = page.last_evaluated_key().filter(|k| !k.is_empty()).cloned();
            if start.is_none() {
                break;
            }
        }
        segments.sort_by_key(|s| (s.cursor.total, s.cursor.segment));
        Ok((segments, units))
    }

    /// The lease's end, from now.
    fn until(&self) -> u64 {
        self.now_ms() + self.lease.as_millis() as u64
    }

    /// Milliseconds since the Unix epoch by the client's clock (its config's time source, the
    /// system's by default): what leases are measured in, so that a client given another clock
    /// (a simulation's) keeps its leases by it.
    fn now_ms(&self) -> u64 {
        let now = self.client.config().time_source().map_or_else(SystemTime::now, |clock| clock.now());
        now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
    }

    /// The holder of `segment` according to its item, when the condition on it failed.
    async fn holder(&self, segment: i32, total: i32) -> CheckpointError {
        let got = self.client.get_item().table_name(&self.table).set_key(Some(self.key(segment, total)));
        let item = got.consistent_read(true).send().await.ok().and_then(|o| o.item().cloned()).unwrap_or_default();
        let owner = item.get("owner").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
        let until = item.get("lease_until").and_then(|v| v.as_n().ok()).and_then(|n| n.parse().ok()).unwrap_or(0);
        CheckpointError::Taken { segment, owner, until }
    }
}

impl Checkpoint for TableCheckpoint {
    async fn load(&mut self, segment: i32, total: i32) -> Result<(SegmentCursor, Progress), CheckpointError> {
        let mut take = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(self.key(segment, total)))
            .update_expression("SET #owner = :me, lease_until = :until")
            .expression_attribute_names("#owner", "owner")
            .expression_attribute_values(":me", AttributeValue::S(self.owner.clone()))
            .expression_attribute_values(":until", AttributeValue::N(self.until().to_string()))
            .return_values(if planted_bug!(LeaseLoadUpdatedNew) {
                aws_sdk_dynamodb::types::ReturnValue::UpdatedNew
            } else {
                aws_sdk_dynamodb::types::ReturnValue::AllNew
            });
        if !planted_bug!(LeaseWithoutOwner) {
            let now = if planted_bug!(LeaseNowIsExpiry) { self.until() } else { self.now_ms() };
            take = take
                .condition_expression("attribute_not_exists(#owner) OR #owner = :me OR lease_until < :now")
                .expression_attribute_values(":now", AttributeValue::N(now.to_string()));
        }
        let taken = take.send().await;
        let item = match taken {
            Ok(out) => out.attributes().cloned().unwrap_or_default(),
            Err(e) if e.as_service_error().is_some_and(|s| s.is_conditional_check_failed_exception()) => {
                return Err(self.holder(segment, total).await);
            }
            Err(e) => return Err(CheckpointError::Store(format!("UpdateItem failed: {}", sdk_error_line(&e)))),
        };
        self.segment = Some((segment, total));
        match item.get("saved").and_then(|v| v.as_s().ok()) {
            Some(text) => {
                let saved: Saved = serde_json::from_str(text).map_err(|e| CheckpointError::Store(e.to_string()))?;
                Ok((saved.cursor, saved.progress))
            }
            None => Ok((SegmentCursor::start(segment, total), Progress::default())),
        }
    }

    async fn save(&mut self, cursor: &SegmentCursor, progress: &Progress) -> Result<(), CheckpointError> {
        let text = serde_json::to_string(&Saved { cursor: cursor.clone(), progress: *progress })
            .map_err(|e| CheckpointError::Store(e.to_string()))?;
        let mut save = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(self.key(cursor.segment, cursor.total)))
            .update_expression("SET saved = :saved, lease_until = :until")
            .expression_attribute_values(":saved", AttributeValue::S(text))
            .expression_attribute_values(":until", AttributeValue::N(self.until().to_string()));
        if !planted_bug!(LeaseWithoutOwner) {
            save = save
                .condition_expression("#owner = :me")
                .expression_attribute_names("#owner", "owner")
                .expression_attribute_values(":me", AttributeValue::S(self.owner.clone()));
        }
        let saved = save.send().await;
        match saved {
            Ok(_) => Ok(()),
            Err(e) if e.as_service_error().is_some_and(|s| s.is_conditional_check_failed_exception()) => {
                Err(self.holder(cursor.segment, cursor.total).await)
            }
            Err(e) => Err(CheckpointError::Store(format!("UpdateItem failed: {}", sdk_error_line(&e)))),
        }
    }
}

/// The index of this worker among the workers of a job, from the environment of the two job
/// runners that give one: `JOB_COMPLETION_INDEX` (a Kubernetes Indexed Job) or
/// `AWS_BATCH_JOB_ARRAY_INDEX` (an AWS Batch array job); `None` when neither is set, and an
/// error naming the variable when it is no index.
pub fn worker_index() -> Result<Option<i32>, CheckpointError> {
    for name in ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"] {
        if let Ok(value) = std::env::var(name) {
            return match value.parse::<i32>() {
                Ok(index) if index >= 0 => Ok(Some(index)),
                _ => Err(CheckpointError::Store(format!("{name} is {value:?}; expected a worker index, 0 or more"))),
            };
        }
    }
    Ok(None)
}
