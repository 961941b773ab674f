//! `sortkey query`: the expression builder. Conditions on a layout's fields by name, typed as
//! the layout says, built by sortkey-core's `DynQuery` (the derived builder's rules and
//! refusals), printed as the Query's KeyConditionExpression with its names and values.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sortkey_core::query::Comparison;
use sortkey_core::{DynQuery, FieldCondition, KeyCondition, KeyExpression, LockFile};

use crate::browse::Target;
use crate::cli::{Args, QueryArgs};
use crate::outcome::Failure;
use crate::output::{Document, format_tag, outln};
use crate::{browse, lock, output};

/// One condition of the command line.
#[derive(Debug, PartialEq)]
enum Condition<'a> {
    Fix(&'a str, &'a str),
    Compare(&'a str, Comparison, &'a str),
    Between(&'a str, &'a str, &'a str),
    Prefix(&'a str, &'a str),
}

/// `field=value`, `field<v`, `field<=v`, `field>v`, `field>=v`, `field=low..high`, `field^=p`.
fn condition(text: &str) -> Result<Condition<'_>, Failure> {
    let at = text.find(['=', '<', '>', '^']).ok_or_else(|| {
        Failure(format!("condition `{text}`: expected `field=value`, `field>=value` (or <, <=, >), `field=low..high` or `field^=prefix`"))
    })?;
    let (field, rest) = text.split_at(at);
    let (op, value) = [">=", "<=", "^=", "=", "<", ">"]
        .into_iter()
        .find_map(|op| rest.strip_prefix(op).map(|v| (op, v)))
        .unwrap_or(("=", rest));
    Ok(match op {
        ">=" => Condition::Compare(field, Comparison::Ge, value),
        "<=" => Condition::Compare(field, Comparison::Le, value),
        ">" => Condition::Compare(field, Comparison::Gt, value),
        "<" => Condition::Compare(field, Comparison::Lt, value),
        "^=" => Condition::Prefix(field, value),
        _ => match value.split_once("..") {
            Some((low, high)) => Condition::Between(field, low, high),
            None => Condition::Fix(field, value),
        },
    })
}

/// The condition the arguments describe on the named layout, as the library builds it (its
/// refusals are the command's), and the same condition on the fields by name, for the layout's
/// other versions.
pub(crate) fn key_condition(
    lock: &LockFile,
    lock_path: &str,
    q: &QueryArgs,
) -> Result<(KeyCondition, FieldCondition), Failure> {
    let layout = lock.get(&q.layout).ok_or_else(|| {
        let names: Vec<&str> = lock.entries.iter().map(|(n, _)| n.as_str()).collect();
        Failure(format!("no layout `{}` in {lock_path}; it has {}", q.layout, names.join(", ")))
    })?;
    let mut query = layout.query();
    let mut fields = FieldCondition::new();
    if let Some(variant) = &q.variant {
        query = query.variant(variant);
        fields = fields.variant(variant);
    }
    let conditions: Vec<Condition<'_>> = q.conditions.iter().map(|c| condition(c)).collect::<Result<_, _>>()?;
    let Some((last, fixed)) = conditions.split_last() else {
        return Ok((query.begins_with()?, fields));
    };
    for (c, text) in fixed.iter().zip(&q.conditions) {
        let Condition::Fix(name, value) = c else {
            let expected = "only the last condition may be a range or a prefix; the others fix a field (`field=value`)";
            return Err(Failure(format!("condition `{text}`: {expected}")));
        };
        let value = typed(&query, &q.layout, name, value)?;
        query = query.fix(name, &value);
        fields = fields.fix(name, value);
    }
    let layout_name = &q.layout;
    let (condition, fields) = match *last {
        Condition::Fix(name, value) => {
            let value = typed(&query, layout_name, name, value)?;
            let query = query.fix(name, &value);
            let fields = fields.fix(name, value);
            if query.next_field().is_some() { (query.begins_with(), fields) } else { (query.eq(), fields.eq()) }
        }
        Condition::Compare(name, cmp, value) => {
            let value = typed(&query, layout_name, name, value)?;
            (query.compare(name, cmp, &value), fields.compare(name, cmp, value))
        }
        Condition::Between(name, low, high) => {
            let (low, high) = (typed(&query, layout_name, name, low)?, typed(&query, layout_name, name, high)?);
            (query.between(name, &low, &high), fields.between(name, low, high))
        }
        Condition::Prefix(name, prefix) => {
            (query.text_begins_with(name, prefix), fields.text_begins_with(name, prefix))
        }
    };
    Ok((condition?, fields))
}

/// `text` as a value of the query's next field, which must be `name` (else the query's own
/// error says what it expects).
fn typed(query: &DynQuery<'_>, layout: &str, name: &str, text: &str) -> Result<sortkey_core::DynValue, Failure> {
    match query.next_field() {
        Some(field) if field.name == name => {
            field.value_from_text(text).map_err(|e| Failure(format!("cannot query `{layout}`: {e}")))
        }
        // Any value: the query refuses the field with its own error.
        _ => Ok(sortkey_core::DynValue::Text(text.to_owned())),
    }
}

/// Prints the KeyConditionExpression of the arguments, or with `--table` runs it on every live
/// version of the layout and prints the items.
pub(crate) fn run(args: &Args, q: &QueryArgs) -> Result<(), Failure> {
    let lock = lock::read(&args.lock)?;
    let (condition, fields) = key_condition(&lock, &args.lock.display().to_string(), q)?;
    if let Some(table) = &q.table {
        let runtime = tokio::runtime::Runtime::new()?;
        let target = Target { table, index: q.index.as_deref(), pk: &q.pk, after: None };
        let (doc, _) = runtime.block_on(async {
            let client = crate::connect::client(args).await;
            browse::query_versions(&client, &target, &lock, &q.layout, &fields, q.limit).await
        })?;
        output::print(args, &doc);
        return Ok(());
    }
    let expression = condition.with_partition_key(&q.pk_attr, &q.pk, &q.sk_attr);
    output::print(args, &QueryDocument::new(&condition, expression));
    Ok(())
}

/// The `sortkey query` command line of `q` (for the web view to show).
pub(crate) fn command_line(q: &QueryArgs, lock_path: &str) -> String {
    let mut line = format!("sortkey query --lock {lock_path} --layout {} --pk {}", q.layout, q.pk);
    if let Some(variant) = &q.variant {
        line.push_str(&format!(" --variant {variant}"));
    }
    if let Some(table) = &q.table {
        line.push_str(&format!(" --table {table} --limit {}", q.limit));
    }
    for c in &q.conditions {
        line.push_str(&format!(" '{c}'"));
    }
    line
}

format_tag! {
    /// The query report's format.
    QueryFormat = "sortkey query 1"
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_read_as_their_operator_says() {
        assert_eq!(condition("score=1500").unwrap(), Condition::Fix("score", "1500"));
        assert_eq!(condition("ts>=17").unwrap(), Condition::Compare("ts", Comparison::Ge, "17"));
        assert_eq!(condition("ts<17").unwrap(), Condition::Compare("ts", Comparison::Lt, "17"));
        assert_eq!(condition("ts=1..9").unwrap(), Condition::Between("ts", "1", "9"));
        assert_eq!(condition("player^=p_").unwrap(), Condition::Prefix("player", "p_"));
        assert_eq!(condition("name=a=b").unwrap(), Condition::Fix("name", "a=b"));
        assert!(condition("score").is_err());
    }
}
