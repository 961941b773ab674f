//! Multi-attribute index keys: a global secondary index whose partition key and sort key are up
//! to four attributes each, typed `S` or `N`, written from an entity's own fields without
//! padding. A Query gives `=` on every partition attribute, `=` on a left prefix of the sort
//! attributes and at most one range condition on the next one, which the generated staged
//! builder enforces.

use std::cmp::Ordering;
use std::fmt;
use std::marker::PhantomData;

use crate::query::condition::KeyExpression;

/// The DynamoDB type of a key attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScalarType {
    /// A string, `S`.
    S,
    /// A number, `N`.
    N,
}

impl ScalarType {
    /// `"S"` or `"N"`, as AttributeDefinitions write it.
    pub const fn as_str(self) -> &'static str {
        match self {
            ScalarType::S => "S",
            ScalarType::N => "N",
        }
    }
}

/// The value of a key attribute: a string, or a number in its decimal text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ScalarValue {
    /// A string, `S`.
    S(String),
    /// A number, `N`, as its decimal digits.
    N(String),
}

impl ScalarValue {
    /// The value's type.
    pub fn scalar_type(&self) -> ScalarType {
        match self {
            ScalarValue::S(_) => ScalarType::S,
            ScalarValue::N(_) => ScalarType::N,
        }
    }

    /// The value's text: the string, or the number's digits.
    pub fn as_str(&self) -> &str {
        match self {
            ScalarValue::S(s) | ScalarValue::N(s) => s,
        }
    }

    /// DynamoDB's order: strings by UTF-8 bytes, numbers by value; `None` across types.
    pub fn compare(&self, other: &ScalarValue) -> Option<Ordering> {
        match (self, other) {
            (ScalarValue::S(a), ScalarValue::S(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
            (ScalarValue::N(a), ScalarValue::N(b)) => Some(a.parse::<i128>().ok()?.cmp(&b.parse::<i128>().ok()?)),
            _ => None,
        }
    }
}

impl fmt::Display for ScalarValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScalarValue::S(s) => write!(f, "{s:?}"),
            ScalarValue::N(n) => f.write_str(n),
        }
    }
}

/// A field type that can be an attribute of a multi-attribute index key: integers as `N`,
/// strings as `S`, and enums deriving `KeySegment` as their name (`S`).
pub trait KeyScalar {
    /// The attribute's type.
    const TYPE: ScalarType;
    /// The attribute's value.
    fn to_scalar(&self) -> ScalarValue;
}

macro_rules! numbers {
    ($($t:ty),*) => {$(
        impl KeyScalar for $t {
            const TYPE: ScalarType = ScalarType::N;
            fn to_scalar(&self) -> ScalarValue {
                ScalarValue::N(self.to_string())
            }
        }
    )*};
}

numbers!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl KeyScalar for String {
    const TYPE: ScalarType = ScalarType::S;
    fn to_scalar(&self) -> ScalarValue {
        ScalarValue::S(self.clone())
    }
}

impl KeyScalar for str {
    const TYPE: ScalarType = ScalarType::S;
    fn to_scalar(&self) -> ScalarValue {
        ScalarValue::S(self.to_owned())
    }
}

impl<T: KeyScalar + ?Sized> KeyScalar for &T {
    const TYPE: ScalarType = T::TYPE;
    fn to_scalar(&self) -> ScalarValue {
        (**self).to_scalar()
    }
}

/// The key attributes of a multi-attribute index, in key schema order, with their types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MultiKeys {
    /// The partition (HASH) attributes.
    pub partition: &'static [(&'static str, ScalarType)],
    /// The sort (RANGE) attributes.
    pub sort: &'static [(&'static str, ScalarType)],
}

/// The range condition on the last sort attribute a multi-attribute query names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Range {
    /// `<`.
    Lt(ScalarValue),
    /// `<=`.
    Le(ScalarValue),
    /// `>`.
    Gt(ScalarValue),
    /// `>=`.
    Ge(ScalarValue),
    /// `BETWEEN`, inclusive at both ends.
    Between(ScalarValue, ScalarValue),
    /// `begins_with`, for a string attribute.
    BeginsWith(ScalarValue),
}

/// A Query condition on a multi-attribute index of the entity `E`: `=` on every partition
/// attribute, `=` on a left prefix of the sort attributes, and at most one range on the next sort
/// attribute. Built by the staged builder an entity derives for the index
/// (`Shipment::by_region(...)`); with the `dynamodb` feature its page cursors are
/// [`MultiKey<E>`](crate::MultiKey)s.
pub struct MultiCondition<E> {
    index: &'static str,
    attributes: MultiKeys,
    equal: Vec<(&'static str, ScalarValue)>,
    range: Option<(&'static str, Range)>,
    entity: PhantomData<fn() -> E>,
}

impl<E> MultiCondition<E> {
    /// The condition on `index`, whose key attributes are `attributes`: the equalities, in key
    /// schema order, and the range.
    pub(crate) fn new(
        index: &'static str,
        attributes: MultiKeys,
        equal: Vec<(&'static str, ScalarValue)>,
        range: Option<(&'static str, Range)>,
    ) -> Self {
        MultiCondition { index, attributes, equal, range, entity: PhantomData }
    }

    /// The index's name, its `IndexName`.
    pub fn index(&self) -> &'static str {
        self.index
    }

    /// The index's key attributes with their types, in key schema order.
    pub fn attributes(&self) -> MultiKeys {
        self.attributes
    }

    /// The attributes compared with `=`, and their values.
    pub fn equal(&self) -> &[(&'static str, ScalarValue)] {
        &self.equal
    }

    /// The range condition, on the attribute it names.
    pub fn range(&self) -> Option<&(&'static str, Range)> {
        self.range.as_ref()
    }

    /// The `KeyConditionExpression`: `#m0 = :m0 AND ... AND <range>`, with its names and its
    /// values as text (their types are the attributes'; see [`values`](Self::values)).
    pub fn expression(&self) -> KeyExpression {
        let mut parts = Vec::new();
        let mut names = Vec::new();
        for (i, (name, _)) in self.equal.iter().enumerate() {
            parts.push(format!("#m{i} = :m{i}"));
            names.push((format!("#m{i}"), (*name).to_owned()));
        }
        if let Some((name, range)) = &self.range {
            let i = self.equal.len();
            let (n, v) = (format!("#m{i}"), format!(":m{i}"));
            parts.push(match range {
                Range::Lt(_) => format!("{n} < {v}"),
                Range::Le(_) => format!("{n} <= {v}"),
                Range::Gt(_) => format!("{n} > {v}"),
                Range::Ge(_) => format!("{n} >= {v}"),
                Range::Between(..) => format!("{n} BETWEEN {v} AND :m{}", i + 1),
                Range::BeginsWith(_) => format!("begins_with({n}, {v})"),
            });
            names.push((n, (*name).to_owned()));
        }
        // The placeholders of the values are numbered once, by `values`.
        let values = self.values().into_iter().map(|(p, v)| (p, v.as_str().to_owned())).collect();
        KeyExpression { expression: parts.join(" AND "), names, values }
    }

    /// The placeholders of the values with their typed values.
    pub fn values(&self) -> Vec<(String, ScalarValue)> {
        let mut out: Vec<(String, ScalarValue)> =
            self.equal.iter().enumerate().map(|(i, (_, v))| (format!(":m{i}"), v.clone())).collect();
        if let Some((_, range)) = &self.range {
            let i = self.equal.len();
            match range {
                Range::Between(a, b) => {
                    out.push((format!(":m{i}"), a.clone()));
                    out.push((format!(":m{}", i + 1), b.clone()));
                }
                Range::Lt(x) | Range::Le(x) | Range::Gt(x) | Range::Ge(x) | Range::BeginsWith(x) => {
                    out.push((format!(":m{i}"), x.clone()))
                }
            }
        }
        out
    }

    /// Whether an item with the attributes `get` gives is in the query's result, by DynamoDB's
    /// rules: the item is in the index only when it has every key attribute of the index (a
    /// sparse index leaves out an item that lacks one, whatever the condition names), and then
    /// every attribute the condition names has the type and value it says.
    pub fn matches<'a>(&self, get: impl Fn(&str) -> Option<&'a ScalarValue>) -> bool {
        let mut attributes = self.attributes.partition.iter().chain(self.attributes.sort);
        if !attributes.all(|(name, ty)| get(name).is_some_and(|v| v.scalar_type() == *ty)) {
            return false;
        }
        let equal = self.equal.iter().all(|(name, want)| get(name) == Some(want));
        equal
            && self.range.as_ref().is_none_or(|(name, range)| {
                let Some(v) = get(name) else { return false };
                let cmp = |b: &ScalarValue| v.compare(b);
                match range {
                    Range::Lt(b) => cmp(b) == Some(Ordering::Less),
                    Range::Le(b) => matches!(cmp(b), Some(Ordering::Less | Ordering::Equal)),
                    Range::Gt(b) => cmp(b) == Some(Ordering::Greater),
                    Range::Ge(b) => matches!(cmp(b), Some(Ordering::Greater | Ordering::Equal)),
                    Range::Between(a, b) => {
                        matches!(cmp(a), Some(Ordering::Greater | Ordering::Equal))
                            && matches!(cmp(b), Some(Ordering::Less | Ordering::Equal))
                    }
                    Range::BeginsWith(p) => match (v, p) {
                        (ScalarValue::S(s), ScalarValue::S(p)) => s.as_bytes().starts_with(p.as_bytes()),
                        _ => false,
                    },
                }
            })
    }
}

impl<E> fmt::Debug for MultiCondition<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MultiCondition")
            .field("index", &self.index)
            .field("attributes", &self.attributes)
            .field("equal", &self.equal)
            .field("range", &self.range)
            .finish()
    }
}

impl<E> Clone for MultiCondition<E> {
    fn clone(&self) -> Self {
        MultiCondition::new(self.index, self.attributes, self.equal.clone(), self.range.clone())
    }
}

impl<E> PartialEq for MultiCondition<E> {
    fn eq(&self, other: &Self) -> bool {
        (self.index, self.attributes, &self.equal, &self.range)
            == (other.index, other.attributes, &other.equal, &other.range)
    }
}

impl<E> Eq for MultiCondition<E> {}

impl<E> fmt::Display for MultiCondition<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (name, value) in &self.equal {
            if !first {
                f.write_str(" AND ")?;
            }
            first = false;
            write!(f, "{name} = {value}")?;
        }
        if let Some((name, range)) = &self.range {
            if !first {
                f.write_str(" AND ")?;
            }
            match range {
                Range::Lt(x) => write!(f, "{name} < {x}"),
                Range::Le(x) => write!(f, "{name} <= {x}"),
                Range::Gt(x) => write!(f, "{name} > {x}"),
                Range::Ge(x) => write!(f, "{name} >= {x}"),
                Range::Between(a, b) => write!(f, "{name} BETWEEN {a} AND {b}"),
                Range::BeginsWith(x) => write!(f, "begins_with({name}, {x})"),
            }?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: MultiKeys = MultiKeys { partition: &[("region", ScalarType::S)], sort: &[("year", ScalarType::N)] };

    fn n(v: i64) -> ScalarValue {
        ScalarValue::N(v.to_string())
    }

    #[test]
    fn the_expression_names_every_attribute_once() {
        let c = MultiCondition::<()>::new(
            "by_region",
            KEYS,
            vec![("region", ScalarValue::S("eu".into())), ("year", n(2025))],
            Some(("order_no", Range::Between(n(5), n(10)))),
        );
        let e = c.expression();
        assert_eq!(e.expression, "#m0 = :m0 AND #m1 = :m1 AND #m2 BETWEEN :m2 AND :m3");
        assert_eq!(e.names.len(), 3);
        assert_eq!(c.values().len(), 4);
        assert_eq!(c.to_string(), "region = \"eu\" AND year = 2025 AND order_no BETWEEN 5 AND 10");
    }

    #[test]
    fn numbers_compare_by_value() {
        const AB: MultiKeys = MultiKeys { partition: &[("a", ScalarType::N)], sort: &[("b", ScalarType::N)] };
        let c = MultiCondition::<()>::new("i", AB, vec![("a", n(1))], Some(("b", Range::Lt(n(10)))));
        let item = |b: i64| std::collections::HashMap::from([("a", n(1)), ("b", n(b))]);
        let (nine, ten) = (item(9), item(10));
        assert!(c.matches(|name| nine.get(name)));
        assert!(!c.matches(|name| ten.get(name)));
        assert_eq!(n(9).compare(&n(10)), Some(Ordering::Less), "not as text");
        let missing = std::collections::HashMap::from([("a", n(1))]);
        assert!(!c.matches(|name| missing.get(name)), "an item without the attribute is not in the index");
    }

    #[test]
    fn an_item_without_a_key_attribute_the_condition_does_not_name_is_not_in_the_index() {
        // `year` is a sort attribute; the condition names `region` alone.
        let c = MultiCondition::<()>::new("by_region", KEYS, vec![("region", ScalarValue::S("eu".into()))], None);
        let sparse = std::collections::HashMap::from([("region", ScalarValue::S("eu".into()))]);
        assert!(!c.matches(|name| sparse.get(name)), "DynamoDB leaves it out of the index");
        let whole = std::collections::HashMap::from([("region", ScalarValue::S("eu".into())), ("year", n(2025))]);
        assert!(c.matches(|name| whole.get(name)));
        let mistyped = std::collections::HashMap::from([
            ("region", ScalarValue::S("eu".into())),
            ("year", ScalarValue::S("2025".into())),
        ]);
        assert!(!c.matches(|name| mistyped.get(name)), "a key attribute of another type than the index's");
    }
}
