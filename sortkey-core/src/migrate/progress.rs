//! Where a backfill stands: a segment's cursor and what has been done, which a worker saves in a
//! checkpoint (both serialize) and hands back to resume.

/// Where one Scan segment of a backfill stands: resume a backfill by handing this back. It
/// serializes (serde), so that a worker keeps it in a checkpoint after every page.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SegmentCursor {
    /// The segment, `0..total`.
    pub segment: i32,
    /// The number of segments the table is split into.
    pub total: i32,
    /// The primary key (partition value, sort value) the segment's next page starts after;
    /// `None` at the start.
    pub after: Option<(String, String)>,
    /// Whether the segment is finished.
    pub done: bool,
}

impl SegmentCursor {
    /// The start of segment `segment` of `total`.
    pub fn start(segment: i32, total: i32) -> Self {
        SegmentCursor { segment, total, after: None, done: false }
    }

    /// The starts of every segment of `total`, one per worker.
    pub fn all(total: i32) -> Vec<Self> {
        (0..total).map(|s| SegmentCursor::start(s, total)).collect()
    }
}

/// What a backfill has done so far. It serializes (serde), beside the cursor in a checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Progress {
    /// Items read by the Scan.
    pub scanned: u64,
    /// Items rewritten under their current key, the old one deleted.
    pub rewritten: u64,
    /// Items already in the current layout, left alone.
    pub current: u64,
    /// Old items whose current key someone else had written meanwhile: that item was kept and
    /// the old one deleted.
    pub superseded: u64,
    /// Old items that kept changing between their reads and the write (each read again and
    /// tried several times), or went away meanwhile: left for the next run.
    pub changed: u64,
    /// Items in no layout the migration moves from (another entity's keys in the same table),
    /// left alone: a [`DynMigration`](crate::DynMigration)'s; a key type's backfill stops at
    /// such an item instead. The rank counter items of the fields a backfill keeps ranked
    /// (`Backfill::ranked`) count here too.
    #[serde(default)]
    pub other: u64,
    /// Scan pages read (checkpoints saved before this was counted read 0).
    #[serde(default)]
    pub pages: u64,
}

impl Progress {
    /// The items this progress found in an older layout and left there: those that changed
    /// while they were being moved, which a later pass moves.
    pub fn old_left(&self) -> u64 {
        self.changed
    }

    /// Whether the pass this progress counts found nothing to do: every item it read was in the
    /// current layout (nothing rewritten, superseded or left changed).
    pub fn is_clean(&self) -> bool {
        self.rewritten == 0 && self.superseded == 0 && (self.changed == 0 || planted_bug!(IsCleanIgnoresChanged))
    }

    /// Adds the counts of `other`: the totals of several segments or runs.
    pub fn add(&mut self, other: &Progress) {
        self.scanned += other.scanned;
        self.rewritten += other.rewritten;
        self.current += other.current;
        self.superseded += other.superseded;
        self.changed += other.changed;
        self.other += other.other;
        self.pages += other.pages;
    }
}

#[cfg(test)]
mod tests {
    use super::Progress;

    /// A pass is clean only when it found nothing to do: an item moved, superseded or left
    /// changed (which a further pass is for) each makes it not clean, whatever else it read.
    #[test]
    fn a_pass_is_clean_only_when_it_found_nothing_to_do() {
        let read = Progress { scanned: 40, current: 30, other: 10, pages: 6, ..Progress::default() };
        assert!(read.is_clean());
        assert!(Progress::default().is_clean());
        for dirty in
            [Progress { rewritten: 1, ..read }, Progress { superseded: 1, ..read }, Progress { changed: 1, ..read }]
        {
            assert!(!dirty.is_clean(), "{dirty:?}");
        }
        let mut total = read;
        total.add(&Progress { changed: 2, ..Progress::default() });
        assert!(!total.is_clean(), "a segment's changed item makes the pass not clean");
    }
}
