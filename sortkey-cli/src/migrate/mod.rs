//! `sortkey migrate`: every item whose sort key is in layout `--from` moved to layout `--to`,
//! fields matched by name (sortkey-core's [`DynMigration`]), through the backfill's conditional
//! moves ([`Backfill::run_rekey`]): a move puts the item under its new key only if no item has
//! it, and deletes the old one only if it is unchanged since the Scan, so no write of the
//! application is lost. Each segment's place is saved after every page ([`checkpoints`]: files
//! in a folder per pass, or leases in a table); a killed migration resumes where it saved. After
//! each pass a
//! read of the whole table classifies every key again ([`verdict`]). An item that changed while
//! being moved is read again and moved as it is now; one that keeps changing is left for the
//! next pass, up to `--passes`.

mod attribute;
mod checkpoints;
mod layouts;
pub(crate) mod status;
pub(crate) mod verdict;

use std::cell::RefCell;

use futures_util::future::join_all;
use indicatif::ProgressBar;
use sortkey_core::dynamodb::{Backfill, BackfillErrorKind, Checkpoint, CheckpointError, Progress};
use sortkey_core::{DynMigration, KeyRole};

use aws_sdk_dynamodb::Client;

use crate::ask::Context;
use crate::ask::MigrateAsk;
use crate::outcome::AskError;
use crate::output::Answer;
use crate::pages::{self, Source};
use crate::session::Session;
use crate::table;

use self::attribute::Target;
use self::checkpoints::{MigrationIdentity, Store};
use self::layouts::{entry, sources};
use self::verdict::{MigrateDocument, classify};

/// Runs the migration (or, with `--dry-run`, reads what it would do) and prints the passes and
/// the verdict; with `--status`, reads where it stands and moves nothing.
pub(crate) fn run(session: &Session, m: &MigrateAsk) -> Result<Answer, AskError> {
    let ctx = session.context();
    if m.status {
        let client = session.runtime.block_on(session.client());
        let (doc, _) = session.runtime.block_on(status::status(&client, &ctx, &m.which))?;
        return Ok(Answer::of(doc));
    }
    let (lock, lock_path) = (ctx.lock, ctx.lock_path);
    let olds = sources(lock, lock_path, &m.which)?;
    let to = entry(lock, lock_path, &m.which.to)?;
    let migration = if olds == [m.which.to.clone()] {
        // The layout to itself: its items in another shard than their sort key's, moved there.
        DynMigration::placement(to)?
    } else {
        let from = olds.iter().map(|name| entry(lock, lock_path, name)).collect::<Result<Vec<_>, _>>()?;
        DynMigration::versions(from, to)?
    };
    if !m.dry_run && m.version_attribute.is_none() && !m.compare_attributes {
        return Err(AskError::bad(
            "expected --version-attribute ATTR (exact) or --compare-attributes [--may-add ATTRS]: how a move makes \
             sure that no write made after the Scan is deleted with the old item",
        ));
    }
    let segments = pages::split(m.segments, m.total, m.segment)?;
    let doc = session.runtime.block_on(async {
        let client = session.client().await;
        let (plan, source) = plan(&client, &ctx, m, migration).await?;
        let bar = session.progress_bar();
        let estimate = table::item_count(&client, &m.which.table).await.unwrap_or(0);
        let olds = &olds;
        match m.dry_run {
            true => {
                let verdict = classify(&source, lock, &plan.migration, m, bar.as_ref(), estimate).await?;
                Ok(MigrateDocument::new((m, &ctx), olds, &[], Some(verdict)))
            }
            false => passes(&client, (&ctx, m, olds), (&plan, &source, segments), (bar.as_ref(), estimate)).await,
        }
    })?;
    Ok(Answer::of(doc))
}

/// What a migration rewrites: the migration (reading the table's sort keys when it moves
/// partition keys), the key attributes, and the index attribute rewritten in place (`None`
/// when the table's own key moves its items).
struct Plan {
    migration: DynMigration,
    keys: (String, Option<String>),
    in_place: Option<String>,
}

/// The plan of `m` on its table, and the Scan its passes and its verdict read.
async fn plan(
    client: &Client,
    ctx: &Context<'_>,
    m: &MigrateAsk,
    migration: DynMigration,
) -> Result<(Plan, Source), AskError> {
    let (lock, lock_path) = (ctx.lock, ctx.lock_path);
    let (pk, sk) = table::key_names(client, &m.which.table, None).await?;
    let role = if migration.moves_partition_keys() { KeyRole::Partition } else { KeyRole::Sort };
    let target = attribute::target(client, (lock, lock_path), &m.which, role, (&pk, sk.as_deref())).await?;
    // An index's key is rewritten in place; the table's own key moves its items.
    let in_place = match target {
        Target::Index { attribute, .. } => Some(attribute),
        Target::Primary => None,
    };
    let names = match (&in_place, &sk) {
        (Some(attribute), _) => vec![attribute.clone()],
        (None, None) => {
            return Err(AskError::bad(format!(
                "table {} has a partition key alone; a migration moves sort keys",
                m.which.table
            )));
        }
        // A partition key's migration reads the sort key too: an item's new shard is
        // calculated from it, by the table's sort key layouts in the lock.
        (None, Some(sk)) if migration.moves_partition_keys() => vec![sk.clone(), pk.clone()],
        (None, Some(sk)) => vec![sk.clone()],
    };
    let migration = match (&in_place, &sk) {
        (None, Some(sk)) if migration.moves_partition_keys() => {
            migration.reading_sort_keys(lock.layouts_reading(Some(&m.which.table), sk, KeyRole::Sort))
        }
        _ => migration,
    };
    let source = Source { client: client.clone(), table: m.which.table.clone(), index: None, names };
    Ok((Plan { migration, keys: (pk, sk), in_place }, source))
}

/// The passes of a migration over this worker's segments (`mine` of `total`), until the verdict says it is complete,
/// a key cannot move, a pass moves nothing or the last pass ran; the report, kept beside the
/// checkpoints.
async fn passes(
    client: &Client,
    (ctx, m, olds): (&Context<'_>, &MigrateAsk, &[String]),
    (plan, source, (total, mine)): (&Plan, &Source, (u32, Vec<u32>)),
    (bar, estimate): (Option<&ProgressBar>, u64),
) -> Result<MigrateDocument, AskError> {
    let (pk, sk) = plan.keys.clone();
    let mut backfill = Backfill::new(client, &m.which.table, table::static_key_names(pk, sk));
    match &plan.in_place {
        Some(attribute) => backfill = backfill.index_attribute(attribute),
        // The moves keep the rank counters of every layout the lock ranks (`rank` lines).
        None => backfill = backfill.ranked(ctx.lock.ranks.iter().filter_map(|r| ctx.lock.ranked(&r.layout)).collect()),
    }
    backfill = match &m.version_attribute {
        Some(version) => backfill.version_attribute(version),
        None => backfill.compare_attributes(&m.may_add.iter().map(String::as_str).collect::<Vec<_>>()),
    };
    if let Some(rate) = m.rate {
        backfill = backfill.rate_share(rate as f64, mine.len() as i32);
    }
    let store = Store::open(client, &m.which, (m.worker.as_deref(), m.lease), &olds.join("+")).await?;
    let identity = MigrationIdentity { table: m.which.table.clone(), from: olds.to_vec(), to: m.which.to.clone() };
    store.claim(&identity)?;
    let mut passes = Vec::new();
    let mut pass = store.last_pass(total, &mine).await?;
    loop {
        if let Some(bar) = bar {
            bar.reset();
            bar.set_length(estimate * mine.len() as u64 / u64::from(total));
        }
        passes.push(run_pass(&backfill, &plan.migration, &store, pass, total, &mine, bar).await?);
        if m.total.is_some() {
            // One segment of many: the others' workers may not be done.
            return Ok(MigrateDocument::new((m, ctx), olds, &passes, None));
        }
        let verdict = classify(source, ctx.lock, &plan.migration, m, bar, estimate).await?;
        let stuck = passes.last().is_some_and(|p| p.rewritten == 0 && p.superseded == 0);
        if verdict.complete || verdict.cannot_move > 0 || pass >= m.passes || stuck {
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
            // Kept beside the checkpoints, for `--status` and the web view.
            let doc = MigrateDocument::new((m, ctx), olds, &passes, Some(verdict));
            store.save_report(&doc).await?;
            return Ok(doc);
        }
        pass += 1;
    }
}

/// A pause while another worker holds a segment whose lease ends at `until` (milliseconds since
/// the epoch): a second at most, so that a segment it finishes is seen soon.
async fn wait_for_lease(until: u64) {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
    let left = std::time::Duration::from_millis(until.saturating_sub(now).clamp(50, 1000));
    tokio::time::sleep(left).await;
}

/// Pass `pass` over the segments `mine` of `total`, side by side, each from where its checkpoint
/// in `store` says; returns the pass's totals (those saved by earlier runs of it included).
async fn run_pass(
    backfill: &Backfill<'_>,
    migration: &DynMigration,
    store: &Store,
    pass: u32,
    total: u32,
    mine: &[u32],
    bar: Option<&ProgressBar>,
) -> Result<Progress, AskError> {
    let totals = RefCell::new(vec![Progress::default(); mine.len()]);
    let show = |totals: &[Progress]| {
        if let Some(bar) = bar {
            bar.set_position(totals.iter().map(|p| p.scanned).sum());
        }
    };
    let runs = mine.iter().enumerate().map(|(i, &segment)| {
        let totals = &totals;
        let (segment, total) = (segment as i32, total as i32);
        async move {
            loop {
                // A segment another worker finished is done here too.
                if let Some((cursor, saved)) = store.saved(pass, segment, total).await?
                    && cursor.done
                {
                    totals.borrow_mut()[i] = saved;
                    return Ok(());
                }
                let mut checkpoint = store.checkpoint(pass)?;
                match checkpoint.load(segment, total).await {
                    Ok((_, before)) => totals.borrow_mut()[i] = before,
                    // Another worker holds it: look again when it may have finished, or when its
                    // lease runs out and the segment is free to take over.
                    Err(CheckpointError::Taken { until, .. }) => {
                        wait_for_lease(until).await;
                        continue;
                    }
                    Err(e) => return Err(AskError::from(e)),
                }
                let each_page = |p: &Progress| {
                    let mut totals = totals.borrow_mut();
                    totals[i] = *p;
                    show(&totals);
                };
                match backfill.run_rekey(migration, segment, total, &mut checkpoint, each_page).await {
                    Ok(_) => return Ok::<_, AskError>(()),
                    // The lease was lost (this worker stalled past it): the new holder goes on.
                    Err(e) if matches!(e.kind(), BackfillErrorKind::Checkpoint(CheckpointError::Taken { .. })) => {}
                    Err(e) => return Err(e.into()),
                }
            }
        }
    });
    for result in join_all(runs).await {
        result?;
    }
    let mut sum = Progress::default();
    totals.borrow().iter().for_each(|p| sum.add(p));
    Ok(sum)
}
