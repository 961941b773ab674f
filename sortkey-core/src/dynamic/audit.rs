//! The audit of a key attribute's values against a lock's layouts: which layout reads each
//! key, the keys no layout reads (grouped by why), keys that differ from a layout only in the
//! digit count of one field (the mixed widths a migration that padded new keys and not old ones
//! leaves), empty keys and keys over DynamoDB's limit, and the headroom of every numeric and
//! timestamp field. The rules of `sortkey audit`, here so that a program can run them too.

use std::collections::HashMap;

use crate::dynamic::balance::{Balances, ShardBalance};
use crate::dynamic::generations::{Generations, OldKeys};
use crate::dynamic::lock::Versions;
use crate::dynamic::model::DynLayout;
use crate::dynamic::placement::{Misplaced, Placements};
use crate::dynamic::plan::LayoutPlan;
use crate::dynamic::reshape::field_mut;
use crate::dynamic::samples::keep_least;
use crate::dynamic::usage::FieldUsage;
use crate::dynamic::usage::{merge_fields, observe_fields};
use crate::dynamic::value::DynValue;
use crate::encoding::key::KeyRole;
use crate::error::{DecodeError, DecodeErrorKind};

/// The audit of one key attribute: feed it every value ([`observe`](Self::observe)), then read
/// its [`report`](Self::report).
#[derive(Debug, Clone)]
pub struct KeyAudit {
    layouts: Vec<(String, DynLayout)>,
    /// The same layouts compiled, which read every key.
    plans: Vec<LayoutPlan>,
    /// Layouts that differ from one of `layouts` only in one field's width, built when a key
    /// first needs one: (layout index, field path, width) -> the layout, or `None` when that
    /// field has no such width.
    widened: HashMap<(usize, String, u32), Option<DynLayout>>,
    report: AuditReport,
    /// The keys of older versions of layouts, by partition.
    generations: Generations,
    /// The items of each shard of each logical partition of a sharded layout.
    balances: Balances,
    /// The items in a shard other than their rule's.
    placements: Placements,
}

/// What an audit found. The same keys give the same report in any order of reading, whole or
/// merged from parts: groups come by count (most first), then by what they group; samples are
/// the least keys of their group, in byte order.
///
/// With the `serde` feature it serializes (and reads back) as the `sortkey audit` command's
/// JSON shows an attribute: `values`, `layouts`, `mixed_widths`, `unread`, `empty`,
/// `too_long`, `too_long_samples`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AuditReport {
    /// Keys observed.
    #[cfg_attr(feature = "serde", serde(rename = "values"))]
    pub keys: u64,
    /// Per layout, in the lock's order: how many keys it reads, and the usage of its fields.
    pub layouts: Vec<LayoutCount>,
    /// Keys that differ from a layout only in the width of one field.
    pub mixed_widths: Vec<MixedWidth>,
    /// Keys no layout reads, grouped by the kind of error of the layout that read furthest.
    pub unread: Vec<Unread>,
    /// Empty values (DynamoDB refuses them as keys; an index key attribute may hold one).
    pub empty: u64,
    /// Values longer than DynamoDB allows for the attribute's role (1024 bytes for a sort
    /// key, 2048 for a partition key), which no layout is asked to read.
    pub too_long: u64,
    /// The least of them.
    pub too_long_samples: Vec<String>,
    /// Keys of older versions of a layout (given by [`KeyAudit::with_versions`]): a finding.
    pub old_keys: Vec<OldKeys>,
    /// For a partition key read by sharded layouts: each logical partition's items per shard,
    /// the most skewed first; a skew over the limit is a finding ([`ShardBalance::is_finding`]).
    /// Absent from a report of no sharded layout.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub shards: Vec<ShardBalance>,
    /// For a partition key sharded `by` a field, given the items' sort keys
    /// ([`observe_placement`](KeyAudit::observe_placement)): the items stored under a shard
    /// other than the one their sort key gives, which a point read cannot find: a finding.
    /// Absent from a report that found none.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub misplaced: Vec<Misplaced>,
}

/// The keys one layout reads.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LayoutCount {
    /// The layout's name in the lock.
    pub name: String,
    /// How many keys it reads.
    #[cfg_attr(feature = "serde", serde(rename = "keys"))]
    pub count: u64,
    /// The values its numeric and timestamp fields hold, one entry per field in the layout's
    /// order (as [`LayoutUsage::fields`](crate::LayoutUsage::fields)).
    pub fields: Vec<FieldUsage>,
}

/// Keys that a layout reads once one field's width is `seen` instead of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MixedWidth {
    /// The layout's name.
    pub layout: String,
    /// The field, by path.
    pub field: String,
    /// The field's width in the layout.
    pub width: u32,
    /// The digit count the keys have.
    pub seen: u32,
    /// How many keys.
    #[cfg_attr(feature = "serde", serde(rename = "keys"))]
    pub count: u64,
    /// The least of them.
    pub samples: Vec<String>,
}

/// A key read by one of an audit's layouts once one field is given another width.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WidthMismatch {
    /// The layout, by its place in the audit's [`layouts`](KeyAudit::layouts).
    pub layout: usize,
    /// The field, by path.
    pub field: String,
    /// The field's width in the layout.
    pub width: u32,
    /// The digit count the key has there.
    pub seen: u32,
}

/// Keys no layout reads, for one kind of error.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Unread {
    /// The kind of the error of the layout that read furthest into the key.
    pub kind: DecodeErrorKind,
    /// How many keys.
    #[cfg_attr(feature = "serde", serde(rename = "keys"))]
    pub count: u64,
    /// The least of them, each with that layout's name and its error.
    pub samples: Vec<UnreadSample>,
}

/// A key no layout reads, and why: the error of the layout that read furthest into it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UnreadSample {
    /// The key.
    pub key: String,
    /// The layout that read furthest, by its name in the lock.
    pub layout: String,
    /// Its error's message ([`DecodeError`]'s `Display`).
    pub error: String,
    /// The byte of the key where that layout stopped.
    pub offset: usize,
}

impl KeyAudit {
    /// An audit of a key attribute against `layouts` (name and layout, as a lock holds them).
    pub fn new(layouts: impl IntoIterator<Item = (String, DynLayout)>) -> KeyAudit {
        let layouts: Vec<(String, DynLayout)> = layouts.into_iter().collect();
        let counts = layouts
            .iter()
            .map(|(name, layout)| LayoutCount {
                name: name.clone(),
                count: 0,
                fields: layout.usage().fields().to_vec(),
            })
            .collect();
        let report = AuditReport {
            keys: 0,
            layouts: counts,
            mixed_widths: Vec::new(),
            unread: Vec::new(),
            empty: 0,
            too_long: 0,
            too_long_samples: Vec::new(),
            old_keys: Vec::new(),
            shards: Vec::new(),
            misplaced: Vec::new(),
        };
        let names: Vec<&str> = layouts.iter().map(|(n, _)| n.as_str()).collect();
        let generations = Generations::new(&names, &[]);
        let plans = layouts.iter().map(|(_, l)| l.plan()).collect();
        let balances = Balances::new(&layouts);
        let placements = Placements::default();
        KeyAudit { layouts, plans, widened: HashMap::new(), report, generations, balances, placements }
    }

    /// The same audit of a partition key, told the sort key layouts of its items (a lock's
    /// [`layouts_reading`](crate::LockFile::layouts_reading) of the sort key attribute): an item
    /// given with its sort key ([`observe_placement`](Self::observe_placement)) whose partition
    /// key is of a layout sharded `by` a field, in a shard other than the one its sort key gives,
    /// is then a finding, [`AuditReport::misplaced`]. What the audit found so far is kept.
    pub fn with_sort_layouts(mut self, sorts: impl IntoIterator<Item = DynLayout>) -> Self {
        self.placements = std::mem::take(&mut self.placements).with_sorts(sorts.into_iter().collect());
        self
    }

    /// Checks that the item whose partition key is `key` (a value of the audited attribute,
    /// observed apart) and whose sort key is `sort` is stored under the shard its sort key gives:
    /// see [`with_sort_layouts`](Self::with_sort_layouts). Nothing when no layout of the audit
    /// is sharded by a field.
    pub fn observe_placement(&mut self, key: &str, sort: &str) {
        if !self.placements.checks() {
            return;
        }
        let read = self.plans.iter().position(|p| p.decode(key).is_ok());
        if let Some((name, layout)) = read.map(|i| &self.layouts[i]) {
            self.placements.observe((name, layout), key, sort);
        }
    }

    /// The same audit, told which of its layouts are older versions of which (a lock's
    /// [`versions`](crate::LockFile::versions)): keys of an older version are then a finding,
    /// [`AuditReport::old_keys`], counted by partition when [`observe_in`](Self::observe_in) is
    /// given each key's partition.
    pub fn with_versions(mut self, versions: &[Versions]) -> Self {
        let names: Vec<&str> = self.layouts.iter().map(|(n, _)| n.as_str()).collect();
        self.generations = Generations::new(&names, versions);
        self
    }

    /// An audit against `layouts` that goes on from `report` (a partial report read back): the
    /// same as a new audit with `report` [merged](Self::merge) in.
    pub fn resume(
        layouts: impl IntoIterator<Item = (String, DynLayout)>,
        report: &AuditReport,
    ) -> Result<KeyAudit, AuditMergeError> {
        let mut audit = KeyAudit::new(layouts);
        audit.merge(report)?;
        Ok(audit)
    }

    /// Classifies one value of the attribute.
    pub fn observe(&mut self, key: &str) {
        self.observe_in(key, None);
    }

    /// Classifies one value of the attribute, a key of the partition `partition` (the item's
    /// partition key, for a sort key), so that old keys are counted by partition.
    pub fn observe_in(&mut self, key: &str, partition: Option<&str>) {
        self.observe_item(key, partition, None);
    }

    /// [`observe_in`](Self::observe_in) with the size of the key's item in bytes (`bytes`, as
    /// `dynamodb::item_size` estimates it), which a sharded layout's
    /// balance adds up per shard ([`ShardBalance::bytes`]).
    pub fn observe_item(&mut self, key: &str, partition: Option<&str>, bytes: Option<u64>) {
        self.report.keys += 1;
        if key.is_empty() {
            self.report.empty += 1;
            return;
        }
        let role = self.layouts.first().map_or(KeyRole::Sort, |(_, l)| l.role);
        if key.len() > role.limit() {
            self.report.too_long += 1;
            keep_least(&mut self.report.too_long_samples, key, String::as_str, || key.to_owned());
            return;
        }
        let furthest = match furthest_of(self.plans.iter().map(|p| p.decode(key))) {
            Ok((i, value)) => {
                let count = &mut self.report.layouts[i];
                count.count += 1;
                observe_fields(&self.layouts[i].1.key, &value, &mut count.fields);
                self.generations.observe(i, partition);
                self.balances.observe(i, &value, bytes);
                return;
            }
            Err(furthest) => furthest,
        };
        if self.mixed_width(key) {
            return;
        }
        if let Some((i, error)) = furthest {
            let layout = &self.layouts[i].0;
            let group = match self.report.unread.iter_mut().position(|u| u.kind == error.kind()) {
                Some(g) => &mut self.report.unread[g],
                None => {
                    self.report.unread.push(Unread { kind: error.kind(), count: 0, samples: Vec::new() });
                    self.report.unread.last_mut().unwrap_or_else(|| unreachable!("just pushed"))
                }
            };
            group.count += 1;
            let sample = || UnreadSample {
                key: key.to_owned(),
                layout: layout.clone(),
                error: error.to_string(),
                offset: error.offset(),
            };
            keep_least(&mut group.samples, key, |s| s.key.as_str(), sample);
        }
    }

    /// Whether `key` is read by a layout with one field of another width (the digit count of a
    /// run of digits in the key), recorded as a mixed width if so.
    fn mixed_width(&mut self, key: &str) -> bool {
        match self.width_mismatch(key) {
            Some(m) => {
                self.record_mixed(m.layout, m.field, m.width, m.seen, key);
                true
            }
            None => false,
        }
    }

    /// The layout that would read `key` (one no layout reads) with one field of another width:
    /// the width a run of digits in the key has, tried on each numeric field of each layout in
    /// turn. What the audit counts as a [mixed width](AuditReport::mixed_widths), for one key and
    /// without counting it (a browser's row flag).
    pub fn width_mismatch(&mut self, key: &str) -> Option<WidthMismatch> {
        let runs = digit_runs(key);
        for i in 0..self.layouts.len() {
            for (path, width) in self.layouts[i].1.digit_fields() {
                for &seen in runs.iter().filter(|&&d| d != width) {
                    let slot = (i, path.clone(), seen);
                    let layouts = &self.layouts;
                    let layout = self.widened.entry(slot).or_insert_with(|| with_width(&layouts[i].1, &path, seen));
                    if layout.as_ref().is_some_and(|l| l.decode(key).is_ok()) {
                        return Some(WidthMismatch { layout: i, field: path, width, seen });
                    }
                }
            }
        }
        None
    }

    fn record_mixed(&mut self, i: usize, field: String, width: u32, seen: u32, key: &str) {
        let layout = &self.layouts[i].0;
        let found =
            self.report.mixed_widths.iter_mut().find(|m| &m.layout == layout && m.field == field && m.seen == seen);
        let entry = match found {
            Some(entry) => entry,
            None => {
                let entry = MixedWidth { layout: layout.clone(), field, width, seen, count: 0, samples: Vec::new() };
                self.report.mixed_widths.push(entry);
                self.report.mixed_widths.last_mut().unwrap_or_else(|| unreachable!("just pushed"))
            }
        };
        entry.count += 1;
        keep_least(&mut entry.samples, key, String::as_str, || key.to_owned());
    }

    /// The layouts it classifies by, as it was given them.
    pub fn layouts(&self) -> &[(String, DynLayout)] {
        &self.layouts
    }

    /// What the audit found so far, its groups in their defined order.
    pub fn report(&self) -> AuditReport {
        let mut report = self.report.clone();
        report
            .mixed_widths
            .sort_by(|a, b| (b.count, &a.layout, &a.field, a.seen).cmp(&(a.count, &b.layout, &b.field, b.seen)));
        report.unread.sort_by(|a, b| (b.count, a.kind.name()).cmp(&(a.count, b.kind.name())));
        report.old_keys = self.generations.report(&self.names());
        report.shards = self.balances.report(&self.names());
        report.misplaced = self.placements.report();
        report
    }

    fn names(&self) -> Vec<String> {
        self.layouts.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Adds another audit of the same layouts and versions (another file of an export, a
    /// partial report resumed): as [`merge`](Self::merge) its report, and its partitions, so
    /// that old keys are counted by partition exactly.
    pub fn merge_audit(&mut self, other: &KeyAudit) -> Result<(), AuditMergeError> {
        let mut report = other.report.clone();
        report.old_keys.clear();
        report.shards.clear();
        report.misplaced = other.placements.report();
        self.merge(&report)?;
        self.generations.absorb(&other.generations);
        self.balances.absorb(&other.balances);
        Ok(())
    }

    /// The partitions holding keys of versioned layouts, as (hash, layouts' bits), to keep in a
    /// partial report and give back to [`resume_with_partitions`](Self::resume_with_partitions).
    pub fn version_partitions(&self) -> Vec<(u64, u64)> {
        self.generations.partitions()
    }

    /// [`resume`](Self::resume) with versions, and the partitions a partial report kept.
    pub fn resume_with_partitions(
        layouts: impl IntoIterator<Item = (String, DynLayout)>,
        versions: &[Versions],
        report: &AuditReport,
        partitions: &[(u64, u64)],
    ) -> Result<KeyAudit, AuditMergeError> {
        let mut audit = KeyAudit::new(layouts).with_versions(versions);
        let mut rest = report.clone();
        rest.old_keys.clear();
        audit.merge(&rest)?;
        let names = audit.names();
        audit.generations.restore(partitions, &report.old_keys, &names);
        Ok(audit)
    }

    /// Adds the report of another audit of the same layouts (another segment of the table, a
    /// partial report read back): counts and usage add up, findings of the same layout, field
    /// and width (or error kind) join, and each keeps the least samples of both. Merging the
    /// reports of the parts of a set of keys, in any order, gives the report of auditing them
    /// all. An error when `other` counts keys under other layouts than this audit's (by name and
    /// fields, in order).
    pub fn merge(&mut self, other: &AuditReport) -> Result<(), AuditMergeError> {
        let shape = |r: &AuditReport| -> Vec<(String, Vec<String>)> {
            r.layouts.iter().map(|l| (l.name.clone(), l.fields.iter().map(|f| f.path.clone()).collect())).collect()
        };
        if shape(&self.report) != shape(other) {
            let names = |r: &AuditReport| r.layouts.iter().map(|l| l.name.as_str()).collect::<Vec<_>>().join(", ");
            return Err(AuditMergeError { expected: names(&self.report), found: names(other) });
        }
        let report = &mut self.report;
        report.keys += other.keys;
        for (count, more) in report.layouts.iter_mut().zip(&other.layouts) {
            count.count += more.count;
            merge_fields(&mut count.fields, &more.fields);
        }
        for more in &other.mixed_widths {
            let same = |m: &&mut MixedWidth| m.layout == more.layout && m.field == more.field && m.seen == more.seen;
            match report.mixed_widths.iter_mut().find(same) {
                Some(entry) => {
                    entry.count += more.count;
                    for key in &more.samples {
                        keep_least(&mut entry.samples, key, String::as_str, || key.clone());
                    }
                }
                None => report.mixed_widths.push(more.clone()),
            }
        }
        for more in &other.unread {
            match report.unread.iter_mut().find(|u| u.kind == more.kind) {
                Some(group) => {
                    group.count += more.count;
                    for sample in &more.samples {
                        keep_least(&mut group.samples, &sample.key, |s| s.key.as_str(), || sample.clone());
                    }
                }
                None => report.unread.push(more.clone()),
            }
        }
        let names = self.names();
        self.generations.restore(&[], &other.old_keys, &names);
        self.balances.merge(&names, &other.shards);
        self.placements.merge(&other.misplaced);
        let report = &mut self.report;
        report.empty += other.empty;
        report.too_long += other.too_long;
        for key in &other.too_long_samples {
            keep_least(&mut report.too_long_samples, key, String::as_str, || key.clone());
        }
        Ok(())
    }
}

/// The first of `layouts` that reads `key`, by its index, with the value; or, when none does,
/// the one that read furthest into it (the first of those that stopped at the same byte) with
/// its error, `None` when there are no layouts. The rule the audit and `sortkey browse` name a
/// key's layout, or its error, by.
pub fn read_furthest<'l>(
    layouts: impl IntoIterator<Item = &'l DynLayout>,
    key: &str,
) -> Result<(usize, DynValue), Option<(usize, DecodeError)>> {
    furthest_of(layouts.into_iter().map(|layout| layout.decode(key)))
}

/// The first of `reads` that read the key, else the one that read furthest into it (the first
/// of those that read as far); each read is made only when the ones before it failed.
fn furthest_of(
    reads: impl IntoIterator<Item = Result<DynValue, DecodeError>>,
) -> Result<(usize, DynValue), Option<(usize, DecodeError)>> {
    let mut furthest: Option<(usize, DecodeError)> = None;
    for (i, read) in reads.into_iter().enumerate() {
        match read {
            Ok(value) => return Ok((i, value)),
            Err(e) if furthest.as_ref().is_none_or(|(_, f)| e.offset() > f.offset()) => furthest = Some((i, e)),
            Err(_) => {}
        }
    }
    Err(furthest)
}

/// The report merged into an audit counts keys under other layouts: the two audits did not read
/// the same lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditMergeError {
    /// The audit's layouts, by name, in order.
    pub expected: String,
    /// The report's.
    pub found: String,
}

impl std::fmt::Display for AuditMergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot merge an audit report of the layouts [{}] into an audit of [{}]; expected reports of the same lock",
            self.found, self.expected
        )
    }
}

impl std::error::Error for AuditMergeError {}

impl AuditReport {
    /// Whether there is anything to act on: a key no layout reads, a mixed width, an empty key
    /// or one over the limit. (Headroom is the caller's threshold: see
    /// [`FieldUsage::headroom`](crate::FieldUsage::headroom).)
    pub fn has_findings(&self) -> bool {
        !self.unread.is_empty()
            || !self.mixed_widths.is_empty()
            || self.empty > 0
            || self.too_long > 0
            || !self.old_keys.is_empty()
            || self.shards.iter().any(ShardBalance::is_finding)
            || !self.misplaced.is_empty()
    }

    /// The keys in no layout, whatever the reason: those no layout reads, those of a mixed width,
    /// empty ones and those over the limit. The `(in no layout)` row of the command's tables.
    pub fn in_no_layout(&self) -> u64 {
        self.keys - self.layouts.iter().map(|l| l.count).sum::<u64>()
    }
}

/// The lengths of the runs of ASCII digits in `key`, each once.
fn digit_runs(key: &str) -> Vec<u32> {
    let mut runs: Vec<u32> =
        key.split(|c: char| !c.is_ascii_digit()).filter(|run| !run.is_empty()).map(|run| run.len() as u32).collect();
    runs.sort_unstable();
    runs.dedup();
    runs
}

/// `layout` with the field at `path` of width `width`; `None` when no such field is there.
fn with_width(layout: &DynLayout, path: &str, width: u32) -> Option<DynLayout> {
    let mut layout = layout.clone();
    field_mut(&mut layout.key, path)?.width = width;
    Some(layout)
}
