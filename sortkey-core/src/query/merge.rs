//! The merged read of a sharded partition: the `N` partitions of its shards read back as the one
//! partition they replace, exactly, a page at a time.
//!
//! [`Merge`] is the algorithm without any I/O: it says which reads to make ([`Merge::reads`]),
//! takes their answers ([`Merge::answer`]) and, once it needs no more, gives the page
//! ([`Merge::finish`]). The DynamoDB driver (`dynamodb::query_merged`, feature `dynamodb`) runs
//! its reads as Queries, concurrently; a test runs them against a map; the `sortkey` command
//! against a table through a lock.
//!
//! What it returns is what one Query over the union of the shards would: the items whose sort
//! keys the condition selects, in sort key order (reversed for a reverse read), `limit` of them,
//! from where the cursor left off. Two shards may hold the same sort key (with `random` shards;
//! with `by = field` the shard is a function of the sort key, so they cannot): such ties are in
//! shard order, ascending in a forward read and descending in a reverse one, so that a reverse
//! read is the forward one backwards.
//!
//! Each shard is read `share = ceil(1.5 * limit / N)` items at a time, and read again only when
//! all it gave has been returned. Every item read is then either returned (at most `limit`) or
//! still held when the page ends (at most `share` per shard), so a page reads at most
//! `limit + N * share` items: 260 for a top 100 over 16 shards, where reading `limit` from every
//! shard reads 1,600. After a cursor, a read of `random` shards also reads the cursor's sort key
//! in each shard it may tie in (one item at most each).
//!
//! A page knows whether anything follows it: a full page whose shards hold nothing read and not
//! returned reads one item more of each shard whose last Query stopped at its limit (a
//! `LastEvaluatedKey` says only that the Query stopped, not that more is there), so `next` is
//! `None` on the last page even when it is full, as a single partition's read that asks for one
//! item more knows. Those reads stay within the budget: a shard read for one more holds nothing.

use std::collections::VecDeque;
use std::fmt;

/// Where a merged read's page ended: the last item's sort key and shard. One key, whatever the
/// number of shards; its text (`Display`, [`parse`](Self::parse)) is `<shard>:<sort key>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MergeCursor {
    /// The sort key of the page's last item.
    pub sort: String,
    /// Its shard.
    pub shard: u16,
}

impl MergeCursor {
    /// Reads the text `Display` writes: `<shard>:<sort key>`; `None` for any other.
    pub fn parse(text: &str) -> Option<MergeCursor> {
        let (shard, sort) = text.split_once(':')?;
        let digits = !shard.is_empty() && shard.bytes().all(|b| b.is_ascii_digit());
        Some(MergeCursor { sort: sort.to_owned(), shard: digits.then(|| shard.parse().ok()).flatten()? })
    }
}

impl fmt::Display for MergeCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.shard, self.sort)
    }
}

/// One read a [`Merge`] asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShardRead {
    /// A Query of the shard with the read's key condition: at most `limit` items, in the read's
    /// direction, starting after the sort key `after` (DynamoDB's `ExclusiveStartKey`) when
    /// given. Answer with the items in the order the Query returned them, and whether it said
    /// there may be more (a `LastEvaluatedKey`).
    Query {
        /// The shard, `0..N`.
        shard: u16,
        /// `Limit`.
        limit: usize,
        /// Where the Query starts: after this sort key.
        after: Option<String>,
    },
    /// The item of the cursor's sort key in the shard, if it has one (a `GetItem`): the tie the
    /// cursor's page did not reach. Answer with it or with nothing.
    Tie {
        /// The shard.
        shard: u16,
        /// The cursor's sort key.
        sort: String,
    },
}

impl ShardRead {
    /// The shard read.
    pub fn shard(&self) -> u16 {
        match self {
            ShardRead::Query { shard, .. } | ShardRead::Tie { shard, .. } => *shard,
        }
    }
}

/// A merged read's page: the items, each with its shard, in the order one Query over the union
/// of the shards returns them; where the next page starts; and what it read.
#[derive(Debug, Clone, PartialEq)]
pub struct MergedPage<T> {
    /// The items and their shards.
    pub items: Vec<(u16, T)>,
    /// Where the next page starts, `None` when no shard holds more.
    pub next: Option<MergeCursor>,
    /// The items the reads returned, those left unreturned included: what the page cost.
    pub read: usize,
    /// The reads made.
    pub requests: usize,
    /// The read units the reads consumed, as the driver that made them counted
    /// (DynamoDB's `ConsumedCapacity`); 0 from [`Merge::finish`].
    pub read_units: f64,
}

/// One shard's state.
#[derive(Debug)]
struct Shard<T> {
    /// Read and not returned yet, in the read's order.
    held: VecDeque<(String, T)>,
    /// The sort key the next Query starts after.
    after: Option<String>,
    /// The cursor's sort key, to read as a tie before the first Query.
    tie: Option<String>,
    /// Whether the shard has nothing more to read.
    done: bool,
    /// Whether a read of it is out.
    reading: bool,
}

/// The merged read of one page over `N` shards: see the module's documentation.
///
/// ```
/// use sortkey_core::query::{Merge, ShardRead};
///
/// // Two shards; the union in order is a, b, c, d.
/// let shards = [vec!["a", "d"], vec!["b", "c"]];
/// let mut merge = Merge::new(2, 3, true, None, false);
/// while !merge.is_done() {
///     for read in merge.reads() {
///         let ShardRead::Query { shard, limit, after } = &read else { unreachable!() };
///         let items: Vec<(String, ())> = shards[usize::from(*shard)]
///             .iter()
///             .filter(|k| after.as_deref().is_none_or(|a| **k > a))
///             .take(*limit)
///             .map(|k| (k.to_string(), ()))
///             .collect();
///         let more = items.len() == *limit;
///         merge.answer(&read, items, more);
///     }
/// }
/// let page = merge.finish();
/// let keys: Vec<u16> = page.items.iter().map(|(shard, _)| *shard).collect();
/// assert_eq!(keys, [0, 1, 1]); // a, b, c
/// assert_eq!(page.next.unwrap().to_string(), "1:c");
/// ```
#[derive(Debug)]
pub struct Merge<T> {
    shards: Vec<Shard<T>>,
    forward: bool,
    limit: usize,
    share: usize,
    items: Vec<(u16, T)>,
    last: Option<MergeCursor>,
    read: usize,
    requests: usize,
    /// Whether one sort key in two shards is two copies of one item (see [`copies`](Self::copies)).
    copies: bool,
}

impl<T> Merge<T> {
    /// The read of at most `limit` items (at least one) over `shards` shards (at least one),
    /// forward (ascending sort keys) or not, after `cursor` (the previous page's `next`).
    /// `ties` says whether two shards can hold the same sort key (`random` shards): then a
    /// cursor's sort key is read again in the shards after it in tie order.
    pub fn new(shards: u16, limit: usize, forward: bool, cursor: Option<&MergeCursor>, ties: bool) -> Self {
        let (n, limit) = (usize::from(shards.max(1)), limit.max(1));
        let share = (3 * limit).div_ceil(2 * n).max(1);
        let shards = (0..n)
            .map(|i| {
                let i = u16::try_from(i).unwrap_or(u16::MAX);
                // In tie order the shards after the cursor's may hold its sort key too.
                let after_cursor = cursor.is_some_and(|c| if forward { i > c.shard } else { i < c.shard });
                Shard {
                    held: VecDeque::new(),
                    after: cursor.map(|c| c.sort.clone()),
                    tie: cursor.filter(|_| ties && after_cursor).map(|c| c.sort.clone()),
                    done: false,
                    reading: false,
                }
            })
            .collect();
        Merge { shards, forward, limit, share, items: Vec::new(), last: None, read: 0, requests: 0, copies: false }
    }

    /// The same read over shards that may hold copies of one item: the partitions of two shard
    /// counts while items move from the old to the new (the current count's shards first, then
    /// the old ones). A sort key in two shards is then one item, returned once, from the first
    /// shard that holds it (the current copy), in either direction; the other copies are read and
    /// dropped. Tie reads are never needed: after a cursor, every copy of its sort key was seen.
    ///
    /// ```
    /// use sortkey_core::query::{Merge, ShardRead};
    ///
    /// // Shard 0 is the new count's, shard 1 the old one's: `b` is in both mid-move.
    /// let shards = [vec!["b", "c"], vec!["a", "b"]];
    /// let mut merge = Merge::new(2, 10, true, None, false).copies();
    /// while !merge.is_done() {
    ///     for read in merge.reads() {
    ///         let ShardRead::Query { shard, limit, after } = &read else { unreachable!() };
    ///         let items: Vec<(String, String)> = shards[usize::from(*shard)]
    ///             .iter()
    ///             .filter(|k| after.as_deref().is_none_or(|a| **k > a))
    ///             .take(*limit)
    ///             .map(|k| (k.to_string(), format!("{k}@{shard}")))
    ///             .collect();
    ///         let more = items.len() == *limit;
    ///         merge.answer(&read, items, more);
    ///     }
    /// }
    /// let items: Vec<String> = merge.finish().items.into_iter().map(|(_, i)| i).collect();
    /// assert_eq!(items, ["a@1", "b@0", "c@0"]);
    /// ```
    pub fn copies(mut self) -> Self {
        self.copies = true;
        for shard in &mut self.shards {
            shard.tie = None;
        }
        self
    }

    /// The items a shard's Query asks for at a time: `ceil(1.5 * limit / N)`.
    pub fn share(&self) -> usize {
        self.share
    }

    /// The reads to make now, each once: a shard is read when everything it gave is returned and
    /// it may hold more. They can run concurrently; answer each with [`answer`](Self::answer).
    pub fn reads(&mut self) -> Vec<ShardRead> {
        if self.items.len() >= self.limit {
            return self.peeks();
        }
        let want = self.share.min(self.limit - self.items.len());
        let mut reads = Vec::new();
        for (i, shard) in self.shards.iter_mut().enumerate() {
            if shard.reading || shard.done || !shard.held.is_empty() {
                continue;
            }
            let i = u16::try_from(i).unwrap_or(u16::MAX);
            shard.reading = true;
            reads.push(match &shard.tie {
                Some(sort) => ShardRead::Tie { shard: i, sort: sort.clone() },
                None => ShardRead::Query { shard: i, limit: want, after: shard.after.clone() },
            });
        }
        self.requests += reads.len();
        reads
    }

    /// A full page knows whether anything follows it: when no shard holds an item it has read
    /// and not returned, each shard that may hold more (its last Query stopped at its limit) is
    /// read for one item more, so that the last page of a read is never followed by an empty
    /// one. None while a read is out (its answer may settle it).
    fn peeks(&mut self) -> Vec<ShardRead> {
        if self.follows_known() || self.shards.iter().any(|s| s.reading) {
            return Vec::new();
        }
        let mut reads = Vec::new();
        for (i, shard) in self.shards.iter_mut().enumerate() {
            if shard.done || shard.tie.is_some() {
                continue;
            }
            shard.reading = true;
            let i = u16::try_from(i).unwrap_or(u16::MAX);
            reads.push(ShardRead::Query { shard: i, limit: 1, after: shard.after.clone() });
        }
        self.requests += reads.len();
        reads
    }

    /// Whether it is known that an item follows the items returned (a shard holds one read and
    /// not returned), or that none does (every shard read to its end).
    fn follows_known(&self) -> bool {
        self.shards.iter().any(|s| !s.held.is_empty()) || self.shards.iter().all(|s| s.done && s.tie.is_none())
    }

    /// The answer to `read`: its items with their sort keys, in the order read, and whether the
    /// shard may hold more after them (a Query's `LastEvaluatedKey`; ignored for a tie). A Query
    /// that returns nothing ends the shard.
    pub fn answer(&mut self, read: &ShardRead, items: Vec<(String, T)>, more: bool) {
        let Some(shard) = self.shards.get_mut(usize::from(read.shard())) else { return };
        shard.reading = false;
        self.read += items.len();
        match read {
            ShardRead::Tie { .. } => shard.tie = None,
            ShardRead::Query { .. } => {
                if let Some((last, _)) = items.last() {
                    shard.after = Some(last.clone());
                }
                shard.done = !more || items.is_empty();
            }
        }
        shard.held.extend(items);
        self.emit();
    }

    /// Returns items while every shard that may hold more has one in hand.
    fn emit(&mut self) {
        while self.items.len() < self.limit {
            if self.shards.iter().any(|s| s.held.is_empty() && (!s.done || s.tie.is_some())) {
                return;
            }
            if planted_bug!(MergeStopsEarly)
                && self.shards.iter().all(|s| s.done)
                && self.shards.iter().map(|s| s.held.len()).sum::<usize>() == 1
            {
                return;
            }
            let (forward, copies) = (self.forward, self.copies);
            let next = self
                .shards
                .iter()
                .enumerate()
                .filter_map(|(i, s)| Some((i, &s.held.front()?.0)))
                .reduce(|a, b| {
                    // Ties: by shard, reversed in a reverse read, unless they are copies (the
                    // first shard's wins either way).
                    let ahead = match (forward, copies) {
                        (_, true) if a.1 == b.1 => b.0 < a.0,
                        (false, _) if a.1 == b.1 && planted_bug!(MergeTiesAscending) => b.0 < a.0,
                        (true, _) => (b.1, b.0) < (a.1, a.0),
                        (false, _) => (b.1, b.0) > (a.1, a.0),
                    };
                    if ahead { b } else { a }
                })
                .map(|(i, _)| i);
            let Some(i) = next else { return };
            let Some((sort, item)) = self.shards[i].held.pop_front() else { return };
            if copies {
                // Every other copy is at the head of its shard: everything before it is returned.
                for other in &mut self.shards {
                    if other.held.front().is_some_and(|(k, _)| *k == sort) {
                        other.held.pop_front();
                    }
                }
            }
            let shard = u16::try_from(i).unwrap_or(u16::MAX);
            self.items.push((shard, item));
            self.last = Some(MergeCursor { sort, shard });
        }
    }

    /// Whether the page is complete: `limit` items and it is known whether more follow, or
    /// every shard read to its end.
    pub fn is_done(&self) -> bool {
        let idle = !self.shards.iter().any(|s| s.reading);
        if self.items.len() >= self.limit {
            return idle && self.follows_known();
        }
        idle && self.shards.iter().all(|s| s.held.is_empty() && s.done && s.tie.is_none())
    }

    /// The page: its items, the cursor after its last one (`None` when no shard holds more), and
    /// what it read.
    pub fn finish(self) -> MergedPage<T> {
        let more = self.shards.iter().any(|s| !s.held.is_empty() || !s.done || s.tie.is_some());
        let next = if more && self.items.len() >= self.limit { self.last } else { None };
        MergedPage { items: self.items, next, read: self.read, requests: self.requests, read_units: 0.0 }
    }
}
