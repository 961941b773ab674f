//! The pages: each a report type of the command, rendered by its template or answered as the
//! command's JSON (`?format=json`, or `Accept: application/json`), with the command that gives
//! the same answer in a terminal.

use std::sync::Arc;

use askama::Template;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde::{Deserialize, Serialize};

use crate::layouts::LayoutsDocument;
use crate::serve::App;

/// What every page's frame shows.
pub(crate) struct Frame {
    /// The page's name, for the navigation.
    pub(crate) page: &'static str,
    pub(crate) lock_path: String,
    /// Where the connection goes: the endpoint, or AWS in the region.
    pub(crate) connection: String,
    /// The read units the page spent.
    pub(crate) read_units: f64,
    /// The command that gives the same answer in a terminal.
    pub(crate) command: String,
    /// The page's JSON, the command's `-o json`.
    pub(crate) json_link: String,
}

impl Frame {
    fn new(app: &App, page: &'static str, command: String, path: &str) -> Frame {
        let connection = match (&app.endpoint, &app.region) {
            (Some(url), _) => url.clone(),
            (None, Some(region)) => format!("AWS {region}"),
            (None, None) => "AWS (the default region)".to_owned(),
        };
        let json_link = format!("{path}?format=json");
        Frame { page, lock_path: app.lock_path.clone(), connection, read_units: 0.0, command, json_link }
    }
}

/// `?format=json`.
#[derive(Debug, Deserialize, Default)]
pub(crate) struct Format {
    format: Option<String>,
}

/// Whether the request asks for the JSON document rather than the page.
fn wants_json(format: &Format, headers: &HeaderMap) -> bool {
    let accept = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).unwrap_or_default();
    format.format.as_deref() == Some("json") || accept.starts_with("application/json")
}

/// The page, or the document as JSON.
fn answer(json: bool, doc: &impl Serialize, page: &impl Template) -> Response {
    if json {
        return match serde_json::to_string_pretty(doc) {
            Ok(text) => ([(header::CONTENT_TYPE, "application/json")], text + "\n").into_response(),
            Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
        };
    }
    match page.render() {
        Ok(html) => Html(html).into_response(),
        Err(e) => {
            (StatusCode::INTERNAL_SERVER_ERROR, format!("sortkey serve: cannot render the page: {e}")).into_response()
        }
    }
}

#[derive(Template)]
#[template(path = "overview.html")]
struct OverviewPage<'a> {
    frame: Frame,
    doc: &'a LayoutsDocument,
    tables: &'a [String],
}

/// The overview: the connection, the tables, the lock's layouts with their versions.
pub(crate) async fn overview(
    State(app): State<Arc<App>>,
    Query(format): Query<Format>,
    headers: HeaderMap,
) -> Response {
    let doc = LayoutsDocument::new(&app.lock);
    let frame = Frame::new(&app, "overview", format!("sortkey layouts --lock {}", app.lock_path), "/");
    answer(wants_json(&format, &headers), &doc, &OverviewPage { frame, doc: &doc, tables: &app.tables })
}

#[derive(Template)]
#[template(path = "layouts.html")]
struct LayoutsPage<'a> {
    frame: Frame,
    doc: &'a LayoutsDocument,
}

/// The lock's layouts: every field with what it can hold, and the versions.
pub(crate) async fn layouts(State(app): State<Arc<App>>, Query(format): Query<Format>, headers: HeaderMap) -> Response {
    let doc = LayoutsDocument::new(&app.lock);
    let frame = Frame::new(&app, "layouts", format!("sortkey layouts --lock {}", app.lock_path), "/layouts");
    answer(wants_json(&format, &headers), &doc, &LayoutsPage { frame, doc: &doc })
}

/// The pages' one stylesheet, embedded in the binary (no inline style: the policy allows the
/// server's own files only).
pub(crate) async fn stylesheet() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], include_str!("../../assets/sortkey.css")).into_response()
}
