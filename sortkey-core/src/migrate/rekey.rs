//! What a backfill does with each sort key: leave it (current, or another entity's), or move the
//! item to a new key. A key type with older layouts ([`Legacy`](crate::Legacy)) says it at compile time; a
//! migration between two layouts of a lock ([`DynMigration`](crate::DynMigration)) at run time.

#[cfg(feature = "dynamodb")]
use std::marker::PhantomData;

use std::fmt;

use crate::error::{DecodeError, EncodeError};
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
    /// What becomes of the item whose sort key is `key`; the error says why nothing can.
    fn rekey(&self, key: &str) -> Result<Rekeyed, RekeyError>;

    /// What becomes of the item whose partition key is `partition` (`None` when it is no
    /// string) and sort key `sort`, and with a [`Rekeyed::Move`] the partition key it moves to
    /// when that changes too (a shard-count change computes each item's new shard from its sort
    /// key); `None` keeps the partition key. What the backfill asks; the default asks
    /// [`rekey`](Self::rekey) of the sort key and keeps the partition key.
    fn rekey_item(&self, partition: Option<&str>, sort: &str) -> Result<(Rekeyed, Option<String>), RekeyError> {
        let _ = partition;
        Ok((self.rekey(sort)?, None))
    }
}

/// A sort key a migration cannot decide on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RekeyError {
    /// The key.
    pub key: String,
    /// Why.
    pub kind: RekeyErrorKind,
}

/// Why a migration cannot decide on a key.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RekeyErrorKind {
    /// The key is in none of the layouts the key type reads: the current one's error.
    NoKnownLayout(DecodeError),
    /// The key is in an older layout, but its value has no key in the current one.
    NoCurrentKey(EncodeError),
    /// The migration between two layouts of a lock refuses the key (a value that does not fit
    /// the new layout, a key both read).
    Migration(MigrationError),
}

impl std::fmt::Display for RekeyErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RekeyErrorKind::NoKnownLayout(e) => write!(f, "it is in no known layout: {e}"),
            RekeyErrorKind::NoCurrentKey(e) => write!(f, "it has no current key: {e}"),
            RekeyErrorKind::Migration(e) => write!(f, "{e}"),
        }
    }
}

impl std::fmt::Display for RekeyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the key `{}`: {}", self.key, self.kind)
    }
}

impl std::error::Error for RekeyError {}

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
    fn rekey(&self, key: &str) -> Result<Rekeyed, RekeyError> {
        let error = |kind| RekeyError { key: key.to_owned(), kind };
        let read = K::decode_any(key).map_err(|e| error(RekeyErrorKind::NoKnownLayout(e)))?;
        if read.is_current() {
            return Ok(Rekeyed::Current);
        }
        read.key.encode().map(Rekeyed::Move).map_err(|e| error(RekeyErrorKind::NoCurrentKey(e)))
    }
}

/// Why a migration cannot be made, or cannot move one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationError {
    /// The old layout's name.
    pub from: String,
    /// The new layout's name.
    pub to: String,
    /// What is wrong.
    pub kind: MigrationErrorKind,
}

/// What is wrong in a [`MigrationError`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MigrationErrorKind {
    /// One layout is a partition key's and the other a sort key's.
    Roles,
    /// A partition key moving to a shard calculated `by` a field of the item's sort key, whose
    /// sort key is in no sort key layout the migration was given with that field (or the item
    /// has no sort key).
    NoShardField {
        /// The item's sort key, when it has one.
        sort: Option<String>,
        /// The field the new shard is calculated from (`(the whole sort key)` for a `random`
        /// shard, which is calculated from it).
        field: &'static str,
    },
    /// A layout of a custom segment type, whose fields the text does not say.
    Custom,
    /// The layouts do not have the same fields (by path, with a family's unit variants): a
    /// moved key would lose a value, or lack one.
    Fields {
        /// Fields only the old layout has.
        only_from: Vec<String>,
        /// Fields only the new layout has.
        only_to: Vec<String>,
    },
    /// Both layouts read this key, so a moved key cannot be told from one to move.
    Ambiguous {
        /// The key.
        key: String,
    },
    /// A migration of a layout to itself ([`DynMigration::placement`](crate::DynMigration::placement))
    /// of a layout that is no partition key sharded `by` a field: every item is where its rule
    /// puts it, and nothing could be moved.
    NotShardedByField,
    /// The value of this key does not fit the new layout (a number too wide for its width).
    DoesNotFit {
        /// The key.
        key: String,
        /// The new layout's error.
        error: EncodeError,
    },
}

impl fmt::Display for MigrationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (from, to) = (&self.from, &self.to);
        match &self.kind {
            MigrationErrorKind::Roles => write!(
                f,
                "cannot migrate `{from}` to `{to}`: one is a partition key's layout and the other a sort key's; \
                 expected two layouts of the same key"
            ),
            MigrationErrorKind::NoShardField { sort, field } => match sort {
                Some(sort) => write!(
                    f,
                    "cannot move the item of sort key `{sort}` from `{from}` to `{to}`: its new shard is calculated \
                     by the sort key's field `{field}`, expected a sort key layout with `{field}` that reads it; found none"
                ),
                None => write!(
                    f,
                    "cannot move an item from `{from}` to `{to}`: its new shard is calculated by the sort key's field \
                     `{field}`, expected the item's sort key; found none"
                ),
            },
            MigrationErrorKind::Custom => write!(
                f,
                "cannot migrate `{from}` to `{to}` by field name: a custom segment's layout has no fields to match"
            ),
            MigrationErrorKind::Fields { only_from, only_to } => write!(
                f,
                "cannot migrate `{from}` to `{to}` by field name: expected the same fields, found [{}] only in \
                 `{from}` and [{}] only in `{to}` (a moved key would lose a value or lack one)",
                only_from.join(", "),
                only_to.join(", ")
            ),
            MigrationErrorKind::Ambiguous { key } => write!(
                f,
                "cannot migrate `{from}` to `{to}`: the key `{key}` reads in both, so a moved key cannot be told \
                 from one to move; expected layouts no key reads in both (a new prefix, another width)"
            ),
            MigrationErrorKind::NotShardedByField => write!(
                f,
                "cannot move the items of `{to}` to their shards: expected a partition key layout sharded `by` a \
                 field (`shards=N by=FIELD`), found one whose items have no shard a sort key gives"
            ),
            MigrationErrorKind::DoesNotFit { key, error } => {
                write!(f, "cannot move `{key}` from `{from}` to `{to}`: {error}")
            }
        }
    }
}
