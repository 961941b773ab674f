//! A request as the trace shows it, one line: its table; a Query's key condition with its values,
//! its direction, limit and start key; a key or an item's key; a transaction's actions, each with
//! its key; an update's expression with its values (a lease's owner and expiry). Whole keys are
//! named by the layout that reads them when the scenario gave a [`Namer`].

use serde_json::Value;

/// Which layout reads a key (`RankKeyV1`), `None` for none.
pub type Namer = fn(&str) -> Option<&'static str>;

/// A value as the trace writes it: a string quoted, a number as it is, anything else as JSON,
/// at most 80 characters.
fn scalar(value: &Value) -> String {
    let text = match (value["S"].as_str(), value["N"].as_str()) {
        (Some(s), _) => format!("{s:?}"),
        (_, Some(n)) => n.to_owned(),
        _ => value.to_string(),
    };
    if text.chars().count() > 80 { format!("{}...", text.chars().take(77).collect::<String>()) } else { text }
}

/// `key` (a `Key`, an `Item` or an `ExclusiveStartKey`): its `pk` and `sk`, the sort key named.
fn key(key: &Value, namer: Option<Namer>) -> String {
    let part = |name: &str| key.get(name).map(|v| format!("{name}={}", scalar(v)));
    let named = key["sk"]["S"].as_str().and_then(|sk| namer.and_then(|n| n(sk))).map(|n| format!("[{n}]"));
    [part("pk"), part("sk"), named].into_iter().flatten().collect::<Vec<_>>().join(" ")
}

/// `expression` with its `#names` and `:values` written in.
fn expression(request: &Value, expression: &str) -> String {
    let mut out = expression.to_owned();
    let mut substitutions: Vec<(String, String)> = Vec::new();
    if let Some(names) = request["ExpressionAttributeNames"].as_object() {
        substitutions.extend(names.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned())));
    }
    if let Some(values) = request["ExpressionAttributeValues"].as_object() {
        substitutions.extend(values.iter().map(|(k, v)| (k.clone(), scalar(v))));
    }
    // The longest first, so that `:v1` is not written into `:v10`.
    substitutions.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
    for (k, v) in substitutions {
        out = out.replace(&k, &v);
    }
    out
}

/// What a request is about, for the trace.
pub(crate) fn summary(request: &Value, namer: Option<Namer>) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(table) = request["TableName"].as_str() {
        parts.push(table.to_owned());
    }
    if let Some(index) = request["IndexName"].as_str() {
        parts.push(format!("index {index}"));
    }
    if let Some(condition) = request["KeyConditionExpression"].as_str() {
        parts.push(format!("where {}", expression(request, condition)));
        if request["ScanIndexForward"] == Value::Bool(false) {
            parts.push("reverse".to_owned());
        }
        if let Some(limit) = request["Limit"].as_u64() {
            parts.push(format!("limit {limit}"));
        }
    }
    if let Some(segment) = request["Segment"].as_u64() {
        parts.push(format!("segment {segment} of {}", request["TotalSegments"]));
    }
    if let Some(start) = request.get("ExclusiveStartKey") {
        parts.push(format!("after {}", key(start, namer)));
    }
    if let Some(k) = request.get("Key").or_else(|| request.get("Item")) {
        parts.push(key(k, namer));
    }
    if let Some(update) = request["UpdateExpression"].as_str() {
        parts.push(expression(request, update));
    }
    if let Some(condition) = request["ConditionExpression"].as_str() {
        parts.push(format!("if {}", expression(request, condition)));
    }
    if let Some(actions) = request["TransactItems"].as_array() {
        let each: Vec<String> = actions
            .iter()
            .filter_map(|a| a.as_object()?.iter().next())
            .map(|(op, action)| {
                let target = action.get("Key").or_else(|| action.get("Item")).map(|k| key(k, namer));
                format!("{op} {}", target.unwrap_or_default())
            })
            .collect();
        parts.push(format!("{} actions: {}", actions.len(), each.join("; ")));
    }
    parts.join(" ")
}
