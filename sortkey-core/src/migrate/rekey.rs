//! What a backfill does with each sort key: leave it (current, or another entity's), or move the
//! item to a new key. A key type with older layouts ([`Legacy`](crate::Legacy)) says it at compile time; a
//! migration between two layouts of a lock ([`DynMigration`](crate::DynMigration)) at run time.

#[cfg(feature = "dynamodb")]
use std::marker::PhantomData;

#[cfg(feature = "dynamodb")]
use crate::migrate::legacy::Legacy;

/// What becomes of one sort key in a migration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rekeyed {
    /// The key is in the layout the migration moves to: the item stays.
    Current,
    /// The key is in no layout the migration moves from (another entity's key in the same
    /// table): the item stays.
    Other,
    /// The key is in a layout the migration moves from: the item moves to this sort key.
    Move(String),
}

/// The rule of a migration: what becomes of each sort key. An error is a key the migration
/// cannot decide on (in no known layout, a value that does not fit the new one, a key two
/// layouts read): the backfill stops at it, with the error naming the key.
pub trait Rekey {
    /// What becomes of the item whose sort key is `key`; the error says why nothing can, in one
    /// line.
    fn rekey(&self, key: &str) -> Result<Rekeyed, String>;
}

/// The migration of a key type's older layouts to its current one: every key must be in one of
/// them (an item in none stops the backfill).
#[cfg(feature = "dynamodb")]
#[derive(Debug)]
pub(crate) struct ToCurrent<K>(PhantomData<fn() -> K>);

#[cfg(feature = "dynamodb")]
impl<K> ToCurrent<K> {
    pub(crate) fn new() -> Self {
        ToCurrent(PhantomData)
    }
}

#[cfg(feature = "dynamodb")]
impl<K: Legacy> Rekey for ToCurrent<K> {
    fn rekey(&self, key: &str) -> Result<Rekeyed, String> {
        let read = K::decode_any(key).map_err(|e| format!("it is in no known layout: {e}"))?;
        if read.is_current() {
            return Ok(Rekeyed::Current);
        }
        read.key.encode().map(Rekeyed::Move).map_err(|e| format!("it has no current key: {e}"))
    }
}
