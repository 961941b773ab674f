//! Rank counters against a sorted list: for random boards of 1,000 to 1,000,000 items over 1, 2
//! and 16 shards, with ties, every rank the counters give (the counts of the key's path plus the
//! items of its finest bucket) is the rank a sorted list of every key gives, before and after
//! random moves and deletes kept by the counters' changes alone.

use std::collections::{BTreeSet, HashMap};

use sortkey_core::{RankedField, SortKey};
use sortkey_tests::leaderboard::RankKeyV1;
use sortkey_tests::rng::Rng;

/// A board as DynamoDB holds it: each shard's sort keys in byte order, and its counter items
/// kept only by [`RankedField::changes`].
struct Board {
    ranked: RankedField,
    shards: Vec<BTreeSet<String>>,
    counters: Vec<HashMap<String, [i64; 10]>>,
}

impl Board {
    fn new(ranked: RankedField, shards: usize) -> Board {
        Board { ranked, shards: vec![BTreeSet::new(); shards], counters: vec![HashMap::new(); shards] }
    }

    /// A write of one item of shard `shard`: its key before and after (a put, a move or a delete).
    fn write(&mut self, shard: usize, before: Option<&str>, after: Option<&str>) {
        let ranked = &self.ranked;
        let (old, new) = (before.and_then(|k| ranked.digits(k)), after.and_then(|k| ranked.digits(k)));
        assert_eq!((old.is_some(), new.is_some()), (before.is_some(), after.is_some()), "keys of the board");
        for (node, change) in ranked.changes(old, new) {
            let counts = self.counters[shard].entry(node).or_default();
            for (count, change) in counts.iter_mut().zip(change) {
                *count += change;
                assert!(*count >= 0, "a count below zero");
            }
        }
        if let Some(before) = before {
            assert!(self.shards[shard].remove(before));
        }
        if let Some(after) = after {
            assert!(self.shards[shard].insert(after.to_owned()));
        }
    }

    /// The rank of `key` as a rank read computes it: per shard, the counts of its path and the
    /// items of its finest bucket before it (the Query's count, less `key` itself), plus one.
    fn rank(&self, key: &str, forward: bool) -> (u64, u64) {
        let digits = self.ranked.digits(key).expect("a key of the board");
        let mut rank = 1;
        let mut bucket_items = 0;
        for (shard, keys) in self.shards.iter().enumerate() {
            let counted = self.ranked.counted_before(digits, forward, |node| {
                let counts = self.counters[shard].get(node).copied().unwrap_or_default();
                counts.map(|c| u64::try_from(c).unwrap())
            });
            let (low, high) = self.ranked.bucket(digits, key, forward);
            let in_bucket = keys.range(low..=high).count() as u64;
            let own = u64::from(keys.contains(key));
            bucket_items += in_bucket;
            rank += counted + in_bucket - own;
        }
        (rank, bucket_items)
    }

    /// The rank a sorted list of every key gives: one more than the keys before `key`, found
    /// by binary search in each shard's keys listed in order.
    fn oracle(lists: &[Vec<&String>], key: &str, forward: bool) -> u64 {
        let before: usize = lists
            .iter()
            .map(|keys| match forward {
                true => keys.partition_point(|k| k.as_str() < key),
                false => keys.len() - keys.partition_point(|k| k.as_str() <= key),
            })
            .sum();
        before as u64 + 1
    }
}

fn key(score: u64, player: u64) -> String {
    RankKeyV1 { score, player: format!("p_{player}") }.encode().unwrap()
}

/// A board of `items` runs over `shards` shards (by player), scores from `0..spread` (ties when
/// the spread is small), then `moves` score changes and deletes; every probe's rank is the
/// sorted list's, and the finest buckets hold few items.
fn check(seed: u64, items: u64, shards: usize, spread: u64, levels: usize, probes: usize) {
    let ranked = RankedField::of("RankKeyV1", &RankKeyV1::LAYOUT, "score", levels).unwrap();
    let mut board = Board::new(ranked, shards);
    let mut rng = Rng(seed);
    let mut scores = Vec::with_capacity(items as usize);
    for player in 0..items {
        let score = rng.below(spread as usize) as u64;
        scores.push(score);
        board.write(player as usize % shards, None, Some(&key(score, player)));
    }
    let probe = |board: &Board, rng: &mut Rng, scores: &[u64]| {
        let lists: Vec<Vec<&String>> = board.shards.iter().map(|keys| keys.iter().collect()).collect();
        for _ in 0..probes {
            let player = rng.below(items as usize) as u64;
            // A player's own key, or a score alone (`RUN#<digits>`), which sorts before its ties.
            let key = match rng.below(2) {
                0 => key(scores[player as usize], player),
                _ => format!("RUN#{}", &key(rng.below(spread as usize) as u64, 0)[4..14]),
            };
            for forward in [true, false] {
                let (rank, _) = board.rank(&key, forward);
                assert_eq!(rank, Board::oracle(&lists, &key, forward), "seed {seed}: {key} forward {forward}");
            }
        }
    };
    probe(&board, &mut rng, &scores);
    for _ in 0..items.min(2_000) {
        let player = rng.below(items as usize) as u64;
        let shard = player as usize % shards;
        if scores[player as usize] == u64::MAX {
            continue;
        }
        let old = key(scores[player as usize], player);
        match rng.below(4) {
            0 => {
                board.write(shard, Some(&old), None);
                scores[player as usize] = u64::MAX;
            }
            _ => {
                let score = rng.below(spread as usize) as u64;
                let new = key(score, player);
                if new != old {
                    board.write(shard, Some(&old), Some(&new));
                }
                scores[player as usize] = score;
            }
        }
    }
    let alive: Vec<u64> = scores.iter().map(|&s| if s == u64::MAX { 0 } else { s }).collect();
    probe(&board, &mut rng, &alive);
    // The counters kept by the writes' changes alone equal the counts of the keys left.
    for (keys, counters) in board.shards.iter().zip(&board.counters) {
        let kept: std::collections::BTreeMap<String, [u64; 10]> = counters
            .iter()
            .filter(|(_, c)| c.iter().any(|&n| n != 0))
            .map(|(node, c)| (node.clone(), c.map(|n| u64::try_from(n).unwrap())))
            .collect();
        assert_eq!(kept, board.ranked.tally(keys.iter().map(String::as_str)), "seed {seed}");
    }
}

#[test]
fn ranks_are_a_sorted_lists_on_small_boards_with_ties() {
    for seed in 0..20 {
        for shards in [1, 2, 16] {
            check(seed, 1_000, shards, 50, 2, 50);
            check(seed, 1_000, shards, 10_000_000, 4, 50);
        }
    }
}

#[test]
fn ranks_are_a_sorted_lists_on_a_board_of_100_000() {
    for shards in [1, 2, 16] {
        check(7, 100_000, shards, 1_000_000_000, 5, 200);
    }
}

#[test]
fn ranks_are_a_sorted_lists_on_a_board_of_a_million() {
    check(11, 1_000_000, 16, 10_000_000_000, 6, 40);
}
