//! The derived query builder's comparisons, now that `<` and `>` also ask whether the value is
//! an end of the field's range (a comparison past it is `EmptyRange`), against the same
//! condition without that question (`QueryHead::compare`, what the builder called before) and
//! against the bounds a service formats by hand (no checks at all), in one run.
//!
//! `cargo bench -p sortkey-core --bench queries`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group};
use sortkey_core::query::{Comparison, QueryHead};
use sortkey_core::{Field, KeyCondition, KeyRole, KeySegment, SortKey};

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN")]
struct RankKey {
    #[key(width = 10, desc)]
    score: u64,
    #[key(width = 16)]
    timestamp: u64,
    player_id: String,
}

const SCORE: Field = Field::new("RankKey", "score", '#').with_width(10).with_desc(true);
const TIMESTAMP: Field = Field::new("RankKey", "timestamp", '#').with_width(16);

/// `score > s` as the builder wrote it before the end check: the same head and bounds.
fn without_end_check(score: u64) -> KeyCondition {
    QueryHead::new("RankKey", Some("RUN"), '#', 1024, KeyRole::Sort)
        .compare(Comparison::Gt, &SCORE, &score, <u64 as KeySegment>::encode_segment)
        .unwrap()
}

/// `score = s, timestamp > t`, before the end check.
fn without_end_check_fixed(score: u64, t: u64) -> KeyCondition {
    QueryHead::new("RankKey", Some("RUN"), '#', 1024, KeyRole::Sort)
        .fix(&score, &SCORE, <u64 as KeySegment>::encode_segment)
        .compare(Comparison::Gt, &TIMESTAMP, &t, <u64 as KeySegment>::encode_segment)
        .unwrap()
}

/// What a service writes by hand: `format!` of the bounds, no width or overflow checks.
fn by_hand(score: u64) -> KeyCondition {
    KeyCondition::Between("RUN#".to_owned(), format!("RUN#{:010}", 9_999_999_999 - score))
}

fn by_hand_fixed(score: u64, t: u64) -> KeyCondition {
    KeyCondition::Between(
        format!("RUN#{:010}#{:016}$", 9_999_999_999 - score, t),
        format!("RUN#{:010}$", 9_999_999_999 - score),
    )
}

fn bench(c: &mut Criterion) {
    assert_eq!(RankKey::query().score_range().gt(1500).unwrap(), without_end_check(1500));
    assert_eq!(
        RankKey::query().score(1500).timestamp_range().gt(1_719_100_800).unwrap(),
        without_end_check_fixed(1500, 1_719_100_800)
    );
    assert_eq!(by_hand(1500), without_end_check(1500));
    assert_eq!(by_hand_fixed(1500, 1_719_100_800), without_end_check_fixed(1500, 1_719_100_800));
    let mut g = c.benchmark_group("query_gt");
    g.bench_function("derive", |b| b.iter(|| RankKey::query().score_range().gt(black_box(1500)).unwrap()));
    g.bench_function("no_end_check", |b| b.iter(|| without_end_check(black_box(1500))));
    g.bench_function("format", |b| b.iter(|| by_hand(black_box(1500))));
    g.finish();
    let mut g = c.benchmark_group("query_fixed_gt");
    let t = 1_719_100_800;
    g.bench_function("derive", |b| {
        b.iter(|| RankKey::query().score(black_box(1500)).timestamp_range().gt(black_box(t)).unwrap())
    });
    g.bench_function("no_end_check", |b| b.iter(|| without_end_check_fixed(black_box(1500), black_box(t))));
    g.bench_function("format", |b| b.iter(|| by_hand_fixed(black_box(1500), black_box(t))));
    g.finish();
}

fn config() -> Criterion {
    Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
