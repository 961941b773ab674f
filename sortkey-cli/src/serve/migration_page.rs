//! The migration page: where a migration stands, read from its checkpoints (the folder or table
//! the server was started with, as the migration was given them) without taking a lease or
//! writing anything: `sortkey migrate ... --status`, refreshed every two seconds until the
//! migration has finished. A migration itself is run by the command, never from a page.

use askama::Template;
use axum::response::Response;

use crate::ask::MigrationAsk;
use crate::migrate::status::{StatusDocument, status};
use crate::outcome::AskError;
use crate::serve::app::App;
use crate::serve::ask_page::AskPage;
use crate::serve::filters;
use crate::serve::pages::{Frame, as_html, as_json, read_query};

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
pub(crate) struct MigrationView;

impl AskPage for MigrationView {
    type Ask = MigrationAsk;
    type Answer = StatusDocument;
    const NAME: &'static str = "migration";
    const PATH: &'static str = "/migration";

    fn read(app: &App, raw: &str) -> Result<MigrationAsk, AskError> {
        let mut ask: MigrationAsk = read_query(Some(raw))?;
        ask.checkpoint = app.checkpoint.clone();
        ask.checkpoint_table = app.checkpoint_table.clone();
        ask.from = ask.from.filter(|f| !f.is_empty());
        Ok(ask)
    }

    /// No migration named yet: the form alone.
    fn asked(ask: &MigrationAsk) -> bool {
        !(ask.table.is_empty() && ask.to.is_empty())
    }

    fn command(app: &App, ask: &MigrationAsk) -> String {
        ask.status_command_line(&app.context()).to_string()
    }

    async fn answer(app: &App, ask: &MigrationAsk) -> Result<(StatusDocument, f64), AskError> {
        let ctx = app.context();
        ask.validate(&ctx)?;
        status(&app.client, &ctx, ask).await
    }

    fn json(doc: &StatusDocument) -> Response {
        as_json(doc)
    }

    fn html(
        app: &App,
        mut frame: Frame,
        ask: &MigrationAsk,
        answer: Option<Result<StatusDocument, String>>,
    ) -> Response {
        let from = ask.from.clone().unwrap_or_default();
        let this = format!(
            "/migration?{}",
            serde_urlencoded::to_string([("table", &ask.table), ("to", &ask.to), ("from", &from)]).unwrap_or_default()
        );
        frame.command = ask.status_command_line(&app.context()).to_string();
        let (doc, error) = match answer {
            Some(Ok(doc)) => (Some(doc), None),
            Some(Err(e)) => (None, Some(e)),
            None => (None, None),
        };
        let refresh = doc.as_ref().is_some_and(|d| !d.ended());
        let layouts = app.lock.entries.iter().map(|(n, _)| n.clone()).collect();
        let (table, to) = (ask.table.clone(), ask.to.clone());
        as_html(&MigrationPage { frame, table, to, from, layouts, doc, refresh, this, error })
    }
}
