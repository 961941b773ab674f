//! Keys of an older version of a layout (a lock's `Current > Older` line), found by the audit:
//! how many, in how many partitions, and in how many of those beside keys of the current layout
//! (a partition holding two versions of one key is the trap a range on it falls into).

use std::collections::HashMap;

use crate::dynamic::lock::Versions;
use crate::dynamic::samples::keep_least;

/// The keys of one older layout of a key.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OldKeys {
    /// The older layout, by its name in the lock.
    pub layout: String,
    /// The current layout of its key.
    pub current: String,
    /// Keys in the older layout.
    pub keys: u64,
    /// Partitions holding them (when the audit was given the partition of each key).
    pub partitions: u64,
    /// Of those, partitions that also hold keys of the current layout.
    pub partitions_with_current: u64,
    /// The least of those partitions (the mixed ones, else any of them).
    pub partition_samples: Vec<String>,
}

/// What the audit keeps to count old keys by partition: each versioned layout a bit, each
/// partition the bits of the versioned layouts it holds.
#[derive(Debug, Clone, Default)]
pub(crate) struct Generations {
    /// Per layout of the audit: its bit when it is in a version line, and the bit of its current
    /// layout when it is an older one.
    layouts: Vec<Option<(u32, Option<u32>)>>,
    /// Per partition (its hash): the bits of the versioned layouts it holds keys of.
    partitions: HashMap<u64, u64>,
    /// Per layout: the partitions holding its keys, and of those the ones holding keys of its
    /// current layout too, kept as the partitions' bits change (a report is made after every
    /// page of a Scan: it does not walk the partitions).
    holding: Vec<u64>,
    mixed: Vec<u64>,
    /// Per layout: old keys counted, and the partitions they are in (the least of them).
    keys: Vec<u64>,
    samples: Vec<Vec<String>>,
}

/// Versioned layouts an audit tells apart (one bit each).
const MAX_VERSIONED: usize = 64;

impl Generations {
    /// The versions of the audit's `names` (its layouts, in order) that `versions` records.
    pub(crate) fn new(names: &[&str], versions: &[Versions]) -> Generations {
        let mut bits: Vec<String> = Vec::new();
        let mut bit = |name: &str| -> Option<u32> {
            if let Some(i) = bits.iter().position(|b| b == name) {
                return Some(i as u32);
            }
            (bits.len() < MAX_VERSIONED).then(|| {
                bits.push(name.to_owned());
                (bits.len() - 1) as u32
            })
        };
        let layouts = names
            .iter()
            .map(|name| {
                let v = versions.iter().find(|v| v.names().any(|n| n == *name))?;
                let own = bit(name)?;
                let current = (v.current != *name).then(|| bit(&v.current)).flatten();
                Some((own, current))
            })
            .collect();
        Generations {
            layouts,
            partitions: HashMap::new(),
            holding: vec![0; names.len()],
            mixed: vec![0; names.len()],
            keys: vec![0; names.len()],
            samples: vec![Vec::new(); names.len()],
        }
    }

    /// Counts a key of layout `layout` in `partition` (when the audit knows it).
    pub(crate) fn observe(&mut self, layout: usize, partition: Option<&str>) {
        let Some(Some((own, current))) = self.layouts.get(layout).copied() else { return };
        if let Some(p) = partition {
            self.add_bits(fnv(p), 1 << own);
        }
        if current.is_some() {
            self.keys[layout] += 1;
            if let Some(p) = partition {
                keep_least(&mut self.samples[layout], p, String::as_str, || p.to_owned());
            }
        }
    }

    /// Adds the bits `add` to partition `p`, and counts what that changes: an older layout's
    /// first key in it, or its first beside a key of the current layout.
    fn add_bits(&mut self, p: u64, add: u64) {
        let entry = self.partitions.entry(p).or_default();
        let (before, after) = (*entry, *entry | add);
        if before == after {
            return;
        }
        *entry = after;
        for (i, layout) in self.layouts.iter().enumerate() {
            let Some((own, Some(current))) = *layout else { continue };
            let (own, both) = (1u64 << own, (1u64 << own) | (1u64 << current));
            self.holding[i] += u64::from(after & own != 0 && before & own == 0);
            self.mixed[i] += u64::from(after & both == both && before & both != both);
        }
    }

    /// Adds another audit's of the same layouts (another file of an export, a partial report).
    pub(crate) fn absorb(&mut self, other: &Generations) {
        for (p, bits) in &other.partitions {
            self.add_bits(*p, *bits);
        }
        for (i, n) in other.keys.iter().enumerate() {
            self.keys[i] += n;
            for p in &other.samples[i] {
                keep_least(&mut self.samples[i], p, String::as_str, || p.clone());
            }
        }
    }

    /// The old keys, per older layout that holds any (`names` the audit's layouts).
    pub(crate) fn report(&self, names: &[String]) -> Vec<OldKeys> {
        let mut out = Vec::new();
        for (i, layout) in self.layouts.iter().enumerate() {
            let Some((_, Some(current))) = *layout else { continue };
            if self.keys[i] == 0 {
                continue;
            }
            let (partitions, mixed) = (self.holding[i], self.mixed[i]);
            let current_name = self.layouts.iter().position(|l| l.is_some_and(|(b, _)| b == current));
            out.push(OldKeys {
                layout: names[i].clone(),
                current: current_name.map(|c| names[c].clone()).unwrap_or_default(),
                keys: self.keys[i],
                partitions,
                partitions_with_current: mixed,
                partition_samples: self.samples[i].clone(),
            });
        }
        out
    }

    /// The partitions as a partial report keeps them: (hash, bits), in hash order.
    pub(crate) fn partitions(&self) -> Vec<(u64, u64)> {
        let mut all: Vec<(u64, u64)> = self.partitions.iter().map(|(p, b)| (*p, *b)).collect();
        all.sort_unstable();
        all
    }

    /// Restores what a partial report kept: the partitions, and each older layout's keys and
    /// samples from its report.
    pub(crate) fn restore(&mut self, partitions: &[(u64, u64)], old: &[OldKeys], names: &[String]) {
        for (p, bits) in partitions {
            self.add_bits(*p, *bits);
        }
        for o in old {
            if let Some(i) = names.iter().position(|n| *n == o.layout) {
                self.keys[i] += o.keys;
                for p in &o.partition_samples {
                    keep_least(&mut self.samples[i], p, String::as_str, || p.clone());
                }
            }
        }
    }
}

/// FNV-1a, 64 bits: a partition's hash, the same in every build (a partial report keeps it).
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
