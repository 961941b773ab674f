//! How a sharded partition's items spread over its shards, as an audit counts them: per logical
//! partition (the partition key without its shard) of each sharded layout, the items in each
//! shard, and the skew, the fullest shard's items over the mean.

use std::collections::BTreeMap;

use crate::dynamic::{DynBody, DynLayout, DynValue};
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
    /// (layout, logical partition) -> items per shard.
    counts: BTreeMap<(usize, String), Vec<u64>>,
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

    /// Counts a key layout `layout` read as `value`, when that layout is sharded.
    pub(crate) fn observe(&mut self, layout: usize, value: &DynValue) {
        let Some(Some(sharding)) = self.sharding.get(layout) else { return };
        let DynValue::Key(fields) = value else { return };
        let Some((_, DynValue::Unsigned(shard))) = fields.get(sharding.at) else { return };
        let mut rest = fields.clone();
        rest.remove(sharding.at);
        let Ok(partition) = sharding.without.encode(&DynValue::Key(rest)) else { return };
        let n = usize::from(sharding.shards.count().get());
        let items = self.counts.entry((layout, partition)).or_insert_with(|| vec![0; n]);
        if let Some(slot) = usize::try_from(*shard).ok().and_then(|s| items.get_mut(s)) {
            *slot += 1;
        }
    }

    /// Adds the counts of another audit of the same layouts.
    pub(crate) fn absorb(&mut self, other: &Balances) {
        for (key, more) in &other.counts {
            let items = self.counts.entry(key.clone()).or_insert_with(|| vec![0; more.len()]);
            for (slot, more) in items.iter_mut().zip(more) {
                *slot += more;
            }
        }
    }

    /// Adds the balances of another report of the same layouts (`names`, in order).
    pub(crate) fn merge(&mut self, names: &[String], other: &[ShardBalance]) {
        for balance in other {
            let Some(layout) = names.iter().position(|n| *n == balance.layout) else { continue };
            let items =
                self.counts.entry((layout, balance.partition.clone())).or_insert_with(|| vec![0; balance.items.len()]);
            if items.len() < balance.items.len() {
                items.resize(balance.items.len(), 0);
            }
            for (slot, more) in items.iter_mut().zip(&balance.items) {
                *slot += more;
            }
        }
    }

    /// Every logical partition counted, the most skewed first (then by layout and partition).
    pub(crate) fn report(&self, names: &[String]) -> Vec<ShardBalance> {
        let mut out: Vec<ShardBalance> = self
            .counts
            .iter()
            .map(|((layout, partition), items)| ShardBalance {
                layout: names.get(*layout).cloned().unwrap_or_default(),
                partition: partition.clone(),
                items: items.clone(),
            })
            .collect();
        out.sort_by(|a, b| {
            b.skew().total_cmp(&a.skew()).then_with(|| (&a.layout, &a.partition).cmp(&(&b.layout, &b.partition)))
        });
        out
    }
}
