//! The one handler of the pages that answer a command's ask (browse, query, a migration's
//! status): the query string read into the ask, the ask answered as the command answers it, and
//! the answer negotiated: the command's JSON document (`?format=json` or `Accept:
//! application/json`, a refusal with its kind's status), or the page's HTML (a refusal shown on
//! the page's form, with the same status).

use std::future::Future;
use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use crate::outcome::AskError;
use crate::serve::app::App;
use crate::serve::pages::{Format, Frame, read_query, refusal, status_of, wants_json, with_param};

/// A page that answers an ask.
pub(crate) trait AskPage {
    /// What the page asks, read from its query string.
    type Ask: Default + Send + Sync;
    /// Its answer: the command's document and the page's data.
    type Answer: Send;
    /// The page's name (the frame's tab) and its address.
    const NAME: &'static str;
    const PATH: &'static str;

    /// The ask of the query string `raw`: the page's own 400 for a parameter it does not read.
    fn read(app: &App, raw: &str) -> Result<Self::Ask, AskError>;

    /// Whether the ask asks anything yet: a page without it shows its form alone (its JSON is
    /// the ask's refusal).
    fn asked(ask: &Self::Ask) -> bool;

    /// The command line that answers the same in a terminal.
    fn command(app: &App, ask: &Self::Ask) -> String;

    /// The answer, as the command gives it, and the read units it cost.
    fn answer(app: &App, ask: &Self::Ask) -> impl Future<Output = Result<(Self::Answer, f64), AskError>> + Send;

    /// The command's JSON document of the answer.
    fn json(answer: &Self::Answer) -> Response;

    /// The page: its form as `ask` fills it, with the answer, or with the refusal, or with
    /// neither before anything is asked.
    fn html(app: &App, frame: Frame, ask: &Self::Ask, answer: Option<Result<Self::Answer, String>>) -> Response;
}

/// The handler of every [`AskPage`].
pub(crate) async fn ask_page<P: AskPage>(
    State(app): State<Arc<App>>,
    RawQuery(raw): RawQuery,
    headers: HeaderMap,
) -> Response {
    let raw = raw.unwrap_or_default();
    let format: Format = read_query(Some(&only_format(&raw))).unwrap_or_default();
    let json = wants_json(&format, &headers);
    let mut frame = Frame::new(&app, P::NAME, String::new(), P::PATH);
    frame.json_link = format!("{}?{}", P::PATH, with_param(&raw, "format", Some("json")));
    let (ask, answered) = match P::read(&app, &raw) {
        Ok(ask) if !P::asked(&ask) && !json => (ask, None),
        Ok(ask) => {
            frame.command = P::command(&app, &ask);
            let answered = P::answer(&app, &ask).await;
            (ask, Some(answered))
        }
        Err(e) => (P::Ask::default(), Some(Err(e))),
    };
    match answered {
        Some(Ok((answer, _))) if json => P::json(&answer),
        Some(Err(e)) if json => refusal(&e),
        Some(Ok((answer, read_units))) => {
            frame.read_units = read_units;
            P::html(&app, frame, &ask, Some(Ok(answer)))
        }
        Some(Err(e)) => (status_of(&e), P::html(&app, frame, &ask, Some(Err(e.message)))).into_response(),
        // Nothing asked yet (a JSON ask is always answered, or refused).
        None => P::html(&app, frame, &ask, None),
    }
}

/// The query string `raw` with its `format` alone, read before the page's own parameters (a
/// refused ask still answers in the format asked for).
fn only_format(raw: &str) -> String {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw).unwrap_or_default();
    serde_urlencoded::to_string(pairs.into_iter().filter(|(k, _)| k == "format").take(1).collect::<Vec<_>>())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_format_is_read_alone() {
        assert_eq!(super::only_format("table=T&format=json&colour=red"), "format=json");
        assert_eq!(super::only_format("table=T"), "");
    }
}
