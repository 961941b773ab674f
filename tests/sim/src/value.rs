//! Attribute values as DynamoDB orders and measures them: a key value (`S`, `N` or `B`) with
//! DynamoDB's order (bytes for strings and binary, numeric for numbers), the comparison of any two
//! values in a condition, and an item's size.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use base64::Engine;
use serde_json::Value;

/// An item: attribute names to values in DynamoDB's JSON (`{"S": "x"}`).
pub(crate) type Item = BTreeMap<String, Value>;

/// A key attribute's value, ordered as DynamoDB orders keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeyVal {
    /// No sort key (a table of a partition key alone).
    Unit,
    S(String),
    N(String),
    B(Vec<u8>),
}

impl KeyVal {
    /// The key value of `value`, when it is an `S`, `N` or `B`.
    pub(crate) fn of(value: &Value) -> Option<KeyVal> {
        let (kind, inner) = single(value)?;
        match kind {
            "S" => Some(KeyVal::S(inner.as_str()?.to_owned())),
            "N" => Some(KeyVal::N(inner.as_str()?.to_owned())),
            "B" => Some(KeyVal::B(base64::engine::general_purpose::STANDARD.decode(inner.as_str()?).ok()?)),
            _ => None,
        }
    }

    /// The bytes a hash of the key is taken over.
    pub(crate) fn bytes(&self) -> Vec<u8> {
        match self {
            KeyVal::Unit => Vec::new(),
            KeyVal::S(s) => s.as_bytes().to_vec(),
            KeyVal::N(n) => normalized(n).into_bytes(),
            KeyVal::B(b) => b.clone(),
        }
    }
}

impl Ord for KeyVal {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (KeyVal::S(a), KeyVal::S(b)) => a.as_bytes().cmp(b.as_bytes()),
            (KeyVal::N(a), KeyVal::N(b)) => number_cmp(a, b),
            (KeyVal::B(a), KeyVal::B(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for KeyVal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl KeyVal {
    fn rank(&self) -> u8 {
        match self {
            KeyVal::Unit => 0,
            KeyVal::S(_) => 1,
            KeyVal::N(_) => 2,
            KeyVal::B(_) => 3,
        }
    }
}

/// The one `{"T": v}` of a value.
pub(crate) fn single(value: &Value) -> Option<(&str, &Value)> {
    let map = value.as_object()?;
    let mut entries = map.iter();
    let (kind, inner) = entries.next()?;
    entries.next().is_none().then_some((kind.as_str(), inner))
}

/// A number as `(negative, digits without leading or trailing zeros, exponent)`, the value being
/// `0.digits × 10^exponent`; zero is `(false, "", 0)`.
fn parts(n: &str) -> (bool, String, i64) {
    let n = n.trim();
    let (negative, n) = match n.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, n.strip_prefix('+').unwrap_or(n)),
    };
    let (mantissa, exp) = match n.find(['e', 'E']) {
        Some(at) => (&n[..at], n[at + 1..].parse::<i64>().unwrap_or(0)),
        None => (n, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    let leading = digits.len() - digits.trim_start_matches('0').len();
    let trimmed = digits.trim_start_matches('0').trim_end_matches('0').to_owned();
    if trimmed.is_empty() {
        return (false, String::new(), 0);
    }
    let exponent = int.len() as i64 - leading as i64 + exp;
    (negative, trimmed, exponent)
}

/// Two numbers compared by value, whatever their writing (`1.0` and `1`, `1e2` and `100`).
pub(crate) fn number_cmp(a: &str, b: &str) -> Ordering {
    let (an, ad, ae) = parts(a);
    let (bn, bd, be) = parts(b);
    let magnitude = |d: &str, e: i64, other_d: &str, other_e: i64| match (d.is_empty(), other_d.is_empty()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => e.cmp(&other_e).then_with(|| d.cmp(other_d)),
    };
    match (an, bn) {
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
        (false, false) => magnitude(&ad, ae, &bd, be),
        (true, true) => magnitude(&bd, be, &ad, ae),
    }
}

/// A number written one way for its value (what a hash is taken over).
fn normalized(n: &str) -> String {
    let (negative, digits, exponent) = parts(n);
    format!("{}{digits}e{exponent}", if negative { "-" } else { "" })
}

/// Whether a number is one DynamoDB takes: at most 38 significant digits, in range.
pub(crate) fn valid_number(n: &str) -> bool {
    let trimmed = n.trim_start_matches(['-', '+']);
    let shape = !trimmed.is_empty()
        && trimmed.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'))
        && trimmed.chars().next().is_some_and(|c| c.is_ascii_digit() || c == '.');
    let (_, digits, exponent) = parts(n);
    shape && digits.len() <= 38 && (digits.is_empty() || (-129..=126).contains(&exponent))
}

/// Two values compared as a condition compares them: `None` when they are of different types or
/// of a type with no order (`=` and `<>` then use [`same`]).
pub(crate) fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    let (ka, va) = single(a)?;
    let (kb, vb) = single(b)?;
    if ka != kb {
        return None;
    }
    match ka {
        "S" => Some(va.as_str()?.as_bytes().cmp(vb.as_str()?.as_bytes())),
        "N" => Some(number_cmp(va.as_str()?, vb.as_str()?)),
        "B" => Some(KeyVal::of(a)?.cmp(&KeyVal::of(b)?)),
        _ => None,
    }
}

/// Whether two values are equal as DynamoDB compares them (numbers by value, sets in any order).
pub(crate) fn same(a: &Value, b: &Value) -> bool {
    if let Some(order) = compare(a, b) {
        return order == Ordering::Equal;
    }
    match (single(a), single(b)) {
        (Some((ka, va)), Some((kb, vb))) if ka == kb => match ka {
            "SS" | "NS" | "BS" => {
                let set = |v: &Value| {
                    let mut s: Vec<String> = v.as_array().into_iter().flatten().map(|x| x.to_string()).collect();
                    s.sort();
                    s
                };
                set(va) == set(vb)
            }
            "L" => {
                let (la, lb) = (va.as_array(), vb.as_array());
                la.zip(lb).is_some_and(|(la, lb)| la.len() == lb.len() && la.iter().zip(lb).all(|(x, y)| same(x, y)))
            }
            "M" => {
                let (ma, mb) = (va.as_object(), vb.as_object());
                ma.zip(mb).is_some_and(|(ma, mb)| {
                    ma.len() == mb.len() && ma.iter().all(|(k, x)| mb.get(k).is_some_and(|y| same(x, y)))
                })
            }
            _ => va == vb,
        },
        _ => false,
    }
}

/// A value's size as DynamoDB counts it.
pub(crate) fn value_size(value: &Value) -> usize {
    let Some((kind, inner)) = single(value) else { return 0 };
    match kind {
        "S" => inner.as_str().map_or(0, str::len),
        "N" => inner.as_str().map_or(1, |n| parts(n).1.len().div_ceil(2) + 1),
        "B" => {
            inner.as_str().and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok()).map_or(0, |b| b.len())
        }
        "BOOL" | "NULL" => 1,
        "SS" | "BS" => inner.as_array().into_iter().flatten().map(|s| s.as_str().map_or(0, str::len)).sum(),
        "NS" => inner
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| s.as_str().map_or(1, |n| parts(n).1.len().div_ceil(2) + 1))
            .sum(),
        "L" => 3 + inner.as_array().into_iter().flatten().map(|v| 1 + value_size(v)).sum::<usize>(),
        "M" => 3 + inner.as_object().into_iter().flatten().map(|(k, v)| 1 + k.len() + value_size(v)).sum::<usize>(),
        _ => 0,
    }
}

/// An item's size: each attribute's name and value.
pub(crate) fn item_size(item: &Item) -> usize {
    item.iter().map(|(name, value)| name.len() + value_size(value)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_compare_by_value() {
        assert_eq!(number_cmp("1", "1.0"), Ordering::Equal);
        assert_eq!(number_cmp("1e2", "100"), Ordering::Equal);
        assert_eq!(number_cmp("-5", "3"), Ordering::Less);
        assert_eq!(number_cmp("-5", "-30"), Ordering::Greater);
        assert_eq!(number_cmp("0.001", "0"), Ordering::Greater);
        assert_eq!(number_cmp("10", "9.99"), Ordering::Greater);
        assert_eq!(number_cmp("0", "-0.0"), Ordering::Equal);
        assert!(valid_number("12.5") && valid_number("-1e10") && !valid_number("abc") && !valid_number(""));
    }
}
