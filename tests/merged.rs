//! The merged read of a sharded partition against the oracle it must equal: one Query over the
//! union of the shards. Shards held in memory, read through `Merge` as a driver reads DynamoDB
//! (a Query returns at most `Limit` items after `ExclusiveStartKey`, with a `LastEvaluatedKey`
//! when it stopped at the limit), for 1, 2, 16 and 64 shards, both directions, every kind of
//! bound the typed builder makes, limits 1 to 1,000, ties between shards, empty shards and one
//! shard holding every match. Every page is checked: its items, its cursor, and what it read
//! against the budget `limit + N * ceil(1.5 * limit / N)` (plus one tie read per shard after a
//! cursor of `random` shards).

use proptest::prelude::*;
use sortkey_core::query::{Merge, MergeCursor, ShardRead};
use sortkey_core::{KeyCondition, SortKey};

/// The sort key the shards hold: a score and a player.
#[derive(SortKey, Clone, Debug, PartialEq)]
#[key(prefix = "R")]
struct RunSk {
    #[key(width = 3)]
    score: u16,
    player: String,
}

const PLAYERS: [&str; 3] = ["ann", "bob", "bo"];

/// One shard: its encoded sort keys, ascending (a partition holds each sort key once).
type ShardItems = Vec<String>;

/// What one Query of `shard` returns: at most `limit` of its items that `condition` selects,
/// in the direction, after `after`, and whether it stopped at the limit.
fn query(
    shard: &ShardItems,
    condition: Option<&KeyCondition>,
    forward: bool,
    limit: usize,
    after: Option<&str>,
) -> (Vec<String>, bool) {
    let selected = shard.iter().filter(|k| condition.is_none_or(|c| c.matches(k)));
    let ordered: Vec<&String> = if forward { selected.collect() } else { selected.rev().collect() };
    let items: Vec<String> = ordered
        .into_iter()
        .filter(|k| after.is_none_or(|a| if forward { k.as_str() > a } else { k.as_str() < a }))
        .take(limit)
        .cloned()
        .collect();
    let more = items.len() == limit;
    (items, more)
}

/// What one sort key in two shards is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Cannot happen (`by` shards): no tie reads.
    Distinct,
    /// Two items (`random` shards).
    Ties,
    /// Two copies of one item (a shard-count move): returned once, the first shard's.
    Copies,
}

/// One merged page, read as a driver reads, with the answers in `order` (a permutation seed):
/// concurrent reads answer in any order.
fn merged_page(
    shards: &[ShardItems],
    condition: Option<&KeyCondition>,
    forward: bool,
    limit: usize,
    cursor: Option<&MergeCursor>,
    mode: Mode,
    order: u64,
) -> sortkey_core::query::MergedPage<String> {
    let n = u16::try_from(shards.len()).unwrap();
    let mut merge = Merge::new(n, limit, forward, cursor, mode == Mode::Ties);
    if mode == Mode::Copies {
        merge = merge.copies();
    }
    let mut turn = order;
    while !merge.is_done() {
        let mut reads = merge.reads();
        assert!(!reads.is_empty(), "a merge that is not done asks for a read");
        // Answer in an order the seed picks.
        while !reads.is_empty() {
            turn = turn.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let read = reads.swap_remove((turn >> 33) as usize % reads.len());
            let shard = &shards[usize::from(read.shard())];
            match &read {
                ShardRead::Query { limit, after, .. } => {
                    let (items, more) = query(shard, condition, forward, *limit, after.as_deref());
                    merge.answer(&read, items.into_iter().map(|k| (k.clone(), k)).collect(), more);
                }
                ShardRead::Tie { sort, .. } => {
                    let found = shard.iter().filter(|k| *k == sort).map(|k| (k.clone(), k.clone())).collect();
                    merge.answer(&read, found, false);
                }
            }
        }
    }
    merge.finish()
}

/// The oracle: every selected item of every shard, in (sort key, shard) order, reversed for a
/// reverse read.
fn oracle(shards: &[ShardItems], condition: Option<&KeyCondition>, forward: bool) -> Vec<(u16, String)> {
    let mut all: Vec<(String, u16)> = shards
        .iter()
        .enumerate()
        .flat_map(|(i, s)| {
            s.iter().filter(|k| condition.is_none_or(|c| c.matches(k))).map(move |k| (k.clone(), i as u16))
        })
        .collect();
    all.sort();
    if !forward {
        all.reverse();
    }
    all.into_iter().map(|(k, i)| (i, k)).collect()
}

/// A condition of each kind the builder makes, from `kind` and two scores.
fn condition(kind: u8, a: u16, b: u16) -> Option<KeyCondition> {
    let (lo, hi) = (a.min(b), a.max(b));
    let q = || RunSk::query();
    Some(match kind % 10 {
        0 => return None,
        1 => q().score(a).player("bob").eq().unwrap(),
        2 => q().score_range().gt(a).unwrap(),
        3 => q().score_range().gte(a).unwrap(),
        4 => q().score_range().lt(a.max(1)).unwrap(), // below 0 is the empty range, an error
        5 => q().score_range().lte(a).unwrap(),
        6 => q().score_range().between(lo, hi).unwrap(),
        7 => q().score(a).begins_with().unwrap(),
        8 => q().score(a).player_range().begins_with("bo").unwrap(),
        _ => q().begins_with().unwrap(),
    })
}

/// The shards: `entries` (score, player, shard) placed, or all in shard 0 when `hot`.
fn shards_of(n: usize, entries: &[(u16, usize, usize)], hot: bool) -> Vec<ShardItems> {
    let mut shards = vec![Vec::new(); n];
    for &(score, player, shard) in entries {
        let key = RunSk { score, player: PLAYERS[player % PLAYERS.len()].into() }.encode().unwrap();
        shards[if hot { 0 } else { shard % n }].push(key);
    }
    for s in &mut shards {
        s.sort();
        s.dedup();
    }
    shards
}

/// One generated case: the shards' contents, the condition, the page size and direction.
#[derive(Debug)]
struct Case {
    n: usize,
    entries: Vec<(u16, usize, usize)>,
    hot: bool,
    kind: u8,
    a: u16,
    b: u16,
    limit: usize,
    forward: bool,
    order: u64,
}

fn check(case: &Case) {
    let Case { n, ref entries, hot, kind, a, b, limit, forward, order } = *case;
    let shards = shards_of(n, entries, hot);
    let condition = condition(kind, a, b);
    let expected = oracle(&shards, condition.as_ref(), forward);
    // Ties: the same sort key in two shards (random shards).
    let ties = Mode::Ties;
    let (mut got, mut cursor, mut pages) = (Vec::new(), None, 0);
    loop {
        let page = merged_page(&shards, condition.as_ref(), forward, limit, cursor.as_ref(), ties, order ^ pages);
        pages += 1;
        let share = (3 * limit).div_ceil(2 * n);
        let budget = limit + n * share + if cursor.is_some() { n } else { 0 };
        assert!(page.read <= budget, "page {pages} read {} items, budget {budget}", page.read);
        let at = got.len();
        assert_eq!(page.items.len(), limit.min(expected.len() - at), "page {pages} has a full page or the rest");
        got.extend(page.items);
        // A page knows whether anything follows: no `next` after the last, full or not.
        assert_eq!(page.next.is_some(), got.len() < expected.len(), "page {pages}: `next` says whether more follow");
        match page.next {
            Some(next) => {
                assert_eq!(MergeCursor::parse(&next.to_string()), Some(next.clone()), "the cursor's text");
                let (shard, sort) = got.last().unwrap();
                assert_eq!((next.shard, &next.sort), (*shard, sort), "the cursor is the last item");
                cursor = Some(next);
            }
            None => break,
        }
        assert!(pages <= 2 + (expected.len() / limit) as u64, "pages end");
    }
    assert_eq!(got, expected);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn a_merged_read_is_one_query_over_the_union(
        n in prop::sample::select(vec![1usize, 2, 16, 64]),
        entries in prop::collection::vec((0u16..40, 0usize..3, 0usize..64), 0..300),
        hot in prop::bool::weighted(0.15),
        kind in 0u8..10,
        a in 0u16..40,
        b in 0u16..40,
        limit in prop_oneof![1usize..20, 1usize..1001],
        forward: bool,
        order: u64,
    ) {
        check(&Case { n, entries, hot, kind, a, b, limit, forward, order });
    }
}

#[test]
fn a_top_100_over_16_shards_reads_at_most_260() {
    // Every match in one shard: the worst case for the budget.
    let entries: Vec<(u16, usize, usize)> = (0..999u16).map(|i| (i % 999, 0, 3)).collect();
    let shards = shards_of(16, &entries, false);
    let page = merged_page(&shards, None, false, 100, None, Mode::Distinct, 7);
    assert_eq!(page.items.len(), 100);
    assert!(page.read <= 260, "read {}", page.read);
    // Spread evenly, the first reads answer it: 16 reads of 10.
    let spread: Vec<(u16, usize, usize)> = (0..999u16).map(|i| (i, 0, usize::from(i) % 16)).collect();
    let page = merged_page(&shards_of(16, &spread, false), None, true, 100, None, Mode::Distinct, 7);
    assert!(page.read <= 260 && page.requests <= 32, "read {} in {} requests", page.read, page.requests);
}

/// Copies: items mid-move between two shard counts, each sort key in one shard of the new count
/// (the first `new` shards) and, not yet moved, also in one of the old count (the rest). The
/// merged read returns each once, from the new shard when it is there, in order, page by page.
fn check_copies(new: usize, old: usize, entries: &[(u16, usize, usize, u8)], limit: usize, forward: bool, order: u64) {
    let mut shards: Vec<ShardItems> = vec![Vec::new(); new + old];
    // Each entry: in the new count's shard, the old count's, or both (mid-move).
    let mut expected: Vec<(String, u16)> = Vec::new();
    for &(score, player, shard, state) in entries {
        let key = RunSk { score, player: PLAYERS[player % PLAYERS.len()].into() }.encode().unwrap();
        if expected.iter().any(|(k, _)| *k == key) {
            continue;
        }
        let (in_new, in_old) = (shard % new, new + shard % old);
        let holder = match state % 3 {
            0 => vec![in_new],
            1 => vec![in_old],
            _ => vec![in_new, in_old],
        };
        for &h in &holder {
            shards[h].push(key.clone());
        }
        expected.push((key, *holder.iter().min().unwrap() as u16));
    }
    for s in &mut shards {
        s.sort();
    }
    expected.sort();
    if !forward {
        expected.reverse();
    }
    let (mut got, mut cursor, mut pages) = (Vec::new(), None, 0u64);
    loop {
        let page = merged_page(&shards, None, forward, limit, cursor.as_ref(), Mode::Copies, order ^ pages);
        pages += 1;
        got.extend(page.items.into_iter().map(|(shard, k)| (k, shard)));
        assert_eq!(page.next.is_some(), got.len() < expected.len(), "page {pages}: `next` says whether more follow");
        match page.next {
            Some(next) => cursor = Some(next),
            None => break,
        }
        assert!(pages <= 1 + (expected.len() / limit) as u64, "pages end");
    }
    assert_eq!(got, expected, "each item once, the new shard's copy");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn a_merged_read_across_two_shard_counts_returns_each_item_once(
        counts in prop::sample::select(vec![(2usize, 1usize), (4, 2), (16, 8), (8, 16)]),
        entries in prop::collection::vec((0u16..60, 0usize..3, 0usize..64, 0u8..3), 0..200),
        limit in prop_oneof![1usize..10, 1usize..300],
        forward: bool,
        order: u64,
    ) {
        check_copies(counts.0, counts.1, &entries, limit, forward, order);
    }
}
