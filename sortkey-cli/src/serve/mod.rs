//! `sortkey serve`: the command's reports in a browser, on loopback. The server holds AWS
//! credentials, so it is safe by default ([`guard`]): bound to 127.0.0.1, a random token in the
//! printed URL traded once for an HttpOnly, SameSite=Strict cookie, the Host header checked on
//! every request, cross-site requests refused on anything but GET, and no route that writes to
//! DynamoDB. Each page ([`pages`]) is a report type of the command rendered by a compile-checked
//! template, or the command's JSON with `?format=json`.

mod app;
mod ask_page;
mod audit_page;
mod browse_page;
mod filters;
mod guard;
mod lab;
mod migration_page;
mod pages;
mod query_page;
mod rank_page;
mod reshape;
mod scans;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::Router;
use axum::routing::get;

pub(crate) use app::App;

use crate::ask::ServeAsk;
use crate::outcome::AskError;
use crate::session::Session;

/// Starts the server and prints its URL; runs until the process is stopped.
pub(crate) fn run(session: &Session, serve: &ServeAsk) -> Result<(), AskError> {
    let address = serve.bind.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    if !address.is_loopback() {
        eprintln!(
            "sortkey: warning: serving on {address}, not loopback: anyone who can reach it and holds the URL's token \
             reads the tables with your credentials"
        );
    }
    session.runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(address, serve.port))
            .await
            .map_err(|e| AskError::local(format!("cannot listen on {address}:{}: {e}", serve.port)))?;
        let port = listener
            .local_addr()
            .map_err(|e| AskError::local(format!("cannot read the address listened on: {e}")))?
            .port();
        let client = session.client().await;
        let in_s3 = serve.export.as_deref().is_some_and(|e| e.starts_with("s3://"));
        let s3 = if in_s3 { Some(crate::connect::s3_client(&session.connection).await) } else { None };
        let app = App::new(session, serve, (client, s3), (address, port))?;
        let url = format!("http://{}/?token={}", app.hosts[0], app.token);
        crate::output::outln!("sortkey serve: {url}");
        axum::serve(listener, router(Arc::new(app)))
            .await
            .map_err(|e| AskError::local(format!("the server stopped: {e}")))
    })
}

/// Every route, behind the guard.
pub(crate) fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(pages::overview))
        .route("/layouts", get(pages::layouts))
        .route("/browse", get(ask_page::ask_page::<browse_page::BrowseView>))
        .route("/query", get(ask_page::ask_page::<query_page::QueryView>))
        .route("/rank", get(ask_page::ask_page::<rank_page::RankView>))
        .route("/audit", get(audit_page::audit))
        .route("/audit/scan", axum::routing::post(audit_page::start_scan))
        .route("/audit/scan/stop", axum::routing::post(audit_page::stop_scan))
        .route("/migration", get(ask_page::ask_page::<migration_page::MigrationView>))
        .route("/assets/htmx.min.js", get(pages::htmx))
        .route("/assets/sortkey.css", get(pages::stylesheet))
        .route("/favicon.ico", get(pages::favicon))
        .layer(axum::middleware::from_fn_with_state(app.clone(), guard::guard))
        .with_state(app)
}

#[cfg(test)]
mod tests;
