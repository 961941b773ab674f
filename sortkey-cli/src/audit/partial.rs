//! Partial reports: the audit of some of a table's Scan segments, where each stands and the lock
//! it read, saved after every page (`--report FILE`), so that an audit killed midway resumes
//! where it saved; `sortkey audit merge` reads the partial reports of every segment back and
//! prints the report of the whole table.
//!
//! A partial report is one JSON document, [`PartialDocument`]: the audit's own report of each
//! attribute, with where each segment stands and the lock's text.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};
use sortkey_core::LockFile;

use crate::ask::MergeAsk;
use crate::ask::{CommandLine, Connection, Context};
use crate::audit::attribute::Attribute;
use crate::audit::report::{AttributeReport, AuditDocument, AuditSource};
use crate::outcome::AskError;
use crate::output::{Answer, format_tag};
use crate::pages::Item;
use crate::session::Session;

format_tag! {
    /// The partial report's format.
    PartialFormat = "sortkey audit partial 3"
}

/// A partial report as saved.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct PartialDocument {
    format: PartialFormat,
    /// What was read: a table (or its index), or an export.
    #[serde(flatten)]
    source: PartialSource,
    total: u32,
    segments: Vec<Segment>,
    /// The lock's text: the layouts the audit classifies by.
    lock: String,
    /// The key attributes' reports so far.
    attributes: Vec<AttributeReport>,
    /// Per attribute, the partitions holding keys of versioned layouts (`hash:bits`, hexadecimal),
    /// which count old keys by partition.
    partitions: Vec<Vec<String>>,
    /// Per attribute, the partition key attribute that counts its old keys (a sort key's).
    partition_keys: Vec<Option<String>>,
    /// Per attribute, the sort key attribute an item's shard is checked against (a partition
    /// key's).
    #[serde(default, skip_serializing_if = "none_named")]
    sort_keys: Vec<Option<String>>,
    /// The connection the segments read with, which the merged report's moves then name.
    #[serde(default, skip_serializing_if = "is_default")]
    connection: Connection,
}

/// Whether the connection is the default one (AWS's, no option given).
fn is_default(connection: &Connection) -> bool {
    *connection == Connection::default()
}

/// Whether no attribute names one.
fn none_named(names: &[Option<String>]) -> bool {
    names.iter().all(Option::is_none)
}

/// What a partial report read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
enum PartialSource {
    /// A table, or its global secondary index: Scan segments.
    Table { table: String, index: Option<String> },
    /// An export (its folder or `s3://` address): shares of its data files, every `total`th file
    /// from the segment's number.
    Export { export: String },
}

/// The audit of some segments of a table, or of some shares of an export's files.
pub(crate) struct Partial {
    /// The table.
    pub(crate) table: String,
    /// Its global secondary index read instead, if any.
    pub(crate) index: Option<String>,
    /// The export read instead of the table (`table` is then empty), if any.
    pub(crate) export: Option<String>,
    /// The number of segments the table is split into.
    pub(crate) total: u32,
    /// The segments audited here, and where each stands.
    pub(crate) segments: Vec<Segment>,
    /// The lock's text: the layouts the audit classifies by.
    pub(crate) lock: String,
    /// The key attributes' audits.
    pub(crate) attributes: Vec<Attribute>,
    /// The connection the segments were read with.
    pub(crate) connection: Connection,
}

/// Where one Scan segment stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Segment {
    /// The segment, `0..total`.
    #[serde(rename = "segment")]
    pub(crate) number: u32,
    /// The key the next page starts after; `None` at the start (or the end).
    pub(crate) after: Option<StoredKey>,
    /// Whether the segment has been read to its end.
    pub(crate) done: bool,
}

/// A key in DynamoDB JSON, `{"pk": {"S": "..."}}`: a string, a number, or binary in base64 (the
/// only types a key attribute has).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct StoredKey(BTreeMap<String, KeyValue>);

/// One key attribute's value in DynamoDB JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum KeyValue {
    S(String),
    N(String),
    /// Base64, as DynamoDB JSON writes binary.
    B(String),
}

impl StoredKey {
    /// The key of a page as the SDK gives it; `None` when an attribute is of a type no key has.
    pub(crate) fn of(key: &Item) -> Option<StoredKey> {
        let typed = |value: &AttributeValue| match value {
            AttributeValue::S(s) => Some(KeyValue::S(s.clone())),
            AttributeValue::N(n) => Some(KeyValue::N(n.clone())),
            AttributeValue::B(b) => Some(KeyValue::B(aws_smithy_types::base64::encode(b.as_ref()))),
            _ => None,
        };
        key.iter().map(|(name, value)| Some((name.clone(), typed(value)?))).collect::<Option<_>>().map(StoredKey)
    }

    /// The key as the SDK takes it.
    pub(crate) fn item(&self) -> Result<Item, AskError> {
        let value = |(name, typed): (&String, &KeyValue)| {
            let value = match typed {
                KeyValue::S(s) => AttributeValue::S(s.clone()),
                KeyValue::N(n) => AttributeValue::N(n.clone()),
                KeyValue::B(b) => AttributeValue::B(Blob::new(
                    aws_smithy_types::base64::decode(b)
                        .map_err(|e| AskError::bad(format!("a saved key's `{name}`: expected base64, {e}")))?,
                )),
            };
            Ok((name.clone(), value))
        };
        self.0.iter().map(value).collect()
    }
}

/// Partitions as a partial report keeps them: `hash:bits`, each in hexadecimal (beyond 2^53, so
/// no JSON number).
fn partitions_text(partitions: &[(u64, u64)]) -> Vec<String> {
    partitions.iter().map(|(hash, bits)| format!("{hash:016x}:{bits:x}")).collect()
}

fn partitions_read(texts: &[String]) -> Result<Vec<(u64, u64)>, String> {
    let read = |text: &String| {
        let (hash, bits) = text.split_once(':')?;
        Some((u64::from_str_radix(hash, 16).ok()?, u64::from_str_radix(bits, 16).ok()?))
    };
    texts.iter().map(|t| read(t).ok_or_else(|| format!("expected a partition `hash:bits`, found `{t}`"))).collect()
}

/// The lock as a partial report keeps it: its `Name = layout` lines as the layout printer writes
/// them, so that two locks with the same layouts compare equal, then its version lines, which
/// tell old keys when the report is read back (resumed, merged or shown).
pub(crate) fn lock_text(lock: &LockFile) -> String {
    lock.text()
}

impl Partial {
    /// Whether every segment has been read to its end.
    pub(crate) fn done(&self) -> bool {
        self.segments.iter().all(|s| s.done)
    }

    /// Whether this saved audit is the one asked for now (same table, index, lock and segments),
    /// so that resuming it goes on where it stopped.
    pub(crate) fn check_resumes(
        &self,
        path: &str,
        table: &str,
        index: Option<&str>,
        lock: &str,
        total: u32,
        numbers: &[u32],
    ) -> Result<(), AskError> {
        // What the report is of, compared as data: its source, its segments.
        let mine: Vec<u32> = self.segments.iter().map(|s| s.number).collect();
        let same = self.export.is_none()
            && self.table == table
            && self.index.as_deref() == index
            && self.total == total
            && mine == numbers;
        if !same {
            let (found, expected) = (self.describe(), Partial::description(table, index, total, numbers));
            return Err(AskError::bad(format!(
                "{path} is the partial report of {found}; expected {expected} (remove it, or give another --report)"
            )));
        }
        if self.lock != lock {
            return Err(AskError::bad(format!(
                "{path} was written with other layouts than the lock's; expected the same lock to resume (remove it, \
                 or give another --report)"
            )));
        }
        Ok(())
    }

    fn describe(&self) -> String {
        let numbers: Vec<u32> = self.segments.iter().map(|s| s.number).collect();
        match &self.export {
            Some(export) => {
                let numbers: Vec<String> = numbers.iter().map(u32::to_string).collect();
                format!("export {export}, file shares {} of {}", numbers.join(", "), self.total)
            }
            None => Partial::description(&self.table, self.index.as_deref(), self.total, &numbers),
        }
    }

    fn description(table: &str, index: Option<&str>, total: u32, numbers: &[u32]) -> String {
        let numbers: Vec<String> = numbers.iter().map(u32::to_string).collect();
        let index = index.map(|i| format!(" index {i}")).unwrap_or_default();
        format!("table {table}{index}, segments {} of {total}", numbers.join(", "))
    }

    fn document(&self) -> PartialDocument {
        let source = match &self.export {
            Some(export) => PartialSource::Export { export: export.clone() },
            None => PartialSource::Table { table: self.table.clone(), index: self.index.clone() },
        };
        PartialDocument {
            format: PartialFormat,
            source,
            total: self.total,
            segments: self.segments.clone(),
            lock: self.lock.clone(),
            attributes: self.attributes.iter().map(|a| a.report(0.0)).collect(),
            partitions: self.attributes.iter().map(|a| partitions_text(&a.audit.version_partitions())).collect(),
            partition_keys: self.attributes.iter().map(|a| a.partition.clone()).collect(),
            sort_keys: self.attributes.iter().map(|a| a.sort.as_ref().map(|(sk, _)| sk.clone())).collect(),
            connection: self.connection.clone(),
        }
    }

    fn from_document(doc: PartialDocument) -> Result<Partial, String> {
        let lock = LockFile::parse(&doc.lock).map_err(|e| format!("its lock: {e}"))?;
        let (table, index, export) = match doc.source {
            PartialSource::Table { table, index } => (table, index, None),
            PartialSource::Export { export } => (String::new(), None, Some(export)),
        };
        let mut attributes = Vec::new();
        for (i, a) in doc.attributes.iter().enumerate() {
            let partitions = partitions_read(doc.partitions.get(i).map_or(&[][..], Vec::as_slice))?;
            let partition = doc.partition_keys.get(i).cloned().flatten();
            let sort = doc.sort_keys.get(i).cloned().flatten();
            let of = (!table.is_empty()).then_some(table.as_str());
            attributes.push(Attribute::resume(&lock, of, a, &partitions, (partition, sort)).map_err(|e| e.message)?);
        }
        let (total, segments, lock, connection) = (doc.total, doc.segments, doc.lock, doc.connection);
        Ok(Partial { table, index, export, total, segments, lock, attributes, connection })
    }
}

/// Writes the partial report to `path` whole: to a file beside it, then renamed over it, so that
/// a process killed while writing leaves the last report saved.
pub(crate) fn save(path: &Path, partial: &Partial) -> Result<(), AskError> {
    let text = serde_json::to_string_pretty(&partial.document())
        .map_err(|e| AskError::local(format!("cannot write the partial report {}: {e}", path.display())))?;
    let temporary = path.with_extension("partial");
    let failed =
        |e: std::io::Error| AskError::local(format!("cannot write the partial report {}: {e}", path.display()));
    std::fs::write(&temporary, text).map_err(failed)?;
    std::fs::rename(&temporary, path).map_err(failed)
}

/// The partial report at `path`; `None` when there is no such file.
pub(crate) fn load(path: &Path) -> Result<Option<Partial>, AskError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(AskError::unreadable(&e, format!("cannot read the partial report {}: {e}", path.display())));
        }
    };
    let bad = |e: String| AskError::bad(format!("{}: not a partial report of sortkey audit: {e}", path.display()));
    let doc: PartialDocument = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    Partial::from_document(doc).map(Some).map_err(bad)
}

/// `sortkey audit merge PARTS...`: the partial reports of every segment of one audit (same table,
/// index, lock and total; each segment once, each read to its end), merged in segment order into
/// the report of the whole table.
pub(crate) fn merge(session: &Session, merge: &MergeAsk) -> Result<Answer, AskError> {
    // A merge reads no lock (the session's is empty): the parts carry the one their audit read.
    // The printed commands name this command line's --lock, which the moves then read.
    let ctx = session.context();
    let doc = merged(&merge.parts, merge.headroom, (&ctx, merge.command_line(&ctx)))?;
    Ok(Answer::of(doc))
}

/// The report of the whole table from the partial reports at `paths` (every segment once, each
/// finished, all of one audit), with the fields under `threshold`, asked by a command line in
/// `ctx`: what `sortkey audit merge` prints, and the web view's audit page shows.
pub(crate) fn merged(
    paths: &[PathBuf],
    threshold: f64,
    asked: (&Context<'_>, CommandLine),
) -> Result<AuditDocument, AskError> {
    let mut parts: Vec<(PathBuf, Partial)> = Vec::new();
    for path in paths {
        let part = load(path)?.ok_or_else(|| {
            AskError::not_found(format!("cannot read the partial report {}: no such file", path.display()))
        })?;
        parts.push((path.clone(), part));
    }
    parts.sort_by_key(|(_, p)| p.segments.iter().map(|s| s.number).min());
    of_one_audit(&parts)?;
    let mut parts = parts.into_iter().map(|(_, part)| part);
    let Some(mut first) = parts.next() else { return Err(AskError::bad("expected partial reports to merge")) };
    for part in parts {
        for (mine, theirs) in first.attributes.iter_mut().zip(&part.attributes) {
            mine.merge(theirs)?;
        }
    }
    let source = match first.export {
        Some(export) => AuditSource::Export { export, segment: None },
        None => AuditSource::Table { table: first.table, index: first.index, segment: None },
    };
    let reports = first.attributes.iter().map(|a| a.report(threshold)).collect();
    // The moves go where the segments were read, unless this command line says otherwise.
    let (ctx, command) = asked;
    let read = &first.connection;
    let ctx = Context {
        endpoint: ctx.endpoint.or(read.endpoint.as_deref()),
        region: ctx.region.or(read.region.as_deref()),
        profile: ctx.profile.or(read.profile.as_deref()),
        ..*ctx
    };
    Ok(AuditDocument::new(source, threshold, reports, (&ctx, command), None))
}

/// Whether `parts` (in segment order) are the partial reports of one audit: the same source,
/// lock, split and server, each segment once and finished, none missing.
fn of_one_audit(parts: &[(PathBuf, Partial)]) -> Result<(), AskError> {
    let Some((first_path, first)) = parts.first() else {
        return Err(AskError::bad("expected partial reports to merge"));
    };
    let mut seen: Vec<u32> = Vec::new();
    for (path, part) in parts {
        let same = part.table == first.table
            && part.index == first.index
            && part.export == first.export
            && part.total == first.total;
        if !same || part.lock != first.lock {
            return Err(AskError::bad(format!(
                "{} is the partial report of another audit than {} ({} with {} layouts); expected parts of one audit",
                path.display(),
                first_path.display(),
                part.describe(),
                if part.lock == first.lock { "the same" } else { "other" },
            )));
        }
        if part.connection.endpoint != first.connection.endpoint {
            let server = |c: &Connection| c.endpoint.clone().unwrap_or_else(|| "AWS's endpoint".into());
            return Err(AskError::bad(format!(
                "{} was read from {} and {} from {}; expected parts of one audit, read from one server",
                path.display(),
                server(&part.connection),
                first_path.display(),
                server(&first.connection),
            )));
        }
        for s in &part.segments {
            if !s.done {
                return Err(AskError::bad(format!(
                    "{}: segment {} of {} is not finished; resume it (the same `sortkey audit` with this --report) \
                     before merging",
                    path.display(),
                    s.number,
                    part.total
                )));
            }
            if seen.contains(&s.number) {
                return Err(AskError::bad(format!("segment {} is in two of the parts ({})", s.number, path.display())));
            }
            seen.push(s.number);
        }
    }
    let missing: Vec<String> = (0..first.total).filter(|n| !seen.contains(n)).map(|n| n.to_string()).collect();
    if !missing.is_empty() {
        return Err(AskError::bad(format!(
            "no partial report of segment {} of {}; expected every segment of the table",
            missing.join(", "),
            first.total
        )));
    }
    Ok(())
}
