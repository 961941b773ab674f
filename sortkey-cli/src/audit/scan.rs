//! The table's items by parallel Scan segments: all of them in this process, or one of `--total`
//! (a worker of a job on many machines), each segment's cursor and the audit so far saved in the
//! partial report after every page when there is one, and resumed from it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use aws_sdk_dynamodb::Client;
use indicatif::ProgressBar;
use sortkey_core::LockFile;

use crate::ask::AuditAsk;
use crate::ask::Connection;
use crate::audit::attribute::{Attribute, attributes, read_names};
use crate::audit::partial::{self, Partial, Segment, StoredKey};
use crate::outcome::AskError;
use crate::pages::{self, Item, Source};
use crate::session::Session;
use crate::table;

/// What a Scan audit reads, and where it saves where it stands.
pub(crate) struct ScanPlan {
    pub(crate) table: String,
    /// A global secondary index read instead of the table.
    pub(crate) index: Option<String>,
    /// The key attributes (partition, sort) when given; else the table's (or index's) key schema.
    pub(crate) keys: Option<(String, String)>,
    /// The number of segments the table is split into, and those this process reads.
    pub(crate) total: u32,
    pub(crate) numbers: Vec<u32>,
    /// The partial report saved after every page, and resumed from.
    pub(crate) report: Option<PathBuf>,
    /// At most this many items a second.
    pub(crate) rate: Option<u64>,
    /// The connection the segments are read with, kept in the partial report.
    pub(crate) connection: Connection,
}

impl ScanPlan {
    /// The plan of `sortkey audit --table`, read with `connection`.
    fn of(connection: &Connection, audit: &AuditAsk, table: &str) -> Result<ScanPlan, AskError> {
        let (total, numbers) = pages::split(audit.what.segments, audit.total, audit.segment)?;
        Ok(ScanPlan {
            table: table.to_owned(),
            index: audit.what.index.clone(),
            keys: audit.what.pk.clone().zip(audit.what.sk.clone()),
            total,
            numbers,
            report: audit.what.report.clone(),
            rate: audit.rate,
            connection: connection.clone(),
        })
    }
}

/// Where a Scan audit tells how far it is.
pub(crate) trait Progress: Sync {
    /// About how many items there are to read (DynamoDB's estimate of the table's share).
    fn expect(&self, items: u64);
    /// Items read since the last call.
    fn advance(&self, items: u64);
    /// Read units DynamoDB counted since the last call (a terminal's bar does not show them).
    fn spent(&self, _read_units: f64) {}
}

impl Progress for ProgressBar {
    fn expect(&self, items: u64) {
        self.set_length(items);
    }

    fn advance(&self, items: u64) {
        self.inc(items);
    }
}

/// Audits the table's segments that this process runs, from where the partial report (if any)
/// says they stand; returns the audit of those segments.
pub(crate) fn run(session: &Session, audit: &AuditAsk, table: &str) -> Result<Partial, AskError> {
    let plan = ScanPlan::of(&session.connection, audit, table)?;
    session.runtime.block_on(async {
        let client = session.client().await;
        // A progress bar on a terminal, unless the output is one JSON document.
        let bar = session.progress_bar();
        let (lock, lock_path) = (&session.lock, session.lock_path.as_str());
        let state = read(&client, &plan, lock, lock_path, bar.as_ref().map(|b| b as _)).await;
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        state
    })
}

/// The audit of `plan`'s segments by `lock`'s layouts (read from `lock_path`), from where its
/// partial report (if any) says they stand, saved there after every page; `progress` told
/// how far it is.
pub(crate) async fn read(
    client: &Client,
    plan: &ScanPlan,
    lock: &LockFile,
    lock_path: &str,
    progress: Option<&dyn Progress>,
) -> Result<Partial, AskError> {
    let lock_text = partial::lock_text(lock);
    let saved = match &plan.report {
        Some(path) => partial::load(path)?,
        None => None,
    };
    let (table, total, numbers) = (plan.table.as_str(), plan.total, &plan.numbers);
    let mut state = match saved {
        Some(state) => {
            let path = plan.report.as_deref().map(Path::display).map(|p| p.to_string()).unwrap_or_default();
            state.check_resumes(&path, table, plan.index.as_deref(), &lock_text, total, numbers)?;
            state
        }
        None => {
            let (pk, sk) = match &plan.keys {
                Some((pk, sk)) => (pk.clone(), Some(sk.clone())),
                None => table::key_names(client, table, plan.index.as_deref()).await?,
            };
            Partial {
                table: table.to_owned(),
                index: plan.index.clone(),
                export: None,
                total,
                segments: numbers.iter().map(|&number| Segment { number, after: None, done: false }).collect(),
                lock: lock_text,
                attributes: attributes(lock, lock_path, Some(table), (pk, sk))?,
                connection: plan.connection.clone(),
            }
        }
    };
    if state.done() {
        return Ok(state);
    }
    if let Some(progress) = progress {
        let items = table::item_count(client, table).await.unwrap_or(0);
        progress.expect(items * numbers.len() as u64 / u64::from(total));
    }
    scan(client, plan, &mut state, progress).await?;
    Ok(state)
}

/// Scans the unfinished segments of `state` in parallel; their pages come back here to be
/// classified, and the state is saved after each when there is a partial report.
async fn scan(
    client: &Client,
    plan: &ScanPlan,
    state: &mut Partial,
    progress: Option<&dyn Progress>,
) -> Result<(), AskError> {
    // The key attributes audited, and the partition key that counts old keys by partition.
    // A sharded layout's balance adds up its items' bytes: then the whole items (no projection).
    let names = match state.attributes.iter().any(|a| a.sized) {
        true => Vec::new(),
        false => read_names(&state.attributes),
    };
    let running: Vec<(usize, &Segment)> = state.segments.iter().enumerate().filter(|(_, s)| !s.done).collect();
    let source = Source { client: client.clone(), table: state.table.clone(), index: state.index.clone(), names };
    let starts = running
        .into_iter()
        .map(|(slot, s)| Ok((slot, s.number, s.after.as_ref().map(StoredKey::item).transpose()?)))
        .collect::<Result<_, AskError>>()?;
    // Each segment's task classifies its own pages into an audit of that page alone; here they
    // are merged, in any order (the report does not depend on it), and saved.
    let templates: Vec<Attribute> = state.attributes.iter().map(Attribute::empty_like).collect();
    let classify = move |items: Vec<Item>| -> Vec<Attribute> {
        let mut audits: Vec<Attribute> = templates.iter().map(Attribute::empty_like).collect();
        for item in &items {
            for attribute in audits.iter_mut() {
                attribute.observe(item);
            }
        }
        audits
    };
    let mut receive = pages::read_with(&source, starts, state.total, plan.rate, Arc::new(classify));
    while let Some(page) = receive.recv().await {
        let page = page?;
        if let Some(progress) = progress {
            progress.advance(page.count as u64);
            progress.spent(page.read_units);
        }
        for (total, part) in state.attributes.iter_mut().zip(&page.items) {
            total.merge(part)?;
        }
        let segment = &mut state.segments[page.slot];
        segment.done = page.next.is_none();
        segment.after = match &page.next {
            Some(key) => Some(StoredKey::of(key).ok_or_else(|| {
                AskError::bad(format!(
                    "segment {}: a page ends at a key of a type no key attribute has",
                    segment.number
                ))
            })?),
            None => None,
        };
        if let Some(path) = &plan.report {
            partial::save(path, state)?;
        }
    }
    Ok(())
}
