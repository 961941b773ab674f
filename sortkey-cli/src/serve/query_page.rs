//! The expression builder: a layout's fields in order, each a comparison and a value typed as the
//! layout says; the `KeyConditionExpression` they make (the library's, with its refusals), the
//! request as an AWS CLI and as a `sortkey query` command, and, on a table's partition, the
//! matching items across the layout's versions. Live with htmx as the user types; a form without.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use axum::extract::{Query, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::ask::QueryAsk;
use crate::browse::BrowseDocument;
use crate::query::{self, QueryDocument};
use crate::serve::app::App;
use crate::serve::filters;
use crate::serve::pages::{Format, Frame, as_html, as_json, refusal, status_of, wants_json, with_param};

/// One field of the builder.
struct FieldRow {
    name: String,
    /// What it holds, for the hint beside it.
    hint: String,
    op: String,
    value: String,
    high: String,
}

#[derive(Template)]
#[template(path = "query.html")]
struct QueryPage {
    frame: Frame,
    layouts: Vec<String>,
    layout: String,
    table: String,
    pk: String,
    fields: Vec<FieldRow>,
    doc: Option<QueryDocument>,
    items: Option<BrowseDocument>,
    /// The next page of the matching items: this page's address after its last result.
    next: Option<String>,
    aws: String,
    /// The Queries of the layout's older versions the items were read by too: (layout, command).
    older_aws: Vec<(String, String)>,
    /// Highest key first.
    reverse: bool,
    error: Option<String>,
}

/// The builder's page, its JSON the command's (`sortkey query`, or with a table `sortkey query
/// --table`): the form read into the command's ask, answered as the command answers it.
pub(crate) async fn query(
    State(app): State<Arc<App>>,
    Query(form): Query<HashMap<String, String>>,
    RawQuery(raw): RawQuery,
    headers: HeaderMap,
) -> Response {
    let ctx = app.context();
    let json = wants_json(&Format { format: form.get("format").cloned() }, &headers);
    let layout = form.get("layout").cloned().or_else(|| app.lock.entries.first().map(|(n, _)| n.clone()));
    let layout = layout.unwrap_or_default();
    let get = |k: &str| form.get(k).cloned().unwrap_or_default();
    let (table, pk) = (get("table"), get("pk"));
    let fields = field_rows(&app, &layout, &form);
    let mut frame = Frame::new(&app, "query", String::new(), "/query");
    let raw = raw.unwrap_or_default();
    frame.json_link = format!("/query?{}", with_param(&raw, "format", Some("json")));
    let answered = match QueryAsk::from_form(&ctx, &form) {
        Ok(ask) => {
            frame.command = ask.command_line(&ctx).to_string();
            query::answer(Some(&app.client), &ctx, &ask).await.map(|a| (ask, a))
        }
        Err(e) => Err(e),
    };
    let (mut doc, mut items, mut error, mut aws, mut older_aws) = (None, None, None, String::new(), Vec::new());
    match answered {
        Ok((ask, answered)) => {
            aws = query::aws_command_line(&ctx, ask.table.as_deref(), &answered.condition).to_string();
            frame.read_units = answered.read_units;
            older_aws =
                answered.older_queries.iter().map(|(layout, line)| (layout.clone(), line.to_string())).collect();
            if json {
                return match &answered.items {
                    Some(found) => as_json(found),
                    None => as_json(&answered.condition),
                };
            }
            doc = Some(answered.condition);
            items = answered.items;
        }
        Err(e) if json => return refusal(&e),
        Err(e) => error = Some(e),
    }
    let status = error.as_ref().map_or(StatusCode::OK, status_of);
    let layouts = app.lock.entries.iter().map(|(n, _)| n.clone()).collect();
    let error = error.map(|e| e.message);
    let next = items.as_ref().and_then(|found| found.next.as_deref()).map(|after| {
        let html = with_param(&raw, "format", None);
        format!("/query?{}", with_param(&html, "after", Some(after)))
    });
    let reverse = form.get("reverse").is_some_and(|r| r == "on" || r == "true");
    let page =
        QueryPage { frame, layouts, layout, table, pk, fields, doc, items, next, aws, older_aws, reverse, error };
    (status, as_html(&page)).into_response()
}

/// The layout's fields in order, with what the form says of each.
fn field_rows(app: &App, layout: &str, form: &HashMap<String, String>) -> Vec<FieldRow> {
    let Some(l) = app.lock.get(layout) else { return Vec::new() };
    let get = |k: String| form.get(&k).cloned().unwrap_or_default();
    l.field_paths()
        .into_iter()
        .filter(|(path, _)| !path.contains('.'))
        .map(|(name, f)| {
            let mut hint = f.ty.to_string();
            if f.effective_width() > 0 {
                hint.push_str(&format!(", width {}", f.effective_width()));
            }
            if f.desc {
                hint.push_str(", desc");
            }
            if let Some(c) = f.capacity() {
                hint.push_str(&format!(", holds {c}"));
            }
            let op = form.get(&format!("op_{name}")).cloned().unwrap_or_else(|| "=".to_owned());
            FieldRow { value: get(format!("v_{name}")), high: get(format!("hi_{name}")), op, hint, name }
        })
        .collect()
}
