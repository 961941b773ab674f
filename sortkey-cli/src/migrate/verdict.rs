//! The verdict of a migration, a read of every sort key classified against it, and the report
//! of its passes: aligned tables for people, one JSON document for programs.

use aws_sdk_dynamodb::types::AttributeValue;
use indicatif::ProgressBar;
use serde_json::{Value, json};
use sortkey_core::dynamodb::Progress;
use sortkey_core::{DynMigration, KeyAudit, KeyRole, LockFile, Rekeyed};

use crate::cli::{Args, MigrateArgs, Output};
use crate::outcome::Failure;
use crate::output::{self, outln};
use crate::pages::{self, Source};

/// How many sample keys the verdict keeps.
const SAMPLES: usize = 5;

/// What a read of the whole table finds: where each sort key is, against the migration, and
/// which of the lock's sort key layouts reads it (the audit of the sort key).
pub(crate) struct Verdict {
    /// Items read.
    read: u64,
    /// Keys still in the old layout: they would move.
    left: u64,
    /// Keys in the new layout.
    moved: u64,
    /// Keys in neither (another entity's), or no string.
    other: u64,
    /// Some keys left, each with its key in the new layout.
    samples: Vec<(String, String)>,
    /// Keys that cannot move (a value that does not fit the new layout, a key both read).
    pub(crate) misfits: u64,
    /// Some of them, each with why.
    misfit_samples: Vec<(String, String)>,
    /// The audit of the sort keys against every sort key layout of the lock.
    audit: KeyAudit,
}

impl Verdict {
    fn new(lock: &LockFile) -> Verdict {
        let layouts = lock.entries.iter().filter(|(_, l)| l.role == KeyRole::Sort).cloned();
        Verdict {
            read: 0,
            left: 0,
            moved: 0,
            other: 0,
            samples: Vec::new(),
            misfits: 0,
            misfit_samples: Vec::new(),
            audit: KeyAudit::new(layouts),
        }
    }

    pub(crate) fn complete(&self) -> bool {
        self.left == 0 && self.misfits == 0
    }

    fn observe(&mut self, migration: &DynMigration, key: Option<&AttributeValue>) {
        self.read += 1;
        let Some(AttributeValue::S(key)) = key else {
            self.other += 1;
            return;
        };
        self.audit.observe(key);
        match migration.classify(key) {
            Ok(Rekeyed::Current) => self.moved += 1,
            Ok(Rekeyed::Other) => self.other += 1,
            Ok(Rekeyed::Move(new)) => {
                self.left += 1;
                if self.samples.len() < SAMPLES {
                    self.samples.push((key.clone(), new));
                }
            }
            Err(e) => {
                self.misfits += 1;
                if self.misfit_samples.len() < SAMPLES {
                    self.misfit_samples.push((key.clone(), e.to_string()));
                }
            }
        }
    }
}

/// Reads every sort key of the table and classifies it against the migration.
pub(crate) async fn classify(
    source: &Source,
    lock: &LockFile,
    migration: &DynMigration,
    m: &MigrateArgs,
    bar: Option<&ProgressBar>,
    estimate: u64,
) -> Result<Verdict, Failure> {
    if let Some(bar) = bar {
        bar.reset();
        bar.set_length(estimate);
    }
    let starts = (0..m.segments).map(|s| (s as usize, s, None)).collect();
    let share = m.rate.map(|rate| (rate as f64 / f64::from(m.segments)).max(1.0));
    let mut pages = pages::read(source, starts, m.segments, share);
    let mut verdict = Verdict::new(lock);
    while let Some(page) = pages.recv().await {
        let page = page?;
        if let Some(bar) = bar {
            bar.inc(page.items.len() as u64);
        }
        for item in &page.items {
            verdict.observe(migration, item.get(&source.names[0]));
        }
    }
    Ok(verdict)
}

pub(crate) fn print(args: &Args, m: &MigrateArgs, passes: &[Progress], verdict: Option<&Verdict>) {
    match args.output() {
        Output::Json => output::print_json(&json_of(m, passes, verdict)),
        Output::Table => print_table(m, passes, verdict),
    }
}

fn print_table(m: &MigrateArgs, passes: &[Progress], verdict: Option<&Verdict>) {
    let what = if m.dry_run { " (dry run: nothing written)" } else { "" };
    outln!("{}: {} -> {}{what}", m.table, m.from, m.to);
    if !passes.is_empty() {
        let to = format!("already in {}", m.to);
        let mut t = output::table(&["pass", "read", "moved", &to, "other layouts", "superseded", "changed"]);
        for (i, p) in passes.iter().enumerate() {
            t.add_row(
                [i as u64 + 1, p.scanned, p.rewritten, p.current, p.other, p.superseded, p.changed]
                    .map(|n| n.to_string()),
            );
        }
        outln!("{t}");
    }
    let Some(v) = verdict else {
        outln!(
            "segment {} of {} done; the verdict: `sortkey migrate --dry-run` once every worker is",
            m.segment.unwrap_or_default(),
            m.total.unwrap_or_default()
        );
        return;
    };
    outln!(
        "{} keys read: {} in {}, {} in {}, {} in other layouts, {} that cannot move",
        v.read,
        v.left,
        m.from,
        v.moved,
        m.to,
        v.other,
        v.misfits
    );
    let report = v.audit.report();
    let mut t = output::table(&["layout", "keys"]);
    for l in &report.layouts {
        t.add_row([l.name.clone(), l.count.to_string()]);
    }
    t.add_row(["(none)".to_owned(), (report.keys - report.layouts.iter().map(|l| l.count).sum::<u64>()).to_string()]);
    outln!("{t}");
    if !v.samples.is_empty() {
        let mut t = output::table(&[&format!("left in {}", m.from), &format!("its key in {}", m.to)]);
        v.samples.iter().for_each(|(old, new)| {
            t.add_row([old, new]);
        });
        outln!("{t}");
    }
    if !v.misfit_samples.is_empty() {
        let mut t = output::table(&["cannot move", "why"]);
        v.misfit_samples.iter().for_each(|(key, why)| {
            t.add_row([key, why]);
        });
        outln!("{t}");
    }
    let verdict = match (v.complete(), m.dry_run) {
        (true, _) => format!("complete: no key left in {}", m.from),
        (false, true) => format!("{} keys to move, {} that cannot", v.left, v.misfits),
        (false, false) => {
            format!("not complete: {} keys left in {}, {} that cannot move; run again", v.left, m.from, v.misfits)
        }
    };
    outln!("verdict: {verdict}");
}

fn json_of(m: &MigrateArgs, passes: &[Progress], verdict: Option<&Verdict>) -> Value {
    let passes: Vec<Value> = passes
        .iter()
        .map(|p| {
            json!({ "read": p.scanned, "moved": p.rewritten, "current": p.current, "other": p.other,
                    "superseded": p.superseded, "changed": p.changed })
        })
        .collect();
    let verdict = verdict.map(|v| {
        let samples: Vec<Value> = v.samples.iter().map(|(from, to)| json!({ "from": from, "to": to })).collect();
        let misfits: Vec<Value> =
            v.misfit_samples.iter().map(|(key, why)| json!({ "key": key, "error": why })).collect();
        let report = v.audit.report();
        let layouts: Vec<Value> = report.layouts.iter().map(|l| json!({ "name": l.name, "keys": l.count })).collect();
        let unread = report.keys - report.layouts.iter().map(|l| l.count).sum::<u64>();
        json!({ "read": v.read, "left": v.left, "moved": v.moved, "other": v.other, "samples": samples,
                "misfits": v.misfits, "misfit_samples": misfits, "layouts": layouts, "in_no_layout": unread,
                "complete": v.complete() })
    });
    json!({ "table": m.table, "from": m.from, "to": m.to, "dry_run": m.dry_run, "passes": passes, "verdict": verdict })
}
