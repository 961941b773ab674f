//! Several layouts through one type: `#[key(legacy = OldKey)]` reads keys written in an older
//! layout (here a narrower score and no version), converts them, and says which layout matched;
//! ranges run once per live layout and merge in the current order, each item once.

use sortkey_core::{Legacy, SortKey, merge_layouts};
use sortkey_tests::leaderboard::{RankKey, RankKeyV1};

#[test]
fn both_layouts_read_as_the_current_type() {
    let old = RankKeyV1 { score: 1500, player: "p1".into() }.encode().unwrap();
    let new = RankKey { score: 1500, player: "p1".into() }.encode().unwrap();
    assert_ne!(old, new);
    let a = RankKey::decode_any(&old).unwrap();
    let b = RankKey::decode_any(&new).unwrap();
    assert_eq!(a.key, b.key);
    assert_eq!((a.version, b.version), (1, 0));
    assert!(!a.is_current() && b.is_current());
    assert_eq!(a.layout.to_string(), "RUN#{score:u64 width=10 desc}#{player:text}");
    assert_eq!(RankKey::LEGACY_LAYOUTS.len(), 1);
    // A key no layout reads is the current layout's error.
    let e = RankKey::decode_any("RUN#12#p").unwrap_err();
    assert!(e.to_string().contains("`RankKey`"), "{e}");
}

#[test]
fn a_range_runs_once_per_layout_and_merges_each_item_once() {
    // A partition half migrated: scores 10..20 in both layouts, one of them (15) in both.
    let mut table: Vec<String> = Vec::new();
    for score in 10..20u64 {
        let player = format!("p{score}");
        if score % 2 == 0 || score == 15 {
            table.push(RankKeyV1 { score, player: player.clone() }.encode().unwrap());
        }
        if score % 2 == 1 {
            table.push(RankKey { score, player }.encode().unwrap());
        }
    }
    table.sort();
    let conditions =
        [RankKey::query().score_between(12, 17).unwrap(), RankKeyV1::query().score_between(12, 17).unwrap()];
    let pages: Vec<Vec<_>> = conditions
        .iter()
        .map(|c| table.iter().filter(|k| c.matches(k)).map(|k| (RankKey::decode_any(k).unwrap(), ())).collect())
        .collect();
    let merged = merge_layouts(pages, true);
    let scores: Vec<u64> = merged.iter().map(|(k, ())| k.key.score).collect();
    assert_eq!(scores, [17, 16, 15, 14, 13, 12], "highest first, each once");
    let fifteen = merged.iter().find(|(k, ())| k.key.score == 15).unwrap();
    assert!(fifteen.0.is_current(), "the current copy wins");
    let backwards: Vec<u64> = merge_layouts(
        conditions
            .iter()
            .map(|c| table.iter().filter(|k| c.matches(k)).map(|k| (RankKey::decode_any(k).unwrap(), ())).collect())
            .collect(),
        false,
    )
    .iter()
    .map(|(k, ())| k.key.score)
    .collect();
    assert_eq!(backwards, [12, 13, 14, 15, 16, 17]);
}
