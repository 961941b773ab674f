//! The operations: each request's JSON answered from the tables held in memory, or refused with
//! DynamoDB's error. Every write is checked whole before anything changes, so a refused request
//! (a failed condition, a cancelled transaction) changes nothing.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::error::DynamoError;
use crate::expr::{self, Placeholders};
use crate::table::{Keys, Table};
use crate::value::{Item, KeyVal, item_size, valid_number};

/// The tables.
#[derive(Debug, Clone, Default)]
pub(crate) struct State {
    pub(crate) tables: BTreeMap<String, Table>,
}

/// The largest item DynamoDB stores.
const ITEM_BYTES: usize = 400 * 1024;

/// Answers one request of operation `op` (the `X-Amz-Target` after the dot).
pub(crate) fn handle(state: &mut State, op: &str, request: &Value) -> Result<Value, DynamoError> {
    match op {
        "CreateTable" => create_table(state, request),
        "DescribeTable" => Ok(json!({ "Table": table(state, request)?.describe() })),
        "DeleteTable" => {
            let name = table_name(request)?;
            let t = state.tables.remove(&name).ok_or_else(DynamoError::not_found)?;
            Ok(json!({ "TableDescription": t.describe() }))
        }
        "ListTables" => {
            let after = request["ExclusiveStartTableName"].as_str();
            let limit = request["Limit"].as_u64().unwrap_or(100) as usize;
            let names: Vec<&String> = state.tables.keys().filter(|n| after.is_none_or(|a| n.as_str() > a)).collect();
            let page: Vec<&String> = names.iter().take(limit).copied().collect();
            let mut out = json!({ "TableNames": page });
            if names.len() > limit {
                out["LastEvaluatedTableName"] = json!(page.last());
            }
            Ok(out)
        }
        "PutItem" => put_item(state, request),
        "GetItem" => get_item(state, request),
        "UpdateItem" => update_item(state, request),
        "DeleteItem" => delete_item(state, request),
        "Query" => query(state, request),
        "Scan" => scan(state, request),
        "BatchGetItem" => batch_get(state, request),
        "TransactGetItems" => transact_get(state, request),
        "BatchWriteItem" => batch_write(state, request),
        "TransactWriteItems" => transact_write(state, request),
        _ => Err(DynamoError::new("UnknownOperationException", format!("the simulator does not answer {op}"))),
    }
}

fn table_name(request: &Value) -> Result<String, DynamoError> {
    request["TableName"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| DynamoError::validation("1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null".to_owned()))
}

fn table<'s>(state: &'s State, request: &Value) -> Result<&'s Table, DynamoError> {
    state.tables.get(&table_name(request)?).ok_or_else(DynamoError::not_found)
}

fn create_table(state: &mut State, request: &Value) -> Result<Value, DynamoError> {
    let name = table_name(request)?;
    if state.tables.contains_key(&name) {
        return Err(DynamoError::new("ResourceInUseException", format!("Table already exists: {name}")));
    }
    let t = Table::create(request)?;
    let description = t.describe();
    state.tables.insert(name, t);
    Ok(json!({ "TableDescription": description }))
}

/// The item map of a member (`Item`, `Key`).
fn item_of(value: &Value) -> Item {
    value.as_object().map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()).unwrap_or_default()
}

/// The key values of a `Key` member, checked against the schema: exactly its attributes, of
/// their defined types.
fn key_of(keys: &Keys, key: &Item) -> Result<(KeyVal, KeyVal), DynamoError> {
    let wrong = || DynamoError::validation("The provided key element does not match the schema".to_owned());
    if key.len() != keys.names().count() {
        return Err(wrong());
    }
    let (pk, sk) = keys.of(key).ok_or_else(wrong)?;
    check_key_value(&pk)?;
    check_key_value(&sk)?;
    Ok((pk, sk))
}

fn check_key_value(value: &KeyVal) -> Result<(), DynamoError> {
    match value {
        KeyVal::S(s) if s.is_empty() => Err(DynamoError::validation(
            "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value.".to_owned(),
        )),
        KeyVal::N(n) if !valid_number(n) => Err(DynamoError::validation(format!(
            "The parameter cannot be converted to a numeric value: {n}"
        ))),
        _ => Ok(()),
    }
}

/// An item to write, checked: its key attributes of the schema's types, numbers that are numbers,
/// 400 KB at most.
fn checked_item(t: &Table, item: &Item) -> Result<(KeyVal, KeyVal), DynamoError> {
    for name in t.keys.names().chain(t.indexes.iter().flat_map(|i| i.keys.names())) {
        if let Some(v) = item.get(name)
            && KeyVal::of(v).is_none()
        {
            return Err(DynamoError::validation(format!(
                "One or more parameter values were invalid: Type mismatch for key {name}"
            )));
        }
    }
    for (name, value) in item {
        if let Some(n) = value.get("N").and_then(Value::as_str)
            && !valid_number(n)
        {
            return Err(DynamoError::validation(format!(
                "The parameter cannot be converted to a numeric value: {n} (attribute {name})"
            )));
        }
    }
    let key = t.keys.of(item).ok_or_else(|| {
        let missing = t.keys.names().find(|n| !item.contains_key(*n)).cloned().unwrap_or_default();
        DynamoError::validation(format!(
            "One or more parameter values were invalid: Missing the key {missing} in the item"
        ))
    })?;
    check_key_value(&key.0)?;
    check_key_value(&key.1)?;
    if item_size(item) > ITEM_BYTES {
        return Err(DynamoError::validation("Item size has exceeded the maximum allowed size".to_owned()));
    }
    Ok(key)
}

/// Whether the request's `ConditionExpression` holds for `current` (none: it holds).
fn condition_holds(
    request: &Value,
    places: &mut Placeholders<'_>,
    current: Option<&Item>,
) -> Result<bool, DynamoError> {
    match request["ConditionExpression"].as_str() {
        Some(text) => {
            let cond = expr::parse_condition(text, places)?;
            expr::holds(&cond, current.unwrap_or(&Item::new()))
        }
        None => Ok(true),
    }
}

/// The failed condition's error, with the item when the request asked for it.
fn failed(request: &Value, current: Option<&Item>) -> DynamoError {
    let all_old = request["ReturnValuesOnConditionCheckFailure"].as_str() == Some("ALL_OLD");
    DynamoError::condition_failed(current.filter(|_| all_old))
}

/// The `ConsumedCapacity` member, when the request asked for it.
fn capacity(request: &Value, table: &str, units: f64, out: &mut Value) {
    if matches!(request["ReturnConsumedCapacity"].as_str(), Some("TOTAL") | Some("INDEXES")) {
        out["ConsumedCapacity"] = json!({ "TableName": table, "CapacityUnits": units });
    }
}

fn write_units(bytes: usize) -> f64 {
    bytes.div_ceil(1024).max(1) as f64
}

fn read_units(bytes: usize, consistent: bool) -> f64 {
    let units = bytes.div_ceil(4096).max(1) as f64;
    if consistent { units } else { units / 2.0 }
}

fn put_item(state: &mut State, request: &Value) -> Result<Value, DynamoError> {
    let name = table_name(request)?;
    let t = state.tables.get(&name).ok_or_else(DynamoError::not_found)?;
    let item = item_of(&request["Item"]);
    let key = checked_item(t, &item)?;
    let mut places = Placeholders::of(request);
    let current = t.get(&key).cloned();
    let holds = condition_holds(request, &mut places, current.as_ref())?;
    places.check_all_used()?;
    if !holds {
        return Err(failed(request, current.as_ref()));
    }
    let bytes = item_size(&item).max(current.as_ref().map_or(0, item_size));
    let t = state.tables.get_mut(&name).ok_or_else(DynamoError::not_found)?;
    t.put(key, item);
    let mut out = json!({});
    if request["ReturnValues"].as_str() == Some("ALL_OLD")
        && let Some(old) = current
    {
        out["Attributes"] = json!(old);
    }
    capacity(request, &name, write_units(bytes), &mut out);
    Ok(out)
}

fn get_item(state: &mut State, request: &Value) -> Result<Value, DynamoError> {
    let t = table(state, request)?;
    let key = key_of(&t.keys, &item_of(&request["Key"]))?;
    let mut places = Placeholders::of(request);
    let projection = match request["ProjectionExpression"].as_str() {
        Some(text) => Some(expr::parse_projection(text, &mut places)?),
        None => None,
    };
    places.check_all_used()?;
    let consistent = request["ConsistentRead"].as_bool().unwrap_or(false);
    let found = t.get(&key);
    let mut out = json!({});
    if let Some(item) = found {
        out["Item"] = json!(match &projection {
            Some(paths) => expr::project(item, paths),
            None => item.clone(),
        });
    }
    capacity(request, &t.name, read_units(found.map_or(0, item_size), consistent), &mut out);
    Ok(out)
}

/// The values an update's `ReturnValues` asks for.
fn returned(request: &Value, old: Option<&Item>, new: &Item) -> Option<Item> {
    let changed = |from: &Item, against: Option<&Item>| -> Item {
        from.iter()
            .filter(|(k, v)| against.and_then(|a| a.get(*k)) != Some(*v))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    match request["ReturnValues"].as_str() {
        Some("ALL_NEW") => Some(new.clone()),
        Some("ALL_OLD") => old.cloned(),
        Some("UPDATED_NEW") => Some(changed(new, old)),
        Some("UPDATED_OLD") => old.map(|o| changed(o, Some(new))),
        _ => None,
    }
}

fn update_item(state: &mut State, request: &Value) -> Result<Value, DynamoError> {
    let name = table_name(request)?;
    let t = state.tables.get(&name).ok_or_else(DynamoError::not_found)?;
    let key_item = item_of(&request["Key"]);
    let key = key_of(&t.keys, &key_item)?;
    let (current, new) = updated(t, request, &key_item, &key)?;
    let bytes = item_size(&new).max(current.as_ref().map_or(0, item_size));
    let mut out = json!({});
    if let Some(values) = returned(request, current.as_ref(), &new) {
        out["Attributes"] = json!(values);
    }
    state.tables.get_mut(&name).ok_or_else(DynamoError::not_found)?.put(key, new);
    capacity(request, &name, write_units(bytes), &mut out);
    Ok(out)
}

/// The item before and after an UpdateItem (or a transaction's Update), its condition checked.
fn updated(
    t: &Table,
    request: &Value,
    key_item: &Item,
    key: &(KeyVal, KeyVal),
) -> Result<(Option<Item>, Item), DynamoError> {
    let mut places = Placeholders::of(request);
    let current = t.get(key).cloned();
    let update = match request["UpdateExpression"].as_str() {
        Some(text) => Some(expr::parse_update(text, &mut places)?),
        None => None,
    };
    let holds = condition_holds(request, &mut places, current.as_ref())?;
    places.check_all_used()?;
    if let Some(update) = &update {
        let touched = update.set.iter().map(|(p, _)| p).chain(&update.remove).chain(update.add.iter().map(|(p, _)| p));
        for path in touched {
            if let Some(expr::Step::Key(first)) = path.first()
                && t.keys.names().any(|n| n == first)
            {
                return Err(DynamoError::validation(format!(
                    "One or more parameter values were invalid: Cannot update attribute {first}. This attribute is part of the key"
                )));
            }
        }
    }
    if !holds {
        return Err(failed(request, current.as_ref()));
    }
    let base = current.clone().unwrap_or_else(|| key_item.clone());
    let new = match &update {
        Some(update) => expr::apply(update, &base)?,
        None => base,
    };
    checked_item(t, &new)?;
    Ok((current, new))
}

fn delete_item(state: &mut State, request: &Value) -> Result<Value, DynamoError> {
    let name = table_name(request)?;
    let t = state.tables.get(&name).ok_or_else(DynamoError::not_found)?;
    let key = key_of(&t.keys, &item_of(&request["Key"]))?;
    let mut places = Placeholders::of(request);
    let current = t.get(&key).cloned();
    let holds = condition_holds(request, &mut places, current.as_ref())?;
    places.check_all_used()?;
    if !holds {
        return Err(failed(request, current.as_ref()));
    }
    state.tables.get_mut(&name).ok_or_else(DynamoError::not_found)?.delete(&key);
    let mut out = json!({});
    if request["ReturnValues"].as_str() == Some("ALL_OLD")
        && let Some(old) = &current
    {
        out["Attributes"] = json!(old);
    }
    capacity(request, &name, write_units(current.as_ref().map_or(0, item_size)), &mut out);
    Ok(out)
}

/// The page's answer: items (projected), count, the last key, the capacity.
fn page_answer(
    request: &Value,
    t: &Table,
    read: crate::table::PageRead,
    projection: Option<&Vec<expr::Path>>,
) -> Value {
    let items: Vec<Item> = match projection {
        Some(paths) => read.items.iter().map(|i| expr::project(i, paths)).collect(),
        None => read.items,
    };
    let mut out = json!({ "Items": items, "Count": items.len(), "ScannedCount": items.len() });
    if let Some(last) = read.last {
        out["LastEvaluatedKey"] = json!(last);
    }
    let consistent = request["ConsistentRead"].as_bool().unwrap_or(false);
    capacity(request, &t.name, read_units(read.bytes, consistent), &mut out);
    out
}

fn limit_of(request: &Value) -> Result<Option<usize>, DynamoError> {
    match request.get("Limit").and_then(Value::as_i64) {
        Some(n) if n < 1 => Err(DynamoError::validation(format!(
            "1 validation error detected: Value '{n}' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"
        ))),
        Some(n) => Ok(Some(n as usize)),
        None => Ok(None),
    }
}

fn query(state: &mut State, request: &Value) -> Result<Value, DynamoError> {
    let t = table(state, request)?;
    let (keys, index) = t.keys_of(request["IndexName"].as_str())?;
    let mut places = Placeholders::of(request);
    let text = request["KeyConditionExpression"].as_str().ok_or_else(|| {
        DynamoError::validation(
            "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.".to_owned(),
        )
    })?;
    let cond = expr::parse_condition(text, &mut places)?;
    let projection = match request["ProjectionExpression"].as_str() {
        Some(text) => Some(expr::parse_projection(text, &mut places)?),
        None => None,
    };
    if request.get("FilterExpression").is_some() {
        return Err(DynamoError::validation("the simulator does not evaluate FilterExpression".to_owned()));
    }
    places.check_all_used()?;
    let mut read = BTreeSet::new();
    expr::attributes(&cond, &mut read);
    if let Some(other) = read.iter().find(|a| !keys.names().any(|k| k == *a)) {
        return Err(DynamoError::validation(format!(
            "Query condition missed key schema element: {}; or it names {other}, which is no key attribute",
            keys.partition
        )));
    }
    let pk = expr::equality_of(&cond, &keys.partition).and_then(|v| KeyVal::of(&v)).ok_or_else(|| {
        DynamoError::validation(format!("Query condition missed key schema element: {}", keys.partition))
    })?;
    let start = request.get("ExclusiveStartKey").map(item_of);
    let forward = request["ScanIndexForward"].as_bool().unwrap_or(true);
    let matches = |item: &Item| expr::holds(&cond, item);
    let page = t.query(index, &pk, &matches, forward, start.as_ref(), limit_of(request)?)?;
    Ok(page_answer(request, t, page, projection.as_ref()))
}

fn scan(state: &mut State, request: &Value) -> Result<Value, DynamoError> {
    let t = table(state, request)?;
    let (_, index) = t.keys_of(request["IndexName"].as_str())?;
    let mut places = Placeholders::of(request);
    let projection = match request["ProjectionExpression"].as_str() {
        Some(text) => Some(expr::parse_projection(text, &mut places)?),
        None => None,
    };
    let filter = match request["FilterExpression"].as_str() {
        Some(text) => Some(expr::parse_condition(text, &mut places)?),
        None => None,
    };
    places.check_all_used()?;
    let (segment, total) = match (request["Segment"].as_u64(), request["TotalSegments"].as_u64()) {
        (Some(s), Some(n)) if s < n => (s, n),
        (None, None) => (0, 1),
        _ => {
            return Err(DynamoError::validation(
                "The Segment parameter is required but was not present in the request when parameter TotalSegments is present".to_owned(),
            ));
        }
    };
    let start = request.get("ExclusiveStartKey").map(item_of);
    let matches = |item: &Item| filter.as_ref().map_or(Ok(true), |f| expr::holds(f, item));
    let page = t.scan(index, (segment, total), start.as_ref(), limit_of(request)?, &matches)?;
    Ok(page_answer(request, t, page, projection.as_ref()))
}

fn batch_get(state: &mut State, request: &Value) -> Result<Value, DynamoError> {
    let mut responses = serde_json::Map::new();
    let mut total = 0;
    // Each key read is charged as a GetItem of it is, found or not, per table.
    let mut spent = Vec::new();
    for (name, ask) in request["RequestItems"].as_object().into_iter().flatten() {
        let consistent = ask["ConsistentRead"].as_bool() == Some(true);
        let mut units = 0.0;
        let t = state.tables.get(name).ok_or_else(DynamoError::not_found)?;
        let mut places = Placeholders::of(ask);
        let projection = match ask["ProjectionExpression"].as_str() {
            Some(text) => Some(expr::parse_projection(text, &mut places)?),
            None => None,
        };
        places.check_all_used()?;
        let mut found = Vec::new();
        for key in ask["Keys"].as_array().into_iter().flatten() {
            total += 1;
            let key = key_of(&t.keys, &item_of(key))?;
            units += read_units(t.get(&key).map_or(0, item_size), consistent);
            if let Some(item) = t.get(&key) {
                found.push(json!(match &projection {
                    Some(paths) => expr::project(item, paths),
                    None => item.clone(),
                }));
            }
        }
        responses.insert(name.clone(), Value::Array(found));
        spent.push(json!({ "TableName": name, "CapacityUnits": units }));
    }
    if total > 100 {
        return Err(DynamoError::validation("Too many items requested for the BatchGetItem call".to_owned()));
    }
    let mut out = json!({ "Responses": responses, "UnprocessedKeys": {} });
    if matches!(request["ReturnConsumedCapacity"].as_str(), Some("TOTAL") | Some("INDEXES")) {
        out["ConsumedCapacity"] = Value::Array(spent);
    }
    Ok(out)
}

/// Point reads of up to 100 items as one serializable snapshot (the simulator applies each
/// request whole, so every read is one); each item costs twice a consistent read.
fn transact_get(state: &mut State, request: &Value) -> Result<Value, DynamoError> {
    let asked = request["TransactItems"].as_array().cloned().unwrap_or_default();
    if asked.is_empty() || asked.len() > 100 {
        return Err(DynamoError::validation(format!(
            "1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have \
             length less than or equal to 100 and greater than or equal to 1; found {}",
            asked.len()
        )));
    }
    let mut responses = Vec::new();
    let mut spent: std::collections::BTreeMap<String, f64> = std::collections::BTreeMap::new();
    for action in &asked {
        let get = &action["Get"];
        let name = table_name(get)?;
        let t = state.tables.get(&name).ok_or_else(DynamoError::not_found)?;
        let key = key_of(&t.keys, &item_of(&get["Key"]))?;
        *spent.entry(name).or_default() += 2.0 * read_units(t.get(&key).map_or(0, item_size), true);
        responses.push(match t.get(&key) {
            Some(item) => json!({ "Item": item }),
            None => json!({}),
        });
    }
    let mut out = json!({ "Responses": responses });
    if matches!(request["ReturnConsumedCapacity"].as_str(), Some("TOTAL") | Some("INDEXES")) {
        let spent: Vec<Value> = spent.iter().map(|(t, u)| json!({ "TableName": t, "CapacityUnits": u })).collect();
        out["ConsumedCapacity"] = Value::Array(spent);
    }
    Ok(out)
}

fn batch_write(state: &mut State, request: &Value) -> Result<Value, DynamoError> {
    // Checked whole first: a request refused changes nothing.
    let mut writes: Vec<(String, (KeyVal, KeyVal), Option<Item>)> = Vec::new();
    for (name, list) in request["RequestItems"].as_object().into_iter().flatten() {
        let t = state.tables.get(name).ok_or_else(DynamoError::not_found)?;
        for write in list.as_array().into_iter().flatten() {
            if let Some(put) = write.get("PutRequest") {
                let item = item_of(&put["Item"]);
                writes.push((name.clone(), checked_item(t, &item)?, Some(item)));
            } else if let Some(delete) = write.get("DeleteRequest") {
                writes.push((name.clone(), key_of(&t.keys, &item_of(&delete["Key"]))?, None));
            }
        }
    }
    if writes.len() > 25 {
        return Err(DynamoError::validation("Too many items requested for the BatchWriteItem call".to_owned()));
    }
    for (i, (name, key, _)) in writes.iter().enumerate() {
        if writes[..i].iter().any(|(n, k, _)| n == name && k == key) {
            return Err(DynamoError::validation("Provided list of item keys contains duplicates".to_owned()));
        }
    }
    for (name, key, item) in writes {
        let t = state.tables.get_mut(&name).ok_or_else(DynamoError::not_found)?;
        match item {
            Some(item) => t.put(key, item),
            None => t.delete(&key),
        }
    }
    Ok(json!({ "UnprocessedItems": {} }))
}

/// A transaction's action, checked: its table, its key and, unless it only checks, what it
/// writes there (an item, or `None` to delete).
type Planned = (String, (KeyVal, KeyVal), Option<Option<Item>>);

fn transact_write(state: &mut State, request: &Value) -> Result<Value, DynamoError> {
    let actions = request["TransactItems"].as_array().cloned().unwrap_or_default();
    if actions.is_empty() || actions.len() > 100 {
        return Err(DynamoError::validation(format!(
            "1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100 and greater than or equal to 1 (found {})",
            actions.len()
        )));
    }
    let mut plan: Vec<Planned> = Vec::new();
    let mut reasons = Vec::new();
    let mut cancelled = false;
    for action in &actions {
        let (kind, body) = action.as_object().and_then(|m| m.iter().next()).ok_or_else(|| {
            DynamoError::validation(
                "a transaction action must be one of Put, Update, Delete, ConditionCheck".to_owned(),
            )
        })?;
        let name = table_name(body)?;
        let t = state.tables.get(&name).ok_or_else(DynamoError::not_found)?;
        let outcome = match kind.as_str() {
            "Put" => {
                let item = item_of(&body["Item"]);
                let key = checked_item(t, &item)?;
                let mut places = Placeholders::of(body);
                let current = t.get(&key).cloned();
                let holds = condition_holds(body, &mut places, current.as_ref())?;
                places.check_all_used()?;
                (key, Some(Some(item)), holds.then_some(()).ok_or(current))
            }
            "Delete" | "ConditionCheck" => {
                let key = key_of(&t.keys, &item_of(&body["Key"]))?;
                let mut places = Placeholders::of(body);
                let current = t.get(&key).cloned();
                if kind == "ConditionCheck" && body.get("ConditionExpression").is_none() {
                    return Err(DynamoError::validation("ConditionCheck requires a ConditionExpression".to_owned()));
                }
                let holds = condition_holds(body, &mut places, current.as_ref())?;
                places.check_all_used()?;
                let write = (kind == "Delete").then_some(None);
                (key, write, holds.then_some(()).ok_or(current))
            }
            "Update" => {
                let key_item = item_of(&body["Key"]);
                let key = key_of(&t.keys, &key_item)?;
                match updated(t, body, &key_item, &key) {
                    Ok((_, new)) => (key, Some(Some(new)), Ok(())),
                    Err(e) if e.code == "ConditionalCheckFailedException" => {
                        (key.clone(), None, Err(t.get(&key).cloned()))
                    }
                    Err(e) => return Err(e),
                }
            }
            other => {
                return Err(DynamoError::validation(format!("unknown transaction action {other}")));
            }
        };
        let (key, write, checked) = outcome;
        if plan.iter().any(|(n, k, _)| *n == name && *k == key) {
            return Err(DynamoError::validation(
                "Transaction request cannot include multiple operations on one item".to_owned(),
            ));
        }
        match checked {
            Ok(()) => reasons.push(json!({ "Code": "None" })),
            Err(current) => {
                cancelled = true;
                let mut reason =
                    json!({ "Code": "ConditionalCheckFailed", "Message": "The conditional request failed" });
                if body["ReturnValuesOnConditionCheckFailure"].as_str() == Some("ALL_OLD")
                    && let Some(item) = current
                {
                    reason["Item"] = json!(item);
                }
                reasons.push(reason);
            }
        }
        plan.push((name, key, write));
    }
    if cancelled {
        return Err(DynamoError::cancelled(reasons));
    }
    let mut units: BTreeMap<String, f64> = BTreeMap::new();
    for (name, key, write) in plan {
        let t = state.tables.get_mut(&name).ok_or_else(DynamoError::not_found)?;
        let bytes = match &write {
            Some(Some(item)) => item_size(item),
            _ => t.get(&key).map_or(0, item_size),
        };
        *units.entry(name.clone()).or_default() += 2.0 * write_units(bytes);
        match write {
            Some(Some(item)) => t.put(key, item),
            Some(None) => t.delete(&key),
            None => {}
        }
    }
    let mut out = json!({});
    if matches!(request["ReturnConsumedCapacity"].as_str(), Some("TOTAL") | Some("INDEXES")) {
        out["ConsumedCapacity"] =
            Value::Array(units.into_iter().map(|(t, u)| json!({"TableName": t, "CapacityUnits": u})).collect());
    }
    Ok(out)
}
