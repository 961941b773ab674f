//! A backfill that rewrites the items of a table written in an older key layout under their
//! current keys (feature `dynamodb`): idempotent, resumable from a cursor, rate-limited, safe
//! against concurrent writers, and split over parallel Scan segments, so that several tasks,
//! processes or machines share one table, each owning its segments.

use std::collections::HashMap;
use std::fmt;
use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{AttributeValue, Delete, KeysAndAttributes, Put, TransactWriteItem};

use crate::error::sdk_error_line;
use crate::migrate::checkpoint::{Checkpoint, CheckpointError, worker_index};
use crate::migrate::counters::{CounterTable, MoveCounts};
use crate::migrate::legacy::Legacy;
pub use crate::migrate::progress::{Progress, SegmentCursor};
use crate::migrate::rate::RateShare;
use crate::migrate::rekey::{Rekey, Rekeyed, ToCurrent};
use crate::migrate::size::item_size;
use crate::table::item::KeyNames;
use crate::table::rank::RankedField;

/// An item or key as the SDK gives it.
type Attributes = HashMap<String, AttributeValue>;

/// What went wrong in a backfill, to match on: retry after `Throttled`, fix the data after
/// `Decode`, and so on.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BackfillErrorKind {
    /// DynamoDB throttled a request beyond the SDK's retries (`ProvisionedThroughputExceeded`,
    /// `RequestLimitExceeded`, `ThrottlingException`), or left keys unprocessed ten times.
    Throttled,
    /// A condition failed where the backfill expects none to.
    ConditionalCheck,
    /// A transaction was cancelled for another reason than a failed condition: the reasons'
    /// codes, one per action (`"None"` for those that passed).
    Cancelled {
        /// The cancellation reasons' codes.
        reasons: Vec<String>,
    },
    /// An item the backfill cannot move: no string sort key, no partition key, a sort key in no
    /// known layout, or one whose value has no current key.
    Decode,
    /// The backfill cannot run as configured: no [`MoveCheck`] was chosen, or the table has no
    /// sort key.
    Config,
    /// The checkpoint could not be read or written, or another worker holds the segment.
    Checkpoint(CheckpointError),
    /// Any other failure of a request: the operation and, when the server answered, its error
    /// code.
    Server {
        /// The DynamoDB operation, such as `"Scan"`.
        operation: &'static str,
        /// The server's error code, such as `"ResourceNotFoundException"`.
        code: Option<String>,
    },
}

/// An error of a backfill: what kind it is, what happened in one line (naming the table, the
/// segment and, where there is one, the item's key), and where to resume; the SDK's error, with
/// the server's raw response, stays reachable as the [`source`](std::error::Error::source).
#[derive(Debug)]
pub struct BackfillError {
    kind: BackfillErrorKind,
    message: String,
    table: String,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
    /// The cursor to resume from: what was done before the error is done.
    pub cursor: SegmentCursor,
}

impl BackfillError {
    /// What kind of error it is.
    pub fn kind(&self) -> &BackfillErrorKind {
        &self.kind
    }

    /// The table the backfill runs on.
    pub fn table(&self) -> &str {
        &self.table
    }
}

impl fmt::Display for BackfillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "backfill of table `{}`, segment {} of {}: {}",
            self.table, self.cursor.segment, self.cursor.total, self.message
        )
    }
}

impl std::error::Error for BackfillError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// A failure inside a segment's run, before the table and the cursor are attached.
#[derive(Debug)]
pub(super) struct Failure {
    pub(super) kind: BackfillErrorKind,
    pub(super) message: String,
    pub(super) source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl Failure {
    /// An item the backfill cannot move.
    pub(super) fn decode(message: String) -> Failure {
        Failure { kind: BackfillErrorKind::Decode, message, source: None }
    }

    /// A transaction cancelled for another reason than a failed condition (a conflict with
    /// another transaction, throttling, a validation error), which says nothing about the item;
    /// `None` when every reason is a failed condition or none.
    fn cancelled(reasons: &[String]) -> Option<Failure> {
        let other = |r: &&String| !matches!(r.as_str(), "None" | "ConditionalCheckFailed" | "");
        reasons.iter().find(other)?;
        let kind = match reasons.iter().any(|r| r == "ThrottlingError") {
            true => BackfillErrorKind::Throttled,
            false => BackfillErrorKind::Cancelled { reasons: reasons.to_vec() },
        };
        let message = format!("TransactWriteItems was cancelled: {}", reasons.join(", "));
        Some(Failure { kind, message, source: None })
    }

    /// A request that could not be built.
    pub(super) fn build(operation: &'static str, e: impl fmt::Display) -> Failure {
        let kind = BackfillErrorKind::Server { operation, code: None };
        Failure { kind, message: format!("{operation}: the request could not be built: {e}"), source: None }
    }

    /// A request the SDK or the server refused, in one line: the server's code and message,
    /// not the raw response.
    pub(super) fn sdk<E, R>(operation: &'static str, e: SdkError<E, R>) -> Failure
    where
        E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
        R: fmt::Debug + Send + Sync + 'static,
    {
        let code = e.code().map(str::to_owned);
        let kind = match code.as_deref() {
            Some("ProvisionedThroughputExceededException" | "RequestLimitExceeded" | "ThrottlingException") => {
                BackfillErrorKind::Throttled
            }
            Some("ConditionalCheckFailedException") => BackfillErrorKind::ConditionalCheck,
            _ => BackfillErrorKind::Server { operation, code: code.clone() },
        };
        let message = format!("{operation} failed: {}", sdk_error_line(&e));
        Failure { kind, message, source: Some(Box::new(e)) }
    }
}

/// Whether a migration is finished: the passes [`Backfill::run_until_clean`] ran and what each
/// did; complete when the last one read the whole table and found every item in the current
/// layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// What each pass did, in order (each over every segment).
    pub passes: Vec<Progress>,
    /// Whether the last pass found nothing to do.
    pub complete: bool,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let last = self.passes.last().copied().unwrap_or_default();
        let passes = match self.passes.len() {
            1 => "1 pass".to_owned(),
            n => format!("{n} passes"),
        };
        match self.complete {
            true => {
                write!(f, "complete after {passes}: the last read {} items, all in the current layout", last.scanned)
            }
            false => write!(
                f,
                "not complete after {passes}: the last rewrote {}, found {} superseded and left {} in an older \
                 layout (changed while being moved); run again",
                last.rewritten,
                last.superseded,
                last.old_left()
            ),
        }
    }
}

/// How a move makes sure that the old item it deletes is the one it copied, so that no write of
/// the application made after the Scan is lost with it. DynamoDB cannot say that an item has no
/// attributes but some, so only a version is exact; there is no default, the caller chooses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveCheck {
    /// The item's version attribute, which every write of the application sets to a new value
    /// (the entities' `#[entity(version = ...)]` writes do): the Delete is conditioned on the
    /// version the Scan saw (on its absence, for an item written without one) and on the item
    /// existing. Exact: any write made since the Scan is seen, and the item is left for the next
    /// pass.
    Version(String),
    /// Without a version: every attribute the Scan saw must still have its value, and each of
    /// `may_add` (the attributes the application may add to an item) that the item lacked must
    /// still be absent. The gap: an attribute outside `may_add` that a writer adds after the Scan
    /// is not seen, and is deleted with the old item. Choose this only where the application
    /// writes no attribute outside `may_add` during the migration.
    Attributes {
        /// The attributes the application may add to an item that lacks them.
        may_add: Vec<String>,
    },
}

/// The rewrite of a table's items from older layouts of the sort key type `K` to its current one.
///
/// Each old item moves by two actions of a `TransactWriteItems`: a Put of the item under its
/// current key if no item has that key (`attribute_not_exists`), and a Delete of the old item if
/// it is unchanged since the Scan, as the [`MoveCheck`] the caller chose says. The moves of a Scan page go in
/// transactions of up to 50 (100 actions, under 4 MB, no key twice); when a condition fails, that
/// transaction changes nothing and its moves are made one by one. When the current key exists already (a consistent
/// BatchGetItem per Scan page looks first), it was written by someone else and is kept: the old
/// item alone is deleted, if unchanged. So a rerun does nothing twice, a concurrent write of the
/// current key is never overwritten, and an item changed meanwhile is left for the next run.
#[derive(Debug, Clone)]
pub struct Backfill<'c> {
    pub(super) client: &'c Client,
    pub(super) table: String,
    keys: KeyNames,
    rate: Option<RateShare>,
    page_size: i32,
    check: Option<MoveCheck>,
    /// The attribute rewritten in place, an index's key, instead of items moved.
    pub(super) in_place: Option<String>,
    /// The ranked fields whose counters the moves keep ([`ranked`](Self::ranked)).
    ranked: Vec<RankedField>,
}

impl<'c> Backfill<'c> {
    /// A backfill of `table`, whose primary key attributes are `keys`; its sort key holds the
    /// layouts of the key type it runs with.
    pub fn new(client: &'c Client, table: &str, keys: KeyNames) -> Self {
        let (rate, check, in_place, ranked) = (None, None, None, Vec::new());
        Backfill { client, table: table.to_owned(), keys, rate, page_size: 100, check, in_place, ranked }
    }

    /// Keeps the rank counters of `ranked` (ranked fields of the table's sort key layouts, as
    /// the lock's `rank` lines give them) through the moves: a move's counter changes (its new
    /// key added to the counters of the layout that reads it, its old key taken off those of the
    /// layout that read it) go in the transaction that moves it, and a stale old item's delete
    /// takes it off in one transaction too; so at every committed state the counters equal the
    /// items, and a move that fails changes neither. Transactions then carry fewer moves each
    /// (at most 100 actions).
    pub fn ranked(mut self, ranked: Vec<RankedField>) -> Self {
        self.ranked = ranked;
        self
    }

    /// The moves one transaction holds: 50 (100 actions), fewer when each carries counter
    /// updates (at most `2 * levels` a ranked field: the old and the new key's paths).
    fn moves_per_transaction(&self) -> usize {
        let counters: usize = self.ranked.iter().map(|r| 2 * r.levels()).sum();
        (100 / (2 + counters)).clamp(1, MOVES_PER_TRANSACTION)
    }

    /// The counter updates of `moves` (an item, and its new keys; `None`: it is deleted), none
    /// without ranked fields.
    fn counter_actions(&self, moves: &[(&Attributes, Option<&Target>)]) -> Result<Vec<TransactWriteItem>, Failure> {
        if self.ranked.is_empty() || planted_bug!(BackfillMoveWithoutCounters) {
            return Ok(Vec::new());
        }
        let (pk, sk) = (self.keys.partition(), self.sort_name());
        let mut counts = MoveCounts::default();
        for (item, to) in moves {
            let before = text(item.get(pk)).zip(text(item.get(sk)));
            let after = to.and_then(|(p, s)| text(Some(p)).zip(text(Some(s))));
            counts.add(&self.ranked, before, after);
        }
        if counts.is_empty() {
            return Ok(Vec::new());
        }
        let table = CounterTable { table: &self.table, pk, sk };
        counts.updates(&table, &self.ranked).map_err(|e| Failure::build("TransactWriteItems", e))
    }

    /// Moves condition their Delete on the version attribute `name` ([`MoveCheck::Version`]):
    /// exact, provided every write of the application sets a new version.
    pub fn version_attribute(mut self, name: &str) -> Self {
        self.check = Some(MoveCheck::Version(name.to_owned()));
        self
    }

    /// Moves condition their Delete on the attributes the Scan saw and on `may_add` being still
    /// absent ([`MoveCheck::Attributes`]), with the gap that this says.
    pub fn compare_attributes(mut self, may_add: &[&str]) -> Self {
        let may_add = may_add.iter().map(|a| (*a).to_owned()).collect();
        self.check = Some(MoveCheck::Attributes { may_add });
        self
    }

    /// Rewrites the attribute `name` (a secondary index's key) in place instead of moving items:
    /// each item whose `name` is in a layout the migration moves from gets its value in the
    /// current layout, by an UpdateItem conditioned on the attribute still holding the old value
    /// and on the item being as the Scan read it (the move check). The primary key stays; an
    /// item without the attribute (absent from a sparse index) is left alone, counted `other`.
    pub fn index_attribute(mut self, name: &str) -> Self {
        self.in_place = Some(name.to_owned());
        self
    }

    /// At most `items` items per second, per worker (scanned items count).
    pub fn rate(mut self, items: f64) -> Self {
        self.rate = Some(RateShare::new(items, 1));
        self
    }

    /// The `Limit` of each Scan page (100 by default).
    pub fn page_size(mut self, items: i32) -> Self {
        self.page_size = items;
        self
    }

    /// Runs the segment of `cursor` for at most `pages` Scan pages (`None`: to its end), calling
    /// `progress` after each page with the totals so far and the cursor to resume from; returns
    /// that cursor (or `done`) and what this call did.
    pub async fn run_segment<K: Legacy>(
        &self,
        cursor: SegmentCursor,
        pages: Option<usize>,
        mut progress: impl FnMut(&Progress, &SegmentCursor),
    ) -> Result<(SegmentCursor, Progress), BackfillError> {
        let mut each_page = async |p: &Progress, c: &SegmentCursor| {
            progress(p, c);
            Ok(())
        };
        self.run(&ToCurrent::<K>::new(), cursor, pages, &mut each_page).await
    }

    /// Runs segment `segment` of `total` to its end from where `checkpoint` says it stands,
    /// saving the cursor and the totals in it after every page (one rate limit over the whole
    /// run); returns the final cursor and what this call did. A checkpoint that cannot be
    /// written, or whose segment another worker holds, stops the run (`Checkpoint`), after a
    /// page whose moves are done and not yet saved: a rerun from the last save moves nothing
    /// twice.
    pub async fn run_checkpointed<K: Legacy, C: Checkpoint>(
        &self,
        segment: i32,
        total: i32,
        checkpoint: &mut C,
    ) -> Result<(SegmentCursor, Progress), BackfillError> {
        self.run_rekey(&ToCurrent::<K>::new(), segment, total, checkpoint, |_| {}).await
    }

    /// [`run_checkpointed`](Self::run_checkpointed) with the rule of the migration given at run
    /// time: `rekey` says what becomes of each sort key (a
    /// [`DynMigration`](crate::DynMigration) between two layouts of a lock: items in neither
    /// are left alone and counted as `other`). `progress` is called after every page with the
    /// totals of the segment so far, those saved before this call included.
    pub async fn run_rekey<R: Rekey + Sync, C: Checkpoint>(
        &self,
        rekey: &R,
        segment: i32,
        total: i32,
        checkpoint: &mut C,
        mut progress: impl FnMut(&Progress),
    ) -> Result<(SegmentCursor, Progress), BackfillError> {
        let start = SegmentCursor::start(segment, total);
        let failed = |e: CheckpointError| Failure {
            kind: BackfillErrorKind::Checkpoint(e.clone()),
            message: e.to_string(),
            source: None,
        };
        let (cursor, before) = checkpoint.load(segment, total).await.map_err(|e| self.error(&start, failed(e)))?;
        let mut each_page = async |p: &Progress, c: &SegmentCursor| {
            let mut sum = before;
            sum.add(p);
            progress(&sum);
            checkpoint.save(c, &sum).await.map_err(failed)
        };
        self.run(rekey, cursor, None, &mut each_page).await
    }

    /// A share of a total rate: `items_per_second` over the whole job, split evenly between
    /// `workers` workers, each pacing itself to its share ([`RateShare`]), in pages of at most
    /// its share so that its pauses are short.
    pub fn rate_share(mut self, items_per_second: f64, workers: i32) -> Self {
        let share = RateShare::new(items_per_second, usize::try_from(workers).unwrap_or(1));
        self.page_size = share.page_limit(self.page_size);
        self.rate = Some(share);
        self
    }

    /// The run of one worker of a job of `segments` workers on many machines: its segment is
    /// its index in the job ([`worker_index`]: `JOB_COMPLETION_INDEX` of a Kubernetes Indexed
    /// Job, `AWS_BATCH_JOB_ARRAY_INDEX` of an AWS Batch array job), its place is kept in
    /// `checkpoint` after every page ([`run_checkpointed`](Self::run_checkpointed)), so that a
    /// worker restarted after a crash goes on where it saved. An error when the environment
    /// gives no index, or one outside the job.
    pub async fn run_worker<K: Legacy, C: Checkpoint>(
        &self,
        segments: i32,
        checkpoint: &mut C,
    ) -> Result<(SegmentCursor, Progress), BackfillError> {
        let cursor = SegmentCursor::start(0, segments);
        let config =
            |message: String| self.error(&cursor, Failure { kind: BackfillErrorKind::Config, message, source: None });
        let index = worker_index().map_err(|e| config(e.to_string()))?;
        match index {
            Some(i) if i < segments => self.run_checkpointed::<K, C>(i, segments, checkpoint).await,
            Some(i) => Err(config(format!("worker index {i} is outside a job of {segments} segments"))),
            None => Err(config(
                "no worker index: expected JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or \
                 AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array job)"
                    .to_owned(),
            )),
        }
    }

    /// Passes over the whole table (every one of `segments` segments, one after the other)
    /// until one finds nothing to do, at most `max_passes`: the verdict says whether the
    /// migration is complete, and what each pass did. Items that changed while they were being
    /// moved are what a further pass is for; a pass with none left and nothing moved is the
    /// proof that no item is in an older layout.
    pub async fn run_until_clean<K: Legacy>(&self, segments: i32, max_passes: usize) -> Result<Verdict, BackfillError> {
        let mut verdict = Verdict { passes: Vec::new(), complete: false };
        while verdict.passes.len() < max_passes && !verdict.complete {
            let mut pass = Progress::default();
            for cursor in SegmentCursor::all(segments) {
                let (_, done) = self.run_segment::<K>(cursor, None, |_, _| {}).await?;
                pass.add(&done);
            }
            verdict.complete = pass.is_clean();
            verdict.passes.push(pass);
        }
        Ok(verdict)
    }

    /// The run of `pages` Scan pages of a segment, `each_page` awaited after each.
    async fn run<R: Rekey + Sync>(
        &self,
        rekey: &R,
        mut cursor: SegmentCursor,
        pages: Option<usize>,
        each_page: &mut impl AsyncFnMut(&Progress, &SegmentCursor) -> Result<(), Failure>,
    ) -> Result<(SegmentCursor, Progress), BackfillError> {
        if let Err(failure) = self.check_config() {
            return Err(self.error(&cursor, failure));
        }
        let mut total = Progress::default();
        let started = tokio::time::Instant::now();
        let mut page = 0;
        while !cursor.done && pages.is_none_or(|p| page < p) {
            let start = cursor.after.as_ref().map(|(p, s)| self.key(p.clone(), s.clone()));
            let scan = self
                .client
                .scan()
                .table_name(&self.table)
                .segment(cursor.segment)
                .total_segments(cursor.total)
                .limit(self.page_size)
                .set_exclusive_start_key(start)
                .consistent_read(true)
                .send()
                .await
                .map_err(|e| self.error(&cursor, Failure::sdk("Scan", e)))?;
            let mut done = Progress { pages: 1, ..Progress::default() };
            if planted_bug!(CheckpointBeforeWrites) {
                let mut saved = cursor.clone();
                saved.after = scan.last_evaluated_key().filter(|k| !k.is_empty()).map(|k| {
                    let get = |n: &str| k.get(n).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
                    (get(self.keys.partition()), get(self.sort_name()))
                });
                saved.done = saved.after.is_none();
                each_page(&total, &saved).await.map_err(|f| self.error(&cursor, f))?;
            }
            self.rewrite_page(rekey, scan.items(), &mut done).await.map_err(|f| self.error(&cursor, f))?;
            total.add(&done);
            let before = cursor.clone();
            cursor.after = match scan.last_evaluated_key() {
                Some(k) if !k.is_empty() => {
                    let get = |n: &str| k.get(n).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
                    Some((get(self.keys.partition()), get(self.sort_name())))
                }
                _ => None,
            };
            cursor.done = cursor.after.is_none();
            page += 1;
            // A failed save leaves the caller the cursor of the last page it saved.
            each_page(&total, &cursor).await.map_err(|f| self.error(&before, f))?;
            if let Some(rate) = &self.rate {
                rate.pace(started, total.scanned).await;
            }
        }
        Ok((cursor, total))
    }

    /// One Scan page: items in the current layout (or in none `rekey` moves) are left alone, the
    /// others moved to their current keys. Someone may have written a current key already (then the old item is
    /// stale): one BatchGetItem looks for all of the page's current keys first, which spares
    /// the transactions that would fail, and their cost.
    async fn rewrite_page<R: Rekey + Sync>(
        &self,
        rekey: &R,
        items: &[Attributes],
        done: &mut Progress,
    ) -> Result<(), Failure> {
        if let Some(attribute) = &self.in_place {
            return self.rewrite_in_place(rekey, attribute, items, done).await;
        }
        let (pk_name, sk_name) = (self.keys.partition(), self.sort_name());
        let mut moves = Vec::new();
        for item in items {
            done.scanned += 1;
            let Some(AttributeValue::S(sk)) = item.get(sk_name) else {
                return Err(Failure::decode(format!("an item without a string `{sk_name}`")));
            };
            // The counter items of the ranked fields it keeps are theirs, not keys to move.
            if self.ranked.iter().any(|r| r.node_of(sk).is_some()) {
                done.other += 1;
                continue;
            }
            let Some(pk) = item.get(pk_name).cloned() else {
                return Err(Failure::decode(format!("the item `{sk}` has no `{pk_name}`")));
            };
            let rekeyed = rekey.rekey_item(pk.as_s().ok().map(String::as_str), sk);
            let (new_sk, new_pk) = match rekeyed.map_err(|e| Failure::decode(format!("the item `{sk}`: {}", e.kind)))? {
                (Rekeyed::Current, _) => {
                    done.current += 1;
                    continue;
                }
                (Rekeyed::Other, _) => {
                    done.other += 1;
                    continue;
                }
                (Rekeyed::Move(new_sk), new_pk) => (new_sk, new_pk),
            };
            let new_pk = new_pk.map_or(pk, AttributeValue::S);
            moves.push((item, new_pk, AttributeValue::S(new_sk)));
        }
        let keys = moves.iter().map(|(_, pk, sk)| self.key_of(pk.clone(), sk.clone())).collect();
        let existing = self.existing(keys).await?;
        let mut batch: Vec<(&Attributes, Target)> = Vec::new();
        let (mut batch_keys, mut batch_size) = (Vec::new(), 0);
        for (item, pk, sk) in moves {
            if existing.iter().any(|e| e.get(pk_name) == Some(&pk) && e.get(sk_name) == Some(&sk)) {
                self.rewrite(item, (pk, sk), true, done).await?;
                continue;
            }
            // A transaction names each key once and holds at most 100 actions and 4 MB.
            let old_key =
                (item.get(pk_name).cloned().unwrap_or(AttributeValue::Null(true)), item.get(sk_name).cloned());
            let new_key = (pk.clone(), Some(sk.clone()));
            let size = 2 * item_size(item);
            let clash = batch_keys.contains(&old_key) || batch_keys.contains(&new_key);
            if clash || batch.len() == self.moves_per_transaction() || batch_size + size > TRANSACTION_BYTES {
                self.rewrite_batch(std::mem::take(&mut batch), done).await?;
                (batch_keys, batch_size) = (Vec::new(), 0);
            }
            batch_keys.extend([old_key, new_key]);
            batch_size += size;
            batch.push((item, (pk, sk)));
        }
        self.rewrite_batch(batch, done).await
    }

    /// Moves several old-layout items whose current keys were absent at the look, in one
    /// `TransactWriteItems` of their puts and deletes, conditional as one move's are: one request
    /// instead of one per item. When any condition fails the transaction changes nothing, and
    /// each move is then made alone, which sorts out which were written or changed meanwhile.
    async fn rewrite_batch(&self, batch: Vec<(&Attributes, Target)>, done: &mut Progress) -> Result<(), Failure> {
        if batch.len() <= 1 || planted_bug!(DeleteOutsideTransaction) {
            for (item, to) in batch {
                self.rewrite(item, to, false, done).await?;
            }
            return Ok(());
        }
        let mut actions = Vec::with_capacity(2 * batch.len());
        for (item, to) in &batch {
            let (put, delete) = self.move_actions(item, to.clone())?;
            actions.push(TransactWriteItem::builder().put(put).build());
            actions.push(TransactWriteItem::builder().delete(delete).build());
        }
        let moves: Vec<(&Attributes, Option<&Target>)> = batch.iter().map(|(item, to)| (*item, Some(to))).collect();
        actions.extend(self.counter_actions(&moves)?);
        match self.client.transact_write_items().set_transact_items(Some(actions)).send().await {
            Ok(_) => done.rewritten += batch.len() as u64,
            Err(e) if cancelled(&e).is_some() => {
                for (item, to) in batch {
                    self.rewrite(item, to, planted_bug!(CancelledBatchDeletesStale), done).await?;
                }
            }
            Err(e) => return Err(Failure::sdk("TransactWriteItems", e)),
        }
        Ok(())
    }

    /// The two actions of one move: a Put of `item` under its new keys `(new_pk, new_sk)` if no
    /// item has them, and a Delete of the old item if it is unchanged.
    fn move_actions(&self, item: &Attributes, (new_pk, new_sk): Target) -> Result<(Put, Delete), Failure> {
        let delete = self.unchanged_delete(item)?;
        let mut moved = item.clone();
        moved.insert(self.keys.partition().to_owned(), new_pk);
        moved.insert(self.sort_name().to_owned(), new_sk);
        let put = Put::builder()
            .table_name(&self.table)
            .set_item(Some(moved))
            .condition_expression("attribute_not_exists(#pk)")
            .expression_attribute_names("#pk", self.keys.partition())
            .build()
            .map_err(|e| Failure::build("TransactWriteItems", e))?;
        Ok((put, delete))
    }

    /// The keys of those of `keys` that exist, read consistently, 100 per BatchGetItem.
    async fn existing(&self, mut keys: Vec<Attributes>) -> Result<Vec<Attributes>, Failure> {
        let mut found = Vec::new();
        let mut retries = 0;
        while !keys.is_empty() {
            let rest = keys.split_off(keys.len().min(100));
            let request = KeysAndAttributes::builder()
                .set_keys(Some(keys))
                .consistent_read(true)
                .projection_expression("#pk, #sk")
                .expression_attribute_names("#pk", self.keys.partition())
                .expression_attribute_names("#sk", self.sort_name())
                .build()
                .map_err(|e| Failure::build("BatchGetItem", e))?;
            let out = self
                .client
                .batch_get_item()
                .request_items(&self.table, request)
                .send()
                .await
                .map_err(|e| Failure::sdk("BatchGetItem", e))?;
            found.extend(out.responses().and_then(|r| r.get(&self.table)).into_iter().flatten().cloned());
            keys = rest;
            // Keys the service did not process this time go round again, after a backoff.
            if let Some(unprocessed) = out.unprocessed_keys().and_then(|u| u.get(&self.table))
                && !unprocessed.keys().is_empty()
            {
                retries += 1;
                if retries > 10 {
                    let left = unprocessed.keys().len();
                    let message = format!("BatchGetItem left {left} keys unprocessed 10 times");
                    return Err(Failure { kind: BackfillErrorKind::Throttled, message, source: None });
                }
                tokio::time::sleep(Duration::from_millis(50 * retries)).await;
                keys.extend(unprocessed.keys().iter().cloned());
            }
        }
        Ok(found)
    }

    /// One old-layout item: moved to its current keys `to`, or deleted as stale when those
    /// exist (`found`). A move refused because the item changed since it was read (a writer
    /// got there first) reads the item again, consistently, and moves it as it is now, up to
    /// [`MOVE_ATTEMPTS`] times: an item a writer updates often would otherwise lose that race
    /// on every pass. One still changing after that, or gone, is counted `changed` and left for
    /// the next pass.
    async fn rewrite(&self, item: &Attributes, to: Target, found: bool, done: &mut Progress) -> Result<(), Failure> {
        if found {
            return self.delete_stale_of(item, self.unchanged_delete(item)?, done).await;
        }
        let mut item = std::borrow::Cow::Borrowed(item);
        for attempt in 1..=MOVE_ATTEMPTS {
            let (put, delete) = self.move_actions(&item, to.clone())?;
            if planted_bug!(DeleteOutsideTransaction) {
                return self.put_then_delete(put, delete, done).await;
            }
            let mut both = vec![
                TransactWriteItem::builder().put(put).build(),
                TransactWriteItem::builder().delete(delete.clone()).build(),
            ];
            // The counters' updates come after the two (whose cancellation reasons are read).
            both.extend(self.counter_actions(&[(&item, Some(&to))])?);
            match self.client.transact_write_items().set_transact_items(Some(both)).send().await {
                Ok(_) => {
                    done.rewritten += 1;
                    return Ok(());
                }
                Err(e) => {
                    let Some(reasons) = cancelled(&e) else { return Err(Failure::sdk("TransactWriteItems", e)) };
                    if let Some(failure) = Failure::cancelled(&reasons) {
                        return Err(failure);
                    }
                    // The current key was written since the look: the old item is stale.
                    if let (Some("ConditionalCheckFailed"), Some("None") | None) =
                        (reasons.first().map(String::as_str), reasons.get(1).map(String::as_str))
                    {
                        return self.delete_stale_of(&item, delete, done).await;
                    }
                }
            }
            // The old item changed since it was read (or is gone): read it as it is now.
            if attempt == MOVE_ATTEMPTS {
                break;
            }
            match self.read_again(&item).await? {
                Some(now) => item = std::borrow::Cow::Owned(now),
                None => break,
            }
        }
        done.changed += 1;
        Ok(())
    }

    /// The item under `item`'s keys as it is now, read consistently; `None` when it is gone.
    pub(super) async fn read_again(&self, item: &Attributes) -> Result<Option<Attributes>, Failure> {
        let got = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(self.key_in(item)))
            .consistent_read(true)
            .send()
            .await
            .map_err(|e| Failure::sdk("GetItem", e))?;
        Ok(got.item)
    }

    /// The planted bug `DeleteOutsideTransaction`: the move's Put, then its Delete, as two
    /// requests.
    #[cfg(feature = "planted-bugs")]
    async fn put_then_delete(&self, put: Put, delete: Delete, done: &mut Progress) -> Result<(), Failure> {
        let request = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(put.item().clone()))
            .set_condition_expression(put.condition_expression().map(str::to_owned))
            .set_expression_attribute_names(put.expression_attribute_names().cloned());
        match request.send().await {
            Ok(_) => {}
            Err(e) if e.as_service_error().is_some_and(|s| s.is_conditional_check_failed_exception()) => {}
            Err(e) => return Err(Failure::sdk("PutItem", e)),
        }
        let before = done.superseded;
        self.delete_stale(delete, done).await?;
        if done.superseded > before {
            done.superseded -= 1;
            done.rewritten += 1;
        }
        Ok(())
    }

    #[cfg(not(feature = "planted-bugs"))]
    async fn put_then_delete(&self, _: Put, _: Delete, _: &mut Progress) -> Result<(), Failure> {
        unreachable!("planted bugs are compiled in with their feature only")
    }

    /// Deletes the old item `item` whose current key exists, if it is unchanged since the Scan;
    /// with ranked fields whose counters count its key, in one transaction with their updates.
    async fn delete_stale_of(&self, item: &Attributes, delete: Delete, done: &mut Progress) -> Result<(), Failure> {
        let counters = self.counter_actions(&[(item, None)])?;
        if counters.is_empty() {
            return self.delete_stale(delete, done).await;
        }
        let mut actions = vec![TransactWriteItem::builder().delete(delete).build()];
        actions.extend(counters);
        match self.client.transact_write_items().set_transact_items(Some(actions)).send().await {
            Ok(_) => done.superseded += 1,
            Err(e) => {
                let Some(reasons) = cancelled(&e) else { return Err(Failure::sdk("TransactWriteItems", e)) };
                if let Some(failure) = Failure::cancelled(&reasons) {
                    return Err(failure);
                }
                done.changed += 1;
            }
        }
        Ok(())
    }

    /// Deletes an old item whose current key exists, if it is unchanged since the Scan.
    async fn delete_stale(&self, delete: Delete, done: &mut Progress) -> Result<(), Failure> {
        let mut request = self
            .client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(delete.key().clone()))
            .set_condition_expression(delete.condition_expression().map(str::to_owned))
            .set_expression_attribute_names(delete.expression_attribute_names().cloned());
        request = request.set_expression_attribute_values(delete.expression_attribute_values().cloned());
        match request.send().await {
            Ok(_) => done.superseded += 1,
            Err(e) if e.as_service_error().is_some_and(|s| s.is_conditional_check_failed_exception()) => {
                done.changed += 1
            }
            Err(e) => return Err(Failure::sdk("DeleteItem", e)),
        }
        Ok(())
    }

    /// Moves items, each whole as a Scan read it (`items`, of any segment): what `run_segment`
    /// does with each page, for items read another way (a DynamoDB export, a stream). Errors
    /// carry the cursor of one segment of one.
    pub async fn rewrite_items<K: Legacy>(&self, items: &[Attributes]) -> Result<Progress, BackfillError> {
        let cursor = SegmentCursor::start(0, 1);
        self.check_config().map_err(|f| self.error(&cursor, f))?;
        let mut done = Progress::default();
        self.rewrite_page(&ToCurrent::<K>::new(), items, &mut done).await.map_err(|f| self.error(&cursor, f))?;
        Ok(done)
    }

    /// A move check is chosen and the table has a sort key.
    fn check_config(&self) -> Result<(), Failure> {
        let message = match (&self.check, self.keys.sort()) {
            (None, _) => format!(
                "backfill of table `{}`: no move check chosen; expected `version_attribute(name)` (exact) or \
                 `compare_attributes(&[...])` (with the gap its docs say), so that no write made after the Scan is \
                 lost with the old item",
                self.table
            ),
            (_, None) if self.in_place.is_none() => format!(
                "table `{}` has a partition key alone ({}); a backfill rewrites sort keys, expected a sort key attribute",
                self.table, self.keys
            ),
            _ => return Ok(()),
        };
        Err(Failure { kind: BackfillErrorKind::Config, message, source: None })
    }

    /// A Delete of `item` that applies only while the item is the one the Scan read, as the
    /// move check says.
    fn unchanged_delete(&self, item: &Attributes) -> Result<Delete, Failure> {
        let unchanged = self.unchanged(item)?;
        let delete = Delete::builder()
            .table_name(&self.table)
            .set_key(Some(self.key_in(item)))
            .set_expression_attribute_names(Some(unchanged.names))
            .set_expression_attribute_values((!unchanged.values.is_empty()).then_some(unchanged.values));
        delete.condition_expression(unchanged.expression).build().map_err(|e| Failure::build("DeleteItem", e))
    }

    /// The condition that `item` is the one the Scan read, as the move check says: what a move's
    /// Delete and an index key's rewrite in place are conditioned on. Its placeholders are `#uN`
    /// and `:uN`.
    pub(super) fn unchanged(&self, item: &Attributes) -> Result<Unchanged, Failure> {
        let pk_name = self.keys.partition();
        let mut names = HashMap::new();
        let mut conditions = Vec::new();
        let mut name = |i: usize, attribute: &str| {
            names.insert(format!("#u{i}"), attribute.to_owned());
            format!("#u{i}")
        };
        let mut values = HashMap::new();
        match &self.check {
            Some(MoveCheck::Version(_)) if planted_bug!(MoveWithoutVersion) => {
                conditions.push(format!("attribute_exists({})", name(0, pk_name)));
            }
            Some(MoveCheck::Version(version)) => {
                conditions.push(format!("attribute_exists({})", name(0, pk_name)));
                let v = name(1, version);
                match item.get(version) {
                    Some(value) => {
                        conditions.push(format!("{v} = :u1"));
                        values.insert(":u1".to_owned(), value.clone());
                    }
                    None => conditions.push(format!("attribute_not_exists({v})")),
                }
            }
            Some(MoveCheck::Attributes { may_add }) => {
                let mut attributes: Vec<&String> = item.keys().collect();
                attributes.sort();
                for (i, attribute) in attributes.iter().enumerate() {
                    conditions.push(format!("{} = :u{i}", name(i, attribute)));
                    values.insert(format!(":u{i}"), item[attribute.as_str()].clone());
                }
                let absent = may_add.iter().filter(|a| !item.contains_key(*a));
                for (i, attribute) in absent.enumerate() {
                    conditions.push(format!("attribute_not_exists({})", name(attributes.len() + i, attribute)));
                }
            }
            None => {
                let message = "no move check chosen".to_owned();
                return Err(Failure { kind: BackfillErrorKind::Config, message, source: None });
            }
        }
        Ok(Unchanged { expression: conditions.join(" AND "), names, values })
    }

    /// The sort key attribute, which `run_segment` checks the table has.
    fn sort_name(&self) -> &'static str {
        self.keys.sort().unwrap_or_default()
    }

    fn key(&self, pk: String, sk: String) -> Attributes {
        self.key_of(AttributeValue::S(pk), AttributeValue::S(sk))
    }

    /// The primary key attributes of `item`.
    pub(super) fn key_in(&self, item: &Attributes) -> Attributes {
        let (pk_name, sk_name) = (self.keys.partition(), self.sort_name());
        item.iter().filter(|(n, _)| *n == pk_name || *n == sk_name).map(|(n, v)| (n.clone(), v.clone())).collect()
    }

    fn key_of(&self, pk: AttributeValue, sk: AttributeValue) -> Attributes {
        HashMap::from([(self.keys.partition().to_owned(), pk), (self.sort_name().to_owned(), sk)])
    }

    fn error(&self, cursor: &SegmentCursor, failure: Failure) -> BackfillError {
        let (kind, message, source) = (failure.kind, failure.message, failure.source);
        BackfillError { kind, message, table: self.table.clone(), source, cursor: cursor.clone() }
    }
}

/// Where an item moves: its new partition key and sort key.
type Target = (AttributeValue, AttributeValue);

/// A string attribute's text.
fn text(value: Option<&AttributeValue>) -> Option<&str> {
    value.and_then(|v| v.as_s().ok()).map(String::as_str)
}

/// A condition that an item is as a Scan read it: the expression and its names and values.
pub(super) struct Unchanged {
    pub(super) expression: String,
    pub(super) names: HashMap<String, String>,
    pub(super) values: HashMap<String, AttributeValue>,
}

/// How many times one item's move is tried, each after reading the item again, before an item
/// that keeps changing is left for the next pass.
pub(super) const MOVE_ATTEMPTS: u32 = 4;

/// The moves of one batched transaction: 100 actions, DynamoDB's limit.
const MOVES_PER_TRANSACTION: usize = 50;
/// The bytes of items one batched transaction carries at most, below DynamoDB's 4 MB.
const TRANSACTION_BYTES: usize = 3 * 1024 * 1024;

/// The cancellation reasons' codes (one per action, `"None"` for those that passed) of a
/// cancelled transaction; `None` for any other error.
fn cancelled<R>(e: &SdkError<TransactWriteItemsError, R>) -> Option<Vec<String>> {
    match e.as_service_error()? {
        TransactWriteItemsError::TransactionCanceledException(c) => {
            Some(c.cancellation_reasons().iter().map(|r| r.code().unwrap_or_default().to_owned()).collect())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancellation_is_an_error_only_when_a_reason_is_not_a_condition() {
        let reasons = |r: &[&str]| r.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert!(Failure::cancelled(&reasons(&["ConditionalCheckFailed", "None"])).is_none());
        assert!(Failure::cancelled(&reasons(&["None", "ConditionalCheckFailed"])).is_none());
        let conflict = Failure::cancelled(&reasons(&["TransactionConflict", "None"])).unwrap();
        assert_eq!(conflict.kind, BackfillErrorKind::Cancelled { reasons: reasons(&["TransactionConflict", "None"]) });
        assert_eq!(conflict.message, "TransactWriteItems was cancelled: TransactionConflict, None");
        let throttled = Failure::cancelled(&reasons(&["ThrottlingError", "None"])).unwrap();
        assert_eq!(throttled.kind, BackfillErrorKind::Throttled);
    }
}
