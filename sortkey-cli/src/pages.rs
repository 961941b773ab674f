//! Scan segments read in parallel, one task each: pages of a few attributes with the key each
//! segment goes on after, rate-limited, for `sortkey audit` and `sortkey migrate`; and their
//! progress bar.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::Arc;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sortkey_core::dynamodb::{RateShare, worker_index};
use tokio::sync::mpsc;

use crate::outcome::AskError;
use crate::output::Output;

/// An item or a key, as the SDK gives it.
pub(crate) type Item = HashMap<String, AttributeValue>;

/// One page of a segment: its items (or what the segment's task made of them), how many, and
/// the key the segment goes on after (`None` at its end).
pub(crate) struct Page<T = Vec<Item>> {
    /// The caller's slot of the segment.
    pub(crate) slot: usize,
    pub(crate) items: T,
    pub(crate) count: usize,
    pub(crate) next: Option<Item>,
    /// The read units DynamoDB counted for the page (its `ConsumedCapacity`).
    pub(crate) read_units: f64,
}

/// What each segment's task makes of a page's items before sending it: work done on every
/// core, the segments side by side, rather than where the pages are gathered.
pub(crate) type Digest<T> = Arc<dyn Fn(Vec<Item>) -> T + Send + Sync>;

/// One segment of a split, as a report names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct SegmentOf {
    /// The segment, `0..total`.
    pub(crate) segment: u32,
    /// The number of segments the table is split into.
    pub(crate) total: u32,
}

/// The total of segments and those this process runs: every one of `segments`, or one of
/// `total` (`segment`, or the job's worker index: JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX).
pub(crate) fn split(segments: u32, total: Option<u32>, segment: Option<u32>) -> Result<(u32, Vec<u32>), AskError> {
    let Some(total) = total else {
        return Ok((segments, (0..segments).collect()));
    };
    let index = match segment {
        Some(index) => index,
        None => match worker_index()? {
            Some(index) => index as u32,
            None => {
                return Err(AskError::bad(
                    "--total needs --segment I, or a worker index in JOB_COMPLETION_INDEX (Kubernetes Indexed Job) \
                     or AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array job)",
                ));
            }
        },
    };
    if index >= total {
        return Err(AskError::bad(format!(
            "segment {index} is outside a split into {total} segments (0 to {})",
            total - 1
        )));
    }
    Ok((total, vec![index]))
}

/// What is read: the key attributes `names` of a table (or of its index).
#[derive(Clone)]
pub(crate) struct Source {
    pub(crate) client: Client,
    pub(crate) table: String,
    pub(crate) index: Option<String>,
    /// The attributes to read, the Scan's projection; none, the whole items.
    pub(crate) names: Vec<String>,
}

/// Reads the segments `starts` (each a slot of the caller's, the segment, and the key to start
/// after) of a split into `total`, in parallel, at most `rate` items a second over them all (each
/// its [`RateShare`]): their pages, or the error that stops one, come out of the returned
/// channel, which closes when every segment is read.
pub(crate) fn read(
    source: &Source,
    starts: Vec<(usize, u32, Option<Item>)>,
    total: u32,
    rate: Option<u64>,
) -> mpsc::Receiver<Result<Page, AskError>> {
    read_with(source, starts, total, rate, Arc::new(|items| items))
}

/// [`read`], each page's items made into `digest`'s value by the segment's own task.
pub(crate) fn read_with<T: Send + 'static>(
    source: &Source,
    starts: Vec<(usize, u32, Option<Item>)>,
    total: u32,
    rate: Option<u64>,
    digest: Digest<T>,
) -> mpsc::Receiver<Result<Page<T>, AskError>> {
    let (send, receive) = mpsc::channel(16);
    let share = rate.map(|rate| RateShare::new(rate as f64, starts.len()));
    for (slot, segment, start) in starts {
        let reader = Reader { source: source.clone(), segment, total, share };
        tokio::spawn(reader.read(slot, start, send.clone(), digest.clone()));
    }
    receive
}

/// What one segment's task reads.
struct Reader {
    source: Source,
    segment: u32,
    total: u32,
    /// Its share of the rate, when rate-limited.
    share: Option<RateShare>,
}

impl Reader {
    /// Reads the segment from `start` to its end, sending each page (or the error that stops it)
    /// to `send`; a page at most the rate's share a second, and a pause after each until its time
    /// is due.
    async fn read<T: Send + 'static>(
        self,
        slot: usize,
        mut start: Option<Item>,
        send: mpsc::Sender<Result<Page<T>, AskError>>,
        digest: Digest<T>,
    ) {
        let projection: Vec<String> = (0..self.source.names.len()).map(|i| format!("#k{i}")).collect();
        loop {
            let began = tokio::time::Instant::now();
            let mut request = self
                .source
                .client
                .scan()
                .table_name(&self.source.table)
                .segment(self.segment as i32)
                .total_segments(self.total as i32)
                .set_projection_expression((!projection.is_empty()).then(|| projection.join(", ")))
                .set_index_name(self.source.index.clone())
                .set_exclusive_start_key(start.take())
                .return_consumed_capacity(ReturnConsumedCapacity::Total);
            for (i, name) in self.source.names.iter().enumerate() {
                request = request.expression_attribute_names(format!("#k{i}"), name);
            }
            if let Some(share) = &self.share {
                request = request.limit(share.page_limit(1000));
            }
            let page = match request.send().await {
                Ok(page) => page,
                Err(e) => {
                    let doing = format!("cannot scan {} (segment {})", self.source.table, self.segment);
                    let _ = send.send(Err(AskError::request(doing, &e))).await;
                    return;
                }
            };
            let read_units = page.consumed_capacity().and_then(|c| c.capacity_units()).unwrap_or_default();
            let next = page.last_evaluated_key().filter(|k| !k.is_empty()).cloned();
            let items = page.items().to_vec();
            let count = items.len();
            let end = next.is_none();
            start = next.clone();
            let items = digest(items);
            if send.send(Ok(Page { slot, items, count, next, read_units })).await.is_err() || end {
                return;
            }
            if let Some(share) = &self.share {
                share.pace(began, count as u64).await;
            }
        }
    }
}

/// A progress bar on standard error when it is a terminal and the output is a table (not one
/// JSON document): items read, items per second and the time left against an estimate.
pub(crate) fn progress_bar(output: Output) -> Option<ProgressBar> {
    (std::io::stderr().is_terminal() && output == Output::Table).then(bar)
}

/// [`progress_bar`] counting bytes (of an export's files) instead of items.
pub(crate) fn bytes_bar(output: Output) -> Option<ProgressBar> {
    let bar = progress_bar(output)?;
    let style = ProgressStyle::with_template(
        "{bar:30} {binary_bytes}/{binary_total_bytes}, {binary_bytes_per_sec}, {eta} left",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    Some(bar)
}

fn bar() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template("{bar:30} {human_pos}/~{human_len} items, {per_sec}, {eta} left")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}
