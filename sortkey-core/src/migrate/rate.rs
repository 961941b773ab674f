//! One worker's share of a rate limit over a job of several workers (Scan segments read side by
//! side, processes on many machines): its items a second, the page size that keeps its pauses
//! short, and the pause that keeps it to its share. What the backfill and the `sortkey` command's
//! Scans pace themselves by.

use std::time::Duration;

use tokio::time::Instant;

/// A worker's share of a job's rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateShare {
    per_second: f64,
}

impl RateShare {
    /// The share of one of `workers` workers of a job limited to `items_per_second` in all: an
    /// even split, at least one item a second.
    pub fn new(items_per_second: f64, workers: usize) -> RateShare {
        RateShare { per_second: (items_per_second / workers.max(1) as f64).max(1.0) }
    }

    /// Items a second.
    pub fn per_second(&self) -> f64 {
        self.per_second
    }

    /// A page's `Limit`: at most the share (so that a page is at most a second's worth and the
    /// pause after it is short), at most `most`, at least 1.
    pub fn page_limit(&self, most: i32) -> i32 {
        (self.per_second.min(f64::from(most)) as i32).max(1)
    }

    /// Waits until `items` items read since `since` are due at this rate.
    pub async fn pace(&self, since: Instant, items: u64) {
        tokio::time::sleep_until(since + Duration::from_secs_f64(items as f64 / self.per_second)).await;
    }
}
