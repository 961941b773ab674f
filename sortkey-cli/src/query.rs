//! `sortkey query`: the expression builder. Conditions on a layout's fields by name, typed as
//! the layout says, built by sortkey-core's `DynQuery` (the derived builder's rules and
//! refusals), printed as the Query's KeyConditionExpression with its names and values.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::Client;
use serde::{Deserialize, Serialize};
use sortkey_core::{KeyCondition, KeyExpression, LiveLayouts};

use crate::ask::{AskError, CommandLine, Context, QueryAsk};
use crate::browse::{BrowseDocument, Target};
use crate::output::{Answer, Document, format_tag, outln};
use crate::session::Session;
use crate::{browse, output};

/// What a query ask is answered with: its condition as Query parameters and, with a table, the
/// items it selects across the layout's versions and the read units the Queries spent.
pub(crate) struct QueryAnswer {
    pub(crate) condition: QueryDocument,
    pub(crate) items: Option<BrowseDocument>,
    pub(crate) read_units: f64,
    /// With a table, the Query of each older live version of the layout that the condition
    /// reaches (its own condition, in its own layout), as an AWS CLI command line: with the
    /// condition's own, every Query the items were read by.
    pub(crate) older_queries: Vec<(String, CommandLine)>,
}

/// Prints the KeyConditionExpression of the arguments, or with `--table` runs it on every live
/// version of the layout and prints the items.
pub(crate) fn run(session: &Session, ask: &QueryAsk) -> Result<Answer, AskError> {
    let answered = session.runtime.block_on(async {
        let client = match ask.table {
            Some(_) => Some(session.client().await),
            None => None,
        };
        answer(client.as_ref(), &session.context(), ask).await
    })?;
    Ok(match answered.items {
        Some(items) => Answer::of(items),
        None => Answer::of(answered.condition),
    })
}

/// The answer to a query ask, the command's and the page's: the condition the library builds,
/// and with a table (and a client) the items it selects on the table's partition.
pub(crate) async fn answer(
    client: Option<&Client>,
    ctx: &Context<'_>,
    ask: &QueryAsk,
) -> Result<QueryAnswer, AskError> {
    let (condition, fields) = ask.validate(ctx)?;
    let expression = condition.with_partition_key(&ask.pk_attr, &ask.pk, &ask.sk_attr);
    let mut doc = QueryDocument::new(&condition, expression);
    doc.command = ask.command_line(ctx).argv;
    doc.aws_command = aws_command_line(ctx, ask.table.as_deref(), &doc).argv;
    let mut answered = QueryAnswer { condition: doc, items: None, read_units: 0.0, older_queries: Vec::new() };
    if let (Some(table), Some(client)) = (&ask.table, client) {
        let live = LiveLayouts::new(ctx.lock.live(&ask.layout));
        let conditions = live.conditions(&fields).map_err(|e| AskError::bad(e.to_string()))?;
        for ((name, _), condition) in live.layouts().iter().zip(&conditions).skip(1) {
            if let Some(c) = condition {
                let older = QueryDocument::new(c, c.with_partition_key(&ask.pk_attr, &ask.pk, &ask.sk_attr));
                answered.older_queries.push(((*name).to_owned(), aws_command_line(ctx, Some(table), &older)));
            }
        }
        let after = ask.after.as_deref();
        let target = Target { table, index: ask.index.as_deref(), pk: &ask.pk, after, shard: ask.shard };
        let (doc, units) =
            browse::query_versions(client, &target, ctx.lock, &ask.layout, &fields, (ask.limit, ask.reverse)).await?;
        answered.items = Some(BrowseDocument { command: ask.command_line(ctx).argv, ..doc });
        answered.read_units = units;
    }
    Ok(answered)
}

/// The Query of `doc` on `table` (`TABLE` when none is given) as an AWS CLI command line, with
/// the ask's connection options.
pub(crate) fn aws_command_line(ctx: &Context<'_>, table: Option<&str>, doc: &QueryDocument) -> CommandLine {
    let names = serde_json::to_string(&doc.names).unwrap_or_default();
    let values = serde_json::to_string(&doc.values).unwrap_or_default();
    let mut line = CommandLine::new("aws");
    line.arg("dynamodb").arg("query");
    line.option("--table-name", table.unwrap_or("TABLE"))
        .option("--key-condition-expression", &doc.key_condition_expression)
        .option("--expression-attribute-names", names)
        .option("--expression-attribute-values", values)
        .option_if("--endpoint-url", ctx.endpoint)
        .option_if("--region", ctx.region)
        .option_if("--profile", ctx.profile);
    line
}

format_tag! {
    /// The query report's format.
    QueryFormat = "sortkey query 2"
}

/// The report of `sortkey query` without a table: the condition and its Query parameters, in the
/// shape of the AWS CLI's `--key-condition-expression`, `--expression-attribute-names` and
/// `--expression-attribute-values`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct QueryDocument {
    pub(crate) format: QueryFormat,
    /// The sort key condition, as sortkey-core shows it.
    pub(crate) condition: String,
    #[serde(rename = "KeyConditionExpression")]
    pub(crate) key_condition_expression: String,
    #[serde(rename = "ExpressionAttributeNames")]
    pub(crate) names: BTreeMap<String, String>,
    #[serde(rename = "ExpressionAttributeValues")]
    pub(crate) values: BTreeMap<String, StringValue>,
    /// The `sortkey query` command line that gives this document, as its arguments.
    pub(crate) command: Vec<String>,
    /// The same Query as an `aws dynamodb query` command line, as its arguments (the table
    /// `TABLE` when the ask names none).
    pub(crate) aws_command: Vec<String>,
}

/// A string value in DynamoDB JSON: `{"S": "..."}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StringValue {
    #[serde(rename = "S")]
    pub(crate) s: String,
}

impl QueryDocument {
    pub(crate) fn new(condition: &KeyCondition, expression: KeyExpression) -> QueryDocument {
        QueryDocument {
            format: QueryFormat,
            condition: condition.to_string(),
            key_condition_expression: expression.expression,
            names: expression.names.into_iter().collect(),
            values: expression.values.into_iter().map(|(p, s)| (p, StringValue { s })).collect(),
            command: Vec::new(),
            aws_command: Vec::new(),
        }
    }
}

impl Document for QueryDocument {
    fn print_table(&self) {
        outln!("KeyConditionExpression: {}", self.key_condition_expression);
        let mut table = output::table(&["placeholder", "is"]);
        for (placeholder, name) in &self.names {
            table.add_row([placeholder.clone(), name.clone()]);
        }
        for (placeholder, value) in &self.values {
            table.add_row([placeholder.clone(), format!("{:?}", value.s)]);
        }
        outln!("{table}");
    }
}
