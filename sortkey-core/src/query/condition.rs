//! Sort key conditions in DynamoDB's seven shapes, evaluated with DynamoDB's byte order and
//! rendered as a `KeyConditionExpression`.

use std::fmt;

/// A condition on the sort key, in one of the seven shapes DynamoDB's `KeyConditionExpression`
/// accepts. Each holds encoded key strings.
///
/// Built by the typed query builder that `#[derive(SortKey)]` generates (`Key::query()`).
/// [`matches`](KeyCondition::matches) evaluates it with DynamoDB's semantics: strings compared
/// by their UTF-8 bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum KeyCondition {
    /// `sk = :v`
    Eq(String),
    /// `sk < :v`
    Lt(String),
    /// `sk <= :v`
    Le(String),
    /// `sk > :v`
    Gt(String),
    /// `sk >= :v`
    Ge(String),
    /// `sk BETWEEN :low AND :high`, inclusive at both ends; `low <= high` always.
    Between(String, String),
    /// `begins_with(sk, :v)`
    BeginsWith(String),
}

impl KeyCondition {
    /// Whether `key` satisfies the condition, comparing by UTF-8 bytes as DynamoDB does.
    pub fn matches(&self, key: &str) -> bool {
        let key = key.as_bytes();
        match self {
            KeyCondition::Eq(v) => key == v.as_bytes(),
            KeyCondition::Lt(v) => key < v.as_bytes(),
            KeyCondition::Le(v) => key <= v.as_bytes(),
            KeyCondition::Gt(v) => key > v.as_bytes(),
            KeyCondition::Ge(v) => key >= v.as_bytes(),
            KeyCondition::Between(lo, hi) => lo.as_bytes() <= key && key <= hi.as_bytes(),
            KeyCondition::BeginsWith(p) => key.starts_with(p.as_bytes()),
        }
    }

    /// The encoded strings the condition compares with, in order.
    pub fn values(&self) -> Vec<&str> {
        match self {
            KeyCondition::Eq(v)
            | KeyCondition::Lt(v)
            | KeyCondition::Le(v)
            | KeyCondition::Gt(v)
            | KeyCondition::Ge(v)
            | KeyCondition::BeginsWith(v) => vec![v],
            KeyCondition::Between(lo, hi) => vec![lo, hi],
        }
    }

    /// The condition as a `KeyConditionExpression` fragment on the sort key attribute
    /// `sort_key`, named `#sk`, with values `:sk0` (and `:sk1` for `BETWEEN`).
    ///
    /// ```
    /// use sortkey_core::KeyCondition;
    /// let e = KeyCondition::Between("A#1".into(), "A#5".into()).to_expression("sk");
    /// assert_eq!(e.expression, "#sk BETWEEN :sk0 AND :sk1");
    /// assert_eq!(e.names, [("#sk".to_string(), "sk".to_string())]);
    /// assert_eq!(e.values[1], (":sk1".to_string(), "A#5".to_string()));
    /// ```
    pub fn to_expression(&self, sort_key: &str) -> KeyExpression {
        let expression = match self {
            KeyCondition::Eq(_) => "#sk = :sk0",
            KeyCondition::Lt(_) => "#sk < :sk0",
            KeyCondition::Le(_) => "#sk <= :sk0",
            KeyCondition::Gt(_) => "#sk > :sk0",
            KeyCondition::Ge(_) => "#sk >= :sk0",
            KeyCondition::Between(..) => "#sk BETWEEN :sk0 AND :sk1",
            KeyCondition::BeginsWith(_) => "begins_with(#sk, :sk0)",
        };
        let values = self.values().into_iter().enumerate();
        KeyExpression {
            expression: expression.to_owned(),
            names: vec![("#sk".to_owned(), sort_key.to_owned())],
            values: values.map(|(i, v)| (format!(":sk{i}"), v.to_owned())).collect(),
        }
    }

    /// The whole `KeyConditionExpression` of a Query: the partition key attribute
    /// `partition_key` (`#pk`) equal to `partition_value` (`:pk`), and this condition on
    /// `sort_key`.
    ///
    /// ```
    /// use sortkey_core::KeyCondition;
    /// let e = KeyCondition::BeginsWith("RUN#".into()).with_partition_key("pk", "SEASON#7", "sk");
    /// assert_eq!(e.expression, "#pk = :pk AND begins_with(#sk, :sk0)");
    /// assert_eq!(e.values[0], (":pk".to_string(), "SEASON#7".to_string()));
    /// ```
    pub fn with_partition_key(&self, partition_key: &str, partition_value: &str, sort_key: &str) -> KeyExpression {
        let sk = self.to_expression(sort_key);
        let mut names = vec![("#pk".to_owned(), partition_key.to_owned())];
        names.extend(sk.names);
        let mut values = vec![(":pk".to_owned(), partition_value.to_owned())];
        values.extend(sk.values);
        KeyExpression { expression: format!("#pk = :pk AND {}", sk.expression), names, values }
    }
}

impl fmt::Display for KeyCondition {
    /// Shows the condition as `sk BETWEEN "low" AND "high"`, with the strings quoted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyCondition::Eq(v) => write!(f, "sk = {v:?}"),
            KeyCondition::Lt(v) => write!(f, "sk < {v:?}"),
            KeyCondition::Le(v) => write!(f, "sk <= {v:?}"),
            KeyCondition::Gt(v) => write!(f, "sk > {v:?}"),
            KeyCondition::Ge(v) => write!(f, "sk >= {v:?}"),
            KeyCondition::Between(lo, hi) => write!(f, "sk BETWEEN {lo:?} AND {hi:?}"),
            KeyCondition::BeginsWith(p) => write!(f, "begins_with(sk, {p:?})"),
        }
    }
}

/// A `KeyConditionExpression` with its placeholder names and values, ready for a Query
/// (`ExpressionAttributeNames`, `ExpressionAttributeValues` of type `S`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyExpression {
    /// The expression, such as `#pk = :pk AND #sk BETWEEN :sk0 AND :sk1`.
    pub expression: String,
    /// Placeholder name and attribute name pairs, such as `("#sk", "sk")`.
    pub names: Vec<(String, String)>,
    /// Placeholder and string value pairs, such as `(":sk0", "RUN#...")`.
    pub values: Vec<(String, String)>,
}

impl KeyExpression {
    /// The `KeyConditionExpression` of a whole partition: the partition key attribute
    /// `partition_key` (`#pk`) equal to `partition_value` (`:pk`), no condition on the sort key.
    ///
    /// ```
    /// use sortkey_core::KeyExpression;
    /// let e = KeyExpression::partition("pk", "SEASON#7");
    /// assert_eq!(e.expression, "#pk = :pk");
    /// assert_eq!(e.values, [(":pk".to_string(), "SEASON#7".to_string())]);
    /// ```
    pub fn partition(partition_key: &str, partition_value: &str) -> KeyExpression {
        KeyExpression {
            expression: "#pk = :pk".to_owned(),
            names: vec![("#pk".to_owned(), partition_key.to_owned())],
            values: vec![(":pk".to_owned(), partition_value.to_owned())],
        }
    }
}
