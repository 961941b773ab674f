//! The trait a derived key type implements.

use crate::encoding::layout::Layout;
pub use crate::encoding::role::{KeyRole, PARTITION_KEY_LIMIT, SORT_KEY_LIMIT};
use crate::error::{DecodeError, EncodeError};

/// A composite sort key: a struct whose fields, in declaration order, are the segments of one string.
///
/// Implemented by `#[derive(SortKey)]`; see the [crate docs](crate) for the attributes and the format.
/// Byte order of the encoded strings equals the order of the values by their fields
/// (with `desc` fields reversed), which is the order DynamoDB returns them in.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a sort key type",
    label = "add `#[derive(SortKey)]` to `{Self}`",
    note = "`use sortkey_core::SortKey;` and put `#[derive(SortKey)]` on a struct with named fields"
)]
pub trait SortKey {
    /// The literal first segment (`#[key(prefix = "...")]`), if any.
    const PREFIX: Option<&'static str>;
    /// The character between segments, `#` unless `#[key(separator = '...')]` says otherwise.
    const SEPARATOR: char;
    /// The encoded length in bytes when every segment has a fixed width, `None` otherwise.
    const ENCODED_LEN: Option<usize>;
    /// The longest key the type may write: DynamoDB's limit for its [`ROLE`](SortKey::ROLE)
    /// (1024 bytes for a sort key, 2048 for a partition key) unless `#[key(max_len = N)]` says
    /// otherwise.
    const MAX_LEN: usize;
    /// Whether the type is a sort key (the default) or a partition key (`#[key(partition)]`).
    const ROLE: KeyRole = KeyRole::Sort;
    /// The key's layout: its `Display` is the description a reviewer reads, such as
    /// `RUN#{score:u64 width=10 desc}#{timestamp:u64 width=16}#{player_id:text}`. The derive
    /// describes every field; a hand-written impl says only its prefix and separator.
    const LAYOUT: Layout = Layout::opaque(Self::PREFIX, Self::SEPARATOR, Self::MAX_LEN, Self::ROLE);

    /// Encodes the key into a new string.
    fn encode(&self) -> Result<String, EncodeError> {
        let mut out = String::with_capacity(Self::ENCODED_LEN.unwrap_or(64));
        self.encode_into(&mut out)?;
        Ok(out)
    }

    /// Appends the key to `out`. On error `out` is left exactly as it was.
    ///
    /// Allocates nothing beyond growing `out`.
    fn encode_into(&self, out: &mut String) -> Result<(), EncodeError>;

    /// Decodes a key strictly: the literal prefix, exact widths, digits only, separators where
    /// they belong and nothing after the last segment. Every string that decodes encodes back
    /// to itself.
    ///
    /// Types with borrowed fields (`&'a str`, `Cow<'a, str>`) decode with
    /// [`DecodeKey::decode_borrowed`] instead.
    fn decode(key: &str) -> Result<Self, DecodeError>
    where
        Self: Sized + for<'k> DecodeKey<'k>,
    {
        <Self as DecodeKey<'_>>::decode_borrowed(key)
    }
}

/// Decoding of a key type from a string borrowed for `'k`.
///
/// Implemented by `#[derive(SortKey)]`. A type whose fields own their data implements it for
/// every `'k`, which is what [`SortKey::decode`] needs; a type with `&'a str` fields borrows
/// from the key and allocates nothing.
pub trait DecodeKey<'k>: Sized {
    /// Decodes `key`, borrowing text fields from it where their type allows.
    fn decode_borrowed(key: &'k str) -> Result<Self, DecodeError>;
}

/// A key type with a typed query builder: what `Key::query()` starts, as a trait, so that
/// generic code and key families can continue with a key type's builder.
///
/// Implemented by `#[derive(SortKey)]` for structs (the builder `KeyQuery<0>`) and for key
/// families (one method per variant).
pub trait Queryable {
    /// The builder's first stage.
    type Query;

    /// Starts a typed query condition on keys of this type.
    fn query() -> Self::Query;
}

/// A partition key with a shard field (`#[key(shards = N, by = field)]` or `random`), which the
/// derive implements: the merged read sets the shard to each of `0..N` in turn, and a write sets
/// the item's.
///
/// ```
/// use sortkey_core::{Sharded, SortKey};
///
/// #[derive(SortKey, Clone)]
/// #[key(partition, prefix = "SEASON")]
/// struct SeasonPk {
///     #[key(width = 4)]
///     season: u16,
///     #[key(shards = 16, by = player)]
///     shard: u16,
/// }
///
/// let mut pk = SeasonPk { season: 2026, shard: 0 };
/// pk.set_shard(SeasonPk::SHARDS.of(b"p_8842"));
/// assert_eq!(pk.encode().unwrap(), "SEASON#2026#10");
/// assert_eq!(SeasonPk::LAYOUT.to_string(), "partition SEASON#{season:u16 width=4}#{shard:u16 width=2 shards=16 by=player}");
/// let all = pk.every_shard().unwrap();
/// assert_eq!((all.len(), all[0].as_str(), all[15].as_str()), (16, "SEASON#2026#00", "SEASON#2026#15"));
/// ```
pub trait Sharded: SortKey {
    /// The count and the rule.
    const SHARDS: crate::encoding::shard::Shards;

    /// The key's shard, 0 to `SHARDS.count() - 1`.
    fn shard(&self) -> u16;

    /// Sets the key's shard. A shard at or above the count is refused when the key is encoded.
    fn set_shard(&mut self, shard: u16);

    /// The key's encoding in each shard, `0..N`: the partitions a merged read queries.
    fn every_shard(&self) -> Result<Vec<String>, EncodeError>
    where
        Self: Clone,
    {
        let mut key = self.clone();
        Self::SHARDS
            .all()
            .map(|shard| {
                key.set_shard(shard);
                key.encode()
            })
            .collect()
    }
}
