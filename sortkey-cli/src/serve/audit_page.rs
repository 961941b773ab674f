//! The audit dashboard, of one of three sources: the partial reports the server was started with
//! (`--report FILE`, merged as `sortkey audit merge` does), the export folder it was started with
//! (`--export DIR`, read when asked, as `sortkey audit --export` does), or a Scan started from the
//! page (rate-limited and resumable, [`scans`]), its progress refreshed while
//! it runs. Counts and headroom are drawn as bars in SVG by the server (no script), findings
//! listed with a sample each; the JSON is the command's report.

use std::sync::Arc;

use askama::Template;
use axum::Form;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::ask::{AuditReads, HEADROOM, SEGMENTS};
use crate::audit::data_files::{DataFiles, Folder};
use crate::audit::export_s3::{S3Export, S3Files};
use crate::audit::partial::{self, merged};
use crate::audit::report::AuditDocument;
use crate::audit::{export_report, scan_report};
use crate::outcome::AskError;
use crate::serve::app::App;
use crate::serve::filters;
use crate::serve::pages::{Format, Frame, as_html, as_json, encode, refusal, status_of, wants_json};
use crate::serve::scans::{self, ScanView};

/// The longest bar, in pixels.
const BAR: f64 = 320.0;

/// One bar of a chart.
struct Bar {
    label: String,
    value: String,
    /// Its length in pixels.
    width: u32,
    /// Whether it is a finding (a key in no layout, an older version, headroom under the threshold).
    finding: bool,
}

/// One key attribute's charts and findings.
struct AttributeView {
    title: String,
    layouts: Vec<Bar>,
    headroom: Vec<Bar>,
    /// Findings as rows: what, how many, a sample.
    findings: Vec<(String, u64, String)>,
}

/// What the audit page can show, as the server was started.
struct Sources {
    reports: Vec<String>,
    export: Option<String>,
    /// The tables a scan may read (free text when the server was started without `--table`).
    tables: Vec<String>,
    /// The tables with a scan running or saved.
    scans: Vec<String>,
}

#[derive(Template)]
#[template(path = "audit.html")]
struct AuditPage {
    frame: Frame,
    sources: Sources,
    /// What the dashboard shows, in words; empty when nothing is picked.
    showing: String,
    /// The address of the page itself (the refresh while a scan runs).
    this: String,
    pk: String,
    sk: String,
    scan: Option<ScanView>,
    attributes: Vec<AttributeView>,
    error: Option<String>,
}

/// Which source the audit page shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum SourceKind {
    /// The partial reports the server was started with.
    Reports,
    /// The export the server was started with, by the key attributes the page names.
    Export,
    /// A Scan of a table, started from the page.
    Scan,
}

/// What the audit page asks: which source (the reports, else the export, when it names none),
/// its table or its key attributes, and its JSON.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct AuditQuery {
    format: Option<String>,
    source: Option<SourceKind>,
    table: Option<String>,
    /// The export's key attributes (an export has no key schema); `pk` and `sk` when not named.
    pk: Option<String>,
    sk: Option<String>,
}

/// What the page shows of its source: the command that prints the same report, the source in
/// words, the page's own address (refreshed while a scan runs), the report (none before a scan
/// saved one, or when no source is picked) and a scan's progress.
struct Shown {
    command: String,
    showing: String,
    this: String,
    doc: Option<Result<AuditDocument, AskError>>,
    scan: Option<ScanView>,
}

/// The dashboard of the source asked for (the reports by default), or the command's JSON.
pub(crate) async fn audit(State(app): State<Arc<App>>, RawQuery(raw): RawQuery, headers: HeaderMap) -> Response {
    let q: AuditQuery = match crate::serve::pages::read_query(raw.as_deref()) {
        Ok(q) => q,
        Err(e) => return refusal(&e),
    };
    let json = wants_json(&Format { format: q.format.clone() }, &headers);
    let (pk, sk) = (q.pk.clone().unwrap_or_else(|| "pk".into()), q.sk.clone().unwrap_or_else(|| "sk".into()));
    let named = if !app.reports.is_empty() {
        Some(SourceKind::Reports)
    } else {
        app.export.as_ref().map(|_| SourceKind::Export)
    };
    let shown = match (q.source.or(named), q.table.as_deref().filter(|t| !t.is_empty())) {
        (Some(SourceKind::Reports), _) if !app.reports.is_empty() => Ok(reports(&app)),
        (Some(SourceKind::Export), _) if app.export.is_some() => export(&app, (&pk, &sk)).await,
        (Some(SourceKind::Scan), Some(table)) => scan(&app, table),
        _ => Ok(Shown { command: String::new(), showing: String::new(), this: "/audit".into(), doc: None, scan: None }),
    };
    // An ask the command refuses is refused, page or JSON.
    let Shown { command, showing, this, doc, scan } = match shown {
        Ok(shown) => shown,
        Err(e) => return refusal(&e),
    };
    if json {
        return match doc {
            Some(Ok(doc)) => as_json(&doc),
            Some(Err(e)) => refusal(&e),
            None => refusal(&AskError::not_found(
                "no audit to show; expected ?source=reports, export or scan (with a table)",
            )),
        };
    }
    let mut frame = Frame::new(&app, "audit", command, "/audit");
    // The read units the page's Scan spent (an export or saved reports cost none to show).
    frame.read_units = scan.as_ref().map_or(0.0, |s| s.read_units);
    frame.json_link = format!("{this}{}format=json", if this.contains('?') { '&' } else { '?' });
    let (attributes, error) = match doc {
        Some(Ok(doc)) => (views(&doc), None),
        Some(Err(e)) => (Vec::new(), Some(e.message)),
        None => (Vec::new(), None),
    };
    let sources = Sources {
        reports: app.reports.iter().map(|p| p.display().to_string()).collect(),
        export: app.export.as_ref().map(|_| app.export_text()),
        tables: app.tables.clone(),
        scans: app.scans.tables(),
    };
    as_html(&AuditPage { frame, sources, showing, this, pk, sk, scan, attributes, error })
}

/// The partial reports the server was started with, merged as `sortkey audit merge` does.
fn reports(app: &App) -> Shown {
    let ctx = app.context();
    let line = AuditReads::merge_command_line(&ctx, &app.reports);
    let command = line.to_string();
    let paths: Vec<String> = app.reports.iter().map(|p| p.display().to_string()).collect();
    let doc = merged(&app.reports, HEADROOM, (&ctx, line));
    let showing = format!("the partial reports {}", paths.join(", "));
    Shown { command, showing, this: "/audit?source=reports".to_owned(), doc: Some(doc), scan: None }
}

/// The server's export read by the key attributes `pk` and `sk`, as `sortkey audit --export`
/// reads it (the command's own ask, validated as the command validates it).
async fn export(app: &Arc<App>, (pk, sk): (&str, &str)) -> Result<Shown, AskError> {
    let ctx = app.context();
    let at = app.export_text();
    let ask =
        AuditReads { export: Some(at.clone()), pk: Some(pk.into()), sk: Some(sk.into()), ..AuditReads::default() };
    ask.validate(&ctx)?;
    let line = ask.command_line(&ctx);
    let command = line.to_string();
    let (reader, keys) = (app.clone(), (pk.to_owned(), Some(sk.to_owned())));
    let read = match export_files(app, &at).await {
        Ok(files) => tokio::task::spawn_blocking(move || {
            export_report(&reader.context(), (&*files, &at), keys, (HEADROOM, line))
        })
        .await
        .unwrap_or_else(|e| Err(AskError::local(format!("the export audit stopped: {e}")))),
        Err(e) => Err(e),
    };
    let this = format!("/audit?source=export&pk={}&sk={}", encode(pk), encode(sk));
    Ok(Shown { command, showing: format!("the export {}", app.export_text()), this, doc: Some(read), scan: None })
}

/// The Scan of `table` started from the page: the command's own ask (a table the server may
/// read, its report in the audit folder, in its segments), its report read once so that the
/// progress and the dashboard are of the same state.
fn scan(app: &App, table: &str) -> Result<Shown, AskError> {
    let ctx = app.context();
    let path = app.scans.report_path(table);
    let saved = partial::load(&path);
    let segments = if let Ok(Some(state)) = &saved { state.total } else { SEGMENTS };
    let ask = AuditReads { table: Some(table.to_owned()), report: Some(path), segments, ..AuditReads::default() };
    ask.validate(&ctx)?;
    let line = ask.command_line(&ctx);
    let command = line.to_string();
    let (saved, doc) = match saved {
        Ok(Some(state)) => {
            let doc = scan_report(&state, HEADROOM, (&ctx, line), None);
            (Some(state), Some(Ok(doc)))
        }
        Ok(None) => (None, None),
        Err(e) => (None, Some(Err(e))),
    };
    let scan = app.scans.view(table, saved.as_ref(), command.clone());
    let this = format!("/audit?source=scan&table={table}");
    Ok(Shown { command, showing: format!("the scan of {table}"), this, doc, scan })
}

/// The data files of the export at `at`: a folder's, or listed in S3 (read on this runtime).
async fn export_files(app: &App, at: &str) -> Result<Box<dyn DataFiles + Send>, AskError> {
    match S3Export::parse(at) {
        Some(s3) => {
            let client = app.s3.clone().ok_or_else(|| AskError::local("no S3 client for the export"))?;
            let handle = tokio::runtime::Handle::current();
            Ok(Box::new(S3Files::list(client, handle, s3?).await?))
        }
        None => Ok(Box::new(Folder::of(std::path::Path::new(at))?)),
    }
}

/// The form that starts (or resumes) a scan.
#[derive(Debug, Deserialize)]
pub(crate) struct ScanForm {
    table: String,
    rate: Option<u64>,
    segments: Option<u32>,
    /// Present: start over.
    fresh: Option<String>,
}

/// Starts or resumes the scan of a table, then shows it.
pub(crate) async fn start_scan(State(app): State<Arc<App>>, Form(form): Form<ScanForm>) -> Response {
    if let Err(refusal) = app.may_read(&form.table) {
        return crate::serve::pages::refusal(&refusal);
    }
    let request = scans::Request {
        table: form.table.clone(),
        rate: form.rate.unwrap_or(1000).max(1),
        segments: form.segments.unwrap_or(4).clamp(1, 1000),
        fresh: form.fresh.is_some(),
    };
    let reader = scans::ScanReader {
        client: app.client.clone(),
        lock: app.lock.clone(),
        lock_path: app.lock_path.clone(),
        connection: app.connection.clone(),
    };
    match app.scans.start(&request, reader) {
        Ok(()) => see_scan(&form.table),
        Err(e) => (status_of(&e), format!("sortkey serve: {}\n", e.message)).into_response(),
    }
}

/// The form that stops a scan.
#[derive(Debug, Deserialize)]
pub(crate) struct StopForm {
    table: String,
}

/// Stops the scan of a table between two pages; its partial report stays, to resume.
pub(crate) async fn stop_scan(State(app): State<Arc<App>>, Form(form): Form<StopForm>) -> Response {
    app.scans.stop(&form.table);
    see_scan(&form.table)
}

/// To the page of the scan of `table`.
fn see_scan(table: &str) -> Response {
    let location = format!("/audit?source=scan&table={table}");
    (StatusCode::SEE_OTHER, [(header::LOCATION, location)]).into_response()
}

fn views(doc: &AuditDocument) -> Vec<AttributeView> {
    doc.attributes
        .iter()
        .map(|a| {
            let r = &a.report;
            let most = r.keys.max(1) as f64;
            let bar = |label: String, n: u64, finding: bool| Bar {
                label,
                value: n.to_string(),
                width: ((n as f64 / most) * BAR).round() as u32,
                finding,
            };
            let old = |name: &str| r.old_keys.iter().any(|o| o.layout == name);
            let mut layouts: Vec<Bar> = r.layouts.iter().map(|l| bar(l.name.clone(), l.count, old(&l.name))).collect();
            layouts.push(bar("(in no layout)".to_owned(), r.in_no_layout(), r.in_no_layout() > 0));
            let mut headroom = Vec::new();
            for l in &r.layouts {
                for f in l.fields.iter().filter(|f| f.seen > 0) {
                    let Some(h) = f.headroom() else { continue };
                    headroom.push(Bar {
                        label: format!("{}.{}", l.name, f.path),
                        value: format!("{:.1}% left", h.fraction_left * 100.0),
                        width: (h.fraction_left * BAR).round() as u32,
                        finding: a.is_low(&l.name, &f.path),
                    });
                }
            }
            let mut findings: Vec<(String, u64, String)> = Vec::new();
            for m in &r.mixed_widths {
                let what = format!("mixed width: {}.{} width {}, seen {}", m.layout, m.field, m.width, m.seen);
                findings.push((what, m.count, m.samples.first().cloned().unwrap_or_default()));
            }
            for u in &r.unread {
                let sample = u.samples.first().map(|s| s.key.clone()).unwrap_or_default();
                findings.push((format!("no layout reads: {}", u.kind.name()), u.count, sample));
            }
            for o in &r.old_keys {
                let what = format!(
                    "older version {} of {} ({} partitions, {} with current keys)",
                    o.layout, o.current, o.partitions, o.partitions_with_current
                );
                findings.push((what, o.keys, o.partition_samples.first().cloned().unwrap_or_default()));
            }
            AttributeView { title: format!("{} ({})", a.name, a.role.name()), layouts, headroom, findings }
        })
        .collect()
}
