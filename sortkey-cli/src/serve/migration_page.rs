//! The migration page: where a migration stands, read from its checkpoints (the folder or table
//! the server was started with, as the migration was given them) without taking a lease or
//! writing anything: `sortkey migrate ... --status`, refreshed every two seconds until the
//! migration has finished. A migration itself is run by the command, never from a page.

use std::sync::Arc;

use askama::Template;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::cli::MigrateArgs;
use crate::migrate::status::{StatusDocument, status};
use crate::serve::App;
use crate::serve::pages::{EmptyPage, Format, Frame, answer, encode, wants_json};

/// What the migration page asks: which migration.
#[derive(Debug, Deserialize, Default)]
pub(crate) struct MigrationQuery {
    format: Option<String>,
    table: Option<String>,
    to: Option<String>,
    from: Option<String>,
}

#[derive(Template)]
#[template(path = "migration.html")]
struct MigrationPage {
    frame: Frame,
    table: String,
    to: String,
    from: String,
    /// The lock's layouts, for the form.
    layouts: Vec<String>,
    doc: Option<StatusDocument>,
    /// Whether the page refreshes itself (until the migration has finished), and its address.
    refresh: bool,
    this: String,
    error: Option<String>,
}

/// The migration's checkpoints, or the command's JSON.
pub(crate) async fn migration(
    State(app): State<Arc<App>>,
    Query(q): Query<MigrationQuery>,
    headers: HeaderMap,
) -> Response {
    let json = wants_json(&Format { format: q.format.clone() }, &headers);
    let (table, to) = (q.table.clone().unwrap_or_default(), q.to.clone().unwrap_or_default());
    let from = q.from.clone().filter(|f| !f.is_empty());
    let args = app.migrate_args(&table, &to, from.clone());
    let mut command = format!("sortkey migrate --table {table} --to {to}");
    if let Some(from) = &from {
        command.push_str(&format!(" --from {from}"));
    }
    match (&app.checkpoint, &app.checkpoint_table) {
        (Some(dir), _) => command.push_str(&format!(" --checkpoint {}", dir.display())),
        (None, Some(t)) => command.push_str(&format!(" --checkpoint-table {t}")),
        (None, None) => {}
    }
    command.push_str(" --status");
    let mut frame = Frame::new(&app, "migration", command, "/migration");
    let this = format!(
        "/migration?table={}&to={}&from={}",
        encode(&table),
        encode(&to),
        encode(from.as_deref().unwrap_or_default())
    );
    frame.json_link = format!("{this}&format=json");
    let read = if table.is_empty() || to.is_empty() {
        None
    } else if let Err(refusal) = app.may_read(&table) {
        return crate::serve::pages::refusal(&refusal);
    } else {
        Some(status(&app.client, &app.lock, &app.lock_path, &args).await)
    };
    let (doc, error) = match read {
        Some(Ok((doc, units))) => {
            frame.read_units = units;
            (Some(doc), None)
        }
        Some(Err(e)) => (None, Some(e.0)),
        None => (None, None),
    };
    if json {
        return match (&doc, &error) {
            (Some(doc), _) => answer(true, doc, &EmptyPage),
            (None, Some(e)) => (StatusCode::BAD_REQUEST, format!("sortkey: {e}\n")).into_response(),
            (None, None) => (StatusCode::BAD_REQUEST, "sortkey serve: expected ?table=T&to=LAYOUT\n").into_response(),
        };
    }
    let finished =
        doc.as_ref().is_some_and(|d| d.report.is_some() && d.passes.last().is_some_and(|p| p.finished == p.total));
    let refresh = doc.is_some() && !finished;
    let layouts = app.lock.entries.iter().map(|(n, _)| n.clone()).collect();
    let from = from.unwrap_or_default();
    answer(false, &(), &MigrationPage { frame, table, to, from, layouts, doc, refresh, this, error })
}

impl App {
    /// The arguments of `sortkey migrate --status` for a migration of `table` to `to` (from
    /// `from`), with the checkpoints the server was started with.
    fn migrate_args(&self, table: &str, to: &str, from: Option<String>) -> MigrateArgs {
        MigrateArgs {
            table: table.to_owned(),
            from,
            to: to.to_owned(),
            dry_run: false,
            status: true,
            version_attribute: None,
            compare_attributes: false,
            may_add: Vec::new(),
            segments: 4,
            total: None,
            segment: None,
            checkpoint: self.checkpoint.clone(),
            checkpoint_table: self.checkpoint_table.clone(),
            worker: None,
            lease: 60,
            rate: None,
            passes: 3,
        }
    }
}
