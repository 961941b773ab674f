//! The verdict of a migration: a read of every key it moves (the sort key, or the partition key
//! of a shard-count change), each classified against the migration (left in the old layout, in
//! the new one, in neither, unable to move) and audited against every layout of the key in the
//! lock. What `sortkey migrate` prints after each pass, here so that
//! a program moving keys its own way can ask the same question: is anything left?

use crate::dynamic::audit::{AuditReport, KeyAudit};
use crate::dynamic::migration::DynMigration;
use crate::dynamic::model::DynLayout;
use crate::dynamic::samples::{keep_least, keep_least_by};
use crate::migrate::rekey::Rekeyed;

/// A read of every key, classified against a migration: feed it every key
/// ([`observe`](Self::observe)), then read its [`verdict`](Self::verdict).
#[derive(Debug, Clone)]
pub struct VerdictAudit {
    audit: KeyAudit,
    verdict: MigrationVerdict,
}

/// Where every key of a table stands against a migration. The same keys give the same verdict in
/// any order of reading (samples are the least keys).
///
/// With the `serde` feature it serializes and reads back: `{"read", "in_old", "in_new",
/// "in_other", "cannot_move", "left_samples": [{"from", "to", "sort"}] (`sort` for a partition
/// key migration only), "cannot_move_samples": [{"key",
/// "error"}], "complete", "audit"}` (`audit` an [`AuditReport`]).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MigrationVerdict {
    /// Keys read (an item without the attribute, or with a value that is no string, included).
    pub read: u64,
    /// Keys still in the old layout: they would move.
    pub in_old: u64,
    /// Keys in the new layout.
    pub in_new: u64,
    /// Keys in neither (another entity's, or no string).
    pub in_other: u64,
    /// Keys of the old layout that cannot move (a value that does not fit the new layout, a key
    /// both layouts read).
    pub cannot_move: u64,
    /// The least keys left, each with its key in the new layout.
    pub left_samples: Vec<LeftSample>,
    /// The least keys that cannot move, each with why.
    pub cannot_move_samples: Vec<CannotMove>,
    /// Whether no key is left in the old layout, and none that cannot move.
    pub complete: bool,
    /// The audit of the keys against every sort key layout of the lock.
    pub audit: AuditReport,
}

/// A key left in the old layout.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LeftSample {
    /// The key.
    pub from: String,
    /// Its key in the new layout.
    pub to: String,
    /// The item's sort key, when the migration moves partition keys: a partition key names no
    /// one item (each item of an old shard has its own new shard), the two keys together do.
    /// Absent (and not serialized) for a sort key migration.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub sort: Option<String>,
}

/// A key that cannot move.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CannotMove {
    /// The key.
    pub key: String,
    /// Why ([`MigrationError`](crate::MigrationError)'s message).
    pub error: String,
}

impl VerdictAudit {
    /// A verdict against the lock's sort key `layouts` (each key is also audited against them).
    pub fn new(layouts: impl IntoIterator<Item = (String, DynLayout)>) -> VerdictAudit {
        let audit = KeyAudit::new(layouts);
        let verdict = MigrationVerdict {
            read: 0,
            in_old: 0,
            in_new: 0,
            in_other: 0,
            cannot_move: 0,
            left_samples: Vec::new(),
            cannot_move_samples: Vec::new(),
            complete: true,
            audit: audit.report(),
        };
        VerdictAudit { audit, verdict }
    }

    /// Classifies one item's key against `migration`: `None` for an item without the attribute
    /// or with a value that is no string. A partition key migration whose new shard is
    /// calculated from the sort key needs [`observe_item`](Self::observe_item).
    pub fn observe(&mut self, migration: &DynMigration, key: Option<&str>) {
        match migration.moves_partition_keys() {
            true => self.observe_item(migration, key, None),
            false => self.observe_item(migration, None, key),
        }
    }

    /// Classifies one item against `migration` by its keys (`None` for an item without the
    /// attribute or with a value that is no string): the key the migration moves is counted
    /// and audited (the partition key of a partition key migration, which the verdict's
    /// layouts should then be), and a key left is sampled with its new key.
    pub fn observe_item(&mut self, migration: &DynMigration, partition: Option<&str>, sort: Option<&str>) {
        let v = &mut self.verdict;
        v.read += 1;
        let moved = if migration.moves_partition_keys() { partition } else { sort };
        let Some(key) = moved else {
            v.in_other += 1;
            return;
        };
        self.audit.observe(key);
        let classified = migration.classify_item(partition, sort).map(|(r, pk)| match (r, pk) {
            (Rekeyed::Move(_), Some(pk)) => Rekeyed::Move(pk),
            (r, _) => r,
        });
        match classified {
            Ok(Rekeyed::Current) => v.in_new += 1,
            Ok(Rekeyed::Other) => v.in_other += 1,
            Ok(Rekeyed::Move(new)) => {
                v.in_old += 1;
                // A partition key's sample names its item by the sort key too; the least of
                // (key, sort key) are kept, each once, whatever order the items come in.
                let sort = sort.filter(|_| migration.moves_partition_keys());
                keep_least_by(
                    &mut v.left_samples,
                    |s| (s.from.as_str(), s.sort.as_deref()).cmp(&(key, sort)),
                    || LeftSample { from: key.to_owned(), to: new, sort: sort.map(str::to_owned) },
                );
            }
            Err(e) => {
                v.cannot_move += 1;
                let sample = || CannotMove { key: key.to_owned(), error: e.to_string() };
                keep_least(&mut v.cannot_move_samples, key, |s| s.key.as_str(), sample);
            }
        }
    }

    /// The verdict so far.
    pub fn verdict(&self) -> MigrationVerdict {
        let mut verdict = self.verdict.clone();
        verdict.complete = verdict.in_old == 0 && verdict.cannot_move == 0;
        verdict.audit = self.audit.report();
        verdict
    }
}
