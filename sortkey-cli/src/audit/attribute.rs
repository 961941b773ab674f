//! One key attribute's audit ([`Attribute`]): which attributes a table's (or an export's) audit
//! classifies, by which of the lock's layouts, and the audit of each.

use std::collections::BTreeSet;

use aws_sdk_dynamodb::types::AttributeValue;
use sortkey_core::{DynLayout, KeyAudit, KeyRole, LockFile, RankedField, Versions};

use crate::audit::report::AttributeReport;
use crate::counters::RankedPartition;
use crate::outcome::AskError;
use crate::pages::Item;

/// One key attribute's audit.
pub(crate) struct Attribute {
    /// The attribute's name.
    pub(crate) name: String,
    /// Which key it is, and so which of the lock's layouts read it.
    pub(crate) role: KeyRole,
    /// Its values' classification.
    pub(crate) audit: KeyAudit,
    /// Values that are no string (a number or binary key), which no layout describes.
    pub(crate) not_strings: u64,
    /// For a sort key, the partition key attribute: old keys are counted by partition.
    pub(crate) partition: Option<String>,
    /// For a partition key, the sort key attribute and its layouts: an item's shard is checked
    /// against the one its sort key gives.
    pub(crate) sort: Option<(String, Vec<DynLayout>)>,
    /// The lock's versions, which the audit tells old keys by.
    versions: Vec<Versions>,
    /// Whether a layout of the attribute is sharded: then a Scan reads whole items, and the
    /// shards' balance adds up their bytes.
    pub(crate) sized: bool,
    /// For a sort key, the ranked fields of the lock's `rank` lines, by layout: their counter
    /// items' keys (`#RANK#...`) are the library's own, left out of the audit.
    counters: Vec<(String, RankedField)>,
    /// The partitions holding a ranked field's root counter item (by its place in `counters`):
    /// those whose counters a table audit holds to their items after its Scan.
    ranked: BTreeSet<(usize, String)>,
}

/// The ranked fields of the lock, whose counter items a sort key attribute holds.
fn counters_of(lock: &LockFile, role: KeyRole) -> Vec<(String, RankedField)> {
    match role {
        KeyRole::Sort => lock.ranks.iter().filter_map(|r| Some((r.layout.clone(), lock.ranked(&r.layout)?))).collect(),
        KeyRole::Partition => Vec::new(),
    }
}

impl Attribute {
    /// An audit of attribute `name` of `table` against the lock's layouts it holds (those of
    /// `role`, when the lock does not say) and their versions.
    pub(crate) fn new(
        lock: &LockFile,
        table: Option<&str>,
        (name, role): (String, KeyRole),
        (partition, sort): (Option<String>, Option<String>),
    ) -> Attribute {
        let sort = sort.map(|sk| sort_layouts(lock, table, sk));
        let audit = audit_of(layouts_of(lock, table, &name, role), &lock.versions, sort.as_ref());
        let sized = sharded(&audit);
        let counters = counters_of(lock, role);
        let versions = lock.versions.clone();
        let ranked = BTreeSet::new();
        Attribute { name, role, audit, not_strings: 0, partition, sort, versions, sized, counters, ranked }
    }

    /// The audit a report of it (a partial report read back, with the partitions of its old
    /// keys) goes on from.
    pub(crate) fn resume(
        lock: &LockFile,
        table: Option<&str>,
        report: &AttributeReport,
        partitions: &[(u64, u64)],
        (partition, sort): (Option<String>, Option<String>),
    ) -> Result<Attribute, AskError> {
        let layouts = layouts_of(lock, table, &report.name, report.role);
        let sort = sort.map(|sk| sort_layouts(lock, table, sk));
        let mut audit = KeyAudit::resume_with_partitions(layouts, &lock.versions, &report.report, partitions)?;
        if let Some((_, sorts)) = &sort {
            audit = audit.with_sort_layouts(sorts.clone());
        }
        let (name, role, not_strings) = (report.name.clone(), report.role, report.not_strings);
        let sized = sharded(&audit);
        let counters = counters_of(lock, role);
        let versions = lock.versions.clone();
        let ranked = BTreeSet::new();
        Ok(Attribute { name, role, audit, not_strings, partition, sort, versions, sized, counters, ranked })
    }

    /// A fresh audit of the same attribute against the same layouts.
    pub(crate) fn empty_like(&self) -> Attribute {
        let audit = audit_of(self.audit.layouts().to_vec(), &self.versions, self.sort.as_ref());
        let (name, partition, versions) = (self.name.clone(), self.partition.clone(), self.versions.clone());
        let (role, sort, sized, counters) = (self.role, self.sort.clone(), self.sized, self.counters.clone());
        let ranked = BTreeSet::new();
        Attribute { name, role, audit, not_strings: 0, partition, sort, versions, sized, counters, ranked }
    }

    /// Adds the audit of another part of the same attribute's values.
    pub(crate) fn merge(&mut self, other: &Attribute) -> Result<(), AskError> {
        self.audit.merge_audit(&other.audit)?;
        self.not_strings += other.not_strings;
        self.ranked.extend(other.ranked.iter().cloned());
        Ok(())
    }

    /// Classifies the attribute's value in one item (nothing when the item has none), in the
    /// item's partition.
    pub(crate) fn observe(&mut self, item: &Item) {
        let partition = self.partition.as_ref().and_then(|p| item.get(p)).and_then(|v| v.as_s().ok());
        match item.get(&self.name) {
            Some(AttributeValue::S(key)) if self.is_counter(key) => {
                let root = self.counters.iter().position(|(_, r)| r.node_of(key) == Some(""));
                if let (Some(at), Some(partition)) = (root, partition) {
                    self.ranked.insert((at, partition.clone()));
                }
            }
            Some(AttributeValue::S(key)) => {
                // A sharded layout's balance adds up its items' bytes, when the Scan read them whole.
                let bytes = self.sized.then(|| sortkey_core::dynamodb::item_size(item) as u64);
                self.audit.observe_item(key, partition.map(String::as_str), bytes);
                let sort = self.sort.as_ref().and_then(|(sk, _)| item.get(sk)).and_then(|v| v.as_s().ok());
                if let Some(sort) = sort {
                    self.audit.observe_placement(key, sort);
                }
            }
            Some(_) => self.not_strings += 1,
            None => {}
        }
    }

    /// Whether `key` is a rank counter item's sort key, which the audit leaves out.
    pub(crate) fn is_counter(&self, key: &str) -> bool {
        self.counters.iter().any(|(_, r)| r.node_of(key).is_some())
    }

    /// The ranked partitions the items observed hold (a partition, or shard, with a layout's
    /// root counter item), in order.
    pub(crate) fn ranked_partitions(&self) -> Vec<RankedPartition> {
        let of = |(at, partition): &(usize, String)| {
            let (layout, field) = self.counters[*at].clone();
            RankedPartition { layout, field, partition: partition.clone() }
        };
        self.ranked.iter().map(of).collect()
    }

    /// Its report, with the fields under `threshold`.
    pub(crate) fn report(&self, threshold: f64) -> AttributeReport {
        let shards: Vec<(String, String)> = self
            .audit
            .layouts()
            .iter()
            .filter_map(|(name, layout)| {
                let (at, _) = layout.shard_field()?;
                let sortkey_core::DynBody::Fields(fields) = &layout.key.body else { return None };
                Some((name.clone(), fields[at].name.to_owned()))
            })
            .collect();
        let named = (self.name.clone(), self.role);
        AttributeReport::new(named, self.audit.report(), self.not_strings, threshold, &shards)
    }
}

/// The attributes an audit of `attributes` reads from each item: each audited one, then each
/// partition key that counts old keys and is not audited itself.
pub(crate) fn read_names(attributes: &[Attribute]) -> Vec<String> {
    let mut names: Vec<String> = attributes.iter().map(|a| a.name.clone()).collect();
    let sorts = attributes.iter().filter_map(|a| a.sort.as_ref().map(|(sk, _)| sk.clone()));
    for p in attributes.iter().filter_map(|a| a.partition.clone()).chain(sorts) {
        if !names.contains(&p) {
            names.push(p);
        }
    }
    names
}

/// Whether a layout `audit` reads by is sharded.
fn sharded(audit: &KeyAudit) -> bool {
    audit.layouts().iter().any(|(_, layout)| layout.shard_field().is_some())
}

/// The lock's layouts the attribute `attribute` of `table` holds, with their names, when the lock
/// says which (its `table` lines of that table: only those, every version of each); every layout
/// of `role` otherwise (a plain lock, or no table named).
fn layouts_of(lock: &LockFile, table: Option<&str>, attribute: &str, role: KeyRole) -> Vec<(String, DynLayout)> {
    lock.layouts_reading(table, attribute, role).into_iter().map(|(n, l)| (n.to_owned(), l.clone())).collect()
}

/// The sort key attribute `sk` of `table` with the lock's layouts of it: what an item's shard
/// is calculated from.
fn sort_layouts(lock: &LockFile, table: Option<&str>, sk: String) -> (String, Vec<DynLayout>) {
    let layouts = layouts_of(lock, table, &sk, KeyRole::Sort).into_iter().map(|(_, l)| l).collect();
    (sk, layouts)
}

/// An audit against `layouts` and `versions`, checking shards against `sort`'s layouts when a
/// partition key's.
fn audit_of(
    layouts: Vec<(String, DynLayout)>,
    versions: &[Versions],
    sort: Option<&(String, Vec<DynLayout>)>,
) -> KeyAudit {
    let audit = KeyAudit::new(layouts).with_versions(versions);
    match sort {
        Some((_, sorts)) => audit.with_sort_layouts(sorts.clone()),
        None => audit,
    }
}

/// The audits of the key attributes `pk` and `sk` of `table` (when one is named): those the lock
/// has layouts for.
pub(crate) fn attributes(
    lock: &LockFile,
    lock_path: &str,
    table: Option<&str>,
    (pk, sk): (String, Option<String>),
) -> Result<Vec<Attribute>, AskError> {
    let attributes: Vec<Attribute> = [Some((pk.clone(), KeyRole::Partition)), sk.clone().map(|sk| (sk, KeyRole::Sort))]
        .into_iter()
        .flatten()
        .filter(|(name, role)| !layouts_of(lock, table, name, *role).is_empty())
        .map(|(name, role)| {
            let partition = (role == KeyRole::Sort).then(|| pk.clone());
            let sort = sk.clone().filter(|_| role == KeyRole::Partition);
            Attribute::new(lock, table, (name, role), (partition, sort))
        })
        .collect();
    if attributes.is_empty() {
        let whose = match table.filter(|t| lock.tables.iter().any(|l| l.table == *t)) {
            Some(t) => format!("the key attributes the lock records for table `{t}`"),
            None => "the table's key attributes' roles".to_owned(),
        };
        return Err(AskError::not_found(format!("{lock_path}: no layout of {whose}")));
    }
    Ok(attributes)
}
