//! `sortkey tables`: the tables the connection sees (or those named), each with its key schema,
//! its global secondary indexes and its item count, as DescribeTable gives them. What the web
//! view's overview shows beside the lock.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::KeySchemaElement;
use serde::{Deserialize, Serialize};

use crate::ask::{AskError, Context, TablesAsk};
use crate::output::{self, Answer, Document, format_tag, outln};
use crate::session::Session;
use crate::table;

format_tag! {
    /// The tables' format.
    TablesFormat = "sortkey tables 2"
}

/// The report of `sortkey tables`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct TablesDocument {
    pub(crate) format: TablesFormat,
    pub(crate) tables: Vec<TableReport>,
    /// The `sortkey tables` command line that gives this document, as its arguments.
    #[serde(default)]
    pub(crate) command: Vec<String>,
}

/// One table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct TableReport {
    pub(crate) name: String,
    /// Its key attributes: the partition key's and the sort key's (none for a partition key alone).
    pub(crate) partition_key: String,
    pub(crate) sort_key: Option<String>,
    /// Its global secondary indexes, each with its key attributes.
    pub(crate) indexes: Vec<IndexReport>,
    /// DescribeTable's item count (updated about every six hours).
    pub(crate) items: u64,
}

/// One global secondary index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct IndexReport {
    pub(crate) name: String,
    pub(crate) partition_key: String,
    pub(crate) sort_key: Option<String>,
}

/// Prints the tables.
pub(crate) fn run(session: &Session, ask: &TablesAsk) -> Result<Answer, AskError> {
    let doc = session.runtime.block_on(async { answer(&session.client().await, &session.context(), ask).await })?;
    Ok(Answer::of(doc))
}

/// The answer to a tables ask, the command's and the overview's.
pub(crate) async fn answer(client: &Client, ctx: &Context<'_>, ask: &TablesAsk) -> Result<TablesDocument, AskError> {
    ask.validate(ctx)?;
    let doc = document(client, &ask.table).await?;
    Ok(TablesDocument { command: ask.command_line(ctx).argv, ..doc })
}

/// The document of `names` (every table the connection sees when empty, by ListTables).
pub(crate) async fn document(client: &Client, names: &[String]) -> Result<TablesDocument, AskError> {
    let names = if names.is_empty() { list(client).await? } else { names.to_vec() };
    let mut tables = Vec::new();
    for name in names {
        tables.push(describe(client, &name).await?);
    }
    Ok(TablesDocument { format: TablesFormat, tables, command: Vec::new() })
}

async fn list(client: &Client) -> Result<Vec<String>, AskError> {
    let (mut names, mut start) = (Vec::new(), None);
    loop {
        let page = client
            .list_tables()
            .set_exclusive_start_table_name(start.take())
            .send()
            .await
            .map_err(|e| AskError::request("cannot list the tables", &e))?;
        names.extend(page.table_names().iter().cloned());
        match page.last_evaluated_table_name() {
            Some(last) => start = Some(last.to_owned()),
            None => return Ok(names),
        }
    }
}

async fn describe(client: &Client, name: &str) -> Result<TableReport, AskError> {
    let described = client
        .describe_table()
        .table_name(name)
        .send()
        .await
        .map_err(|e| AskError::request(format!("cannot describe table {name}"), &e))?;
    let t = described.table().ok_or_else(|| AskError::refused(format!("table {name} has no description")))?;
    let (partition_key, sort_key) = keys(t.key_schema());
    let indexes = t
        .global_secondary_indexes()
        .iter()
        .map(|i| {
            let (partition_key, sort_key) = keys(i.key_schema());
            IndexReport { name: i.index_name().unwrap_or_default().to_owned(), partition_key, sort_key }
        })
        .collect();
    let items = t.item_count().and_then(|n| u64::try_from(n).ok()).unwrap_or_default();
    Ok(TableReport { name: name.to_owned(), partition_key, sort_key, indexes, items })
}

/// The partition and sort key attributes of a key schema (the partition key's always named).
fn keys(schema: &[KeySchemaElement]) -> (String, Option<String>) {
    let (pk, sk) = table::key_attributes(schema);
    (pk.unwrap_or_default(), sk)
}

impl Document for TablesDocument {
    fn print_table(&self) {
        let mut t = output::table(&["table", "partition key", "sort key", "index", "items"]);
        for table in &self.tables {
            let sort = table.sort_key.clone().unwrap_or_default();
            t.add_row([table.name.clone(), table.partition_key.clone(), sort, String::new(), table.items.to_string()]);
            for i in &table.indexes {
                let sort = i.sort_key.clone().unwrap_or_default();
                t.add_row([String::new(), i.partition_key.clone(), sort, i.name.clone(), String::new()]);
            }
        }
        outln!("{t}");
    }
}
