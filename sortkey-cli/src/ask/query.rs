//! What `sortkey query` and the query page ask: a key condition on a layout's fields, printed as
//! its `KeyConditionExpression`, or run on a table's partition.

use std::fmt;
use std::str::FromStr;

use serde::Deserialize;
use sortkey_core::query::Comparison;
use sortkey_core::{DynQuery, DynValue, FieldCondition, KeyCondition};

use crate::ask::command::CommandLine;
use crate::ask::context::{Context, DEFAULT_ITEMS};
use crate::outcome::AskError;

/// A key condition by field name: from the command line (`sortkey query --layout L --pk P
/// 'score>=1500'`) or the query page's form (its fields' operators and values, read by
/// [`QueryAsk::from_form`]).
#[derive(Debug, Clone, PartialEq, Eq, Default, clap::Args, Deserialize)]
#[serde(default)]
pub(crate) struct QueryAsk {
    /// The layout of the sort key, by its name in the lock.
    #[arg(long)]
    pub(crate) layout: String,
    /// A family's variant: a unit variant's literal or a keyed one's prefix.
    #[arg(long)]
    pub(crate) variant: Option<String>,
    /// The partition key's value, as stored (its encoded key).
    #[arg(long, value_name = "VALUE")]
    pub(crate) pk: String,
    /// The partition key attribute.
    #[arg(long, default_value = "pk", value_name = "ATTR")]
    #[serde(default = "pk_attr")]
    pub(crate) pk_attr: String,
    /// The sort key attribute.
    #[arg(long, default_value = "sk", value_name = "ATTR")]
    #[serde(default = "sk_attr")]
    pub(crate) sk_attr: String,
    /// Runs the query against this table and shows the items as `browse` does (the key
    /// attributes are the table's then).
    #[arg(long)]
    pub(crate) table: Option<String>,
    /// With `--table`: a global secondary index to query instead.
    #[arg(long, requires = "table")]
    pub(crate) index: Option<String>,
    /// With `--table`: one shard of a sharded partition (the lock's layout of the partition key
    /// says `shards=N`); by default a partition given without its shard is read merged over all.
    #[arg(long, value_name = "I", requires = "table")]
    pub(crate) shard: Option<u16>,
    /// With `--table`: at most this many items (1 to 1000).
    #[arg(long, default_value_t = DEFAULT_ITEMS)]
    #[serde(default = "default_limit")]
    pub(crate) limit: usize,
    /// With `--table`: the highest key first, in the current layout's order (each version's
    /// Query read backward).
    #[arg(long, requires = "table")]
    pub(crate) reverse: bool,
    /// With `--table`: starts after this key, a page's `next` (the last result's key in the
    /// current layout; a key of an older version is read as its value's key in the current one).
    #[arg(long, value_name = "SORT_KEY", requires = "table")]
    pub(crate) after: Option<String>,
    /// Conditions in field order: `field=value` fixes a field; the last may instead be a range,
    /// `field<v`, `field<=v`, `field>v`, `field>=v`, `field=low..high`, or a text prefix
    /// `field^=prefix`. A value written after a `:` is taken as written (`name=:a..b` fixes
    /// `name` to `a..b`). None: every key of the layout (its prefix).
    pub(crate) conditions: Vec<Condition>,
}

fn pk_attr() -> String {
    "pk".to_owned()
}

fn sk_attr() -> String {
    "sk".to_owned()
}

fn default_limit() -> usize {
    DEFAULT_ITEMS
}

/// One condition of an ask, typed: read from the command line's spelling ([`FromStr`]) or made
/// from the query page's form, and printed back in the spelling that reads as the same
/// condition ([`Display`](fmt::Display)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Condition {
    /// `field=value` (`field=:value` for a value that holds `..`).
    Fix { field: String, value: String },
    /// `field>=value` and the other comparisons.
    Compare { field: String, op: Comparison, value: String },
    /// `field=low..high`, both ends included.
    Between { field: String, low: String, high: String },
    /// `field^=prefix`, a text field's prefix.
    Prefix { field: String, prefix: String },
}

impl Condition {
    fn field(&self) -> &str {
        match self {
            Condition::Fix { field, .. }
            | Condition::Compare { field, .. }
            | Condition::Between { field, .. }
            | Condition::Prefix { field, .. } => field,
        }
    }
}

/// The spelling of a comparison.
fn symbol(op: Comparison) -> &'static str {
    match op {
        Comparison::Lt => "<",
        Comparison::Le => "<=",
        Comparison::Gt => ">",
        Comparison::Ge => ">=",
    }
}

impl FromStr for Condition {
    type Err = String;

    /// `field=value`, `field<v`, `field<=v`, `field>v`, `field>=v`, `field=low..high`,
    /// `field^=p`; a value after a `:` (`field=:a..b`, `field>:=x`) is the rest as written.
    fn from_str(text: &str) -> Result<Condition, String> {
        let at = text.find(['=', '<', '>', '^']).ok_or_else(|| {
            format!(
                "condition {}: expected `field=value`, `field>=value` (or <, <=, >), `field=low..high` or \
                 `field^=prefix`",
                crate::display::quoted(text)
            )
        })?;
        let (field, rest) = text.split_at(at);
        let (op, written) = [">=", "<=", "^=", "=", "<", ">"]
            .into_iter()
            .find_map(|op| rest.strip_prefix(op).map(|v| (op, v)))
            .unwrap_or(("=", rest));
        let (field, value, verbatim) = match written.strip_prefix(':') {
            Some(value) => (field.to_owned(), value.to_owned(), true),
            None => (field.to_owned(), written.to_owned(), false),
        };
        let compare = |op| Condition::Compare { field: field.clone(), op, value: value.clone() };
        Ok(match op {
            ">=" => compare(Comparison::Ge),
            "<=" => compare(Comparison::Le),
            ">" => compare(Comparison::Gt),
            "<" => compare(Comparison::Lt),
            "^=" => Condition::Prefix { field, prefix: value },
            _ => match value.split_once("..").filter(|_| !verbatim) {
                Some((low, high)) => Condition::Between { field, low: low.to_owned(), high: high.to_owned() },
                None => Condition::Fix { field, value },
            },
        })
    }
}

impl fmt::Display for Condition {
    /// The spelling [`FromStr`] reads back as the same condition: a value that would read
    /// otherwise (a fixed value holding `..`, `=` after `>` or `<`, a leading `:`) after a `:`.
    /// A range whose low end holds `..`, ends with `.` or starts with `:` has no such spelling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let escaped = |value: &str, also: bool| if also || value.starts_with(':') { ":" } else { "" };
        match self {
            Condition::Fix { field, value } => write!(f, "{field}={}{value}", escaped(value, value.contains(".."))),
            Condition::Compare { field, op, value } => {
                let also = matches!(op, Comparison::Gt | Comparison::Lt) && value.starts_with('=');
                write!(f, "{field}{}{}{value}", symbol(*op), escaped(value, also))
            }
            Condition::Between { field, low, high } => write!(f, "{field}={low}..{high}"),
            Condition::Prefix { field, prefix } => write!(f, "{field}^={}{prefix}", escaped(prefix, false)),
        }
    }
}

impl<'de> Deserialize<'de> for Condition {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Condition, D::Error> {
        String::deserialize(deserializer)?.parse().map_err(serde::de::Error::custom)
    }
}

/// The page's operators, in its form's order.
#[cfg(feature = "serve")]
pub(crate) const OPERATORS: [&str; 7] = ["=", ">=", ">", "<=", "<", "between", "^="];

impl QueryAsk {
    /// The ask of the query page's form: `layout`, `table`, `pk`, `variant`, `limit`, `shard`,
    /// `reverse` (a checkbox), `after`, and per field
    /// `op_NAME` (one of [`OPERATORS`]), `v_NAME` and `hi_NAME` (the upper end of `between`),
    /// for the fields of the layout that have a value, in its order. The partition `PK` stands
    /// in for none (the expression is still shown), and a table is queried only with one.
    #[cfg(feature = "serve")]
    pub(crate) fn from_form(
        ctx: &Context<'_>,
        form: &std::collections::HashMap<String, String>,
    ) -> Result<QueryAsk, AskError> {
        use crate::ask::context::MOST_ITEMS;
        let get = |k: &str| form.get(k).cloned().unwrap_or_default();
        let layout = match form.get("layout").filter(|l| !l.is_empty()) {
            Some(layout) => layout.clone(),
            None => ctx.lock.entries.first().map(|(n, _)| n.clone()).unwrap_or_default(),
        };
        let (table, pk) = (get("table"), get("pk"));
        let mut conditions = Vec::new();
        if let Ok(l) = ctx.layout(&layout) {
            for (name, _) in l.field_paths().into_iter().filter(|(path, _)| !path.contains('.')) {
                let value = get(&format!("v_{name}"));
                if value.is_empty() {
                    continue;
                }
                let op = form.get(&format!("op_{name}")).map_or("=", String::as_str);
                let field = name.to_owned();
                let compare = |op| Condition::Compare { field: field.clone(), op, value: value.clone() };
                conditions.push(match op {
                    "between" => Condition::Between { field, low: value, high: get(&format!("hi_{name}")) },
                    "=" => Condition::Fix { field, value },
                    "^=" => Condition::Prefix { field, prefix: value },
                    ">=" => compare(Comparison::Ge),
                    ">" => compare(Comparison::Gt),
                    "<=" => compare(Comparison::Le),
                    "<" => compare(Comparison::Lt),
                    other => {
                        let known = OPERATORS.join(" ");
                        return Err(AskError::bad(format!(
                            "field `{name}`: expected a comparison, one of {known}, found {}",
                            crate::display::quoted(other)
                        )));
                    }
                });
            }
        }
        let limit = match form.get("limit") {
            None => DEFAULT_ITEMS,
            Some(text) => text.parse().map_err(|_| {
                AskError::bad(format!(
                    "expected a limit of 1 to {MOST_ITEMS} items, found {}",
                    crate::display::quoted(text)
                ))
            })?,
        };
        Ok(QueryAsk {
            layout,
            variant: form.get("variant").filter(|v| !v.is_empty()).cloned(),
            pk: if pk.is_empty() { "PK".to_owned() } else { pk.clone() },
            pk_attr: pk_attr(),
            sk_attr: sk_attr(),
            table: (!table.is_empty() && !pk.is_empty()).then_some(table),
            index: None,
            shard: form.get("shard").and_then(|s| s.parse().ok()),
            limit,
            reverse: form.get("reverse").is_some_and(|r| r == "on" || r == "true"),
            after: form.get("after").filter(|a| !a.is_empty()).cloned(),
            conditions,
        })
    }

    /// The condition the ask describes on its layout, as the library builds it (its refusals
    /// are the ask's), and the same condition on the fields by name, for the layout's other
    /// versions; after the table, the layout and the limit are checked.
    pub(crate) fn validate(&self, ctx: &Context<'_>) -> Result<(KeyCondition, FieldCondition), AskError> {
        if let Some(table) = &self.table {
            ctx.may_read(table)?;
            ctx.limit(self.limit)?;
        }
        if let (Some(_), Some(index)) = (&self.after, &self.index) {
            return Err(AskError::bad(format!("after starts a page of the table, not of the index {index}")));
        }
        let layout = ctx.layout(&self.layout)?;
        let mut query = layout.query();
        let mut fields = FieldCondition::new();
        if let Some(variant) = &self.variant {
            query = query.variant(variant);
            fields = fields.variant(variant);
        }
        let Some((last, fixed)) = self.conditions.split_last() else {
            return Ok((query.begins_with().map_err(refused)?, fields));
        };
        for c in fixed {
            let Condition::Fix { field: name, value } = c else {
                let expected =
                    "only the last condition may be a range or a prefix; the others fix a field (`field=value`)";
                let text = c.to_string();
                return Err(AskError::bad(format!("condition {}: {expected}", crate::display::quoted(&text))));
            };
            let value = typed(&query, &self.layout, name, value)?;
            query = query.fix(name, &value);
            fields = fields.fix(name, value);
        }
        let layout_name = &self.layout;
        let name = last.field();
        let (condition, fields) = match last {
            Condition::Fix { value, .. } => {
                let value = typed(&query, layout_name, name, value)?;
                let query = query.fix(name, &value);
                let fields = fields.fix(name, value);
                if query.next_field().is_some() { (query.begins_with(), fields) } else { (query.eq(), fields.eq()) }
            }
            Condition::Compare { op, value, .. } => {
                let value = typed(&query, layout_name, name, value)?;
                (query.compare(name, *op, &value), fields.compare(name, *op, value))
            }
            Condition::Between { low, high, .. } => {
                let (low, high) = (typed(&query, layout_name, name, low)?, typed(&query, layout_name, name, high)?);
                (query.between(name, &low, &high), fields.between(name, low, high))
            }
            Condition::Prefix { prefix, .. } => {
                (query.text_begins_with(name, prefix), fields.text_begins_with(name, prefix))
            }
        };
        Ok((condition.map_err(refused)?, fields))
    }

    /// The command line that asks the same.
    pub(crate) fn command_line(&self, ctx: &Context<'_>) -> CommandLine {
        let mut line = ctx.command("query");
        line.option("--layout", &self.layout).option_if("--variant", self.variant.as_deref()).option("--pk", &self.pk);
        if self.pk_attr != "pk" {
            line.option("--pk-attr", &self.pk_attr);
        }
        if self.sk_attr != "sk" {
            line.option("--sk-attr", &self.sk_attr);
        }
        if let Some(table) = &self.table {
            line.option("--table", table).option_if("--index", self.index.as_deref());
            line.option_if("--shard", self.shard.map(|s| s.to_string()).as_deref());
            line.option("--limit", self.limit.to_string());
            line.flag("--reverse", self.reverse);
            line.option_if("--after", self.after.as_deref());
        }
        let conditions: Vec<String> = self.conditions.iter().map(ToString::to_string).collect();
        if conditions.iter().any(|c| c.starts_with('-')) {
            // The conditions are positional: `--` keeps one that starts with `-` one.
            line.arg("--");
        }
        for c in &conditions {
            line.arg(c);
        }
        line
    }
}

/// The library's refusal of a query (its message names the layout).
pub(super) fn refused(e: sortkey_core::QueryError) -> AskError {
    AskError::bad(e.to_string())
}

/// `text` as a value of the query's next field, which must be `name` (else the query's own
/// error says what it expects).
pub(super) fn typed(query: &DynQuery<'_>, layout: &str, name: &str, text: &str) -> Result<DynValue, AskError> {
    match query.next_field() {
        Some(field) if field.name == name => {
            field.value_from_text(text).map_err(|e| AskError::bad(format!("cannot query `{layout}`: {e}")))
        }
        // Any value: the query refuses the field with its own error.
        _ => Ok(DynValue::Text(text.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::prelude::Strategy;

    fn fix(field: &str, value: &str) -> Condition {
        Condition::Fix { field: field.into(), value: value.into() }
    }

    #[test]
    fn conditions_read_as_their_operator_says() {
        let read = |text: &str| text.parse::<Condition>().unwrap();
        assert_eq!(read("score=1500"), fix("score", "1500"));
        let ge = Condition::Compare { field: "ts".into(), op: Comparison::Ge, value: "17".into() };
        assert_eq!(read("ts>=17"), ge);
        let lt = Condition::Compare { field: "ts".into(), op: Comparison::Lt, value: "17".into() };
        assert_eq!(read("ts<17"), lt);
        let between = Condition::Between { field: "ts".into(), low: "1".into(), high: "9".into() };
        assert_eq!(read("ts=1..9"), between);
        assert_eq!(read("player^=p_"), Condition::Prefix { field: "player".into(), prefix: "p_".into() });
        assert_eq!(read("name=a=b"), fix("name", "a=b"));
        assert_eq!(read("name=:a..b"), fix("name", "a..b"));
        let gt = Condition::Compare { field: "ts".into(), op: Comparison::Gt, value: "=x".into() };
        assert_eq!(read("ts>:=x"), gt);
        assert!("score".parse::<Condition>().is_err());
    }

    proptest::proptest! {
        /// What the form asks is printed in a spelling that reads back as the same condition:
        /// a fixed text value holding `..` stays a value (it read back as a range), `=` after
        /// `>` stays the value's, whatever else the values hold.
        #[test]
        fn every_condition_reads_back_as_itself(
            value in "[=<>^:.a1]{0,6}",
            high in "[=<>^:.a1]{0,6}",
            low in "[=<>^a1][=<>^.a1]{0,5}".prop_filter("no `..`", |l| !l.contains("..") && !l.ends_with('.')),
            which in 0..7usize,
        ) {
            let field = "name".to_owned();
            let compare = |op| Condition::Compare { field: field.clone(), op, value: value.clone() };
            let c = match which {
                0 => Condition::Fix { field: field.clone(), value: value.clone() },
                1 => compare(Comparison::Gt),
                2 => compare(Comparison::Ge),
                3 => compare(Comparison::Lt),
                4 => compare(Comparison::Le),
                5 => Condition::Prefix { field: field.clone(), prefix: value.clone() },
                _ => Condition::Between { field: field.clone(), low, high },
            };
            proptest::prop_assert_eq!(c.to_string().parse::<Condition>(), Ok(c.clone()), "{}", c);
        }
    }
}
