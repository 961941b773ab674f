//! `sortkey migrate`: every item whose sort key is in layout `--from` moved to layout `--to`,
//! fields matched by name (sortkey-core's [`DynMigration`]), through the backfill's conditional
//! moves ([`Backfill::run_rekey`]): a move puts the item under its new key only if no item has
//! it, and deletes the old one only if it is unchanged since the Scan, so no write of the
//! application is lost. Each segment's place is saved after every page (a folder of
//! checkpoints, a folder per pass); a killed migration resumes where it saved. After each pass a
//! read of the whole table classifies every key again: the verdict. Items that changed while
//! being moved are left for the next pass, up to `--passes`.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use aws_sdk_dynamodb::types::AttributeValue;
use futures_util::future::join_all;
use indicatif::ProgressBar;
use serde_json::{Value, json};
use sortkey_core::dynamodb::{Backfill, Checkpoint, FileCheckpoint, Progress};
use sortkey_core::{DynMigration, KeyNames, LockFile, Rekeyed};

use crate::cli::{Args, MigrateArgs, Output};
use crate::output::{self, outln};
use crate::pages::{self, Source, progress_bar};
use crate::{Failure, Outcome, connect, lock, table};

/// How many sample keys the verdict keeps.
const SAMPLES: usize = 5;

/// What a read of the whole table finds: where each sort key is, against the migration.
#[derive(Debug, Default)]
struct Verdict {
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
    misfits: u64,
    /// Some of them, each with why.
    misfit_samples: Vec<(String, String)>,
}

impl Verdict {
    fn complete(&self) -> bool {
        self.left == 0 && self.misfits == 0
    }

    fn observe(&mut self, migration: &DynMigration, key: Option<&AttributeValue>) {
        self.read += 1;
        let Some(AttributeValue::S(key)) = key else {
            self.other += 1;
            return;
        };
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

/// Runs the migration (or, with `--dry-run`, reads what it would do) and prints the passes and
/// the verdict.
pub(crate) fn run(args: &Args, m: &MigrateArgs) -> Result<Outcome, Failure> {
    let lock = lock::read(&args.lock)?;
    let lock_path = args.lock.display().to_string();
    let migration = DynMigration::new(entry(&lock, &lock_path, &m.from)?, entry(&lock, &lock_path, &m.to)?)?;
    if !m.dry_run && m.version_attribute.is_none() && !m.compare_attributes {
        return Err(Failure(
            "expected --version-attribute ATTR (exact) or --compare-attributes [--may-add ATTRS]: how a move makes \
             sure that no write made after the Scan is deleted with the old item"
                .into(),
        ));
    }
    let (total, mine) = pages::split(m.segments, m.total, m.segment)?;
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let client = connect::client(args).await;
        let (pk, sk) = table::key_names(&client, &m.table, None).await?;
        let Some(sk) = sk else {
            return Err(Failure(format!("table {} has a partition key alone; a migration moves sort keys", m.table)));
        };
        let source = Source { client: client.clone(), table: m.table.clone(), index: None, names: vec![sk.clone()] };
        let bar = progress_bar(args);
        let estimate = table::item_count(&client, &m.table).await.unwrap_or(0);
        if m.dry_run {
            let verdict = classify(&source, &migration, m, bar.as_ref(), estimate).await?;
            print(args, m, &[], Some(&verdict));
            return Ok(outcome(&verdict));
        }
        // The key attributes live as long as the process: the backfill names them `&'static str`.
        let keys = KeyNames::new(Box::leak(pk.into_boxed_str()), Box::leak(sk.into_boxed_str()));
        let mut backfill = Backfill::new(&client, &m.table, keys);
        backfill = match &m.version_attribute {
            Some(version) => backfill.version_attribute(version),
            None => backfill.compare_attributes(&m.may_add.iter().map(String::as_str).collect::<Vec<_>>()),
        };
        if let Some(rate) = m.rate {
            // Each segment's share, in pages of at most the share, so that the pauses are short.
            let share = rate as f64 / mine.len() as f64;
            backfill = backfill.rate_share(rate as f64, mine.len() as i32).page_size(share.clamp(1.0, 100.0) as i32);
        }
        let dir = m.checkpoint.clone().unwrap_or_else(|| default_checkpoint(m));
        let mut passes = Vec::new();
        let mut pass = last_pass(&dir);
        loop {
            let pass_dir = dir.join(format!("pass-{pass}"));
            std::fs::create_dir_all(&pass_dir)
                .map_err(|e| Failure(format!("cannot make the checkpoint folder {}: {e}", pass_dir.display())))?;
            if let Some(bar) = &bar {
                bar.reset();
                bar.set_length(estimate * mine.len() as u64 / u64::from(total));
            }
            passes.push(run_pass(&backfill, &migration, &pass_dir, total, &mine, bar.as_ref()).await?);
            if m.total.is_some() {
                // One segment of many: the others' workers may not be done.
                print(args, m, &passes, None);
                return Ok(Outcome::Clean);
            }
            let verdict = classify(&source, &migration, m, bar.as_ref(), estimate).await?;
            let stuck = passes.last().is_some_and(|p| p.rewritten == 0 && p.superseded == 0);
            if verdict.complete() || verdict.misfits > 0 || pass >= m.passes || stuck {
                if let Some(bar) = &bar {
                    bar.finish_and_clear();
                }
                print(args, m, &passes, Some(&verdict));
                return Ok(outcome(&verdict));
            }
            pass += 1;
        }
    })
}

/// The layout `name` of the lock, with its name.
fn entry(lock: &LockFile, lock_path: &str, name: &str) -> Result<(String, sortkey_core::DynLayout), Failure> {
    lock.entries.iter().find(|(n, _)| n == name).cloned().ok_or_else(|| {
        let names: Vec<&str> = lock.entries.iter().map(|(n, _)| n.as_str()).collect();
        Failure(format!("{lock_path}: no layout `{name}`; expected one of {}", names.join(", ")))
    })
}

fn outcome(verdict: &Verdict) -> Outcome {
    if verdict.complete() { Outcome::Clean } else { Outcome::Found }
}

/// `.sortkey/migrate-TABLE-FROM-TO` in the current folder.
fn default_checkpoint(m: &MigrateArgs) -> PathBuf {
    Path::new(".sortkey").join(format!("migrate-{}-{}-{}", m.table, m.from, m.to))
}

/// The pass a migration resumes: the last whose folder is in `dir` (1 when none is).
fn last_pass(dir: &Path) -> u32 {
    let passes = std::fs::read_dir(dir).into_iter().flatten().flatten();
    let numbers = passes.filter_map(|e| e.file_name().to_str()?.strip_prefix("pass-")?.parse::<u32>().ok());
    numbers.max().unwrap_or(1)
}

/// One pass over the segments `mine` of `total`, side by side, each from where its checkpoint in
/// `dir` says; returns the pass's totals (those saved by earlier runs of it included).
async fn run_pass(
    backfill: &Backfill<'_>,
    migration: &DynMigration,
    dir: &Path,
    total: u32,
    mine: &[u32],
    bar: Option<&ProgressBar>,
) -> Result<Progress, Failure> {
    let totals = RefCell::new(vec![Progress::default(); mine.len()]);
    let show = |totals: &[Progress]| {
        if let Some(bar) = bar {
            bar.set_position(totals.iter().map(|p| p.scanned).sum());
        }
    };
    let runs = mine.iter().enumerate().map(|(i, &segment)| {
        let totals = &totals;
        async move {
            let mut checkpoint = FileCheckpoint::new(dir);
            let (_, before) = checkpoint.load(segment as i32, total as i32).await?;
            totals.borrow_mut()[i] = before;
            let each_page = |p: &Progress| {
                let mut totals = totals.borrow_mut();
                totals[i] = *p;
                show(&totals);
            };
            backfill.run_rekey(migration, segment as i32, total as i32, &mut checkpoint, each_page).await?;
            Ok::<_, Failure>(())
        }
    });
    for result in join_all(runs).await {
        result?;
    }
    let mut sum = Progress::default();
    totals.borrow().iter().for_each(|p| sum.add(p));
    Ok(sum)
}

/// Reads every sort key of the table and classifies it against the migration.
async fn classify(
    source: &Source,
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
    let mut verdict = Verdict::default();
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

fn print(args: &Args, m: &MigrateArgs, passes: &[Progress], verdict: Option<&Verdict>) {
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
        json!({ "read": v.read, "left": v.left, "moved": v.moved, "other": v.other, "samples": samples,
                "misfits": v.misfits, "misfit_samples": misfits, "complete": v.complete() })
    });
    json!({ "table": m.table, "from": m.from, "to": m.to, "dry_run": m.dry_run, "passes": passes, "verdict": verdict })
}
