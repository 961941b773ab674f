//! Composite DynamoDB sort keys as Rust types.
//!
//! DynamoDB orders string sort keys by their UTF-8 bytes, so `"10"` sorts before `"2"`.
//! `#[derive(SortKey)]` turns a struct into a key schema: every field is one segment of the
//! key, numbers are zero-padded to a fixed width (nines' complement for `desc`), and the
//! runtime refuses to write a key that would sort wrongly.
//!
//! ```
//! use sortkey_core::SortKey;
//!
//! #[derive(SortKey, Debug, Clone, PartialEq)]
//! #[key(prefix = "RUN")]
//! struct RankKey {
//!     #[key(width = 10, desc)]
//!     score: u64,
//!     #[key(width = 16)]
//!     timestamp: u64,
//!     player_id: String,
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let k = RankKey { score: 1500, timestamp: 1719100800, player_id: "p_8842".into() };
//! assert_eq!(k.encode()?, "RUN#9999998499#0000001719100800#p_8842");
//! assert_eq!(RankKey::decode("RUN#9999998499#0000001719100800#p_8842")?, k);
//!
//! // Higher scores sort first, as bytes:
//! let better = RankKey { score: 1501, ..k.clone() };
//! assert!(better.encode()? < k.encode()?);
//!
//! // A value wider than its width is an error, not a truncated key.
//! let err = RankKey { score: 10_000_000_000, ..k }.encode().unwrap_err();
//! assert_eq!(err.field(), Some("score"));
//! # Ok(())
//! # }
//! ```
//!
//! # Where to read on
//!
//! The guide is a book, in the repository's `docs/` (every Rust block in it is compiled and run
//! by the tests, as the examples here are):
//!
//! - [the attributes][attributes] (on the struct, on a field) and [the field types][types]:
//!   integers, text, `bool`, enums (`#[derive(KeySegment)]`, `rename`, `rename_all`), nested
//!   keys, `Option`, timestamps, UUIDs and ULIDs, borrowed decoding;
//! - [floats and decimals][floats];
//! - [typed queries][queries]: `RankKey::query().score(1500).begins_with()`,
//!   `RankKey::query().score_range().between(100, 200)`, exact bounds for DynamoDB;
//! - [single-table design][single]: partition keys, key families (an enum of key types), item
//!   keys and pages; [entities and indexes][entities] (`#[derive(Entity)]`, feature `dynamodb`);
//! - [sharded keys][sharded], and [changing a key layout][changing] once items are stored
//!   (locking, reading two layouts, the backfill);
//! - [the key format][format] and [what it refuses][refusals].
//!
//! [attributes]: https://github.com/sortkey-rs/sortkey/blob/main/docs/src/guide/attributes.md
//! [types]: https://github.com/sortkey-rs/sortkey/blob/main/docs/src/guide/field-types.md
//! [floats]: https://github.com/sortkey-rs/sortkey/blob/main/docs/src/guide/floats-and-decimals.md
//! [queries]: https://github.com/sortkey-rs/sortkey/blob/main/docs/src/guide/queries.md
//! [single]: https://github.com/sortkey-rs/sortkey/blob/main/docs/src/guide/single-table.md
//! [entities]: https://github.com/sortkey-rs/sortkey/blob/main/docs/src/guide/entities-and-indexes.md
//! [sharded]: https://github.com/sortkey-rs/sortkey/blob/main/docs/src/guide/sharded-keys.md
//! [changing]: https://github.com/sortkey-rs/sortkey/blob/main/docs/src/layouts/changing.md
//! [format]: https://github.com/sortkey-rs/sortkey/blob/main/docs/src/reference/format.md
//! [refusals]: https://github.com/sortkey-rs/sortkey/blob/main/docs/src/reference/refusals.md

#![warn(missing_docs)]

// The layers, each a folder (tests/layering.rs checks that no module uses one of a later
// layer): `planted` (the switch of the bugs planted for the simulation to find, feature
// `planted-bugs` only); `error` (what everything reports); `encoding/` (digits, spec, cursor, role, layout,
// segment, key, impls/: a key and its segments as text); `query/` (condition, and the public
// `query` algebra: conditions on encoded keys); `table/` (item, family, entity, index, multi,
// definition: keys in a table, entities and their indexes, the table's definition); `migrate/`
// (legacy, vectors, backfill, checkpoint: older layouts, test vectors, rewriting a table);
// `dynamic/` (layouts you can run: the layout text parsed back, lock files); `dynamodb/` (the
// SDK glue, one file per area it extends); and the private module that generated code calls,
// on top of all of them.

// Whether the planted bug `$bug` is on: always `false` without the feature `planted-bugs`.
// Defined before the modules, which see it by textual scope.
#[cfg(feature = "planted-bugs")]
macro_rules! planted_bug {
    ($bug:ident) => {
        crate::planted::is(crate::planted::Bug::$bug)
    };
}
#[cfg(not(feature = "planted-bugs"))]
macro_rules! planted_bug {
    ($bug:ident) => {
        false
    };
}

mod dynamic;
mod encoding;
mod error;
mod migrate;
pub mod query;
mod table;

#[cfg(feature = "planted-bugs")]
pub mod planted;

#[cfg(feature = "dynamodb")]
pub mod dynamodb;

/// Not public API: what generated code calls, under a name that carries the version (see the
/// module's own docs).
#[doc(hidden)]
#[path = "private/mod.rs"]
pub mod __private_0_1_0;

pub use __private_0_1_0::MultiRange;
pub use encoding::cursor::Cursor;
pub use encoding::key::Sharded;
pub use encoding::key::{DecodeKey, KeyRole, PARTITION_KEY_LIMIT, Queryable, SORT_KEY_LIMIT, SortKey};
pub use encoding::layout::{FieldLayout, Layout, LayoutMismatch, SegmentLayout, VariantLayout};
pub use encoding::segment::{Capabilities, DecodeSegment, KeySegment, SegmentOptions};
pub use encoding::shard::{ShardRule, Shards, fnv1a64, shard_of};
pub use encoding::spec::{Field, TimeFormat, TimeUnit, Width};
pub use error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, QueryError, QueryErrorKind};
pub use migrate::legacy::{Legacy, Versioned, merge_layouts, merge_version_pages};
pub use migrate::rekey::{MigrationError, MigrationErrorKind, Rekey, RekeyError, RekeyErrorKind, Rekeyed};
pub use query::condition::{KeyCondition, KeyExpression};
pub use query::range::{FieldRange, TextRange};
pub use table::definition::{Billing, IndexDefinition, Projection, TableDefinition, TableError};
pub use table::entity::{Entity, EntityKeys, EntityRank, IndexKeys, IndexNames, KeyLayout, KeyUpdate};
pub use table::entity_query::TableQuery;
pub use table::family::UnitQuery;
pub use table::index::{IndexKey, IndexQuery, MultiKey};
pub use table::item::{ItemKey, KeyNames, NoSort, PartitionQuery};
pub use table::multi::{KeyScalar, MultiCondition, MultiKeys, Range, ScalarType, ScalarValue};
pub use table::rank::{MOST_RANK_LEVELS, RankError, RankedField};
pub use table::request::{CreateTableRequest, IndexRequest, KeySchema, KeyType, KeyValues, QueryRequest};

pub use migrate::vectors;

#[cfg(feature = "serde")]
pub use dynamic::ValueSeed;
#[cfg(feature = "serde")]
pub use dynamic::exact;
pub use dynamic::{
    AuditMergeError, AuditReport, CannotMove, Capacity, ConditionEnd, CursorError, DynBody, DynField, DynKey,
    DynLayout, DynMigration, DynQuery, DynType, DynValue, DynVariant, FieldCondition, FieldUsage, Headroom,
    JUDGED_PER_SHARD, KeyAudit, LayoutCount, LayoutDifference, LayoutParseError, LayoutPlan, LayoutUsage, LeftSample,
    LiveKey, LiveLayouts, LiveResults, LockError, LockErrorKind, LockFile, LockParseError, LockedKeys,
    MigrationVerdict, Misplaced, MisplacedSample, MixedWidth, OldKeys, Outside, RankLine, ReshapeError, SKEW_LIMIT,
    ShardBalance, ShardedPartition, TableAttribute, UPDATE_LOCK_VAR, Unread, UnreadSample, ValueTextError,
    ValueTextErrorKind, VerdictAudit, Versions, WidthMismatch, check_lock_file, lock_text, read_furthest,
};

/// The `chrono` crate whose `DateTime<Utc>` is a segment (feature `chrono`).
#[cfg(feature = "chrono")]
pub use chrono;
/// The `rust_decimal` crate whose `Decimal` is a fixed-point segment (feature `rust_decimal`).
#[cfg(feature = "rust_decimal")]
pub use rust_decimal;
/// The `time` crate whose `OffsetDateTime` is a segment (feature `time`).
#[cfg(feature = "time")]
pub use time;
/// The `ulid` crate whose `Ulid` is a segment (feature `ulid`).
#[cfg(feature = "ulid")]
pub use ulid;
/// The `uuid` crate whose `Uuid` is a segment (feature `uuid`).
#[cfg(feature = "uuid")]
pub use uuid;

/// Derives [`SortKey`] (and [`DecodeKey`], and `FromStr` for types without lifetimes) for a
/// struct with named fields, or for an enum of key types: a [key family](https://github.com/sortkey-rs/sortkey/blob/main/docs/src/guide/single-table.md#partition-keys-and-key-families).
/// See the [crate docs](crate) for the attributes.
#[cfg(feature = "derive")]
pub use sortkey_derive::SortKey;

/// Derives [`KeySegment`] and [`DecodeSegment`] for an enum of unit variants: each variant is
/// written as its name. See [the field types](https://github.com/sortkey-rs/sortkey/blob/main/docs/src/guide/field-types.md) for `rename`, `rename_all` and the order.
#[cfg(feature = "derive")]
pub use sortkey_derive::KeySegment;

/// Derives [`Entity`] for a domain struct whose fields make up its primary key and its secondary
/// indexes' keys. See [entities and indexes](https://github.com/sortkey-rs/sortkey/blob/main/docs/src/guide/entities-and-indexes.md) for the attributes.
#[cfg(feature = "derive")]
pub use sortkey_derive::Entity;

#[cfg(test)]
mod tests {
    /// The private module's name carries the version, as the derive expects (see its docs).
    #[test]
    fn the_private_module_is_named_after_the_version() {
        let expected = format!("sortkey_core::__private_{}", env!("CARGO_PKG_VERSION").replace(['.', '-'], "_"));
        assert_eq!(crate::__private_0_1_0::MODULE, expected);
    }
}
