//! `sortkey browse`: one partition in DynamoDB's order, its sort keys decoded by the lock's
//! layouts into aligned columns, one table per layout (a family's variants each as their own),
//! the raw key beside; keys no layout reads with their error.

use aws_sdk_dynamodb::types::AttributeValue;
use serde_json::{Value, json};
use sortkey_core::dynamodb::sdk_error_line;
use sortkey_core::{DynLayout, DynValue, KeyCondition, KeyRole};

use crate::cli::{Args, BrowseArgs, Output};
use crate::outcome::Failure;
use crate::output::outln;
use crate::table::key_names;
use crate::{connect, lock, output};

/// One sort key as read: by which layout (and variant), its fields by path, or why none reads it.
pub(crate) struct Row {
    key: String,
    read: Result<(String, Vec<(String, Value)>), String>,
}

/// Queries the partition and prints its items.
pub(crate) fn run(args: &Args, browse: &BrowseArgs) -> Result<(), Failure> {
    let lock = lock::read(&args.lock)?;
    let runtime = tokio::runtime::Runtime::new()?;
    let keys = runtime.block_on(query(
        args,
        &browse.table,
        browse.index.as_deref(),
        &browse.pk,
        None,
        (browse.limit, browse.reverse),
    ))?;
    print(args, &browse.table, &browse.pk, &rows(&lock, keys));
    Ok(())
}

/// Sort keys read by the lock's sort key layouts.
pub(crate) fn rows(lock: &sortkey_core::LockFile, keys: Vec<String>) -> Vec<Row> {
    let layouts: Vec<&(String, DynLayout)> = lock.entries.iter().filter(|(_, l)| l.role == KeyRole::Sort).collect();
    keys.into_iter().map(|key| read(&layouts, key)).collect()
}

/// The sort keys of partition `pk` (under `condition` when given), in DynamoDB's order.
pub(crate) async fn query(
    args: &Args,
    table: &str,
    index: Option<&str>,
    pk: &str,
    condition: Option<&KeyCondition>,
    (limit, reverse): (usize, bool),
) -> Result<Vec<String>, Failure> {
    let client = connect::client(args).await;
    let (pk_attr, sk_attr) = key_names(&client, table, index).await?;
    let sk_attr = sk_attr.ok_or_else(|| Failure(format!("table {table} has no sort key to browse")))?;
    let expression = match condition {
        Some(condition) => condition.with_partition_key(&pk_attr, pk, &sk_attr),
        None => KeyCondition::BeginsWith(String::new()).with_partition_key(&pk_attr, pk, &sk_attr),
    };
    // The partition alone when there is no sort key condition.
    let (text, values) = match condition {
        Some(_) => (expression.expression.clone(), expression.values.clone()),
        None => ("#pk = :pk".to_owned(), expression.values[..1].to_vec()),
    };
    let mut keys = Vec::new();
    let mut start = None;
    loop {
        let mut request = client
            .query()
            .table_name(table)
            .key_condition_expression(&text)
            .scan_index_forward(!reverse)
            .set_index_name(index.map(str::to_owned))
            .set_exclusive_start_key(start.take());
        for (placeholder, name) in &expression.names {
            if text.contains(placeholder.as_str()) {
                request = request.expression_attribute_names(placeholder, name);
            }
        }
        for (placeholder, value) in &values {
            request = request.expression_attribute_values(placeholder, AttributeValue::S(value.clone()));
        }
        let page =
            request.send().await.map_err(|e| Failure(format!("cannot query {table}: {}", sdk_error_line(&e))))?;
        for item in page.items() {
            if let Some(AttributeValue::S(sk)) = item.get(&sk_attr) {
                keys.push(sk.clone());
            }
            if keys.len() == limit {
                return Ok(keys);
            }
        }
        start = page.last_evaluated_key().cloned();
        if start.is_none() {
            return Ok(keys);
        }
    }
}

/// `key` read by the first layout that reads it.
fn read(layouts: &[&(String, DynLayout)], key: String) -> Row {
    let mut closest: Option<(usize, String)> = None;
    for (name, layout) in layouts {
        match layout.decode(&key) {
            Ok(value) => {
                let mut fields = Vec::new();
                let group = flatten(&value, "", name, &mut fields);
                return Row { key, read: Ok((group, fields)) };
            }
            Err(e) if closest.as_ref().is_none_or(|(offset, _)| e.offset() > *offset) => {
                closest = Some((e.offset(), e.to_string()));
            }
            Err(_) => {}
        }
    }
    let error = closest.map_or_else(|| "no sort key layout in the lock".to_owned(), |(_, e)| e);
    Row { key, read: Err(error) }
}

/// The fields of `value` by path into `out`; the group the row belongs to (the layout, and a
/// family's variant).
fn flatten(value: &DynValue, path: &str, group: &str, out: &mut Vec<(String, Value)>) -> String {
    let join = |name: &str| if path.is_empty() { name.to_owned() } else { format!("{path}.{name}") };
    match value {
        DynValue::Key(fields) => {
            for (name, field) in fields {
                match field {
                    DynValue::Key(_) => {
                        flatten(field, &join(name), group, out);
                    }
                    _ => out.push((join(name), serde_json::to_value(field).unwrap_or_default())),
                }
            }
            group.to_owned()
        }
        DynValue::Variant(name, None) => format!("{group} {name}"),
        DynValue::Variant(name, Some(inner)) => flatten(inner, path, &format!("{group} {name}"), out),
        other => {
            out.push((path.to_owned(), serde_json::to_value(other).unwrap_or_default()));
            group.to_owned()
        }
    }
}

/// A value in a cell: text as it is, anything else as JSON.
fn cell(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => "null".to_owned(),
        other => other.to_string(),
    }
}

pub(crate) fn print(args: &Args, table: &str, pk: &str, rows: &[Row]) {
    match args.output() {
        Output::Json => {
            let items: Vec<Value> = rows
                .iter()
                .map(|row| match &row.read {
                    Ok((layout, fields)) => {
                        let fields: serde_json::Map<String, Value> = fields.iter().cloned().collect();
                        json!({ "sk": row.key, "layout": layout, "fields": fields })
                    }
                    Err(error) => json!({ "sk": row.key, "layout": null, "error": error }),
                })
                .collect();
            output::print_json(&json!({ "table": table, "pk": pk, "items": items }));
        }
        Output::Table => {
            outln!("{table} `{pk}`: {} items", rows.len());
            // One table per group, in the order each group first appears; rows in DynamoDB's.
            let mut groups: Vec<&str> = Vec::new();
            for row in rows {
                let group = row.read.as_ref().map_or("", |(g, _)| g.as_str());
                if !groups.contains(&group) {
                    groups.push(group);
                }
            }
            for group in groups {
                let members = rows.iter().filter(|r| r.read.as_ref().map_or("", |(g, _)| g.as_str()) == group);
                if group.is_empty() {
                    let mut t = output::table(&["no layout reads", "error"]);
                    for row in members {
                        t.add_row([row.key.clone(), row.read.as_ref().err().cloned().unwrap_or_default()]);
                    }
                    outln!("{t}");
                    continue;
                }
                let mut header: Vec<String> = Vec::new();
                let mut table_rows = Vec::new();
                for row in members {
                    let Ok((_, fields)) = &row.read else { continue };
                    if header.is_empty() {
                        header = fields.iter().map(|(p, _)| p.clone()).collect();
                    }
                    let mut cells: Vec<String> = fields.iter().map(|(_, v)| cell(v)).collect();
                    cells.push(row.key.clone());
                    table_rows.push(cells);
                }
                outln!("{group}");
                let mut names: Vec<&str> = header.iter().map(String::as_str).collect();
                names.push("sk");
                let mut t = output::table(&names);
                for cells in table_rows {
                    t.add_row(cells);
                }
                outln!("{t}");
            }
        }
    }
}
