//! The browse page: a partition, one page at a time, its keys decoded by the lock's layouts,
//! as `sortkey browse` reads it; its links to the next and the previous page are the ask
//! itself, moved on.

use askama::Template;
use axum::response::Response;

use crate::ask::BrowseAsk;
use crate::browse::{self, BrowseDocument, Group, Row};
use crate::outcome::AskError;
use crate::serve::app::App;
use crate::serve::ask_page::AskPage;
use crate::serve::filters;
use crate::serve::pages::{Frame, as_html, as_json, browse_link, read_query};

#[derive(Template)]
#[template(path = "browse.html")]
struct BrowsePage<'a> {
    frame: Frame,
    table: &'a str,
    pk: &'a str,
    limit: usize,
    doc: Option<&'a BrowseDocument>,
    /// One table per layout, on request; else one table in the partition's order.
    groups: Vec<Group>,
    rows: Vec<Row>,
    group: bool,
    /// Whether the partition is sharded: the rows then show their shard.
    sharded: bool,
    /// The sort keys the next and the previous page start after.
    next: Option<String>,
    previous: Option<String>,
    error: Option<String>,
    /// The lock's ranked layouts (`Layout`, `field`): the rank box asks the rank page.
    ranked: Vec<(String, String)>,
}

impl<'a> BrowsePage<'a> {
    /// The page's form as `ask` fills it, with no partition shown: before one is asked for, or
    /// with why it was refused.
    fn form(frame: Frame, ask: &'a BrowseAsk, error: Option<String>, ranked: Vec<(String, String)>) -> Self {
        let (doc, groups, rows, next, previous) = (None, Vec::new(), Vec::new(), None, None);
        let (table, pk, limit, group) = (ask.table.as_str(), ask.pk.as_str(), ask.limit, ask.group);
        BrowsePage { frame, table, pk, limit, doc, groups, rows, group, sharded: false, next, previous, error, ranked }
    }
}

/// The lock's ranked layouts and their fields.
fn ranked(app: &App) -> Vec<(String, String)> {
    app.context().lock.ranks.iter().map(|r| (r.layout.clone(), r.field.clone())).collect()
}

/// A partition, one page at a time, its keys decoded by the lock's layouts: the query string
/// read into the command's ask (`sortkey browse`), answered as the command answers it.
pub(crate) struct BrowseView;

impl AskPage for BrowseView {
    type Ask = BrowseAsk;
    type Answer = BrowseDocument;
    const NAME: &'static str = "browse";
    const PATH: &'static str = "/browse";

    fn read(_: &App, raw: &str) -> Result<BrowseAsk, AskError> {
        read_query(Some(raw))
    }

    /// No partition asked for yet: the form alone.
    fn asked(ask: &BrowseAsk) -> bool {
        !(ask.table.is_empty() && ask.pk.is_empty())
    }

    fn command(app: &App, ask: &BrowseAsk) -> String {
        ask.command_line(&app.context()).to_string()
    }

    async fn answer(app: &App, ask: &BrowseAsk) -> Result<(BrowseDocument, f64), AskError> {
        browse::answer(&app.client, &app.context(), ask).await
    }

    fn json(doc: &BrowseDocument) -> Response {
        as_json(doc)
    }

    fn html(app: &App, frame: Frame, ask: &BrowseAsk, answer: Option<Result<BrowseDocument, String>>) -> Response {
        let doc = match answer {
            None => return as_html(&BrowsePage::form(frame, ask, None, ranked(app))),
            Some(Err(e)) => return as_html(&BrowsePage::form(frame, ask, Some(e), ranked(app))),
            Some(Ok(doc)) => doc,
        };
        // A page read backwards is shown in the partition's order (the page before); a read of a
        // layout's versions backward, in its own order (highest first).
        let mut shown = doc;
        if ask.reverse && ask.layout.is_none() {
            shown.items.reverse();
        }
        let (groups, rows) = if ask.group { (shown.groups(), Vec::new()) } else { (Vec::new(), shown.rows()) };
        let (next, previous) = links(ask, &shown);
        as_html(&BrowsePage {
            frame,
            table: &ask.table,
            pk: &ask.pk,
            limit: ask.limit,
            doc: Some(&shown),
            groups,
            rows,
            group: ask.group,
            sharded: shown.shards.is_some(),
            next,
            previous,
            error: None,
            ranked: ranked(app),
        })
    }
}

/// The links of a browse page to the page after it and the page before it: the same ask, after
/// the last (or before the first) item shown.
fn links(ask: &BrowseAsk, shown: &BrowseDocument) -> (Option<String>, Option<String>) {
    let items = shown.items.as_slice();
    let full = items.len() == ask.limit;
    let link = |after: &str, reverse: bool| {
        browse_link(&BrowseAsk { after: Some(after.to_owned()), reverse, format: None, ..ask.clone() })
    };
    // A merged read of a sharded partition pages by its cursor, `<shard>:<sort key>`.
    let merged = shown.shards.is_some() && ask.shard.is_none() && shown.next.as_deref().is_none_or(|n| n.contains(':'));
    let after_of = |i: &browse::BrowseItem| match (merged, i.shard) {
        (true, Some(shard)) => format!("{shard}:{}", i.sk),
        _ => i.sk.clone(),
    };
    match ask.layout {
        // A read across a layout's versions pages on in its direction by its document's cursor
        // (a key in the current layout), the layout kept.
        Some(_) => (shown.next.as_deref().map(|n| link(n, ask.reverse)), None),
        None => (
            // A merged read knows whether anything follows (its `next`); a partition's page, by
            // being full (a page read backward always has the rest after it).
            items
                .last()
                .filter(|_| if merged && !ask.reverse { shown.next.is_some() } else { full || ask.reverse })
                .map(|i| link(&after_of(i), false)),
            items.first().filter(|_| ask.after.is_some()).map(|i| link(&after_of(i), true)),
        ),
    }
}
