//! The pages: each a report type of the command, rendered by its template or answered as the
//! command's JSON (`?format=json`, or `Accept: application/json`), with the command that gives
//! the same answer in a terminal.

use std::sync::Arc;

use askama::Template;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde::{Deserialize, Serialize};

use crate::browse::{self, BrowseDocument, Group, Target};
use crate::layouts::LayoutsDocument;
use crate::serve::App;
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
    pub(crate) format: Option<String>,
}

/// Whether the request asks for the JSON document rather than the page.
pub(crate) fn wants_json(format: &Format, headers: &HeaderMap) -> bool {
    let accept = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).unwrap_or_default();
    format.format.as_deref() == Some("json") || accept.starts_with("application/json")
}

/// The page, or the document as JSON.
pub(crate) fn answer(json: bool, doc: &impl Serialize, page: &impl Template) -> Response {
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
    tables: Option<&'a TablesDocument>,
    error: Option<String>,
}

/// The overview: the tables the connection sees (or those the server was started with), their
/// keys and indexes, and the lock's layouts with their versions. Its JSON is `sortkey tables`'.
pub(crate) async fn overview(
    State(app): State<Arc<App>>,
    Query(format): Query<Format>,
    headers: HeaderMap,
) -> Response {
    let layouts = LayoutsDocument::new(&app.lock);
    let mut command = "sortkey tables".to_owned();
    app.tables.iter().for_each(|t| command.push_str(&format!(" --table {t}")));
    let frame = Frame::new(&app, "overview", command, "/");
    let (tables, error) = match crate::tables::document(&app.client, &app.tables).await {
        Ok(doc) => (Some(doc), None),
        Err(e) => (None, Some(e.0)),
    };
    if wants_json(&format, &headers) {
        return match &tables {
            Some(doc) => answer(true, doc, &EmptyPage),
            None => (StatusCode::BAD_GATEWAY, format!("sortkey: {}\n", error.unwrap_or_default())).into_response(),
        };
    }
    answer(false, &(), &OverviewPage { frame, doc: &layouts, tables: tables.as_ref(), error })
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
pub(crate) async fn layouts(
    State(app): State<Arc<App>>,
    Query(q): Query<LayoutsQuery>,
    headers: HeaderMap,
) -> Response {
    let doc = LayoutsDocument::new(&app.lock);
    let mut frame = Frame::new(&app, "layouts", format!("sortkey layouts --lock {}", app.lock_path), "/layouts");
    let values = q.values.unwrap_or_else(|| "9, 10, 240, 1500".to_owned());
    let width = q.width.unwrap_or(10);
    let lab = lab(&values, width).map(|columns| LabTable::new(&columns));
    let json = wants_json(&Format { format: q.format }, &headers);
    if json {
        return answer(true, &doc, &EmptyPage);
    }
    let on = TableLab { table: q.table, pk: q.pk, field: q.field, new_width: q.new_width, desc: q.desc.is_some() };
    let reshaped = match (on.table.is_empty(), on.pk.is_empty(), on.field.split_once(':')) {
        (false, false, Some((layout, field))) => {
            if let Err(refusal) = app.may_read(&on.table) {
                return refusal.into_response();
            }
            match on.new_width.trim().parse::<u32>() {
                Ok(width) => {
                    let ask = Ask { table: &on.table, pk: &on.pk, layout, field, width, desc: on.desc };
                    let read = reshape(&app, &ask, 100).await;
                    if let Ok(r) = &read {
                        frame.read_units = r.read_units;
                    }
                    Some(read.map_err(|e| e.0))
                }
                Err(_) => Some(Err(format!("expected a new width of 1 or more digits, found `{}`", on.new_width))),
            }
        }
        _ => None,
    };
    let choices = choices(&app.lock);
    answer(false, &doc, &LayoutsPage { frame, doc: &doc, values, width, lab, on, choices, reshaped })
}

/// How long the browser may keep an asset of the binary.
const ASSET_CACHE: &str = "private, max-age=86400";

/// The pages' one stylesheet, embedded in the binary (no inline style: the policy allows the
/// server's own files only).
pub(crate) async fn stylesheet() -> Response {
    let headers = [(header::CONTENT_TYPE, "text/css; charset=utf-8"), (header::CACHE_CONTROL, ASSET_CACHE)];
    (headers, include_str!("../../assets/sortkey.css")).into_response()
}

/// What the browse page asks: a table's partition, a page of it.
#[derive(Debug, Deserialize, Default)]
pub(crate) struct BrowseQuery {
    table: Option<String>,
    pk: Option<String>,
    limit: Option<usize>,
    /// Starts after this sort key (the next page), or before it with `back` (the previous one).
    after: Option<String>,
    back: Option<String>,
    format: Option<String>,
}

#[derive(Template)]
#[template(path = "browse.html")]
struct BrowsePage<'a> {
    frame: Frame,
    table: &'a str,
    pk: &'a str,
    limit: usize,
    doc: Option<&'a BrowseDocument>,
    groups: Vec<Group>,
    /// The sort keys the next and the previous page start after.
    next: Option<String>,
    previous: Option<String>,
    error: Option<String>,
}

/// A partition, one page at a time, its keys decoded by the lock's layouts.
pub(crate) async fn browse(State(app): State<Arc<App>>, Query(q): Query<BrowseQuery>, headers: HeaderMap) -> Response {
    let (table, pk) = (q.table.clone().unwrap_or_default(), q.pk.clone().unwrap_or_default());
    let limit = q.limit.unwrap_or(50).clamp(1, 1000);
    let back = q.back.is_some();
    let after = q.back.as_deref().or(q.after.as_deref());
    let mut command = format!("sortkey browse --table {table} --pk {pk} --limit {limit}");
    if let Some(after) = after {
        command.push_str(&format!(" --after {after}"));
    }
    if back {
        command.push_str(" --reverse");
    }
    let mut frame = Frame::new(&app, "browse", command, "/browse");
    let json = wants_json(&Format { format: q.format.clone() }, &headers);
    if !table.is_empty()
        && let Err(refusal) = app.may_read(&table)
    {
        return refusal.into_response();
    }
    let read = if table.is_empty() || pk.is_empty() {
        None
    } else {
        let target = Target { table: &table, index: None, pk: &pk, after };
        Some(browse::partition(&app.client, &target, &app.lock, limit, back).await)
    };
    let (doc, error) = match read {
        Some(Ok((doc, units))) => {
            frame.read_units = units;
            (Some(doc), None)
        }
        Some(Err(e)) => (None, Some(e.0)),
        None => (None, None),
    };
    frame.json_link = browse_link(&table, &pk, limit, None) + "&format=json";
    if json {
        return match (&doc, &error) {
            (Some(doc), _) => answer(true, doc, &EmptyPage),
            (None, Some(e)) => (StatusCode::BAD_GATEWAY, format!("sortkey serve: {e}")).into_response(),
            (None, None) => (StatusCode::BAD_REQUEST, "sortkey serve: expected ?table=T&pk=P").into_response(),
        };
    }
    // A page read backwards is shown in the partition's order.
    let mut shown = doc.clone();
    if back && let Some(d) = shown.as_mut() {
        d.items.reverse();
    }
    let groups = shown.as_ref().map(BrowseDocument::groups).unwrap_or_default();
    let items = shown.as_ref().map_or(&[][..], |d| d.items.as_slice());
    let full = items.len() == limit;
    let next = items.last().filter(|_| full || back).map(|i| browse_link(&table, &pk, limit, Some(("after", &i.sk))));
    let previous =
        items.first().filter(|_| after.is_some()).map(|i| browse_link(&table, &pk, limit, Some(("back", &i.sk))));
    let page = BrowsePage { frame, table: &table, pk: &pk, limit, doc: shown.as_ref(), groups, next, previous, error };
    answer(false, &(), &page)
}

/// The address of a browse page.
fn browse_link(table: &str, pk: &str, limit: usize, start: Option<(&str, &str)>) -> String {
    let mut link = format!("/browse?table={}&pk={}&limit={limit}", encode(table), encode(pk));
    if let Some((name, key)) = start {
        link.push_str(&format!("&{name}={}", encode(key)));
    }
    link
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

/// No page: the JSON answer's stand-in.
#[derive(Template)]
#[template(source = "", ext = "html")]
pub(crate) struct EmptyPage;

/// htmx 2.0.11 (BSD Zero Clause), vendored: it makes the expression builder live; every page
/// works without it.
pub(crate) async fn htmx() -> Response {
    let headers = [(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, ASSET_CACHE)];
    (headers, include_str!("../../assets/htmx.min.js")).into_response()
}
