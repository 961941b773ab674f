//! The migration page: where a migration stands, read from its checkpoints (the folder or table
//! the server was started with, as the migration was given them) without taking a lease or
//! writing anything: `sortkey migrate ... --status`, refreshed every two seconds until the
//! migration has finished. A migration itself is run by the command, never from a page.

use std::sync::Arc;

use askama::Template;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::ask::{AskError, MigrationAsk};
use crate::migrate::status::{StatusDocument, status};
use crate::serve::app::App;
use crate::serve::filters;
use crate::serve::pages::{Format, Frame, as_html, as_json, read_query, refusal, status_of, wants_json};

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

/// The migration's checkpoints, or the command's JSON: the query string read into the
/// command's ask (`sortkey migrate ... --status`), the checkpoints the server's own.
pub(crate) async fn migration(State(app): State<Arc<App>>, RawQuery(raw): RawQuery, headers: HeaderMap) -> Response {
    let ctx = app.context();
    let read: Result<MigrationAsk, AskError> = read_query(raw.as_deref());
    let json = wants_json(&Format { format: read.as_ref().ok().and_then(|a| a.format.clone()) }, &headers);
    let mut ask = read.clone().unwrap_or_default();
    ask.checkpoint = app.checkpoint.clone();
    ask.checkpoint_table = app.checkpoint_table.clone();
    let mut frame = Frame::new(&app, "migration", ask.status_command_line(&ctx).to_string(), "/migration");
    let this = format!(
        "/migration?{}",
        serde_urlencoded::to_string([
            ("table", &ask.table),
            ("to", &ask.to),
            ("from", &ask.from.clone().unwrap_or_default())
        ])
        .unwrap_or_default()
    );
    frame.json_link = format!("{this}&format=json");
    ask.from = ask.from.filter(|f| !f.is_empty());
    let asked = !(ask.table.is_empty() && ask.to.is_empty());
    let read = match read {
        Err(e) => Some(Err(e)),
        Ok(_) if !asked => None,
        Ok(_) => Some(match ask.validate(&ctx) {
            Ok(()) => status(&app.client, &ctx, &ask).await,
            Err(e) => Err(e),
        }),
    };
    let (doc, error) = match read {
        Some(Ok((doc, units))) => {
            frame.read_units = units;
            (Some(doc), None)
        }
        Some(Err(e)) if json => return refusal(&e),
        Some(Err(e)) => (None, Some(e)),
        None if json => return refusal(&AskError::bad("expected ?table=T&to=LAYOUT")),
        None => (None, None),
    };
    if json {
        return match &doc {
            Some(doc) => as_json(doc),
            None => refusal(&AskError::bad("no migration")),
        };
    }
    let refresh = doc.as_ref().is_some_and(|d| !d.ended());
    let layouts = app.lock.entries.iter().map(|(n, _)| n.clone()).collect();
    let status = error.as_ref().map_or(StatusCode::OK, status_of);
    let (table, to, from) = (ask.table, ask.to, ask.from.unwrap_or_default());
    let error = error.map(|e| e.message);
    let page = MigrationPage { frame, table, to, from, layouts, doc, refresh, this, error };
    (status, as_html(&page)).into_response()
}
