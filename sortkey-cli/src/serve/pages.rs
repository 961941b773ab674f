//! The pages: each a report type of the command, rendered by its template or answered as the
//! command's JSON (`?format=json`, or `Accept: application/json`), with the command that gives
//! the same answer in a terminal.

use std::sync::Arc;

use askama::Template;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde::{Deserialize, Serialize};

use crate::ask::{BrowseAsk, TablesAsk};
use crate::layouts::LayoutsDocument;
use crate::outcome::{AskError, AskErrorKind};
use crate::serve::app::App;
use crate::serve::filters;
use crate::serve::lab::{LabTable, lab};
use crate::serve::reshape::{Ask, Reshaped, choices, reshape};
use crate::tables::TablesDocument;

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
    pub(crate) fn new(app: &App, page: &'static str, command: String, path: &str) -> Frame {
        let connection = match (&app.connection.endpoint, &app.connection.region) {
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
#[serde(deny_unknown_fields)]
pub(crate) struct Format {
    pub(crate) format: Option<String>,
}

/// Whether the request asks for the JSON document rather than the page.
pub(crate) fn wants_json(format: &Format, headers: &HeaderMap) -> bool {
    let accept = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).unwrap_or_default();
    format.format.as_deref() == Some("json") || accept.starts_with("application/json")
}

/// A page's query string read into what the page asks; a parameter the page does not read, or a
/// value of the wrong kind, is the page's own 400 naming it (never the framework's text).
pub(crate) fn read_query<T: serde::de::DeserializeOwned>(raw: Option<&str>) -> Result<T, AskError> {
    let parsed = form_urlencoded::parse(raw.unwrap_or_default().as_bytes());
    serde_path_to_error::deserialize(serde_urlencoded::Deserializer::new(parsed)).map_err(|e| {
        let at = e.path().to_string();
        let inner = e.into_inner();
        match at.as_str() {
            "." | "" => AskError::bad(format!("the page's parameters: {inner}")),
            name => AskError::bad(format!("the page's parameter `{name}`: {inner}")),
        }
    })
}

/// The document as JSON: a page's answer to `?format=json` (or `Accept: application/json`),
/// the command's `-o json`.
pub(crate) fn as_json(doc: &impl Serialize) -> Response {
    match serde_json::to_string_pretty(doc) {
        Ok(text) => ([(header::CONTENT_TYPE, "application/json")], text + "\n").into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

/// The page as HTML.
pub(crate) fn as_html(page: &impl Template) -> Response {
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
    tables: Option<&'a TablesDocument>,
    error: Option<String>,
}

/// The overview: the tables the connection sees (or those the server was started with), their
/// keys and indexes, and the lock's layouts with their versions. Its JSON is `sortkey tables`'.
pub(crate) async fn overview(State(app): State<Arc<App>>, RawQuery(raw): RawQuery, headers: HeaderMap) -> Response {
    let format: Format = match read_query(raw.as_deref()) {
        Ok(format) => format,
        Err(e) => return refusal(&e),
    };
    let layouts = LayoutsDocument::new(&app.context());
    let command = TablesAsk { table: app.tables.clone() }.command_line(&app.context());
    let frame = Frame::new(&app, "overview", command.to_string(), "/");
    let ask = TablesAsk { table: app.tables.clone() };
    let tables = crate::tables::answer(&app.client, &app.context(), &ask).await;
    match (tables, wants_json(&format, &headers)) {
        (Ok(doc), true) => as_json(&doc),
        (Err(e), true) => refusal(&e),
        // The lock's layouts are shown whether or not the tables could be read.
        (Ok(doc), false) => as_html(&OverviewPage { frame, doc: &layouts, tables: Some(&doc), error: None }),
        (Err(e), false) => as_html(&OverviewPage { frame, doc: &layouts, tables: None, error: Some(e.message) }),
    }
}

#[derive(Template)]
#[template(path = "layouts.html")]
struct LayoutsPage<'a> {
    frame: Frame,
    doc: &'a LayoutsDocument,
    /// The sort lab: its values and width, and its columns (or why not).
    values: String,
    width: u32,
    lab: Result<LabTable, String>,
    /// The lab on a table: what was asked, the fields it may reshape, and its answer.
    on: TableLab,
    choices: Vec<String>,
    reshaped: Option<Result<Reshaped, String>>,
}

/// What the layouts page asks: its JSON, the sort lab's values, or the lab on a table.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct LayoutsQuery {
    format: Option<String>,
    values: Option<String>,
    width: Option<u32>,
    #[serde(default)]
    table: String,
    #[serde(default)]
    pk: String,
    #[serde(default)]
    field: String,
    #[serde(default)]
    new_width: String,
    desc: Option<String>,
}

/// The sort lab on a table's keys: a partition, and a field (`Layout:path`) written at another
/// width, with or without `desc`, as the form gave them.
pub(crate) struct TableLab {
    table: String,
    pk: String,
    field: String,
    new_width: String,
    desc: bool,
}

/// The lock's layouts: every field with what it can hold, and the versions; the sort lab, and
/// the lab on a table's own keys.
pub(crate) async fn layouts(State(app): State<Arc<App>>, RawQuery(raw): RawQuery, headers: HeaderMap) -> Response {
    let q: LayoutsQuery = match read_query(raw.as_deref()) {
        Ok(q) => q,
        Err(e) => return refusal(&e),
    };
    let doc = LayoutsDocument::new(&app.context());
    let mut frame = Frame::new(&app, "layouts", app.context().command("layouts").to_string(), "/layouts");
    let values = q.values.unwrap_or_else(|| "9, 10, 240, 1500".to_owned());
    let width = q.width.unwrap_or(10);
    let lab = lab(&values, width).map(|columns| LabTable::new(&columns));
    let json = wants_json(&Format { format: q.format }, &headers);
    if json {
        return as_json(&doc);
    }
    let mut on = TableLab { table: q.table, pk: q.pk, field: q.field, new_width: q.new_width, desc: q.desc.is_some() };
    // A field picked and no width tried yet: the form starts from the field's own width and
    // order, so that changing one of them keeps the other.
    if on.new_width.trim().is_empty()
        && let Some(field) = on.field.split_once(':').and_then(|(layout, path)| own_field(&app, layout, path))
    {
        on.new_width = field.effective_width().to_string();
        on.desc = field.desc;
    }
    let reshaped = match (on.table.is_empty(), on.pk.is_empty(), on.field.split_once(':')) {
        (false, false, Some((layout, field))) => {
            if let Err(refusal) = app.may_read(&on.table) {
                return crate::serve::pages::refusal(&refusal);
            }
            match on.new_width.trim().parse::<u32>() {
                Ok(width) => {
                    let ask = Ask { table: &on.table, pk: &on.pk, layout, field, width, desc: on.desc };
                    let read = reshape(&app, &ask, 100).await;
                    if let Ok(r) = &read {
                        frame.read_units = r.read_units;
                    }
                    Some(read.map_err(|e| e.message))
                }
                Err(_) => Some(Err(format!("expected a new width of 1 or more digits, found `{}`", on.new_width))),
            }
        }
        _ => None,
    };
    let choices = choices(&app.lock);
    as_html(&LayoutsPage { frame, doc: &doc, values, width, lab, on, choices, reshaped })
}

/// The field at `path` of the lock's layout `layout`.
fn own_field(app: &App, layout: &str, path: &str) -> Option<sortkey_core::DynField> {
    let layout = app.lock.get(layout)?;
    layout.field_paths().into_iter().find(|(p, _)| p == path).map(|(_, f)| f.clone())
}

/// How long the browser may keep an asset of the binary.
const ASSET_CACHE: &str = "private, max-age=86400";

/// The pages' one stylesheet, embedded in the binary (no inline style: the policy allows the
/// server's own files only).
pub(crate) async fn stylesheet() -> Response {
    let headers = [(header::CONTENT_TYPE, "text/css; charset=utf-8"), (header::CACHE_CONTROL, ASSET_CACHE)];
    (headers, include_str!("../../assets/sortkey.css")).into_response()
}

/// The query string `raw` with `key` set to `value` in place of any value it had (removed for
/// `None`): a page's links to its JSON and to its next page, every other parameter kept.
pub(crate) fn with_param(raw: &str, key: &str, value: Option<&str>) -> String {
    let mut pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw).unwrap_or_default();
    pairs.retain(|(k, _)| k != key);
    pairs.extend(value.map(|v| (key.to_owned(), v.to_owned())));
    serde_urlencoded::to_string(pairs).unwrap_or_default()
}

/// The address of the browse page of `ask`: the ask itself as the page's query string.
pub(crate) fn browse_link(ask: &BrowseAsk) -> String {
    format!("/browse?{}", serde_urlencoded::to_string(ask).unwrap_or_default())
}

/// The status a refused ask is answered with: 400 for input the command does not read, 403 for
/// a table the server may not read, 404 for what is not there, 503 when DynamoDB throttled the
/// read, 502 when it refused it or did not answer, 500 when this machine failed.
pub(crate) fn status_of(e: &AskError) -> StatusCode {
    match e.kind {
        AskErrorKind::BadInput => StatusCode::BAD_REQUEST,
        AskErrorKind::NotAllowed => StatusCode::FORBIDDEN,
        AskErrorKind::NotFound => StatusCode::NOT_FOUND,
        AskErrorKind::Throttled => StatusCode::SERVICE_UNAVAILABLE,
        AskErrorKind::Refused | AskErrorKind::Unreachable => StatusCode::BAD_GATEWAY,
        AskErrorKind::Local => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// A refused ask as the JSON answer: its status and the command's message.
pub(crate) fn refusal(e: &AskError) -> Response {
    (status_of(e), format!("sortkey: {}\n", crate::display::sanitized(&e.message))).into_response()
}

/// `text` in a URL's query: every byte but the unreserved ones percent-encoded.
pub(crate) fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The pages' icon: a key, drawn in SVG, embedded in the binary.
pub(crate) async fn favicon() -> Response {
    let headers = [(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, ASSET_CACHE)];
    (headers, include_str!("../../assets/favicon.svg")).into_response()
}

/// htmx 2.0.11 (BSD Zero Clause), vendored: it makes the expression builder live; every page
/// works without it.
pub(crate) async fn htmx() -> Response {
    let headers = [(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, ASSET_CACHE)];
    (headers, include_str!("../../assets/htmx.min.js")).into_response()
}
