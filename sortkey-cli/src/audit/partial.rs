//! Partial reports: the audit of some of a table's Scan segments, where each stands and the lock
//! it read, saved after every page (`--report FILE`), so that an audit killed midway resumes
//! where it saved; `sortkey audit merge` reads the partial reports of every segment back and
//! prints the report of the whole table.
//!
//! A partial report is one JSON document: `format`, `table`, `index`, `total`, `segments` (each
//! `segment`, `after`, the key it goes on after in DynamoDB JSON, and `done`), `lock` (the lock's
//! text) and `attributes`, each as the report's JSON shows it. What an attribute's report cannot
//! show, the decode error of a sample no layout reads, is found again by decoding the sample.

use std::path::{Path, PathBuf};

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use serde_json::{Map, Value, json};
use sortkey_core::{AuditReport, Capacity, DynValue, KeyAudit, KeyRole, LockFile, MixedWidth, Unread};

use crate::audit::{Attribute, finish, report};
use crate::cli::{Args, MergeArgs};
use crate::pages::Item;
use crate::{Failure, Outcome};

/// What a partial report says it is.
const FORMAT: &str = "sortkey audit partial report 1";

/// The audit of some segments of a table.
pub(crate) struct Partial {
    /// The table.
    pub(crate) table: String,
    /// Its global secondary index read instead, if any.
    pub(crate) index: Option<String>,
    /// The number of segments the table is split into.
    pub(crate) total: u32,
    /// The segments audited here, and where each stands.
    pub(crate) segments: Vec<Segment>,
    /// The lock's text: the layouts the audit classifies by.
    pub(crate) lock: String,
    /// The key attributes' audits.
    pub(crate) attributes: Vec<Attribute>,
}

/// Where one Scan segment stands.
pub(crate) struct Segment {
    /// The segment, `0..total`.
    pub(crate) number: u32,
    /// The key the next page starts after; `None` at the start (or the end).
    pub(crate) after: Option<Item>,
    /// Whether the segment has been read to its end.
    pub(crate) done: bool,
}

/// The lock as a partial report keeps it: its `Name = layout` lines as the layout printer writes
/// them, so that two locks with the same layouts compare equal.
pub(crate) fn lock_text(lock: &LockFile) -> String {
    lock.entries.iter().map(|(name, layout)| format!("{name} = {layout}\n")).collect()
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
    ) -> Result<(), Failure> {
        let mine: Vec<u32> = self.segments.iter().map(|s| s.number).collect();
        let (found, expected) = (self.describe(&mine), Partial::description(table, index, total, numbers));
        if found != expected {
            return Err(Failure(format!(
                "{path} is the partial report of {found}; expected {expected} (remove it, or give another --report)"
            )));
        }
        if self.lock != lock {
            return Err(Failure(format!(
                "{path} was written with other layouts than the lock's; expected the same lock to resume (remove it, \
                 or give another --report)"
            )));
        }
        Ok(())
    }

    fn describe(&self, numbers: &[u32]) -> String {
        Partial::description(&self.table, self.index.as_deref(), self.total, numbers)
    }

    fn description(table: &str, index: Option<&str>, total: u32, numbers: &[u32]) -> String {
        let numbers: Vec<String> = numbers.iter().map(u32::to_string).collect();
        let index = index.map(|i| format!(" index {i}")).unwrap_or_default();
        format!("table {table}{index}, segments {} of {total}", numbers.join(", "))
    }

    fn to_json(&self) -> Value {
        let segments: Vec<Value> = self
            .segments
            .iter()
            .map(|s| json!({ "segment": s.number, "after": s.after.as_ref().map(key_json), "done": s.done }))
            .collect();
        let attributes: Vec<Value> = self.attributes.iter().map(|a| report::attribute_json(a, 0.0)).collect();
        json!({
            "format": FORMAT,
            "table": self.table,
            "index": self.index,
            "total": self.total,
            "segments": segments,
            "lock": self.lock,
            "attributes": attributes,
        })
    }

    fn from_json(doc: &Value) -> Result<Partial, String> {
        if doc.get("format").and_then(Value::as_str) != Some(FORMAT) {
            return Err(format!("expected `\"format\": \"{FORMAT}\"`"));
        }
        let lock_text = string(doc, "lock")?.to_owned();
        let lock = LockFile::parse(&lock_text).map_err(|e| format!("its lock: {e}"))?;
        let mut segments = Vec::new();
        for s in array(doc, "segments")? {
            let after = match s.get("after") {
                None | Some(Value::Null) => None,
                Some(key) => Some(key_from_json(key)?),
            };
            let done = s.get("done").and_then(Value::as_bool).ok_or("a segment without `done`")?;
            segments.push(Segment { number: number(s, "segment")?, after, done });
        }
        let mut attributes = Vec::new();
        for a in array(doc, "attributes")? {
            let role = match string(a, "role")? {
                "partition" => KeyRole::Partition,
                "sort" => KeyRole::Sort,
                other => return Err(format!("expected the role `partition` or `sort`, found `{other}`")),
            };
            let mut attribute = Attribute::new(&lock, string(a, "name")?.to_owned(), role);
            let report = restore(&lock, &attribute.audit, a)?;
            attribute.audit.merge(&report).map_err(|e| e.to_string())?;
            attribute.not_strings = number(a, "not_strings")?;
            attributes.push(attribute);
        }
        Ok(Partial {
            table: string(doc, "table")?.to_owned(),
            index: doc.get("index").and_then(Value::as_str).map(str::to_owned),
            total: number(doc, "total")?,
            segments,
            lock: lock_text,
            attributes,
        })
    }
}

/// Writes the partial report to `path` whole: to a file beside it, then renamed over it, so that
/// a process killed while writing leaves the last report saved.
pub(crate) fn save(path: &Path, partial: &Partial) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(&partial.to_json())?;
    let temporary = path.with_extension("partial");
    let failed = |e: std::io::Error| Failure(format!("cannot write the partial report {}: {e}", path.display()));
    std::fs::write(&temporary, text).map_err(failed)?;
    std::fs::rename(&temporary, path).map_err(failed)
}

/// The partial report at `path`; `None` when there is no such file.
pub(crate) fn load(path: &Path) -> Result<Option<Partial>, Failure> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Failure(format!("cannot read the partial report {}: {e}", path.display()))),
    };
    let bad = |e: String| Failure(format!("{}: not a partial report of sortkey audit: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    Partial::from_json(&doc).map(Some).map_err(bad)
}

/// `sortkey audit merge PARTS...`: the partial reports of every segment of one audit (same table,
/// index, lock and total; each segment once, each read to its end), merged in segment order into
/// the report of the whole table.
pub(crate) fn merge(args: &Args, merge: &MergeArgs) -> Result<Outcome, Failure> {
    let mut parts: Vec<(PathBuf, Partial)> = Vec::new();
    for path in &merge.parts {
        let part = load(path)?
            .ok_or_else(|| Failure(format!("cannot read the partial report {}: no such file", path.display())))?;
        parts.push((path.clone(), part));
    }
    parts.sort_by_key(|(_, p)| p.segments.iter().map(|s| s.number).min());
    let Some((first_path, first)) = parts.first() else {
        return Err(Failure("expected partial reports to merge".into()));
    };
    let mut seen: Vec<u32> = Vec::new();
    for (path, part) in &parts {
        let same = part.table == first.table && part.index == first.index && part.total == first.total;
        if !same || part.lock != first.lock {
            return Err(Failure(format!(
                "{} is the partial report of another audit than {} ({} with {} layouts); expected parts of one audit",
                path.display(),
                first_path.display(),
                part.describe(&part.segments.iter().map(|s| s.number).collect::<Vec<_>>()),
                if part.lock == first.lock { "the same" } else { "other" },
            )));
        }
        for s in &part.segments {
            if !s.done {
                return Err(Failure(format!(
                    "{}: segment {} of {} is not finished; resume it (the same `sortkey audit` with this --report) \
                     before merging",
                    path.display(),
                    s.number,
                    part.total
                )));
            }
            if seen.contains(&s.number) {
                return Err(Failure(format!("segment {} is in two of the parts ({})", s.number, path.display())));
            }
            seen.push(s.number);
        }
    }
    let missing: Vec<String> = (0..first.total).filter(|n| !seen.contains(n)).map(|n| n.to_string()).collect();
    if !missing.is_empty() {
        return Err(Failure(format!(
            "no partial report of segment {} of {}; expected every segment of the table",
            missing.join(", "),
            first.total
        )));
    }
    let mut parts = parts.into_iter().map(|(_, part)| part);
    let Some(mut first) = parts.next() else { return Err(Failure("expected partial reports to merge".into())) };
    for part in parts {
        for (mine, theirs) in first.attributes.iter_mut().zip(&part.attributes) {
            mine.audit.merge(theirs.audit.report())?;
            mine.not_strings += theirs.not_strings;
        }
    }
    let source = json!({ "table": first.table, "index": first.index });
    let title = first.table.clone();
    Ok(finish(args, &title, source, &first.attributes, merge.headroom))
}

/// The report of an attribute's JSON (as [`report::attribute_json`] writes it), for an audit of
/// the same layouts as `audit`.
fn restore(lock: &LockFile, audit: &KeyAudit, a: &Value) -> Result<AuditReport, String> {
    let mut report = audit.report().clone();
    report.keys = number(a, "values")?;
    let layouts = array(a, "layouts")?;
    if layouts.len() != report.layouts.len() {
        return Err(format!(
            "expected {} layouts in `{}`, found {}",
            report.layouts.len(),
            string(a, "name")?,
            layouts.len()
        ));
    }
    for (count, l) in report.layouts.iter_mut().zip(layouts) {
        if string(l, "name")? != count.name {
            return Err(format!("expected the layout `{}`, found `{}`", count.name, string(l, "name")?));
        }
        count.count = number(l, "keys")?;
        for (field, f) in count.usage.fields_mut().iter_mut().zip(array(l, "fields")?) {
            field.seen = number(f, "values")?;
            field.least = seen_value(f.get("least"), &field.capacity)?;
            field.largest = seen_value(f.get("largest"), &field.capacity)?;
        }
    }
    for m in array(a, "mixed_widths")? {
        report.mixed_widths.push(MixedWidth {
            layout: string(m, "layout")?.to_owned(),
            field: string(m, "field")?.to_owned(),
            width: number(m, "width")?,
            seen: number(m, "seen")?,
            count: number(m, "keys")?,
            samples: strings(m, "samples")?,
        });
    }
    for u in array(a, "unread")? {
        let mut samples = Vec::new();
        for s in array(u, "samples")? {
            let (key, name) = (string(s, "key")?, string(s, "layout")?);
            let layout = lock.get(name).ok_or_else(|| format!("a sample read by `{name}`, which the lock has not"))?;
            let error = layout.decode(key).err().ok_or_else(|| format!("the sample `{key}` is read by `{name}`"))?;
            samples.push((key.to_owned(), name.to_owned(), error));
        }
        let kind = samples.first().map(|(_, _, e)| e.kind()).ok_or("keys no layout reads, without a sample")?;
        report.unread.push(Unread { kind, count: number(u, "keys")?, samples });
    }
    report.empty = number(a, "empty")?;
    report.too_long = number(a, "too_long")?;
    report.too_long_samples = strings(a, "too_long_samples")?;
    Ok(report)
}

/// A least or largest value as the report's JSON writes it: a number, or a string of digits
/// beyond 2^53; signed for a signed field.
fn seen_value(value: Option<&Value>, capacity: &Capacity) -> Result<Option<DynValue>, String> {
    let text = match value {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => return Err(format!("expected a number, found {other}")),
    };
    let bad = |_| format!("expected an integer, found `{text}`");
    Ok(Some(match capacity {
        Capacity::Signed { .. } => DynValue::Signed(text.parse().map_err(bad)?),
        _ => DynValue::Unsigned(text.parse().map_err(bad)?),
    }))
}

/// A key in DynamoDB JSON: `{"pk": {"S": "..."}}`, a number as `{"N": "..."}`, binary in base64
/// as `{"B": "..."}` (the only types a key attribute has).
fn key_json(key: &Item) -> Value {
    let mut members = Map::new();
    for (name, value) in key {
        let typed = match value {
            AttributeValue::S(s) => json!({ "S": s }),
            AttributeValue::N(n) => json!({ "N": n }),
            AttributeValue::B(b) => json!({ "B": aws_smithy_types::base64::encode(b.as_ref()) }),
            other => json!({ "S": format!("{other:?}") }),
        };
        members.insert(name.clone(), typed);
    }
    Value::Object(members)
}

fn key_from_json(key: &Value) -> Result<Item, String> {
    let members = key.as_object().ok_or("expected a key, an object of typed values")?;
    let mut item = Item::new();
    for (name, typed) in members {
        let value = match (typed.get("S"), typed.get("N"), typed.get("B")) {
            (Some(Value::String(s)), _, _) => AttributeValue::S(s.clone()),
            (_, Some(Value::String(n)), _) => AttributeValue::N(n.clone()),
            (_, _, Some(Value::String(b))) => {
                AttributeValue::B(Blob::new(aws_smithy_types::base64::decode(b).map_err(|e| format!("`{name}`: {e}"))?))
            }
            _ => return Err(format!("`{name}`: expected {{\"S\"|\"N\"|\"B\": \"...\"}}, found {typed}")),
        };
        item.insert(name.clone(), value);
    }
    Ok(item)
}

fn field<'v>(v: &'v Value, name: &str) -> Result<&'v Value, String> {
    v.get(name).ok_or_else(|| format!("expected `{name}`, found none"))
}

fn string<'v>(v: &'v Value, name: &str) -> Result<&'v str, String> {
    field(v, name)?.as_str().ok_or_else(|| format!("expected `{name}` to be a string"))
}

fn array<'v>(v: &'v Value, name: &str) -> Result<&'v Vec<Value>, String> {
    field(v, name)?.as_array().ok_or_else(|| format!("expected `{name}` to be an array"))
}

fn number<T: TryFrom<u64>>(v: &Value, name: &str) -> Result<T, String> {
    field(v, name)?.as_u64().and_then(|n| T::try_from(n).ok()).ok_or_else(|| format!("expected `{name}` to be a count"))
}

fn strings(v: &Value, name: &str) -> Result<Vec<String>, String> {
    array(v, name)?
        .iter()
        .map(|s| s.as_str().map(str::to_owned).ok_or(format!("expected `{name}` to hold strings")))
        .collect()
}
