//! The shard rule, `FNV-1a 64 of the bytes the field encodes to, mod N`, as the README specifies
//! it: held to the committed vectors (tests/vectors/shards.json, which the Python checker reads
//! too: `python3 tests/vectors/check_layout.py --shards tests/vectors/shards.json`), and spread
//! evenly: a million players over 16 shards, the fullest within 5 % of the mean.

use std::num::NonZeroU16;

use sortkey_core::{fnv1a64, shard_of};

/// The values of the vectors: empty, one byte, player ids, digits as a key writes them, UTF-8
/// beyond ASCII, and a long one.
fn values() -> Vec<String> {
    let mut values: Vec<String> =
        ["", "a", "p_8842", "p_0", "p_1", "0000001500", "9999998499", "é", "🦀", "SEASON#2026"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
    values.push("x".repeat(300));
    values.extend((0..8).map(|i| format!("player-{i:05}")));
    values
}

/// One vector: a value (its UTF-8 bytes are what is hashed), a count, the hash and the shard.
#[derive(serde::Serialize)]
struct Vector {
    value: String,
    count: u16,
    fnv1a64: String,
    shard: u16,
}

/// The vectors file: the rule in words, then the vectors. Written through these types, so that
/// its members are in the same order whatever serde_json's features (the workspace's
/// `preserve_order` or not).
#[derive(serde::Serialize)]
struct Vectors {
    rule: &'static str,
    vectors: Vec<Vector>,
}

/// The vectors' text: one object per value and count, with the hash and the shard.
fn vectors() -> String {
    let counts = [1u16, 2, 3, 16, 64, 1000, 65535];
    let mut vectors = Vec::new();
    for value in values() {
        for count in counts {
            let n = NonZeroU16::new(count).unwrap();
            let (fnv1a64, shard) = (format!("{:016x}", fnv1a64(value.as_bytes())), shard_of(value.as_bytes(), n));
            vectors.push(Vector { value: value.clone(), count, fnv1a64, shard });
        }
    }
    let rule = "h = fnv1a64(utf8 bytes of the encoded field); h ^= h >> 33; h *= 0xff51afd7ed558ccd; h ^= h >> 33; \
                h *= 0xc4ceb9fe1a85ec53; h ^= h >> 33; shard = h mod count (all mod 2^64); fnv1a64: offset basis \
                0xcbf29ce484222325, for each byte: h ^= byte, h *= 0x100000001b3";
    serde_json::to_string_pretty(&Vectors { rule, vectors }).unwrap() + "\n"
}

#[test]
fn the_shard_rule_gives_the_committed_vectors() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/shards.json");
    if std::env::var_os("UPDATE_VECTORS").is_some() {
        std::fs::write(path, vectors()).unwrap();
    }
    let committed = std::fs::read_to_string(path).expect("tests/vectors/shards.json; UPDATE_VECTORS=1 writes it");
    assert_eq!(committed, vectors(), "the shard rule changed: every stored item's shard would move");
    // FNV-1a's published values.
    assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
}

/// Names that differ only in the high bits of their bytes (`Bob`, `BOB`, `bob`) share a shard as
/// often as chance has it: FNV-1a's low bits alone would put each such pair together for any
/// power of two shards.
#[test]
fn the_mix_keeps_names_apart_that_differ_in_high_bits() {
    let sixteen = NonZeroU16::new(16).unwrap();
    let names: Vec<String> = (0..20_000u32).map(|i| format!("player{}", i * 7919 % 100_003)).collect();
    let upper = |s: &str| s.to_ascii_uppercase();
    let low = |s: &str| fnv1a64(s.as_bytes()) % 16;
    assert!(names.iter().all(|n| low(n) == low(&upper(n))), "unmixed, each pair shares a shard");
    let same =
        names.iter().filter(|n| shard_of(n.as_bytes(), sixteen) == shard_of(upper(n).as_bytes(), sixteen)).count();
    let share = same as f64 / names.len() as f64;
    assert!((0.04..0.09).contains(&share), "mixed, {share:.3} of the pairs share a shard (chance: 0.0625)");
}

#[test]
fn a_million_players_spread_evenly_over_sixteen_shards() {
    let sixteen = NonZeroU16::new(16).unwrap();
    let mut counts = [0u32; 16];
    for i in 0..1_000_000u32 {
        counts[usize::from(shard_of(format!("p_{i}").as_bytes(), sixteen))] += 1;
    }
    let mean = 1_000_000.0 / 16.0;
    let largest = f64::from(*counts.iter().max().unwrap());
    assert!(largest / mean <= 1.05, "largest / mean = {:.4}: {counts:?}", largest / mean);
}

/// A sharded partition key, as the leaderboard spreads a season.
#[derive(sortkey_core::SortKey, Clone, Debug, PartialEq)]
#[key(partition, prefix = "SEASON")]
struct SeasonPk {
    #[key(width = 4)]
    season: u16,
    #[key(shards = 16, by = player)]
    shard: u16,
}

/// Another: random shards, a thousand of them.
#[derive(sortkey_core::SortKey, Clone, Debug, PartialEq)]
#[key(partition, prefix = "LOG")]
struct LogPk {
    day: u32,
    #[key(shards = 1000, random)]
    shard: u16,
}

#[test]
fn a_shard_field_is_written_in_its_counts_digits_and_refused_past_it() {
    use sortkey_core::{EncodeErrorKind, Sharded, SortKey};
    let mut pk = SeasonPk { season: 2026, shard: 0 };
    pk.set_shard(SeasonPk::SHARDS.of(b"p_8842"));
    assert_eq!(pk.shard(), 10);
    assert_eq!(pk.encode().unwrap(), "SEASON#2026#10");
    assert_eq!(SeasonPk::decode("SEASON#2026#10").unwrap(), pk);
    pk.set_shard(16);
    assert!(matches!(pk.encode().unwrap_err().kind(), EncodeErrorKind::AboveMax { .. }), "shard 16 of 16");
    assert!(SeasonPk::decode("SEASON#2026#16").is_err());
    let all = LogPk { day: 7, shard: 0 }.every_shard().unwrap();
    assert_eq!((all.len(), all[0].as_str(), all[999].as_str()), (1000, "LOG#0000000007#000", "LOG#0000000007#999"));
}

#[test]
fn the_layout_text_carries_the_count_and_the_rule_and_reads_back() {
    use sortkey_core::{DynLayout, DynValue, ShardRule, SortKey};
    let texts = [
        (SeasonPk::LAYOUT.to_string(), "partition SEASON#{season:u16 width=4}#{shard:u16 width=2 shards=16 by=player}"),
        (LogPk::LAYOUT.to_string(), "partition LOG#{day:u32 width=10}#{shard:u16 width=3 shards=1000 random}"),
    ];
    for (derived, expected) in texts {
        assert_eq!(derived, expected);
        let layout = DynLayout::parse(&derived).unwrap();
        assert_eq!(layout.to_string(), derived, "prints as it reads");
    }
    // Without the width, which the count implies.
    let layout = DynLayout::parse("partition SEASON#{season:u16 width=4}#{shard:u16 shards=16 by=player}").unwrap();
    assert_eq!(layout.to_string(), texts_first());
    let sortkey_core::DynBody::Fields(fields) = &layout.key.body else { panic!("fields") };
    assert_eq!(fields[1].shards.map(|s| s.rule()), Some(ShardRule::By("player")));
    let value = |shard| DynValue::Key(vec![("season", DynValue::Unsigned(2026)), ("shard", DynValue::Unsigned(shard))]);
    assert_eq!(layout.encode(&value(7)).unwrap(), "SEASON#2026#07");
    assert!(layout.encode(&value(16)).is_err(), "past the count");
    assert_eq!(layout.decode("SEASON#2026#15").unwrap(), value(15));
}

fn texts_first() -> String {
    use sortkey_core::SortKey;
    SeasonPk::LAYOUT.to_string()
}

#[test]
fn a_layout_text_with_a_wrong_shard_is_refused_where_it_is_wrong() {
    use sortkey_core::DynLayout;
    let refused = [
        // (text, offset, what the error expects)
        ("partition P#{s:u16 shards=16}", 28, "`by=name` or `random`"),
        ("partition P#{s:u16 by=x}", 23, "`shards=N` before"),
        ("partition P#{s:u16 shards=0 random}", 19, "a shard count of 1 to 1000"),
        ("partition P#{s:u16 shards=1001 random}", 19, "a shard count of 1 to 1000"),
        ("partition P#{s:u8 shards=16 random}", 18, "a shard field of type u16"),
        ("partition P#{s:u16 width=3 shards=16 random}", 19, "no width, or `width=2`"),
        ("partition P#{s:u16 max=9 shards=16 random}", 25, "no `max` and no `desc`"),
        ("partition P#{s:u16 shards=16 by=x random}", 34, "`random` once"),
        ("P#{s:u16 shards=16 random}", 9, "on one field of a partition key"),
        ("partition P#{s:u16 shards=2 random}#{t:u16 shards=2 random}", 43, "on one field of a partition key"),
        ("partition P#{k:key(Q#{s:u16 shards=2 random})}", 28, "on one field of a partition key"),
    ];
    let wrong: Vec<String> = refused
        .iter()
        .filter_map(|&(text, offset, expected)| {
            let e = DynLayout::parse(text).unwrap_err();
            (e.offset != offset || !e.expected.contains(expected)).then(|| format!("{text}: {e}"))
        })
        .collect();
    assert!(wrong.is_empty(), "refused elsewhere or otherwise:\n{}", wrong.join("\n"));
}

/// A season's runs, spread over 16 partitions by player.
#[derive(sortkey_core::Entity, Clone, Debug, PartialEq)]
#[entity(
    pk(prefix = "SEASON", season(width = 4), shard(shards = 16, by = player)),
    sk(prefix = "RUN", score(width = 10, desc), player)
)]
struct Run {
    season: u16,
    score: u64,
    player: String,
}

/// The same, sharded by a field before the sort key's last: its segment is its digits there.
#[derive(sortkey_core::Entity, Clone, Debug, PartialEq)]
#[entity(pk(prefix = "S", season, shard(shards = 7, by = score)), sk(score(width = 10, desc), player))]
struct ByScore {
    season: u16,
    score: u64,
    player: String,
}

#[test]
fn an_entity_writes_each_item_to_the_shard_its_sort_key_field_hashes_to() {
    use sortkey_core::{Entity, Sharded, SortKey};
    let run = Run { season: 2026, score: 1500, player: "p_8842".into() };
    let key = run.primary_key();
    assert_eq!(key.partition.shard(), RunPk::SHARDS.of(b"p_8842"));
    assert_eq!(key.partition.encode().unwrap(), "SEASON#2026#10");
    let keys = run.key_attributes().unwrap();
    assert_eq!(keys.get("pk"), Some("SEASON#2026#10"));
    assert_eq!(
        RunPk::LAYOUT.to_string(),
        "partition SEASON#{season:u16 width=4}#{shard:u16 width=2 shards=16 by=player}"
    );
    let by_score = ByScore { season: 1, score: 1500, player: "p_8842".into() };
    assert_eq!(by_score.primary_key().partition.shard, ByScorePk::SHARDS.of(b"9999998499"));
    // Players spread: 1,000 of them fill every shard.
    let mut seen = [false; 16];
    for i in 0..1000 {
        seen[usize::from(Run { season: 2026, score: 1, player: format!("p_{i}") }.primary_key().partition.shard)] =
            true;
    }
    assert!(seen.iter().all(|s| *s));
}

#[test]
fn a_sort_key_field_that_does_not_encode_is_the_sort_keys_error() {
    use sortkey_core::Entity;
    // `player` is the last field of the sort key, so any text encodes; a score does not fit 3 digits.
    #[derive(sortkey_core::Entity, Clone, Debug)]
    #[entity(pk(prefix = "S", shard(shards = 4, by = score)), sk(score(width = 3), player))]
    struct Small {
        score: u64,
        player: String,
    }
    let e = Small { score: 5000, player: "p".into() }.key_attributes().unwrap_err();
    assert_eq!((e.key(), e.field()), ("SmallSk", Some("score")), "{e}");
}
