//! The expression builder: a layout's fields in order, each a comparison and a value typed as the
//! layout says; the `KeyConditionExpression` they make (the library's, with its refusals), the
//! request as an AWS CLI and as a `sortkey query` command, and, on a table's partition, the
//! matching items across the layout's versions. Live with htmx as the user types; a form without.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use axum::extract::{Query, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use crate::browse::{self, BrowseDocument, Target};
use crate::cli::QueryArgs;
use crate::query::{self, QueryDocument};
use crate::serve::App;
use crate::serve::pages::{Format, Frame, answer, wants_json};

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
    aws: String,
    error: Option<String>,
}

/// The builder's page, its JSON the command's (`sortkey query`, or with a table `sortkey query
/// --table`).
pub(crate) async fn query(
    State(app): State<Arc<App>>,
    Query(form): Query<HashMap<String, String>>,
    RawQuery(raw): RawQuery,
    headers: HeaderMap,
) -> Response {
    let get = |k: &str| form.get(k).cloned().unwrap_or_default();
    let layout = form.get("layout").cloned().or_else(|| app.lock.entries.first().map(|(n, _)| n.clone()));
    let layout = layout.unwrap_or_default();
    let (table, pk) = (get("table"), get("pk"));
    let fields = field_rows(&app, &layout, &form);
    let q = QueryArgs {
        layout: layout.clone(),
        variant: form.get("variant").filter(|v| !v.is_empty()).cloned(),
        pk: if pk.is_empty() { "PK".to_owned() } else { pk.clone() },
        pk_attr: "pk".into(),
        sk_attr: "sk".into(),
        table: (!table.is_empty() && !pk.is_empty()).then(|| table.clone()),
        index: None,
        limit: 50,
        conditions: conditions(&fields),
    };
    let mut frame = Frame::new(&app, "query", query::command_line(&q, &app.lock_path), "/query");
    let json = wants_json(&Format { format: form.get("format").cloned() }, &headers);
    let built = query::key_condition(&app.lock, &app.lock_path, &q);
    let (mut doc, mut items, mut error, mut aws) = (None, None, None, String::new());
    match built {
        Ok((condition, fields_condition)) => {
            let expression = condition.with_partition_key("pk", &q.pk, "sk");
            aws = aws_command(&table, &expression);
            doc = Some(QueryDocument::new(&condition, expression));
            if let Some(table) = &q.table {
                let target = Target { table, index: None, pk: &q.pk, after: None };
                match browse::query_versions(&app.client, &target, &app.lock, &layout, &fields_condition, q.limit).await
                {
                    Ok((found, units)) => {
                        frame.read_units = units;
                        items = Some(found);
                    }
                    Err(e) => error = Some(e.0),
                }
            }
        }
        Err(e) => error = Some(e.0),
    }
    if json {
        return match (&items, &doc, &error) {
            (Some(items), _, _) => answer(true, items, &crate::serve::pages::EmptyPage),
            (None, Some(doc), None) => answer(true, doc, &crate::serve::pages::EmptyPage),
            (_, _, e) => (axum::http::StatusCode::BAD_REQUEST, format!("sortkey: {}\n", e.clone().unwrap_or_default()))
                .into_response(),
        };
    }
    frame.json_link = format!("/query?{}&format=json", raw.unwrap_or_default());
    let layouts = app.lock.entries.iter().map(|(n, _)| n.clone()).collect();
    answer(false, &(), &QueryPage { frame, layouts, layout, table, pk, fields, doc, items, aws, error })
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

/// The command line's conditions of the form: fields with a value, in order.
fn conditions(fields: &[FieldRow]) -> Vec<String> {
    fields
        .iter()
        .filter(|f| !f.value.is_empty())
        .map(|f| match f.op.as_str() {
            "between" => format!("{}={}..{}", f.name, f.value, f.high),
            "^=" | "<" | "<=" | ">" | ">=" => format!("{}{}{}", f.name, f.op, f.value),
            _ => format!("{}={}", f.name, f.value),
        })
        .collect()
}

/// The request as `aws dynamodb query`.
fn aws_command(table: &str, e: &sortkey_core::KeyExpression) -> String {
    let names: Vec<String> = e.names.iter().map(|(p, n)| format!("\"{p}\":\"{n}\"")).collect();
    let values: Vec<String> =
        e.values.iter().map(|(p, v)| format!("\"{p}\":{{\"S\":{}}}", serde_json::Value::from(v.as_str()))).collect();
    let table = if table.is_empty() { "TABLE" } else { table };
    format!(
        "aws dynamodb query --table-name {table} --key-condition-expression '{}' --expression-attribute-names '{{{}}}' \
         --expression-attribute-values '{{{}}}'",
        e.expression,
        names.join(","),
        values.join(",")
    )
}
