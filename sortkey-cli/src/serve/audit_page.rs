//! The audit dashboard: the report of the partial reports the server was started with
//! (`--report FILE`, what `sortkey audit merge` prints), its counts and headroom drawn as bars in
//! SVG by the server (no script), its findings with samples.

use std::sync::Arc;

use askama::Template;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::audit::partial::merged;
use crate::audit::report::AuditDocument;
use crate::serve::App;
use crate::serve::pages::{EmptyPage, Format, Frame, answer, wants_json};

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

#[derive(Template)]
#[template(path = "audit.html")]
struct AuditPage {
    frame: Frame,
    reports: Vec<String>,
    attributes: Vec<AttributeView>,
    error: Option<String>,
}

/// The dashboard, or the command's JSON.
pub(crate) async fn audit(State(app): State<Arc<App>>, Query(format): Query<Format>, headers: HeaderMap) -> Response {
    let paths: Vec<String> = app.reports.iter().map(|p| p.display().to_string()).collect();
    let command = format!("sortkey audit merge {} --lock {}", paths.join(" "), app.lock_path);
    let frame = Frame::new(&app, "audit", command, "/audit");
    let doc = if app.reports.is_empty() { None } else { Some(merged(&app.reports, 0.1)) };
    if wants_json(&format, &headers) {
        return match doc {
            Some(Ok(doc)) => answer(true, &doc, &EmptyPage),
            Some(Err(e)) => (StatusCode::BAD_REQUEST, format!("sortkey: {}\n", e.0)).into_response(),
            None => (StatusCode::NOT_FOUND, "sortkey serve: started without --report FILE\n").into_response(),
        };
    }
    let (attributes, error) = match doc {
        Some(Ok(doc)) => (views(&doc), None),
        Some(Err(e)) => (Vec::new(), Some(e.0)),
        None => (Vec::new(), None),
    };
    answer(false, &(), &AuditPage { frame, reports: paths, attributes, error })
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
                    let low = h.fraction_left < doc.headroom_threshold;
                    headroom.push(Bar {
                        label: format!("{}.{}", l.name, f.path),
                        value: format!("{:.1}% left", h.fraction_left * 100.0),
                        width: (h.fraction_left * BAR).round() as u32,
                        finding: low,
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
