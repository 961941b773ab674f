//! The migration's document: its passes and the verdict (sortkey-core's [`MigrationVerdict`], a
//! read of every sort key classified against the migration), printed as tables or as JSON from
//! the same value.

use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};
use sortkey_core::dynamodb::Progress;
use sortkey_core::{DynMigration, KeyRole, LockFile, MigrationVerdict, VerdictAudit};

use crate::ask::Context;
use crate::ask::MigrateAsk;
use crate::display::{sanitized, shown};
use crate::outcome::{AskError, Outcome};
use crate::output::{self, Document, format_tag, outln};
use crate::pages::{self, SegmentOf, Source};

format_tag! {
    /// The migration's format.
    MigrateFormat = "sortkey migrate 3"
}

/// The report of `sortkey migrate`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct MigrateDocument {
    pub(crate) format: MigrateFormat,
    /// The command line that gives this document, as its arguments.
    pub(crate) command: Vec<String>,
    pub(crate) table: String,
    /// The layouts moved from, by their names in the lock, newest first.
    pub(crate) from: Vec<String>,
    /// The layout moved to.
    pub(crate) to: String,
    /// Whether nothing was written.
    pub(crate) dry_run: bool,
    /// The segment this process moved, of a split; null when it moved every segment.
    pub(crate) segment: Option<SegmentOf>,
    /// What each pass did, in order.
    pub(crate) passes: Vec<Pass>,
    /// The read of every key after the last pass; null for one segment of a split (the other
    /// workers may not be done).
    pub(crate) verdict: Option<MigrationVerdict>,
}

/// What one pass over the table did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Pass {
    /// Items read by the Scan.
    pub(crate) read: u64,
    /// Items moved to the new layout by this pass.
    pub(crate) moved: u64,
    /// Items the Scan found already in the new layout.
    pub(crate) already_new: u64,
    /// Items in other layouts, left alone.
    pub(crate) other: u64,
    /// Old items whose new key another writer had written meanwhile: deleted.
    pub(crate) superseded: u64,
    /// Old items that changed while being moved: left for the next pass.
    pub(crate) changed: u64,
}

impl From<&Progress> for Pass {
    fn from(p: &Progress) -> Pass {
        Pass {
            read: p.scanned,
            moved: p.rewritten,
            already_new: p.current,
            other: p.other,
            superseded: p.superseded,
            changed: p.changed,
        }
    }
}

impl MigrateDocument {
    /// The document of a migration (`m`, asked in `ctx`), its `passes` and its `verdict`.
    pub(crate) fn new(
        (m, ctx): (&MigrateAsk, &Context<'_>),
        from: &[String],
        passes: &[Progress],
        verdict: Option<MigrationVerdict>,
    ) -> Self {
        let segment = m.total.map(|total| SegmentOf { segment: m.segment.unwrap_or_default(), total });
        MigrateDocument {
            format: MigrateFormat,
            command: m.command_line(ctx).argv,
            table: m.which.table.clone(),
            from: from.to_vec(),
            to: m.which.to.clone(),
            dry_run: m.dry_run,
            segment,
            passes: passes.iter().map(Pass::from).collect(),
            verdict,
        }
    }

    /// A report kept beside a migration's checkpoints (`text`, its JSON): this format, or the
    /// one before it (`sortkey migrate 2`, the same members but `command`), read as this format
    /// with no command line, so that the checkpoints of a migration run by an older command
    /// still show where it stands.
    pub(crate) fn read_kept(text: &str) -> Result<MigrateDocument, serde_json::Error> {
        let mut value: serde_json::Value = serde_json::from_str(text)?;
        if let Some(kept) = value.as_object_mut().filter(|o| o.get("format").is_some_and(|f| f == "sortkey migrate 2"))
        {
            kept.insert("format".to_owned(), MigrateFormat::TEXT.into());
            kept.insert("command".to_owned(), serde_json::Value::Array(Vec::new()));
        }
        serde_json::from_value(value)
    }
}

/// Reads every item's keys (`source.names`: the sort key, and the partition key of a partition
/// key migration) and classifies each item against the migration.
pub(crate) async fn classify(
    source: &Source,
    lock: &LockFile,
    migration: &DynMigration,
    m: &MigrateAsk,
    bar: Option<&ProgressBar>,
    estimate: u64,
) -> Result<MigrationVerdict, AskError> {
    if let Some(bar) = bar {
        bar.reset();
        bar.set_length(estimate);
    }
    let starts = (0..m.segments).map(|s| (s as usize, s, None)).collect();
    let mut pages = pages::read(source, starts, m.segments, m.rate);
    let role = if migration.moves_partition_keys() { KeyRole::Partition } else { KeyRole::Sort };
    let layouts = lock.entries.iter().filter(|(_, l)| l.role == role).cloned();
    let mut verdict = VerdictAudit::new(layouts);
    while let Some(page) = pages.recv().await {
        let page = page?;
        if let Some(bar) = bar {
            bar.inc(page.items.len() as u64);
        }
        for item in &page.items {
            let key = |name: Option<&String>| name.and_then(|n| item.get(n)).and_then(|v| v.as_s().ok());
            // The sort key, then (a partition key's migration) the partition key; one attribute
            // read for a partition key's migration is an index's partition key, in place.
            let (sort, partition) = match (&source.names[..], migration.moves_partition_keys()) {
                ([only], true) => (None, key(Some(only))),
                (names, _) => (key(names.first()), key(names.get(1))),
            };
            verdict.observe_item(migration, partition.map(String::as_str), sort.map(String::as_str));
        }
    }
    Ok(verdict.verdict())
}

impl Document for MigrateDocument {
    /// Exit status 1 while keys are left in the old layout (or cannot move).
    fn outcome(&self) -> Outcome {
        match &self.verdict {
            Some(v) if !v.complete => Outcome::Found,
            _ => Outcome::Clean,
        }
    }

    fn print_table(&self) {
        let what = if self.dry_run { " (dry run: nothing written)" } else { "" };
        outln!("{}: {} -> {}{what}", self.table, self.from.join(", "), self.to);
        if !self.passes.is_empty() {
            let to = format!("already in {}", self.to);
            let mut t = output::table(&["pass", "read", "moved", &to, "other layouts", "superseded", "changed"]);
            for (i, p) in self.passes.iter().enumerate() {
                t.add_row(
                    [i as u64 + 1, p.read, p.moved, p.already_new, p.other, p.superseded, p.changed]
                        .map(|n| n.to_string()),
                );
            }
            outln!("{t}");
        }
        match &self.verdict {
            Some(v) => self.print_verdict(v),
            None => {
                let s = self.segment.unwrap_or(SegmentOf { segment: 0, total: 1 });
                outln!(
                    "segment {} of {} done; the verdict: `sortkey migrate --dry-run` once every worker is",
                    s.segment,
                    s.total
                );
            }
        }
    }
}

impl MigrateDocument {
    fn print_verdict(&self, v: &MigrationVerdict) {
        let (from, to) = (&self.from.join(", "), &self.to);
        outln!(
            "{} read: {} in {from}, {} in {to}, {} in other layouts, {} that cannot move",
            output::counted(v.read, "key"),
            v.in_old,
            v.in_new,
            v.in_other,
            v.cannot_move
        );
        let mut t = output::table(&["layout", "keys"]);
        for l in &v.audit.layouts {
            t.add_row([l.name.clone(), l.count.to_string()]);
        }
        t.add_row(["(in no layout)".to_owned(), v.audit.in_no_layout().to_string()]);
        outln!("{t}");
        if !v.left_samples.is_empty() {
            // A partition key migration's samples name their items by the sort key too.
            let with_sort = v.left_samples.iter().any(|s| s.sort.is_some());
            let (left, its) = (format!("left in {from}"), format!("its key in {to}"));
            let mut header = vec![left.as_str()];
            header.extend(with_sort.then_some("sort key"));
            header.push(&its);
            let mut t = output::table(&header);
            for s in &v.left_samples {
                let mut row = vec![shown(&s.from)];
                row.extend(with_sort.then(|| s.sort.as_deref().map(shown).unwrap_or_default()));
                row.push(shown(&s.to));
                t.add_row(row);
            }
            outln!("{t}");
        }
        if !v.cannot_move_samples.is_empty() {
            let mut t = output::table(&["cannot move", "why"]);
            for s in &v.cannot_move_samples {
                t.add_row([shown(&s.key), sanitized(&s.error)]);
            }
            outln!("{t}");
        }
        let verdict = match (v.complete, self.dry_run) {
            (true, _) => format!("complete: no key left in {from}"),
            (false, true) => format!("{} to move, {} that cannot", output::counted(v.in_old, "key"), v.cannot_move),
            (false, false) => {
                let left = output::counted(v.in_old, "key");
                format!("not complete: {left} left in {from}, {} that cannot move; run again", v.cannot_move)
            }
        };
        outln!("verdict: {verdict}");
        if v.complete && !self.dry_run {
            let (reads, it, its) = match self.from.len() {
                1 => ("reads", "it", "its"),
                _ => ("read", "them", "their"),
            };
            outln!(
                "next: {from} {reads} no key any more: drop {it} from the key's versions ({its} `legacy`, {its} lines \
                 in the lock)"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{MigrateDocument, MigrateFormat};

    /// The report a migration of the last format kept beside its checkpoints is still read (with
    /// no command line); one of another format is refused with both formats named.
    #[test]
    fn a_report_kept_in_the_last_format_is_still_read() {
        let kept = r#"{"format": "sortkey migrate 2", "table": "Runs", "from": ["RankKeyV1"], "to": "RankKey",
            "dry_run": false, "segment": null, "passes": [], "verdict": null}"#;
        let doc = MigrateDocument::read_kept(kept).unwrap();
        assert_eq!((doc.format, doc.command.len(), doc.table.as_str()), (MigrateFormat, 0, "Runs"));
        let written = serde_json::to_string(&doc).unwrap();
        assert_eq!(MigrateDocument::read_kept(&written).unwrap(), doc);
        let older = kept.replace("sortkey migrate 2", "sortkey migrate 1");
        let refused = MigrateDocument::read_kept(&older).unwrap_err().to_string();
        assert!(refused.contains("sortkey migrate 3") && refused.contains("sortkey migrate 1"), "{refused}");
    }
}
