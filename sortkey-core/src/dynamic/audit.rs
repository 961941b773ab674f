//! The audit of a key attribute's values against a lock's layouts: which layout reads each
//! key, the keys no layout reads (grouped by why), keys that differ from a layout only in the
//! digit count of one field (the mixed widths a migration that padded new keys and not old ones
//! leaves), empty keys and keys over DynamoDB's limit, and the headroom of every numeric and
//! timestamp field. The rules of `sortkey audit`, here so that a program can run them too.

use std::collections::HashMap;

use crate::dynamic::{DynBody, DynKey, DynLayout, DynType, DynVariant, LayoutUsage};
use crate::encoding::key::KeyRole;
use crate::error::{DecodeError, DecodeErrorKind};

/// How many sample keys a finding keeps.
const SAMPLES: usize = 5;

/// The audit of one key attribute: feed it every value ([`observe`](Self::observe)), then read
/// its [`report`](Self::report).
#[derive(Debug, Clone)]
pub struct KeyAudit {
    layouts: Vec<(String, DynLayout)>,
    /// Layouts that differ from one of `layouts` only in one field's width, built when a key
    /// first needs one: (layout index, field path, width) -> the layout, or `None` when that
    /// field has no such width.
    widened: HashMap<(usize, String, u32), Option<DynLayout>>,
    report: AuditReport,
}

/// What an audit found.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditReport {
    /// Keys observed.
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
    /// Some of them.
    pub too_long_samples: Vec<String>,
}

/// The keys one layout reads.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutCount {
    /// The layout's name in the lock.
    pub name: String,
    /// How many keys it reads.
    pub count: u64,
    /// The values its numeric and timestamp fields hold.
    pub usage: LayoutUsage,
}

/// Keys that a layout reads once one field's width is `seen` instead of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    pub count: u64,
    /// Some of them.
    pub samples: Vec<String>,
}

/// Keys no layout reads, for one kind of error.
#[derive(Debug, Clone, PartialEq)]
pub struct Unread {
    /// The kind of the error of the layout that read furthest into the key.
    pub kind: DecodeErrorKind,
    /// How many keys.
    pub count: u64,
    /// Some of them, each with that layout's name and its error.
    pub samples: Vec<(String, String, DecodeError)>,
}

impl KeyAudit {
    /// An audit of a key attribute against `layouts` (name and layout, as a lock holds them).
    pub fn new(layouts: impl IntoIterator<Item = (String, DynLayout)>) -> KeyAudit {
        let layouts: Vec<(String, DynLayout)> = layouts.into_iter().collect();
        let counts = layouts
            .iter()
            .map(|(name, layout)| LayoutCount { name: name.clone(), count: 0, usage: layout.usage() })
            .collect();
        let report = AuditReport {
            keys: 0,
            layouts: counts,
            mixed_widths: Vec::new(),
            unread: Vec::new(),
            empty: 0,
            too_long: 0,
            too_long_samples: Vec::new(),
        };
        KeyAudit { layouts, widened: HashMap::new(), report }
    }

    /// Classifies one value of the attribute.
    pub fn observe(&mut self, key: &str) {
        self.report.keys += 1;
        if key.is_empty() {
            self.report.empty += 1;
            return;
        }
        let role = self.layouts.first().map_or(KeyRole::Sort, |(_, l)| l.role);
        if key.len() > role.limit() {
            self.report.too_long += 1;
            if self.report.too_long_samples.len() < SAMPLES {
                self.report.too_long_samples.push(key.to_owned());
            }
            return;
        }
        let mut furthest: Option<(usize, DecodeError)> = None;
        for (i, (_, layout)) in self.layouts.iter().enumerate() {
            match layout.decode(key) {
                Ok(value) => {
                    let count = &mut self.report.layouts[i];
                    count.count += 1;
                    count.usage.observe(&value);
                    return;
                }
                Err(e) => {
                    if furthest.as_ref().is_none_or(|(_, f)| e.offset() > f.offset()) {
                        furthest = Some((i, e));
                    }
                }
            }
        }
        if self.mixed_width(key) {
            return;
        }
        if let Some((i, error)) = furthest {
            let name = self.layouts[i].0.clone();
            let group = match self.report.unread.iter_mut().position(|u| u.kind == error.kind()) {
                Some(g) => &mut self.report.unread[g],
                None => {
                    self.report.unread.push(Unread { kind: error.kind(), count: 0, samples: Vec::new() });
                    self.report.unread.last_mut().unwrap_or_else(|| unreachable!("just pushed"))
                }
            };
            group.count += 1;
            if group.samples.len() < SAMPLES {
                group.samples.push((key.to_owned(), name, error));
            }
        }
    }

    /// Whether `key` is read by a layout with one field of another width (the digit count of a
    /// run of digits in the key), recorded as a mixed width if so.
    fn mixed_width(&mut self, key: &str) -> bool {
        let runs = digit_runs(key);
        for i in 0..self.layouts.len() {
            for (path, width) in widths(&self.layouts[i].1) {
                for &seen in runs.iter().filter(|&&d| d != width) {
                    let slot = (i, path.clone(), seen);
                    let layouts = &self.layouts;
                    let layout = self.widened.entry(slot).or_insert_with(|| with_width(&layouts[i].1, &path, seen));
                    if layout.as_ref().is_some_and(|l| l.decode(key).is_ok()) {
                        self.record_mixed(i, path, width, seen, key);
                        return true;
                    }
                }
            }
        }
        false
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
        if entry.samples.len() < SAMPLES {
            entry.samples.push(key.to_owned());
        }
    }

    /// The layouts it classifies by, as it was given them.
    pub fn layouts(&self) -> &[(String, DynLayout)] {
        &self.layouts
    }

    /// What the audit found so far.
    pub fn report(&self) -> &AuditReport {
        &self.report
    }

    /// Adds the report of another audit of the same layouts (another segment of the table, a
    /// partial report read back): counts and usage add up, findings of the same layout, field
    /// and width (or error kind) join, samples are kept up to five. Merging the reports of the
    /// parts of a set of keys, in order, gives the report of auditing them all in that order.
    /// An error when `other` counts keys under other layouts than this audit's (by name, in
    /// order).
    pub fn merge(&mut self, other: &AuditReport) -> Result<(), AuditMergeError> {
        let mine: Vec<&str> = self.report.layouts.iter().map(|l| l.name.as_str()).collect();
        let theirs: Vec<&str> = other.layouts.iter().map(|l| l.name.as_str()).collect();
        if mine != theirs {
            let names = |n: &[&str]| n.join(", ");
            return Err(AuditMergeError { expected: names(&mine), found: names(&theirs) });
        }
        let report = &mut self.report;
        report.keys += other.keys;
        for (count, more) in report.layouts.iter_mut().zip(&other.layouts) {
            count.count += more.count;
            count.usage.merge(&more.usage);
        }
        for more in &other.mixed_widths {
            let same = |m: &&mut MixedWidth| m.layout == more.layout && m.field == more.field && m.seen == more.seen;
            match report.mixed_widths.iter_mut().find(same) {
                Some(entry) => {
                    entry.count += more.count;
                    extend_samples(&mut entry.samples, &more.samples);
                }
                None => report.mixed_widths.push(more.clone()),
            }
        }
        for more in &other.unread {
            match report.unread.iter_mut().find(|u| u.kind == more.kind) {
                Some(group) => {
                    group.count += more.count;
                    extend_samples(&mut group.samples, &more.samples);
                }
                None => report.unread.push(more.clone()),
            }
        }
        report.empty += other.empty;
        report.too_long += other.too_long;
        extend_samples(&mut report.too_long_samples, &other.too_long_samples);
        Ok(())
    }
}

/// Adds `more` to `samples`, up to the number of samples a finding keeps.
fn extend_samples<T: Clone>(samples: &mut Vec<T>, more: &[T]) {
    let room = SAMPLES.saturating_sub(samples.len());
    samples.extend(more.iter().take(room).cloned());
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
        !self.unread.is_empty() || !self.mixed_widths.is_empty() || self.empty > 0 || self.too_long > 0
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

/// The fields of a layout that have a width of digits (integers and Unix timestamps), by path,
/// with that width.
fn widths(layout: &DynLayout) -> Vec<(String, u32)> {
    layout
        .field_paths()
        .into_iter()
        .filter(|(_, f)| {
            f.width > 0
                && !f.rfc3339
                && matches!(f.ty.innermost(), DynType::Unsigned(_) | DynType::Signed(_) | DynType::Timestamp)
        })
        .map(|(path, f)| (path, f.width))
        .collect()
}

/// `layout` with the field at `path` of width `width`; `None` when no such field is there.
fn with_width(layout: &DynLayout, path: &str, width: u32) -> Option<DynLayout> {
    let mut layout = layout.clone();
    set_width(&mut layout.key, path, width).then_some(layout)
}

fn set_width(key: &mut DynKey, path: &str, width: u32) -> bool {
    match &mut key.body {
        DynBody::Fields(fields) => {
            let (head, rest) = path.split_once('.').map_or((path, None), |(h, r)| (h, Some(r)));
            let Some(field) = fields.iter_mut().find(|f| f.name == head) else { return false };
            match (rest, &mut field.ty) {
                (None, _) => {
                    field.width = width;
                    true
                }
                (Some(rest), DynType::Key(inner)) => set_width(inner, rest, width),
                (Some(rest), DynType::Option(inner)) => match inner.as_mut() {
                    DynType::Key(inner) => set_width(inner, rest, width),
                    _ => false,
                },
                _ => false,
            }
        }
        DynBody::Family(variants) => {
            let Some((prefix, rest)) = path.split_once('.') else { return false };
            variants.iter_mut().any(|v| match v {
                DynVariant::Key(inner) if inner.prefix.as_deref() == Some(prefix) => set_width(inner, rest, width),
                _ => false,
            })
        }
        DynBody::Custom => false,
    }
}
