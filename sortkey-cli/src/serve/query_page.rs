//! The expression builder: a layout's fields in order, each a comparison and a value typed as the
//! layout says; the `KeyConditionExpression` they make (the library's, with its refusals), the
//! request as an AWS CLI and as a `sortkey query` command, and, on a table's partition, the
//! matching items across the layout's versions. Live with htmx as the user types; a form without.

use std::collections::HashMap;

use askama::Template;
use axum::response::Response;

use crate::ask::QueryAsk;
use crate::browse::BrowseDocument;
use crate::outcome::AskError;
use crate::query::{self, QueryAnswer, QueryDocument};
use crate::serve::app::App;
use crate::serve::ask_page::AskPage;
use crate::serve::filters;
use crate::serve::pages::{Frame, as_html, as_json, read_query};

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
pub(crate) struct QueryView;

/// The query page's form as sent (its fields show again as the user typed them, a refused ask
/// included), and the command's ask read from it.
#[derive(Default)]
pub(crate) struct QueryForm {
    form: HashMap<String, String>,
    ask: Option<Result<QueryAsk, AskError>>,
}

impl AskPage for QueryView {
    type Ask = QueryForm;
    type Answer = (QueryAsk, QueryAnswer);
    const NAME: &'static str = "query";
    const PATH: &'static str = "/query";

    fn read(app: &App, raw: &str) -> Result<QueryForm, AskError> {
        let form: HashMap<String, String> = read_query(Some(raw))?;
        let ask = Some(QueryAsk::from_form(&app.context(), &form));
        Ok(QueryForm { form, ask })
    }

    /// The builder always shows an expression (a partition `PK` stands in for none).
    fn asked(_: &QueryForm) -> bool {
        true
    }

    fn command(app: &App, form: &QueryForm) -> String {
        match &form.ask {
            Some(Ok(ask)) => ask.command_line(&app.context()).to_string(),
            _ => String::new(),
        }
    }

    async fn answer(app: &App, form: &QueryForm) -> Result<((QueryAsk, QueryAnswer), f64), AskError> {
        let ask = match &form.ask {
            Some(Ok(ask)) => ask.clone(),
            Some(Err(e)) => return Err(e.clone()),
            None => return Err(AskError::bad("expected a query")),
        };
        let answered = query::answer(Some(&app.client), &app.context(), &ask).await?;
        let units = answered.read_units;
        Ok(((ask, answered), units))
    }

    fn json((_, answered): &(QueryAsk, QueryAnswer)) -> Response {
        match &answered.items {
            Some(found) => as_json(found),
            None => as_json(&answered.condition),
        }
    }

    fn html(
        app: &App,
        frame: Frame,
        form: &QueryForm,
        answer: Option<Result<(QueryAsk, QueryAnswer), String>>,
    ) -> Response {
        let form = &form.form;
        let get = |k: &str| form.get(k).cloned().unwrap_or_default();
        let layout = form.get("layout").cloned().or_else(|| app.lock.entries.first().map(|(n, _)| n.clone()));
        let layout = layout.unwrap_or_default();
        let (table, pk) = (get("table"), get("pk"));
        let fields = field_rows(app, &layout, form);
        let (mut doc, mut items, mut error, mut aws, mut older_aws) = (None, None, None, String::new(), Vec::new());
        match answer {
            Some(Ok((ask, answered))) => {
                let ctx = app.context();
                aws = query::aws_command_line(&ctx, ask.table.as_deref(), &answered.condition).to_string();
                older_aws =
                    answered.older_queries.iter().map(|(layout, line)| (layout.clone(), line.to_string())).collect();
                doc = Some(answered.condition);
                items = answered.items;
            }
            Some(Err(e)) => error = Some(e),
            None => {}
        }
        let layouts = app.lock.entries.iter().map(|(n, _)| n.clone()).collect();
        // The next page: the same form, after this page's last result.
        let next = items.as_ref().and_then(|found| found.next.as_deref()).map(|after| {
            let mut next: std::collections::BTreeMap<&str, &str> =
                form.iter().filter(|(k, _)| *k != "format").map(|(k, v)| (k.as_str(), v.as_str())).collect();
            next.insert("after", after);
            format!("/query?{}", serde_urlencoded::to_string(next).unwrap_or_default())
        });
        let reverse = form.get("reverse").is_some_and(|r| r == "on" || r == "true");
        as_html(&QueryPage {
            frame,
            layouts,
            layout,
            table,
            pk,
            fields,
            doc,
            items,
            next,
            aws,
            older_aws,
            reverse,
            error,
        })
    }
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
