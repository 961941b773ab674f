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
//! # Attributes
//!
//! On the struct:
//!
//! | attribute | meaning |
//! |---|---|
//! | `prefix = "RUN"` | a literal first segment |
//! | `separator = '\|'` | the character between segments, one ASCII punctuation character, `#` by default |
//! | `partition` | the key is a partition key: `max_len` 2048 by default (DynamoDB's limit), compared with `=` only, so its query builder ends with `eq()` and calling a range or prefix method is a compile error |
//! | `max_len = N` | the longest key in bytes, DynamoDB's limit by default: at most 1024 for a sort key, 2048 for a partition key |
//! | `crate = path` | where the runtime is, `::sortkey_core` by default |
//!
//! On a field:
//!
//! | attribute | meaning |
//! |---|---|
//! | `width = N` | the number of characters of an integer or Unix-time segment (1..=40, within what the type can fill) |
//! | `desc` | reverse the field's order (integers, `bool`, timestamps in Unix time) |
//! | `max = N` | values above `N` are an error even when they fit the width |
//! | `unit = "s" \| "ms" \| "us" \| "ns"` | the precision of a timestamp, seconds by default |
//! | `format = "rfc3339"` | a timestamp as fixed-width UTC text instead of Unix time (no `width`, no `desc`) |
//! | `format = "hex"` | an `f32`/`f64` as its order-preserving bits, 8 or 16 hex digits |
//! | `scale = N` | the fractional digits a `rust_decimal::Decimal` keeps (feature `rust_decimal`) |
//!
//! On an enum with `#[derive(KeySegment)]`: `rename_all = "..."` (`"lowercase"`,
//! `"UPPERCASE"`, `"PascalCase"`, `"camelCase"`, `"snake_case"`, `"SCREAMING_SNAKE_CASE"`,
//! `"kebab-case"`, `"SCREAMING-KEBAB-CASE"`) and `crate = path`; on a variant `rename = "..."`.
//!
//! # Format
//!
//! | field type | encoding | default width |
//! |---|---|---|
//! | `u8 u16 u32 u64 u128 usize` | exactly `width` digits, zero-padded | digits of `MAX`: 3, 5, 10, 20, 39, 20 |
//! | `i8 i16 i32 i64 i128 isize` | `0` then `width - 1` digits, or `-` then the nines' complement of `abs(v)` | 1 + digits of `abs(MIN)`: 4, 6, 11, 20, 40, 20 |
//! | `bool` | `0` / `1` | 1 |
//! | `String`, `&str`, `Cow<str>`, `char` | the text itself | variable |
//! | unit enum, `#[derive(KeySegment)]` | the variant's name | variable |
//! | a key type, `#[derive(SortKey)]` | its own encoding, prefix included | its `ENCODED_LEN`, else variable |
//! | `Option<T>` | `0` for `None`; `1` then the encoding of `T` for `Some` | variable |
//! | `f32`, `f64` | a class letter, a biased exponent and the shortest digits (`1.5` is `P50015`), or hex bits | variable, hex 8 or 16 |
//! | `rust_decimal::Decimal` | `value * 10^scale` as a signed integer | 30 |
//! | `SystemTime`, `chrono::DateTime<Utc>`, `time::OffsetDateTime` | Unix time in the unit, zero-padded; or RFC 3339 UTC text | 12, 15, 18, 21 digits for s, ms, us, ns; text 20, 24, 27, 30 |
//! | `uuid::Uuid` | lowercase hyphenated hex | 36 |
//! | `ulid::Ulid` | Crockford base32, upper case | 26 |
//!
//! A text segment that is not the last one may contain only characters greater than the
//! separator; that is exactly when byte order of the key equals the order of its fields.
//!
//! Feature `serde`: every key type without generic parameters, partition keys and families
//! included, serializes as its encoded string and deserializes through the strict decoder.
//! Every key type's `Display` prints its encoding.
//!
//! `chrono`, `time`, `uuid` and `ulid` are optional features of this crate, each of which
//! adds the segment impl for that crate's type and re-exports the crate.
//!
//! # Enums
//!
//! `#[derive(KeySegment)]` on an enum of unit variants writes each variant as its name:
//! the identifier, or the `rename_all` conversion of it, or the variant's `rename`. **Keys
//! sort by the byte order of the names**, not by the order of declaration; `desc` does not
//! apply. A name must not be empty, must differ from the others, and must contain only
//! characters greater than `#`, or the derive rejects the enum. Before another field, a name
//! must also contain only characters greater than the key's separator (with
//! `separator = '|'`, lower-case letters are not), or the derive rejects the key; the last
//! field may use any names.
//!
//! ```
//! use sortkey_core::{KeySegment, SortKey};
//!
//! #[derive(KeySegment, Debug, Clone, Copy, PartialEq)]
//! #[key(rename_all = "snake_case")]
//! enum Status {
//!     Pending,
//!     InTransit,
//!     #[key(rename = "done")]
//!     Delivered,
//! }
//!
//! #[derive(SortKey, Debug, PartialEq)]
//! struct Shipment {
//!     status: Status,
//!     #[key(width = 6)]
//!     id: u32,
//! }
//!
//! let k = Shipment { status: Status::InTransit, id: 42 };
//! assert_eq!(k.encode().unwrap(), "in_transit#000042");
//! assert_eq!(Shipment::decode("done#000007").unwrap().status, Status::Delivered);
//! // "done" < "in_transit" < "pending", whatever the declaration order.
//! ```
//!
//! # Nested keys
//!
//! `#[derive(SortKey)]` also makes the type a segment, so a key can be a field of another
//! key. It writes exactly what its own `encode` writes, **prefix included**, and sorts as it
//! does on its own; round trip and order hold through any depth. Both keys must use the same
//! separator (a compile-time error otherwise). The nested key's last field is the outer
//! key's last segment only when the nested key is the outer key's last field; before another
//! field, its last text obeys the non-final rule like any other. The whole-key rules
//! (`max_len`, not empty) are the outer key's; errors inside the nested key name the nested
//! key type and its field.
//!
//! ```
//! use sortkey_core::SortKey;
//!
//! #[derive(SortKey, Debug, PartialEq)]
//! #[key(prefix = "V")]
//! struct Version {
//!     #[key(width = 3)]
//!     major: u16,
//!     #[key(width = 3)]
//!     minor: u16,
//! }
//!
//! #[derive(SortKey, Debug, PartialEq)]
//! struct Release {
//!     package: String,
//!     version: Version,
//! }
//!
//! let r = Release { package: "serde".into(), version: Version { major: 1, minor: 219 } };
//! assert_eq!(r.encode().unwrap(), "serde#V#001#219");
//! assert_eq!(Release::decode("serde#V#001#219").unwrap(), r);
//! ```
//!
//! # Key families
//!
//! Several entity types in one partition each have their own sort-key layout. `#[derive(SortKey)]`
//! on an enum makes them one key type, a *family*: each variant is a key type with a literal
//! prefix (`Order(OrderKey)`) or a unit variant with its literal key (`#[key(prefix =
//! "PROFILE")] Profile`). Encoding writes the variant's key; decoding dispatches on the first
//! segment and is exactly as strict as the variant's own decode; an unknown first segment is a
//! [`DecodeErrorKind::UnknownVariant`] error that lists the expected prefixes.
//!
//! The family partitions the key space: no two variants may begin with the same first segment
//! (`ORDER` and `ORDERS` may coexist, `ORDER` and `ORDER#ITEM` may not), a compile error
//! spanned on the later variant that names both. So `begins_with("ORDER#")` never returns
//! another variant's items. Keys of different variants sort by the bytes of their prefixes,
//! keys of one variant as its key type does. `query()` has one method per variant, which
//! continues with that variant's builder. A family can be a field of another key, and
//! `V1(OrderV1)`, `V2(OrderV2)` read two layouts of one entity.
//!
//! ```
//! use sortkey_core::{KeyCondition, SortKey};
//!
//! #[derive(SortKey, Debug, PartialEq)]
//! #[key(prefix = "ORDER")]
//! struct OrderKey {
//!     #[key(width = 10, desc)]
//!     placed_at: u64,
//!     order_id: String,
//! }
//!
//! #[derive(SortKey, Debug, PartialEq)]
//! enum CustomerItem {
//!     #[key(prefix = "PROFILE")]
//!     Profile,
//!     Order(OrderKey),
//! }
//!
//! let order = CustomerItem::Order(OrderKey { placed_at: 7, order_id: "o1".into() });
//! assert_eq!(order.encode().unwrap(), "ORDER#9999999992#o1");
//! assert_eq!(CustomerItem::decode("PROFILE").unwrap(), CustomerItem::Profile);
//! let orders = CustomerItem::query().order().begins_with().unwrap();
//! assert_eq!(orders, KeyCondition::BeginsWith("ORDER#".into()));
//! assert!(!orders.matches("PROFILE"));
//! ```
//!
//! # Entities
//!
//! `#[derive(Entity)]` on a domain struct declares its table's primary key and its secondary
//! indexes' keys from its own fields, in `#[entity(...)]`: `pk(...)` and `sk(...)` of the table,
//! and `index(name(pk(...), sk(...)), ...)`. A key lists its options (`prefix`, `separator`,
//! `max_len`, and `name = "..."` for its attribute, `pk`/`sk` by default and `<index>pk`/
//! `<index>sk` for an index) and its fields in key order, each with the segment attributes of
//! key types (`placed_at(width = 10, desc)`). An index may set `name = "..."` for a DynamoDB name
//! other than its Rust name.
//!
//! Each key becomes a key type of its own, named after the entity and the key (`OrderPk`,
//! `OrderSk`, `OrderGsi1Pk`, `OrderGsi1Sk`), with every check and the query builder of key types.
//! `key_attributes()` encodes every key of an item at once; an `Option` field in an index's key
//! makes the index sparse: when it is `None` the item has none of that index's attributes, and
//! an update removes them. `index(name(multi, pk(a, b), sk(c, d)))` declares a multi-attribute
//! index instead: each field is an attribute of its own, typed `S` or `N` ([`KeyScalar`]), and
//! `Entity::name(a, b)` starts its staged builder of a [`MultiCondition`], whose pages read back
//! as typed [`MultiKey`]s.
//!
//! ```
//! use sortkey_core::{Entity, SortKey};
//!
//! #[derive(Entity)]
//! #[entity(
//!     pk(prefix = "CUST", customer_id(width = 8)),
//!     sk(prefix = "ORDER", placed_at(width = 10, desc), order_id),
//!     index(coupons(pk(prefix = "COUPON", coupon), sk(placed_at(width = 10), order_id)))
//! )]
//! struct Order {
//!     customer_id: u32,
//!     order_id: String,
//!     placed_at: u64,
//!     coupon: Option<String>,
//! }
//!
//! let order = Order { customer_id: 42, order_id: "o1".into(), placed_at: 7, coupon: None };
//! let keys = order.key_attributes().unwrap();
//! assert_eq!(keys.get("pk"), Some("CUST#00000042"));
//! assert_eq!(keys.get("sk"), Some("ORDER#9999999992#o1"));
//! assert_eq!(keys.absent(), ["couponspk", "couponssk"]);
//! assert_eq!(order.primary_key().sort, OrderSk { placed_at: 7, order_id: "o1".into() });
//! let update = keys.update(Order::KEYS);
//! assert_eq!(update.expression(), "REMOVE #sk_r0, #sk_r1");
//! ```
//!
//! # Options
//!
//! `Option<T>` is a tag character followed by the value:
//!
//! - `None` is the single character `0`;
//! - `Some(v)` is `1` followed by the encoding of `v` in the same field: the same width, the
//!   same `max`, `unit` and `format`, and the same position rules (a non-final `Some` text
//!   obeys the non-final rule, a final one may hold anything).
//!
//! So `None` sorts before every `Some`, and `Some` values sort as `T` does: the key compares
//! the tags first, and the values only when both tags are `1`. Decoding reads the tag first
//! and then knows whether a value follows, so it is unambiguous for every `T` (text, numbers,
//! nested keys, enums, other options: `Some(None)` is `10`). A tag other than `0` or `1` is a
//! decode error. Because `None` stays first either way, `desc` does not apply to an `Option`.
//! An `Option` field makes the key's length variable (`ENCODED_LEN` is `None`).
//!
//! ```
//! use sortkey_core::SortKey;
//!
//! #[derive(SortKey, Debug, PartialEq)]
//! struct Task {
//!     #[key(width = 3)]
//!     priority: Option<u16>,
//!     title: String,
//! }
//!
//! assert_eq!(Task { priority: None, title: "x".into() }.encode().unwrap(), "0#x");
//! assert_eq!(Task { priority: Some(7), title: "x".into() }.encode().unwrap(), "1007#x");
//! ```
//!
//! # Timestamps
//!
//! `std::time::SystemTime`, `chrono::DateTime<Utc>` (feature `chrono`) and
//! `time::OffsetDateTime` (feature `time`, normalised to UTC: decoding gives UTC) hold an
//! instant from **1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z**. An instant outside
//! that range is an [`EncodeError`] naming the field (there is no signed scheme for times
//! before 1970), and a key naming one does not decode. Two forms:
//!
//! - Unix time (the default): whole units since 1970 in `unit` (`"s"` by default, `"ms"`,
//!   `"us"`, `"ns"`), zero-padded to the field's width. The default width holds year 9999:
//!   12, 15, 18 or 21 digits. A narrower `width` is allowed and makes later instants
//!   [`EncodeErrorKind::TooWide`] errors. `desc` stores the nines' complement, like an integer.
//! - `format = "rfc3339"`: `YYYY-MM-DDTHH:MM:SSZ` in UTC, with `.` and 3, 6 or 9 fraction
//!   digits for `ms`, `us`, `ns`: always 20, 24, 27 or 30 characters, which sort as the
//!   instants do. No `width`, no `desc`. Decoding accepts exactly this form: no offset other
//!   than `Z`, no lower-case `t`/`z`, no leap second `:60`, only real dates.
//!
//! Precision below the unit is **truncated toward the past**, the same way everywhere: in
//! `encode`, in the query builder's bounds, and so in what `decode` returns (12:00:00.999
//! in seconds is stored, queried and read back as 12:00:00). Decoding is exact: a decoded
//! instant encodes to the same key. A chrono leap second is written as the last nanosecond of
//! the second before it.
//!
//! ```
//! use std::time::{Duration, SystemTime};
//! use sortkey_core::SortKey;
//!
//! #[derive(SortKey, Debug, PartialEq)]
//! struct Event {
//!     #[key(unit = "ms", desc)]
//!     newest_first: SystemTime,
//!     #[key(format = "rfc3339")]
//!     at: SystemTime,
//! }
//!
//! let t = SystemTime::UNIX_EPOCH + Duration::from_millis(1_719_100_800_250);
//! let e = Event { newest_first: t, at: t };
//! assert_eq!(e.encode().unwrap(), "998280899199749#2024-06-23T00:00:00Z");
//! let back = Event::decode("998280899199749#2024-06-23T00:00:00Z").unwrap();
//! assert_eq!(back.newest_first, t);
//! assert_eq!(back.at, t - Duration::from_millis(250)); // truncated to the second
//! ```
//!
//! # UUIDs and ULIDs
//!
//! `uuid::Uuid` (feature `uuid`) is written as 36 characters of lowercase hyphenated hex,
//! `ulid::Ulid` (feature `ulid`) as its 26 characters of upper-case Crockford base32. Both
//! alphabets are in ASCII order, so keys sort by the 128-bit value, the types' own `Ord`
//! (for a ULID: by its millisecond timestamp first). Both have a fixed width and may stand
//! in any position; `desc` is a compile-time error. Decoding accepts only that exact text.
//!
//! # Borrowed decoding
//!
//! A key type with one lifetime may have `&'a str`, `Cow<'a, str>` and `Option<&'a str>`
//! fields. [`DecodeKey::decode_borrowed`] then borrows them from the key string and
//! allocates nothing (`Cow` fields come back as `Cow::Borrowed`); such a type has no
//! `FromStr` and no [`SortKey::decode`], which need an owned result.
//!
//! ```
//! use std::borrow::Cow;
//! use sortkey_core::{DecodeKey, SortKey};
//!
//! #[derive(SortKey, Debug, PartialEq)]
//! struct Path<'a> {
//!     dir: &'a str,
//!     file: Cow<'a, str>,
//! }
//!
//! let key = String::from("docs#readme.md");
//! let p = Path::decode_borrowed(&key).unwrap();
//! assert_eq!(p.dir, "docs");
//! assert!(std::ptr::eq(p.dir.as_ptr(), key.as_ptr()));
//! assert!(matches!(p.file, Cow::Borrowed("readme.md")));
//! ```

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
pub use table::definition::{Billing, IndexDefinition, Projection, TableDefinition, TableError};
pub use table::entity::{Entity, EntityKeys, IndexKeys, IndexNames, KeyLayout, KeyUpdate};
pub use table::entity_query::TableQuery;
pub use table::family::UnitQuery;
pub use table::index::{IndexKey, IndexQuery, MultiKey};
pub use table::item::{ItemKey, KeyNames, NoSort, PartitionQuery};
pub use table::multi::{KeyScalar, MultiCondition, MultiKeys, Range, ScalarType, ScalarValue};
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
    MigrationVerdict, Misplaced, MisplacedSample, MixedWidth, OldKeys, Outside, ReshapeError, SKEW_LIMIT, ShardBalance,
    ShardedPartition, TableAttribute, UPDATE_LOCK_VAR, Unread, UnreadSample, ValueTextError, ValueTextErrorKind,
    VerdictAudit, Versions, WidthMismatch, check_lock_file, lock_text, read_furthest,
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
/// struct with named fields, or for an enum of key types: a [key family](crate#key-families).
/// See the [crate docs](crate) for the attributes.
#[cfg(feature = "derive")]
pub use sortkey_derive::SortKey;

/// Derives [`KeySegment`] and [`DecodeSegment`] for an enum of unit variants: each variant is
/// written as its name. See the [crate docs](crate#enums) for `rename`, `rename_all` and the order.
#[cfg(feature = "derive")]
pub use sortkey_derive::KeySegment;

/// Derives [`Entity`] for a domain struct whose fields make up its primary key and its secondary
/// indexes' keys. See the [crate docs](crate#entities) for the attributes.
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
