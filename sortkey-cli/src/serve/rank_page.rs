//! The rank page: a value's (or a whole key's) rank on a table's partition, every shard of it,
//! read from the rank counters as `sortkey rank` reads it; the browse page's rank box asks it.

use askama::Template;
use axum::response::Response;

use crate::ask::{BrowseAsk, DEFAULT_ITEMS, RankForm};
use crate::outcome::AskError;
use crate::rank::{self, RankDocument};
use crate::serve::app::App;
use crate::serve::ask_page::AskPage;
use crate::serve::pages::{Frame, as_html, as_json, browse_link, read_query};

#[derive(Template)]
#[template(path = "rank.html")]
struct RankPage<'a> {
    frame: Frame,
    form: &'a RankForm,
    /// The lock's ranked layouts, `Layout.field`, for the form's choice.
    ranked: Vec<(String, String)>,
    doc: Option<RankDocument>,
    /// The partition's page that starts at the key ranked.
    browse: Option<String>,
    error: Option<String>,
}

/// A rank: the form read into the command's ask (`sortkey rank`), answered as the command
/// answers it.
pub(crate) struct RankView;

impl AskPage for RankView {
    type Ask = RankForm;
    type Answer = RankDocument;
    const NAME: &'static str = "rank";
    const PATH: &'static str = "/rank";

    fn read(_: &App, raw: &str) -> Result<RankForm, AskError> {
        read_query(Some(raw))
    }

    fn asked(form: &RankForm) -> bool {
        form.asked()
    }

    fn command(app: &App, form: &RankForm) -> String {
        form.ask(&app.context()).map(|ask| ask.command_line(&app.context()).to_string()).unwrap_or_default()
    }

    async fn answer(app: &App, form: &RankForm) -> Result<(RankDocument, f64), AskError> {
        let ctx = app.context();
        let doc = rank::answer(&app.client, &ctx, &form.ask(&ctx)?).await?;
        let units = doc.read_units;
        Ok((doc, units))
    }

    fn json(doc: &RankDocument) -> Response {
        as_json(doc)
    }

    fn html(app: &App, frame: Frame, form: &RankForm, answer: Option<Result<RankDocument, String>>) -> Response {
        let ranked = app.context().lock.ranks.iter().map(|r| (r.layout.clone(), r.field.clone())).collect();
        let (doc, error) = match answer {
            None => (None, None),
            Some(Ok(doc)) => (Some(doc), None),
            Some(Err(e)) => (None, Some(e)),
        };
        // The partition's page from the key ranked on: the items after it in the read's order.
        let browse = doc.as_ref().filter(|d| d.board.partitions.len() == 1).map(|d| {
            browse_link(&BrowseAsk {
                table: d.board.table.clone(),
                pk: d.board.pk.clone(),
                after: Some(d.key.clone()),
                reverse: form.reverse,
                limit: DEFAULT_ITEMS,
                ..BrowseAsk::default()
            })
        });
        as_html(&RankPage { frame, form, ranked, doc, browse, error })
    }
}
