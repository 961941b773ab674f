//! A sharded partition key read from its layout text: which field is the shard, and the
//! partitions of the shards of a partition given without its shard (`SEASON#2026` for
//! `partition SEASON#{season:u16 width=4}#{shard:u16 width=2 shards=16 by=player}`), as the
//! `sortkey` command reads a sharded table through a lock.

use crate::dynamic::model::{DynBody, DynLayout};
use crate::dynamic::value::DynValue;
use crate::encoding::shard::Shards;

/// The partitions of one sharded partition, from [`DynLayout::sharded_partition`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardedPartition {
    /// The count and the rule.
    pub shards: Shards,
    /// The encoded partition key of each shard, `0..N`.
    pub partitions: Vec<String>,
    /// The shard the value named, when it was given with one (then a read of that shard alone).
    pub given: Option<u16>,
}

impl DynLayout {
    /// The shard field of a sharded partition key: its position among the fields, and its
    /// count and rule.
    pub fn shard_field(&self) -> Option<(usize, Shards)> {
        let DynBody::Fields(fields) = &self.key.body else { return None };
        fields.iter().enumerate().find_map(|(i, f)| Some((i, f.shards?)))
    }

    /// `pk` read as a partition of this sharded layout: given whole (its shard included), it is
    /// that shard's partition; given without its shard field (the layout's text with the shard
    /// segment left out), it is every shard's. `None` when the layout has no shard or `pk` is
    /// neither.
    ///
    /// ```
    /// use sortkey_core::DynLayout;
    ///
    /// let layout = DynLayout::parse("partition SEASON#{season:u16 width=4}#{shard:u16 shards=4 by=player}").unwrap();
    /// let all = layout.sharded_partition("SEASON#2026").unwrap();
    /// assert_eq!(all.partitions, ["SEASON#2026#0", "SEASON#2026#1", "SEASON#2026#2", "SEASON#2026#3"]);
    /// assert_eq!(all.given, None);
    /// assert_eq!(layout.sharded_partition("SEASON#2026#2").unwrap().given, Some(2));
    /// assert!(layout.sharded_partition("SEASON#20").is_none());
    /// ```
    pub fn sharded_partition(&self, pk: &str) -> Option<ShardedPartition> {
        let (at, shards) = self.shard_field()?;
        let DynBody::Fields(fields) = &self.key.body else { return None };
        let name = fields[at].name;
        let with_shard = |values: &[(&'static str, DynValue)], shard: u16| {
            let mut values = values.to_vec();
            values.insert(at, (name, DynValue::Unsigned(u128::from(shard))));
            self.encode(&DynValue::Key(values)).ok()
        };
        let (values, given) = match self.decode(pk) {
            Ok(DynValue::Key(mut values)) if at < values.len() => {
                let (_, shard) = values.remove(at);
                let DynValue::Unsigned(shard) = shard else { return None };
                (values, u16::try_from(shard).ok())
            }
            _ => {
                let mut without = self.clone();
                if let DynBody::Fields(fields) = &mut without.key.body {
                    fields.remove(at);
                }
                match without.decode(pk) {
                    Ok(DynValue::Key(values)) => (values, None),
                    _ => return None,
                }
            }
        };
        let partitions = shards.all().map(|i| with_shard(&values, i)).collect::<Option<Vec<String>>>()?;
        Some(ShardedPartition { shards, partitions, given })
    }
}
