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
