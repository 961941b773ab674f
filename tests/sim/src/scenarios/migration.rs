//! A migration by three backfill workers sharing the segments through leases in the table, two
//! of them killed at random moments and replaced, while two writers update the items under
//! whichever key they have; then passes until no key is left in the old layout. Three moves: a
//! table's sort keys widened (`RankKeyV1` to `RankKey`, the lock's two layouts: [`run`]); sort
//! keys whose fields change order (`Ranked@v1`, the player first and the score ascending, to
//! `Ranked`, the score first and descending: [`reorder`]); and a season's partition moved from
//! 4 shards to 16 (`RunPk@v1` to `RunPk`, each run's new shard calculated from its player:
//! [`reshard`]), during which readers read the season merged over both counts. What must hold:
//!
//! - no acknowledged write lost: each item's counter holds at least the increments a writer was
//!   told were written, and at most those plus the ones whose answers were lost;
//! - no item lost on the way: a writer never finds an item under neither of its keys round
//!   after round (a move between its two reads hides it from one round only); and every run
//!   ends within its bounds (`Sim::run`), so that a writer looking for a lost item fails the run
//!   instead of hanging it;
//! - every item once, in the new layout, at the end;
//! - the checkpoints tell the truth: after the first pass, every item left in the old layout is
//!   one the pass reported as changed while it moved;
//! - the leases fence: a save of a segment succeeds only for the worker that took it last;
//!   by the server's history ([`leases`](super::leases)), no take of a live lease succeeds, and
//!   a segment taken over goes on from its saved cursor and totals;
//! - during a shard-count move, no merged read returns an item twice or out of order, and the
//!   read after the move returns every item;
//! - during the widening and the reordering, every paged read across the sort key's two layouts
//!   (`VersionsQuery`: one Query each a page, merged by `LiveLayouts`; the reordered old layout
//!   read by the widest condition it can express) holds exactly the items its condition
//!   selects, each once, in order;
//! - after each pass the migration's verdict is true: complete exactly when no item is left in
//!   the old layout, and then no item in two layouts.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use sortkey_core::dynamodb::{
    Backfill, BackfillErrorKind, Checkpoint, CheckpointError, Progress, SegmentCursor, ShardedQuery, TableCheckpoint,
    VersionsQuery,
};
use sortkey_core::query::Comparison;
use sortkey_core::{
    DynMigration, DynValue, FieldCondition, KeyNames, KeyRole, LiveKey, LiveLayouts, LockFile, ShardRule, Shards,
    VerdictAudit,
};

use super::{Outcome, create_table, merged_pages};
use crate::Sim;

pub(super) const ITEMS: u64 = 32;
/// The runs the typed writer and its raw competitor draw from in [`typed`]: few, so that they
/// meet on one run while it moves.
const HOT: u64 = 4;
pub(super) const SEGMENTS: i32 = 4;
const LEASE: Duration = Duration::from_secs(2);

/// Which move a run makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// The sort keys widened.
    Widen,
    /// The partition moved from 4 shards to 16.
    Reshard,
    /// The sort key's fields in another order: the player first, then the score first.
    Reorder,
    /// The sort keys widened, read and written by the service's typed code (`typed.rs`).
    Typed,
}

const OLD_SHARDS: Shards = Shards::new(4, ShardRule::By("player"));
const NEW_SHARDS: Shards = Shards::new(16, ShardRule::By("player"));

/// Item `i`'s keys, (partition, sort), in the old layout and in the new one.
fn keys(kind: Kind, i: u64) -> ((String, String), (String, String)) {
    match kind {
        Kind::Widen | Kind::Typed => (
            ("SEASON#7".to_owned(), format!("RUN#{:010}#p_{i}", 9_999_999_999 - i * 1000)),
            ("SEASON#7".to_owned(), format!("RUN#{:012}#p_{i}", 999_999_999_999 - i * 1000)),
        ),
        Kind::Reshard => {
            let player = format!("p_{i}");
            let sk = format!("RUN#{:04}#{player}", 9999 - (i * 37) % 1000);
            let old = format!("SEASON#2026#{}", OLD_SHARDS.of(player.as_bytes()));
            let new = format!("SEASON#2026#{:02}", NEW_SHARDS.of(player.as_bytes()));
            ((old, sk.clone()), (new, sk))
        }
        Kind::Reorder => (
            ("SEASON#7".to_owned(), format!("BY#p_{i}#{:010}", i * 1000)),
            ("SEASON#7".to_owned(), format!("RANK#{:012}#p_{i}", 999_999_999_999 - i * 1000)),
        ),
    }
}

/// The item of a key, and whether the key is its old one.
pub(super) fn item_of(kind: Kind, pk: &str, sk: &str) -> Option<(u64, bool)> {
    let i: u64 = match sk.strip_prefix("BY#p_") {
        Some(rest) => rest.split_once('#')?.0.parse().ok()?,
        None => sk.rsplit_once("#p_")?.1.parse().ok()?,
    };
    let (old, new) = keys(kind, i);
    match (pk, sk) {
        _ if (pk, sk) == (old.0.as_str(), old.1.as_str()) => Some((i, true)),
        _ if (pk, sk) == (new.0.as_str(), new.1.as_str()) => Some((i, false)),
        _ => None,
    }
}

const LOCK: &str = "RankKeyV1 = RUN#{score:u64 width=10 desc}#{player:text}\n\
                    RankKey = RUN#{score:u64 width=12 desc}#{player:text}\n\
                    RunPk = partition SEASON#{season:u16 width=4}#{shard:u16 width=2 shards=16 by=player}\n\
                    RunPk@v1 = partition SEASON#{season:u16 width=4}#{shard:u16 width=1 shards=4 by=player}\n\
                    RunSk = RUN#{score:u32 width=4 desc}#{player:text}\n\
                    Ranked = RANK#{score:u64 width=12 desc}#{player:text}\n\
                    Ranked@v1 = BY#{player:text}#{score:u64 width=10}\n\
                    RankKey > RankKeyV1\n\
                    Ranked > Ranked@v1\n\
                    RunPk > RunPk@v1\n";

/// The lock's sort key layout that reads `key`, for the trace. Each key's answer is kept, per
/// thread: a run names the same few dozen keys hundreds of times, and each time every layout's
/// decoder tried it, building an error for each that did not read it.
fn layout_of(key: &str) -> Option<&'static str> {
    static READ: std::sync::OnceLock<LockFile> = std::sync::OnceLock::new();
    thread_local! {
        static NAMED: std::cell::RefCell<std::collections::HashMap<String, Option<&'static str>>> =
            Default::default();
    }
    let lock = READ.get_or_init(|| LockFile::parse(LOCK).unwrap_or_else(|e| panic!("the lock: {e}")));
    NAMED.with_borrow_mut(|named| {
        if let Some(&name) = named.get(key) {
            return name;
        }
        let name = lock.entries.iter().find(|(_, l)| l.role == KeyRole::Sort && l.decode(key).is_ok());
        let name = name.map(|(n, _)| n.as_str());
        named.insert(key.to_owned(), name);
        name
    })
}

fn migration(kind: Kind) -> DynMigration {
    let lock = LockFile::parse(LOCK).unwrap_or_else(|e| panic!("the lock: {e}"));
    let entry = |n: &str| (n.to_owned(), lock.get(n).cloned().unwrap_or_else(|| panic!("{n}")));
    let made = match kind {
        Kind::Widen | Kind::Typed => DynMigration::new(entry("RankKeyV1"), entry("RankKey")),
        Kind::Reorder => DynMigration::new(entry("Ranked@v1"), entry("Ranked")),
        Kind::Reshard => DynMigration::new(entry("RunPk@v1"), entry("RunPk"))
            .map(|m| m.reading_sort_keys([("RunSk", lock.get("RunSk").unwrap_or_else(|| panic!("RunSk")))])),
    };
    made.unwrap_or_else(|e| panic!("{e}"))
}

/// Increments counted by the writers, per item, and the first item a writer found in neither
/// layout for good.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Counted {
    pub(super) acknowledged: Vec<u64>,
    pub(super) ambiguous: Vec<u64>,
    pub(super) lost: Option<String>,
}

/// Consistent reads of both of an item's keys that may find it under neither before it is lost:
/// a move between the two reads hides it from one round, never from many in a row.
const ABSENT_ROUNDS: u32 = 12;

/// One writer, keeping the writers' contract: `steps` increments of random items, each read
/// first (a consistent GetItem under the new key, then the old; the key read through the lock's
/// live layouts, as `decode_any` reads it), then written under the key it was read under,
/// conditional on the version read, writing the next. A write whose condition fails (the item
/// moved or changed) is made again from a new read.
async fn writer(sim: Sim, kind: Kind, steps: usize) -> Counted {
    writer_on(sim, kind, steps, if kind == Kind::Typed { HOT } else { ITEMS }, 20).await
}

/// [`writer`] on the first `hot` items, pausing up to `pause_ms` between increments.
pub(super) async fn writer_on(sim: Sim, kind: Kind, steps: usize, hot: u64, pause_ms: u64) -> Counted {
    let client = sim.client();
    let lock = LockFile::parse(LOCK).unwrap_or_else(|e| panic!("the lock: {e}"));
    let layouts: Vec<&sortkey_core::DynLayout> = match kind {
        Kind::Widen | Kind::Typed => ["RankKey", "RankKeyV1"].iter().filter_map(|n| lock.get(n)).collect(),
        Kind::Reshard => ["RunPk", "RunPk@v1"].iter().filter_map(|n| lock.get(n)).collect(),
        Kind::Reorder => ["Ranked", "Ranked@v1"].iter().filter_map(|n| lock.get(n)).collect(),
    };
    let mut counted = Counted { acknowledged: vec![0; ITEMS as usize], ambiguous: vec![0; ITEMS as usize], lost: None };
    for _ in 0..steps {
        let i = sim.below(hot);
        let (old, new) = keys(kind, i);
        let mut absent = 0;
        'item: loop {
            let mut read = None;
            for (pk, sk) in [new.clone(), old.clone()] {
                let got = client
                    .get_item()
                    .table_name("runs")
                    .key("pk", AttributeValue::S(pk.clone()))
                    .key("sk", AttributeValue::S(sk.clone()))
                    .consistent_read(true)
                    .send()
                    .await;
                let Ok(got) = got else { continue 'item };
                if let Some(item) = got.item() {
                    let version = item.get("version").and_then(|v| v.as_n().ok()).cloned().unwrap_or_default();
                    read = Some((pk, sk, version));
                    break;
                }
            }
            // In neither (moved between the two reads): read again; in neither again and again,
            // it is lost.
            let Some((pk, sk, version)) = read else {
                absent += 1;
                if absent == ABSENT_ROUNDS {
                    counted.lost = Some(format!(
                        "item {i} is lost: {ABSENT_ROUNDS} rounds of consistent reads found it under neither {} nor {}",
                        new.1, old.1
                    ));
                    return counted;
                }
                continue 'item;
            };
            let moved = if kind == Kind::Reshard { &pk } else { &sk };
            if !layouts.iter().any(|l| l.decode(moved).is_ok()) {
                panic!("a writer read a key no live layout reads: {moved}");
            }
            let sent = client
                .update_item()
                .table_name("runs")
                .key("pk", AttributeValue::S(pk))
                .key("sk", AttributeValue::S(sk))
                .update_expression("SET hits = hits + :one, version = version + :one")
                .condition_expression("attribute_exists(pk) AND version = :read")
                .expression_attribute_values(":one", AttributeValue::N("1".into()))
                .expression_attribute_values(":read", AttributeValue::N(version))
                .send()
                .await;
            match sent {
                Ok(_) => {
                    counted.acknowledged[i as usize] += 1;
                    break 'item;
                }
                Err(e) if e.as_service_error().is_some_and(|s| s.is_conditional_check_failed_exception()) => {}
                Err(e) if format!("{e:?}").contains("Throttling") => {}
                Err(_) => {
                    counted.ambiguous[i as usize] += 1;
                    break 'item;
                }
            }
        }
        if pause_ms > 0 {
            tokio::time::sleep(Duration::from_millis(sim.below(pause_ms))).await;
        }
    }
    counted
}

/// What the checkpoints did, in the order it happened: each load that succeeded, by worker and
/// segment, when it was sent and when its answer came, and the first break of the fencing.
#[derive(Debug, Default)]
struct Leases {
    seq: u64,
    /// (segment, owner, sent at, answered at) of each load that succeeded.
    loads: Vec<(i32, String, u64, u64)>,
    broken: Option<String>,
}

/// A worker's checkpoint, watched: a save that succeeds though another worker took the segment
/// between this worker's last load and the save breaks the fencing. A request is applied at some
/// moment between its sending and its answer, so "between" is only what is certain: the other
/// load sent after this worker's last load was answered, and answered before the save was sent
/// (answers arrive in another order than the requests were applied: no false alarm from that).
#[derive(Debug, Clone)]
struct Watched {
    inner: TableCheckpoint,
    owner: String,
    leases: Arc<Mutex<Leases>>,
}

impl Watched {
    fn tick(&self) -> u64 {
        let mut leases = self.leases.lock().unwrap_or_else(|p| p.into_inner());
        leases.seq += 1;
        leases.seq
    }
}

impl Checkpoint for Watched {
    async fn load(&mut self, segment: i32, total: i32) -> Result<(SegmentCursor, Progress), CheckpointError> {
        let sent = self.tick();
        let loaded = self.inner.load(segment, total).await;
        if loaded.is_ok() {
            let answered = self.tick();
            let mut leases = self.leases.lock().unwrap_or_else(|p| p.into_inner());
            leases.loads.push((segment, self.owner.clone(), sent, answered));
        }
        loaded
    }

    async fn save(&mut self, cursor: &SegmentCursor, progress: &Progress) -> Result<(), CheckpointError> {
        let sent = self.tick();
        let saved = self.inner.save(cursor, progress).await;
        if saved.is_ok() {
            let mut leases = self.leases.lock().unwrap_or_else(|p| p.into_inner());
            let segment = cursor.segment;
            let mine = leases.loads.iter().filter(|l| l.0 == segment && l.1 == self.owner).map(|l| l.3).max();
            let stolen = leases.loads.iter().find(|(s, o, other_sent, other_answered)| {
                *s == segment && *o != self.owner && mine.is_none_or(|m| *other_sent > m) && *other_answered < sent
            });
            if let Some((_, thief, _, _)) = stolen
                && leases.broken.is_none()
            {
                leases.broken = Some(format!(
                    "the leases do not fence: {} saved segment {segment} after {thief} had taken it",
                    self.owner
                ));
            }
        }
        saved
    }
}

/// One worker of pass `pass`: every segment not done, taken through its lease, run to its end; a
/// segment another worker holds is waited for; a request that fails is run again from the
/// segment's last save.
async fn worker(sim: Sim, kind: Kind, pass: u32, owner: String, leases: Arc<Mutex<Leases>>) {
    let client = sim.client();
    let migration = migration(kind);
    let backfill = Backfill::new(&client, "runs", KeyNames::DEFAULT).version_attribute("version").page_size(7);
    let name = format!("widen-{pass}");
    let inner = TableCheckpoint::new(client.clone(), "runs", KeyNames::DEFAULT, &name, &owner, LEASE);
    let first = sim.below(SEGMENTS as u64) as i32;
    loop {
        let mut left = 0;
        for n in 0..SEGMENTS {
            let segment = (first + n) % SEGMENTS;
            match inner.saved(segment, SEGMENTS).await {
                Ok(Some((cursor, _))) if cursor.done => continue,
                _ => left += 1,
            }
            let mut mine = Watched { inner: inner.clone(), owner: owner.clone(), leases: leases.clone() };
            if let Err(e) = backfill.run_rekey(&migration, segment, SEGMENTS, &mut mine, |_| {}).await {
                let pause = match e.kind() {
                    BackfillErrorKind::Checkpoint(CheckpointError::Taken { .. }) => 200,
                    _ => 10,
                };
                tokio::time::sleep(Duration::from_millis(pause)).await;
            }
        }
        if left == 0 {
            return;
        }
    }
}

/// Every item's (partition key, sort key, hits), read directly.
pub(super) async fn items(client: &Client) -> Vec<(String, String, u64)> {
    let mut out = Vec::new();
    let mut start = None;
    loop {
        let page = client.scan().table_name("runs").set_exclusive_start_key(start.take()).send().await;
        let page = page.unwrap_or_else(|e| panic!("a direct Scan: {e:?}"));
        for item in page.items() {
            let sk = item.get("sk").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
            let pk = item.get("pk").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
            if pk.starts_with("BACKFILL#") {
                continue;
            }
            let hits = item.get("hits").and_then(|v| v.as_n().ok()).and_then(|n| n.parse().ok()).unwrap_or(0);
            out.push((pk, sk, hits));
        }
        match page.last_evaluated_key() {
            Some(k) if !k.is_empty() => start = Some(k.clone()),
            _ => break,
        }
    }
    out
}

/// The `changed` of every segment of pass `pass`, as its checkpoints saved it.
async fn changed_in(client: &Client, pass: u32) -> u64 {
    let name = format!("widen-{pass}");
    let checkpoint = TableCheckpoint::new(client.clone(), "runs", KeyNames::DEFAULT, &name, "reader", LEASE);
    let (segments, _) = checkpoint.segments().await.unwrap_or_else(|e| panic!("the checkpoints: {e}"));
    segments.iter().map(|s| s.progress.changed).sum()
}

/// How much a run does: each writer's increments, and the workers killed. Smaller sizes make
/// shorter traces of the same seed, which is how a failing run is shrunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    /// Increments each of the two writers makes.
    pub writer_steps: usize,
    /// Workers killed (and replaced).
    pub kills: u32,
}

impl Size {
    /// The size CI runs.
    pub const FULL: Size = Size { writer_steps: 20, kills: 2 };

    /// `SORTKEY_SIM_SIZE=steps,kills` (a shrunk run's replay), else [`FULL`](Self::FULL).
    pub fn from_env() -> Size {
        let Ok(text) = std::env::var("SORTKEY_SIM_SIZE") else { return Size::FULL };
        let mut parts = text.split(',').map(|p| p.trim().parse::<u64>().ok());
        match (parts.next().flatten(), parts.next().flatten()) {
            (Some(steps), Some(kills)) => Size { writer_steps: steps as usize, kills: kills as u32 },
            _ => Size::FULL,
        }
    }

    /// The sizes to try, smallest first, when shrinking a run that failed at `self`.
    pub fn smaller(self) -> Vec<Size> {
        let mut out = Vec::new();
        for kills in 0..=self.kills {
            for steps in [0, 1, 2, 4, 8, 12, 20] {
                if steps <= self.writer_steps && (steps, kills) != (self.writer_steps, self.kills) {
                    out.push(Size { writer_steps: steps, kills });
                }
            }
        }
        out
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.writer_steps, self.kills)
    }
}

/// One run of the scenario: sort keys widened, at the size of [`Size::from_env`].
pub async fn run(sim: Sim) -> Outcome {
    run_kind(sim, Kind::Widen, Size::from_env()).await
}

/// [`run`] at `size`.
pub async fn run_sized(sim: Sim, size: Size) -> Outcome {
    run_kind(sim, Kind::Widen, size).await
}

/// One run of the scenario: sort keys whose fields change order, read across both layouts
/// throughout, at the size of [`Size::from_env`].
pub async fn reorder(sim: Sim) -> Outcome {
    run_kind(sim, Kind::Reorder, Size::from_env()).await
}

/// One run of the scenario: a season moved from 4 shards to 16, read merged throughout.
pub async fn reshard(sim: Sim) -> Outcome {
    run_kind(sim, Kind::Reshard, Size::from_env()).await
}

/// One run of the scenario: sort keys widened under the service's typed reads and writes
/// (`query_page`, `get_stored`, `update_item`) beside a raw writer, at the size of
/// [`Size::from_env`].
pub async fn typed(sim: Sim) -> Outcome {
    run_kind(sim, Kind::Typed, Size::from_env()).await
}

/// [`typed`] at `size`.
pub async fn typed_sized(sim: Sim, size: Size) -> Outcome {
    run_kind(sim, Kind::Typed, size).await
}

/// [`reshard`] at `size`.
pub async fn reshard_sized(sim: Sim, size: Size) -> Outcome {
    run_kind(sim, Kind::Reshard, size).await
}

/// A reader of the season during a shard-count move, until `stop`: merged over the 16 new shards
/// and the 4 old ones (an item in both is one item's copies), a drawn limit a page (1 to 30),
/// forward or backward, a drawn number of pages (1 to 4: about half the reads reach the end).
/// The runs' sort keys never change, so every read must return exactly the season's first runs
/// in its direction, each once, as many as its pages hold. Returns the reads made, or what broke.
///
/// A read to the end at one run a page queries all 20 partitions twice for each of the 32 runs,
/// and meets a stall every hundred requests: reading every read to the end made this scenario's
/// runs ten times as long as the others' (one read lasting 50 s of the run's clock), while the
/// first pages already meet the copies a move leaves behind.
async fn reader(sim: Sim, stop: Arc<Mutex<bool>>) -> Result<usize, String> {
    let client = sim.retrying_client();
    let season = season_order();
    let mut reads = 0;
    while !*stop.lock().unwrap_or_else(|p| p.into_inner()) {
        let (limit, forward) = (1 + sim.below(30) as usize, sim.below(2) == 0);
        let pages = 1 + sim.below(4) as usize;
        let runs = season_merged(&client, limit, forward, pages).await;
        let mut want = season.clone();
        if !forward {
            want.reverse();
        }
        want.truncate(limit.saturating_mul(pages));
        if runs != want {
            let way = if forward { "forward" } else { "reverse" };
            let at = runs.iter().zip(&want).position(|(r, w)| r != w).unwrap_or(runs.len().min(want.len()));
            let missing: Vec<&String> = want.iter().filter(|k| !runs.contains(k)).collect();
            return Err(format!(
                "a merged read during the move ({way}, {limit} a page, {pages} pages) returned {} runs where {} were \
                 expected; first difference at {at}: {:?} where {:?} was expected; missing {missing:?}",
                runs.len(),
                want.len(),
                runs.get(at),
                want.get(at),
            ));
        }
        reads += 1;
        tokio::time::sleep(Duration::from_millis(300 + sim.below(1_200))).await;
    }
    Ok(reads)
}

/// The season's sort keys in ascending order: a shard-count move changes no sort key, so this is
/// what a merged read forward returns at every moment of the move.
fn season_order() -> Vec<String> {
    let mut season: Vec<String> = (0..ITEMS).map(|i| keys(Kind::Reshard, i).1.1).collect();
    season.sort();
    season
}

/// The season's sort keys, read merged over the 16 new shards and the 4 old ones (an item in
/// both is one item's copies), `limit` a page, forward or not, at most `pages` pages.
async fn season_merged(client: &Client, limit: usize, forward: bool, pages: usize) -> Vec<String> {
    let partitions: Vec<String> = (0..16u16)
        .map(|s| format!("SEASON#2026#{s:02}"))
        .chain((0..4u16).map(|s| format!("SEASON#2026#{s}")))
        .collect();
    let query = ShardedQuery {
        table: "runs",
        partitions: &partitions,
        partition_attribute: "pk",
        sort_attribute: "sk",
        forward,
        limit,
        ties: false,
        copies: true,
    };
    merged_pages(client, &query, pages).await.into_iter().map(|(sort, _)| sort).collect()
}

/// A reader of the table across the two layouts of the sort key `key` (the lock's name of the
/// current one) during the widening or the reordering, until `stop`:
/// the runs of score at least a drawn threshold, read a drawn number a page by `VersionsQuery`
/// (one Query per layout, the old layout first, so that a run moving meanwhile is seen in one or
/// both; each version's Query of the next page started after the cursor as its own layout writes
/// it): every read must hold exactly the runs the threshold selects, each once, in order.
/// Returns the reads made, or what broke.
async fn versions_reader(sim: Sim, stop: Arc<Mutex<bool>>, key: &str) -> Result<usize, String> {
    let client = sim.client();
    let lock = LockFile::parse(LOCK).unwrap_or_else(|e| panic!("the lock: {e}"));
    let live = LiveLayouts::new(lock.live(key));
    let mut reads = 0;
    while !*stop.lock().unwrap_or_else(|p| p.into_inner()) {
        let threshold = sim.below(ITEMS) * 1000;
        let condition =
            FieldCondition::new().compare("score", Comparison::Ge, DynValue::Unsigned(u128::from(threshold)));
        let conditions = live.conditions(&condition).map_err(|e| format!("the conditions: {e}"))?;
        let query = VersionsQuery {
            table: "runs",
            partition: "SEASON#7",
            partition_attribute: "pk",
            sort_attribute: "sk",
            forward: true,
            limit: 1 + sim.below(12) as usize,
        };
        let (mut players, mut cursor): (Vec<u64>, Option<String>) = (Vec::new(), None);
        loop {
            // A request that fails (throttled, its answer lost) is made again from the same cursor.
            let Ok(page) = query.run(&client, &live, &conditions, cursor.as_deref()).await else { continue };
            let player = |r: &LiveKey<_>| r.current_key.rsplit_once("#p_").and_then(|(_, i)| i.parse::<u64>().ok());
            players.extend(page.results.results.iter().filter_map(player));
            match page.next {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        let want: Vec<u64> = (0..ITEMS).filter(|i| i * 1000 >= threshold).rev().collect();
        if players != want {
            return Err(format!(
                "a paged read across both layouts (score >= {threshold}, {} a page) returned players {players:?}, expected {want:?}",
                query.limit
            ));
        }
        reads += 1;
        tokio::time::sleep(Duration::from_millis(100 + sim.below(200))).await;
    }
    Ok(reads)
}

/// Creates the table `runs` and puts every item under its old key, directly.
pub(super) async fn seed(direct: &Client, kind: Kind) {
    create_table(direct, "runs").await;
    for i in 0..ITEMS {
        let ((pk, sk), _) = keys(kind, i);
        let put = direct.put_item().table_name("runs").item("pk", AttributeValue::S(pk));
        let mut put = put.item("sk", AttributeValue::S(sk)).item("version", AttributeValue::N("1".into()));
        if kind == Kind::Typed {
            for (name, value) in super::typed::attributes(i) {
                put = put.item(name, value);
            }
        }
        put.item("hits", AttributeValue::N("0".into())).send().await.unwrap_or_else(|e| panic!("{e:?}"));
    }
}

async fn run_kind(sim: Sim, kind: Kind, size: Size) -> Outcome {
    sim.name_keys(layout_of);
    let direct = sim.direct_client();
    seed(&direct, kind).await;
    let leases = Arc::new(Mutex::new(Leases::default()));
    let stop = Arc::new(Mutex::new(false));
    let readers: Vec<_> = match kind {
        Kind::Reshard => vec![tokio::task::spawn_local(reader(sim.clone(), stop.clone()))],
        Kind::Widen => vec![tokio::task::spawn_local(versions_reader(sim.clone(), stop.clone(), "RankKey"))],
        Kind::Reorder => vec![tokio::task::spawn_local(versions_reader(sim.clone(), stop.clone(), "Ranked"))],
        Kind::Typed => vec![tokio::task::spawn_local(super::typed::reader(sim.clone(), stop.clone()))],
    };
    let steps = size.writer_steps;
    let writers: Vec<_> = match kind {
        Kind::Typed => vec![
            tokio::task::spawn_local(writer(sim.clone(), kind, steps)),
            tokio::task::spawn_local(super::typed::writer(sim.clone(), steps, HOT)),
        ],
        _ => (0..2).map(|_| tokio::task::spawn_local(writer(sim.clone(), kind, steps))).collect(),
    };
    let mut workers: Vec<_> = (0..3)
        .map(|w| tokio::task::spawn_local(worker(sim.clone(), kind, 1, format!("worker-{w}"), leases.clone())))
        .collect();
    for kill in 0..size.kills {
        tokio::time::sleep(Duration::from_millis(20 + sim.below(400))).await;
        let victim = sim.below(workers.len() as u64) as usize;
        workers[victim].abort();
        sim.note(format!("killed worker {victim}"));
        let replacement = worker(sim.clone(), kind, 1, format!("replacement-{kill}"), leases.clone());
        workers.push(tokio::task::spawn_local(replacement));
    }
    for w in workers {
        let _ = w.await;
    }
    let mut counted = Counted::default();
    counted.acknowledged.resize(ITEMS as usize, 0);
    counted.ambiguous.resize(ITEMS as usize, 0);
    for w in writers {
        let c = w.await.map_err(|e| format!("a writer failed: {e}"))?;
        if let Some(lost) = c.lost {
            return Err(lost);
        }
        for i in 0..ITEMS as usize {
            counted.acknowledged[i] += c.acknowledged[i];
            counted.ambiguous[i] += c.ambiguous[i];
        }
    }
    // The readers read while the first pass runs.
    *stop.lock().unwrap_or_else(|p| p.into_inner()) = true;
    for r in readers {
        r.await.map_err(|e| format!("a reader failed: {e}"))??;
    }
    if let Some(broken) = leases.lock().unwrap_or_else(|p| p.into_inner()).broken.clone() {
        return Err(broken);
    }
    super::leases::check(&sim.history())?;
    let old_left = |items: &[(String, String, u64)]| {
        items.iter().filter(|(pk, sk, _)| item_of(kind, pk, sk).is_some_and(|(_, old)| old)).count() as u64
    };
    // The first pass's account: what it left behind it said had changed.
    let left = old_left(&items(&direct).await);
    let changed = changed_in(&direct, 1).await;
    if left > changed {
        return Err(format!(
            "the checkpoints do not tell the truth: the first pass is done with {left} items left in the old layout, and reported {changed} changed"
        ));
    }
    // Items changed while being moved are left for the next pass, as `sortkey migrate` runs them;
    // after each pass the verdict, as the command reads it, must be true.
    let mut pass = 1;
    loop {
        let now = items(&direct).await;
        verdict_holds(kind, &now)?;
        if old_left(&now) == 0 {
            break;
        }
        pass += 1;
        if pass > 6 {
            return Err("keys still in the old layout after 5 more passes".to_owned());
        }
        worker(sim.clone(), kind, pass, "finisher".into(), leases.clone()).await;
    }
    if kind == Kind::Reshard {
        // After the move, one more read over both counts: every run, once, in order (two pages:
        // each page queries all 20 partitions, twice).
        let read = season_merged(&sim.retrying_client(), 16, true, usize::MAX).await;
        let want = season_order();
        if read != want {
            return Err(format!("the read after the move returned {} of {} runs", read.len(), want.len()));
        }
    }
    check(kind, &counted, &items(&direct).await)
}

/// The migration's verdict on the table's keys (`VerdictAudit`, as `sortkey migrate` gives it
/// after a pass) is true: complete exactly when no item is left in the old layout, and then no
/// item is in two layouts.
fn verdict_holds(kind: Kind, items: &[(String, String, u64)]) -> Outcome {
    let lock = LockFile::parse(LOCK).unwrap_or_else(|e| panic!("the lock: {e}"));
    let migration = migration(kind);
    let role = if migration.moves_partition_keys() { KeyRole::Partition } else { KeyRole::Sort };
    let layouts = lock.entries.iter().filter(|(_, l)| l.role == role).cloned();
    let mut audit = VerdictAudit::new(layouts);
    for (pk, sk, _) in items {
        audit.observe_item(&migration, Some(pk), Some(sk));
    }
    let verdict = audit.verdict();
    let old = items.iter().filter(|(pk, sk, _)| item_of(kind, pk, sk).is_some_and(|(_, old)| old)).count() as u64;
    if verdict.complete != (old == 0) || verdict.in_old != old {
        return Err(format!(
            "the verdict is not true: complete {} with {} keys counted old, and {old} items are in the old layout",
            verdict.complete, verdict.in_old
        ));
    }
    if verdict.complete {
        let mut seen: Vec<u64> = items.iter().filter_map(|(pk, sk, _)| item_of(kind, pk, sk).map(|(i, _)| i)).collect();
        seen.sort_unstable();
        if let Some(w) = seen.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("the verdict says complete, and item {} is in two layouts", w[0]));
        }
    }
    Ok(())
}

/// The end: every item once, in the new layout, with every increment acknowledged.
pub(super) fn check(kind: Kind, counted: &Counted, items: &[(String, String, u64)]) -> Outcome {
    if items.len() as u64 != ITEMS {
        return Err(format!("{} items at the end, expected {ITEMS}", items.len()));
    }
    for (pk, sk, hits) in items {
        let Some((i, old)) = item_of(kind, pk, sk) else { return Err(format!("an item of no known key: {pk} {sk}")) };
        if old {
            return Err(format!("item {i} is not in the new layout: {pk} {sk}"));
        }
        let (acked, maybe) = (counted.acknowledged[i as usize], counted.ambiguous[i as usize]);
        if *hits < acked || *hits > acked + maybe {
            return Err(format!(
                "item {i} holds {hits} increments: {acked} were acknowledged, {maybe} more were sent without an answer"
            ));
        }
    }
    Ok(())
}
