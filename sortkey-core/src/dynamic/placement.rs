//! Items stored under a shard other than their rule's: a partition key of a layout sharded
//! `by = FIELD` whose shard is not the one SK-SHD-002 gives the item's sort key. A point read,
//! which computes the shard from the sort key, cannot find such an item, and a merged read of
//! the logical partition finds it where it sits; the audit counts them as a finding, and a
//! migration to the layout moves each to its own shard.

use crate::dynamic::model::{DynBody, DynLayout};
use crate::dynamic::samples::keep_least_by;
use crate::dynamic::value::DynValue;
use crate::encoding::shard::ShardRule;

/// Items in a shard other than their rule's, of one sharded partition key layout: a finding of
/// [`AuditReport::misplaced`](crate::AuditReport::misplaced).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Misplaced {
    /// The partition key layout, by its name in the lock.
    pub layout: String,
    /// How many items.
    #[cfg_attr(feature = "serde", serde(rename = "items"))]
    pub count: u64,
    /// The least of them (by partition key, then sort key).
    pub samples: Vec<MisplacedSample>,
}

/// One item in a shard other than its rule's.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MisplacedSample {
    /// Its partition key, as stored.
    pub key: String,
    /// Its sort key.
    pub sort: String,
    /// The partition key its sort key gives it: where a point read looks for it.
    pub expected: String,
}

impl DynLayout {
    /// The partition key that an item of this layout's partition `pk` (as stored) with the sort
    /// key `sort` belongs under (SK-SHD-002): `pk` with its shard field set from the segment of
    /// the field the layout shards `by`, as the first of `sorts` that reads `sort` and has that
    /// field writes it. `None` when the layout is not sharded by a field, `pk` is not one of its
    /// keys, or no layout of `sorts` reads `sort` with the field.
    ///
    /// ```
    /// use sortkey_core::DynLayout;
    ///
    /// let pk = DynLayout::parse("partition S#{season:u16 width=4}#{shard:u16 shards=7 by=player}").unwrap();
    /// let sk = DynLayout::parse("RUN#{score:u32 width=4}#{player:text}").unwrap();
    /// let home = pk.placed_partition("S#2026#0", "RUN#1500#p_1", [&sk]).unwrap();
    /// // The same item stored under any shard belongs under one.
    /// assert_eq!(pk.placed_partition("S#2026#6", "RUN#1500#p_1", [&sk]).unwrap(), home);
    /// assert!(pk.placed_partition("S#2026#0", "NOT#A#RUN", [&sk]).is_none());
    /// ```
    pub fn placed_partition<'a>(
        &self,
        pk: &str,
        sort: &str,
        sorts: impl IntoIterator<Item = &'a DynLayout>,
    ) -> Option<String> {
        let (at, shards) = self.shard_field()?;
        let ShardRule::By(by) = shards.rule() else { return None };
        let DynValue::Key(mut values) = self.decode(pk).ok()? else { return None };
        let segment = sorts.into_iter().find_map(|layout| {
            let value = layout.decode(sort).ok()?;
            layout.field_segment(&value, by)?.ok()
        })?;
        let DynBody::Fields(fields) = &self.key.body else { return None };
        let name = fields[at].name;
        let slot = values.iter_mut().find(|(n, _)| *n == name)?;
        slot.1 = DynValue::Unsigned(u128::from(shards.of(segment.as_bytes())));
        self.encode(&DynValue::Key(values)).ok()
    }
}

/// The placement check of an audit of partition keys: the sort key layouts an item's shard is
/// computed from, and what was found.
#[derive(Debug, Clone, Default)]
pub(crate) struct Placements {
    sorts: Vec<DynLayout>,
    found: Vec<Misplaced>,
}

impl Placements {
    /// The same check, of an item's shard computed from `sorts` (what it found kept).
    pub(crate) fn with_sorts(self, sorts: Vec<DynLayout>) -> Placements {
        Placements { sorts, found: self.found }
    }

    /// Whether it has sort key layouts to compute shards from.
    pub(crate) fn checks(&self) -> bool {
        !self.sorts.is_empty()
    }

    /// Checks the item with partition key `pk`, read by `layout` (named `name`), and sort key
    /// `sort`.
    pub(crate) fn observe(&mut self, (name, layout): (&str, &DynLayout), pk: &str, sort: &str) {
        let Some(expected) = layout.placed_partition(pk, sort, &self.sorts) else { return };
        if expected != pk {
            self.record(name, 1, &[MisplacedSample { key: pk.to_owned(), sort: sort.to_owned(), expected }]);
        }
    }

    fn record(&mut self, layout: &str, count: u64, samples: &[MisplacedSample]) {
        let group = match self.found.iter().position(|m| m.layout == layout) {
            Some(at) => &mut self.found[at],
            None => {
                self.found.push(Misplaced { layout: layout.to_owned(), count: 0, samples: Vec::new() });
                let last = self.found.len() - 1;
                &mut self.found[last]
            }
        };
        group.count += count;
        for sample in samples {
            let place = |s: &MisplacedSample| (s.key.as_str(), s.sort.as_str()).cmp(&(&sample.key, &sample.sort));
            keep_least_by(&mut group.samples, place, || sample.clone());
        }
    }

    /// Adds what another part of the same audit found.
    pub(crate) fn merge(&mut self, other: &[Misplaced]) {
        for m in other {
            self.record(&m.layout, m.count, &m.samples);
        }
    }

    /// What was found, the most items first.
    pub(crate) fn report(&self) -> Vec<Misplaced> {
        let mut found = self.found.clone();
        found.sort_by(|a, b| (b.count, &a.layout).cmp(&(a.count, &b.layout)));
        found
    }
}

#[cfg(test)]
mod tests {
    use crate::dynamic::{DynLayout, KeyAudit};

    #[test]
    fn items_in_another_shard_are_found_whole_or_in_parts() {
        let pk = DynLayout::parse("partition S#{season:u16 width=4}#{shard:u16 shards=7 by=player}").unwrap();
        let sk = DynLayout::parse("RUN#{score:u32 width=4}#{player:text}").unwrap();
        let audit = || KeyAudit::new([("RunPk".to_owned(), pk.clone())]).with_sort_layouts([sk.clone()]);
        let items: Vec<(String, String)> = (0..40u32)
            .map(|i| {
                let sort = format!("RUN#{i:04}#p_{i}");
                let home = pk.placed_partition("S#2026#0", &sort, [&sk]).unwrap();
                // Every fifth item one shard over.
                let shard: u16 = home.rsplit('#').next().unwrap().parse().unwrap();
                let stored = if i % 5 == 0 { format!("S#2026#{}", (shard + 1) % 7) } else { home };
                (stored, sort)
            })
            .collect();
        let observe = |audit: &mut KeyAudit, items: &[(String, String)]| {
            for (key, sort) in items {
                audit.observe(key);
                audit.observe_placement(key, sort);
            }
        };
        let mut whole = audit();
        observe(&mut whole, &items);
        let report = whole.report();
        assert_eq!(report.misplaced.len(), 1);
        assert_eq!((report.misplaced[0].layout.as_str(), report.misplaced[0].count), ("RunPk", 8));
        assert!(report.has_findings());
        let sample = &report.misplaced[0].samples[0];
        assert_eq!(pk.placed_partition(&sample.key, &sample.sort, [&sk]).as_ref(), Some(&sample.expected));
        assert_ne!(sample.key, sample.expected);
        // In two parts, merged as audits or as reports: the same report.
        let (mut a, mut b) = (audit(), audit());
        observe(&mut a, &items[..17]);
        observe(&mut b, &items[17..]);
        let mut merged = audit();
        merged.merge_audit(&a).unwrap();
        merged.merge_audit(&b).unwrap();
        assert_eq!(merged.report(), report);
        let mut resumed = KeyAudit::resume([("RunPk".to_owned(), pk.clone())], &a.report()).unwrap();
        resumed.merge(&b.report()).unwrap();
        assert_eq!(resumed.report(), report);
        // No sort key layouts: nothing is checked.
        let mut unchecked = KeyAudit::new([("RunPk".to_owned(), pk.clone())]);
        observe(&mut unchecked, &items);
        assert!(unchecked.report().misplaced.is_empty());
    }
}
