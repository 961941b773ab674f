//! Which of a partition's shards an item goes to: FNV-1a (64 bits) of the bytes the field it is
//! calculated from encodes to, mixed by MurmurHash3's 64-bit finalizer, modulo the shard count. Specified to be written again in any
//! language in a few lines (the README gives the constants; tests/vectors/shards.json holds
//! values and their shards, which a second implementation in Python checks).

use std::num::NonZeroU16;

/// FNV-1a's 64-bit offset basis.
const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a's 64-bit prime.
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a, 64 bits, of `bytes`: from the offset basis, for each byte, XOR it in, then multiply by
/// the prime (wrapping).
///
/// ```
/// assert_eq!(sortkey_core::fnv1a64(b""), 0xcbf29ce484222325);
/// assert_eq!(sortkey_core::fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
/// ```
pub const fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash = OFFSET_BASIS;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(PRIME);
        i += 1;
    }
    hash
}

/// The shard, from 0 to `count - 1`, of an item whose shard is calculated from a field that
/// encodes to `encoded` (its segment's bytes in the key, `p_8842` for a player id): `h = FNV-1a
/// 64 of the bytes`, mixed (`h ^= h >> 33; h *= 0xff51afd7ed558ccd; h ^= h >> 33; h *=
/// 0xc4ceb9fe1a85ec53; h ^= h >> 33`, wrapping), then `h mod count`. The mix matters: FNV-1a's
/// low bits depend only on the low bits of each byte, so with a power of two shards `Bob` and
/// `bob` (`B` is 0x42, `b` 0x62) would always share a shard; mixed, such pairs share one as often
/// as chance has it.
///
/// ```
/// use std::num::NonZeroU16;
///
/// let sixteen = NonZeroU16::new(16).unwrap();
/// assert_eq!(sortkey_core::shard_of("p_8842".as_bytes(), sixteen), 10);
/// assert_eq!(sortkey_core::shard_of(b"anything", NonZeroU16::MIN), 0);
/// ```
pub const fn shard_of(encoded: &[u8], count: NonZeroU16) -> u16 {
    let mut h = fnv1a64(encoded);
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    (h % count.get() as u64) as u16
}

/// How a sharded partition key's shard is chosen, as `#[key(shards = N, by = field)]` or
/// `#[key(shards = N, random)]` declares it and the layout text shows it (`by=field`, `random`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShardRule {
    /// Calculated from the named field of the sort key: [`shard_of`] over the bytes of its
    /// segment in the sort key, so that whoever knows the item's sort key knows its shard.
    By(&'static str),
    /// Chosen at random when the item is written: for append-only data, read only merged.
    Random,
}

/// The shards of a partition key: how many, and how an item's is chosen. The shard is a `u16`
/// field of the partition key, written in as many digits as its largest value: `shards = 16` writes
/// `00` to `15`, as `width = 2, max = 15` would.
///
/// ```
/// use sortkey_core::{ShardRule, Shards};
///
/// const SHARDS: Shards = Shards::by(16, "player");
/// assert_eq!((SHARDS.count().get(), SHARDS.width(), SHARDS.rule()), (16, 2, ShardRule::By("player")));
/// assert_eq!(SHARDS.of(b"p_8842"), 10);
/// assert_eq!(Shards::random(1000).width(), 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shards {
    count: NonZeroU16,
    rule: ShardRule,
}

impl Shards {
    /// The most shards a partition key may have: 1,000 partitions take a million write units a
    /// second, and a merged read queries each of them.
    pub const MAX: u16 = 1000;

    /// `count` shards, each item's calculated from the sort key's field `field`. Panics (a
    /// compile error in a constant) unless `count` is 1 to [`MAX`](Self::MAX).
    pub const fn by(count: u16, field: &'static str) -> Self {
        Shards::new(count, ShardRule::By(field))
    }

    /// `count` shards, each item's chosen at random. Panics (a compile error in a constant)
    /// unless `count` is 1 to [`MAX`](Self::MAX).
    pub const fn random(count: u16) -> Self {
        Shards::new(count, ShardRule::Random)
    }

    /// `count` shards chosen by `rule`. Panics (a compile error in a constant) unless `count` is
    /// 1 to [`MAX`](Self::MAX).
    pub const fn new(count: u16, rule: ShardRule) -> Self {
        assert!(count >= 1 && count <= Shards::MAX, "a shard count is 1 to 1000");
        match NonZeroU16::new(count) {
            Some(count) => Shards { count, rule },
            None => panic!("a shard count is 1 to 1000"),
        }
    }

    /// How many shards.
    pub const fn count(&self) -> NonZeroU16 {
        self.count
    }

    /// How an item's shard is chosen.
    pub const fn rule(&self) -> ShardRule {
        self.rule
    }

    /// The largest shard, `count - 1`: the shard field's `max`.
    pub const fn last(&self) -> u16 {
        self.count.get() - 1
    }

    /// The digits the shard is written in: those of [`last`](Self::last), at least one.
    pub const fn width(&self) -> u32 {
        match self.last() {
            0..=9 => 1,
            10..=99 => 2,
            100..=999 => 3,
            _ => 4,
        }
    }

    /// The shard of an item whose `by` field's segment is `encoded`: [`shard_of`].
    pub const fn of(&self, encoded: &[u8]) -> u16 {
        shard_of(encoded, self.count)
    }

    /// Every shard, `0..count`.
    pub fn all(&self) -> std::ops::Range<u16> {
        0..self.count.get()
    }
}

impl std::fmt::Display for Shards {
    /// The field options as the layout text writes them: `shards=16 by=player`, `shards=4 random`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.rule {
            ShardRule::By(field) => write!(f, "shards={} by={field}", self.count),
            ShardRule::Random => write!(f, "shards={} random", self.count),
        }
    }
}
