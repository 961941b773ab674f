//! What the subcommands ask of a table: its key attributes and its item count.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{KeySchemaElement, KeyType, TableDescription};
use sortkey_core::KeyNames;

use crate::outcome::AskError;

/// The key attributes of a table (or of its global secondary index `index`), from DescribeTable.
pub(crate) async fn key_names(
    client: &Client,
    table_name: &str,
    index: Option<&str>,
) -> Result<(String, Option<String>), AskError> {
    let table = describe(client, table_name).await?;
    let schema = match &index {
        None => table.key_schema(),
        Some(index) => table
            .global_secondary_indexes()
            .iter()
            .find(|i| i.index_name() == Some(*index))
            .map(|i| i.key_schema())
            .ok_or_else(|| AskError::not_found(format!("table {table_name} has no global secondary index {index}")))?,
    };
    match key_attributes(schema) {
        (Some(pk), sk) => Ok((pk, sk)),
        (None, _) => Err(AskError::refused(format!("table {table_name} has no partition key"))),
    }
}

/// The table's description, from DescribeTable.
async fn describe(client: &Client, table_name: &str) -> Result<TableDescription, AskError> {
    let described = client
        .describe_table()
        .table_name(table_name)
        .send()
        .await
        .map_err(|e| AskError::request(format!("cannot describe table {table_name}"), &e))?;
    described.table.ok_or_else(|| AskError::refused(format!("table {table_name} has no description")))
}

/// The partition and the sort key attributes a key schema names.
pub(crate) fn key_attributes(schema: &[KeySchemaElement]) -> (Option<String>, Option<String>) {
    let named = |ty: KeyType| schema.iter().find(|k| k.key_type() == &ty).map(|k| k.attribute_name().to_owned());
    (named(KeyType::Hash), named(KeyType::Range))
}

/// The table's item count as DescribeTable estimates it (updated about every six hours), for a
/// progress bar; `None` when it is not known.
pub(crate) async fn item_count(client: &Client, table_name: &str) -> Option<u64> {
    let described = client.describe_table().table_name(table_name).send().await.ok()?;
    described.table()?.item_count().and_then(|n| u64::try_from(n).ok())
}

/// A table's key attribute names as sortkey-core's `KeyNames`, which holds `&'static str`: the
/// names are kept for the rest of the process (a few bytes, once per table).
pub(crate) fn static_key_names(pk: String, sk: Option<String>) -> KeyNames {
    let pk: &'static str = Box::leak(pk.into_boxed_str());
    match sk {
        Some(sk) => KeyNames::new(pk, Box::leak(sk.into_boxed_str())),
        None => KeyNames::partition_only(pk),
    }
}

/// The global secondary index of `table_name` whose key schema names `attribute`, with its key
/// attributes; `None` when no index has it.
pub(crate) async fn index_keyed_by(
    client: &Client,
    table_name: &str,
    attribute: &str,
) -> Result<Option<(String, (Option<String>, Option<String>))>, AskError> {
    let table = describe(client, table_name).await?;
    let indexes = table.global_secondary_indexes();
    Ok(indexes.iter().find_map(|i| {
        let keys = key_attributes(i.key_schema());
        let named = keys.0.as_deref() == Some(attribute) || keys.1.as_deref() == Some(attribute);
        named.then(|| (i.index_name().unwrap_or_default().to_owned(), keys))
    }))
}
