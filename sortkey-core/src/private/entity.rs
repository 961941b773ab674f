//! What the code of an entity calls: its keys encoded into their attributes.

use crate::entity::EntityKeys;
use crate::error::EncodeError;
use crate::key::SortKey;

/// Encodes `key` as the attribute `name` of an entity's item.
#[inline]
pub fn encode_attr<K: SortKey>(keys: &mut EntityKeys, name: &'static str, key: &K) -> Result<(), EncodeError> {
    keys.push(name, key.encode()?);
    Ok(())
}
