//! How a sharded partition's items spread over its shards, as an audit counts them: per logical
//! partition (the partition key without its shard) of each sharded layout, the items and bytes
//! in each shard, and the skew, the fullest shard's items over the mean.

use std::collections::BTreeMap;

use crate::dynamic::model::{DynBody, DynLayout};
use crate::dynamic::value::DynValue;
use crate::encoding::shard::Shards;

/// A skew over this, in a partition holding at least [`JUDGED_PER_SHARD`] items a shard on
/// average, is a finding: the fullest shard takes half as many writes again as an even spread.
pub const SKEW_LIMIT: f64 = 1.5;

/// The items a shard must hold on average before its partition's skew is judged: with fewer,
/// chance alone makes some shards twice as full as others.
pub const JUDGED_PER_SHARD: u64 = 4;

/// The items of one logical partition of a sharded layout, shard by shard.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShardBalance {
    /// The sharded layout, by its name in the lock.
    pub layout: String,
    /// The partition without its shard: the layout's text with the shard segment left out
    /// (`SEASON#2026` of `SEASON#2026#07`).
    pub partition: String,
    /// The items of each shard, `0..N`.
    pub items: Vec<u64>,
    /// The bytes of each shard's items, `0..N` (their sizes as DynamoDB counts them, estimated
    /// from above); `None` when the audit read the keys alone (an export, a report of an older
    /// format).
    #[cfg_attr(feature = "serde", serde(default))]
    pub bytes: Option<Vec<u64>>,
}

impl ShardBalance {
    /// The partition's items, over every shard.
    pub fn total(&self) -> u64 {
        self.items.iter().sum()
    }

    /// The fullest shard's items over the mean: 1.0 for an even spread, `N` for one shard
    /// holding every item; 0 for none.
    pub fn skew(&self) -> f64 {
        let total = self.total();
        if total == 0 || self.items.is_empty() {
            return 0.0;
        }
        let mean = total as f64 / self.items.len() as f64;
        self.items.iter().copied().max().unwrap_or(0) as f64 / mean
    }

    /// Whether the skew is a finding: over [`SKEW_LIMIT`] with enough items to judge
    /// ([`JUDGED_PER_SHARD`] a shard on average).
    pub fn is_finding(&self) -> bool {
        self.total() >= JUDGED_PER_SHARD * self.items.len() as u64 && self.skew() > SKEW_LIMIT
    }
}

/// A sharded layout's shard field, and the layout without it (which writes a logical partition).
#[derive(Debug, Clone)]
struct Sharding {
    at: usize,
    shards: Shards,
    without: DynLayout,
}

/// The counts, as an audit keeps them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Balances {
    /// Per layout, in the audit's order: its shard field when it has one.
    sharding: Vec<Option<Sharding>>,
    /// (layout, logical partition) -> items (and bytes, when measured) per shard.
    counts: BTreeMap<(usize, String), Tally>,
}

/// One logical partition's items per shard, and their bytes when every item's size was given.
#[derive(Debug, Clone, Default)]
struct Tally {
    items: Vec<u64>,
    bytes: Option<Vec<u64>>,
}

impl Tally {
    fn new(n: usize) -> Self {
        Tally { items: vec![0; n], bytes: None }
    }

    /// Adds `items` (and `bytes`) shard by shard, growing to the longer; bytes stay measured
    /// only while both sides measured them (or this side has counted nothing yet).
    fn add(&mut self, items: &[u64], bytes: Option<&[u64]>) {
        let empty = self.items.iter().all(|&n| n == 0);
        if self.items.len() < items.len() {
            self.items.resize(items.len(), 0);
        }
        for (slot, more) in self.items.iter_mut().zip(items) {
            *slot += more;
        }
        self.bytes = match (self.bytes.take(), bytes) {
            (Some(mut mine), Some(more)) => {
                if mine.len() < more.len() {
                    mine.resize(more.len(), 0);
                }
                mine.iter_mut().zip(more).for_each(|(slot, more)| *slot += more);
                Some(mine)
            }
            (None, Some(more)) if empty => Some(more.to_vec()),
            (mine, None) if items.iter().all(|&n| n == 0) => mine,
            _ => None,
        };
    }
}

impl Balances {
    pub(crate) fn new(layouts: &[(String, DynLayout)]) -> Self {
        let sharding = layouts
            .iter()
            .map(|(_, layout)| {
                let (at, shards) = layout.shard_field()?;
                let mut without = layout.clone();
                if let DynBody::Fields(fields) = &mut without.key.body {
                    fields.remove(at);
                }
                Some(Sharding { at, shards, without })
            })
            .collect();
        Balances { sharding, counts: BTreeMap::new() }
    }

    /// Counts a key layout `layout` read as `value`, when that layout is sharded, with its item's
    /// size when known.
    pub(crate) fn observe(&mut self, layout: usize, value: &DynValue, bytes: Option<u64>) {
        let Some(Some(sharding)) = self.sharding.get(layout) else { return };
        let DynValue::Key(fields) = value else { return };
        let Some((_, DynValue::Unsigned(shard))) = fields.get(sharding.at) else { return };
        let mut rest = fields.clone();
        rest.remove(sharding.at);
        let Ok(partition) = sharding.without.encode(&DynValue::Key(rest)) else { return };
        let n = usize::from(sharding.shards.count().get());
        let Some(at) = usize::try_from(*shard).ok().filter(|&s| s < n) else { return };
        let (mut items, mut sizes) = (vec![0; n], vec![0; n]);
        items[at] = 1;
        sizes[at] = bytes.unwrap_or(0);
        let tally = self.counts.entry((layout, partition)).or_insert_with(|| Tally::new(n));
        tally.add(&items, bytes.map(|_| sizes.as_slice()));
    }

    /// Adds the counts of another audit of the same layouts.
    pub(crate) fn absorb(&mut self, other: &Balances) {
        for (key, more) in &other.counts {
            let tally = self.counts.entry(key.clone()).or_insert_with(|| Tally::new(more.items.len()));
            tally.add(&more.items, more.bytes.as_deref());
        }
    }

    /// Adds the balances of another report of the same layouts (`names`, in order).
    pub(crate) fn merge(&mut self, names: &[String], other: &[ShardBalance]) {
        for balance in other {
            let Some(layout) = names.iter().position(|n| *n == balance.layout) else { continue };
            let tally = self
                .counts
                .entry((layout, balance.partition.clone()))
                .or_insert_with(|| Tally::new(balance.items.len()));
            tally.add(&balance.items, balance.bytes.as_deref());
        }
    }

    /// Every logical partition counted, the most skewed first (then by layout and partition).
    pub(crate) fn report(&self, names: &[String]) -> Vec<ShardBalance> {
        let mut out: Vec<ShardBalance> = self
            .counts
            .iter()
            .map(|((layout, partition), tally)| ShardBalance {
                layout: names.get(*layout).cloned().unwrap_or_default(),
                partition: partition.clone(),
                items: tally.items.clone(),
                bytes: tally.bytes.clone(),
            })
            .collect();
        out.sort_by(|a, b| {
            b.skew().total_cmp(&a.skew()).then_with(|| (&a.layout, &a.partition).cmp(&(&b.layout, &b.partition)))
        });
        out
    }
}
