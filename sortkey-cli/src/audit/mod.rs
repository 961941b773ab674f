//! `sortkey audit`: every key attribute of a table (or index, or a DynamoDB export) classified by
//! sortkey-core's [`KeyAudit`](sortkey_core::KeyAudit) against the lock's layouts of its role,
//! and the report. Read only.
//!
//! Where the items come from: a parallel Scan of the table ([`scan`]), resumable from a partial
//! report and split between processes by segment ([`partial`]), or the files of an export
//! ([`export`]). What is printed: [`report`].

mod attribute;
pub(crate) mod data_files;
mod export;
mod export_line;
#[cfg(feature = "s3")]
pub(crate) mod export_s3;
pub(crate) mod partial;
pub(crate) mod report;
pub(crate) mod scan;

use self::report::{AuditDocument, AuditSource};
use crate::ask::{AuditAsk, AuditCommand};
use crate::ask::{CommandLine, Context};
use crate::counters::{CountersReport, check_partitions};
use crate::outcome::AskError;
use crate::output::Answer;
use crate::pages::{self, SegmentOf};
use crate::session::Session;
use sortkey_core::KeyRole;

use self::attribute::attributes;
use self::data_files::{DataFiles, Folder};

/// Reads the table (or the export), or merges partial reports, and answers what the keys are: a
/// report that found anything ([`Outcome::Found`](crate::outcome::Outcome::Found)) holds a key in
/// no layout (unread, of a mixed width, empty or too long), a value that is no string, or a field
/// under the headroom threshold.
pub(crate) fn run(session: &Session, audit: &AuditAsk) -> Result<Answer, AskError> {
    if let Some(AuditCommand::Merge(merge)) = &audit.command {
        return partial::merge(session, merge);
    }
    let ctx = session.context();
    audit.what.validate(&ctx)?;
    let doc = match (&audit.what.export, &audit.what.table) {
        (Some(at), _) => export_audit(session, audit, at)?,
        (None, Some(table)) => {
            let state = scan::run(session, audit, table)?;
            let counters = match audit.what.index {
                None => counters(session, &state, table)?,
                Some(_) => None,
            };
            scan_report(&state, audit.headroom, (&ctx, audit.command_line(&ctx)), None).with_counters(counters)
        }
        (None, None) => return Err(AskError::bad("expected --table NAME or --export DIR")),
    };
    Ok(Answer::of(doc))
}

/// The rank counters of every ranked partition the Scan came upon, each partition read whole
/// and its counters held to its items; `None` when the lock ranks no layout.
fn counters(session: &Session, state: &partial::Partial, table: &str) -> Result<Option<CountersReport>, AskError> {
    let ctx = session.context();
    let sort = state.attributes.iter().find(|a| a.role == KeyRole::Sort);
    let (Some(sort), false) = (sort, ctx.lock.ranks.is_empty()) else { return Ok(None) };
    let Some(pk) = &sort.partition else { return Ok(None) };
    let partitions = sort.ranked_partitions();
    session.runtime.block_on(async {
        let client = session.client().await;
        check_partitions(&client, &ctx, (table, pk, &sort.name), partitions).await.map(Some)
    })
}

/// The audit of the export at `at` (a folder or `s3://BUCKET/PREFIX`): this worker's share of
/// its files read, the partial report saved when asked.
fn export_audit(session: &Session, audit: &AuditAsk, at: &str) -> Result<AuditDocument, AskError> {
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
