//! Bugs planted on purpose, to prove that the deterministic simulation (the `sortkey-sim` test
//! crate) finds them: each a small change to a rule the library depends on, switched on for the
//! current thread only (a simulation runs on one thread), none unless one is planted. Compiled
//! only with the feature `planted-bugs`, which only the workspace's test crate `sortkey-sim`
//! enables; without it every check is the constant `false`.

use std::cell::Cell;

/// A bug the library can be made to have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bug {
    /// The backfill's move deletes the old item without its version condition: a write made
    /// after the Scan is deleted with it.
    MoveWithoutVersion,
    /// The backfill saves a page's checkpoint before the page's moves are made: a worker killed
    /// between the two resumes after items it never moved.
    CheckpointBeforeWrites,
    /// A lease is taken and renewed without a condition on its owner (no fencing): a worker
    /// whose lease ran out while it was paused goes on saving over its successor's.
    LeaseWithoutOwner,
    /// The backfill's move puts the new item and deletes the old one in two requests instead of
    /// one transaction.
    DeleteOutsideTransaction,
    /// A merged read of a sharded partition stops one item before the end.
    MergeStopsEarly,
    /// A read across a key's layout versions returns an item twice when a migration has copied
    /// it and not yet deleted its old copy (the current copy no longer hides the old one).
    VersionCopiesTwice,
    /// A read across a key's layout versions, paged, starts every version's query of the next
    /// page after the cursor's key as the current layout writes it, not as that version's layout
    /// writes the same value: an older version's keys are skipped or read again.
    CursorFromWrongVersion,
    /// A typed condition said on an older layout ignores `desc` on the field its range is on: the
    /// older keys above a bound are read as if below it, and missed.
    EnclosingIgnoresDesc,
    /// An update of an item still under its older key moves it without the condition that the old
    /// item is as read: a write made between the read and the move is lost.
    MoveStoredUnconditioned,
    /// An index key rewritten in place without its conditions (that the attribute still holds
    /// the old key, and the move check): a key written meanwhile from a new value is overwritten
    /// by one made from the value the Scan read.
    InPlaceUnconditioned,
    /// A merged read during a shard-count move reads each partition once, in any order: an
    /// item moved between its new partition's read and its old one's is missed.
    MovingReadOnce,
    /// A batch of moves whose transaction is cancelled deletes its old items as stale (as if
    /// their current keys existed) instead of moving each alone: items are lost.
    CancelledBatchDeletesStale,
    /// A pass's progress is clean though items changed while being moved were left behind:
    /// `run_until_clean` says complete with items still in an older layout.
    IsCleanIgnoresChanged,
    /// A reverse merged read puts ties (one sort key in two `random` shards) in ascending shard
    /// order: the reverse read is not the forward one backwards, and a cursor between ties skips
    /// or repeats items.
    MergeTiesAscending,
    /// A lease's take compares the holder's expiry with the taker's own expiry instead of its
    /// clock: any live lease can be taken, and two workers move one segment at once.
    LeaseNowIsExpiry,
    /// A lease's take returns only the attributes it updated (`UPDATED_NEW`): the saved cursor
    /// is not read back, and every take restarts its segment from the start, totals zeroed.
    LeaseLoadUpdatedNew,
    /// A read across versions Queries the current version before the older ones: an item moved
    /// between the two Queries is in neither's answer, and missed.
    VersionsCurrentFirst,
    /// A ranked item's move (a new score) changes the item but not its rank counters: the
    /// counters no longer equal the items, and ranks read from them are wrong.
    RankMoveWithoutCounters,
    /// A backfill told to keep rank counters (`Backfill::ranked`) moves a run without its
    /// counter changes: the moved runs are in no counter.
    BackfillMoveWithoutCounters,
}

thread_local! {
    static PLANTED: Cell<Option<Bug>> = const { Cell::new(None) };
}

/// Plants `bug` for the current thread (`None`: none), until changed.
pub fn plant(bug: Option<Bug>) {
    PLANTED.with(|p| p.set(bug));
}

/// Whether `bug` is planted on the current thread.
pub fn is(bug: Bug) -> bool {
    PLANTED.with(|p| p.get() == Some(bug))
}
