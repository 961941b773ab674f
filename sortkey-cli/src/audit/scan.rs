//! The table's items by parallel Scan segments: all of them in this process, or one of `--total`
//! (a worker of a job on many machines), each segment's cursor and the audit so far saved in the
//! partial report after every page when there is one, and resumed from it.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::Path;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sortkey_core::LockFile;
use sortkey_core::dynamodb::worker_index;
use tokio::sync::mpsc;

use crate::audit::attributes;
use crate::audit::partial::{self, Partial, Segment};
use crate::cli::{Args, AuditArgs, Output};
use crate::table::sdk_message;
use crate::{Failure, connect, table};

/// An item or a key, as the SDK gives it.
pub(crate) type Item = HashMap<String, AttributeValue>;

/// One page of a segment: its items, and the key the segment goes on after (`None` at its end).
struct Page {
    /// The segment's place in [`Partial::segments`].
    slot: usize,
    items: Vec<Item>,
    next: Option<Item>,
}

/// Audits the table's segments that this process runs, from where the partial report (if any)
/// says they stand; returns the audit of those segments.
pub(crate) fn run(args: &Args, audit: &AuditArgs, table: &str, lock: &LockFile) -> Result<Partial, Failure> {
    let (total, numbers) = segments(audit)?;
    let lock_text = partial::lock_text(lock);
    let saved = match &audit.report {
        Some(path) => partial::load(path)?,
        None => None,
    };
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let client = connect::client(args).await;
        let mut state = match saved {
            Some(state) => {
                let path = audit.report.as_deref().map(Path::display).map(|p| p.to_string()).unwrap_or_default();
                state.check_resumes(&path, table, audit.index.as_deref(), &lock_text, total, &numbers)?;
                state
            }
            None => {
                let (pk, sk) = match (&audit.pk, &audit.sk) {
                    (Some(pk), Some(sk)) => (pk.clone(), Some(sk.clone())),
                    _ => table::key_names(&client, table, audit.index.as_deref()).await?,
                };
                Partial {
                    table: table.to_owned(),
                    index: audit.index.clone(),
                    total,
                    segments: numbers.iter().map(|&number| Segment { number, after: None, done: false }).collect(),
                    lock: lock_text,
                    attributes: attributes(lock, &args.lock.display().to_string(), pk, sk)?,
                }
            }
        };
        if state.done() {
            return Ok(state);
        }
        // A progress bar on a terminal, unless the output is one JSON document.
        let progress = (std::io::stderr().is_terminal() && args.output() == Output::Table).then(progress_bar);
        if let Some(bar) = &progress {
            let items = table::item_count(&client, table).await.unwrap_or(0);
            bar.set_length(items * numbers.len() as u64 / u64::from(total));
        }
        scan(&client, audit, &mut state, progress.as_ref()).await?;
        if let Some(bar) = progress {
            bar.finish_and_clear();
        }
        Ok(state)
    })
}

/// The total of segments and those this process runs: every one of `--segments`, or one of
/// `--total` (`--segment`, or the job's worker index).
fn segments(audit: &AuditArgs) -> Result<(u32, Vec<u32>), Failure> {
    let Some(total) = audit.total else {
        return Ok((audit.segments, (0..audit.segments).collect()));
    };
    let index = match audit.segment {
        Some(index) => index,
        None => match worker_index()? {
            Some(index) => index as u32,
            None => {
                return Err(Failure(
                    "--total needs --segment I, or a worker index in JOB_COMPLETION_INDEX (Kubernetes Indexed Job) \
                     or AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array job)"
                        .into(),
                ));
            }
        },
    };
    if index >= total {
        return Err(Failure(format!("segment {index} is outside a split into {total} segments (0 to {})", total - 1)));
    }
    Ok((total, vec![index]))
}

/// Scans the unfinished segments of `state` in parallel; their pages come back here to be
/// classified, and the state is saved after each when there is a partial report.
async fn scan(
    client: &Client,
    audit: &AuditArgs,
    state: &mut Partial,
    progress: Option<&ProgressBar>,
) -> Result<(), Failure> {
    let names: Vec<String> = state.attributes.iter().map(|a| a.name.clone()).collect();
    let running: Vec<(usize, &Segment)> = state.segments.iter().enumerate().filter(|(_, s)| !s.done).collect();
    // Each segment's share of `--rate`, in items per second.
    let share = audit.rate.map(|rate| (rate as f64 / running.len() as f64).max(1.0));
    let (send, mut receive) = mpsc::channel::<Result<Page, Failure>>(16);
    for (slot, segment) in running {
        let reader = Reader {
            client: client.clone(),
            table: state.table.clone(),
            index: state.index.clone(),
            names: names.clone(),
            segment: segment.number,
            total: state.total,
            share,
        };
        tokio::spawn(reader.read(slot, segment.after.clone(), send.clone()));
    }
    drop(send);
    while let Some(page) = receive.recv().await {
        let page = page?;
        if let Some(bar) = progress {
            bar.inc(page.items.len() as u64);
        }
        for item in &page.items {
            for attribute in state.attributes.iter_mut() {
                attribute.observe(item.get(&attribute.name));
            }
        }
        let segment = &mut state.segments[page.slot];
        segment.done = page.next.is_none();
        segment.after = page.next;
        if let Some(path) = &audit.report {
            partial::save(path, state)?;
        }
    }
    Ok(())
}

/// What one segment's task reads.
struct Reader {
    client: Client,
    table: String,
    index: Option<String>,
    /// The key attributes, the Scan's projection.
    names: Vec<String>,
    segment: u32,
    total: u32,
    /// Items per second, when rate-limited.
    share: Option<f64>,
}

impl Reader {
    /// Reads the segment from `start` to its end, sending each page (or the error that stops it)
    /// to `send`; a page at most the rate's share a second, and a pause after each until its time
    /// is due.
    async fn read(self, slot: usize, mut start: Option<Item>, send: mpsc::Sender<Result<Page, Failure>>) {
        let projection: Vec<String> = (0..self.names.len()).map(|i| format!("#k{i}")).collect();
        loop {
            let began = tokio::time::Instant::now();
            let mut request = self
                .client
                .scan()
                .table_name(&self.table)
                .segment(self.segment as i32)
                .total_segments(self.total as i32)
                .projection_expression(projection.join(", "))
                .set_index_name(self.index.clone())
                .set_exclusive_start_key(start.take());
            for (i, name) in self.names.iter().enumerate() {
                request = request.expression_attribute_names(format!("#k{i}"), name);
            }
            if let Some(share) = self.share {
                request = request.limit(share.min(1000.0) as i32);
            }
            let page = match request.send().await {
                Ok(page) => page,
                Err(e) => {
                    let message = format!("cannot scan {} (segment {}): {}", self.table, self.segment, sdk_message(&e));
                    let _ = send.send(Err(Failure(message))).await;
                    return;
                }
            };
            let next = page.last_evaluated_key().filter(|k| !k.is_empty()).cloned();
            let items = page.items().to_vec();
            let count = items.len();
            let end = next.is_none();
            start = next.clone();
            if send.send(Ok(Page { slot, items, next })).await.is_err() || end {
                return;
            }
            if let Some(share) = self.share {
                let due = std::time::Duration::from_secs_f64(count as f64 / share);
                tokio::time::sleep_until(began + due).await;
            }
        }
    }
}

/// Items read, items per second and the time left against DescribeTable's estimate.
fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template("{bar:30} {human_pos}/~{human_len} items, {per_sec}, {eta} left")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}
