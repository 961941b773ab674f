//! The derived encoder and decoder against what a service writes by hand, in one run.
//!
//! Two keys: the seed's `RankKey` (prefix, a `desc` u64, a u64, a text tail) and `EventKey`, four
//! integer fields and no text. For each:
//!
//! - `derive`: the generated `encode_into` (into a reused `String`), `encode` and `decode`;
//! - `format` / `split`: baseline (a), `format!` and `split('#')` + `parse`, what services write today
//!   (no width, digit or overflow checks beyond what `parse` does);
//! - `hand`: baseline (b), the best hand-tuned code for the same key: `itoa`, a reused buffer,
//!   and the same checks as the derive (overflow, exact widths, ASCII digits only, separators,
//!   the 1024-byte limit);
//! - `derive_borrowed` (decode only): `RankKey` with `player_id: &str`, the same decode without
//!   allocating the tail, to show what the allocation costs;
//! - `memcpy`: baseline (c), copying an already encoded key of the same length into the reused
//!   buffer (`to_owned` for `encode`, which allocates a new string).
//!
//! `cargo bench -p sortkey-core --bench keys`, then `python3 sortkey-core/benches/report.py`
//! prints the table of BENCHMARKS.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group};
use sortkey_core::{DecodeKey, SortKey};

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN")]
struct RankKey {
    #[key(width = 10, desc)]
    score: u64,
    #[key(width = 16)]
    timestamp: u64,
    player_id: String,
}

/// `RankKey` with a borrowed tail: the decode without the allocation of `player_id`.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN")]
struct RankKeyRef<'a> {
    #[key(width = 10, desc)]
    score: u64,
    #[key(width = 16)]
    timestamp: u64,
    player_id: &'a str,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
struct EventKey {
    #[key(width = 10)]
    tenant: u32,
    #[key(width = 16)]
    timestamp: u64,
    #[key(width = 5, desc)]
    priority: u16,
    #[key(width = 10)]
    seq: u32,
}

/// Baseline (a): what a service writes today.
mod naive {
    use super::{EventKey, RankKey};

    pub(crate) fn encode_rank(k: &RankKey) -> String {
        format!("RUN#{:010}#{:016}#{}", 9_999_999_999 - k.score, k.timestamp, k.player_id)
    }

    pub(crate) fn decode_rank(key: &str) -> Option<RankKey> {
        let mut parts = key.split('#');
        if parts.next()? != "RUN" {
            return None;
        }
        let score = 9_999_999_999 - parts.next()?.parse::<u64>().ok()?;
        let timestamp = parts.next()?.parse::<u64>().ok()?;
        let player_id = parts.next()?.to_string();
        Some(RankKey { score, timestamp, player_id })
    }

    pub(crate) fn encode_event(k: &EventKey) -> String {
        format!("{:010}#{:016}#{:05}#{:010}", k.tenant, k.timestamp, 99_999 - u32::from(k.priority), k.seq)
    }

    pub(crate) fn decode_event(key: &str) -> Option<EventKey> {
        let mut parts = key.split('#');
        let tenant = parts.next()?.parse::<u32>().ok()?;
        let timestamp = parts.next()?.parse::<u64>().ok()?;
        let priority = u16::try_from(99_999 - parts.next()?.parse::<u32>().ok()?).ok()?;
        let seq = parts.next()?.parse::<u32>().ok()?;
        Some(EventKey { tenant, timestamp, priority, seq })
    }
}

/// Baseline (b): hand-tuned, with the checks the derive makes.
mod hand {
    use super::{EventKey, RankKey};

    #[derive(Debug)]
    pub(crate) enum Error {
        TooWide,
        TooLong,
        Empty,
        Literal,
        Digits,
        Overflow,
    }

    const ZEROS: &str = "0000000000000000";
    const MAX_LEN: usize = 1024;

    /// Appends `v` zero-padded to `width` digits; the caller checked `v < 10^width`.
    #[inline]
    fn push_padded(out: &mut String, buf: &mut itoa::Buffer, v: u64, width: usize) {
        let s = buf.format(v);
        out.push_str(&ZEROS[..width - s.len()]);
        out.push_str(s);
    }

    /// Exactly `digits.len()` ASCII digits as a number; 19 digits or fewer never overflow a u64.
    #[inline]
    fn parse(digits: &[u8]) -> Result<u64, Error> {
        let mut v = 0u64;
        for &b in digits {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                return Err(Error::Digits);
            }
            v = v * 10 + u64::from(d);
        }
        Ok(v)
    }

    #[inline]
    fn expect(b: &[u8], at: usize, byte: u8) -> Result<(), Error> {
        if b[at] == byte { Ok(()) } else { Err(Error::Literal) }
    }

    pub(crate) fn encode_rank(k: &RankKey, out: &mut String) -> Result<(), Error> {
        if k.score > 9_999_999_999 || k.timestamp >= 10_000_000_000_000_000 {
            return Err(Error::TooWide);
        }
        let len = 4 + 10 + 1 + 16 + 1 + k.player_id.len();
        if len > MAX_LEN {
            return Err(Error::TooLong);
        }
        out.reserve(len);
        let mut buf = itoa::Buffer::new();
        out.push_str("RUN#");
        push_padded(out, &mut buf, 9_999_999_999 - k.score, 10);
        out.push('#');
        push_padded(out, &mut buf, k.timestamp, 16);
        out.push('#');
        out.push_str(&k.player_id);
        Ok(())
    }

    pub(crate) fn decode_rank(key: &str) -> Result<RankKey, Error> {
        let b = key.as_bytes();
        if b.is_empty() {
            return Err(Error::Empty);
        }
        if b.len() > MAX_LEN {
            return Err(Error::TooLong);
        }
        if b.len() < 32 || &b[..4] != b"RUN#" {
            return Err(Error::Literal);
        }
        let score = 9_999_999_999 - parse(&b[4..14])?;
        expect(b, 14, b'#')?;
        let timestamp = parse(&b[15..31])?;
        expect(b, 31, b'#')?;
        // Byte 31 is ASCII, so 32 is a char boundary.
        Ok(RankKey { score, timestamp, player_id: key[32..].to_owned() })
    }

    pub(crate) fn encode_event(k: &EventKey, out: &mut String) -> Result<(), Error> {
        // u32 always fits 10 digits and 99_999 - u16 fits 5, so only the timestamp can be too wide.
        if k.timestamp >= 10_000_000_000_000_000 {
            return Err(Error::TooWide);
        }
        out.reserve(44);
        let mut buf = itoa::Buffer::new();
        push_padded(out, &mut buf, u64::from(k.tenant), 10);
        out.push('#');
        push_padded(out, &mut buf, k.timestamp, 16);
        out.push('#');
        push_padded(out, &mut buf, 99_999 - u64::from(k.priority), 5);
        out.push('#');
        push_padded(out, &mut buf, u64::from(k.seq), 10);
        Ok(())
    }

    pub(crate) fn decode_event(key: &str) -> Result<EventKey, Error> {
        let b = key.as_bytes();
        if b.len() != 44 {
            return Err(if b.is_empty() { Error::Empty } else { Error::Literal });
        }
        let tenant = u32::try_from(parse(&b[0..10])?).map_err(|_| Error::Overflow)?;
        expect(b, 10, b'#')?;
        let timestamp = parse(&b[11..27])?;
        expect(b, 27, b'#')?;
        let priority = u16::try_from(99_999 - parse(&b[28..33])?).map_err(|_| Error::Overflow)?;
        expect(b, 33, b'#')?;
        let seq = u32::try_from(parse(&b[34..44])?).map_err(|_| Error::Overflow)?;
        Ok(EventKey { tenant, timestamp, priority, seq })
    }
}

fn rank_key() -> RankKey {
    RankKey { score: 1_500, timestamp: 1_719_100_800_123, player_id: "p_8842".to_owned() }
}

fn event_key() -> EventKey {
    EventKey { tenant: 42_017, timestamp: 1_719_100_800_123_456, priority: 3, seq: 1_234_567 }
}

/// Checks that the three implementations agree before timing them.
fn check_agreement() {
    let (r, e) = (rank_key(), event_key());
    let mut out = String::new();
    hand::encode_rank(&r, &mut out).unwrap();
    assert_eq!(r.encode().unwrap(), out);
    assert_eq!(naive::encode_rank(&r), out);
    assert_eq!(RankKey::decode(&out).unwrap(), r);
    assert_eq!(hand::decode_rank(&out).unwrap(), r);
    assert_eq!(naive::decode_rank(&out).unwrap(), r);
    assert_eq!(RankKeyRef::decode_borrowed(&out).unwrap().player_id, r.player_id);
    out.clear();
    hand::encode_event(&e, &mut out).unwrap();
    assert_eq!(e.encode().unwrap(), out);
    assert_eq!(naive::encode_event(&e), out);
    assert_eq!(EventKey::decode(&out).unwrap(), e);
    assert_eq!(hand::decode_event(&out).unwrap(), e);
    assert_eq!(naive::decode_event(&out).unwrap(), e);
    // The hand-tuned code makes the derive's checks.
    assert!(hand::decode_rank("RUN#999999849+#0001719100800123#p").is_err());
    assert!(hand::decode_event("4294967296#0001719100800123456#99996#0001234567").is_err());
    assert!(hand::encode_rank(&RankKey { score: 10_000_000_000, ..r }, &mut out).is_err());
}

/// The encode groups of one key: `encode_into` against the hand-tuned code and `memcpy` of a
/// string of the same length, and `encode` against `format!` and `to_owned`.
fn encode_groups<K: SortKey, E: std::fmt::Debug>(
    c: &mut Criterion,
    name: &str,
    key: &K,
    hand: impl Fn(&K, &mut String) -> Result<(), E>,
    naive: impl Fn(&K) -> String,
) {
    let encoded = key.encode().unwrap();
    let mut out = String::with_capacity(64);

    let mut g = c.benchmark_group(format!("{name}_encode_into"));
    g.bench_function("derive", |b| {
        b.iter(|| {
            out.clear();
            black_box(key).encode_into(&mut out).unwrap();
            black_box(&out);
        })
    });
    g.bench_function("hand", |b| {
        b.iter(|| {
            out.clear();
            hand(black_box(key), &mut out).unwrap();
            black_box(&out);
        })
    });
    g.bench_function("memcpy", |b| {
        b.iter(|| {
            out.clear();
            out.push_str(black_box(encoded.as_str()));
            black_box(&out);
        })
    });
    g.finish();

    let mut g = c.benchmark_group(format!("{name}_encode"));
    g.bench_function("derive", |b| b.iter(|| black_box(key).encode().unwrap()));
    g.bench_function("format", |b| b.iter(|| naive(black_box(key))));
    g.bench_function("to_owned", |b| b.iter(|| black_box(encoded.as_str()).to_owned()));
    g.finish();
}

fn bench_rank(c: &mut Criterion) {
    let key = rank_key();
    let encoded = key.encode().unwrap();

    encode_groups(c, "rank", &key, hand::encode_rank, naive::encode_rank);

    let mut g = c.benchmark_group("rank_decode");
    g.bench_function("derive", |b| b.iter(|| RankKey::decode(black_box(&encoded)).unwrap()));
    g.bench_function("derive_borrowed", |b| b.iter(|| RankKeyRef::decode_borrowed(black_box(&encoded)).unwrap()));
    g.bench_function("hand", |b| b.iter(|| hand::decode_rank(black_box(&encoded)).unwrap()));
    g.bench_function("split", |b| b.iter(|| naive::decode_rank(black_box(&encoded)).unwrap()));
    g.finish();
}

fn bench_event(c: &mut Criterion) {
    let key = event_key();
    let encoded = key.encode().unwrap();

    encode_groups(c, "event", &key, hand::encode_event, naive::encode_event);

    let mut g = c.benchmark_group("event_decode");
    g.bench_function("derive", |b| b.iter(|| EventKey::decode(black_box(&encoded)).unwrap()));
    g.bench_function("hand", |b| b.iter(|| hand::decode_event(black_box(&encoded)).unwrap()));
    g.bench_function("split", |b| b.iter(|| naive::decode_event(black_box(&encoded)).unwrap()));
    g.finish();
}

/// The shard of a player's run, from the player id as its key writes it: the specified rule
/// (FNV-1a 64, mixed, mod 16) against what a service writes by hand with the standard library's
/// hasher (SipHash 1-3, which no other language reproduces, and which Rust does not promise to
/// keep from one release to the next).
fn bench_shard(c: &mut Criterion) {
    use std::hash::{BuildHasher, Hasher};
    let player = "p_8842";
    let sixteen = std::num::NonZeroU16::new(16).unwrap();
    let mut g = c.benchmark_group("shard_of");
    g.bench_function("sortkey", |b| b.iter(|| sortkey_core::shard_of(black_box(player).as_bytes(), sixteen)));
    g.bench_function("std_siphash", |b| {
        let state = std::hash::BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default();
        b.iter(|| {
            let mut h = state.build_hasher();
            h.write(black_box(player).as_bytes());
            h.finish() % 16
        })
    });
    g.finish();
}

fn config() -> Criterion {
    check_agreement();
    Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_rank, bench_event, bench_shard
}
/// `SORTKEY_PROBE=<name>` runs one operation a million times instead of the benchmarks, for an
/// instruction count under `valgrind --tool=callgrind`, which a shared machine's load does not
/// move (comparing two commits' generated code, say): rank_encode, rank_decode, event_encode,
/// event_decode, or none (the loop alone).
fn probe(name: &str) {
    let rank = RankKey { score: 1500, timestamp: 1_719_100_800, player_id: "p_8842".into() };
    let event = EventKey { tenant: 42, timestamp: 1_719_100_800_000, priority: 3, seq: 17 };
    let (rank_key, event_key) = (rank.encode().unwrap(), event.encode().unwrap());
    let mut out = String::with_capacity(64);
    for _ in 0..1_000_000 {
        out.clear();
        match name {
            "rank_encode" => black_box(&rank).encode_into(&mut out).unwrap(),
            "rank_decode" => drop(black_box(RankKey::decode(black_box(&rank_key)))),
            "event_encode" => black_box(&event).encode_into(&mut out).unwrap(),
            "event_decode" => drop(black_box(EventKey::decode(black_box(&event_key)))),
            _ => drop(black_box(&rank_key)),
        }
        black_box(&out);
    }
}

fn main() {
    if let Ok(name) = std::env::var("SORTKEY_PROBE") {
        return probe(&name);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
