//! `sortkey audit`: every key attribute of a table (or index, or a DynamoDB export) classified by
//! sortkey-core's [`KeyAudit`] against the lock's layouts of its role, and the report printed.
//! Read only.
//!
//! Where the items come from: a parallel Scan of the table ([`scan`]), resumable from a partial
//! report and split between processes by segment ([`partial`]), or the files of an export
//! ([`export`]). What is printed: [`report`].

mod export;
mod partial;
mod report;
mod scan;

use aws_sdk_dynamodb::types::AttributeValue;
use serde_json::json;
use sortkey_core::{KeyAudit, KeyRole, LockFile};

use crate::cli::{Args, AuditArgs, AuditCommand, Output};
use crate::pages::bytes_bar;
use crate::{Failure, Outcome, lock, output};

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
}

impl Attribute {
    /// An audit of attribute `name` against the lock's layouts of `role`.
    fn new(lock: &LockFile, name: String, role: KeyRole) -> Attribute {
        let layouts = lock.entries.iter().filter(|(_, l)| l.role == role).cloned();
        Attribute { name, role, audit: KeyAudit::new(layouts), not_strings: 0 }
    }

    /// Classifies the attribute's value in one item (nothing when the item has none).
    fn observe(&mut self, value: Option<&AttributeValue>) {
        match value {
            Some(AttributeValue::S(key)) => self.audit.observe(key),
            Some(_) => self.not_strings += 1,
            None => {}
        }
    }
}

/// The audits of a table's key attributes `pk` and `sk`: those whose role the lock has layouts of.
fn attributes(lock: &LockFile, lock_path: &str, pk: String, sk: Option<String>) -> Result<Vec<Attribute>, Failure> {
    let attributes: Vec<Attribute> = [Some((pk, KeyRole::Partition)), sk.map(|sk| (sk, KeyRole::Sort))]
        .into_iter()
        .flatten()
        .filter(|(_, role)| lock.entries.iter().any(|(_, l)| l.role == *role))
        .map(|(name, role)| Attribute::new(lock, name, role))
        .collect();
    if attributes.is_empty() {
        return Err(Failure(format!("{lock_path}: no layout of the table's key attributes' roles")));
    }
    Ok(attributes)
}

/// Reads the table (or the export), or merges partial reports, and prints what the keys are.
pub(crate) fn run(args: &Args, audit: &AuditArgs) -> Result<Outcome, Failure> {
    if let Some(AuditCommand::Merge(merge)) = &audit.command {
        return partial::merge(args, merge);
    }
    let lock = lock::read(&args.lock)?;
    let lock_path = args.lock.display().to_string();
    match (&audit.export, &audit.table) {
        (Some(dir), _) => {
            let (Some(pk), sk) = (audit.pk.clone(), audit.sk.clone()) else {
                return Err(Failure("--export needs --pk ATTR (and --sk ATTR): an export has no key schema".into()));
            };
            let bar = bytes_bar(args);
            let attributes = export::read(dir, attributes(&lock, &lock_path, pk, sk)?, bar.as_ref())?;
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
            let source = json!({ "export": dir.display().to_string() });
            Ok(finish(args, &dir.display().to_string(), source, &attributes, audit.headroom))
        }
        (None, Some(table)) => {
            let state = scan::run(args, audit, table, &lock)?;
            let title = match state.segments.as_slice() {
                [one] if state.total > 1 => format!("{table} (segment {} of {})", one.number, state.total),
                _ => table.clone(),
            };
            let source = json!({ "table": table, "index": audit.index });
            Ok(finish(args, &title, source, &state.attributes, audit.headroom))
        }
        (None, None) => Err(Failure("expected --table NAME or --export DIR".into())),
    }
}

/// Prints the report of `attributes` (read from `source`, which `title` names), and says whether
/// it found anything: a key no layout reads, a mixed width, an empty or too long key, a value
/// that is no string, or a field under the headroom threshold.
fn finish(args: &Args, title: &str, source: serde_json::Value, attributes: &[Attribute], headroom: f64) -> Outcome {
    let low = report::low_headroom(attributes, headroom);
    let found = !low.is_empty() || attributes.iter().any(|a| a.audit.report().has_findings() || a.not_strings > 0);
    match args.output() {
        Output::Json => output::print_json(&report::report_json(source, attributes, headroom, found)),
        Output::Table => report::print_tables(title, attributes, &low),
    }
    if found { Outcome::Found } else { Outcome::Clean }
}
