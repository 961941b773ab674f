//! `sortkey migrate ... --status`: where a migration stands, read from its checkpoints without
//! taking a lease or writing anything: each pass's segments (where each stands, the pages and
//! items it read and moved, who leases it and until when), and the last report the migration
//! kept (its passes and verdict). What the web view's migration page shows, refreshed.

use aws_sdk_dynamodb::Client;
use serde::{Deserialize, Serialize};
use sortkey_core::dynamodb::SegmentState;

use crate::ask::{Context, MigrationAsk};
use crate::display::shown;
use crate::migrate::checkpoints::MigrationIdentity;
use crate::migrate::checkpoints::Store;
use crate::migrate::verdict::{MigrateDocument, Pass};
use crate::outcome::AskError;
use crate::output::{self, Document, format_tag, outln};

format_tag! {
    /// The migration status's format.
    StatusFormat = "sortkey migrate status 2"
}

/// Where a migration stands, by its checkpoints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct StatusDocument {
    pub(crate) format: StatusFormat,
    pub(crate) table: String,
    /// The layouts moved from, newest first, and the layout moved to.
    pub(crate) from: Vec<String>,
    pub(crate) to: String,
    /// Where its checkpoints are, in words.
    pub(crate) checkpoints: String,
    /// In a few words: not started, running (a lease held), a pass in part done, finished.
    pub(crate) state: String,
    /// Each pass that saved a page, in order.
    pub(crate) passes: Vec<PassStatus>,
    /// The last report the migration kept when it finished a run: its passes and its verdict.
    pub(crate) report: Option<MigrateDocument>,
    /// The `sortkey migrate ... --status` command line that gives this document, as its arguments.
    #[serde(default)]
    pub(crate) command: Vec<String>,
}

impl StatusDocument {
    /// Whether the migration's last run has ended: its last pass has every segment finished and
    /// the run kept its report. What the migration page stops refreshing at.
    #[cfg(feature = "serve")]
    pub(crate) fn ended(&self) -> bool {
        self.report.is_some() && self.passes.last().is_some_and(PassStatus::is_finished)
    }
}

/// One pass, by its segments' checkpoints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct PassStatus {
    pub(crate) pass: u32,
    /// The number of segments the table is split into, and how many are finished.
    pub(crate) total: u32,
    pub(crate) finished: u32,
    /// What every segment saved did, added up.
    pub(crate) totals: Pass,
    pub(crate) segments: Vec<SegmentStatus>,
}

impl PassStatus {
    /// Whether every segment of the pass is finished.
    pub(crate) fn is_finished(&self) -> bool {
        self.finished >= self.total
    }
}

/// One segment's checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SegmentStatus {
    pub(crate) segment: u32,
    pub(crate) done: bool,
    /// The primary key (partition, sort) its next page starts after; null at its end.
    pub(crate) after: Option<(String, String)>,
    /// Scan pages read (0 in checkpoints saved before pages were counted).
    pub(crate) pages: u64,
    #[serde(flatten)]
    pub(crate) counts: Pass,
    /// Its lease, in a checkpoint table; null in a folder.
    pub(crate) lease: Option<LeaseStatus>,
}

/// Who holds a segment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct LeaseStatus {
    pub(crate) owner: String,
    /// When it ends unless renewed (milliseconds since the Unix epoch), and whether it held when
    /// the checkpoints were read.
    pub(crate) until: u64,
    pub(crate) held: bool,
}

/// The passes more than this are not looked for (a migration runs `--passes`, 3 by default).
const MOST_PASSES: u32 = 1000;

/// Where the migration `m` stands, by its checkpoints; and the read units that spent.
pub(crate) async fn status(
    client: &Client,
    ctx: &Context<'_>,
    m: &MigrationAsk,
) -> Result<(StatusDocument, f64), AskError> {
    let (lock, lock_path) = (ctx.lock, ctx.lock_path);
    let from = crate::migrate::layouts::sources(lock, lock_path, m)?;
    // Read only: no lease is taken, so none is named.
    let store = Store::open(client, m, (None, 0), &from.join("+")).await?;
    // Only this migration's checkpoints: a folder another migration used says so.
    let identity = MigrationIdentity { table: m.table.clone(), from: from.clone(), to: m.to.clone() };
    let marked = store.holds_another(&identity)?.is_some();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
    let (mut passes, mut units) = (Vec::new(), 0.0);
    for pass in 1..=MOST_PASSES {
        let (segments, spent) = store.segments(pass).await?;
        units += spent;
        if segments.is_empty() {
            break;
        }
        passes.push(pass_status(pass, &segments, now));
    }
    let (report, spent) = store.report().await?;
    units += spent;
    // A report kept by another migration (checkpoints saved before migrations were marked).
    if let Some(r) = report.as_ref().filter(|_| !marked) {
        let kept = MigrationIdentity { table: r.table.clone(), from: r.from.clone(), to: r.to.clone() };
        if kept != identity {
            return Err(AskError::bad(format!(
                "{} holds the report of the migration of {kept}, not of {identity}; expected the checkpoints of that \
                 migration",
                store.describe()
            )));
        }
    }
    let state = state(&passes, report.as_ref());
    let doc = StatusDocument {
        format: StatusFormat,
        table: m.table.clone(),
        from,
        to: m.to.clone(),
        checkpoints: store.describe(),
        state,
        passes,
        report,
        command: m.status_command_line(ctx).argv,
    };
    Ok((doc, units))
}

fn pass_status(pass: u32, segments: &[SegmentState], now: u64) -> PassStatus {
    let mut sum = sortkey_core::dynamodb::Progress::default();
    segments.iter().for_each(|s| sum.add(&s.progress));
    let total = segments.iter().map(|s| s.cursor.total.max(0) as u32).max().unwrap_or(0);
    let segments: Vec<SegmentStatus> = segments
        .iter()
        .map(|s| SegmentStatus {
            segment: s.cursor.segment.max(0) as u32,
            done: s.cursor.done,
            after: s.cursor.after.clone(),
            pages: s.progress.pages,
            counts: Pass::from(&s.progress),
            lease: s.lease.as_ref().map(|l| LeaseStatus {
                owner: l.owner.clone(),
                until: l.until,
                held: l.holds_at(now),
            }),
        })
        .collect();
    let finished = segments.iter().filter(|s| s.done).count() as u32;
    PassStatus { pass, total, finished, totals: Pass::from(&sum), segments }
}

/// The migration in a few words.
fn state(passes: &[PassStatus], report: Option<&MigrateDocument>) -> String {
    let Some(last) = passes.last() else { return "not started: no checkpoint saved".to_owned() };
    let held = last.segments.iter().filter(|s| !s.done && s.lease.as_ref().is_some_and(|l| l.held)).count();
    if !last.is_finished() {
        let running = if held > 0 { format!(", {held} leased now") } else { String::new() };
        return format!("pass {}: {} of {} segments finished{running}", last.pass, last.finished, last.total);
    }
    match report.and_then(|r| r.verdict.as_ref()) {
        Some(v) if v.complete => format!("finished after pass {}: complete, no key left to move", last.pass),
        Some(v) => format!(
            "pass {} finished: {} left to move, {} that cannot; run again",
            last.pass,
            output::counted(v.in_old, "key"),
            v.cannot_move
        ),
        None => format!("pass {} finished; no verdict kept yet", last.pass),
    }
}

impl Document for StatusDocument {
    fn print_table(&self) {
        outln!("{}: {} -> {}, checkpoints in {}", self.table, self.from.join(", "), self.to, shown(&self.checkpoints));
        outln!("{}", self.state);
        for p in &self.passes {
            outln!("pass {}: {} of {} segments finished", p.pass, p.finished, p.total);
            let mut t = output::table(&["segment", "done", "pages", "read", "moved", "changed", "lease", "after"]);
            for s in &p.segments {
                let lease = s.lease.as_ref().map_or(String::new(), |l| {
                    format!("{} {}", shown(&l.owner), if l.held { "(held)" } else { "(expired)" })
                });
                let after = s.after.as_ref().map_or(String::new(), |(pk, sk)| format!("{} {}", shown(pk), shown(sk)));
                t.add_row([
                    s.segment.to_string(),
                    s.done.to_string(),
                    s.pages.to_string(),
                    s.counts.read.to_string(),
                    s.counts.moved.to_string(),
                    s.counts.changed.to_string(),
                    lease,
                    after,
                ]);
            }
            outln!("{t}");
        }
    }
}
