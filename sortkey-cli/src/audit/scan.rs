//! The table's items by parallel Scan segments: all of them in this process, or one of `--total`
//! (a worker of a job on many machines), each segment's cursor and the audit so far saved in the
//! partial report after every page when there is one, and resumed from it.

use std::path::Path;

use aws_sdk_dynamodb::Client;
use indicatif::ProgressBar;
use sortkey_core::LockFile;

use crate::audit::attributes;
use crate::audit::partial::{self, Partial, Segment, StoredKey};
use crate::cli::{Args, AuditArgs};
use crate::outcome::Failure;
use crate::pages::{self, Source, progress_bar};
use crate::{connect, table};

/// Audits the table's segments that this process runs, from where the partial report (if any)
/// says they stand; returns the audit of those segments.
pub(crate) fn run(args: &Args, audit: &AuditArgs, table: &str, lock: &LockFile) -> Result<Partial, Failure> {
    let (total, numbers) = pages::split(audit.segments, audit.total, audit.segment)?;
    let lock_text = partial::lock_text(lock);
    let saved = match &audit.report {
        Some(path) => partial::load(path)?,
        None => None,
    };
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let client = connect::client(args).await;
        let mut state = match saved {
            Some(state) => {
                let path = audit.report.as_deref().map(Path::display).map(|p| p.to_string()).unwrap_or_default();
                state.check_resumes(&path, table, audit.index.as_deref(), &lock_text, total, &numbers)?;
                state
            }
            None => {
                let (pk, sk) = match (&audit.pk, &audit.sk) {
                    (Some(pk), Some(sk)) => (pk.clone(), Some(sk.clone())),
                    _ => table::key_names(&client, table, audit.index.as_deref()).await?,
                };
                Partial {
                    table: table.to_owned(),
                    index: audit.index.clone(),
                    total,
                    segments: numbers.iter().map(|&number| Segment { number, after: None, done: false }).collect(),
                    lock: lock_text,
                    attributes: attributes(lock, &args.lock.display().to_string(), pk, sk)?,
                }
            }
        };
        if state.done() {
            return Ok(state);
        }
        // A progress bar on a terminal, unless the output is one JSON document.
        let progress = progress_bar(args);
        if let Some(bar) = &progress {
            let items = table::item_count(&client, table).await.unwrap_or(0);
            bar.set_length(items * numbers.len() as u64 / u64::from(total));
        }
        scan(&client, audit, &mut state, progress.as_ref()).await?;
        if let Some(bar) = progress {
            bar.finish_and_clear();
        }
        Ok(state)
    })
}

/// Scans the unfinished segments of `state` in parallel; their pages come back here to be
/// classified, and the state is saved after each when there is a partial report.
async fn scan(
    client: &Client,
    audit: &AuditArgs,
    state: &mut Partial,
    progress: Option<&ProgressBar>,
) -> Result<(), Failure> {
    // The key attributes audited, and the partition key that counts old keys by partition.
    let mut names: Vec<String> = state.attributes.iter().map(|a| a.name.clone()).collect();
    for p in state.attributes.iter().filter_map(|a| a.partition.clone()) {
        if !names.contains(&p) {
            names.push(p);
        }
    }
    let running: Vec<(usize, &Segment)> = state.segments.iter().enumerate().filter(|(_, s)| !s.done).collect();
    let source = Source { client: client.clone(), table: state.table.clone(), index: state.index.clone(), names };
    let starts = running
        .into_iter()
        .map(|(slot, s)| Ok((slot, s.number, s.after.as_ref().map(StoredKey::item).transpose()?)))
        .collect::<Result<_, Failure>>()?;
    let mut receive = pages::read(&source, starts, state.total, audit.rate);
    while let Some(page) = receive.recv().await {
        let page = page?;
        if let Some(bar) = progress {
            bar.inc(page.items.len() as u64);
        }
        for item in &page.items {
            for attribute in state.attributes.iter_mut() {
                attribute.observe(item);
            }
        }
        let segment = &mut state.segments[page.slot];
        segment.done = page.next.is_none();
        segment.after = match &page.next {
            Some(key) => Some(StoredKey::of(key).ok_or_else(|| {
                Failure(format!("segment {}: a page ends at a key of a type no key attribute has", segment.number))
            })?),
            None => None,
        };
        if let Some(path) = &audit.report {
            partial::save(path, state)?;
        }
    }
    Ok(())
}
