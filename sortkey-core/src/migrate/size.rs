//! An item's size as DynamoDB counts it, estimated from above.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

/// An upper estimate of an item's size as DynamoDB counts it: names and values, in bytes (a
/// transaction's 4 MB, a shard's bytes in an audit).
pub fn item_size(item: &HashMap<String, AttributeValue>) -> usize {
    item.iter().map(|(name, value)| name.len() + value_size(value)).sum()
}

fn value_size(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::S(s) | AttributeValue::N(s) => s.len(),
        AttributeValue::B(b) => b.as_ref().len(),
        AttributeValue::Ss(v) | AttributeValue::Ns(v) => v.iter().map(|s| s.len() + 1).sum(),
        AttributeValue::Bs(v) => v.iter().map(|b| b.as_ref().len() + 1).sum(),
        AttributeValue::L(v) => 3 + v.iter().map(|x| 1 + value_size(x)).sum::<usize>(),
        AttributeValue::M(m) => 3 + m.iter().map(|(k, x)| 1 + k.len() + value_size(x)).sum::<usize>(),
        _ => 1,
    }
}
