//! `sortkey audit`: every key attribute of a table (or index, or a DynamoDB export) classified by
//! sortkey-core's [`KeyAudit`] against the lock's layouts of its role, and the report printed.
//! Read only.
//!
//! Where the items come from: a parallel Scan of the table ([`scan`]), resumable from a partial
//! report and split between processes by segment ([`partial`]), or the files of an export
//! ([`export`]). What is printed: [`report`].

pub(crate) mod data_files;
mod export;
mod export_line;
#[cfg(feature = "s3")]
pub(crate) mod export_s3;
pub(crate) mod partial;
pub(crate) mod report;
pub(crate) mod scan;

use aws_sdk_dynamodb::types::AttributeValue;
use sortkey_core::{DynLayout, KeyAudit, KeyRole, LockFile, Versions};

use self::report::{AttributeReport, AuditDocument, AuditSource};
use crate::ask::{CommandLine, Context};
use crate::cli::{AuditArgs, AuditCommand};
use crate::outcome::{AskError, Outcome};
use crate::pages::{self, Item, SegmentOf};
use crate::session::Session;

use self::data_files::{DataFiles, Folder};

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
}

impl Attribute {
    /// An audit of attribute `name` of `table` against the lock's layouts it holds (those of
    /// `role`, when the lock does not say) and their versions.
    fn new(
        lock: &LockFile,
        table: Option<&str>,
        (name, role): (String, KeyRole),
        (partition, sort): (Option<String>, Option<String>),
    ) -> Attribute {
        let sort = sort.map(|sk| sort_layouts(lock, table, sk));
        let audit = audit_of(layouts_of(lock, table, &name, role), &lock.versions, sort.as_ref());
        let sized = sharded(&audit);
        Attribute { name, role, audit, not_strings: 0, partition, sort, versions: lock.versions.clone(), sized }
    }

    /// The audit a report of it (a partial report read back, with the partitions of its old
    /// keys) goes on from.
    fn resume(
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
        Ok(Attribute { name, role, audit, not_strings, partition, sort, versions: lock.versions.clone(), sized })
    }

    /// A fresh audit of the same attribute against the same layouts.
    fn empty_like(&self) -> Attribute {
        let audit = audit_of(self.audit.layouts().to_vec(), &self.versions, self.sort.as_ref());
        let (name, partition, versions) = (self.name.clone(), self.partition.clone(), self.versions.clone());
        let (role, sort, sized) = (self.role, self.sort.clone(), self.sized);
        Attribute { name, role, audit, not_strings: 0, partition, sort, versions, sized }
    }

    /// Adds the audit of another part of the same attribute's values.
    fn merge(&mut self, other: &Attribute) -> Result<(), AskError> {
        self.audit.merge_audit(&other.audit)?;
        self.not_strings += other.not_strings;
        Ok(())
    }

    /// Classifies the attribute's value in one item (nothing when the item has none), in the
    /// item's partition.
    fn observe(&mut self, item: &Item) {
        let partition = self.partition.as_ref().and_then(|p| item.get(p)).and_then(|v| v.as_s().ok());
        match item.get(&self.name) {
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

    /// Its report, with the fields under `threshold`.
    fn report(&self, threshold: f64) -> AttributeReport {
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
fn read_names(attributes: &[Attribute]) -> Vec<String> {
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
fn attributes(
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

/// Reads the table (or the export), or merges partial reports, and prints what the keys are;
/// [`Outcome::Found`] when it found anything: a key in no layout (unread, of a mixed width, empty
/// or too long), a value that is no string, or a field under the headroom threshold.
pub(crate) fn run(session: &Session, audit: &AuditArgs) -> Result<Outcome, AskError> {
    if let Some(AuditCommand::Merge(merge)) = &audit.command {
        return partial::merge(session, merge);
    }
    let ctx = session.context();
    audit.what.validate(&ctx)?;
    let doc = match (&audit.what.export, &audit.what.table) {
        (Some(at), _) => export_audit(session, audit, at)?,
        (None, Some(table)) => {
            let state = scan::run(session, audit, table)?;
            scan_report(&state, audit.headroom, (&ctx, audit.command_line(&ctx)), None)
        }
        (None, None) => return Err(AskError::bad("expected --table NAME or --export DIR")),
    };
    session.print(&doc);
    Ok(if doc.findings { Outcome::Found } else { Outcome::Clean })
}

/// The audit of the export at `at` (a folder or `s3://BUCKET/PREFIX`): this worker's share of
/// its files read, the partial report saved when asked.
fn export_audit(session: &Session, audit: &AuditArgs, at: &str) -> Result<AuditDocument, AskError> {
    let ctx = session.context();
    let (Some(pk), sk) = (audit.what.pk.clone(), audit.what.sk.clone()) else {
        return Err(AskError::bad("--export needs --pk ATTR (and --sk ATTR): an export has no key schema"));
    };
    // An export in S3 is listed and streamed on the runtime while the files' threads read.
    let files: Box<dyn DataFiles> = match s3_files(session, at)? {
        Some(files) => files,
        None => Box::new(Folder::of(std::path::Path::new(at))?),
    };
    // One share of the files (every `total`th from the segment's number), or all.
    let (total, numbers) = match audit.total {
        Some(_) => pages::split(1, audit.total, audit.segment)?,
        None => (1, vec![0]),
    };
    let share: Vec<usize> = (0..files.len()).filter(|i| numbers.contains(&((i % total as usize) as u32))).collect();
    let bar = session.bytes_bar();
    let audited = attributes(ctx.lock, ctx.lock_path, audit.what.table.as_deref(), (pk, sk))?;
    let read = export::read(&*files, &share, audited, bar.as_ref())?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let state = partial::Partial {
        table: String::new(),
        index: None,
        export: Some(at.to_owned()),
        total,
        segments: numbers.iter().map(|&number| partial::Segment { number, after: None, done: true }).collect(),
        lock: partial::lock_text(ctx.lock),
        attributes: read,
        connection: crate::ask::Connection::of(&ctx),
    };
    if let Some(path) = &audit.what.report {
        partial::save(path, &state)?;
    }
    // The export's table, when named: the moves run on it.
    let asked = (&ctx, audit.command_line(&ctx));
    Ok(scan_report(&state, audit.headroom, asked, audit.what.table.as_deref()))
}

/// The data files of the export at `at` when it is in S3 (`s3://BUCKET/PREFIX`), listed on
/// `runtime`; `None` for a folder.
#[cfg(feature = "s3")]
fn s3_files(session: &Session, at: &str) -> Result<Option<Box<dyn DataFiles>>, AskError> {
    use self::export_s3::{S3Export, S3Files};
    let Some(s3) = S3Export::parse(at) else { return Ok(None) };
    let (s3, runtime) = (s3?, &session.runtime);
    let client = runtime.block_on(crate::connect::s3_client(&session.connection));
    Ok(Some(Box::new(runtime.block_on(S3Files::list(client, runtime.handle().clone(), s3))?)))
}

/// Without the `s3` feature: an `s3://` export is refused, saying how to read it.
#[cfg(not(feature = "s3"))]
fn s3_files(_: &Session, at: &str) -> Result<Option<Box<dyn DataFiles>>, AskError> {
    match at.starts_with("s3://") {
        true => Err(AskError::bad(format!(
            "{at}: this sortkey was built without its `s3` feature, which reads an export in S3; expected a folder \
             (download the export), or `cargo install sortkey-cli` with its default features"
        ))),
        false => Ok(None),
    }
}

/// The report of the data files of an export (`files`, at the address `at`), their items' key
/// attributes `pk` and `sk` classified by `lock`'s layouts (read from `lock_path`), with the
/// fields under `threshold`, asked by `command`: what `sortkey audit --export AT --pk PK --sk SK`
/// prints.
#[cfg(feature = "serve")]
pub(crate) fn export_report(
    ctx: &Context<'_>,
    (files, at): (&dyn DataFiles, &str),
    (pk, sk): (String, Option<String>),
    (threshold, command): (f64, CommandLine),
) -> Result<AuditDocument, AskError> {
    let all: Vec<usize> = (0..files.len()).collect();
    let attributes = export::read(files, &all, attributes(ctx.lock, ctx.lock_path, None, (pk, sk))?, None)?;
    let source = AuditSource::Export { export: at.to_owned(), segment: None };
    let reports = attributes.iter().map(|a| a.report(threshold)).collect();
    Ok(AuditDocument::new(source, threshold, reports, (ctx, command), None))
}

/// The report of a Scan audit's segments (or an export's shares of files), so far or finished,
/// with the fields under `threshold`, asked by a command line in `ctx` (an export's moves run on
/// `export_table`, when named).
pub(crate) fn scan_report(
    state: &partial::Partial,
    threshold: f64,
    asked: (&Context<'_>, CommandLine),
    export_table: Option<&str>,
) -> AuditDocument {
    let segment = match state.segments.as_slice() {
        [one] if state.total > 1 => Some(SegmentOf { segment: one.number, total: state.total }),
        _ => None,
    };
    let source = match &state.export {
        Some(export) => AuditSource::Export { export: export.clone(), segment },
        None => AuditSource::Table { table: state.table.clone(), index: state.index.clone(), segment },
    };
    let reports = state.attributes.iter().map(|a| a.report(threshold)).collect();
    AuditDocument::new(source, threshold, reports, asked, export_table)
}
